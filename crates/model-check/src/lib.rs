//! model-check (under construction).
