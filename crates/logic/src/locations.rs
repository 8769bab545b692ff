//! Locations, dereferences and variables mentioned by an expression (C2BP §4.2 "locations",
//! §4.5 `drfs`).

use c_ir::{Expr, ExprKind, StmtKind, VarId};

/// Whether `e` is a location: a variable, a dereference, a field or an array element.
pub fn is_location(e: &Expr) -> bool {
    e.is_lvalue()
}

/// The locations whose *values* `e` reads, outermost first, without duplicates. `*p` yields
/// `*p` and `p`; `&x` reads nothing; `&p->f` reads `p`; `s.f` reads `s.f` (not `s`).
pub fn locations(e: &Expr) -> Vec<Expr> {
    let mut out = Vec::new();
    collect_read(e, &mut out);
    out
}

fn push_unique(out: &mut Vec<Expr>, e: &Expr) {
    if !out.contains(e) {
        out.push(e.clone());
    }
}

fn collect_read(e: &Expr, out: &mut Vec<Expr>) {
    match &e.kind {
        ExprKind::Const(_) | ExprKind::Str(_) => {}
        ExprKind::Var(_) => push_unique(out, e),
        ExprKind::Deref(p) => {
            push_unique(out, e);
            collect_read(p, out);
        }
        ExprKind::Field(a, _) => {
            push_unique(out, e);
            collect_address(a, out);
        }
        ExprKind::Index(a, i) => {
            push_unique(out, e);
            collect_address(a, out);
            collect_read(i, out);
        }
        ExprKind::AddrOf(l) => collect_address(l, out),
        ExprKind::Unary(_, a) | ExprKind::Cast(a) => collect_read(a, out),
        ExprKind::Binary(_, a, b) => {
            collect_read(a, out);
            collect_read(b, out);
        }
        ExprKind::Ite(c, a, b) => {
            collect_read(c, out);
            collect_read(a, out);
            collect_read(b, out);
        }
        ExprKind::App(_, args) => args.iter().for_each(|a| collect_read(a, out)),
    }
}

/// The locations read while computing the address of lvalue `l`.
fn collect_address(l: &Expr, out: &mut Vec<Expr>) {
    match &l.kind {
        ExprKind::Var(_) => {}
        ExprKind::Deref(p) => collect_read(p, out),
        ExprKind::Field(a, _) => collect_address(a, out),
        ExprKind::Index(a, i) => {
            collect_address(a, out);
            collect_read(i, out);
        }
        _ => collect_read(l, out),
    }
}

/// The dereferenced pointer expressions of `e` (`p` for every `*p` and `p->f`), without duplicates.
pub fn drfs(e: &Expr) -> Vec<Expr> {
    let mut out = Vec::new();
    e.visit(&mut |sub| {
        if let ExprKind::Deref(p) = &sub.kind {
            push_unique(&mut out, p);
        }
    });
    out
}

/// All variables occurring in `e`, including under `&`.
pub fn vars(e: &Expr) -> Vec<VarId> {
    e.vars()
}

/// Calls `f` on every top-level expression of a statement.
pub fn for_each_stmt_expr(kind: &StmtKind, f: &mut dyn FnMut(&Expr)) {
    match kind {
        StmtKind::Skip | StmtKind::Goto { .. } | StmtKind::Error => {}
        StmtKind::Assign { lhs, rhs } => {
            f(lhs);
            f(rhs);
        }
        StmtKind::Havoc { lhs } => f(lhs),
        StmtKind::Malloc { lhs, size } => {
            f(lhs);
            f(size);
        }
        StmtKind::Free { ptr } => f(ptr),
        StmtKind::Assume { cond } => f(cond),
        StmtKind::Call { lhs, args, .. } => {
            if let Some(l) = lhs {
                f(l);
            }
            for a in args {
                f(a);
            }
        }
        StmtKind::Return { value } => {
            if let Some(v) = value {
                f(v);
            }
        }
    }
}
