//! The pushdown-system view (BOOP ch. 6): the translation of BOOP's testdev example as a golden
//! file, and the post* engine against the BEBOP engine on every boolean program under `tests/`
//! and on generated programs.
//!
//! `PREDABS_PDS_PROGRAMS=1000 cargo test -p model-check --test it pds` runs the property test on
//! 1,000 generated programs (default 150, to keep the test profile fast).

use std::path::{Path, PathBuf};

use boolprog::generate::{random_program, GeneratorParams};
use model_check::{check, pds, Config, Verdict};
use proptest::prelude::*;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests")
}

fn error_labels() -> Vec<String> {
    boolprog::ERROR_LABELS
        .iter()
        .map(|l| l.to_string())
        .collect()
}

fn boolean_programs(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            boolean_programs(&path, out);
        } else if path.extension().is_some_and(|e| e == "bp") {
            out.push(path);
        }
    }
}

/// The verdicts of both engines, which must be equal and decided.
fn agree(program: &boolprog::Program, config: &Config, what: &str) -> Verdict {
    let bebop = check(
        program,
        &Config {
            compute_invariants: false,
            compute_trace: false,
            ..config.clone()
        },
    );
    let pushdown = pds::check(program, config);
    assert!(
        !matches!(bebop.verdict, Verdict::Unknown(_)),
        "{what}: BEBOP says {:?}",
        bebop.verdict
    );
    assert_eq!(
        pushdown.verdict,
        bebop.verdict,
        "{what}\n{}",
        boolprog::print_bebop(program).text
    );
    pushdown.verdict
}

#[test]
fn pds_engine_agrees_with_bebop_on_every_boolean_program_under_tests() {
    let mut files = Vec::new();
    boolean_programs(&root(), &mut files);
    let mut compared = 0;
    let mut unsafe_count = 0;
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let (program, diags) = boolprog::parse(&text);
        assert!(
            !diagnostics::has_errors(&diags),
            "{}: {diags:?}",
            path.display()
        );
        if diagnostics::has_errors(&boolprog::validate(&program)) {
            continue;
        }
        let config = Config {
            error_labels: error_labels(),
            ..Config::default()
        };
        unsafe_count += usize::from(
            agree(&program, &config, &path.display().to_string()) == Verdict::ErrorReachable,
        );
        compared += 1;
    }
    assert!(
        compared >= 28,
        "compared only {compared} of {} files",
        files.len()
    );
    assert!(unsafe_count >= 8, "unsafe: {unsafe_count}");
}

#[test]
fn boop_fig_6_1_translation_of_testdev() {
    let text = std::fs::read_to_string(root().join("boolprog/testdev.bp")).unwrap();
    let (program, diags) = boolprog::parse(&text);
    assert!(diags.is_empty(), "{diags:?}");
    let system = pds::translate(&program, None, &[]).expect("an entry procedure");
    let mut golden = system.to_text();
    golden.push_str(
        "\nsaturated automaton: reachable heads <g, (n, l)> per point (assertions ignored)\n",
    );
    for (point, heads) in pds::saturated_heads(&program, &Config::default()).expect("saturates") {
        golden.push_str(&format!("  {point}: {heads}\n"));
    }
    expect_test::expect_file![root().join("pds/testdev.pds")].assert_eq(&golden);
}

#[test]
fn entry_procedure_and_error_labels_are_honoured() {
    let text = "decl g;\nvoid main() begin g := 0; assert(g); end\nvoid other() begin g := 1; ERROR: skip; end\n";
    let (program, diags) = boolprog::parse(text);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(
        agree(&program, &Config::default(), "main"),
        Verdict::ErrorReachable
    );
    let other = Config {
        entry: Some("other".into()),
        ..Config::default()
    };
    assert_eq!(agree(&program, &other, "other"), Verdict::Safe);
    let labelled = Config {
        error_labels: error_labels(),
        ..other
    };
    assert_eq!(
        agree(&program, &labelled, "other with ERROR"),
        Verdict::ErrorReachable
    );
    let missing = pds::check(
        &program,
        &Config {
            entry: Some("nowhere".into()),
            ..Config::default()
        },
    );
    assert!(matches!(missing.verdict, Verdict::Unknown(_)));
}

fn cases() -> u32 {
    std::env::var("PREDABS_PDS_PROGRAMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(150)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn pds_engine_agrees_with_bebop_on_generated_programs(
        seed in any::<u64>(),
        globals in 1usize..4,
        procs in 0usize..4,
        locals in 1usize..3,
        statements in 3usize..9,
        recursion in any::<bool>(),
    ) {
        let params = GeneratorParams { globals, procs, locals, statements, recursion, asserts: true, seed };
        let program = random_program(&params);
        agree(&program, &Config::default(), &format!("{params:?}"));
    }
}
