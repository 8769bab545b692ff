//! Integration tests of `logic`: the seeds' worked examples, simplification, cone of influence.

mod builder;
mod deep_terms;
mod seeds;
mod simplification;
