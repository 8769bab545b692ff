//! c-front (under construction).
