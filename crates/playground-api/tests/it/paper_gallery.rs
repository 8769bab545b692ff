//! Issue 30's gallery entries and options: each lab note's claims checked against the tool
//! under the example's settings; the pushdown view of Boolean program mode; Abstract mode on a
//! program without `main`; the papers' conventions as options.

use super::{example_request, request};
use playground_api::{examples, run, Integers, Mode, Syntax, Technique, Verdict};

fn outcome_of(id: &str) -> playground_api::Outcome {
    let example = examples::by_id(id).unwrap_or_else(|| panic!("no example {id}"));
    run(&example_request(example), &mut |_| {}, &|| false)
}

fn program_text(o: &playground_api::Outcome) -> String {
    o.iterations.last().map(|i| i.boolean_program.text.clone()).unwrap_or_default()
}

/// Called from `lab_notes_agree_with_the_tool_under_their_settings`.
pub(crate) fn issue_30_notes_agree() {
    // inc / foo, monomorphic: a predicate per value, the shift, the invariant at L1
    let mono = outcome_of("inc-foo-mono");
    assert_eq!(mono.verdict, Verdict::Safe, "{}", mono.reason);
    assert!(program_text(&mono).contains("{x == 2}, {x == 3}, {x == 4} := choose(0, "), "{}", program_text(&mono));
    let l1 = mono.invariants.iter().find(|i| i.procedure == "foo" && i.location == "at L1").map(|i| i.formula.clone()).unwrap_or_default();
    assert!(l1.contains("{a == 2} && {b == 3} && {c == 4}"), "{l1}");
    // swap: the added predicates and main's update
    let swap = outcome_of("swap");
    assert_eq!(swap.verdict, Verdict::Safe, "{}", swap.reason);
    let text = program_text(&swap);
    for p in ["{*'p == '*p}", "{p == 'p}", "{*'q == '*q}", "{q == 'q}", "choose({y == 5} & ret1 | {x == 5} & ret3, "] {
        assert!(text.contains(p), "swap: {p} in\n{text}");
    }
    // '*p vs *'p
    let inc = outcome_of("inc-deref");
    assert_eq!(inc.verdict, Verdict::Safe, "{}", inc.reason);
    let text = program_text(&inc);
    for p in ["{*'p == '*p}", "{p == 'p}", "choose({x == 1} & ret1 | {x == 2} & ret2, "] {
        assert!(text.contains(p), "inc-deref: {p} in\n{text}");
    }
    // the struct counter: SAFE by the loop in 4 iterations, bump's predicates through c
    let counter = outcome_of("struct-counter");
    assert_eq!(counter.verdict, Verdict::Safe, "{}", counter.reason);
    assert_eq!(counter.decided_by, Some(Technique::Cegar));
    assert_eq!(counter.iterations.len(), 4);
    let texts: Vec<&str> = counter.predicates.iter().map(|p| p.text.as_str()).collect();
    assert!(texts.contains(&"c->value > c->limit") && texts.contains(&"'c->value > 'c->limit"), "{texts:?}");
    assert!(counter.invariants.iter().any(|i| i.procedure == "main" && i.formula == "k.value <= k.limit"), "{:?}", counter.invariants);
}

#[test]
fn abstract_mode_on_partition_has_no_missing_main_warning() {
    let outcome = outcome_of("partition");
    assert!(outcome.diagnostics.iter().all(|d| !d.message.contains("main")), "{:?}", outcome.diagnostics);
    assert_eq!(outcome.verdict, Verdict::Safe, "{}", outcome.reason);
}

#[test]
fn boolean_program_mode_shows_the_pushdown_system_and_post_star() {
    let outcome = outcome_of("boolean-program");
    let view = outcome.iterations[0].pushdown.as_ref().expect("a pushdown view");
    assert!(view.note.is_empty(), "{}", view.note);
    assert!(view.rules.contains("control locations g = (") && view.rules.contains("rules"), "{}", view.rules);
    assert!(!view.points.is_empty());
    // every point has its line and its heads; main's entry is reachable
    assert!(view.points.iter().filter(|p| !p.name.ends_with("_end")).all(|p| p.line.is_some()), "{:?}", view.points);
    let entry = view.points.iter().find(|p| p.name == "main_0").expect("main_0");
    assert_ne!(entry.heads, "false");
}

#[test]
fn abstract_mode_prints_c2bp_syntax_and_takes_the_integer_semantics() {
    let example = examples::by_id("partition").expect("partition");
    let mut req = example_request(example);
    req.options.syntax = Syntax::C2bp;
    let outcome = run(&req, &mut |_| {}, &|| false);
    let text = program_text(&outcome);
    assert!(!text.contains("begin") && text.contains("partition("), "{text}");
    // polymorphic §4.3 with ideal integers: the paper's choose({x == 2}, !{x < 5})
    let increment = examples::by_id("increment").expect("increment");
    let mut req = request(Mode::Abstract, increment.source, increment.predicates);
    req.options.integers = Integers::Ideal;
    let ideal = program_text(&run(&req, &mut |_| {}, &|| false));
    assert!(ideal.contains("choose({x == 2}, !{x < 5})"), "{ideal}");
    req.options.integers = Integers::Wrap;
    let wrap = program_text(&run(&req, &mut |_| {}, &|| false));
    assert!(!wrap.contains("choose({x == 2}, !{x < 5})"), "{wrap}");
}
