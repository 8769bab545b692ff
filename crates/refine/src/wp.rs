//! Weakest preconditions over path steps (delegating to `logic`'s Morris axiom) and the small
//! expression helpers the refinement needs (variable renaming, atoms, negation normal form).

use c_ir::{BinaryOp, Expr, ExprKind, Program, UnaryOp, VarId};

/// `e` with every variable `v` replaced by `f(v)`.
pub(crate) fn map_vars(e: &Expr, f: &mut dyn FnMut(VarId) -> VarId) -> Expr {
    logic::substitute::map_expr(e, &mut |sub| match sub.kind {
        ExprKind::Var(v) => {
            let w = f(v);
            Some(Expr::var(w, sub.ty.clone()))
        }
        _ => None,
    })
}

/// The weakest precondition of `lhs = rhs` for `post` in the path's program (type-based aliasing).
pub(crate) fn wp_assign(program: &Program, alias: &logic::TypeBasedMayAlias, lhs: &Expr, rhs: &Expr, post: &Expr) -> Expr {
    logic::wp_assign(program, alias, lhs, rhs, post)
}

/// Simplifies a predicate (constant folding, boolean identities).
pub(crate) fn simplify(e: &Expr) -> Expr {
    logic::simplify(e)
}

/// Strips outer negations: the predicate a boolean variable stands for (`!p` and `p` give the same variable).
pub fn strip_negation(e: &Expr) -> Expr {
    match &e.kind {
        ExprKind::Unary(UnaryOp::Not, a) => strip_negation(a),
        ExprKind::Binary(BinaryOp::Ne, a, b) => Expr::eq((**a).clone(), (**b).clone()),
        _ => e.clone(),
    }
}

/// Splits a predicate into its atoms under `&&`, `||`, `==>` and `!`.
pub fn atoms(e: &Expr, out: &mut Vec<Expr>) {
    match &e.kind {
        ExprKind::Unary(UnaryOp::Not, a) => atoms(a, out),
        ExprKind::Binary(op, a, b) if op.is_logical() => {
            atoms(a, out);
            atoms(b, out);
        }
        ExprKind::Const(_) => {}
        _ => {
            if !out.contains(e) {
                out.push(e.clone())
            }
        }
    }
}

/// Whether the expression mentions no variable and no fresh symbol (a constant formula).
pub fn is_ground(e: &Expr) -> bool {
    let mut ground = true;
    e.visit(&mut |x| {
        if matches!(x.kind, ExprKind::Var(_) | ExprKind::App(..) | ExprKind::Deref(_)) {
            ground = false;
        }
    });
    ground
}
