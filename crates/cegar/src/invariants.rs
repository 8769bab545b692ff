//! SAFE verdicts' invariants: the model checker's reachable states at procedure entries and loop
//! heads, read back as C predicates over the final predicate set.

use c_ir::{display_expr, Expr, Program, StmtKind, StmtRef};
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
        let mut heads: Vec<u32> = Vec::new();
        for (i, stmt) in proc.body.iter().enumerate() {
            if let StmtKind::Goto { targets } = &stmt.kind {
                for &t in targets {
                    if t as usize <= i && !heads.contains(&t) {
                        heads.push(t);
                    }
                }
            }
        }
        heads.sort_unstable();
        for h in heads {
            if h != 0 {
                out.push((StmtRef { proc: proc_id, index: h }, InvariantPoint::LoopHead));
            }
        }
    }
    out
}

/// The invariant before `at`: the model checker's states before the first boolean statement
/// coming from `at` (or from the next C statement that has one, along fall-through and
/// single-target jumps), as a C formula.
pub fn invariant_at(program: &Program, abs: &abstraction::Abstraction, mc: &model_check::Outcome, at: StmtRef) -> Option<Expr> {
    candidate_statements(program, at).into_iter().find_map(|index| {
        let inv = mc.invariants.iter().find(|inv| inv.origin.is_some_and(|o| o.proc == at.proc.0 && o.index == index))?;
        Some(match &inv.clauses {
            Some(clauses) => clauses_to_expr(abs, at.proc, clauses),
            None => cubes_to_expr(abs, at.proc, &inv.cubes),
        })
    })
}

/// The C statements, in order, whose boolean statements may carry the invariant before `at`:
/// `at` itself, then along fall-through and single-target jumps over statements that change
/// nothing.
fn candidate_statements(program: &Program, at: StmtRef) -> Vec<u32> {
    let proc = program.proc(at.proc);
    let mut index = at.index;
    let mut seen = Vec::new();
    loop {
        seen.push(index);
        let succ = proc.successors(index);
        match succ.as_slice() {
            [next] if !seen.contains(next) && !matches!(proc.body[index as usize].kind, StmtKind::Assume { .. } | StmtKind::Call { .. } | StmtKind::Assign { .. } | StmtKind::Havoc { .. } | StmtKind::Malloc { .. }) => index = *next,
            _ => return seen,
        }
    }
}

/// The boolean-program origins whose invariants [`program_point_invariants`] reads (so the model
/// checker can skip printing all others).
pub fn needed_origins(program: &Program) -> Vec<boolprog::Origin> {
    let mut out = Vec::new();
    for (at, _) in invariant_points(program) {
        for index in candidate_statements(program, at) {
            let o = boolprog::Origin { proc: at.proc.0, index };
            if !out.contains(&o) {
                out.push(o);
            }
        }
    }
    out
}

fn cubes_to_expr(abs: &abstraction::Abstraction, proc: c_ir::ProcId, cubes: &[Vec<model_check::Literal>]) -> Expr {
    let in_scope = abs.variables_in_scope(proc);
    let mut disjuncts = Vec::new();
    for cube in cubes {
        let mut conjuncts = Vec::new();
        for lit in cube {
            // literals over helper variables (prm/ret temporaries) are dropped: a weaker invariant
            if let Some(var) = in_scope.iter().find(|v| v.name == lit.var) {
                conjuncts.push(if lit.value { var.predicate.clone() } else { Expr::logical_not(var.predicate.clone()) });
            }
        }
        disjuncts.push(logic::conjunction(&conjuncts));
    }
    logic::disjunction(&disjuncts)
}

/// The CNF form: a clause with a literal over a helper variable is dropped as a whole (dropping
/// only the literal would strengthen the invariant).
fn clauses_to_expr(abs: &abstraction::Abstraction, proc: c_ir::ProcId, clauses: &[Vec<model_check::Literal>]) -> Expr {
    let in_scope = abs.variables_in_scope(proc);
    let mut conjuncts = Vec::new();
    'clauses: for clause in clauses {
        let mut disjuncts = Vec::new();
        for lit in clause {
            match in_scope.iter().find(|v| v.name == lit.var) {
                Some(var) => disjuncts.push(if lit.value { var.predicate.clone() } else { Expr::logical_not(var.predicate.clone()) }),
                None => continue 'clauses,
            }
        }
        conjuncts.push(logic::disjunction(&disjuncts));
    }
    logic::conjunction(&conjuncts)
}

/// The invariants at every entry and loop head that the model checker reported.
pub fn program_point_invariants(program: &Program, abs: &abstraction::Abstraction, mc: &model_check::Outcome) -> Vec<ProgramPointInvariant> {
    let mut out = Vec::new();
    for (at, point) in invariant_points(program) {
        if let Some(formula) = invariant_at(program, abs, mc, at) {
            let text = display_expr(program, &formula);
            out.push(ProgramPointInvariant { at, point, span: program.stmt(at).span, line: 0, formula, text });
        }
    }
    out
}
