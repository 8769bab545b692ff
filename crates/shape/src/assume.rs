//! A hint's condition as an assumption at its location (Dams–Namjoshi §5: "several other
//! predicates at n5 can be approximated in terms of dshared[n](t,x) as well").
//!
//! A hint `p@n -> if C then false else ⊤` says that the states where `C` fails are the ones
//! worth tracking at `n`. The paper applies the same condition by hand to other growing
//! predicates at `n` (8 approximations from its 2 conditions, §5). This module does that
//! mechanically: a predicate `q` at `n` that mentions a field chain `v->f…` of a variable of the
//! condition is *reduced under `C`* to a formula `r` with `C ⇒ (q ⇔ r)`, and its pair gets
//! `b_q ≡ if C then r̄ else ⊤` — a 3-valued approximation of `q` (`q ⪯₃ h` of Fig 3) whichever
//! way `C` goes. `r = false` is the paper's own hint form.
//!
//! The facts a condition gives (the literals of a conjunction `C`), with `v`'s list the
//! terms `v`, `v->f…` and the slots `&(v->f…)` (fields in the fact's `F`, the predicate's
//! fields a subset of `F`):
//! - `!dshared[F](s, v)` (no non-NULL node reachable from both): `reach(s, e)`, `reach(e, s)`
//!   and `dshared(s, e)` are false for `e` in `v`'s list; the avoid sets of `reach`, `reachp`
//!   and `cyclic` *from `s`* lose the members in `v`'s list (a walk from `s` never meets them).
//! - `!cyclic[F](v)` (no cycle reachable from `v`): `cyclic(e)` is false for `e` in `v`'s
//!   list, and so are `reach(v->f^i, v->f^j)` for `j < i` (`reachp` for `j ≤ i`) and
//!   `v->f^i == v->f^j` for `i ≠ j`; `reach(s, v->f^i)` (and `reachp`) loses the avoid-set
//!   members of `v`'s list whose cell is `v->f^j` with `j ≥ i` (a shortest path that met such a
//!   cell before its target would close a cycle through it); `cyclic(s)` loses every member of
//!   `v`'s list (no path to a cycle meets a cell of an acyclic list).
//!
//! Each rule is checked against the concrete evaluator on small heaps (`tests/it/wp_props.rs`).

use crate::autohint::chain;
use crate::terms::{FieldRef, Formula, Pred, PredKind, Term};

/// A fact that the condition of a hint assumes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fact {
    /// `!dshared[F](a, b)`.
    Disjoint { fields: Vec<FieldRef>, a: Term, b: Term },
    /// `!cyclic[F](v)`.
    Acyclic { fields: Vec<FieldRef>, v: Term },
}

fn is_var(t: &Term) -> bool {
    matches!(t, Term::Load(a) if matches!(a.as_ref(), Term::VarAddr(_)))
}

/// The facts of a condition: its negated `dshared` and `cyclic` literals over variables
/// (without avoid sets), read from a conjunction.
pub fn facts(cond: &Formula) -> Vec<Fact> {
    let items: Vec<&Formula> = match cond {
        Formula::And(xs) => xs.iter().collect(),
        other => vec![other],
    };
    let mut out = Vec::new();
    for item in items {
        let Formula::Not(inner) = item else { continue };
        let Formula::Atom(p) = inner.as_ref() else { continue };
        if !p.avoid.is_empty() || !p.args.iter().all(is_var) {
            continue;
        }
        match p.kind {
            PredKind::Dshared => out.push(Fact::Disjoint { fields: p.fields.clone(), a: p.args[0].clone(), b: p.args[1].clone() }),
            PredKind::Cyclic => out.push(Fact::Acyclic { fields: p.fields.clone(), v: p.args[0].clone() }),
            _ => {}
        }
    }
    out
}

/// Where `e` lies in `v`'s list: `(cell depth, is a slot)`. `v` is depth 0, `v->f` depth 1,
/// the slot `&(v->f)` belongs to the cell at depth 0.
fn member(e: &Term, v: &Term, fields: &[FieldRef]) -> Option<(u32, bool)> {
    if e == v {
        return Some((0, false));
    }
    let (base, f, j) = chain(e)?;
    if base != *v || !fields.contains(&f) {
        return None;
    }
    let slot = matches!(e, Term::FieldAddr(..));
    Some((if slot { j - 1 } else { j }, slot))
}

fn value_member(e: &Term, v: &Term, fields: &[FieldRef]) -> Option<u32> {
    member(e, v, fields).and_then(|(d, slot)| (!slot).then_some(d))
}

/// One rewrite of `p` under `fact`, with its name.
fn step(p: &Pred, fact: &Fact) -> Option<(Formula, &'static str)> {
    let fields_ok = |fs: &[FieldRef]| p.fields.iter().all(|f| fs.contains(f));
    let drop_avoid = |keep: &dyn Fn(&Term) -> bool, why: &'static str| {
        let kept: Vec<Term> = p.avoid.iter().filter(|a| keep(a)).cloned().collect();
        (kept.len() != p.avoid.len()).then(|| (Formula::Atom(p.with_avoid(kept)), why))
    };
    let path = matches!(p.kind, PredKind::Reach | PredKind::Reachp);
    match fact {
        Fact::Disjoint { fields, a, b } => {
            if p.kind == PredKind::Eq || !fields_ok(fields) {
                return None;
            }
            for (s, v) in [(a, b), (b, a)] {
                let in_v = |e: &Term| member(e, v, fields).is_some();
                let disjoint = "disjoint lists: no path between them";
                if path && ((p.args[0] == *s && in_v(&p.args[1])) || (in_v(&p.args[0]) && p.args[1] == *s)) {
                    return Some((Formula::Const(false), disjoint));
                }
                if p.kind == PredKind::Dshared && ((p.args[0] == *s && in_v(&p.args[1])) || (p.args[1] == *s && in_v(&p.args[0]))) {
                    return Some((Formula::Const(false), "disjoint lists share no node"));
                }
                if (path || p.kind == PredKind::Cyclic) && p.args[0] == *s {
                    if let Some(r) = drop_avoid(&|t| !in_v(t), "a walk from one of two disjoint lists never meets the other: its avoid-set members go") {
                        return Some(r);
                    }
                }
            }
            None
        }
        Fact::Acyclic { fields, v } => {
            if !fields_ok(fields) {
                return None;
            }
            let depth = |e: &Term| value_member(e, v, fields);
            match p.kind {
                PredKind::Cyclic if member(&p.args[0], v, fields).is_some() => Some((Formula::Const(false), "no cycle is reachable from an acyclic list")),
                PredKind::Cyclic => drop_avoid(&|t| member(t, v, fields).is_none(), "no path to a cycle meets a cell of an acyclic list: its avoid-set members go"),
                PredKind::Eq => match (depth(&p.args[0]), depth(&p.args[1])) {
                    (Some(i), Some(j)) if i != j => Some((Formula::Const(false), "two different nodes of an acyclic list differ")),
                    _ => None,
                },
                PredKind::Reach | PredKind::Reachp => {
                    let target = depth(&p.args[1])?;
                    if let Some(i) = depth(&p.args[0]) {
                        if target < i || (p.kind == PredKind::Reachp && target == i) {
                            return Some((Formula::Const(false), "a later node of an acyclic list reaches no earlier one"));
                        }
                    }
                    drop_avoid(&|t| member(t, v, fields).is_none_or(|(d, _)| d < target), "a shortest path to a node of an acyclic list meets no later cell of it: those avoid-set members go")
                }
                PredKind::Dshared => None,
            }
        }
    }
}

/// Whether `p` mentions a field chain `v->f…` (or a slot of one) of a variable `v` of `facts`.
fn mentions_chain_of(p: &Pred, facts: &[Fact]) -> bool {
    let vars: Vec<&Term> = facts
        .iter()
        .flat_map(|f| match f {
            Fact::Disjoint { a, b, .. } => vec![a, b],
            Fact::Acyclic { v, .. } => vec![v],
        })
        .collect();
    p.terms().any(|t| chain(t).is_some_and(|(base, _, _)| vars.contains(&&base)))
}

/// `p` reduced under `facts` (`facts ⇒ (p ⇔ r)`), with the rules applied; `None` when `p`
/// mentions no field chain of the facts' variables or no rule applies.
pub fn reduce(p: &Pred, facts: &[Fact]) -> Option<(Formula, Vec<&'static str>)> {
    if facts.is_empty() || !mentions_chain_of(p, facts) {
        return None;
    }
    let mut cur = p.clone();
    let mut why = Vec::new();
    'outer: for _ in 0..16 {
        for fact in facts {
            if let Some((f, rule)) = step(&cur, fact) {
                why.push(rule);
                match f {
                    Formula::Atom(q) => {
                        cur = q;
                        continue 'outer;
                    }
                    other => return Some((other, why)),
                }
            }
        }
        break;
    }
    (!why.is_empty()).then_some((Formula::Atom(cur), why))
}
