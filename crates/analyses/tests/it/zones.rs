//! The difference-bound analysis (`cegar::zones`) against concrete runs: its SAFE answers and
//! its invariants are checked on every one of the 256 executions of programs whose only input
//! is an `unsigned char`, and on random runs of programs with `int` inputs.

use crate::bmc::{lower, random_stmt, render, VARS};
use c_ir::interp::{run_observed, Limits, Outcome};
use c_ir::Program;
use analyses::zones::{analyze, ZoneResult};


/// Runs all 256 inputs: the error is unreachable when the analysis says so, and every
/// invariant holds whenever its statement is reached. Returns whether some run reaches the error.
fn agree_with_all_256_runs(program: &Program, result: &ZoneResult, source: &str) -> bool {
    let mut reached = false;
    for x in 0..256 {
        let mut violations = Vec::new();
        let mut observe = |at: c_ir::StmtRef, state: &c_ir::interp::State| {
            for inv in result.invariants.iter().filter(|i| i.at == at) {
                if state.eval(&inv.formula) == Some(0) {
                    violations.push(inv.text.clone());
                }
            }
        };
        // the analysis is sound for wrapping signed arithmetic too (`-fwrapv`)
        let run = run_observed(program, &mut |_| x, &Limits { wrap_signed_overflow: true, ..Limits::new(100_000) }, &mut observe);
        assert_ne!(run.outcome, Outcome::StepLimit);
        assert!(violations.is_empty(), "input {x}: invariants violated {violations:?}:\n{source}");
        reached |= run.outcome == Outcome::ReachedError;
    }
    assert!(!(result.safe && reached), "the analysis says SAFE, a run reaches the error:\n{source}");
    reached
}

fn analyzed(source: &str) -> (Program, ZoneResult) {
    let program = lower(source);
    let result = analyze(&program, &|| false).expect("the analysis finishes");
    (program, result)
}

#[test]
fn bounds_and_differences_prove_loops_safe() {
    // the bound of a buffer walk, an offset relation carried through a copy and a loop
    let source = "int main() { int n = __VERIFIER_nondet_uchar(); if (n < 1) return 0;
        int last = n - 1; int lim = last; int p;
        for (p = 0; p <= lim; p++) { if (p < 0 || p >= n) reach_error(); }
        return 0; }";
    let (program, result) = analyzed(source);
    assert!(result.safe);
    assert!(!agree_with_all_256_runs(&program, &result, source));
    assert!(result.invariants.iter().any(|i| i.text.contains("p <= n")), "{:?}", result.invariants.iter().map(|i| &i.text).collect::<Vec<_>>());
    // a lower bound kept by an outer loop and an inner loop starting from it
    let source = "int main() { int l = __VERIFIER_nondet_uchar(); int n = __VERIFIER_nondet_uchar(); if (l < 1) return 0;
        for (int k = 1; k < n; k++) { for (int i = l; i < n; i++) { if (i < 1) reach_error(); }
          if (__VERIFIER_nondet_uchar()) l = l + 1; }
        return 0; }";
    let (_, result) = analyzed(source);
    assert!(result.safe);
    assert!(result.loop_facts.values().flatten().any(|e| format!("{e:?}").contains("Le")), "relations become candidates");
}

#[test]
fn wrap_around_is_never_assumed_away() {
    for source in [
        // signed overflow wraps in the interpreter and the solver
        "int main() { int x = __VERIFIER_nondet_uchar(); x = x * 16777216; if (x < 0) reach_error(); return 0; }",
        "int main() { unsigned u = __VERIFIER_nondet_uchar(); u = u - 1; if (u > 1000) reach_error(); return 0; }",
        "int main() { unsigned char c = __VERIFIER_nondet_uchar(); c = c + 1; if (c == 0) reach_error(); return 0; }",
        "int main() { int x = __VERIFIER_nondet_uchar(); short s = x * 200; if (s < 0) reach_error(); return 0; }",
        // a loop that runs its counter past the type's end
        "int main() { unsigned char i = __VERIFIER_nondet_uchar(); int n = 0; while (i != 3) { i++; n++; } if (n > 250) reach_error(); return 0; }",
    ] {
        let (program, result) = analyzed(source);
        assert!(!result.safe, "{source}");
        assert!(agree_with_all_256_runs(&program, &result, source), "the error is reachable in:\n{source}");
    }
}

#[test]
fn calls_keep_the_callers_relations_and_see_global_writes() {
    let source = "int g; int h;
        int bump(int v) { g = g + 1; return v + 1; }
        int main() { int a = __VERIFIER_nondet_uchar(); int b = a; g = 0; h = 5;
          int r = bump(a);
          if (b != a || r != a + 1 || g != 1 || h != 5) reach_error();
          return 0; }";
    let (program, result) = analyzed(source);
    assert!(result.safe);
    agree_with_all_256_runs(&program, &result, source);
    // the callee's write must not be forgotten
    let source = "int g; void set(void) { g = 200; }
        int main() { g = __VERIFIER_nondet_uchar(); if (g > 100) return 0; set(); if (g > 100) reach_error(); return 0; }";
    let (program, result) = analyzed(source);
    assert!(!result.safe);
    assert!(agree_with_all_256_runs(&program, &result, source));
}

#[test]
fn recursion_is_declined() {
    let program = lower("int f(int n) { if (n <= 0) return 0; return f(n - 1); } int main() { if (f(__VERIFIER_nondet_uchar()) != 0) reach_error(); return 0; }");
    assert!(analyze(&program, &|| false).is_none());
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 256, ..proptest::prelude::ProptestConfig::default() })]
    /// On random loop programs over several integer types, a SAFE answer means no run reaches
    /// the error, and the invariants hold on all 256 runs.
    #[test]
    fn random_programs_agree_with_all_256_runs(
        stmts in proptest::collection::vec(random_stmt(), 1..5),
        ty in proptest::sample::select(vec!["int", "unsigned", "short", "unsigned char", "signed char", "long", "unsigned long"]),
        var in 0usize..3,
        other in 0usize..3,
        check in proptest::sample::select(vec!["==", ">", "<", "diff"]),
        target in -4i32..300,
    ) {
        let mut body = String::new();
        render(&stmts, 0, &mut body);
        let condition = match check {
            "diff" => format!("{} - {} > {}", VARS[var], VARS[other], target),
            op => format!("{} {op} {target}", VARS[var]),
        };
        let source = format!(
            "int step(int v) {{ if (v > 100) return v - 100; return v + 3; }}
             int main() {{ {ty} a = __VERIFIER_nondet_uchar(); {ty} b = 1; {ty} c = 0;
             {body}
             if ({condition}) reach_error(); return 0; }}"
        );
        let program = lower(&source);
        let result = analyze(&program, &|| false).expect("no recursion, small procedures");
        agree_with_all_256_runs(&program, &result, &source);
    }
}
