//! Resource limits and cancellation end in UNKNOWN with a reason, never a hang; invalid input is UNKNOWN with diagnostics.

use boolprog::generate::{random_program, GeneratorParams};
use model_check::{check, check_with_cancel, Config, Verdict};

fn big() -> boolprog::Program {
    random_program(&GeneratorParams { globals: 16, procs: 8, locals: 6, statements: 30, recursion: true, asserts: true, seed: 7 })
}

#[test]
fn node_budget_gives_unknown() {
    let outcome = check(&big(), &Config { max_bdd_nodes: 5, ..Config::default() });
    match outcome.verdict {
        Verdict::Unknown(reason) => assert!(reason.contains("BDD node budget"), "{reason}"),
        v => panic!("expected UNKNOWN, got {v:?}"),
    }
}

#[test]
fn time_budget_gives_unknown() {
    let outcome = check(&big(), &Config { time_budget_ms: Some(0), ..Config::default() });
    match outcome.verdict {
        Verdict::Unknown(reason) => assert!(reason.contains("time budget"), "{reason}"),
        v => panic!("expected UNKNOWN, got {v:?}"),
    }
}

#[test]
fn cancellation_gives_unknown() {
    let calls = std::cell::Cell::new(0);
    let outcome = check_with_cancel(&big(), &Config::default(), &|| {
        calls.set(calls.get() + 1);
        calls.get() > 3
    });
    assert_eq!(outcome.verdict, Verdict::Unknown("cancelled".to_string()));
    assert_eq!(calls.get(), 4);
}

#[test]
fn cancellation_stops_the_counterexample_search() {
    // An unsafe program whose counterexample goes through calls: count the polls of a full run
    // (one per model-checking step, then one per backward step of the trace search).
    let program = (0..50)
        .map(|seed| random_program(&GeneratorParams { globals: 2, procs: 3, locals: 2, statements: 8, recursion: true, asserts: true, seed }))
        .find(|p| {
            let outcome = check(p, &Config::default());
            outcome.verdict == Verdict::ErrorReachable && outcome.trace.as_ref().is_some_and(|t| t.steps.len() > 3)
        })
        .expect("an unsafe generated program");
    let calls = std::cell::Cell::new(0u64);
    let full = check_with_cancel(&program, &Config::default(), &|| {
        calls.set(calls.get() + 1);
        false
    });
    let steps = full.statistics.iterations;
    assert!(calls.get() > steps, "the trace search polls too");
    // Cancelled right after the error is found: the verdict stands, without a trace.
    calls.set(0);
    let cut = check_with_cancel(&program, &Config::default(), &|| {
        calls.set(calls.get() + 1);
        calls.get() > steps
    });
    assert_eq!(cut.verdict, Verdict::ErrorReachable);
    assert!(cut.trace.is_none());
    assert!(cut.diagnostics.iter().any(|d| d.message == "no counterexample: cancelled"), "{:?}", cut.diagnostics);
    assert_eq!(cut.trace_error.as_deref(), Some("no counterexample: cancelled"));
    assert_eq!(full.trace_error, None);
}

#[test]
fn invalid_programs_are_unknown_with_diagnostics() {
    let (program, _) = boolprog::parse("void main() begin x := 1; end");
    let outcome = check(&program, &Config::default());
    assert!(matches!(outcome.verdict, Verdict::Unknown(_)));
    assert!(diagnostics::has_errors(&outcome.diagnostics));
}

#[test]
fn error_labels_are_targets() {
    let (program, diags) = boolprog::parse("void main() begin decl a; a := *; if (a) then ERROR: skip; fi end");
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(check(&program, &Config::default()).verdict, Verdict::Safe);
    let config = Config { error_labels: vec!["ERROR".to_string()], ..Config::default() };
    let outcome = check(&program, &config);
    assert_eq!(outcome.verdict, Verdict::ErrorReachable);
    let trace = outcome.trace.unwrap();
    model_check::explicit::replay_with_error_labels(&program, &trace, &config.error_labels).unwrap();
    assert_eq!(trace.steps.last().unwrap().kind, model_check::StepKind::ErrorLabel);
}

#[test]
fn statistics_are_filled() {
    let outcome = check(&big(), &Config::default());
    assert!(outcome.statistics.iterations > 0);
    assert!(outcome.statistics.peak_bdd_nodes > 0);
    assert!(outcome.statistics.bdd_variables > 0);
}
