//! What the loop records and reports: progress events, one record per iteration (BOOP Fig 3.1's
//! four phases as plain data), predicates with their origin, why the loop stopped, and how it
//! ended. Everything here is data; the UI and the CLI render it.

use crate::RefinementMethod;
use c_ir::{Expr, ProcId, StmtRef};
use concrete::Counterexample;
use c_ir::points::ProgramPointInvariant;
use std::fmt;

/// The phase the loop is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    Abstracting,
    ModelChecking,
    Refining,
    Replaying,
    Done,
}

impl Phase {
    /// What the phase does, for progress lines.
    pub fn describe(self) -> &'static str {
        match self {
            Phase::Abstracting => "abstracting",
            Phase::ModelChecking => "model checking",
            Phase::Refining => "checking the counterexample",
            Phase::Replaying => "replaying the inputs",
            Phase::Done => "done",
        }
    }
}

/// A progress report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    pub phase: Phase,
    /// 1-based iteration (0 before the first).
    pub iteration: u32,
    /// Decision procedure calls so far (abstraction and refinement).
    pub solver_calls: u64,
    pub predicates: usize,
    pub elapsed_ms: u64,
}

/// What the loop reports while it runs: progress, and each iteration as soon as it is finished
/// (never twice).
#[derive(Clone, Copy, Debug)]
pub enum Event<'a> {
    Progress(&'a Progress),
    Iteration(&'a IterationRecord),
}

/// Where a predicate comes from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PredicateOrigin {
    /// A condition guarding an error statement (the argument of a failing `assert`, BOOP ch. 3).
    ErrorGuard,
    /// An atom of a branch condition (`InitialPredicates::AllConditionsUpTo`).
    BranchCondition,
    /// Given by the user (a C2BP predicate file).
    User,
    /// Found by the refinement of an iteration: a condition at a step of the spurious path.
    Refinement {
        iteration: u32,
        /// The C statement of the path step whose condition it is an atom of.
        at: Option<StmtRef>,
        /// The 0-based index of that step in the expanded path (the feasibility table's row).
        step: usize,
    },
    /// A loop-invariant candidate proposed by an analysis beside the loop
    /// ([`crate::CandidateSource`]), named by the source.
    Candidate { iteration: u32, analysis: &'static str },
}

impl fmt::Display for PredicateOrigin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PredicateOrigin::ErrorGuard => write!(f, "error guard"),
            PredicateOrigin::BranchCondition => write!(f, "branch condition"),
            PredicateOrigin::User => write!(f, "user"),
            PredicateOrigin::Refinement { iteration, step, .. } => write!(f, "refinement of iteration {iteration} (path step {})", step + 1),
            PredicateOrigin::Candidate { iteration, analysis } => write!(f, "candidate after iteration {iteration} ({analysis})"),
        }
    }
}

/// A predicate with its scope, its text and where it comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScopedPredicate {
    pub scope: Option<ProcId>,
    pub predicate: Expr,
    pub text: String,
    pub origin: PredicateOrigin,
}

/// The model checker's answer on one boolean program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AbstractVerdict {
    Safe,
    ErrorReachable,
    Unknown(String),
}

impl fmt::Display for AbstractVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AbstractVerdict::Safe => write!(f, "safe"),
            AbstractVerdict::ErrorReachable => write!(f, "error reachable"),
            AbstractVerdict::Unknown(why) => write!(f, "unknown: {why}"),
        }
    }
}

/// The feasibility of one abstract counterexample on the C program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Feasibility {
    Feasible,
    /// Infeasible: the conditions contradict each other before path step `step` (0-based
    /// index into the expanded path, the feasibility table's `step`), at C statement `at`.
    Infeasible { step: usize, at: Option<StmtRef> },
    Unknown(String),
}

impl fmt::Display for Feasibility {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Feasibility::Feasible => write!(f, "feasible"),
            Feasibility::Infeasible { step, .. } => write!(f, "infeasible at path step {}", step + 1),
            Feasibility::Unknown(why) => write!(f, "unknown: {why}"),
        }
    }
}

/// Why a safe boolean program makes the C program safe (the reason of a SAFE verdict the loop
/// decides, in every view).
pub const SAFE_BECAUSE_ABSTRACTION_IS_SAFE: &str = "the boolean program is safe, and it over-approximates the C program, so the C program is safe too";

/// A cube of predicates that no C state satisfies, learned when an iteration's spurious
/// counterexample gave no new predicate and passed through a state with that valuation (see
/// the `learn` module): from the next iteration on, `enforce` excludes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LearnedConstraint {
    pub iteration: u32,
    /// The abstract counterexample's state it was found in: 0 = the initial state, `i` = the
    /// state after the counterexample's `i`-th step.
    pub trace_step: usize,
    pub literals: Vec<LearnedLiteral>,
}

/// One literal of a [`LearnedConstraint`]: the predicate (with its scope and C text) and its
/// value in the cube.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LearnedLiteral {
    pub scope: Option<ProcId>,
    pub predicate: Expr,
    pub text: String,
    pub value: bool,
}

impl LearnedConstraint {
    /// The negated cube `!({p} && !{q} && …)` (what `enforce` adds), each predicate printed by
    /// `predicate`.
    pub fn text(&self, predicate: impl Fn(&LearnedLiteral) -> String) -> String {
        let cube: Vec<String> = self.literals.iter().map(|l| format!("{}{{{}}}", if l.value { "" } else { "!" }, predicate(l))).collect();
        format!("!({})", cube.join(" && "))
    }
}

impl fmt::Display for LearnedConstraint {
    /// [`LearnedConstraint::text`] over the predicates' C text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(|l| l.text.clone()))
    }
}

/// The feasibility check of one abstract counterexample.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeasibilityRecord {
    pub method: RefinementMethod,
    pub verdict: Feasibility,
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
    /// Work units charged by each phase (`budget::cost`): where an iteration's budget went.
    pub abstraction_work: u64,
    pub model_check_work: u64,
    pub refine_work: u64,
}

/// One round of the loop as plain data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IterationRecord {
    pub iteration: u32,
    pub predicates_before: Vec<ScopedPredicate>,
    /// The boolean program (Bebop syntax) and, per printed statement, its line, the boolean
    /// statement and the C statement it comes from (`origin`): views read both from here
    /// instead of printing the program again.
    pub boolean_program: String,
    pub line_map: Vec<boolprog::LineInfo>,
    /// The model checker's verdict on the boolean program (`None` when the loop stopped before).
    pub model_check: Option<AbstractVerdict>,
    /// The abstract counterexample, one step a line (`proc#stmt: text [kind] valuation`).
    pub abstract_trace: Vec<String>,
    /// How the model checker found the abstract counterexample (shortest, or the ranked
    /// search's when a breadth-first one would have cost too much).
    pub abstract_trace_search: Option<model_check::TraceSearch>,
    /// The boolean program and its counterexample as data (only with `record_details`), so that
    /// views can show every step's valuation and map it to both program texts.
    pub abstract_program: Option<boolprog::Program>,
    pub abstract_counterexample: Option<model_check::Trace>,
    /// The boolean variables of the abstraction with their predicates (only with
    /// `record_details`), so that views can name them over the source without reading names.
    pub boolean_variables: Vec<abstraction::BooleanVariable>,
    /// The C statements of the counterexample.
    pub c_path: Vec<StmtRef>,
    pub feasibility: Option<FeasibilityRecord>,
    pub new_predicates: Vec<ScopedPredicate>,
    /// Inconsistent cubes learned from this iteration's counterexample when it gave no new
    /// predicate (`enforce` excludes them from the next iteration on).
    pub learned: Vec<LearnedConstraint>,
    pub statistics: IterationStatistics,
}

/// Why the loop stopped without a verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StopReason {
    Cancelled,
    /// `Config::max_iterations` iterations ran.
    IterationBound(u32),
    /// The work budget, the memory estimate or the safety time limit (`limit` says which)
    /// ended the loop after this many finished iterations, in this phase.
    Budget { iterations: u32, phase: Phase, limit: budget::Exhausted },
    NoEntryProcedure,
    AbstractionFailed(String),
    ModelCheckingGaveUp(String),
    /// The model checker reached the error but gave no counterexample.
    NoAbstractCounterexample(String),
    /// The abstract counterexample could not be mapped back to C statements.
    TraceMapping(String),
    /// The C path of the counterexample could not be built.
    PathConstruction(String),
    /// The decision procedure could not decide the path's feasibility.
    FeasibilityUnknown(String),
    /// The solver found the path feasible but the inputs did not replay on the interpreter
    /// (the failure keeps the undefined behaviour that stopped the run, if any).
    ReplayFailed(concrete::ReplayFailure),
    /// A spurious counterexample gave no new predicate (even with full cones).
    NoProgress,
}

impl StopReason {
    /// What a student could try next.
    pub fn next_step(&self) -> &'static str {
        match self {
            StopReason::Cancelled => "run again to continue",
            StopReason::IterationBound(_) => "raise the iteration bound, or give predicates that describe the loop (BOOP §7.4)",
            StopReason::Budget { limit: budget::Exhausted::Memory { .. }, .. } => "give predicates by hand, or use the lattice strategy with a small maximum cube length",
            StopReason::Budget { .. } => "raise the budget, or use the lattice strategy with a small maximum cube length",
            StopReason::NoEntryProcedure => "define `main` (or choose the entry procedure)",
            StopReason::AbstractionFailed(_) | StopReason::PathConstruction(_) | StopReason::TraceMapping(_) => {
                "simplify the program around the statement named in the message"
            }
            StopReason::ModelCheckingGaveUp(_) | StopReason::NoAbstractCounterexample(_) => "raise the BDD node limit or the time budget",
            StopReason::FeasibilityUnknown(_) => "try the other refinement method (wp / sp)",
            StopReason::ReplayFailed(f) if f.runtime_error.is_some() => {
                "fix the undefined behaviour at the line shown (the inputs listed reach it), then run again"
            }
            StopReason::ReplayFailed(_) => "look at the path in the feasibility table: the program may rely on undefined behaviour",
            StopReason::NoProgress => "try the other refinement method, or add predicates by hand",
        }
    }
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StopReason::Cancelled => write!(f, "cancelled"),
            StopReason::IterationBound(n) => write!(f, "iteration bound ({n}) reached"),
            StopReason::Budget { iterations, phase, limit } => {
                write!(f, "{limit} after {iterations} iterations (in {})", phase.describe())
            }
            StopReason::NoEntryProcedure => write!(f, "the program has no entry procedure"),
            StopReason::AbstractionFailed(m) => write!(f, "abstraction failed: {m}"),
            StopReason::ModelCheckingGaveUp(m) => write!(f, "model checking gave up: {m}"),
            StopReason::NoAbstractCounterexample(m) => write!(f, "{m}"),
            StopReason::TraceMapping(m) => write!(f, "could not map the abstract counterexample to C: {m}"),
            StopReason::PathConstruction(m) => write!(f, "could not build the C path: {m}"),
            StopReason::FeasibilityUnknown(m) => write!(f, "feasibility unknown: {m}"),
            StopReason::ReplayFailed(m) => write!(f, "the counterexample is feasible by the solver but its replay failed: {m}"),
            StopReason::NoProgress => write!(f, "no progress: the spurious counterexample yields no new predicates"),
        }
    }
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

/// How the loop ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoopEnd {
    /// The boolean program is safe: the C program is, with these invariants (over the
    /// predicates) at procedure entries and loop heads.
    Safe { invariants: Vec<ProgramPointInvariant> },
    /// The program has no error location at all.
    NoErrorLocation,
    /// A feasible counterexample, replayed on the interpreter.
    Unsafe { counterexample: Counterexample },
    Stopped(StopReason),
}

impl LoopEnd {
    pub fn verdict(&self) -> Verdict {
        match self {
            LoopEnd::Safe { .. } | LoopEnd::NoErrorLocation => Verdict::Safe,
            LoopEnd::Unsafe { .. } => Verdict::Unsafe,
            LoopEnd::Stopped(_) => Verdict::Unknown,
        }
    }
    pub fn stop_reason(&self) -> Option<&StopReason> {
        match self {
            LoopEnd::Stopped(r) => Some(r),
            _ => None,
        }
    }
}
