//! Integration tests of `logic`: the seeds' worked examples, simplification, cone of influence.

mod builder;
mod seeds;
mod simplification;
