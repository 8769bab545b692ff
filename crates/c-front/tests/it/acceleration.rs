//! Loop acceleration in the interpreter (`Limits::accelerate_loops`) against plain runs: the
//! same outcome, return value and inputs for every program and input, with iterations skipped
//! where the loop's iteration moves its variables by constants.

use c_ir::interp::{run, run_observed, Limits, Outcome, RunResult};
use c_ir::Type;

fn run_with(program: &c_ir::Program, inputs: &[i128], accelerate: bool) -> RunResult {
    let mut next = 0;
    let mut feed = |_: &Type| {
        let v = inputs.get(next).copied().unwrap_or(0);
        next += 1;
        v
    };
    run(program, &mut feed, &Limits { record_path: false, accelerate_loops: accelerate, ..Limits::new(1_500_000) })
}

/// (program, whether some input gets iterations skipped)
const PROGRAMS: &[(&str, bool)] = &[
    // counting up and down, unsigned and signed, with the bound an input
    ("int main() { int n = __VERIFIER_nondet_int(); int i = 0; int s = 7; while (i < n) { i = i + 1; s = s + 3; } return s; }", true),
    ("int main() { unsigned x = __VERIFIER_nondet_uint(); unsigned c = 0; while (x > 1) { x -= 2; c++; } return c + x; }", true),
    // a condition that flips in the middle of the loop
    ("int main() { int n = __VERIFIER_nondet_int(); int a = 0; int b = 0; for (int i = 0; i < n; i++) { if (i < 5000) a += 2; else b -= 1; } return a + b; }", true),
    ("int main() { int n = __VERIFIER_nondet_int(); int a = 0; for (int i = 0; i < 100000; i++) { if (i == n) a = a + 1000; a = a + 1; } return a; }", true),
    ("int main() { int n = __VERIFIER_nondet_int(); int a = 0; for (int i = 0; i < 30000; i++) { if (i != n) a = a + 1; } return a; }", true),
    // calls inside the loop
    ("int f(int z) { return z + 3; } int main() { int x = __VERIFIER_nondet_int(); int i = 0; while (i < 60000) { i = f(i); } return i + x; }", true),
    ("int g; void bump(int k) { g = g + k; } int main() { int n = __VERIFIER_nondet_int(); for (int i = 0; i < n; i++) bump(2); return g; }", true),
    // arguments converted to a narrower formal (wraps at 128)
    ("int g; void put(signed char c) { g = c; } int main() { int n = __VERIFIER_nondet_int(); for (int i = 0; i < n; i++) { put(i); } return g; }", true),
    // nested loops, the inner one reset by the outer
    ("int main() { int n = __VERIFIER_nondet_int(); int x = 0; int y = 0; while (x < n) { y = 0; while (y < 10) { y++; } x++; } return x + y; }", true),
    // unsigned wrap-around in the loop: the jump stops before it
    ("int main() { unsigned char c = __VERIFIER_nondet_int(); int n = 0; while (c != 3) { c++; n++; } return n; }", true),
    ("int main() { unsigned u = __VERIFIER_nondet_uint(); int n = 0; while (n < 70000) { u = u + 65536; n++; } return u % 1000; }", true),
    // products with constants and loop-invariant values, char promotions
    ("int main() { int k = __VERIFIER_nondet_int(); if (k < 0 || k > 100) return 0; int s = 0; for (int i = 0; i < 20000; i++) { s = s + 2 * k - 1; } return s; }", true),
    ("int main() { signed char c = 0; int n = 0; while (n < 100) { c = c + 1; n++; } return c; }", true),
    // outside the fragment: arrays, nonlinear updates, parity flips, inputs in the loop
    ("int main() { int a[100]; for (int i = 0; i < 100; i++) a[i] = i; return a[__VERIFIER_nondet_int() % 100 + 0 * 0]; }", false),
    ("int main() { unsigned x = __VERIFIER_nondet_uint(); unsigned y = 1; for (int i = 0; i < 50000; i++) { y = y * 3 + x; } return y % 977; }", false),
    ("int main() { int f = 0; int n = 0; while (n < 50000) { f = !f; n++; } return f; }", false),
    ("int main() { int s = 0; for (int i = 0; i < 1000; i++) { s = s + __VERIFIER_nondet_int() % 3; } return s; }", false),
    ("int main() { int x = 0; int i = 0; while (i < 40000) { x = x + i; i++; } return x % 1000; }", false),
    // the error behind a long loop
    ("int main() { unsigned x = 0; while (x < 0x0fffffff) { x += 2; } if (x % 2 == 0) reach_error(); return 0; }", true),
];

fn inputs() -> Vec<Vec<i128>> {
    let edge = [0i128, 1, -1, 3, 7, 4999, 5000, 5001, 20000, 2147483647, 4294967295];
    edge.iter().map(|&v| vec![v, v, v]).collect()
}

#[test]
fn accelerated_runs_end_like_plain_runs() {
    for &(source, skips) in PROGRAMS {
        let program = super::support::lower_ok(source);
        let mut skipped_somewhere = false;
        if source.contains("reach_error") {
            // the error behind 2^27 iterations: too long for a plain run
            let accelerated = run_with(&program, &[], true);
            assert_eq!(accelerated.outcome, Outcome::ReachedError, "{source}");
            assert!(accelerated.skipped_iterations > 100_000_000);
            continue;
        }
        for input in inputs() {
            let accelerated = run_with(&program, &input, true);
            let plain = run_with(&program, &input, false);
            if plain.outcome == Outcome::StepLimit {
                // too long to compare
                continue;
            }
            assert_eq!(accelerated.outcome, plain.outcome, "{source} with {input:?}");
            assert_eq!(accelerated.inputs, plain.inputs, "{source} with {input:?}");
            assert_eq!(accelerated.deterministic, plain.deterministic, "{source} with {input:?}");
            assert!(accelerated.steps <= plain.steps);
            skipped_somewhere |= accelerated.skipped_iterations > 0;
        }
        assert_eq!(skipped_somewhere, skips, "iterations skipped in {source}");
    }
}

/// Observers see the iterations before the jump and the last one after it, and the jump's
/// description: the loop head and each variable's change.
#[test]
fn observers_see_the_jump() {
    let program = super::support::lower_ok("int main() { int i = 0; int s = 0; while (i < 1000) { i++; s = s - 2; } return s; }");
    let mut jumps = Vec::new();
    let mut seen_i = Vec::new();
    let i_var = program.vars.iter().position(|v| v.source_name == "i").expect("i") as u32;
    let result = run_observed(&program, &mut |_| 0, &Limits { accelerate_loops: true, ..Limits::new(100_000) }, &mut |_, state| {
        if let Some(jump) = state.last_acceleration() {
            if jumps.last() != Some(jump) {
                jumps.push(jump.clone());
            }
        }
        if let Some(v) = state.value_of(c_ir::VarId(i_var)) {
            if seen_i.last() != Some(&v) {
                seen_i.push(v);
            }
        }
    });
    assert_eq!(result.outcome, Outcome::Returned(Some(-2000)));
    assert_eq!(jumps.len(), 1);
    assert_eq!(result.skipped_iterations, jumps[0].iterations);
    assert!(jumps[0].iterations > 990);
    let mut deltas: Vec<i128> = jumps[0].deltas.iter().map(|&(_, d)| d).collect();
    deltas.sort();
    assert_eq!(deltas, vec![-2, 1]);
    // i takes 0, 1, 2, then jumps to the last iterations and ends at 1000
    assert_eq!(&seen_i[..3], &[0, 1, 2]);
    assert_eq!(seen_i.last(), Some(&1000));
    assert!(seen_i.len() < 10);
}
