//! Integration tests of the abstraction: hand-built IR, the seeds' figures (golden files under
//! `tests/abstraction/`), lattice/exact equivalence, soundness against the interpreter.

mod calls;
mod handmade;
mod soundness;
mod soundness_calls;
mod support;
mod figures;
mod table2;
mod cache;
mod robustness;
mod child_process;
mod memory;
mod variants;
mod conventions;
mod wp_records;
