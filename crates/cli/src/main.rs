//! The `predabs` command-line tool: lower, abstract, model check, verify (CEGAR) and benchmark.

mod bench;
mod check;
mod hide;
mod paper;
mod shape;
mod task;
mod witness;

use clap::{Parser, Subcommand, ValueEnum};
use playground_api::{Mode, Options, Outcome, RefineMethod, Request, Strategy, Verdict};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "predabs", version, about = "Predicate abstraction and CEGAR for C (C2BP, BEBOP, BOOP)")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum)]
enum StrategyArg {
    Lattice,
    Exact,
}

/// `predabs export --format`: which model checker's input to write.
#[derive(Clone, Copy, ValueEnum)]
enum ExportFormat {
    /// Promela for SPIN, every call inlined (`spin -a FILE.pml && gcc -O2 -DSAFETY -o pan pan.c && ./pan -E`).
    Promela,
    /// Moped's boolean-program input (Bebop syntax); the error is the label `predabs_error` (`moped -b FILE.bp predabs_error`).
    Moped,
    /// The input language of SatAbs' boppo (`boppo FILE.bp`); predicate names become `b0`, `b1`, ...
    Boppo,
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum RefineArg {
    Wp,
    Sp,
}

#[derive(clap::Args, Clone)]
pub(crate) struct EngineArgs {
    /// Strengthening strategy for F/G.
    #[arg(long, value_enum, default_value = "exact")]
    strategy: StrategyArg,
    /// Maximum cube length for the lattice strategy (0 = unbounded).
    #[arg(long = "max-cube", default_value_t = 0)]
    max_cube: u32,
    /// check: first bound on the cones of influence, doubled on no progress (0 = full cones).
    #[arg(long = "max-cone", default_value_t = 8)]
    max_cone: u32,
    /// Integer width for the decision procedure (0 = C's own widths).
    #[arg(long = "int-width", default_value_t = 0)]
    int_width: u8,
    /// C data model: LP64 (long and pointers are 64 bits) or ILP32 (32 bits).
    #[arg(long = "data-model", default_value = "LP64")]
    data_model: String,
}

#[derive(Subcommand)]
enum Command {
    /// abC variable hiding: infer what else must be hidden, transform to NONDET, check both.
    Hide(hide::HideArgs),
    /// Shape analysis by iterated weakest preconditions (Dams–Namjoshi): reach, dshared, cyclic.
    Shape(shape::ShapeArgs),
    /// Preprocess, parse and lower a C file; print the internal form.
    Lower {
        file: PathBuf,
    },
    /// Abstract a C file with respect to predicates (C2BP) and print the boolean program.
    Abstract {
        file: PathBuf,
        /// Predicate file in C2BP syntax: `proc { p1, p2 }` blocks and a `global { ... }` block.
        #[arg(long)]
        predicates: Option<PathBuf>,
        #[command(flatten)]
        engine: EngineArgs,
        /// Also model check the boolean program and print invariants.
        #[arg(long)]
        invariants: bool,
        /// Record the explanation data (cube lattices, WP cases, solver log) in the JSON.
        #[arg(long)]
        explain: bool,
        #[command(flatten)]
        paper: paper::PaperArgs,
        #[arg(long)]
        json: bool,
    },
    /// Model check a boolean program (Bebop/Moped syntax or C2BP's C-like form).
    Mc {
        file: PathBuf,
        /// Print the reachable states at every statement (exact: dead variables are then kept;
        /// without this flag they are quantified out and traces leave them out).
        #[arg(long)]
        invariants: bool,
        /// Print the abstract counterexample step by step.
        #[arg(long)]
        trace: bool,
        /// Also report reaching this label as an error (repeatable; `ERROR` and `SLIC_ERROR` always are).
        #[arg(long = "error-label", value_name = "LABEL")]
        error_labels: Vec<String>,
        /// BEBOP (path edges and summaries) or the pushdown system with post* (BOOP ch. 6).
        #[arg(long, value_enum, default_value = "bebop")]
        engine: paper::McEngine,
        #[arg(long)]
        json: bool,
    },
    /// Verify that the error location is unreachable: the CEGAR loop and the other techniques
    /// of the portfolio (`--techniques cegar` for the loop alone).
    Check(check::CheckArgs),
    /// Validate an SV-COMP witness (format 2.0): follow a violation witness in the interpreter,
    /// or check a correctness witness's invariants by induction and as assertions.
    #[command(after_help = task::VALIDATE_EXIT_CODES)]
    Validate {
        /// A C file, or an SV-COMP task file (.yml).
        file: PathBuf,
        #[arg(long, value_name = "W.yml")]
        witness: PathBuf,
        /// C data model of a C file: LP64 or ILP32 (a task file gives its own).
        #[arg(long = "data-model", default_value = "LP64")]
        data_model: String,
        /// Time budget in seconds for each re-verification of a correctness witness.
        #[arg(long, default_value_t = 60.0)]
        timeout: f64,
        /// Correctness witnesses: VALID only when the invariants prove the program by induction
        /// on their own (true but weaker invariants are then UNKNOWN).
        #[arg(long)]
        strict: bool,
        #[arg(long)]
        json: bool,
    },
    /// Export a boolean program to Promela for SPIN (the default), or to Moped's or boppo's dialect.
    Export {
        file: PathBuf,
        #[arg(long, value_enum, default_value = "promela")]
        format: ExportFormat,
    },
    /// Run every SV-COMP task (`.yml` with an `unreach-call` property) under the directories.
    Bench {
        dirs: Vec<PathBuf>,
        #[arg(long, value_enum, default_value = "wp")]
        refine: RefineArg,
        /// Per-task time budget in seconds.
        #[arg(long, default_value_t = 60.0)]
        timeout: f64,
        #[arg(long = "max-iterations", default_value_t = 100)]
        max_iterations: u32,
        /// Passed to `check --max-cone` (0 = full cones).
        #[arg(long = "max-cone", default_value_t = 8)]
        max_cone: u32,
        /// Only tasks whose path contains this text.
        #[arg(long)]
        filter: Option<String>,
        /// Exit non-zero on any wrong verdict or unconfirmed counterexample.
        #[arg(long)]
        strict: bool,
        /// Passed to `check --techniques` (`cegar` for the textbook loop alone).
        #[arg(long, default_value = "all")]
        techniques: String,
        /// Passed to `check --budget` (work units; 0 = unlimited, so that only the time limit
        /// stops a task: `--budget 0 --timeout 5` measures how far runs overshoot that limit).
        /// Default: check's own default.
        #[arg(long)]
        budget: Option<u64>,
    },
    /// Benchmarks of the engine's parts (solver, abstraction, model checker).
    BenchEngine,
    /// List the examples gallery, or print one example's source.
    Example {
        id: Option<String>,
    },
}

pub(crate) fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))
}

pub(crate) fn file_name(path: &Path) -> String {
    path.display().to_string()
}

pub(crate) fn options_from(engine: &EngineArgs) -> Options {
    Options {
        int_width: engine.int_width,
        strategy: match engine.strategy {
            StrategyArg::Lattice => Strategy::Lattice,
            StrategyArg::Exact => Strategy::Exact,
        },
        max_cube: engine.max_cube,
        max_cone: engine.max_cone,
        data_model: engine.data_model.clone(),
        record_explanations: false,
        ..Options::default()
    }
}

pub(crate) fn refine_from(arg: RefineArg) -> RefineMethod {
    match arg {
        RefineArg::Wp => RefineMethod::Wp,
        RefineArg::Sp => RefineMethod::Sp,
    }
}

fn print_diagnostics(outcome: &Outcome) {
    for d in &outcome.diagnostics {
        eprint!("{}", d.rendered);
    }
}

fn progress_printer(verbose: bool) -> impl FnMut(playground_api::Event) {
    move |event| {
        if let playground_api::Event::Progress { phase, iteration, solver_queries } = event {
            if verbose {
                eprintln!("[iteration {iteration}] {phase} ({solver_queries} solver queries)");
            }
        }
    }
}

pub(crate) fn finish(outcome: &Outcome, json: bool, human: impl FnOnce(&Outcome)) -> ExitCode {
    if json {
        match serde_json::to_string_pretty(outcome) {
            Ok(text) => println!("{text}"),
            Err(e) => {
                eprintln!("error: cannot serialise the result: {e}");
                return ExitCode::from(2);
            }
        }
    } else {
        print_diagnostics(outcome);
        human(outcome);
        if !outcome.reason.is_empty() && outcome.verdict == Verdict::Unknown {
            println!("reason: {}", outcome.reason);
        }
        println!("VERDICT: {}", outcome.verdict.as_str());
    }
    let _ = std::io::stdout().flush();
    if outcome.diagnostics.iter().any(|d| d.severity == playground_api::Severity::Error) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn run() -> Result<ExitCode, String> {
    let cli = Cli::parse();
    match cli.command {
        Command::Hide(args) => hide::run(args),
        Command::Shape(args) => shape::run(args),
        Command::Lower { file } => {
            let source = read(&file)?;
            let (text, diagnostics, ok) = playground_api::lower_to_text(&source, &file_name(&file));
            for d in &diagnostics {
                eprint!("{}", d.rendered);
            }
            print!("{text}");
            Ok(if ok { ExitCode::SUCCESS } else { ExitCode::from(1) })
        }
        Command::Abstract { file, predicates, engine, invariants, explain, paper, json } => {
            if paper.any() {
                if json || explain {
                    return Err("--json and --explain are not available with --syntax, --query, --integers, --enforce or --points-to".into());
                }
                return paper::run_abstract(&file, predicates.as_deref(), &engine, &paper, invariants);
            }
            let request = Request {
                mode: Mode::Abstract,
                source: read(&file)?,
                file_name: file_name(&file),
                predicates: match predicates {
                    Some(p) => read(&p)?,
                    None => String::new(),
                },
                options: Options { record_explanations: explain, ..options_from(&engine) },
            };
            let outcome = playground_api::run(&request, &mut progress_printer(false), &|| false);
            Ok(finish(&outcome, json, |o| {
                if let Some(it) = o.iterations.last() {
                    print!("{}", it.boolean_program.text);
                    eprintln!(
                        "statistics: {} solver queries ({} cached), {} cubes, abstraction {:.1} ms",
                        it.statistics.solver_queries,
                        it.statistics.solver_cache_hits,
                        it.statistics.cubes_visited,
                        it.statistics.abstraction_ms
                    );
                }
                if invariants {
                    print_invariants(o);
                }
            }))
        }
        Command::Mc { file, invariants, trace, error_labels, engine, json } => {
            if engine == paper::McEngine::Pds {
                if json || trace || invariants {
                    return Err("--engine pds gives a verdict only: --json, --trace and --invariants need --engine bebop".into());
                }
                return paper::run_mc_pds(&file, &error_labels);
            }
            let request = Request {
                mode: Mode::BooleanProgram,
                source: read(&file)?,
                file_name: file_name(&file),
                predicates: String::new(),
                options: Options {
                    record_explanations: false,
                    error_labels,
                    eliminate_dead_variables: !invariants,
                    ..Options::default()
                },
            };
            let outcome = playground_api::run(&request, &mut progress_printer(false), &|| false);
            Ok(finish(&outcome, json, |o| {
                if trace {
                    if let Some(it) = o.iterations.last() {
                        for step in &it.abstract_trace {
                            let vals: Vec<String> =
                                step.valuation.iter().map(|(n, v)| format!("{n}={}", u8::from(*v))).collect();
                            println!(
                                "{:>4}  {:<12} {:<40} {}",
                                step.bp_line.map(|l| l.to_string()).unwrap_or_default(),
                                step.procedure,
                                step.statement,
                                vals.join(" ")
                            );
                        }
                    }
                }
                if invariants {
                    print_invariants(o);
                }
            }))
        }
        Command::Check(args) => check::run(args),
        Command::Validate { file, witness, data_model, timeout, strict, json } => {
            witness::validate(&witness::ValidateSettings { file: &file, witness: &witness, data_model: &data_model, timeout, json, strict })
        }
        Command::Export { file, format } => {
            let source = read(&file)?;
            let exported = match format {
                ExportFormat::Promela => playground_api::export_promela(&source),
                ExportFormat::Moped => playground_api::export_dialect(&source, playground_api::Dialect::Moped),
                ExportFormat::Boppo => playground_api::export_dialect(&source, playground_api::Dialect::Boppo),
            };
            match exported {
                Ok(text) => {
                    print!("{text}");
                    Ok(ExitCode::SUCCESS)
                }
                Err(diagnostics) => {
                    for d in &diagnostics {
                        eprint!("{}", d.rendered);
                    }
                    Ok(ExitCode::from(1))
                }
            }
        }
        Command::Bench { dirs, refine, timeout, max_iterations, max_cone, filter, strict, techniques, budget } => {
            let settings = bench::BenchSettings { refine: refine_from(refine), timeout, max_iterations, max_cone, techniques: &techniques, budget };
            bench::run_bench(&dirs, &settings, filter.as_deref(), strict)
        }
        Command::BenchEngine => {
            print!("{}", bench_wasm::text_report());
            Ok(ExitCode::SUCCESS)
        }
        Command::Example { id } => match id {
            None => {
                for e in playground_api::examples::ALL {
                    println!("{:<16} {:<8?} {}", e.id, e.mode, e.title);
                }
                Ok(ExitCode::SUCCESS)
            }
            Some(id) => match playground_api::examples::by_id(&id) {
                Some(e) => {
                    print!("{}", e.source);
                    Ok(ExitCode::SUCCESS)
                }
                None => Err(format!("no example named `{id}` (run `predabs example` for the list)")),
            },
        },
    }
}

pub(crate) fn print_invariants(outcome: &Outcome) {
    if outcome.invariants.is_empty() {
        return;
    }
    println!("invariants:");
    for inv in &outcome.invariants {
        let line = inv.c_line.map(|l| format!("line {l}")).unwrap_or_default();
        println!("  {} {} {}: {}", inv.procedure, inv.location, line, inv.formula);
    }
}

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}
