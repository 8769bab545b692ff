//! refine (under construction).
