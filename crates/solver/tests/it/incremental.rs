//! The incremental context, the cache, statistics and the query log.

use crate::builder::*;
use c_ir::{BinaryOp::*, Type};
use solver::{Answer, BackendKind, Context, SolveResult, Solver, SolverConfig};

#[test]
fn context_enumerates_predicate_valuations() {
    // all-SAT over {x < 3, x > 1, x == 2} under x in [0, 4]: exactly the consistent valuations
    let mut b = Builder::new();
    let x = b.var("x", Type::INT);
    let preds = [bin(Lt, &x, &int(3)), bin(Gt, &x, &int(1)), bin(Eq, &x, &int(2))];
    for backend in [BackendKind::Batsat, BackendKind::Varisat] {
        let config = SolverConfig { backend, ..SolverConfig::c_semantics() };
        let mut ctx = Context::new(&b.program, &config);
        ctx.assert_expr(&bin(Ge, &x, &int(0))).expect("supported");
        ctx.assert_expr(&bin(Le, &x, &int(4))).expect("supported");
        let lits: Vec<_> = preds.iter().map(|p| ctx.literal(p).expect("supported")).collect();
        // the same term encodes to the same literal
        assert_eq!(ctx.literal(&preds[0]).expect("supported"), lits[0]);
        let mut found = Vec::new();
        while ctx.solve(&[]) == SolveResult::Sat {
            let valuation: Vec<bool> = lits.iter().map(|&l| ctx.model_value_of_literal(l)).collect();
            let xv = ctx.model_value(&x).expect("x encoded");
            assert_eq!(valuation, vec![xv < 3, xv > 1, xv == 2]);
            let blocking: Vec<_> = lits.iter().zip(valuation.iter()).map(|(&l, &v)| if v { !l } else { l }).collect();
            ctx.add_clause(&blocking);
            found.push(valuation);
        }
        found.sort();
        assert_eq!(found, vec![vec![false, true, false], vec![true, false, false], vec![true, true, true]]);
        // under assumptions
        let act = ctx.new_literal();
        assert!(ctx.sat_calls() >= 4);
        assert_eq!(ctx.solve(&[act, !act]), SolveResult::Unsat);
    }
}

#[test]
fn cache_statistics_and_log() {
    let mut b = Builder::new();
    let x = b.var("x", Type::INT);
    let config = SolverConfig { log_queries: true, ..SolverConfig::c_semantics() };
    let mut s = Solver::new(&b.program, &config);
    let f = bin(Gt, &x, &int(1));
    assert_eq!(s.is_satisfiable(&f), Answer::Yes);
    assert_eq!(s.is_satisfiable(&f), Answer::Yes);
    assert!(s.last_model().is_some(), "cached answers keep their model");
    assert_eq!(s.implies(&[bin(Eq, &x, &int(2))], &f), Answer::Yes);
    let st = s.statistics();
    assert_eq!((st.queries, st.cache_hits, st.sat_calls), (3, 1, 2));
    assert!(st.clauses > 0 && st.sat_vars > 0);
    let log = s.query_log();
    assert_eq!(log.len(), 3);
    assert_eq!(log[0].formula, "x > 1");
    assert!(log[1].cached);
    assert_eq!(log[2].formula, "x == 2 ==> x > 1");
    assert_eq!(log[2].answer, Answer::Yes);
    assert_eq!(log[0].model.len(), 1);
    assert_eq!(solver::is_valid(&b.program, &bin(Ge, &x, &x), &config), Answer::Yes);
    assert_eq!(solver::implies(&b.program, &[], &f, &config), Answer::No);
}

#[test]
fn linear_equality_lemmas_decide_within_a_small_conflict_budget() {
    // 3*i == a + b and a + b == 3*n give i == n by one lemma clause; through the multiplier
    // circuits alone the SAT solver needs far more than 200 conflicts
    let mut b = Builder::new();
    let (i, n, a, bv) = (b.var("i", Type::INT), b.var("n", Type::INT), b.var("a", Type::INT), b.var("b", Type::INT));
    let sum = bin(Add, &a, &bv);
    let first = bin(Eq, &bin(Mul, &int(3), &i), &sum.clone());
    let second = bin(Eq, &sum, &bin(Mul, &int(3), &n));
    let mut ctx = Context::new(&b.program, &SolverConfig::c_semantics());
    let lits: Vec<_> = [&first, &second, &bin(Ne, &i, &n)].iter().map(|e| ctx.literal(e).expect("supported")).collect();
    ctx.set_conflict_budget(Some(200));
    assert_eq!(ctx.solve(&lits), SolveResult::Unsat);
    // the wrap-around model of `i >= n && 3*i == a + b - 2 && a + 1 + b == 3*n` (i = INT_MAX)
    let ge = ctx.literal(&bin(Ge, &i, &n)).expect("supported");
    let shifted = ctx.literal(&bin(Eq, &bin(Mul, &int(3), &i), &bin(Sub, &sum, &int(2)))).expect("supported");
    let next = ctx.literal(&bin(Eq, &bin(Add, &bin(Add, &a, &int(1)), &bv), &bin(Mul, &int(3), &n))).expect("supported");
    assert_eq!(ctx.solve(&[ge, shifted, next]), SolveResult::Sat);
    assert_eq!(ctx.model_value(&i), Some(i32::MAX as i128));
    assert_eq!(ctx.model_value(&n), Some(i32::MIN as i128));
}

mod projected_enumeration {
    use proptest::prelude::*;
    use solver::{new_backend, BackendKind, Lit};
    use std::collections::BTreeSet;

    /// The valuations of the first `projected` variables that extend to a model of `clauses`
    /// (over variables `1..=vars`, variable 0 the constant true), by brute force.
    fn brute_force(vars: u32, projected: u32, clauses: &[Vec<(u32, bool)>]) -> BTreeSet<Vec<bool>> {
        let mut out = BTreeSet::new();
        for bits in 0u32..(1 << vars) {
            let value = |v: u32| bits >> (v - 1) & 1 == 1;
            if clauses.iter().all(|c| c.iter().any(|&(v, positive)| value(v) == positive)) {
                out.insert((1..=projected).map(value).collect());
            }
        }
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, .. ProptestConfig::default() })]
        /// Both back ends enumerate exactly the projected models, once each, and leave the
        /// instance as it was once the guard is retired.
        #[test]
        fn backends_enumerate_the_projected_models(
            vars in 1u32..8,
            projected_seed in 0u32..8,
            raw in proptest::collection::vec(proptest::collection::vec((0u32..8, any::<bool>()), 1..4), 0..14),
        ) {
            let projected = 1 + projected_seed % vars;
            let clauses: Vec<Vec<(u32, bool)>> = raw.iter().map(|c| c.iter().map(|&(v, p)| (1 + v % vars, p)).collect()).collect();
            let expected = brute_force(vars, projected, &clauses);
            // the clauses loaded into a fresh back end, with a guard literal for the enumeration
            let load = |kind| {
                let mut backend = new_backend(kind);
                for _ in 0..=vars {
                    backend.new_var();
                }
                backend.add_clause(&[Lit::TRUE]);
                for c in &clauses {
                    let lits: Vec<Lit> = c.iter().map(|&(v, p)| if p { Lit::positive(v) } else { !Lit::positive(v) }).collect();
                    backend.add_clause(&lits);
                }
                let guard = Lit::positive(backend.new_var());
                (backend, guard)
            };
            let projection: Vec<Lit> = (1..=projected).map(Lit::positive).collect();
            for kind in [BackendKind::Batsat, BackendKind::Varisat] {
                let (mut backend, guard) = load(kind);
                let mut found = Vec::new();
                prop_assert!(backend.enumerate(&[guard], guard, &projection, usize::MAX - 1, &mut found), "{kind:?} complete");
                let distinct: BTreeSet<Vec<bool>> = found.iter().cloned().collect();
                prop_assert_eq!(distinct.len(), found.len(), "{:?} reports each valuation once", kind);
                prop_assert_eq!(&distinct, &expected, "{:?}", kind);
                // a limit cuts it short
                if expected.len() > 1 {
                    let (mut limited, guard) = load(kind);
                    let mut some = Vec::new();
                    prop_assert!(!limited.enumerate(&[guard], guard, &projection, 0, &mut some), "{kind:?} cut short");
                    prop_assert!(!some.is_empty() && some.iter().all(|v| expected.contains(v)));
                }
                // retiring the guard leaves the formula's own models
                backend.add_clause(&[!guard]);
                prop_assert_eq!(backend.solve(&[]), Some(!expected.is_empty()));
            }
        }
    }
}
