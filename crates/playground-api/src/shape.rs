//! The playground's Shape mode: shape analysis by iterated weakest preconditions (seed 004,
//! Dams–Namjoshi, *Shape Analysis through Predicate Abstraction and Model Checking*) through
//! the `shape` crate, as plain serialisable data for the web worker.
//!
//! A request is a C procedure, its properties and preconditions (`FORMULA@LABEL` or
//! `forall k: P@l1 => Q@l2`, one a line), a round bound, approximation hints (one a line,
//! `PRED@LABEL -> if C then false else T`) or auto-hints. The result mirrors
//! `shape::report::Report` (the rounds of Fig 3 with the pairs added in each, the predicates
//! per round, the WP derivations, the abstract actions of Fig 2, the growing families with
//! their suggested hints, the boolean program and its Promela text, the verdict: SAFE, UNSAFE
//! with the concrete heap replayed in the interpreter, or UNKNOWN with the reason; concrete runs
//! from small heaps for the boxes-and-arrows pictures) in types
//! that also deserialise (the report's own only serialise), and the input problems as
//! diagnostics with the line and column of the editor they are about.

use crate::run::diagnostics_data;
use crate::types::{DiagnosticData, Verdict};
use serde::{Deserialize, Serialize};

/// What the Shape mode asks for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ShapeRequest {
    pub source: String,
    pub file_name: String,
    /// The procedure to analyse.
    pub proc: String,
    /// Properties, one a line (`#` starts a comment).
    pub properties: String,
    /// Preconditions (`FORMULA@LABEL`, assumed), one a line.
    pub preconditions: String,
    /// Round bound of the abstraction.
    pub bound: u32,
    /// Hints, one a line.
    pub hints: String,
    /// Detect growing families and propose, check and use hints.
    pub auto_hints: bool,
}

impl Default for ShapeRequest {
    fn default() -> ShapeRequest {
        ShapeRequest {
            source: String::new(),
            file_name: "program.c".into(),
            proc: String::new(),
            properties: String::new(),
            preconditions: String::new(),
            bound: 40,
            hints: String::new(),
            auto_hints: false,
        }
    }
}

/// The largest bound the playground accepts (rounds are cheap, model checking is not).
pub const MAX_BOUND: u32 = 200;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShapeLocation {
    pub label: String,
    pub line: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShapeEdge {
    pub id: u32,
    pub from: String,
    pub to: String,
    pub guard: String,
    pub text: String,
    pub lines: Vec<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShapePredicate {
    pub boolean: String,
    pub predicate: String,
}

/// The status of a (predicate, location) pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PairStatus {
    Unmarked,
    Marked,
    Hinted,
    OverApproximated,
}

impl PairStatus {
    pub fn label(self) -> &'static str {
        match self {
            PairStatus::Unmarked => "unmarked",
            PairStatus::Marked => "marked",
            PairStatus::Hinted => "hinted",
            PairStatus::OverApproximated => "over-approximated",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShapePair {
    pub id: u32,
    pub boolean: String,
    pub predicate: String,
    pub location: String,
    pub round: u32,
    pub status: PairStatus,
    pub parent_pair: Option<u32>,
    pub parent_edge: Option<u32>,
    pub hint: Option<usize>,
    /// A pair reduced under its hint's condition (`if C then r else T (rules)`, the paper's
    /// "in terms of dshared[n](t,x)"); `None` for a pattern's own family and unhinted pairs.
    #[serde(default)]
    pub approximation: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShapeRound {
    pub index: u32,
    pub processed: Vec<u32>,
    pub added: Vec<u32>,
    /// Predicates that first appear in this round (their pairs are in `added`).
    pub new_predicates: Vec<String>,
}

/// One step of a WP derivation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ShapeStep {
    /// The statement as a memory update and the predicate it transforms.
    Update { predicate: String, store: String },
    /// One Morris alias case.
    AliasCase { condition: String, predicate: String },
    /// The Fig 5 row instantiated.
    Fig5Row { row: String },
    /// One rewrite of the simplifier (`rule` is its name, for display).
    Rewrite { rule: String, before: String, after: String },
    Result { formula: String },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShapeDerivation {
    pub pair: u32,
    pub edge: u32,
    pub steps: Vec<ShapeStep>,
    pub result: String,
    pub new_pairs: Vec<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShapeAction {
    pub edge: u32,
    pub from: String,
    pub to: String,
    pub c_text: String,
    pub lines: Vec<u32>,
    pub guard: String,
    pub assignments: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShapeHint {
    pub text: String,
    pub origin: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShapeFamily {
    pub location: String,
    pub members: Vec<String>,
    /// A hint in the hints-file syntax (one click adds it to the hints).
    pub suggested_hint: Option<String>,
    pub reason: Option<String>,
    pub heaps_checked: usize,
    pub refuted: bool,
}

/// One abstraction (with auto-hints, the later ones use the hints found).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShapeRun {
    pub bound: u32,
    pub iterations: u32,
    pub converged: bool,
    pub predicates: Vec<ShapePredicate>,
    pub pairs: Vec<ShapePair>,
    pub rounds: Vec<ShapeRound>,
    pub derivations: Vec<ShapeDerivation>,
    pub actions: Vec<ShapeAction>,
    pub hints: Vec<ShapeHint>,
    pub families: Vec<ShapeFamily>,
}

/// A concrete violation found by running the C harness in the interpreter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShapeWitness {
    /// The initial heap, one fact an item: `x = c0`, `c0->n = c1`.
    pub heap: Vec<String>,
    pub inputs: Vec<String>,
    pub rigids: Vec<String>,
    /// The label where the property failed.
    pub location: String,
    /// Index of the failed property (0-based, in the order of the properties' lines).
    pub property: usize,
    pub harness: String,
}

/// The values an abstract boolean may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AllowedValues {
    False,
    True,
    Either,
}

impl AllowedValues {
    pub fn label(self) -> &'static str {
        match self {
            AllowedValues::False => "false",
            AllowedValues::True => "true",
            AllowedValues::Either => "false or true",
        }
    }
}

/// Where a pointer of a heap picture points.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "cell", rename_all = "snake_case")]
pub enum HeapTarget {
    Null,
    /// A cell, by its index in [`HeapPicture::cells`].
    Cell(u32),
    Int,
    Invalid,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeapField {
    pub field: String,
    pub target: HeapTarget,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeapCell {
    pub name: String,
    pub freed: bool,
    pub fields: Vec<HeapField>,
}

/// A variable (or rigid variable of the property) and its target.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeapRoot {
    pub name: String,
    pub rigid: bool,
    /// A parameter (or rigid): part of the input heap.
    pub input: bool,
    pub target: HeapTarget,
}

/// A concrete heap: cells with their fields, variables.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeapPicture {
    pub cells: Vec<HeapCell>,
    pub roots: Vec<HeapRoot>,
}

/// A pair's predicate at one concrete state beside its boolean.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeapPairValue {
    pub pair: u32,
    pub boolean: String,
    pub predicate: String,
    pub status: PairStatus,
    /// `None`: the predicate has no value in this state.
    pub concrete: Option<bool>,
    pub allowed: AllowedValues,
    /// The concrete value is one the boolean may not take: the abstraction would be unsound.
    pub mismatch: bool,
}

/// The concrete state at a location of a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeapSnapshot {
    pub location: String,
    pub line: u32,
    pub edge: Option<u32>,
    pub edge_text: String,
    pub heap: HeapPicture,
    pub values: Vec<HeapPairValue>,
}

/// A concrete run of the procedure from a small input heap (`shape::pictures`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeapRun {
    pub title: String,
    pub cells: u32,
    pub snapshots: Vec<HeapSnapshot>,
    pub end: String,
    pub mismatches: usize,
}

/// Everything the Shape mode shows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct ShapeResult {
    /// Problems with `origin` "source", "properties", "preconditions" or "hints", at the line
    /// and column of that editor.
    pub diagnostics: Vec<DiagnosticData>,
    /// False when the inputs had errors (nothing else is filled in).
    pub analysed: bool,
    pub procedure: String,
    pub locations: Vec<ShapeLocation>,
    pub edges: Vec<ShapeEdge>,
    pub runs: Vec<ShapeRun>,
    pub boolean_program: String,
    pub promela: Option<String>,
    /// Why there is no Promela text.
    pub promela_error: Option<String>,
    pub verdict: Option<Verdict>,
    pub reason: String,
    pub witness: Option<ShapeWitness>,
    /// Concrete runs from small input heaps, each location's heap with every pair's concrete
    /// value beside the values its boolean may take.
    #[serde(default)]
    pub heap_runs: Vec<HeapRun>,
}

impl ShapeResult {
    pub fn final_run(&self) -> Option<&ShapeRun> {
        self.runs.last()
    }
}

/// The non-empty, non-comment lines of an input, with their 1-based line numbers.
fn entries(text: &str) -> Vec<(usize, String)> {
    text.lines()
        .enumerate()
        .filter_map(|(i, l)| {
            let t = l.split('#').next().unwrap_or("").trim();
            (!t.is_empty()).then(|| (i + 1, t.to_string()))
        })
        .collect()
}

/// A diagnostic about one line of an editor, moved to that line (columns from the line start).
fn line_diagnostic(d: &diagnostics::Diagnostic, origin: &str, line_no: usize, line_text: &str, entry: &str) -> DiagnosticData {
    let mut d = d.clone();
    let offset = line_text.find(entry).unwrap_or(0) as u32;
    d.span = diagnostics::Span::new(d.span.start.saturating_add(offset), d.span.end.saturating_add(offset));
    let mut data = diagnostics_data(&[d], origin, line_text, origin).remove(0);
    data.line = line_no as u32;
    data.end_line = line_no as u32;
    data
}

fn problems_data(req: &ShapeRequest, problems: &[shape::Problem], props: &[(usize, String)], pres: &[(usize, String)]) -> Vec<DiagnosticData> {
    let line = |text: &str, n: usize| text.lines().nth(n.saturating_sub(1)).unwrap_or("").to_string();
    problems
        .iter()
        .map(|p| match &p.input {
            shape::Input::Source => diagnostics_data(std::slice::from_ref(&p.diagnostic), &req.file_name, &req.source, "source").remove(0),
            shape::Input::Property(k) => {
                let (n, entry) = props.get(*k).cloned().unwrap_or((1, String::new()));
                line_diagnostic(&p.diagnostic, "properties", n, &line(&req.properties, n), &entry)
            }
            shape::Input::Precondition(k) => {
                let (n, entry) = pres.get(*k).cloned().unwrap_or((1, String::new()));
                line_diagnostic(&p.diagnostic, "preconditions", n, &line(&req.preconditions, n), &entry)
            }
            // the crate already placed the span within the line
            shape::Input::HintLine(n) => line_diagnostic(&p.diagnostic, "hints", *n, &line(&req.hints, *n), ""),
        })
        .collect()
}

fn status(s: shape::abstraction::Status) -> PairStatus {
    use shape::abstraction::Status as S;
    match s {
        S::Unmarked => PairStatus::Unmarked,
        S::Marked => PairStatus::Marked,
        S::Hinted => PairStatus::Hinted,
        S::OverApproximated => PairStatus::OverApproximated,
    }
}

fn step(s: &shape::report::StepView) -> ShapeStep {
    use shape::report::StepView as V;
    match s {
        V::Update { predicate, store } => ShapeStep::Update { predicate: predicate.clone(), store: store.clone() },
        V::AliasCase { condition, predicate } => ShapeStep::AliasCase { condition: condition.clone(), predicate: predicate.clone() },
        V::Fig5Row { row } => ShapeStep::Fig5Row { row: row.clone() },
        V::Rewrite { rule, before, after } => ShapeStep::Rewrite { rule: format!("{rule:?}"), before: before.clone(), after: after.clone() },
        V::Result { formula } => ShapeStep::Result { formula: formula.clone() },
    }
}

fn run_of(r: &shape::report::RunView) -> ShapeRun {
    let pairs: Vec<ShapePair> = r
        .pairs
        .iter()
        .map(|p| ShapePair {
            id: p.id,
            boolean: p.boolean.clone(),
            predicate: p.predicate.clone(),
            location: p.location.clone(),
            round: p.round,
            status: status(p.status),
            parent_pair: p.parent_pair,
            parent_edge: p.parent_edge,
            hint: p.hint,
            approximation: p.approximation.clone(),
        })
        .collect();
    let mut seen: Vec<&str> = pairs.iter().filter(|p| p.round == 0).map(|p| p.predicate.as_str()).collect();
    let rounds = r
        .rounds
        .iter()
        .map(|round| {
            let mut new_predicates = Vec::new();
            for id in &round.added {
                if let Some(p) = pairs.iter().find(|p| p.id == *id) {
                    if !seen.contains(&p.predicate.as_str()) {
                        seen.push(&p.predicate);
                        new_predicates.push(p.predicate.clone());
                    }
                }
            }
            ShapeRound { index: round.index, processed: round.processed.clone(), added: round.added.clone(), new_predicates }
        })
        .collect();
    ShapeRun {
        bound: r.bound,
        iterations: r.iterations,
        converged: r.converged,
        predicates: r.predicates.iter().map(|p| ShapePredicate { boolean: p.boolean.clone(), predicate: p.predicate.clone() }).collect(),
        rounds,
        pairs,
        derivations: r
            .derivations
            .iter()
            .map(|d| ShapeDerivation { pair: d.pair, edge: d.edge, steps: d.steps.iter().map(step).collect(), result: d.result.clone(), new_pairs: d.new_pairs.clone() })
            .collect(),
        actions: r
            .actions
            .iter()
            .map(|a| ShapeAction { edge: a.edge, from: a.from.clone(), to: a.to.clone(), c_text: a.c_text.clone(), lines: a.lines.clone(), guard: a.guard.clone(), assignments: a.assignments.clone() })
            .collect(),
        hints: r.hints.iter().map(|h| ShapeHint { text: h.text.clone(), origin: h.origin.clone() }).collect(),
        families: r
            .families
            .iter()
            .map(|f| ShapeFamily {
                location: f.location.clone(),
                members: f.members.clone(),
                suggested_hint: f.suggested_hint.clone(),
                reason: f.reason.clone(),
                heaps_checked: f.heaps_checked,
                refuted: f.refuted,
            })
            .collect(),
    }
}

fn heap_target(t: &shape::pictures::TargetView) -> HeapTarget {
    use shape::pictures::TargetView as T;
    match t {
        T::Null => HeapTarget::Null,
        T::Cell(c) => HeapTarget::Cell(*c),
        T::Int => HeapTarget::Int,
        T::Invalid => HeapTarget::Invalid,
    }
}

fn heap_run(r: &shape::pictures::HeapRunView) -> HeapRun {
    use shape::pictures::Allowed;
    let picture = |h: &shape::pictures::HeapView| HeapPicture {
        cells: h
            .cells
            .iter()
            .map(|c| HeapCell { name: c.name.clone(), freed: c.freed, fields: c.fields.iter().map(|f| HeapField { field: f.field.clone(), target: heap_target(&f.target) }).collect() })
            .collect(),
        roots: h.roots.iter().map(|r| HeapRoot { name: r.name.clone(), rigid: r.rigid, input: r.input, target: heap_target(&r.target) }).collect(),
    };
    HeapRun {
        title: r.title.clone(),
        cells: r.cells,
        end: r.end.clone(),
        mismatches: r.mismatches,
        snapshots: r
            .snapshots
            .iter()
            .map(|s| HeapSnapshot {
                location: s.location.clone(),
                line: s.line,
                edge: s.edge,
                edge_text: s.edge_text.clone(),
                heap: picture(&s.heap),
                values: s
                    .values
                    .iter()
                    .map(|v| HeapPairValue {
                        pair: v.pair,
                        boolean: v.boolean.clone(),
                        predicate: v.predicate.clone(),
                        status: status(v.status),
                        concrete: v.concrete,
                        allowed: match v.allowed {
                            Allowed::False => AllowedValues::False,
                            Allowed::True => AllowedValues::True,
                            Allowed::Either => AllowedValues::Either,
                        },
                        mismatch: v.mismatch,
                    })
                    .collect(),
            })
            .collect(),
    }
}

fn verdict(v: shape::report::Verdict) -> Verdict {
    match v {
        shape::report::Verdict::Safe => Verdict::Safe,
        shape::report::Verdict::Unsafe => Verdict::Unsafe,
        shape::report::Verdict::Unknown => Verdict::Unknown,
    }
}

fn result_of(report: &shape::report::Report) -> ShapeResult {
    let (promela, promela_error) = match &report.promela {
        Ok(text) => (Some(text.clone()), None),
        Err(e) => (None, Some(e.clone())),
    };
    ShapeResult {
        diagnostics: Vec::new(),
        analysed: true,
        procedure: report.procedure.clone(),
        locations: report.locations.iter().map(|l| ShapeLocation { label: l.label.clone(), line: l.line }).collect(),
        edges: report
            .edges
            .iter()
            .map(|e| ShapeEdge { id: e.id, from: e.from.clone(), to: e.to.clone(), guard: e.guard.clone(), text: e.text.clone(), lines: e.lines.clone() })
            .collect(),
        runs: report.runs.iter().map(run_of).collect(),
        boolean_program: report.boolean_program.clone(),
        promela,
        promela_error,
        verdict: Some(verdict(report.verdict)),
        reason: report.reason.clone(),
        witness: report.witness.as_ref().map(|w| ShapeWitness {
            heap: w.heap.clone(),
            inputs: w.inputs.iter().map(|i| i.to_string()).collect(),
            rigids: w.rigids.clone(),
            location: w.location.clone(),
            property: w.property,
            harness: w.harness.clone(),
        }),
        heap_runs: report.heap_runs.iter().map(heap_run).collect(),
    }
}

/// Runs the Shape mode (see the module docs). Never panics on user input.
pub fn shape(req: &ShapeRequest) -> ShapeResult {
    let props = entries(&req.properties);
    let pres = entries(&req.preconditions);
    if req.proc.trim().is_empty() {
        let d = diagnostics::Diagnostic::error(diagnostics::Span::default(), "name the procedure to analyse");
        return ShapeResult { diagnostics: diagnostics_data(&[d], &req.file_name, &req.source, "source"), ..ShapeResult::default() };
    }
    let request = shape::Request {
        source: req.source.clone(),
        file_name: req.file_name.clone(),
        proc: req.proc.trim().to_string(),
        properties: props.iter().map(|(_, t)| t.clone()).collect(),
        preconditions: pres.iter().map(|(_, t)| t.clone()).collect(),
        bound: req.bound.clamp(1, MAX_BOUND),
        hints: req.hints.clone(),
        auto_hints: req.auto_hints,
    };
    match shape::analyze(&request) {
        Ok(report) => result_of(&report),
        Err(problems) => ShapeResult { diagnostics: problems_data(req, &problems, &props, &pres), ..ShapeResult::default() },
    }
}

/// The Shape settings of a gallery example (its `source` is in [`crate::examples`]).
#[derive(Clone, Copy, Debug)]
pub struct ShapeExample {
    pub id: &'static str,
    pub proc: &'static str,
    pub properties: &'static str,
    pub preconditions: &'static str,
    pub bound: u32,
    pub hints: &'static str,
    pub auto_hints: bool,
}

/// The paper's two kinds of approximation for the reversal, in this tool's predicate forms.
pub const REVERSE_HINTS: &str = "reach[{&(y->n), &(x->n->n)};n](t, &(x->n->n->n))@n5 -> if !dshared[n](t,x) then false else T\nx == x->n@n4 -> if !cyclic[n](x) then false else T\n";

/// Settings of the Shape examples of the gallery.
pub const EXAMPLES: &[ShapeExample] = &[
    ShapeExample {
        id: "shape-insert",
        proc: "insert",
        properties: "forall k: reach[;n](x,k)@n1 => reach[;n](x,k)@ne\n",
        preconditions: "",
        bound: 40,
        hints: "",
        auto_hints: false,
    },
    ShapeExample {
        id: "shape-reverse",
        proc: "reverse",
        properties: "!cyclic[n](y)@n8\n",
        preconditions: "!cyclic[n](x)@n1\n",
        bound: 12,
        hints: "",
        auto_hints: false,
    },
    ShapeExample {
        id: "shape-traverse",
        proc: "length",
        properties: "forall k: reach[;n](x,k)@n1 => reach[;n](x,k)@ne\n",
        preconditions: "",
        bound: 10,
        hints: "",
        auto_hints: false,
    },
    ShapeExample {
        id: "shape-push-cycle",
        proc: "push_self",
        properties: "!cyclic[n](t)@ne\n",
        preconditions: "!cyclic[n](x)@n1\n",
        bound: 40,
        hints: "",
        auto_hints: false,
    },
];

/// The Shape settings of a gallery example.
pub fn example(id: &str) -> Option<&'static ShapeExample> {
    EXAMPLES.iter().find(|e| e.id == id)
}

impl ShapeExample {
    /// The request the example makes with `source`.
    pub fn request(&self, source: &str) -> ShapeRequest {
        ShapeRequest {
            source: source.to_string(),
            file_name: "program.c".into(),
            proc: self.proc.into(),
            properties: self.properties.into(),
            preconditions: self.preconditions.into(),
            bound: self.bound,
            hints: self.hints.into(),
            auto_hints: self.auto_hints,
        }
    }
}

/// What a share link and the Shape editors keep (the C source is the session's).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ShapeSettings {
    pub proc: String,
    pub properties: String,
    pub preconditions: String,
    pub bound: u32,
    pub hints: String,
    pub auto_hints: bool,
}

impl Default for ShapeSettings {
    fn default() -> ShapeSettings {
        let r = ShapeRequest::default();
        ShapeSettings { proc: r.proc, properties: r.properties, preconditions: r.preconditions, bound: r.bound, hints: r.hints, auto_hints: r.auto_hints }
    }
}

impl ShapeSettings {
    pub fn request(&self, source: &str) -> ShapeRequest {
        ShapeRequest {
            source: source.to_string(),
            file_name: "program.c".into(),
            proc: self.proc.clone(),
            properties: self.properties.clone(),
            preconditions: self.preconditions.clone(),
            bound: self.bound,
            hints: self.hints.clone(),
            auto_hints: self.auto_hints,
        }
    }
}

impl ShapeExample {
    pub fn settings(&self) -> ShapeSettings {
        ShapeSettings {
            proc: self.proc.into(),
            properties: self.properties.into(),
            preconditions: self.preconditions.into(),
            bound: self.bound,
            hints: self.hints.into(),
            auto_hints: self.auto_hints,
        }
    }
}
