//! Bounded model checking with unwinding checks: the last try before UNKNOWN for programs over
//! scalar variables.
//!
//! Predicate abstraction unrolls a loop one refinement at a time when the proof needs facts
//! about every iteration (bit tricks over an 8- or 16-iteration loop, `num_conversion_2`,
//! `interleave_bits`). Such loops have few iterations, and a bounded unrolling of the whole
//! program decides them: symbolic execution of the IR in program order, with the states that
//! meet at a statement merged (guards and `ite` values over fresh SSA variables, so formulas
//! stay linear in the program size), loops unwound `k` times and calls inlined. The error is
//! reachable within the bound iff the disjunction of the guards at `Error` statements is
//! satisfiable; when it is not and no state can run past the bound (the guards where unwinding
//! stopped are unsatisfiable too), the program is SAFE — every execution stays inside the
//! unrolling. Bounds double from 2 until the time is up.
//!
//! Only programs whose variables are integers or booleans (pointers only as opaque values),
//! never address-taken, and whose statements do not touch memory (no `*p`, fields, arrays,
//! `malloc`) are handled.
//!
//! A SAFE answer is justified by the unrolling (the reason names the bound); an UNSAFE answer
//! is replayed on the interpreter like every counterexample: the model's values of the
//! environment reads on the satisfied path are fed back statement by statement.

use concrete::replay_to_error;
use concrete::Counterexample;
use c_ir::interp::{run_observed, Outcome};
use c_ir::{BinaryOp, Expr, ExprKind, ProcId, Program, StmtKind, StmtRef, Type, Var, VarId, VarKind};
use diagnostics::Span;
use std::collections::BTreeMap;
use budget::hash::HashMap;

/// Calls nested deeper than this are cut like an unwinding bound.
const MAX_CALL_DEPTH: u32 = 64;
/// The symbolic execution gives up beyond this many statements executed per bound.
const MAX_SYMBOLIC_STEPS: u64 = 200_000;

/// What the bounded check found.
#[derive(Clone, Debug)]
pub enum BmcAnswer {
    /// No execution reaches the error, and none runs longer than the unrolling.
    Safe { bound: u32 },
    Unsafe { bound: u32, counterexample: Counterexample },
    Unknown(String),
}

/// Whether [`bounded_check`] handles `program`: every variable an integer or boolean (or a
/// pointer that is only copied and compared) that is never address-taken, and no statement
/// reads or writes memory.
pub fn applicable(program: &Program) -> bool {
    if program.entry.is_none() {
        return false;
    }
    // Pointers are allowed as opaque values only (copied, compared for equality): `main`'s
    // `argv` and its symbolic constant.
    let value_type = |t: &Type| t.is_integer() || *t == Type::Bool || t.is_pointer();
    let scalar = |e: &Expr| {
        let mut ok = true;
        e.visit(&mut |x| match &x.kind {
            ExprKind::Var(v) => {
                let var = program.var(*v);
                ok &= value_type(&var.ty) && !var.address_taken;
            }
            ExprKind::Const(_) => {}
            ExprKind::Binary(op, a, b) if a.ty.is_pointer() || b.ty.is_pointer() => {
                ok &= matches!(op, c_ir::BinaryOp::Eq | c_ir::BinaryOp::Ne) && a.ty == b.ty;
            }
            ExprKind::Unary(_, a) | ExprKind::Cast(a) => ok &= !a.ty.is_pointer() && !x.ty.is_pointer(),
            ExprKind::Binary(..) => ok &= !x.ty.is_pointer(),
            ExprKind::Ite(..) => ok &= !x.ty.is_pointer(),
            _ => ok = false,
        });
        ok && value_type(&e.ty)
    };
    program.procs.iter().all(|p| {
        p.body.iter().all(|s| match &s.kind {
            StmtKind::Skip | StmtKind::Goto { .. } | StmtKind::Error => true,
            StmtKind::Assign { lhs, rhs } => matches!(lhs.kind, ExprKind::Var(_)) && scalar(lhs) && scalar(rhs),
            StmtKind::Havoc { lhs } => matches!(lhs.kind, ExprKind::Var(_)) && scalar(lhs),
            StmtKind::Assume { cond } => scalar(cond),
            StmtKind::Call { lhs, args, .. } => {
                lhs.as_ref().is_none_or(|l| matches!(l.kind, ExprKind::Var(_)) && scalar(l)) && args.iter().all(scalar)
            }
            StmtKind::Return { value } => value.as_ref().is_none_or(scalar),
            StmtKind::Malloc { .. } | StmtKind::Free { .. } => false,
        })
    })
}

/// Unrolls with bounds 2, 4, 8, ... until an answer or `stop`.
pub fn bounded_check(program: &Program, solver: &solver::SolverConfig, stop: &dyn Fn() -> bool) -> BmcAnswer {
    bounded_check_from(program, solver, 2, stop).0
}

/// [`bounded_check`] from bound `first` (a power of two; the bounds below it were tried and
/// left executions past them): the answer, and the bound to resume from when there is none
/// (the one that was stopped, or the next untried one).
pub fn bounded_check_from(program: &Program, solver: &solver::SolverConfig, first: u32, stop: &dyn Fn() -> bool) -> (BmcAnswer, u32) {
    if !applicable(program) {
        return (BmcAnswer::Unknown("bounded model checking handles programs over integer variables only".into()), first);
    }
    let mut bound = first.max(2);
    let mut last = BmcAnswer::Unknown("no bound was tried".into());
    while bound <= 1 << 16 && !stop() {
        match check_bound(program, solver, bound, stop) {
            Step::Safe => return (BmcAnswer::Safe { bound }, bound),
            Step::Unsafe(counterexample) => return (BmcAnswer::Unsafe { bound, counterexample }, bound),
            Step::Undecided => bound *= 2,
            Step::GiveUp(why) => return (BmcAnswer::Unknown(why), bound),
        }
        last = BmcAnswer::Unknown(format!("no answer within {} loop unwindings", bound / 2));
    }
    (last, bound)
}

enum Step {
    Safe,
    Unsafe(Counterexample),
    /// Executions run past the bound.
    Undecided,
    GiveUp(String),
}

/// A symbolic state at one statement.
#[derive(Clone)]
struct State {
    /// When this state is reached (a boolean SSA variable or a constant).
    guard: Expr,
    /// The current SSA value of every variable in scope.
    values: HashMap<VarId, Expr>,
    /// Times each loop head (target of a backward jump) was re-entered.
    unwound: HashMap<u32, u32>,
}

/// An environment read: the SSA variable holding its value and when it happens.
struct Input {
    at: StmtRef,
    guard: Expr,
    value: Expr,
}

struct Unroller<'a> {
    program: &'a Program,
    /// The program with the SSA variables appended.
    arena: Program,
    definitions: Vec<Expr>,
    errors: Vec<Expr>,
    /// Guards of states cut by the bound (loops or call depth).
    cut: Vec<Expr>,
    inputs: Vec<Input>,
    bound: u32,
    steps: u64,
    stop: &'a dyn Fn() -> bool,
    aborted: Option<String>,
}

fn check_bound(program: &Program, solver: &solver::SolverConfig, bound: u32, stop: &dyn Fn() -> bool) -> Step {
    let mut u = Unroller {
        program,
        arena: program.clone(),
        definitions: Vec::new(),
        errors: Vec::new(),
        cut: Vec::new(),
        inputs: Vec::new(),
        bound,
        steps: 0,
        stop,
        aborted: None,
    };
    let Some(entry) = program.entry else { return Step::GiveUp("no entry procedure".into()) };
    // globals start zeroed (C), the entry procedure's integer formals are inputs
    let mut values = HashMap::default();
    for &g in &program.globals {
        values.insert(g, Expr::int(0, program.var(g).ty.clone()));
    }
    let mut state = State { guard: Expr::bool(true), values, unwound: HashMap::default() };
    let mut integer_formals = 0u32;
    for &f in &program.proc(entry).formals {
        let ty = program.var(f).ty.clone();
        let v = u.fresh(ty.clone(), entry);
        if ty.is_integer() {
            u.inputs.push(Input { at: formal_key(entry, integer_formals), guard: Expr::bool(true), value: v.clone() });
            integer_formals += 1;
        }
        state.values.insert(f, v);
    }
    u.enter_locals(entry, &mut state);
    u.run_proc(entry, state, 0);
    if let Some(why) = u.aborted {
        return Step::GiveUp(why);
    }
    let mut context = solver::Context::new(&u.arena, solver);
    for d in &u.definitions {
        if let Err(e) = context.assert_expr(d) {
            return Step::GiveUp(format!("the solver cannot encode the unrolling: {e}"));
        }
    }
    let error = logic::balanced(std::mem::take(&mut u.errors), BinaryOp::Or);
    let error_lit = match context.literal(&error) {
        Ok(l) => l,
        Err(e) => return Step::GiveUp(format!("the solver cannot encode the unrolling: {e}")),
    };
    match context.solve(&[error_lit]) {
        solver::SolveResult::Sat => {
            // the environment reads on the satisfied path, per statement in execution order
            let mut queues: HashMap<StmtRef, std::collections::VecDeque<i128>> = HashMap::default();
            for input in &u.inputs {
                let taken = input.guard.is_true() || context.model_value(&input.guard).is_some_and(|g| g != 0);
                if taken {
                    queues.entry(input.at).or_default().push_back(context.model_value(&input.value).unwrap_or(0));
                }
            }
            return match replay(program, queues) {
                Some(cex) => Step::Unsafe(cex),
                None => Step::GiveUp("the unrolling reaches the error, but its inputs do not replay".into()),
            };
        }
        solver::SolveResult::Unknown => return Step::GiveUp("the SAT solver gave up on the unrolling".into()),
        solver::SolveResult::Unsat => {}
    }
    let cut = logic::balanced(std::mem::take(&mut u.cut), BinaryOp::Or);
    let cut_lit = match context.literal(&cut) {
        Ok(l) => l,
        Err(e) => return Step::GiveUp(format!("the solver cannot encode the unrolling: {e}")),
    };
    match context.solve(&[cut_lit]) {
        solver::SolveResult::Unsat => Step::Safe,
        solver::SolveResult::Sat => Step::Undecided,
        solver::SolveResult::Unknown => Step::GiveUp("the SAT solver gave up on the unwinding check".into()),
    }
}

/// The key of the entry procedure's `i`-th integer formal among the environment reads (apart
/// from every statement index).
fn formal_key(entry: ProcId, i: u32) -> StmtRef {
    StmtRef { proc: entry, index: u32::MAX - i }
}

/// Runs the interpreter feeding, at each environment read, the next value queued for its statement.
fn replay(program: &Program, mut queues: HashMap<StmtRef, std::collections::VecDeque<i128>>) -> Option<Counterexample> {
    let entry = program.entry?;
    // `None` before the first statement, when the entry procedure's integer formals are read
    let current: std::cell::Cell<Option<StmtRef>> = std::cell::Cell::new(None);
    let formal = std::cell::Cell::new(0u32);
    let mut feed = |_: &Type| -> i128 {
        let key = current.get().unwrap_or_else(|| {
            formal.set(formal.get() + 1);
            formal_key(entry, formal.get() - 1)
        });
        queues.get_mut(&key).and_then(|q| q.pop_front()).unwrap_or(0)
    };
    let mut observe = |at: StmtRef, _: &c_ir::interp::State| current.set(Some(at));
    let result = run_observed(program, &mut feed, &concrete::run_limits(concrete::REPLAY_STEP_LIMIT), &mut observe);
    if result.outcome != Outcome::ReachedError {
        return None;
    }
    replay_to_error(program, &result.inputs).ok()
}

impl Unroller<'_> {
    fn fresh(&mut self, ty: Type, proc: ProcId) -> Expr {
        let n = self.arena.vars.len();
        let id = self.arena.add_var(Var {
            name: format!("bmc{n}"),
            source_name: format!("bmc{n}"),
            ty: ty.clone(),
            kind: VarKind::Temp(proc),
            span: Span::default(),
            address_taken: false,
        });
        Expr::var(id, ty)
    }

    /// A fresh SSA variable defined as `value` (constants and variables are used as they are).
    fn define(&mut self, value: Expr, proc: ProcId) -> Expr {
        if matches!(value.kind, ExprKind::Const(_) | ExprKind::Var(_)) {
            return value;
        }
        let v = self.fresh(value.ty.clone(), proc);
        self.definitions.push(Expr::eq(v.clone(), value));
        v
    }

    /// Locals (and the return variable) start with unconstrained values.
    fn enter_locals(&mut self, proc: ProcId, state: &mut State) {
        let p = self.program.proc(proc);
        for &v in p.locals.iter().chain(p.ret_var.iter()) {
            let ty = self.program.var(v).ty.clone();
            let value = self.fresh(ty, proc);
            state.values.insert(v, value);
        }
    }

    /// `e` over the state's SSA values, simplified with the solver's constant folding (so
    /// loops with constant bounds end exactly: their guards become `false`).
    fn eval(&self, e: &Expr, state: &State) -> Expr {
        logic::simplify(&logic::map_expr(e, &mut |x| match &x.kind {
            ExprKind::Var(v) => state.values.get(v).cloned(),
            _ => None,
        }))
    }

    /// One state standing for all of `states` (guards or'ed, values selected by guard; the
    /// guards of states that meet exclude each other, see the `Goto` case).
    fn merge(&mut self, mut states: Vec<State>, proc: ProcId) -> State {
        states.retain(|s| !s.guard.is_false());
        if states.len() <= 1 {
            return states.pop().unwrap_or(State { guard: Expr::bool(false), values: HashMap::default(), unwound: HashMap::default() });
        }
        let guard = self.define(logic::balanced(states.iter().map(|s| s.guard.clone()).collect(), BinaryOp::Or), proc);
        let mut values = HashMap::default();
        let keys: Vec<VarId> = states[0].values.keys().copied().collect();
        for v in keys {
            let first = states[0].values[&v].clone();
            if states.iter().all(|s| s.values.get(&v) == Some(&first)) {
                values.insert(v, first);
                continue;
            }
            // ite(g1, v1, ite(g2, v2, ... vn))
            // one SSA variable per `ite`, so that no formula nests deeply
            let mut merged = states.last().and_then(|s| s.values.get(&v).cloned()).unwrap_or(first);
            for s in states.iter().rev().skip(1) {
                if let Some(value) = s.values.get(&v) {
                    let ty = merged.ty.clone();
                    merged = self.define(Expr::new(ExprKind::Ite(Box::new(s.guard.clone()), Box::new(value.clone()), Box::new(merged)), ty), proc);
                }
            }
            values.insert(v, merged);
        }
        let mut unwound = HashMap::default();
        for s in &states {
            for (&head, &n) in &s.unwound {
                let e = unwound.entry(head).or_insert(0);
                *e = (*e).max(n);
            }
        }
        State { guard, values, unwound }
    }

    /// Executes one activation of `proc` from `entry`; the merged state at its returns.
    fn run_proc(&mut self, proc: ProcId, entry: State, depth: u32) -> State {
        let program = self.program;
        let body = &program.proc(proc).body;
        let mut pending: BTreeMap<u32, Vec<State>> = BTreeMap::new();
        pending.insert(0, vec![entry]);
        // loop heads: targets of backward jumps; reaching one from before it restarts its count
        let heads: budget::hash::HashSet<u32> = body
            .iter()
            .enumerate()
            .flat_map(|(pc, s)| match &s.kind {
                StmtKind::Goto { targets } => targets.iter().copied().filter(|&t| t as usize <= pc).collect(),
                _ => Vec::new(),
            })
            .collect();
        let enter = |pending: &mut BTreeMap<u32, Vec<State>>, to: u32, mut state: State| {
            if heads.contains(&to) {
                state.unwound.remove(&to);
            }
            pending.entry(to).or_default().push(state);
        };
        let mut exits = Vec::new();
        while let Some((pc, states)) = pending.pop_first() {
            if self.aborted.is_some() {
                break;
            }
            self.steps += 1;
            if self.steps > MAX_SYMBOLIC_STEPS {
                self.aborted = Some("the unrolling is too large".into());
                break;
            }
            if self.steps.is_multiple_of(1024) && (self.stop)() {
                self.aborted = Some("time is up".into());
                break;
            }
            let mut state = self.merge(states, proc);
            if state.guard.is_false() {
                continue;
            }
            let Some(stmt) = body.get(pc as usize) else {
                exits.push(state);
                continue;
            };
            let next = pc + 1;
            match &stmt.kind {
                StmtKind::Skip => pending.entry(next).or_default().push(state),
                StmtKind::Assign { lhs, rhs } => {
                    let ExprKind::Var(x) = lhs.kind else { unreachable!("checked by applicable") };
                    let value = self.eval(rhs, &state);
                    let value = self.define(value, proc);
                    state.values.insert(x, value);
                    enter(&mut pending, next, state);
                }
                StmtKind::Havoc { lhs } => {
                    let ExprKind::Var(x) = lhs.kind else { unreachable!("checked by applicable") };
                    let value = self.fresh(lhs.ty.clone(), proc);
                    self.inputs.push(Input { at: StmtRef { proc, index: pc }, guard: state.guard.clone(), value: value.clone() });
                    state.values.insert(x, value);
                    enter(&mut pending, next, state);
                }
                StmtKind::Assume { cond } => {
                    let cond = self.eval(cond, &state);
                    state.guard = self.define(logic::conjunction(&[state.guard.clone(), cond]), proc);
                    enter(&mut pending, next, state);
                }
                StmtKind::Goto { targets } => {
                    // Each target gets its own fresh choice, so the guards of the states that
                    // leave here exclude each other (merging selects values by guard); the
                    // target's leading `assume` is taken into the guard right away.
                    let mut not_before = Vec::new();
                    for (k, &t) in targets.iter().enumerate() {
                        let mut parts = vec![state.guard.clone()];
                        parts.extend(not_before.iter().cloned());
                        if k + 1 < targets.len() {
                            let choice = self.fresh(Type::Bool, proc);
                            parts.push(choice.clone());
                            not_before.push(Expr::logical_not(choice));
                        }
                        if let Some(StmtKind::Assume { cond }) = body.get(t as usize).map(|s| &s.kind) {
                            parts.push(self.eval(cond, &state));
                        }
                        let mut s = state.clone();
                        s.guard = self.define(logic::conjunction(&parts), proc);
                        if t <= pc {
                            let n = s.unwound.get(&t).copied().unwrap_or(0);
                            if n >= self.bound {
                                self.cut.push(s.guard);
                                continue;
                            }
                            s.unwound.insert(t, n + 1);
                            pending.entry(t).or_default().push(s);
                        } else {
                            enter(&mut pending, t, s);
                        }
                    }
                }
                StmtKind::Call { lhs, callee, args } => {
                    if depth >= MAX_CALL_DEPTH.min(self.bound.saturating_mul(4)) {
                        self.cut.push(state.guard);
                        continue;
                    }
                    let callee_proc = program.proc(*callee);
                    let mut inner = State { guard: state.guard.clone(), values: HashMap::default(), unwound: HashMap::default() };
                    for &g in &program.globals {
                        inner.values.insert(g, state.values[&g].clone());
                    }
                    for (f, a) in callee_proc.formals.iter().zip(args) {
                        let value = self.eval(a, &state);
                        let ty = &program.var(*f).ty;
                        let value = if value.ty == *ty { value } else { Expr::cast(value, ty.clone()) };
                        let value = self.define(value, proc);
                        inner.values.insert(*f, value);
                    }
                    self.enter_locals(*callee, &mut inner);
                    let out = self.run_proc(*callee, inner, depth + 1);
                    if out.guard.is_false() {
                        continue;
                    }
                    state.guard = out.guard;
                    for &g in &program.globals {
                        if let Some(v) = out.values.get(&g) {
                            state.values.insert(g, v.clone());
                        }
                    }
                    if let (Some(l), Some(ret)) = (lhs, callee_proc.ret_var) {
                        let ExprKind::Var(x) = l.kind else { unreachable!("checked by applicable") };
                        if let Some(v) = out.values.get(&ret) {
                            let v = if v.ty == l.ty { v.clone() } else { Expr::cast(v.clone(), l.ty.clone()) };
                            let v = self.define(v, proc);
                            state.values.insert(x, v);
                        }
                    }
                    enter(&mut pending, next, state);
                }
                StmtKind::Return { value } => {
                    if let (Some(e), Some(ret)) = (value, program.proc(proc).ret_var) {
                        let v = self.eval(e, &state);
                        let v = self.define(v, proc);
                        state.values.insert(ret, v);
                    }
                    exits.push(state);
                }
                StmtKind::Error => self.errors.push(state.guard),
                StmtKind::Malloc { .. } | StmtKind::Free { .. } => unreachable!("checked by applicable"),
            }
        }
        self.merge(exits, proc)
    }
}
