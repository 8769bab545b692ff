//! Verdicts side by side (a project addition to seed 003): the hidden program's
//! counterexample is replayed on the original program in the concrete interpreter
//! (`c_ir::interp`) to tell a real bug from an artefact of hiding, and the localization
//! refinement (`--refine-hiding`) picks the variables to un-hide from the `NONDET` tests on
//! the spurious path.
//!
//! The hidden program used for checking spells every `NONDET` as `__VERIFIER_nondet_int()`
//! at a known output offset ([`crate::printer::NondetMark`]), so the inputs its
//! counterexample consumes split into the hiding's choices (at those offsets) and the
//! original program's own inputs (everywhere else), which are replayed in order.

use crate::model::*;
use crate::printer::NondetMark;
use crate::transform::{EditKind, Transformed};
use c_ir::interp::{self, Limits, Outcome};
use std::cell::Cell;

/// The variables a property mentions: arguments of `assert`-like calls and the conditions of
/// `if` statements with an error call (`reach_error()`, `__VERIFIER_error()`, `abort()` in
/// an error branch is not counted) in a branch.
pub fn property_variables(program: &Program) -> Vec<VarId> {
    let mut out = Vec::new();
    for top in &program.tops {
        if let TopKind::Func(f) = &top.kind {
            for item in &f.body {
                if let Item::Stmt(s) = item {
                    stmt_property(s, &mut out);
                }
            }
        }
    }
    out
}

fn is_error_call(name: &str) -> bool {
    matches!(name, "reach_error" | "__VERIFIER_error" | "__assert_fail")
}

fn is_assert_call(name: &str) -> bool {
    matches!(name, "assert" | "__VERIFIER_assert" | "__CPROVER_assert")
}

fn calls_error(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Expr(Some(e)) => matches!(&e.kind, ExprKind::Call { callee: Callee::Direct(n), .. } if is_error_call(n)),
        StmtKind::Block(items) => items.iter().any(|i| matches!(i, Item::Stmt(s) if calls_error(s))),
        StmtKind::Labeled(_, b) => calls_error(b),
        _ => false,
    }
}

fn vars_of(e: &Expr, out: &mut Vec<VarId>) {
    match &e.kind {
        ExprKind::Var(v) => {
            if !out.contains(v) {
                out.push(*v)
            }
        }
        ExprKind::Member { base: x, .. } | ExprKind::Unary(_, x) | ExprKind::Cast { e: x, .. } | ExprKind::IncDec(_, x) => vars_of(x, out),
        ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) | ExprKind::Assign(_, a, b) => {
            vars_of(a, out);
            vars_of(b, out);
        }
        ExprKind::Cond(a, b, c) => {
            vars_of(a, out);
            vars_of(b, out);
            vars_of(c, out);
        }
        ExprKind::Comma(items) => items.iter().for_each(|x| vars_of(x, out)),
        ExprKind::Call { args, .. } => args.iter().for_each(|x| vars_of(x, out)),
        _ => {}
    }
}

fn expr_property(e: &Expr, out: &mut Vec<VarId>) {
    if let ExprKind::Call { callee: Callee::Direct(n), args } = &e.kind {
        if is_assert_call(n) {
            args.iter().for_each(|a| vars_of(a, out));
        }
    }
    if let ExprKind::Comma(items) = &e.kind {
        items.iter().for_each(|x| expr_property(x, out));
    }
}

fn stmt_property(s: &Stmt, out: &mut Vec<VarId>) {
    match &s.kind {
        StmtKind::Expr(Some(e)) => expr_property(e, out),
        StmtKind::Block(items) => items.iter().for_each(|i| {
            if let Item::Stmt(s) = i {
                stmt_property(s, out)
            }
        }),
        StmtKind::If(c, t, f) => {
            if calls_error(t) || f.as_ref().is_some_and(|f| calls_error(f)) {
                vars_of(c, out);
            }
            stmt_property(t, out);
            if let Some(f) = f {
                stmt_property(f, out);
            }
        }
        StmtKind::While(_, b) | StmtKind::Switch(_, b) | StmtKind::DoWhile(b, _) | StmtKind::For(_, _, _, b) | StmtKind::Labeled(_, b) => stmt_property(b, out),
        _ => {}
    }
}

/// The inputs of a hidden program's run, split by who asked for them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SplitInputs {
    /// The original program's own inputs, in order.
    pub original: Vec<i128>,
    /// The values the hiding's `NONDET`s took, in order, with the output line of each.
    pub nondet_choices: Vec<(u32, i128)>,
}

/// Runs the hidden program (`hidden_text`, printed with [`crate::transform::NondetStyle::Call`])
/// on `inputs` and splits them. `None` when it does not lower.
pub fn split_inputs(hidden_text: &str, nondets: &[NondetMark], inputs: &[i128]) -> Option<SplitInputs> {
    let (program, _) = c_front::lower(hidden_text, "hidden.c", &c_front::LowerOptions::default());
    let program = program?;
    let current = Cell::new(None::<c_ir::StmtRef>);
    let next = Cell::new(0usize);
    let split = std::cell::RefCell::new(SplitInputs::default());
    let mut on_step = |at: c_ir::StmtRef, _: &interp::State| current.set(Some(at));
    let mut input = |_: &c_ir::Type| -> i128 {
        let value = inputs.get(next.get()).copied().unwrap_or(0);
        next.set(next.get() + 1);
        let start = current.get().map(|at| program.stmt(at).span.start);
        match nondets.iter().find(|m| Some(m.offset) == start) {
            Some(m) => split.borrow_mut().nondet_choices.push((m.out_line, value)),
            None => split.borrow_mut().original.push(value),
        }
        value
    };
    let limits = Limits { record_path: false, ..Limits::new(5_000_000) };
    interp::run_observed(&program, &mut input, &limits, &mut on_step);
    Some(split.into_inner())
}

/// How a replay on the original program ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Replay {
    /// The original reaches the error with these inputs: the bug is real.
    ReachesError,
    /// It does not (the hidden program's bug may be an artefact of hiding).
    NoError(String),
    /// The original could not be lowered.
    CannotRun(String),
}

/// Runs the original program on `inputs` (then zeros).
pub fn replay_original(source: &str, file_name: &str, inputs: &[i128]) -> Replay {
    let (program, diagnostics) = c_front::lower(source, file_name, &c_front::LowerOptions::default());
    let Some(program) = program.filter(|_| !diagnostics::has_errors(&diagnostics)) else {
        return Replay::CannotRun(diagnostics.iter().find(|d| d.is_error()).map(|d| d.message.clone()).unwrap_or_default());
    };
    let mut next = 0usize;
    let mut input = |_: &c_ir::Type| -> i128 {
        let v = inputs.get(next).copied().unwrap_or(0);
        next += 1;
        v
    };
    let limits = Limits { record_path: false, ..Limits::new(5_000_000) };
    match interp::run(&program, &mut input, &limits).outcome {
        Outcome::ReachedError => Replay::ReachesError,
        Outcome::Returned(_) => Replay::NoError("the original returns normally".into()),
        Outcome::AssumeFailed => Replay::NoError("the original's path is infeasible (an assumption fails)".into()),
        Outcome::StepLimit => Replay::NoError("the original did not stop within 5,000,000 steps".into()),
        Outcome::RuntimeError(m, _) => Replay::NoError(format!("the original stops with a runtime error: {m}")),
    }
}

/// Localization refinement: the hidden variables behind the `NONDET` test closest to the
/// error on a spurious path (`out_lines`: the path's lines in the hidden program, in order);
/// when the path passes no abstract test, those behind the last `NONDET` value.
pub fn refinement_candidates(t: &Transformed, out_lines: &[u32]) -> Vec<VarId> {
    let lines: Vec<u32> = out_lines.iter().filter_map(|l| t.source_line(*l)).collect();
    for kind in [EditKind::NondetTest, EditKind::NondetValue] {
        for line in lines.iter().rev() {
            let mut out = Vec::new();
            for e in t.edits.iter().filter(|e| e.kind == kind && e.line == *line) {
                for v in &e.vars {
                    if !out.contains(v) {
                        out.push(*v);
                    }
                }
            }
            if !out.is_empty() {
                return out;
            }
        }
    }
    Vec::new()
}
