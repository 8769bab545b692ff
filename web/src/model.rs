//! Plain data exchanged between the UI and the engine worker, and shown by the panes.
//!
//! Requests are the UI's own (their options are what share links store); results are
//! `playground-api`'s data types, used as they are. Everything here is serde-serialisable
//! (messages cross the worker boundary as JavaScript values made by `serde-wasm-bindgen`) and free of wasm types, so it is unit-tested
//! natively.
//!
//! Protocol: the UI posts one [`ToWorker`] at a time; the worker answers with a stream of
//! [`FromWorker`] events. A [`ToWorker::Run`] produces zero or more `Progress` and
//! `IterationSnapshot` events and ends with exactly one `Done` or `Error`. Cancelling means
//! terminating the worker and spawning a fresh one (see `bridge.rs`).

use playground_api as api;
use serde::{Deserialize, Serialize};

/// What the user asks the engine to do (the top bar's mode).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum RunKind {
    /// The CEGAR loop: abstract, model check, refine until a verdict.
    #[default]
    Check,
    /// User predicates → boolean program → invariants, no refinement.
    Abstract,
    /// Model check a boolean program written by the user.
    ModelCheck,
    /// abC variable hiding (seed 003).
    Hide,
    /// Shape analysis by iterated weakest preconditions (seed 004).
    Shape,
}

impl RunKind {
    pub const ALL: [RunKind; 5] = [RunKind::Check, RunKind::Abstract, RunKind::ModelCheck, RunKind::Hide, RunKind::Shape];

    pub fn label(self) -> &'static str {
        match self {
            RunKind::Check => "Check",
            RunKind::Abstract => "Abstract",
            RunKind::ModelCheck => "Boolean program",
            RunKind::Hide => "Hide (abC)",
            RunKind::Shape => "Shape",
        }
    }
    pub fn key(self) -> &'static str {
        match self {
            RunKind::Check => "check",
            RunKind::Abstract => "abstract",
            RunKind::ModelCheck => "bp",
            RunKind::Hide => "hide",
            RunKind::Shape => "shape",
        }
    }
    pub fn from_key(key: &str) -> Option<RunKind> {
        RunKind::ALL.into_iter().find(|k| k.key() == key)
    }
}

/// How `F`/`G` strengthening computes the abstraction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Strategy {
    /// The cube-lattice breadth-first search of C2BP.
    Lattice,
    /// All-SAT enumeration then minimisation.
    #[default]
    Exact,
}

/// How refinement decides feasibility of an abstract trace.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Refinement {
    /// Weakest preconditions along the trace.
    #[default]
    Wp,
    /// Strongest postconditions (NEWTON).
    Sp,
}

/// The settings dialog.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Options {
    /// Integer width override for the decision procedure (0 = C's own widths).
    pub int_width: u8,
    pub strategy: Strategy,
    /// Maximum cube length `k` explored by the lattice strategy (0 = unbounded).
    pub max_cube_len: u32,
    pub refinement: Refinement,
    pub max_iterations: u32,
    /// The safety time limit of one run, in milliseconds (this machine's clock: a run it ends
    /// says that results may differ elsewhere).
    pub time_budget_ms: u64,
    /// Check mode: the work budget in units (deterministic: a share link or lab reproduces the
    /// run on any machine); 0 = unlimited. Links made before it existed get the default.
    #[serde(default = "default_work_budget")]
    pub work_budget: u64,
    /// Check mode: the techniques of the portfolio. The playground starts with the textbook
    /// CEGAR loop alone (`[cegar]`); "all" adds the analyses and concrete runs.
    #[serde(default = "textbook_techniques")]
    pub techniques: Vec<api::Technique>,
    /// The seed papers' conventions and C2BP's precision switches (issue 30).
    #[serde(default)]
    pub paper: PaperOptions,
}

/// The papers' conventions (entry procedure, error label, integers, C2BP's printing) and
/// C2BP's precision and efficiency switches, as `playground-api` takes them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PaperOptions {
    pub entry: String,
    pub error_label: String,
    pub integers: api::Integers,
    pub enforce: bool,
    pub points_to: bool,
    pub distribute_f: bool,
    pub precision: api::Precision,
    pub syntax: api::Syntax,
}

impl Default for PaperOptions {
    fn default() -> PaperOptions {
        let api = api::Options::default();
        PaperOptions {
            entry: api.entry,
            error_label: api.error_label,
            integers: api.integers,
            enforce: api.enforce,
            points_to: api.points_to,
            distribute_f: api.distribute_f,
            precision: api.precision,
            syntax: api.syntax,
        }
    }
}

/// How the UI names a technique.
pub fn technique_label(t: api::Technique) -> &'static str {
    match t {
        api::Technique::Cegar => "the CEGAR loop",
        api::Technique::Candidates => "loop-invariant candidates",
        api::Technique::Zones => "difference bounds",
        api::Technique::HeapValues => "heap values",
        api::Technique::Bmc => "bounded model checking",
        api::Technique::SingleExecution => "the single execution",
        api::Technique::RandomRuns => "random concrete runs",
    }
}

/// Where a predicate comes from, for a tag beside it.
pub fn origin_label(origin: &api::PredicateOrigin) -> String {
    match origin {
        api::PredicateOrigin::ErrorGuard => "error guard".into(),
        api::PredicateOrigin::BranchCondition => "branch condition".into(),
        api::PredicateOrigin::User => "yours".into(),
        api::PredicateOrigin::Refinement { step, c_line, .. } => match c_line {
            Some(line) => format!("refinement: path step {step}, line {line}"),
            None => format!("refinement: path step {step}"),
        },
        api::PredicateOrigin::Candidate { analysis, .. } => format!("candidate: {analysis}"),
    }
}

/// The CEGAR loop alone, with refinement's own predicates.
pub fn textbook_techniques() -> Vec<api::Technique> {
    vec![api::Technique::Cegar]
}

/// The engine's default work budget (`playground_api::Options`, the CLI's too).
fn default_work_budget() -> u64 {
    api::Options::default().budget
}

impl Default for Options {
    fn default() -> Options {
        Options {
            int_width: 0,
            strategy: Strategy::Exact,
            max_cube_len: 0,
            refinement: Refinement::Wp,
            max_iterations: 100,
            time_budget_ms: 60_000,
            work_budget: default_work_budget(),
            techniques: textbook_techniques(),
            paper: PaperOptions::default(),
        }
    }
}

/// The largest work budget a link may ask for (0, unlimited, is allowed: the safety time limit
/// still ends the run).
pub const MAX_WORK_BUDGET: u64 = 10_000_000_000;

/// The integer widths the settings offer (0 = C's own widths).
pub const INT_WIDTHS: [u8; 5] = [0, 8, 16, 32, 64];
/// Bounds of the numeric settings (the settings dialog enforces the same).
pub const MAX_CUBE_LEN: u32 = 16;
pub const MAX_ITERATIONS: u32 = 1000;
pub const MAX_TIME_BUDGET_MS: u64 = 3_600_000;

impl Options {
    /// Options from a share link or local storage, with every value the settings dialog could
    /// not have produced replaced by its default, and one message per replaced value.
    pub fn validated(&self) -> (Options, Vec<String>) {
        let default = Options::default();
        let mut o = self.clone();
        let mut notes = Vec::new();
        if !INT_WIDTHS.contains(&o.int_width) {
            notes.push(format!("integer width {} is not one of 8, 16, 32 or 64 bits: using C's own widths", o.int_width));
            o.int_width = default.int_width;
        }
        if o.max_cube_len > MAX_CUBE_LEN {
            notes.push(format!("max cube length {} is above {MAX_CUBE_LEN}: using unbounded (0)", o.max_cube_len));
            o.max_cube_len = default.max_cube_len;
        }
        if !(1..=MAX_ITERATIONS).contains(&o.max_iterations) {
            notes.push(format!("max iterations {} is not between 1 and {MAX_ITERATIONS}: using {}", o.max_iterations, default.max_iterations));
            o.max_iterations = default.max_iterations;
        }
        if !(1000..=MAX_TIME_BUDGET_MS).contains(&o.time_budget_ms) {
            notes.push(format!(
                "time budget {} ms is not between 1 s and {} s: using {} s",
                o.time_budget_ms,
                MAX_TIME_BUDGET_MS / 1000,
                default.time_budget_ms / 1000
            ));
            o.time_budget_ms = default.time_budget_ms;
        }
        if o.work_budget > MAX_WORK_BUDGET {
            notes.push(format!("work budget {} is above {MAX_WORK_BUDGET} units: using {}", o.work_budget, default.work_budget));
            o.work_budget = default.work_budget;
        }
        if o.techniques.is_empty() {
            notes.push("no technique selected: using the CEGAR loop alone".to_string());
            o.techniques = default.techniques;
        }
        (o, notes)
    }
}

/// `"1 predicate"`, `"2 predicates"`.
pub fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// One engine job.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunRequest {
    pub kind: RunKind,
    /// C source, or boolean program text for [`RunKind::ModelCheck`].
    pub source: String,
    /// Predicates in C2BP's `proc { p1, p2 }` syntax.
    pub predicates: String,
    pub options: Options,
}

/// Messages from the UI to the worker.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ToWorker {
    /// Ask for the engine's version string (computed inside the worker).
    Version,
    /// Start a job; events follow.
    Run(RunRequest),
    /// Check mode one CEGAR iteration at a time: start a stepped run and do its first iteration
    /// (then `Paused`, or `Done` when the loop ended). The worker keeps the run for the next
    /// message.
    Step(RunRequest),
    /// One more iteration of the stepped run.
    StepNext,
    /// Run the stepped run to its end ("Run to the end").
    Finish,
    /// Hide mode: inference steps (or closure), `tr`, optionally both verdicts; one `HideDone`.
    Hide(api::hide::HideRequest),
    /// Shape mode: the iterated-WP abstraction and its verdict; one `ShapeDone`.
    Shape(api::shape::ShapeRequest),
    /// Test hook (no control sends it): the worker panics, which traps its wasm, so the e2e
    /// tests can check that the UI respawns a worker that died.
    DebugTrap,
    /// Check mode's explanations on demand: the lattices, WP conditions and solver queries of
    /// iteration `iteration`'s abstraction with its `predicates`; one `Explanation`.
    Explain { request: RunRequest, iteration: u32, predicates: String },
    /// The invariants view's question (C2BP §2.2): does the invariant at a label of `request`'s
    /// program, abstracted with `predicates`, imply an expression? `question` is `LABEL: EXPR`;
    /// one `QueryAnswer`.
    Query { request: RunRequest, predicates: String, question: String },
    /// Check mode's "Witness (.yml)" download: the SV-COMP witness of the run of `request`
    /// (the run's program, not the editor's) that ended with `evidence`; one `Witness`.
    Witness { request: RunRequest, evidence: api::witness::Evidence },
    /// The exercise "which of these holds at L?" (`crate::exercise`): each `LABEL: EXPR` of
    /// `questions` answered by one abstraction with `predicates`; one `ExerciseAnswers`.
    ExerciseQueries { request: RunRequest, predicates: String, questions: Vec<String> },
}

/// Messages from the worker to the UI. Results are `playground-api`'s own data (no copy).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum FromWorker {
    /// The worker's wasm is loaded and it listens; sent once after spawning.
    Ready,
    Version(String),
    Progress(Progress),
    /// Diagnostics for the current source (sent before the verdict).
    Diagnostics(Vec<api::DiagnosticData>),
    IterationSnapshot(Box<api::IterationSnapshot>),
    /// A stepped run finished one iteration and waits for `StepNext` or `Finish`.
    Paused,
    /// The end of a run; its `iterations` are empty (they were streamed one by one).
    Done(Box<api::Outcome>),
    /// The end of a Hide run.
    HideDone(Box<api::hide::HideResult>),
    /// The end of a Shape run.
    ShapeDone(Box<api::shape::ShapeResult>),
    /// The run stopped without a verdict (unsupported input, internal error).
    Error(String),
    /// The answer to `Explain` (or why there is none).
    Explanation { iteration: u32, result: Result<Box<api::explain::ExplanationData>, String> },
    /// The answer to `Query`.
    QueryAnswer(Box<api::query::QueryAnswer>),
    /// The answer to `Witness`: the witness, or why there is none.
    Witness(Result<Box<api::witness::BuiltWitness>, String>),
    /// The answers to `ExerciseQueries`, in its order.
    ExerciseAnswers(Vec<api::query::QueryAnswer>),
}

/// Where a run is, for the progress line.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// 1-based CEGAR iteration (0 before the first abstraction).
    pub iteration: u32,
    /// e.g. "parse", "abstract", "model check", "refine".
    pub phase: String,
    pub solver_calls: u64,
    pub elapsed_ms: u64,
}

/// An inclusive range of 1-based C source lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineRange {
    pub first: u32,
    pub last: u32,
}

impl LineRange {
    pub fn single(line: u32) -> LineRange {
        LineRange { first: line, last: line }
    }
    pub fn contains(self, line: u32) -> bool {
        self.first <= line && line <= self.last
    }
}

/// One line of boolean program text with the C lines it was produced from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoolLine<'a> {
    pub text: &'a str,
    pub c_lines: Option<LineRange>,
}

/// The printed boolean program of a snapshot, line by line with its C partners.
pub fn bool_lines(bp: &api::BooleanProgramText) -> Vec<BoolLine<'_>> {
    bp.text
        .lines()
        .enumerate()
        .map(|(i, text)| BoolLine { text, c_lines: bp.c_lines.get(i).copied().flatten().map(LineRange::single) })
        .collect()
}

/// Whether a snapshot's abstract counterexample was found spurious.
pub fn is_spurious(it: &api::IterationSnapshot) -> bool {
    it.feasibility_kind == api::FeasibilityKind::Infeasible
}

/// Counts the predicates in a predicate file (items inside `scope { .. }` blocks).
pub fn count_predicates(text: &str) -> usize {
    let mut depth = 0usize;
    let mut count = 0usize;
    let mut item = false;
    for ch in text.chars() {
        match ch {
            '{' => {
                depth += 1;
                item = false;
            }
            '}' => {
                count += item as usize;
                item = false;
                depth = depth.saturating_sub(1);
            }
            ',' if depth == 1 => {
                count += item as usize;
                item = false;
            }
            c if depth >= 1 && !c.is_whitespace() => item = true,
            _ => {}
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_round_trip_through_json() {
        let req = ToWorker::Run(RunRequest {
            kind: RunKind::Abstract,
            source: "int main(void) { return 0; }".into(),
            predicates: "main { x > 0 }".into(),
            options: Options::default(),
        });
        let text = serde_json::to_string(&req).unwrap();
        assert_eq!(serde_json::from_str::<ToWorker>(&text).unwrap(), req);

        let ev = FromWorker::Progress(Progress { iteration: 2, phase: "abstract".into(), solver_calls: 7, elapsed_ms: 3 });
        let text = serde_json::to_string(&ev).unwrap();
        assert_eq!(serde_json::from_str::<FromWorker>(&text).unwrap(), ev);
    }

    #[test]
    fn options_missing_fields_take_defaults() {
        let o: Options = serde_json::from_str(r#"{"int_width": 8}"#).unwrap();
        assert_eq!(o.int_width, 8);
        assert_eq!(o.max_iterations, Options::default().max_iterations);
    }

    #[test]
    fn shared_options_out_of_range_are_replaced_with_a_message() {
        let (o, notes) = Options { int_width: 3, ..Options::default() }.validated();
        assert_eq!(o.int_width, 0);
        assert_eq!(notes.len(), 1);
        assert!(notes[0].contains("integer width 3"), "{notes:?}");
        let (o, notes) = Options { max_iterations: 0, max_cube_len: 99, time_budget_ms: 5, ..Options::default() }.validated();
        assert_eq!(o, Options::default());
        assert_eq!(notes.len(), 3);
        assert_eq!(Options { int_width: 16, ..Options::default() }.validated().1, Vec::<String>::new());
        let (o, notes) = Options { work_budget: MAX_WORK_BUDGET + 1, ..Options::default() }.validated();
        assert_eq!((o.work_budget, notes.len()), (Options::default().work_budget, 1), "{notes:?}");
        assert_eq!(Options { work_budget: 0, ..Options::default() }.validated().1, Vec::<String>::new());
    }

    #[test]
    fn the_work_budget_defaults_to_the_engines_and_links_without_it_get_that() {
        assert_eq!(Options::default().work_budget, api::Options::default().budget);
        let o: Options = serde_json::from_str(r#"{"time_budget_ms": 10000}"#).unwrap();
        assert_eq!(o.work_budget, api::Options::default().budget);
    }

    #[test]
    fn plurals() {
        assert_eq!(plural(1, "predicate"), "1 predicate");
        assert_eq!(plural(0, "step"), "0 steps");
    }

    #[test]
    fn counts_predicates_in_a_file() {
        assert_eq!(count_predicates("global {\n  locked == 0\n}\nf { x > 0, y == 1,\n z }\n"), 4);
        assert_eq!(count_predicates(""), 0);
        assert_eq!(count_predicates("f { }"), 0);
    }

    #[test]
    fn boolean_lines_carry_their_c_lines() {
        let bp = api::BooleanProgramText { text: "void main() begin\n  skip;\nend\n".into(), c_lines: vec![None, Some(4)] };
        let lines = bool_lines(&bp);
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[1], BoolLine { text: "  skip;", c_lines: Some(LineRange::single(4)) });
        assert_eq!(lines[2].c_lines, None);
    }
}
