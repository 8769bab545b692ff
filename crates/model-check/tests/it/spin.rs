//! Differential test against SPIN: random recursion-free programs exported to Promela (batched, one `pan` per batch) get the same verdicts.

use std::path::{Path, PathBuf};
use std::process::Command;

use boolprog::generate::{random_program, GeneratorParams};
use model_check::explicit::{self, SearchResult};
use model_check::{check, Config, Verdict};

fn require_spin() {
    let found = Command::new("spin").arg("-V").output().map(|o| o.status.success()).unwrap_or(false);
    assert!(found, "SPIN is not installed: this test needs the `spin` binary (Debian: `apt-get install -y spin`) and gcc");
}

fn work_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("predabs-spin-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs spin -a, gcc and pan in `dir` on `model`; returns pan's output.
fn run_pan(dir: &Path, model: &str) -> String {
    std::fs::write(dir.join("model.pml"), model).unwrap();
    let spin = Command::new("spin").arg("-a").arg("model.pml").current_dir(dir).output().unwrap();
    assert!(spin.status.success(), "spin -a failed:\n{}\n{}", String::from_utf8_lossy(&spin.stdout), String::from_utf8_lossy(&spin.stderr));
    let gcc = Command::new("gcc")
        .args(["-O0", "-DSAFETY", "-DNOCLAIM", "-DVECTORSZ=4096", "-o", "pan", "pan.c"])
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(gcc.status.success(), "gcc failed:\n{}", String::from_utf8_lossy(&gcc.stderr));
    let pan = Command::new("./pan").args(["-E", "-m2000000", "-w22"]).current_dir(dir).output().unwrap();
    let out = String::from_utf8_lossy(&pan.stdout).to_string();
    assert!(out.contains("errors: 0"), "pan reported errors:\n{out}");
    assert!(!out.contains("max search depth too small"), "pan search truncated:\n{out}");
    out
}

fn params(seed: u64) -> GeneratorParams {
    GeneratorParams {
        globals: 1 + (seed % 3) as usize,
        procs: (seed % 4) as usize,
        locals: 1 + (seed % 2) as usize,
        statements: 4 + (seed % 5) as usize,
        recursion: false,
        asserts: true,
        seed: 50_000 + seed,
    }
}

#[test]
fn recursion_free_random_programs_agree_with_spin() {
    require_spin();
    // 200 programs in two batches, one `pan` each, built in parallel.
    let programs: Vec<_> = (0..200).map(|s| random_program(&params(s))).collect();
    let batches: Vec<Vec<boolprog::Program>> = programs.chunks(100).map(|c| c.to_vec()).collect();
    let handles: Vec<_> = batches
        .into_iter()
        .enumerate()
        .map(|(b, chunk)| {
            std::thread::spawn(move || {
                let batch = boolprog::promela::export_batch(&chunk).unwrap();
                let dir = work_dir(&format!("batch{b}"));
                let out = run_pan(&dir, &batch.text);
                let _ = std::fs::remove_dir_all(&dir);
                (chunk, boolprog::promela::batch_verdicts(&out, &batch))
            })
        })
        .collect();
    let mut unsafe_count = 0;
    for (b, handle) in handles.into_iter().enumerate() {
        let (chunk, spin_says) = handle.join().unwrap();
        for (i, program) in chunk.iter().enumerate() {
            let outcome = check(program, &Config { compute_invariants: false, ..Config::default() });
            let bdd_unsafe = match outcome.verdict {
                Verdict::ErrorReachable => true,
                Verdict::Safe => false,
                Verdict::Unknown(why) => panic!("program {i} of batch {b}: UNKNOWN {why}"),
            };
            let text = boolprog::print_bebop(program).text;
            assert_eq!(bdd_unsafe, spin_says[i], "program {i} of batch {b}: BDD unsafe={bdd_unsafe}, SPIN disagrees\n{text}");
            match explicit::search(program, 100_000, 8) {
                SearchResult::ErrorReachable => assert!(bdd_unsafe, "explicit search disagrees\n{text}"),
                SearchResult::Safe => assert!(!bdd_unsafe, "explicit search disagrees\n{text}"),
                SearchResult::Unknown => {}
            }
            unsafe_count += usize::from(bdd_unsafe);
        }
    }
    assert!(unsafe_count > 20 && unsafe_count < 180, "unsafe: {unsafe_count}");
}

#[test]
fn single_program_export_runs_in_spin() {
    require_spin();
    // the second: `enforce` is not assumed at a call's return point, in SPIN too;
    // the last two: reaching `SLIC_ERROR` is an assertion failure in the export
    for (name, unsafe_) in [
        ("enforce_unsafe", true),
        ("stale_after_call_unsafe", true),
        ("bebop_constrain_unsafe", true),
        ("bebop_constrain_safe", false),
    ] {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../../tests/boolprog/{name}.bp"));
        let text = std::fs::read_to_string(path).unwrap();
        let (program, _) = boolprog::parse(&text);
        let model = boolprog::promela::export(&program).unwrap();
        let dir = work_dir(name);
        std::fs::write(dir.join("model.pml"), &model).unwrap();
        assert!(Command::new("spin").args(["-a", "model.pml"]).current_dir(&dir).status().unwrap().success());
        assert!(Command::new("gcc").args(["-O0", "-DSAFETY", "-o", "pan", "pan.c"]).current_dir(&dir).status().unwrap().success());
        let pan = Command::new("./pan").args(["-E"]).current_dir(&dir).output().unwrap();
        let out = String::from_utf8_lossy(&pan.stdout);
        assert_eq!(out.contains("assertion violated"), unsafe_, "{name}: {out}");
        assert!(out.contains("errors: 0") != unsafe_, "{name}: {out}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
