//! The cross-iteration cache (`AbstractionCache`) is transparent: abstracting with a warm cache
//! gives exactly the abstraction a cold run gives, while predicate sets grow one predicate at a
//! time (as in CEGAR), shrink again, and under both strategies.

use crate::figures::load;
use abstraction::{abstract_program, abstract_program_cached, Abstraction, AbstractionCache, AbstractionConfig, Strategy};
use c_ir::{Expr, PredicateSet, ProcId, Program};

/// The golden examples, and whether the lattice strategy is cheap enough for them (`reverse`'s
/// seven mutually aliasing predicates take the lattice minutes, see `figures.rs`).
const EXAMPLES: &[(&str, bool)] = &[
    ("partition", true),
    ("foobar", true),
    ("increment", true),
    ("inc_mono", true),
    ("inc_poly", true),
    ("inc_deref", true),
    ("swap", true),
    ("testdev", true),
    ("lock_pointer", true),
    ("reverse", false),
];

/// Every predicate with its scope, in file order.
fn flatten(set: &PredicateSet) -> Vec<(Option<ProcId>, Expr)> {
    let globals = set.global.iter().map(|p| (None, p.clone()));
    let locals = set.local.iter().flat_map(|(proc, list)| list.iter().map(|p| (Some(*proc), p.clone())));
    globals.chain(locals).collect()
}

fn prefix(all: &[(Option<ProcId>, Expr)], n: usize) -> PredicateSet {
    let mut set = PredicateSet::default();
    for (scope, p) in &all[..n] {
        set.insert(*scope, p.clone());
    }
    set
}

/// Everything of an abstraction except its statistics (which count the reuse).
fn assert_same(warm: &Abstraction, cold: &Abstraction, what: &str) {
    assert_eq!(warm.print_bebop(), cold.print_bebop(), "{what}");
    assert_eq!(warm.program, cold.program, "{what}");
    assert_eq!(warm.variables, cold.variables, "{what}");
    assert_eq!(warm.signatures, cold.signatures, "{what}");
    assert_eq!(warm.calls, cold.calls, "{what}");
}

/// Abstracts with growing then shrinking prefixes of the predicates through one cache and
/// compares each result with a cold abstraction (the lattice only grows: it is slow); returns
/// the cache hits.
fn check_example(program: &Program, set: &PredicateSet, strategy: Strategy, name: &str, shrink: bool) -> u64 {
    let all = flatten(set);
    let config = AbstractionConfig::new(strategy);
    let mut cache = AbstractionCache::new();
    let shrinking = if shrink { all.len() } else { 0 };
    let sizes: Vec<usize> = (0..=all.len()).chain((0..shrinking).rev()).collect();
    let mut hits = 0;
    for n in sizes {
        let predicates = prefix(&all, n);
        let (warm, warm_diags) = abstract_program_cached(program, &predicates, &config, &mut cache);
        let (cold, cold_diags) = abstract_program(program, &predicates, &config);
        assert_eq!(warm_diags.len(), cold_diags.len());
        assert_same(&warm, &cold, &format!("{name}, {} strategy, {n} predicates", strategy.name()));
        hits += warm.statistics.cache_hits;
    }
    assert!(cache.statistics().hits + cache.statistics().enforce_hits > 0, "{name}: the cache was never used");
    hits
}

#[test]
fn warm_cache_gives_the_cold_abstraction_exact() {
    for &(name, _) in EXAMPLES {
        let (program, set) = load(name);
        check_example(&program, &set, Strategy::Exact, name, true);
    }
}

#[test]
fn warm_cache_gives_the_cold_abstraction_lattice() {
    for &(name, cheap) in EXAMPLES.iter().filter(|(_, cheap)| *cheap) {
        assert!(cheap);
        let (program, set) = load(name);
        check_example(&program, &set, Strategy::Lattice, name, false);
    }
}

/// A predicate outside a statement's cone leaves its strengthenings reusable: adding an
/// unrelated predicate to a warm cache asks the decision procedure nothing new for the
/// statements that do not mention it.
#[test]
fn an_unrelated_predicate_reuses_every_old_strengthening() {
    let (program, set) = load("foobar");
    let config = AbstractionConfig::new(Strategy::Exact);
    let mut cache = AbstractionCache::new();
    let (first, _) = abstract_program_cached(&program, &set, &config, &mut cache);
    assert!(first.statistics.prover_calls > 0);
    // the same predicates again: nothing reaches the solver
    let (again, _) = abstract_program_cached(&program, &set, &config, &mut cache);
    assert_eq!(again.statistics.prover_calls, 0, "{:?}", again.statistics);
    assert_eq!(again.program, first.program);
    // `l2 == 7` only shares symbols with `y > l2` in bar: foo's strengthenings are all reused
    let (more, diags) = c_front::parse_predicates(&program, "bar { l2 == 7 }");
    assert!(!diagnostics::has_errors(&diags), "{diags:?}");
    let mut grown = set.clone();
    for (scope, p) in flatten(&more) {
        grown.insert(scope, p);
    }
    let stored_before = cache.statistics().stored;
    let (warm, _) = abstract_program_cached(&program, &grown, &config, &mut cache);
    let (cold, _) = abstract_program(&program, &grown, &config);
    assert_same(&warm, &cold, "foobar + l2 == 7");
    assert!(warm.statistics.prover_calls < cold.statistics.prover_calls, "{:?} vs {:?}", warm.statistics, cold.statistics);
    assert!(cache.statistics().stored > stored_before);
}

/// Recording lattices for the UI bypasses the cache: every strengthening keeps its search.
#[test]
fn recording_bypasses_the_cache() {
    let (program, set) = load("increment");
    let mut config = AbstractionConfig::new(Strategy::Lattice);
    let mut cache = AbstractionCache::new();
    let _ = abstract_program_cached(&program, &set, &config, &mut cache);
    config.record_lattices = true;
    let (recorded, _) = abstract_program_cached(&program, &set, &config, &mut cache);
    let (cold, _) = abstract_program(&program, &set, &config);
    // equal up to the measured query times
    let untimed = |a: &Abstraction| {
        let mut records = a.lattices.clone();
        for query in records.iter_mut().flat_map(|r| r.lattice.iter_mut()).flat_map(|c| c.queries.iter_mut()) {
            query.micros = 0;
        }
        records
    };
    assert_eq!(untimed(&recorded), untimed(&cold));
    assert!(recorded.lattices.iter().any(|r| !r.lattice.is_empty()));
    assert_eq!(recorded.statistics.cache_hits, cold.statistics.cache_hits);
}
