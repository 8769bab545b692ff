//! `determinism-native REQUESTS.json [--compare BROWSER.json] [--save OUT.json]`: fingerprints
//! of the requests natively (`determinism` crate), printed as a table against the browser's.

use determinism::{compare, run, Fingerprint, NamedRequest};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut requests = None;
    let mut browser = None;
    let mut save = None;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--compare" if i + 1 < args.len() => {
                browser = Some(args[i + 1].clone());
                i += 1;
            }
            "--save" if i + 1 < args.len() => {
                save = Some(args[i + 1].clone());
                i += 1;
            }
            other if requests.is_none() && !other.starts_with("--") => requests = Some(other.to_string()),
            other => {
                eprintln!("determinism-native: unexpected argument {other}");
                return ExitCode::from(2);
            }
        }
        i += 1;
    }
    let Some(requests) = requests else {
        eprintln!("usage: determinism-native REQUESTS.json [--compare BROWSER.json] [--save OUT.json]");
        return ExitCode::from(2);
    };
    let read = |path: &str| std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"));
    let list: Vec<NamedRequest> = match read(&requests).and_then(|t| serde_json::from_str(&t).map_err(|e| format!("{requests}: {e}"))) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("determinism-native: {e}");
            return ExitCode::from(2);
        }
    };
    let mut prints: Vec<Fingerprint> = Vec::new();
    for r in &list {
        let p = run(r);
        eprintln!("  native: {} {} ({} iterations)", p.name, p.verdict, p.iterations.len());
        prints.push(p);
    }
    if let Some(path) = save {
        if let Err(e) = std::fs::write(&path, serde_json::to_string_pretty(&prints).unwrap_or_default()) {
            eprintln!("determinism-native: {path}: {e}");
        }
    }
    let Some(browser) = browser else { return ExitCode::SUCCESS };
    let other: Vec<Fingerprint> = match read(&browser).and_then(|t| serde_json::from_str(&t).map_err(|e| format!("{browser}: {e}"))) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("determinism-native: {e}");
            return ExitCode::from(2);
        }
    };
    let rows = compare(&prints, &other);
    let same = rows.iter().filter(|r| r.1).count();
    println!("{:<48} {:>8} {:>8}  {}", "task", "native", "browser", "same");
    for ((name, ok, why), p) in rows.iter().zip(&prints) {
        let b = other.iter().find(|b| &b.name == name).map(|b| b.verdict.as_str()).unwrap_or("-");
        let clock = if p.stopped_by_clock { " (native hit the time limit)" } else { "" };
        println!("{:<48} {:>8} {:>8}  {}{}", name, p.verdict, b, if *ok { "yes".to_string() } else { format!("NO: {why}") }, clock);
    }
    println!("{same} of {} identical (iterations, predicates, verdict, deciding technique)", rows.len());
    if same == rows.len() { ExitCode::SUCCESS } else { ExitCode::from(1) }
}
