//! Loop acceleration for concrete runs: a loop whose iteration moves every scalar variable by a
//! constant, along a path whose branch conditions stay the same for the next `K` iterations, is
//! jumped over in one step (the interpreter then executes the last of those iterations itself).
//!
//! At a loop head (the target of a backward jump), two consecutive visits give each variable's
//! change per iteration `δ`. The next iteration is then tracked symbolically: every value computed
//! along it is `v + c·k` in the iteration number `k`, where `v` is the concrete value and the
//! coefficient `c` is derived from the `δ` of the variables read (sums, differences, products
//! with a value constant in `k`; anything else only on values constant in `k`). Each branch
//! condition keeps its truth value while its linear form does not cross its threshold, and
//! each value stays in its type's range while `v + c·k` does (no wrap-around), which bounds `K`.
//! When the iteration ends at the same loop head with the coefficients it started with, the
//! state after iteration `k` is exactly the state before plus `(k + 1)·δ` for every `k < K`.
//!
//! Anything outside this fragment stops the tracking (memory reads or writes other than scalar
//! variables, inputs, allocation, leaving the loop's procedure), and the loop runs concretely;
//! failed attempts at a loop head are retried after exponentially more visits.

use super::{Frame, State};
use crate::{BinaryOp, Expr, ExprKind, StmtKind, StmtRef, Type, UnaryOp, VarId};
use budget::hash::HashMap;

/// Fewer skipped iterations than this are not worth a jump.
const MIN_JUMP: u128 = 4;

/// One jump over loop iterations, as an observer sees it ([`State::last_acceleration`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Acceleration {
    /// The loop head.
    pub at: StmtRef,
    /// Iterations skipped.
    pub iterations: u64,
    /// The variables that change, with their change per iteration.
    pub deltas: Vec<(VarId, i128)>,
}

/// A scalar variable instance of the loop's frame or a global.
#[derive(Clone, Debug)]
struct Slot {
    block: u32,
    var: VarId,
    ty: Type,
    value: i128,
}

#[derive(Default)]
struct Head {
    visits: u64,
    next_attempt: u64,
    failures: u32,
    /// The slots at the previous visit, when that visit was an attempt's first.
    snapshot: Option<Vec<Slot>>,
}

struct Tracking {
    head: StmtRef,
    depth: usize,
    /// Slots at the start of the tracked iteration, with their change per iteration.
    start: Vec<(Slot, i128)>,
    /// Coefficient of `k` in each variable instance's current value.
    coefficients: HashMap<u32, i128>,
    /// The iterations `0..bound` follow the tracked path (`None`: unbounded so far).
    bound: Option<u128>,
    /// For each call under way in the iteration, the variable instance receiving its result.
    results: Vec<Option<u32>>,
}

/// What a statement does to the coefficients once it has executed.
pub(super) enum Pending {
    None,
    Assign { block: u32, coefficient: i128 },
    Call { coefficients: Vec<i128> },
    Return { target: Option<(u32, i128)> },
}

#[derive(Default)]
pub(super) struct Accelerator {
    /// Per procedure (by index), whether each statement is a loop head.
    loop_heads: Vec<Option<Vec<bool>>>,
    heads: HashMap<(usize, StmtRef), Head>,
    tracking: Option<Tracking>,
}

impl Head {
    /// Plans the next attempt after one that jumped (soon) or failed (twice as late as the
    /// last failure, at most 2^20 visits later).
    fn schedule(&mut self, jumped: bool) {
        self.failures = if jumped { 0 } else { (self.failures + 1).min(20) };
        self.next_attempt = self.visits + (1u64 << self.failures);
        self.snapshot = None;
    }
}

/// The tracking cannot continue.
struct Unsupported;

/// A value and the coefficient of the iteration number `k` in it.
type Affine = Result<(i128, i128), Unsupported>;

impl Accelerator {
    fn is_loop_head(&mut self, state: &State, at: StmtRef) -> bool {
        let procs = state.program.procs.len();
        if self.loop_heads.len() < procs {
            self.loop_heads.resize(procs, None);
        }
        let Some(slot) = self.loop_heads.get_mut(at.proc.0 as usize) else { return false };
        let heads = slot.get_or_insert_with(|| {
            let body = &state.program.proc(at.proc).body;
            let mut heads = vec![false; body.len()];
            for (pc, stmt) in body.iter().enumerate() {
                if let StmtKind::Goto { targets } = &stmt.kind {
                    for &t in targets.iter().filter(|&&t| t as usize <= pc) {
                        heads[t as usize] = true;
                    }
                }
            }
            heads
        });
        heads.get(at.index as usize).copied().unwrap_or(false)
    }

    /// Called before the statement at `at` executes; may move the state ahead by whole
    /// iterations of the loop headed at `at`.
    pub(super) fn at_statement(&mut self, state: &mut State, at: StmtRef) {
        if !self.is_loop_head(state, at) {
            return;
        }
        let depth = state.frames.len();
        if let Some(t) = &self.tracking {
            if t.head == at && t.depth == depth {
                let t = self.tracking.take().expect("tracking");
                let jumped = self.finish(state, t);
                self.heads.entry((depth, at)).or_default().schedule(jumped);
            }
            return;
        }
        let head = self.heads.entry((depth, at)).or_default();
        head.visits += 1;
        if head.visits + 1 == head.next_attempt.max(2) {
            head.snapshot = Some(slots(state));
        } else if head.visits >= head.next_attempt.max(2) {
            if let Some(before) = head.snapshot.take() {
                let now = slots(state);
                // slots by block; a variable leaving or entering the definedness set fails below
                let start: Vec<(Slot, i128)> = now
                    .into_iter()
                    .filter_map(|s| {
                        let old = before.iter().find(|b| b.block == s.block)?;
                        let delta = s.value - old.value;
                        Some((s, delta))
                    })
                    .collect();
                if start.iter().any(|(_, d)| *d != 0) {
                    let coefficients = start.iter().map(|(s, d)| (s.block, *d)).collect();
                    self.tracking = Some(Tracking { head: at, depth, start, coefficients, bound: None, results: Vec::new() });
                    return;
                }
            }
            head.schedule(false);
        }
    }

    /// Whether a tracked iteration is under way.
    pub(super) fn tracking(&self) -> bool {
        self.tracking.is_some()
    }

    /// The coefficient effects of `kind` (about to execute in `state`), or the end of the
    /// tracking when it leaves the fragment.
    pub(super) fn before(&mut self, state: &State, kind: &StmtKind) -> Pending {
        let Some(t) = self.tracking.as_mut() else { return Pending::None };
        match effect(state, t, kind) {
            Ok(p) => p,
            Err(Unsupported) => {
                self.abandon();
                Pending::None
            }
        }
    }

    /// Applies `pending` after its statement executed.
    pub(super) fn after(&mut self, state: &State, pending: Pending) {
        let Some(t) = self.tracking.as_mut() else { return };
        if state.frames.len() < t.depth {
            self.abandon();
            return;
        }
        match pending {
            Pending::None => {}
            Pending::Assign { block, coefficient } => {
                t.coefficients.insert(block, coefficient);
            }
            Pending::Call { coefficients } => {
                let frame: &Frame = state.frames.last().expect("callee frame");
                let formals = &state.program.proc(frame.proc).formals;
                for (f, c) in formals.iter().zip(coefficients) {
                    if let Some(&b) = frame.vars.get(f) {
                        t.coefficients.insert(b, c);
                    }
                }
            }
            Pending::Return { target } => {
                if let Some((block, c)) = target {
                    t.coefficients.insert(block, c);
                }
            }
        }
    }

    fn abandon(&mut self) {
        if let Some(t) = self.tracking.take() {
            self.heads.entry((t.depth, t.head)).or_default().schedule(false);
        }
    }

    /// Checks the tracked iteration and jumps; true when it jumped.
    fn finish(&mut self, state: &mut State, t: Tracking) -> bool {
        let now = slots(state);
        // each tracked variable's value after iteration 0
        let mut after = Vec::with_capacity(t.start.len());
        for (slot, delta) in &t.start {
            let Some(end) = now.iter().find(|s| s.block == slot.block) else { return false };
            if end.value - slot.value != *delta || t.coefficients.get(&slot.block) != Some(delta) {
                return false;
            }
            after.push(end.value);
        }
        // every variable of the frame and every global written in the iteration was tracked
        for (block, c) in &t.coefficients {
            let alive = state.blocks.get(*block as usize).is_some_and(|b| b.alive);
            if alive && !t.start.iter().any(|(s, _)| s.block == *block) && *c != 0 {
                return false;
            }
        }
        // iterations 0..bound share the path; iteration 0 is done, iteration bound - 1 runs
        // concretely: skip 1..bound-1
        let Some(bound) = t.bound else { return false };
        if bound < MIN_JUMP + 2 {
            return false;
        }
        let skip = (bound - 2).min(u64::MAX as u128 / 2) as i128;
        for ((slot, delta), value) in t.start.iter().zip(after) {
            if *delta == 0 {
                continue;
            }
            if state.store(State::address(slot.block, 0), &slot.ty, value + delta * skip).is_err() {
                return false;
            }
        }
        state.skipped_iterations = state.skipped_iterations.saturating_add(skip as u64);
        state.last_acceleration = Some(Acceleration {
            at: t.head,
            iterations: skip as u64,
            deltas: t.start.iter().filter(|(_, d)| *d != 0).map(|(s, d)| (s.var, *d)).collect(),
        });
        true
    }
}

/// The scalar integer variables of the current frame and the globals that hold a value.
fn slots(state: &State) -> Vec<Slot> {
    let program = state.program;
    let frame_vars = state.frames.last().map(|f| f.vars.iter().map(|(v, b)| (*v, *b)).collect::<Vec<_>>()).unwrap_or_default();
    let globals = state.globals.iter().map(|(v, b)| (*v, *b));
    frame_vars
        .into_iter()
        .chain(globals)
        .filter_map(|(var, block)| {
            let ty = program.vars.get(var.0 as usize)?.ty.clone();
            if !ty.is_integer() {
                return None;
            }
            let b = state.blocks.get(block as usize)?;
            if !b.alive || b.defined.contains(&false) {
                return None;
            }
            let value = state.load(State::address(block, 0), &ty).ok()?;
            Some(Slot { block, var, ty, value })
        })
        .collect()
}

impl Tracking {
    fn limit(&mut self, k: u128) {
        self.bound = Some(self.bound.map_or(k, |b| b.min(k)));
    }

    /// `v + c·k` stays within `[lo, hi]` for `k < bound`.
    fn keep_within(&mut self, v: i128, c: i128, lo: i128, hi: i128) {
        if c > 0 {
            self.limit(((hi - v) / c) as u128 + 1);
        } else if c < 0 {
            self.limit(((v - lo) / -c) as u128 + 1);
        }
    }

    /// `v + c·k` stays a value of `ty` (nothing wraps) for `k < bound`.
    fn keep_in_type(&mut self, v: i128, c: i128, ty: &Type) -> Result<(), Unsupported> {
        if c != 0 {
            let (lo, hi) = ty.value_range().ok_or(Unsupported)?;
            self.keep_within(v, c, lo, hi);
        }
        Ok(())
    }

    /// The sign of `f(k) = v + c·k` stays as it is at `k = 0` (negative, zero or positive) for
    /// `k < bound`.
    fn keep_sign(&mut self, v: i128, c: i128) {
        if c == 0 {
            return;
        }
        if v == 0 {
            self.limit(1);
        } else if (v > 0) == (c > 0) {
            // moving away from zero: keeps its sign (the range checks bound it)
        } else {
            // the first k with v + c·k at zero or across it
            self.limit(v.unsigned_abs().div_ceil(c.unsigned_abs()));
        }
    }
}

/// The value of `e` in `state` and the coefficient of `k` in it, adding the path and range
/// conditions.
fn affine(state: &State, t: &mut Tracking, e: &Expr) -> Affine {
    let value = state.eval_expr(e).map_err(|_| Unsupported)?;
    let c = match &e.kind {
        ExprKind::Const(_) => 0,
        ExprKind::Var(v) => {
            if !(e.ty.is_integer() || e.ty.is_pointer()) {
                return Err(Unsupported);
            }
            let block = state.variable_block(*v).map_err(|_| Unsupported)?;
            *t.coefficients.get(&block).ok_or(Unsupported)?
        }
        ExprKind::Unary(op, a) => {
            let (va, ca) = affine(state, t, a)?;
            match op {
                UnaryOp::Neg | UnaryOp::BitNot => -ca,
                UnaryOp::Not => {
                    t.keep_sign(va, ca);
                    0
                }
            }
        }
        ExprKind::Cast(a) => {
            let (va, ca) = affine(state, t, a)?;
            if e.ty == Type::Bool {
                t.keep_sign(va, ca);
                0
            } else {
                ca
            }
        }
        ExprKind::Ite(cond, a, b) => {
            let (vc, cc) = affine(state, t, cond)?;
            t.keep_sign(vc, cc);
            affine(state, t, if vc != 0 { a } else { b })?.1
        }
        ExprKind::Binary(op, a, b) => {
            if a.ty.is_pointer() || b.ty.is_pointer() {
                // pointer arithmetic and comparisons only on values constant in k
                let (ca, cb) = (affine(state, t, a)?.1, affine(state, t, b)?.1);
                if ca != 0 || cb != 0 {
                    return Err(Unsupported);
                }
                return Ok((value, 0));
            }
            match op {
                BinaryOp::And | BinaryOp::Or | BinaryOp::Implies => {
                    let (va, ca) = affine(state, t, a)?;
                    t.keep_sign(va, ca);
                    // the right operand counts only when the left one does not decide
                    let decided = if *op == BinaryOp::Or { va != 0 } else { va == 0 };
                    if !decided {
                        let (vb, cb) = affine(state, t, b)?;
                        t.keep_sign(vb, cb);
                    }
                    0
                }
                _ => {
                    let (va, ca) = affine(state, t, a)?;
                    let (vb, cb) = affine(state, t, b)?;
                    match op {
                        BinaryOp::Add => ca.checked_add(cb).ok_or(Unsupported)?,
                        BinaryOp::Sub => ca.checked_sub(cb).ok_or(Unsupported)?,
                        BinaryOp::Mul if ca == 0 => va.checked_mul(cb).ok_or(Unsupported)?,
                        BinaryOp::Mul if cb == 0 => ca.checked_mul(vb).ok_or(Unsupported)?,
                        BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => {
                            // the comparison keeps its value while `a - b` keeps its sign
                            let diff = va.checked_sub(vb).ok_or(Unsupported)?;
                            t.keep_sign(diff, ca.checked_sub(cb).ok_or(Unsupported)?);
                            0
                        }
                        _ if ca == 0 && cb == 0 => 0,
                        _ => return Err(Unsupported),
                    }
                }
            }
        }
        // memory reads, addresses and strings: outside the fragment
        _ => return Err(Unsupported),
    };
    t.keep_in_type(value, c, &e.ty)?;
    Ok((value, c))
}

/// The condition `cond` (true or false now) keeps its value.
fn keep_condition(state: &State, t: &mut Tracking, cond: &Expr) -> Result<(), Unsupported> {
    let (v, c) = affine(state, t, cond)?;
    t.keep_sign(v, c);
    Ok(())
}

fn effect(state: &State, t: &mut Tracking, kind: &StmtKind) -> Result<Pending, Unsupported> {
    let program = state.program;
    Ok(match kind {
        StmtKind::Skip => Pending::None,
        StmtKind::Assign { lhs, rhs } => {
            let ExprKind::Var(v) = lhs.kind else { return Err(Unsupported) };
            if !lhs.ty.is_integer() {
                return Err(Unsupported);
            }
            let block = state.variable_block(v).map_err(|_| Unsupported)?;
            let (value, mut coefficient) = affine(state, t, rhs)?;
            if lhs.ty == Type::Bool {
                // stored as `value != 0`
                t.keep_sign(value, coefficient);
                coefficient = 0;
            }
            // the conversion to the variable's type must not wrap either
            t.keep_in_type(value, coefficient, &lhs.ty)?;
            Pending::Assign { block, coefficient }
        }
        StmtKind::Assume { cond } => {
            keep_condition(state, t, cond)?;
            Pending::None
        }
        StmtKind::Goto { targets } => {
            let frame = state.frames.last().ok_or(Unsupported)?;
            let body = &program.proc(frame.proc).body;
            for &target in targets {
                match body.get(target as usize).map(|s| &s.kind) {
                    Some(StmtKind::Assume { cond }) => keep_condition(state, t, cond)?,
                    // a target without a condition is a nondeterministic choice
                    _ if targets.len() > 1 => return Err(Unsupported),
                    _ => {}
                }
            }
            Pending::None
        }
        StmtKind::Call { lhs, callee, args } => {
            if let Some(l) = lhs {
                let ExprKind::Var(v) = l.kind else { return Err(Unsupported) };
                if !l.ty.is_integer() {
                    return Err(Unsupported);
                }
                t.results.push(Some(state.variable_block(v).map_err(|_| Unsupported)?));
            } else {
                t.results.push(None);
            }
            let mut coefficients = Vec::new();
            let formals = &program.procs.get(callee.0 as usize).ok_or(Unsupported)?.formals;
            for (a, f) in args.iter().zip(formals) {
                if !a.ty.is_scalar() {
                    return Err(Unsupported);
                }
                let (value, c) = affine(state, t, a)?;
                // the conversion to the formal's type must not wrap
                t.keep_in_type(value, c, &program.var(*f).ty)?;
                coefficients.push(c);
            }
            Pending::Call { coefficients }
        }
        StmtKind::Return { value } => {
            if state.frames.len() <= t.depth {
                return Err(Unsupported);
            }
            let target = t.results.pop().ok_or(Unsupported)?;
            let returned = match value {
                Some(v) if v.ty.is_scalar() => Some(affine(state, t, v)?),
                Some(_) => return Err(Unsupported),
                None => None,
            };
            match (target, returned) {
                (Some(block), Some((value, c))) => {
                    // the conversion to the caller's variable must not wrap
                    let ty = &state.frames.last().and_then(|f| f.result_lhs.as_ref()).ok_or(Unsupported)?.ty;
                    t.keep_in_type(value, c, ty)?;
                    Pending::Return { target: Some((block, c)) }
                }
                // a stored result without a value is undefined
                (Some(_), None) => return Err(Unsupported),
                (None, _) => Pending::Return { target: None },
            }
        }
        StmtKind::Havoc { .. } | StmtKind::Malloc { .. } | StmtKind::Free { .. } | StmtKind::Error => return Err(Unsupported),
    })
}
