//! The rules of `shape::assume` (a hint's condition as an assumption, Dams–Namjoshi §5) against
//! the concrete evaluator: on every heap where the facts hold, a reduced predicate has the value
//! of its residual. Predicates: every kind over the list terms of `x` (up to three `->n` steps,
//! values and slots), `y`, `t` and the rigid `k`, with avoid sets of one such term or two of `&(x->n)`, `&(x->n->n)`, `x->n->n`, `&(y->n)`.
//! Heaps: every heap of up to 3 cells up to isomorphism and unreachable cells (`crate::small_heaps`).

use crate::wp_props::fixture;
use shape::assume::{self, Fact};
use shape::concrete::Heap;
use shape::terms::{Formula, Pred, PredKind, RigidId, Term};

fn check(facts: &[Fact], cond: &Formula, preds: &[Pred], heaps: &[Heap]) -> Result<usize, String> {
    let mut reduced = 0;
    for p in preds {
        let Some((r, rules)) = assume::reduce(p, facts) else { continue };
        reduced += 1;
        for h in heaps.iter().filter(|h| h.eval_formula(cond) == Some(true)) {
            if h.eval_pred(p) != h.eval_formula(&r) {
                return Err(format!("{p:?} reduced to {r:?} by {rules:?} differs on {h:?}"));
            }
        }
    }
    Ok(reduced)
}

#[test]
fn predicates_reduced_under_a_hints_condition_keep_their_value_where_it_holds() {
    let fx = fixture();
    let (x, y, t) = (fx.x.clone(), fx.y.clone(), fx.t.clone());
    let k = Term::Rigid(RigidId(0));
    let nx = |e: &Term| Term::field(e.clone(), fx.n);
    let slot = |e: &Term| Term::field_addr(e.clone(), fx.n);
    let chain: Vec<Term> = vec![x.clone(), nx(&x), nx(&nx(&x)), nx(&nx(&nx(&x)))];
    let mut pool: Vec<Term> = chain.clone();
    pool.extend(chain.iter().take(3).map(slot));
    pool.extend([y.clone(), slot(&y), t.clone()]);
    let args: Vec<Term> = chain.iter().cloned().chain([y.clone(), t.clone(), k]).collect();
    let mut avoids: Vec<Vec<Term>> = vec![vec![]];
    avoids.extend(pool.iter().map(|a| vec![a.clone()]));
    let pairs_of = [slot(&x), slot(&nx(&x)), nx(&nx(&x)), slot(&y)];
    for (i, a) in pairs_of.iter().enumerate() {
        avoids.extend(pairs_of[i + 1..].iter().map(|b| vec![a.clone(), b.clone()]));
    }
    let n = vec![fx.n];
    let mut preds = Vec::new();
    for a in &args {
        preds.push(Pred::new(PredKind::Cyclic, vec![], n.clone(), vec![a.clone()]));
        for b in &args {
            preds.push(Pred::eq(a.clone(), b.clone()));
            for kind in [PredKind::Reach, PredKind::Reachp, PredKind::Dshared] {
                preds.push(Pred::new(kind, vec![], n.clone(), vec![a.clone(), b.clone()]));
            }
        }
    }
    for av in &avoids[1..] {
        for a in &args {
            preds.push(Pred::new(PredKind::Cyclic, av.clone(), n.clone(), vec![a.clone()]));
            for b in [&x, &nx(&x), &nx(&nx(&x)), &y] {
                preds.push(Pred::new(PredKind::Reach, av.clone(), n.clone(), vec![a.clone(), b.clone()]));
                preds.push(Pred::new(PredKind::Reachp, av.clone(), n.clone(), vec![a.clone(), b.clone()]));
            }
        }
    }
    preds.sort();
    preds.dedup();
    let heaps = crate::small_heaps(&fx.space());
    let not = |kind, args: Vec<Term>| Formula::not(Formula::Atom(Pred::new(kind, vec![], n.clone(), args)));
    let conds = [
        not(PredKind::Dshared, vec![t.clone(), x.clone()]),
        not(PredKind::Cyclic, vec![x.clone()]),
        Formula::and(vec![not(PredKind::Dshared, vec![y.clone(), x.clone()]), not(PredKind::Cyclic, vec![x.clone()])]),
    ];
    for cond in &conds {
        let facts = assume::facts(cond);
        assert!(!facts.is_empty(), "{cond:?} gives facts");
        match check(&facts, cond, &preds, &heaps) {
            Ok(reduced) => assert!(reduced > 20, "{cond:?}: only {reduced} of {} predicates reduced", preds.len()),
            Err(e) => panic!("{e}"),
        }
    }
}
