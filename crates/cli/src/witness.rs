//! `predabs check --witness OUT.yml` and `predabs validate`: the glue between the engine's
//! outcome (`playground_api::Outcome`) and the `witness` crate (SV-COMP witness format 2.0).
//!
//! - `check --witness`: the witness built by `playground_api::witness::build` (shared with the
//!   playground's download) is written to the file.
//! - `validate`: a violation witness is followed in the interpreter; a correctness witness is
//!   validated by asserting each invariant at its loop (every time the loop condition is about to
//!   be evaluated) and re-verifying the instrumented program with the engine.

use crate::task;
use playground_api::{Mode, Options, Outcome, Request, Verdict};
use std::path::Path;
use std::process::ExitCode;
use witness::correctness;
use witness::source::SourceIndex;
use witness::{CorrectnessWitness, DataModel, InvariantKind, Validity, ViolationWitness, Witness};

/// The command line of this process, as the witness's producer records it.
fn command_line() -> String {
    std::env::args().map(|a| if a.contains(' ') { format!("'{a}'") } else { a }).collect::<Vec<_>>().join(" ")
}

/// Writes the witness for `outcome` (SAFE or UNSAFE) of `request`'s source to `out`, built by
/// [`playground_api::witness::build`] (notes on stderr); returns a summary line.
pub fn write(outcome: &Outcome, request: &Request, out: &Path) -> Result<String, String> {
    let built = playground_api::witness::build(&playground_api::witness::Evidence::of(outcome), request, Some(command_line()))?;
    for n in &built.notes {
        eprintln!("witness: {n}");
    }
    std::fs::write(out, built.yaml).map_err(|e| format!("{}: cannot write: {e}", out.display()))?;
    Ok(built.summary)
}

/// What `validate` found.
struct Validation {
    kind: &'static str,
    validity: Validity,
    reasons: Vec<String>,
}

/// Settings of `predabs validate`.
pub struct ValidateSettings<'a> {
    pub file: &'a Path,
    pub witness: &'a Path,
    pub data_model: &'a str,
    pub timeout: f64,
    pub json: bool,
    /// Correctness witnesses: VALID only when the invariants prove the program by induction on
    /// their own (true but weaker invariants are then UNKNOWN).
    pub strict: bool,
}

pub fn validate(settings: &ValidateSettings) -> Result<ExitCode, String> {
    let (input, model_text) = task::input(settings.file, settings.data_model)?;
    let source = crate::read(&input)?;
    let file_name = crate::file_name(&input);
    let text = crate::read(settings.witness)?;
    let result = match witness::yaml::from_yaml(&text) {
        Err(problems) => Validation {
            kind: "malformed",
            validity: Validity::Invalid,
            reasons: problems,
        },
        Ok(w) => {
            let mut reasons = Vec::new();
            let hash = witness::meta::sha256_hex(source.as_bytes());
            let meta = w.metadata();
            if !meta.task.input_file_hash.is_empty() && meta.task.input_file_hash != hash {
                reasons.push(format!("note: the witness's SHA-256 of `{}` differs from {file_name}'s", meta.task.input_file));
            }
            let model = DataModel::parse(&model_text).unwrap_or(meta.task.data_model);
            let mut v = match &w {
                Witness::Violation(vw) => validate_violation(&source, &file_name, model, vw),
                Witness::Correctness(cw) => validate_correctness(&source, &file_name, &model_text, cw, settings.timeout, settings.strict),
            };
            reasons.append(&mut v.reasons);
            v.reasons = reasons;
            v
        }
    };
    if settings.json {
        let value = serde_json::json!({ "witness": result.kind, "validity": result.validity.as_str(), "reasons": result.reasons });
        println!("{}", serde_json::to_string_pretty(&value).unwrap_or_default());
    } else {
        for r in &result.reasons {
            println!("{r}");
        }
        println!("VALIDATION: {} ({} witness)", result.validity.as_str(), result.kind);
    }
    Ok(match result.validity {
        Validity::Valid => ExitCode::SUCCESS,
        Validity::Invalid => ExitCode::from(1),
        Validity::Unknown => ExitCode::from(3),
    })
}

fn validate_violation(source: &str, file_name: &str, model: DataModel, w: &ViolationWitness) -> Validation {
    let program = match witness::lower(source, file_name, model) {
        Ok(p) => p,
        Err(e) => {
            return Validation {
                kind: "violation",
                validity: Validity::Unknown,
                reasons: vec![e],
            }
        }
    };
    let index = SourceIndex::new(source);
    let report = witness::violation::validate_violation(&program, &index, w);
    Validation {
        kind: "violation",
        validity: report.validity,
        reasons: report.reasons,
    }
}

/// The loop keyword (or statement) offset each invariant is asserted at.
fn check_sites(index: &SourceIndex, w: &CorrectnessWitness) -> Result<Vec<(u32, String)>, String> {
    let mut checks = Vec::new();
    for inv in &w.invariants {
        let (line, column) = (inv.location.line, inv.location.column);
        let offset = index
            .offset_of(line, column)
            .ok_or_else(|| format!("invariant location {line}:{} is not in the file", column.unwrap_or(0)))?;
        let site = match column {
            Some(_) => index.loops.iter().find(|l| l.keyword == offset),
            None => index.loops.iter().find(|l| index.line_col(l.keyword).0 == line),
        };
        match (inv.kind, site) {
            (InvariantKind::Loop, Some(site)) => checks.push((site.keyword, inv.value.clone())),
            (InvariantKind::Loop, None) => return Err(format!("no loop keyword (while, for, do) at {line}:{}", column.unwrap_or(0))),
            (InvariantKind::Location, _) => return Err(format!("location invariants are not supported yet ({line}:{})", column.unwrap_or(0))),
        }
    }
    Ok(checks)
}

/// Runs the engine on an instrumented program.
fn reverify(source: String, file_name: &str, what: &str, model: &str, timeout: f64) -> Outcome {
    let request = Request {
        mode: Mode::Check,
        source,
        file_name: format!("{file_name} ({what})"),
        predicates: String::new(),
        options: Options { data_model: model.to_string(), timeout_ms: (timeout * 1000.0) as u64, ..Options::default() },
    };
    playground_api::run(&request, &mut |_| {}, &|| false)
}

fn compile_error(outcome: &Outcome) -> Option<String> {
    outcome.diagnostics.iter().find(|d| d.severity == playground_api::Severity::Error).map(|d| d.message.clone())
}

/// Validates a correctness witness: first by induction (each invariant must hold on entry to
/// its loop, be preserved by an iteration from any state satisfying it, and together with the
/// loops' exit conditions keep the rest of the program safe), then, when that fails or cannot be
/// done, by re-verifying the program with the invariants asserted: an invariant that fails
/// there makes the witness INVALID; invariants that hold but are not inductive make it VALID
/// as SV-COMP validators do (the invariants are true and the program is correct), or UNKNOWN
/// with `strict`.
fn validate_correctness(source: &str, file_name: &str, model: &str, w: &CorrectnessWitness, timeout: f64, strict: bool) -> Validation {
    let verdict = |validity: Validity, reasons: Vec<String>| Validation { kind: "correctness", validity, reasons };
    let index = SourceIndex::new(source);
    let checks = match check_sites(&index, w) {
        Ok(c) => c,
        Err(e) => return verdict(Validity::Unknown, vec![e]),
    };
    let program = match DataModel::parse(model).ok_or_else(|| format!("unknown data model `{model}`")).and_then(|m| witness::lower(source, file_name, m)) {
        Ok(p) => p,
        Err(e) => return verdict(Validity::Unknown, vec![e]),
    };
    let mut notes = Vec::new();
    let mut not_inductive = false;
    match correctness::instrument_induction(&program, &index, &checks) {
        Ok((text, _)) => {
            let outcome = reverify(text, file_name, "the witness's invariants checked by induction", model, timeout);
            match (compile_error(&outcome), outcome.verdict) {
                (Some(e), _) => notes.push(format!("induction check: the instrumented program does not compile: {e}")),
                (None, Verdict::Safe) => {
                    let what = if checks.is_empty() { "the program is safe (the witness has no invariants; re-verified)".to_string() } else {
                        format!("the {} invariants are inductive and prove the program safe (checked by induction)", checks.len())
                    };
                    return verdict(Validity::Valid, vec![what]);
                }
                (None, Verdict::Unsafe) => {
                    not_inductive = true;
                    notes.push("induction check: an invariant is not preserved by its loop, or does not imply safety after it".into());
                }
                (None, Verdict::Unknown) => notes.push(format!("induction check inconclusive: {}", outcome.reason)),
            }
        }
        Err(e) => notes.push(format!("not checked by induction: {e}")),
    }
    if checks.is_empty() && not_inductive {
        return verdict(Validity::Invalid, vec!["the program reaches the error, so it is not correct".into()]);
    }
    let (instrumented, shift) = correctness::instrument(&index, &checks);
    let outcome = reverify(instrumented, file_name, "the witness's invariants asserted", model, timeout);
    if let Some(e) = compile_error(&outcome) {
        notes.push(format!("the program with the invariants asserted does not compile: {e}"));
        return verdict(Validity::Unknown, notes);
    }
    let described = |line: u32| -> String {
        let line = line.saturating_sub(shift);
        match w.invariants.iter().find(|i| i.location.line == line) {
            Some(i) => format!("the invariant `{}` at {}:{} does not hold", i.value, line, i.location.column.unwrap_or(0)),
            None => format!("the program reaches the error (line {line}), so it is not correct"),
        }
    };
    match outcome.verdict {
        Verdict::Safe if not_inductive => {
            notes.insert(0, "the invariants hold (re-verified with them asserted) but do not prove the program safe on their own".into());
            verdict(if strict { Validity::Unknown } else { Validity::Valid }, notes)
        }
        Verdict::Safe => {
            notes.insert(0, format!("all {} invariants hold at their loops and the program is safe (re-verified with them asserted)", checks.len()));
            verdict(Validity::Valid, notes)
        }
        Verdict::Unsafe => {
            let last = outcome.trace.last().map(|s| s.line).unwrap_or(0);
            let mut reasons = vec![described(last), format!("inputs: {}", outcome.inputs.join(", "))];
            reasons.extend(notes);
            verdict(Validity::Invalid, reasons)
        }
        Verdict::Unknown => {
            notes.push(format!("re-verification with the invariants asserted ended UNKNOWN: {}", outcome.reason));
            verdict(Validity::Unknown, notes)
        }
    }
}

/// After `check`: SV-COMP's verdict in `sv_comp` (`true`, `false(unreach-call)`, `unknown`), and
/// the witness written to `out` for a SAFE or UNSAFE verdict.
pub fn after_check(outcome: &mut Outcome, out: Option<&Path>, request: &Request) -> Option<Result<String, String>> {
    outcome.sv_comp = task::sv_comp(outcome.verdict).to_string();
    let out = out?;
    if outcome.verdict == Verdict::Unknown {
        eprintln!("witness: none for an UNKNOWN verdict");
        return None;
    }
    Some(write(outcome, request, out))
}

/// Reports what `--witness` did on stderr; a witness that could not be written makes the exit
/// code 3 (the verdict itself was printed).
pub fn report_written(written: Option<Result<String, String>>, code: ExitCode) -> ExitCode {
    match written {
        Some(Ok(summary)) => {
            eprintln!("witness: {summary}");
            code
        }
        Some(Err(e)) => {
            eprintln!("error: no witness written: {e}");
            ExitCode::from(3)
        }
        None => code,
    }
}
