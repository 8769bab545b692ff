//! Weakest (liberal) preconditions of assignments, `havoc`, `malloc` and `assume` with Morris'
//! general axiom of assignment (C2BP §4.2), pruned by may-alias information.
//!
//! `WP(x = e, φ)`: every location `y` that `φ` reads (after its own subterms were transformed)
//! and that may alias `x` is replaced by `&x == &y ? e : y`; locations that are syntactically
//! distinct from `x` (other variables, other fields, other memory types) or that `alias` rules
//! out are left alone. The conditional terms are then lifted to the boolean level, giving
//! exactly C2BP's case split `(&x == &y && φ[e/y]) || (&x != &y && φ)`, and simplified.

use crate::alias::{memory_type_key, MayAlias};
use crate::locations::locations;
use crate::simplify::{negate, simplify};
use c_ir::{BinaryOp, Expr, ExprKind, Program, Symbol, Type};

/// A fresh symbolic value of type `ty` (a nullary [`Symbol::Fresh`], printed `$name`). Callers
/// choose names unique per statement instance (e.g. `havoc_12_3`): within one formula every
/// occurrence of the same name denotes the same value.
pub fn fresh_symbol(name: &str, ty: &Type) -> Expr {
    Expr::new(ExprKind::App(Symbol::Fresh(name.to_string()), Vec::new()), ty.clone())
}

/// Whether `e` was made by [`fresh_symbol`].
pub fn is_fresh_symbol(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::App(Symbol::Fresh(_), args) if args.is_empty())
}

/// `WP(lhs = rhs, phi)`, case-split and simplified.
pub fn wp_assign(program: &Program, alias: &dyn MayAlias, lhs: &Expr, rhs: &Expr, phi: &Expr) -> Expr {
    simplify(&lift_ite(&wp_assign_unsimplified(program, alias, lhs, rhs, phi)))
}

/// `WP(lhs = rhs, phi)` with the alias cases as conditional terms `&lhs == &y ? rhs : y`,
/// without case split or simplification (the form for syntactic identity checks:
/// the result equals `phi` iff the assignment cannot affect `phi`).
pub fn wp_assign_unsimplified(_program: &Program, alias: &dyn MayAlias, lhs: &Expr, rhs: &Expr, phi: &Expr) -> Expr {
    let w = Wp { alias, lhs, rhs };
    w.value(phi)
}

/// `WP(lhs = *, phi)`: `phi` with `lhs` set to the fresh value `fresh` (see [`fresh_symbol`];
/// read as universally quantified when the result is checked for validity).
pub fn wp_havoc(program: &Program, alias: &dyn MayAlias, lhs: &Expr, phi: &Expr, fresh: &Expr) -> Expr {
    wp_assign(program, alias, lhs, fresh, phi)
}

/// `WP(lhs = malloc(..), phi)`: `fresh` is the new address (see [`fresh_symbol`]); the result is
/// `(fresh != NULL && fresh != a1 && ... ) ==> WP(lhs = fresh, phi)` where `a1..` are the
/// pointer-valued terms of the weakest precondition (every existing address it can observe).
pub fn wp_malloc(program: &Program, alias: &dyn MayAlias, lhs: &Expr, phi: &Expr, fresh: &Expr) -> Expr {
    let body = wp_assign(program, alias, lhs, fresh, phi);
    let mut existing: Vec<Expr> = Vec::new();
    body.visit(&mut |sub| {
        if sub.ty.is_pointer() && sub != fresh && !existing.contains(sub) && sub.as_const().is_none() {
            existing.push(sub.clone());
        }
    });
    let mut conds = vec![Expr::binary(BinaryOp::Ne, fresh.clone(), Expr::int(0, fresh.ty.clone()))];
    for a in existing {
        if a.visit_contains(fresh) {
            continue;
        }
        conds.push(Expr::binary(BinaryOp::Ne, fresh.clone(), a));
    }
    let premise = crate::simplify::conjunction(&conds);
    crate::simplify::implies(&premise, &body)
}

trait VisitContains {
    fn visit_contains(&self, needle: &Expr) -> bool;
}

impl VisitContains for Expr {
    fn visit_contains(&self, needle: &Expr) -> bool {
        let mut found = false;
        self.visit(&mut |e| found |= e == needle);
        found
    }
}

/// `WP(assume(cond), phi)` = `cond ==> phi` (simplified).
pub fn wp_assume(cond: &Expr, phi: &Expr) -> Expr {
    crate::simplify::implies(cond, phi)
}

struct Wp<'a> {
    alias: &'a dyn MayAlias,
    lhs: &'a Expr,
    rhs: &'a Expr,
}

impl Wp<'_> {
    /// The pre-state expression whose value equals `e`'s value after the assignment.
    fn value(&self, e: &Expr) -> Expr {
        let b = |x: Expr| Box::new(x);
        match &e.kind {
            ExprKind::Const(_) | ExprKind::Str(_) => e.clone(),
            ExprKind::Var(_) | ExprKind::Deref(_) | ExprKind::Field(..) | ExprKind::Index(..) => {
                let moved = self.address(e);
                self.read(e, &moved)
            }
            ExprKind::AddrOf(l) => Expr::new(ExprKind::AddrOf(b(self.address(l))), e.ty.clone()),
            ExprKind::Unary(op, a) => Expr::new(ExprKind::Unary(*op, b(self.value(a))), e.ty.clone()),
            ExprKind::Binary(op, x, y) => Expr::new(ExprKind::Binary(*op, b(self.value(x)), b(self.value(y))), e.ty.clone()),
            ExprKind::Cast(a) => Expr::new(ExprKind::Cast(b(self.value(a))), e.ty.clone()),
            ExprKind::Ite(c, x, y) => {
                Expr::new(ExprKind::Ite(b(self.value(c)), b(self.value(x)), b(self.value(y))), e.ty.clone())
            }
            ExprKind::App(name, args) => Expr::new(ExprKind::App(name.clone(), args.iter().map(|a| self.value(a)).collect()), e.ty.clone()),
        }
    }

    /// The lvalue (over pre-state terms) denoting the location that lvalue `l` denotes after
    /// the assignment: the subexpressions computing its address are transformed, `l` itself is not.
    fn address(&self, l: &Expr) -> Expr {
        let b = |x: Expr| Box::new(x);
        match &l.kind {
            ExprKind::Var(_) => l.clone(),
            ExprKind::Deref(p) => Expr::new(ExprKind::Deref(b(self.value(p))), l.ty.clone()),
            ExprKind::Field(a, f) => {
                let base = if a.is_lvalue() { self.address(a) } else { self.value(a) };
                Expr::new(ExprKind::Field(b(base), *f), l.ty.clone())
            }
            ExprKind::Index(a, i) => {
                let base = if a.is_lvalue() { self.address(a) } else { self.value(a) };
                Expr::new(ExprKind::Index(b(base), b(self.value(i))), l.ty.clone())
            }
            _ => self.value(l),
        }
    }

    /// The post-state value of location `original` whose post-state address is that of `moved`.
    /// Checks `moved` and its enclosing lvalues (for struct assignments) against the lhs.
    fn read(&self, original: &Expr, moved: &Expr) -> Expr {
        // prefixes from the location itself outwards to its root: (original prefix, moved prefix)
        let mut chain: Vec<(&Expr, &Expr)> = Vec::new();
        let (mut o, mut m) = (original, moved);
        loop {
            chain.push((o, m));
            match (&o.kind, &m.kind) {
                (ExprKind::Field(oa, _), ExprKind::Field(ma, _)) | (ExprKind::Index(oa, _), ExprKind::Index(ma, _))
                    if oa.is_lvalue() && ma.is_lvalue() =>
                {
                    o = oa;
                    m = ma;
                }
                _ => break,
            }
        }
        let mut result = moved.clone();
        // innermost prefix first, so that the outermost (the location itself) ends up on top
        for (depth, &(orig_prefix, moved_prefix)) in chain.iter().enumerate().rev() {
            // an enclosing lvalue is overwritten only by a whole-struct assignment of its type
            if depth > 0 && (orig_prefix.ty != self.lhs.ty || self.lhs.ty.is_scalar()) {
                continue;
            }
            if !self.overlaps(orig_prefix) {
                continue;
            }
            let replaced = crate::substitute::substitute_at_prefix(moved, moved_prefix, self.rhs);
            if moved_prefix == self.lhs {
                result = replaced;
                continue;
            }
            let cond = Expr::eq(mk_addr_of(self.lhs), mk_addr_of(moved_prefix));
            result = Expr::new(ExprKind::Ite(Box::new(cond), Box::new(replaced), Box::new(result)), moved.ty.clone());
        }
        result
    }

    /// Whether location `y` (an original subterm of the predicate) may be the lhs location.
    fn overlaps(&self, y: &Expr) -> bool {
        if y.ty != self.lhs.ty && memory_type_key(&y.ty) != memory_type_key(&self.lhs.ty) {
            return false;
        }
        if y == self.lhs {
            return true;
        }
        if syntactically_distinct(y, self.lhs) {
            return false;
        }
        self.alias.may_alias(self.lhs, y)
    }
}

/// `&l`, with `&*p` written `p`.
fn mk_addr_of(l: &Expr) -> Expr {
    match &l.kind {
        ExprKind::Deref(p) => (**p).clone(),
        _ => Expr::addr_of(l.clone()),
    }
}

/// Lvalues that can never denote the same location in the memory model: different variables
/// (and paths rooted at different variables), different fields, distinct constant indices.
pub fn syntactically_distinct(a: &Expr, b: &Expr) -> bool {
    match (&a.kind, &b.kind) {
        (ExprKind::Var(x), ExprKind::Var(y)) => x != y,
        (ExprKind::Var(_), ExprKind::Field(..)) | (ExprKind::Field(..), ExprKind::Var(_)) => true,
        (ExprKind::Field(x, f), ExprKind::Field(y, g)) => f != g || x.ty != y.ty || syntactically_distinct(x, y),
        (ExprKind::Index(x, i), ExprKind::Index(y, j)) => {
            syntactically_distinct(x, y) || matches!((i.as_const(), j.as_const()), (Some(p), Some(q)) if p != q)
        }
        (ExprKind::Var(_), ExprKind::Index(y, _)) => matches!(y.kind, ExprKind::Var(_)),
        (ExprKind::Index(x, _), ExprKind::Var(_)) => matches!(x.kind, ExprKind::Var(_)),
        _ => false,
    }
}

/// Lifts non-boolean conditional terms out of atoms: an atom `A[c ? a : b]` becomes
/// `(c && A[a]) || (!c && A[b])` (C2BP's case split). Atoms with more than 8 conditional terms
/// keep the rest as terms (the solver handles them) to avoid exponential growth.
pub fn lift_ite(e: &Expr) -> Expr {
    lift(e, 8)
}

fn lift(e: &Expr, budget: u32) -> Expr {
    let b = |x: Expr| Box::new(x);
    match &e.kind {
        ExprKind::Binary(op, x, y) if op.is_logical() => Expr::new(ExprKind::Binary(*op, b(lift(x, budget)), b(lift(y, budget))), e.ty.clone()),
        ExprKind::Unary(op, x) if e.ty == Type::Bool && x.ty == Type::Bool => {
            Expr::new(ExprKind::Unary(*op, b(lift(x, budget))), e.ty.clone())
        }
        ExprKind::Ite(c, x, y) if e.ty == Type::Bool => {
            Expr::new(ExprKind::Ite(b(lift(c, budget)), b(lift(x, budget)), b(lift(y, budget))), e.ty.clone())
        }
        _ if budget > 0 => match first_term_ite(e) {
            Some(ite) => {
                let ExprKind::Ite(c, x, y) = &ite.kind else { return e.clone() };
                let then_branch = crate::substitute::substitute(e, &ite, x);
                let else_branch = crate::substitute::substitute(e, &ite, y);
                let c = lift(c, budget - 1);
                Expr::or(Expr::and(c.clone(), lift(&then_branch, budget - 1)), Expr::and(negate(&c), lift(&else_branch, budget - 1)))
            }
            None => e.clone(),
        },
        _ => e.clone(),
    }
}

/// The first non-boolean conditional term in `e` (parents first) not under another conditional.
fn first_term_ite(e: &Expr) -> Option<Expr> {
    let mut found: Option<Expr> = None;
    e.visit(&mut |sub| {
        if found.is_none() && matches!(sub.kind, ExprKind::Ite(..)) && sub.ty != Type::Bool {
            found = Some(sub.clone());
        }
    });
    found
}

/// The locations of `phi` that an assignment to `lhs` may change (used by callers to skip
/// predicates an assignment cannot affect, C2BP §5.2).
pub fn affected_locations(alias: &dyn MayAlias, lhs: &Expr, phi: &Expr) -> Vec<Expr> {
    let w = Wp { alias, lhs, rhs: lhs };
    locations(phi).into_iter().filter(|y| {
        let mut o = y;
        loop {
            if w.overlaps(o) {
                return true;
            }
            match &o.kind {
                ExprKind::Field(a, _) | ExprKind::Index(a, _) if a.is_lvalue() => o = a,
                _ => return false,
            }
        }
    }).collect()
}
