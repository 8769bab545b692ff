//! The CEGAR loop (BOOP ch. 3): abstract with the current predicates, model-check the boolean
//! program, check the abstract counterexample on the C program, add the predicates that explain
//! a spurious one, repeat — until SAFE (with invariants), UNSAFE (with a C trace and inputs
//! replayed on the concrete interpreter) or UNKNOWN (with the reason).
//!
//! Entry points: [`check_program`] for a lowered program, [`check_source`] for C text. Every
//! iteration is recorded as plain data ([`IterationRecord`]) for the UI; progress is reported
//! through an event callback and the loop polls a cancellation hook.

pub mod bmc;
pub mod heap;
pub mod invariants;
pub mod replay;
pub mod trace;
pub mod zones;

pub use invariants::{ProgramPointInvariant, InvariantPoint};
pub use refine::RefinementMethod;

use c_ir::{display_expr, Expr, ExprKind, ProcId, Program, PredicateSet, StmtKind, StmtRef, Type};
use diagnostics::{Diagnostic, LineIndex, Span};
use std::collections::{HashMap, HashSet};
use web_time::Instant;
use replay::{InputDistribution, SingleExecution};

/// Which predicates the first abstraction starts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InitialPredicates {
    /// No predicates (BOOP §7.4's walkthrough).
    None,
    /// The conditions guarding the error statements (the `assert` arguments, BOOP ch. 3).
    ErrorGuards,
    /// The atoms of every branch and `assume` condition of the program, when there are at most
    /// this many (otherwise as `ErrorGuards`).
    AllConditionsUpTo(usize),
}

/// Everything the loop can be told. There is no `Default`: callers pick
/// [`Config::default_for_cli`] and change what they need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    pub refinement: RefinementMethod,
    /// Stop with UNKNOWN after this many abstraction/model-check rounds.
    pub max_iterations: u32,
    /// Stop with UNKNOWN after this many milliseconds (checked between phases and passed on to
    /// the model checker).
    pub time_budget_ms: Option<u64>,
    pub strategy: abstraction::Strategy,
    /// Maximum cube length of the lattice strategy (`None`: unbounded).
    pub max_cube_length: Option<usize>,
    /// First bound on the strengthenings' cones of influence (`abstraction::AbstractionConfig::max_cone`);
    /// doubled whenever a refinement finds no new predicate, lifted after 32.
    pub max_cone: Option<usize>,
    /// `None`: C widths (char 8, short 16, int 32, long 64); `Some(w)`: every integer `w` bits.
    pub integer_width: Option<u8>,
    pub initial_predicates: InitialPredicates,
    /// Predicates given by the user (C2BP predicate file), added to the initial ones.
    pub user_predicates: PredicateSet,
    /// Give up model checking beyond this many BDD nodes.
    pub max_bdd_nodes: usize,
    /// Keep the boolean program text and feasibility tables in the iteration records.
    pub record_details: bool,
    /// Before a SAFE verdict, run the concrete interpreter this many times with random inputs; a
    /// run reaching the error turns the verdict into UNSAFE (a guard against unsound abstractions).
    /// Also the last try before UNKNOWN, together with the single execution of a program that
    /// reads no input (`replay::single_execution`); 0 turns all of these off.
    pub safe_cross_check_runs: u32,
    /// Along with the predicates a refinement finds, add the affine equalities that hold at the
    /// loop heads of their procedure (Karr's analysis) and the bounds of its counters
    /// (`refine::affine`) that share a variable with one of them: path-based refinement alone
    /// unrolls loops whose proof needs `k + j == n` or `j >= 0`.
    pub affine_candidates: bool,
    /// Run the difference-bound analysis (`zones`) first: when it shows the error unreachable
    /// it decides the program if the loop does not (the loop keeps a quarter of the budget),
    /// and its loop-head relations join the affine candidates. Only with C integer widths.
    pub zones: bool,
    /// When the difference-bound analysis does not prove the program, run the allocation-site
    /// value analysis (`heap`): value sets of variables and of heap cells' fields. When it shows
    /// the error unreachable it decides the program if the loop does not.
    pub heap_values: bool,
}

impl Config {
    /// The CLI's defaults: `wp` refinement, 100 iterations, no time budget, the exact
    /// strategy, unbounded cubes, cones bounded by 8 predicates at first, C integer widths, error-guard predicates first and no user
    /// predicates, 2M BDD nodes,
    /// detailed records, 64 random runs before a SAFE verdict, affine loop equalities as
    /// candidate predicates.
    pub fn default_for_cli() -> Config {
        Config {
            refinement: RefinementMethod::Wp,
            max_iterations: 100,
            time_budget_ms: None,
            strategy: abstraction::Strategy::Exact,
            max_cube_length: None,
            max_cone: Some(8),
            integer_width: None,
            initial_predicates: InitialPredicates::ErrorGuards,
            user_predicates: PredicateSet::default(),
            max_bdd_nodes: 2_000_000,
            record_details: true,
            safe_cross_check_runs: 64,
            affine_candidates: true,
            zones: true,
            heap_values: true,
        }
    }
}

/// Where a SAFE verdict's invariants come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InvariantSource {
    /// The final boolean program's reachable states, over the predicates.
    BooleanProgram,
    /// The states of the only execution of a program without input (`replay::single_execution`).
    SingleExecution,
    /// The difference-bound analysis (`zones`).
    DifferenceBounds,
    /// The allocation-site value analysis (`heap`).
    HeapValues,
}

impl InvariantSource {
    pub fn name(self) -> &'static str {
        match self {
            InvariantSource::BooleanProgram => "boolean_program",
            InvariantSource::SingleExecution => "single_execution",
            InvariantSource::DifferenceBounds => "difference_bounds",
            InvariantSource::HeapValues => "heap_values",
        }
    }
}

/// The phase the loop is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    Lowering,
    Abstracting,
    ModelChecking,
    Refining,
    Replaying,
    /// Random concrete runs before the first iteration (testing before proving).
    Testing,
    Done,
}

/// A progress report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    pub phase: Phase,
    /// 1-based iteration (0 before the first).
    pub iteration: u32,
    /// Decision procedure calls so far (abstraction and refinement).
    pub solver_calls: u64,
    pub predicates: usize,
    pub elapsed_ms: u64,
}

/// SV-COMP style verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    Safe,
    Unsafe,
    Unknown,
}

impl Verdict {
    /// `SAFE`, `UNSAFE`, `UNKNOWN`.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Safe => "SAFE",
            Verdict::Unsafe => "UNSAFE",
            Verdict::Unknown => "UNKNOWN",
        }
    }
    /// SV-COMP's `true` / `false` / `unknown`.
    pub fn sv_comp(self) -> &'static str {
        match self {
            Verdict::Safe => "true",
            Verdict::Unsafe => "false",
            Verdict::Unknown => "unknown",
        }
    }
}

/// A predicate with its scope, as text too.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScopedPredicate {
    pub scope: Option<ProcId>,
    pub predicate: Expr,
    pub text: String,
}

/// The feasibility check of one abstract counterexample.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeasibilityRecord {
    pub method: RefinementMethod,
    /// `feasible`, `infeasible at step N`, or the reason it is unknown.
    pub verdict: String,
    pub table: Vec<refine::FeasibilityRow>,
    pub notes: Vec<String>,
    pub path_length: usize,
}

/// Counters of one iteration.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IterationStatistics {
    pub abstraction_ms: u64,
    pub model_check_ms: u64,
    pub refine_ms: u64,
    pub abstraction_prover_calls: u64,
    pub refine_solver_calls: u64,
    pub peak_bdd_nodes: usize,
}

/// One round of the loop as plain data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IterationRecord {
    pub iteration: u32,
    pub predicates_before: Vec<ScopedPredicate>,
    /// The boolean program (Bebop syntax) and, per printed line, the C statement it comes from.
    pub boolean_program: String,
    pub line_map: Vec<(u32, Option<StmtRef>)>,
    /// The model checker's verdict on the boolean program (`safe`, `error reachable`, reason).
    pub model_check: String,
    /// The abstract counterexample, one step a line (`proc#stmt: text [kind] valuation`).
    pub abstract_trace: Vec<String>,
    /// The boolean program and its counterexample as data (only with `record_details`), so that
    /// views can show every step's valuation and map it to both program texts.
    pub abstract_program: Option<boolprog::Program>,
    pub abstract_counterexample: Option<model_check::Trace>,
    /// The C statements of the counterexample.
    pub c_path: Vec<StmtRef>,
    pub feasibility: Option<FeasibilityRecord>,
    pub new_predicates: Vec<ScopedPredicate>,
    pub statistics: IterationStatistics,
}

/// One step of a concrete counterexample.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CounterexampleStep {
    pub at: StmtRef,
    pub span: Span,
    /// 1-based line in the checked file (0 when unknown).
    pub line: u32,
    pub statement: String,
    /// Values of the scalar variables the statement mentions, before it executes.
    pub values: Vec<(String, i128)>,
}

/// A feasible error trace, confirmed by the concrete interpreter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counterexample {
    pub steps: Vec<CounterexampleStep>,
    /// The values read from the environment (`__VERIFIER_nondet_*`), in order.
    pub inputs: Vec<i128>,
}

/// Totals of a whole run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Statistics {
    pub iterations: u32,
    pub solver_calls: u64,
    pub time_ms: u64,
    pub abstraction_ms: u64,
    pub model_check_ms: u64,
    pub refine_ms: u64,
}

/// The result of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckOutcome {
    pub verdict: Verdict,
    /// Why the verdict is UNKNOWN (or a note on the others).
    pub reason: Option<String>,
    pub iterations: Vec<IterationRecord>,
    /// The final predicates.
    pub predicates: Vec<ScopedPredicate>,
    /// When SAFE: the invariants at procedure entries and loop heads.
    pub invariants: Vec<ProgramPointInvariant>,
    /// What the invariants are.
    pub invariant_source: InvariantSource,
    /// When UNSAFE.
    pub counterexample: Option<Counterexample>,
    pub statistics: Statistics,
    pub diagnostics: Vec<Diagnostic>,
}

impl CheckOutcome {
    fn unknown(reason: impl Into<String>, diagnostics: Vec<Diagnostic>) -> CheckOutcome {
        CheckOutcome {
            verdict: Verdict::Unknown,
            reason: Some(reason.into()),
            iterations: Vec::new(),
            predicates: Vec::new(),
            invariants: Vec::new(),
            invariant_source: InvariantSource::BooleanProgram,
            counterexample: None,
            statistics: Statistics::default(),
            diagnostics,
        }
    }
}

/// Lowers `source` and runs [`check_program`]; counterexample steps get line numbers.
pub fn check_source(source: &str, file_name: &str, config: &Config, events: &mut dyn FnMut(Event), cancel: &dyn Fn() -> bool) -> CheckOutcome {
    events(Event { phase: Phase::Lowering, iteration: 0, solver_calls: 0, predicates: 0, elapsed_ms: 0 });
    let (program, diagnostics) = c_front::lower(source, file_name, &c_front::LowerOptions::default());
    let Some(program) = program else {
        return CheckOutcome::unknown("the file could not be parsed", diagnostics);
    };
    if diagnostics::has_errors(&diagnostics) {
        let first = diagnostics.iter().find(|d| d.is_error()).map(|d| d.message.clone()).unwrap_or_default();
        return CheckOutcome::unknown(format!("unsupported program: {first}"), diagnostics);
    }
    let mut outcome = check_program(&program, config, events, cancel);
    let index = LineIndex::new(source);
    if let Some(cex) = &mut outcome.counterexample {
        for step in &mut cex.steps {
            step.line = index.line_col(step.span.start.min(source.len() as u32)).line;
        }
    }
    for inv in &mut outcome.invariants {
        inv.line = index.line_col(inv.span.start.min(source.len() as u32)).line;
    }
    let mut all = diagnostics;
    all.append(&mut outcome.diagnostics);
    outcome.diagnostics = all;
    outcome
}

struct Run<'a> {
    config: &'a Config,
    start: Instant,
    solver_calls: u64,
    events: &'a mut dyn FnMut(Event),
}

impl Run<'_> {
    fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }
    fn event(&mut self, phase: Phase, iteration: u32, predicates: usize) {
        let e = Event { phase, iteration, solver_calls: self.solver_calls, predicates, elapsed_ms: self.elapsed_ms() };
        (self.events)(e);
    }
    fn out_of_time(&self) -> bool {
        self.config.time_budget_ms.is_some_and(|b| self.elapsed_ms() >= b)
    }
}

/// Runs the CEGAR loop on a lowered program.
pub fn check_program(program: &Program, config: &Config, events: &mut dyn FnMut(Event), cancel: &dyn Fn() -> bool) -> CheckOutcome {
    let start = Instant::now();
    let mut outcome = CheckOutcome::unknown("not started", Vec::new());
    let Some(entry) = program.entry else {
        outcome.reason = Some("the program has no entry procedure".into());
        return outcome;
    };
    let has_error = program.procs.iter().any(|p| p.body.iter().any(|s| matches!(s.kind, StmtKind::Error)));
    // A program without inputs has one execution: when a short run decides it, that verdict
    // is known already, and the loop gets a quarter of the budget to find its own proof.
    let single = if has_error && config.safe_cross_check_runs > 0 {
        replay::single_execution(program, SINGLE_EXECUTION_PROBE_STEPS, cancel)
    } else {
        None
    };
    // Testing before proving: random runs find shallow bugs (say behind loops over large
    // arrays) that the loop would reach only after many refinements. They get a twentieth of
    // the budget (at most 2 s); a bug found leaves the loop a quarter of the budget to find
    // its own counterexample.
    let probe = if has_error && config.safe_cross_check_runs > 0 && single.is_none() {
        events(Event { phase: Phase::Testing, iteration: 0, solver_calls: 0, predicates: 0, elapsed_ms: start.elapsed().as_millis() as u64 });
        let probe_ms = config.time_budget_ms.map_or(PROBE_MS, |b| (b / 20).min(PROBE_MS));
        let stop = || cancel() || start.elapsed().as_millis() as u64 >= probe_ms;
        replay::probe_for_error(program, config.safe_cross_check_runs, &stop)
    } else {
        None
    };
    // The difference-bound analysis: a proof when it shows the error unreachable, candidate
    // predicates otherwise. It gets a tenth of the budget (at most 5 s).
    let zone = if has_error && config.zones && config.integer_width.is_none() {
        let zone_ms = config.time_budget_ms.map_or(5000, |b| (b / 10).min(5000));
        let stop = || cancel() || start.elapsed().as_millis() as u64 >= zone_ms;
        zones::analyze(program, &stop)
    } else {
        None
    };
    let zone_safe = zone.as_ref().is_some_and(|z| z.safe);
    // The allocation-site value analysis, when the zones do not prove the program: facts about
    // every cell of a list. The same share of the budget.
    let heap = if has_error && !zone_safe && config.heap_values && config.integer_width.is_none() {
        let heap_ms = config.time_budget_ms.map_or(5000, |b| (b / 10).min(5000));
        let began = start.elapsed().as_millis() as u64;
        let stop = || cancel() || start.elapsed().as_millis() as u64 >= began + heap_ms;
        heap::analyze(program, &stop).filter(|h| h.safe)
    } else {
        None
    };
    // Programs over integer variables get a bounded model check when the loop gives up: the
    // loop keeps four fifths of the budget, the unrolling gets the rest.
    let bounded = has_error && config.safe_cross_check_runs > 0 && bmc::applicable(program);
    let full_budget = config.time_budget_ms;
    let capped;
    // a program decided already leaves the loop a quarter of the budget to find its own proof
    let decided_early = zone_safe || heap.is_some() || probe.is_some() || matches!(single, Some(SingleExecution::Safe { .. } | SingleExecution::Unsafe(_)));
    let config = match config.time_budget_ms {
        Some(budget) if decided_early => {
            capped = Config { time_budget_ms: Some(budget / 4), ..config.clone() };
            &capped
        }
        Some(budget) if bounded => {
            capped = Config { time_budget_ms: Some(budget / 5 * 4), ..config.clone() };
            &capped
        }
        _ => config,
    };
    // the loop's own budget checks use the capped budget
    let mut run = Run { config, start, solver_calls: 0, events };
    let mut predicates = PredicateSet::default();
    let initial = match config.initial_predicates {
        InitialPredicates::None => Vec::new(),
        InitialPredicates::ErrorGuards => error_guard_predicates(program),
        InitialPredicates::AllConditionsUpTo(limit) => {
            let all = condition_predicates(program);
            if all.len() <= limit {
                all
            } else {
                error_guard_predicates(program)
            }
        }
    };
    for (scope, p) in initial {
        predicates.insert(scope, p);
    }
    for p in &config.user_predicates.global {
        predicates.insert(None, p.clone());
    }
    for (proc, list) in &config.user_predicates.local {
        for p in list {
            predicates.insert(Some(*proc), p.clone());
        }
    }
    let mut solver_config = solver::SolverConfig::c_semantics();
    solver_config.int_width = config.integer_width;
    // a single hard SAT call must not overrun the budget either
    solver_config.deadline = config.time_budget_ms.map(|b| run.start + std::time::Duration::from_millis(b));
    let mut abstraction_config = abstraction::AbstractionConfig::new(config.strategy);
    abstraction_config.max_cube_length = config.max_cube_length;
    abstraction_config.max_cone = config.max_cone;
    abstraction_config.solver = solver_config.clone();
    // strengthening results reused across iterations (keyed by goal, cone and settings)
    let mut abstraction_cache = abstraction::AbstractionCache::new();
    // loop-invariant candidates per procedure (Karr's equalities, counter bounds, zone
    // relations), computed when first needed
    let mut loop_candidates: HashMap<ProcId, Vec<(Expr, Candidate)>> = HashMap::new();
    // procedures whose polynomial loop equalities joined their candidates
    let mut polynomial_done: HashSet<ProcId> = HashSet::new();
    // and the relations of call results to arguments (affine procedure summaries), computed
    // with the first candidates
    let mut call_relations: Option<HashMap<ProcId, Vec<Expr>>> = None;
    let mut bmc_solver = solver_config.clone();
    // the unrolling ends with the budget: the grace period belongs to the random runs
    bmc_solver.deadline = full_budget.map(|b| run.start + std::time::Duration::from_millis(b));
    let refine_config = refine::RefineConfig { method: config.refinement, solver: refine::SolverSettings { config: solver_config } };
    let entry_name = program.proc(entry).name.clone();
    let invariant_origins = invariants::needed_origins(program);
    let finish = |mut outcome: CheckOutcome, run: &mut Run, predicates: &PredicateSet| -> CheckOutcome {
        let grace_ms = full_budget.map(|b| b + 3000);
        let mut bmc_safe = false;
        let mut zone_proof = false;
        let mut heap_proof = false;
        if outcome.verdict == Verdict::Unknown && outcome.reason.as_deref() != Some("cancelled") {
            if let Some(cex) = &probe {
                let why = outcome.reason.take().unwrap_or_default();
                outcome.verdict = Verdict::Unsafe;
                outcome.reason = Some(format!("found by a random concrete run before the loop started (the loop stopped: {why})"));
                outcome.counterexample = Some(cex.clone());
            }
        }
        // an abstract interpretation that left no state at the error proves the program
        let proofs = [
            (
                zone.as_ref().filter(|z| z.safe).map(|z| &z.invariants),
                InvariantSource::DifferenceBounds,
                "difference-bound analysis: bounds on variables and on differences of two variables at every statement leave no state at the error",
            ),
            (
                heap.as_ref().map(|h| &h.invariants),
                InvariantSource::HeapValues,
                "allocation-site value analysis: the values of the variables and of the fields of every heap cell (per allocation site: its two newest cells and a summary of the older ones) leave no state at the error",
            ),
        ];
        for (invariants, source, what) in proofs {
            let Some(invariants) = invariants else { continue };
            if outcome.verdict == Verdict::Unknown && outcome.reason.as_deref() != Some("cancelled") && !matches!(single, Some(SingleExecution::Unsafe(_))) {
                let why = outcome.reason.clone().unwrap_or_default();
                outcome.verdict = Verdict::Safe;
                zone_proof |= source == InvariantSource::DifferenceBounds;
                heap_proof |= source == InvariantSource::HeapValues;
                outcome.invariants = invariants.clone();
                outcome.invariant_source = source;
                outcome.reason = Some(format!("{what} (the loop stopped: {why})"));
            }
        }
        if outcome.verdict == Verdict::Unknown && outcome.reason.as_deref() != Some("cancelled") && bounded && single.is_none() {
            let stop = || cancel() || full_budget.is_some_and(|b| run.elapsed_ms() >= b);
            let why = outcome.reason.clone().unwrap_or_default();
            match bmc::bounded_check(program, &bmc_solver, &stop) {
                bmc::BmcAnswer::Safe { bound } => {
                    // the same guard as before the loop's SAFE verdicts (the random runs below
                    // turn it into UNSAFE if they reach the error)
                    outcome.verdict = Verdict::Safe;
                    bmc_safe = true;
                    outcome.reason = Some(format!(
                        "bounded model checking: no execution reaches the error, and none runs a loop more than {bound} times (the loop stopped: {why})"
                    ));
                }
                bmc::BmcAnswer::Unsafe { bound, counterexample } => {
                    outcome.verdict = Verdict::Unsafe;
                    outcome.reason = Some(format!("bounded model checking with {bound} loop unwindings reaches the error (the loop stopped: {why})"));
                    outcome.counterexample = Some(counterexample);
                }
                bmc::BmcAnswer::Unknown(_) => {}
            }
        }
        if outcome.verdict == Verdict::Unknown && outcome.reason.as_deref() != Some("cancelled") {
            // the only execution of a program without inputs decides it
            let decided = match &single {
                Some(SingleExecution::Unfinished { .. }) => {
                    let stop = || cancel() || grace_ms.is_some_and(|g| run.elapsed_ms() >= g);
                    replay::single_execution(program, u64::MAX, &stop)
                }
                other => other.clone(),
            };
            let why = outcome.reason.clone().unwrap_or_default();
            match decided {
                Some(SingleExecution::Safe { steps }) => {
                    outcome.verdict = Verdict::Safe;
                    outcome.invariants = invariants::execution_invariants(program, steps.saturating_add(1));
                    outcome.invariant_source = InvariantSource::SingleExecution;
                    outcome.reason = Some(format!(
                        "the program reads no input, and its only execution ends after {steps} statements without reaching the error (the loop stopped: {why})"
                    ));
                }
                Some(SingleExecution::Unsafe(cex)) => {
                    outcome.verdict = Verdict::Unsafe;
                    outcome.reason = Some(format!("the program reads no input, and its only execution reaches the error (the loop stopped: {why})"));
                    outcome.counterexample = Some(cex);
                }
                _ => {}
            }
        }
        if (outcome.verdict == Verdict::Unknown || bmc_safe || zone_proof || heap_proof) && outcome.reason.as_deref() != Some("cancelled") && config.safe_cross_check_runs > 0 {
            // a last chance for bugs the refinement could not confirm: random concrete runs
            let found = {
                let stop = || cancel() || grace_ms.is_some_and(|g| run.elapsed_ms() >= g);
                replay::random_search_for_error(program, config.safe_cross_check_runs, 100_000, InputDistribution::Small, &stop).or_else(|| {
                    // bugs behind long loops: longer runs over all magnitudes (the grace period bounds them)
                    if bmc_safe || zone_proof || heap_proof {
                        return None;
                    }
                    replay::random_search_for_error(program, config.safe_cross_check_runs, replay::RANDOM_RUN_STEP_LIMIT, InputDistribution::Magnitudes, &stop)
                })
            };
            if let Some(cex) = found {
                let why = outcome.reason.take().unwrap_or_default();
                outcome.verdict = Verdict::Unsafe;
                outcome.reason = Some(format!("found by a random concrete run (the loop stopped: {why})"));
                outcome.counterexample = Some(cex);
            }
        }
        outcome.predicates = scoped_list(program, predicates);
        outcome.statistics.iterations = outcome.iterations.len() as u32;
        outcome.statistics.solver_calls = run.solver_calls;
        outcome.statistics.time_ms = run.elapsed_ms();
        for it in &outcome.iterations {
            outcome.statistics.abstraction_ms += it.statistics.abstraction_ms;
            outcome.statistics.model_check_ms += it.statistics.model_check_ms;
            outcome.statistics.refine_ms += it.statistics.refine_ms;
        }
        run.event(Phase::Done, outcome.iterations.len() as u32, predicates.len());
        outcome
    };
    if !has_error {
        outcome.verdict = Verdict::Safe;
        outcome.reason = Some("the program has no error location".into());
        return finish(outcome, &mut run, &predicates);
    }
    for iteration in 1..=config.max_iterations {
        if cancel() {
            outcome.reason = Some("cancelled".into());
            return finish(outcome, &mut run, &predicates);
        }
        if run.out_of_time() {
            outcome.reason = Some(format!("time budget exhausted after {} iterations", iteration - 1));
            return finish(outcome, &mut run, &predicates);
        }
        let mut record = IterationRecord {
            iteration,
            predicates_before: scoped_list(program, &predicates),
            boolean_program: String::new(),
            line_map: Vec::new(),
            model_check: String::new(),
            abstract_trace: Vec::new(),
            abstract_program: None,
            abstract_counterexample: None,
            c_path: Vec::new(),
            feasibility: None,
            new_predicates: Vec::new(),
            statistics: IterationStatistics::default(),
        };
        // abstraction
        run.event(Phase::Abstracting, iteration, predicates.len());
        let t = Instant::now();
        // The abstraction answers Unknown (sound, coarse) once the remaining budget is spent.
        abstraction_config.time_budget_ms = config.time_budget_ms.map(|b| b.saturating_sub(run.elapsed_ms()).max(1));
        let (abs, abs_diagnostics) = abstraction::abstract_program_cached(program, &predicates, &abstraction_config, &mut abstraction_cache);
        record.statistics.abstraction_ms = t.elapsed().as_millis() as u64;
        record.statistics.abstraction_prover_calls = abs.statistics.prover_calls;
        run.solver_calls += abs.statistics.prover_calls;
        if diagnostics::has_errors(&abs_diagnostics) {
            let first = abs_diagnostics.iter().find(|d| d.is_error()).map(|d| d.message.clone()).unwrap_or_default();
            outcome.reason = Some(format!("abstraction failed: {first}"));
            outcome.diagnostics.extend(abs_diagnostics);
            outcome.iterations.push(record);
            return finish(outcome, &mut run, &predicates);
        }
        if config.record_details {
            let printed = boolprog::print_bebop(&abs.program);
            record.boolean_program = printed.text;
            record.abstract_program = Some(abs.program.clone());
            record.line_map = printed
                .lines
                .iter()
                .map(|l| (l.line, l.origin.map(|o| StmtRef { proc: ProcId(o.proc), index: o.index })))
                .collect();
        }
        // model checking
        if cancel() || run.out_of_time() {
            outcome.reason = Some(if cancel() { "cancelled".into() } else { "time budget exhausted".into() });
            outcome.iterations.push(record);
            return finish(outcome, &mut run, &predicates);
        }
        run.event(Phase::ModelChecking, iteration, predicates.len());
        let mc_config = model_check::Config {
            max_bdd_nodes: config.max_bdd_nodes,
            time_budget_ms: config.time_budget_ms.map(|b| b.saturating_sub(run.elapsed_ms()).max(1)),
            compute_invariants: true,
            invariant_origins: Some(invariant_origins.clone()),
            compute_trace: true,
            error_labels: Vec::new(),
            entry: Some(entry_name.clone()),
            // The C invariants only need the live predicates; the call temporaries blow up states.
            eliminate_dead_variables: true,
        };
        let t = Instant::now();
        let mc = model_check::check_with_cancel(&abs.program, &mc_config, cancel);
        record.statistics.model_check_ms = t.elapsed().as_millis() as u64;
        record.statistics.peak_bdd_nodes = mc.statistics.peak_bdd_nodes;
        match &mc.verdict {
            model_check::Verdict::Safe => {
                record.model_check = "safe".into();
                run.event(Phase::Replaying, iteration, predicates.len());
                // the single execution's bug (beyond the random runs' step limit) overrules too
                let found = match (&single, &probe) {
                    (Some(SingleExecution::Unsafe(cex)), _) | (_, Some(cex)) => Some(cex.clone()),
                    _ => {
                        let stop = || cancel() || run.out_of_time();
                        replay::random_search_for_error(program, config.safe_cross_check_runs, 100_000, InputDistribution::Small, &stop)
                    }
                };
                if let Some(cex) = found {
                    outcome.verdict = Verdict::Unsafe;
                    outcome.reason = Some("the abstraction was safe but a concrete run reaches the error".into());
                    outcome.counterexample = Some(cex);
                    outcome.iterations.push(record);
                    return finish(outcome, &mut run, &predicates);
                }
                outcome.verdict = Verdict::Safe;
                outcome.reason = None;
                outcome.invariants = invariants::program_point_invariants(program, &abs, &mc);
                outcome.iterations.push(record);
                return finish(outcome, &mut run, &predicates);
            }
            model_check::Verdict::Unknown(reason) => {
                record.model_check = format!("unknown: {reason}");
                // the model checker's own budget is what was left of the loop's
                outcome.reason = Some(if run.out_of_time() && !cancel() {
                    format!("time budget exhausted after {iteration} iterations (in model checking)")
                } else {
                    format!("model checking gave up: {reason}")
                });
                outcome.iterations.push(record);
                return finish(outcome, &mut run, &predicates);
            }
            model_check::Verdict::ErrorReachable => record.model_check = "error reachable".into(),
        }
        let Some(abstract_trace) = &mc.trace else {
            outcome.reason = Some(mc.trace_error.clone().unwrap_or_else(|| "the model checker gave no counterexample".into()));
            outcome.iterations.push(record);
            return finish(outcome, &mut run, &predicates);
        };
        record.abstract_trace = model_check::format_trace(&abs.program, abstract_trace).lines().map(str::to_string).collect();
        if config.record_details {
            record.abstract_counterexample = Some(abstract_trace.clone());
        }
        // refinement
        run.event(Phase::Refining, iteration, predicates.len());
        let c_path = match trace::trace_to_c_path(program, abstract_trace) {
            Ok(p) => p,
            Err(e) => {
                outcome.reason = Some(format!("could not map the abstract counterexample to C: {e}"));
                outcome.iterations.push(record);
                return finish(outcome, &mut run, &predicates);
            }
        };
        record.c_path = c_path.clone();
        let t = Instant::now();
        let analysis = match refine::analyze_path(program, &c_path, &refine_config, &predicates, &|| cancel() || run.out_of_time()) {
            Ok(a) => a,
            Err(e) => {
                record.statistics.refine_ms = t.elapsed().as_millis() as u64;
                outcome.reason = Some(format!("could not build the C path: {}", e.0));
                outcome.iterations.push(record);
                return finish(outcome, &mut run, &predicates);
            }
        };
        record.statistics.refine_ms = t.elapsed().as_millis() as u64;
        record.statistics.refine_solver_calls = analysis.statistics.solver_calls;
        run.solver_calls += analysis.statistics.solver_calls;
        let verdict_text = match &analysis.verdict {
            refine::PathVerdict::Feasible { .. } => "feasible".to_string(),
            refine::PathVerdict::Infeasible { step, .. } => format!("infeasible at step {step}"),
            refine::PathVerdict::Unknown(r) => format!("unknown: {r}"),
        };
        record.feasibility = Some(FeasibilityRecord {
            method: analysis.method,
            verdict: verdict_text,
            table: if config.record_details { analysis.table.clone() } else { Vec::new() },
            notes: analysis.notes.clone(),
            path_length: analysis.path.steps.len(),
        });
        match &analysis.verdict {
            refine::PathVerdict::Feasible { inputs, .. } => {
                run.event(Phase::Replaying, iteration, predicates.len());
                let inputs: Vec<i128> = inputs.iter().map(|v| v.unwrap_or(0)).collect();
                match replay::replay_to_error(program, &inputs) {
                    Ok(cex) => {
                        outcome.verdict = Verdict::Unsafe;
                        outcome.reason = None;
                        outcome.counterexample = Some(cex);
                    }
                    Err(e) => {
                        outcome.reason = Some(format!("the counterexample is feasible by the solver but its replay failed: {e}"));
                    }
                }
                outcome.iterations.push(record);
                return finish(outcome, &mut run, &predicates);
            }
            refine::PathVerdict::Unknown(_) if run.out_of_time() && !cancel() => {
                outcome.reason = Some("time budget exhausted".into());
                outcome.iterations.push(record);
                return finish(outcome, &mut run, &predicates);
            }
            refine::PathVerdict::Unknown(r) => {
                outcome.reason = Some(format!("feasibility unknown: {r}"));
                outcome.iterations.push(record);
                return finish(outcome, &mut run, &predicates);
            }
            refine::PathVerdict::Infeasible { predicates: found, .. } => {
                for d in found {
                    if is_redundant(&predicates, d.scope, &d.predicate) {
                        continue;
                    }
                    if predicates.insert(d.scope, d.predicate.clone()) {
                        record.new_predicates.push(scoped(program, d.scope, &d.predicate));
                    }
                }
                if config.affine_candidates && !record.new_predicates.is_empty() {
                    let added = add_affine_candidates(program, &mut loop_candidates, &mut polynomial_done, &mut call_relations, zone.as_ref(), &record.new_predicates, &mut predicates);
                    if !added.is_empty() {
                        if let Some(f) = record.feasibility.as_mut() {
                            let texts: Vec<&str> = added.iter().map(|p| p.text.as_str()).collect();
                            f.notes.push(format!("loop invariant candidates (affine equalities, counter bounds) added as predicates: {}", texts.join(", ")));
                        }
                        record.new_predicates.extend(added);
                    }
                }
                if record.new_predicates.is_empty() {
                    // known predicates may have been left out of a bounded cone: widen it and
                    // abstract again before giving up
                    if let Some(bound) = abstraction_config.max_cone {
                        let wider = if bound >= 32 { None } else { Some(bound * 2) };
                        abstraction_config.max_cone = wider;
                        if let Some(f) = record.feasibility.as_mut() {
                            f.notes.push(match wider {
                                Some(w) => format!("no new predicates: the cone bound goes from {bound} to {w} predicates"),
                                None => format!("no new predicates: the cone bound of {bound} predicates is lifted"),
                            });
                        }
                        outcome.iterations.push(record);
                        continue;
                    }
                    outcome.reason = Some("no progress: the spurious counterexample yields no new predicates".into());
                    outcome.iterations.push(record);
                    return finish(outcome, &mut run, &predicates);
                }
            }
        }
        outcome.iterations.push(record);
    }
    outcome.reason = Some(format!("iteration bound ({}) reached", config.max_iterations));
    finish(outcome, &mut run, &predicates)
}

/// At most this many milliseconds of random runs before the loop starts (`replay::probe_for_error`).
const PROBE_MS: u64 = 2000;

/// Statements of the first run of a program that reads no input (`replay::single_execution`).
const SINGLE_EXECUTION_PROBE_STEPS: u64 = 1_000_000;

/// At most this many affine candidates join the predicates of one refinement ...
const AFFINE_CANDIDATES_PER_REFINEMENT: usize = 8;
/// ... of which at most this many are zone relations (each one more predicate to abstract with).
const ZONE_CANDIDATES_PER_REFINEMENT: usize = 3;

/// Whether `pred` adds nothing to the predicates of its scope: an integer (dis)equality that is
/// constant, or the same polynomial equality over the same variables as a predicate of the
/// scope or a global one, as the decision procedure normalises them (weakest preconditions
/// through `y = y + 1` turn `y*y - 2*x + y == 0` into `(y + 1) * (y + 1) - 2 * (y + 1 + x) +
/// (y + 1) == 0`). The variables must match: `'n == 0` is `'m == 'm + 'n`, but only the
/// first is about `'n` alone, which is what procedure signatures and cones go by.
fn is_redundant(predicates: &PredicateSet, scope: Option<ProcId>, pred: &Expr) -> bool {
    let Some(form) = solver::equality_form(pred) else { return false };
    if form.constant().is_some() {
        return true;
    }
    let variables = |e: &Expr| {
        let mut v = e.vars();
        v.sort();
        v
    };
    let mine = variables(pred);
    let local = scope.map(|p| predicates.of_proc(p)).unwrap_or(&[]);
    predicates.global.iter().chain(local).any(|p| solver::equality_form(p).is_some_and(|f| f.same_up_to_negation(&form)) && variables(p) == mine)
}

/// Where a loop-invariant candidate comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Candidate {
    /// `refine::affine`: call relations, affine equalities, counter bounds, congruences.
    Affine,
    /// A relation of the zone analysis.
    Zone,
    /// `refine::affine::polynomial_loop_equalities`.
    Polynomial,
}

/// The relations of call results to arguments, the affine loop-head equalities and counter
/// bounds (`refine::affine`) of the procedures of the `new` predicates (every procedure for a
/// global one) that share a variable with one of them and are not predicates yet, in any
/// form; inserted into `predicates` (scoped to their procedure, or global when they mention
/// globals only) and returned. A new predicate that multiplies variables brings the
/// polynomial equalities of its procedure over its own variables.
fn add_affine_candidates(
    program: &Program,
    cache: &mut HashMap<ProcId, Vec<(Expr, Candidate)>>,
    polynomial_done: &mut HashSet<ProcId>,
    call_relations: &mut Option<HashMap<ProcId, Vec<Expr>>>,
    zone: Option<&zones::ZoneResult>,
    new: &[ScopedPredicate],
    predicates: &mut PredicateSet,
) -> Vec<ScopedPredicate> {
    let mut added = Vec::new();
    let mut from_zones = 0;
    let call_relations = call_relations.get_or_insert_with(|| refine::affine::call_relations(program));
    for d in new {
        let procs: Vec<ProcId> = match d.scope {
            Some(p) => vec![p],
            None => program.proc_ids().collect(),
        };
        let mine = logic::vars(&d.predicate);
        for proc in procs {
            let candidates = cache.entry(proc).or_insert_with(|| {
                let mut list: Vec<(Expr, Candidate)> = Vec::new();
                let calls = call_relations.get(&proc).into_iter().flatten().map(|e| (e.clone(), Candidate::Affine));
                let equalities = refine::affine::loop_equalities(program, proc).into_iter().map(|(_, e)| (e, Candidate::Affine));
                let bounds = refine::affine::counter_bounds(program, proc).into_iter().map(|e| (e, Candidate::Affine));
                let congruences = refine::affine::stride_congruences(program, proc).into_iter().map(|e| (e, Candidate::Affine));
                let relations = zone.and_then(|z| z.loop_facts.get(&proc)).into_iter().flatten().map(|e| (e.clone(), Candidate::Zone));
                for (e, z) in calls.chain(equalities).chain(bounds).chain(congruences).chain(relations) {
                    if !list.iter().any(|(f, _)| *f == e) {
                        list.push((e, z));
                    }
                }
                list
            });
            // polynomial equalities once refinement has found a non-linear predicate
            if solver::has_product(&d.predicate) && polynomial_done.insert(proc) {
                for (_, e) in refine::affine::polynomial_loop_equalities(program, proc) {
                    if !candidates.iter().any(|(f, _)| *f == e) {
                        candidates.push((e, Candidate::Polynomial));
                    }
                }
            }
            for (e, kind) in candidates.iter() {
                if added.len() >= AFFINE_CANDIDATES_PER_REFINEMENT {
                    return added;
                }
                let relevant = match kind {
                    Candidate::Zone if from_zones >= ZONE_CANDIDATES_PER_REFINEMENT => false,
                    // a polynomial equality costs the abstraction more: only over the
                    // variables of the non-linear predicate (not a counter that is a copy)
                    Candidate::Polynomial => logic::vars(e).iter().all(|v| mine.contains(v)),
                    _ => logic::shares_symbols(e, &d.predicate),
                };
                if !relevant {
                    continue;
                }
                let local = logic::vars(e).iter().any(|v| !program.globals.contains(v));
                let scope = if local { Some(proc) } else { None };
                let existing = match scope {
                    Some(p) => predicates.of_proc(p),
                    None => &predicates.global,
                };
                if existing.iter().any(|p| refine::affine::same_equality(p, e)) || is_redundant(predicates, scope, e) {
                    continue;
                }
                if predicates.insert(scope, e.clone()) {
                    from_zones += (*kind == Candidate::Zone) as usize;
                    added.push(scoped(program, scope, e));
                }
            }
        }
    }
    added
}

fn scoped(program: &Program, scope: Option<ProcId>, p: &Expr) -> ScopedPredicate {
    ScopedPredicate { scope, predicate: p.clone(), text: display_expr(program, p) }
}

fn scoped_list(program: &Program, set: &PredicateSet) -> Vec<ScopedPredicate> {
    let mut out: Vec<ScopedPredicate> = set.global.iter().map(|p| scoped(program, None, p)).collect();
    for (proc, preds) in &set.local {
        out.extend(preds.iter().map(|p| scoped(program, Some(*proc), p)));
    }
    out
}

/// Predicates in C2BP's file form: `global { ... }` then `proc { ... }` blocks.
pub fn format_predicates(program: &Program, predicates: &[ScopedPredicate]) -> String {
    let mut out = String::new();
    let globals: Vec<&str> = predicates.iter().filter(|p| p.scope.is_none()).map(|p| p.text.as_str()).collect();
    if !globals.is_empty() {
        out.push_str(&format!("global {{ {} }}\n", globals.join(", ")));
    }
    for proc in program.proc_ids() {
        let local: Vec<&str> = predicates.iter().filter(|p| p.scope == Some(proc)).map(|p| p.text.as_str()).collect();
        if !local.is_empty() {
            out.push_str(&format!("{} {{ {} }}\n", program.proc(proc).name, local.join(", ")));
        }
    }
    out
}

/// The conditions of the `assume` statements right before error statements (the arguments of
/// failed `assert`s), scoped by their variables.
pub fn error_guard_predicates(program: &Program) -> Vec<(Option<ProcId>, Expr)> {
    let mut out = Vec::new();
    for proc_id in program.proc_ids() {
        let proc = program.proc(proc_id);
        for (i, stmt) in proc.body.iter().enumerate() {
            if !matches!(stmt.kind, StmtKind::Error) || i == 0 {
                continue;
            }
            // the statements that lead here: the one before (fall through) and gotos
            let mut preds: Vec<usize> = Vec::new();
            for (j, s) in proc.body.iter().enumerate() {
                if proc.successors(j as u32).contains(&(i as u32)) {
                    preds.push(j);
                    let _ = s;
                }
            }
            for j in preds {
                if let StmtKind::Assume { cond } = &proc.body[j].kind {
                    let mut atoms = Vec::new();
                    refine::wp::atoms(cond, &mut atoms);
                    for a in atoms {
                        let a = refine::wp::strip_negation(&a);
                        if a.ty != Type::Bool || refine::wp::is_ground(&a) {
                            continue;
                        }
                        if let Some(scope) = predicate_scope(program, &a) {
                            if !out.contains(&(scope, a.clone())) {
                                out.push((scope, a));
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

/// The atoms of all `assume` conditions (branch guards) of the program, scoped.
pub fn condition_predicates(program: &Program) -> Vec<(Option<ProcId>, Expr)> {
    let mut out = Vec::new();
    for proc_id in program.proc_ids() {
        for stmt in &program.proc(proc_id).body {
            if let StmtKind::Assume { cond } = &stmt.kind {
                let mut atoms = Vec::new();
                refine::wp::atoms(cond, &mut atoms);
                for a in atoms {
                    let a = refine::wp::strip_negation(&a);
                    if a.ty != Type::Bool || refine::wp::is_ground(&a) {
                        continue;
                    }
                    if let Some(scope) = predicate_scope(program, &a) {
                        if !out.contains(&(scope, a.clone())) {
                            out.push((scope, a));
                        }
                    }
                }
            }
        }
    }
    out
}

/// The scope of a predicate over program variables: `Some(None)` global, `Some(Some(p))` local to
/// `p`, `None` when it mixes procedures.
pub fn predicate_scope(program: &Program, e: &Expr) -> Option<Option<ProcId>> {
    let mut scope: Option<ProcId> = None;
    let mut ok = true;
    e.visit(&mut |x| {
        if let ExprKind::Var(v) = x.kind {
            if let Some(p) = program.vars.get(v.0 as usize).and_then(|var| var.kind.proc()) {
                match scope {
                    None => scope = Some(p),
                    Some(q) if q == p => {}
                    Some(_) => ok = false,
                }
            }
        }
    });
    ok.then_some(scope)
}
