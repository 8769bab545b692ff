//! The `predabs` binary: `check` with technique selection, `decided_by`, and the event stream.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

mod bench_limits;
mod check_flags;

fn predabs() -> Command {
    Command::new(env!("CARGO_BIN_EXE_predabs"))
}

fn program(name: &str) -> String {
    format!("{}/../../tests/programs/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn check_textbook_testdev_is_decided_by_the_loop_in_three_iterations() {
    let out = predabs().args(["check", &program("testdev.c"), "--techniques", "cegar", "--json"]).output().expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(json["verdict"], "UNSAFE");
    assert_eq!(json["decided_by"], "cegar");
    assert_eq!(json["iterations"].as_array().map(Vec::len), Some(3));
    // every predicate says where it comes from
    let predicates = json["predicates"].as_array().expect("predicates");
    assert!(!predicates.is_empty());
    assert!(predicates.iter().all(|p| ["error_guard", "refinement"].contains(&p["origin"]["kind"].as_str().unwrap_or(""))), "{predicates:?}");
    // the human form names the technique too
    let out = predabs().args(["check", &program("testdev.c"), "--techniques", "cegar"]).output().expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("decided by: cegar"), "{text}");
    assert!(text.trim_end().ends_with("VERDICT: UNSAFE"), "{text}");
}

#[test]
fn check_events_stream_one_line_per_iteration_then_the_verdict() {
    let mut child = predabs()
        .args(["check", &program("testdev.c"), "--techniques", "cegar", "--events"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("runs");
    let stdout = child.stdout.take().expect("stdout");
    let mut kinds = Vec::new();
    let mut iterations = Vec::new();
    for line in BufReader::new(stdout).lines() {
        let line = line.expect("a line");
        let event: serde_json::Value = serde_json::from_str(&line).expect("each line is one JSON object");
        let kind = event["event"].as_str().expect("an event field").to_string();
        if kind == "iteration" {
            iterations.push(event["iteration"]["index"].as_u64().expect("index"));
        }
        if kind == "verdict" {
            assert_eq!(event["verdict"], "UNSAFE");
            assert_eq!(event["decided_by"], "cegar");
        }
        kinds.push(kind);
    }
    assert!(child.wait().expect("exits").success());
    assert_eq!(iterations, vec![1, 2, 3], "each iteration once, in order");
    assert_eq!(kinds.last().map(String::as_str), Some("verdict"), "the verdict comes last");
    assert_eq!(kinds.iter().filter(|k| *k == "verdict").count(), 1);
    assert!(kinds.iter().any(|k| k == "progress"));
}

#[test]
fn check_rejects_an_unknown_technique_with_the_list() {
    let out = predabs().args(["check", &program("testdev.c"), "--techniques", "cegar,magic"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown technique `magic`") && err.contains("heap-values"), "{err}");
}

#[test]
fn check_report_writes_one_self_contained_html_file() {
    let dir = std::env::temp_dir().join(format!("predabs-report-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("testdev.html");
    let out = predabs()
        .args(["check", &program("testdev.c"), "--techniques", "cegar", "--report"])
        .arg(&path)
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let html = std::fs::read_to_string(&path).expect("the report is written");
    assert!(html.contains("<h2>Iteration 3</h2>"));
    assert!(html.contains("Why it is spurious:"));
    assert!(!html.contains("<script") && !html.contains("src=\"http"), "self-contained, no script");
    let _ = std::fs::remove_dir_all(&dir);
}
