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

/// Side conditions saying that no signed `int` or `long` addition, subtraction or
/// multiplication in `formulas` overflows (undefined behaviour in C, so the concrete
/// interpreter rejects a run that does it). 32-bit operations are compared with their exact
/// 64-bit result, 64-bit sums and differences by the signs of operands and result; 64-bit
/// products are left unconstrained.
pub fn no_signed_overflow(formulas: &[Expr]) -> Vec<Expr> {
    use c_ir::{BinaryOp, ExprKind, Type};
    let mut out: Vec<Expr> = Vec::new();
    for f in formulas {
        f.visit(&mut |e| {
            let ExprKind::Binary(op @ (BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul), a, b) = &e.kind else { return };
            let Type::Int { bits, signed: true } = e.ty else { return };
            if a.ty != e.ty || b.ty != e.ty || a.as_const().is_some() && b.as_const().is_some() {
                return;
            }
            let condition = if bits == 32 {
                let wide = Type::Int { bits: 64, signed: true };
                let exact = Expr::binary(*op, Expr::cast((**a).clone(), wide.clone()), Expr::cast((**b).clone(), wide.clone()));
                Expr::eq(exact, Expr::cast(e.clone(), wide))
            } else if bits == 64 && *op != BinaryOp::Mul {
                let negative = |x: &Expr| Expr::binary(BinaryOp::Lt, x.clone(), Expr::int(0, e.ty.clone()));
                let (sa, sb, sr) = (negative(a), negative(b), negative(e));
                // a + b overflows when a and b have one sign and the result the other; a - b when
                // a and b have different signs and the result has b's
                let operands_agree = Expr::eq(sa.clone(), sb);
                let guard = if *op == BinaryOp::Add { Expr::logical_not(operands_agree) } else { operands_agree };
                Expr::or(guard, Expr::eq(sr, sa))
            } else {
                return;
            };
            if !out.contains(&condition) {
                out.push(condition);
            }
        });
    }
    out
}

/// The values of `model_of` in a model of `formulas` where no signed arithmetic overflows, when
/// there is one (so that the inputs replay in the concrete interpreter); otherwise `values`, the
/// model already found.
pub fn prefer_defined_model(
    solver: &mut Solver,
    formulas: &[Expr],
    model_of: &[Expr],
    stats: &mut RefineStatistics,
    values: Vec<Option<i128>>,
) -> Vec<Option<i128>> {
    let side = no_signed_overflow(formulas);
    if side.is_empty() {
        return values;
    }
    let all: Vec<Expr> = formulas.iter().cloned().chain(side).collect();
    match check_conjunction(solver, &all, model_of, stats) {
        SatAnswer::Sat(defined) => defined,
        SatAnswer::Unsat | SatAnswer::Unknown(_) => values,
    }
}
