//! Violation witnesses from concrete runs, and their validation by running the program.
//!
//! Writing: the counterexample's inputs are replayed in the interpreter (`c_ir::interp`, loop
//! acceleration on) and every step is turned into format-2.0 waypoints: a nondeterministic value
//! stored in a program variable becomes an `assumption` (`x == 5`, located at the next statement,
//! where it holds), any other one a `function_return` (`\result == 5`, at the call's closing
//! parenthesis); each `if`/`while`/`for` decision a `branching` waypoint at its keyword; the
//! error call the `target`.
//!
//! Validating: the interpreter runs the program, taking each nondeterministic value from the
//! next value-bearing waypoint that applies to the call (else 0, and the run is then only one of
//! the executions the witness describes), and matches the `follow` waypoints in order, each at
//! the first step where it holds (constraints are evaluated in the interpreter's state). The
//! witness is valid when the run reaches the error at the target after matching all of them.

use crate::model::*;
use crate::source::SourceIndex;
use crate::Validity;
use c_ir::interp::{self, Limits, Outcome, State};
use c_ir::{Expr, ExprKind, Program, StmtKind, StmtRef, VarKind};
use std::cell::RefCell;
use budget::hash::HashMap;

/// Budget of one replay (statements; accelerated loop iterations are not counted).
pub const MAX_STEPS: u64 = 50_000_000;

/// Branching waypoints written at most (nondeterministic values and the target are always written).
pub const MAX_BRANCH_WAYPOINTS: usize = 2_000;

fn limits() -> Limits {
    Limits {
        record_path: false,
        accelerate_loops: true,
        ..Limits::new(MAX_STEPS)
    }
}

/// The source position a statement is matched at: the keyword of a branch (`goto` over two
/// targets whose span is an `if`/`while`/`for` condition), else the start of its span.
fn branch_keyword(program: &Program, index: &SourceIndex, at: StmtRef) -> Option<u32> {
    let stmt = program.stmt(at);
    match &stmt.kind {
        StmtKind::Goto { targets } if targets.len() == 2 => index.branch_with_condition(stmt.span.start, stmt.span.end).map(|b| b.keyword),
        _ => None,
    }
}

fn anchor(program: &Program, index: &SourceIndex, at: StmtRef) -> u32 {
    branch_keyword(program, index, at).unwrap_or(program.stmt(at).span.start)
}

/// The source variable a havoc writes, when it is one (`x = __VERIFIER_nondet_int()`).
fn havocked_source_var(program: &Program, at: StmtRef) -> Option<String> {
    match &program.stmt(at).kind {
        StmtKind::Havoc { lhs } => match &lhs.kind {
            ExprKind::Var(v) if lhs.ty.is_integer() => {
                let var = program.var(*v);
                matches!(var.kind, VarKind::Local(_) | VarKind::Global | VarKind::Formal(..)).then(|| var.source_name.clone())
            }
            _ => None,
        },
        _ => None,
    }
}

fn location(program: &Program, index: &SourceIndex, file_name: &str, proc: c_ir::ProcId, offset: u32) -> Location {
    let (line, column) = index.line_col(offset);
    Location {
        file_name: file_name.to_string(),
        line,
        column: Some(column),
        function: Some(program.proc(proc).name.clone()),
    }
}

struct Writer<'a> {
    program: &'a Program,
    index: &'a SourceIndex,
    file_name: &'a str,
    waypoints: Vec<Waypoint>,
    /// The statement before the current one, and the call depth then.
    prev: Option<(StmtRef, usize)>,
    /// Values consumed by the statement executing now.
    consumed: Vec<i128>,
    /// A value stored in a source variable, waiting for the next statement: (havoc, depth, variable, value).
    pending: Option<(StmtRef, usize, String, i128)>,
    branches: usize,
    notes: Vec<String>,
}

impl Writer<'_> {
    fn push(&mut self, kind: WaypointKind, proc: c_ir::ProcId, offset: u32) {
        let location = location(self.program, self.index, self.file_name, proc, offset);
        self.waypoints.push(Waypoint {
            kind,
            action: Action::Follow,
            location,
        });
    }

    fn function_return(&mut self, at: StmtRef, value: i128) {
        let span = self.program.stmt(at).span;
        match self.index.last_close_paren(span.start, span.end) {
            Some(paren) => self.push(
                WaypointKind::FunctionReturn {
                    constraint: format!("\\result == {value}"),
                },
                at.proc,
                paren,
            ),
            None => self
                .notes
                .push(format!("no call found for the nondeterministic value {value} at byte {}", span.start)),
        }
    }

    fn flush_pending(&mut self) {
        if let Some((h, _, _, v)) = self.pending.take() {
            self.function_return(h, v);
        }
    }

    /// Turns the values the previous statement consumed into waypoints.
    fn values_of_previous(&mut self, at: StmtRef, depth: usize) {
        let Some((h, hdepth)) = self.prev else { return };
        let values = std::mem::take(&mut self.consumed);
        if values.is_empty() {
            return;
        }
        self.flush_pending();
        let is_pointer = matches!(&self.program.stmt(h).kind, StmtKind::Havoc { lhs } if lhs.ty.is_pointer());
        if values.len() > 1 || is_pointer {
            self.notes.push(format!(
                "{} nondeterministic value(s) of an aggregate or pointer are not expressible as waypoints",
                values.len()
            ));
            return;
        }
        let _ = (at, depth);
        match havocked_source_var(self.program, h) {
            Some(name) => self.pending = Some((h, hdepth, name, values[0])),
            None => self.function_return(h, values[0]),
        }
    }

    fn step(&mut self, at: StmtRef, depth: usize) {
        self.values_of_previous(at, depth);
        if let Some((h, hdepth, name, v)) = self.pending.clone() {
            let end = self.program.stmt(h).span.end;
            let a = anchor(self.program, self.index, at);
            match self.index.statement_after(end) {
                _ if at.proc != h.proc || depth != hdepth => self.flush_pending(),
                Some((s, e)) if s <= a && a < e => {
                    self.pending = None;
                    self.push(
                        WaypointKind::Assumption {
                            constraint: format!("{name} == {v}"),
                        },
                        at.proc,
                        s,
                    );
                }
                Some((_, e)) if a >= e => self.flush_pending(),
                None => self.flush_pending(),
                _ => {}
            }
        }
        if let Some((p, pdepth)) = self.prev {
            if p.proc == at.proc && pdepth == depth {
                if let StmtKind::Goto { targets } = &self.program.stmt(p).kind {
                    if let (Some(keyword), Some(k)) = (branch_keyword(self.program, self.index, p), targets.iter().position(|&t| t == at.index)) {
                        if self.branches < MAX_BRANCH_WAYPOINTS {
                            self.branches += 1;
                            self.push(WaypointKind::Branching { taken: k == 0 }, at.proc, keyword);
                        }
                    }
                }
            }
        }
        self.prev = Some((at, depth));
    }
}

/// The waypoints of the run on `inputs`, ending with the target. Errors when the run does not
/// reach the error. Also returns notes on values that could not be expressed.
pub fn violation_waypoints(program: &Program, index: &SourceIndex, file_name: &str, inputs: &[i128]) -> Result<(Vec<Waypoint>, Vec<String>), String> {
    let writer = RefCell::new(Writer {
        program,
        index,
        file_name,
        waypoints: Vec::new(),
        prev: None,
        consumed: Vec::new(),
        pending: None,
        branches: 0,
        notes: Vec::new(),
    });
    let mut next = 0usize;
    let mut input = |_: &c_ir::Type| -> i128 {
        let v = inputs.get(next).copied().unwrap_or(0);
        next += 1;
        writer.borrow_mut().consumed.push(v);
        v
    };
    let mut on_step = |at: StmtRef, state: &State| writer.borrow_mut().step(at, state.call_depth());
    let result = interp::run_with_stop(program, &mut input, &limits(), &mut on_step, &|| false);
    let mut w = writer.into_inner();
    if result.outcome != Outcome::ReachedError {
        return Err(format!(
            "the counterexample's inputs do not reach the error when replayed ({:?})",
            result.outcome
        ));
    }
    w.flush_pending();
    if w.branches >= MAX_BRANCH_WAYPOINTS {
        w.notes.push(format!("only the first {MAX_BRANCH_WAYPOINTS} branch decisions are listed"));
    }
    if let Some((at, _)) = w.prev {
        let offset = program.stmt(at).span.start;
        w.push(WaypointKind::Target, at.proc, offset);
    }
    Ok((w.waypoints, w.notes))
}

/// The outcome of validating a witness.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    pub validity: Validity,
    pub reasons: Vec<String>,
}

/// A number in a constraint `name == k`, `k == name` or `\result == k`: (name, k).
fn equality_constant(constraint: &str) -> Option<(String, i128)> {
    let (a, b) = constraint.split_once("==")?;
    let (a, b) = (a.trim().trim_matches(['(', ')']).trim(), b.trim().trim_matches(['(', ')']).trim());
    let number = |t: &str| -> Option<i128> {
        let t = t.trim_end_matches(['u', 'U', 'l', 'L']);
        t.parse::<i128>().ok()
    };
    match (number(a), number(b)) {
        (None, Some(k)) => Some((a.to_string(), k)),
        (Some(k), None) => Some((b.to_string(), k)),
        _ => None,
    }
}

struct Follow<'w> {
    waypoint: &'w Waypoint,
    offset: Option<u32>,
    value: Option<(String, i128)>,
}

struct Validator<'a, 'w> {
    program: &'a Program,
    index: &'a SourceIndex,
    follow: Vec<Follow<'w>>,
    next: usize,
    used: Vec<bool>,
    unpinned: usize,
    prev: Option<(StmtRef, usize)>,
    /// The value the previous statement consumed (if one).
    consumed: Option<i128>,
    parsed: HashMap<(usize, c_ir::ProcId), Option<Expr>>,
    reasons: Vec<String>,
}

impl Validator<'_, '_> {
    /// The value for the nondeterministic choice at `at`: the first unused value-bearing
    /// waypoint from the current position that applies to this call.
    fn input(&mut self, at: Option<StmtRef>) -> i128 {
        let Some(at) = at else {
            self.unpinned += 1;
            return 0;
        };
        let span = self.program.stmt(at).span;
        let paren = self.index.last_close_paren(span.start, span.end);
        let var = havocked_source_var(self.program, at);
        for j in self.next..self.follow.len() {
            if self.used[j] {
                continue;
            }
            let f = &self.follow[j];
            let Some((name, k)) = &f.value else { continue };
            let applies = match &f.waypoint.kind {
                WaypointKind::FunctionReturn { .. } => f.offset.is_some() && f.offset == paren,
                WaypointKind::Assumption { .. } => var.as_deref() == Some(name.as_str()),
                _ => false,
            };
            if applies {
                self.used[j] = true;
                return *k;
            }
            break;
        }
        self.unpinned += 1;
        0
    }

    fn holds(&mut self, j: usize, at: StmtRef, state: &State) -> bool {
        let WaypointKind::Assumption { constraint } = &self.follow[j].waypoint.kind else {
            return false;
        };
        let program = self.program;
        let expr = self
            .parsed
            .entry((j, at.proc))
            .or_insert_with(|| c_front::parse_expression(program, Some(at.proc), constraint).0);
        match expr {
            Some(e) => state.eval(e).is_some_and(|v| v != 0),
            None => {
                let msg = format!("the constraint `{constraint}` does not parse in `{}`", program.proc(at.proc).name);
                if !self.reasons.contains(&msg) {
                    self.reasons.push(msg);
                }
                false
            }
        }
    }

    fn step(&mut self, at: StmtRef, state: &State) {
        let depth = state.call_depth();
        let a = anchor(self.program, self.index, at);
        let mut branch = None;
        let mut returned = None;
        if let Some((p, pdepth)) = self.prev {
            if let Some(v) = self.consumed.take() {
                let span = self.program.stmt(p).span;
                returned = self.index.last_close_paren(span.start, span.end).map(|paren| (paren, v));
            }
            if p.proc == at.proc && pdepth == depth {
                if let StmtKind::Goto { targets } = &self.program.stmt(p).kind {
                    if let (Some(keyword), Some(k)) = (branch_keyword(self.program, self.index, p), targets.iter().position(|&t| t == at.index)) {
                        branch = Some((keyword, k == 0));
                    }
                }
            }
        }
        while self.next < self.follow.len() {
            let f = &self.follow[self.next];
            let matched = match &f.waypoint.kind {
                WaypointKind::Branching { taken } => branch.is_some_and(|(kw, t)| Some(kw) == f.offset && t == *taken),
                WaypointKind::FunctionReturn { .. } => {
                    returned.is_some_and(|(paren, v)| Some(paren) == f.offset && f.value.as_ref().is_none_or(|(_, k)| *k == v))
                }
                WaypointKind::Assumption { .. } => {
                    let here = match f.offset.and_then(|o| self.index.statement_at(o)) {
                        Some((s, e)) => s <= a && a < e,
                        None => Some(a) == f.offset,
                    };
                    here && self.holds(self.next, at, state)
                }
                WaypointKind::FunctionEnter => at.index == 0 && f.waypoint.location.function.as_deref() == Some(self.program.proc(at.proc).name.as_str()),
                WaypointKind::Target => false,
            };
            if !matched {
                break;
            }
            self.next += 1;
        }
        self.prev = Some((at, depth));
    }
}

/// Validates a violation witness by running the program as it directs.
pub fn validate_violation(program: &Program, index: &SourceIndex, witness: &ViolationWitness) -> Report {
    let mut reasons = Vec::new();
    let all = witness.follow_waypoints();
    let avoid = witness.segments.iter().flatten().filter(|w| w.action == Action::Avoid).count();
    if avoid > 0 {
        reasons.push(format!("{avoid} `avoid` waypoint(s) are not checked"));
    }
    let Some((target, rest)) = all.split_last().filter(|(t, _)| t.kind == WaypointKind::Target) else {
        return Report {
            validity: Validity::Invalid,
            reasons: vec!["the witness does not end with a target waypoint".into()],
        };
    };
    let follow: Vec<Follow> = rest
        .iter()
        .map(|w| {
            let value = match &w.kind {
                WaypointKind::Assumption { constraint } => equality_constant(constraint),
                WaypointKind::FunctionReturn { constraint } => equality_constant(constraint).filter(|(n, _)| n == "\\result"),
                _ => None,
            };
            let offset = match w.kind {
                WaypointKind::Branching { .. } | WaypointKind::Assumption { .. } | WaypointKind::FunctionReturn { .. } => {
                    index.offset_of(w.location.line, w.location.column)
                }
                _ => None,
            };
            Follow { waypoint: w, offset, value }
        })
        .collect();
    let n = follow.len();
    let validator = RefCell::new(Validator {
        program,
        index,
        used: vec![false; n],
        follow,
        next: 0,
        unpinned: 0,
        prev: None,
        consumed: None,
        parsed: HashMap::default(),
        reasons: Vec::new(),
    });
    let mut input = |_: &c_ir::Type| -> i128 {
        let mut v = validator.borrow_mut();
        let at = v.prev.map(|(at, _)| at);
        let value = v.input(at);
        v.consumed = Some(value);
        value
    };
    let mut on_step = |at: StmtRef, state: &State| validator.borrow_mut().step(at, state);
    let result = interp::run_with_stop(program, &mut input, &limits(), &mut on_step, &|| false);
    let v = validator.into_inner();
    reasons.extend(v.reasons);
    let inexact = if v.unpinned > 0 {
        format!(" ({} nondeterministic value(s) were not given by the witness; 0 was used)", v.unpinned)
    } else {
        String::new()
    };
    let fail = |mut reasons: Vec<String>, why: String| {
        reasons.push(format!("{why}{inexact}"));
        let validity = if v.unpinned > 0 { Validity::Unknown } else { Validity::Invalid };
        Report { validity, reasons }
    };
    if v.next < n {
        let w = v.follow[v.next].waypoint;
        let (line, col) = (w.location.line, w.location.column.unwrap_or(0));
        return fail(
            reasons,
            format!(
                "waypoint {} of {} ({} at {line}:{col}) is never passed; the run ended with {:?}",
                v.next + 1,
                n + 1,
                kind_name(&w.kind),
                result.outcome
            ),
        );
    }
    if result.outcome != Outcome::ReachedError {
        return fail(
            reasons,
            format!("after all waypoints the run does not reach the error (it ended with {:?})", result.outcome),
        );
    }
    let error_at = v.prev.map(|(at, _)| index.line_col(program.stmt(at).span.start));
    let on_target = match (error_at, index.offset_of(target.location.line, target.location.column)) {
        (Some((line, col)), Some(_)) => line == target.location.line && target.location.column.is_none_or(|c| c == col),
        _ => false,
    };
    if !on_target {
        let (line, col) = error_at.unwrap_or((0, 0));
        return fail(
            reasons,
            format!(
                "the error is reached at {line}:{col}, not at the target {}:{}",
                target.location.line,
                target.location.column.unwrap_or(0)
            ),
        );
    }
    if v.unpinned > 0 {
        reasons.push(format!(
            "{} nondeterministic value(s) were not given by the witness; the run with 0 reaches the target",
            v.unpinned
        ));
    }
    reasons.insert(0, format!("the run passes all {} waypoints and reaches the error at the target", n + 1));
    Report {
        validity: Validity::Valid,
        reasons,
    }
}

fn kind_name(k: &WaypointKind) -> &'static str {
    match k {
        WaypointKind::Assumption { .. } => "assumption",
        WaypointKind::Branching { .. } => "branching",
        WaypointKind::FunctionReturn { .. } => "function_return",
        WaypointKind::FunctionEnter => "function_enter",
        WaypointKind::Target => "target",
    }
}
