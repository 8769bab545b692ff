//! The interpreter agrees with gcc: each program in `tests/c-front/interp/` is compiled with gcc
//! (with a prelude reading nondeterministic values from stdin and printing `out(v)`) and run on
//! the same inputs as the interpreter; printed values and the error outcome must match.

use c_ir::interp::{run_observed, Limits, Outcome};
use c_ir::{ExprKind, Type};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const GCC_PRELUDE: &str = r#"
#include <stdio.h>
#include <stdlib.h>
static long predabs_input(void) { long v = 0; if (scanf("%ld", &v) != 1) v = 0; return v; }
int __VERIFIER_nondet_int(void) { return (int)predabs_input(); }
unsigned int __VERIFIER_nondet_uint(void) { return (unsigned int)predabs_input(); }
void reach_error(void) { printf("ERROR\n"); exit(0); }
void out(long v) { printf("%ld\n", v); }
"#;

const PREDABS_PRELUDE: &str = "void out(long v) { }\n";

fn programs() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/c-front/interp");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("interp test programs")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    files
}

fn compile(source: &str, name: &str, dir: &Path) -> PathBuf {
    let c_file = dir.join(format!("{name}.c"));
    let exe = dir.join(name);
    std::fs::write(&c_file, format!("{GCC_PRELUDE}\n{source}")).expect("write C file");
    let status = Command::new("gcc")
        // signed overflow wraps on both sides (the interpreter's `wrap_signed_overflow`)
        .args(["-O0", "-fwrapv", "-w", "-o"])
        .arg(&exe)
        .arg(&c_file)
        .status()
        .expect("gcc runs");
    assert!(status.success(), "gcc failed on {name}");
    exe
}

fn run_gcc(exe: &Path, inputs: &[i128]) -> Vec<String> {
    let mut child = Command::new(exe).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("run the compiled program");
    let text: String = inputs.iter().map(|v| format!("{v}\n")).collect();
    child.stdin.take().expect("stdin").write_all(text.as_bytes()).expect("write stdin");
    let output = child.wait_with_output().expect("program output");
    String::from_utf8_lossy(&output.stdout).lines().map(str::to_string).collect()
}

fn run_interpreter(program: &c_ir::Program, inputs: &[i128]) -> Vec<String> {
    let out_proc = program.proc_by_name("out").expect("out procedure");
    let formal = program.proc(out_proc).formals[0];
    let mut printed = Vec::new();
    let mut next = 0;
    let mut feed = |_: &Type| {
        let v = inputs.get(next).copied().unwrap_or(0);
        next += 1;
        v
    };
    let result = run_observed(program, &mut feed, &Limits { wrap_signed_overflow: true, ..Limits::new(5_000_000) }, &mut |at, state| {
        if at.proc == out_proc && at.index == 0 {
            let v = state.eval(&c_ir::Expr::new(ExprKind::Var(formal), Type::LONG)).expect("out's argument is defined");
            printed.push(v.to_string());
        }
    });
    match result.outcome {
        Outcome::ReachedError => printed.push("ERROR".into()),
        Outcome::Returned(_) => {}
        other => panic!("unexpected outcome {other:?}"),
    }
    printed
}

/// Deterministic input vectors: edge values and a simple linear congruential sequence.
fn input_vectors() -> Vec<Vec<i128>> {
    let edges: [i128; 8] = [0, 1, -1, 2147483647, -2147483648, 12345, -7, 4294967295];
    let mut vectors: Vec<Vec<i128>> = edges.iter().map(|&e| vec![e, edges[(e.unsigned_abs() % 8) as usize]]).collect();
    let mut state: u64 = 0x2545F4914F6CDD1D;
    for _ in 0..12 {
        let mut v = Vec::new();
        for _ in 0..2 {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            v.push(((state >> 32) as u32 as i32) as i128);
        }
        vectors.push(v);
    }
    vectors
}

#[test]
fn interpreter_agrees_with_gcc() {
    let dir = std::env::temp_dir().join(format!("predabs-cfront-gcc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let files = programs();
    assert!(files.len() >= 5, "the interp test programs are missing");
    let mut compared = 0;
    for path in files {
        let name = path.file_stem().and_then(|s| s.to_str()).expect("name").to_string();
        let source = std::fs::read_to_string(&path).expect("read");
        let exe = compile(&source, &name, &dir);
        let program = super::support::lower_ok(&format!("{PREDABS_PRELUDE}{source}"));
        for inputs in input_vectors() {
            let expected = run_gcc(&exe, &inputs);
            let actual = run_interpreter(&program, &inputs);
            assert!(!expected.is_empty(), "{name}: gcc printed nothing");
            assert_eq!(actual, expected, "{name} with inputs {inputs:?}");
            compared += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(compared >= 100);
}

/// Without `wrap_signed_overflow`, signed arithmetic in `int` or wider that leaves its type stops
/// the run (undefined behaviour); unsigned wrap-around and `char` arithmetic (promoted to `int`,
/// then converted back) do not.
#[test]
fn signed_overflow_is_undefined_behaviour() {
    let program = super::support::lower_ok(
        "int main() { int x = __VERIFIER_nondet_int(); int op = __VERIFIER_nondet_int();
           unsigned u = 4294967295u; u = u + 1u; signed char c = 127; c = c + 1;
           if (op == 0) { x = x + 1; } else if (op == 1) { x = -x; } else if (op == 2) { x = x * 2; } else { x = x / -1; }
           return x; }",
    );
    let outcome = |inputs: [i128; 2], wrap: bool| {
        let mut next = 0;
        let mut feed = |_: &Type| {
            next += 1;
            inputs[next - 1]
        };
        c_ir::interp::run(&program, &mut feed, &Limits { wrap_signed_overflow: wrap, ..Limits::new(1000) }).outcome
    };
    let max = 2147483647;
    let min = -2147483648;
    for (inputs, wrapped) in [([max, 0], min), ([min, 1], min), ([max, 2], -2), ([min, 3], min)] {
        match outcome(inputs, false) {
            Outcome::RuntimeError(message, _) => assert!(message.contains("signed integer overflow"), "{message}"),
            other => panic!("{inputs:?}: expected an overflow, got {other:?}"),
        }
        assert_eq!(outcome(inputs, true), Outcome::Returned(Some(wrapped)), "{inputs:?} wrapped");
    }
    // in range: no error either way
    assert_eq!(outcome([max - 1, 0], false), Outcome::Returned(Some(max)));
    assert_eq!(outcome([-max, 1], false), Outcome::Returned(Some(max)));
}
