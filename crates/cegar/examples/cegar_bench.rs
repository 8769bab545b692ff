//! Runs every SV-COMP task (`.yml` with an `unreach-call` property) under the given directories,
//! each in a child process with a time limit, and prints a table and the summary line
//! (`cargo run --profile native -p cegar --example cegar_bench -- [--refine wp|sp] [--timeout S] DIR...`).
//! UNSAFE verdicts are re-checked by replaying their inputs on the concrete interpreter.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("--single") {
        single(&args[2], &args[3], args.get(4).and_then(|s| s.parse().ok()).unwrap_or(60));
        return;
    }
    let mut method = "wp".to_string();
    let mut timeout = 60u64;
    let mut dirs = Vec::new();
    let mut i = 1;
    while i < args.len() {
        match args[i].as_str() {
            "--refine" => {
                method = args.get(i + 1).cloned().unwrap_or_default();
                i += 1;
            }
            "--timeout" => {
                timeout = args.get(i + 1).and_then(|s| s.parse().ok()).unwrap_or(60);
                i += 1;
            }
            d => dirs.push(PathBuf::from(d)),
        }
        i += 1;
    }
    let mut tasks = Vec::new();
    for d in &dirs {
        collect_yml(d, &mut tasks);
    }
    tasks.sort();
    let me = std::env::current_exe().expect("own path");
    let (mut correct, mut wrong, mut unknown) = (0, 0, 0);
    let mut total_ms = 0u128;
    println!("{:<45} {:<8} {:<8} {:>5} {:>6} {:>8} {:>8}  reason", "task", "expected", "verdict", "iter", "preds", "solver", "ms");
    for yml in &tasks {
        let Some((c_file, expected)) = read_task(yml) else { continue };
        let start = Instant::now();
        let mut child = match Command::new(&me)
            .args(["--single", c_file.to_str().unwrap_or(""), &method, &timeout.to_string()])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
        {
            Ok(c) => c,
            Err(e) => {
                eprintln!("spawn failed: {e}");
                continue;
            }
        };
        let limit = Duration::from_secs(timeout + 5);
        let mut timed_out = false;
        loop {
            match child.try_wait() {
                Ok(Some(_)) => break,
                Ok(None) if start.elapsed() > limit => {
                    let _ = child.kill();
                    let _ = child.wait();
                    timed_out = true;
                    break;
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(50)),
                Err(_) => break,
            }
        }
        let elapsed = start.elapsed().as_millis();
        total_ms += elapsed;
        let mut output = String::new();
        if let Some(mut out) = child.stdout.take() {
            use std::io::Read;
            let _ = out.read_to_string(&mut output);
        }
        let line = output.lines().find(|l| l.starts_with("RESULT ")).unwrap_or("");
        let fields: Vec<&str> = line.splitn(7, ' ').collect();
        let (verdict, iters, preds, solver, reason) = if fields.len() == 7 {
            (fields[1].to_string(), fields[2].to_string(), fields[3].to_string(), fields[4].to_string(), fields[6].to_string())
        } else if timed_out {
            ("UNKNOWN".into(), "-".into(), "-".into(), "-".into(), "timeout".into())
        } else {
            ("UNKNOWN".into(), "-".into(), "-".into(), "-".into(), "crashed".into())
        };
        let verdict_bool = match verdict.as_str() {
            "SAFE" => Some(true),
            "UNSAFE" => Some(false),
            _ => None,
        };
        let status = match verdict_bool {
            None => {
                unknown += 1;
                ""
            }
            Some(v) if v == expected => {
                correct += 1;
                ""
            }
            Some(_) => {
                wrong += 1;
                "  <-- WRONG"
            }
        };
        let name = yml.file_stem().and_then(|s| s.to_str()).unwrap_or("?");
        let category = yml.parent().and_then(|p| p.file_name()).and_then(|s| s.to_str()).unwrap_or("");
        let reason: String = reason.chars().take(90).collect();
        println!(
            "{:<45} {:<8} {:<8} {:>5} {:>6} {:>8} {:>8}  {reason}{status}",
            format!("{category}/{name}"),
            if expected { "true" } else { "false" },
            verdict,
            iters,
            preds,
            solver,
            elapsed
        );
    }
    println!("refine={method} total time {:.1}s", total_ms as f64 / 1000.0);
    println!("{correct} correct, {wrong} wrong, {unknown} unknown");
}

fn collect_yml(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect_yml(&p, out);
        } else if p.extension().and_then(|s| s.to_str()) == Some("yml") {
            out.push(p);
        }
    }
}

/// The C file and the expected `unreach-call` verdict of an SV-COMP task file.
fn read_task(yml: &Path) -> Option<(PathBuf, bool)> {
    let text = std::fs::read_to_string(yml).ok()?;
    let mut input = None;
    let mut in_unreach = false;
    let mut expected = None;
    for line in text.lines() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("input_files:") {
            input = Some(rest.trim().trim_matches(|c| c == '\'' || c == '"').to_string());
        }
        if t.starts_with("- property_file:") {
            in_unreach = t.contains("unreach-call");
        }
        if in_unreach {
            if let Some(rest) = t.strip_prefix("expected_verdict:") {
                expected = Some(rest.trim() == "true");
                in_unreach = false;
            }
        }
    }
    Some((yml.parent()?.join(input?), expected?))
}

fn single(file: &str, method: &str, timeout: u64) {
    let source = std::fs::read_to_string(file).unwrap_or_default();
    let mut config = cegar::Config::default_for_cli();
    config.refinement = cegar::RefinementMethod::from_name(method).unwrap_or(cegar::RefinementMethod::Wp);
    config.time_budget_ms = Some(timeout * 1000);
    config.record_details = false;
    let outcome = cegar::check_source(&source, file, &config, &mut |_| {}, &|| false);
    let mut verdict = outcome.verdict;
    let mut reason = outcome.reason.clone().unwrap_or_default().replace('\n', " ");
    if let Some(cex) = &outcome.counterexample {
        // independent re-check of the counterexample
        let (program, _) = c_front::lower(&source, file, &c_front::LowerOptions::default());
        let confirmed = program.is_some_and(|p| cegar::replay::replay_to_error(&p, &cex.inputs).is_ok());
        if !confirmed {
            verdict = cegar::Verdict::Unknown;
            reason = "replay of the counterexample inputs did not reach the error".into();
        }
    }
    println!(
        "RESULT {} {} {} {} {} {}",
        verdict.name(),
        outcome.statistics.iterations,
        outcome.predicates.len(),
        outcome.statistics.solver_calls,
        outcome.statistics.time_ms,
        if reason.is_empty() { "-".to_string() } else { reason }
    );
}
