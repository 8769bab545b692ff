//! Deep nesting never overflows the stack: programs nested past `c_front::MAX_NESTING` (20,000
//! parentheses, 3,000 blocks, a 10,000-term sum, long `&&` and `else if` chains, ...) get a
//! diagnostic at line:column, and the largest accepted program of every shape lowers and runs on
//! the interpreter. Everything runs on a thread with a 1 MiB stack, the size of wasm's main
//! stack in the playground's web worker. The rendered diagnostics are golden
//! (`tests/nesting/diagnostics.txt`).

use c_ir::interp::{run, Limits};
use diagnostics::LineIndex;
use expect_test::expect_file;

/// wasm's default stack (the web worker runs the engine on it).
const SMALL_STACK: usize = 1 << 20;

/// Runs `f` on a thread with a 1 MiB stack; a stack overflow aborts the whole test binary.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new().stack_size(SMALL_STACK).spawn(f).expect("spawn a thread").join().expect("no panic")
}

/// The shapes of deep nesting, each a whole program whose nested part starts on line 3 with `n`
/// repetitions.
fn shape(name: &str, n: usize) -> String {
    let head = "int g;\nint main() { int x = __VERIFIER_nondet_int(); int a[2] = {0, 1};\n";
    let body = match name {
        "parentheses" => format!("  g = {}x{};", "(".repeat(n), ")".repeat(n)),
        "blocks" => format!("  {} g = x; {}", "{".repeat(n), "}".repeat(n)),
        "sum" => format!("  g = x{};", " + x".repeat(n)),
        "and chain" => format!("  g = x > 0{};", " && x > 1".repeat(n)),
        "else-if chain" => format!("  {} g = -1;", (0..n).map(|i| format!("if (x == {i}) g = {i}; else ")).collect::<String>()),
        "nested ifs" => format!("  {} g = 1;", "if (x) ".repeat(n)),
        "nested loops" => format!("  {} g = 1;", "while (x-- > 0) ".repeat(n)),
        "ternary chain" => format!("  g = {} 0;", "x ? 1 : ".repeat(n)),
        "casts" => format!("  g = {}x;", "(int)".repeat(n)),
        "negations" => format!("  g = {}x;", "- ".repeat(n)),
        "subscripts" => format!("  g = a[{}0{}];", "a[".repeat(n), "&1]".repeat(n)),
        other => panic!("unknown shape {other}"),
    };
    format!("{head}{body}\n  return 0;\n}}\n")
}

const SHAPES: [&str; 11] = [
    "parentheses",
    "blocks",
    "sum",
    "and chain",
    "else-if chain",
    "nested ifs",
    "nested loops",
    "ternary chain",
    "casts",
    "negations",
    "subscripts",
];

fn nesting_error(text: &str) -> Option<diagnostics::Diagnostic> {
    let (_, diagnostics) = c_front::lower(text, "deep.c", &c_front::LowerOptions::default());
    diagnostics.into_iter().find(|d| d.is_error() && d.message.contains("too"))
}

#[test]
fn huge_nesting_gives_a_diagnostic_at_line_and_column() {
    let report = on_small_stack(|| {
        let mut report = String::new();
        for (name, n) in [
            ("parentheses", 20_000),
            ("blocks", 3_000),
            ("sum", 10_000),
            ("and chain", 10_000),
            ("else-if chain", 3_000),
            ("nested ifs", 3_000),
            ("nested loops", 3_000),
            ("ternary chain", 5_000),
            ("casts", 10_000),
            ("negations", 10_000),
            ("subscripts", 5_000),
        ] {
            let text = shape(name, n);
            let (program, diagnostics) = c_front::lower(&text, "deep.c", &c_front::LowerOptions::default());
            assert!(program.is_none(), "{name}: no program");
            let error = diagnostics.iter().find(|d| d.is_error()).unwrap_or_else(|| panic!("{name}: an error"));
            let at = LineIndex::new(&text).line_col(error.span.start);
            assert_eq!(at.line, 3, "{name}: the error is on the nested line");
            report.push_str(&format!("{name} ({n}): {at}: {}\n", error.message));
        }
        report
    });
    expect_file![concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/nesting/diagnostics.txt")].assert_eq(&report);
}

/// The largest `n` whose program is accepted (binary search: acceptance is monotone in `n`).
fn largest_accepted(name: &str) -> usize {
    let (mut lo, mut hi) = (1, c_front::MAX_NESTING + 1);
    assert!(nesting_error(&shape(name, lo)).is_none(), "{name} with one level is accepted");
    assert!(nesting_error(&shape(name, hi)).is_some(), "{name} past the limit is refused");
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if nesting_error(&shape(name, mid)).is_none() {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

#[test]
fn limit_sized_programs_fit_a_one_mebibyte_stack() {
    let sizes = on_small_stack(|| {
        let mut sizes = Vec::new();
        for name in SHAPES {
            let n = largest_accepted(name);
            let text = shape(name, n);
            let (program, diagnostics) = c_front::lower(&text, "deep.c", &c_front::LowerOptions::default());
            let rendered = diagnostics::render_all(&diagnostics, "deep.c", &text);
            assert!(!diagnostics::has_errors(&diagnostics), "{name} ({n}):\n{rendered}");
            let program = program.expect("a program");
            super::support::check_invariants(&program);
            // the interpreter evaluates the deep expressions recursively too
            let mut inputs = |_: &c_ir::Type| 1;
            let _ = run(&program, &mut inputs, &Limits::new(100_000));
            sizes.push((name, n));
        }
        sizes
    });
    // C11 5.2.4.1 guarantees 63 nested parenthesised expressions and 127 nested blocks
    for (name, n) in sizes {
        let guaranteed = match name {
            "parentheses" => 63,
            "blocks" => 127,
            _ => 100,
        };
        assert!(n >= guaranteed, "{name}: only {n} levels accepted");
    }
}

#[test]
fn deep_preprocessor_conditions_are_errors() {
    let text = format!("#if {}1{}\nint main() {{ return 0; }}\n#endif\n", "(".repeat(20_000), ")".repeat(20_000));
    let negations = format!("#if {}1\nint main() {{ return 0; }}\n#endif\n", "- ".repeat(20_000));
    for text in [text, negations] {
        let diagnostics = on_small_stack(move || c_front::lower(&text, "deep.c", &c_front::LowerOptions::default()).1);
        assert!(diagnostics.iter().any(|d| d.is_error() && d.message.contains("#if expression nested too deeply")), "{diagnostics:?}");
    }
}

#[test]
fn deep_predicates_are_errors() {
    let program = super::support::lower_ok("int g; int main() { return g; }");
    let parens = format!("main {{ {}g{} == 0 }}", "(".repeat(20_000), ")".repeat(20_000));
    let sum = format!("main {{ g{} == 0 }}", " + g".repeat(10_000));
    for text in [parens, sum] {
        let program = program.clone();
        let (set, diagnostics) = on_small_stack(move || c_front::parse_predicates(&program, &text));
        assert!(set.global.is_empty() && set.local.iter().all(|(_, p)| p.is_empty()), "nothing parsed");
        let error = diagnostics.iter().find(|d| d.is_error()).expect("an error");
        assert!(error.message.contains("too"), "{}", error.message);
        assert!(error.span.start >= 7, "the error points into the expression: {:?}", error.span);
    }
}
