//! SPIN as a differential oracle for the abstract programs (Dams–Namjoshi §5 check theirs with
//! SPIN): the compact Promela export (`shape::promela`) of each example is run through
//! `spin -a`, gcc and `pan`; pan finds an assertion violation exactly when our model checker
//! finds the abstract program unsafe, and the reachable-state counts are recorded next to the
//! paper's (insertion 7, reversal 34). Needs `spin` and gcc (as `model-check`'s SPIN test).

use expect_test::expect_file;
use shape::Request;
use std::path::PathBuf;
use std::process::Command;

fn require_spin() {
    let found = Command::new("spin").arg("-V").output().map(|o| o.status.success()).unwrap_or(false);
    assert!(found, "SPIN is not installed: this test needs the `spin` binary (Debian: `apt-get install -y spin`) and gcc");
}

/// (states stored, assertion violated) from spin -a, gcc, pan on `model`.
fn run_pan(tag: &str, model: &str) -> (u64, bool) {
    let dir: PathBuf = std::env::temp_dir().join(format!("predabs-shape-spin-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("model.pml"), model).expect("write model");
    let spin = Command::new("spin").args(["-a", "model.pml"]).current_dir(&dir).output().expect("spin");
    assert!(spin.status.success(), "spin -a failed:\n{}\n{model}", String::from_utf8_lossy(&spin.stdout));
    let gcc = Command::new("gcc").args(["-O0", "-DSAFETY", "-DNOCLAIM", "-o", "pan", "pan.c"]).current_dir(&dir).output().expect("gcc");
    assert!(gcc.status.success(), "gcc failed:\n{}", String::from_utf8_lossy(&gcc.stderr));
    let pan = Command::new("./pan").current_dir(&dir).output().expect("pan");
    let out = String::from_utf8_lossy(&pan.stdout).to_string();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(!out.contains(": invalid end state"), "{out}");
    let states = out.lines().find(|l| l.contains("states, stored")).and_then(|l| l.split_whitespace().next()).and_then(|n| n.parse().ok()).unwrap_or_else(|| panic!("no state count:\n{out}"));
    (states, out.contains("assertion violated"))
}

fn request(file: &str, proc: &str, property: &str, pre: &[&str], hints: Option<&str>) -> Request {
    let read = crate::fixture;
    Request {
        source: read(file),
        file_name: file.into(),
        proc: proc.into(),
        properties: vec![property.into()],
        preconditions: pre.iter().map(|s| s.to_string()).collect(),
        bound: 40,
        hints: hints.map(read).unwrap_or_default(),
        auto_hints: false,
    }
}

#[test]
fn spin_agrees_with_the_model_checker_and_counts_few_states() {
    require_spin();
    let cases = [
        ("insertion", request("insert.c", "insert", "forall k: reach[;n](x,k)@n1 => reach[;n](x,k)@ne", &[], None)),
        ("reversal with hints", request("reverse.c", "reverse", "!cyclic[n](y)@n8", &["!cyclic[n](x)@n1"], Some("reverse_full.hints"))),
        ("reversal without precondition", request("reverse.c", "reverse", "!cyclic[n](y)@n8", &[], Some("reverse_full.hints"))),
        ("traversal (bound 10)", Request { bound: 10, ..request("traverse.c", "length", "forall k: reach[;n](x,k)@n1 => reach[;n](x,k)@ne", &[], None) }),
        ("push onto itself", request("push_cycle.c", "push_self", "!cyclic[n](t)@ne", &["!cyclic[n](x)@n1"], None)),
    ];
    let mut table = String::from("example: SPIN states stored, assertion violated (paper: insertion 7, reversal 34)\n");
    for (k, (name, req)) in cases.iter().enumerate() {
        let report = shape::analyze(req).unwrap_or_else(|_| panic!("{name}: analysis refused"));
        let model = report.promela.as_ref().expect("promela");
        let (states, violated) = run_pan(&format!("{k}"), model);
        assert_eq!(violated, report.abstract_trace.is_some(), "{name}: SPIN and the model checker disagree\n{model}");
        table += &format!("{name}: {states}, {violated}\n");
    }
    expect_file!["../../../../tests/shape/spin_states.expected"].assert_eq(&table);
}
