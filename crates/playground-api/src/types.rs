//! Plain serializable data exchanged between the engine and its front ends (web worker, CLI `--json`).

use serde::{Deserialize, Serialize};

/// What the user asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// The CEGAR loop on a C program.
    #[default]
    Check,
    /// C + user predicates → boolean program → invariants, no refinement.
    Abstract,
    /// Model check a boolean program written by hand.
    BooleanProgram,
    /// abC variable hiding (seed 003): runs through [`crate::hide::hide`], not [`crate::run`].
    Hide,
    /// Shape analysis by iterated WP (seed 004): runs through [`crate::shape::shape`].
    Shape,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Strategy {
    Lattice,
    #[default]
    Exact,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum RefineMethod {
    #[default]
    Wp,
    Sp,
}

/// Integer semantics of the solver queries (issue 30): signed overflow wraps (bit-precise), or
/// is impossible (the papers' integers, sound for programs without undefined behaviour).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Integers {
    #[default]
    Wrap,
    Ideal,
}

/// C2BP's cartesian abstraction of a statement (each predicate on its own) or the boolean one
/// (all valuations of the cone at once, C2BP §4.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Precision {
    #[default]
    Cartesian,
    Boolean,
}

/// How Abstract mode prints the boolean program: Bebop syntax (BOOP Fig 4.2) or C2BP's
/// C-like form (C2BP Fig 1(b)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Syntax {
    #[default]
    Bebop,
    C2bp,
}

/// A technique of the Check mode's portfolio (`verify::Technique`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Technique {
    Cegar,
    Candidates,
    Zones,
    HeapValues,
    Bmc,
    SingleExecution,
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
}

/// User-visible settings. Every field is explicit; `Options::default()` is what the UI and CLI show.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Options {
    /// Integer width override for the decision procedure (0 = C's own widths).
    pub int_width: u8,
    pub strategy: Strategy,
    /// Maximum cube length for the lattice strategy (0 = unbounded).
    pub max_cube: u32,
    /// Check mode: first bound on a strengthening's cone of influence, doubled when a
    /// refinement finds nothing new (0 = always the full cone).
    pub max_cone: u32,
    pub refine: RefineMethod,
    pub max_iterations: u32,
    /// This machine's safety time limit: a run it ends is UNKNOWN and says that results may
    /// differ elsewhere.
    pub timeout_ms: u64,
    /// Check mode: the work budget in units (`budget::cost`), the same on every machine, so a
    /// share link reproduces the run; 0 = unlimited.
    pub budget: u64,
    /// Record cube lattices and solver queries (explain views); slower.
    pub record_explanations: bool,
    /// C data model: "LP64" (long and pointers 64 bits) or "ILP32".
    pub data_model: String,
    /// Boolean programs: labels whose reachability is an error, besides `ERROR` and `SLIC_ERROR`
    /// (Moped and Getafix ask whether a named label is reachable).
    pub error_labels: Vec<String>,
    /// Boolean programs: quantify dead locals out of the reachable states (faster; the
    /// invariants and trace valuations then leave dead variables out).
    pub eliminate_dead_variables: bool,
    /// Check mode: the techniques of the portfolio (`[cegar]` is the textbook loop alone).
    pub techniques: Vec<Technique>,
    /// C programs: the procedure where execution starts (`main`; another one is analysed in an
    /// open environment, polymorphic predicate abstraction §2).
    pub entry: String,
    /// C programs: a label whose reaching is the error (BOOP's convention); empty = none.
    pub error_label: String,
    pub integers: Integers,
    /// Emit `enforce` (C2BP §5.1).
    pub enforce: bool,
    /// Aliasing from the points-to analysis (true) or from types alone.
    pub points_to: bool,
    /// F on atomic predicates, distributed over && and || (C2BP §5.2).
    pub distribute_f: bool,
    pub precision: Precision,
    /// Abstract mode: how the boolean program is printed.
    pub syntax: Syntax,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            int_width: 0,
            strategy: Strategy::Exact,
            max_cube: 0,
            max_cone: 8,
            refine: RefineMethod::Wp,
            max_iterations: 100,
            timeout_ms: 60_000,
            budget: verify::DEFAULT_WORK_BUDGET,
            record_explanations: true,
            data_model: "LP64".to_string(),
            error_labels: Vec::new(),
            eliminate_dead_variables: false,
            techniques: Technique::ALL.to_vec(),
            entry: "main".to_string(),
            error_label: String::new(),
            integers: Integers::Wrap,
            enforce: true,
            points_to: true,
            distribute_f: false,
            precision: Precision::Cartesian,
            syntax: Syntax::Bebop,
        }
    }
}

/// One run request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct Request {
    pub mode: Mode,
    /// C source (Check, Abstract) or boolean program (BooleanProgram).
    pub source: String,
    pub file_name: String,
    /// Predicates in C2BP's `proc { p1, p2 }` syntax (Abstract; initial predicates for Check).
    pub predicates: String,
    pub options: Options,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Error,
    Warning,
    Note,
}

/// A diagnostic with resolved positions (1-based lines and columns).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiagnosticData {
    pub severity: Severity,
    pub message: String,
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
    pub help: Option<String>,
    /// Which text it is about: "source" or "predicates".
    pub origin: String,
    /// `file:line:col: error: message` with the source line and a caret.
    pub rendered: String,
}

/// A printed boolean program with, per printed line, the C source line it came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct BooleanProgramText {
    pub text: String,
    /// `c_lines[i]` is the 1-based C line of boolean line `i + 1`, if any.
    pub c_lines: Vec<Option<u32>>,
}

/// One step of an abstract (boolean program) counterexample.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AbstractStep {
    pub procedure: String,
    /// 1-based line in the boolean program text.
    pub bp_line: Option<u32>,
    /// 1-based C line of the statement it came from.
    pub c_line: Option<u32>,
    pub statement: String,
    pub kind: String,
    /// Boolean variables in scope after the step (predicates over the C source's names).
    pub valuation: Vec<(String, bool)>,
}

/// One row of a feasibility table (BOOP Fig 7.3 for wp, NEWTON's table for sp).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FeasibilityRow {
    /// 1-based step of the expanded path (what "infeasible at path step N" names).
    #[serde(default)]
    pub step: u32,
    pub c_line: Option<u32>,
    pub statement: String,
    /// Condition(s) at this point: WP threads, or SP's Ω/Φ/Π columns.
    pub columns: Vec<(String, String)>,
    pub contradiction: bool,
    /// The atoms of the conditions (WP threads, SP's Φ; not the values Ω and Π), each printed
    /// from the typed expression as `columns` prints it (`x >> 2 > y`), without duplicates: what
    /// "which predicates will refinement add?" offers, shown verbatim. Empty when the path could
    /// not be expanded again (the columns are then the refinement's own text).
    #[serde(default)]
    pub atoms: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
pub struct Statistics {
    /// Number of predicates (at the end of the run; in an iteration, at its start).
    pub predicates: u64,
    pub solver_queries: u64,
    pub solver_cache_hits: u64,
    pub sat_calls: u64,
    pub cubes_visited: u64,
    pub bdd_peak_nodes: u64,
    pub abstraction_ms: f64,
    pub model_check_ms: f64,
    pub refine_ms: f64,
    /// Work units charged (Check mode): by the whole run, or in an iteration by its three phases.
    #[serde(default)]
    pub work_units: u64,
}

/// Where a predicate comes from (`cegar::PredicateOrigin`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PredicateOrigin {
    ErrorGuard,
    BranchCondition,
    User,
    /// Found by refinement in `iteration`, from the condition at 1-based path step `step`.
    Refinement { iteration: u32, step: u32, c_line: Option<u32> },
    /// A loop-invariant candidate of an analysis, added after `iteration`'s refinement.
    Candidate { iteration: u32, analysis: String },
}

/// A predicate with its scope (`global` or a procedure's name) and origin.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PredicateData {
    pub scope: String,
    /// The predicate as the predicates pane reads it (the lowered program's names).
    pub text: String,
    pub origin: PredicateOrigin,
    /// The predicate over the source's names (`main::i >= 2` for `i_main >= 2`), as the trace
    /// and the explanations print it; empty in data from before it was recorded.
    #[serde(default)]
    pub shown: String,
}

/// How the model checker found an iteration's abstract counterexample
/// (`model_check::TraceSearch`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum CounterexampleSearch {
    /// No counterexample (the boolean program was safe, or the loop stopped before).
    #[default]
    None,
    /// Breadth-first: a shortest counterexample.
    BreadthFirst,
    /// The ranked worklist's (callees first, reverse postorder): a breadth-first search
    /// would have cost more than `model_check::ShortestTrace::factor` times that search.
    Ranked,
}

impl CounterexampleSearch {
    /// A short phrase for views: which counterexample the model checker reports.
    pub fn describe(self) -> String {
        match self {
            CounterexampleSearch::None => String::new(),
            CounterexampleSearch::BreadthFirst => "a shortest one (breadth-first search)".into(),
            CounterexampleSearch::Ranked => format!(
                "the first one found (a breadth-first search for a shortest one would have cost more than {} times as much)",
                model_check::ShortestTrace::default().factor
            ),
        }
    }
}

/// The feasibility check of an iteration's abstract counterexample.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum FeasibilityKind {
    /// No check: the boolean program was safe, or the loop stopped before.
    #[default]
    None,
    Feasible,
    Infeasible,
    Unknown,
}

/// Everything the UI shows about one CEGAR iteration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
pub struct IterationSnapshot {
    /// 1-based.
    pub index: u32,
    pub predicates: String,
    pub boolean_program: BooleanProgramText,
    pub abstract_trace: Vec<AbstractStep>,
    /// "feasible", "infeasible", or empty when the abstraction was safe.
    pub feasibility: String,
    pub feasibility_method: String,
    #[serde(default)]
    pub feasibility_kind: FeasibilityKind,
    /// How the model checker found the abstract counterexample.
    #[serde(default)]
    pub counterexample_search: CounterexampleSearch,
    /// For an infeasible path: the 1-based step (table row `step`) where it became infeasible.
    #[serde(default)]
    pub infeasible_step: Option<u32>,
    pub feasibility_table: Vec<FeasibilityRow>,
    pub new_predicates: Vec<String>,
    /// The predicates added by this iteration, with their origins (`new_predicates` as data).
    #[serde(default)]
    pub added_predicates: Vec<PredicateData>,
    /// Cubes no C state satisfies, learned from this iteration's counterexample when it gave no
    /// new predicate (`enforce` excludes them from the next iteration on), over the source's
    /// names: `!({x + y > 10} && {x >= 0} && …)`.
    #[serde(default)]
    pub learned: Vec<String>,
    /// What the loop did besides adding predicates (cubes learned, the cone bound widened,
    /// loop-invariant candidates added), one sentence each.
    #[serde(default)]
    pub notes: Vec<String>,
    pub statistics: Statistics,
    pub explanation: Option<crate::explain::ExplanationData>,
    /// Boolean program mode: the program as a pushdown system and its post* (BOOP ch. 6).
    #[serde(default)]
    pub pushdown: Option<PushdownView>,
    /// The symbolic constants the trace and feasibility table name, explained.
    #[serde(default)]
    pub symbolic_constants: Vec<SymbolicConstant>,
    /// The boolean variables whose predicate reads differently over the source's names: the
    /// name in the boolean program (`{n_main == 0}`) and the source's (`{main::n == 0}`). The
    /// boolean program pane keeps its text exact and shows these beside it.
    #[serde(default)]
    pub predicate_names: Vec<(String, String)>,
}

/// A boolean program as a pushdown system (BOOP Fig 6.1) and the saturated automaton.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct PushdownView {
    /// The control locations, stack symbols, rules and error configurations, one a line.
    pub rules: String,
    /// Per program point (stack symbol's first component), after post* saturation.
    pub points: Vec<PushdownPoint>,
    /// Why the view is empty or incomplete (too many rules, budget); empty otherwise.
    pub note: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct PushdownPoint {
    /// `main_3`, `main_end`, `main_3r` (the return location of the call at `main_3`).
    pub name: String,
    pub procedure: String,
    /// The boolean program's line of the point's statement.
    pub line: Option<u32>,
    /// The reachable heads `⟨g, (n, l)⟩` as a DNF over the variables in scope (`false`: none).
    pub heads: String,
}

/// A step of a concrete C counterexample.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConcreteStep {
    pub line: u32,
    pub procedure: String,
    /// The executed statement of the lowered program, over the source's names.
    pub statement: String,
    /// Values before the step, over the source's names; a pointer as what it points to
    /// (`&x`, `&heap cell 1`, `NULL`).
    pub values: Vec<(String, String)>,
    /// The C source line of the statement, trimmed (empty for steps the interpreter adds,
    /// such as skipped loop iterations).
    #[serde(default)]
    pub c_source: String,
}

/// An input of a concrete run with what read it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputData {
    pub value: String,
    /// The C call that read it (`__VERIFIER_nondet_int()`) or `parameter argc of main`.
    pub source: String,
    pub line: u32,
    pub column: u32,
}

impl InputData {
    /// `__VERIFIER_nondet_int() at line 12 = 5`.
    pub fn describe(&self) -> String {
        format!("{} at line {} = {}", self.source, self.line, self.value)
    }
}

/// A symbolic constant named in a trace, with what it stands for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SymbolicConstant {
    /// `'inode`
    pub name: String,
    pub meaning: String,
}

/// Undefined behaviour the interpreter met on a run the solver found feasible.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuntimeErrorData {
    /// `array index 10 out of bounds`
    pub message: String,
    pub line: u32,
    pub column: u32,
    /// The C text of the statement.
    pub c_source: String,
}

/// An invariant at a program point.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InvariantData {
    pub procedure: String,
    pub c_line: Option<u32>,
    pub location: String,
    pub formula: String,
    /// The predicates `formula` mentions as the engine printed them (`{p}` in the formula is
    /// `p`), in the order of the abstraction's variables: what "which of these hold at L?"
    /// offers. Empty where the formula is over no predicates (Boolean program mode, the
    /// verifier's loop invariants).
    #[serde(default)]
    pub predicates: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Verdict {
    Safe,
    Unsafe,
    Unknown,
}

impl Verdict {
    /// SV-COMP's spelling for `unreach-call`.
    pub fn sv_comp(self) -> &'static str {
        match self {
            Verdict::Safe => "true",
            Verdict::Unsafe => "false",
            Verdict::Unknown => "unknown",
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Safe => "SAFE",
            Verdict::Unsafe => "UNSAFE",
            Verdict::Unknown => "UNKNOWN",
        }
    }
}

/// The end of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    pub verdict: Verdict,
    pub sv_comp: String,
    pub reason: String,
    pub diagnostics: Vec<DiagnosticData>,
    pub iterations: Vec<IterationSnapshot>,
    pub final_predicates: String,
    pub invariants: Vec<InvariantData>,
    /// What the invariants are: `boolean_program` (reachable states over the predicates),
    /// `single_execution` (the states of a program's only run), `difference_bounds` (the
    /// zones of the difference-bound analysis) or `heap_values` (the allocation-site value
    /// analysis). Empty in outcomes stored before it existed.
    #[serde(default)]
    pub invariant_source: String,
    pub trace: Vec<ConcreteStep>,
    pub inputs: Vec<String>,
    /// `inputs` with the C call and line that read each one.
    #[serde(default)]
    pub input_sources: Vec<InputData>,
    /// UNKNOWN because a feasible path's run stopped on undefined behaviour: where (`trace`
    /// and `inputs` are then that run).
    #[serde(default)]
    pub runtime_error: Option<RuntimeErrorData>,
    pub statistics: Statistics,
    pub elapsed_ms: f64,
    /// Check mode: the technique whose result is the verdict.
    #[serde(default)]
    pub decided_by: Option<Technique>,
    /// For an UNKNOWN verdict: what to try next.
    #[serde(default)]
    pub next_step: String,
    /// The final predicates with their origins (Check mode).
    #[serde(default)]
    pub predicates: Vec<PredicateData>,
    /// The run was cancelled; the iterations it finished are kept.
    #[serde(default)]
    pub cancelled: bool,
}

/// Streamed while a run progresses.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    Progress { phase: String, iteration: u32, solver_queries: u64 },
    Iteration { snapshot: Box<IterationSnapshot> },
    Done { outcome: Box<Outcome> },
}
