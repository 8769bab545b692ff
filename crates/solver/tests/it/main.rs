//! Integration tests of the solver: brute force, Z3 differential, memory model, incremental API.

mod brute_force;
mod work_budget;
mod deep_terms;
// The IR builders are shared with the logic crate's tests (one copy).
#[path = "../../../logic/tests/it/builder.rs"]
mod builder;
mod generate;
mod incremental;
mod memory_model;
mod polynomial;
mod z3_differential;
