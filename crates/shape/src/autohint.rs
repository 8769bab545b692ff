//! Automatic approximation hints (the paper's future work, §5–6): detect *growing families* of
//! predicates that differ only in the number of repeated field steps (`x->n`, `x->n->n`, …,
//! [`crate::abstraction::skeleton`]), propose the paper's kind of approximation, check it on
//! every small concrete heap, and use it only if no heap refutes it.
//!
//! Templates (each is an implication that holds in every state, which the concrete check
//! re-confirms on heaps of up to [`CHECK_CELLS`] cells):
//! - `v == v->f…->f` ⇒ `cyclic[f](v)` (the paper's hint at n4 of the reversal);
//! - `reach[A;F](s, v->f…)` and `reachp` ⇒ `dshared[F](s, v)` (its hint at n5);
//! - `dshared[A;F](s, v->f…)` ⇒ `dshared[F](s, v)`;
//! - `cyclic[A;F](v->f…)` ⇒ `cyclic[F](v)`;
//! - `v->f… == NULL` ⇒ `v != NULL`; `u == v->f…` ⇒ `u == NULL || dshared[f](u, v)`;
//! - otherwise drop the growing avoid-set members (fewer avoided addresses, more paths).
//! A condition that still contains a chain would grow a family of its own: such families get
//! the trivial hint `⊤` instead (their booleans become nondeterministic).

use crate::abstraction::{skeleton, Abstraction, PredId};
use crate::concrete::HeapSpace;
use crate::flowchart::LocId;
use crate::parse::Hint;
use crate::terms::{FieldRef, Formula, Pred, PredKind, Term};
use crate::Session;
use c_ir::{StructId, Type, VarKind};

/// Heaps of up to this many cells check a proposed hint.
pub const CHECK_CELLS: u32 = 3;

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

/// The template's condition `c` for a family member (hint: `if !c then false else ⊤`).
fn template(p: &Pred) -> Option<(Formula, String)> {
    let fields_or = |f: FieldRef| if p.fields.is_empty() { vec![f] } else { p.fields.clone() };
    let atom = |kind, fields, args| Formula::Atom(Pred::new(kind, Vec::new(), fields, args));
    match p.kind {
        PredKind::Eq => {
            for (a, b) in [(&p.args[0], &p.args[1]), (&p.args[1], &p.args[0])] {
                let Some((v, f, _)) = chain(b).filter(|_| matches!(b, Term::Load(_))) else { continue };
                if *a == Term::Null {
                    let c = Formula::not(Formula::Atom(Pred::eq(v, Term::Null)));
                    return Some((c, "a field chain of v can only be NULL when v is not NULL".into()));
                }
                if *a == v {
                    return Some((atom(PredKind::Cyclic, vec![f], vec![v]), "a variable equal to a node down its own list lies on a cycle".into()));
                }
                if chain(a).is_none() {
                    let c = Formula::or(vec![Formula::Atom(Pred::eq(a.clone(), Term::Null)), atom(PredKind::Dshared, vec![f], vec![a.clone(), v])]);
                    return Some((c, "a pointer equal to a node down the list of v is NULL or shares that node with v".into()));
                }
            }
            None
        }
        PredKind::Reach | PredKind::Reachp | PredKind::Dshared | PredKind::Cyclic => {
            if p.kind == PredKind::Cyclic {
                if let Some((v, _, _)) = chain(&p.args[0]).filter(|_| matches!(p.args[0], Term::Load(_))) {
                    return Some((atom(PredKind::Cyclic, p.fields.clone(), vec![v]), "a cycle reached from v->n… is reached from v".into()));
                }
            } else {
                let (s, b) = (&p.args[0], &p.args[1]);
                for (s, b) in [(s, b), (b, s)] {
                    if p.kind != PredKind::Dshared && s != &p.args[0] {
                        continue;
                    }
                    if let Some((v, f, _)) = chain(b) {
                        if p.fields.contains(&f) && chain(s).is_none() && *s != v {
                            let c = atom(PredKind::Dshared, fields_or(f), vec![s.clone(), v]);
                            return Some((c, "whatever reaches (or shares with) a node down the list of v shares a node with v".into()));
                        }
                    }
                }
            }
            if p.avoid.iter().any(|a| chain(a).is_some()) {
                let kept = p.avoid.iter().filter(|a| chain(a).is_none()).cloned().collect();
                let c = Formula::Atom(p.with_avoid(kept));
                return Some((c, "avoiding fewer addresses allows more paths: drop the growing avoid-set members".into()));
            }
            None
        }
    }
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

/// Proposes and checks one hint per family that has a template.
pub fn suggest(session: &Session, abs: &Abstraction, fams: &[Family]) -> Vec<Suggestion> {
    let space = heap_space(session);
    let heaps: Vec<_> = space.map(|s| (0..=CHECK_CELLS).flat_map(|n| s.heaps(n)).collect()).unwrap_or_default();
    let mut out = Vec::new();
    for (k, fam) in fams.iter().enumerate() {
        let Some(rep) = fam.members.iter().map(|m| abs.pred(*m)).min_by_key(|p| format!("{p:?}").len()) else { continue };
        let (cond, reason) = match template(rep) {
            Some((c, r)) if !c.preds().iter().any(|q| q.terms().any(|t| chain(t).is_some())) => (c, r),
            // no chain-free approximation: the family's booleans become ⊤ (no new predicates)
            _ => (Formula::Const(true), "no chain-free approximation: over-approximated by T".to_string()),
        };
        let mut refuted = false;
        for h in &heaps {
            for m in &fam.members {
                if h.eval_pred(abs.pred(*m)) == Some(true) && h.eval_formula(&cond) == Some(false) {
                    refuted = true;
                }
            }
        }
        let hint = Hint { pattern: rep.clone(), loc: Some(fam.loc), cond: Formula::not(cond), origin: format!("auto-hint: {reason}") };
        out.push(Suggestion { family: k, hint, reason, heaps_checked: heaps.len(), refuted });
    }
    out
}
