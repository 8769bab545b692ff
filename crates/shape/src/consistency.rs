//! Consistency constraints between the booleans of one location: a sound strengthening of the
//! abstract program that the Cartesian construction of Fig 3 lacks.
//!
//! Fig 3 computes each boolean's update separately (`b_p := f̄`), so the abstract program does
//! not know that, say, `reachp[n](x,x)` implies `cyclic[n](x)`, or that `x == NULL` makes every
//! path predicate from `x` false: an abstract state may give such booleans values no concrete
//! state has. The paper leaves this to the model checker ("operations similar to focus, coerce
//! and blur … are implemented in model checkers", §6); here the valid implications between the
//! predicates of the pairs at a location are emitted as `assume` clauses at that location (the
//! *coerce* of TVLA, restricted to clauses proved by the definitions of §3.2).
//!
//! Soundness: for every concrete run there is an abstract run in which every boolean `b_p`
//! with `(p, n)` considered equals `p` at `n` (WP updates are exact up to `⊤`, hints and `*`
//! allow the exact value), so assuming a formula that every concrete state satisfies removes
//! no abstract run that mirrors a concrete one.

use crate::abstraction::{Abstraction, PredId};
use crate::flowchart::LocId;
use crate::terms::{Formula, Pred, PredKind, Term};

/// A disjunction of literals `(boolean, polarity)`.
pub type Clause = Vec<(PredId, bool)>;

/// Whether `small ⊆ big` (avoid sets are sorted, but sizes are tiny).
fn subset(small: &[Term], big: &[Term]) -> bool {
    small.iter().all(|t| big.contains(t))
}

/// `p ⇒ q` by the definitions: fewer avoided addresses allow more paths; `reachp ⇒ reach`;
/// `reachp(v,v) ⇒ cyclic(v)`.
fn implies(p: &Pred, q: &Pred) -> bool {
    if p == q || p.kind == PredKind::Eq || q.kind == PredKind::Eq || p.fields != q.fields || !subset(&q.avoid, &p.avoid) {
        return false;
    }
    match (p.kind, q.kind) {
        (a, b) if a == b => p.args == q.args,
        (PredKind::Reachp, PredKind::Reach) => p.args == q.args,
        (PredKind::Reachp, PredKind::Cyclic) => p.args[0] == p.args[1] && q.args[0] == p.args[0],
        _ => false,
    }
}

/// Whether `v == NULL` makes `q` false: `q` starts a path at `v` (or shares a node with it).
fn null_kills(v: &Term, q: &Pred) -> bool {
    match q.kind {
        PredKind::Reach | PredKind::Reachp | PredKind::Cyclic => q.args[0] == *v,
        PredKind::Dshared => q.args.contains(v),
        PredKind::Eq => false,
    }
}

fn replace(t: &Term, from: &Term, to: &Term) -> Term {
    t.map(&mut |s| if s == *from { to.clone() } else { s })
}

/// The clauses for the predicates `preds` (the pairs at one location).
pub fn clauses(abs: &Abstraction, preds: &[PredId]) -> Vec<Clause> {
    let mut out: Vec<Clause> = Vec::new();
    let push = |c: Clause, out: &mut Vec<Clause>| {
        if !out.contains(&c) {
            out.push(c);
        }
    };
    let find = |p: &Pred| preds.iter().copied().find(|&id| abs.pred(id) == p);
    for &a in preds {
        let p = abs.pred(a);
        for &b in preds {
            let q = abs.pred(b);
            if implies(p, q) {
                push(vec![(a, false), (b, true)], &mut out);
            }
        }
        if p.kind != PredKind::Eq {
            continue;
        }
        let (u, v) = (&p.args[0], &p.args[1]);
        if *u == Term::Null || *v == Term::Null {
            let w = if *u == Term::Null { v } else { u };
            for &b in preds {
                if null_kills(w, abs.pred(b)) {
                    push(vec![(a, false), (b, false)], &mut out);
                }
            }
        }
        // congruence: u == v makes q and q[u := v] equal
        for &b in preds {
            let q = abs.pred(b);
            for (from, to) in [(u, v), (v, u)] {
                if *from == Term::Null {
                    continue;
                }
                let r = q.map_terms(&mut |t| replace(t, from, to));
                if r == *q {
                    continue;
                }
                if let Some(c) = find(&r) {
                    if c != a && b < c {
                        push(vec![(a, false), (b, false), (c, true)], &mut out);
                        push(vec![(a, false), (b, true), (c, false)], &mut out);
                    }
                }
            }
        }
    }
    // reach(u,v) ∧ cyclic(v) ⇒ cyclic(u) (same avoid set and fields)
    for &a in preds {
        let p = abs.pred(a);
        if p.kind != PredKind::Reach {
            continue;
        }
        let cyc = |x: &Term| Pred::new(PredKind::Cyclic, p.avoid.clone(), p.fields.clone(), vec![x.clone()]);
        if let (Some(cv), Some(cu)) = (find(&cyc(&p.args[1])), find(&cyc(&p.args[0]))) {
            push(vec![(a, false), (cv, false), (cu, true)], &mut out);
        }
    }
    out
}

/// The constraints at a location, for the pairs considered there: the clauses above, and
/// `p ⇒ c` for every predicate `p` whose approximation template `c`
/// ([`crate::autohint::implied`]) is over predicates also considered there.
pub fn at_location(abs: &Abstraction, loc: LocId) -> Vec<Formula> {
    let mut preds: Vec<PredId> = abs.pairs.iter().filter(|p| p.loc == loc).map(|p| p.pred).collect();
    preds.sort();
    preds.dedup();
    let lit = |(id, pos): (PredId, bool)| {
        let a = Formula::Atom(abs.pred(id).clone());
        if pos {
            a
        } else {
            Formula::not(a)
        }
    };
    let mut out: Vec<Formula> = clauses(abs, &preds).into_iter().map(|c| Formula::or(c.into_iter().map(lit).collect())).collect();
    for &id in &preds {
        let p = abs.pred(id);
        let Some(c) = crate::autohint::implied(p) else { continue };
        if c.preds().iter().all(|q| abs.pred_id(q).is_some_and(|q| preds.contains(&q))) {
            out.push(Formula::or(vec![Formula::not(Formula::Atom(p.clone())), c]));
        }
    }
    out
}
