//! The abstraction records, for each assignment's predicate, the weakest precondition it
//! computed with Morris' alias cases (C2BP §4.2): the explain views read these records.

use abstraction::{AbstractionConfig, AliasCaseKind, Strategy, WpRecord};

fn records(source: &str, predicates: &str, points_to: bool) -> Vec<(String, WpRecord)> {
    let (program, diags) = c_front::lower(source, "t.c", &c_front::LowerOptions::default());
    assert!(!diagnostics::has_errors(&diags), "{diags:?}");
    let program = program.expect("lowered");
    let (set, diags) = c_front::parse_predicates(&program, predicates);
    assert!(!diagnostics::has_errors(&diags), "{diags:?}");
    let mut config = AbstractionConfig::new(Strategy::Lattice);
    config.record_lattices = true;
    config.points_to = points_to;
    let (abs, diags) = abstraction::abstract_program(&program, &set, &config);
    assert!(!diagnostics::has_errors(&diags), "{diags:?}");
    abs.lattices.iter().filter_map(|r| r.wp.clone().map(|w| (r.target.clone(), w))).collect()
}

fn kind_of(record: &WpRecord, location: &str) -> Option<AliasCaseKind> {
    record.alias_cases.iter().find(|c| c.location == location).map(|c| c.kind)
}

#[test]
fn foo_bar_records_the_wp_of_the_assignment_through_p() {
    let source = include_str!("../../../../tests/programs/foo_bar.c");
    let predicates = include_str!("../../../../tests/abstraction/foobar.preds");
    let all = records(source, predicates, true);
    let (_, wp) = all.iter().find(|(t, w)| t == "{*p <= 0}" && w.lhs == "*p" && w.value == "*p + x").expect("a WP record for *p = *p + x");
    assert_eq!(wp.simplified, "*p + x <= 0");
    assert_eq!(kind_of(wp, "*p"), Some(AliasCaseKind::Assigned));
    assert!(!wp.unpruned.is_empty());
    assert!(wp.points_to);
}

#[test]
fn alias_cases_follow_the_configured_oracle() {
    let source = "int x; int y; int *p;\nvoid main() { p = &x; *p = 1; }\n";
    let predicates = "global { x == 1, y == 1 }\n";
    for points_to in [true, false] {
        let all = records(source, predicates, points_to);
        let on_x = all.iter().find(|(t, w)| t == "{x == 1}" && w.lhs == "*p").map(|(_, w)| w).expect("x == 1 at *p = 1");
        // p may point to x: both cases are kept
        assert_eq!(kind_of(on_x, "x"), Some(AliasCaseKind::MayAlias), "points_to {points_to}: {on_x:?}");
        // y's address is never taken: *p = 1 cannot change y, so no record (the predicate is
        // not updated) or a pruned case
        if let Some((_, on_y)) = all.iter().find(|(t, w)| t == "{y == 1}" && w.lhs == "*p") {
            assert_eq!(kind_of(on_y, "y"), Some(AliasCaseKind::Pruned), "{on_y:?}");
        }
        assert_eq!(on_x.points_to, points_to);
    }
}

#[test]
fn no_records_without_recording() {
    let source = include_str!("../../../../tests/programs/foo_bar.c");
    let predicates = include_str!("../../../../tests/abstraction/foobar.preds");
    let (program, _) = c_front::lower(source, "t.c", &c_front::LowerOptions::default());
    let program = program.expect("lowered");
    let (set, _) = c_front::parse_predicates(&program, predicates);
    let (abs, _) = abstraction::abstract_program(&program, &set, &AbstractionConfig::new(Strategy::Lattice));
    assert!(abs.lattices.is_empty());
}
