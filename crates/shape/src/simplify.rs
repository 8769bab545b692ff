//! The simplifier of Dams–Namjoshi §4: rewrite rules on predicates and address
//! (dis)equalities, type reasoning (§4.1), malloc freshness, and a propositional simplifier
//! (constant folding, unit propagation over atoms as opaque literals, absorption) standing in
//! for the paper's DPLL.
//!
//! Every rule is an equivalence in *well-typed, dangling-free* states (pointer values are NULL
//! or allocated cells, integers are never addresses, no variable's address is stored), under
//! the context's facts (pointers the statement dereferences are non-null: an erroring
//! execution makes the weakest liberal precondition vacuous). Each application is recorded as
//! a [`Rewrite`] so the UI can show it and the tests can check it on concrete heaps.

use crate::terms::{FieldRef, Formula, Names, Pred, PredKind, Term};
use crate::types::{self, Kind};

/// The rules, named for the derivation view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Rule {
    /// `reach[A;F](NULL, e)` is false (likewise reachp, dshared, cyclic).
    NullSource,
    /// `reach[A;F](e, NULL)` is false: NULL is never allocated.
    NullTarget,
    /// In `reach[A;F](e1,e2)`, `e2` is removed from A.
    TargetInAvoid,
    /// Avoid-set members that are not type-reachable from the source are removed.
    AvoidNotTypeReachable,
    /// `typreach` fails: the predicate is false.
    TypeUnreachable,
    /// `reach[A;F](e,e)` holds iff `e` is allocated.
    ReachSelf,
    /// Every F-slot of the source is avoided: only 0 steps are possible.
    OwnSlotsAvoided,
    /// `dshared[A;F](e,e)` holds iff `e` is allocated.
    DsharedSelf,
    /// `reach[A;F](x, &(e->f))` is `reach[A;F](x, e)`: the paper's targets are nodes.
    SlotTargetToCell,
    /// `reach[A;F](e, &(e->f))` with `f ∈ F`: one field step.
    OwnSlotTarget,
    /// `e == e` is true.
    EqSyntactic,
    /// Address (dis)equalities: `&x ≠ &y`, `&(p->a) = &(q->a) ⇔ p = q`, `&(p->a) ≠ &(q->b)`, `&x ≠ &(p->a)`.
    EqAddress,
    /// Values of different kinds are never equal (types).
    EqType,
    /// Addresses of variables and field slots are not NULL.
    EqNull,
    /// Rigid variables range over non-NULL addresses.
    RigidNonNull,
    /// A pointer the statement dereferences is not NULL (weakest liberal precondition).
    KnownNonNull,
    /// Malloc: the fresh cell is reachable from no existing address.
    FreshNotReachable,
    /// Malloc: the fresh cell differs from every existing address.
    FreshDistinct,
    /// Malloc: the fresh cell's slots are on no path from existing addresses.
    FreshAvoid,
    /// A predicate over an unconstrained value is over-approximated by ⊤.
    UnknownValue,
    /// Integer (dis)equalities are not tracked: ⊤.
    IntegerUntracked,
    /// `&(NULL->a)` is never allocated and `NULL->a` is no valid pointer: they reach nothing,
    /// are reached by nothing, and differ from NULL and from every variable's value.
    InvalidAddress,
    /// Propositional simplification (constants, unit propagation, absorption).
    Propositional,
}

/// One rule application.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rewrite {
    pub rule: Rule,
    pub before: Formula,
    pub after: Formula,
}

/// What the simplifier may assume.
#[derive(Clone, Debug)]
pub struct Context<'a> {
    pub names: Names<'a>,
    /// Pointer values known to be non-NULL (dereferenced by the statement).
    pub nonnull: Vec<Term>,
}

impl Context<'_> {
    fn kind(&self, t: &Term) -> Kind {
        types::kind(&self.names, t)
    }
    /// Known not to be NULL.
    pub fn is_nonnull(&self, t: &Term) -> bool {
        matches!(t, Term::Rigid(_) | Term::VarAddr(_) | Term::FieldAddr(..) | Term::Fresh(_)) || self.nonnull.contains(t)
    }
}

/// A term that dereferences NULL somewhere: `&(NULL->a)`, `NULL->a`, and terms built on them.
pub fn is_invalid(t: &Term) -> bool {
    match t {
        Term::FieldAddr(b, _) => **b == Term::Null || is_invalid(b),
        Term::Load(a) => is_invalid(a),
        _ => false,
    }
}

/// A term whose value is certainly valid (NULL or allocated) in a dangling-free state.
fn surely_valid(t: &Term) -> bool {
    match t {
        Term::Null | Term::Rigid(_) | Term::Fresh(_) | Term::VarAddr(_) | Term::Scalar => true,
        Term::Load(a) => matches!(a.as_ref(), Term::VarAddr(_)),
        _ => false,
    }
}

/// Simplifies `f`; returns the result and every rewrite applied, in order.
pub fn simplify(f: &Formula, ctx: &Context) -> (Formula, Vec<Rewrite>) {
    let mut log = Vec::new();
    let atoms_done = simplify_atoms(f, ctx, &mut log, 0);
    let prop = propositional(&atoms_done);
    if prop != atoms_done {
        log.push(Rewrite { rule: Rule::Propositional, before: atoms_done, after: prop.clone() });
    }
    (prop, log)
}

fn simplify_atoms(f: &Formula, ctx: &Context, log: &mut Vec<Rewrite>, depth: u32) -> Formula {
    f.map_atoms(&mut |p| {
        match rewrite_atom(p, ctx) {
            Some((rule, after)) if depth < 64 => {
                log.push(Rewrite { rule, before: Formula::Atom(p.clone()), after: after.clone() });
                simplify_atoms(&after, ctx, log, depth + 1)
            }
            _ => Formula::Atom(p.clone()),
        }
    })
}

/// One rewrite step on an atom, if a rule applies.
pub fn rewrite_atom(p: &Pred, ctx: &Context) -> Option<(Rule, Formula)> {
    if p.kind == PredKind::Eq {
        return rewrite_eq(&p.args[0], &p.args[1], ctx);
    }
    if p.terms().any(Term::mentions_unknown) {
        return Some((Rule::UnknownValue, Formula::Star));
    }
    let sources: Vec<&Term> = match p.kind {
        PredKind::Reach | PredKind::Reachp | PredKind::Cyclic => vec![&p.args[0]],
        _ => p.args.iter().collect(),
    };
    if sources.iter().any(|s| **s == Term::Null) {
        return Some((Rule::NullSource, Formula::Const(false)));
    }
    if p.args.iter().any(is_invalid) {
        return Some((Rule::InvalidAddress, Formula::Const(false)));
    }
    if p.avoid.iter().any(is_invalid) {
        let avoid = p.avoid.iter().filter(|a| !is_invalid(a)).cloned().collect();
        return Some((Rule::InvalidAddress, Formula::Atom(p.with_avoid(avoid))));
    }
    if matches!(p.kind, PredKind::Reach | PredKind::Reachp) && p.args[1] == Term::Null {
        return Some((Rule::NullTarget, Formula::Const(false)));
    }
    if let Some(r) = rewrite_fresh(p, &sources) {
        return Some(r);
    }
    if let Some(r) = rewrite_types(p, &sources, ctx) {
        return Some(r);
    }
    rewrite_structure(p, ctx)
}

fn rewrite_fresh(p: &Pred, sources: &[&Term]) -> Option<(Rule, Formula)> {
    if sources.iter().any(|s| s.mentions_fresh()) {
        let all_fresh = sources.iter().all(|s| s.mentions_fresh());
        if p.kind == PredKind::Dshared && !all_fresh {
            // the old side reaches only old nodes, but the fresh cell's slots may point anywhere
            return Some((Rule::UnknownValue, Formula::Star));
        }
        return Some((Rule::UnknownValue, Formula::Star));
    }
    if matches!(p.kind, PredKind::Reach | PredKind::Reachp) && p.args[1].mentions_fresh() {
        return Some((Rule::FreshNotReachable, Formula::Const(false)));
    }
    if p.avoid.iter().any(Term::mentions_fresh) {
        let avoid = p.avoid.iter().filter(|a| !a.mentions_fresh()).cloned().collect();
        return Some((Rule::FreshAvoid, Formula::Atom(p.with_avoid(avoid))));
    }
    None
}

fn rewrite_types(p: &Pred, sources: &[&Term], ctx: &Context) -> Option<(Rule, Formula)> {
    let names = &ctx.names;
    let kinds: Vec<Kind> = sources.iter().map(|s| ctx.kind(s)).collect();
    let false_by_type = match p.kind {
        PredKind::Reach | PredKind::Reachp => !types::typreach(names, &p.fields, kinds[0], ctx.kind(&p.args[1])),
        PredKind::Cyclic => !types::typcyclic(names, &p.fields, kinds[0]),
        PredKind::Dshared => {
            match (types::reachable_kinds(names, &p.fields, kinds[0]), types::reachable_kinds(names, &p.fields, kinds[1])) {
                (Some(a), Some(b)) => !a.iter().any(|k| b.contains(k)),
                _ => false,
            }
        }
        PredKind::Eq => false,
    };
    if false_by_type {
        return Some((Rule::TypeUnreachable, Formula::Const(false)));
    }
    let keep: Vec<Term> = p
        .avoid
        .iter()
        .filter(|a| kinds.iter().any(|&k| types::typreach(names, &p.fields, k, ctx.kind(a))))
        .cloned()
        .collect();
    if keep.len() != p.avoid.len() {
        return Some((Rule::AvoidNotTypeReachable, Formula::Atom(p.with_avoid(keep))));
    }
    None
}

/// `alloc(s)` for a pointer value or address term, as a formula.
fn allocated(s: &Term, ctx: &Context) -> Formula {
    match s {
        Term::VarAddr(_) => Formula::Const(true),
        Term::FieldAddr(base, _) => allocated(base, ctx),
        _ if ctx.nonnull.contains(s) || matches!(s, Term::Rigid(_) | Term::Fresh(_)) => Formula::Const(true),
        _ => Formula::not(Formula::Atom(Pred::eq(s.clone(), Term::Null))),
    }
}

fn own_slots(p: &Pred, s: &Term, ctx: &Context) -> Option<Vec<FieldRef>> {
    match ctx.kind(s) {
        Kind::Cell(st) if matches!(s, Term::Load(_) | Term::Rigid(_)) => {
            Some(p.fields.iter().filter(|f| f.strukt == st).copied().collect())
        }
        _ => None,
    }
}

/// `dshared[A;F](u,u)` holds iff `u` is allocated; `dshared[A;F](u,w)` with every F-slot of `u`
/// avoided holds iff `w` reaches `u` (from `u` only `u` and its slots are reachable, and a
/// cell-valued `w` reaches a slot of `u` only through `u`).
fn rewrite_dshared(p: &Pred, ctx: &Context) -> Option<(Rule, Formula)> {
    let (a, b) = (&p.args[0], &p.args[1]);
    if a == b && surely_valid(a) {
        return Some((Rule::DsharedSelf, allocated(a, ctx)));
    }
    for (u, w) in [(a, b), (b, a)] {
        let Some(slots) = own_slots(p, u, ctx) else { continue };
        let avoided = !slots.is_empty() && slots.iter().all(|f| p.avoid.contains(&Term::field_addr(u.clone(), *f)));
        if avoided && matches!(ctx.kind(w), Kind::Cell(_)) {
            return Some((Rule::OwnSlotsAvoided, Formula::Atom(Pred::new(PredKind::Reach, p.avoid.clone(), p.fields.clone(), vec![w.clone(), u.clone()]))));
        }
    }
    None
}

/// `reach[A;F](x, &(e->f))` with `f ∈ F` and `e` cell-valued is `reach[A;F](x, e)` (likewise
/// reachp), as in the paper's predicates, whose targets are nodes: a slot is reached only by
/// the field step from its cell, which avoid sets (of slots and variable addresses, never
/// cells) cannot block; 0 dereferences from `x` reach only `x`'s own slots, so `reachp`
/// needs a path back to `e` either way. `reach[A;F](e, &(e->f))` stays with its own rule.
fn slot_target_to_cell(p: &Pred, ctx: &Context) -> Option<(Rule, Formula)> {
    let Term::FieldAddr(e, f) = &p.args[1] else { return None };
    if !p.fields.contains(f) || **e == p.args[0] || !matches!(ctx.kind(e), Kind::Cell(st) if st == f.strukt) {
        return None;
    }
    if p.avoid.iter().any(|a| !matches!(ctx.kind(a), Kind::Slot(_) | Kind::VarSlot(_))) {
        return None;
    }
    Some((Rule::SlotTargetToCell, Formula::Atom(p.with_args(vec![p.args[0].clone(), (**e).clone()]))))
}

fn rewrite_structure(p: &Pred, ctx: &Context) -> Option<(Rule, Formula)> {
    if matches!(p.kind, PredKind::Reach | PredKind::Reachp) {
        if let Some(r) = slot_target_to_cell(p, ctx) {
            if p.kind == PredKind::Reachp || !p.avoid.contains(&p.args[1]) {
                return Some(r);
            }
        }
    }
    if p.kind == PredKind::Dshared {
        return rewrite_dshared(p, ctx);
    }
    let s = &p.args[0];
    if p.kind == PredKind::Reach {
        let b = &p.args[1];
        if p.avoid.contains(b) {
            let avoid = p.avoid.iter().filter(|a| *a != b).cloned().collect();
            return Some((Rule::TargetInAvoid, Formula::Atom(p.with_avoid(avoid))));
        }
        if s == b {
            return Some((Rule::ReachSelf, allocated(s, ctx)));
        }
        if let Term::FieldAddr(base, f) = b {
            if **base == *s && p.fields.contains(f) && own_slots(p, s, ctx).is_some() {
                let mut parts = vec![allocated(s, ctx)];
                parts.extend(p.avoid.iter().map(|a| Formula::not(Formula::Atom(Pred::eq(a.clone(), s.clone())))));
                return Some((Rule::OwnSlotTarget, Formula::and(parts)));
            }
        }
    }
    let slots = own_slots(p, s, ctx)?;
    let all_avoided = slots.iter().all(|f| p.avoid.contains(&Term::field_addr(s.clone(), *f)));
    if !all_avoided || p.kind == PredKind::Dshared || p.kind == PredKind::Eq {
        return None;
    }
    match p.kind {
        PredKind::Reach => {
            let b = &p.args[1];
            let alloc = if ctx.is_nonnull(b) { Formula::Const(true) } else { allocated(s, ctx) };
            let mut cases = vec![Formula::and(vec![Formula::Atom(Pred::eq(s.clone(), b.clone())), alloc])];
            for f in &slots {
                let mut parts = vec![Formula::Atom(Pred::eq(b.clone(), Term::field_addr(s.clone(), *f))), allocated(s, ctx)];
                parts.extend(p.avoid.iter().map(|a| Formula::not(Formula::Atom(Pred::eq(a.clone(), s.clone())))));
                cases.push(Formula::and(parts));
            }
            Some((Rule::OwnSlotsAvoided, Formula::or(cases)))
        }
        _ => Some((Rule::OwnSlotsAvoided, Formula::Const(false))),
    }
}

fn rewrite_eq(a: &Term, b: &Term, ctx: &Context) -> Option<(Rule, Formula)> {
    if a.mentions_unknown() || b.mentions_unknown() {
        return Some((Rule::UnknownValue, Formula::Star));
    }
    if a == b {
        return Some((Rule::EqSyntactic, Formula::Const(true)));
    }
    for (x, y) in [(a, b), (b, a)] {
        if is_invalid(x) && surely_valid(y) {
            return Some((Rule::InvalidAddress, Formula::Const(false)));
        }
    }
    let (ka, kb) = (ctx.kind(a), ctx.kind(b));
    if ka == Kind::Int && kb == Kind::Int {
        return Some((Rule::IntegerUntracked, Formula::Star));
    }
    match (a, b) {
        (Term::FieldAddr(p, f), Term::FieldAddr(q, g)) => {
            return Some(if f == g {
                (Rule::EqAddress, Formula::Atom(Pred::eq((**p).clone(), (**q).clone())))
            } else {
                (Rule::EqAddress, Formula::Const(false))
            });
        }
        (Term::VarAddr(_), Term::VarAddr(_)) | (Term::VarAddr(_), Term::FieldAddr(..)) | (Term::FieldAddr(..), Term::VarAddr(_)) => {
            return Some((Rule::EqAddress, Formula::Const(false)));
        }
        _ => {}
    }
    for (x, y) in [(a, b), (b, a)] {
        if *x == Term::Null {
            if matches!(y, Term::VarAddr(_) | Term::FieldAddr(..)) {
                return Some((Rule::EqNull, Formula::Const(false)));
            }
            if matches!(y, Term::Rigid(_)) {
                return Some((Rule::RigidNonNull, Formula::Const(false)));
            }
            if ctx.nonnull.contains(y) {
                return Some((Rule::KnownNonNull, Formula::Const(false)));
            }
        }
        if matches!(x, Term::Fresh(_)) && !y.mentions_fresh() {
            return Some((Rule::FreshDistinct, Formula::Const(false)));
        }
    }
    if !types::may_be_equal(ka, kb) {
        return Some((Rule::EqType, Formula::Const(false)));
    }
    None
}

/// Propositional simplification with atoms as opaque literals.
pub fn propositional(f: &Formula) -> Formula {
    let mut cur = f.clone();
    for _ in 0..8 {
        let next = prop_step(&cur);
        if next == cur {
            break;
        }
        cur = next;
    }
    cur
}

fn literal(f: &Formula) -> Option<(&Pred, bool)> {
    match f {
        Formula::Atom(p) => Some((p, true)),
        Formula::Not(inner) => match inner.as_ref() {
            Formula::Atom(p) => Some((p, false)),
            _ => None,
        },
        _ => None,
    }
}

/// Replaces the atom `p` by `value` everywhere in `f`.
fn assign(f: &Formula, p: &Pred, value: bool) -> Formula {
    f.map_atoms(&mut |q| if q == p { Formula::Const(value) } else { Formula::Atom(q.clone()) })
}

fn prop_step(f: &Formula) -> Formula {
    match f {
        Formula::Const(_) | Formula::Star | Formula::Atom(_) => f.clone(),
        Formula::Not(a) => Formula::not(prop_step(a)),
        Formula::And(xs) => junction(xs, true),
        Formula::Or(xs) => junction(xs, false),
    }
}

/// `is_and`: conjunction (unit: true, zero: false), else disjunction.
fn junction(xs: &[Formula], is_and: bool) -> Formula {
    let mut items: Vec<Formula> = Vec::new();
    for x in xs {
        let x = prop_step(x);
        match x {
            Formula::Const(b) if b == is_and => {}
            Formula::Const(_) => return Formula::Const(!is_and),
            Formula::And(inner) if is_and => items.extend(inner),
            Formula::Or(inner) if !is_and => items.extend(inner),
            other => items.push(other),
        }
    }
    items.sort();
    items.dedup();
    // unit propagation: a literal in a conjunction is true in its siblings (false in a disjunction)
    let lits: Vec<(Pred, bool)> = items.iter().filter_map(|x| literal(x).map(|(p, v)| (p.clone(), v))).collect();
    for (p, v) in &lits {
        if lits.contains(&(p.clone(), !v)) {
            return Formula::Const(!is_and);
        }
    }
    let items: Vec<Formula> = items
        .iter()
        .map(|x| {
            if literal(x).is_some() {
                return x.clone();
            }
            lits.iter().fold(x.clone(), |acc, (p, v)| assign(&acc, p, if is_and { *v } else { !*v }))
        })
        .collect();
    // absorption: a ∨ (a ∧ b) = a, a ∧ (a ∨ b) = a
    let absorbed: Vec<Formula> = items
        .iter()
        .filter(|x| {
            let inner = match (x, is_and) {
                (Formula::Or(ys), true) | (Formula::And(ys), false) => ys,
                _ => return true,
            };
            !inner.iter().any(|y| items.contains(y))
        })
        .cloned()
        .collect();
    if is_and {
        Formula::and(absorbed)
    } else {
        Formula::or(absorbed)
    }
}
