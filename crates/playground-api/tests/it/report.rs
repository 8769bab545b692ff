//! The explained refinement and the exported report, on the gallery's testdev (BOOP ch. 3).

use playground_api::refinement::{explain_refinement, iteration_diff, DiffLine};
use playground_api::report::report_html;
use playground_api::{examples, run, Mode, Options, Request, Technique, Verdict};

fn textbook_testdev() -> (Request, playground_api::Outcome) {
    let example = examples::by_id("testdev").expect("testdev is in the gallery");
    let request = Request {
        mode: Mode::Check,
        source: example.source.to_string(),
        file_name: "testdev.c".to_string(),
        predicates: String::new(),
        options: Options { techniques: vec![Technique::Cegar], timeout_ms: 120_000, ..Options::default() },
    };
    let outcome = run(&request, &mut |_| {}, &|| false);
    (request, outcome)
}

#[test]
fn the_second_refinement_of_testdev_is_explained_by_the_lock() {
    let (_, outcome) = textbook_testdev();
    assert_eq!(outcome.verdict, Verdict::Unsafe);
    assert_eq!(outcome.iterations.len(), 3);
    let second = explain_refinement(&outcome.iterations[1]).expect("iteration 2 is refuted");
    assert_eq!(second.c_line, Some(59));
    assert!(second.conditions.iter().all(|(_, text)| text == "locked != 0"), "{:?}", second.conditions);
    let sentence = second.sentence();
    assert!(sentence.contains("`locked != 0`, become"), "{sentence}");
    assert!(sentence.contains("at line 59 `locked = 0;`"), "{sentence}");
    assert!(sentence.ends_with("refinement adds {locked == 0}."), "{sentence}");
    // The last iteration's path is feasible: nothing to explain.
    assert!(explain_refinement(&outcome.iterations[2]).is_none());
}

#[test]
fn the_diff_of_iteration_three_adds_the_lock_predicate() {
    let (_, outcome) = textbook_testdev();
    assert!(iteration_diff(&outcome.iterations, 0, 2).is_none(), "the first iteration has no predecessor");
    let diff = iteration_diff(&outcome.iterations, 2, 2).expect("iteration 3 has a predecessor");
    let added: Vec<&str> = diff.iter().filter_map(|l| if let DiffLine::Added(t) = l { Some(t.as_str()) } else { None }).collect();
    assert!(added.iter().any(|l| l.contains("locked == 0")), "{added:?}");
    assert!(diff.iter().any(|l| matches!(l, DiffLine::Skipped(_))), "unchanged runs are shortened");
}

#[test]
fn the_report_shows_every_iteration_and_the_deciding_technique() {
    let (request, outcome) = textbook_testdev();
    let html = report_html(&request, &outcome);
    assert!(html.starts_with("<!DOCTYPE html>"));
    for i in 1..=3 {
        assert!(html.contains(&format!("<h2>Iteration {i}</h2>")), "iteration {i}");
    }
    assert!(html.contains("Decided by: <code>cegar</code>"));
    assert!(html.contains("<strong>Why it is spurious:</strong>"));
    assert!(html.contains("class=\"decisive\""));
    assert!(html.contains("<h2>Concrete counterexample</h2>"));
    assert!(!html.contains("<script"), "the report carries no script");
}

#[test]
fn program_text_is_escaped_in_the_report() {
    let (mut request, mut outcome) = textbook_testdev();
    request.source = "/* </pre><script>alert(1)</script> */\nint main(void) { return 0; }\n".to_string();
    request.file_name = "<img src=x onerror=alert(1)>.c".to_string();
    outcome.reason = "<b>bold</b>".to_string();
    let html = report_html(&request, &outcome);
    assert!(!html.contains("<script>"));
    assert!(!html.contains("<img"));
    assert!(!html.contains("<b>bold"));
    assert!(html.contains("&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;"));
}
