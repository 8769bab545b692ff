//! logic (under construction).
