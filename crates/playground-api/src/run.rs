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
    let program = parse_for_export(source)?;
    boolprog::promela::export(&program).map_err(|d| diagnostics_data(&[d], "input.bp", source, "source"))
}

/// `predabs export --format moped|boppo`: a boolean program in another model checker's dialect.
pub fn export_dialect(source: &str, dialect: boolprog::Dialect) -> Result<String, Vec<DiagnosticData>> {
    Ok(boolprog::print_dialect(&parse_for_export(source)?, dialect))
}

/// The boolean program to export, or the errors that stop the export.
fn parse_for_export(source: &str) -> Result<boolprog::Program, Vec<DiagnosticData>> {
    let (program, mut diagnostics) = boolprog::parse(source);
    if !diagnostics::has_errors(&diagnostics) {
        diagnostics.extend(boolprog::validate(&program));
    }
    if diagnostics::has_errors(&diagnostics) {
        return Err(diagnostics_data(&diagnostics, "input.bp", source, "source"));
    }
    Ok(program)
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
        input_sources: Vec::new(),
        runtime_error: None,
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
    printed_text(boolprog::print_bebop(program), c_line_of)
}

/// A printed boolean program (Bebop or C2BP's C-like form) with the C line of each line.
pub(crate) fn printed_text(
    printed: boolprog::Printed,
    c_line_of: &dyn Fn(boolprog::Origin) -> Option<u32>,
) -> (BooleanProgramText, boolprog::Printed) {
    let line_count = printed.text.lines().count();
    let mut c_lines = vec![None; line_count];
    for info in &printed.lines {
        if let (Some(origin), Some(slot)) = (info.origin, c_lines.get_mut(info.line as usize - 1)) {
            *slot = c_line_of(origin);
        }
    }
    (BooleanProgramText { text: printed.text.clone(), c_lines }, printed)
}

/// Converts a model checker trace to display steps. With the C program's `names` (the
/// boolean variables' display names and the boolean program printed after renaming them,
/// line for line `printed`), the statements and valuations are over the source's names.
pub(crate) fn abstract_steps(
    program: &boolprog::Program,
    printed: &boolprog::Printed,
    trace: &model_check::Trace,
    c_line_of: &dyn Fn(boolprog::Origin) -> Option<u32>,
    names: Option<(&crate::names::BooleanNames, &str)>,
) -> Vec<AbstractStep> {
    let lines: Vec<&str> = names.map(|(_, text)| text).unwrap_or(&printed.text).lines().collect();
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
                valuation: match names {
                    Some((n, _)) => step.valuation.iter().map(|(v, b)| (n.get(v), *b)).collect(),
                    None => step.valuation.clone(),
                },
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
        snapshot.abstract_trace = abstract_steps(&program, &printed, trace, &|_| None, None);
        snapshot.counterexample_search = crate::engine::counterexample_search(Some(trace.search));
    }
    snapshot.pushdown = Some(crate::pushdown::view(&program, &config, &request.source));
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
            predicates: Vec::new(),
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
        input_sources: Vec::new(),
        runtime_error: None,
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
        Mode::Hide | Mode::Shape => empty_outcome(Verdict::Unknown, "the Hide and Shape modes run through playground_api::hide::hide and playground_api::shape::shape", Vec::new()),
    };
    outcome.elapsed_ms = start.elapsed().as_secs_f64() * 1000.0;
    fill_next_step(request.mode, &mut outcome);
    on_event(Event::Done { outcome: Box::new(outcome.clone()) });
    outcome
}

/// Every UNKNOWN says what to try next (issue 31): the engine's suggestion
/// (`cegar::StopReason::next_step`), else one from why the run ended.
pub(crate) fn fill_next_step(mode: Mode, outcome: &mut Outcome) {
    if outcome.verdict != Verdict::Unknown || !outcome.next_step.is_empty() {
        return;
    }
    outcome.next_step = if has_error(&outcome.diagnostics) {
        "fix the errors listed (each names its line), then run again"
    } else if outcome.cancelled || outcome.reason == "cancelled" {
        "run again, or Step, to continue"
    } else {
        match mode {
            Mode::BooleanProgram => "raise the time limit in Settings, or give the boolean program fewer variables in scope",
            Mode::Abstract => "raise the time limit in Settings, or abstract with fewer predicates",
            Mode::Check => "select more techniques, or raise the budget in Settings",
            Mode::Hide | Mode::Shape => "raise the time limit in Settings",
        }
    }
    .to_string();
}

/// Check mode one CEGAR iteration at a time (the playground's Step, BOOP Fig 3.1): the lowered
/// program and the loop's settings, from which [`CheckSteps::stepper`] makes a steppable loop.
///
/// Stepping runs the loop of the `cegar` technique (with the `candidates` source when selected,
/// without the difference bounds that feed it in a full run); the portfolio's other techniques
/// and its random-run guard of SAFE verdicts belong to a full run. The loop has no wall-clock
/// budget while stepped: the time a student spends reading between two steps must not count,
/// and a step that takes too long is cancelled by terminating the worker.
pub struct CheckSteps {
    request: Request,
    prepared: Result<(crate::engine::LoweredSource, verify::Config), Box<Outcome>>,
}

impl CheckSteps {
    /// Lowers the program and parses the predicates (their errors end the run at the first step).
    pub fn prepare(request: &Request) -> CheckSteps {
        let request = Request { mode: Mode::Check, ..request.clone() };
        let prepared = crate::engine::lower_request(&request).and_then(|lowered| {
            let mut config = crate::engine::verify_config(&request.options);
            let (user, diagnostics) = c_front::parse_predicates(&lowered.program, &request.predicates);
            if diagnostics::has_errors(&diagnostics) {
                let mut all = lowered.diagnostics.clone();
                all.extend(diagnostics_data(&diagnostics, "predicates", &request.predicates, "predicates"));
                return Err(Box::new(empty_outcome(Verdict::Unknown, "the predicates have errors", all)));
            }
            config.loop_config.user_predicates = user;
            config.loop_config.time_budget_ms = None;
            Ok((lowered, config))
        });
        CheckSteps { request, prepared }
    }

    /// The loop, before its first iteration.
    pub fn stepper(&self) -> Stepper<'_> {
        let session = self.prepared.as_ref().ok().map(|(lowered, config)| {
            let mut session = cegar::Session::new(&lowered.program, config.loop_config.clone());
            if config.techniques.contains(verify::Technique::Candidates) {
                session.add_candidate_source(Box::new(verify::LoopCandidates::new(None)));
            }
            session
        });
        Stepper { steps: self, session, start: web_time::Instant::now() }
    }
}

/// A stepped CEGAR loop over a [`CheckSteps`].
pub struct Stepper<'a> {
    steps: &'a CheckSteps,
    session: Option<cegar::Session<'a>>,
    start: web_time::Instant,
}

impl Stepper<'_> {
    /// Exactly one iteration: its progress and its record go to `on_event` as they happen.
    /// Returns the outcome (also sent as [`Event::Done`], with empty `iterations`: they were
    /// streamed) once the loop has ended, `None` while it goes on.
    pub fn step(&mut self, on_event: &mut dyn FnMut(Event)) -> Option<Outcome> {
        let (Some(session), Ok((lowered, _))) = (self.session.as_mut(), self.steps.prepared.as_ref()) else {
            return Some(self.finish(on_event));
        };
        let ended = {
            let mut forward = |e: cegar::Event| forward_loop_event(lowered, e, on_event);
            matches!(session.step(&mut forward, &|| false), cegar::Step::Done(_))
        };
        ended.then(|| self.finish(on_event))
    }

    /// Runs the loop to its end and returns the outcome (also sent as [`Event::Done`]).
    pub fn finish(&mut self, on_event: &mut dyn FnMut(Event)) -> Outcome {
        let mut outcome = match (self.session.as_mut(), self.steps.prepared.as_ref()) {
            (Some(session), Ok((lowered, _))) => {
                let mut forward = |e: cegar::Event| forward_loop_event(lowered, e, on_event);
                let end = session.run(&mut forward, &|| false).clone();
                let result = loop_result(session, end);
                crate::engine::check_outcome(&self.steps.request, lowered, &result)
            }
            (_, Err(outcome)) => (**outcome).clone(),
            (None, Ok(_)) => unreachable!("a prepared request has a session"),
        };
        outcome.iterations.clear();
        outcome.elapsed_ms = self.start.elapsed().as_secs_f64() * 1000.0;
        fill_next_step(Mode::Check, &mut outcome);
        on_event(Event::Done { outcome: Box::new(outcome.clone()) });
        outcome
    }
}

fn forward_loop_event(lowered: &crate::engine::LoweredSource, event: cegar::Event, on_event: &mut dyn FnMut(Event)) {
    match event {
        cegar::Event::Progress(p) => {
            on_event(Event::Progress { phase: p.phase.describe().to_string(), iteration: p.iteration, solver_queries: p.solver_calls })
        }
        cegar::Event::Iteration(record) => {
            on_event(Event::Iteration { snapshot: Box::new(crate::engine::iteration_snapshot(lowered, record)) })
        }
    }
}

/// What the portfolio reports for a loop that ended with `end` and decided alone.
fn loop_result(session: &cegar::Session, end: cegar::LoopEnd) -> verify::CheckOutcome {
    let decided = |verdict, reason: &str| (verdict, Some(verify::Technique::Cegar), Some(reason.to_string()));
    let (verdict, decided_by, reason) = match &end {
        cegar::LoopEnd::Safe { .. } => decided(cegar::Verdict::Safe, cegar::SAFE_BECAUSE_ABSTRACTION_IS_SAFE),
        cegar::LoopEnd::NoErrorLocation => decided(cegar::Verdict::Safe, "the program has no error location"),
        cegar::LoopEnd::Unsafe { .. } => decided(cegar::Verdict::Unsafe, "a feasible abstract counterexample, replayed on the interpreter"),
        cegar::LoopEnd::Stopped(reason) => (cegar::Verdict::Unknown, None, Some(reason.to_string())),
    };
    let mut statistics = verify::Statistics {
        iterations: session.iterations().len() as u32,
        solver_calls: session.solver_calls(),
        time_ms: session.elapsed_ms(),
        ..verify::Statistics::default()
    };
    for it in session.iterations() {
        statistics.abstraction_ms += it.statistics.abstraction_ms;
        statistics.model_check_ms += it.statistics.model_check_ms;
        statistics.refine_ms += it.statistics.refine_ms;
    }
    verify::CheckOutcome {
        verdict,
        decided_by,
        reason,
        next_step: end.stop_reason().map(|r| r.next_step().to_string()),
        iterations: session.iterations().to_vec(),
        predicates: session.predicates().list().to_vec(),
        invariants: match &end {
            cegar::LoopEnd::Safe { invariants } => invariants.clone(),
            _ => Vec::new(),
        },
        invariant_source: verify::InvariantSource::BooleanProgram,
        counterexample: match &end {
            cegar::LoopEnd::Unsafe { counterexample } => Some(counterexample.clone()),
            _ => None,
        },
        statistics,
        diagnostics: Vec::new(),
        cancelled: false,
        loop_end: Some(end),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn testdev() -> Request {
        let example = crate::examples::by_id("testdev").expect("testdev");
        Request {
            mode: Mode::Check,
            source: example.source.into(),
            file_name: "testdev.c".into(),
            predicates: example.predicates.into(),
            options: Options { techniques: vec![Technique::Cegar], ..Options::default() },
        }
    }

    #[test]
    fn each_step_is_one_iteration_and_the_last_gives_the_verdict_of_a_run() {
        let request = testdev();
        let full = run(&request, &mut |_| {}, &|| false);
        let steps = CheckSteps::prepare(&request);
        let mut stepper = steps.stepper();
        let mut per_step = Vec::new();
        let mut outcome = None;
        while outcome.is_none() {
            let mut iterations = Vec::new();
            let mut dones = 0;
            outcome = stepper.step(&mut |e| match e {
                Event::Iteration { snapshot } => iterations.push(snapshot.index),
                Event::Done { .. } => dones += 1,
                Event::Progress { .. } => {}
            });
            assert_eq!(dones, usize::from(outcome.is_some()));
            per_step.push(iterations);
            assert!(per_step.len() <= 10, "the loop does not end: {per_step:?}");
        }
        let outcome = outcome.unwrap();
        assert_eq!(per_step, vec![vec![1], vec![2], vec![3]], "one iteration per step, none twice");
        assert_eq!(outcome.verdict, full.verdict);
        assert_eq!(outcome.verdict, Verdict::Unsafe);
        assert_eq!(outcome.decided_by, Some(Technique::Cegar));
        assert!(outcome.iterations.is_empty(), "streamed, not repeated");
        assert_eq!(outcome.inputs, full.inputs);
    }

    #[test]
    fn check_mode_explains_an_iteration_on_demand_with_the_loops_boolean_program() {
        let request = testdev();
        let full = run(&request, &mut |_| {}, &|| false);
        assert!(full.iterations.iter().all(|it| it.explanation.is_none()), "Check mode records none by itself");
        let it = full.iterations.last().expect("iterations");
        let explained = crate::explain_iteration(&request, &it.predicates).expect("explains");
        assert!(!explained.statements.is_empty());
        let bp: Vec<&str> = it.boolean_program.text.lines().collect();
        for statement in &explained.statements {
            let line = statement.bp_line.expect("each explained statement has its boolean line") as usize;
            assert!(line <= bp.len(), "line {line} of {}", bp.len());
            assert!(!statement.predicates.is_empty());
        }
        // the explained `locked = TRUE` updates {locked == 0} on the loop's own line
        let locked = explained.statements.iter().find(|s| s.c_statement.starts_with("locked = 1")).expect("locked = 1");
        assert!(bp[locked.bp_line.unwrap() as usize - 1].contains("{locked == 0} :="), "{}", bp[locked.bp_line.unwrap() as usize - 1]);
        // the lattice strategy's queries make the solver log
        let lattice = Request { options: Options { strategy: Strategy::Lattice, ..request.options.clone() }, ..request.clone() };
        let it = &run(&lattice, &mut |_| {}, &|| false).iterations[1];
        assert!(!crate::explain_iteration(&lattice, &it.predicates).expect("explains").solver_log.is_empty());
        assert!(crate::explain_iteration(&request, "main { x == }").is_err());
    }

    #[test]
    fn finish_runs_the_rest_and_errors_end_at_the_first_step() {
        let request = testdev();
        let steps = CheckSteps::prepare(&request);
        let mut stepper = steps.stepper();
        assert!(stepper.step(&mut |_| {}).is_none());
        let mut later = Vec::new();
        let outcome = stepper.finish(&mut |e| {
            if let Event::Iteration { snapshot } = e {
                later.push(snapshot.index)
            }
        });
        assert_eq!(later, vec![2, 3]);
        assert_eq!(outcome.verdict, Verdict::Unsafe);

        let broken = Request { source: "int main(void) { x = ; }".into(), ..testdev() };
        let steps = CheckSteps::prepare(&broken);
        let outcome = steps.stepper().step(&mut |_| {}).expect("ends at once");
        assert_eq!(outcome.verdict, Verdict::Unknown);
        assert!(outcome.diagnostics.iter().any(|d| d.severity == Severity::Error));
    }
}
