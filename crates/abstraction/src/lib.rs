//! abstraction (under construction).
