//! The paper's two examples and two of our own, end to end (programs in `tests/programs/shape_*.c`, golden files in `tests/shape/`).

use expect_test::expect_file;
use shape::report::{Report, Verdict};
use shape::Request;

use crate::fixture as source;

fn request(file: &str, proc: &str, property: &str, pre: &[&str], bound: u32) -> Request {
    Request {
        source: source(file),
        file_name: file.into(),
        proc: proc.into(),
        properties: vec![property.into()],
        preconditions: pre.iter().map(|s| s.to_string()).collect(),
        bound,
        hints: String::new(),
        auto_hints: false,
    }
}

fn analyze(req: &Request) -> Report {
    match shape::analyze(req) {
        Ok(r) => r,
        Err(ps) => panic!("{:?}", ps.iter().map(|p| p.diagnostic.message.clone()).collect::<Vec<_>>()),
    }
}

/// The table of pairs, the rounds and the abstract program as text.
fn render(report: &Report) -> String {
    let mut out = String::new();
    for (k, run) in report.runs.iter().enumerate() {
        out += &format!(
            "run {}: {} iterations, {} predicates, {} pairs, {} hints, converged: {}\n",
            k + 1,
            run.iterations,
            run.predicates.len(),
            run.pairs.len(),
            run.hints.len(),
            run.converged
        );
    }
    let Some(run) = report.final_run() else { return out };
    out += "predicates:\n";
    for p in &run.predicates {
        out += &format!("  {} <-> {}\n", p.boolean, p.predicate);
    }
    out += "pairs (id boolean @location round status parent):\n";
    for p in &run.pairs {
        let parent = match (p.parent_pair, p.parent_edge) {
            (Some(pp), Some(e)) => format!("from pair {pp} over edge {e}"),
            (Some(pp), None) => format!("from the hint of pair {pp}"),
            _ => "initial".into(),
        };
        out += &format!("  {} {} @{} r{} {:?} {parent}\n", p.id, p.boolean, p.location, p.round, p.status);
    }
    out += "rounds:\n";
    for r in &run.rounds {
        out += &format!("  {}: processed {:?}, added {:?}\n", r.index, r.processed, r.added);
    }
    out += "abstract program:\n";
    for a in &run.actions {
        out += &format!("  {} -> {} [{}] {}    // line {:?}: {}\n", a.from, a.to, a.guard, a.assignments.join(", "), a.lines, a.c_text);
    }
    out += &format!("verdict: {} ({})\n", report.verdict.word(), report.reason);
    if let Some(w) = &report.witness {
        out += &format!("witness: {} {}; fails at {}\n", w.heap.join(", "), w.rigids.join(", "), w.location);
    }
    out
}

#[test]
fn list_insertion_is_safe_in_4_rounds_with_the_4_predicates_and_the_actions_of_fig_2() {
    let req = request("insert.c", "insert", "forall k: reach[;n](x,k)@n1 => reach[;n](x,k)@ne", &[], 40);
    let report = analyze(&req);
    assert_eq!(report.verdict, Verdict::Safe);
    let run = report.final_run().expect("a run");
    assert_eq!((run.iterations, run.predicates.len(), run.pairs.len()), (4, 4, 7));
    expect_file!["../../../../tests/shape/insert.expected"].assert_eq(&render(&report));
}

#[test]
fn list_insertion_derivation_shows_the_store_the_alias_cases_fig5_and_the_rules() {
    let req = request("insert.c", "insert", "forall k: reach[;n](x,k)@n1 => reach[;n](x,k)@ne", &[], 40);
    let report = analyze(&req);
    let run = report.final_run().expect("a run");
    // the WP of reach[;n](t,k)@n4 over `t->n = x`
    let d = run.derivations.iter().find(|d| run.pairs[d.pair as usize].predicate == "reach[;n](t,k)").expect("derivation");
    let text = serde_json::to_string_pretty(&d.steps).expect("json");
    expect_file!["../../../../tests/shape/insert_derivation.expected"].assert_eq(&format!("{text}\nresult: {}\n", d.result));
}

#[test]
fn reversal_without_hints_grows_families_at_bound_30() {
    let req = request("reverse.c", "reverse", "!cyclic[n](y)@n8", &["!cyclic[n](x)@n1"], 30);
    let session = shape::prepare(&req).unwrap_or_else(|_| panic!("prepare"));
    let abs = session.abstract_with(&[], 30);
    assert!(!abs.converged);
    let fams = shape::autohint::families(&abs);
    let names = session.names();
    let mut out = format!("bound 30: {} pairs (paper: 185), {} predicates, {} families\n", abs.pairs.len(), abs.preds.len(), fams.len());
    for f in fams.iter().filter(|f| ["n4", "n5"].contains(&session.flowchart.location(f.loc).label.as_str())) {
        let members: Vec<String> = f.members.iter().take(3).map(|m| names.pred(abs.pred(*m))).collect();
        out += &format!("  {}: {}\n", session.flowchart.location(f.loc).label, members.join("  |  "));
    }
    expect_file!["../../../../tests/shape/reverse_nohints.expected"].assert_eq(&out);
}

#[test]
fn reversal_without_the_precondition_is_unsafe_with_a_cyclic_list_replayed_in_the_interpreter() {
    let req = request("reverse.c", "reverse", "!cyclic[n](y)@n8", &[], 10);
    let report = analyze(&req);
    assert_eq!(report.verdict, Verdict::Unsafe);
    let w = report.witness.as_ref().expect("witness");
    assert_eq!(w.location, "n8");
    assert!(w.heap.iter().any(|l| l == "c0->n = c0") || w.heap.len() > 2, "{:?}", w.heap);
    assert!(w.harness.contains("__VERIFIER_nondet_int"));
}

#[test]
fn reversal_with_auto_hints_is_safe() {
    let mut req = request("reverse.c", "reverse", "!cyclic[n](y)@n8", &["!cyclic[n](x)@n1"], 40);
    req.auto_hints = true;
    let report = analyze(&req);
    let last = report.final_run().expect("a run");
    assert!(last.converged, "auto-hints make the abstraction converge");
    assert_eq!(report.verdict, Verdict::Safe, "{}", report.reason);
    assert!(last.hints.iter().all(|h| h.origin.starts_with("auto-hint")));
    expect_file!["../../../../tests/shape/reverse_auto.expected"].assert_eq(&render_summary(&report));
}

#[test]
fn traversal_keeps_every_member_reachable() {
    let req = request("traverse.c", "length", "forall k: reach[;n](x,k)@n1 => reach[;n](x,k)@ne", &[], 10);
    let report = analyze(&req);
    assert_eq!(report.verdict, Verdict::Safe);
    expect_file!["../../../../tests/shape/traverse.expected"].assert_eq(&render(&report));
}

#[test]
fn pushing_the_head_onto_itself_makes_a_cycle() {
    let req = request("push_cycle.c", "push_self", "!cyclic[n](t)@ne", &["!cyclic[n](x)@n1"], 40);
    let report = analyze(&req);
    assert_eq!(report.verdict, Verdict::Unsafe);
    expect_file!["../../../../tests/shape/push_cycle.expected"].assert_eq(&render(&report));
}

#[test]
fn bad_inputs_get_diagnostics_with_spans_not_panics() {
    let cases = [
        ("reach[;n](x,k)@n1", "unknown variable `k`"),
        ("reach[;next](x,x)@n1", "no struct has a field named `next`"),
        ("cyclic[n](x->m)@n1", "has no field `m`"),
        ("cyclic[n](x)@n42", "unknown label `n42`"),
        ("cyclic[n](x) @", "expected a name"),
        ("reach[;n](x,", "expected a name"),
        ("x + y@n1", "unexpected character `+`"),
    ];
    for (prop, message) in cases {
        let req = request("reverse.c", "reverse", prop, &[], 5);
        let Err(problems) = shape::prepare(&req) else { panic!("`{prop}` accepted") };
        let d = &problems[0].diagnostic;
        assert!(d.message.contains(message), "`{prop}`: {}", d.message);
        assert!(d.span.end as usize <= prop.len(), "`{prop}`: span {:?}", d.span);
    }
}

#[test]
fn procedures_outside_the_fragment_are_refused_with_a_message() {
    let cases = [
        ("typedef struct node {struct node *n;} Node;\nNode *g(Node *x) { return x; }\nNode *f(Node *x) { x = g(x); return x; }\n", "procedure calls"),
        ("typedef struct node {struct node *n;} Node;\nint f(Node *x) { int a[4]; a[0] = 1; return a[0]; }\n", "arrays"),
        ("union u { int *p; int i; };\nint f(union u *x) { x->i = 1; return 0; }\n", "unions"),
        ("typedef struct node {struct node *n;} Node;\nNode *f(Node *x) { Node **p = &x; return *p; }\n", "address of `x`"),
    ];
    for (src, message) in cases {
        let req = Request { source: src.into(), file_name: "t.c".into(), proc: "f".into(), properties: vec!["true@x".into()], bound: 5, ..Default::default() };
        let Err(problems) = shape::prepare(&req) else { panic!("accepted:\n{src}") };
        assert!(problems.iter().any(|p| p.diagnostic.message.contains(message)), "{src}\n{:?}", problems.iter().map(|p| &p.diagnostic.message).collect::<Vec<_>>());
    }
}

/// The predicates, hints and rounds of a run, and the verdict (the reversal goldens).
fn render_summary(report: &Report) -> String {
    let mut out = String::new();
    for (k, run) in report.runs.iter().enumerate() {
        out += &format!("run {}: {} iterations, {} predicates, {} pairs, {} hints, converged: {}\n", k + 1, run.iterations, run.predicates.len(), run.pairs.len(), run.hints.len(), run.converged);
    }
    let Some(run) = report.final_run() else { return out };
    out += "hints:\n";
    for h in &run.hints {
        out += &format!("  {}\n", h.text);
    }
    out += "predicates:\n";
    for p in &run.predicates {
        out += &format!("  {} <-> {}\n", p.boolean, p.predicate);
    }
    out += "pairs added per round:";
    for r in &run.rounds {
        out += &format!(" {}", r.added.len());
    }
    out += &format!("\nverdict: {} ({})\n", report.verdict.word(), report.reason);
    out
}

#[test]
fn reversal_with_hand_written_hints_is_safe() {
    let mut req = request("reverse.c", "reverse", "!cyclic[n](y)@n8", &["!cyclic[n](x)@n1"], 40);
    req.hints = source("reverse_full.hints");
    let report = analyze(&req);
    assert_eq!(report.verdict, Verdict::Safe, "{}", report.reason);
    assert!(report.final_run().is_some_and(|r| r.converged));
    expect_file!["../../../../tests/shape/reverse_hints.expected"].assert_eq(&render_summary(&report));
}

#[test]
fn reversal_with_the_papers_two_hints_completed_by_auto_hints_is_safe() {
    let mut req = request("reverse.c", "reverse", "!cyclic[n](y)@n8", &["!cyclic[n](x)@n1"], 40);
    req.hints = source("reverse.hints");
    req.auto_hints = true;
    let report = analyze(&req);
    assert_eq!(report.verdict, Verdict::Safe, "{}", report.reason);
    let run = report.final_run().expect("a run");
    assert!(run.hints.iter().filter(|h| !h.origin.starts_with("auto-hint")).count() == 2, "the paper's two hints are kept");
}

/// The paper's two hints alone (its §5: dshared(t,x) at n5, cyclic(x) at n4): every other
/// growing predicate at those locations is reduced under the hint's condition
/// (`shape::assume`), as the paper did by hand. SAFE from bound 18 on; the loop guard's
/// `x == NULL`, carried backwards as `x->n…->n == NULL` and the alias equalities `y == x->n…`
/// it spawns at the stores to `y->n`, keeps growing, so the run never converges.
#[test]
fn reversal_with_the_papers_two_hints_alone_is_safe() {
    let mut req = request("reverse.c", "reverse", "!cyclic[n](y)@n8", &["!cyclic[n](x)@n1"], 40);
    req.hints = source("reverse.hints");
    let report = analyze(&req);
    assert_eq!(report.verdict, Verdict::Safe, "{}", report.reason);
    let run = report.final_run().expect("a run");
    assert_eq!(run.hints.len(), 2, "no hint besides the paper's two");
    assert!(run.pairs.iter().any(|p| p.approximation.as_deref().is_some_and(|a| a.starts_with("if !cyclic[n](x) then reach[;n](t,x)"))), "a predicate at n4 is reduced under cyclic(x), not only cut");
    assert!(run.pairs.iter().any(|p| p.location == "n5" && p.approximation.as_deref().is_some_and(|a| a.starts_with("if !dshared[n](x,t) then false"))), "a predicate at n5 is cut by dshared(t,x)");
    expect_file!["../../../../tests/shape/reverse_paper_hints.expected"].assert_eq(&render_summary(&report));
    req.bound = 18;
    assert_eq!(analyze(&req).verdict, Verdict::Safe, "bound 18 suffices");
    req.bound = 17;
    assert_eq!(analyze(&req).verdict, Verdict::Unknown, "bound 17 does not");
}
