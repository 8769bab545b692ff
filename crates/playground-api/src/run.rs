//! Running a request: lowering, boolean-program model checking, abstraction and the CEGAR loop,
//! converted to the plain data of [`crate::types`].

use crate::types::*;
use diagnostics::{Diagnostic, LineIndex};

/// Converts engine diagnostics about `text` into plain data with line:column and a rendering.
pub fn diagnostics_data(diagnostics: &[Diagnostic], file_name: &str, text: &str, origin: &str) -> Vec<DiagnosticData> {
    let index = LineIndex::new(text);
    diagnostics
        .iter()
        .map(|d| {
            let start = index.line_col(d.span.start);
            let end = index.line_col(d.span.end);
            DiagnosticData {
                severity: match d.severity {
                    diagnostics::Severity::Error => Severity::Error,
                    diagnostics::Severity::Warning => Severity::Warning,
                    diagnostics::Severity::Note => Severity::Note,
                },
                message: d.message.clone(),
                line: start.line,
                column: start.column,
                end_line: end.line,
                end_column: end.column,
                help: d.help.clone(),
                origin: origin.to_string(),
                rendered: diagnostics::render(d, file_name, &index),
            }
        })
        .collect()
}

pub(crate) fn has_error(diagnostics: &[DiagnosticData]) -> bool {
    diagnostics.iter().any(|d| d.severity == Severity::Error)
}

/// `predabs lower`: the lowered program as text, diagnostics, and whether lowering succeeded.
pub fn lower_to_text(source: &str, file_name: &str) -> (String, Vec<DiagnosticData>, bool) {
    let (program, diagnostics) = c_front::lower(source, file_name, &c_front::LowerOptions::default());
    let data = diagnostics_data(&diagnostics, file_name, source, "source");
    let ok = program.is_some() && !has_error(&data);
    let text = program.map(|p| c_ir::display_program(&p)).unwrap_or_default();
    (text, data, ok)
}

/// `predabs export`: a boolean program as Promela for SPIN.
pub fn export_promela(source: &str) -> Result<String, Vec<DiagnosticData>> {
    let (program, mut diagnostics) = boolprog::parse(source);
    if !diagnostics::has_errors(&diagnostics) {
        diagnostics.extend(boolprog::validate(&program));
    }
    if diagnostics::has_errors(&diagnostics) {
        return Err(diagnostics_data(&diagnostics, "input.bp", source, "source"));
    }
    boolprog::promela::export(&program).map_err(|d| diagnostics_data(&[d], "input.bp", source, "source"))
}

pub(crate) fn empty_outcome(verdict: Verdict, reason: impl Into<String>, diagnostics: Vec<DiagnosticData>) -> Outcome {
    Outcome {
        verdict,
        sv_comp: verdict.sv_comp().to_string(),
        reason: reason.into(),
        diagnostics,
        iterations: Vec::new(),
        final_predicates: String::new(),
        invariants: Vec::new(),
        invariant_source: String::new(),
        trace: Vec::new(),
        inputs: Vec::new(),
        statistics: Statistics::default(),
        elapsed_ms: 0.0,
        decided_by: None,
        next_step: String::new(),
        predicates: Vec::new(),
        cancelled: false,
    }
}

/// Printed boolean program with, per line, the C line of its origin (via `c_line_of`).
pub(crate) fn boolean_program_text(
    program: &boolprog::Program,
    c_line_of: &dyn Fn(boolprog::Origin) -> Option<u32>,
) -> (BooleanProgramText, boolprog::Printed) {
    let printed = boolprog::print_bebop(program);
    let line_count = printed.text.lines().count();
    let mut c_lines = vec![None; line_count];
    for info in &printed.lines {
        if let (Some(origin), Some(slot)) = (info.origin, c_lines.get_mut(info.line as usize - 1)) {
            *slot = c_line_of(origin);
        }
    }
    (BooleanProgramText { text: printed.text.clone(), c_lines }, printed)
}

/// Converts a model checker trace to display steps.
pub(crate) fn abstract_steps(
    program: &boolprog::Program,
    printed: &boolprog::Printed,
    trace: &model_check::Trace,
    c_line_of: &dyn Fn(boolprog::Origin) -> Option<u32>,
) -> Vec<AbstractStep> {
    let lines: Vec<&str> = printed.text.lines().collect();
    trace
        .steps
        .iter()
        .map(|step| {
            let bp_line = step.stmt.and_then(|s| printed.line_of(step.proc, s));
            let statement = bp_line
                .and_then(|l| lines.get(l as usize - 1))
                .map(|s| s.trim().to_string())
                .unwrap_or_else(|| "end".to_string());
            let kind = match step.kind {
                model_check::StepKind::Call { callee } => {
                    format!("call {}", program.procs.get(callee.0 as usize).map(|p| p.name.as_str()).unwrap_or("?"))
                }
                model_check::StepKind::Return { caller, .. } => {
                    format!("return to {}", program.procs.get(caller.0 as usize).map(|p| p.name.as_str()).unwrap_or("?"))
                }
                k => format!("{k:?}"),
            };
            AbstractStep {
                procedure: program.procs.get(step.proc.0 as usize).map(|p| p.name.clone()).unwrap_or_default(),
                bp_line,
                c_line: step.origin.and_then(c_line_of),
                statement,
                kind,
                valuation: step.valuation.clone(),
            }
        })
        .collect()
}

fn model_check_statistics(stats: &model_check::Statistics) -> Statistics {
    Statistics { bdd_peak_nodes: stats.peak_bdd_nodes as u64, model_check_ms: stats.time_ms, ..Statistics::default() }
}

/// Model checks a boolean program written by hand.
pub(crate) fn run_boolean_program(request: &Request, cancel: &dyn Fn() -> bool) -> Outcome {
    let file_name = if request.file_name.is_empty() { "input.bp" } else { &request.file_name };
    let (program, mut diagnostics) = boolprog::parse(&request.source);
    if !diagnostics::has_errors(&diagnostics) {
        diagnostics.extend(boolprog::validate(&program));
    }
    let data = diagnostics_data(&diagnostics, file_name, &request.source, "source");
    if has_error(&data) {
        return empty_outcome(Verdict::Unknown, "the boolean program has errors", data);
    }
    let config = model_check::Config {
        time_budget_ms: Some(request.options.timeout_ms),
        error_labels: boolprog::ERROR_LABELS
            .iter()
            .map(|l| l.to_string())
            .chain(request.options.error_labels.iter().cloned())
            .collect(),
        eliminate_dead_variables: request.options.eliminate_dead_variables,
        ..model_check::Config::default()
    };
    let result = model_check::check_with_cancel(&program, &config, cancel);
    let (text, printed) = boolean_program_text(&program, &|_| None);
    // For hand-written programs the "C line" of a statement is its own line.
    let text = BooleanProgramText { c_lines: (1..=text.c_lines.len() as u32).map(Some).collect(), ..text };
    let mut snapshot = IterationSnapshot {
        index: 1,
        boolean_program: text,
        statistics: model_check_statistics(&result.statistics),
        ..IterationSnapshot::default()
    };
    let (verdict, reason) = match &result.verdict {
        model_check::Verdict::Safe => (Verdict::Safe, String::new()),
        model_check::Verdict::ErrorReachable => {
            let last = result.trace.as_ref().and_then(|t| t.steps.last());
            let label = last.filter(|s| s.kind == model_check::StepKind::ErrorLabel).and_then(|s| {
                let proc = program.procs.get(s.proc.0 as usize)?;
                boolprog::statements_in_order(&proc.body).get(s.stmt?.0 as usize)?.label.clone()
            });
            match label {
                Some(l) => (Verdict::Unsafe, format!("the error label `{l}` is reachable")),
                None => (Verdict::Unsafe, "an assertion can fail".to_string()),
            }
        }
        model_check::Verdict::Unknown(why) => (Verdict::Unknown, why.clone()),
    };
    if let Some(trace) = &result.trace {
        snapshot.abstract_trace = abstract_steps(&program, &printed, trace, &|_| None);
    }
    let mut data = data;
    data.extend(diagnostics_data(&result.diagnostics, file_name, &request.source, "source"));
    let invariants = result
        .invariants
        .iter()
        .map(|inv| InvariantData {
            procedure: program.procs.get(inv.proc.0 as usize).map(|p| p.name.clone()).unwrap_or_default(),
            c_line: printed.line_of(inv.proc, inv.stmt),
            location: inv.label.clone().map(|l| format!("{l}:")).unwrap_or_default(),
            formula: inv.text.clone(),
        })
        .collect();
    let statistics = snapshot.statistics.clone();
    Outcome {
        verdict,
        sv_comp: verdict.sv_comp().to_string(),
        reason,
        diagnostics: data,
        iterations: vec![snapshot],
        final_predicates: String::new(),
        invariants,
        invariant_source: "boolean_program".into(),
        trace: Vec::new(),
        inputs: Vec::new(),
        statistics,
        elapsed_ms: result.statistics.time_ms,
        decided_by: None,
        next_step: String::new(),
        predicates: Vec::new(),
        cancelled: false,
    }
}

/// Runs a request, streaming events to `on_event`; `cancel` is polled between steps.
pub fn run(request: &Request, on_event: &mut dyn FnMut(Event), cancel: &dyn Fn() -> bool) -> Outcome {
    let start = web_time::Instant::now();
    let mut outcome = match request.mode {
        Mode::BooleanProgram => {
            on_event(Event::Progress { phase: "model checking".into(), iteration: 1, solver_queries: 0 });
            run_boolean_program(request, cancel)
        }
        Mode::Abstract => crate::engine::run_abstract(request, on_event, cancel),
        Mode::Check => crate::engine::run_check(request, on_event, cancel),
    };
    outcome.elapsed_ms = start.elapsed().as_secs_f64() * 1000.0;
    on_event(Event::Done { outcome: Box::new(outcome.clone()) });
    outcome
}
