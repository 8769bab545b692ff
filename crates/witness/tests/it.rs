//! Witnesses of the programs in `tests/witness/`: written, checked against the format's schema,
//! read back, validated in the interpreter, and rejected once mutated. (End-to-end tests with
//! the CEGAR engine, including correctness witnesses, are in `crates/cli/tests/witness.rs`.)

use expect_test::expect_file;
use std::path::PathBuf;
use witness::source::SourceIndex;
use witness::*;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/witness")
}

fn source(name: &str) -> String {
    std::fs::read_to_string(dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn producer() -> Producer {
    Producer {
        name: "predabs".into(),
        version: "test".into(),
        configuration: None,
        command_line: None,
    }
}

fn violation(name: &str, inputs: &[i128]) -> (String, ViolationWitness) {
    let src = source(name);
    let program = lower(&src, name, DataModel::Lp64).unwrap();
    let index = SourceIndex::new(&src);
    let (waypoints, notes) = violation::violation_waypoints(&program, &index, name, inputs).unwrap();
    assert!(notes.is_empty(), "{notes:?}");
    let meta = metadata(producer(), name, src.as_bytes(), DataModel::Lp64, "2026-01-01T00:00:00Z".into());
    (src, ViolationWitness::from_waypoints(meta, waypoints))
}

fn validate(src: &str, name: &str, w: &ViolationWitness) -> violation::Report {
    let program = lower(src, name, DataModel::Lp64).unwrap();
    violation::validate_violation(&program, &SourceIndex::new(src), w)
}

/// Writes, checks the schema, reads back and validates.
fn round_trip(name: &str, inputs: &[i128]) -> (String, ViolationWitness) {
    let (src, w) = violation(name, inputs);
    let yaml = yaml::to_yaml(&Witness::Violation(w.clone()));
    let doc: serde_yaml::Value = serde_yaml::from_str(&yaml).unwrap();
    assert_eq!(schema::check(&doc), Ok(schema::DocumentKind::Violation));
    let back = match yaml::from_yaml(&yaml) {
        Ok(Witness::Violation(v)) => v,
        other => panic!("{other:?}"),
    };
    assert_eq!(back, w);
    let report = validate(&src, name, &back);
    assert_eq!(report.validity, Validity::Valid, "{:?}", report.reasons);
    (src, back)
}

fn mutate(w: &ViolationWitness, f: impl Fn(&mut Waypoint) -> bool) -> ViolationWitness {
    let mut m = w.clone();
    let hit = m.segments.iter_mut().flatten().any(|wp| f(wp));
    assert!(hit, "the mutation applies to no waypoint");
    m
}

#[test]
fn violation_witness_of_nondet_values_is_golden_and_valid() {
    let (_, w) = round_trip("unsafe_nondet.c", &[42, 46]);
    expect_file!["../../../tests/witness/unsafe_nondet.witness.yml"].assert_eq(&yaml::to_yaml(&Witness::Violation(w)));
}

#[test]
fn mutated_violation_witnesses_are_rejected() {
    let name = "unsafe_nondet.c";
    let (src, w) = round_trip(name, &[42, 46]);
    // a wrong value for x: the run no longer takes the branches the witness lists
    let wrong_value = mutate(&w, |wp| match &mut wp.kind {
        WaypointKind::Assumption { constraint } if constraint.starts_with("x ==") => {
            *constraint = "x == 41".into();
            true
        }
        _ => false,
    });
    let r = validate(&src, name, &wrong_value);
    assert_eq!(r.validity, Validity::Invalid, "{:?}", r.reasons);
    // a wrong branch: `if (x == 42)` is taken, not skipped
    let wrong_branch = mutate(&w, |wp| match &mut wp.kind {
        WaypointKind::Branching { taken } if wp.location.line == 8 => {
            *taken = false;
            true
        }
        _ => false,
    });
    let r = validate(&src, name, &wrong_branch);
    assert_eq!(r.validity, Validity::Invalid, "{:?}", r.reasons);
    // the target somewhere else
    let wrong_target = mutate(&w, |wp| match wp.kind {
        WaypointKind::Target => {
            wp.location.line = 13;
            true
        }
        _ => false,
    });
    let r = validate(&src, name, &wrong_target);
    assert_eq!(r.validity, Validity::Invalid, "{:?}", r.reasons);
}

#[test]
fn loop_violation_witness_is_valid_and_mutations_are_rejected() {
    let name = "unsafe_loop.c";
    let (src, w) = round_trip(name, &[7]);
    let branches = w
        .follow_waypoints()
        .iter()
        .filter(|wp| matches!(wp.kind, WaypointKind::Branching { .. }))
        .count();
    // `if (n > 20)`, 8 loop tests, `if (s == 21)`
    assert_eq!(branches, 10);
    let wrong_value = mutate(&w, |wp| match &mut wp.kind {
        WaypointKind::Assumption { constraint } => {
            *constraint = "n == 8".into();
            true
        }
        _ => false,
    });
    assert_eq!(validate(&src, name, &wrong_value).validity, Validity::Invalid);
    // leave the loop one iteration early: the third loop test says false
    let mut seen = 0;
    let mut early = w.clone();
    for wp in early.segments.iter_mut().flatten() {
        if let WaypointKind::Branching { taken } = &mut wp.kind {
            if wp.location.line == 9 {
                seen += 1;
                if seen == 3 {
                    *taken = false;
                }
            }
        }
    }
    let r = validate(&src, name, &early);
    assert_eq!(r.validity, Validity::Invalid, "{:?}", r.reasons);
}

#[test]
fn a_witness_without_values_is_followed_with_zeros_and_says_so() {
    let name = "unsafe_nondet.c";
    let (src, w) = round_trip(name, &[42, 46]);
    let mut bare = w.clone();
    bare.segments
        .retain(|seg| !seg.iter().any(|wp| matches!(wp.kind, WaypointKind::Assumption { .. })));
    let r = validate(&src, name, &bare);
    assert_eq!(r.validity, Validity::Unknown, "{:?}", r.reasons);
}

#[test]
fn schema_rejects_missing_fields_and_bad_segments() {
    let (_, w) = violation("unsafe_nondet.c", &[42, 46]);
    let good = yaml::to_yaml(&Witness::Violation(w));
    let bad_cases = [
        (good.replace("format_version: '2.0'", "format_version: 1"), "format_version: must be a string"),
        (good.replace("      data_model: LP64\n", ""), "missing required key `data_model`"),
        (good.replace("type: target", "type: goal"), "`goal` is not one of"),
        (
            good.replacen("type: branching", "type: target", 1),
            "only the last segment may contain the `target` waypoint",
        ),
        (good.replace("line: 7", "line: 0"), "line: must be an integer >= 1"),
    ];
    for (text, expected) in bad_cases {
        let doc: serde_yaml::Value = serde_yaml::from_str(&text).unwrap();
        let problems = schema::check(&doc).expect_err(expected);
        assert!(problems.iter().any(|p| p.contains(expected)), "{expected}: {problems:?}");
    }
    assert!(yaml::from_yaml("entry_type: violation_sequence").is_err());
}

#[test]
fn correctness_witness_round_trips_and_instruments_the_loops() {
    let name = "safe_for.c";
    let src = source(name);
    let index = SourceIndex::new(&src);
    let site = &index.loops[0];
    let (line, column) = index.line_col(site.keyword);
    let inv = Invariant {
        kind: InvariantKind::Loop,
        location: Location {
            file_name: name.into(),
            line,
            column: Some(column),
            function: Some("main".into()),
        },
        value: "s == 2 * i && i <= 5".into(),
    };
    let meta = metadata(producer(), name, src.as_bytes(), DataModel::Lp64, "2026-01-01T00:00:00Z".into());
    let w = Witness::Correctness(CorrectnessWitness {
        metadata: meta,
        invariants: vec![inv],
    });
    let text = yaml::to_yaml(&w);
    let doc: serde_yaml::Value = serde_yaml::from_str(&text).unwrap();
    assert_eq!(schema::check(&doc), Ok(schema::DocumentKind::Correctness));
    assert_eq!(yaml::from_yaml(&text), Ok(w));
    let (instrumented, shift) = correctness::instrument(&index, &[(site.keyword, "s == 2 * i && i <= 5".into())]);
    assert_eq!(shift, 0);
    expect_file!["../../../tests/witness/safe_for.instrumented.c"].assert_eq(&instrumented);
    // the instrumented program still lowers, with the same lines
    assert!(lower(&instrumented, name, DataModel::Lp64).is_ok());
    // the induction form: `s` and `i` (what the loop changes) are havocked between the checks
    let program = lower(&src, name, DataModel::Lp64).unwrap();
    let (inductive, shift) = correctness::instrument_induction(&program, &index, &[(site.keyword, "s == 2 * i && i <= 5".into())]).unwrap();
    assert_eq!(shift, 1);
    expect_file!["../../../tests/witness/safe_for.induction.c"].assert_eq(&inductive);
    assert!(lower(&inductive, name, DataModel::Lp64).is_ok());
}

#[test]
fn loops_that_write_memory_are_not_checked_by_induction() {
    let src = "void reach_error(void);\nint a[4];\nint main(void) {\n  int i = 0;\n  while (i < 4) { a[i] = i; i++; }\n  return 0;\n}\n";
    let program = lower(src, "m.c", DataModel::Lp64).unwrap();
    let index = SourceIndex::new(src);
    let err = correctness::instrument_induction(&program, &index, &[(index.loops[0].keyword, "i <= 4".into())]).unwrap_err();
    assert!(err.contains("writes memory"), "{err}");
}

#[test]
fn invariants_are_weakened_to_what_c_can_name() {
    let src = "int g;\nint f(int a) {\n  int t = 0;\n  while (t < a) { t++; }\n  return t;\n}\nint main(void) { return f(3); }\n";
    let program = lower(src, "f.c", DataModel::Lp64).unwrap();
    let index = SourceIndex::new(src);
    let proc = program.proc_by_name("f").unwrap();
    let at = correctness::scope_point(&index.loops[0]);
    let print = |text: &str| {
        let e = c_front::parse_expression(&program, Some(proc), text).0.unwrap_or_else(|| panic!("{text}"));
        correctness::c_expression(&program, &index, proc, at, &e)
    };
    assert_eq!(print("t <= a && g == 0"), Some("t <= a && g == 0".into()));
    // the formal's entry value `'a` is not C: a conjunct over it goes, a disjunct over it makes
    // the whole disjunction true
    assert_eq!(print("t <= a && a == 'a"), Some("t <= a".into()));
    assert_eq!(print("t > 7 || a == 'a"), None);
    assert_eq!(print("a == 'a"), None);
    assert_eq!(print("(t < 2 || t > 5) && a >= 0"), Some("(t < 2 || t > 5) && a >= 0".into()));
}

/// `safe_for.c` scanned and lowered, its `main` and where its loop's invariant is evaluated.
struct SafeFor {
    name: &'static str,
    index: SourceIndex,
    program: witness::c_ir::Program,
    main: witness::c_ir::ProcId,
    at: u32,
}

fn safe_for() -> SafeFor {
    let name = "safe_for.c";
    let src = source(name);
    let index = SourceIndex::new(&src);
    let program = lower(&src, name, DataModel::Lp64).unwrap();
    let main = program.proc_by_name("main").unwrap();
    let at = correctness::scope_point(&index.loops[0]);
    SafeFor { name, index, program, main, at }
}

/// An engine invariant of hundreds of literals (toy.cil's loops have 24 cubes of 36) reads back
/// although one C expression that long passes c-front's nesting limit, and is printed in
/// parenthesised groups that the instrumented program can hold; a small one prints as before.
#[test]
fn large_invariants_read_back_and_print_within_the_nesting_limit() {
    let SafeFor { name, index, program, main, at } = safe_for();
    let read = correctness::read_invariant(&program, main, "s == 2 * i && i <= 5 || s != i").unwrap();
    assert_eq!(correctness::c_expression(&program, &index, main, at, &read).as_deref(), Some("(s == (2 * i) && i <= 5) || s != i"));

    let cube = |k: usize| (0..60).map(|j| format!("{} {} {}", if j % 2 == 0 { "s" } else { "i" }, if (j + k) % 3 == 0 { "!=" } else { "==" }, j + k)).collect::<Vec<_>>().join(" && ");
    let big = (0..40).map(cube).collect::<Vec<_>>().join(" || ");
    // as one expression it is rejected ...
    assert!(c_front::parse_expression(&program, Some(main), &big).0.is_none());
    // ... but it reads back, and prints as groups that c-front accepts, in the same order
    let read = correctness::read_invariant(&program, main, &big).unwrap();
    let printed = correctness::c_expression(&program, &index, main, at, &read).unwrap();
    assert!(c_front::parse_expression(&program, Some(main), &printed).0.is_some(), "{printed}");
    let bare = |t: &str| t.chars().filter(|c| !matches!(c, '(' | ')' | ' ')).collect::<String>();
    assert_eq!(bare(&printed), bare(&big));
    assert!(printed.matches('(').count() > 40, "regrouped beyond one group per cube: {printed}");
    let (instrumented, _) = correctness::instrument(&index, &[(index.loops[0].keyword, printed)]);
    assert!(lower(&instrumented, name, DataModel::Lp64).is_ok());
    // text that is not an invariant is an error, not a panic
    assert!(correctness::read_invariant(&program, main, "s == && (").is_err());
    assert!(correctness::read_invariant(&program, main, &"(".repeat(300)).is_err());
}

/// An invariant is asserted one top-level conjunct at a time (the same meaning, and conditions
/// small enough to abstract); text whose `&&` is not at the top is kept whole.
#[test]
fn invariants_are_asserted_conjunct_by_conjunct() {
    assert_eq!(correctness::conjuncts("a <= b && (c || d) && !(e && f)"), vec!["a <= b", "(c || d)", "!(e && f)"]);
    assert_eq!(correctness::conjuncts("((x == 1 && y != 2)) && (z >= 0 && w > 1)"), vec!["x == 1", "y != 2", "z >= 0", "w > 1"]);
    // `||`, `?:`, assignments and commas bind looser than `&&`: splitting would change the meaning
    for whole in ["a && b || c", "a ? b : c && d", "x = 1 && y", "x <<= 1 && y", "(f(a, b) && c), d"] {
        assert_eq!(correctness::conjuncts(whole), vec![whole], "{whole}");
    }
    assert_eq!(correctness::conjuncts("x <<= 1 && y").len(), 1);
    assert_eq!(correctness::conjuncts("a && "), vec!["a &&"]);
}

/// `compact` factors the literals all cubes share out of a disjunction, and replaces a
/// disjunction over more predicates than a validator can abstract as one condition by the
/// two-literal clauses every cube implies (weaker, never wrong).
#[test]
fn large_disjunctive_invariants_are_factored_or_weakened_to_clauses() {
    let SafeFor { name, index, program, main, at } = safe_for();
    let compact = |text: &str| {
        let read = correctness::read_invariant(&program, main, text).unwrap();
        let (formula, how) = correctness::compact(&read);
        (correctness::c_expression(&program, &index, main, at, &formula).unwrap_or_default(), how)
    };
    assert_eq!(compact("s == 1 && i == 2 || s == 1 && i == 3"), ("s == 1 && (i == 2 || i == 3)".to_string(), correctness::Compaction::Exact));
    assert_eq!(compact("s == 1 && i == 2 || s == 1"), ("s == 1".to_string(), correctness::Compaction::Exact));
    // 14 values of `s`, each with `i == 50` or `i == 51`: 16 predicates beyond the shared `i >= 0`
    let big = (0..14).map(|k| format!("i >= 0 && s == {k} && i == {}", 50 + k % 2)).collect::<Vec<_>>().join(" || ");
    let (printed, how) = compact(&big);
    assert_eq!(how, correctness::Compaction::TwoLiteralClauses { predicates: 16, clauses: 1 });
    assert_eq!(printed, "i >= 0 && (i == 50 || i == 51)");
    // ... each part of which the instrumented program asserts on its own
    let (instrumented, _) = correctness::instrument(&index, &[(index.loops[0].keyword, printed)]);
    assert!(instrumented.contains("if (!(i >= 0)) reach_error(); if (!((i == 50 || i == 51))) reach_error();"), "{instrumented}");
    assert!(lower(&instrumented, name, DataModel::Lp64).is_ok());
}
