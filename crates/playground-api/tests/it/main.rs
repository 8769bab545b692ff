//! End-to-end runs of the façade: every gallery example gives its expected verdict, and bad
//! input comes back as diagnostics with line and column.

mod report;
mod hide_shape;
mod lab;

mod paper_gallery;
mod table2_gallery;
use playground_api::{examples, run, Event, Mode, Options, Request, Verdict};

fn request(mode: Mode, source: &str, predicates: &str) -> Request {
    Request {
        mode,
        source: source.to_string(),
        file_name: "input.c".to_string(),
        predicates: predicates.to_string(),
        options: Options { timeout_ms: 120_000, ..Options::default() },
    }
}

/// The request an example makes with the settings its lab note assumes.
fn example_request(example: &examples::Example) -> Request {
    let mut req = request(example.mode, example.source, example.predicates);
    req.options.techniques = example.techniques.to_vec();
    req.options.refine = example.refine;
    req
}

fn run_example(id: &str) -> playground_api::Outcome {
    let example = examples::by_id(id).unwrap_or_else(|| panic!("no example {id}"));
    let mut events = Vec::new();
    let outcome = run(&example_request(example), &mut |e| events.push(e), &|| false);
    assert!(matches!(events.last(), Some(Event::Done { .. })), "{id}: the last event is Done");
    assert!(
        outcome.diagnostics.iter().all(|d| d.severity != playground_api::Severity::Error),
        "{id}: {:?}",
        outcome.diagnostics
    );
    outcome
}

#[test]
fn gallery_examples_give_their_verdicts() {
    let expected = [
        ("testdev", Verdict::Unsafe),
        ("testdev-fixed", Verdict::Safe),
        ("partition", Verdict::Safe),
        ("foo-bar", Verdict::Safe),
        ("inc-foo-poly", Verdict::Safe),
        ("increment", Verdict::Safe),
        ("counting-loop", Verdict::Safe),
        ("mark", Verdict::Safe),
        ("lock", Verdict::Safe),
        ("driver-state", Verdict::Unsafe),
        ("boolean-program", Verdict::Unsafe),
        ("inc-foo-mono", Verdict::Safe),
        ("swap", Verdict::Safe),
        ("inc-deref", Verdict::Safe),
        ("struct-counter", Verdict::Safe),
        ("kmp", Verdict::Safe),
        ("qsort", Verdict::Unknown),
        ("listfind", Verdict::Safe),
        ("reverse", Verdict::Unknown),
    ];
    // Hide and Shape examples are checked by `hide_shape` (they do not run through `run`)
    let runnable = examples::ALL.iter().filter(|e| !matches!(e.mode, Mode::Hide | Mode::Shape)).count();
    assert_eq!(expected.len(), runnable, "every example has an expectation");
    for (id, verdict) in expected {
        let outcome = run_example(id);
        assert_eq!(outcome.verdict, verdict, "{id}: {}", outcome.reason);
        assert!(!outcome.iterations.is_empty(), "{id}: at least one iteration is recorded");
        assert!(!outcome.iterations[0].boolean_program.text.is_empty(), "{id}: a boolean program is shown");
        if verdict == Verdict::Unsafe && examples::by_id(id).map(|e| e.mode) == Some(Mode::Check) {
            assert!(!outcome.trace.is_empty(), "{id}: an UNSAFE verdict has a C trace");
        }
    }
}

#[test]
fn check_mode_counterexamples_are_structured_steps() {
    let outcome = run_example("testdev");
    let it = outcome.iterations.iter().find(|it| !it.abstract_trace.is_empty()).expect("a refined iteration");
    let source = examples::by_id("testdev").expect("testdev").source;
    // every step names its procedure and boolean line, most map to a C line, and all carry the
    // valuation of the boolean variables in scope
    assert!(it.abstract_trace.iter().all(|s| !s.procedure.is_empty() && !s.procedure.contains('#')));
    assert!(it.abstract_trace.iter().filter(|s| s.bp_line.is_some()).count() * 2 > it.abstract_trace.len());
    let mapped: Vec<u32> = it.abstract_trace.iter().filter_map(|s| s.c_line).collect();
    assert!(!mapped.is_empty());
    assert!(mapped.iter().all(|&l| l >= 1 && (l as usize) <= source.lines().count()));
    assert!(it.abstract_trace.iter().any(|s| !s.valuation.is_empty()));
    // the step's text is its boolean line with the boolean variables named over the source
    // (`{inode_main.i_rdev >> 8 == major}` is `{main::inode.i_rdev >> 8 == major}`)
    let skeleton = |line: &str| -> String {
        let mut depth = 0;
        line.chars()
            .filter(|&c| {
                let inside = depth > 0 || c == '{';
                depth += (c == '{') as i32 - (c == '}') as i32;
                !inside || c == '{'
            })
            .collect()
    };
    let bp_lines: Vec<&str> = it.boolean_program.text.lines().collect();
    for step in &it.abstract_trace {
        if let Some(l) = step.bp_line {
            assert_eq!(skeleton(bp_lines[l as usize - 1].trim()), skeleton(&step.statement), "{}", step.statement);
        }
    }
}

#[test]
fn partition_invariant_at_label_l_is_c2bps() {
    let outcome = run_example("partition");
    let at_l = outcome.invariants.iter().find(|i| i.location == "at L").expect("an invariant at label L");
    assert_eq!(at_l.formula, "!{curr == NULL} && {curr->val > v} && (!{prev->val > v} || {prev == NULL})");
}

#[test]
fn boolean_lines_link_to_c_lines() {
    let outcome = run_example("partition");
    let bp = &outcome.iterations[0].boolean_program;
    let source = examples::PARTITION;
    let (index, _) = bp.text.lines().enumerate().find(|(_, l)| l.contains("{prev == NULL}, {prev->val > v} := {curr == NULL}")).expect("prev = curr");
    let c_line = bp.c_lines[index].expect("linked to C");
    assert_eq!(source.lines().nth(c_line as usize - 1).map(str::trim), Some("prev = curr;"));
}

#[test]
fn explanations_record_the_lattice_of_prev_eq_curr() {
    let example = examples::by_id("partition").expect("partition");
    let mut req = request(Mode::Abstract, example.source, example.predicates);
    req.options.strategy = playground_api::Strategy::Lattice;
    let outcome = run(&req, &mut |_| {}, &|| false);
    let explanation = outcome.iterations[0].explanation.as_ref().expect("explanations are recorded by default");
    let statement = explanation.statements.iter().find(|s| s.c_statement == "prev = curr;").expect("prev = curr explained");
    let prev_null = statement.predicates.iter().find(|p| p.predicate == "{prev == NULL}").expect("{prev == NULL}");
    assert_eq!(prev_null.assigned, "choose({curr == NULL}, !{curr == NULL})");
    assert_eq!(prev_null.wp_simplified, "curr == NULL");
    let implied: Vec<_> = prev_null.positive.cubes.iter().filter(|c| c.outcome == "implies").collect();
    assert_eq!(implied.len(), 1);
    assert_eq!(implied[0].literals, vec![("{curr == NULL}".to_string(), true)]);
    assert!(prev_null.positive.cubes.iter().any(|c| c.outcome == "implies_negation"));
}

#[test]
fn syntax_errors_come_back_with_line_and_column() {
    let outcome = run(&request(Mode::Check, "int main() {\n  int x = 1\n  return x;\n}\n", ""), &mut |_| {}, &|| false);
    assert_eq!(outcome.verdict, Verdict::Unknown);
    let error = outcome.diagnostics.iter().find(|d| d.severity == playground_api::Severity::Error).expect("an error");
    assert_eq!(error.line, 3, "{error:?}");
    assert!(error.rendered.contains("input.c:3:"), "{}", error.rendered);
}

#[test]
fn boolean_programs_name_the_reached_error_label() {
    let source = "void main()\nbegin\n  decl a;\n  a := * constrain !'a;\n  if (a) then ERROR: skip; fi\n  if (!a) then SLIC_ERROR: skip; fi\nend\n";
    let outcome = run(&request(Mode::BooleanProgram, source, ""), &mut |_| {}, &|| false);
    assert_eq!(outcome.verdict, Verdict::Unsafe, "{:?}", outcome.diagnostics);
    assert_eq!(outcome.reason, "the error label `SLIC_ERROR` is reachable");
    let safe = source.replace("SLIC_ERROR: ", "");
    let outcome = run(&request(Mode::BooleanProgram, &safe, ""), &mut |_| {}, &|| false);
    assert_eq!(outcome.verdict, Verdict::Safe, "{:?}", outcome.diagnostics);
}

#[test]
fn boolean_programs_can_name_their_own_target_label() {
    // Moped and Getafix ask whether a named label is reachable.
    let source = "decl g;\nvoid main()\nbegin\n  g := *;\n  if (g) then target: skip; fi\nend\n";
    let plain = run(&request(Mode::BooleanProgram, source, ""), &mut |_| {}, &|| false);
    assert_eq!(plain.verdict, Verdict::Safe, "{:?}", plain.diagnostics);
    let mut req = request(Mode::BooleanProgram, source, "");
    req.options.error_labels = vec!["target".into()];
    let outcome = run(&req, &mut |_| {}, &|| false);
    assert_eq!(outcome.verdict, Verdict::Unsafe, "{:?}", outcome.diagnostics);
    assert_eq!(outcome.reason, "the error label `target` is reachable");
    let unreachable = source.replace("g := *;", "g := F;");
    let mut req = request(Mode::BooleanProgram, &unreachable, "");
    req.options.error_labels = vec!["target".into()];
    assert_eq!(run(&req, &mut |_| {}, &|| false).verdict, Verdict::Safe);
}

#[test]
fn broken_predicates_are_diagnosed() {
    let outcome = run(&request(Mode::Abstract, examples::PARTITION, "partition { curr == }"), &mut |_| {}, &|| false);
    assert_eq!(outcome.verdict, Verdict::Unknown);
    assert!(outcome.diagnostics.iter().any(|d| d.origin == "predicates" && d.severity == playground_api::Severity::Error));
}

#[test]
fn cancellation_stops_a_run() {
    let example = examples::by_id("testdev").expect("testdev");
    let outcome = run(&request(Mode::Check, example.source, ""), &mut |_| {}, &|| true);
    assert_eq!(outcome.verdict, Verdict::Unknown);
}

#[test]
fn invariants_say_where_they_come_from() {
    // one iteration cannot prove the loop; the difference-bound analysis does
    let source = "extern int __VERIFIER_nondet_int(void); extern void reach_error(void);
        int main() { int m = __VERIFIER_nondet_int(); if (m <= 0 || m >= 1000) return 0;
          int i = 0; int j = m; while (i < m) { if (i > j) reach_error(); i++; } return 0; }";
    let mut req = request(Mode::Check, source, "");
    req.options.max_iterations = 1;
    req.options.timeout_ms = 4000;
    let outcome = run(&req, &mut |_| {}, &|| false);
    assert_eq!(outcome.verdict, Verdict::Safe, "{}", outcome.reason);
    assert_eq!(outcome.invariant_source, "difference_bounds");
    assert!(outcome.invariants.iter().any(|i| i.formula.contains("i <= j")), "{:?}", outcome.invariants);
    // the boolean program proves testdev's fixed version itself
    let fixed = run_example("testdev-fixed");
    assert_eq!(fixed.verdict, Verdict::Safe);
    assert_eq!(fixed.invariant_source, "boolean_program");
}

fn lattice_run(id: &str) -> playground_api::Outcome {
    let example = examples::by_id(id).unwrap_or_else(|| panic!("no example {id}"));
    let mut req = request(Mode::Abstract, example.source, example.predicates);
    req.options.strategy = playground_api::Strategy::Lattice;
    run(&req, &mut |_| {}, &|| false)
}

#[test]
fn increment_lattice_proves_x_lt_5_from_x_eq_2() {
    let outcome = lattice_run("increment");
    let explanation = outcome.iterations[0].explanation.as_ref().expect("explanations");
    let statement = explanation.statements.iter().find(|s| s.c_statement == "x = x + 1;").expect("x = x + 1 explained");
    let lt5 = statement.predicates.iter().find(|p| p.predicate == "{x < 5}").expect("{x < 5}");
    let implied: Vec<_> = lt5.positive.cubes.iter().filter(|c| c.outcome == "implies").collect();
    assert!(implied.iter().any(|c| c.literals == vec![("{x == 2}".to_string(), true)]), "{implied:?}");
    assert_eq!(lt5.positive.goal_result, "{x == 2}");
    assert!(lt5.assigned.starts_with("choose({x == 2}, "), "{}", lt5.assigned);
}

#[test]
fn solver_log_names_the_statement_and_predicate_of_each_query() {
    let outcome = lattice_run("partition");
    let explanation = outcome.iterations[0].explanation.as_ref().expect("explanations");
    assert!(!explanation.solver_log.is_empty());
    for q in &explanation.solver_log {
        let statement = &explanation.statements[q.statement as usize];
        assert!(statement.predicates.iter().any(|p| p.predicate == q.predicate), "{q:?}");
    }
    assert!((0.0..=1.0).contains(&explanation.cache_hit_rate));
}

#[test]
fn wp_feasibility_rows_name_their_column_and_mark_the_contradiction() {
    let outcome = run_example("testdev");
    let spurious = outcome.iterations.iter().find(|it| it.feasibility_kind == playground_api::FeasibilityKind::Infeasible).expect("a spurious counterexample");
    assert_eq!(spurious.feasibility_method, "wp");
    let rows: Vec<_> = spurious.feasibility_table.iter().filter(|r| r.contradiction).collect();
    assert!(!rows.is_empty());
    // one column per condition thread, as in BOOP Fig 7.3
    assert!(spurious.feasibility_table.iter().flat_map(|r| &r.columns).all(|(name, _)| name.starts_with("thread ")));
    assert!(spurious.feasibility_table.iter().flat_map(|r| &r.columns).any(|(name, _)| name == "thread 1"));
    // the row named by "infeasible at path step N" is a contradiction row
    let step = spurious.infeasible_step.expect("the step where the path becomes infeasible");
    assert!(spurious.feasibility_table.iter().any(|r| r.step == step && r.contradiction), "step {step}");
    assert_eq!(spurious.feasibility_kind, playground_api::FeasibilityKind::Infeasible);
}

#[test]
fn unsafe_inputs_replay_independently_and_wrong_inputs_do_not() {
    let example = examples::by_id("driver-state").expect("driver-state");
    let req = request(Mode::Check, example.source, "");
    let outcome = run(&req, &mut |_| {}, &|| false);
    assert_eq!(outcome.verdict, Verdict::Unsafe, "{}", outcome.reason);
    let steps = playground_api::replay_inputs(&req, &outcome.inputs).expect("the reported inputs reach the error");
    assert!(steps > 0, "the replayed trace has steps");
    // every input zero does not reach the error in this example (retries must exceed 1)
    let zeros = vec!["0".to_string(); outcome.inputs.len()];
    assert!(playground_api::replay_inputs(&req, &zeros).is_err(), "zero inputs must not reach the error");
    assert!(playground_api::replay_inputs(&req, &["x".to_string()]).is_err(), "a non-integer input is refused");
    let broken = request(Mode::Check, "int main( { return 0; }", "");
    assert!(playground_api::replay_inputs(&broken, &[]).is_err(), "a program with errors is not replayed");
}

#[test]
fn lab_notes_agree_with_the_tool_under_their_settings() {
    // counting loop, NEWTON, K = 4: one value of i per iteration
    let example = examples::by_id("counting-loop").expect("counting-loop");
    let outcome = run(&example_request(example), &mut |_| {}, &|| false);
    assert_eq!(outcome.verdict, Verdict::Safe, "{}", outcome.reason);
    assert_eq!(outcome.iterations.len(), 4);
    assert_eq!(outcome.decided_by, Some(playground_api::Technique::Cegar));
    let texts: Vec<&str> = outcome.predicates.iter().map(|p| p.text.as_str()).collect();
    for i in 0..4 {
        assert!(texts.contains(&format!("i == {i}").as_str()), "{texts:?}");
    }
    // K = 100 with the iteration bound at 10: UNKNOWN at the bound
    let mut req = example_request(example);
    req.source = req.source.replace("#define K 4", "#define K 100");
    req.options.max_iterations = 10;
    let outcome = run(&req, &mut |_| {}, &|| false);
    assert_eq!(outcome.verdict, Verdict::Unknown, "{}", outcome.reason);
    assert_eq!(outcome.iterations.len(), 10);
    assert!(outcome.reason.contains("iteration bound"), "{}", outcome.reason);
    // then wp: SAFE after 3 iterations with i + 1 >= K
    req.options.refine = playground_api::RefineMethod::Wp;
    let outcome = run(&req, &mut |_| {}, &|| false);
    assert_eq!(outcome.verdict, Verdict::Safe, "{}", outcome.reason);
    assert_eq!(outcome.iterations.len(), 3);
    assert!(outcome.predicates.iter().any(|p| p.text == "i + 1 >= 100"), "{:?}", outcome.predicates);
    // the portfolio decides at once and names the technique
    req.options.techniques = playground_api::Technique::ALL.to_vec();
    let outcome = run(&req, &mut |_| {}, &|| false);
    assert_eq!(outcome.verdict, Verdict::Safe, "{}", outcome.reason);
    assert!(outcome.decided_by.is_some());
    // every Check example of the gallery runs the textbook loop: the verdict is the loop's
    for example in examples::ALL.iter().filter(|e| e.mode == Mode::Check) {
        let outcome = run(&example_request(example), &mut |_| {}, &|| false);
        assert_eq!(outcome.decided_by, Some(playground_api::Technique::Cegar), "{}: {}", example.id, outcome.reason);
        assert!(!outcome.iterations.is_empty(), "{}", example.id);
        if example.id == "testdev-fixed" {
            // the invariants its note names
            let at = |procedure: &str| outcome.invariants.iter().find(|i| i.procedure == procedure && i.location == "at entry").map(|i| i.formula.clone()).unwrap_or_default();
            assert!(at("unregister_chrdev").split(" && ").any(|c| c == "usecount == 0"), "{}", at("unregister_chrdev"));
            assert!(at("testdev_read").split(" && ").any(|c| c == "usecount - 1 == 0"), "{}", at("testdev_read"));
        }
    }
    // issue 30's entries (swap, '*p vs *'p, inc/foo monomorphic, the struct counter)
    paper_gallery::issue_30_notes_agree();
    // C2BP Table 2: kmp, qsort, listfind, reverse (mark with h/hnext), the paper's rows beside ours
    table2_gallery::table_2_notes_agree();
}
