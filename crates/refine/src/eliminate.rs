//! Projection of path conditions onto program variables: eliminates the fresh variables that
//! stand for input values (`x = __VERIFIER_nondet_int()`) from the conditions that explain an
//! infeasible path.
//!
//! A condition such as `i >= input#0 && input#0 > 0` just before `n = input#0` mentions a value
//! that no predicate can name, so predicate discovery would drop it and the next abstraction
//! could not exclude the same spurious path (the model checker lets the havoc of `n` pick any
//! valuation). What the path really needs is what the condition says about the other variables:
//! `∃v. i >= v && v > 0`, i.e. `0 < i`. This module computes such consequences with one step of
//! Fourier–Motzkin elimination over the conjunction of literals at one step: every lower bound of
//! the fresh variable is combined with every upper bound, and an equality `v == e` is substituted
//! into the other literals. The results are only candidate predicates (any predicate keeps the
//! abstraction sound), so the mathematical-integer reading of the bounds is good enough.

use c_ir::{BinaryOp, Expr, ExprKind, UnaryOp, VarId};

/// One literal `lhs op rhs` with `op` relational (negations pushed into the operator).
#[derive(Clone, Debug)]
struct Literal {
    op: BinaryOp,
    lhs: Expr,
    rhs: Expr,
}

/// A bound on the eliminated variable: `bound < v` / `bound <= v` (lower) or `v < bound` /
/// `v <= bound` (upper).
struct Bound {
    value: Expr,
    strict: bool,
}

/// The consequences, free of `fresh` variables, of the conjunction of `conditions` (all at the same
/// path point). `is_fresh` tells which variables to eliminate; results still mentioning one are dropped.
pub(crate) fn eliminate_fresh(conditions: &[Expr], is_fresh: &dyn Fn(VarId) -> bool) -> Vec<Expr> {
    let mut literals = Vec::new();
    for c in conditions {
        conjuncts_as_literals(c, true, &mut literals);
    }
    let mut fresh: Vec<VarId> = Vec::new();
    for l in &literals {
        for v in l.lhs.vars().into_iter().chain(l.rhs.vars()) {
            if is_fresh(v) && !fresh.contains(&v) {
                fresh.push(v);
            }
        }
    }
    let mut out: Vec<Expr> = Vec::new();
    for v in fresh {
        for e in eliminate_one(&literals, v) {
            let clean = !e.vars().into_iter().any(is_fresh);
            if clean && !out.contains(&e) {
                out.push(e);
            }
        }
    }
    out
}

/// Splits `e` (read with polarity `positive`) into relational literals under conjunction.
fn conjuncts_as_literals(e: &Expr, positive: bool, out: &mut Vec<Literal>) {
    match &e.kind {
        ExprKind::Unary(UnaryOp::Not, a) => conjuncts_as_literals(a, !positive, out),
        ExprKind::Binary(BinaryOp::And, a, b) if positive => {
            conjuncts_as_literals(a, true, out);
            conjuncts_as_literals(b, true, out);
        }
        ExprKind::Binary(BinaryOp::Or, a, b) if !positive => {
            conjuncts_as_literals(a, false, out);
            conjuncts_as_literals(b, false, out);
        }
        ExprKind::Binary(op, a, b) if op.is_relational() => {
            let op = if positive { *op } else { negate(*op) };
            out.push(Literal { op, lhs: (**a).clone(), rhs: (**b).clone() });
        }
        _ => {}
    }
}

fn negate(op: BinaryOp) -> BinaryOp {
    op.negated_relation().unwrap_or(op)
}

/// `side` rewritten as `v + offset` when it is `v`, a cast of `v`, or `v ± e` / `e + v` with
/// `e` free of `v`; returns the offset (`None` = zero) and its sign.
fn isolate(side: &Expr, v: VarId) -> Option<Option<(Expr, bool)>> {
    match &side.kind {
        ExprKind::Var(w) if *w == v => Some(None),
        ExprKind::Cast(inner) if matches!(inner.ty, c_ir::Type::Int { .. }) && matches!(side.ty, c_ir::Type::Int { .. }) => isolate(inner, v),
        ExprKind::Binary(BinaryOp::Add, a, b) => {
            if !b.vars().contains(&v) {
                isolate(a, v).filter(Option::is_none).map(|_| Some(((**b).clone(), true)))
            } else if !a.vars().contains(&v) {
                isolate(b, v).filter(Option::is_none).map(|_| Some(((**a).clone(), true)))
            } else {
                None
            }
        }
        ExprKind::Binary(BinaryOp::Sub, a, b) if !b.vars().contains(&v) => {
            isolate(a, v).filter(Option::is_none).map(|_| Some(((**b).clone(), false)))
        }
        _ => None,
    }
}

/// The literal solved for `v`: `(op, bound)` meaning `v op bound`.
fn solve_for(l: &Literal, v: VarId, ty: &c_ir::Type) -> Option<(BinaryOp, Expr)> {
    let (op, side_v, other) = if l.lhs.vars().contains(&v) && !l.rhs.vars().contains(&v) {
        (l.op, &l.lhs, &l.rhs)
    } else if l.rhs.vars().contains(&v) && !l.lhs.vars().contains(&v) {
        (logic::simplify::swap_relational(l.op), &l.rhs, &l.lhs)
    } else {
        return None;
    };
    let offset = isolate(side_v, v)?;
    let other = Expr::cast(other.clone(), ty.clone());
    // v + e op other  ⟺  v op other - e ;  v - e op other  ⟺  v op other + e
    let bound = match offset {
        None => other,
        Some((e, true)) => Expr::binary(BinaryOp::Sub, other, Expr::cast(e, ty.clone())),
        Some((e, false)) => Expr::binary(BinaryOp::Add, other, Expr::cast(e, ty.clone())),
    };
    Some((op, bound))
}


fn eliminate_one(literals: &[Literal], v: VarId) -> Vec<Expr> {
    let Some(ty) = literals.iter().find_map(|l| {
        let mut t = None;
        for side in [&l.lhs, &l.rhs] {
            side.visit(&mut |x| {
                if x.kind == ExprKind::Var(v) {
                    t = Some(x.ty.clone());
                }
            });
        }
        t
    }) else {
        return Vec::new();
    };
    if !matches!(ty, c_ir::Type::Int { .. }) {
        return Vec::new();
    }
    let mut lower: Vec<Bound> = Vec::new();
    let mut upper: Vec<Bound> = Vec::new();
    let mut equal: Vec<Expr> = Vec::new();
    for l in literals {
        match solve_for(l, v, &ty) {
            Some((BinaryOp::Gt, b)) => lower.push(Bound { value: b, strict: true }),
            Some((BinaryOp::Ge, b)) => lower.push(Bound { value: b, strict: false }),
            Some((BinaryOp::Lt, b)) => upper.push(Bound { value: b, strict: true }),
            Some((BinaryOp::Le, b)) => upper.push(Bound { value: b, strict: false }),
            Some((BinaryOp::Eq, b)) => equal.push(b),
            _ => {}
        }
    }
    let mut out = Vec::new();
    if let Some(e) = equal.first() {
        // substitute v := e into every other literal that mentions v
        for l in literals {
            let mentions = l.lhs.vars().contains(&v) || l.rhs.vars().contains(&v);
            let is_def = matches!(solve_for(l, v, &ty), Some((BinaryOp::Eq, ref b)) if b == e);
            if mentions && !is_def {
                let value = Expr::cast(e.clone(), ty.clone());
                let lhs = logic::substitute_var(&l.lhs, v, &value);
                let rhs = logic::substitute_var(&l.rhs, v, &value);
                out.push(Expr::binary(l.op, lhs, rhs));
            }
        }
        for other in equal.iter().skip(1) {
            out.push(Expr::eq(e.clone(), other.clone()));
        }
    }
    for lo in &lower {
        for up in &upper {
            let op = if lo.strict || up.strict { BinaryOp::Lt } else { BinaryOp::Le };
            out.push(Expr::binary(op, lo.value.clone(), up.value.clone()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use c_ir::Type;

    fn var(n: u32) -> Expr {
        Expr::var(VarId(n), Type::INT)
    }
    fn int(v: i128) -> Expr {
        Expr::int(v, Type::INT)
    }

    #[test]
    fn lower_and_upper_bounds_combine() {
        // i >= in && in > 0  ⊢  0 < i
        let input = VarId(9);
        let conds = [Expr::binary(BinaryOp::Ge, var(1), var(9)), Expr::binary(BinaryOp::Gt, var(9), int(0))];
        let out = eliminate_fresh(&conds, &|v| v == input);
        assert_eq!(out, vec![Expr::binary(BinaryOp::Lt, int(0), var(1))]);
    }

    #[test]
    fn negated_literals_and_offsets() {
        // !(in + 1 <= x) && in >= y  ⊢  y < x - 1
        let input = VarId(9);
        let conds = [
            Expr::logical_not(Expr::binary(BinaryOp::Le, Expr::binary(BinaryOp::Add, var(9), int(1)), var(1))),
            Expr::binary(BinaryOp::Ge, var(9), var(2)),
        ];
        let out = eliminate_fresh(&conds, &|v| v == input);
        // lower bounds: x - 1 (strict), y; no upper bound → nothing
        assert!(out.is_empty(), "{out:?}");
        let conds = [
            Expr::binary(BinaryOp::Lt, Expr::binary(BinaryOp::Add, var(9), int(1)), var(1)),
            Expr::binary(BinaryOp::Ge, var(9), var(2)),
        ];
        let out = eliminate_fresh(&conds, &|v| v == input);
        assert_eq!(out, vec![Expr::binary(BinaryOp::Lt, var(2), Expr::binary(BinaryOp::Sub, var(1), int(1)))]);
    }

    #[test]
    fn equalities_are_substituted() {
        // in == x + 1 && in < y  ⊢  x + 1 < y
        let input = VarId(9);
        let x1 = Expr::binary(BinaryOp::Add, var(1), int(1));
        let conds = [Expr::eq(var(9), x1.clone()), Expr::binary(BinaryOp::Lt, var(9), var(2))];
        let out = eliminate_fresh(&conds, &|v| v == input);
        assert!(out.contains(&Expr::binary(BinaryOp::Lt, x1, var(2))), "{out:?}");
    }

    #[test]
    fn results_mentioning_other_fresh_values_are_dropped() {
        let conds = [Expr::binary(BinaryOp::Ge, var(8), var(9)), Expr::binary(BinaryOp::Gt, var(9), int(0))];
        let out = eliminate_fresh(&conds, &|v| v.0 >= 8);
        assert!(out.is_empty(), "{out:?}");
    }
}
