//! Plain data exchanged between the UI and the engine worker, and shown by the panes.
//!
//! These structs mirror what the engine (through `playground-api`) will send; the web app only
//! renders them. Everything here is serde-serialisable (messages cross the worker boundary as
//! JSON) and free of wasm types, so it is unit-tested natively.
//!
//! Protocol: the UI posts one [`ToWorker`] at a time; the worker answers with a stream of
//! [`FromWorker`] events. A [`ToWorker::Run`] produces zero or more `Progress` and
//! `IterationSnapshot` events and ends with exactly one `Done` or `Error`. Cancelling means
//! terminating the worker and spawning a fresh one (see `bridge.rs`).

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
}

impl RunKind {
    pub const ALL: [RunKind; 3] = [RunKind::Check, RunKind::Abstract, RunKind::ModelCheck];

    pub fn label(self) -> &'static str {
        match self {
            RunKind::Check => "Check",
            RunKind::Abstract => "Abstract",
            RunKind::ModelCheck => "Boolean program",
        }
    }
    pub fn key(self) -> &'static str {
        match self {
            RunKind::Check => "check",
            RunKind::Abstract => "abstract",
            RunKind::ModelCheck => "bp",
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
    /// Wall-clock budget for one run, in milliseconds.
    pub time_budget_ms: u64,
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
        }
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
    /// Replay canned data (the partition example of C2BP's paper) through the real protocol, so
    /// the panes can be exercised before every engine stage exists. Reached with `?demo`.
    Demo,
}

/// Messages from the worker to the UI.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum FromWorker {
    /// The worker's wasm is loaded and it listens; sent once after spawning.
    Ready,
    Version(String),
    Progress(Progress),
    /// Diagnostics for the current source (sent before anything else of a run).
    Diagnostics(Vec<DiagnosticView>),
    IterationSnapshot(Box<IterationSnapshot>),
    Done(Verdict),
    /// The run stopped without a verdict (unsupported input, internal error, missing stage).
    Error(String),
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

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SeverityView {
    Error,
    Warning,
    Note,
}

/// A diagnostic with resolved 1-based line:column positions (end exclusive).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiagnosticView {
    pub severity: SeverityView,
    pub message: String,
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
    pub help: Option<String>,
    /// Which text it is about: "source" or "predicates".
    #[serde(default)]
    pub origin: String,
}

impl DiagnosticView {
    /// Converts an engine diagnostic, resolving its span against the source text.
    pub fn from_diagnostic(d: &diagnostics::Diagnostic, index: &diagnostics::LineIndex) -> DiagnosticView {
        let start = index.line_col(d.span.start);
        let end = index.line_col(d.span.end);
        DiagnosticView {
            severity: match d.severity {
                diagnostics::Severity::Error => SeverityView::Error,
                diagnostics::Severity::Warning => SeverityView::Warning,
                diagnostics::Severity::Note => SeverityView::Note,
            },
            message: d.message.clone(),
            line: start.line,
            column: start.column,
            end_line: end.line,
            end_column: end.column,
            help: d.help.clone(),
            origin: "source".into(),
        }
    }
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
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoolLine {
    pub text: String,
    pub c_lines: Option<LineRange>,
}

/// Predicates of one scope (`None` = global).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScopePredicates {
    pub proc: Option<String>,
    pub predicates: Vec<String>,
}

/// One step of an abstract or concrete trace.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceStep {
    /// 1-based C line (0 = none).
    pub c_line: u32,
    /// 1-based line in the boolean program (abstract traces).
    #[serde(default)]
    pub bp_line: Option<u32>,
    /// The statement as printed (C or boolean program).
    pub text: String,
    /// Values after the step, as `(name, value)`: predicates are `T`/`F`/`?` (abstract traces),
    /// variables their concrete values (concrete traces).
    pub values: Vec<(String, String)>,
}

/// One row of a feasibility table (WP condition threads, or SP's columns).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FeasibilityRow {
    pub c_line: Option<u32>,
    pub statement: String,
    /// (column name, condition) pairs.
    pub columns: Vec<(String, String)>,
    /// The conditions became unsatisfiable here.
    pub contradiction: bool,
}

/// Why an abstract counterexample was (in)feasible.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Feasibility {
    pub feasible: bool,
    /// "wp" or "sp".
    pub method: String,
    /// Along the trace, first to last.
    pub rows: Vec<FeasibilityRow>,
    /// A sentence for students (may be empty).
    pub explanation: String,
}

/// Everything the UI shows about one CEGAR iteration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IterationSnapshot {
    /// 1-based.
    pub index: u32,
    /// In C2BP's predicate-file syntax.
    pub predicates: String,
    pub boolean_program: Vec<BoolLine>,
    /// Empty when the boolean program is safe.
    pub abstract_trace: Vec<TraceStep>,
    pub feasibility: Option<Feasibility>,
    /// Predicates refinement added after this iteration (as written in the predicate file).
    pub new_predicates: Vec<String>,
    pub solver_calls: u64,
    pub elapsed_ms: u64,
}

/// The final answer of a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verdict {
    /// With invariants `(C line, text)`.
    Safe { invariants: Vec<(Option<u32>, String)> },
    /// With the feasible C trace and concrete inputs (`name = value`).
    Unsafe { trace: Vec<TraceStep>, inputs: Vec<String> },
    Unknown { reason: String },
}

impl Verdict {
    pub fn label(&self) -> &'static str {
        match self {
            Verdict::Safe { .. } => "SAFE",
            Verdict::Unsafe { .. } => "UNSAFE",
            Verdict::Unknown { .. } => "UNKNOWN",
        }
    }
}

/// Renders predicates in C2BP's predicate-file syntax (`global { .. }` and `proc { .. }`).
pub fn format_predicates(scopes: &[ScopePredicates]) -> String {
    let mut out = String::new();
    for scope in scopes {
        if scope.predicates.is_empty() {
            continue;
        }
        out.push_str(scope.proc.as_deref().unwrap_or("global"));
        out.push_str(" {\n");
        for (i, p) in scope.predicates.iter().enumerate() {
            out.push_str("  ");
            out.push_str(p);
            if i + 1 < scope.predicates.len() {
                out.push(',');
            }
            out.push('\n');
        }
        out.push_str("}\n");
    }
    out
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

        let ev = FromWorker::Done(Verdict::Unknown { reason: "budget".into() });
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
    fn predicates_print_in_c2bp_syntax() {
        let scopes = vec![
            ScopePredicates { proc: None, predicates: vec!["locked == 0".into()] },
            ScopePredicates { proc: Some("partition".into()), predicates: vec!["curr == NULL".into(), "prev == NULL".into()] },
        ];
        assert_eq!(
            format_predicates(&scopes),
            "global {\n  locked == 0\n}\npartition {\n  curr == NULL,\n  prev == NULL\n}\n"
        );
    }

    #[test]
    fn counts_predicates_in_a_file() {
        assert_eq!(count_predicates("global {\n  locked == 0\n}\nf { x > 0, y == 1,\n z }\n"), 4);
        assert_eq!(count_predicates(""), 0);
        assert_eq!(count_predicates("f { }"), 0);
    }

    #[test]
    fn diagnostic_positions_are_one_based() {
        let text = "int x;\nint y = ;\n";
        let index = diagnostics::LineIndex::new(text);
        let d = diagnostics::Diagnostic::error(diagnostics::Span::new(15, 16), "expected expression");
        let v = DiagnosticView::from_diagnostic(&d, &index);
        assert_eq!((v.line, v.column, v.end_line, v.end_column), (2, 9, 2, 10));
    }
}
