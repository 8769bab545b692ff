//! web (under construction).
