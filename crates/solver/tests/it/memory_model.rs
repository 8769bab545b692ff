//! Pointers, fields, arrays, uninterpreted symbols and the seeds' pointer examples.

use crate::builder::*;
use c_ir::{BinaryOp::*, Expr, ExprKind, Type};
use logic::{wp_assign, AlwaysMayAlias, MayAlias};
use solver::{Answer, Solver, SolverConfig};

#[test]
fn morris_case_split_is_equivalent_to_the_conditional_form() {
    // WP(x = 3, *p > 5) without alias information, checked semantically
    let mut b = Builder::new();
    let x = b.var_taken("x", Type::INT);
    let p = b.var("p", Type::pointer_to(Type::INT));
    let phi = bin(Gt, &deref(&p), &int(5));
    let wp = wp_assign(&b.program, &AlwaysMayAlias, &x, &int(3), &phi);
    let mut s = Solver::new(&b.program, &SolverConfig::c_semantics());
    // if p points to x, the precondition is false
    assert_eq!(s.implies(&[bin(Eq, &p, &addr(&x))], &logic::negate(&wp)), Answer::Yes);
    // otherwise it is *p > 5
    assert_eq!(s.implies(&[bin(Ne, &p, &addr(&x)), phi.clone()], &wp), Answer::Yes);
    // and *p > 5 alone does not suffice
    assert_eq!(s.implies(std::slice::from_ref(&phi), &wp), Answer::No);
}

#[test]
fn c2bp_strengthening_example() {
    // (x == 2) and (x < 4) imply WP(x = x + 1, x < 5) = x + 1 < 5; (x < 5) does not
    let mut b = Builder::new();
    let x = b.var("x", Type::INT);
    let wp = wp_assign(&b.program, &AlwaysMayAlias, &x, &bin(Add, &x, &int(1)), &bin(Lt, &x, &int(5)));
    let mut s = Solver::new(&b.program, &SolverConfig::c_semantics());
    assert_eq!(s.implies(&[bin(Eq, &x, &int(2))], &wp), Answer::Yes);
    assert_eq!(s.implies(&[bin(Lt, &x, &int(4))], &wp), Answer::Yes);
    assert_eq!(s.implies(&[bin(Lt, &x, &int(5))], &wp), Answer::No);
    // bit-precise: x < 4 is not the same as x + 1 < 5 (x = INT_MAX wraps)
    assert_eq!(s.is_valid(&bin(Eq, &wp, &bin(Lt, &x, &int(4)))), Answer::No);
    // the counterexample
    assert_eq!(s.last_model().cloned(), Some(vec![(Builder::id(&x), 2147483647)]));
    assert_eq!(s.is_satisfiable(&Expr::and(wp.clone(), bin(Ge, &x, &int(4)))), Answer::Yes);
    assert_eq!(s.last_model().cloned(), Some(vec![(Builder::id(&x), 2147483647)]));
}

#[test]
fn c2bp_pointer_update_abstraction() {
    // E(F(*p + x <= 0)) = (*p <= 0) && (x == 0) over predicates {*p <= 0, x == 0, r == 0}
    let mut b = Builder::new();
    let p = b.var("p", Type::pointer_to(Type::INT));
    let x = b.var("x", Type::INT);
    let wp = bin(Le, &bin(Add, &deref(&p), &x), &int(0));
    let mut s = Solver::new(&b.program, &SolverConfig::c_semantics());
    let a = bin(Le, &deref(&p), &int(0));
    let c = bin(Eq, &x, &int(0));
    assert_eq!(s.implies(&[a.clone(), c.clone()], &wp), Answer::Yes);
    assert_eq!(s.implies(std::slice::from_ref(&a), &wp), Answer::No);
    assert_eq!(s.implies(std::slice::from_ref(&c), &wp), Answer::No);
    assert_eq!(s.implies(&[logic::negate(&a), c.clone()], &logic::negate(&wp)), Answer::Yes);
}

#[test]
fn fields_and_arrays_follow_the_memory_model() {
    let mut b = Builder::new();
    let node = b.structure("node", &[("val", Type::INT), ("key", Type::INT)]);
    let np = Type::pointer_to(node.clone());
    let p = b.var("p", np.clone());
    let q = b.var("q", np);
    let arr = b.var_taken("arr", Type::Array(Box::new(Type::INT), 8));
    let i = b.var("i", Type::INT);
    let j = b.var("j", Type::INT);
    let pv = field(&b.program, &deref(&p), 0);
    let qv = field(&b.program, &deref(&q), 0);
    let qk = field(&b.program, &deref(&q), 1);
    let at = |k: &Expr| Expr::new(ExprKind::Index(Box::new(arr.clone()), Box::new(k.clone())), Type::INT);
    let mut s = Solver::new(&b.program, &SolverConfig::c_semantics());
    assert_eq!(s.is_satisfiable(&Expr::and(bin(Eq, &p, &q), bin(Ne, &pv, &qv))), Answer::No);
    assert_eq!(s.is_satisfiable(&Expr::and(bin(Eq, &p, &q), bin(Ne, &pv, &qk))), Answer::Yes);
    assert_eq!(s.is_satisfiable(&bin(Eq, &addr(&pv), &addr(&qk))), Answer::No);
    assert_eq!(s.is_satisfiable(&Expr::and(bin(Eq, &i, &j), bin(Ne, &at(&i), &at(&j)))), Answer::No);
    assert_eq!(s.is_satisfiable(&Expr::and(bin(Ne, &i, &j), bin(Ne, &at(&i), &at(&j)))), Answer::Yes);
    assert_eq!(s.is_valid(&bin(Ne, &addr(&pv), &Expr::int(0, Type::pointer_to(Type::INT)))), Answer::Yes);
}

#[test]
fn uninterpreted_symbols_are_functions() {
    let mut b = Builder::new();
    let x = b.var("x", Type::INT);
    let y = b.var("y", Type::INT);
    let reach = |a: &Expr| Expr::new(ExprKind::App(c_ir::Symbol::Named("reach".into()), vec![a.clone()]), Type::Bool);
    let mut s = Solver::new(&b.program, &SolverConfig::c_semantics());
    let f = Expr::and(Expr::and(bin(Eq, &x, &y), reach(&x)), Expr::logical_not(reach(&y)));
    assert_eq!(s.is_satisfiable(&f), Answer::No);
    let g = Expr::and(reach(&x), Expr::logical_not(reach(&y)));
    assert_eq!(s.is_satisfiable(&g), Answer::Yes);
}

#[test]
fn unsupported_terms_give_unknown_and_a_diagnostic() {
    let mut b = Builder::new();
    let f = b.var("f", Type::Opaque("float".into()));
    let x = b.var("x", Type::INT);
    let e = bin(Gt, &f, &Expr::new(ExprKind::Const(0), Type::Opaque("float".into())));
    let mut s = Solver::new(&b.program, &SolverConfig::c_semantics());
    match s.is_satisfiable(&e) {
        Answer::Unknown(why) => assert!(why.contains("unsupported in predicates") && why.contains("float"), "{why}"),
        other => panic!("expected unknown, got {other:?}"),
    }
    let err = solver::check_supported(&b.program, &e).expect_err("float is unsupported");
    let d = err.to_diagnostic(diagnostics::Span::new(3, 5));
    assert!(d.message.starts_with("unsupported in predicates"));
    // struct values, void values, bad variable ids, non-lvalue addresses: unknown, no panic
    let st = b.structure("s", &[("a", Type::INT)]);
    let sv = b.var("sv", st.clone());
    let weird = vec![
        bin(Eq, &sv, &sv),
        bin(Eq, &Expr::var(c_ir::VarId(999), Type::INT), &int(1)),
        bin(Eq, &deref(&addr(&bin(Add, &x, &int(1)))), &int(1)),
        Expr::new(ExprKind::Const(1), Type::Void),
        bin(Gt, &Expr::new(ExprKind::Field(Box::new(x.clone()), 3), Type::INT), &int(0)),
        bin(Eq, &Expr::new(ExprKind::Index(Box::new(x.clone()), Box::new(x.clone())), Type::INT), &int(0)),
    ];
    for w in &weird {
        let _ = s.is_satisfiable(w);
        let _ = s.is_valid(w);
        let _ = logic::simplify(w);
        let _ = wp_assign(&b.program, &AlwaysMayAlias, &x, &int(1), w);
        let _ = solver::to_smtlib(&b.program, w, &SolverConfig::c_semantics());
    }
    let _ = AlwaysMayAlias.may_alias(&x, &x);
}
