//! Models without signed overflow: the inputs of a feasible path must replay in the concrete
//! interpreter, which rejects signed overflow as undefined behaviour.

use crate::lower_source;
use c_ir::{BinaryOp, Expr, Type};
use refine::solve::{check_conjunction, no_signed_overflow, prefer_defined_model, SatAnswer};
use refine::RefineStatistics;

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
