//! The rules of `shape::assume` (a hint's condition as an assumption, Dams–Namjoshi §5) against
//! the concrete evaluator: on every heap where the facts hold, a reduced predicate has the value
//! of its residual. Predicates: every kind over the list terms of `x` (up to three `->n` steps,
//! values and slots), `y`, `t` and the rigid `k`, with avoid sets of one such term or two of `&(x->n)`, `&(x->n->n)`, `x->n->n`, `&(y->n)`.
//! Heaps: every heap of up to 3 cells up to isomorphism and unreachable cells (`crate::small_heaps`;
//! `SHAPE_CELLS=6`: 58,107 heaps, 27 million comparisons, about 80 s).

use crate::wp_props::fixture;
use shape::assume;
use shape::concrete::Heap;
use shape::terms::{Formula, Pred, PredKind, RigidId, Term};

/// A reduction to check: the condition it assumes, the predicate (an index into `preds`), its
/// residual and the rules that gave it.
struct Reduction {
    cond: usize,
    pred: usize,
    residual: Formula,
    rules: Vec<&'static str>,
}

/// Checks every reduction on every heap where its condition holds: the heaps are the outer loop,
/// so each condition is evaluated once per heap and each predicate at most once per heap (a
/// residual that is itself one of `preds` reads the same value).
fn check(conds: &[Formula], reductions: &[Reduction], preds: &[Pred], heaps: &[Heap]) -> Result<usize, String> {
    let mut compared = 0;
    let mut value: Vec<Option<Option<bool>>> = vec![None; preds.len()];
    for h in heaps {
        let holds: Vec<bool> = conds.iter().map(|c| h.eval_formula(c) == Some(true)).collect();
        value.iter_mut().for_each(|v| *v = None);
        let mut pred_value = |i: usize| *value[i].get_or_insert_with(|| h.eval_pred(&preds[i]));
        for r in reductions.iter().filter(|r| holds[r.cond]) {
            let residual = match &r.residual {
                Formula::Atom(q) => match preds.binary_search(q) {
                    Ok(j) => pred_value(j),
                    Err(_) => h.eval_pred(q),
                },
                other => h.eval_formula(other),
            };
            if pred_value(r.pred) != residual {
                return Err(format!("{:?} reduced to {:?} by {:?} differs on {h:?}", preds[r.pred], r.residual, r.rules));
            }
            compared += 1;
        }
    }
    Ok(compared)
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
    let mut reductions = Vec::new();
    for (c, cond) in conds.iter().enumerate() {
        let facts = assume::facts(cond);
        assert!(!facts.is_empty(), "{cond:?} gives facts");
        let before = reductions.len();
        for (pred, p) in preds.iter().enumerate() {
            if let Some((residual, rules)) = assume::reduce(p, &facts) {
                reductions.push(Reduction { cond: c, pred, residual, rules });
            }
        }
        let reduced = reductions.len() - before;
        assert!(reduced > 20, "{cond:?}: only {reduced} of {} predicates reduced", preds.len());
    }
    match check(&conds, &reductions, &preds, &heaps) {
        Ok(compared) => eprintln!("{} reductions of {} predicates under {} conditions, {compared} comparisons", reductions.len(), preds.len(), conds.len()),
        Err(e) => panic!("{e}"),
    }
}
