//! The fuzz targets, bounded: a few thousand mutated inputs per entry point (C text, predicate
//! files, boolean programs, abstraction files with their C files, witnesses with their
//! programs, share-link fragments, lab files and links) must give diagnostics, never a panic, an abort or a hang.
//! Deeply nested boolean programs get a diagnostic on a 1 MiB stack.
//!
//! Long mode (docs/fuzzing.md): `PREDABS_FUZZ_CASES=100000 cargo test --release -p fuzz-targets`
//! runs that many inputs per target, `PREDABS_FUZZ_SEED=N` picks the seed, `PREDABS_FUZZ_OUT=DIR`
//! writes failing inputs to `DIR`.

use fuzz_targets::{corpus, fuzz, save_failures, Target};
use std::path::PathBuf;

fn tests_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests")
}

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}

fn fuzz_target(target: Target, default_cases: usize) {
    let cases = env_number("PREDABS_FUZZ_CASES").map_or(default_cases, |n| n as usize);
    let seed = env_number("PREDABS_FUZZ_SEED").unwrap_or(33);
    let corpus = corpus(target, &tests_dir());
    assert!(corpus.len() >= 5, "{}: the corpus under tests/ is missing ({} files)", target.name(), corpus.len());
    let started = std::time::Instant::now();
    let report = fuzz(target, &corpus, seed, cases);
    eprintln!("{}: {} inputs (seed {seed}) in {:.1} s, {} failures", target.name(), report.cases, started.elapsed().as_secs_f64(), report.failures.len() + usize::from(report.hang.is_some()));
    if let Ok(dir) = std::env::var("PREDABS_FUZZ_OUT") {
        let written = save_failures(&report, &PathBuf::from(dir)).expect("write the failures");
        for path in written {
            eprintln!("  wrote {}", path.display());
        }
    }
    if let Some(hang) = &report.hang {
        panic!("{}: hang ({}) on input:\n{}", target.name(), hang.message, hang.input);
    }
    if let Some(first) = report.failures.first() {
        panic!("{}: {} of {} inputs failed; first: {}\ninput:\n{}", target.name(), report.failures.len(), report.cases, first.message, first.input);
    }
    assert_eq!(report.cases, cases);
}

#[test]
fn c_text_never_panics() {
    fuzz_target(Target::CText, 1500);
}

#[test]
fn predicate_files_never_panic() {
    fuzz_target(Target::Predicates, 3000);
}

#[test]
fn boolean_programs_never_panic() {
    fuzz_target(Target::BoolProg, 3000);
}

#[test]
fn abstraction_files_never_panic() {
    fuzz_target(Target::AbsFile, 2000);
}

#[test]
fn witnesses_never_panic() {
    fuzz_target(Target::Witness, 2000);
}

#[test]
fn share_fragments_never_panic() {
    fuzz_target(Target::ShareFragment, 3000);
}

#[test]
fn lab_files_and_links_never_panic() {
    fuzz_target(Target::LabFile, 3000);
}

#[test]
fn deep_boolean_programs_get_a_diagnostic() {
    let deep = |n: usize| {
        vec![
            format!("decl x; void main() begin x := {}x{}; end", "(".repeat(n), ")".repeat(n)),
            format!("decl x; void main() begin x := x{}; end", " | x".repeat(n)),
            format!("decl x; void main() begin x := {}x; end", "!".repeat(n)),
            format!("decl x; void main() begin {} x := 1; {} end", "if (x) then ".repeat(n), "fi ".repeat(n)),
            format!("decl x; void main() begin if (x) then skip; {} fi end", "elsif (x) then skip; ".repeat(n)),
            format!("decl x; void main() begin {} skip; {} end", "while (x) do ".repeat(n), "od ".repeat(n)),
            format!("bool x; void main() {{ {} x = 1; {} }}", "{".repeat(n), "}".repeat(n)),
            format!("bool x; void main() {{ {} x = 0; }}", "if (x) { x = 1; } else ".repeat(n)),
        ]
    };
    std::thread::Builder::new()
        .stack_size(fuzz_targets::STACK)
        .spawn(move || {
            for text in deep(20_000) {
                let (_, diagnostics) = boolprog::parse(&text);
                let error = diagnostics.iter().find(|d| d.is_error()).unwrap_or_else(|| panic!("an error for {}", &text[..80]));
                assert!(error.message.contains("too"), "{}: {}", &text[..80], error.message);
            }
            // well inside the limit: parsed and model-checked without trouble
            for text in deep(60) {
                assert_eq!(fuzz_targets::run_guarded(Target::BoolProg, &text, None), Ok(()), "{}", &text[..80]);
            }
        })
        .expect("spawn")
        .join()
        .expect("no panic");
}
