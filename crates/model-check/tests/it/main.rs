//! Integration tests of the model checker: hand-written programs with golden outputs, trace replay, and differential tests.

mod differential;
mod golden;
mod limits;
mod memory;
mod pds;
mod spin;
