//! Simplification of predicates: constant folding at the C type's width, boolean
//! simplification, `&*p` → `p`, `*&x` → `x`, address (dis)equalities decided by the logical
//! memory model, double negation, constants moved to the right of comparisons.
//!
//! Only rewrites valid in the solver's memory model are applied, so `simplify(e)` and `e` are
//! always equivalent for the solver (at the program's C widths). Undefined operations (division
//! by zero, over-wide shifts) are never folded.

use crate::eval::{eval_binary, eval_unary, is_defined, wrap};
use c_ir::{BinaryOp, Expr, ExprKind, Type, UnaryOp};

/// The logical negation of `e`, pushed through `!`, comparisons and constants.
pub fn negate(e: &Expr) -> Expr {
    match &e.kind {
        ExprKind::Const(v) if e.ty == Type::Bool => Expr::bool(*v == 0),
        ExprKind::Unary(UnaryOp::Not, a) => (**a).clone(),
        ExprKind::Binary(op, a, b) if op.is_relational() => Expr::binary(op.negated_relation().unwrap_or(*op), (**a).clone(), (**b).clone()),
        _ => Expr::logical_not(e.clone()),
    }
}

/// Whether `b` is `negate(a)` up to the cases `negate` produces, without building it (the
/// n-ary conjunctions and disjunctions fold big accumulators through here).
fn are_complements(a: &Expr, b: &Expr) -> bool {
    fn one_way(a: &Expr, b: &Expr) -> bool {
        match (&a.kind, &b.kind) {
            (ExprKind::Unary(UnaryOp::Not, x), _) => **x == *b,
            (ExprKind::Const(x), ExprKind::Const(y)) if a.ty == Type::Bool && b.ty == Type::Bool => (*x == 0) != (*y == 0),
            (ExprKind::Binary(op, x1, y1), ExprKind::Binary(op2, x2, y2)) => op.negated_relation() == Some(*op2) && x1 == x2 && y1 == y2,
            _ => false,
        }
    }
    one_way(a, b) || one_way(b, a)
}

/// `a && b`, simplified at the top.
fn mk_and(a: Expr, b: Expr) -> Expr {
    if a.is_false() || b.is_false() {
        return Expr::bool(false);
    }
    if a.is_true() {
        return b;
    }
    if b.is_true() || a == b {
        return a;
    }
    if are_complements(&a, &b) {
        return Expr::bool(false);
    }
    // a && (!a || c)  →  a && c
    if let ExprKind::Binary(BinaryOp::Or, x, y) = &b.kind {
        if are_complements(&a, x) {
            return mk_and(a, (**y).clone());
        }
    }
    Expr::and(a, b)
}

/// `a || b`, simplified at the top.
fn mk_or(a: Expr, b: Expr) -> Expr {
    if a.is_true() || b.is_true() {
        return Expr::bool(true);
    }
    if a.is_false() {
        return b;
    }
    if b.is_false() || a == b {
        return a;
    }
    if are_complements(&a, &b) {
        return Expr::bool(true);
    }
    // a || (!a && c)  →  a || c
    if let ExprKind::Binary(BinaryOp::And, x, y) = &b.kind {
        if are_complements(&a, x) {
            return mk_or(a, (**y).clone());
        }
    }
    Expr::or(a, b)
}

/// The conjunction of `items` (`true` when empty), simplified.
pub fn conjunction(items: &[Expr]) -> Expr {
    let mut acc = Expr::bool(true);
    for item in items {
        acc = mk_and(acc, simplify(item));
    }
    acc
}

/// The disjunction of `items` (`false` when empty), simplified.
pub fn disjunction(items: &[Expr]) -> Expr {
    let mut acc = Expr::bool(false);
    for item in items {
        acc = mk_or(acc, simplify(item));
    }
    acc
}

/// The conjunction (`op` = `And`) or disjunction (`Or`) of `items` as a balanced tree, with
/// boolean constants folded and no other rewriting. Unlike [`conjunction`] and
/// [`disjunction`], whose left-nested chains are as deep as the list is long, the tree has
/// logarithmic depth: thousands of invariant cubes or unrolled error guards can then be
/// evaluated, encoded, printed and dropped without deep recursion.
pub fn balanced(items: Vec<Expr>, op: BinaryOp) -> Expr {
    let unit = op == BinaryOp::And;
    let mut kept = Vec::new();
    for item in items {
        match item.as_const() {
            Some(v) if item.ty == Type::Bool && (v != 0) == unit => {}
            Some(_) if item.ty == Type::Bool => return Expr::bool(!unit),
            _ => kept.push(item),
        }
    }
    fn build(items: &mut [Option<Expr>], op: BinaryOp) -> Expr {
        if items.len() == 1 {
            return items[0].take().unwrap_or_else(|| Expr::bool(op == BinaryOp::And));
        }
        let (left, right) = items.split_at_mut(items.len() / 2);
        Expr::binary(op, build(left, op), build(right, op))
    }
    if kept.is_empty() {
        return Expr::bool(unit);
    }
    let mut slots: Vec<Option<Expr>> = kept.into_iter().map(Some).collect();
    build(&mut slots, op)
}

/// `a ==> b`, simplified.
pub fn implies(a: &Expr, b: &Expr) -> Expr {
    simplify(&Expr::binary(BinaryOp::Implies, a.clone(), b.clone()))
}

fn width_and_sign(ty: &Type) -> Option<(u32, bool)> {
    match ty {
        Type::Bool => Some((1, false)),
        Type::Int { bits, signed } => Some((*bits as u32, *signed)),
        Type::Pointer(_) => Some((64, false)),
        _ => None,
    }
}

/// Simplifies `e` bottom-up (see the module documentation for the rules).
pub fn simplify(e: &Expr) -> Expr {
    let b = |x: Expr| Box::new(x);
    match &e.kind {
        ExprKind::Const(_) | ExprKind::Var(_) | ExprKind::Str(_) => e.clone(),
        ExprKind::Unary(op, a) => simplify_unary(*op, simplify(a), &e.ty),
        ExprKind::Binary(op, x, y) => simplify_binary(*op, simplify(x), simplify(y), &e.ty),
        ExprKind::Cast(a) => simplify_cast(simplify(a), &e.ty),
        ExprKind::Deref(a) => {
            let a = simplify(a);
            match a.kind {
                ExprKind::AddrOf(inner) if inner.ty == e.ty => *inner,
                kind => Expr::new(ExprKind::Deref(b(Expr::new(kind, a.ty))), e.ty.clone()),
            }
        }
        ExprKind::AddrOf(a) => {
            let a = simplify(a);
            match a.kind {
                ExprKind::Deref(inner) if inner.ty == e.ty => *inner,
                kind => Expr::new(ExprKind::AddrOf(b(Expr::new(kind, a.ty))), e.ty.clone()),
            }
        }
        ExprKind::Field(a, i) => Expr::new(ExprKind::Field(b(simplify(a)), *i), e.ty.clone()),
        ExprKind::Index(a, i) => Expr::new(ExprKind::Index(b(simplify(a)), b(simplify(i))), e.ty.clone()),
        ExprKind::Ite(c, x, y) => simplify_ite(simplify(c), simplify(x), simplify(y), &e.ty),
        ExprKind::App(name, args) => Expr::new(ExprKind::App(name.clone(), args.iter().map(simplify).collect()), e.ty.clone()),
    }
}

fn simplify_unary(op: UnaryOp, a: Expr, ty: &Type) -> Expr {
    if op == UnaryOp::Not {
        if a.ty == Type::Bool {
            return negate(&a);
        }
        if let Some(v) = a.as_const() {
            return Expr::bool(v == 0);
        }
        return Expr::new(ExprKind::Unary(op, Box::new(a)), ty.clone());
    }
    if let (Some(v), Some((w, s))) = (a.as_const(), width_and_sign(ty)) {
        if a.ty == *ty {
            return Expr::int(eval_unary(op, v, w, s), ty.clone());
        }
    }
    if let ExprKind::Unary(inner_op, inner) = &a.kind {
        if *inner_op == op && inner.ty == *ty {
            return (**inner).clone();
        }
    }
    Expr::new(ExprKind::Unary(op, Box::new(a)), ty.clone())
}

fn simplify_cast(a: Expr, ty: &Type) -> Expr {
    if a.ty == *ty {
        return a;
    }
    if let Some(v) = a.as_const() {
        match ty {
            Type::Bool => return Expr::bool(v != 0),
            Type::Int { bits, signed } if a.ty.is_scalar() => return Expr::int(wrap(v, *bits as u32, *signed), ty.clone()),
            Type::Pointer(_) if a.ty.is_scalar() => return Expr::int(wrap(v, 64, false), ty.clone()),
            _ => {}
        }
    }
    if *ty == Type::Bool && a.ty.is_scalar() {
        // (bool)x is x != 0
        let zero = Expr::int(0, a.ty.clone());
        return simplify_binary(BinaryOp::Ne, a, zero, &Type::Bool);
    }
    Expr::new(ExprKind::Cast(Box::new(a)), ty.clone())
}

fn simplify_ite(c: Expr, x: Expr, y: Expr, ty: &Type) -> Expr {
    if c.is_true() {
        return x;
    }
    if c.is_false() || x == y {
        return y;
    }
    if *ty == Type::Bool {
        if x.is_true() && y.is_false() {
            return c;
        }
        if x.is_false() && y.is_true() {
            return negate(&c);
        }
        if x.is_true() {
            return mk_or(c, y);
        }
        if x.is_false() {
            return mk_and(negate(&c), y);
        }
        if y.is_true() {
            return mk_or(negate(&c), x);
        }
        if y.is_false() {
            return mk_and(c, x);
        }
    }
    Expr::new(ExprKind::Ite(Box::new(c), Box::new(x), Box::new(y)), ty.clone())
}

/// The relation with its operands swapped (`a < b` ⟺ `b > a`).
pub fn swap_relational(op: BinaryOp) -> BinaryOp {
    match op {
        BinaryOp::Lt => BinaryOp::Gt,
        BinaryOp::Le => BinaryOp::Ge,
        BinaryOp::Gt => BinaryOp::Lt,
        BinaryOp::Ge => BinaryOp::Le,
        other => other,
    }
}

/// `Some(true/false)` when the memory model decides whether the two pointer-valued expressions
/// are equal; `Some` of another expression when the question reduces to a smaller one.
fn address_equality(a: &Expr, b: &Expr) -> Option<Expr> {
    let is_null = |e: &Expr| e.ty.is_pointer() && e.as_const() == Some(0);
    let non_null_address = |e: &Expr| match &e.kind {
        ExprKind::Str(_) => true,
        ExprKind::AddrOf(l) => matches!(l.kind, ExprKind::Var(_) | ExprKind::Field(..)),
        _ => false,
    };
    if (is_null(a) && non_null_address(b)) || (is_null(b) && non_null_address(a)) {
        return Some(Expr::bool(false));
    }
    match (&a.kind, &b.kind) {
        (ExprKind::Str(x), ExprKind::Str(y)) => Some(Expr::bool(x == y)),
        (ExprKind::Str(_), ExprKind::AddrOf(l)) | (ExprKind::AddrOf(l), ExprKind::Str(_))
            if matches!(l.kind, ExprKind::Var(_) | ExprKind::Field(..)) =>
        {
            Some(Expr::bool(false))
        }
        (ExprKind::AddrOf(l1), ExprKind::AddrOf(l2)) => lvalue_address_equality(l1, l2),
        _ => None,
    }
}

fn lvalue_address_equality(l1: &Expr, l2: &Expr) -> Option<Expr> {
    match (&l1.kind, &l2.kind) {
        (ExprKind::Var(x), ExprKind::Var(y)) => Some(Expr::bool(x == y)),
        // variables and struct fields live at distinct addresses
        (ExprKind::Var(_), ExprKind::Field(..)) | (ExprKind::Field(..), ExprKind::Var(_)) => Some(Expr::bool(false)),
        (ExprKind::Field(a, f), ExprKind::Field(b, g)) => {
            if f != g || a.ty != b.ty {
                Some(Expr::bool(false))
            } else {
                // field addresses are injective in the base address
                let pa = simplify(&Expr::addr_of((**a).clone()));
                let pb = simplify(&Expr::addr_of((**b).clone()));
                Some(simplify_binary(BinaryOp::Eq, pa, pb, &Type::Bool))
            }
        }
        _ => None,
    }
}

fn simplify_binary(op: BinaryOp, x: Expr, y: Expr, ty: &Type) -> Expr {
    use BinaryOp::*;
    match op {
        And => return mk_and(x, y),
        Or => return mk_or(x, y),
        Implies => {
            if x.is_false() || y.is_true() || x == y {
                return Expr::bool(true);
            }
            if x.is_true() {
                return y;
            }
            if y.is_false() {
                return negate(&x);
            }
            return Expr::binary(Implies, x, y);
        }
        _ => {}
    }
    let operand_ty = x.ty.clone();
    // constant folding
    if let (Some(a), Some(b), Some((w, s))) = (x.as_const(), y.as_const(), width_and_sign(&operand_ty)) {
        if x.ty == y.ty || op.is_relational() || matches!(op, Shl | Shr) {
            let folded = match op {
                Shl | Shr => {
                    if b >= 0 && b < w as i128 {
                        Some(crate::eval::eval_shift(op, a, b as u128, w, s))
                    } else {
                        None
                    }
                }
                _ if op.is_relational() && x.ty != y.ty => None,
                _ if is_defined(op, a, b, w, s) => Some(eval_binary(op, a, b, w, s)),
                _ => None,
            };
            if let Some(v) = folded {
                return if op.is_relational() { Expr::bool(v != 0) } else { Expr::int(v, ty.clone()) };
            }
        }
    }
    if op.is_relational() {
        if x == y {
            return Expr::bool(matches!(op, Eq | Le | Ge));
        }
        if matches!(op, Eq | Ne) {
            if let Some(decided) = address_equality(&x, &y) {
                return if op == Eq { decided } else { negate(&decided) };
            }
            // boolean comparisons with constants
            if x.ty == Type::Bool {
                if let Some(c) = y.as_const() {
                    return if (c != 0) == (op == Eq) { x } else { negate(&x) };
                }
                if let Some(c) = x.as_const() {
                    return if (c != 0) == (op == Eq) { y } else { negate(&y) };
                }
            }
            // (int)b != 0  →  b   for boolean b
            if let (ExprKind::Cast(inner), Some(0)) = (&x.kind, y.as_const()) {
                if inner.ty == Type::Bool {
                    return if op == Ne { (**inner).clone() } else { negate(inner) };
                }
            }
        }
        // constants to the right
        if x.as_const().is_some() && y.as_const().is_none() {
            return Expr::binary(swap_relational(op), y, x);
        }
        return Expr::binary(op, x, y);
    }
    // arithmetic identities
    let is_zero = |e: &Expr| e.as_const() == Some(0);
    let is_one = |e: &Expr| e.as_const() == Some(1);
    if x.ty == y.ty && x.ty.is_integer() {
        if let Some(folded) = fold_offsets(op, &x, &y, ty) {
            return folded;
        }
        match op {
            Add | BitOr | BitXor | Sub | Shl | Shr if is_zero(&y) => return x,
            Add | BitOr | BitXor if is_zero(&x) => return y,
            Mul | BitAnd if is_zero(&y) => return y,
            Mul | BitAnd if is_zero(&x) => return x,
            Mul | Div if is_one(&y) => return x,
            Mul if is_one(&x) => return y,
            Sub | BitXor if x == y => return Expr::int(0, ty.clone()),
            BitAnd | BitOr if x == y => return x,
            _ => {}
        }
    }
    Expr::new(ExprKind::Binary(op, Box::new(x), Box::new(y)), ty.clone())
}

/// `(z ± c1) ± c2` → `z ± c` with the constants combined in the machine type (exact in
/// two's complement), so that repeated unrollings give `k + 3` rather than `k + 1 + 1 + 1`.
fn fold_offsets(op: BinaryOp, x: &Expr, y: &Expr, ty: &Type) -> Option<Expr> {
    use BinaryOp::*;
    let c2 = y.as_const()?;
    if !matches!(op, Add | Sub) || x.ty != *ty {
        return None;
    }
    let (w, s) = width_and_sign(ty)?;
    let ExprKind::Binary(inner, z, c1) = &x.kind else { return None };
    let c1 = c1.as_const()?;
    if !matches!(inner, Add | Sub) || z.ty != *ty {
        return None;
    }
    // the offset of x is ±c1; then add ±c2
    let first = if *inner == Add { c1 } else { eval_binary(Sub, 0, c1, w, s) };
    let total = eval_binary(op, first, c2, w, s);
    if total == 0 {
        return Some((**z).clone());
    }
    // print the smaller magnitude: k - 2 rather than k + 4294967294 (the same in two's complement)
    let magnitude = |v: i128| if s { v.abs() } else { v.min((1i128 << w) - v) };
    let negated = eval_binary(Sub, 0, total, w, s);
    let use_sub = if s { total < 0 && negated > 0 } else { magnitude(total) < total };
    Some(if use_sub {
        Expr::binary(Sub, (**z).clone(), Expr::int(negated, ty.clone()))
    } else {
        Expr::binary(Add, (**z).clone(), Expr::int(total, ty.clone()))
    })
}

