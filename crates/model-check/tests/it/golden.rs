//! Every `tests/boolprog/*.bp`: expected verdict (first line `// expect: SAFE|UNSAFE`), trace replay, explicit search, golden output.

use std::path::PathBuf;

use model_check::{check, explicit, format_trace, Config, Verdict};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/boolprog")
}

fn error_labels() -> Vec<String> {
    boolprog::ERROR_LABELS.iter().map(|l| l.to_string()).collect()
}

fn run_file(name: &str) {
    let path = dir().join(format!("{name}.bp"));
    let text = std::fs::read_to_string(&path).unwrap();
    let (program, diags) = boolprog::parse(&text);
    assert!(diags.is_empty(), "{name}: {}", diagnostics::render_all(&diags, name, &text));
    let expect_safe = if text.starts_with("// expect: SAFE") {
        true
    } else if text.starts_with("// expect: UNSAFE") {
        false
    } else {
        panic!("{name}: first line must be `// expect: SAFE` or `// expect: UNSAFE`")
    };
    let config = Config { error_labels: error_labels(), ..Config::default() };
    let outcome = check(&program, &config);
    let mut golden = String::new();
    match &outcome.verdict {
        Verdict::Safe => {
            assert!(expect_safe, "{name}: expected UNSAFE, got SAFE");
            golden.push_str("VERDICT: SAFE\n");
            for inv in &outcome.invariants {
                let proc = &program.proc(inv.proc).name;
                let label = inv.label.as_deref().map(|l| format!(" ({l})")).unwrap_or_default();
                golden.push_str(&format!("{proc}#{}{label}: {}\n", inv.stmt.0, inv.text));
            }
        }
        Verdict::ErrorReachable => {
            assert!(!expect_safe, "{name}: expected SAFE, got UNSAFE");
            let trace = outcome.trace.as_ref().unwrap_or_else(|| panic!("{name}: no trace"));
            if let Err(e) = explicit::replay_with_error_labels(&program, trace, &error_labels()) {
                panic!("{name}: trace does not replay: {e}\n{}", format_trace(&program, trace));
            }
            golden.push_str("VERDICT: UNSAFE\n");
            golden.push_str(&format_trace(&program, trace));
        }
        Verdict::Unknown(reason) => panic!("{name}: UNKNOWN ({reason})"),
    }
    // Quantifying dead variables out changes neither the verdict nor the trace's validity.
    let eliminated = check(&program, &Config { eliminate_dead_variables: true, ..config.clone() });
    assert_eq!(eliminated.verdict, outcome.verdict, "{name}: verdict with dead variables eliminated");
    if let Some(trace) = &eliminated.trace {
        if let Err(e) = explicit::replay_with_error_labels(&program, trace, &error_labels()) {
            panic!("{name}: trace without dead variables does not replay: {e}\n{}", format_trace(&program, trace));
        }
    }
    // The explicit search agrees (it may give up on deep recursion).
    match explicit::search_with_error_labels(&program, 200_000, 12, &error_labels()) {
        explicit::SearchResult::ErrorReachable => assert!(!expect_safe, "{name}: explicit search finds an error"),
        explicit::SearchResult::Safe => assert!(expect_safe, "{name}: explicit search finds no error"),
        explicit::SearchResult::Unknown => {}
    }
    expect_test::expect_file![dir().join(format!("{name}.mc"))].assert_eq(&golden);
}

macro_rules! golden_tests {
    ($($name:ident),* $(,)?) => {
        $(#[test] fn $name() { run_file(stringify!($name)); })*
    };
}

golden_tests!(
    partition,
    testdev,
    recursion_parity_safe,
    recursion_parity_unsafe,
    mutual_recursion_safe,
    mutual_recursion_unsafe,
    multiple_returns_safe,
    multiple_returns_unsafe,
    globals_callees_safe,
    globals_callees_unsafe,
    enforce_safe,
    enforce_unsafe,
    enforce_dead_partner_safe,
    enforce_dead_partner_unsafe,
    nested_loops_safe,
    nested_loops_unsafe,
    goto_into_loop_safe,
    goto_into_loop_unsafe,
    independent_pairs_safe,
    stale_after_call_unsafe,
    bebop_constrain_safe,
    bebop_constrain_unsafe,
);

#[test]
fn every_bp_file_has_a_test() {
    let src = include_str!("golden.rs");
    for entry in std::fs::read_dir(dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "bp") {
            let stem = path.file_stem().unwrap().to_str().unwrap().to_string();
            assert!(src.contains(&format!("    {stem},")), "tests/boolprog/{stem}.bp has no golden test");
        }
    }
}

#[test]
fn partition_invariant_at_label_l_is_c2bp_s() {
    let text = std::fs::read_to_string(dir().join("partition.bp")).unwrap();
    let (program, _) = boolprog::parse(&text);
    let outcome = check(&program, &Config::default());
    let inv = outcome.invariant_at_label(&program, "partition", "L").unwrap();
    // (curr != NULL) && (curr->val > v) && ((prev->val <= v) || (prev == NULL))
    assert_eq!(inv.text, "!{curr==NULL} && {curr->val>v} && (!{prev->val>v} || {prev==NULL})");
}

#[test]
fn testdev_trace_leaves_dead_temporaries_out() {
    let text = std::fs::read_to_string(dir().join("testdev.bp")).unwrap();
    let (program, _) = boolprog::parse(&text);
    let outcome = check(&program, &Config { eliminate_dead_variables: true, error_labels: error_labels(), ..Config::default() });
    let trace = outcome.trace.expect("testdev is unsafe");
    // `prm1` is shown only between its assignment and the call; `ret1` is never read.
    expect_test::expect![[r#"
        init main: {locked!=0}=0
        main#0: {locked!=0} := 0;  [Normal]  {locked!=0}=0
        main#1: prm1 := 1;  [Normal]  {locked!=0}=0 prm1=1
        main#2: A: ret1, ret2 := testdev_open(prm1);  [call testdev_open]  {locked!=0}=0 {inode->i_rdev>>8=major}=1
        testdev_open#0: assert({inode->i_rdev>>8=major});  [AssertPassed]  {locked!=0}=0 {inode->i_rdev>>8=major}=1
        testdev_open#1: skip;  [Normal]  {locked!=0}=0 {inode->i_rdev>>8=major}=1
        testdev_open#2: if (*) then  [BranchElse]  {locked!=0}=0 {inode->i_rdev>>8=major}=1
        testdev_open#6: assume(!{locked!=0});  [Assume]  {locked!=0}=0 {inode->i_rdev>>8=major}=1
        testdev_open#7: {locked!=0} := choose(1, 0);  [Normal]  {locked!=0}=1 {inode->i_rdev>>8=major}=1
        testdev_open#8: {testdev_open=0} := choose(1, 0);  [Normal]  {locked!=0}=1 {inode->i_rdev>>8=major}=1 {testdev_open=0}=1
        testdev_open#9: return {inode->i_rdev>>8=major}, {testdev_open=0};  [return to main]  {locked!=0}=1 ret2=1
        main#3: if (ret2) then  [BranchThen]  {locked!=0}=1
        main#4: prm1 := *;  [Normal]  {locked!=0}=1 prm1=0
        main#5: B: ret1, ret2 := testdev_open(prm1);  [call testdev_open]  {locked!=0}=1 {inode->i_rdev>>8=major}=0
        testdev_open#0: assert({inode->i_rdev>>8=major});  [AssertFailed]  {locked!=0}=1 {inode->i_rdev>>8=major}=0
    "#]]
    .assert_eq(&format_trace(&program, &trace));
}
