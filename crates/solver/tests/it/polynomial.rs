//! Polynomial invariants at 64 bits: products are distributed into shared monomials, and an
//! equality that is a polynomial combination of others gets a lemma, so these implications
//! (which the multiplier circuits alone do not settle in any reasonable number of conflicts)
//! are proved within a small conflict budget.

use crate::builder::*;
use c_ir::{BinaryOp::*, Expr, Type};
use solver::{Answer, Solver, SolverConfig};

fn long(v: i128) -> Expr {
    Expr::int(v, Type::LONG)
}

fn proved(s: &mut Solver, premises: &[Expr], conclusion: &Expr) -> Answer {
    s.set_conflict_budget(Some(2_000));
    s.implies(premises, conclusion)
}

#[test]
fn geometric_series_invariant_is_inductive() {
    let mut b = Builder::new();
    let (x, y) = (b.var("x", Type::LONG), b.var("y", Type::LONG));
    let z = Expr::cast(b.var("z", Type::INT), Type::LONG);
    // P: x*z - x - y + 1 == 0
    let p = |x: &Expr, y: &Expr| bin(Eq, &bin(Add, &bin(Sub, &bin(Sub, &bin(Mul, x, &z), x), y), &long(1)), &long(0));
    let x1 = bin(Add, &bin(Mul, &x, &z), &long(1));
    let y1 = bin(Mul, &y, &z);
    let mut s = Solver::new(&b.program, &SolverConfig::c_semantics());
    // wp(x = x*z + 1; y = y*z, P) = P(x*z + 1, y*z) = z * P(x, y)
    assert_eq!(proved(&mut s, &[p(&x, &y)], &p(&x1, &y1)), Answer::Yes);
    // the intermediate predicate after `x = x*z + 1` only
    assert_eq!(proved(&mut s, &[p(&x, &y)], &p(&x1, &y)), Answer::No);
    // P with another predicate sharing its monomial: P(x, y) && P(x, z) ==> y == z
    let q = p(&x, &z);
    assert_eq!(proved(&mut s, &[p(&x, &y), bin(Eq, &z, &y)], &q), Answer::Yes);
    assert_eq!(proved(&mut s, &[p(&x, &y), q.clone()], &bin(Eq, &z, &y)), Answer::Yes);
    // after the loop: x = x * (z - 1), then 1 + x - y == 0
    let after = bin(Eq, &bin(Sub, &bin(Add, &long(1), &bin(Mul, &x, &bin(Sub, &z, &long(1)))), &y), &long(0));
    assert_eq!(proved(&mut s, &[p(&x, &y)], &after), Answer::Yes);
}

#[test]
fn widened_differences_are_related_to_their_widened_operands() {
    let mut b = Builder::new();
    let (x, y) = (b.var("x", Type::LONG), b.var("y", Type::LONG));
    let zi = b.var("z", Type::INT);
    let z = Expr::cast(zi.clone(), Type::LONG);
    let p = bin(Eq, &bin(Add, &bin(Sub, &bin(Sub, &bin(Mul, &x, &z), &x), &y), &long(1)), &long(0));
    let z_minus_1 = Expr::cast(bin(Sub, &zi, &int(1)), Type::LONG);
    let after = bin(Eq, &bin(Sub, &bin(Add, &long(1), &bin(Mul, &x, &z_minus_1)), &y), &long(0));
    let mut s = Solver::new(&b.program, &SolverConfig::c_semantics());
    assert_eq!(proved(&mut s, &[p.clone(), bin(Ge, &zi, &int(1))], &after), Answer::Yes);
    // z == INT_MIN: z - 1 wraps to INT_MAX
    let wraps = [p, bin(Eq, &zi, &int(i32::MIN as i128)), bin(Eq, &x, &long(1))];
    assert_eq!(proved(&mut s, &wraps, &after), Answer::No);
}

#[test]
fn cubes_by_cohen() {
    let mut b = Builder::new();
    let (n, x, y, z) = (b.var("n", Type::LONG), b.var("x", Type::LONG), b.var("y", Type::LONG), b.var("z", Type::LONG));
    let nn = bin(Mul, &n, &n);
    let invariants = |n: &Expr, x: &Expr, y: &Expr, z: &Expr| {
        let nn = bin(Mul, n, n);
        vec![
            bin(Eq, z, &bin(Add, &bin(Mul, &long(6), n), &long(6))),
            bin(Eq, y, &bin(Add, &bin(Add, &bin(Mul, &long(3), &nn), &bin(Mul, &long(3), n)), &long(1))),
            bin(Eq, x, &bin(Mul, &nn, n)),
        ]
    };
    let now = invariants(&n, &x, &y, &z);
    // n = n + 1; x = x + y; y = y + z; z = z + 6
    let next = invariants(&bin(Add, &n, &long(1)), &bin(Add, &x, &y), &bin(Add, &y, &z), &bin(Add, &z, &long(6)));
    let mut s = Solver::new(&b.program, &SolverConfig::c_semantics());
    for q in &next {
        assert_eq!(proved(&mut s, &now, q), Answer::Yes, "{}", b.show(q));
    }
    // a consequence asserted by the program: y*z - 18*x - 12*y + 2*z - 6 == 0
    let yz = bin(Sub, &bin(Add, &bin(Sub, &bin(Sub, &bin(Mul, &y, &z), &bin(Mul, &long(18), &x)), &bin(Mul, &long(12), &y)), &bin(Mul, &long(2), &z)), &long(6));
    assert_eq!(proved(&mut s, &now, &bin(Eq, &yz, &long(0))), Answer::Yes);
    // and a non-consequence is refuted with a model
    assert_eq!(proved(&mut s, &now, &bin(Eq, &x, &nn)), Answer::No);
}

#[test]
fn a_multiple_of_a_false_equality_may_hold() {
    // P: 1 + x*z - x - z*y == 0; Q = 1 + (x*z + 1)*z - (x*z + 1) - z*(y*z) is z*P
    let mut b = Builder::new();
    let (x, y) = (b.var("x", Type::LONG), b.var("y", Type::LONG));
    let z = Expr::cast(b.var("z", Type::INT), Type::LONG);
    let p = bin(Sub, &bin(Sub, &bin(Add, &long(1), &bin(Mul, &x, &z)), &x), &bin(Mul, &z, &y));
    let x1 = bin(Add, &bin(Mul, &x, &z), &long(1));
    let q = bin(Sub, &bin(Sub, &bin(Add, &long(1), &bin(Mul, &x1, &z)), &x1), &bin(Mul, &z, &bin(Mul, &y, &z)));
    let mut s = Solver::new(&b.program, &SolverConfig::c_semantics());
    // z == 0 (or even) makes Q hold whatever P: the lemma P ==> Q must not be taken both ways
    let premises = [bin(Ne, &p, &long(0)), bin(Eq, &q, &long(0)), bin(Eq, &z, &long(0))];
    assert_eq!(proved(&mut s, &premises, &Expr::bool(false)), Answer::No);
    assert_eq!(proved(&mut s, &[bin(Eq, &p, &long(0))], &bin(Eq, &q, &long(0))), Answer::Yes);
}

/// `s == (a + 1) * (a + 1) && s == 0` holds only for `a == -1` (and for the `a` whose
/// increment squares to 0 modulo 2^64): the multiplier's bits alone cost the SAT solver many
/// conflicts, an evaluated guess with `s` defined by the first equality finds the model at once.
#[test]
fn satisfiable_products_get_a_guessed_model() {
    let mut b = Builder::new();
    let (a, s_) = (b.var("a", Type::LONG), b.var("s", Type::LONG));
    let a1 = bin(Add, &a, &long(1));
    let formula = bin(And, &bin(Eq, &s_, &bin(Mul, &a1, &a1)), &bin(Eq, &s_, &long(0)));
    let mut s = Solver::new(&b.program, &SolverConfig::c_semantics());
    s.set_conflict_budget(Some(1_500));
    assert_eq!(s.is_satisfiable(&formula), Answer::Yes);
    let model = s.last_model().expect("a model").clone();
    let value = |name: &str| model.iter().find(|(v, _)| b.program.var(*v).name == name).map(|(_, x)| *x);
    let (av, sv) = (value("a").expect("a"), value("s").expect("s"));
    assert_eq!(sv, 0);
    assert_eq!((av as i64).wrapping_add(1).wrapping_mul((av as i64).wrapping_add(1)), 0);
}

/// Every sampled valuation is one of an actual state: the solver finds each satisfiable, and
/// the definitions make the equalities true in some of them.
#[test]
fn sampled_valuations_are_satisfiable() {
    let mut b = Builder::new();
    let (a, s_, t) = (b.var("a", Type::LONG), b.var("s", Type::LONG), b.var("t", Type::LONG));
    let formulas = [
        bin(Eq, &s_, &bin(Mul, &a, &a)),
        bin(Eq, &t, &bin(Add, &bin(Mul, &long(2), &a), &long(1))),
        bin(Eq, &bin(Sub, &bin(Add, &bin(Mul, &t, &t), &long(1)), &bin(Mul, &long(4), &s_)), &bin(Mul, &long(2), &t)),
    ];
    let side = bin(Ge, &a, &long(0));
    let refs: Vec<&Expr> = formulas.iter().collect();
    let config = SolverConfig::c_semantics();
    let valuations = solver::sample_valuations(&refs, Some(&side), &b.program, &config, 64);
    assert!(valuations.len() >= 3, "{valuations:?}");
    assert!(valuations.iter().any(|v| v == &[true, true, true]), "{valuations:?}");
    let mut s = Solver::new(&b.program, &config);
    for v in &valuations {
        let literals: Vec<Expr> = formulas.iter().zip(v).map(|(f, &b)| if b { f.clone() } else { Expr::logical_not(f.clone()) }).chain([side.clone()]).collect();
        assert_eq!(s.is_satisfiable(&solver::and_all(&literals)), Answer::Yes, "{v:?}");
    }
}
