//! The worked examples of C2BP §4.1–4.3 and BOOP Fig. 7.3.

use crate::builder::*;
use c_ir::{BinaryOp::*, Expr, Type};
use logic::*;

/// Alias information saying that two different lvalues never alias.
struct NoAlias;
impl MayAlias for NoAlias {
    fn may_alias(&self, a: &Expr, b: &Expr) -> bool {
        a == b
    }
}

#[test]
fn wp_of_increment_is_substitution() {
    let mut b = Builder::new();
    let x = b.var("x", Type::INT);
    let phi = bin(Lt, &x, &int(5));
    let rhs = bin(Add, &x, &int(1));
    let wp = wp_assign(&b.program, &AlwaysMayAlias, &x, &rhs, &phi);
    assert_eq!(b.show(&wp), "x + 1 < 5");
}

#[test]
fn wp_through_pointer_without_alias_information_case_splits() {
    let mut b = Builder::new();
    let x = b.var_taken("x", Type::INT);
    let p = b.var("p", Type::pointer_to(Type::INT));
    let phi = bin(Gt, &deref(&p), &int(5));
    let raw = lift_ite(&wp_assign_unsimplified(&b.program, &AlwaysMayAlias, &x, &int(3), &phi));
    assert_eq!(b.show(&raw), "&x == p && 3 > 5 || &x != p && *p > 5");
    let wp = wp_assign(&b.program, &AlwaysMayAlias, &x, &int(3), &phi);
    assert_eq!(b.show(&wp), "&x != p && *p > 5");
}

#[test]
fn wp_through_pointer_with_alias_information_is_identity() {
    let mut b = Builder::new();
    let x = b.var_taken("x", Type::INT);
    let p = b.var("p", Type::pointer_to(Type::INT));
    let phi = bin(Gt, &deref(&p), &int(5));
    let wp = wp_assign(&b.program, &NoAlias, &x, &int(3), &phi);
    assert_eq!(b.show(&wp), "*p > 5");
    // type-based information: p cannot point to x if x's address is never taken
    let mut b2 = Builder::new();
    let x2 = b2.var("x", Type::INT);
    let p2 = b2.var("p", Type::pointer_to(Type::INT));
    let phi2 = bin(Gt, &deref(&p2), &int(5));
    let alias = TypeBasedMayAlias::new(&b2.program);
    assert_eq!(b2.show(&wp_assign(&b2.program, &alias, &x2, &int(3), &phi2)), "*p > 5");
}

#[test]
fn wp_of_pointer_update_when_star_p_cannot_alias_x() {
    // C2BP §4.3: WP(*p = *p + x, *p <= 0) = *p + x <= 0
    let mut b = Builder::new();
    let p = b.var("p", Type::pointer_to(Type::INT));
    let x = b.var("x", Type::INT);
    let star_p = deref(&p);
    let phi = bin(Le, &star_p, &int(0));
    let rhs = bin(Add, &star_p, &x);
    let alias = TypeBasedMayAlias::new(&b.program);
    let wp = wp_assign(&b.program, &alias, &star_p, &rhs, &phi);
    assert_eq!(b.show(&wp), "*p + x <= 0");
    let wp_not = wp_assign(&b.program, &alias, &star_p, &rhs, &negate(&phi));
    assert_eq!(b.show(&wp_not), "*p + x > 0");
    // x == 0 and r == 0 are unaffected
    let r = b.var("r", Type::INT);
    for pred in [bin(Eq, &x, &int(0)), bin(Eq, &r, &int(0))] {
        assert_eq!(wp_assign_unsimplified(&b.program, &alias, &star_p, &rhs, &pred), pred);
        assert!(affected_locations(&alias, &star_p, &pred).is_empty());
    }
}

#[test]
fn wp_assignment_to_pointer_moves_dereference() {
    // WP(p = q, *p > 0) = *q > 0 ; the assignment also changes where *p points
    let mut b = Builder::new();
    let p = b.var("p", Type::pointer_to(Type::INT));
    let q = b.var("q", Type::pointer_to(Type::INT));
    let phi = bin(Gt, &deref(&p), &int(0));
    let wp = wp_assign(&b.program, &AlwaysMayAlias, &p, &q, &phi);
    assert_eq!(b.show(&wp), "*q > 0");
    // WP(p = &x, *p == 3) = x == 3
    let x = b.var_taken("x", Type::INT);
    let phi = bin(Eq, &deref(&p), &int(3));
    let wp = wp_assign(&b.program, &AlwaysMayAlias, &p, &addr(&x), &phi);
    assert_eq!(b.show(&wp), "x == 3");
}

#[test]
fn wp_struct_fields() {
    let mut b = Builder::new();
    let node = b.structure("node", &[("val", Type::INT), ("next", Type::INT)]);
    let pn = Type::pointer_to(node.clone());
    let p = b.var("p", pn.clone());
    let q = b.var("q", pn);
    let p_val = field(&b.program, &deref(&p), 0);
    let q_val = field(&b.program, &deref(&q), 0);
    let q_next = field(&b.program, &deref(&q), 1);
    // p->val = 5 can change q->val (if p == q) but never q->next
    let phi = bin(Gt, &q_val, &int(3));
    let wp = wp_assign(&b.program, &AlwaysMayAlias, &p_val, &int(5), &phi);
    assert_eq!(b.show(&wp), "p == q || q->val > 3");
    let phi2 = bin(Gt, &q_next, &int(3));
    assert_eq!(wp_assign(&b.program, &AlwaysMayAlias, &p_val, &int(5), &phi2), phi2);
    // struct assignment *p = *q changes p->val to q->val
    let phi3 = bin(Eq, &p_val, &int(1));
    let wp3 = wp_assign(&b.program, &AlwaysMayAlias, &deref(&p), &deref(&q), &phi3);
    assert_eq!(b.show(&wp3), "q->val == 1");
}

#[test]
fn wp_assume_havoc_and_malloc() {
    let mut b = Builder::new();
    let x = b.var("x", Type::INT);
    let p = b.var("p", Type::pointer_to(Type::INT));
    let cond = bin(Gt, &x, &int(0));
    let phi = bin(Gt, &x, &int(-1));
    assert_eq!(b.show(&wp_assume(&cond, &phi)), "x > 0 ==> x > -1");
    let fresh = fresh_symbol("havoc_1", &Type::INT);
    assert!(is_fresh_symbol(&fresh));
    assert_eq!(b.show(&wp_havoc(&b.program, &AlwaysMayAlias, &x, &phi, &fresh)), "$havoc_1() > -1");
    let cell = fresh_symbol("malloc_1", &p.ty);
    let not_null = bin(Ne, &p, &Expr::int(0, p.ty.clone()));
    let wp = wp_malloc(&b.program, &AlwaysMayAlias, &p, &not_null, &cell);
    assert_eq!(b.show(&wp), "true");
}

#[test]
fn boop_figure_7_3_conditions() {
    // locked = FALSE; tmp1 = &inode; tmp2 = &my_file; inode_p = tmp1; filp = tmp2;
    // assume((inode_p->i_rdev) >> 8 == major); usecount = usecount + 1; assume(locked);
    let mut b = Builder::new();
    let inode_ty = b.structure("inode", &[("i_rdev", Type::INT)]);
    let file_ty = b.structure("file", &[("f_flags", Type::INT)]);
    let locked = b.var("locked", Type::INT);
    let major = b.var("major", Type::INT);
    let usecount = b.var("usecount", Type::INT);
    let inode = b.var_taken("inode", inode_ty.clone());
    let my_file = b.var_taken("my_file", file_ty.clone());
    let tmp1 = b.var("tmp1", Type::pointer_to(inode_ty.clone()));
    let tmp2 = b.var("tmp2", Type::pointer_to(file_ty.clone()));
    let inode_p = b.var("inode_p", Type::pointer_to(inode_ty));
    let filp = b.var("filp", Type::pointer_to(file_ty));
    let locked_true = bin(Ne, &locked, &int(0));
    let rdev = field(&b.program, &deref(&inode_p), 0);
    let guard = bin(Eq, &bin(Shr, &rdev, &int(8)), &major);
    let alias = TypeBasedMayAlias::new(&b.program);
    let wp_all = |lhs: &Expr, rhs: &Expr, conds: &[Expr]| -> Vec<Expr> {
        conds.iter().map(|c| wp_assign(&b.program, &alias, lhs, rhs, c)).collect()
    };
    // l5: assume(locked)
    let mut conds = vec![locked_true.clone()];
    // l4: usecount = usecount + 1 leaves the conditions unchanged
    conds = wp_all(&usecount, &bin(Add, &usecount, &int(1)), &conds);
    assert_eq!(conds, vec![locked_true.clone()]);
    // l3: the assumption adds its condition
    conds.push(guard.clone());
    let shown: Vec<String> = conds.iter().map(|c| b.show(c)).collect();
    assert_eq!(shown, ["locked != 0", "inode_p->i_rdev >> 8 == major"]);
    // the parameter block substitutes &inode for inode_p
    conds = wp_all(&filp, &tmp2, &conds);
    conds = wp_all(&inode_p, &tmp1, &conds);
    conds = wp_all(&tmp2, &addr(&my_file), &conds);
    conds = wp_all(&tmp1, &addr(&inode), &conds);
    let shown: Vec<String> = conds.iter().map(|c| b.show(c)).collect();
    assert_eq!(shown, ["locked != 0", "inode.i_rdev >> 8 == major"]);
    // l0: locked = FALSE makes the first condition false: the path is infeasible
    conds = wp_all(&locked, &int(0), &conds);
    assert!(conds[0].is_false());
    assert_eq!(b.show(&conjunction(&conds)), "false");
}
