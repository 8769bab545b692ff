//! The budget policy, the order of the techniques and the merge of their verdicts (see the
//! crate documentation for the order).

use crate::{CheckOutcome, Config, Event, InvariantSource, LoopCandidates, Statistics, Technique};
use analyses::{bmc, heap, zones};
use c_ir::{Program, StmtKind};
use cegar::{LoopEnd, Session, StopReason, Verdict};
use concrete::{Counterexample, InputDistribution, SingleExecution};
use budget::{cost, Meter};
use diagnostics::LineIndex;
use web_time::Instant;

/// At most this many work units of random runs, and as many of bounded model checking, before
/// the loop starts.
const PROBE_UNITS: u64 = 2_000_000;
/// At most this many work units for each abstract interpretation (zones, heap values).
const ANALYSIS_UNITS: u64 = 5_000_000;
/// Statements of the first run of a program that reads no input.
const SINGLE_EXECUTION_PROBE_STEPS: u64 = 1_000_000;
/// After the budget: the last tries (the unfinished single execution, random runs) get this
/// many work units more.
const GRACE_UNITS: u64 = 3_000_000;
/// The interpreter polls its stop function every this many statements (and once per run).
const INTERPRETER_POLL_STEPS: u64 = 65_536;
/// Bounded model checking polls its stop function every this many symbolic steps.
const BMC_POLL_UNITS: u64 = 256;
/// Statements of one short random run.
const SHORT_RUN_STEPS: u64 = 100_000;

/// Lowers `source` (default lowering options) and runs [`check_program`]; counterexample steps
/// and invariants get line numbers.
pub fn check_source(source: &str, file_name: &str, config: &Config, events: &mut dyn FnMut(Event), cancel: &dyn Fn() -> bool) -> CheckOutcome {
    check_source_with(source, file_name, &c_front::LowerOptions::default(), config, events, cancel)
}

/// [`check_source`] with lowering options (data model, ...).
pub fn check_source_with(
    source: &str,
    file_name: &str,
    options: &c_front::LowerOptions,
    config: &Config,
    events: &mut dyn FnMut(Event),
    cancel: &dyn Fn() -> bool,
) -> CheckOutcome {
    let (program, diagnostics) = c_front::lower(source, file_name, options);
    let program = match program {
        Some(p) if !diagnostics::has_errors(&diagnostics) => p,
        _ => {
            let first = diagnostics.iter().find(|d| d.is_error()).map(|d| d.message.clone()).unwrap_or_else(|| "the file could not be parsed".into());
            let mut outcome = CheckOutcome::unknown(format!("unsupported program: {first}"), diagnostics);
            outcome.next_step = Some("fix the errors shown at their lines".into());
            return outcome;
        }
    };
    let mut outcome = check_program(&program, config, events, cancel);
    let index = LineIndex::new(source);
    let line = |offset: u32| index.line_col(offset.min(source.len() as u32)).line;
    if let Some(cex) = &mut outcome.counterexample {
        for step in &mut cex.steps {
            step.line = line(step.span.start);
        }
    }
    for inv in &mut outcome.invariants {
        inv.line = line(inv.span.start);
    }
    let mut all = diagnostics;
    all.append(&mut outcome.diagnostics);
    outcome.diagnostics = all;
    outcome
}

/// Runs the selected techniques on a lowered program; the first sound decision is the verdict.
pub fn check_program(program: &Program, config: &Config, events: &mut dyn FnMut(Event), cancel: &dyn Fn() -> bool) -> CheckOutcome {
    let root = Meter::with_limits(None, config.time_budget_ms, config.memory_limit);
    let main = root.sub(config.work_budget);
    let mut run = Portfolio { program, config, start: Instant::now(), root, main, events, cancel, bmc_resume: 2 };
    let mut outcome = run.decide();
    outcome.statistics.time_ms = run.elapsed_ms();
    outcome.statistics.work_units = run.root.spent();
    if let Some(stop) = run.root.stopped().filter(|s| !s.is_deterministic()) {
        // whatever the techniques said, the reader must know that this run was cut by the clock
        if outcome.verdict == Verdict::Unknown {
            outcome.reason = Some(match outcome.reason.take() {
                Some(r) if r.contains(&stop.to_string()) => r,
                Some(r) => format!("{r} ({stop})"),
                None => stop.to_string(),
            });
        }
    } else if let Some(stop) = run.root.memory_exhausted() {
        if outcome.verdict == Verdict::Unknown && !outcome.reason.as_deref().is_some_and(|r| r.contains("memory")) {
            outcome.reason = Some(format!("{} ({stop})", outcome.reason.take().unwrap_or_default()));
        }
    }
    outcome.cancelled = cancel();
    if outcome.verdict == Verdict::Unknown && outcome.next_step.is_none() {
        outcome.next_step = Some(match outcome.loop_end.as_ref().and_then(LoopEnd::stop_reason) {
            Some(reason) => reason.next_step().to_string(),
            None => "select more techniques, or raise the budget".to_string(),
        });
    }
    outcome
}

struct Portfolio<'a> {
    program: &'a Program,
    config: &'a Config,
    start: Instant,
    /// Everything the run charges (no work limit; the safety clock and the memory limit).
    root: Meter,
    /// The run's work budget ([`Config::work_budget`]), a part of `root`.
    main: Meter,
    events: &'a mut dyn FnMut(Event),
    cancel: &'a dyn Fn() -> bool,
    /// The bound where bounded model checking resumes (the probe's undecided bounds are not
    /// unrolled again after the loop).
    bmc_resume: u32,
}

/// What the analyses before the loop found.
struct Analyses {
    single: Option<SingleExecution>,
    zones: Option<zones::ZoneResult>,
}

impl Portfolio<'_> {
    fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }
    fn selected(&self, t: Technique) -> bool {
        self.config.techniques.contains(t)
    }
    /// Whether bounded model checking is selected, concrete runs are on (`random_runs > 0`),
    /// and the program is in its fragment.
    fn bmc_may_run(&self) -> bool {
        self.selected(Technique::Bmc) && self.config.random_runs > 0 && bmc::applicable(self.program)
    }
    fn cancelled(&self) -> bool {
        (self.cancel)()
    }
    /// A part of the work budget of `min(budget / parts, cap)` units, or `cap` without a budget.
    fn share(&self, parts: u64, cap: u64) -> Meter {
        self.main.sub(Some(self.config.work_budget.map_or(cap, |b| (b / parts).min(cap))))
    }
    /// The last tries: what is left of the work budget and [`GRACE_UNITS`] more (unlimited
    /// without a budget).
    fn grace(&self) -> Meter {
        self.root.sub(self.main.remaining().map(|left| left + GRACE_UNITS))
    }
    fn announce(&mut self, technique: Technique) {
        let elapsed_ms = self.elapsed_ms();
        (self.events)(Event::Technique { technique, elapsed_ms });
    }

    fn decide(&mut self) -> CheckOutcome {
        let program = self.program;
        if program.entry.is_none() {
            let mut outcome = CheckOutcome::unknown(StopReason::NoEntryProcedure.to_string(), Vec::new());
            outcome.next_step = Some(StopReason::NoEntryProcedure.next_step().into());
            return outcome;
        }
        let has_error = program.procs.iter().any(|p| p.body.iter().any(|s| matches!(s.kind, StmtKind::Error)));
        if !has_error {
            let mut outcome = decided(Verdict::Safe, Technique::Cegar, "the program has no error location");
            outcome.loop_end = Some(LoopEnd::NoErrorLocation);
            return outcome;
        }
        if self.cancelled() {
            return CheckOutcome::unknown(StopReason::Cancelled.to_string(), Vec::new());
        }
        let analyses = match self.before_the_loop() {
            Ok(analyses) => analyses,
            Err(outcome) => return *outcome,
        };
        let mut outcome = CheckOutcome::unknown("none of the selected techniques decided the program", Vec::new());
        if self.selected(Technique::Cegar) {
            outcome = self.run_loop(analyses.zones.as_ref());
            if outcome.verdict != Verdict::Unknown || self.cancelled() {
                return outcome;
            }
        }
        let why = outcome.reason.clone().unwrap_or_default();
        if let Some(decision) = self.after_the_loop(analyses.single, &why) {
            return with_the_loop(decision, outcome);
        }
        outcome
    }

    /// Steps 1–4: the single execution, testing before proving, the abstract interpretations,
    /// a short bounded model check.
    /// `Err` carries a decision.
    fn before_the_loop(&mut self) -> Result<Analyses, Box<CheckOutcome>> {
        let program = self.program;
        let cancel = self.cancel;
        let runs = self.config.random_runs;
        let single = if self.selected(Technique::SingleExecution) && runs > 0 {
            self.announce(Technique::SingleExecution);
            concrete::single_execution(program, SINGLE_EXECUTION_PROBE_STEPS, cancel)
        } else {
            None
        };
        match &single {
            Some(SingleExecution::Safe { steps }) => return Err(Box::new(single_execution_safe(program, *steps))),
            Some(SingleExecution::Unsafe(cex)) => return Err(Box::new(single_execution_unsafe(cex.clone()))),
            _ => {}
        }
        if self.selected(Technique::RandomRuns) && runs > 0 && single.is_none() {
            self.announce(Technique::RandomRuns);
            let meter = self.share(20, PROBE_UNITS);
            let stop = interpreter_stop(meter, cancel);
            if let Some(cex) = concrete::probe_for_error(program, runs, &stop) {
                let mut outcome = decided(Verdict::Unsafe, Technique::RandomRuns, "a random concrete run reaches the error (testing before proving)");
                outcome.counterexample = Some(cex);
                return Err(Box::new(outcome));
            }
        }
        let machine_integers = self.config.loop_config.integer_width.is_none();
        let zones = if (self.selected(Technique::Zones) || self.selected(Technique::Candidates)) && machine_integers {
            self.announce(Technique::Zones);
            let meter = self.share(10, ANALYSIS_UNITS);
            zones::analyze(program, &fixpoint_stop(meter, cancel))
        } else {
            None
        };
        if let Some(z) = zones.as_ref().filter(|z| z.safe && self.selected(Technique::Zones)) {
            let outcome = proof(Technique::Zones, InvariantSource::DifferenceBounds, z.invariants.clone(), ZONES_PROOF);
            return Err(Box::new(self.guarded(outcome)));
        }
        if self.selected(Technique::HeapValues) && machine_integers {
            self.announce(Technique::HeapValues);
            let meter = self.share(10, ANALYSIS_UNITS);
            if let Some(h) = heap::analyze(program, &fixpoint_stop(meter, cancel)).filter(|h| h.safe) {
                let outcome = proof(Technique::HeapValues, InvariantSource::HeapValues, h.invariants, HEAP_PROOF);
                return Err(Box::new(self.guarded(outcome)));
            }
        }
        // a short unrolling: programs whose loops have small constant bounds are decided at once
        if single.is_none() && self.bmc_may_run() {
            let meter = self.share(20, PROBE_UNITS);
            if let Some(decision) = self.bounded(meter) {
                return Err(Box::new(decision));
            }
        }
        Ok(Analyses { single, zones })
    }

    /// Step 5: the CEGAR loop with its share of the budget.
    fn run_loop(&mut self, zone: Option<&zones::ZoneResult>) -> CheckOutcome {
        let program = self.program;
        self.announce(Technique::Cegar);
        let bounded = self.bmc_may_run();
        let loop_config = self.config.loop_config.clone();
        // with bounded model checking after it, the loop ends at four fifths of the budget
        let meter = self.main.sub(self.config.work_budget.filter(|_| bounded).map(|b| (b / 5 * 4).saturating_sub(self.main.spent()).max(1)));
        let mut session = Session::with_meter(program, loop_config, meter);
        if self.selected(Technique::Candidates) {
            session.add_candidate_source(Box::new(LoopCandidates::new(zone)));
        }
        let events = &mut *self.events;
        let end = session.run(&mut |e| events(Event::Loop(e)), self.cancel).clone();
        let mut outcome = match &end {
            LoopEnd::Safe { invariants } => {
                let mut outcome = decided(Verdict::Safe, Technique::Cegar, cegar::SAFE_BECAUSE_ABSTRACTION_IS_SAFE);
                outcome.invariants = invariants.clone();
                outcome.invariant_source = InvariantSource::BooleanProgram;
                outcome
            }
            LoopEnd::NoErrorLocation => decided(Verdict::Safe, Technique::Cegar, "the program has no error location"),
            LoopEnd::Unsafe { counterexample } => {
                let mut outcome = decided(Verdict::Unsafe, Technique::Cegar, "a feasible abstract counterexample, replayed on the interpreter");
                outcome.counterexample = Some(counterexample.clone());
                outcome
            }
            LoopEnd::Stopped(reason) => CheckOutcome::unknown(reason.to_string(), Vec::new()),
        };
        outcome.iterations = session.iterations().to_vec();
        outcome.predicates = session.predicates().list().to_vec();
        outcome.statistics = loop_statistics(&session);
        outcome.loop_end = Some(end);
        if outcome.verdict == Verdict::Safe {
            return self.guarded(outcome);
        }
        outcome
    }

    /// Step 6: bounded model checking, then the last tries within the grace period.
    fn after_the_loop(&mut self, single: Option<SingleExecution>, why: &str) -> Option<CheckOutcome> {
        let program = self.program;
        let cancel = self.cancel;
        let runs = self.config.random_runs;
        if single.is_none() && self.bmc_may_run() {
            // the unrolling ends with the budget: the grace period belongs to the random runs
            let meter = self.main.sub(None);
            if let Some(decision) = self.bounded(meter) {
                return Some(decision);
            }
        }
        if let Some(SingleExecution::Unfinished { .. }) = single {
            let meter = self.grace();
            let stop = interpreter_stop(meter, cancel);
            match concrete::single_execution(program, u64::MAX, &stop) {
                Some(SingleExecution::Safe { steps }) => return Some(single_execution_safe(program, steps)),
                Some(SingleExecution::Unsafe(cex)) => return Some(single_execution_unsafe(cex)),
                _ => {}
            }
        }
        if self.selected(Technique::RandomRuns) && runs > 0 && !cancel() {
            self.announce(Technique::RandomRuns);
            let meter = self.grace();
            let stop = interpreter_stop(meter, cancel);
            // short runs with small inputs, then bugs behind long loops: longer runs over all magnitudes
            let found = concrete::random_search_for_error(program, runs, SHORT_RUN_STEPS, InputDistribution::Small, &stop)
                .or_else(|| concrete::random_search_for_error(program, runs, concrete::RANDOM_RUN_STEP_LIMIT, InputDistribution::Magnitudes, &stop));
            if let Some(cex) = found {
                let text = format!("a random concrete run reaches the error (the other techniques did not decide: {why})");
                let mut outcome = decided(Verdict::Unsafe, Technique::RandomRuns, &text);
                outcome.counterexample = Some(cex);
                return Some(outcome);
            }
        }
        None
    }

    /// Bounded model checking within `meter`: a decision, or `None` when the unrolling did not
    /// finish (it deepens until the meter is spent).
    fn bounded(&mut self, meter: Meter) -> Option<CheckOutcome> {
        self.announce(Technique::Bmc);
        let cancel = self.cancel;
        let mut solver = solver::SolverConfig::c_semantics();
        solver.int_width = self.config.loop_config.integer_width;
        solver.meter = meter.clone();
        let stop = || {
            meter.charge(BMC_POLL_UNITS);
            cancel() || meter.exhausted()
        };
        let (answer, resume) = bmc::bounded_check_from(self.program, &solver, self.bmc_resume, &stop);
        // the bounds below `resume` left executions past them: a later check starts there
        self.bmc_resume = resume;
        match answer {
            bmc::BmcAnswer::Safe { bound } => {
                let text = format!("bounded model checking: no execution reaches the error, and none runs a loop more than {bound} times");
                let mut outcome = decided(Verdict::Safe, Technique::Bmc, &text);
                outcome.invariant_source = InvariantSource::None;
                Some(self.guarded(outcome))
            }
            bmc::BmcAnswer::Unsafe { bound, counterexample } => {
                let text = format!("bounded model checking with {bound} loop unwindings reaches the error");
                let mut outcome = decided(Verdict::Unsafe, Technique::Bmc, &text);
                outcome.counterexample = Some(counterexample);
                Some(outcome)
            }
            bmc::BmcAnswer::Unknown(_) => None,
        }
    }

    /// The soundness guard before a SAFE verdict: random concrete runs; one that reaches the
    /// error turns the verdict into a replayed UNSAFE (and says which proof was wrong).
    fn guarded(&mut self, outcome: CheckOutcome) -> CheckOutcome {
        let runs = self.config.random_runs;
        if runs == 0 || outcome.verdict != Verdict::Safe {
            return outcome;
        }
        let cancel = self.cancel;
        let meter = self.grace();
        let stop = interpreter_stop(meter, cancel);
        match concrete::random_search_for_error(self.program, runs, SHORT_RUN_STEPS, InputDistribution::Small, &stop) {
            None => outcome,
            Some(cex) => {
                let proved_by = outcome.decided_by.map(Technique::name).unwrap_or("?");
                let text = format!("a random concrete run reaches the error, although `{proved_by}` found the program safe (a bug in predabs: please report it)");
                let mut unsafe_outcome = decided(Verdict::Unsafe, Technique::RandomRuns, &text);
                unsafe_outcome.counterexample = Some(cex);
                with_the_loop(unsafe_outcome, outcome)
            }
        }
    }
}

/// The stop function of interpreter runs: each poll charges the statements since the last one.
fn interpreter_stop(meter: Meter, cancel: &dyn Fn() -> bool) -> impl Fn() -> bool + '_ {
    move || {
        meter.charge(INTERPRETER_POLL_STEPS / cost::INTERPRETER_STEPS_PER_UNIT);
        cancel() || meter.exhausted()
    }
}

/// The stop function of an abstract interpretation (polled before each statement of a round).
fn fixpoint_stop(meter: Meter, cancel: &dyn Fn() -> bool) -> impl Fn() -> bool + '_ {
    move || {
        meter.charge(cost::FIXPOINT_STATEMENT);
        cancel() || meter.exhausted()
    }
}

const ZONES_PROOF: &str =
    "difference-bound analysis: bounds on variables and on differences of two variables at every statement leave no state at the error";
const HEAP_PROOF: &str = "allocation-site value analysis: the values of the variables and of the fields of every heap cell (per allocation site: its two newest cells and a summary of the older ones) leave no state at the error";

/// `decision` with what the loop of `ran` recorded (iterations, predicates, its end, statistics).
fn with_the_loop(mut decision: CheckOutcome, ran: CheckOutcome) -> CheckOutcome {
    decision.iterations = ran.iterations;
    decision.predicates = ran.predicates;
    decision.loop_end = ran.loop_end;
    decision.statistics = ran.statistics;
    decision
}

fn decided(verdict: Verdict, technique: Technique, reason: &str) -> CheckOutcome {
    let mut outcome = CheckOutcome::unknown(reason, Vec::new());
    outcome.verdict = verdict;
    outcome.decided_by = Some(technique);
    outcome
}

fn proof(technique: Technique, source: InvariantSource, invariants: Vec<c_ir::points::ProgramPointInvariant>, reason: &str) -> CheckOutcome {
    let mut outcome = decided(Verdict::Safe, technique, reason);
    outcome.invariants = invariants;
    outcome.invariant_source = source;
    outcome
}

fn single_execution_safe(program: &Program, steps: u64) -> CheckOutcome {
    let text = format!("the program reads no input, and its only execution ends after {steps} statements without reaching the error");
    let invariants = concrete::execution_invariants(program, steps.saturating_add(1));
    proof(Technique::SingleExecution, InvariantSource::SingleExecution, invariants, &text)
}

fn single_execution_unsafe(cex: Counterexample) -> CheckOutcome {
    let mut outcome = decided(Verdict::Unsafe, Technique::SingleExecution, "the program reads no input, and its only execution reaches the error");
    outcome.counterexample = Some(cex);
    outcome
}

fn loop_statistics(session: &Session) -> Statistics {
    let mut statistics = Statistics { iterations: session.iterations().len() as u32, solver_calls: session.solver_calls(), ..Statistics::default() };
    for it in session.iterations() {
        statistics.abstraction_ms += it.statistics.abstraction_ms;
        statistics.model_check_ms += it.statistics.model_check_ms;
        statistics.refine_ms += it.statistics.refine_ms;
    }
    statistics
}
