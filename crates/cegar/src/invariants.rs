//! SAFE verdicts' invariants: the model checker's reachable states at procedure entries and loop
//! heads, read back as C predicates over the final predicate set.

use c_ir::points::{invariant_points, ProgramPointInvariant};
use c_ir::{display_expr, BinaryOp, Expr, Program, StmtKind, StmtRef};

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

/// Invariants with more cubes or clauses than this are weakened to a readable size: a
/// disjunction of cubes to the literals all its cubes share, a conjunction of clauses to its
/// first clauses. Both are still invariants (implied by the exact one). `diskperf_simpl1.cil`
/// has one of some 10^5 cubes, 55 MB as text.
const MAX_INVARIANT_TERMS: usize = 128;

fn cubes_to_expr(abs: &abstraction::Abstraction, proc: c_ir::ProcId, cubes: &[Vec<model_check::Literal>]) -> Expr {
    if cubes.len() > MAX_INVARIANT_TERMS {
        let shared: Vec<model_check::Literal> =
            cubes[0].iter().filter(|lit| cubes[1..].iter().all(|cube| cube.contains(lit))).cloned().collect();
        return cubes_to_expr(abs, proc, &[shared]);
    }
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
    logic::balanced(disjuncts, BinaryOp::Or)
}

/// The CNF form: a clause with a literal over a helper variable is dropped as a whole (dropping
/// only the literal would strengthen the invariant).
fn clauses_to_expr(abs: &abstraction::Abstraction, proc: c_ir::ProcId, clauses: &[Vec<model_check::Literal>]) -> Expr {
    let clauses = &clauses[..clauses.len().min(MAX_INVARIANT_TERMS)];
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
    logic::balanced(conjuncts, BinaryOp::And)
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
