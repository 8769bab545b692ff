//! The refinement's view of the decision procedure: satisfiability of a conjunction of path
//! conditions, with values for chosen expressions in a model.

use crate::RefineStatistics;
use c_ir::Expr;
use solver::{SolveResult, Solver, SolverConfig};

/// Answer of a satisfiability check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SatAnswer {
    /// Satisfiable; the values of the requested expressions in one model (`None` when the
    /// formula does not constrain one).
    Sat(Vec<Option<i128>>),
    Unsat,
    /// The solver could not decide (unsupported construct, resource limit).
    Unknown(String),
}

/// Settings for the solver calls of a refinement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolverSettings {
    pub config: SolverConfig,
}

/// Whether the conjunction of `formulas` is satisfiable; on success the model's values of
/// `model_of` (asked only when non-empty, through the solver's incremental context).
pub fn check_conjunction(solver: &mut Solver, formulas: &[Expr], model_of: &[Expr], stats: &mut RefineStatistics) -> SatAnswer {
    stats.solver_calls += 1;
    if formulas.iter().any(|f| f.is_false()) {
        return SatAnswer::Unsat;
    }
    let conjunction = logic::conjunction(formulas);
    if model_of.is_empty() {
        return match solver.is_satisfiable(&conjunction) {
            solver::Answer::Yes => SatAnswer::Sat(Vec::new()),
            solver::Answer::No => SatAnswer::Unsat,
            solver::Answer::Unknown(r) => SatAnswer::Unknown(r),
        };
    }
    let context = solver.context();
    let lit = match context.literal(&conjunction) {
        Ok(l) => l,
        Err(u) => return SatAnswer::Unknown(u.to_string()),
    };
    // make sure every requested term is encoded, so the model has a value for it
    for e in model_of {
        if e.ty.is_scalar() {
            let _ = context.literal(&Expr::eq(e.clone(), e.clone()));
        }
    }
    match context.solve(&[lit]) {
        SolveResult::Sat => SatAnswer::Sat(model_of.iter().map(|e| context.model_value(e)).collect()),
        SolveResult::Unsat => SatAnswer::Unsat,
        SolveResult::Unknown => SatAnswer::Unknown("the SAT solver gave up".into()),
    }
}
