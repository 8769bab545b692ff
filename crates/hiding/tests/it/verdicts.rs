//! Verdicts side by side on the examples, with the verification engine (`verify`, as the CLI
//! uses it): the expected pair for each `--check` example, the replay of a hidden
//! counterexample on the original, and the localization refinement resolving the spurious
//! case.

use crate::{analysis, read_fixture};
use hiding::replay::{self, Replay};
use hiding::transform::{transform, NondetStyle, TransformOptions, Transformed};
use hiding::{Analysis, VarId};

struct Checked {
    verdict: String,
    counterexample: Option<(Vec<i128>, Vec<u32>)>,
}

fn check(text: &str) -> Checked {
    let mut config = verify::Config::default_for_cli();
    config.time_budget_ms = Some(20_000);
    let outcome = verify::check_source(text, "t.c", &config, &mut |_| {}, &|| false);
    Checked { verdict: format!("{:?}", outcome.verdict).to_uppercase(), counterexample: outcome.counterexample.map(|c| (c.inputs, c.steps.iter().map(|s| s.line).collect())) }
}

fn hidden_program(a: &Analysis) -> Transformed {
    transform(&a.program, &a.source, &a.hidden, TransformOptions { nondet: NondetStyle::Call, ..Default::default() })
}

/// (original verdict, hidden verdict, replay of the hidden counterexample).
fn pair(c: &str, abs: &str) -> (String, String, Option<Replay>) {
    let mut a = analysis(c, abs);
    a.closure();
    let original = check(&a.source);
    let t = hidden_program(&a);
    let hidden = check(&t.text);
    let replay = hidden.counterexample.as_ref().map(|(inputs, _)| {
        let split = replay::split_inputs(&t.text, &t.nondets, inputs).expect("the hidden program lowers");
        replay::replay_original(&a.source, c, &split.original)
    });
    (original.verdict, hidden.verdict, replay)
}

#[test]
fn check_gives_the_expected_verdict_pairs() {
    let (o, h, r) = pair("spurious.c", "spurious.abs");
    assert_eq!((o.as_str(), h.as_str()), ("SAFE", "UNSAFE"));
    assert!(matches!(r, Some(Replay::NoError(_))), "{r:?}");

    let (o, h, r) = pair("real_bug.c", "real_bug.abs");
    assert_eq!((o.as_str(), h.as_str()), ("UNSAFE", "UNSAFE"));
    assert_eq!(r, Some(Replay::ReachesError));

    let (o, h, r) = pair("pointer_chain.c", "pointer_chain.abs");
    assert_eq!((o.as_str(), h.as_str(), r), ("SAFE", "SAFE", None));
}

/// The CLI's `--refine-hiding` loop, on the library.
fn refine(c: &str) -> (String, Vec<Vec<VarId>>, Analysis) {
    let source = read_fixture(c);
    let start = Analysis::new(&source, c, "", Default::default()).unwrap();
    let property = start.property_variables();
    let mut initial: Vec<VarId> = start.hideable_variables().into_iter().filter(|v| !property.contains(v)).collect();
    let mut rounds = Vec::new();
    for _ in 0..8 {
        rounds.push(initial.clone());
        let mut a = Analysis::from_program(&source, start.program.clone(), Vec::new(), initial.clone(), Vec::new(), Default::default());
        a.closure();
        let t = hidden_program(&a);
        let result = check(&t.text);
        match (result.verdict.as_str(), result.counterexample) {
            ("UNSAFE", Some((inputs, lines))) => {
                let split = replay::split_inputs(&t.text, &t.nondets, &inputs).unwrap();
                if replay::replay_original(&source, c, &split.original) == Replay::ReachesError {
                    return ("UNSAFE".into(), rounds, a);
                }
                let next = a.unhide(&replay::refinement_candidates(&t, &lines));
                initial = if next.len() < initial.len() { next } else { Vec::new() };
            }
            (v, _) => return (v.to_string(), rounds, a),
        }
    }
    ("UNKNOWN".into(), rounds, start)
}

#[test]
fn refine_hiding_resolves_the_spurious_case() {
    // the spurious example: `a` is the property's variable, `n` is hidden first, `a` stays
    let (verdict, rounds, last) = refine("spurious.c");
    assert_eq!(verdict, "SAFE");
    assert_eq!(last.abstraction_file(), "main n\n");
    assert_eq!(rounds.len(), 1);
    // the driver: the first round hides `mode` (status is copied from it) and fails
    // spuriously; un-hiding status and mode proves it with requests and budget hidden
    let (verdict, rounds, last) = refine("driver.c");
    assert_eq!(verdict, "SAFE");
    assert_eq!(rounds.len(), 2, "{rounds:?}");
    let names: Vec<String> = last.hidden_in_file_order().iter().map(|v| last.program.describe(*v)).collect();
    assert!(names.contains(&"(global) requests".to_string()) && names.contains(&"(global) budget".to_string()), "{names:?}");
    assert!(!names.contains(&"main status".to_string()), "{names:?}");
}
