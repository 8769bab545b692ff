//! Projection of path conditions onto program variables: eliminates the fresh variables that
//! stand for input values (`x = __VERIFIER_nondet_int()`) from the conditions that explain an
//! infeasible path.
//!
//! A condition such as `i >= input#0 && input#0 > 0` just before `n = input#0` mentions a value
//! that no predicate can name, so predicate discovery would drop it and the next abstraction
//! could not exclude the same spurious path (the model checker lets the havoc of `n` pick any
//! valuation). What the path really needs is what the condition says about the other variables:
//! `∃v. i >= v && v > 0`, i.e. `i > 0`. This module computes such consequences by
//! Fourier–Motzkin elimination over the conjunction of literals at one step, read as linear
//! forms `Σ cᵢ·tᵢ + k ⋈ 0` over the atomic terms `tᵢ` (variables, fields, dereferences, any
//! non-linear subterm): every lower bound of a fresh variable is combined with every upper bound,
//! an equality `v == e` also substitutes `e` where `v` occurs inside a non-linear term, and the
//! fresh variables are eliminated one after another, so that a condition over two future inputs
//! (`k.value + input#2 + input#4 > k.limit` with both inputs in `1..5`) still gives its
//! projection (`k.limit - k.value < 10`), the bound the next abstraction needs before either
//! input is read. The results are only candidate predicates (any predicate keeps the
//! abstraction sound), so the mathematical-integer reading of the bounds is good enough.

use c_ir::{BinaryOp, Expr, ExprKind, Type, UnaryOp, VarId};

/// At most this many literals take part in one step's elimination (Fourier–Motzkin can square
/// the number of literals with each eliminated variable).
const MAX_LITERALS: usize = 48;

/// `Σ coefficient·term + constant`, the terms distinct and their coefficients non-zero.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Linear {
    terms: Vec<(i128, Expr)>,
    constant: i128,
}

impl Linear {
    fn constant(k: i128) -> Linear {
        Linear { terms: Vec::new(), constant: k }
    }

    fn term(e: Expr) -> Linear {
        Linear { terms: vec![(1, e)], constant: 0 }
    }

    /// `a·self + b·other` (`None` on overflow).
    fn combine(&self, a: i128, other: &Linear, b: i128) -> Option<Linear> {
        let mut out = Linear { terms: Vec::new(), constant: self.constant.checked_mul(a)?.checked_add(other.constant.checked_mul(b)?)? };
        for (side, factor) in [(self, a), (other, b)] {
            for (c, t) in &side.terms {
                let c = c.checked_mul(factor)?;
                match out.terms.iter_mut().find(|(_, u)| u == t) {
                    Some((d, _)) => *d = d.checked_add(c)?,
                    None => out.terms.push((c, t.clone())),
                }
            }
        }
        out.terms.retain(|(c, _)| *c != 0);
        Some(out)
    }

    /// `-self` (`None` on overflow).
    fn negated(&self) -> Option<Linear> {
        Linear::constant(0).combine(1, self, -1)
    }

    fn coefficient_of(&self, v: VarId) -> i128 {
        self.terms.iter().find(|(_, t)| t.kind == ExprKind::Var(v)).map_or(0, |(c, _)| *c)
    }

    /// Whether `v` occurs inside a term other than `v` itself (a non-linear occurrence).
    fn opaque_in(&self, v: VarId) -> bool {
        self.terms.iter().any(|(_, t)| t.kind != ExprKind::Var(v) && t.vars().contains(&v))
    }

    fn mentions(&self, v: VarId) -> bool {
        self.terms.iter().any(|(_, t)| t.vars().contains(&v))
    }
}

/// The linear form of an integer expression; what is not a sum, difference, negation or
/// product with a constant is an atomic term (integer conversions are read as the identity).
fn linear(e: &Expr) -> Option<Linear> {
    Some(match &e.kind {
        ExprKind::Const(k) => Linear::constant(*k),
        ExprKind::Cast(inner) if e.ty.is_integer() && inner.ty.is_integer() => linear(inner)?,
        ExprKind::Unary(UnaryOp::Neg, a) => linear(a)?.negated()?,
        ExprKind::Binary(BinaryOp::Add, a, b) => linear(a)?.combine(1, &linear(b)?, 1)?,
        ExprKind::Binary(BinaryOp::Sub, a, b) => linear(a)?.combine(1, &linear(b)?, -1)?,
        ExprKind::Binary(BinaryOp::Mul, a, b) => match (a.as_const(), b.as_const()) {
            (Some(k), _) => Linear::constant(0).combine(1, &linear(b)?, k)?,
            (_, Some(k)) => Linear::constant(0).combine(1, &linear(a)?, k)?,
            _ => Linear::term(e.clone()),
        },
        _ => Linear::term(e.clone()),
    })
}

/// One relation `lhs op rhs` of the conditions (negations pushed into the operator).
#[derive(Clone, Debug)]
struct Relation {
    op: BinaryOp,
    lhs: Expr,
    rhs: Expr,
}

/// `form ⋈ 0` with `⋈` one of `<`, `<=`, `==`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Literal {
    form: Linear,
    op: BinaryOp,
    /// Found by elimination (not one of the given conditions).
    derived: bool,
}

impl Literal {
    /// `lhs op rhs` as a literal (`None` for `!=` and non-integer sides).
    fn new(op: BinaryOp, lhs: &Expr, rhs: &Expr) -> Option<Literal> {
        if !lhs.ty.is_integer() || !rhs.ty.is_integer() {
            return None;
        }
        let (l, r) = (linear(lhs)?, linear(rhs)?);
        let (form, op) = match op {
            BinaryOp::Lt | BinaryOp::Le | BinaryOp::Eq => (l.combine(1, &r, -1)?, op),
            BinaryOp::Gt => (r.combine(1, &l, -1)?, BinaryOp::Lt),
            BinaryOp::Ge => (r.combine(1, &l, -1)?, BinaryOp::Le),
            _ => return None,
        };
        Some(Literal { form, op, derived: false })
    }

    /// The literal as a C comparison: the terms with positive coefficients first, the constant
    /// on the right (`k.limit - k.value < 10`); `None` without terms.
    fn to_expr(&self, ty: &Type) -> Option<Expr> {
        let (mut form, mut op) = (self.form.clone(), self.op);
        if form.terms.is_empty() {
            return None;
        }
        if form.terms.iter().all(|(c, _)| *c < 0) {
            form = form.negated()?;
            op = logic::simplify::swap_relational(op);
        }
        let left = linear_expr(&Linear { terms: form.terms.clone(), constant: 0 }, ty)?;
        Some(Expr::binary(op, left, Expr::int(form.constant.checked_neg()?, ty.clone())))
    }
}

/// `form` as a C expression in type `ty`: the terms with positive coefficients first
/// (`a - b + 3`); `None` on overflow.
fn linear_expr(form: &Linear, ty: &Type) -> Option<Expr> {
    let mut terms = form.terms.clone();
    terms.sort_by_key(|(c, _)| *c < 0);
    let scaled = |c: i128, t: &Expr| {
        let t = Expr::cast(t.clone(), ty.clone());
        if c == 1 { t } else { Expr::binary(BinaryOp::Mul, Expr::int(c, ty.clone()), t) }
    };
    let mut sum: Option<Expr> = None;
    for (c, t) in &terms {
        sum = Some(match sum {
            None if *c == -1 => Expr::new(ExprKind::Unary(UnaryOp::Neg, Box::new(Expr::cast(t.clone(), ty.clone()))), ty.clone()),
            None => scaled(*c, t),
            Some(s) if *c > 0 => Expr::binary(BinaryOp::Add, s, scaled(*c, t)),
            Some(s) => Expr::binary(BinaryOp::Sub, s, scaled(c.checked_neg()?, t)),
        });
    }
    Some(match (sum, form.constant) {
        (None, k) => Expr::int(k, ty.clone()),
        (Some(s), 0) => s,
        (Some(s), k) if k > 0 => Expr::binary(BinaryOp::Add, s, Expr::int(k, ty.clone())),
        (Some(s), k) => Expr::binary(BinaryOp::Sub, s, Expr::int(k.checked_neg()?, ty.clone())),
    })
}

/// The consequences, free of `fresh` variables, of the conjunction of `conditions` (all at the same
/// path point). `is_fresh` tells which variables to eliminate; results still mentioning one are dropped.
///
/// The results of one step's structural elimination come first: they keep the shape of the
/// weakest precondition (`10 - k.value < 5`, not `k.value > 5`), which matters with wrap-around
/// arithmetic, where the two differ and only the first is what the abstraction of `k.limit = 10`
/// meets. The linear elimination adds what that cannot find (several inputs, negative
/// coefficients), each result unless it equals a structural one as a linear form.
pub(crate) fn eliminate_fresh(conditions: &[Expr], is_fresh: &dyn Fn(VarId) -> bool) -> Vec<Expr> {
    let mut relations = Vec::new();
    for c in conditions {
        conjuncts_as_relations(c, true, &mut relations);
    }
    let mut out = Vec::new();
    eliminate_from(&relations, is_fresh, &mut out);
    // ∃v. (A ∨ B) ∧ C is (∃v. A ∧ C) ∨ (∃v. B ∧ C): a disjunctive condition (Morris' cases of
    // an assignment through a pointer, `c == &k && c->value + d + input > k.limit || c != &k
    // && …`) is projected one disjunct at a time, with the conjunctive conditions beside it
    for c in conditions {
        let mut disjuncts = Vec::new();
        disjuncts_of(c, &mut disjuncts);
        if disjuncts.len() < 2 || disjuncts.len() > MAX_DISJUNCTS {
            continue;
        }
        for d in disjuncts {
            let mut with = Vec::new();
            conjuncts_as_relations(d, true, &mut with);
            if !with.iter().any(|r| r.lhs.vars().into_iter().chain(r.rhs.vars()).any(is_fresh)) {
                continue;
            }
            with.extend(relations.iter().cloned());
            eliminate_from(&with, is_fresh, &mut out);
        }
    }
    out
}

/// At most this many disjuncts of one condition are projected separately.
const MAX_DISJUNCTS: usize = 8;

/// The disjuncts of `e` (itself when it is no disjunction).
fn disjuncts_of<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match &e.kind {
        ExprKind::Binary(BinaryOp::Or, a, b) => {
            disjuncts_of(a, out);
            disjuncts_of(b, out);
        }
        _ => out.push(e),
    }
}

/// The projections of the conjunction of `relations` (structural first, then the linear ones
/// that are new as linear forms), appended to `out` without repeats.
fn eliminate_from(relations: &[Relation], is_fresh: &dyn Fn(VarId) -> bool, out: &mut Vec<Expr>) {
    let structural: Vec<Expr> = structural::eliminate_each(relations, is_fresh).into_iter().map(without_cancellations).collect();
    let known: Vec<Literal> = out.iter().chain(&structural).filter_map(normal_literal).collect();
    for e in structural {
        if !out.contains(&e) {
            out.push(e);
        }
    }
    for e in eliminate_linear(relations, is_fresh) {
        let duplicate = normal_literal(&e).is_some_and(|l| known.iter().any(|k| k.form == l.form && k.op == l.op));
        if !duplicate && !out.contains(&e) {
            out.push(e);
        }
    }
}

/// `e`, or its linear form when terms cancel or meet across the comparison (`'s->limit -
/// s->value < s->limit - s->value` is `'s->limit - s->limit < 0`): the shape of the condition
/// is kept only where it says nothing twice.
fn without_cancellations(e: Expr) -> Expr {
    let ExprKind::Binary(op, a, b) = &e.kind else { return e };
    let (Some(l), Some(r), Some(literal)) = (linear(a), linear(b), Literal::new(*op, a, b)) else { return e };
    if literal.form.terms.len() == l.terms.len() + r.terms.len() {
        return e;
    }
    let ty = [a, b].into_iter().find(|side| side.ty.is_integer()).map(|side| side.ty.clone());
    match ty.and_then(|ty| literal.to_expr(&ty)) {
        Some(linear) => linear,
        None => e,
    }
}

/// A comparison as a reduced linear literal, to recognise one result in two shapes.
fn normal_literal(e: &Expr) -> Option<Literal> {
    match &e.kind {
        ExprKind::Binary(op, a, b) => Literal::new(*op, a, b).map(|l| Literal { form: reduce(l.form), ..l }),
        _ => None,
    }
}

/// Fourier–Motzkin over the linear forms of `relations`, eliminating every fresh variable in
/// turn.
fn eliminate_linear(relations: &[Relation], is_fresh: &dyn Fn(VarId) -> bool) -> Vec<Expr> {
    let mut literals: Vec<Literal> = Vec::new();
    let mut fresh: Vec<VarId> = Vec::new();
    let mut ty: Option<Type> = None;
    for Relation { op, lhs, rhs } in relations {
        let Some(l) = Literal::new(*op, lhs, rhs) else { continue };
        for v in l.form.terms.iter().flat_map(|(_, t)| t.vars()) {
            if is_fresh(v) && !fresh.contains(&v) {
                fresh.push(v);
            }
        }
        if ty.is_none() {
            ty = [lhs, rhs].into_iter().find_map(|side| fresh_type(side, is_fresh));
        }
        if !literals.contains(&l) && literals.len() < MAX_LITERALS {
            literals.push(l);
        }
    }
    let Some(ty) = ty else { return Vec::new() };
    for v in fresh {
        literals = eliminate_one(literals, v, &ty);
    }
    let mut out: Vec<Expr> = Vec::new();
    for l in literals.iter().filter(|l| l.derived && !l.form.terms.iter().any(|(_, t)| t.vars().into_iter().any(is_fresh))) {
        if let Some(e) = l.to_expr(&ty) {
            if !out.contains(&e) {
                out.push(e);
            }
        }
    }
    out
}

/// The type of a fresh variable in `e` (the type the results are printed in).
fn fresh_type(e: &Expr, is_fresh: &dyn Fn(VarId) -> bool) -> Option<Type> {
    let mut found = None;
    e.visit(&mut |x| {
        if let ExprKind::Var(v) = x.kind {
            if found.is_none() && is_fresh(v) && x.ty.is_integer() {
                found = Some(x.ty.clone());
            }
        }
    });
    found
}

/// Splits `e` (read with polarity `positive`) into relations under conjunction.
fn conjuncts_as_relations(e: &Expr, positive: bool, out: &mut Vec<Relation>) {
    match &e.kind {
        ExprKind::Unary(UnaryOp::Not, a) => conjuncts_as_relations(a, !positive, out),
        ExprKind::Binary(BinaryOp::And, a, b) if positive => {
            conjuncts_as_relations(a, true, out);
            conjuncts_as_relations(b, true, out);
        }
        ExprKind::Binary(BinaryOp::Or, a, b) if !positive => {
            conjuncts_as_relations(a, false, out);
            conjuncts_as_relations(b, false, out);
        }
        ExprKind::Binary(op, a, b) if op.is_relational() => {
            let op = if positive { *op } else { op.negated_relation().unwrap_or(*op) };
            out.push(Relation { op, lhs: (**a).clone(), rhs: (**b).clone() });
        }
        _ => {}
    }
}

/// The literals without `v`: those that never mentioned it, an equality's value substituted
/// where `v` occurs inside a term, and the Fourier–Motzkin combinations of its bounds.
fn eliminate_one(literals: Vec<Literal>, v: VarId, ty: &Type) -> Vec<Literal> {
    let (with, mut out): (Vec<Literal>, Vec<Literal>) = literals.into_iter().partition(|l| l.form.mentions(v));
    let push = |out: &mut Vec<Literal>, l: Literal| {
        if !out.iter().any(|o| o.form == l.form && o.op == l.op) && out.len() < MAX_LITERALS {
            out.push(l);
        }
    };
    // an equality ±v + rest == 0 gives v = ∓rest, substituted inside the non-linear terms
    let value = with.iter().find_map(|l| {
        let c = l.form.coefficient_of(v);
        if l.op != BinaryOp::Eq || c.abs() != 1 || l.form.opaque_in(v) {
            return None;
        }
        let rest = Linear { terms: l.form.terms.iter().filter(|(_, t)| t.kind != ExprKind::Var(v)).cloned().collect(), constant: l.form.constant };
        Some(linear_expr(&Linear::constant(0).combine(1, &rest, -c)?, ty))
    });
    if let Some(Some(value_expr)) = &value {
        for l in with.iter().filter(|l| l.form.opaque_in(v)) {
            let Some(e) = l.to_expr(ty) else { continue };
            let ExprKind::Binary(op, lhs, rhs) = &e.kind else { continue };
            let lhs = logic::substitute_var(lhs, v, value_expr);
            let rhs = logic::substitute_var(rhs, v, value_expr);
            if let Some(mut s) = Literal::new(*op, &lhs, &rhs) {
                s.derived = true;
                push(&mut out, s);
            }
        }
    }
    // bounds: c·v + rest ⋈ 0 is an upper bound for c > 0, a lower bound for c < 0
    let linear_in_v: Vec<&Literal> = with.iter().filter(|l| !l.form.opaque_in(v)).collect();
    let mut upper: Vec<(i128, &Literal, bool)> = Vec::new();
    let mut lower: Vec<(i128, &Literal, bool)> = Vec::new();
    for l in &linear_in_v {
        let c = l.form.coefficient_of(v);
        let strict = l.op == BinaryOp::Lt;
        if c > 0 || l.op == BinaryOp::Eq {
            upper.push((c, l, strict));
        }
        if c < 0 || l.op == BinaryOp::Eq {
            lower.push((c, l, strict));
        }
    }
    for &(cu, u, su) in &upper {
        for &(cl, l, sl) in &lower {
            if std::ptr::eq(u, l) {
                continue;
            }
            // an equality read as a bound in the direction its coefficient does not give
            let (u_form, cu) = if cu < 0 { (u.form.negated(), -cu) } else { (Some(u.form.clone()), cu) };
            let (l_form, cl) = if cl > 0 { (l.form.negated(), -cl) } else { (Some(l.form.clone()), cl) };
            let (Some(u_form), Some(l_form)) = (u_form, l_form) else { continue };
            // |cl|·(cu·v + ru) + cu·(cl·v + rl): v cancels
            let Some(form) = u_form.combine(-cl, &l_form, cu) else { continue };
            if form.coefficient_of(v) != 0 {
                continue;
            }
            let op = if u.op == BinaryOp::Eq && l.op == BinaryOp::Eq {
                BinaryOp::Eq
            } else if su || sl {
                BinaryOp::Lt
            } else {
                BinaryOp::Le
            };
            let form = reduce(form);
            if form.terms.is_empty() {
                continue;
            }
            push(&mut out, Literal { form, op, derived: true });
        }
    }
    out
}

/// The form divided by the greatest common divisor of its coefficients and constant.
fn reduce(form: Linear) -> Linear {
    let g = form.terms.iter().map(|(c, _)| *c).chain([form.constant]).fold(0i128, |g, c| gcd(g, c.abs()));
    if g <= 1 {
        return form;
    }
    Linear { terms: form.terms.into_iter().map(|(c, t)| (c / g, t)).collect(), constant: form.constant / g }
}

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 { a } else { gcd(b, a % b) }
}


/// The elimination of one fresh variable at a time that keeps the shape of the conditions: a
/// relation solved for the variable (`v + e op other` read as `v op other - e`) gives a bound,
/// every lower bound meets every upper bound, and an equality `v == e` is substituted into the
/// other relations.
mod structural {
    use super::Relation;
    use c_ir::{BinaryOp, Expr, ExprKind, VarId};

    /// For each fresh variable of `relations`, the results of eliminating it alone; results
    /// still mentioning a fresh variable are dropped.
    pub(super) fn eliminate_each(relations: &[Relation], is_fresh: &dyn Fn(VarId) -> bool) -> Vec<Expr> {
        let mut fresh: Vec<VarId> = Vec::new();
        for l in relations {
            for v in l.lhs.vars().into_iter().chain(l.rhs.vars()) {
                if is_fresh(v) && !fresh.contains(&v) {
                    fresh.push(v);
                }
            }
        }
        let mut out: Vec<Expr> = Vec::new();
        for v in fresh {
            for e in eliminate_one(relations, v) {
                let clean = !e.vars().into_iter().any(is_fresh);
                if clean && !out.contains(&e) {
                    out.push(e);
                }
            }
        }
        out
    }

    /// A bound on the eliminated variable: `bound < v` / `bound <= v` (lower) or `v < bound` /
    /// `v <= bound` (upper).
    struct Bound {
        value: Expr,
        strict: bool,
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
    fn solve_for(l: &Relation, v: VarId, ty: &c_ir::Type) -> Option<(BinaryOp, Expr)> {
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


    fn eliminate_one(literals: &[Relation], v: VarId) -> Vec<Expr> {
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
    fn add(a: Expr, b: Expr) -> Expr {
        Expr::binary(BinaryOp::Add, a, b)
    }
    fn sub(a: Expr, b: Expr) -> Expr {
        Expr::binary(BinaryOp::Sub, a, b)
    }
    fn rel(op: BinaryOp, a: Expr, b: Expr) -> Expr {
        Expr::binary(op, a, b)
    }

    #[test]
    fn lower_and_upper_bounds_combine() {
        // i >= in && in > 0  ⊢  0 < i (the structural result; the linear `i > 0` is the same)
        let input = VarId(9);
        let conds = [rel(BinaryOp::Ge, var(1), var(9)), rel(BinaryOp::Gt, var(9), int(0))];
        let out = eliminate_fresh(&conds, &|v| v == input);
        assert_eq!(out, vec![rel(BinaryOp::Lt, int(0), var(1))]);
    }

    #[test]
    fn negated_literals_and_offsets() {
        // !(in + 1 <= x) && in >= y: two lower bounds, no upper bound → nothing
        let input = VarId(9);
        let conds = [Expr::logical_not(rel(BinaryOp::Le, add(var(9), int(1)), var(1))), rel(BinaryOp::Ge, var(9), var(2))];
        let out = eliminate_fresh(&conds, &|v| v == input);
        assert!(out.is_empty(), "{out:?}");
        // in + 1 < x && in >= y  ⊢  y < x - 1
        let conds = [rel(BinaryOp::Lt, add(var(9), int(1)), var(1)), rel(BinaryOp::Ge, var(9), var(2))];
        let out = eliminate_fresh(&conds, &|v| v == input);
        assert_eq!(out, vec![rel(BinaryOp::Lt, var(2), sub(var(1), int(1)))]);
    }

    #[test]
    fn equalities_are_substituted() {
        // in == x + 1 && in < y  ⊢  x + 1 < y
        let input = VarId(9);
        let conds = [Expr::eq(var(9), add(var(1), int(1))), rel(BinaryOp::Lt, var(9), var(2))];
        let out = eliminate_fresh(&conds, &|v| v == input);
        assert_eq!(out, vec![rel(BinaryOp::Lt, add(var(1), int(1)), var(2))]);
        // inside a non-linear term: in == x + 1 && in * y > 3  ⊢  (x + 1) * y > 3
        let product = Expr::binary(BinaryOp::Mul, var(9), var(2));
        let conds = [Expr::eq(var(9), add(var(1), int(1))), rel(BinaryOp::Gt, product, int(3))];
        let out = eliminate_fresh(&conds, &|v| v == input);
        let substituted = Expr::binary(BinaryOp::Mul, add(var(1), int(1)), var(2));
        assert_eq!(out, vec![rel(BinaryOp::Gt, substituted, int(3))]);
    }

    #[test]
    fn results_mentioning_other_fresh_values_are_dropped() {
        let conds = [rel(BinaryOp::Ge, var(8), var(9)), rel(BinaryOp::Gt, var(9), int(0))];
        let out = eliminate_fresh(&conds, &|v| v.0 >= 8);
        assert!(out.is_empty(), "{out:?}");
    }

    #[test]
    fn several_inputs_are_eliminated_one_after_another() {
        // value + in2 + in4 > limit, 1 <= in2 <= 5, 1 <= in4 <= 5  ⊢  limit - value < 10
        let (value, limit, in2, in4) = (var(1), var(2), var(8), var(9));
        let conds = [
            rel(BinaryOp::Gt, add(add(value.clone(), in2.clone()), in4.clone()), limit.clone()),
            Expr::and(rel(BinaryOp::Ge, in2.clone(), int(1)), rel(BinaryOp::Le, in2, int(5))),
            Expr::and(rel(BinaryOp::Ge, in4.clone(), int(1)), rel(BinaryOp::Le, in4, int(5))),
        ];
        let out = eliminate_fresh(&conds, &|v| v.0 >= 8);
        assert!(out.contains(&rel(BinaryOp::Lt, sub(limit, value), int(10))), "{out:?}");
    }

    #[test]
    fn terms_that_cancel_are_not_printed_twice() {
        // w - v < in && in < u - v  ⊢  w - u < 0 (structurally w - v < u - v)
        let (v, w, u, input) = (var(1), var(2), var(3), var(9));
        let conds = [rel(BinaryOp::Lt, sub(w.clone(), v.clone()), input.clone()), rel(BinaryOp::Lt, input, sub(u.clone(), v))];
        let out = eliminate_fresh(&conds, &|x| x.0 == 9);
        assert_eq!(out, vec![rel(BinaryOp::Lt, sub(w, u), int(0))]);
    }

    #[test]
    fn disjuncts_are_projected_one_at_a_time() {
        // (p == q && v + in > l || p != q && w + in > l) && in <= 5  ⊢  l - v < 5, l - w < 5
        let (v, l, w, p, q, input) = (var(1), var(2), var(3), var(4), var(5), var(9));
        let first = Expr::and(Expr::eq(p.clone(), q.clone()), rel(BinaryOp::Gt, add(v.clone(), input.clone()), l.clone()));
        let second = Expr::and(rel(BinaryOp::Ne, p, q), rel(BinaryOp::Gt, add(w.clone(), input.clone()), l.clone()));
        let conds = [Expr::or(first, second), rel(BinaryOp::Le, input, int(5))];
        let out = eliminate_fresh(&conds, &|x| x.0 == 9);
        assert!(out.contains(&rel(BinaryOp::Lt, sub(l.clone(), v), int(5))), "{out:?}");
        assert!(out.contains(&rel(BinaryOp::Lt, sub(l, w), int(5))), "{out:?}");
    }

    #[test]
    fn negative_coefficients_and_multiples() {
        // limit - (value + in) < 5 && in <= 5  ⊢  limit - value < 10
        let (value, limit, input) = (var(1), var(2), var(9));
        let conds = [rel(BinaryOp::Lt, sub(limit.clone(), add(value.clone(), input.clone())), int(5)), rel(BinaryOp::Le, input.clone(), int(5))];
        let out = eliminate_fresh(&conds, &|v| v.0 == 9);
        assert_eq!(out, vec![rel(BinaryOp::Lt, sub(limit, value.clone()), int(10))]);
        // 2 * in <= value && in >= 3  ⊢  value >= 6  (printed as -value <= -6 negated: value >= 6)
        let twice = Expr::binary(BinaryOp::Mul, int(2), input.clone());
        let conds = [rel(BinaryOp::Le, twice, value.clone()), rel(BinaryOp::Ge, input, int(3))];
        let out = eliminate_fresh(&conds, &|v| v.0 == 9);
        assert_eq!(out, vec![rel(BinaryOp::Ge, value, int(6))]);
    }

    /// Every derived literal is implied by the conditions: checked by brute force over small
    /// integer values (the candidates are read over mathematical integers).
    #[test]
    fn derived_literals_are_consequences() {
        let mut seed = 0x2545_f491u64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let ops = [BinaryOp::Lt, BinaryOp::Le, BinaryOp::Gt, BinaryOp::Ge, BinaryOp::Eq];
        let (mut checked, mut two_inputs) = (0, 0);
        for _ in 0..300 {
            let side = |next: &mut dyn FnMut(u64) -> u64| {
                let mut e = if next(2) == 0 { var(next(4) as u32 + 1) } else { int(next(7) as i128 - 3) };
                for _ in 0..next(3) {
                    let t = var(next(4) as u32 + 1);
                    e = if next(2) == 0 { add(e, t) } else { sub(e, t) };
                }
                e
            };
            let conds: Vec<Expr> = (0..3).map(|_| rel(ops[next(5) as usize], side(&mut next), side(&mut next))).collect();
            let out = eliminate_fresh(&conds, &|v| v.0 >= 3);
            checked += out.len();
            let mentions = |v: u32| conds.iter().any(|c| c.vars().contains(&VarId(v)));
            if !out.is_empty() && mentions(3) && mentions(4) {
                two_inputs += 1;
            }
            let eval = |e: &Expr, vals: &[i128; 5]| -> i128 {
                fn go(e: &Expr, vals: &[i128; 5]) -> i128 {
                    match &e.kind {
                        ExprKind::Const(k) => *k,
                        ExprKind::Var(v) => vals[v.0 as usize],
                        ExprKind::Unary(UnaryOp::Neg, a) => -go(a, vals),
                        ExprKind::Binary(op, a, b) => {
                            let (x, y) = (go(a, vals), go(b, vals));
                            match op {
                                BinaryOp::Add => x + y,
                                BinaryOp::Sub => x - y,
                                BinaryOp::Mul => x * y,
                                BinaryOp::Lt => (x < y) as i128,
                                BinaryOp::Le => (x <= y) as i128,
                                BinaryOp::Gt => (x > y) as i128,
                                BinaryOp::Ge => (x >= y) as i128,
                                BinaryOp::Eq => (x == y) as i128,
                                _ => unreachable!("{op:?}"),
                            }
                        }
                        other => unreachable!("{other:?}"),
                    }
                }
                go(e, vals)
            };
            // x1, x2 fixed; the fresh x3, x4 range over a window: whenever some choice of them
            // satisfies the conditions, every derived literal must hold
            for x1 in -4..=4 {
                for x2 in -4..=4 {
                    let mut satisfiable = false;
                    for x3 in -12..=12 {
                        for x4 in -12..=12 {
                            let vals = [0, x1, x2, x3, x4];
                            satisfiable |= conds.iter().all(|c| eval(c, &vals) == 1);
                        }
                    }
                    if satisfiable {
                        for e in &out {
                            assert_eq!(eval(e, &[0, x1, x2, 0, 0]), 1, "{conds:?} ⊢ {e:?} fails at x1={x1} x2={x2}");
                        }
                    }
                }
            }
        }
        assert!(checked >= 100 && two_inputs >= 10, "too few derived literals to check: {checked} ({two_inputs} with both inputs)");
    }
}
