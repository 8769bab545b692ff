//! `predabs shape`: shape analysis by iterated weakest preconditions (Dams–Namjoshi, the
//! `shape` crate). Prints the predicates, the pair table summary, the abstract program, the
//! verdict; `--json` prints the whole report.

use shape::report::{Report, Verdict};
use shape::{Input, Problem, Request};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct ShapeArgs {
    /// The C file.
    file: PathBuf,
    /// The procedure to analyse.
    #[arg(long)]
    proc: String,
    /// `FORMULA@LABEL` (asserted there) or `forall k: P@n1 => Q@ne`; may repeat.
    #[arg(long, required = true)]
    property: Vec<String>,
    /// `FORMULA@LABEL`, assumed there; may repeat.
    #[arg(long)]
    pre: Vec<String>,
    /// Iteration bound of the abstraction (rounds).
    #[arg(long, default_value_t = 40)]
    bound: u32,
    /// Approximation hints, one a line: `PRED@LABEL -> if COND then false else T`.
    #[arg(long)]
    hints: Option<PathBuf>,
    /// Detect growing families of predicates and propose, check and use hints.
    #[arg(long = "auto-hints")]
    auto_hints: bool,
    /// Write the abstract program in Promela (SPIN) here.
    #[arg(long)]
    promela: Option<PathBuf>,
    /// Print the whole report as JSON.
    #[arg(long)]
    json: bool,
}

fn read(path: &PathBuf) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

fn render_problems(problems: &[Problem], req: &Request, hints_name: &str) -> String {
    let mut out = String::new();
    for p in problems {
        let (name, text) = match p.input {
            Input::Source => (req.file_name.clone(), req.source.clone()),
            Input::Property(k) => (format!("--property #{}", k + 1), req.properties[k].clone()),
            Input::Precondition(k) => (format!("--pre #{}", k + 1), req.preconditions[k].clone()),
            Input::HintLine(n) => (format!("{hints_name} (line {n})"), req.hints.lines().nth(n - 1).unwrap_or("").to_string()),
        };
        out += &shape::render_problem(p, &name, &text);
    }
    out
}

fn print_human(report: &Report) {
    let Some(run) = report.final_run() else { return };
    for (k, r) in report.runs.iter().enumerate() {
        let hints = r.hints.len();
        println!(
            "run {}: bound {}, {} iterations, {} predicates, {} pairs, {} hints, {}",
            k + 1,
            r.bound,
            r.iterations,
            r.predicates.len(),
            r.pairs.len(),
            hints,
            if r.converged { "converged (no predicates remain to be examined)" } else { "bound reached" }
        );
    }
    println!("predicates:");
    for p in &run.predicates {
        println!("  {} <-> {}", p.boolean, p.predicate);
    }
    if !run.hints.is_empty() {
        println!("hints:");
        for h in &run.hints {
            println!("  {}    [{}]", h.text, h.origin);
        }
    }
    if !run.families.is_empty() {
        println!("growing families:");
        for f in &run.families {
            println!("  at {}: {} members, e.g. {}", f.location, f.members.len(), f.members.first().map(String::as_str).unwrap_or(""));
            if let Some(h) = &f.suggested_hint {
                println!("    suggested: {h}{}", if f.refuted { " (refuted on a small heap)" } else { "" });
            }
        }
    }
    println!("abstract program:");
    for a in &run.actions {
        let guard = if a.guard == "true" { String::new() } else { format!("[{}] ", a.guard) };
        let lines = a.lines.iter().map(|l| l.to_string()).collect::<Vec<_>>().join(",");
        println!("  {} -> {}: {guard}{}    // C line {lines}: {}", a.from, a.to, a.assignments.join(", "), a.c_text);
    }
    if let Some(w) = &report.witness {
        println!("concrete counterexample (replayed in the interpreter):");
        for l in w.heap.iter().chain(w.rigids.iter()) {
            println!("  {l}");
        }
        println!("  property {} fails at {}", w.property + 1, w.location);
    }
    println!("reason: {}", report.reason);
    println!("VERDICT: {}", report.verdict.word());
}

pub fn run(args: ShapeArgs) -> Result<ExitCode, String> {
    let source = read(&args.file)?;
    let hints = match &args.hints {
        Some(p) => read(p)?,
        None => String::new(),
    };
    let req = Request {
        source,
        file_name: args.file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "input.c".into()),
        proc: args.proc.clone(),
        properties: args.property.clone(),
        preconditions: args.pre.clone(),
        bound: args.bound,
        hints,
        auto_hints: args.auto_hints,
    };
    let report = match shape::analyze(&req) {
        Ok(r) => r,
        Err(problems) => {
            let hints_name = args.hints.as_ref().map(|p| p.display().to_string()).unwrap_or_default();
            eprint!("{}", render_problems(&problems, &req, &hints_name));
            println!("VERDICT: UNKNOWN");
            return Ok(ExitCode::from(1));
        }
    };
    if let Some(path) = &args.promela {
        match &report.promela {
            Ok(text) => std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?,
            Err(e) => eprintln!("warning: no Promela export: {e}"),
        }
    }
    if args.json {
        let text = serde_json::to_string_pretty(&report).map_err(|e| format!("cannot serialise the report: {e}"))?;
        println!("{text}");
        println!("VERDICT: {}", report.verdict.word());
    } else {
        print_human(&report);
    }
    let _ = std::io::stdout().flush();
    Ok(if report.verdict == Verdict::Unknown { ExitCode::from(3) } else { ExitCode::SUCCESS })
}
