//! boolprog (under construction).
