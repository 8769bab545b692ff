//! Issue 33, "never panic, abort or hang on user input": programs that the front end accepts
//! (every expression flat) but whose *analysis* builds deeply nested terms. A weakest
//! precondition (or a strongest postcondition) along `n` assignments `x = (x ^ y) + z;` nests
//! `x` `2n` levels deep; before the depth guard of `logic::MAX_TERM_DEPTH` (512 levels),
//! `predabs check --techniques cegar` on 500 such assignments aborted with "thread 'main' has
//! overflowed its stack" (signal 6) in the solver's encoder after 1.8 s (unoptimised build),
//! and so did `x = x * y + z;`. Now the path analysis gives up on the path with the reason
//! and the run ends UNKNOWN, exit status 0.

use std::process::{Command, Output};

fn program(statement: &str, n: usize) -> String {
    let body: String = (0..n).map(|_| format!("  {statement}\n")).collect();
    format!(
        "extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\nint main(void) {{\n  int x = __VERIFIER_nondet_int(), y = __VERIFIER_nondet_int(), z = __VERIFIER_nondet_int();\n{body}  if (x == 5) reach_error();\n  return 0;\n}}\n"
    )
}

fn scratch(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("predabs-deep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch folder");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write input");
    path
}

fn predabs(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_predabs")).args(args).output().expect("run predabs")
}

/// The run ended by itself (no signal) with exit status 0 and this verdict; its output.
fn assert_verdict(out: &Output, verdict: &str) -> String {
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "ended by {:?}\n{stderr}\n{stdout}", out.status);
    assert!(stdout.lines().any(|l| l == format!("VERDICT: {verdict}")), "{stderr}\n{stdout}");
    stdout
}

#[test]
fn weakest_preconditions_nested_past_the_limit_end_unknown_with_the_reason() {
    for (name, statement, n) in [("xor500.c", "x = (x ^ y) + z;", 500), ("mul500.c", "x = x * y + z;", 500), ("xor2000.c", "x = (x ^ y) + z;", 2000)] {
        let file = scratch(name, &program(statement, n));
        for refine in ["wp", "sp"] {
            let out = predabs(&["check", file.to_str().unwrap(), "--techniques", "cegar", "--refine", refine, "--timeout", "120"]);
            let stdout = assert_verdict(&out, "UNKNOWN");
            assert!(stdout.contains("nested more than 512 levels deep"), "{name} --refine {refine}:\n{stdout}");
        }
    }
}

#[test]
fn chains_just_inside_the_limit_are_decided_quickly() {
    // 500 assignments `x = y - x;` nest the condition about 500 levels: decided by the loop.
    // Before the depth limit and the size bound on refine's overflow side conditions, 2,000 of
    // them took 271 s and 2.9 GB, and 500 took 22 s and 737 MB (unoptimised build)
    for (name, n, verdict) in [("ymx500.c", 500, "UNSAFE"), ("ymx2000.c", 2000, "UNKNOWN")] {
        let file = scratch(name, &program("x = y - x;", n));
        let out = predabs(&["check", file.to_str().unwrap(), "--techniques", "cegar", "--timeout", "120"]);
        assert_verdict(&out, verdict);
    }
}

#[test]
fn the_portfolio_still_decides_them() {
    // a random run reaches the error: the depth limit costs the other techniques nothing
    let file = scratch("xor500-portfolio.c", &program("x = (x ^ y) + z;", 500));
    assert_verdict(&predabs(&["check", file.to_str().unwrap(), "--timeout", "120"]), "UNSAFE");
}

#[test]
fn a_deeply_nested_predicate_file_gives_a_verdict_or_a_diagnostic() {
    // the predicate nests 121 levels (about as deep as the front end allows) and is pushed
    // through every assignment; the refinement's weakest precondition along the 200
    // assignments nests 400 levels, inside the limit: decided, a replayed counterexample
    let file = scratch("xor200.c", &program("x = (x ^ y) + z;", 200));
    let mut predicate = "x".to_string();
    for level in 0..120 {
        predicate = if level % 2 == 0 { format!("({predicate} ^ y)") } else { format!("({predicate} + z)") };
    }
    let accepted = scratch("accepted.preds", &format!("main {{ {predicate} == 5 }}\n"));
    let out = predabs(&["check", file.to_str().unwrap(), "--techniques", "cegar", "--predicates", accepted.to_str().unwrap(), "--timeout", "120"]);
    assert_verdict(&out, "UNSAFE");
    // deeper than the front end's limit: a diagnostic at line:column, exit status 1
    let mut deeper = "x".to_string();
    for _ in 0..20_000 {
        deeper = format!("({deeper})");
    }
    let rejected = scratch("rejected.preds", &format!("main {{ {deeper} == 5 }}\n"));
    let out = predabs(&["check", file.to_str().unwrap(), "--predicates", rejected.to_str().unwrap()]);
    let all = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{all}");
    assert!(all.contains("nested too deeply"), "{all}");
}
