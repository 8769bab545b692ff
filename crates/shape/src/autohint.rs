//! Automatic approximation hints (the paper's future work, §5–6): detect *growing families* of
//! predicates that differ only in the number of repeated field steps (`x->n`, `x->n->n`, …,
//! [`crate::abstraction::skeleton`]), propose the paper's kind of approximation, check it on
//! every small concrete heap, and use it only if no heap refutes it.
//!
//! Templates (each is an implication that holds in every state, which the concrete check
//! re-confirms on heaps of up to [`CHECK_CELLS`] cells; `v->f…` has one or more steps):
//! - `v == v->f…` and two different nodes of one list equal ⇒ `cyclic[f](v)` (the paper's
//!   hint at n4 of the reversal);
//! - `u == v->f…` ⇒ `u == NULL && v != NULL || reachp[f](v, u)`; `v->f… == NULL` ⇒ `v != NULL`;
//! - `reach[A;F](s, v->f…)` ⇒ `dshared[F](s, v)` (its hint at n5), `reach(s, &(v->f))` ⇒
//!   `reach(s, v)`;
//! - `reach[A;F](v->f…, u)` ⇒ `reachp[F](v, u)`, or `cyclic[F](v)` when `u` is `v` or an
//!   earlier node of its list;
//! - `dshared[A;F](s, v->f…)` ⇒ `dshared[F](s, v)`; `cyclic[A;F](v->f…)` ⇒ `cyclic[F](v)`;
//! - otherwise drop the growing avoid-set members (fewer avoided addresses, more paths).
//!
//! A condition that still contains a chain would grow a family of its own: such families get
//! the trivial hint `⊤` instead (their booleans become nondeterministic). [`Online`] finds the
//! hints during one run; [`implied`] gives the same implications to [`crate::consistency`].

use crate::abstraction::{skeleton, Abstraction, PredId};
use crate::concrete::{Heap, HeapSpace};
use crate::flowchart::LocId;
use crate::parse::Hint;
use crate::terms::{FieldRef, Formula, Pred, PredKind, Term};
use crate::Session;
use c_ir::{StructId, Type, VarKind};

/// Heaps of up to this many cells check a proposed hint.
pub const CHECK_CELLS: u32 = 3;
/// The first members of a family (the shortest chains) checked on every heap: the template is
/// valid for the whole family by construction, the check guards against mistakes in it.
pub const CHECK_MEMBERS: usize = 4;

/// Predicates at one location sharing a skeleton.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Family {
    pub loc: LocId,
    pub skeleton: Pred,
    pub members: Vec<PredId>,
}

/// A proposed hint and what the concrete check found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suggestion {
    pub family: usize,
    pub hint: Hint,
    pub reason: String,
    /// Heaps on which `member ⇒ cond` was checked.
    pub heaps_checked: usize,
    /// A member true and the condition false on some heap: the hint is rejected.
    pub refuted: bool,
}

/// Families with at least two members that contain a repeated field step.
pub fn families(abs: &Abstraction) -> Vec<Family> {
    let mut out: Vec<Family> = Vec::new();
    for pair in &abs.pairs {
        let p = abs.pred(pair.pred);
        let sk = skeleton(p);
        match out.iter_mut().find(|f| f.loc == pair.loc && f.skeleton == sk) {
            Some(f) => {
                if !f.members.contains(&pair.pred) {
                    f.members.push(pair.pred)
                }
            }
            None => out.push(Family { loc: pair.loc, skeleton: sk, members: vec![pair.pred] }),
        }
    }
    out.retain(|f| f.members.len() >= 2);
    out
}

/// `v->f->…->f` (j ≥ 1 steps of the same field from a variable), or the slot `&(v->f…->f)`
/// (j ≥ 1 counting the slot's field): `(v, f, j)`.
pub fn chain(t: &Term) -> Option<(Term, FieldRef, u32)> {
    if let Term::FieldAddr(base, f) = t {
        if matches!(base.as_ref(), Term::Load(b) if matches!(b.as_ref(), Term::VarAddr(_))) {
            return Some(((**base).clone(), *f, 1));
        }
        let (v, g, j) = value_chain(base)?;
        return (g == *f).then_some((v, g, j + 1));
    }
    value_chain(t)
}

fn value_chain(t: &Term) -> Option<(Term, FieldRef, u32)> {
    let Term::Load(a) = t else { return None };
    let Term::FieldAddr(base, f) = a.as_ref() else { return None };
    match base.as_ref() {
        Term::Load(b) if matches!(b.as_ref(), Term::VarAddr(_)) => Some(((**base).clone(), *f, 1)),
        inner => {
            let (v, g, j) = value_chain(inner)?;
            (g == *f).then_some((v, g, j + 1))
        }
    }
}

/// A term of a family member: NULL, a chain-free term, or a chain of `v` whose *cell depth*
/// is `depth` (`v->f…` with j steps has depth j; the slot `&(v->f…)` with j steps counting
/// the slot's field has depth j − 1: the cell whose slot it is).
#[derive(Clone, Debug, PartialEq)]
enum Arg {
    Null,
    Plain(Term),
    Chain { base: Term, field: FieldRef, depth: u32, slot: bool },
}

fn arg(t: &Term) -> Arg {
    if *t == Term::Null {
        return Arg::Null;
    }
    match chain(t) {
        Some((base, field, j)) => {
            let slot = matches!(t, Term::FieldAddr(..));
            Arg::Chain { base, field, depth: if slot { j - 1 } else { j }, slot }
        }
        None => Arg::Plain(t.clone()),
    }
}

fn is_chain(a: &Arg) -> bool {
    matches!(a, Arg::Chain { .. })
}

fn nonnull(v: &Term) -> Formula {
    Formula::not(Formula::Atom(Pred::eq(v.clone(), Term::Null)))
}

/// The template's condition `c` for a family member `p` (hint: `if !c then false else ⊤`),
/// with `p ⇒ c` valid in every state; `c` mentions no field chains. Growing avoid-set members
/// are dropped (fewer avoided addresses allow more paths: every predicate is monotone in A).
fn template(p: &Pred) -> Option<(Formula, String)> {
    let f_of = |f: FieldRef| if p.fields.is_empty() { vec![f] } else { p.fields.clone() };
    let atom = |kind, fields: Vec<FieldRef>, args| Formula::Atom(Pred::new(kind, Vec::new(), fields, args));
    let args: Vec<Arg> = p.args.iter().map(arg).collect();
    if !args.iter().any(is_chain) {
        if p.kind != PredKind::Eq && p.avoid.iter().any(|a| chain(a).is_some()) {
            let kept = p.avoid.iter().filter(|a| chain(a).is_none()).cloned().collect();
            return Some((Formula::Atom(p.with_avoid(kept)), "avoiding fewer addresses allows more paths: drop the growing avoid-set members".into()));
        }
        return None;
    }
    let cyclic = |v: &Term, f: FieldRef, why: &str| Some((atom(PredKind::Cyclic, f_of(f), vec![v.clone()]), why.to_string()));
    match (p.kind, &args[0], args.get(1)) {
        (PredKind::Eq, a, Some(b)) => {
            let (a, b) = if is_chain(a) { (b, a) } else { (a, b) };
            let Arg::Chain { base: v, field: f, depth: j, .. } = b else { return None };
            match a {
                Arg::Null => Some((nonnull(v), "a field chain of v can only be NULL when v is not NULL".into())),
                Arg::Plain(u) if u == v => cyclic(v, *f, "a variable equal to a node down its own list lies on a cycle"),
                Arg::Plain(u) => Some((
                    Formula::or(vec![Formula::and(vec![Formula::Atom(Pred::eq(u.clone(), Term::Null)), nonnull(v)]), atom(PredKind::Reachp, vec![*f], vec![v.clone(), u.clone()])]),
                    "a pointer equal to a node down the list of v is NULL, or v reaches it in one or more steps".into(),
                )),
                Arg::Chain { base: w, depth: i, .. } if w == v && i != j => cyclic(v, *f, "two different nodes down the same list are equal only on a cycle"),
                // chains of two bases: `x->n == y->n` also holds when both read through NULL
                // (the same invalid value), so no chain-free condition is implied
                Arg::Chain { .. } => None,
            }
        }
        (PredKind::Reach | PredKind::Reachp, s, Some(b)) => match (s, b) {
            (Arg::Plain(s), Arg::Chain { base: v, field: f, depth, .. }) if s == v => {
                if p.kind == PredKind::Reachp && *depth == 0 {
                    cyclic(v, *f, "v reaching its own slot in one or more steps lies on a cycle")
                } else {
                    Some((nonnull(v), "v reaches nodes down its own list only when it is not NULL".into()))
                }
            }
            (Arg::Plain(s), Arg::Chain { base: v, field: f, depth: 0, .. }) => Some((atom(PredKind::Reach, f_of(*f), vec![s.clone(), v.clone()]), "whatever reaches a slot of v reaches v".into())),
            (Arg::Plain(s), Arg::Chain { base: v, field: f, .. }) => Some((atom(PredKind::Dshared, f_of(*f), vec![s.clone(), v.clone()]), "whatever reaches a node down the list of v shares a node with v".into())),
            (Arg::Chain { base: v, field: f, .. }, Arg::Plain(u)) if u == v => cyclic(v, *f, "a node down the list of v that reaches v lies on a cycle"),
            (Arg::Chain { base: v, field: f, .. }, Arg::Plain(u)) => Some((atom(PredKind::Reachp, f_of(*f), vec![v.clone(), u.clone()]), "what a node down the list of v reaches, v reaches in one or more steps".into())),
            (Arg::Chain { base: v, field: f, depth: i, .. }, Arg::Chain { base: w, depth: d, .. }) if w == v => {
                // ≥ 0 steps back to an earlier node, or ≥ 1 step back to the same one: a cycle
                if d < i || (p.kind == PredKind::Reachp && d == i) {
                    cyclic(v, *f, "a node down the list of v reaching an earlier one lies on a cycle")
                } else {
                    Some((nonnull(v), "nodes further down the list are reached only when v is not NULL".into()))
                }
            }
            (Arg::Chain { base: v, field: f, .. }, Arg::Chain { base: w, depth: 0, .. }) => Some((atom(PredKind::Reachp, f_of(*f), vec![v.clone(), w.clone()]), "what a node down the list of v reaches (w or a slot of w), v reaches in one or more steps".into())),
            (Arg::Chain { base: v, field: f, .. }, Arg::Chain { base: w, .. }) => Some((atom(PredKind::Dshared, f_of(*f), vec![v.clone(), w.clone()]), "a path between the lists of v and w is a shared node".into())),
            _ => None,
        },
        (PredKind::Dshared, a, Some(b)) => {
            let (a, b) = if is_chain(a) { (b, a) } else { (a, b) };
            let Arg::Chain { base: v, field: f, .. } = b else { return None };
            match a {
                Arg::Plain(u) | Arg::Chain { base: u, .. } if u == v => Some((nonnull(v), "nodes down the list of v share with v only when v is not NULL".into())),
                Arg::Plain(u) | Arg::Chain { base: u, .. } => Some((atom(PredKind::Dshared, f_of(*f), vec![u.clone(), v.clone()]), "what shares a node with a node down the list of v shares it with v".into())),
                Arg::Null => None,
            }
        }
        (PredKind::Cyclic, Arg::Chain { base: v, field: f, .. }, _) => cyclic(v, *f, "a cycle reached from v->n… is reached from v"),
        _ => None,
    }
}

/// A chain-free condition `c` implied by `p` (`p ⇒ c` in every state), when `p` mentions a
/// field chain and a template applies: the hint condition, also used as a consistency
/// constraint ([`crate::consistency`]).
pub fn implied(p: &Pred) -> Option<Formula> {
    let (c, _) = template(p)?;
    (!c.preds().iter().any(|q| q.terms().any(|t| chain(t).is_some()))).then_some(c)
}

/// The heaps of the procedure's list struct, for checking hints.
pub fn heap_space(session: &Session) -> Option<HeapSpace> {
    let program = &session.program;
    let strukt = session.rigids.first().and_then(|r| r.ty.pointee().cloned()).and_then(|t| match t {
        Type::Struct(s) => Some(s),
        _ => None,
    });
    let strukt = strukt.or_else(|| {
        program.structs.iter().enumerate().find_map(|(i, s)| {
            let id = StructId(i as u32);
            s.fields.iter().any(|f| f.ty == Type::pointer_to(Type::Struct(id))).then_some(id)
        })
    })?;
    let def = program.struct_def(strukt);
    let fields = |ptr: bool| {
        def.fields
            .iter()
            .enumerate()
            .filter(|(_, f)| f.ty.is_pointer() == ptr)
            .map(|(i, _)| FieldRef { strukt, index: i as u32 })
            .collect::<Vec<_>>()
    };
    let pr = program.proc(session.proc);
    let vars: Vec<_> = pr.formals.iter().chain(pr.locals.iter()).copied().filter(|&v| !matches!(program.var(v).kind, VarKind::SymbolicConst { .. })).collect();
    Some(HeapSpace {
        strukt,
        pointer_fields: fields(true),
        int_fields: fields(false),
        pointer_vars: vars.iter().copied().filter(|&v| program.var(v).ty == Type::pointer_to(Type::Struct(strukt))).collect(),
        int_vars: vars.iter().copied().filter(|&v| program.var(v).ty.is_integer()).collect(),
        rigids: session.rigids.len(),
    })
}

/// Every heap of up to [`CHECK_CELLS`] cells of the procedure's list struct, one per
/// isomorphism class of the part the variables reach ([`HeapSpace::each_reachable`]: the
/// others give no other predicate values).
pub fn check_heaps(session: &Session) -> Vec<Heap> {
    heap_space(session).map(|s| (0..=CHECK_CELLS).flat_map(|n| s.reachable_heaps(n)).collect()).unwrap_or_default()
}

/// Proposes a hint for family `k` of `abs` and checks it on `heaps`.
fn suggest_one(abs: &Abstraction, fam: &Family, k: usize, heaps: &[Heap]) -> Option<Suggestion> {
    let rep = fam.members.iter().map(|m| abs.pred(*m)).min_by_key(|p| format!("{p:?}").len())?;
    let (cond, reason) = match template(rep) {
        Some((c, r)) if !c.preds().iter().any(|q| q.terms().any(|t| chain(t).is_some())) => (c, r),
        // no chain-free approximation: the family's booleans become ⊤ (no new predicates)
        _ => (Formula::Const(true), "no chain-free approximation: over-approximated by T".to_string()),
    };
    // a heap refutes the hint when the condition is false and a member true there; only
    // heaps where the (chain-free, cheap) condition is false need the members evaluated
    let refuted = heaps.iter().any(|h| h.eval_formula(&cond) == Some(false) && fam.members.iter().take(CHECK_MEMBERS).any(|m| h.eval_pred(abs.pred(*m)) == Some(true)));
    let hint = Hint { pattern: rep.clone(), loc: Some(fam.loc), cond: Formula::not(cond), origin: format!("auto-hint: {reason}") };
    Some(Suggestion { family: k, hint, reason, heaps_checked: heaps.len(), refuted })
}

/// Proposes and checks one hint per family that has a template.
pub fn suggest(session: &Session, abs: &Abstraction, fams: &[Family]) -> Vec<Suggestion> {
    let heaps = check_heaps(session);
    fams.iter().enumerate().filter_map(|(k, fam)| suggest_one(abs, fam, k, &heaps)).collect()
}

/// Automatic hints during one abstraction run ([`crate::abstraction::run_online`]): after each
/// round, every new family (no hint covers it yet) gets its template hint, checked on the small
/// heaps once; refuted proposals are recorded and not used.
pub struct Online {
    heaps: Vec<Heap>,
    /// Every proposal made, in order (refuted ones included).
    pub suggestions: Vec<Suggestion>,
}

impl Online {
    pub fn new(session: &Session) -> Online {
        Online { heaps: check_heaps(session), suggestions: Vec::new() }
    }
    /// The hints for the families of `abs` that no hint covers yet.
    pub fn hints_for(&mut self, abs: &Abstraction) -> Vec<Hint> {
        let mut out = Vec::new();
        for (k, fam) in families(abs).iter().enumerate() {
            let covered = abs.hints.iter().chain(out.iter()).any(|h: &Hint| h.loc.is_none_or(|l| l == fam.loc) && skeleton(&h.pattern) == fam.skeleton);
            let tried = self.suggestions.iter().any(|s| s.hint.loc == Some(fam.loc) && skeleton(&s.hint.pattern) == fam.skeleton);
            if covered || tried {
                continue;
            }
            if let Some(s) = suggest_one(abs, fam, k, &self.heaps) {
                if !s.refuted {
                    out.push(s.hint.clone());
                }
                self.suggestions.push(s);
            }
        }
        out
    }
}
