//! points-to (under construction).
