//! C2BP predicate abstraction: a `c-ir` goto program plus predicates become a boolean program.
//!
//! Entry points: [`abstract_program`] (and [`abstract_program_cached`] with an
//! [`AbstractionCache`]) with an [`AbstractionConfig`] give an [`Abstraction`]: the boolean
//! program, its variables, signatures, statistics and the records of the explain views
//! ([`LatticeRecord`], [`WpRecord`]); [`run_abstract`] and [`model_check_pds`] are the
//! `predabs abstract` and `predabs mc --engine pds` commands. Each C statement is translated on its own (C2BP §4,
//! polymorphic predicate abstraction §4–5):
//! - assignments, `havoc`, `malloc`: the predicates whose weakest precondition changes get a
//!   parallel assignment `{p} := choose(F(WP(s,p)), F(WP(s,!p)))`;
//! - `assume(e)` (branch guards) becomes `assume(G(e))`, gotos and labels are kept;
//! - the error location becomes `assert(false)`;
//! - calls pass `prm_i := choose(F(e'), F(!e'))` for the callee's formal predicates `E_f`,
//!   receive `ret_i` for its return predicates `E_r`, then update the caller's predicates `E_u`
//!   through the `orig`/`γ` interpretation of polymorphic §4.4.3 and §5.4;
//! - every procedure gets `enforce !F(false)` (C2BP §5.1).
//!
//! `F` is computed by strengthening (`strengthen`) with either the cube lattice or the exact strategy.
//! Every emitted boolean statement carries the [`boolprog::Origin`] of its C statement.
//!
//! Notes on the semantics:
//! - the decision procedure is bit-precise (`solver`), so results can be weaker than the
//!   papers' (which assume unbounded integers): `x = x + 1` under `{x<5},{x==2}` gives
//!   `{x<5} := choose({x==2}, 0)`, since `x = INT_MAX` wraps;
//! - both strategies compute the same function on valuations consistent with the predicates;
//!   they may differ on inconsistent ones, which `enforce` excludes (C2BP §5.1 relies on the
//!   same invariant for its optimisations);
//! - the exact strategy uses inconsistent valuations as don't-cares when minimising, runs each
//!   enumeration in a fresh solver context, and enumerates the goals of one statement that have
//!   the same cone together (each result is projected back, so it equals the separate one);
//!   results are reused for a repeated (goal, cone, assumption), and for its negation with the
//!   sides swapped (`assume(c)` / `assume(!c)` of one branch);
//! - results (of both strategies, and `enforce` components) live in an [`AbstractionCache`]
//!   keyed by the goal, the assumption and the cone's interpretations; passed to
//!   [`abstract_program_cached`] it persists across CEGAR iterations, so predicates outside a
//!   statement's cone leave its strengthenings reusable;
//! - formulas that use pointers only by equality, dereference and field access are decided at a
//!   small-model pointer width (see `width`): same answers, far cheaper SAT calls;
//! - `E_f` follows C2BP §4.5.2 (no locals, no symbolic constants; the entry procedure has no
//!   formal predicates); `E_r` is the union of C2BP's and the polymorphic paper's definitions,
//!   keeping formals only when the procedure never modifies them (C2BP's footnote 4);
//! - `E_u` uses a transitive mod-analysis of the callee (globals written, writes through
//!   pointers, bodiless callees) with `orig` replacing possibly-changed locations by fresh
//!   symbols `x_o` (polymorphic §4.4.3, §5.4; `orig(&l) = &l`); global predicates are updated
//!   after a call too when the returned value is assigned to what they mention;
//! - `'*f` (the value of `*f` at entry, polymorphic §5.3) gets the binding predicate
//!   `*'f == '*f`, made true by abstracting the entry statement `'f = f` as `'f, '*f := f, *f`;
//!   at a call `γ('*f) = orig(*a)` for the actual `a`.

mod cache;
mod command;
mod minimise;
mod morris;
mod oracle;
mod strengthen;
mod translate;
mod width;

// The entry points.
pub use translate::{abstract_program, abstract_program_cached, dnf_expr};
// Strengthenings reused across CEGAR iterations.
pub use cache::{AbstractionCache, CacheStatistics};
// What the explain views show: strengthening records (cube lattices, all-SAT runs) and the
// alias cases of Morris' weakest preconditions.
pub use strengthen::{
    CubeOutcome, Cube, Dnf, EnumeratedValuation, ExactRecord, Literal, QueryRecord, StrengthenCounters, Verdict, VisitedCube,
};
pub use morris::{AliasCase, AliasCaseKind, WpRecord};
// `predabs abstract` and `predabs mc --engine pds` (and the front-end and solver types their
// inputs need).
pub use command::{model_check_pds, query_invariant, run_abstract, run_queries, AbstractCommand, InvariantQuery, QueryVerdict, CommandOutput, DataModel, IntegerSemantics, LowerOptions, Syntax};

use c_ir::{Expr, ProcId, StmtRef};

/// How `F_V(ψ)` is computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// Cube enumeration by increasing length with pruning (BOOP §4.4.1, C2BP §5.2).
    Lattice,
    /// All-SAT enumeration of predicate valuations, then BDD minimisation to prime implicants.
    Exact,
}

impl Strategy {
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Lattice => "lattice",
            Strategy::Exact => "exact",
        }
    }
    pub fn from_name(name: &str) -> Option<Strategy> {
        match name {
            "lattice" => Some(Strategy::Lattice),
            "exact" | "exact-fast" => Some(Strategy::Exact),
            _ => None,
        }
    }
}

/// The default [`AbstractionConfig::enumeration_conflicts`].
pub const ENUMERATION_CONFLICTS: u64 = 20_000;

/// Everything [`abstract_program`] can be told.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AbstractionConfig {
    pub strategy: Strategy,
    /// Maximum cube length `k` of the lattice strategy (`None`: unbounded, the precise result).
    pub max_cube_length: Option<usize>,
    /// Record every visited cube / enumerated valuation per (statement, predicate).
    pub record_lattices: bool,
    /// The decision procedure's settings (bit widths, back end, cache).
    pub solver: solver::SolverConfig,
    /// Emit `enforce !F(false)` per procedure (C2BP §5.1).
    pub enforce: bool,
    /// Use the points-to analysis for aliasing (otherwise type-based aliasing).
    pub points_to: bool,
    /// Maximum number of valuations one exact strengthening may enumerate before giving up
    /// (it then falls back to the lattice over short cubes).
    pub enumeration_limit: usize,
    /// SAT conflicts one exact enumeration (and one lattice query) may spend before giving up
    /// (`None`: no limit). An enumeration cut short falls back to the lattice over short cubes;
    /// a query cut short counts as "not implied". Deterministic, unlike the time budget.
    pub enumeration_conflicts: Option<u64>,
    /// Bound on a strengthening's cone of influence (see [`logic::bounded_cone_of_influence`]):
    /// further layers are dropped once the cone would exceed this many predicates. Sound;
    /// `None` = the full cone of formula 4.10.
    pub max_cone: Option<usize>,
    /// Stop asking the decision procedure after this many milliseconds: the remaining
    /// strengthenings are `F = false` (sound, imprecise) and `budget_exhausted` is reported.
    pub time_budget_ms: Option<u64>,
    /// Compute `F` on atomic formulas only (C2BP §5.2): `F(φ₁ ∧ φ₂) = F(φ₁) ∧ F(φ₂)` (no loss)
    /// and `F(φ₁ ∨ φ₂) = F(φ₁) ∨ F(φ₂)` (may lose precision); `!`, `=>` are pushed inwards.
    pub distribute_f: bool,
    /// How an assignment's updated predicates are abstracted together (C2BP §4.6).
    pub precision: Precision,
    /// The names the recorded explanations ([`LatticeRecord::goal`], the solver queries,
    /// [`WpRecord`], [`CallAbstraction`]'s texts) print program variables with, by `VarId`
    /// (`None`: the program's own), e.g. the source's names of a lowered program. Only the
    /// records read them: boolean variables keep their names and nothing else changes.
    pub record_names: Option<Vec<String>>,
    /// Cubes no state satisfies, learned by the CEGAR loop from spurious counterexamples:
    /// `enforce` excludes each in every procedure that sees all its predicates.
    pub learned_inconsistencies: Vec<LearnedInconsistency>,
}

/// A cube of predicates that no state satisfies, learned from a spurious counterexample that
/// passed through it: the lazy complement of C2BP §5.1's `enforce`, whose search for
/// inconsistent cubes is cut short on large components (pairs only, or an enumeration that gave
/// up). Excluding it is sound because the solver proved the conjunction unsatisfiable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LearnedInconsistency {
    /// `(scope, predicate, value)`: the cube is the conjunction of each predicate (or its
    /// negation, for `false`).
    pub literals: Vec<(PredicateScope, c_ir::Expr, bool)>,
}

/// The abstraction of one assignment (C2BP §4.6: C2BP computes the *cartesian* abstraction,
/// each updated predicate on its own; the *boolean* abstraction keeps their correlations).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Precision {
    /// `{p₁}, …, {pₖ} := choose(F(WP(s,p₁)), F(WP(s,¬p₁))), …` (C2BP §4.3).
    #[default]
    Cartesian,
    /// All valuations of the cone and of the new values at once (one all-SAT enumeration): for
    /// each possible vector `w` of new values, the old valuations `D_w` that allow it, emitted
    /// as `if (*) { assume(D_w); {p₁}, …, {pₖ} := w; } else …`. Falls back to the cartesian
    /// abstraction past 16 distinct vectors or when the enumeration is cut short.
    Boolean,
}

impl AbstractionConfig {
    /// C semantics, no cube or cone bound, no recording, `enforce` and points-to on.
    pub fn new(strategy: Strategy) -> AbstractionConfig {
        AbstractionConfig {
            strategy,
            max_cube_length: None,
            record_lattices: false,
            solver: solver::SolverConfig::c_semantics(),
            enforce: true,
            points_to: true,
            enumeration_limit: 1 << 14,
            enumeration_conflicts: Some(ENUMERATION_CONFLICTS),
            max_cone: None,
            time_budget_ms: None,
            distribute_f: false,
            precision: Precision::Cartesian,
            record_names: None,
            learned_inconsistencies: Vec::new(),
        }
    }
}

/// Where a predicate's boolean variable lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PredicateScope {
    Global,
    Procedure(ProcId),
}

/// One boolean variable of the abstraction and the predicate it stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BooleanVariable {
    /// `{` + the predicate in C syntax + `}`.
    pub name: String,
    pub scope: PredicateScope,
    pub predicate: Expr,
    /// The predicate in C syntax.
    pub text: String,
    /// A formal b-parameter of its procedure (member of `E_f`).
    pub is_formal: bool,
    /// Returned by its procedure (member of `E_r`).
    pub is_returned: bool,
    /// Added automatically as the binding predicate `f == 'f` of a symbolic constant.
    pub is_binding: bool,
}

/// A procedure's interface in the boolean program (C2BP §4.5.2, polymorphic §4.4.1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    pub proc: ProcId,
    /// Indices into [`Abstraction::variables`] of the formal parameter predicates `E_f`, in order.
    pub formal_predicates: Vec<usize>,
    /// Indices of the return predicates `E_r`, in the order of the returned values.
    pub return_predicates: Vec<usize>,
    /// The variables standing for the returned value `r` (the returned variable, and the
    /// variable copied into it right before the return), empty for `void`.
    pub return_vars: Vec<c_ir::VarId>,
    /// Whether the procedure has a body (calls to bodiless procedures havoc their effects).
    pub has_body: bool,
}

/// How one call was abstracted (the WP view's call details, C2BP §4.5.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallAbstraction {
    pub at: StmtRef,
    /// `prm` variable and the callee's formal predicate translated to the call site (`e'`).
    pub parameters: Vec<(String, String)>,
    /// `ret` variable and its interpretation `γ(e_i)` after the call.
    pub returns: Vec<(String, String)>,
    /// The caller's predicates updated after the call (`E_u`).
    pub updated: Vec<String>,
}

/// Counters of a whole abstraction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Statistics {
    /// Queries that reached the decision procedure (lattice: implications; exact: SAT calls).
    pub prover_calls: u64,
    /// Queries answered by the solver's cache.
    pub cache_hits: u64,
    /// Cubes visited (lattice) or valuations enumerated (exact).
    pub cubes_visited: u64,
    /// Strengthenings computed (one per statement and affected predicate).
    pub strengthenings: u64,
    /// Strengthenings answered syntactically (`φ ∈ E`, constants).
    pub shortcuts: u64,
    /// Exact enumerations cut short by [`AbstractionConfig::enumeration_conflicts`] or
    /// [`AbstractionConfig::enumeration_limit`], answered by the lattice over short cubes.
    pub fallbacks: u64,
    /// C statements abstracted.
    pub statements: u64,
    /// Wall-clock time in microseconds.
    pub micros: u64,
}

/// The record of one strengthening, for the lattice view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LatticeRecord {
    /// The C statement.
    pub at: StmtRef,
    /// What is being computed: the updated boolean variable (`{p}`), `prm1`, `assume`, `enforce`.
    pub target: String,
    /// `ψ` in C syntax (e.g. `WP(s, p)`).
    pub goal: String,
    pub strategy: Strategy,
    /// Names of the cube variables (the predicates in scope, `ret` temporaries after calls).
    pub variables: Vec<String>,
    /// Indices into `variables` in the cone of influence of `ψ`.
    pub cone: Vec<u32>,
    /// The cone's first layer (C2BP §5.2): the predicates of `cone` that share a symbol with
    /// `ψ` itself, before the closure adds those related to `ψ` only through other predicates.
    pub near_cone: Vec<u32>,
    /// Indices outside the cone (never part of a cube).
    pub outside_cone: Vec<u32>,
    /// `F(ψ)` and `F(¬ψ)` as printed boolean expressions.
    pub goal_result: String,
    pub negated_goal_result: String,
    /// `F(ψ)` and `F(¬ψ)` over indices into `variables`.
    pub goal_formula: Dnf,
    pub negated_goal_formula: Dnf,
    /// Answered syntactically (no cube was visited).
    pub shortcut: bool,
    /// The lattice strategy's cubes in BFS order.
    pub lattice: Vec<VisitedCube>,
    /// The exact strategy's valuations and prime implicants.
    pub exact: Option<ExactRecord>,
    pub counters: StrengthenCounters,
    /// For an assignment's predicate: its weakest precondition with Morris' alias cases.
    pub wp: Option<WpRecord>,
}

/// The result of [`abstract_program`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Abstraction {
    pub program: boolprog::Program,
    pub variables: Vec<BooleanVariable>,
    pub signatures: Vec<Signature>,
    pub calls: Vec<CallAbstraction>,
    pub statistics: Statistics,
    /// Filled when [`AbstractionConfig::record_lattices`] is on.
    pub lattices: Vec<LatticeRecord>,
}

impl Abstraction {
    /// The boolean variable standing for `predicate` in `scope`, if any.
    pub fn variable_of(&self, scope: PredicateScope, predicate: &Expr) -> Option<&BooleanVariable> {
        self.variables.iter().find(|v| v.scope == scope && &v.predicate == predicate)
    }
    /// The variables visible in `proc`: globals, then the procedure's own.
    pub fn variables_in_scope(&self, proc: ProcId) -> Vec<&BooleanVariable> {
        let globals = self.variables.iter().filter(|v| v.scope == PredicateScope::Global);
        let locals = self.variables.iter().filter(move |v| v.scope == PredicateScope::Procedure(proc));
        globals.chain(locals).collect()
    }
    /// The boolean program in Bebop syntax.
    pub fn print_bebop(&self) -> String {
        boolprog::print_bebop(&self.program).text
    }
}
