//! The papers' conventions through [`abstraction::command`]: C2BP's C-like printing (Fig 1(b))
//! and `--query 'LABEL: EXPR'` (C2BP §2.2 derives `prev != curr` at `L` of partition from
//! BEBOP's invariant), as golden files under `tests/abstraction/`.

use abstraction::{run_abstract, AbstractCommand, AbstractionConfig, Strategy, Syntax};

fn dir() -> String {
    format!("{}/../../tests", env!("CARGO_MANIFEST_DIR"))
}

fn partition(syntax: Syntax, queries: &[&str]) -> String {
    let command = AbstractCommand {
        source: std::fs::read_to_string(format!("{}/programs/partition.c", dir())).unwrap(),
        file_name: "partition.c".into(),
        predicates: std::fs::read_to_string(format!("{}/abstraction/partition.preds", dir()))
            .unwrap(),
        lower: c_front::LowerOptions::default(),
        config: AbstractionConfig::new(Strategy::Exact),
        syntax,
        queries: queries.iter().map(|q| q.to_string()).collect(),
        invariants: false,
    };
    let output = run_abstract(&command);
    assert!(output.success, "{}", output.stderr);
    output.stdout
}

#[test]
fn partition_in_c2bp_syntax_figure_1b() {
    let text = partition(Syntax::C2bp, &[]);
    expect_test::expect_file![format!("{}/abstraction/partition.c2bp", dir())].assert_eq(&text);
    assert!(text.contains("void partition() {"), "{text}");
    // the same program as the Bebop golden file, read back from the C-like form
    let (again, diagnostics) = boolprog::parse(&text);
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    let bebop = std::fs::read_to_string(format!("{}/abstraction/partition.bp", dir())).unwrap();
    assert_eq!(boolprog::print_bebop(&again).text, bebop);
}

#[test]
fn c2bp_2_2_prev_differs_from_curr_at_l() {
    let text = partition(
        Syntax::Bebop,
        &["L: prev != curr", "L: prev == NULL", "L: curr->val > v"],
    );
    let queries: String = text
        .lines()
        .skip_while(|l| !l.starts_with("QUERY"))
        .map(|l| format!("{l}\n"))
        .collect();
    expect_test::expect_file![format!("{}/abstraction/partition.query", dir())].assert_eq(&queries);
    assert!(
        queries.contains("QUERY L: prev != curr: HOLDS"),
        "{queries}"
    );
    assert!(
        queries.contains("QUERY L: prev == NULL: DOES NOT HOLD"),
        "{queries}"
    );
    assert!(
        queries.contains("QUERY L: curr->val > v: HOLDS"),
        "{queries}"
    );
}

#[test]
fn a_malformed_query_is_a_diagnostic() {
    for query in ["no colon here", "NOPE: x == 1", "L: prev +* 1"] {
        let command = AbstractCommand {
            source: std::fs::read_to_string(format!("{}/programs/partition.c", dir())).unwrap(),
            file_name: "partition.c".into(),
            predicates: "partition { curr == NULL }".into(),
            lower: c_front::LowerOptions::default(),
            config: AbstractionConfig::new(Strategy::Exact),
            syntax: Syntax::Bebop,
            queries: vec![query.to_string()],
            invariants: false,
        };
        let output = run_abstract(&command);
        assert!(!output.success, "{query}");
        assert!(
            output.stderr.contains("error"),
            "{query}: {}",
            output.stderr
        );
    }
}
