//! `predabs bench`: run SV-COMP tasks (`.yml`, `unreach-call`) in child processes with a hard
//! time limit, compare with the expected verdict and print a table and a summary line.

use crate::task::{parse_task, Task};
use playground_api::{Mode, Options, RefineMethod, Request};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

fn collect_tasks(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect_tasks(&path, out);
        } else if path.extension().is_some_and(|e| e == "yml") {
            out.push(path);
        }
    }
}

struct Row {
    name: String,
    expected: &'static str,
    verdict: String,
    iterations: u64,
    predicates: u64,
    solver: u64,
    seconds: f64,
    /// Work units the check charged (`budget`).
    work: u64,
    /// Peak resident memory of the child (VmHWM), in MiB.
    rss_mb: u64,
    /// The safety time limit ended the check (not the work budget).
    stopped_by_clock: bool,
    decided_by: String,
    note: String,
}

/// The peak resident set (VmHWM) of a running process in KiB, from `/proc` (Linux).
fn peak_rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// What every task of a bench run is checked with.
pub struct BenchSettings<'a> {
    pub refine: RefineMethod,
    pub timeout: f64,
    pub max_iterations: u32,
    pub max_cone: u32,
    /// Passed to `check --techniques`.
    pub techniques: &'a str,
    /// Passed to `check --budget` (`None`: check's default).
    pub budget: Option<u64>,
}

fn run_one(task: &Task, settings: &BenchSettings) -> Row {
    let BenchSettings { refine, timeout, max_iterations, max_cone, techniques, budget } = *settings;
    let name = task.yml.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_default();
    let expected = match task.expected_safe {
        Some(true) => "true",
        Some(false) => "false",
        None => "?",
    };
    let start = Instant::now();
    // the running binary itself, even when a rebuild has replaced the file meanwhile
    let proc_self = Path::new("/proc/self/exe");
    let exe = if proc_self.exists() { proc_self.to_path_buf() } else { std::env::current_exe().unwrap_or_else(|_| PathBuf::from("predabs")) };
    let mut row = Row {
        name,
        expected,
        verdict: "unknown".into(),
        iterations: 0,
        predicates: 0,
        solver: 0,
        seconds: 0.0,
        work: 0,
        rss_mb: 0,
        stopped_by_clock: false,
        decided_by: String::new(),
        note: String::new(),
    };
    let mut command = Command::new(exe);
    command.arg("check");
    if let Some(units) = budget {
        command.arg("--budget").arg(units.to_string());
    }
    let child = command
        .arg(&task.input)
        .arg("--json")
        .arg("--refine")
        .arg(match refine {
            RefineMethod::Wp => "wp",
            RefineMethod::Sp => "sp",
        })
        .arg("--timeout")
        .arg(format!("{timeout}"))
        .arg("--max-iterations")
        .arg(max_iterations.to_string())
        .arg("--max-cone")
        .arg(max_cone.to_string())
        .arg("--data-model")
        .arg(&task.data_model)
        .arg("--techniques")
        .arg(techniques)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => {
            row.note = format!("cannot start: {e}");
            return row;
        }
    };
    // Drain stdout concurrently: a large JSON result would otherwise fill the pipe and block the child.
    let reader = child.stdout.take().map(|mut out| {
        std::thread::spawn(move || {
            use std::io::Read;
            let mut text = String::new();
            let _ = out.read_to_string(&mut text);
            text
        })
    });
    // Hard limit: the engine's own budget plus a grace period.
    let deadline = Duration::from_secs_f64(timeout + 10.0);
    let pid = child.id();
    let mut peak_kib = 0;
    let status = loop {
        // sampled every poll: the high-water mark only grows, the last sample is within 20 ms of the end
        peak_kib = peak_kib.max(peak_rss_kib(pid).unwrap_or(0));
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if start.elapsed() > deadline => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(_) => break None,
        }
    };
    row.seconds = start.elapsed().as_secs_f64();
    row.rss_mb = peak_kib.div_ceil(1024);
    let Some(status) = status else {
        row.note = "killed at the hard time limit".into();
        return row;
    };
    let stdout = reader.and_then(|r| r.join().ok()).unwrap_or_default();
    let Ok(json) = serde_json::from_str::<serde_json::Value>(&stdout) else {
        row.note = format!("crashed ({status})");
        return row;
    };
    // `false(unreach-call)` counts as `false`
    row.verdict = json["sv_comp"].as_str().unwrap_or("unknown").split('(').next().unwrap_or("unknown").to_string();
    row.iterations = json["iterations"].as_array().map(|a| a.len() as u64).unwrap_or(0);
    row.predicates = json["statistics"]["predicates"].as_u64().unwrap_or(0);
    row.solver = json["statistics"]["solver_queries"].as_u64().unwrap_or(0);
    row.work = json["statistics"]["work_units"].as_u64().unwrap_or(0);
    row.decided_by = json["decided_by"].as_str().unwrap_or("-").to_string();
    let reason = json["reason"].as_str().unwrap_or("");
    row.stopped_by_clock = reason.contains(budget::CLOCK_STOP);
    row.note = reason.chars().take(60).collect();
    if row.verdict == "false" {
        // UNSAFE must come with inputs that reach the error: replay them here, on a program
        // lowered afresh, independently of the engine's own replay.
        let inputs: Vec<String> = json["inputs"]
            .as_array()
            .map(|values| values.iter().filter_map(|v| v.as_str().map(str::to_string)).collect())
            .unwrap_or_default();
        if let Err(why) = replay_task(task, &inputs) {
            row.verdict = "unconfirmed".into();
            row.note = format!("UNSAFE inputs do not replay: {why}").chars().take(80).collect();
        }
    }
    row
}

/// Replays an UNSAFE verdict's inputs on the task's program.
fn replay_task(task: &Task, inputs: &[String]) -> Result<usize, String> {
    let source = std::fs::read_to_string(&task.input).map_err(|e| format!("cannot read {}: {e}", task.input.display()))?;
    let request = Request {
        mode: Mode::Check,
        source,
        file_name: task.input.display().to_string(),
        predicates: String::new(),
        options: Options { data_model: task.data_model.clone(), ..Options::default() },
    };
    playground_api::replay_inputs(&request, inputs)
}

/// Runs every task found under `dirs` and prints the table; returns a failing exit code in
/// `strict` mode when any verdict is wrong.
pub fn run_bench(dirs: &[PathBuf], settings: &BenchSettings, filter: Option<&str>, strict: bool) -> Result<ExitCode, String> {
    let mut ymls = Vec::new();
    for dir in dirs {
        if dir.is_file() {
            ymls.push(dir.clone());
        } else {
            collect_tasks(dir, &mut ymls);
        }
    }
    if let Some(f) = filter {
        ymls.retain(|p| p.to_string_lossy().contains(f));
    }
    let tasks: Vec<Task> = ymls.iter().filter_map(|y| parse_task(y).ok()).filter(|t| t.has_unreach_call && t.expected_safe.is_some()).collect();
    if tasks.is_empty() {
        return Err("no SV-COMP tasks with an unreach-call property found".into());
    }
    println!(
        "{:<36} {:>8} {:>8} {:<16} {:>5} {:>5} {:>8} {:>10} {:>8} {:>7}  note",
        "task", "expected", "verdict", "decided_by", "iters", "preds", "queries", "work", "time(s)", "rss(MB)"
    );
    let (mut correct, mut wrong, mut unknown) = (0, 0, 0);
    // tasks the safety time limit ended, and the longest of them
    let (mut clocked, mut longest) = (0, 0.0f64);
    let total_start = Instant::now();
    for task in &tasks {
        let row = run_one(task, settings);
        if row.stopped_by_clock {
            clocked += 1;
            longest = longest.max(row.seconds);
        }
        let mark = if row.verdict == "unknown" {
            unknown += 1;
            ""
        } else if row.verdict == row.expected {
            correct += 1;
            ""
        } else if row.verdict == "unconfirmed" {
            wrong += 1;
            "  <-- WRONG (unconfirmed UNSAFE)"
        } else {
            wrong += 1;
            "  <-- WRONG"
        };
        println!(
            "{:<36} {:>8} {:>8} {:<16} {:>5} {:>5} {:>8} {:>10} {:>8.2} {:>7}  {}{}",
            row.name, row.expected, row.verdict, row.decided_by, row.iterations, row.predicates, row.solver, row.work, row.seconds, row.rss_mb, row.note, mark
        );
    }
    println!("total time: {:.1} s", total_start.elapsed().as_secs_f64());
    println!("{correct} correct, {wrong} wrong, {unknown} unknown");
    if clocked > 0 {
        // the process's whole time (start, lowering, output) against the limit
        println!(
            "time limit: {clocked} task(s) ended by the {} s safety limit, the longest after {longest:.2} s ({:.0} % over)",
            settings.timeout,
            (longest / settings.timeout - 1.0) * 100.0
        );
    }
    Ok(if strict && wrong > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
