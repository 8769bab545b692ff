//! Golden IR snapshots of the seed papers' example programs (`NAME.c` → `tests/c-front/NAME.ir`;
//! the C source is `tests/c-front/NAME.c` or the shared `tests/programs/NAME.c`).

use expect_test::expect_file;
use std::path::PathBuf;

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/c-front")
}

fn snapshot(name: &str) {
    let dir = golden_dir();
    let source = super::support::seed_source(name);
    let (program, diagnostics) = c_front::lower(&source, &format!("{name}.c"), &c_front::LowerOptions::default());
    assert!(!diagnostics::has_errors(&diagnostics), "{}", diagnostics::render_all(&diagnostics, name, &source));
    let program = program.expect("a program");
    super::support::check_invariants(&program);
    let mut text = c_ir::display_program(&program);
    let rendered = diagnostics::render_all(&diagnostics, &format!("{name}.c"), &source);
    if !rendered.is_empty() {
        text.push_str("\n// diagnostics\n");
        for line in rendered.lines() {
            text.push_str("// ");
            text.push_str(line);
            text.push('\n');
        }
    }
    expect_file![dir.join(format!("{name}.ir"))].assert_eq(&text);
}

#[test]
fn partition_golden() {
    snapshot("partition");
}

#[test]
fn mark_golden() {
    snapshot("mark");
}

#[test]
fn foo_bar_golden() {
    snapshot("foo_bar");
}

#[test]
fn inc_foo_golden() {
    snapshot("inc_foo");
}

#[test]
fn testdev_golden() {
    snapshot("testdev");
}

#[test]
fn named_point_golden() {
    snapshot("named_point");
}

#[test]
fn list_insert_reverse_golden() {
    snapshot("list_insert_reverse");
}

#[test]
fn constructs_golden() {
    snapshot("constructs");
}

#[test]
fn testdev_error_is_reachable_by_double_open() {
    // the thesis' bug: the usage count is incremented even when the open fails
    let source = super::support::seed_source("testdev");
    let program = super::support::lower_ok(&source);
    // first read returns 0 (the loop ends), usecount stays 1 after the failed second open
    let result = super::support::run_with(&program, &[0]);
    assert_eq!(result.outcome, c_ir::interp::Outcome::ReachedError);
}

#[test]
fn statement_spans_point_at_their_source_lines() {
    let source = super::support::seed_source("partition");
    let program = super::support::lower_ok(&source);
    let index = diagnostics::LineIndex::new(&source);
    let proc = program.proc(program.proc_by_name("partition").expect("partition"));
    let labelled = proc.label_index("L").expect("the source label L survives");
    let stmt = &proc.body[labelled as usize];
    assert_eq!(&source[stmt.span.start as usize..stmt.span.end as usize], "newl = curr");
    // every statement lies inside the procedure's text (it starts on line 8), on a line of the source
    for stmt in &proc.body {
        assert!(stmt.span.start >= proc.span.start && stmt.span.end <= proc.span.end, "{stmt:?}");
        assert!(index.line_col(stmt.span.start).line >= 8);
    }
}
