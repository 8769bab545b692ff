//! Integration tests of the model checker: hand-written programs with golden outputs, trace replay, and differential tests.

mod differential;
mod golden;
mod limits;
// The child-process harness is shared with the abstraction crate's memory test (one copy).
#[path = "../../../abstraction/tests/it/child_process.rs"]
mod child_process;
mod memory;
mod pds;
mod spin;
