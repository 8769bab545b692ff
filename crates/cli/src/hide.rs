//! `predabs hide`: abC variable hiding (seed 003, the `hiding` crate). Inference steps with
//! the paper's log, the new abstraction file, the transformed program with `NONDET`, and
//! (`--check`, `--refine-hiding`) the verdicts of the original and the hidden program from
//! the verification engine, with the hidden counterexample replayed on the original.

use hiding::replay::{self, Replay};
use hiding::transform::{self, NondetStyle, TransformOptions, Transformed};
use hiding::{Analysis, InferOptions, VarId};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct HideArgs {
    /// The C file.
    file: PathBuf,
    /// The abstraction file: one `SCOPE NAME` per line (`(global)` for globals and functions' results).
    #[arg(long = "abstract")]
    abstraction: Option<PathBuf>,
    /// Inference steps to do (the paper does one per invocation).
    #[arg(long, conflicts_with = "closure")]
    steps: Option<u32>,
    /// Infer until the set is closed.
    #[arg(long)]
    closure: bool,
    /// Print the log (`line N: SCOPE NAME <--- ...`, each step headed by `iteration K`).
    #[arg(long)]
    log: bool,
    /// Write the new abstraction file here (default: stdout).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Write the transformed program here.
    #[arg(long)]
    transform: Option<PathBuf>,
    /// Define NONDET as `__VERIFIER_nondet_int()` in the transformed program.
    #[arg(long = "nondet-macro")]
    nondet_macro: bool,
    /// Footnote 4: `a[i] = v` with only `i` hidden keeps `a` and becomes `a[NONDET] = v`.
    #[arg(long = "array-nondet-index")]
    array_nondet_index: bool,
    /// Footnote 5: transform with the given set, without inference.
    #[arg(long = "transform-only")]
    transform_only: bool,
    /// Check the original and the hidden program (implies --closure).
    #[arg(long)]
    check: bool,
    /// Localization refinement: hide all variables the property does not mention, un-hide
    /// what a spurious counterexample needs, until a verdict.
    #[arg(long = "refine-hiding")]
    refine_hiding: bool,
    /// Explain a variable (`SCOPE NAME`, repeatable): why(v), the chain of inferences that hid
    /// it, and for a pointer what it may point to (the on-demand points-to query).
    #[arg(long = "why", value_name = "SCOPE NAME")]
    why: Vec<String>,
    /// Time budget of each check in seconds.
    #[arg(long, default_value_t = 20)]
    timeout: u64,
    /// Print everything as JSON.
    #[arg(long)]
    json: bool,
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

pub fn run(args: HideArgs) -> Result<ExitCode, String> {
    let source = read(&args.file)?;
    let name = args.file.display().to_string();
    let abstraction = match &args.abstraction {
        Some(p) => read(p)?,
        None if args.refine_hiding => String::new(),
        None => return Err("--abstract FILE.abs is required (unless --refine-hiding)".into()),
    };
    let abs_name = args.abstraction.as_ref().map(|p| p.display().to_string()).unwrap_or_default();
    let options = InferOptions { array_nondet_index: args.array_nondet_index };
    let analysis = match Analysis::new(&source, &name, &abstraction, options) {
        Ok(a) => a,
        Err(diagnostics) => {
            eprint!("{}", hiding::diagnostics::render_all(&diagnostics, &name, &source));
            return Ok(ExitCode::from(1));
        }
    };
    eprint!("{}", hiding::diagnostics::render_all(&analysis.abs_diagnostics, &abs_name, &abstraction));
    if hiding::diagnostics::has_errors(&analysis.abs_diagnostics) {
        return Ok(ExitCode::from(1));
    }
    if args.refine_hiding {
        return refine(&args, &source, &name, analysis);
    }
    let mut analysis = analysis;
    if !args.transform_only {
        if args.closure || args.check {
            analysis.closure();
        } else {
            for _ in 0..args.steps.unwrap_or(1) {
                analysis.step();
            }
        }
    }
    let style = if args.nondet_macro { NondetStyle::Macro } else { NondetStyle::Token };
    let topts = TransformOptions { array_nondet_index: args.array_nondet_index, nondet: style };
    let transformed = (args.transform.is_some() || args.json).then(|| transform::transform(&analysis.program, &source, &analysis.hidden, topts));
    if let (Some(path), Some(t)) = (&args.transform, &transformed) {
        write(path, &t.text)?;
    }
    if let Some(path) = &args.out {
        write(path, &analysis.abstraction_file())?;
    }
    let checks = if args.check { Some(check_pair(&args, &source, &name, &analysis)) } else { None };
    if args.json {
        let mut out = analysis_json(&analysis, transformed.as_ref());
        explain(&analysis, &args.why)?;
        if let Some(c) = &checks {
            out["check"] = c.to_json();
        }
        println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
        return Ok(ExitCode::SUCCESS);
    }
    if args.log {
        print!("{}", analysis.log_text());
    }
    print!("{}", explain(&analysis, &args.why)?);
    if args.out.is_none() {
        print!("{}", analysis.abstraction_file());
    }
    eprint!("{}", analysis.warnings_text());
    if !args.transform_only && !analysis.is_closed_set() && args.transform.is_some() {
        eprintln!("note: the hidden set is not closed yet (use --closure); the transformed program may not over-approximate the original");
    }
    if let Some(c) = checks {
        c.print();
    }
    Ok(ExitCode::SUCCESS)
}

/// `--why`: for each `SCOPE NAME`, `why: ...` (or that it is concrete) and, for a pointer,
/// `points-to: ...`. An unknown variable is an error with the abstraction file's message.
fn explain(a: &Analysis, vars: &[String]) -> Result<String, String> {
    let mut out = String::new();
    if vars.is_empty() {
        return Ok(out);
    }
    let queries = a.points_to_queries();
    for text in vars {
        let (lines, mut problems) = hiding::absfile::parse(text);
        let (found, more) = hiding::absfile::resolve(&a.program, &lines);
        problems.extend(more);
        let Some(&v) = found.first().filter(|_| problems.is_empty()) else {
            let message = problems.first().map_or("expected `SCOPE NAME`".to_string(), |d| d.message.clone());
            return Err(format!("--why {text}: {message}"));
        };
        let name = a.program.describe(v);
        if a.hidden.contains(v) {
            out.push_str(&format!("why {name}: {}\n", a.why_text(v)));
        } else {
            out.push_str(&format!("why {name}: concrete (not hidden)\n"));
        }
        if a.program.var(v).ty.is_pointer() {
            let targets: Vec<String> = queries.of(v).into_iter().map(|t| a.program.describe(t)).collect();
            out.push_str(&format!("points-to {name}: {{{}}}\n", targets.join(", ")));
        }
    }
    Ok(out)
}

/// The engine's verdict as text, and the counterexample (inputs, lines) when UNSAFE.
struct EngineResult {
    verdict: String,
    reason: String,
    counterexample: Option<(Vec<i128>, Vec<u32>)>,
}

fn engine_check(text: &str, file_name: &str, timeout_s: u64) -> EngineResult {
    let mut config = verify::Config::default_for_cli();
    config.time_budget_ms = Some(timeout_s.max(1) * 1000);
    let outcome = verify::check_source(text, file_name, &config, &mut |_| {}, &|| false);
    EngineResult {
        verdict: format!("{:?}", outcome.verdict).to_uppercase(),
        reason: outcome.reason.clone().unwrap_or_default(),
        counterexample: outcome.counterexample.map(|c| (c.inputs.clone(), c.steps.iter().map(|s| s.line).collect())),
    }
}

struct CheckPair {
    original: EngineResult,
    hidden: EngineResult,
    replay: Option<Replay>,
    size: hiding::HidingSize,
}

impl CheckPair {
    fn to_json(&self) -> Value {
        json!({
            "original": self.original.verdict, "original_reason": self.original.reason,
            "hidden": self.hidden.verdict, "hidden_reason": self.hidden.reason,
            "replay": self.replay.as_ref().map(replay_text),
            "variables": self.size.variables, "hidden_variables": self.size.hidden_variables,
            "bits": self.size.bits, "hidden_bits": self.size.hidden_bits,
        })
    }
    fn print(&self) {
        let s = self.size;
        println!("hidden: {} of {} variables, {} of {} bits (kept {} bits)", s.hidden_variables, s.variables, s.hidden_bits, s.bits, s.bits - s.hidden_bits);
        if let Some(r) = &self.replay {
            println!("replay of the hidden counterexample on the original: {}", replay_text(r));
        }
        println!("VERDICT (original): {}", self.original.verdict);
        println!("VERDICT (hidden): {}", self.hidden.verdict);
    }
}

fn replay_text(r: &Replay) -> String {
    match r {
        Replay::ReachesError => "reaches the error: the bug is real".into(),
        Replay::NoError(why) => format!("does not reach the error ({why}): possibly an artefact of hiding"),
        Replay::CannotRun(why) => format!("cannot run the original: {why}"),
    }
}

/// The hidden program spelled for checking (`NONDET` as `__VERIFIER_nondet_int()`).
fn checkable(analysis: &Analysis, source: &str, array_nondet_index: bool) -> Transformed {
    transform::transform(&analysis.program, source, &analysis.hidden, TransformOptions { array_nondet_index, nondet: NondetStyle::Call })
}

/// Replays a hidden counterexample's original inputs on the original program.
fn replay_hidden(source: &str, name: &str, hidden: &Transformed, inputs: &[i128]) -> Replay {
    match replay::split_inputs(&hidden.text, &hidden.nondets, inputs) {
        Some(split) => replay::replay_original(source, name, &split.original),
        None => Replay::CannotRun("the hidden program does not lower".into()),
    }
}

fn check_pair(args: &HideArgs, source: &str, name: &str, analysis: &Analysis) -> CheckPair {
    let original = engine_check(source, name, args.timeout);
    let hidden_program = checkable(analysis, source, args.array_nondet_index);
    let hidden = engine_check(&hidden_program.text, "hidden.c", args.timeout);
    let replay = hidden.counterexample.as_ref().map(|(inputs, _)| replay_hidden(source, name, &hidden_program, inputs));
    CheckPair { original, hidden, replay, size: analysis.size() }
}

/// One round of the localization refinement.
struct Round {
    initial: Vec<VarId>,
    hidden: Vec<VarId>,
    verdict: String,
    replay: Option<Replay>,
    /// The variables of the NONDET test closest to the error on the spurious path.
    needed: Vec<VarId>,
    unhidden: Vec<VarId>,
}

fn refine(args: &HideArgs, source: &str, name: &str, start: Analysis) -> Result<ExitCode, String> {
    let property = start.property_variables();
    let mut initial: Vec<VarId> = start.hideable_variables().into_iter().filter(|v| !property.contains(v)).collect();
    let mut rounds: Vec<Round> = Vec::new();
    let mut verdict = "UNKNOWN".to_string();
    let mut last_hidden = "UNKNOWN".to_string();
    for _ in 0..32 {
        let mut analysis = Analysis::from_program(source, start.program.clone(), Vec::new(), initial.clone(), Vec::new(), start.options);
        analysis.closure();
        let program = checkable(&analysis, source, args.array_nondet_index);
        let result = engine_check(&program.text, "hidden.c", args.timeout);
        last_hidden = result.verdict.clone();
        let mut round = Round { initial: initial.clone(), hidden: analysis.hidden_in_file_order(), verdict: result.verdict.clone(), replay: None, needed: Vec::new(), unhidden: Vec::new() };
        match (result.verdict.as_str(), &result.counterexample) {
            ("SAFE", _) => verdict = "SAFE".into(),
            ("UNSAFE", Some((inputs, lines))) => {
                let r = replay_hidden(source, name, &program, inputs);
                round.replay = Some(r.clone());
                if r == Replay::ReachesError {
                    verdict = "UNSAFE".into();
                } else {
                    let candidates = replay::refinement_candidates(&program, lines);
                    let next = analysis.unhide(&candidates);
                    round.needed = candidates.clone();
                    round.unhidden = initial.iter().copied().filter(|v| !next.contains(v)).collect();
                    let done = initial.is_empty();
                    initial = if next.len() < initial.len() { next } else { Vec::new() };
                    if round.unhidden.is_empty() {
                        round.unhidden = round.initial.clone();
                    }
                    rounds.push(round);
                    if done {
                        break;
                    }
                    continue;
                }
            }
            _ => {}
        }
        rounds.push(round);
        break;
    }
    print_rounds(args, &start, &rounds, &verdict, &last_hidden);
    Ok(ExitCode::SUCCESS)
}

fn print_rounds(args: &HideArgs, start: &Analysis, rounds: &[Round], verdict: &str, last_hidden: &str) {
    let names = |vs: &[VarId]| vs.iter().map(|v| start.program.describe(*v)).collect::<Vec<_>>();
    if args.json {
        let rs: Vec<Value> = rounds
            .iter()
            .map(|r| json!({"initial": names(&r.initial), "hidden": names(&r.hidden), "verdict": r.verdict, "replay": r.replay.as_ref().map(replay_text), "needed": names(&r.needed), "unhidden": names(&r.unhidden)}))
            .collect();
        println!("{}", serde_json::to_string_pretty(&json!({"rounds": rs, "original": verdict, "hidden": last_hidden})).unwrap_or_default());
        return;
    }
    for (k, r) in rounds.iter().enumerate() {
        println!("round {}: hide {} (closed: {} variables)", k + 1, if r.initial.is_empty() { "nothing".into() } else { names(&r.initial).join(", ") }, r.hidden.len());
        println!("  hidden program: {}", r.verdict);
        if let Some(rep) = &r.replay {
            println!("  replay on the original: {}", replay_text(rep));
        }
        if !r.needed.is_empty() {
            println!("  the path's NONDET test closest to the error reads: {}", names(&r.needed).join(", "));
        }
        if !r.unhidden.is_empty() {
            println!("  un-hide (initial variables they come from): {}", names(&r.unhidden).join(", "));
        }
    }
    println!("VERDICT (original): {verdict}");
    println!("VERDICT (hidden): {last_hidden}");
}

fn analysis_json(a: &Analysis, t: Option<&Transformed>) -> Value {
    let p = &a.program;
    let steps: Vec<Value> = (1..=a.steps)
        .map(|k| {
            let rows: Vec<Value> = a
                .step_log(k)
                .iter()
                .map(|i| {
                    let site = &a.sites[i.site.0 as usize];
                    let d = a.detail(i);
                    json!({
                        "store": d.store,
                        "keys": d.keys.iter().map(|v| p.describe(*v)).collect::<Vec<_>>(),
                        "occurrences": d.occurrences.iter().map(|(v, s)| json!({"variable": p.describe(*v), "start": s.start, "end": s.end})).collect::<Vec<_>>(),
                        "line": i.line, "rule": i.rule.name(), "gloss": i.rule.gloss(),
                        "variable": p.describe(i.var),
                        "from": i.from.iter().map(|v| p.describe(*v)).collect::<Vec<_>>(),
                        "site": { "start": site.span.start, "end": site.span.end, "kind": format!("{:?}", site.kind) },
                        "why": a.why_text(i.var),
                    })
                })
                .collect();
            json!({"step": k, "inferences": rows})
        })
        .collect();
    let warnings: Vec<Value> = a.warnings.iter().map(|w| json!({"line": w.line, "kind": format!("{:?}", w.kind), "start": w.span.start, "end": w.span.end, "message": w.message})).collect();
    let size = a.size();
    // every hidden variable with its derivation, and for pointers the on-demand points-to set
    let queries = a.points_to_queries();
    let hidden: Vec<Value> = a
        .hidden_in_file_order()
        .into_iter()
        .map(|v| {
            let mut entry = json!({"variable": p.describe(v), "why": a.why_text(v)});
            if p.var(v).ty.is_pointer() {
                entry["points_to"] = json!(queries.of(v).into_iter().map(|t| p.describe(t)).collect::<Vec<_>>());
            }
            entry
        })
        .collect();
    let mut out = json!({
        "initial": a.initial.iter().map(|v| p.describe(*v)).collect::<Vec<_>>(),
        "steps": steps, "closed": a.closed,
        "abstraction_file": a.abstraction_file(), "log": a.log_text(),
        "warnings": warnings,
        "hidden": hidden,
        "size": {"variables": size.variables, "hidden_variables": size.hidden_variables, "bits": size.bits, "hidden_bits": size.hidden_bits},
    });
    if let Some(t) = t {
        let edits: Vec<Value> = t.edits.iter().map(|e| json!({"kind": format!("{:?}", e.kind), "line": e.line, "start": e.span.start, "end": e.span.end, "variables": e.vars.iter().map(|v| p.describe(*v)).collect::<Vec<_>>()})).collect();
        out["transformed"] = json!({"text": t.text, "line_map": t.line_map, "edits": edits, "nondets": t.nondets.iter().map(|n| json!({"offset": n.offset, "line": n.out_line, "source_start": n.span.start, "source_end": n.span.end})).collect::<Vec<_>>()});
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn appendix() -> Analysis {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/programs");
        let source = std::fs::read_to_string(dir.join("hide_appendix.c")).expect("fixture");
        let mut a = Analysis::new(&source, "appendix.c", "move d\n", InferOptions::default()).expect("parses");
        a.closure();
        a
    }

    #[test]
    fn why_explains_a_hidden_pointer_and_its_targets() {
        let a = appendix();
        let text = explain(&a, &["move d".into(), "main p".into()]).unwrap();
        assert_eq!(
            text,
            "why move d: move d <- initial abstraction file\npoints-to move d: {(global) i}\nwhy main p: main p <- line 14 (rule 1a: an abstract value is stored: the location's key must be hidden) <- (global) i <- line 16 (rule 2a: a pointer is stored into an abstract location: what it points to must be hidden) <- move d <- initial abstraction file\n"
        );
        assert!(explain(&a, &["main nosuch".into()]).unwrap_err().starts_with("--why main nosuch: "));
    }

    #[test]
    fn json_lists_the_hidden_variables_with_why_and_points_to() {
        let a = appendix();
        let out = analysis_json(&a, None);
        let hidden = out["hidden"].as_array().unwrap();
        assert_eq!(hidden.len(), 11);
        assert_eq!(hidden[0]["variable"], "move d");
        assert_eq!(hidden[0]["points_to"], json!(["(global) i"]));
        assert!(hidden.iter().all(|h| h["why"].as_str().is_some_and(|w| w.ends_with("initial abstraction file"))));
    }
}
