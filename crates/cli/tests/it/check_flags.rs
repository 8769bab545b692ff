//! `predabs check` with the papers' conventions (issue 30): `--error-label`, `--entry` and
//! `--integers wrap|ideal`, on the programs of `tests/check-flags/`.

use super::predabs;

fn flags_program(name: &str) -> String {
    format!("{}/../../tests/check-flags/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// `check --techniques cegar --json FILE ARGS` as JSON.
fn check(name: &str, args: &[&str]) -> serde_json::Value {
    let file = flags_program(name);
    let mut all = vec!["check", file.as_str(), "--techniques", "cegar", "--json"];
    all.extend_from_slice(args);
    let out = predabs().args(&all).output().expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON")
}

#[test]
fn error_label_names_the_error_location() {
    // no reach_error in the file: without a label there is nothing to reach
    let none = check("error_label.c", &[]);
    assert_eq!(none["verdict"], "SAFE");
    assert!(none["reason"].as_str().unwrap_or("").contains("no error location"), "{}", none["reason"]);
    // ERROR: needs y < 0, impossible since y is 0 or x - 10 with x > 10
    let error = check("error_label.c", &["--error-label", "ERROR"]);
    assert_eq!(error["verdict"], "SAFE", "{}", error["reason"]);
    assert_eq!(error["decided_by"], "cegar");
    // BUG: is reached with x == 42, replayed
    let bug = check("error_label.c", &["--error-label", "BUG"]);
    assert_eq!(bug["verdict"], "UNSAFE", "{}", bug["reason"]);
    assert_eq!(bug["inputs"], serde_json::json!(["42"]));
}

#[test]
fn entry_runs_a_procedure_in_its_open_environment() {
    // from main, scale gets 7: safe
    assert_eq!(check("entry.c", &[])["verdict"], "SAFE");
    // from scale, its argument is an input: v > 100 reaches the error, replayed
    let scale = check("entry.c", &["--entry", "scale"]);
    assert_eq!(scale["verdict"], "UNSAFE", "{}", scale["reason"]);
    let v: i64 = scale["inputs"][0].as_str().and_then(|s| s.parse().ok()).expect("an input for v");
    assert!(v > 100, "{v}");
    // clamp is safe whatever its argument and the global limit
    assert_eq!(check("entry.c", &["--entry", "clamp"])["verdict"], "SAFE");
    // an entry that does not exist is a warning and no verdict of SAFE by accident
    let missing = check("entry.c", &["--entry", "nosuch"]);
    assert_ne!(missing["verdict"], "UNSAFE");
    assert!(missing["diagnostics"].as_array().is_some_and(|d| d.iter().any(|d| d["message"].as_str().unwrap_or("").contains("nosuch"))));
}

#[test]
fn integers_ideal_proves_what_wrap_around_breaks() {
    let ideal = check("overflow.c", &["--integers", "ideal"]);
    assert_eq!(ideal["verdict"], "SAFE", "{}", ideal["reason"]);
    assert_eq!(ideal["decided_by"], "cegar");
    // bit-precise: the solver finds x == INT_MAX, whose x + 1 the interpreter rejects as
    // undefined behaviour, so the loop cannot call it SAFE
    let wrap = check("overflow.c", &["--integers", "wrap"]);
    assert_ne!(wrap["verdict"], "SAFE");
    assert!(wrap["reason"].as_str().unwrap_or("").contains("overflow"), "{}", wrap["reason"]);
    // the flag is checked by clap
    let out = predabs().args(["check", &flags_program("overflow.c"), "--integers", "real"]).output().expect("runs");
    assert!(!out.status.success());
}
