//! BEBOP-style interprocedural reachability for boolean programs with BDDs: verdict, invariants per statement, abstract counterexamples.
//!
//! Entry point: [`check`]. The algorithm (C2BP §2.2, BOOP ch. 6, Reps–Horwitz–Sagiv with BDDs):
//! every procedure becomes a CFG ([`cfg`]); at each node the set of *path edges* is a BDD over
//! (valuation at procedure entry, current valuation) of the globals and the procedure's locals;
//! a procedure's *summary* relates entry valuations of globals and formals to exit globals and
//! returned values, and is reused at every call site (recursion included). `assume` filters,
//! `assert` that can fail is the target, `enforce` is conjoined after every step except a
//! call (at the return point the caller's predicates that the call changes are stale until
//! the update assignment right after it, C2BP §4.5.3), `*` and `choose` are three-valued
//! (each occurrence independent).

use boolprog::{Origin, ProcId, Program, StmtId};
use diagnostics::Diagnostic;

pub mod cfg;
pub mod explicit;
pub mod pds;
mod symbolic;

/// Options of one model-checking run. `Config::default()` documents the defaults.
#[derive(Clone, Debug)]
pub struct Config {
    /// Give up (UNKNOWN) when a path-edge or summary BDD grows beyond this many nodes.
    pub max_bdd_nodes: usize,
    /// Give up (UNKNOWN) after this many milliseconds (a safety limit: not deterministic).
    pub time_budget_ms: Option<u64>,
    /// The work budget: each worklist step and the BDD nodes of new path edges and summaries
    /// are charged to it (`budget::cost`); once it is exhausted the run is UNKNOWN with the
    /// meter's reason. The path-edge BDDs' sizes are reported as the memory estimate.
    pub meter: budget::Meter,
    /// Compute the invariant at every statement when the program is safe.
    pub compute_invariants: bool,
    /// When set, invariants only at the statements translated from these C statements (printing
    /// reachable states as formulas is the costly part for programs with many predicates).
    pub invariant_origins: Option<Vec<Origin>>,
    /// Compute an abstract counterexample when an assertion can fail.
    pub compute_trace: bool,
    /// Reaching a statement with one of these labels counts as an error too (e.g. `ERROR`).
    pub error_labels: Vec<String>,
    /// The procedure where execution starts (default: `main`, else the first one).
    pub entry: Option<String>,
    /// Quantify dead locals (assigned before being read again, or never read, `enforce`
    /// counting as a read: [`cfg::dead_locals`]) out of the reachable states: the verdict and
    /// the live part of every reachable set are the same and the states stay small (the
    /// temporaries of calls correlate with everything), but invariants and trace valuations
    /// then say nothing about dead variables. Off by default: invariants are the exact
    /// reachable states.
    pub eliminate_dead_variables: bool,
    /// What a shortest (breadth-first) counterexample may cost.
    pub shortest_trace: ShortestTrace,
}

/// When the ranked search finds an error, a breadth-first search looks for a shortest
/// counterexample within `factor` times the ranked search's work (at least `floor` units);
/// beyond that the ranked search's counterexample is reported ([`TraceSearch`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShortestTrace {
    pub factor: u64,
    pub floor: u64,
}

impl Default for ShortestTrace {
    /// 4 times the ranked search, at least 200,000 units.
    fn default() -> ShortestTrace {
        ShortestTrace { factor: 4, floor: 200_000 }
    }
}

impl Default for Config {
    /// 2 million nodes, no time limit, invariants and traces on, no error labels, entry `main`,
    /// dead variables kept.
    fn default() -> Config {
        Config {
            max_bdd_nodes: 2_000_000,
            time_budget_ms: None,
            meter: budget::Meter::default(),
            compute_invariants: true,
            invariant_origins: None,
            compute_trace: true,
            error_labels: Vec::new(),
            entry: None,
            eliminate_dead_variables: false,
            shortest_trace: ShortestTrace::default(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Some `assert` can fail (or an error label is reachable).
    ErrorReachable,
    Safe,
    /// Budget exhausted, cancelled, or invalid input; the reason says which.
    Unknown(String),
}

/// What happened in one step of an abstract counterexample.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// `skip` or an assignment.
    Normal,
    /// An `assume` whose condition held.
    Assume,
    /// An `assert` whose condition held.
    AssertPassed,
    /// A `goto` to the statement of the next step.
    Goto,
    /// The `then` branch of an `if` was taken (its condition could be true).
    BranchThen,
    /// The `else` branch of an `if` was taken (its condition could be false).
    BranchElse,
    /// A `while` condition held: the body is entered.
    LoopEnter,
    /// A `while` condition failed: the loop is left.
    LoopExit,
    /// A call: the next steps run in `callee`; the valuation is the callee's at entry.
    Call { callee: ProcId },
    /// A `return` (or the end of the body, `stmt == None`) back to `call_stmt` in `caller`;
    /// the valuation is the caller's after the returned values are assigned.
    Return { caller: ProcId, call_stmt: StmtId },
    /// The last step: this `assert` fails in the current valuation.
    AssertFailed,
    /// The last step: a statement with an error label is reached.
    ErrorLabel,
}

/// One executed statement of a counterexample.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceStep {
    pub proc: ProcId,
    /// `None` only for the implicit return at the end of a body.
    pub stmt: Option<StmtId>,
    pub origin: Option<Origin>,
    pub kind: StepKind,
    /// The procedure whose variables `valuation` lists (differs from `proc` for calls/returns).
    pub scope: ProcId,
    /// The variables in scope after the step: globals (unless shadowed), then formals and
    /// locals, except the locals dead there with [`Config::eliminate_dead_variables`].
    pub valuation: Vec<(String, bool)>,
}

/// An abstract counterexample from the entry procedure's first statement to the failing assert.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// How the counterexample was found.
    pub search: TraceSearch,
    pub entry: ProcId,
    /// Valuation of the entry procedure's scope before the first step.
    pub initial: Vec<(String, bool)>,
    pub steps: Vec<TraceStep>,
}

/// The search that found a counterexample.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TraceSearch {
    /// Breadth-first (first come, first served): a shortest counterexample.
    #[default]
    BreadthFirst,
    /// The ranked worklist's (callees first, reverse postorder): a breadth-first search would
    /// have cost more than [`ShortestTrace::factor`] times that search.
    Ranked,
}

/// A literal of an invariant cube.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Literal {
    pub var: String,
    pub value: bool,
}

/// The reachable states before one statement, over the variables in scope.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invariant {
    pub proc: ProcId,
    pub stmt: StmtId,
    pub label: Option<String>,
    pub origin: Option<Origin>,
    /// Disjunction of conjunctions; empty = unreachable (false); one empty cube = true.
    pub cubes: Vec<Vec<Literal>>,
    /// The same set as a conjunction of clauses, when that is shorter than `cubes` (it is then
    /// what `text` shows).
    pub clauses: Option<Vec<Vec<Literal>>>,
    /// Readable form: literals common to all cubes factored out, `&&`, `||`, `!` (or the
    /// clauses joined by `&&`).
    pub text: String,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Statistics {
    /// Worklist steps.
    pub iterations: u64,
    /// Largest path-edge or summary BDD seen (nodes).
    pub peak_bdd_nodes: usize,
    pub bdd_variables: usize,
    pub time_ms: f64,
}

#[derive(Clone, Debug)]
pub struct Outcome {
    pub verdict: Verdict,
    /// When safe and `compute_invariants`: one per statement, in program order.
    pub invariants: Vec<Invariant>,
    /// When an error is reachable and `compute_trace`.
    pub trace: Option<Trace>,
    /// When an error is reachable and `compute_trace` but no trace was built: why (the time
    /// budget ran out, the run was cancelled). Also reported as a warning diagnostic.
    pub trace_error: Option<String>,
    pub statistics: Statistics,
    /// Validation problems of the input.
    pub diagnostics: Vec<Diagnostic>,
}

impl Outcome {
    /// The invariant before the statement labelled `label` in procedure `proc`.
    pub fn invariant_at_label(&self, program: &Program, proc: &str, label: &str) -> Option<&Invariant> {
        let (pid, _) = program.proc_by_name(proc)?;
        self.invariants.iter().find(|i| i.proc == pid && i.label.as_deref() == Some(label))
    }
}

/// Model-checks `program` (see the crate docs).
pub fn check(program: &Program, config: &Config) -> Outcome {
    check_with_cancel(program, config, &|| false)
}

/// Like [`check`], polling `cancelled` between steps; a cancelled run is UNKNOWN.
pub fn check_with_cancel(program: &Program, config: &Config, cancelled: &dyn Fn() -> bool) -> Outcome {
    symbolic::run(program, config, cancelled)
}

/// Renders a valuation as `a=1 {x<5}=0 ...`.
pub fn format_valuation(valuation: &[(String, bool)]) -> String {
    valuation.iter().map(|(n, v)| format!("{n}={}", u8::from(*v))).collect::<Vec<_>>().join(" ")
}

/// Renders a trace one step a line: `proc:stmt kind  valuation`.
pub fn format_trace(program: &Program, trace: &Trace) -> String {
    let mut out = format!("init {}: {}\n", program.proc(trace.entry).name, format_valuation(&trace.initial));
    for step in &trace.steps {
        let proc = &program.proc(step.proc).name;
        let stmt = match step.stmt {
            Some(s) => {
                let st = boolprog::statements_in_order(&program.proc(step.proc).body)[s.0 as usize];
                let printed = boolprog::print_bebop(&Program {
                    globals: Vec::new(),
                    procs: vec![boolprog::Procedure {
                        body: vec![strip_children(st)],
                        ..boolprog::Procedure::new("p")
                    }],
                });
                printed.text.lines().nth(2).unwrap_or("").trim().to_string()
            }
            None => "end".to_string(),
        };
        let kind = match step.kind {
            StepKind::Call { callee } => format!("call {}", program.proc(callee).name),
            StepKind::Return { caller, .. } => format!("return to {}", program.proc(caller).name),
            k => format!("{k:?}"),
        };
        out.push_str(&format!("{proc}#{}: {stmt}  [{kind}]  {}\n", step.stmt.map(|s| s.0 as i64).unwrap_or(-1), format_valuation(&step.valuation)));
    }
    out
}

fn strip_children(stmt: &boolprog::Stmt) -> boolprog::Stmt {
    let mut s = stmt.clone();
    match &mut s.kind {
        boolprog::StmtKind::If { then_branch, else_branch, .. } => {
            then_branch.clear();
            else_branch.clear();
        }
        boolprog::StmtKind::While { body, .. } => body.clear(),
        _ => {}
    }
    s
}
