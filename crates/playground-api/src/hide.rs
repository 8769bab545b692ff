//! The playground's Hide mode: abC variable hiding (seed 003, Dams–Hesse–Holzmann, *Abstracting
//! C with abC*) through the `hiding` crate, as plain serialisable data for the web worker.
//!
//! One request is one C program and one abstraction file (`SCOPE NAME` per line) and asks for
//! a number of inference steps (the paper's one-invocation-per-step, §3) or the closure. The
//! engine is stateless: "one more step" is a request for `k + 1` steps, which recomputes the
//! first `k` (cheap: the rules are a pass over the store sites). The result carries the steps
//! with their log rows (rule, store, keys, abstract occurrences), the paper's log text with
//! `iteration K` headers, the new abstraction file, every variable with its `why(v)` chain
//! and, for hidden pointers, the variables they may point to (the pointer analysis that rules
//! 2a/2b perform on demand, §4), the warnings with line:column, the transformed program `tr`
//! (§5) with `NONDET` positions and the source places of removed stores, and, when asked, the
//! verdicts of the original and the hidden program with the hidden counterexample replayed on
//! the original (is the bug real, or an artefact of hiding?).

use crate::run::diagnostics_data;
use crate::types::{DiagnosticData, Options, Technique, Verdict};
use diagnostics::{LineIndex, Span};
use hiding::replay::{self, Replay};
use hiding::transform::{self, EditKind, NondetStyle, TransformOptions, Transformed};
use hiding::{Analysis, InferOptions, Rule, VarId};
use serde::{Deserialize, Serialize};

/// What the Hide mode asks for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct HideRequest {
    pub source: String,
    pub file_name: String,
    /// The abstraction file: `SCOPE NAME` per line, `(global)` for globals and results.
    pub abstraction: String,
    /// Inference steps to do; `None`: until the set is closed.
    pub steps: Option<u32>,
    /// Footnote 4: `a[i] = v` with only `i` hidden keeps `a` and becomes `a[NONDET] = v`.
    pub array_nondet_index: bool,
    /// Also check the original and the hidden program with the CEGAR loop (slow).
    pub check: bool,
    /// Budget of each of the two checks.
    pub timeout_ms: u64,
}

impl Default for HideRequest {
    fn default() -> HideRequest {
        HideRequest {
            source: String::new(),
            file_name: "program.c".into(),
            abstraction: String::new(),
            steps: Some(1),
            array_nondet_index: false,
            check: false,
            timeout_ms: 20_000,
        }
    }
}

/// A variable as the abstraction file names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HideVarRef {
    /// Index into [`HideResult::variables`].
    pub id: u32,
    /// `(global)` or the function's name.
    pub scope: String,
    pub name: String,
}

impl HideVarRef {
    /// `SCOPE NAME`, as in the abstraction file and the log.
    pub fn text(&self) -> String {
        format!("{} {}", self.scope, self.name)
    }
}

/// Which inference rule fired (paper §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HideRule {
    R1a,
    R1b,
    R2a,
    R2b,
}

impl HideRule {
    fn of(rule: Rule) -> HideRule {
        match rule {
            Rule::R1a => HideRule::R1a,
            Rule::R1b => HideRule::R1b,
            Rule::R2a => HideRule::R2a,
            Rule::R2b => HideRule::R2b,
        }
    }
    fn engine(self) -> Rule {
        match self {
            HideRule::R1a => Rule::R1a,
            HideRule::R1b => Rule::R1b,
            HideRule::R2a => Rule::R2a,
            HideRule::R2b => Rule::R2b,
        }
    }
    /// `1a`, `1b`, `2a`, `2b`.
    pub fn name(self) -> &'static str {
        self.engine().name()
    }
    /// One line for a student.
    pub fn gloss(self) -> &'static str {
        self.engine().gloss()
    }
    /// Rules 2a/2b follow pointers (the on-demand points-to walk).
    pub fn is_pointer_rule(self) -> bool {
        matches!(self, HideRule::R2a | HideRule::R2b)
    }
}

/// A place in the C source (1-based line and column; `end_column` exclusive on `line`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourcePlace {
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
}

impl SourcePlace {
    fn of(index: &LineIndex, span: Span) -> SourcePlace {
        let (a, b) = (index.line_col(span.start), index.line_col(span.end.max(span.start)));
        SourcePlace { line: a.line, column: a.column, end_line: b.line, end_column: b.column }
    }
}

/// One row of the log: `line N: SCOPE NAME <--- SCOPE NAME, ...`, with the store it came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HideRow {
    pub line: u32,
    pub rule: HideRule,
    /// The variable inferred.
    pub variable: HideVarRef,
    /// The abstract occurrences that fired the rule (duplicates kept, as in the paper).
    pub from: Vec<HideVarRef>,
    /// The store `e1 <- e2`.
    pub store: String,
    pub site: SourcePlace,
    /// keys(e1) for rules 1, keys(e2) for rules 2.
    pub keys: Vec<HideVarRef>,
    /// The abstract occurrences with their places in the source.
    pub occurrences: Vec<(HideVarRef, SourcePlace)>,
    /// Whether this row hid the variable for the first time (later rows repeat a reason).
    pub first: bool,
}

/// One inference step (`iteration K` in the log).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HideStep {
    /// 1-based.
    pub index: u32,
    pub rows: Vec<HideRow>,
    /// The variables hidden by this step, in the order of the new abstraction file.
    pub new_variables: Vec<HideVarRef>,
}

/// One link of `why(v)`: the variable and the log row that hid it (`None`: initial file).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WhyLink {
    pub variable: HideVarRef,
    pub row: Option<HideRow>,
}

/// A variable of the user's program with its hiding status.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HideVariable {
    pub var: HideVarRef,
    /// Where it is declared.
    pub declared: SourcePlace,
    pub pointer: bool,
    /// `Some(0)`: in the initial file; `Some(k)`: hidden by step k; `None`: concrete.
    pub hidden_at: Option<u32>,
    /// Derivation chain back to the initial file (empty when concrete).
    pub why: Vec<WhyLink>,
    /// For a hidden pointer: what it may point to (Andersen-style over the store sites).
    pub points_to: Option<Vec<HideVarRef>>,
}

/// A warning of the inference (external call, pointer arithmetic, cast, function pointer).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HideWarning {
    pub kind: HideWarningKind,
    pub place: SourcePlace,
    pub message: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HideWarningKind {
    ExternalCall,
    PointerArithmetic,
    PointerCast,
    FunctionPointerCall,
    HiddenFunctionPointer,
}

impl HideWarningKind {
    /// Why it matters, for the warnings panel.
    pub fn explanation(self) -> &'static str {
        match self {
            HideWarningKind::ExternalCall => "the function has no body: what it does with its arguments is not analysed",
            HideWarningKind::PointerArithmetic => "pointer arithmetic may leave the object: the rules assume it does not",
            HideWarningKind::PointerCast => "a cast may hide an address in an integer: the rules do not follow it",
            HideWarningKind::FunctionPointerCall => "a call through a function pointer: its parameter passing is not analysed",
            HideWarningKind::HiddenFunctionPointer => "a hidden function pointer cannot be called in the transformed program",
        }
    }
}

/// What `tr` did at a source place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HideEditKind {
    RemovedDeclaration,
    RemovedStore,
    RemovedParameter,
    RemovedArgument,
    NondetTest,
    NondetValue,
}

impl HideEditKind {
    /// Edits that take text away (struck through in the original).
    pub fn is_removal(self) -> bool {
        !matches!(self, HideEditKind::NondetTest | HideEditKind::NondetValue)
    }
    pub fn label(self) -> &'static str {
        match self {
            HideEditKind::RemovedDeclaration => "declaration removed",
            HideEditKind::RemovedStore => "store removed",
            HideEditKind::RemovedParameter => "parameter removed",
            HideEditKind::RemovedArgument => "argument removed",
            HideEditKind::NondetTest => "test became NONDET",
            HideEditKind::NondetValue => "value became NONDET",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HideEdit {
    pub kind: HideEditKind,
    pub place: SourcePlace,
    pub variables: Vec<HideVarRef>,
}

/// A printed `NONDET`: 1-based line and column (and length) in the transformed text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NondetPlace {
    pub line: u32,
    pub column: u32,
    pub len: u32,
    /// The source line of the expression it replaces.
    pub source_line: u32,
}

/// The hidden program.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct HideTransformed {
    pub text: String,
    /// Source line of each output line (index = output line - 1; 0: generated).
    pub line_map: Vec<u32>,
    pub edits: Vec<HideEdit>,
    pub nondets: Vec<NondetPlace>,
    /// The set was not closed: the program may not over-approximate the original.
    pub not_closed: bool,
}

/// How much state was hidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct HideSize {
    pub variables: usize,
    pub hidden_variables: usize,
    pub bits: u64,
    pub hidden_bits: u64,
}

/// How the replay of the hidden counterexample on the original ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReplayKind {
    /// The original reaches the error with the same inputs: the bug is real.
    ReachesError,
    /// It does not: possibly an artefact of hiding.
    NoError,
    /// The original could not be run.
    CannotRun,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HideReplay {
    pub kind: ReplayKind,
    pub message: String,
}

/// One step of the hidden program's counterexample.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HiddenTraceStep {
    /// 1-based line in the transformed program.
    pub line: u32,
    pub statement: String,
    /// The value a `NONDET` of this line took, if it read one.
    pub nondet: Option<String>,
}

/// The verdicts side by side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HideCheck {
    pub original: Verdict,
    pub original_reason: String,
    pub hidden: Verdict,
    pub hidden_reason: String,
    /// When the hidden program is UNSAFE: its inputs replayed on the original.
    pub replay: Option<HideReplay>,
    /// The hidden program's counterexample, with the values its `NONDET`s took.
    pub hidden_trace: Vec<HiddenTraceStep>,
}

/// Everything the Hide mode shows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct HideResult {
    /// Problems in the C file (`origin` "source") and in the abstraction file ("abstraction").
    pub diagnostics: Vec<DiagnosticData>,
    /// False when the C file could not be parsed (nothing else is filled in).
    pub parsed: bool,
    pub initial: Vec<HideVarRef>,
    pub steps: Vec<HideStep>,
    pub closed: bool,
    /// The paper's log, each step headed by `iteration K`.
    pub log_text: String,
    /// The new abstraction file.
    pub abstraction_file: String,
    /// The user's variables (index = [`HideVarRef::id`]; header variables are left out).
    pub variables: Vec<Option<HideVariable>>,
    pub warnings: Vec<HideWarning>,
    pub transformed: HideTransformed,
    /// The transformed program with `#define NONDET __VERIFIER_nondet_int()` (for gcc and
    /// `predabs check`; the download).
    pub compilable: String,
    pub size: HideSize,
    pub check: Option<HideCheck>,
}

impl HideResult {
    /// The variables hidden so far (initial file first, then by step).
    pub fn hidden(&self) -> impl Iterator<Item = &HideVariable> {
        self.variables.iter().flatten().filter(|v| v.hidden_at.is_some())
    }
    /// A variable by its abstraction-file text (`move d`).
    pub fn variable(&self, text: &str) -> Option<&HideVariable> {
        self.variables.iter().flatten().find(|v| v.var.text() == text)
    }
}

struct Ctx<'a> {
    analysis: &'a Analysis,
    index: LineIndex,
}

impl Ctx<'_> {
    fn var(&self, v: VarId) -> HideVarRef {
        let var = self.analysis.program.var(v);
        HideVarRef { id: v.0, scope: var.scope.to_string(), name: var.name.clone() }
    }
    fn place(&self, span: Span) -> SourcePlace {
        SourcePlace::of(&self.index, span)
    }
    fn row(&self, inf: &hiding::Inference) -> HideRow {
        let d = self.analysis.detail(inf);
        let first = self.analysis.derivation(inf.var) == Some(inf);
        HideRow {
            line: inf.line,
            rule: HideRule::of(inf.rule),
            variable: self.var(inf.var),
            from: inf.from.iter().map(|v| self.var(*v)).collect(),
            store: d.store,
            site: self.place(d.site_span),
            keys: d.keys.iter().map(|v| self.var(*v)).collect(),
            occurrences: d.occurrences.iter().map(|(v, s)| (self.var(*v), self.place(*s))).collect(),
            first,
        }
    }
}

fn steps_of(ctx: &Ctx) -> Vec<HideStep> {
    let a = ctx.analysis;
    let order = a.hidden_in_file_order();
    (1..=a.steps)
        .map(|k| {
            let log = a.step_log(k);
            let new_variables = order.iter().filter(|v| a.derivation(**v).is_some_and(|i| i.step == k)).map(|v| ctx.var(*v)).collect();
            HideStep { index: k, rows: log.iter().map(|i| ctx.row(i)).collect(), new_variables }
        })
        .collect()
}

fn variables_of(ctx: &Ctx) -> Vec<Option<HideVariable>> {
    let a = ctx.analysis;
    let points_to = hiding::pointsto::PointsTo::compute(&a.program, &a.sites);
    (0..a.program.vars.len() as u32)
        .map(VarId)
        .map(|v| {
            let var = a.program.var(v);
            if var.from_header {
                return None;
            }
            let hidden_at = if a.initial.contains(&v) { Some(0) } else { a.derivation(v).map(|i| i.step) };
            let why = a.why(v).into_iter().map(|l| WhyLink { variable: ctx.var(l.var), row: l.inference.as_ref().map(|i| ctx.row(i)) }).collect();
            let pointer = var.ty.is_pointer();
            let points_to = (pointer && hidden_at.is_some()).then(|| points_to.of(v).into_iter().map(|t| ctx.var(t)).collect());
            Some(HideVariable { var: ctx.var(v), declared: ctx.place(var.span), pointer, hidden_at, why, points_to })
        })
        .collect()
}

fn warning_kind(k: hiding::WarningKind) -> HideWarningKind {
    match k {
        hiding::WarningKind::ExternalCall => HideWarningKind::ExternalCall,
        hiding::WarningKind::PointerArithmetic => HideWarningKind::PointerArithmetic,
        hiding::WarningKind::PointerCast => HideWarningKind::PointerCast,
        hiding::WarningKind::FunctionPointerCall => HideWarningKind::FunctionPointerCall,
        hiding::WarningKind::HiddenFunctionPointer => HideWarningKind::HiddenFunctionPointer,
    }
}

fn edit_kind(k: EditKind) -> HideEditKind {
    match k {
        EditKind::RemovedDeclaration => HideEditKind::RemovedDeclaration,
        EditKind::RemovedStore => HideEditKind::RemovedStore,
        EditKind::RemovedParameter => HideEditKind::RemovedParameter,
        EditKind::RemovedArgument => HideEditKind::RemovedArgument,
        EditKind::NondetTest => HideEditKind::NondetTest,
        EditKind::NondetValue => HideEditKind::NondetValue,
    }
}

fn transformed_of(ctx: &Ctx, t: &Transformed) -> HideTransformed {
    let out_index = LineIndex::new(&t.text);
    let nondets = t
        .nondets
        .iter()
        .map(|n| {
            let at = out_index.line_col(n.offset);
            NondetPlace { line: at.line, column: at.column, len: "NONDET".len() as u32, source_line: ctx.index.line_col(n.span.start).line }
        })
        .collect();
    let edits = t
        .edits
        .iter()
        .map(|e| HideEdit { kind: edit_kind(e.kind), place: ctx.place(e.span), variables: e.vars.iter().map(|v| ctx.var(*v)).collect() })
        .collect();
    HideTransformed { text: t.text.clone(), line_map: t.line_map.clone(), edits, nondets, not_closed: !ctx.analysis.is_closed_set() }
}

/// Runs the Hide mode (see the module docs). Never panics on user input: problems come back as
/// diagnostics with line:column.
pub fn hide(req: &HideRequest) -> HideResult {
    let options = InferOptions { array_nondet_index: req.array_nondet_index };
    let mut analysis = match Analysis::new(&req.source, &req.file_name, &req.abstraction, options) {
        Ok(a) => a,
        Err(ds) => return HideResult { diagnostics: diagnostics_data(&ds, &req.file_name, &req.source, "source"), ..HideResult::default() },
    };
    let mut diagnostics = diagnostics_data(&analysis.c_diagnostics, &req.file_name, &req.source, "source");
    diagnostics.extend(diagnostics_data(&analysis.abs_diagnostics, "abstraction", &req.abstraction, "abstraction"));
    match req.steps {
        None => analysis.closure(),
        Some(n) => {
            for _ in 0..n.min(1000) {
                if analysis.closed {
                    break;
                }
                analysis.step();
            }
        }
    }
    let ctx = Ctx { analysis: &analysis, index: LineIndex::new(&req.source) };
    let topts = TransformOptions { array_nondet_index: req.array_nondet_index, nondet: NondetStyle::Token };
    let transformed = transform::transform(&analysis.program, &req.source, &analysis.hidden, topts);
    let size = analysis.size();
    let check = req.check.then(|| check_pair(req, &analysis));
    HideResult {
        diagnostics,
        parsed: true,
        initial: analysis.initial.iter().map(|v| ctx.var(*v)).collect(),
        steps: steps_of(&ctx),
        closed: analysis.closed,
        log_text: analysis.log_text(),
        abstraction_file: analysis.abstraction_file(),
        variables: variables_of(&ctx),
        warnings: analysis.warnings.iter().map(|w| HideWarning { kind: warning_kind(w.kind), place: ctx.place(w.span), message: w.message.clone() }).collect(),
        transformed: transformed_of(&ctx, &transformed),
        compilable: transform::transform(&analysis.program, &req.source, &analysis.hidden, TransformOptions { nondet: NondetStyle::Macro, ..topts }).text,
        size: HideSize { variables: size.variables, hidden_variables: size.hidden_variables, bits: size.bits, hidden_bits: size.hidden_bits },
        check,
    }
}

/// The verifier's settings for both checks: the textbook loop with the request's budget.
fn check_options(req: &HideRequest) -> Options {
    Options { timeout_ms: req.timeout_ms.max(1000), techniques: vec![Technique::Cegar], ..Options::default() }
}

fn verdict_of(v: verify::Verdict) -> Verdict {
    match v {
        verify::Verdict::Safe => Verdict::Safe,
        verify::Verdict::Unsafe => Verdict::Unsafe,
        verify::Verdict::Unknown => Verdict::Unknown,
    }
}

fn replay_of(r: &Replay) -> HideReplay {
    match r {
        Replay::ReachesError => HideReplay { kind: ReplayKind::ReachesError, message: "the original reaches the error with the same inputs: the bug is real".into() },
        Replay::NoError(why) => HideReplay { kind: ReplayKind::NoError, message: format!("the original does not reach the error ({why}): possibly an artefact of hiding") },
        Replay::CannotRun(why) => HideReplay { kind: ReplayKind::CannotRun, message: format!("the original cannot be run: {why}") },
    }
}

/// Checks the original and the hidden program, and replays a hidden counterexample.
fn check_pair(req: &HideRequest, analysis: &Analysis) -> HideCheck {
    let config = crate::engine::verify_config(&check_options(req));
    let original = verify::check_source(&req.source, &req.file_name, &config, &mut |_| {}, &|| false);
    // spelled for checking: NONDET as __VERIFIER_nondet_int() at recorded offsets
    let checkable = transform::transform(&analysis.program, &req.source, &analysis.hidden, TransformOptions { array_nondet_index: req.array_nondet_index, nondet: NondetStyle::Call });
    let hidden = verify::check_source(&checkable.text, "hidden.c", &config, &mut |_| {}, &|| false);
    let mut replay = None;
    let mut hidden_trace = Vec::new();
    if let Some(cex) = &hidden.counterexample {
        let split = replay::split_inputs(&checkable.text, &checkable.nondets, &cex.inputs);
        replay = Some(replay_of(&match &split {
            Some(s) => replay::replay_original(&req.source, &req.file_name, &s.original),
            None => Replay::CannotRun("the hidden program does not lower".into()),
        }));
        // the token-spelled program has the same lines as the checkable one
        let choices = split.map(|s| s.nondet_choices).unwrap_or_default();
        let mut used = vec![false; choices.len()];
        for step in &cex.steps {
            let nondet = choices.iter().enumerate().find(|(k, (line, _))| !used[*k] && *line == step.line).map(|(k, (_, v))| {
                used[k] = true;
                v.to_string()
            });
            hidden_trace.push(HiddenTraceStep { line: step.line, statement: step.statement.clone(), nondet });
        }
    }
    HideCheck {
        original: verdict_of(original.verdict),
        original_reason: original.reason.unwrap_or_default(),
        hidden: verdict_of(hidden.verdict),
        hidden_reason: hidden.reason.unwrap_or_default(),
        replay,
        hidden_trace,
    }
}

/// What a share link and the Hide editors keep (the C source is the session's).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct HideSettings {
    pub abstraction: String,
    /// Steps shown (`None`: to closure).
    pub steps: Option<u32>,
    pub array_nondet_index: bool,
    /// Also check the original and the hidden program (slow).
    pub check: bool,
}

impl Default for HideSettings {
    fn default() -> HideSettings {
        HideSettings { abstraction: String::new(), steps: Some(1), array_nondet_index: false, check: false }
    }
}

impl HideSettings {
    /// The request for `source`.
    pub fn request(&self, source: &str) -> HideRequest {
        HideRequest {
            source: source.to_string(),
            abstraction: self.abstraction.clone(),
            steps: self.steps,
            array_nondet_index: self.array_nondet_index,
            check: self.check,
            ..HideRequest::default()
        }
    }
}
