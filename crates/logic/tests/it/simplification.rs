//! Simplification, negation, locations and cone of influence.

use crate::builder::*;
use c_ir::{BinaryOp::*, Expr, Type, UnaryOp};
use logic::*;

#[test]
fn constant_folding_wraps_at_type_width() {
    let e = bin(Add, &Expr::int(127, Type::CHAR), &Expr::int(1, Type::CHAR));
    assert_eq!(simplify(&e), Expr::int(-128, Type::CHAR));
    let u = Type::UINT;
    let e = bin(Sub, &Expr::int(0, u.clone()), &Expr::int(1, u.clone()));
    assert_eq!(simplify(&e), Expr::int(4294967295, u));
    // division by zero is not folded
    let d = bin(Div, &int(1), &int(0));
    assert_eq!(simplify(&d), d);
    let s = bin(Shl, &int(1), &int(40));
    assert_eq!(simplify(&s), s);
}

#[test]
fn constant_offsets_combine() {
    let mut b = Builder::new();
    let k = b.var("k", Type::INT);
    let plus = |e: &Expr, c: i128| bin(Add, e, &int(c));
    let minus = |e: &Expr, c: i128| bin(Sub, e, &int(c));
    assert_eq!(b.show(&simplify(&plus(&plus(&plus(&k, 1), 1), 1))), "k + 3");
    assert_eq!(simplify(&minus(&plus(&k, 1), 1)), k);
    assert_eq!(b.show(&simplify(&minus(&minus(&k, 1), 1))), "k - 2");
    assert_eq!(b.show(&simplify(&plus(&minus(&k, 3), 1))), "k - 2");
    // wrap-around at the type's width: (c + 100) + 100 on signed char is c - 56
    let c = b.var("c", Type::CHAR);
    let e = bin(Add, &bin(Add, &c, &Expr::int(100, Type::CHAR)), &Expr::int(100, Type::CHAR));
    assert_eq!(b.show(&simplify(&e)), "c - 56");
    // unsigned offsets print with the smaller magnitude
    let u = b.var("u", Type::UINT);
    let e = bin(Sub, &bin(Sub, &u, &Expr::int(1, Type::UINT)), &Expr::int(1, Type::UINT));
    assert_eq!(b.show(&simplify(&e)), "u - 2");
}

#[test]
fn boolean_and_address_rules() {
    let mut b = Builder::new();
    let x = b.var_taken("x", Type::INT);
    let y = b.var_taken("y", Type::INT);
    let p = b.var("p", Type::pointer_to(Type::INT));
    let null = Expr::int(0, p.ty.clone());
    assert!(simplify(&bin(Eq, &addr(&x), &addr(&y))).is_false());
    assert!(simplify(&bin(Eq, &addr(&x), &addr(&x))).is_true());
    assert!(simplify(&bin(Ne, &addr(&x), &null)).is_true());
    assert_eq!(simplify(&deref(&addr(&x))), x);
    assert_eq!(simplify(&addr(&deref(&p))), p);
    let c = bin(Lt, &x, &int(3));
    assert_eq!(simplify(&Expr::logical_not(Expr::logical_not(c.clone()))), c);
    assert_eq!(b.show(&simplify(&Expr::logical_not(c.clone()))), "x >= 3");
    assert_eq!(b.show(&simplify(&bin(Lt, &int(3), &x))), "x > 3");
    assert!(simplify(&Expr::and(c.clone(), negate(&c))).is_false());
    assert!(simplify(&Expr::or(c.clone(), negate(&c))).is_true());
    let neg = Expr::new(c_ir::ExprKind::Unary(UnaryOp::Neg, Box::new(Expr::new(c_ir::ExprKind::Unary(UnaryOp::Neg, Box::new(x.clone())), Type::INT))), Type::INT);
    assert_eq!(simplify(&neg), x);
    // fields: different fields never share an address; same field reduces to the bases
    let node = b.structure("node", &[("a", Type::INT), ("b", Type::INT)]);
    let q = b.var("q", Type::pointer_to(node.clone()));
    let r = b.var("r", Type::pointer_to(node));
    let qa = field(&b.program, &deref(&q), 0);
    let qb = field(&b.program, &deref(&q), 1);
    let ra = field(&b.program, &deref(&r), 0);
    assert!(simplify(&bin(Eq, &addr(&qa), &addr(&qb))).is_false());
    assert_eq!(b.show(&simplify(&bin(Eq, &addr(&qa), &addr(&ra)))), "q == r");
}

#[test]
fn locations_drfs_vars() {
    let mut b = Builder::new();
    let node = b.structure("node", &[("val", Type::INT)]);
    let p = b.var("p", Type::pointer_to(node));
    let x = b.var("x", Type::INT);
    let pval = field(&b.program, &deref(&p), 0);
    let e = bin(Lt, &pval, &x);
    let locs: Vec<String> = locations(&e).iter().map(|l| b.show(l)).collect();
    assert_eq!(locs, ["p->val", "p", "x"]);
    let d: Vec<String> = drfs(&e).iter().map(|l| b.show(l)).collect();
    assert_eq!(d, ["p"]);
    assert_eq!(vars(&e).len(), 2);
    assert!(locations(&addr(&x)).is_empty());
}

#[test]
fn cone_of_influence_is_transitive() {
    let mut b = Builder::new();
    let x = b.var("x", Type::INT);
    let y = b.var("y", Type::INT);
    let z = b.var("z", Type::INT);
    let w = b.var("w", Type::INT);
    let preds = vec![bin(Eq, &y, &z), bin(Lt, &w, &int(0)), bin(Lt, &x, &y), bin(Gt, &z, &int(2))];
    let psi = bin(Gt, &x, &int(1));
    assert_eq!(cone_of_influence(&psi, &preds), vec![0, 2, 3]);
    assert!(shares_symbols(&preds[0], &preds[3]));
    assert!(!shares_symbols(&preds[1], &psi));
    // layers: {x < y}, then {y == z}, then {z > 2}
    assert_eq!(bounded_cone_of_influence(&psi, &preds, None), vec![0, 2, 3]);
    assert_eq!(bounded_cone_of_influence(&psi, &preds, Some(3)), vec![0, 2, 3]);
    assert_eq!(bounded_cone_of_influence(&psi, &preds, Some(2)), vec![0, 2]);
    assert_eq!(bounded_cone_of_influence(&psi, &preds, Some(1)), vec![2]);
    // the first layer is kept whole even beyond the bound
    let direct = vec![bin(Lt, &x, &int(5)), bin(Gt, &x, &y), bin(Eq, &x, &z)];
    assert_eq!(bounded_cone_of_influence(&psi, &direct, Some(1)), vec![0, 1, 2]);
}

#[test]
fn substitution_replaces_every_occurrence() {
    let mut b = Builder::new();
    let x = b.var("x", Type::INT);
    let y = b.var("y", Type::INT);
    let e = bin(Lt, &bin(Add, &x, &x), &y);
    assert_eq!(b.show(&substitute(&e, &x, &int(2))), "2 + 2 < y");
}

#[test]
fn complementary_operands_collapse_in_conjunctions_and_disjunctions() {
    let mut b = Builder::new();
    let x = b.var("x", Type::INT);
    let y = b.var("y", Type::INT);
    let lt = bin(Lt, &x, &int(5));
    let ge = bin(Ge, &x, &int(5));
    let eq = bin(Eq, &x, &y);
    assert!(conjunction(&[lt.clone(), ge.clone()]).is_false());
    assert!(disjunction(&[eq.clone(), negate(&eq)]).is_true());
    assert!(disjunction(&[Expr::logical_not(lt.clone()), lt.clone()]).is_true());
    // a || (!a && c) → a || c
    assert_eq!(b.show(&disjunction(&[lt.clone(), Expr::and(ge.clone(), eq.clone())])), "x < 5 || x == y");
    // not complements: different operands
    assert_eq!(b.show(&conjunction(&[lt.clone(), bin(Ge, &y, &int(5))])), "x < 5 && y >= 5");
    // a long disjunction of cubes is built in linear time (no negation of the accumulator)
    let vars: Vec<Expr> = (0..12).map(|i| b.var(&format!("v{i}"), Type::INT)).collect();
    let cubes: Vec<Expr> = (0..4096u32)
        .map(|bits| conjunction(&vars.iter().enumerate().map(|(i, v)| bin(if bits >> i & 1 == 1 { Eq } else { Ne }, v, &int(0))).collect::<Vec<_>>()))
        .collect();
    let d = disjunction(&cubes);
    assert_eq!(b.show(&d).matches(" || ").count(), 4095);
}

#[test]
fn balanced_trees_have_logarithmic_depth_and_fold_constants() {
    fn depth(e: &Expr) -> usize {
        match &e.kind {
            c_ir::ExprKind::Binary(_, a, b) => 1 + depth(a).max(depth(b)),
            _ => 0,
        }
    }
    let atom = |i: i128| Expr::eq(Expr::var(c_ir::VarId(0), Type::INT), Expr::int(i, Type::INT));
    let big = balanced((0..4096).map(atom).collect(), Or);
    // 12 levels of `||` over the `==` atoms
    assert_eq!(depth(&big), 13);
    assert!(balanced(vec![atom(1), Expr::bool(true)], Or).is_true());
    assert!(balanced(vec![atom(1), Expr::bool(false)], And).is_false());
    assert_eq!(balanced(vec![Expr::bool(true), atom(1)], And), atom(1));
    assert!(balanced(Vec::new(), And).is_true());
    assert!(balanced(Vec::new(), Or).is_false());
}
