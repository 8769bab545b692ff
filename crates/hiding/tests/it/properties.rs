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
