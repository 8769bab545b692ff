//! Integration tests of the C front end and the IR interpreter: golden IR of the seed papers'
//! examples, predicate files, lowering semantics checked by running the interpreter, agreement
//! with gcc, malformed input, and the SV-COMP benchmark files.

mod acceleration;
mod benchmarks;
mod conventions;
mod gcc;
mod gcc_random;
mod lowering;
mod malformed;
mod nesting;
mod predicates;
mod determinism;
mod seeds;
mod support;
