//! Syntactic substitution of a subexpression (e.g. a location) by another expression.

use c_ir::{Expr, ExprKind, VarId};

/// `e` with every occurrence of `target` (structural equality) replaced by `replacement`.
/// Occurrences inside `replacement` are not revisited.
pub fn substitute(e: &Expr, target: &Expr, replacement: &Expr) -> Expr {
    map_expr(e, &mut |sub| if sub == target { Some(replacement.clone()) } else { None })
}

/// `e` with every occurrence of variable `var` replaced by `replacement`.
pub fn substitute_var(e: &Expr, var: VarId, replacement: &Expr) -> Expr {
    map_expr(e, &mut |sub| if sub.kind == ExprKind::Var(var) { Some(replacement.clone()) } else { None })
}

/// Rebuilds `e` top-down: where `f` returns `Some(r)`, the subexpression is replaced by `r`.
pub fn map_expr(e: &Expr, f: &mut dyn FnMut(&Expr) -> Option<Expr>) -> Expr {
    if let Some(r) = f(e) {
        return r;
    }
    let b = |x: Expr| Box::new(x);
    let kind = match &e.kind {
        ExprKind::Const(_) | ExprKind::Var(_) | ExprKind::Str(_) => return e.clone(),
        ExprKind::Unary(op, a) => ExprKind::Unary(*op, b(map_expr(a, f))),
        ExprKind::Binary(op, x, y) => {
            let x = map_expr(x, f);
            ExprKind::Binary(*op, b(x), b(map_expr(y, f)))
        }
        ExprKind::Cast(a) => ExprKind::Cast(b(map_expr(a, f))),
        ExprKind::Deref(a) => ExprKind::Deref(b(map_expr(a, f))),
        ExprKind::AddrOf(a) => ExprKind::AddrOf(b(map_expr(a, f))),
        ExprKind::Field(a, i) => ExprKind::Field(b(map_expr(a, f)), *i),
        ExprKind::Index(a, i) => {
            let a = map_expr(a, f);
            ExprKind::Index(b(a), b(map_expr(i, f)))
        }
        ExprKind::Ite(c, x, y) => {
            let c = map_expr(c, f);
            let x = map_expr(x, f);
            ExprKind::Ite(b(c), b(x), b(map_expr(y, f)))
        }
        ExprKind::App(name, args) => ExprKind::App(name.clone(), args.iter().map(|a| map_expr(a, f)).collect()),
    };
    Expr::new(kind, e.ty.clone())
}

/// `e` (an lvalue path) with its base-chain prefix `prefix` (reached through `Field`/`Index`
/// bases only, never through index expressions) replaced by `replacement`.
pub fn substitute_at_prefix(e: &Expr, prefix: &Expr, replacement: &Expr) -> Expr {
    if e == prefix {
        return replacement.clone();
    }
    match &e.kind {
        ExprKind::Field(a, f) => Expr::new(ExprKind::Field(Box::new(substitute_at_prefix(a, prefix, replacement)), *f), e.ty.clone()),
        ExprKind::Index(a, i) => {
            Expr::new(ExprKind::Index(Box::new(substitute_at_prefix(a, prefix, replacement)), i.clone()), e.ty.clone())
        }
        _ => e.clone(),
    }
}
