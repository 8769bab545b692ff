//! The CEGAR loop of BOOP ch. 3 (Fig 3.1), alone: abstract with the current predicates
//! (C2BP), model-check the boolean program (BEBOP), check the abstract counterexample on the C
//! program (BOOP ch. 7), add the predicates that explain a spurious one — until the boolean
//! program is safe (SAFE, with invariants), a counterexample is feasible (UNSAFE, replayed on the
//! concrete interpreter) or the loop stops (with a typed [`StopReason`]).
//!
//! [`Session`] is the loop: [`Session::step`] runs exactly one iteration and returns its
//! [`IterationRecord`] or how the loop ended; every finished iteration is also reported through
//! the event callback as soon as it is done. Analyses beside the loop plug in as
//! [`CandidateSource`]s; the loop names none of them. Which techniques decide a verdict, and
//! in which order, is the portfolio's business (crate `verify`).

mod invariants;
mod learn;
mod predicates;
mod records;
mod session;
mod trace;

pub use invariants::{invariant_at, program_point_invariants};
pub use predicates::{condition_predicates, error_guard_predicates, format_predicates, is_redundant, predicate_scope, Predicates};
pub use records::*;
pub use refine::RefinementMethod;
pub use session::{Session, Step};
pub use trace::trace_to_c_path;

use c_ir::{Expr, ProcId, PredicateSet, Program};

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
    /// The work budget in units (`budget::cost`), counted from [`Session::new`]: charged by
    /// the solver, the lattice and the model checker, checked between phases. Deterministic:
    /// the same program and options stop at the same point on every machine.
    pub work_budget: Option<u64>,
    /// Safety limit in milliseconds of this machine's time (not deterministic; a run it ends
    /// says so), counted from [`Session::new`].
    pub time_budget_ms: Option<u64>,
    pub strategy: abstraction::Strategy,
    /// Maximum cube length of the lattice strategy (`None`: unbounded).
    pub max_cube_length: Option<usize>,
    /// First bound on the strengthenings' cones of influence (`abstraction::AbstractionConfig::max_cone`);
    /// doubled whenever a refinement finds no new predicate, lifted after 32.
    pub max_cone: Option<usize>,
    /// `None`: C widths (char 8, short 16, int 32, long 64); `Some(w)`: every integer `w` bits.
    pub integer_width: Option<u8>,
    /// Signed overflow wraps (bit-precise) or is impossible (the papers' integers), in the
    /// abstraction's and the refinement's solver queries.
    pub integers: solver::IntegerSemantics,
    pub initial_predicates: InitialPredicates,
    /// Predicates given by the user (C2BP predicate file), added to the initial ones.
    pub user_predicates: PredicateSet,
    /// Give up model checking beyond this many BDD nodes.
    pub max_bdd_nodes: usize,
    /// Keep the boolean program text and feasibility tables in the iteration records.
    pub record_details: bool,
    /// Record the cube lattices of every strengthening (explain views; slower).
    pub record_lattices: bool,
    /// When a spurious counterexample gives no new predicate, learn the inconsistent cubes of
    /// its states for `enforce` (the `learn` module), beside widening the cone bound.
    pub learn_inconsistencies: bool,
}

impl Config {
    /// The CLI's defaults: `wp` refinement, 100 iterations, no time budget, the exact
    /// strategy, unbounded cubes, cones bounded by 8 predicates at first, C integer widths,
    /// error-guard predicates first and no user predicates, 2M BDD nodes, detailed records, no
    /// lattices.
    pub fn default_for_cli() -> Config {
        Config {
            refinement: RefinementMethod::Wp,
            max_iterations: 100,
            work_budget: None,
            time_budget_ms: None,
            strategy: abstraction::Strategy::Exact,
            max_cube_length: None,
            max_cone: Some(8),
            integer_width: None,
            integers: solver::IntegerSemantics::Wrap,
            initial_predicates: InitialPredicates::ErrorGuards,
            user_predicates: PredicateSet::default(),
            max_bdd_nodes: 2_000_000,
            record_details: true,
            record_lattices: false,
            learn_inconsistencies: true,
        }
    }
}

/// A loop-invariant candidate predicate proposed by an analysis beside the loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub scope: Option<ProcId>,
    pub predicate: Expr,
    /// The analysis that proposed it, as shown to the user (`PredicateOrigin::Candidate`).
    pub analysis: &'static str,
}

/// A source of extra predicates: after a refinement found `new` predicates, it may propose
/// candidates (loop equalities, bounds, relations) that path-based refinement alone would
/// find only one loop unrolling at a time. The loop adds those not present yet.
pub trait CandidateSource {
    fn candidates(&mut self, program: &Program, new: &[ScopedPredicate], predicates: &PredicateSet) -> Vec<Candidate>;
}
