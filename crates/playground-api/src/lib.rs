//! playground-api (under construction).
