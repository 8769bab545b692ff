//! Malformed input never panics: truncations, random character mutations and unbalanced
//! conditionals of bundled programs all come back as diagnostics (thousands of mutants).

use proptest::prelude::*;
use std::path::PathBuf;

fn corpus() -> Vec<String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/c-front");
    let mut files = Vec::new();
    for dir in [root.clone(), root.join("interp"), root.join("../programs")] {
        if let Ok(entries) = std::fs::read_dir(&dir) {
            for e in entries.flatten() {
                let p = e.path();
                if p.extension().is_some_and(|x| x == "c") {
                    files.push(p);
                }
            }
        }
    }
    files.sort();
    files.iter().map(|p| std::fs::read_to_string(p).expect("read corpus file")).collect()
}

/// Lowers and checks the contract: no panic, spans inside the text, and a missing program is
/// always explained by an error.
fn lower_checked(text: &str) {
    let (program, diagnostics) = c_front::lower(text, "mutant.c", &c_front::LowerOptions::default());
    if program.is_none() {
        assert!(diagnostics::has_errors(&diagnostics), "no program and no error");
    }
    for d in &diagnostics {
        assert!(d.span.start <= d.span.end && d.span.end as usize <= text.len(), "span {:?} outside the text", d.span);
    }
    // rendering diagnostics must not panic either
    let _ = diagnostics::render_all(&diagnostics, "mutant.c", text);
    if let Some(p) = program {
        if !diagnostics::has_errors(&diagnostics) {
            super::support::check_invariants(&p);
        }
    }
}

const ALPHABET: &[char] = &['(', ')', '{', '}', '[', ']', ';', ',', '*', '&', '#', '"', '\'', '\\', '\n', ' ', 'x', '0', '9', '-', '+', '=', '<', '>', '!', '?', ':', '.', '/', 'é', '\u{0}'];

fn mutate(text: &str, edits: &[(usize, u8, usize)]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for &(position, kind, symbol) in edits {
        if chars.is_empty() {
            break;
        }
        let at = position % chars.len();
        let c = ALPHABET[symbol % ALPHABET.len()];
        match kind % 3 {
            0 => chars[at] = c,
            1 => chars.insert(at, c),
            _ => {
                chars.remove(at);
            }
        }
    }
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_mutations_give_diagnostics_not_panics(file in 0usize..64, edits in proptest::collection::vec((0usize..100_000, 0u8..3, 0usize..64), 1..6)) {
        let corpus = corpus();
        let text = &corpus[file % corpus.len()];
        lower_checked(&mutate(text, &edits));
    }

    #[test]
    fn truncations_give_diagnostics_not_panics(file in 0usize..64, cut in 0usize..100_000) {
        let corpus = corpus();
        let text = &corpus[file % corpus.len()];
        let chars: Vec<char> = text.chars().collect();
        let cut = cut % (chars.len() + 1);
        lower_checked(&chars[..cut].iter().collect::<String>());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn predicate_files_never_panic(edits in proptest::collection::vec((0usize..10_000, 0u8..3, 0usize..64), 0..8)) {
        let source = "struct s { int f; }; int g; int h(int a, struct s *p) { int l = a; return l + p->f; } int main() { return h(g, 0); }";
        let program = super::support::lower_ok(source);
        let text = mutate("global { g == 0, g > 1 }\nh { a == 'a; p->f > l; p != NULL }\nmain { g < 3 }", &edits);
        let (set, diagnostics) = c_front::parse_predicates(&program, &text);
        for d in &diagnostics {
            prop_assert!(d.span.end as usize <= text.len());
        }
        for (_, preds) in &set.local {
            for p in preds {
                prop_assert_eq!(&p.ty, &c_ir::Type::Bool);
            }
        }
    }
}

#[test]
fn expressions_cannot_smuggle_code() {
    let program = super::support::lower_ok("int g; int main() { return g; }");
    for text in ["g); } int y; void f(void) { (g", "g; g", "g = 1", "main()"] {
        let (e, d) = c_front::parse_expression(&program, None, text);
        assert!(e.is_none() && diagnostics::has_errors(&d), "{text:?} must be rejected");
    }
}

#[test]
fn unbalanced_conditionals_are_errors() {
    for text in ["#if 1\nint main() { return 0; }\n", "#endif\nint main() { return 0; }\n", "#ifdef X\n#else\n#else\n#endif\nint main(){return 0;}", "#elif 1\n", "#if (1\n#endif\n", "#if 1/0\n#endif\n"] {
        let (_, diagnostics) = c_front::lower(text, "t.c", &c_front::LowerOptions::default());
        assert!(diagnostics::has_errors(&diagnostics), "{text:?} must be rejected");
        lower_checked(text);
    }
}

#[test]
fn hostile_macros_terminate() {
    let texts = [
        "#define A A\n#define B(x) B(x)\nint main() { return A + B(1); }\n",
        "#define F(x) x x x x x x x x\n#define G(x) F(F(F(F(x))))\nint a = G(G(1));\n",
        "#define X(a, b) a b\nint main() { return X(1); }\n",
        "#include \"self.h\"\n",
    ];
    for text in texts {
        let options = c_front::LowerOptions { files: vec![("self.h".into(), "#include \"self.h\"\n".into())], ..Default::default() };
        let (_, diagnostics) = c_front::lower(text, "t.c", &options);
        assert!(!diagnostics.is_empty(), "{text:?} must produce a diagnostic");
    }
}
