//! The interpreter against gcc on random programs: a generator writes UB-free C programs
//! (integer arithmetic on every width from `signed char` to `unsigned long` with wrap-around,
//! conversions between them, shifts with masked amounts, guarded division, branches, loops
//! with small constant bounds, calls of pure helpers, of a writer through a pointer and of a
//! bounded recursive function, pointers to locals and array elements, arrays with masked
//! indices, structs, struct pointers and struct copies), gcc compiles each one with
//! `-O0 -fwrapv`, and the printed values (`out(v)`) and the reached error (`reach_error()`) of
//! the compiled program and of the interpreter must be identical on every input vector.
//!
//! Both data models are compared. `gcc -m32` is not installed here (no 32-bit libc), so ILP32
//! is compiled natively with `#define long int` after the prelude: `long` and `unsigned long`
//! are then 32 bits as on a 32-bit target, and the generator writes no `long long`, no `L`
//! suffix, no `sizeof` and no pointer arithmetic across objects, whose results would still
//! depend on the real pointer width. Pointers are only dereferenced and compared for equality.
//!
//! Signed overflow is undefined in C; both sides wrap (`-fwrapv`, the interpreter's
//! `wrap_signed_overflow`), which the engine assumes too. Everything else is defined: divisors
//! are `(e & 15) + 1` or `-((e & 15) + 2)` (never 0 or -1), shift amounts `e & 31` (the left
//! operand is promoted to at least 32 bits), left shifts only of unsigned operands, indices
//! `e & 3` on arrays of 4, loop counters only written by their loops.
//!
//! `PREDABS_GCC_PROGRAMS=N` runs N programs instead of 100 (`PREDABS_GCC_SEED` picks the seed);
//! a disagreement prints the program, the inputs and both outputs, and `PREDABS_GCC_OUT=DIR`
//! saves the program there (see `docs/fuzzing.md`).

use c_ir::interp::{run_observed, Limits, Outcome};
use c_ir::{ExprKind, Type};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const DEFAULT_PROGRAMS: usize = 100;
const INPUT_VECTORS: usize = 4;

/// Read from stdin in order; `out` prints; `reach_error` prints ERROR and stops.
const GCC_PRELUDE: &str = r#"
#include <stdio.h>
#include <stdlib.h>
static long predabs_input(void) { unsigned long v = 0; if (scanf("%lu", &v) != 1) v = 0; return (long)v; }
signed char __VERIFIER_nondet_char(void) { return (signed char)predabs_input(); }
unsigned char __VERIFIER_nondet_uchar(void) { return (unsigned char)predabs_input(); }
short __VERIFIER_nondet_short(void) { return (short)predabs_input(); }
unsigned short __VERIFIER_nondet_ushort(void) { return (unsigned short)predabs_input(); }
int __VERIFIER_nondet_int(void) { return (int)predabs_input(); }
unsigned int __VERIFIER_nondet_uint(void) { return (unsigned int)predabs_input(); }
long __VERIFIER_nondet_long(void) { return (long)predabs_input(); }
unsigned long __VERIFIER_nondet_ulong(void) { return (unsigned long)predabs_input(); }
void reach_error(void) { printf("ERROR\n"); exit(0); }
void out(long v) { printf("%ld\n", v); }
"#;

const PREDABS_PRELUDE: &str = "void out(long v) { }\n";

/// A splitmix64 generator: the programs of a seed are the same everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// The integer types, with the nondet function that reads each and its range in LP64.
const TYPES: [(&str, &str, i128, i128); 8] = [
    ("signed char", "char", -128, 127),
    ("unsigned char", "uchar", 0, 255),
    ("short", "short", -32768, 32767),
    ("unsigned short", "ushort", 0, 65535),
    ("int", "int", -2147483648, 2147483647),
    ("unsigned", "uint", 0, 4294967295),
    ("long", "long", -9223372036854775808, 9223372036854775807),
    ("unsigned long", "ulong", 0, 18446744073709551615),
];

const CONSTANTS: [&str; 16] = ["0", "1", "2", "3", "7", "-1", "-5", "100", "127", "255", "256", "65535", "2147483647", "(-2147483647 - 1)", "(unsigned)-7", "(unsigned short)40000"];

/// What a program's code may read and write.
struct Scope {
    /// Scalar variables (name, index into [`TYPES`]).
    scalars: Vec<(String, usize)>,
    /// `int` variables that `p` may point to.
    int_targets: Vec<String>,
    /// Whether the memory of `main` (array, structs, pointers) is in scope.
    memory: bool,
    /// Helpers callable in expressions (name, arity).
    helpers: Vec<(String, usize)>,
}

struct Gen {
    rng: Rng,
    /// Loop counters in use (`i0`, `i1`, ...), never written by the body.
    loop_depth: usize,
}

impl Gen {
    fn leaf(&mut self, scope: &Scope) -> String {
        let memory = if scope.memory { 5 } else { 0 };
        match self.rng.below(4 + memory + 4) {
            0..=3 => self.rng.pick(&CONSTANTS).to_string(),
            4 if scope.memory => format!("arr[{}]", self.rng.below(4)),
            5 if scope.memory => format!("bytes[{}]", self.rng.below(4)),
            6 if scope.memory => self.rng.pick(&["s.a", "s.b", "s.c", "t.a", "t.c"]).to_string(),
            7 if scope.memory => self.rng.pick(&["ps->a", "ps->b", "ps->c"]).to_string(),
            8 if scope.memory => "*p".to_string(),
            _ => self.rng.pick(&scope.scalars).0.clone(),
        }
    }

    fn divisor(&mut self, scope: &Scope, depth: usize) -> String {
        let e = self.expr(scope, depth);
        if self.rng.chance(70) {
            format!("(({e}) & 15) + 1")
        } else {
            format!("-((({e}) & 15) + 2)")
        }
    }

    fn expr(&mut self, scope: &Scope, depth: usize) -> String {
        if depth == 0 || self.rng.chance(25) {
            return self.leaf(scope);
        }
        let d = depth - 1;
        match self.rng.below(20) {
            0..=7 => {
                let op = *self.rng.pick(&["+", "-", "*", "&", "|", "^", "+", "-", "==", "!=", "<", ">", "<=", ">=", "&&", "||"]);
                format!("({} {op} {})", self.expr(scope, d), self.expr(scope, d))
            }
            8 => format!("({} / ({}))", self.expr(scope, d), self.divisor(scope, d)),
            9 => format!("({} % ({}))", self.expr(scope, d), self.divisor(scope, d)),
            10 => format!("({} >> ({} & 31))", self.expr(scope, d), self.expr(scope, d)),
            11 => {
                // unsigned char and short would be promoted to int, where a shift can overflow
                let t = *self.rng.pick(&["unsigned", "unsigned long"]);
                format!("(({t})({}) << ({} & 31))", self.expr(scope, d), self.expr(scope, d))
            }
            12 | 13 => format!("(({})({}))", TYPES[self.rng.below(TYPES.len())].0, self.expr(scope, d)),
            14 => format!("({} {})", self.rng.pick(&["-", "~", "!", "-"]), self.expr(scope, d)),
            15 => format!("({} ? {} : {})", self.expr(scope, d), self.expr(scope, d), self.expr(scope, d)),
            16 | 17 if !scope.helpers.is_empty() => {
                let (name, arity) = self.rng.pick(&scope.helpers).clone();
                let args: Vec<String> = (0..arity).map(|_| self.expr(scope, d)).collect();
                format!("{name}({})", args.join(", "))
            }
            _ => self.leaf(scope),
        }
    }

    /// A place to write: a scalar, or (with memory) an array element, a field or `*p`; and
    /// whether it is `unsigned` or `unsigned long` (left shifts of other types can overflow).
    fn place(&mut self, scope: &Scope) -> (String, bool) {
        if scope.memory && self.rng.chance(40) {
            let place = match self.rng.below(6) {
                0 => format!("arr[({}) & 3]", self.expr(scope, 1)),
                1 => format!("bytes[({}) & 3]", self.expr(scope, 1)),
                2 => "*p".to_string(),
                3 => self.rng.pick(&["s.a", "s.b", "s.c", "t.a", "t.b"]).to_string(),
                _ => self.rng.pick(&["ps->a", "ps->b", "ps->c"]).to_string(),
            };
            return (place, false);
        }
        let (name, ty) = self.rng.pick(&scope.scalars).clone();
        (name, ty == 5 || ty == 7)
    }

    fn stmt(&mut self, scope: &Scope, depth: usize, out: &mut String, indent: &str) {
        let e = |g: &mut Gen| g.expr(scope, 3);
        match self.rng.below(if scope.memory { 18 } else { 13 }) {
            0..=3 => {
                let (place, _) = self.place(scope);
                let _ = writeln!(out, "{indent}{place} = {};", e(self));
            }
            4 => {
                let (place, _) = self.place(scope);
                let op = *self.rng.pick(&["+=", "-=", "*=", "&=", "|=", "^="]);
                let _ = writeln!(out, "{indent}{place} {op} {};", e(self));
            }
            5 => {
                let (place, unsigned) = self.place(scope);
                match self.rng.below(4) {
                    0 => _ = writeln!(out, "{indent}{place} /= {};", self.divisor(scope, 2)),
                    1 => _ = writeln!(out, "{indent}{place} %= {};", self.divisor(scope, 2)),
                    2 => _ = writeln!(out, "{indent}{place} >>= ({}) & 31;", e(self)),
                    _ if unsigned => _ = writeln!(out, "{indent}{place} <<= ({}) & 31;", e(self)),
                    // `(*p)++`, not `*p++`, which would move the pointer off its object
                    _ => _ = writeln!(out, "{indent}({place}){};", self.rng.pick(&["++", "--"])),
                }
            }
            6 | 7 => {
                let _ = writeln!(out, "{indent}out((long)({}));", e(self));
            }
            8 | 9 if depth > 0 => {
                let _ = writeln!(out, "{indent}if ({}) {{", e(self));
                self.block(scope, depth - 1, out, &format!("{indent}  "));
                if self.rng.chance(50) {
                    let _ = writeln!(out, "{indent}}} else {{");
                    self.block(scope, depth - 1, out, &format!("{indent}  "));
                }
                let _ = writeln!(out, "{indent}}}");
            }
            10 if depth > 0 && self.loop_depth < 2 => {
                let i = format!("i{}", self.loop_depth);
                let bound = self.rng.below(5);
                let inner = format!("{indent}  ");
                let (head, tail) = match self.rng.below(3) {
                    0 => (format!("for ({i} = 0; {i} < {bound}; {i}++) {{"), "}".to_string()),
                    1 => (format!("{i} = {bound};\n{indent}while ({i}-- > 0) {{"), "}".to_string()),
                    _ => (format!("{i} = 0;\n{indent}do {{\n{inner}{i}++;"), format!("}} while ({i} < {bound});")),
                };
                let _ = writeln!(out, "{indent}{head}");
                if self.rng.chance(25) {
                    let _ = writeln!(out, "{inner}if ({}) break;", e(self));
                }
                self.loop_depth += 1;
                self.block(scope, depth - 1, out, &inner);
                self.loop_depth -= 1;
                let _ = writeln!(out, "{indent}{tail}");
            }
            11 => {
                let _ = writeln!(out, "{indent}g{} = rec(({}) & 7, {});", self.rng.below(2), e(self), e(self));
            }
            12 if self.rng.chance(30) => {
                let _ = writeln!(out, "{indent}if ({}) reach_error();", e(self));
            }
            13 => {
                let target = if self.rng.chance(30) { format!("arr[{}]", self.rng.below(4)) } else { self.rng.pick(&scope.int_targets).clone() };
                let _ = writeln!(out, "{indent}p = &{target};");
            }
            14 => {
                let _ = writeln!(out, "{indent}{}", self.rng.pick(&["ps = &s;", "ps = &t;", "t = s;", "s = *ps;", "*ps = t;"]));
            }
            15 => {
                let target = if self.rng.chance(50) { "p".to_string() } else { format!("&{}", self.rng.pick(&scope.int_targets)) };
                let _ = writeln!(out, "{indent}bump({target}, {});", e(self));
            }
            16 => {
                let _ = writeln!(out, "{indent}set(ps, {});", e(self));
            }
            _ => {
                let (place, _) = self.place(scope);
                let _ = writeln!(out, "{indent}{place} = {};", e(self));
            }
        }
    }

    fn block(&mut self, scope: &Scope, depth: usize, out: &mut String, indent: &str) {
        for _ in 0..1 + self.rng.below(4) {
            self.stmt(scope, depth, out, indent);
        }
    }
}

/// One generated program and its inputs: the type index of each `__VERIFIER_nondet_*` read at
/// the start of `main`, in order.
struct Generated {
    source: String,
    reads: Vec<usize>,
}

fn helper(gen: &mut Gen, name: &str, params: &[(&str, usize)], ret: usize, out: &mut String) {
    let scope = Scope {
        scalars: params.iter().map(|(n, t)| (n.to_string(), *t)).chain([("g0".to_string(), 4), ("g1".to_string(), 7)]).collect(),
        int_targets: Vec::new(),
        memory: false,
        helpers: Vec::new(),
    };
    let formals: Vec<String> = params.iter().map(|(n, t)| format!("{} {n}", TYPES[*t].0)).collect();
    let _ = writeln!(out, "{} {name}({}) {{", TYPES[ret].0, formals.join(", "));
    let _ = writeln!(out, "  {} r = {};", TYPES[ret].0, gen.expr(&scope, 3));
    let _ = writeln!(out, "  if ({}) r = {};", gen.expr(&scope, 2), gen.expr(&scope, 3));
    let _ = writeln!(out, "  return r;\n}}");
}

fn generate(seed: u64) -> Generated {
    let mut gen = Gen { rng: Rng(seed), loop_depth: 0 };
    let mut out = String::new();
    out.push_str("struct S { int a; unsigned char b; long c; };\nint g0; unsigned long g1;\n");
    out.push_str("void bump(int *q, int k) { *q = *q + k; }\n");
    out.push_str("void set(struct S *q, int v) { q->a = v; q->b = v; q->c = q->c - v; }\n");
    out.push_str("int rec(int n, int acc) { if (n <= 0) return acc; return rec(n - 1, acc * 3 + n); }\n");
    let helper_types: [(&str, [(&str, usize); 2], usize); 2] = [("h1", [("a", 4), ("b", 5)], 4), ("h2", [("a", 6), ("b", 1)], 7)];
    let mut helpers = Vec::new();
    for (name, params, ret) in helper_types {
        if gen.rng.chance(60) {
            helper(&mut gen, name, &params, ret, &mut out);
            helpers.push((name.to_string(), 2));
        }
    }
    out.push_str("int main() {\n");
    let count = 2 + gen.rng.below(5);
    let mut scalars = Vec::new();
    let mut reads = Vec::new();
    for k in 0..count {
        let ty = gen.rng.below(TYPES.len());
        let name = format!("x{k}");
        if gen.rng.chance(75) {
            let _ = writeln!(out, "  {} {name} = __VERIFIER_nondet_{}();", TYPES[ty].0, TYPES[ty].1);
            reads.push(ty);
        } else {
            let _ = writeln!(out, "  {} {name} = {};", TYPES[ty].0, gen.rng.pick(&CONSTANTS));
        }
        scalars.push((name, ty));
    }
    out.push_str("  int y = 1; int z = -3; int i0 = 0; int i1 = 0;\n");
    out.push_str("  int arr[4] = {1, -2, 3, 0}; unsigned char bytes[4] = {200, 1, 0, 255};\n");
    out.push_str("  struct S s = {5, 250, -9}; struct S t; struct S *ps = &s; int *p = &y;\n");
    out.push_str("  t.a = 0; t.b = 0; t.c = 0;\n");
    scalars.extend([("y".to_string(), 4), ("z".to_string(), 4), ("g0".to_string(), 4), ("g1".to_string(), 7)]);
    let scope = Scope { scalars, int_targets: vec!["y".into(), "z".into(), "g0".into()], memory: true, helpers };
    gen.block(&scope, 2, &mut out, "  ");
    gen.block(&scope, 2, &mut out, "  ");
    let _ = writeln!(out, "  out((long)({}));", gen.expr(&scope, 3));
    out.push_str("  out(y); out(z); out(g0); out((long)g1); out(arr[0] + arr[1] + arr[2] + arr[3]); out(s.a + s.b + t.c);\n");
    out.push_str("  return 0;\n}\n");
    Generated { source: out, reads }
}

/// Input vectors: edge values of each read's type (in the data model) and random ones.
fn inputs(reads: &[usize], model: c_front::DataModel, seed: u64) -> Vec<Vec<i128>> {
    let mut rng = Rng(seed ^ 0xA5A5);
    (0..INPUT_VECTORS)
        .map(|_| {
            reads
                .iter()
                .map(|&t| {
                    let (_, _, mut lo, mut hi) = TYPES[t];
                    if model == c_front::DataModel::Ilp32 && t >= 6 {
                        (lo, hi) = (TYPES[t - 2].2, TYPES[t - 2].3);
                    }
                    match rng.below(6) {
                        0 => lo,
                        1 => hi,
                        2 => 0,
                        3 => (rng.below(11) as i128 - 5).clamp(lo, hi),
                        _ => lo + (rng.next() as i128).rem_euclid(hi - lo + 1),
                    }
                })
                .collect()
        })
        .collect()
}

/// The names a program defines at file scope: renamed per program in a batch.
const TOP_LEVEL: [&str; 9] = ["S", "g0", "g1", "bump", "set", "rec", "h1", "h2", "main"];
/// Programs compiled into one executable (one gcc call), selected by the first argument.
const BATCH: usize = 25;

/// Compiles `sources` into one executable whose `argv[1]` picks the program.
fn compile_batch(sources: &[&str], name: &str, dir: &Path, model: c_front::DataModel) -> Result<PathBuf, String> {
    let c_file = dir.join(format!("{name}.c"));
    let exe = dir.join(name);
    let mut text = String::from(GCC_PRELUDE);
    if model == c_front::DataModel::Ilp32 {
        text.push_str("#define long int\n");
    }
    for (k, source) in sources.iter().enumerate() {
        for n in TOP_LEVEL {
            let _ = writeln!(text, "#define {n} {n}_{k}");
        }
        text.push_str(source);
        for n in TOP_LEVEL {
            let _ = writeln!(text, "#undef {n}");
        }
    }
    text.push_str("int main(int argc, char **argv) {\n  switch (argc > 1 ? atoi(argv[1]) : -1) {\n");
    for k in 0..sources.len() {
        let _ = writeln!(text, "  case {k}: return main_{k}();");
    }
    text.push_str("  }\n  return 1;\n}\n");
    std::fs::write(&c_file, text).map_err(|e| e.to_string())?;
    let output = Command::new("gcc").args(["-O0", "-fwrapv", "-w", "-o"]).arg(&exe).arg(&c_file).output().map_err(|e| e.to_string())?;
    if !output.status.success() {
        return Err(format!("gcc rejected {}:\n{}", c_file.display(), String::from_utf8_lossy(&output.stderr)));
    }
    Ok(exe)
}

fn run_gcc(exe: &Path, index: usize, inputs: &[i128]) -> Vec<String> {
    let mut child = Command::new(exe).arg(index.to_string()).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("run the compiled program");
    let text: String = inputs.iter().map(|v| format!("{v}\n")).collect();
    child.stdin.take().expect("stdin").write_all(text.as_bytes()).expect("write stdin");
    let output = child.wait_with_output().expect("program output");
    let mut lines: Vec<String> = String::from_utf8_lossy(&output.stdout).lines().map(str::to_string).collect();
    if !output.status.success() {
        lines.push(format!("exit status {}", output.status));
    }
    lines
}

fn run_interpreter(program: &c_ir::Program, inputs: &[i128]) -> Vec<String> {
    let out_proc = program.proc_by_name("out").expect("out procedure");
    let formal = program.proc(out_proc).formals[0];
    let long = program.var(formal).ty.clone();
    let mut printed = Vec::new();
    let mut next = 0;
    let mut feed = |_: &Type| {
        let v = inputs.get(next).copied().unwrap_or(0);
        next += 1;
        v
    };
    let limits = Limits { wrap_signed_overflow: true, record_path: false, ..Limits::new(1_000_000) };
    let result = run_observed(program, &mut feed, &limits, &mut |at, state| {
        if at.proc == out_proc && at.index == 0 {
            match state.eval(&c_ir::Expr::new(ExprKind::Var(formal), long.clone())) {
                Some(v) => printed.push(v.to_string()),
                None => printed.push("undefined".into()),
            }
        }
    });
    match result.outcome {
        Outcome::ReachedError => printed.push("ERROR".into()),
        Outcome::Returned(_) => {}
        other => printed.push(format!("{other:?}")),
    }
    printed
}

/// Figures of one comparison run.
#[derive(Default, Debug)]
struct Figures {
    programs: usize,
    runs: usize,
    errors_reached: usize,
    disagreements: Vec<String>,
}

/// Compares the programs of `seeds` in one data model.
fn compare_batch(seeds: &[u64], model: c_front::DataModel, dir: &Path, figures: &mut Figures) {
    let generated: Vec<Generated> = seeds.iter().map(|&seed| generate(seed)).collect();
    let sources: Vec<&str> = generated.iter().map(|g| g.source.as_str()).collect();
    let name = format!("batch{}_{model:?}", seeds[0]);
    let exe = compile_batch(&sources, &name, dir, model).unwrap_or_else(|message| panic!("{message}"));
    for (index, (generated, &seed)) in generated.iter().zip(seeds).enumerate() {
        let text = format!("{PREDABS_PRELUDE}{}", generated.source);
        let options = c_front::LowerOptions { data_model: model, ..Default::default() };
        let (program, diagnostics) = c_front::lower(&text, "random.c", &options);
        let rendered = diagnostics::render_all(&diagnostics, "random.c", &text);
        assert!(!diagnostics::has_errors(&diagnostics), "lowering failed:\n{rendered}\n{text}");
        let program = program.expect("a program");
        figures.programs += 1;
        for inputs in inputs(&generated.reads, model, seed) {
            let expected = run_gcc(&exe, index, &inputs);
            let actual = run_interpreter(&program, &inputs);
            figures.runs += 1;
            figures.errors_reached += usize::from(expected.last().is_some_and(|l| l == "ERROR"));
            if expected != actual {
                let report = format!("{model:?}, seed {seed}, inputs {inputs:?}\n gcc:         {expected:?}\n interpreter: {actual:?}\n{}", generated.source);
                if let Ok(out) = std::env::var("PREDABS_GCC_OUT") {
                    let _ = std::fs::create_dir_all(&out);
                    let header = report.lines().take(3).collect::<Vec<_>>().join("\n");
                    let _ = std::fs::write(Path::new(&out).join(format!("seed{seed}_{model:?}.c")), format!("/* {header} */\n{}", generated.source));
                }
                figures.disagreements.push(report);
                break;
            }
        }
    }
    let _ = std::fs::remove_file(&exe);
}

fn gcc_available() -> bool {
    Command::new("gcc").arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|s| s.success())
}

#[test]
fn random_programs_agree_with_gcc() {
    if !gcc_available() {
        eprintln!("gcc is not installed: the interpreter is not compared with gcc");
        return;
    }
    let programs = std::env::var("PREDABS_GCC_PROGRAMS").ok().and_then(|s| s.parse().ok()).unwrap_or(DEFAULT_PROGRAMS);
    let first: u64 = std::env::var("PREDABS_GCC_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(1);
    let dir = std::env::temp_dir().join(format!("predabs-gcc-random-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut figures = Figures::default();
    let started = std::time::Instant::now();
    let seeds: Vec<u64> = (first..first + programs as u64).collect();
    for chunk in seeds.chunks(BATCH) {
        for model in [c_front::DataModel::Lp64, c_front::DataModel::Ilp32] {
            compare_batch(chunk, model, &dir, &mut figures);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!(
        "gcc comparison: {} programs (both data models), {} runs, {} reached the error, {} disagreements, {:.1} s",
        figures.programs,
        figures.runs,
        figures.errors_reached,
        figures.disagreements.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(figures.disagreements.is_empty(), "{} disagreements; the first:\n{}", figures.disagreements.len(), figures.disagreements[0]);
    assert!(figures.runs >= programs * 2);
}
