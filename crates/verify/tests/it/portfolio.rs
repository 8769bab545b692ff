//! The portfolio: each technique decides the programs it is made for, says so in
//! `decided_by`, and the textbook selection runs the loop alone.

use c_ir::interp::{run_observed, Limits, Outcome};
use verify::{check_source, Config, InvariantSource, Technique, Techniques, Verdict};

#[test]
fn the_loop_reports_a_zone_proof_with_invariants_that_hold() {
    let source = "extern int __VERIFIER_nondet_int(void); extern void reach_error(void);
        int main() { int m = __VERIFIER_nondet_int(); if (m <= 0 || m >= 1000000) return 0;
          int i = 0; int j = m;
          while (i < m) { if (i > j) reach_error(); i++; }
          return 0; }";
    let mut config = Config::default_for_cli();
    config.time_budget_ms = Some(2000);
    let outcome = check_source(source, "z.c", &config, &mut |_| {}, &|| false);
    assert_eq!(outcome.verdict, Verdict::Safe, "{:?}", outcome.reason);
    assert_eq!(outcome.decided_by, Some(Technique::Zones), "{:?}", outcome.reason);
    assert_eq!(outcome.invariant_source, InvariantSource::DifferenceBounds);
    assert!(outcome.iterations.is_empty(), "the portfolio answers as soon as the zones prove the program");
    let (program, _) = c_front::lower(source, "z.c", &c_front::LowerOptions::default());
    let program = program.expect("lowered");
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut checks = 0;
    for _ in 0..2000 {
        let mut feed = |_: &c_ir::Type| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            [(seed % 50) as i128, (seed as i32) as i128][(seed >> 40) as usize % 2]
        };
        let mut observe = |at: c_ir::StmtRef, state: &c_ir::interp::State| {
            for inv in outcome.invariants.iter().filter(|i| i.at == at) {
                checks += 1;
                assert_ne!(state.eval(&inv.formula), Some(0), "{}", inv.text);
            }
        };
        let run = run_observed(&program, &mut feed, &Limits::new(100_000), &mut observe);
        assert_ne!(run.outcome, Outcome::ReachedError);
    }
    assert!(checks > 2000);
}


#[test]
fn the_cegar_loop_reports_the_heap_proof_with_invariants() {
    let source = format!(
        "{}{LIST}{}",
        "extern unsigned char __VERIFIER_nondet_uchar(void);\nextern void reach_error(void);\n",
        "int main() {
        struct node *list = 0, *cell;
        while (__VERIFIER_nondet_uchar()) {
          cell = malloc(sizeof(struct node)); if (cell == 0) return 1;
          cell->h = 1; cell->n = list; list = cell;
        }
        while (list != 0) { if (list->h != 1) reach_error(); list = list->n; }
        return 0; }"
    );
    let mut config = Config::default_for_cli();
    config.time_budget_ms = Some(8_000);
    config.loop_config.max_iterations = 6;
    let outcome = check_source(&source, "list.c", &config, &mut |_| {}, &|| false);
    assert_eq!(outcome.verdict, Verdict::Safe, "{:?}", outcome.reason);
    assert_eq!(outcome.invariant_source, InvariantSource::HeapValues, "{:?}", outcome.reason);
    assert_eq!(outcome.decided_by, Some(Technique::HeapValues));
    assert!(outcome.invariants.iter().any(|i| i.text.contains("list->h == 1")), "{:?}", outcome.invariants.iter().map(|i| &i.text).collect::<Vec<_>>());
}


const LIST: &str = "#include <stdlib.h>\nstruct node { int h; struct node *n; };\n";

fn program(name: &str) -> String {
    std::fs::read_to_string(format!("{}/../../tests/programs/{name}", env!("CARGO_MANIFEST_DIR"))).expect("test program")
}

fn textbook(max_iterations: u32) -> Config {
    let mut config = Config::default_for_cli();
    config.techniques = Techniques::textbook();
    config.loop_config.max_iterations = max_iterations;
    config
}

#[test]
fn textbook_testdev_is_unsafe_after_three_iterations_of_the_loop() {
    let outcome = check_source(&program("testdev.c"), "testdev.c", &textbook(20), &mut |_| {}, &|| false);
    assert_eq!(outcome.verdict, Verdict::Unsafe, "{:?}", outcome.reason);
    assert_eq!(outcome.decided_by, Some(Technique::Cegar));
    assert_eq!(outcome.iterations.len(), 3);
    // in the textbook mode every predicate is an error guard or comes from refinement
    assert!(outcome.predicates.iter().all(|p| matches!(p.origin, cegar::PredicateOrigin::ErrorGuard | cegar::PredicateOrigin::Refinement { .. })));
}

#[test]
fn counting_loop_with_k_100_stops_at_the_bound_alone_and_is_safe_in_the_portfolio() {
    let source = program("counting_loop.c").replace("#define K 4", "#define K 100");
    assert!(source.contains("#define K 100"));
    // NEWTON (sp) learns one value of i per iteration (BOOP §7.4)
    let mut newton = textbook(20);
    newton.loop_config.refinement = cegar::RefinementMethod::Sp;
    let outcome = check_source(&source, "counting_loop.c", &newton, &mut |_| {}, &|| false);
    assert_eq!(outcome.verdict, Verdict::Unknown, "{:?}", outcome.reason);
    assert_eq!(outcome.iterations.len(), 20);
    assert_eq!(outcome.loop_end.as_ref().and_then(|e| e.stop_reason()), Some(&verify::StopReason::IterationBound(20)));
    assert_eq!(outcome.decided_by, None);
    let mut all = Config::default_for_cli();
    all.loop_config.max_iterations = 20;
    let outcome = check_source(&source, "counting_loop.c", &all, &mut |_| {}, &|| false);
    assert_eq!(outcome.verdict, Verdict::Safe, "{:?}", outcome.reason);
    assert!(outcome.decided_by.is_some_and(|t| t != Technique::RandomRuns), "{:?}", outcome.decided_by);
}

#[test]
fn iterations_are_reported_as_they_finish_and_a_cancelled_run_keeps_them() {
    let source = program("testdev.c");
    let lowered = c_front::lower(&source, "testdev.c", &c_front::LowerOptions::default()).0.expect("lowered");
    let mut session = cegar::Session::new(&lowered, textbook(20).loop_config);
    let mut reported = Vec::new();
    // one step is one iteration, reported before step returns
    for expected in 1..=2u32 {
        match session.step(&mut |e| if let cegar::Event::Iteration(r) = e { reported.push(r.iteration) }, &|| false) {
            cegar::Step::Continue(record) => assert_eq!(record.iteration, expected),
            cegar::Step::Done(end) => panic!("ended early: {end:?}"),
        }
        assert_eq!(reported, (1..=expected).collect::<Vec<_>>());
    }
    // cancelled before the third: the two finished iterations stay
    match session.step(&mut |_| {}, &|| true) {
        cegar::Step::Done(end) => assert_eq!(end.stop_reason(), Some(&verify::StopReason::Cancelled)),
        cegar::Step::Continue(_) => panic!("a cancelled session goes on"),
    }
    assert_eq!(session.iterations().len(), 2);
    // a portfolio run that is cancelled mid-way keeps what finished
    let iterations = std::cell::Cell::new(0u32);
    let outcome = check_source(&source, "testdev.c", &textbook(20), &mut |e| {
        if let verify::Event::Loop(cegar::Event::Iteration(_)) = e {
            iterations.set(iterations.get() + 1);
        }
    }, &|| iterations.get() >= 1);
    assert!(outcome.cancelled);
    assert_eq!(outcome.verdict, Verdict::Unknown);
    assert!(!outcome.iterations.is_empty());
}
