//! Program points where invariants are reported: procedure entries and loop heads (the
//! targets of backward jumps), and an invariant at such a point as a C formula.

use crate::{Expr, Program, StmtRef};
use diagnostics::Span;

/// Which kind of program point an invariant describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InvariantPoint {
    ProcedureEntry,
    LoopHead,
}

/// An invariant at one C statement (holds every time execution reaches it, before it runs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgramPointInvariant {
    pub at: StmtRef,
    pub point: InvariantPoint,
    pub span: Span,
    /// 1-based source line (0 when unknown).
    pub line: u32,
    pub formula: Expr,
    pub text: String,
}

/// The procedure entries and loop heads (targets of backward jumps) of `program`.
pub fn invariant_points(program: &Program) -> Vec<(StmtRef, InvariantPoint)> {
    let mut out = Vec::new();
    for proc_id in program.proc_ids() {
        let proc = program.proc(proc_id);
        if proc.body.is_empty() {
            continue;
        }
        out.push((StmtRef { proc: proc_id, index: 0 }, InvariantPoint::ProcedureEntry));
        for h in proc.loop_heads() {
            if h != 0 {
                out.push((StmtRef { proc: proc_id, index: h }, InvariantPoint::LoopHead));
            }
        }
    }
    out
}

