//! Learning the inconsistent states of a spurious counterexample.
//!
//! C2BP §5.1 excludes the valuations of a procedure's predicates that no C state has with
//! `enforce ¬F(false)`. On a large component of related predicates that search is cut short
//! (inconsistent pairs only, or an exact enumeration that gave up; see `abstraction`'s
//! `enforce_for`), so the boolean program may pass through a valuation no state has, such as
//! `!{v > l} & {v + d > l} & {d >= 1} & {d <= 5} & !{l - v < 5}` over 32-bit integers (five
//! literals; the pairs miss it). Refinement then finds no new predicate, since the predicates
//! are enough and the abstraction is not.
//!
//! This module finds the states of the abstract counterexample whose valuation is unsatisfiable,
//! shrinks each to a minimal unsatisfiable cube (deletion: one solver call per literal, on one
//! incremental context) and returns them; the loop adds them to `enforce`
//! ([`abstraction::LearnedInconsistency`]) and abstracts again. The same path cannot come back:
//! one of its states is excluded for good. Not a technique of the seeds: it is C2BP's own
//! `enforce`, computed on demand for the cubes a counterexample needs (SLAM's `constrain`
//! step does the same for states and transitions).

use crate::records::{LearnedConstraint, LearnedLiteral};
use abstraction::{Abstraction, BooleanVariable, LearnedInconsistency, PredicateScope};
use c_ir::{ProcId, Program};
use solver::{Context, SolveResult, SolverConfig};

/// The minimal inconsistent cubes of the states of `trace` (the initial state is step 0, the
/// state after trace step `i` is step `i + 1`), each once, in trace order. A state the solver
/// cannot decide (budget, unsupported term) is skipped: only proved inconsistencies are learned.
pub(crate) fn inconsistent_states(program: &Program, abs: &Abstraction, trace: &model_check::Trace, config: &SolverConfig, iteration: u32) -> Vec<LearnedConstraint> {
    let mut context = Context::new(program, config);
    let states = std::iter::once((trace.entry, &trace.initial)).chain(trace.steps.iter().map(|s| (s.scope, &s.valuation)));
    let mut learned: Vec<LearnedConstraint> = Vec::new();
    for (step, (bp_scope, valuation)) in states.enumerate() {
        if config.meter.exhausted() {
            break;
        }
        let Some(scope) = abs.program.procs.get(bp_scope.0 as usize).and_then(|p| program.proc_by_name(&p.name)) else { continue };
        let literals: Vec<(&BooleanVariable, bool)> = valuation.iter().filter_map(|(name, value)| Some((variable(abs, scope, name)?, *value))).collect();
        // a state an earlier cube already excludes gives nothing new
        if learned.iter().any(|l| excluded_by(l, &literals)) {
            continue;
        }
        let Some(core) = minimal_core(&mut context, &literals) else { continue };
        learned.push(LearnedConstraint {
            iteration,
            trace_step: step,
            literals: core
                .into_iter()
                .map(|(v, value)| LearnedLiteral { scope: scope_of(v.scope), predicate: v.predicate.clone(), text: v.text.clone(), value })
                .collect(),
        });
    }
    learned
}

/// The cube as the abstraction reads it.
pub(crate) fn as_inconsistency(learned: &LearnedConstraint) -> LearnedInconsistency {
    LearnedInconsistency {
        literals: learned
            .literals
            .iter()
            .map(|l| (l.scope.map_or(PredicateScope::Global, PredicateScope::Procedure), l.predicate.clone(), l.value))
            .collect(),
    }
}

/// The boolean variable `name` as seen in `scope`: a local (or formal) of the procedure before
/// a global of the same name.
fn variable<'a>(abs: &'a Abstraction, scope: ProcId, name: &str) -> Option<&'a BooleanVariable> {
    let local = abs.variables.iter().find(|v| v.name == name && v.scope == PredicateScope::Procedure(scope));
    local.or_else(|| abs.variables.iter().find(|v| v.name == name && v.scope == PredicateScope::Global))
}

fn scope_of(scope: PredicateScope) -> Option<ProcId> {
    match scope {
        PredicateScope::Global => None,
        PredicateScope::Procedure(p) => Some(p),
    }
}

fn excluded_by(learned: &LearnedConstraint, state: &[(&BooleanVariable, bool)]) -> bool {
    learned.literals.iter().all(|l| state.iter().any(|(v, value)| *value == l.value && v.predicate == l.predicate && scope_of(v.scope) == l.scope))
}

/// A minimal subset of `literals` whose conjunction is unsatisfiable, or `None` when the whole
/// conjunction is satisfiable or undecided.
fn minimal_core<'a>(context: &mut Context, literals: &[(&'a BooleanVariable, bool)]) -> Option<Vec<(&'a BooleanVariable, bool)>> {
    // a literal the solver cannot encode is left out: a subset that is unsatisfiable is too
    let mut encoded: Vec<((&BooleanVariable, bool), solver::Lit)> = Vec::new();
    for &(v, value) in literals {
        if let Ok(lit) = context.literal(&v.predicate) {
            encoded.push(((v, value), if value { lit } else { !lit }));
        }
    }
    let lits = |set: &[((&BooleanVariable, bool), solver::Lit)]| set.iter().map(|(_, l)| *l).collect::<Vec<_>>();
    if context.solve(&lits(&encoded)) != SolveResult::Unsat {
        return None;
    }
    let mut i = 0;
    while i < encoded.len() {
        let mut without = encoded.clone();
        without.remove(i);
        if context.solve(&lits(&without)) == SolveResult::Unsat {
            encoded = without;
        } else {
            i += 1;
        }
    }
    Some(encoded.into_iter().map(|(l, _)| l).collect())
}
