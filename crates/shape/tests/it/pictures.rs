//! The concrete runs of the pictures (`shape::pictures`): from the small input heaps the
//! preconditions admit, every pair's concrete value is one its boolean allows (the soundness
//! relation, shown), and a wrong abstract action is caught as a mismatch.

use shape::abstraction::Status;
use shape::pictures::{self, End, TargetView};
use shape::terms::Formula;
use crate::session;

#[test]
fn insertion_runs_show_each_location_with_no_mismatch_and_a_wrong_action_is_flagged() {
    let s = session("insert.c", "insert", "forall k: reach[;n](x,k)@n1 => reach[;n](x,k)@ne", &[], "");
    let mut abs = s.abstract_with(&[], 10);
    let runs = pictures::runs(&s, &abs);
    assert!(runs.len() >= 6, "{} runs", runs.len());
    for r in &runs {
        assert_eq!(r.end, End::Returned);
        let labels: Vec<&str> = r.snapshots.iter().map(|x| s.flowchart.location(x.loc).label.as_str()).collect();
        assert_eq!(labels.first(), Some(&"n1"));
        assert!(labels.contains(&"ne"), "{labels:?}");
        assert!(r.snapshots.iter().flat_map(|x| &x.values).all(|v| !v.mismatch()));
        // insertion allocates one cell
        assert_eq!(r.snapshots.last().map(|x| x.heap.cells.len() as u32), Some(r.cells + 1));
    }
    let views = pictures::views(&s, &abs, &runs, &crate::fixture("insert.c"));
    let last = views.last().and_then(|v| v.snapshots.last()).expect("a state at ne");
    let x = last.heap.roots.iter().find(|r| r.name == "x").expect("x");
    assert_eq!(x.target, TargetView::Cell(last.heap.cells.len() as u32 - 1), "x is the new cell");
    // a wrong abstract action (every marked boolean negated at ne) is caught
    for a in abs.assignments.iter_mut() {
        a.formula = Formula::not(a.formula.clone());
    }
    let wrong = pictures::runs(&s, &abs);
    let flagged = wrong.iter().flat_map(|r| &r.snapshots).flat_map(|x| &x.values).filter(|v| v.mismatch() && v.status == Status::Marked).count();
    assert!(flagged > 0, "negated actions were not flagged");
}

#[test]
fn reversal_runs_reverse_acyclic_lists_with_no_mismatch() {
    let s = session("reverse.c", "reverse", "!cyclic[n](y)@n8", &["!cyclic[n](x)@n1"], "reverse_full.hints");
    let abs = s.abstract_with(&s.hints, 40);
    let runs = pictures::runs(&s, &abs);
    // the precondition leaves one acyclic list of each length 0..=3
    assert_eq!(runs.iter().map(|r| r.cells).collect::<Vec<_>>(), [0, 1, 2, 3]);
    let views = pictures::views(&s, &abs, &runs, &crate::fixture("reverse.c"));
    for v in &views {
        assert_eq!(v.mismatches, 0, "{}", v.title);
        let end = v.snapshots.iter().find(|x| x.location == "n8").expect("the run reaches n8");
        // y is the reversed list: its first cell is the input's last
        let y = end.heap.roots.iter().find(|r| r.name == "y").expect("y");
        let want = if v.cells == 0 { TargetView::Null } else { TargetView::Cell(v.cells - 1) };
        assert_eq!(y.target, want, "{}", v.title);
        assert!(end.values.iter().any(|p| p.predicate == "cyclic[n](y)" && p.concrete == Some(false)));
    }
}
