//! cegar (under construction).
