//! 1,000 mutated abstraction files and 1,000 mutated C files never make the crate panic
//! (parse, closure, why, points-to, transformation, printing).

use crate::read_fixture;
use hiding::transform::{transform, NondetStyle, TransformOptions};
use hiding::Analysis;
use proptest::prelude::*;

const FRAGMENTS: [&str; 16] = ["(global)", " ", "\n", "*", "&", "[", "]", "(", ")", "{", "}", ";", "=", "move", "d", "->"];

/// Applies `edits` (position, kind, fragment) to `text`.
fn mutate(text: &str, edits: &[(usize, u8, usize)]) -> String {
    let mut bytes: Vec<char> = text.chars().collect();
    for &(pos, kind, frag) in edits {
        if bytes.is_empty() {
            bytes.push('x');
        }
        let at = pos % bytes.len();
        match kind % 4 {
            0 => {
                bytes.remove(at);
            }
            1 => {
                let f: Vec<char> = FRAGMENTS[frag % FRAGMENTS.len()].chars().collect();
                bytes.splice(at..at, f);
            }
            2 => {
                let end = (at + 1 + frag % 8).min(bytes.len());
                bytes.drain(at..end);
            }
            _ => {
                let c = bytes[at];
                bytes.insert(at, c);
            }
        }
    }
    bytes.into_iter().collect()
}

fn exercise(source: &str, abs: &str) {
    for array_nondet_index in [false, true] {
        let Ok(mut a) = Analysis::new(source, "m.c", abs, hiding::InferOptions { array_nondet_index }) else { return };
        a.step();
        a.closure();
        let _ = (a.log_text(), a.abstraction_file(), a.warnings_text(), a.size());
        for v in a.hidden.iter().collect::<Vec<_>>() {
            let _ = (a.why_text(v), a.points_to(v));
        }
        let t = transform(&a.program, source, &a.hidden, TransformOptions { array_nondet_index, nondet: NondetStyle::Macro });
        let _ = t.source_line(1);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_abstraction_files_never_panic(edits in proptest::collection::vec((0usize..4096, 0u8..4, 0usize..64), 1..6)) {
        let source = read_fixture("appendix.c");
        let abs = mutate("move d\n(global) i\nmain p\n", &edits);
        exercise(&source, &abs);
    }

    #[test]
    fn mutated_c_files_never_panic(edits in proptest::collection::vec((0usize..4096, 0u8..4, 0usize..64), 1..4), which in 0usize..3) {
        let (c, abs) = [("appendix.c", "move d\n"), ("pointer_chain.c", "(global) secret\n"), ("tr_fragment.c", "(global) a\n(global) m\nfragment n\n")][which];
        let source = mutate(&read_fixture(c), &edits);
        exercise(&source, abs);
    }
}

/// Programs nested just inside `c_front::MAX_NESTING` go through the whole pipeline on a
/// 1 MiB stack (the browser's wasm stack); deeper ones get c-front's diagnostic, not a crash.
#[test]
fn deep_nesting_fits_a_one_mebibyte_stack_or_is_a_diagnostic() {
    let program = |n: usize, shape: usize| -> String {
        let body = match shape {
            0 => format!("x = {}y{};", "(".repeat(n), ")".repeat(n)),
            1 => format!("{} x = y; {}", "{".repeat(n), "}".repeat(n)),
            2 => format!("x = y{};", " + y".repeat(n)),
            3 => format!("{} x = y;", "if (y) ".repeat(n)),
            _ => format!("x = {}y;", "!".repeat(n)),
        };
        format!("int x, y;\nint main(void) {{\n  {body}\n  return x;\n}}\n")
    };
    std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || {
            for shape in 0..5 {
                // the deepest program of this shape that c-front accepts
                let (inside, mut a) = (c_front::MAX_NESTING / 4..=c_front::MAX_NESTING)
                    .rev()
                    .map(|n| program(n, shape))
                    .find_map(|text| Analysis::new(&text, "deep.c", "(global) y\n", Default::default()).ok().map(|a| (text, a)))
                    .unwrap_or_else(|| panic!("shape {shape}: nothing near the limit is accepted"));
                a.closure();
                assert!(a.hidden.len() >= 2, "shape {shape}: y and x are hidden");
                let t = transform(&a.program, &inside, &a.hidden, TransformOptions { nondet: NondetStyle::Call, ..Default::default() });
                assert!(t.text.contains("__VERIFIER_nondet_int()"), "shape {shape}");
                let deep = program(c_front::MAX_NESTING * 8, shape);
                let Err(diagnostics) = Analysis::new(&deep, "deep.c", "(global) y\n", Default::default()) else { panic!("shape {shape}: too deep, but accepted") };
                assert!(diagnostics.iter().any(|d| d.is_error()), "shape {shape}");
            }
        })
        .expect("spawn")
        .join()
        .expect("no panic");
}
