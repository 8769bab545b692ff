//! The portfolio behind `predabs check` and the playground's Check mode: which techniques run,
//! in which order, with which share of the budget, and whose verdict counts.
//!
//! The CEGAR loop (crate `cegar`, BOOP ch. 3) is one technique among seven, and the only one
//! the seed papers describe; the others ([`Technique`]) are cheap analyses and concrete runs
//! that decide many programs at once. Every technique is switchable ([`Techniques`]); with
//! [`Techniques::textbook`] the loop runs alone with refinement's own predicates. The
//! portfolio answers as soon as one technique decides soundly, and every verdict names the
//! technique that decided it ([`CheckOutcome::decided_by`]).
//!
//! Order (each step only when its technique is selected and the program has an error location):
//! 1. `single-execution`: a program that reads no input has one run; a short run may decide it.
//! 2. `random-runs`: testing before proving (a twentieth of the budget, at most 2 s).
//! 3. `zones`, then `heap-values`: abstract interpretations (a tenth each, at most 5 s); a
//!    post-fixpoint that leaves no state at the error is a proof.
//! 4. `bmc`: a short bounded model check (a twentieth of the budget, at most 2 s): programs
//!    whose loops have small constant bounds are decided by unrolling them completely.
//! 5. `cegar`: the loop, with the `candidates` source when selected (four fifths of the budget
//!    when bounded model checking may follow, else all of it).
//! 6. `bmc`: bounded model checking with what is left; then, within a 3 s grace period, the
//!    unfinished single execution and `random-runs` with longer runs.
//!
//! Every SAFE verdict is cross-checked by random concrete runs (a soundness guard, whatever the
//! selection); a run that reaches the error turns it into a replayed UNSAFE.

mod candidates;
mod portfolio;

pub use candidates::LoopCandidates;
pub use cegar::{Config as LoopConfig, IterationRecord, LoopEnd, ScopedPredicate, StopReason, Verdict};
pub use portfolio::{check_program, check_source};

use c_ir::points::ProgramPointInvariant;
use concrete::Counterexample;
use diagnostics::Diagnostic;
use std::fmt;

/// A technique of the portfolio.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Technique {
    /// The CEGAR loop (C2BP + BEBOP + BOOP's refinement).
    Cegar,
    /// Loop-invariant candidate predicates (affine, polynomial and difference-bound relations)
    /// added to the loop's refinements.
    Candidates,
    /// Difference-bound analysis (zones).
    Zones,
    /// Allocation-site value analysis of variables and heap cells.
    HeapValues,
    /// Bounded model checking by unrolling.
    Bmc,
    /// The only execution of a program that reads no input.
    SingleExecution,
    /// Random concrete runs that look for the error.
    RandomRuns,
}

impl Technique {
    pub const ALL: [Technique; 7] = [
        Technique::Cegar,
        Technique::Candidates,
        Technique::Zones,
        Technique::HeapValues,
        Technique::Bmc,
        Technique::SingleExecution,
        Technique::RandomRuns,
    ];
    /// The name used by `--techniques`, the JSON output and share links.
    pub fn name(self) -> &'static str {
        match self {
            Technique::Cegar => "cegar",
            Technique::Candidates => "candidates",
            Technique::Zones => "zones",
            Technique::HeapValues => "heap-values",
            Technique::Bmc => "bmc",
            Technique::SingleExecution => "single-execution",
            Technique::RandomRuns => "random-runs",
        }
    }
    pub fn from_name(name: &str) -> Option<Technique> {
        Technique::ALL.into_iter().find(|t| t.name() == name)
    }
    /// One line for a student.
    pub fn describe(self) -> &'static str {
        match self {
            Technique::Cegar => "the CEGAR loop: abstraction (C2BP), model checking (BEBOP), refinement (BOOP)",
            Technique::Candidates => "loop-invariant candidate predicates for the CEGAR loop",
            Technique::Zones => "difference-bound analysis (bounds on variables and on differences of two variables)",
            Technique::HeapValues => "allocation-site value analysis of variables and heap cells",
            Technique::Bmc => "bounded model checking (loop unrolling)",
            Technique::SingleExecution => "the only execution of a program that reads no input",
            Technique::RandomRuns => "random concrete runs",
        }
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A selection of techniques.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Techniques(u8);

impl Techniques {
    /// Every technique (the default of `predabs check` and the playground).
    pub fn all() -> Techniques {
        Techniques::of(&Technique::ALL)
    }
    /// The CEGAR loop alone, with refinement's own predicates (the textbook mode).
    pub fn textbook() -> Techniques {
        Techniques::of(&[Technique::Cegar])
    }
    pub fn of(list: &[Technique]) -> Techniques {
        Techniques(list.iter().fold(0, |bits, t| bits | 1 << *t as u8))
    }
    pub fn contains(self, t: Technique) -> bool {
        self.0 & (1 << t as u8) != 0
    }
    pub fn list(self) -> Vec<Technique> {
        Technique::ALL.into_iter().filter(|t| self.contains(*t)).collect()
    }
    /// Parses a comma-separated list of technique names (`all` for every technique).
    pub fn parse(text: &str) -> Result<Techniques, String> {
        let mut list = Vec::new();
        for name in text.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            if name == "all" {
                list.extend(Technique::ALL);
                continue;
            }
            match Technique::from_name(name) {
                Some(t) => list.push(t),
                None => {
                    let known: Vec<&str> = Technique::ALL.iter().map(|t| t.name()).collect();
                    return Err(format!("unknown technique `{name}` (known: {}, all)", known.join(", ")));
                }
            }
        }
        if list.is_empty() {
            return Err("no technique selected".into());
        }
        Ok(Techniques::of(&list))
    }
}

impl fmt::Display for Techniques {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.list().into_iter().map(Technique::name).collect();
        f.write_str(&names.join(","))
    }
}

/// The default work budget of a run (`predabs check --budget`), in units of `budget::cost`.
pub const DEFAULT_WORK_BUDGET: u64 = 20_000_000;
/// The default limit of the memory estimate: 768 MiB.
pub const DEFAULT_MEMORY_LIMIT: u64 = 768 << 20;

/// Everything the portfolio can be told.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The loop's settings. Its `work_budget` and `time_budget_ms` are ignored: the portfolio
    /// gives the loop its share of [`Config::work_budget`].
    pub loop_config: cegar::Config,
    pub techniques: Techniques,
    /// The whole run's work budget in units (`budget::cost`; `None`: unlimited), split among
    /// the techniques. Deterministic: the same program and options give the same run anywhere.
    pub work_budget: Option<u64>,
    /// Safety limit in milliseconds of this machine's time (`None`: none). A run it ends is
    /// UNKNOWN and says that results may differ elsewhere.
    pub time_budget_ms: Option<u64>,
    /// Limit in bytes of the engine's memory estimate (`None`: none): a structure estimated
    /// larger ends the run with UNKNOWN and the reason.
    pub memory_limit: Option<u64>,
    /// Random concrete runs of the soundness guard before a SAFE verdict and of the
    /// `random-runs` technique (0 turns both off).
    pub random_runs: u32,
}

impl Config {
    /// Every technique, the loop's CLI defaults, the default work budget and memory limit, no
    /// time limit, 64 random runs.
    pub fn default_for_cli() -> Config {
        Config {
            loop_config: cegar::Config::default_for_cli(),
            techniques: Techniques::all(),
            work_budget: Some(DEFAULT_WORK_BUDGET),
            time_budget_ms: None,
            memory_limit: Some(DEFAULT_MEMORY_LIMIT),
            random_runs: 64,
        }
    }
}

/// Where a SAFE verdict's invariants come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InvariantSource {
    /// The final boolean program's reachable states, over the predicates.
    BooleanProgram,
    /// The states of the only execution of a program without input.
    SingleExecution,
    /// The difference-bound analysis (zones).
    DifferenceBounds,
    /// The allocation-site value analysis.
    HeapValues,
    /// None: bounded model checking proves without invariants.
    None,
}

impl InvariantSource {
    pub fn name(self) -> &'static str {
        match self {
            InvariantSource::BooleanProgram => "boolean_program",
            InvariantSource::SingleExecution => "single_execution",
            InvariantSource::DifferenceBounds => "difference_bounds",
            InvariantSource::HeapValues => "heap_values",
            InvariantSource::None => "none",
        }
    }
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
    /// Work units the run charged (all techniques).
    pub work_units: u64,
}

/// The portfolio's progress reports: a technique starts, or the loop reports.
#[derive(Clone, Copy, Debug)]
pub enum Event<'a> {
    Technique { technique: Technique, elapsed_ms: u64 },
    Loop(cegar::Event<'a>),
}

/// The result of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckOutcome {
    pub verdict: Verdict,
    /// The technique whose result is the verdict (`None` for an UNKNOWN, or a program that
    /// could not be lowered).
    pub decided_by: Option<Technique>,
    /// Why: the deciding technique's explanation, or why the verdict is UNKNOWN (text for
    /// people; nothing parses it).
    pub reason: Option<String>,
    /// How the loop ended, when it ran.
    pub loop_end: Option<LoopEnd>,
    /// For an UNKNOWN: what to try next.
    pub next_step: Option<String>,
    pub iterations: Vec<IterationRecord>,
    /// The final predicates, with their origins.
    pub predicates: Vec<ScopedPredicate>,
    /// When SAFE: the invariants at procedure entries and loop heads.
    pub invariants: Vec<ProgramPointInvariant>,
    pub invariant_source: InvariantSource,
    /// When UNSAFE: the replayed counterexample.
    pub counterexample: Option<Counterexample>,
    pub statistics: Statistics,
    pub diagnostics: Vec<Diagnostic>,
    /// Whether the run was cancelled (what finished is kept).
    pub cancelled: bool,
}

impl CheckOutcome {
    fn unknown(reason: impl Into<String>, diagnostics: Vec<Diagnostic>) -> CheckOutcome {
        CheckOutcome {
            verdict: Verdict::Unknown,
            decided_by: None,
            reason: Some(reason.into()),
            loop_end: None,
            next_step: None,
            iterations: Vec::new(),
            predicates: Vec::new(),
            invariants: Vec::new(),
            invariant_source: InvariantSource::None,
            counterexample: None,
            statistics: Statistics::default(),
            diagnostics,
            cancelled: false,
        }
    }
}
