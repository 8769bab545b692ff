//! Concrete runs beside the abstraction, for boxes-and-arrows pictures (Dams–Namjoshi §2: a
//! concrete state at `n` is related to an abstract one when every considered pair's predicate
//! `p(s) ⪯₃ b_p`; the issue's "pictures of concrete heaps at each location with every
//! predicate's value beside its boolean").
//!
//! Small heaps of the procedure's inputs (its pointer parameters and the property's rigid
//! variables, every heap of up to [`PICTURE_CELLS`] cells up to isomorphism,
//! [`HeapSpace::each_reachable`]; locals start NULL) are run through the flow chart on the
//! concrete evaluator ([`crate::concrete`]); a run that reaches a precondition's location in a
//! state where it is false is dropped (the abstract program assumes it). At each location the
//! heap is recorded with, for every pair there, the predicate's concrete value and the values
//! the abstract program allows its boolean after the edge just taken:
//! - marked: the edge's abstract action `b_p := f̄` (Fig 2) with `f` evaluated on the concrete
//!   state before the edge (Kleene: `⊤` allows both);
//! - hinted `if C then r else ⊤`: `r`'s value where `C` holds now, else both;
//! - over-approximated (left at the bound): both;
//! - at the first location: both, except the literals a precondition there assumes.
//!
//! A concrete value outside the allowed ones would be unsoundness of the abstraction
//! ([`PairValue::mismatch`]); `tests/it/abstract_concrete.rs` checks the same relation on every
//! path of every small heap.

use crate::abstraction::{Abstraction, PairId, PredId, Status};
use crate::autohint;
use crate::concrete::{Heap, HeapSpace, Val};
use crate::flowchart::{EdgeId, LocId};
use crate::parse::Property;
use crate::terms::{Formula, Names};
use crate::Session;
use c_ir::VarKind;
use diagnostics::LineIndex;
use serde::Serialize;

/// The largest input heap the pictures run.
pub const PICTURE_CELLS: u32 = 3;
/// At most this many runs of each heap size are kept (acyclic heaps first).
pub const RUNS_PER_SIZE: usize = 6;
/// A run stops after this many edges.
pub const MAX_STEPS: usize = 60;

/// The values an abstract boolean may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Allowed {
    False,
    True,
    Either,
}

impl Allowed {
    fn of(v: Option<bool>) -> Allowed {
        match v {
            Some(false) => Allowed::False,
            Some(true) => Allowed::True,
            None => Allowed::Either,
        }
    }
    pub fn admits(self, v: bool) -> bool {
        match self {
            Allowed::False => !v,
            Allowed::True => v,
            Allowed::Either => true,
        }
    }
}

/// A pair's predicate at one state: concrete value (`None`: not defined there) and the values
/// its boolean may take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairValue {
    pub pair: PairId,
    pub pred: PredId,
    pub status: Status,
    pub concrete: Option<bool>,
    pub allowed: Allowed,
}

impl PairValue {
    /// The concrete value is one the abstract boolean may not take.
    pub fn mismatch(&self) -> bool {
        self.concrete.is_some_and(|v| !self.allowed.admits(v))
    }
}

/// The state at a location.
#[derive(Clone, Debug)]
pub struct Snapshot {
    pub loc: LocId,
    /// The edge that led here (`None` at the start).
    pub via: Option<EdgeId>,
    pub heap: Heap,
    pub values: Vec<PairValue>,
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum End {
    /// At a location without outgoing edges.
    Returned,
    /// Every guard out of the last location is false.
    Blocked,
    /// The edge dereferences NULL (or a freed cell).
    BadDereference(EdgeId),
    /// [`MAX_STEPS`] edges taken.
    StepLimit,
}

#[derive(Clone, Debug)]
pub struct ConcreteRun {
    pub cells: u32,
    pub snapshots: Vec<Snapshot>,
    pub end: End,
}

/// The heaps of the procedure's inputs: pointer parameters and rigids are the roots.
pub fn input_space(session: &Session) -> Option<HeapSpace> {
    let mut space = autohint::heap_space(session)?;
    let formals = &session.program.proc(session.proc).formals;
    space.pointer_vars.retain(|v| formals.contains(v));
    Some(space)
}

/// The literals a conjunction assumes (`p` true, `!p` false).
fn literals(f: &Formula, out: &mut Vec<(crate::terms::Pred, bool)>) {
    match f {
        Formula::Atom(p) => out.push((p.clone(), true)),
        Formula::Not(a) => {
            if let Formula::Atom(p) = &**a {
                out.push((p.clone(), false));
            }
        }
        Formula::And(xs) => xs.iter().for_each(|x| literals(x, out)),
        _ => {}
    }
}

fn values_at(session: &Session, abs: &Abstraction, loc: LocId, before: Option<(&Heap, EdgeId)>, heap: &Heap) -> Vec<PairValue> {
    let mut assumed = Vec::new();
    if before.is_none() {
        for p in &session.preconditions {
            if let Property::At { formula, loc: l } = p {
                if *l == loc {
                    literals(formula, &mut assumed);
                }
            }
        }
    }
    abs.pairs
        .iter()
        .filter(|p| p.loc == loc)
        .map(|pair| {
            let pred = abs.pred(pair.pred);
            let allowed = match (pair.status, before) {
                (Status::Marked, Some((h, e))) => {
                    abs.assignments.iter().find(|a| a.edge == e && a.pred == pair.pred).map_or(Allowed::Either, |a| Allowed::of(h.eval_formula(&a.formula)))
                }
                (Status::Hinted, Some(_)) => match pair.hint.map(|h| heap.eval_formula(&abs.hints[h].cond)) {
                    Some(Some(true)) => Allowed::of(heap.eval_formula(&pair.residual)),
                    _ => Allowed::Either,
                },
                (_, None) => assumed.iter().find(|(q, _)| q == pred).map_or(Allowed::Either, |(_, v)| Allowed::of(Some(*v))),
                _ => Allowed::Either,
            };
            PairValue { pair: pair.id, pred: pair.pred, status: pair.status, concrete: heap.eval_pred(pred), allowed }
        })
        .collect()
}

/// The precondition at `loc` is false in `heap`.
fn excluded(session: &Session, loc: LocId, heap: &Heap) -> bool {
    session.preconditions.iter().any(|p| matches!(p, Property::At { formula, loc: l } if *l == loc && heap.eval_formula(formula) == Some(false)))
}

/// Runs the flow chart from `heap` (the first edge whose guard is not false at each location);
/// `None` when a precondition excludes the run.
pub fn run_from(session: &Session, abs: &Abstraction, heap: &Heap, cells: u32) -> Option<ConcreteRun> {
    let fc = &session.flowchart;
    let mut loc = fc.initial;
    let mut heap = heap.clone();
    if excluded(session, loc, &heap) {
        return None;
    }
    let mut snapshots = vec![Snapshot { loc, via: None, values: values_at(session, abs, loc, None, &heap), heap: heap.clone() }];
    for _ in 0..MAX_STEPS {
        let mut out = fc.edges.iter().filter(|e| e.from == loc).peekable();
        if out.peek().is_none() {
            return Some(ConcreteRun { cells, snapshots, end: End::Returned });
        }
        let Some(edge) = out.find(|e| heap.eval_formula(&e.guard) != Some(false)) else {
            return Some(ConcreteRun { cells, snapshots, end: End::Blocked });
        };
        let mut next = Some(heap.clone());
        for (u, _) in &edge.updates {
            next = next.and_then(|h| h.execute(u, &[]));
        }
        let Some(mut after) = next else {
            return Some(ConcreteRun { cells, snapshots, end: End::BadDereference(edge.id) });
        };
        after.fresh = None;
        if excluded(session, edge.to, &after) {
            return None;
        }
        let values = values_at(session, abs, edge.to, Some((&heap, edge.id)), &after);
        snapshots.push(Snapshot { loc: edge.to, via: Some(edge.id), heap: after.clone(), values });
        heap = after;
        loc = edge.to;
    }
    Some(ConcreteRun { cells, snapshots, end: End::StepLimit })
}

/// Some cell reaches itself through pointer fields.
fn has_cycle(space: &HeapSpace, heap: &Heap) -> bool {
    (0..heap.cells.len() as u32).any(|c| {
        let mut seen = Vec::new();
        let mut stack = vec![c];
        while let Some(x) = stack.pop() {
            for f in &space.pointer_fields {
                if let Val::Cell(y) = heap.read(&Val::Slot(x, *f)) {
                    if y == c {
                        return true;
                    }
                    if !seen.contains(&y) {
                        seen.push(y);
                        stack.push(y);
                    }
                }
            }
        }
        false
    })
}

/// The runs of the pictures: of each input heap size up to [`PICTURE_CELLS`], at most
/// [`RUNS_PER_SIZE`] runs the preconditions admit, the acyclic heaps (lists) first, each
/// group in the order of the enumeration.
pub fn runs(session: &Session, abs: &Abstraction) -> Vec<ConcreteRun> {
    let Some(space) = input_space(session) else { return Vec::new() };
    let mut out = Vec::new();
    for cells in 0..=PICTURE_CELLS {
        let (mut lists, mut cyclic) = (Vec::new(), Vec::new());
        space.each_reachable(cells, &mut |h| {
            if let Some(r) = run_from(session, abs, h, cells) {
                if has_cycle(&space, h) { cyclic.push(r) } else { lists.push(r) }
            }
        });
        lists.append(&mut cyclic);
        lists.truncate(RUNS_PER_SIZE);
        out.append(&mut lists);
    }
    out
}

// ---- views: names resolved, plain data for a UI ----

/// A pointer's target in a picture.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum TargetView {
    Null,
    /// A cell, by its index in [`HeapView::cells`].
    Cell(u32),
    /// An integer.
    Int,
    /// Anything else (an invalid address or a value read through one).
    Invalid,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FieldView {
    pub field: String,
    pub target: TargetView,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CellView {
    /// `c0`, `c1`, … (the witness's names).
    pub name: String,
    /// Freed by the procedure.
    pub freed: bool,
    pub fields: Vec<FieldView>,
}

/// A variable or rigid variable and what it points to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RootView {
    pub name: String,
    pub rigid: bool,
    /// A parameter of the procedure (or a rigid): part of the input.
    pub input: bool,
    pub target: TargetView,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HeapView {
    pub cells: Vec<CellView>,
    pub roots: Vec<RootView>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PairValueView {
    pub pair: u32,
    pub boolean: String,
    pub predicate: String,
    pub status: Status,
    pub concrete: Option<bool>,
    pub allowed: Allowed,
    pub mismatch: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SnapshotView {
    pub location: String,
    pub line: u32,
    /// The edge taken to get here and its C text.
    pub edge: Option<u32>,
    pub edge_text: String,
    pub heap: HeapView,
    pub values: Vec<PairValueView>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HeapRunView {
    /// The input heap in words (`x = c0, c0->n = c1, c1->n = NULL, k = c1`).
    pub title: String,
    pub cells: u32,
    pub snapshots: Vec<SnapshotView>,
    /// How the run ended, in words.
    pub end: String,
    /// Pair values outside their boolean's allowed values, over the whole run.
    pub mismatches: usize,
}

fn target(v: &Val) -> TargetView {
    match v {
        Val::Null => TargetView::Null,
        Val::Cell(c) => TargetView::Cell(*c),
        Val::Int => TargetView::Int,
        _ => TargetView::Invalid,
    }
}

fn target_text(t: &TargetView) -> String {
    match t {
        TargetView::Null => "NULL".into(),
        TargetView::Cell(c) => format!("c{c}"),
        TargetView::Int => "int".into(),
        TargetView::Invalid => "invalid".into(),
    }
}

/// The picture of `heap`: every cell with its fields, the procedure's pointer variables (not
/// the lowering's return variable) and the rigids.
pub fn heap_view(session: &Session, heap: &Heap) -> HeapView {
    let names = session.names();
    let program = &session.program;
    let space = autohint::heap_space(session);
    let fields: Vec<_> = space.iter().flat_map(|s| s.pointer_fields.iter().chain(s.int_fields.iter()).copied()).collect();
    let cells = heap
        .cells
        .iter()
        .enumerate()
        .map(|(c, cell)| CellView {
            name: format!("c{c}"),
            freed: !cell.alloc,
            fields: fields.iter().filter(|f| f.strukt == cell.strukt).map(|f| FieldView { field: names.field_name(*f), target: target(&heap.read(&Val::Slot(c as u32, *f))) }).collect(),
        })
        .collect();
    let pr = program.proc(session.proc);
    let pointer_vars: Vec<_> = space.map(|s| s.pointer_vars).unwrap_or_default();
    let mut roots: Vec<RootView> = pr
        .formals
        .iter()
        .chain(pr.locals.iter())
        .filter(|v| pointer_vars.contains(v) && pr.ret_var != Some(**v) && !matches!(program.var(**v).kind, VarKind::SymbolicConst { .. }))
        .map(|v| RootView { name: names.var_name(*v), rigid: false, input: pr.formals.contains(v), target: target(&heap.read(&Val::Var(*v))) })
        .collect();
    roots.extend(session.rigids.iter().zip(heap.rigids.iter()).map(|(r, v)| RootView { name: r.name.clone(), rigid: true, input: true, target: target(v) }));
    HeapView { cells, roots }
}

fn title(view: &HeapView) -> String {
    let mut parts: Vec<String> = view.roots.iter().filter(|r| r.input && !r.rigid).map(|r| format!("{} = {}", r.name, target_text(&r.target))).collect();
    for c in &view.cells {
        for f in c.fields.iter().filter(|f| f.target != TargetView::Int) {
            parts.push(format!("{}->{} = {}", c.name, f.field, target_text(&f.target)));
        }
    }
    parts.extend(view.roots.iter().filter(|r| r.rigid).map(|r| format!("{} = {}", r.name, target_text(&r.target))));
    if view.cells.is_empty() {
        parts.push("no cells".into());
    }
    parts.join(", ")
}

/// The runs as plain data, names resolved (`source` gives the locations' lines).
pub fn views(session: &Session, abs: &Abstraction, runs: &[ConcreteRun], source: &str) -> Vec<HeapRunView> {
    let names: Names = session.names();
    let fc = &session.flowchart;
    let index = LineIndex::new(source);
    runs.iter()
        .map(|run| {
            let snapshots: Vec<SnapshotView> = run
                .snapshots
                .iter()
                .map(|s| {
                    let loc = fc.location(s.loc);
                    SnapshotView {
                        location: loc.label.clone(),
                        line: index.line_col(loc.span.start).line,
                        edge: s.via.map(|e| e.0),
                        edge_text: s.via.map(|e| fc.edges[e.0 as usize].text.clone()).unwrap_or_default(),
                        heap: heap_view(session, &s.heap),
                        values: s
                            .values
                            .iter()
                            .map(|v| PairValueView {
                                pair: v.pair.0,
                                boolean: crate::emit::bool_name(v.pred.0),
                                predicate: names.pred(abs.pred(v.pred)),
                                status: v.status,
                                concrete: v.concrete,
                                allowed: v.allowed,
                                mismatch: v.mismatch(),
                            })
                            .collect(),
                    }
                })
                .collect();
            let end = match run.end {
                End::Returned => "returned".to_string(),
                End::Blocked => "blocked: every guard out of the last location is false".to_string(),
                End::BadDereference(e) => format!("stopped: edge {} ({}) dereferences NULL or a freed cell", e.0, fc.edges[e.0 as usize].text),
                End::StepLimit => format!("stopped after {MAX_STEPS} edges"),
            };
            HeapRunView {
                title: snapshots.first().map(|s| title(&s.heap)).unwrap_or_default(),
                cells: run.cells,
                mismatches: snapshots.iter().flat_map(|s| s.values.iter()).filter(|v| v.mismatch).count(),
                snapshots,
                end,
            }
        })
        .collect()
}
