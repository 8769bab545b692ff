//! End to end: `predabs check --witness` on the programs of `tests/witness/`, `predabs validate`
//! on the witnesses (and on mutated ones), and `predabs check TASK.yml`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn programs() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/witness")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("predabs-witness-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs predabs; returns (exit code, stdout).
fn predabs(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_predabs")).args(args).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).to_string())
}

fn check_with_witness(program: &Path, witness: &Path) -> String {
    let (code, out) = predabs(&["check", program.to_str().unwrap(), "--witness", witness.to_str().unwrap(), "--timeout", "30"]);
    assert_eq!(code, 0, "{out}");
    out.lines().find(|l| l.starts_with("VERDICT:")).unwrap_or("").to_string()
}

fn validate(program: &Path, witness: &Path) -> (i32, String) {
    predabs(&["validate", program.to_str().unwrap(), "--witness", witness.to_str().unwrap(), "--timeout", "30"])
}

/// The witness `text` with every invariant's value replaced by `value`, written to a file in `dir`.
fn mutant(dir: &Path, text: &str, value: &str) -> PathBuf {
    let lines: Vec<String> =
        text.lines().map(|l| if l.trim_start().starts_with("value:") { format!("      value: {value}") } else { l.to_string() }).collect();
    let path = dir.join(format!("{}.yml", value.len()));
    std::fs::write(&path, lines.join("\n")).unwrap();
    path
}

#[test]
fn witnesses_of_the_test_programs_validate() {
    let dir = scratch("all");
    for (name, verdict) in [
        ("unsafe_nondet.c", "UNSAFE"),
        ("unsafe_loop.c", "UNSAFE"),
        ("safe_counter.c", "SAFE"),
        ("safe_two_counters.c", "SAFE"),
        ("safe_for.c", "SAFE"),
    ] {
        let w = dir.join(format!("{name}.yml"));
        assert_eq!(check_with_witness(&programs().join(name), &w), format!("VERDICT: {verdict}"), "{name}");
        let (code, out) = validate(&programs().join(name), &w);
        assert_eq!(code, 0, "{name}: {out}");
        assert!(out.contains("VALIDATION: VALID"), "{name}: {out}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn wrong_and_weakened_invariants_are_rejected() {
    let dir = scratch("mutants");
    let program = programs().join("safe_counter.c");
    let w = dir.join("w.yml");
    check_with_witness(&program, &w);
    let text = std::fs::read_to_string(&w).unwrap();
    let with_value = |value: &str| mutant(&dir, &text, value);
    // false at the loop's last test (i == 10): INVALID
    let (code, out) = validate(&program, &with_value("i < 10"));
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("does not hold"), "{out}");
    // true but too weak to prove anything on its own: VALID as SV-COMP validators see it (the
    // invariant holds, the program is correct), rejected (UNKNOWN) with --strict
    let weak = with_value("i >= 0");
    let (code, out) = validate(&program, &weak);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("do not prove the program safe on their own"), "{out}");
    let (code, out) = predabs(&["validate", program.to_str().unwrap(), "--witness", weak.to_str().unwrap(), "--strict"]);
    assert_eq!(code, 3, "{out}");
    // exactly what is needed: VALID by induction
    let (code, out) = validate(&program, &with_value("i <= 10"));
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("inductive"), "{out}");
    // asserted conjunct by conjunct: one wrong conjunct among right ones is found and named
    let (code, out) = validate(&program, &with_value("i >= 0 && i <= 10 && i != 5"));
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("does not hold"), "{out}");
    let (code, out) = validate(&program, &with_value("(i >= 0 && i <= 10) && (i != 11 || i == 3)"));
    assert_eq!(code, 0, "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A function whose body starts with its loop: the loop head is the function's first statement,
/// whose invariant the engine reports as the one at entry; the witness places it at the loop,
/// it validates, and a wrong one there is rejected.
#[test]
fn a_loop_that_starts_its_function_gets_its_invariant() {
    let dir = scratch("first");
    let program = programs().join("safe_loop_first.c");
    let w = dir.join("w.yml");
    assert_eq!(check_with_witness(&program, &w), "VERDICT: SAFE");
    let text = std::fs::read_to_string(&w).unwrap();
    assert!(text.contains("line: 8") && text.contains("function: count"), "{text}");
    let (code, out) = validate(&program, &w);
    assert_eq!(code, 0, "{out}");
    let (code, out) = validate(&program, &mutant(&dir, &text, "n < 10"));
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("does not hold"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn task_files_give_sv_comp_verdicts() {
    let dir = scratch("task");
    std::fs::copy(programs().join("unsafe_nondet.c"), dir.join("p.c")).unwrap();
    let task = dir.join("p.yml");
    std::fs::write(
        &task,
        "format_version: '2.0'\ninput_files: 'p.c'\nproperties:\n  - property_file: ../properties/unreach-call.prp\n    expected_verdict: false\noptions:\n  language: C\n  data_model: ILP32\n",
    )
    .unwrap();
    let (code, out) = predabs(&["check", task.to_str().unwrap(), "--json", "--timeout", "30"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("\"sv_comp\": \"false(unreach-call)\""), "{out}");
    let w = dir.join("w.yml");
    check_with_witness(&task, &w);
    let witness = std::fs::read_to_string(&w).unwrap();
    assert!(witness.contains("data_model: ILP32"), "{witness}");
    assert_eq!(validate(&task, &w).0, 0);
    // a task without unreach-call is refused with exit code 2
    let other = dir.join("q.yml");
    std::fs::write(&other, "format_version: '2.0'\ninput_files: 'p.c'\nproperties:\n  - property_file: ../properties/termination.prp\n").unwrap();
    assert_eq!(predabs(&["check", other.to_str().unwrap()]).0, 2);
    let _ = std::fs::remove_dir_all(&dir);
}
