//! One run of the loop of BOOP Fig 3.1 as a steppable session: [`Session::step`] does exactly
//! one iteration — abstract the program with the current predicates (C2BP), model check the
//! boolean program (BEBOP), check the abstract counterexample on the C program (WP condition
//! threads or NEWTON, BOOP ch. 7), add the predicates that explain a spurious one — and
//! [`Session::run`] steps until the loop ends.

use crate::invariants;
use crate::predicates::{condition_predicates, error_guard_predicates, is_redundant, Predicates};
use crate::records::*;
use crate::{CandidateSource, Config, InitialPredicates};
use c_ir::{Program, StmtKind};
use budget::Meter;
use web_time::Instant;

/// What one call of [`Session::step`] did.
#[derive(Clone, Copy, Debug)]
pub enum Step<'s> {
    /// One more iteration; the loop goes on.
    Continue(&'s IterationRecord),
    /// The loop has ended (the last iteration, if any, is the last of [`Session::iterations`]).
    Done(&'s LoopEnd),
}

/// A CEGAR run over one lowered program.
pub struct Session<'p> {
    program: &'p Program,
    config: Config,
    start: Instant,
    /// The loop's work budget and safety time limit (shared with the solver contexts).
    meter: Meter,
    predicates: Predicates,
    candidates: Vec<Box<dyn CandidateSource + 'p>>,
    abstraction_config: abstraction::AbstractionConfig,
    abstraction_cache: abstraction::AbstractionCache,
    refine_config: refine::RefineConfig,
    invariant_origins: Vec<boolprog::Origin>,
    iterations: Vec<IterationRecord>,
    end: Option<LoopEnd>,
    solver_calls: u64,
}

/// What a phase of one iteration leads to.
enum Next {
    Continue,
    End(LoopEnd),
}

impl<'p> Session<'p> {
    /// A session with the initial predicates of `config`; the budgets count from now.
    pub fn new(program: &'p Program, config: Config) -> Session<'p> {
        let meter = Meter::with_time_limit(config.work_budget, config.time_budget_ms);
        Session::with_meter(program, config, meter)
    }

    /// [`Session::new`] charging `meter` (a part of a larger budget: the portfolio's share for
    /// the loop) instead of a meter made from `config.work_budget` and `time_budget_ms`.
    pub fn with_meter(program: &'p Program, config: Config, meter: Meter) -> Session<'p> {
        let start = Instant::now();
        let mut predicates = Predicates::default();
        let initial = match config.initial_predicates {
            InitialPredicates::None => Vec::new(),
            InitialPredicates::ErrorGuards => error_guard_predicates(program).into_iter().map(|p| (p, PredicateOrigin::ErrorGuard)).collect(),
            InitialPredicates::AllConditionsUpTo(limit) => {
                let all = condition_predicates(program);
                if all.len() <= limit {
                    all.into_iter().map(|p| (p, PredicateOrigin::BranchCondition)).collect()
                } else {
                    error_guard_predicates(program).into_iter().map(|p| (p, PredicateOrigin::ErrorGuard)).collect()
                }
            }
        };
        for ((scope, p), origin) in initial {
            predicates.insert(program, scope, p, origin);
        }
        for p in &config.user_predicates.global {
            predicates.insert(program, None, p.clone(), PredicateOrigin::User);
        }
        for (proc, list) in &config.user_predicates.local {
            for p in list {
                predicates.insert(program, Some(*proc), p.clone(), PredicateOrigin::User);
            }
        }
        let mut solver_config = solver::SolverConfig::c_semantics();
        solver_config.int_width = config.integer_width;
        solver_config.integers = config.integers;
        // a single hard SAT call must not overrun the budget either
        solver_config.meter = meter.clone();
        let mut abstraction_config = abstraction::AbstractionConfig::new(config.strategy);
        abstraction_config.max_cube_length = config.max_cube_length;
        abstraction_config.max_cone = config.max_cone;
        abstraction_config.record_lattices = config.record_lattices;
        abstraction_config.solver = solver_config.clone();
        let refine_config = refine::RefineConfig { method: config.refinement, solver: refine::SolverSettings { config: solver_config } };
        Session {
            program,
            start,
            meter,
            predicates,
            candidates: Vec::new(),
            abstraction_config,
            abstraction_cache: abstraction::AbstractionCache::new(),
            refine_config,
            invariant_origins: invariants::needed_origins(program),
            iterations: Vec::new(),
            end: None,
            solver_calls: 0,
            config,
        }
    }

    /// Adds a source of loop-invariant candidate predicates, asked after each refinement that
    /// found new predicates.
    pub fn add_candidate_source(&mut self, source: Box<dyn CandidateSource + 'p>) {
        self.candidates.push(source);
    }

    pub fn program(&self) -> &'p Program {
        self.program
    }
    pub fn config(&self) -> &Config {
        &self.config
    }
    /// The finished iterations.
    pub fn iterations(&self) -> &[IterationRecord] {
        &self.iterations
    }
    /// The current predicates with their origins.
    pub fn predicates(&self) -> &Predicates {
        &self.predicates
    }
    /// How the loop ended, once it has.
    pub fn end(&self) -> Option<&LoopEnd> {
        self.end.as_ref()
    }
    pub fn solver_calls(&self) -> u64 {
        self.solver_calls
    }
    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }
    /// Work units charged to this loop's meter so far.
    pub fn work_spent(&self) -> u64 {
        self.meter.spent()
    }
    /// The loop's meter (to read why it stopped, and its work).
    pub fn meter(&self) -> &Meter {
        &self.meter
    }
    /// The budget's stop, as the loop's reason, if the meter is exhausted.
    fn budget_stop(&self, iterations: u32, phase: Phase) -> Option<StopReason> {
        self.meter.stopped().map(|limit| StopReason::Budget { iterations, phase, limit })
    }
    fn progress(&self, phase: Phase, iteration: u32, events: &mut dyn FnMut(Event)) {
        let p = Progress { phase, iteration, solver_calls: self.solver_calls, predicates: self.predicates.len(), elapsed_ms: self.elapsed_ms() };
        events(Event::Progress(&p));
    }

    /// Steps until the loop ends.
    pub fn run(&mut self, events: &mut dyn FnMut(Event), cancel: &dyn Fn() -> bool) -> &LoopEnd {
        while let Step::Continue(_) = self.step(events, cancel) {}
        self.end.as_ref().expect("the loop has ended")
    }

    /// One iteration (BOOP Fig 3.1): abstraction, model checking, path check, refinement. Each
    /// finished iteration is reported through `events` before this returns.
    pub fn step(&mut self, events: &mut dyn FnMut(Event), cancel: &dyn Fn() -> bool) -> Step<'_> {
        if self.end.is_none() {
            let before = self.iterations.len();
            let next = self.iterate(events, cancel);
            if self.iterations.len() > before {
                if let Some(record) = self.iterations.last() {
                    events(Event::Iteration(record));
                }
            }
            if let Next::End(end) = next {
                self.end = Some(end);
                self.progress(Phase::Done, self.iterations.len() as u32, events);
            }
        }
        match (&self.end, self.iterations.last()) {
            (Some(end), _) => Step::Done(end),
            (None, Some(record)) => Step::Continue(record),
            (None, None) => unreachable!("an iteration that does not end the loop leaves a record"),
        }
    }

    /// The body of [`Session::step`]: pushes the iteration's record (unless the loop ends
    /// before the iteration starts) and says whether the loop goes on.
    fn iterate(&mut self, events: &mut dyn FnMut(Event), cancel: &dyn Fn() -> bool) -> Next {
        let program = self.program;
        if program.entry.is_none() {
            return Next::End(LoopEnd::Stopped(StopReason::NoEntryProcedure));
        }
        if !program.procs.iter().any(|p| p.body.iter().any(|s| matches!(s.kind, StmtKind::Error))) {
            return Next::End(LoopEnd::NoErrorLocation);
        }
        let iteration = self.iterations.len() as u32 + 1;
        if cancel() {
            return Next::End(LoopEnd::Stopped(StopReason::Cancelled));
        }
        if iteration > self.config.max_iterations {
            return Next::End(LoopEnd::Stopped(StopReason::IterationBound(self.config.max_iterations)));
        }
        if let Some(stop) = self.budget_stop(iteration - 1, Phase::Abstracting) {
            return Next::End(LoopEnd::Stopped(stop));
        }
        self.iterations.push(IterationRecord {
            iteration,
            predicates_before: self.predicates.list().to_vec(),
            boolean_program: String::new(),
            line_map: Vec::new(),
            model_check: None,
            abstract_trace: Vec::new(),
            abstract_trace_search: None,
            abstract_program: None,
            abstract_counterexample: None,
            boolean_variables: Vec::new(),
            c_path: Vec::new(),
            feasibility: None,
            new_predicates: Vec::new(),
            learned: Vec::new(),
            statistics: IterationStatistics::default(),
        });
        // 1. abstraction (C2BP)
        self.progress(Phase::Abstracting, iteration, events);
        let abs = match self.abstract_phase() {
            Ok(abs) => abs,
            Err(end) => return Next::End(end),
        };
        // 2. model checking (BEBOP)
        if cancel() {
            return Next::End(LoopEnd::Stopped(StopReason::Cancelled));
        }
        if let Some(stop) = self.budget_stop(iteration - 1, Phase::ModelChecking) {
            return Next::End(LoopEnd::Stopped(stop));
        }
        self.progress(Phase::ModelChecking, iteration, events);
        let trace = match self.model_check_phase(&abs, cancel) {
            Ok(trace) => trace,
            Err(end) => return Next::End(end),
        };
        // 3. is the abstract counterexample a path of the C program? 4. new predicates
        self.progress(Phase::Refining, iteration, events);
        match self.path_phase(&trace, cancel) {
            Ok(analysis) => self.refine_phase(analysis, &abs, &trace, events),
            Err(end) => Next::End(end),
        }
    }

    fn record(&mut self) -> &mut IterationRecord {
        self.iterations.last_mut().expect("the current iteration has a record")
    }

    /// C2BP with the current predicates; the abstraction answers Unknown (sound, coarse) once
    /// the remaining budget is spent.
    fn abstract_phase(&mut self) -> Result<abstraction::Abstraction, LoopEnd> {
        let (t, work) = (Instant::now(), self.meter.spent());
        let (abs, diagnostics) = abstraction::abstract_program_cached(self.program, self.predicates.set(), &self.abstraction_config, &mut self.abstraction_cache);
        self.solver_calls += abs.statistics.prover_calls;
        let record_details = self.config.record_details;
        let spent = self.meter.spent();
        let record = self.record();
        record.statistics.abstraction_ms = t.elapsed().as_millis() as u64;
        record.statistics.abstraction_work = spent.saturating_sub(work);
        record.statistics.abstraction_prover_calls = abs.statistics.prover_calls;
        if let Some(error) = diagnostics.iter().find(|d| d.is_error()) {
            return Err(LoopEnd::Stopped(StopReason::AbstractionFailed(error.message.clone())));
        }
        if record_details {
            let printed = boolprog::print_bebop(&abs.program);
            record.boolean_program = printed.text;
            record.abstract_program = Some(abs.program.clone());
            record.boolean_variables = abs.variables.clone();
            record.line_map = printed.lines;
        }
        Ok(abs)
    }

    /// BEBOP on the boolean program: `Ok` with the abstract counterexample, `Err` when the loop
    /// ends here (safe, or the model checker gave up).
    fn model_check_phase(&mut self, abs: &abstraction::Abstraction, cancel: &dyn Fn() -> bool) -> Result<model_check::Trace, LoopEnd> {
        let program = self.program;
        let entry = program.entry.map(|e| program.proc(e).name.clone());
        let mc_config = model_check::Config {
            max_bdd_nodes: self.config.max_bdd_nodes,
            time_budget_ms: None,
            meter: self.meter.clone(),
            compute_invariants: true,
            invariant_origins: Some(self.invariant_origins.clone()),
            compute_trace: true,
            error_labels: Vec::new(),
            entry,
            // The C invariants only need the live predicates; the call temporaries blow up
            // states. A predicate `enforce` ties to an assigned one is live (C2BP §5.1), so
            // the live states, and the counterexamples, are those of the exact states.
            eliminate_dead_variables: true,
            shortest_trace: model_check::ShortestTrace::default(),
        };
        let (t, work) = (Instant::now(), self.meter.spent());
        let mc = model_check::check_with_cancel(&abs.program, &mc_config, cancel);
        let spent = self.meter.spent();
        let iterations = self.iterations.len() as u32;
        let budget_stop = self.budget_stop(iterations, Phase::ModelChecking);
        let record_details = self.config.record_details;
        let record = self.record();
        record.statistics.model_check_ms = t.elapsed().as_millis() as u64;
        record.statistics.model_check_work = spent.saturating_sub(work);
        record.statistics.peak_bdd_nodes = mc.statistics.peak_bdd_nodes;
        match &mc.verdict {
            model_check::Verdict::Safe => {
                record.model_check = Some(AbstractVerdict::Safe);
                return Err(LoopEnd::Safe { invariants: invariants::program_point_invariants(program, abs, &mc) });
            }
            model_check::Verdict::Unknown(reason) => {
                record.model_check = Some(AbstractVerdict::Unknown(reason.clone()));
                // the model checker's own budget is what was left of the loop's
                let stop = if cancel() {
                    StopReason::Cancelled
                } else if let Some(stop) = budget_stop {
                    stop
                } else {
                    StopReason::ModelCheckingGaveUp(reason.clone())
                };
                return Err(LoopEnd::Stopped(stop));
            }
            model_check::Verdict::ErrorReachable => record.model_check = Some(AbstractVerdict::ErrorReachable),
        }
        let Some(trace) = mc.trace else {
            let why = mc.trace_error.unwrap_or_else(|| "the model checker gave no counterexample".into());
            return Err(LoopEnd::Stopped(if cancel() { StopReason::Cancelled } else { StopReason::NoAbstractCounterexample(why) }));
        };
        record.abstract_trace = model_check::format_trace(&abs.program, &trace).lines().map(str::to_string).collect();
        record.abstract_trace_search = Some(trace.search);
        if record_details {
            record.abstract_counterexample = Some(trace.clone());
        }
        Ok(trace)
    }

    /// Maps the abstract counterexample to a C path and decides its feasibility.
    fn path_phase(&mut self, trace: &model_check::Trace, cancel: &dyn Fn() -> bool) -> Result<refine::PathAnalysis, LoopEnd> {
        let program = self.program;
        let c_path = crate::trace::trace_to_c_path(program, trace).map_err(|e| LoopEnd::Stopped(StopReason::TraceMapping(e)))?;
        self.record().c_path = c_path.clone();
        let (t, work) = (Instant::now(), self.meter.spent());
        let meter = &self.meter;
        let stop = || cancel() || meter.exhausted();
        let analysis = refine::analyze_path(program, &c_path, &self.refine_config, self.predicates.set(), &stop);
        let record_details = self.config.record_details;
        let spent = self.meter.spent();
        let record = self.record();
        record.statistics.refine_ms = t.elapsed().as_millis() as u64;
        record.statistics.refine_work = spent.saturating_sub(work);
        let analysis = analysis.map_err(|e| LoopEnd::Stopped(StopReason::PathConstruction(e.0)))?;
        record.statistics.refine_solver_calls = analysis.statistics.solver_calls;
        let verdict = match &analysis.verdict {
            refine::PathVerdict::Feasible { .. } => Feasibility::Feasible,
            refine::PathVerdict::Infeasible { step, .. } => Feasibility::Infeasible { step: *step, at: analysis.path.steps.get(*step).map(|s| s.origin) },
            refine::PathVerdict::Unknown(r) => Feasibility::Unknown(r.clone()),
        };
        record.feasibility = Some(FeasibilityRecord {
            method: analysis.method,
            verdict,
            table: if record_details { analysis.table.clone() } else { Vec::new() },
            notes: analysis.notes.clone(),
            path_length: analysis.path.steps.len(),
        });
        self.solver_calls += analysis.statistics.solver_calls;
        Ok(analysis)
    }

    /// A feasible path ends the loop (after its replay); an infeasible one adds predicates.
    fn refine_phase(&mut self, analysis: refine::PathAnalysis, abs: &abstraction::Abstraction, trace: &model_check::Trace, events: &mut dyn FnMut(Event)) -> Next {
        let program = self.program;
        let iteration = self.iterations.len() as u32;
        let found = match analysis.verdict {
            refine::PathVerdict::Feasible { inputs, .. } => {
                self.progress(Phase::Replaying, iteration, events);
                let inputs: Vec<i128> = inputs.iter().map(|v| v.unwrap_or(0)).collect();
                return Next::End(match concrete::replay_to_error(program, &inputs) {
                    Ok(counterexample) => LoopEnd::Unsafe { counterexample },
                    Err(e) => LoopEnd::Stopped(StopReason::ReplayFailed(e)),
                });
            }
            refine::PathVerdict::Unknown(_) if self.meter.exhausted() => {
                let stop = self.budget_stop(iteration, Phase::Refining).expect("the meter is exhausted");
                return Next::End(LoopEnd::Stopped(stop));
            }
            refine::PathVerdict::Unknown(r) => return Next::End(LoopEnd::Stopped(StopReason::FeasibilityUnknown(r))),
            refine::PathVerdict::Infeasible { predicates, .. } => predicates,
        };
        let mut added = Vec::new();
        for d in found {
            if is_redundant(self.predicates.set(), d.scope, &d.predicate) {
                continue;
            }
            let at = analysis.path.steps.get(d.step).map(|s| s.origin);
            let origin = PredicateOrigin::Refinement { iteration, at, step: d.step };
            if let Some(p) = self.predicates.insert(program, d.scope, d.predicate, origin) {
                added.push(p.clone());
            }
        }
        if !added.is_empty() {
            let mut candidates = Vec::new();
            for source in &mut self.candidates {
                for c in source.candidates(program, &added, self.predicates.set()) {
                    let origin = PredicateOrigin::Candidate { iteration, analysis: c.analysis };
                    if let Some(p) = self.predicates.insert(program, c.scope, c.predicate, origin) {
                        candidates.push(p.clone());
                    }
                }
            }
            if !candidates.is_empty() {
                let texts: Vec<&str> = candidates.iter().map(|p| p.text.as_str()).collect();
                if let Some(f) = self.record().feasibility.as_mut() {
                    f.notes.push(format!("loop-invariant candidates added as predicates: {}", texts.join(", ")));
                }
            }
            added.extend(candidates);
            self.record().new_predicates = added;
            return Next::Continue;
        }
        // No new predicate: the abstraction is too coarse for the predicates. Two remedies,
        // both taken: the path may pass through valuations no C state has (`enforce` cut
        // short), which are learned and excluded; and known predicates may have been left out
        // of a bounded cone, which is widened (doubled, lifted after 32).
        let mut progress = false;
        if self.config.learn_inconsistencies {
            let learned = crate::learn::inconsistent_states(program, abs, trace, &self.abstraction_config.solver, iteration);
            if !learned.is_empty() {
                progress = true;
                self.abstraction_config.learned_inconsistencies.extend(learned.iter().map(crate::learn::as_inconsistency));
                let cubes = if learned.len() == 1 { "1 cube".to_string() } else { format!("{} cubes", learned.len()) };
                let record = self.record();
                if let Some(f) = record.feasibility.as_mut() {
                    f.notes.push(format!("no new predicates: the counterexample passes through valuations no C state has; enforce now excludes them ({cubes} learned)"));
                }
                record.learned = learned;
            }
        }
        if let Some(bound) = self.abstraction_config.max_cone {
            progress = true;
            let wider = if bound >= 32 { None } else { Some(bound * 2) };
            self.abstraction_config.max_cone = wider;
            if let Some(f) = self.record().feasibility.as_mut() {
                f.notes.push(match wider {
                    Some(w) => format!("no new predicates: the cone bound goes from {bound} to {w} predicates"),
                    None => format!("no new predicates: the cone bound of {bound} predicates is lifted"),
                });
            }
        }
        if !progress {
            return Next::End(LoopEnd::Stopped(StopReason::NoProgress));
        }
        Next::Continue
    }
}
