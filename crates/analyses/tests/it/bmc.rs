//! Bounded model checking (`cegar::bmc`) against exhaustive concrete runs: small programs whose
//! only input is an `unsigned char`, so all 256 executions can be run on the interpreter.

use c_ir::interp::{run, Limits, Outcome};
use c_ir::Program;
use analyses::bmc::{applicable, bounded_check, bounded_check_from, BmcAnswer};

pub(crate) const HEADER: &str = "extern unsigned char __VERIFIER_nondet_uchar(void);\nextern void reach_error(void);\n";

pub(crate) fn lower(body: &str) -> Program {
    let source = format!("{HEADER}{body}");
    let (program, diagnostics) = c_front::lower(&source, "t.c", &c_front::LowerOptions::default());
    assert!(!diagnostics::has_errors(&diagnostics), "{}", diagnostics::render_all(&diagnostics, "t.c", &source));
    program.expect("lowered")
}

/// Whether some input value makes the program reach its error (every run ends within the limit).
fn reachable_by_exhaustive_runs(program: &Program) -> bool {
    (0..256).any(|x| {
        let result = run(program, &mut |_| x, &Limits::new(100_000));
        assert_ne!(result.outcome, Outcome::StepLimit);
        result.outcome == Outcome::ReachedError
    })
}

fn check(body: &str) -> BmcAnswer {
    let program = lower(body);
    assert!(applicable(&program));
    let answer = bounded_check(&program, &solver::SolverConfig::c_semantics(), &|| false);
    let reachable = reachable_by_exhaustive_runs(&program);
    match &answer {
        BmcAnswer::Safe { .. } => assert!(!reachable, "BMC says SAFE, a concrete run reaches the error:\n{body}"),
        BmcAnswer::Unsafe { counterexample, .. } => {
            assert!(reachable, "BMC says UNSAFE, no concrete run reaches the error:\n{body}");
            assert!(concrete::replay_to_error(&program, &counterexample.inputs).is_ok());
        }
        BmcAnswer::Unknown(why) => panic!("UNKNOWN ({why}):\n{body}"),
    }
    answer
}

fn is_safe(answer: &BmcAnswer) -> bool {
    matches!(answer, BmcAnswer::Safe { .. })
}

#[test]
fn bit_loops_agree_with_all_256_runs() {
    // counting the set bits, two ways
    let popcount = |wrong: &str| {
        format!(
            "int main() {{ unsigned char x = __VERIFIER_nondet_uchar(); unsigned char v = x; int n = 0;
               while (v != 0) {{ v = v & (v - 1); n++; }}
               int m = 0; for (int i = 0; i < 8; i++) {{ if ((x >> i) & 1) m++; }}
               if (n != m{wrong}) reach_error(); return 0; }}"
        )
    };
    assert!(is_safe(&check(&popcount(""))));
    // reachable exactly when all 8 bits are set
    assert!(!is_safe(&check(&popcount(" || n == 8"))));
}

#[test]
fn nested_loops_restart_their_inner_count() {
    let nested = |bound: u32| {
        format!(
            "int main() {{ unsigned char x = __VERIFIER_nondet_uchar(); int s = 0;
               for (int i = 0; i < 3; i++) {{ for (int j = 0; j < 4; j++) {{ s++; }} }}
               if (s + (x & 1) == {bound}) reach_error(); return 0; }}"
        )
    };
    assert!(!is_safe(&check(&nested(13))));
    assert!(is_safe(&check(&nested(14))));
}

#[test]
fn calls_recursion_and_globals_are_inlined() {
    let program = |target: u32| {
        format!(
            "int g; int f(int n) {{ g++; if (n == 0) return 0; return 2 + f(n - 1); }}
             int main() {{ unsigned char x = __VERIFIER_nondet_uchar(); int r = f(x % 4);
               if (r + g == {target}) reach_error(); return 0; }}"
        )
    };
    // r = 2k, g = k + 1 for k = x % 4: r + g = 3k + 1 is 1, 4, 7 or 10
    assert!(!is_safe(&check(&program(10))));
    assert!(is_safe(&check(&program(9))));
}

#[test]
fn main_with_argv_is_handled_when_pointers_are_only_copied() {
    // `argc` is an input like the nondeterministic char; `argv` is never dereferenced
    let body = |bound: u32| {
        format!(
            "int main(int argc, char **argv) {{ char **keep = argv; int n = __VERIFIER_nondet_uchar() % 10; int k = 0;
               for (int i = 0; i < n; i++) {{ k += 3; }}
               if (keep == argv && k == {bound}) reach_error(); return 0; }}"
        )
    };
    assert!(!is_safe(&check(&body(27))));
    assert!(is_safe(&check(&body(28))));
    assert!(!applicable(&lower("int main(int argc, char **argv) { if (argv[0] == 0) reach_error(); return 0; }")));
}

#[test]
fn unbounded_loops_give_no_answer_and_memory_is_declined() {
    let program = lower("int main() { unsigned x = 0; while (__VERIFIER_nondet_uchar()) { x++; } if (x == 100000) reach_error(); return 0; }");
    let calls = std::cell::Cell::new(0u32);
    let stop = || {
        calls.set(calls.get() + 1);
        calls.get() > 12
    };
    assert!(matches!(bounded_check(&program, &solver::SolverConfig::c_semantics(), &stop), BmcAnswer::Unknown(_)));
    assert!(!applicable(&lower("int main() { int a[2]; a[0] = __VERIFIER_nondet_uchar(); if (a[0] == 3) reach_error(); return 0; }")));
}

/// Resuming at the bound where a stopped check left off gives the answer a check from the
/// start gives, with less work (the portfolio's probe and its check after the loop).
#[test]
fn a_check_resumes_at_the_bound_it_was_stopped_at() {
    let program = lower("int main() { unsigned char x = __VERIFIER_nondet_uchar(); int n = 0; for (int i = 0; i < 20; i++) { n += x & 1; } if (n == 21) reach_error(); return 0; }");
    let solver = |meter: &budget::Meter| solver::SolverConfig { meter: meter.clone(), ..solver::SolverConfig::c_semantics() };
    let whole = budget::Meter::default();
    let (answer, _) = bounded_check_from(&program, &solver(&whole), 2, &|| false);
    assert!(matches!(answer, BmcAnswer::Safe { bound: 32 }));
    // stopped after a few polls: some bounds were tried and left executions past them
    let probe = budget::Meter::default();
    let polls = std::cell::Cell::new(0u32);
    let (stopped, resume) = bounded_check_from(&program, &solver(&probe), 2, &|| {
        polls.set(polls.get() + 1);
        polls.get() > 3 && probe.spent() > 0
    });
    assert!(matches!(stopped, BmcAnswer::Unknown(_)), "stopped early");
    assert!((4..=16).contains(&resume) && resume.is_power_of_two(), "resume at {resume}");
    let rest = budget::Meter::default();
    let (answer, at) = bounded_check_from(&program, &solver(&rest), resume, &|| false);
    assert!(matches!(answer, BmcAnswer::Safe { bound: 32 }) && at == 32);
    assert!(rest.spent() < whole.spent(), "resuming skips the bounds already tried: {} vs {}", rest.spent(), whole.spent());
}

/// A random statement over `a` (the input), `b`, `c`: assignments, branches, loops with
/// constant bounds (so every run ends and the unrolling is complete) and calls of `step`.
#[derive(Clone, Debug)]
pub(crate) enum Random {
    Assign(usize, usize, &'static str, i32),
    If(usize, &'static str, i32, Vec<Random>, Vec<Random>),
    Loop(u8, Vec<Random>),
    Call(usize, usize),
}

pub(crate) const VARS: [&str; 3] = ["a", "b", "c"];

pub(crate) fn random_stmt() -> impl proptest::strategy::Strategy<Value = Random> {
    use proptest::prelude::*;
    let leaf = prop_oneof![
        (0usize..3, 0usize..3, prop::sample::select(vec!["+", "-", "*", "&", "|", "^", ">>", "%"]), -3i32..9)
            .prop_map(|(x, y, op, k)| Random::Assign(x, y, op, k)),
        (0usize..3, 0usize..3).prop_map(|(x, y)| Random::Call(x, y)),
    ];
    leaf.prop_recursive(3, 16, 3, |inner| {
        prop_oneof![
            (0usize..3, prop::sample::select(vec!["<", "==", "!=", ">="]), -2i32..12, prop::collection::vec(inner.clone(), 0..3), prop::collection::vec(inner.clone(), 0..2))
                .prop_map(|(x, op, k, t, e)| Random::If(x, op, k, t, e)),
            (1u8..5, prop::collection::vec(inner, 1..3)).prop_map(|(n, body)| Random::Loop(n, body)),
        ]
    })
}

pub(crate) fn render(stmts: &[Random], depth: usize, out: &mut String) {
    for s in stmts {
        match s {
            Random::Assign(x, y, op, k) => {
                // keep `%` and `>>` defined: a positive divisor, a small shift
                let k = match *op {
                    "%" => k.rem_euclid(7) + 1,
                    ">>" => k.rem_euclid(5),
                    _ => *k,
                };
                out.push_str(&format!("{} = {} {op} {k};\n", VARS[*x], VARS[*y]));
            }
            Random::Call(x, y) => out.push_str(&format!("{} = step({});\n", VARS[*x], VARS[*y])),
            Random::If(x, op, k, t, e) => {
                out.push_str(&format!("if ({} {op} {k}) {{\n", VARS[*x]));
                render(t, depth, out);
                out.push_str("} else {\n");
                render(e, depth, out);
                out.push_str("}\n");
            }
            Random::Loop(n, body) => {
                let i = format!("i{depth}");
                out.push_str(&format!("for (int {i} = 0; {i} < {n}; {i}++) {{\n"));
                render(body, depth + 1, out);
                out.push_str("}\n");
            }
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 48, ..proptest::prelude::ProptestConfig::default() })]
    /// On random loop programs, BMC agrees with running all 256 inputs (`check` asserts it).
    #[test]
    fn random_bounded_programs_agree_with_all_256_runs(
        stmts in proptest::collection::vec(random_stmt(), 1..5),
        var in 0usize..3,
        target in -4i32..24,
    ) {
        let mut body = String::new();
        render(&stmts, 0, &mut body);
        let source = format!(
            "int step(int v) {{ if (v > 100) return v - 100; return v + 3; }}
             int main() {{ int a = __VERIFIER_nondet_uchar(); int b = 1; int c = 0;
             {body}
             if ({} == {target}) reach_error(); return 0; }}",
            VARS[var]
        );
        check(&source);
    }
}
