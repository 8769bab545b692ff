//! `predabs check`: the portfolio (crate `verify`) on a C file, with the techniques selected by
//! `--techniques`; `--events` streams one JSON object per line as the run progresses.

use crate::{file_name, finish, options_from, print_invariants, read, refine_from, EngineArgs, RefineArg};
use playground_api::{Event, Mode, Outcome, Request, Technique, Verdict};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
#[command(after_help = crate::task::CHECK_EXIT_CODES)]
pub(crate) struct CheckArgs {
    /// A C file, or an SV-COMP task file (.yml).
    file: PathBuf,
    /// Write an SV-COMP witness (format 2.0, YAML) for a SAFE or UNSAFE verdict.
    #[arg(long, value_name = "OUT.yml")]
    witness: Option<PathBuf>,
    /// Write a self-contained HTML report (program, settings, every iteration with its boolean
    /// program, diff, feasibility table and explained refinement, invariants, trace, verdict).
    #[arg(long, value_name = "OUT.html")]
    report: Option<PathBuf>,
    /// Refinement method: weakest preconditions (BOOP) or strongest postconditions (NEWTON).
    #[arg(long, value_enum, default_value = "wp")]
    refine: RefineArg,
    #[arg(long = "max-iterations", default_value_t = 100)]
    max_iterations: u32,
    /// Work budget in units (deterministic: the same run on every machine; see the `budget`
    /// crate for what a unit is). 0 = unlimited.
    #[arg(long, default_value_t = verify::DEFAULT_WORK_BUDGET)]
    budget: u64,
    /// Safety limit in seconds of this machine's time: a run it ends is UNKNOWN and says that
    /// results may differ elsewhere.
    #[arg(long, default_value_t = 60.0)]
    timeout: f64,
    /// Initial predicates (optional), C2BP syntax.
    #[arg(long)]
    predicates: Option<PathBuf>,
    /// Techniques of the portfolio, comma-separated: cegar, candidates, zones, heap-values, bmc,
    /// single-execution, random-runs, or all. `--techniques cegar` is the textbook CEGAR loop
    /// with refinement's own predicates.
    #[arg(long, default_value = "all")]
    techniques: String,
    /// Print one JSON object per line as the run progresses: `progress`, `iteration` (each
    /// finished iteration), then `verdict` (the content of `--json`).
    #[arg(long)]
    events: bool,
    /// A C label whose reaching is the error (BOOP's convention), besides `reach_error()` and
    /// failing assertions: the statement it labels becomes the error location.
    #[arg(long = "error-label", value_name = "LABEL")]
    error_label: Option<String>,
    /// The procedure where execution starts; another than `main` is analysed in an open
    /// environment (its integer arguments are inputs).
    #[arg(long, value_name = "PROC", default_value = "main")]
    entry: String,
    /// Signed overflow wraps (bit-precise), or is impossible (the papers' integers: sound for
    /// programs without undefined behaviour).
    #[arg(long, value_enum, default_value = "wrap")]
    integers: crate::paper::IntegersArg,
    #[command(flatten)]
    engine: EngineArgs,
    #[arg(long)]
    json: bool,
}

/// Parses `--techniques` with the portfolio's own parser (`verify::Techniques::parse`).
fn techniques(text: &str) -> Result<Vec<Technique>, String> {
    let selected = verify::Techniques::parse(text).map_err(|e| format!("--techniques: {e}"))?;
    // playground-api's serde names are the portfolio's names
    selected.list().into_iter().map(|t| serde_json::from_value(t.name().into()).map_err(|e| format!("technique `{}`: {e}", t.name()))).collect()
}

pub(crate) fn technique_name(t: Technique) -> String {
    serde_json::to_value(t).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

fn emit(value: serde_json::Value) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{value}");
    let _ = out.flush();
}

pub(crate) fn run(mut args: CheckArgs) -> Result<ExitCode, String> {
    (args.file, args.engine.data_model) = crate::task::input(&args.file, &args.engine.data_model)?;
    let mut options = options_from(&args.engine);
    options.refine = refine_from(args.refine);
    options.max_iterations = args.max_iterations;
    options.timeout_ms = (args.timeout * 1000.0) as u64;
    options.budget = args.budget;
    options.techniques = techniques(&args.techniques)?;
    options.entry = args.entry.clone();
    options.error_label = args.error_label.clone().unwrap_or_default();
    options.integers = match args.integers {
        crate::paper::IntegersArg::Wrap => playground_api::Integers::Wrap,
        crate::paper::IntegersArg::Ideal => playground_api::Integers::Ideal,
    };
    let request = Request {
        mode: Mode::Check,
        source: read(&args.file)?,
        file_name: file_name(&args.file),
        predicates: match &args.predicates {
            Some(p) => read(p)?,
            None => String::new(),
        },
        options,
    };
    if args.events {
        let mut stream = |event: Event| match event {
            Event::Progress { phase, iteration, solver_queries } => {
                emit(serde_json::json!({ "event": "progress", "phase": phase, "iteration": iteration, "solver_queries": solver_queries }))
            }
            Event::Iteration { snapshot } => emit(serde_json::json!({ "event": "iteration", "iteration": snapshot })),
            Event::Done { .. } => {}
        };
        let mut outcome = playground_api::run(&request, &mut stream, &|| false);
        let written = crate::witness::after_check(&mut outcome, args.witness.as_deref(), &request);
        write_report(args.report.as_deref(), &request, &outcome)?;
        let mut value = serde_json::to_value(&outcome).map_err(|e| format!("cannot serialise the result: {e}"))?;
        if let Some(map) = value.as_object_mut() {
            map.insert("event".into(), "verdict".into());
        }
        emit(value);
        return Ok(crate::witness::report_written(written, exit_code(&outcome)));
    }
    let verbose = !args.json;
    let mut progress = |event: Event| {
        if let Event::Progress { phase, iteration, solver_queries } = event {
            if verbose {
                eprintln!("[iteration {iteration}] {phase} ({solver_queries} solver queries)");
            }
        }
    };
    let mut outcome = playground_api::run(&request, &mut progress, &|| false);
    let written = crate::witness::after_check(&mut outcome, args.witness.as_deref(), &request);
    write_report(args.report.as_deref(), &request, &outcome)?;
    let file = args.file.clone();
    Ok(crate::witness::report_written(written, finish(&outcome, args.json, |o| human(o, &file))))
}

/// `--report`: the playground's report export (`playground_api::report`).
fn write_report(path: Option<&std::path::Path>, request: &Request, outcome: &Outcome) -> Result<(), String> {
    let Some(path) = path else { return Ok(()) };
    std::fs::write(path, playground_api::report::report_html(request, outcome))
        .map_err(|e| format!("cannot write the report {}: {e}", path.display()))
}

fn exit_code(outcome: &Outcome) -> ExitCode {
    if outcome.diagnostics.iter().any(|d| d.severity == playground_api::Severity::Error) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn human(o: &Outcome, file: &std::path::Path) {
    println!("iterations: {}", o.iterations.len());
    if !o.final_predicates.trim().is_empty() {
        println!("predicates:\n{}", o.final_predicates.trim_end());
    }
    match o.verdict {
        Verdict::Unsafe => {
            println!("inputs: {}", o.inputs.join(", "));
            println!("trace:");
            for step in &o.trace {
                let vals: Vec<String> = step.values.iter().map(|(n, v)| format!("{n}={v}")).collect();
                println!("  {}:{:<5} {:<40} {}", file.display(), step.line, step.statement, vals.join(" "));
            }
        }
        Verdict::Safe => print_invariants(o),
        Verdict::Unknown => {}
    }
    if let Some(t) = o.decided_by {
        println!("decided by: {}", technique_name(t));
    }
    if o.verdict != Verdict::Unknown && !o.reason.is_empty() {
        println!("reason: {}", o.reason);
    }
    if o.verdict == Verdict::Unknown && !o.next_step.is_empty() {
        println!("next step: {}", o.next_step);
    }
}
