//! Deterministic budgets (issue 33): the same program and options give the same iterations,
//! predicates, verdict and work count whether the machine is idle or a CPU-bound thread runs
//! beside the check. Budgets are work units (`budget`), so a run that ends by its budget ends
//! at the same point too; the small budgets below make most runs end that way.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use verify::{check_source, CheckOutcome, Config, Techniques, Verdict};

/// The machine-independent part of an outcome: everything but times.
fn fingerprint(outcome: &CheckOutcome) -> String {
    let mut iterations = outcome.iterations.clone();
    for it in &mut iterations {
        it.statistics = Default::default();
    }
    format!(
        "{:?} {:?} {:?} {:?} {:?} work={} iterations={:?}",
        outcome.verdict, outcome.decided_by, outcome.reason, outcome.loop_end, outcome.predicates, outcome.statistics.work_units, iterations
    )
}

/// A program of `tests/cegar/` or `tests/programs/`.
fn source_of(name: &str) -> String {
    let dir = env!("CARGO_MANIFEST_DIR");
    std::fs::read_to_string(format!("{dir}/../../tests/cegar/{name}"))
        .or_else(|_| std::fs::read_to_string(format!("{dir}/../../tests/programs/{name}")))
        .expect("test program")
}

fn check(name: &str, techniques: Techniques, budget: u64) -> CheckOutcome {
    let source = source_of(name);
    let mut config = Config::default_for_cli();
    config.techniques = techniques;
    config.work_budget = Some(budget);
    config.time_budget_ms = None;
    check_source(&source, name, &config, &mut |_| {}, &|| false)
}

/// Runs `f` while another thread spins.
fn beside_a_busy_thread<T>(f: impl FnOnce() -> T) -> T {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let busy = std::thread::spawn(move || {
        let mut x = 0u64;
        while !flag.load(Ordering::Relaxed) {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
        x
    });
    let result = f();
    stop.store(true, Ordering::Relaxed);
    let _ = busy.join();
    result
}

#[test]
fn runs_beside_a_busy_thread_give_the_same_iterations_and_verdict() {
    let programs = ["lock.c", "testdev_fixed.c", "driver_state.c", "loop_k3.c", "nondet_unsafe.c", "recursive_sum_safe.c", "stock_safe.c", "hash_safe.c"];
    let mut ended_by_budget = 0;
    let mut charged = 0;
    for name in programs {
        let runs = [(Techniques::textbook(), 40_000), (Techniques::textbook(), 400_000), (Techniques::all(), verify::DEFAULT_WORK_BUDGET)];
        for (techniques, budget) in runs {
            let idle = check(name, techniques, budget);
            let loaded = beside_a_busy_thread(|| check(name, techniques, budget));
            assert_eq!(fingerprint(&idle), fingerprint(&loaded), "{name} ({techniques}) with a budget of {budget} units");
            charged += idle.statistics.work_units;
            if idle.verdict == Verdict::Unknown && idle.reason.as_deref().is_some_and(|r| r.contains("work budget")) {
                ended_by_budget += 1;
            }
        }
    }
    assert!(ended_by_budget > 0, "some of the small budgets end a run");
    assert!(charged > 0, "the runs charged their work");
}

#[test]
fn a_spent_budget_stops_the_loop_with_the_reason() {
    let outcome = check("lock.c", Techniques::textbook(), 1000);
    assert_eq!(outcome.verdict, Verdict::Unknown, "{:?}", outcome.reason);
    let reason = outcome.reason.unwrap_or_default();
    assert!(reason.contains("work budget"), "{reason}");
}

#[test]
fn the_time_limit_says_that_results_may_differ() {
    let mut config = Config::default_for_cli();
    config.techniques = Techniques::textbook();
    config.time_budget_ms = Some(0);
    let outcome = check_source(&source_of("lock.c"), "lock.c", &config, &mut |_| {}, &|| false);
    assert_eq!(outcome.verdict, Verdict::Unknown, "{:?}", outcome.reason);
    let reason = outcome.reason.unwrap_or_default();
    assert!(reason.contains("time limit") && reason.contains("may differ elsewhere"), "{reason}");
}
