//! End-to-end tests of the CEGAR loop on the seed examples and small programs of our own:
//! verdicts, iteration counts, golden summaries (`tests/cegar/NAME.summary`), replay of
//! counterexample inputs, and SAFE invariants checked on random concrete runs.

use c_ir::interp::{run_observed, Limits};
use c_ir::Program;
use cegar::RefinementMethod;
use verify::{check_source, CheckOutcome, Config, InvariantSource, Technique, Techniques, Verdict};

mod determinism;
mod portfolio;
mod random_programs;
mod struct_pointers;

/// A program of `tests/cegar/`, or of `tests/programs/` (the gallery's seed programs, kept once).
fn source_of(name: &str) -> String {
    let path = format!("{}/../../tests/cegar/{name}", env!("CARGO_MANIFEST_DIR"));
    let gallery = format!("{}/../../tests/programs/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).or_else(|_| std::fs::read_to_string(&gallery)).expect("test program")
}

fn lower(name: &str) -> Program {
    let (program, _) = c_front::lower(&source_of(name), name, &c_front::LowerOptions::default());
    program.expect("lowered")
}

/// The loop with its loop-invariant candidates (what these tests are about); the soundness
/// guard's random runs stay on.
fn run(name: &str, method: RefinementMethod, max_iterations: u32) -> CheckOutcome {
    let mut config = Config::default_for_cli();
    config.techniques = Techniques::of(&[Technique::Cegar, Technique::Candidates]);
    config.loop_config.refinement = method;
    config.loop_config.max_iterations = max_iterations;
    run_with(name, &config)
}

/// The whole portfolio.
fn run_all(name: &str, method: RefinementMethod, max_iterations: u32) -> CheckOutcome {
    let mut config = Config::default_for_cli();
    config.loop_config.refinement = method;
    config.loop_config.max_iterations = max_iterations;
    run_with(name, &config)
}

fn run_with(name: &str, config: &Config) -> CheckOutcome {
    let mut iterations = 0;
    let mut done = 0;
    let outcome = check_source(&source_of(name), name, config, &mut |e| match e {
        verify::Event::Loop(cegar::Event::Iteration(_)) => iterations += 1,
        verify::Event::Loop(cegar::Event::Progress(p)) if p.phase == cegar::Phase::Done => done += 1,
        _ => {}
    }, &|| false);
    assert_eq!(iterations, outcome.iterations.len(), "every finished iteration is reported once");
    assert!(done <= 1, "the loop ends once");
    outcome
}

/// A deterministic summary for golden files: verdict, predicates per iteration, reason.
fn summary(name: &str, outcome: &CheckOutcome) -> String {
    let program = lower(name);
    let mut out = format!("{name}: {} after {} iterations\n", outcome.verdict.name(), outcome.iterations.len());
    for it in &outcome.iterations {
        let verdict = it.feasibility.as_ref().map(|f| format!("{} ({})", f.verdict, f.method.name())).unwrap_or_default();
        let model_check = it.model_check.as_ref().map(|m| m.to_string()).unwrap_or_default();
        out.push_str(&format!("iteration {}: {} predicates, {} {}\n", it.iteration, it.predicates_before.len(), model_check, verdict));
        for p in &it.new_predicates {
            let scope = p.scope.map(|s| program.proc(s).name.clone()).unwrap_or_else(|| "global".into());
            out.push_str(&format!("  + {scope}: {} ({})\n", p.text, p.origin));
        }
    }
    if let Some(cex) = &outcome.counterexample {
        out.push_str(&format!("counterexample: {} steps, inputs {:?}\n", cex.steps.len(), cex.inputs));
    }
    if let Some(t) = outcome.decided_by {
        out.push_str(&format!("decided by: {t}\n"));
    }
    if let Some(r) = &outcome.reason {
        out.push_str(&format!("reason: {r}\n"));
    }
    out
}

/// Simple deterministic pseudo-random numbers (xorshift).
struct Random(u64);
impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// Mostly small values, sometimes boundary or arbitrary ones.
    fn value(&mut self) -> i128 {
        match self.next() % 8 {
            0 => [0i128, 1, -1, i32::MAX as i128, i32::MIN as i128][(self.next() % 5) as usize],
            1 => (self.next() as i64) as i128,
            _ => (self.next() % 21) as i128 - 10,
        }
    }
}

/// Runs the program `runs` times with random inputs and checks every SAFE invariant whenever
/// execution reaches its statement; returns the number of checks made.
fn check_invariants_on_random_runs(name: &str, outcome: &CheckOutcome, runs: u32) -> u64 {
    check_invariants_on_random_runs_of(&lower(name), outcome, runs, &mut Random(0x9E37_79B9_7F4A_7C15))
}

fn check_invariants_on_random_runs_of(program: &Program, outcome: &CheckOutcome, runs: u32, random: &mut Random) -> u64 {
    assert_eq!(outcome.verdict, Verdict::Safe);
    assert!(!outcome.invariants.is_empty(), "a SAFE verdict reports invariants");
    let mut checks = 0u64;
    for _ in 0..runs {
        let mut feed = |_: &c_ir::Type| random.value();
        let mut violations = Vec::new();
        let mut observe = |at: c_ir::StmtRef, state: &c_ir::interp::State| {
            for inv in outcome.invariants.iter().filter(|i| i.at == at) {
                if let Some(v) = state.eval(&inv.formula) {
                    checks += 1;
                    if v == 0 {
                        violations.push(format!("line {}: {}", inv.line, inv.text));
                    }
                }
            }
        };
        let result = run_observed(program, &mut feed, &Limits::new(20_000), &mut observe);
        assert_ne!(result.outcome, c_ir::interp::Outcome::ReachedError, "a SAFE program reached its error");
        assert!(violations.is_empty(), "invariant violated: {violations:?}");
    }
    checks
}

fn assert_replays(name: &str, outcome: &CheckOutcome) {
    let cex = outcome.counterexample.as_ref().expect("UNSAFE has a counterexample");
    let program = lower(name);
    let replayed = concrete::replay_to_error(&program, &cex.inputs);
    assert!(replayed.is_ok(), "{replayed:?}");
    assert!(cex.steps.iter().all(|s| s.line > 0), "every step has a source line");
}

fn golden(name: &str, method: RefinementMethod, outcome: &CheckOutcome) {
    let stem = name.trim_end_matches(".c");
    let file = format!("{}/../../tests/cegar/{stem}.{}.summary", env!("CARGO_MANIFEST_DIR"), method.name());
    expect_test::expect_file![file].assert_eq(&summary(name, outcome));
}

#[test]
fn testdev_is_unsafe_through_two_opens_in_about_three_iterations() {
    for method in [RefinementMethod::Wp, RefinementMethod::Sp] {
        let outcome = run("testdev.c", method, 20);
        assert_eq!(outcome.verdict, Verdict::Unsafe, "{:?}", outcome.reason);
        assert!((2..=4).contains(&outcome.iterations.len()), "{} iterations", outcome.iterations.len());
        assert_replays("testdev.c", &outcome);
        // the error path opens the device twice (labels A and B) before the release at D
        let program = lower("testdev.c");
        let open = program.proc_by_name("testdev_open").expect("testdev_open");
        let opens = outcome.counterexample.as_ref().unwrap().steps.iter().filter(|s| s.at.proc == open && s.at.index == 0).count();
        assert_eq!(opens, 2);
        golden("testdev.c", method, &outcome);
    }
}

#[test]
fn testdev_fixed_is_safe_in_a_few_iterations_with_invariants() {
    for method in [RefinementMethod::Wp, RefinementMethod::Sp] {
        let outcome = run("testdev_fixed.c", method, 20);
        assert_eq!(outcome.verdict, Verdict::Safe, "{:?}", outcome.reason);
        assert!(outcome.iterations.len() <= 8, "{} iterations", outcome.iterations.len());
        assert!(check_invariants_on_random_runs("testdev_fixed.c", &outcome, 200) > 0);
        golden("testdev_fixed.c", method, &outcome);
    }
}

#[test]
fn loop_with_small_bound_is_unsafe_after_about_k_plus_one_iterations() {
    for method in [RefinementMethod::Wp, RefinementMethod::Sp] {
        let outcome = run("loop_k3.c", method, 20);
        assert_eq!(outcome.verdict, Verdict::Unsafe, "{:?}", outcome.reason);
        assert!((2..=5).contains(&outcome.iterations.len()), "{} iterations", outcome.iterations.len());
        assert_replays("loop_k3.c", &outcome);
        golden("loop_k3.c", method, &outcome);
    }
}

#[test]
fn loop_with_large_bound_stops_at_the_iteration_bound() {
    for method in [RefinementMethod::Wp, RefinementMethod::Sp] {
        // the loop alone, without the random concrete runs that would find the (reachable) error
        let mut config = Config::default_for_cli();
        config.loop_config.refinement = method;
        config.loop_config.max_iterations = 8;
        config.techniques = Techniques::textbook();
        let outcome = run_with("loop_k1000.c", &config);
        assert_eq!(outcome.verdict, Verdict::Unknown);
        assert_eq!(outcome.iterations.len(), 8);
        assert_eq!(outcome.loop_end.as_ref().and_then(|e| e.stop_reason()), Some(&verify::StopReason::IterationBound(8)));
        // every refinement made progress: one or more new predicates per iteration
        assert!(outcome.iterations.iter().all(|it| !it.new_predicates.is_empty()));
    }
}

#[test]
fn programs_without_input_are_decided_by_their_single_execution() {
    for method in [RefinementMethod::Wp, RefinementMethod::Sp] {
        // two rounds are far from enough to unroll 50 iterations of a hash
        let outcome = run_all("hash_safe.c", method, 2);
        assert_eq!(outcome.verdict, Verdict::Safe, "{:?}", outcome.reason);
        assert_eq!(outcome.decided_by, Some(Technique::SingleExecution), "{:?}", outcome.reason);
        // the states the execution passes through: main's entry and the loop head
        let texts: Vec<&str> = outcome.invariants.iter().map(|i| i.text.as_str()).collect();
        assert_eq!(texts.len(), 2, "{texts:?}");
        assert!(texts[1].contains("i >= 0 && i <= 50"), "{texts:?}");
        check_invariants_on_random_runs("hash_safe.c", &outcome, 10);
        let outcome = run_all("hash_unsafe.c", method, 2);
        assert_eq!(outcome.verdict, Verdict::Unsafe, "{:?}", outcome.reason);
        assert_eq!(outcome.decided_by, Some(Technique::SingleExecution), "{:?}", outcome.reason);
        assert_replays("hash_unsafe.c", &outcome);
    }
    // the loop alone stops at the bound
    let mut config = Config::default_for_cli();
    config.loop_config.max_iterations = 2;
    config.techniques = Techniques::textbook();
    let outcome = run_with("hash_safe.c", &config);
    assert_eq!(outcome.verdict, Verdict::Unknown);
}

#[test]
fn loop_with_holding_check_is_safe_and_invariants_hold() {
    for method in [RefinementMethod::Wp, RefinementMethod::Sp] {
        let outcome = run("loop_safe.c", method, 20);
        assert_eq!(outcome.verdict, Verdict::Safe, "{:?}", outcome.reason);
        assert!(check_invariants_on_random_runs("loop_safe.c", &outcome, 100) > 0);
        golden("loop_safe.c", method, &outcome);
    }
}

#[test]
fn input_dependent_bug_is_found_with_replayable_inputs() {
    for method in [RefinementMethod::Wp, RefinementMethod::Sp] {
        let outcome = run("nondet_unsafe.c", method, 20);
        assert_eq!(outcome.verdict, Verdict::Unsafe, "{:?}", outcome.reason);
        assert_replays("nondet_unsafe.c", &outcome);
        let inputs = &outcome.counterexample.as_ref().unwrap().inputs;
        assert_eq!(inputs[0], 7);
        assert!(inputs[1] > 7);
    }
}

#[test]
fn lock_discipline_is_safe_and_invariants_hold_on_random_runs() {
    let outcome = run("nondet_safe.c", RefinementMethod::Wp, 20);
    assert!(check_invariants_on_random_runs("nondet_safe.c", &outcome, 2000) > 1000);
}

#[test]
fn return_value_relation_uses_symbolic_constants() {
    for method in [RefinementMethod::Wp, RefinementMethod::Sp] {
        let outcome = run("call_return_safe.c", method, 20);
        assert_eq!(outcome.verdict, Verdict::Safe, "{:?}", outcome.reason);
        assert!(outcome.predicates.iter().any(|p| p.text.contains("'x")), "{:?}", outcome.predicates);
        assert!(check_invariants_on_random_runs("call_return_safe.c", &outcome, 1000) > 0);
        golden("call_return_safe.c", method, &outcome);
    }
}

#[test]
fn recursion_is_proved_with_affine_procedure_summaries() {
    for method in [RefinementMethod::Wp, RefinementMethod::Sp] {
        let outcome = run("recursive_sum_safe.c", method, 20);
        assert_eq!(outcome.verdict, Verdict::Safe, "{:?}", outcome.reason);
        let texts: Vec<&str> = outcome.predicates.iter().map(|p| p.text.as_str()).collect();
        assert!(texts.contains(&"m + n == add_return") || texts.contains(&"add_return == m + n"), "{texts:?}");
        assert!(check_invariants_on_random_runs("recursive_sum_safe.c", &outcome, 500) > 0);
        golden("recursive_sum_safe.c", method, &outcome);
    }
}

#[test]
fn polynomial_invariants_are_proved_once_products_are_distributed() {
    // x == y*y is inductive: its weakest precondition is the same polynomial after
    // distribution; without the polynomial normal form the solver runs out of time
    let outcome = run("odd_sums_safe.c", RefinementMethod::Wp, 20);
    assert_eq!(outcome.verdict, Verdict::Safe, "{:?}", outcome.reason);
    let texts: Vec<&str> = outcome.predicates.iter().map(|p| p.text.as_str()).collect();
    assert!(texts.contains(&"x == y * y"), "{texts:?}");
    assert!(check_invariants_on_random_runs("odd_sums_safe.c", &outcome, 500) > 0);
    golden("odd_sums_safe.c", RefinementMethod::Wp, &outcome);
}

#[test]
fn write_through_pointer_bug_is_found() {
    let outcome = run("pointer_unsafe.c", RefinementMethod::Wp, 20);
    assert_eq!(outcome.verdict, Verdict::Unsafe, "{:?}", outcome.reason);
    assert_replays("pointer_unsafe.c", &outcome);
}

#[test]
fn cancellation_stops_with_unknown() {
    let config = Config::default_for_cli();
    let outcome = check_source(&source_of("testdev.c"), "testdev.c", &config, &mut |_| {}, &|| true);
    assert_eq!(outcome.verdict, Verdict::Unknown);
    assert!(outcome.cancelled);
}

#[test]
fn recursive_calls_get_fresh_instances_and_the_bug_is_found() {
    for method in [RefinementMethod::Wp, RefinementMethod::Sp] {
        let outcome = run("recursion_unsafe.c", method, 20);
        assert_eq!(outcome.verdict, Verdict::Unsafe, "{:?}", outcome.reason);
        assert_replays("recursion_unsafe.c", &outcome);
        assert_eq!(outcome.counterexample.as_ref().unwrap().inputs, vec![2]);
    }
}

#[test]
fn user_predicates_are_used_from_the_first_iteration() {
    let program = lower("loop_safe.c");
    let main = program.proc_by_name("main").expect("main");
    let (set, diagnostics) = c_front::parse_predicates(&program, "main { i < 3, i == 3 }");
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    let mut config = Config::default_for_cli();
    config.techniques = Techniques::of(&[Technique::Cegar, Technique::Candidates]);
    config.loop_config.user_predicates = set;
    let outcome = run_with("loop_safe.c", &config);
    assert_eq!(outcome.verdict, Verdict::Safe);
    assert!(outcome.iterations[0].predicates_before.iter().any(|p| p.scope == Some(main) && p.text == "i < 3"));
}

#[test]
fn bugs_behind_long_loops_are_found_by_random_runs_over_all_magnitudes() {
    // the error needs more than 50000 loop iterations: beyond any iteration bound, and beyond
    // the short random runs with small inputs
    let source = "extern unsigned int __VERIFIER_nondet_uint(void);\nextern void reach_error(void);\nint main(void) {\n  unsigned int n = __VERIFIER_nondet_uint();\n  unsigned int i = 0;\n  while (i < n)\n    i = i + 1;\n  if (i > 50000)\n    reach_error();\n  return 0;\n}\n";
    let mut config = Config::default_for_cli();
    config.loop_config.max_iterations = 3;
    let outcome = check_source(source, "long_loop.c", &config, &mut |_| {}, &|| false);
    assert_eq!(outcome.verdict, Verdict::Unsafe, "{:?}", outcome.reason);
    assert_eq!(outcome.decided_by, Some(Technique::RandomRuns), "{:?}", outcome.reason);
    let cex = outcome.counterexample.as_ref().expect("counterexample");
    assert!(cex.inputs.first().is_some_and(|&n| n > 50000), "{:?}", cex.inputs);
    let (program, _) = c_front::lower(source, "long_loop.c", &c_front::LowerOptions::default());
    assert!(concrete::replay_to_error(&program.expect("lowered"), &cex.inputs).is_ok());
}

#[test]
fn random_runs_before_the_loop_find_bugs_behind_loops_over_large_arrays() {
    // copies of a 100000-element array, then a check of the first element: one run of about
    // 10^6 statements reaches the error, while the loop would unroll the copy loops one
    // iteration per refinement
    let source = "extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\nint main(void) {\n  int a[100000];\n  int b[100000];\n  int i;\n  for (i = 0; i < 100000; i++) { a[i] = __VERIFIER_nondet_int(); b[i] = __VERIFIER_nondet_int(); }\n  for (i = 0; i < 100000; i++) { if (a[i] != b[i]) reach_error(); }\n  return 0;\n}\n";
    let mut config = Config::default_for_cli();
    config.loop_config.max_iterations = 2;
    let outcome = check_source(source, "array_probe.c", &config, &mut |_| {}, &|| false);
    assert_eq!(outcome.verdict, Verdict::Unsafe, "{:?}", outcome.reason);
    assert_eq!(outcome.decided_by, Some(Technique::RandomRuns), "{:?}", outcome.reason);
    assert!(outcome.iterations.is_empty(), "decided before the loop started");
    let cex = outcome.counterexample.as_ref().expect("counterexample");
    assert_eq!(cex.inputs.len(), 200_000, "all inputs of the run are kept");
    assert_ne!(cex.inputs[0], cex.inputs[1], "a[0] != b[0] is the bug");
    // a trace of about 10^6 statements keeps its two ends
    let head = concrete::TRACE_HEAD as usize;
    assert_eq!(cex.steps.len(), head + concrete::TRACE_TAIL as usize + 1);
    assert!(cex.steps[head].statement.contains("statements not shown"), "{}", cex.steps[head].statement);
    assert!(cex.steps.last().is_some_and(|s| s.statement.contains("reach_error") || s.statement.contains("error")), "{:?}", cex.steps.last());
    let (program, _) = c_front::lower(source, "array_probe.c", &c_front::LowerOptions::default());
    let program = program.expect("lowered");
    assert!(concrete::replay_to_error(&program, &cex.inputs).is_ok());
    // the probe alone: short runs stop at the step limit, the fourth run is long enough
    let found = concrete::probe_for_error(&program, concrete::PROBE_LONG_RUN_EVERY, &|| false);
    assert!(found.is_some());
    assert!(concrete::probe_for_error(&program, concrete::PROBE_LONG_RUN_EVERY - 1, &|| false).is_none());
}

#[test]
fn the_magnitude_search_sweeps_every_magnitude_within_one_round() {
    // the error needs between 2^17 and 2^18 loop iterations: one round of 34 runs sweeps the
    // exponents in order, so it is reached however slow the machine is
    let source = "extern unsigned int __VERIFIER_nondet_uint(void);\nextern void reach_error(void);\nint main(void) {\n  unsigned int n = __VERIFIER_nondet_uint();\n  unsigned int i = 0;\n  while (i < n)\n    i = i + 1;\n  if (i > 131000 && i < 262150)\n    reach_error();\n  return 0;\n}\n";
    let (program, _) = c_front::lower(source, "band.c", &c_front::LowerOptions::default());
    let program = program.expect("lowered");
    let cex = concrete::random_search_for_error(&program, 34, concrete::RANDOM_RUN_STEP_LIMIT, concrete::InputDistribution::Magnitudes, &|| false)
        .expect("one round of the sweep reaches the band");
    assert!(cex.inputs.first().is_some_and(|&n| n > 131000 && n < 262150), "{:?}", cex.inputs);
}

#[test]
fn a_tight_cone_bound_gives_the_same_verdicts() {
    for name in ["call_return_safe.c", "loop_k3.c", "loop_safe.c", "nondet_safe.c", "nondet_unsafe.c", "pointer_unsafe.c", "recursion_unsafe.c", "testdev.c", "testdev_fixed.c"] {
        let mut unbounded = Config::default_for_cli();
        unbounded.loop_config.max_cone = None;
        let mut tight = Config::default_for_cli();
        tight.loop_config.max_cone = Some(1);
        let (a, b) = (run_with(name, &unbounded), run_with(name, &tight));
        assert_eq!(a.verdict, b.verdict, "{name}: {:?} / {:?}", a.reason, b.reason);
    }
}

#[test]
fn no_progress_widens_the_cone_bound_before_giving_up() {
    // recursion whose proof needs relations between call depths: refinement runs dry
    let source = "extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\nint fib(int n) {\n  if (n < 1) return 0;\n  if (n == 1) return 1;\n  return fib(n - 1) + fib(n - 2);\n}\nint main(void) {\n  int x = __VERIFIER_nondet_int();\n  if (x < 0 || x > 3) return 0;\n  int r = fib(x);\n  if (r > 2) reach_error();\n  return 0;\n}\n";
    let mut config = Config::default_for_cli();
    config.loop_config.max_cone = Some(4);
    config.random_runs = 0;
    let outcome = check_source(source, "fib.c", &config, &mut |_| {}, &|| false);
    assert_eq!(outcome.verdict, Verdict::Unknown);
    assert_eq!(outcome.loop_end.as_ref().and_then(|e| e.stop_reason()), Some(&verify::StopReason::NoProgress), "{:?}", outcome.reason);
    let notes: Vec<&String> = outcome.iterations.iter().filter_map(|it| it.feasibility.as_ref()).flat_map(|f| &f.notes).filter(|n| n.contains("cone bound")).collect();
    assert_eq!(
        notes.iter().map(|n| n.as_str()).collect::<Vec<_>>(),
        [
            "no new predicates: the cone bound goes from 4 to 8 predicates",
            "no new predicates: the cone bound goes from 8 to 16 predicates",
            "no new predicates: the cone bound goes from 16 to 32 predicates",
            "no new predicates: the cone bound of 32 predicates is lifted",
        ]
    );
    // the last iteration, with the full cone, is the one that gives up
    assert!(outcome.iterations.last().is_some_and(|it| it.new_predicates.is_empty()));
}

/// Without loop-invariant candidates (and without the concrete fallbacks) 12 iterations of
/// refinement do not decide `name`.
fn assert_unknown_without_candidates(name: &str, method: RefinementMethod) {
    let mut config = Config::default_for_cli();
    config.loop_config.refinement = method;
    config.loop_config.max_iterations = 12;
    config.techniques = Techniques::textbook();
    let without = run_with(name, &config);
    assert_eq!(without.verdict, Verdict::Unknown, "{name}, {method:?}: {:?}", without.reason);
}

#[test]
fn affine_loop_invariants_prove_what_unrolling_cannot() {
    for method in [RefinementMethod::Wp, RefinementMethod::Sp] {
        let outcome = run("stock_safe.c", method, 12);
        assert_eq!(outcome.verdict, Verdict::Safe, "{method:?}: {:?}", outcome.reason);
        assert!(check_invariants_on_random_runs("stock_safe.c", &outcome, 200) > 0);
        let notes: Vec<&String> = outcome.iterations.iter().filter_map(|it| it.feasibility.as_ref()).flat_map(|f| &f.notes).collect();
        assert!(outcome.predicates.iter().any(|p| matches!(p.origin, cegar::PredicateOrigin::Candidate { .. })), "{notes:?}");
        golden("stock_safe.c", method, &outcome);
        // without the candidates the refinement unrolls the loops one iteration at a time
        assert_unknown_without_candidates("stock_safe.c", method);
    }
}

#[test]
fn stride_congruences_prove_parity_facts() {
    for method in [RefinementMethod::Wp, RefinementMethod::Sp] {
        let outcome = run("stride_safe.c", method, 12);
        assert_eq!(outcome.verdict, Verdict::Safe, "{method:?}: {:?}", outcome.reason);
        assert_eq!(outcome.invariant_source, InvariantSource::BooleanProgram);
        assert!(check_invariants_on_random_runs("stride_safe.c", &outcome, 200) > 0);
        let found: Vec<&str> = outcome.iterations.iter().flat_map(|it| &it.new_predicates).map(|p| p.text.as_str()).collect();
        assert!(found.contains(&"a % 8 == 0") && found.contains(&"c % 2 == 0"), "{method:?}: {found:?}");
        assert_unknown_without_candidates("stride_safe.c", method);
    }
}

#[test]
fn calls_through_function_pointers_are_checked() {
    for method in [RefinementMethod::Wp, RefinementMethod::Sp] {
        let outcome = run_all("fnptr_dispatch.c", method, 20);
        assert_eq!(outcome.verdict, Verdict::Unsafe, "{method:?}: {:?}", outcome.reason);
        assert_replays("fnptr_dispatch.c", &outcome);
        // the failing check is the second one: r = n + 1 > 11
        let cex = outcome.counterexample.as_ref().expect("counterexample");
        let n = *cex.inputs.first().expect("an input");
        assert!((11..=100).contains(&n), "{method:?}: n = {n}");
    }
    // without the second check the program is safe
    let safe = source_of("fnptr_dispatch.c").replace("if (r > 11) {", "if (r > 101) {");
    let outcome = check_source(&safe, "fnptr_dispatch.c", &Config::default_for_cli(), &mut |_| {}, &|| false);
    assert_eq!(outcome.verdict, Verdict::Safe, "{:?}", outcome.reason);
}

#[test]
fn caller_variables_passed_by_address_are_named_through_symbolic_constants() {
    let name = "copy_through_pointers_safe.c";
    for method in [RefinementMethod::Wp, RefinementMethod::Sp] {
        let outcome = run(name, method, 12);
        assert_eq!(outcome.verdict, Verdict::Safe, "{method:?}: {:?}", outcome.reason);
        assert_eq!(outcome.invariant_source, InvariantSource::BooleanProgram, "{:?}", outcome.reason);
        assert!(outcome.predicates.iter().any(|p| p.text.contains("*'dst") && p.text.contains("*'src")), "{:?}", outcome.predicates.iter().map(|p| &p.text).collect::<Vec<_>>());
        check_invariants_on_random_runs(name, &outcome, 500);
    }
}
