//! The refinement's view of the decision procedure: satisfiability of a conjunction of path
//! conditions, with values for chosen expressions in a model.

use crate::RefineStatistics;
use c_ir::Expr;
use solver::{SolveResult, Solver, SolverConfig};

/// Answer of a satisfiability check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum SatAnswer {
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
pub(crate) fn check_conjunction(solver: &mut Solver, formulas: &[Expr], model_of: &[Expr], stats: &mut RefineStatistics) -> SatAnswer {
    stats.solver_calls += 1;
    if formulas.iter().any(|f| f.is_false()) {
        return SatAnswer::Unsat;
    }
    let conjunction = conjoin(formulas);
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

/// The conjunction of `formulas`: the left-nested chain of [`logic::conjunction`], or a
/// balanced tree when the chain would be nested deeper than [`logic::MAX_TERM_DEPTH`] (a path
/// with thousands of conditions; the chain would then get an unknown answer from the solver).
fn conjoin(formulas: &[Expr]) -> Expr {
    let deepest = formulas.iter().map(logic::depth).max().unwrap_or(0);
    if formulas.len() + deepest <= logic::MAX_TERM_DEPTH {
        return logic::conjunction(formulas);
    }
    logic::balanced(formulas.iter().map(logic::simplify).collect(), c_ir::BinaryOp::And)
}

/// Side conditions saying that no signed `int` or `long` addition, subtraction or
/// multiplication in `formulas` overflows (undefined behaviour in C, so the concrete
/// interpreter rejects a run that does it). 32-bit operations are compared with their exact
/// 64-bit result, 64-bit sums and differences by the signs of operands and result; 64-bit
/// products are left unconstrained.
pub(crate) fn no_signed_overflow(formulas: &[Expr]) -> Vec<Expr> {
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
pub(crate) fn prefer_defined_model(
    solver: &mut Solver,
    formulas: &[Expr],
    model_of: &[Expr],
    stats: &mut RefineStatistics,
    values: Vec<Option<i128>>,
) -> Vec<Option<i128>> {
    let side = no_signed_overflow(formulas);
    // each side condition copies the operands of its operation: along a chain of assignments
    // (`x = y - x;` 500 times) they grow quadratically, and so does their encoding
    let mut size = 0usize;
    side.iter().for_each(|c| c.visit(&mut |_| size += 1));
    if side.is_empty() || size > crate::threads::MAX_CONDITION_SIZE {
        return values;
    }
    let all: Vec<Expr> = formulas.iter().cloned().chain(side).collect();
    match check_conjunction(solver, &all, model_of, stats) {
        SatAnswer::Sat(defined) => defined,
        SatAnswer::Unsat | SatAnswer::Unknown(_) => values,
    }
}

#[cfg(test)]
mod tests {
    // Models without signed overflow: the inputs of a feasible path must replay in the concrete
    // interpreter, which rejects signed overflow as undefined behaviour.
    use super::{check_conjunction, no_signed_overflow, prefer_defined_model, SatAnswer};
    use crate::RefineStatistics;
    use c_ir::{BinaryOp, Expr, Program, Type};

    fn lower_source(source: &str) -> Program {
        let (program, diagnostics) = c_front::lower(source, "test.c", &c_front::LowerOptions::default());
        assert!(!diagnostics::has_errors(&diagnostics), "{diagnostics:?}");
        program.expect("lowered")
    }

    fn int() -> Type {
        Type::Int { bits: 32, signed: true }
    }

    #[test]
    fn feasible_models_avoid_signed_overflow_when_they_can() {
        let program = lower_source("int x; long y; int main(void) { return 0; }");
        let var = |name: &str, ty: Type| {
            let id = program.vars.iter().position(|v| v.name == name).expect("variable");
            Expr::var(c_ir::VarId(id as u32), ty)
        };
        let x = var("x", int());
        let long = Type::Int { bits: 64, signed: true };
        let y = var("y", long.clone());
        let mut solver = solver::Solver::new(&program, &solver::SolverConfig::c_semantics());
        let mut stats = RefineStatistics::default();
        let min = i32::MIN as i128;

        // `x - 10 > 0` holds for x in 11..=INT_MAX and, wrapping, for x in INT_MIN..INT_MIN+10
        let wraps = vec![Expr::binary(BinaryOp::Gt, Expr::binary(BinaryOp::Sub, x.clone(), Expr::int(10, int())), Expr::int(0, int()))];
        assert_eq!(no_signed_overflow(&wraps).len(), 1);
        let values = prefer_defined_model(&mut solver, &wraps, std::slice::from_ref(&x), &mut stats, vec![Some(min)]);
        assert!(values[0].is_some_and(|v| v >= 11), "{values:?}");
        // the defined model is a model of the formulas
        let pinned = [wraps[0].clone(), Expr::eq(x.clone(), Expr::int(values[0].unwrap(), int()))];
        assert!(matches!(check_conjunction(&mut solver, &pinned, &[], &mut stats), SatAnswer::Sat(_)));

        // `x + 1 < x` holds only by overflow: the model found first is kept
        let only = vec![Expr::binary(BinaryOp::Lt, Expr::binary(BinaryOp::Add, x.clone(), Expr::int(1, int())), x.clone())];
        let values = prefer_defined_model(&mut solver, &only, std::slice::from_ref(&x), &mut stats, vec![Some(i32::MAX as i128)]);
        assert_eq!(values, vec![Some(i32::MAX as i128)]);

        // 64 bits: sums by the signs of operands and result
        let big = vec![Expr::binary(BinaryOp::Lt, Expr::binary(BinaryOp::Add, y.clone(), Expr::int(5, long.clone())), Expr::int(0, long.clone()))];
        let values = prefer_defined_model(&mut solver, &big, std::slice::from_ref(&y), &mut stats, vec![Some(i64::MAX as i128)]);
        assert!(values[0].is_some_and(|v| v < -5), "{values:?}");
        // constants alone and unsigned arithmetic need no side condition
        let unsigned = Type::Int { bits: 32, signed: false };
        let u = Expr::cast(x.clone(), unsigned.clone());
        let plain = vec![Expr::binary(BinaryOp::Lt, Expr::binary(BinaryOp::Add, u, Expr::int(1, unsigned.clone())), Expr::int(3, unsigned))];
        assert!(no_signed_overflow(&plain).is_empty());
    }
}
