//! The loop alone (BOOP Fig 3.1): one `step` is one iteration, each finished iteration is
//! reported as it finishes, predicates carry their origins, and the loop ends with a typed
//! reason. Whole-run verdicts over many programs are the portfolio's tests (crate `verify`).

use cegar::{Config, Event, LoopEnd, PredicateOrigin, Session, Step, StopReason};

fn lower(name: &str) -> c_ir::Program {
    let path = format!("{}/../../tests/programs/{name}", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(path).expect("test program");
    let (program, diagnostics) = c_front::lower(&source, name, &c_front::LowerOptions::default());
    assert!(!diagnostics::has_errors(&diagnostics), "{diagnostics:?}");
    program.expect("lowered")
}

#[test]
fn testdev_steps_through_three_iterations_to_a_replayed_bug() {
    let program = lower("testdev.c");
    let mut session = Session::new(&program, Config::default_for_cli());
    let mut reported = Vec::new();
    let mut steps = 0;
    loop {
        steps += 1;
        match session.step(&mut |e| if let Event::Iteration(r) = e { reported.push(r.iteration) }, &|| false) {
            Step::Continue(record) => {
                assert_eq!(record.iteration, steps);
                assert!(!record.new_predicates.is_empty(), "a spurious path adds predicates");
                assert!(record.new_predicates.iter().all(|p| matches!(p.origin, PredicateOrigin::Refinement { iteration, .. } if iteration == steps)));
            }
            Step::Done(end) => {
                assert!(matches!(end, LoopEnd::Unsafe { .. }), "{end:?}");
                break;
            }
        }
    }
    assert_eq!(session.iterations().len(), 3);
    assert_eq!(reported, vec![1, 2, 3], "each iteration is reported once, in order");
    // the first predicates are the error guards
    assert!(session.iterations()[0].predicates_before.iter().all(|p| p.origin == PredicateOrigin::ErrorGuard));
    // stepping a finished session changes nothing
    assert!(matches!(session.step(&mut |_| {}, &|| false), Step::Done(LoopEnd::Unsafe { .. })));
    assert_eq!(session.iterations().len(), 3);
}

#[test]
fn the_counting_loop_unrolls_with_newton_and_generalises_with_wp() {
    let program = lower("counting_loop.c");
    let program_100 = {
        let path = format!("{}/../../tests/programs/counting_loop.c", env!("CARGO_MANIFEST_DIR"));
        let source = std::fs::read_to_string(path).expect("test program").replace("#define K 4", "#define K 100");
        c_front::lower(&source, "k100.c", &c_front::LowerOptions::default()).0.expect("lowered")
    };
    // NEWTON's strongest postconditions learn one value of i per iteration (BOOP §7.4): with
    // K = 100 the iteration bound stops the loop
    let mut config = Config::default_for_cli();
    config.max_iterations = 10;
    config.refinement = cegar::RefinementMethod::Sp;
    let mut session = Session::new(&program_100, config.clone());
    let end = session.run(&mut |_| {}, &|| false).clone();
    assert_eq!(end, LoopEnd::Stopped(StopReason::IterationBound(10)));
    assert_eq!(session.iterations().len(), 10);
    let texts: Vec<&str> = session.predicates().list().iter().map(|p| p.text.as_str()).collect();
    assert!(texts.contains(&"i == 0") && texts.contains(&"i == 5"), "{texts:?}");
    // weakest preconditions find `i + 1 >= K` (the guard pushed back through `i = i + 1`):
    // three iterations whatever K is
    for program in [&program, &program_100] {
        config.refinement = cegar::RefinementMethod::Wp;
        let mut session = Session::new(program, config.clone());
        match session.run(&mut |_| {}, &|| false) {
            LoopEnd::Safe { invariants } => assert!(!invariants.is_empty()),
            other => panic!("{other:?}"),
        }
        assert_eq!(session.iterations().len(), 3);
    }
}

#[test]
fn a_cancelled_session_keeps_its_finished_iterations() {
    let program = lower("testdev.c");
    let mut session = Session::new(&program, Config::default_for_cli());
    assert!(matches!(session.step(&mut |_| {}, &|| false), Step::Continue(_)));
    match session.step(&mut |_| {}, &|| true) {
        Step::Done(end) => assert_eq!(end, &LoopEnd::Stopped(StopReason::Cancelled)),
        Step::Continue(_) => panic!("a cancelled session goes on"),
    }
    assert_eq!(session.iterations().len(), 1);
}
