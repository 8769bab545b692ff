//! The Hide and Shape modes of the playground: the gallery examples do what their lab notes
//! say under their settings, and bad input comes back as diagnostics at the editor's line and
//! column (never a panic).

use playground_api::hide::{hide, HideEditKind, HideRequest, HideRule, ReplayKind};
use playground_api::shape::{self, shape, ShapeRequest};
use playground_api::{examples, Mode, Verdict};

fn src(id: &str) -> &'static str {
    examples::by_id(id).unwrap_or_else(|| panic!("no example {id}")).source
}

fn hide_request(id: &str, steps: Option<u32>) -> HideRequest {
    let e = examples::by_id(id).expect("example");
    assert_eq!(e.mode, Mode::Hide);
    HideRequest { source: e.source.into(), abstraction: e.predicates.into(), steps, ..HideRequest::default() }
}

fn texts(vs: &[playground_api::hide::HideVarRef]) -> Vec<String> {
    vs.iter().map(|v| v.text()).collect()
}

#[test]
fn every_hide_and_shape_example_has_its_settings() {
    for e in examples::ALL.iter().filter(|e| e.mode == Mode::Hide) {
        assert!(!e.predicates.trim().is_empty(), "{}: an abstraction file", e.id);
        let r = hide(&hide_request(e.id, None));
        assert!(r.parsed && r.closed, "{}: {:?}", e.id, r.diagnostics);
        assert!(r.diagnostics.iter().all(|d| d.severity != playground_api::Severity::Error), "{}: {:?}", e.id, r.diagnostics);
    }
    for e in examples::ALL.iter().filter(|e| e.mode == Mode::Shape) {
        let settings = shape::example(e.id).unwrap_or_else(|| panic!("{}: no Shape settings", e.id));
        assert_eq!(settings.settings().request(e.source), settings.request(e.source));
    }
}

#[test]
fn appendix_steps_follow_the_paper_and_the_lab_note() {
    // step 1 alone: three rows, as the note predicts
    let r = hide(&hide_request("hide-appendix", Some(1)));
    assert_eq!(r.steps.len(), 1);
    assert!(!r.closed);
    let rows: Vec<(u32, HideRule, String)> = r.steps[0].rows.iter().map(|row| (row.line, row.rule, row.variable.text())).collect();
    assert_eq!(
        rows,
        vec![(6, HideRule::R1a, "move xx".into()), (6, HideRule::R1a, "move yy".into()), (16, HideRule::R2a, "(global) i".into())]
    );
    assert!(r.log_text.starts_with("iteration 1\n"), "{}", r.log_text);
    assert_eq!(r.abstraction_file, "move d\n(global) i\nmove xx\nmove yy\n");
    // to closure: four steps infer, the fifth closes; 11 variables
    let r = hide(&hide_request("hide-appendix", None));
    assert!(r.closed);
    assert_eq!(r.steps.len(), 5);
    assert!(r.steps[..4].iter().all(|s| !s.rows.is_empty()) && r.steps[4].rows.is_empty());
    assert!(r.log_text.contains("iteration 4\n") && r.log_text.contains("(closed: no new inferences)"), "{}", r.log_text);
    assert_eq!(r.hidden().count(), 11);
    // why(nametab) goes back through line 8 and i to d
    let nametab = r.variable("(global) nametab").expect("nametab");
    let chain: Vec<String> = nametab.why.iter().map(|l| l.variable.text()).collect();
    assert_eq!(chain.first().map(String::as_str), Some("(global) nametab"));
    assert_eq!(chain.last().map(String::as_str), Some("move d"));
    assert!(chain.contains(&"(global) i".to_string()), "{chain:?}");
    assert_eq!(nametab.why[0].row.as_ref().map(|row| row.line), Some(8));
    // the paper's warning for the call of printf (no body) on line 18
    assert!(r.warnings.iter().any(|w| w.place.line == 18 && w.kind == playground_api::hide::HideWarningKind::ExternalCall), "{:?}", r.warnings);
    // the transformed program has NONDETs, each marked where the text says NONDET
    assert!(!r.transformed.nondets.is_empty());
    for n in &r.transformed.nondets {
        let line = r.transformed.text.lines().nth(n.line as usize - 1).unwrap_or("");
        let at = n.column as usize - 1;
        assert_eq!(line.get(at..at + n.len as usize), Some("NONDET"), "line {}: {line}", n.line);
    }
    assert!(r.compilable.contains("#define NONDET __VERIFIER_nondet_int()"));
    // going back one step is a request for fewer steps
    let back = hide(&hide_request("hide-appendix", Some(2)));
    assert_eq!(back.steps.len(), 2);
    assert!(back.hidden().count() < 11);
}

#[test]
fn tr_fragment_gives_the_papers_output() {
    let r = hide(&hide_request("hide-tr-fragment", None));
    let squeeze = |t: &str| t.split_whitespace().collect::<String>();
    assert!(squeeze(&r.transformed.text).contains(&squeeze("if (NONDET) { (i++, b[j++] = (k++, k)); }")), "{}", r.transformed.text);
    assert!(r.transformed.edits.iter().any(|e| e.kind == HideEditKind::NondetTest && e.place.line == 5));
}

#[test]
fn spurious_and_driver_give_the_verdict_pairs_of_their_notes() {
    for id in ["hide-spurious", "hide-driver"] {
        let mut req = hide_request(id, None);
        req.check = true;
        let r = hide(&req);
        let check = r.check.expect("a check");
        assert_eq!((check.original, check.hidden), (Verdict::Safe, Verdict::Unsafe), "{id}: {} / {}", check.original_reason, check.hidden_reason);
        assert_eq!(check.replay.map(|r| r.kind), Some(ReplayKind::NoError), "{id}");
        assert!(check.hidden_trace.iter().any(|s| s.nondet.is_some()), "{id}: the trace shows the NONDET choices");
    }
    // the driver: step 1 hides handle req (line 20) and main status (line 25)
    let r = hide(&hide_request("hide-driver", None));
    let first: Vec<(u32, String)> = r.steps[0].rows.iter().map(|row| (row.line, row.variable.text())).collect();
    assert_eq!(first, vec![(20, "handle req".to_string()), (25, "main status".to_string())]);
    assert_eq!(r.steps.len(), 2);
    // without main mode the hidden program is SAFE too
    let mut req = hide_request("hide-driver", None);
    req.abstraction = "(global) requests\n(global) budget\n".into();
    req.check = true;
    let check = hide(&req).check.expect("a check");
    assert_eq!((check.original, check.hidden), (Verdict::Safe, Verdict::Safe), "{}", check.hidden_reason);
}

#[test]
fn pointer_chain_hides_the_pointers_and_keeps_other() {
    let r = hide(&hide_request("hide-pointer-chain", None));
    assert_eq!(r.steps.len(), 4);
    let per_step: Vec<Vec<String>> = r.steps.iter().map(|s| texts(&s.new_variables)).collect();
    assert_eq!(per_step, vec![vec!["main p".to_string()], vec!["main q".to_string()], vec!["(global) r".to_string()], vec![]]);
    let q = r.variable("main q").expect("q");
    assert_eq!(q.points_to.as_ref().map(|t| texts(t)), Some(vec!["(global) secret".to_string()]));
    for concrete in ["(global) other", "(global) s", "main t"] {
        assert_eq!(r.variable(concrete).map(|v| v.hidden_at), Some(None), "{concrete}");
    }
    assert!(r.transformed.text.contains("s != 3"));
}

#[test]
fn bad_hide_input_is_a_diagnostic_with_its_line() {
    let req = HideRequest { source: src("hide-appendix").into(), abstraction: "move d\nmove nosuch\nthis is not a line at all\n".into(), steps: None, ..HideRequest::default() };
    let r = hide(&req);
    assert!(r.parsed);
    let abs: Vec<u32> = r.diagnostics.iter().filter(|d| d.origin == "abstraction").map(|d| d.line).collect();
    assert!(abs.contains(&2) && abs.contains(&3), "{:?}", r.diagnostics);
    let r = hide(&HideRequest { source: "int main(void) { int x = ; }".into(), abstraction: "main x".into(), ..HideRequest::default() });
    assert!(!r.parsed);
    assert!(r.diagnostics.iter().any(|d| d.origin == "source" && d.line == 1 && d.severity == playground_api::Severity::Error), "{:?}", r.diagnostics);
    // results cross the worker boundary as JSON
    let json = serde_json::to_string(&hide(&hide_request("hide-appendix", None))).expect("json");
    let back: playground_api::hide::HideResult = serde_json::from_str(&json).expect("back");
    assert_eq!(back.steps.len(), 5);
}

fn shape_example(id: &str) -> ShapeRequest {
    shape::example(id).unwrap_or_else(|| panic!("no Shape settings for {id}")).request(src(id))
}

#[test]
fn shape_examples_do_what_their_lab_notes_say() {
    // insertion: SAFE in 4 rounds with the paper's 4 predicates
    let r = shape(&shape_example("shape-insert"));
    assert_eq!(r.verdict, Some(Verdict::Safe), "{}", r.reason);
    let run = r.final_run().expect("a run");
    assert_eq!(run.iterations, 4);
    let preds: Vec<&str> = run.predicates.iter().map(|p| p.predicate.as_str()).collect();
    assert_eq!(preds, ["reach[;n](x,k)", "reach[;n](t,k)", "reach[{&(t->n)};n](x,k)", "k == t"]);
    // predicates per round: every predicate is new in exactly one round (or initial)
    let new: usize = run.rounds.iter().map(|r| r.new_predicates.len()).sum();
    assert_eq!(new + 1, preds.len(), "{:?}", run.rounds);
    assert!(run.derivations.iter().any(|d| !d.steps.is_empty()));
    assert!(r.promela.as_deref().is_some_and(|p| p.contains("proctype")), "{:?}", r.promela_error);
    // reversal at bound 12: UNKNOWN with growing families; auto-hints at 40: SAFE; no precondition: UNSAFE
    let r = shape(&shape_example("shape-reverse"));
    assert_eq!(r.verdict, Some(Verdict::Unknown), "{}", r.reason);
    assert!(!r.final_run().expect("run").families.is_empty());
    let mut req = shape_example("shape-reverse");
    req.auto_hints = true;
    req.bound = 40;
    let r = shape(&req);
    assert_eq!(r.verdict, Some(Verdict::Safe), "{}", r.reason);
    let mut req = shape_example("shape-reverse");
    req.preconditions.clear();
    let r = shape(&req);
    assert_eq!(r.verdict, Some(Verdict::Unsafe), "{}", r.reason);
    assert!(r.witness.is_some_and(|w| w.location == "n8"));
    // traversal: SAFE; pushing the head onto itself: UNSAFE with a one-cell list
    let r = shape(&shape_example("shape-traverse"));
    assert_eq!(r.verdict, Some(Verdict::Safe), "{}", r.reason);
    let r = shape(&shape_example("shape-push-cycle"));
    assert_eq!(r.verdict, Some(Verdict::Unsafe), "{}", r.reason);
    assert!(r.witness.is_some_and(|w| w.heap.iter().any(|h| h == "x = c0")));
}

#[test]
fn bad_shape_input_is_a_diagnostic_at_the_editors_line() {
    let mut req = shape_example("shape-insert");
    req.properties = "# a comment\nforall k: reach[;n](x,k)@n1 => reach[;n](x,k)@ne\ncyclic[n](x)@n42\n".into();
    req.hints = "\nnot a hint\n".into();
    let r = shape(&req);
    assert!(!r.analysed);
    assert!(r.diagnostics.iter().any(|d| d.origin == "properties" && d.line == 3), "{:?}", r.diagnostics);
    assert!(r.diagnostics.iter().any(|d| d.origin == "hints" && d.line == 2), "{:?}", r.diagnostics);
    let mut req = shape_example("shape-insert");
    req.proc = "nosuch".into();
    let r = shape(&req);
    assert!(r.diagnostics.iter().any(|d| d.message.contains("nosuch")), "{:?}", r.diagnostics);
    let mut req = shape_example("shape-insert");
    req.proc = " ".into();
    assert!(!shape(&req).diagnostics.is_empty());
    let json = serde_json::to_string(&shape(&shape_example("shape-insert"))).expect("json");
    let back: playground_api::shape::ShapeResult = serde_json::from_str(&json).expect("back");
    assert_eq!(back.verdict, Some(Verdict::Safe));
}
