//! Every SV-COMP benchmark file lowers without errors (when `../shared/benchmarks/sv-comp`
//! exists), has an error location, and safe tasks never reach it on random runs.

use c_ir::interp::{run, Limits, Outcome};
use c_ir::{StmtKind, Type};
use std::path::{Path, PathBuf};

fn benchmark_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/benchmarks/sv-comp")
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "c" || x == "i") {
            out.push(p);
        }
    }
}

/// The data model of the task (`data_model: ILP32` in its `.yml`).
fn data_model(file: &Path) -> c_front::DataModel {
    let name = file.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let manifest = std::fs::read_to_string(benchmark_dir().join("MANIFEST.tsv")).unwrap_or_default();
    let yml = manifest.lines().find_map(|line| {
        let columns: Vec<&str> = line.split('\t').collect();
        (columns.get(1) == Some(&name)).then(|| columns.get(2).map(|y| y.to_string())).flatten()
    });
    let text = yml.and_then(|y| std::fs::read_to_string(file.with_file_name(y)).ok()).unwrap_or_default();
    if text.contains("ILP32") {
        c_front::DataModel::Ilp32
    } else {
        c_front::DataModel::Lp64
    }
}

/// `expected_verdict` of the task (from `MANIFEST.tsv`: category, c_file, yml_file, verdict).
fn expected_verdict(file: &Path) -> Option<bool> {
    let name = file.file_name()?.to_str()?;
    let manifest = std::fs::read_to_string(benchmark_dir().join("MANIFEST.tsv")).ok()?;
    manifest.lines().find_map(|line| {
        let columns: Vec<&str> = line.split('\t').collect();
        (columns.get(1) == Some(&name)).then(|| columns.get(3) == Some(&"true"))
    })
}

#[test]
fn every_benchmark_lowers_without_errors() {
    let dir = benchmark_dir();
    if !dir.exists() {
        return;
    }
    let mut files = Vec::new();
    collect(&dir, &mut files);
    files.sort();
    assert!(!files.is_empty(), "the benchmark folder exists but has no C files");
    let mut largest = (0usize, std::time::Duration::ZERO, String::new());
    let mut safe_checked = 0;
    for file in &files {
        let source = std::fs::read_to_string(file).expect("read benchmark");
        let name = file.display().to_string();
        let options = c_front::LowerOptions { data_model: data_model(file), ..Default::default() };
        let (program, diagnostics) = c_front::lower(&source, &name, &options);
        assert!(!diagnostics::has_errors(&diagnostics), "{}", diagnostics::render_all(&diagnostics, &name, &source));
        let program = program.expect("a program");
        super::support::check_invariants(&program);
        assert!(program.entry.is_some(), "{name}: no main");
        let errors = program.procs.iter().flat_map(|p| p.body.iter()).filter(|s| matches!(s.kind, StmtKind::Error)).count();
        assert!(errors > 0, "{name}: no error location");
        if source.len() > largest.0 {
            let start = std::time::Instant::now();
            let _ = c_front::lower(&source, &name, &c_front::LowerOptions::default());
            largest = (source.len(), start.elapsed(), name.clone());
        }
        // safe tasks: the error location is unreachable on any run
        if expected_verdict(file) == Some(true) {
            for seed in 0..20u64 {
                let mut state = seed.wrapping_mul(0x9E3779B97F4A7C15) | 1;
                let mut inputs = |ty: &Type| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    let small = (state % 7) as i128 - 3;
                    if *ty == Type::Bool || state % 3 == 0 { small } else { (state >> 11) as i128 }
                };
                let result = run(&program, &mut inputs, &Limits::new(20_000));
                assert_ne!(result.outcome, Outcome::ReachedError, "{name}: a safe task reached the error with inputs {:?}", result.inputs);
            }
            safe_checked += 1;
        }
    }
    assert!(safe_checked > 0, "no safe task found");
    eprintln!("largest benchmark {} ({} bytes): parse + lower in {:?}", largest.2, largest.0, largest.1);
}
