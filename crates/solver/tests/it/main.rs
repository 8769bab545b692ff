//! Integration tests of the solver: brute force, Z3 differential, memory model, incremental API.

mod brute_force;
mod builder;
mod generate;
mod incremental;
mod memory_model;
mod z3_differential;
