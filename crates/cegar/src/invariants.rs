//! SAFE verdicts' invariants: the model checker's reachable states at procedure entries and loop
//! heads, read back as C predicates over the final predicate set.

use c_ir::{display_expr, BinaryOp, Expr, Program, StmtKind, StmtRef, VarId, VarKind};
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

/// Distinct states kept per program point before [`execution_invariants`] falls back to bounds.
const MAX_LISTED_STATES: usize = 8;

/// What one run saw at one program point.
#[derive(Default)]
struct Visits {
    /// Distinct valuations of the written integer variables (up to `MAX_LISTED_STATES + 1`).
    states: Vec<Vec<(VarId, i128)>>,
    /// Per variable: smallest and largest value, and whether it was written at every visit.
    bounds: Vec<(VarId, i128, i128, bool)>,
    count: u64,
}

/// The invariants of a program that has a single execution (`replay::single_execution`): at
/// each procedure entry and loop head, the states that execution passes through — listed when
/// there are at most 8, else as bounds of each integer variable — over the integer variables
/// (source locals, formals, globals) written by then. They hold because there is no other run.
pub fn execution_invariants(program: &Program, max_steps: u64) -> Vec<ProgramPointInvariant> {
    use std::collections::HashMap;
    let points = invariant_points(program);
    let kinds: HashMap<StmtRef, InvariantPoint> = points.iter().copied().collect();
    let mut visits: HashMap<StmtRef, Visits> = HashMap::new();
    let tracked = |proc: c_ir::ProcId| -> Vec<VarId> {
        let p = program.proc(proc);
        program
            .globals
            .iter()
            .chain(p.formals.iter())
            .chain(p.locals.iter())
            .copied()
            .filter(|&v| {
                let var = program.var(v);
                var.ty.is_integer() && matches!(var.kind, VarKind::Global | VarKind::Local(_) | VarKind::Formal(..))
            })
            .collect()
    };
    let mut scope: HashMap<c_ir::ProcId, Vec<VarId>> = HashMap::new();
    let mut observe = |at: StmtRef, state: &c_ir::interp::State| {
        if !kinds.contains_key(&at) {
            return;
        }
        let vars = scope.entry(at.proc).or_insert_with(|| tracked(at.proc));
        let valuation: Vec<(VarId, i128)> =
            vars.iter().filter(|&&v| state.is_written(v)).filter_map(|&v| Some((v, state.value_of(v)?))).collect();
        let entry = visits.entry(at).or_default();
        if entry.count == 0 {
            entry.bounds = valuation.iter().map(|&(v, x)| (v, x, x, true)).collect();
        } else {
            for b in entry.bounds.iter_mut() {
                match valuation.iter().find(|(v, _)| *v == b.0) {
                    Some(&(_, x)) => {
                        b.1 = b.1.min(x);
                        b.2 = b.2.max(x);
                    }
                    None => b.3 = false,
                }
            }
        }
        entry.count += 1;
        if entry.states.len() <= MAX_LISTED_STATES && !entry.states.contains(&valuation) {
            entry.states.push(valuation);
        }
    };
    let mut feed = |_: &c_ir::Type| -> i128 { 0 };
    // skipped loop iterations pass through states between those observed before and after
    // the jump: bounds cover them, a list of states would not
    let accelerated = c_ir::interp::run_observed(program, &mut feed, &crate::replay::run_limits(max_steps), &mut observe).skipped_iterations > 0;
    let mut out = Vec::new();
    for (at, point) in points {
        // a point the execution never reaches: nothing holds there but `false`
        let formula = match visits.get(&at) {
            None => Expr::bool(false),
            Some(v) if v.states.len() <= MAX_LISTED_STATES && !accelerated => logic::balanced(
                v.states.iter().map(|state| logic::conjunction(&state.iter().map(|&(x, value)| equals(program, x, value)).collect::<Vec<_>>())).collect(),
                BinaryOp::Or,
            ),
            Some(v) => logic::conjunction(
                &v.bounds
                    .iter()
                    .filter(|b| b.3)
                    .flat_map(|&(x, lo, hi, _)| {
                        if lo == hi {
                            vec![equals(program, x, lo)]
                        } else {
                            let ty = program.var(x).ty.clone();
                            let var = Expr::var(x, ty.clone());
                            vec![Expr::binary(BinaryOp::Ge, var.clone(), Expr::int(lo, ty.clone())), Expr::binary(BinaryOp::Le, var, Expr::int(hi, ty))]
                        }
                    })
                    .collect::<Vec<_>>(),
            ),
        };
        let text = display_expr(program, &formula);
        out.push(ProgramPointInvariant { at, point, span: program.stmt(at).span, line: 0, formula, text });
    }
    out
}

fn equals(program: &Program, x: VarId, value: i128) -> Expr {
    let ty = program.var(x).ty.clone();
    Expr::eq(Expr::var(x, ty.clone()), Expr::int(value, ty))
}
