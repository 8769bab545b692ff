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

/// 13 predicates over `x` and `y` form one `enforce` component, larger than the abstraction
/// enumerates exactly while cones are bounded, so `enforce` holds only the inconsistent pairs
/// (and the groups over one variable). The state `{x + y > 10} & {x >= 0} & {x <= 3} &
/// {y >= 0} & {y <= 3}` has no pair that contradicts (over 32 bits only the five together do),
/// so the error is reachable in the boolean program, and the path's predicates are all known.
const FIVE_LITERALS: &str = "extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\n\
int main(void) {\n  int x = __VERIFIER_nondet_int();\n  int y = __VERIFIER_nondet_int();\n\
  if (x < 0 || x > 3 || y < 0 || y > 3) return 0;\n  if (x + y > 10) reach_error();\n  return 0;\n}\n";
const THIRTEEN: &str = "main { x + y > 10, x >= 0, x <= 3, y >= 0, y <= 3, x == 0, x == 1, x == 2, y == 0, y == 1, y == 2, x < y, x == y }\n";

fn five_literals(learn: bool) -> (c_ir::Program, Config) {
    let (program, diagnostics) = c_front::lower(FIVE_LITERALS, "five.c", &c_front::LowerOptions::default());
    assert!(!diagnostics::has_errors(&diagnostics), "{diagnostics:?}");
    let program = program.expect("lowered");
    let (predicates, diagnostics) = c_front::parse_predicates(&program, THIRTEEN);
    assert!(!diagnostics::has_errors(&diagnostics), "{diagnostics:?}");
    let mut config = Config::default_for_cli();
    config.user_predicates = predicates;
    config.learn_inconsistencies = learn;
    (program, config)
}

/// Learning: a counterexample that gives no new predicate passes through a state no C state
/// has; its minimal inconsistent cube (unsatisfiable, every literal needed, found in the
/// counterexample's state) is learned, and `enforce` excludes it from the next iteration on
/// (the cone bound is widened beside it, as without learning), until the boolean program is
/// safe. Without learning only the cone bound is widened.
#[test]
fn inconsistent_states_of_spurious_paths_are_learned_for_enforce() {
    let (program, config) = five_literals(true);
    let mut session = Session::new(&program, config);
    let end = session.run(&mut |_| {}, &|| false).clone();
    assert!(matches!(end, LoopEnd::Safe { .. }), "{end:?}");
    let iterations = session.iterations();
    let (last, spurious) = iterations.split_last().expect("iterations");
    assert!(last.learned.is_empty());
    assert!(!spurious[0].learned.is_empty(), "the first counterexample passes through an inconsistent state");
    let literal = |l: &cegar::LearnedLiteral| if l.value { l.predicate.clone() } else { c_ir::Expr::logical_not(l.predicate.clone()) };
    let config = solver::SolverConfig::c_semantics();
    for iteration in spurious {
        assert!(iteration.new_predicates.is_empty());
        let notes = &iteration.feasibility.as_ref().expect("checked").notes;
        assert_eq!(notes.iter().any(|n| n.contains("enforce now excludes them")), !iteration.learned.is_empty(), "{notes:?}");
        for cube in &iteration.learned {
            assert_eq!(cube.iteration, iteration.iteration);
            let all: Vec<c_ir::Expr> = cube.literals.iter().map(literal).collect();
            assert!(solver::is_satisfiable(&program, &solver::and_all(&all), &config).is_no(), "{cube}");
            for skip in 0..all.len() {
                let rest: Vec<c_ir::Expr> = all.iter().enumerate().filter(|(i, _)| *i != skip).map(|(_, e)| e.clone()).collect();
                assert!(solver::is_satisfiable(&program, &solver::and_all(&rest), &config).is_yes(), "{cube}: literal {skip} is needed");
            }
            // the state it was learned from is one of the abstract counterexample's
            let trace = iteration.abstract_counterexample.as_ref().expect("recorded");
            let state = if cube.trace_step == 0 { &trace.initial } else { &trace.steps[cube.trace_step - 1].valuation };
            for l in &cube.literals {
                assert!(state.contains(&(format!("{{{}}}", l.text), l.value)), "{cube} in {state:?}");
            }
        }
    }
    // `enforce` had every inconsistent pair: what is learned is longer (`{x == 0} & {y == 0} &
    // !{x == y}` over two variables, the five literals around `x + y > 10`, …)
    for cube in spurious.iter().flat_map(|i| &i.learned) {
        assert!(cube.literals.len() >= 3, "{cube}");
    }

    let (program, config) = five_literals(false);
    let mut session = Session::new(&program, config);
    let end = session.run(&mut |_| {}, &|| false).clone();
    assert!(matches!(end, LoopEnd::Safe { .. }), "{end:?}");
    assert!(session.iterations().iter().all(|i| i.learned.is_empty()));
    let notes: Vec<&String> = session.iterations().iter().filter_map(|i| i.feasibility.as_ref()).flat_map(|f| &f.notes).collect();
    assert!(notes.iter().any(|n| n.contains("cone bound")), "{notes:?}");
}
