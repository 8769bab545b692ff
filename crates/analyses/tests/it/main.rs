//! Tests of the analyses beside the loop: each against concrete runs of the interpreter.

use c_ir::Program;

mod affine;
mod bmc;
mod fixpoint;
mod heap;
mod polynomial;
mod summaries;
mod zones;

fn lower_source(source: &str) -> Program {
    let (program, diagnostics) = c_front::lower(source, "test.c", &c_front::LowerOptions::default());
    assert!(!diagnostics::has_errors(&diagnostics), "{diagnostics:?}");
    program.expect("lowered")
}
