//! `predabs check --witness OUT.yml` and `predabs validate`: the glue between the engine's
//! outcome (`playground_api::Outcome`) and the `witness` crate (SV-COMP witness format 2.0).
//!
//! - UNSAFE: the counterexample's inputs are replayed in the interpreter and written as a
//!   violation sequence (branches taken, nondeterministic values, the error call as target).
//! - SAFE: the invariants at loop heads, as C expressions over program variables at the loops'
//!   keywords, are written as an invariant set.
//! - `validate`: a violation witness is followed in the interpreter; a correctness witness is
//!   validated by asserting each invariant at its loop (every time the loop condition is about to
//!   be evaluated) and re-verifying the instrumented program with the engine.

use crate::task;
use playground_api::{Mode, Options, Outcome, Request, Verdict};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::ExitCode;
use witness::correctness;
use witness::source::SourceIndex;
use witness::c_ir;
use witness::{CorrectnessWitness, DataModel, Invariant, InvariantKind, Location, Producer, Validity, ViolationWitness, Witness};

fn data_model(text: &str) -> Result<DataModel, String> {
    DataModel::parse(text).ok_or_else(|| format!("unknown data model `{text}` (ILP32 or LP64)"))
}

fn producer() -> Producer {
    Producer {
        name: "predabs".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        configuration: None,
        command_line: Some(
            std::env::args()
                .map(|a| if a.contains(' ') { format!("'{a}'") } else { a })
                .collect::<Vec<_>>()
                .join(" "),
        ),
    }
}

/// The correctness witness's invariants: each loop-head invariant of the outcome placed at its
/// source loop (several IR heads at one loop are joined by `||`, which each of them implies).
/// A function whose body starts with its loop (`void eval(void) { while (1) ... }`) has the
/// loop head as its first statement, whose invariant the engine reports as the one *at entry*:
/// it holds every time that statement is reached, on entry and after each iteration, so it is
/// that loop's invariant. Each is given in the form [`correctness::compact`] makes.
/// Second result: why an invariant was left out or weakened (printed as notes; a left-out or
/// weakened invariant makes the witness weaker, never wrong).
fn loop_invariants(outcome: &Outcome, program: &c_ir::Program, index: &SourceIndex, file_name: &str) -> (Vec<Invariant>, Vec<String>) {
    let mut at_loop: BTreeMap<u32, (String, Vec<String>)> = BTreeMap::new();
    let mut notes = Vec::new();
    let starts_with_loop = |name: &str| program.proc_by_name(name).is_some_and(|p| program.proc(p).loop_heads().contains(&0));
    let at_head = |i: &&playground_api::InvariantData| match i.location.as_str() {
        "at loop head" => true,
        "at entry" => starts_with_loop(&i.procedure),
        _ => false,
    };
    for inv in outcome.invariants.iter().filter(at_head) {
        let line = inv.c_line.unwrap_or(0);
        let mut skip = |why: &str| notes.push(format!("the invariant of `{}` at line {line} is left out: {why}", inv.procedure));
        let Some(proc) = program.proc_by_name(&inv.procedure) else {
            skip("its function is not in the program");
            continue;
        };
        let entry = inv.location == "at entry";
        let heads: Vec<u32> = program.proc(proc).loop_heads().into_iter().filter(|&h| (h == 0) == entry).collect();
        let on_line: Vec<u32> = heads
            .into_iter()
            .filter(|&h| Some(index.line_col(program.stmt(c_ir::StmtRef { proc, index: h }).span.start).0) == inv.c_line)
            .collect();
        let sites: Vec<u32> = on_line
            .iter()
            .filter_map(|&h| correctness::loop_of_head(program, index, c_ir::StmtRef { proc, index: h }).map(|s| s.keyword))
            .collect();
        let Some(&keyword) = sites.first().filter(|_| sites.iter().all(|&k| k == sites[0])) else {
            skip("no single source loop starts on that line");
            continue;
        };
        let Some(site) = index.loops.iter().find(|l| l.keyword == keyword) else {
            skip("no source loop at its keyword");
            continue;
        };
        let formula = match correctness::read_invariant(program, proc, &inv.formula) {
            Ok(f) => f,
            Err(why) => {
                skip(&format!("its formula cannot be read back ({why})"));
                continue;
            }
        };
        let (formula, compaction) = correctness::compact(&formula);
        if let correctness::Compaction::TwoLiteralClauses { predicates, clauses } = compaction {
            notes.push(format!(
                "the invariant of `{}` at line {line} is weakened to its {clauses} clauses of two literals: its disjunction mentions {predicates} predicates (more than {})",
                inv.procedure,
                correctness::MAX_DISJUNCTION_PREDICATES
            ));
        }
        let text = correctness::c_expression(program, index, proc, correctness::scope_point(site), &formula);
        let entry = at_loop.entry(keyword).or_insert_with(|| (program.proc(proc).name.clone(), Vec::new()));
        // `None`: nothing expressible, i.e. `1`, which makes the disjunction trivial
        entry.1.push(text.unwrap_or_else(|| "1".to_string()));
    }
    let invariants = at_loop
        .into_iter()
        .filter_map(|(keyword, (function, texts))| {
            let (line, column) = index.line_col(keyword);
            if texts.iter().any(|t| t == "1") {
                notes.push(format!("the invariant of `{function}` at line {line} is left out: nothing of it can be said over the variables in scope there"));
                return None;
            }
            let value = if texts.len() == 1 {
                texts[0].clone()
            } else {
                texts.iter().map(|t| format!("({t})")).collect::<Vec<_>>().join(" || ")
            };
            Some(Invariant {
                kind: InvariantKind::Loop,
                location: Location {
                    file_name: file_name.to_string(),
                    line,
                    column: Some(column),
                    function: Some(function),
                },
                value,
            })
        })
        .collect();
    (invariants, notes)
}

/// Writes the witness for `outcome` (SAFE or UNSAFE) of `source` to `out`; returns a summary line.
pub fn write(outcome: &Outcome, file_name: &str, source: &str, data_model_text: &str, out: &Path) -> Result<String, String> {
    let model = data_model(data_model_text)?;
    let program = witness::lower(source, file_name, model)?;
    let index = SourceIndex::new(source);
    let metadata = witness::metadata(producer(), file_name, source.as_bytes(), model, witness::meta::now());
    let (witness, summary) = match outcome.verdict {
        Verdict::Unsafe => {
            let inputs: Vec<i128> = outcome
                .inputs
                .iter()
                .map(|v| v.trim().parse::<i128>().map_err(|_| format!("input `{v}` is not an integer")))
                .collect::<Result<_, _>>()?;
            let (waypoints, notes) = witness::violation::violation_waypoints(&program, &index, file_name, &inputs)?;
            for n in &notes {
                eprintln!("witness: {n}");
            }
            let summary = format!("violation witness with {} waypoints", waypoints.len());
            (Witness::Violation(ViolationWitness::from_waypoints(metadata, waypoints)), summary)
        }
        Verdict::Safe => {
            let (invariants, notes) = loop_invariants(outcome, &program, &index, file_name);
            for n in &notes {
                eprintln!("witness: {n}");
            }
            let summary = format!("correctness witness with {} loop invariants", invariants.len());
            (Witness::Correctness(CorrectnessWitness { metadata, invariants }), summary)
        }
        Verdict::Unknown => return Err("no witness for an UNKNOWN verdict".into()),
    };
    std::fs::write(out, witness::yaml::to_yaml(&witness)).map_err(|e| format!("{}: cannot write: {e}", out.display()))?;
    Ok(summary)
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
    Some(write(outcome, &request.file_name, &request.source, &request.options.data_model, out))
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
