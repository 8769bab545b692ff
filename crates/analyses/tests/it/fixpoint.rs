//! The fixpoint engine (`analyses::fixpoint`) on its own, with a small interval domain over
//! lowered C programs: its results are post-fixpoints that every concrete run stays inside,
//! widening ends the ascent on unbounded loops after exactly the configured delay, the
//! descending rounds recover the bound of a counting loop, calls are analysed once per entry
//! state, and each way of giving up is reported. The worklist strategy reaches the same
//! fixpoint as the rounds with fewer transfers, never widens with the maximal delay, and keeps
//! the check, the callee errors and the ways of giving up.

use crate::bmc::lower;
use analyses::fixpoint::{Config, Domain, Engine, Fail, Stats, Strategy, Summary};
use c_ir::interp::{run_observed, Limits, Outcome};
use c_ir::{BinaryOp, Expr, ExprKind, ProcId, Program, StmtKind, StmtRef, UnaryOp, VarKind};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

const INF: i64 = i64::MAX;
static NEVER: fn() -> bool = || false;
static ALWAYS: fn() -> bool = || true;

/// An interval; `±INF` are unbounded ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Itv {
    lo: i64,
    hi: i64,
}

impl Itv {
    const TOP: Itv = Itv { lo: -INF, hi: INF };
    fn point(v: i64) -> Itv {
        Itv { lo: v, hi: v }
    }
    fn join(self, o: Itv) -> Itv {
        Itv { lo: self.lo.min(o.lo), hi: self.hi.max(o.hi) }
    }
    fn contains(self, v: i128) -> bool {
        self.lo as i128 <= v && v <= self.hi as i128
    }
    fn add(self, o: Itv) -> Itv {
        let lo = if self.lo == -INF || o.lo == -INF { -INF } else { self.lo.saturating_add(o.lo).max(-INF) };
        let hi = if self.hi == INF || o.hi == INF { INF } else { self.hi.saturating_add(o.hi) };
        Itv { lo, hi }
    }
    fn neg(self) -> Itv {
        Itv { lo: -self.hi, hi: -self.lo }
    }
}

/// One interval per variable of the program (indexed by `VarId`).
type Env = Vec<Itv>;

/// The test domain, with what the engine asked of it.
struct Intervals {
    /// The `old` state of every widening, in order.
    widenings: RefCell<Vec<(StmtRef, Option<Env>)>>,
    /// Per statement, its final state in each analysed context.
    recorded: HashMap<StmtRef, Vec<Option<Env>>>,
    /// A "widening" that keeps the old state (not an upper bound): the check must catch it.
    broken_widening: bool,
    /// No widening at all (a join): the ascent of an unbounded loop never ends.
    no_widening: bool,
}

fn intervals() -> Intervals {
    Intervals { widenings: RefCell::new(Vec::new()), recorded: HashMap::new(), broken_widening: false, no_widening: false }
}

fn strip(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Cast(inner) => strip(inner),
        _ => e,
    }
}

fn eval(env: &Env, e: &Expr) -> Itv {
    match &strip(e).kind {
        ExprKind::Const(c) => i64::try_from(*c).map(Itv::point).unwrap_or(Itv::TOP),
        ExprKind::Var(v) => env[v.0 as usize],
        ExprKind::Binary(BinaryOp::Add, a, b) => eval(env, a).add(eval(env, b)),
        ExprKind::Binary(BinaryOp::Sub, a, b) => eval(env, a).add(eval(env, b).neg()),
        _ => Itv::TOP,
    }
}

/// The states of `env` where `cond` is `positive`: relations between a variable and a constant.
fn assume(mut env: Env, cond: &Expr, positive: bool) -> Option<Env> {
    let cond = strip(cond);
    if let ExprKind::Unary(UnaryOp::Not, a) = &cond.kind {
        return assume(env, a, !positive);
    }
    let ExprKind::Binary(op, a, b) = &cond.kind else { return Some(env) };
    let (ExprKind::Var(x), ExprKind::Const(c)) = (&strip(a).kind, &strip(b).kind) else { return Some(env) };
    let Some(op) = (if positive { Some(*op) } else { op.negated_relation() }) else { return Some(env) };
    let (c, i) = (i64::try_from(*c).ok()?, env[x.0 as usize]);
    let r = match op {
        BinaryOp::Lt => Itv { lo: i.lo, hi: i.hi.min(c - 1) },
        BinaryOp::Le => Itv { lo: i.lo, hi: i.hi.min(c) },
        BinaryOp::Gt => Itv { lo: i.lo.max(c + 1), hi: i.hi },
        BinaryOp::Ge => Itv { lo: i.lo.max(c), hi: i.hi },
        BinaryOp::Eq => Itv { lo: i.lo.max(c), hi: i.hi.min(c) },
        BinaryOp::Ne if i == Itv::point(c) => return None,
        _ => i,
    };
    if r.lo > r.hi {
        return None;
    }
    env[x.0 as usize] = r;
    Some(env)
}

/// A statement other than a call of a procedure with a body.
fn step(program: &Program, at: StmtRef, mut env: Env) -> Option<Env> {
    match &program.stmt(at).kind {
        StmtKind::Assume { cond } => assume(env, cond, true),
        StmtKind::Assign { lhs, rhs } => {
            if let ExprKind::Var(x) = lhs.kind {
                env[x.0 as usize] = eval(&env, rhs);
            }
            Some(env)
        }
        StmtKind::Havoc { lhs } | StmtKind::Call { lhs: Some(lhs), .. } => {
            // (a call: of a procedure without body, which may also set any global)
            if let ExprKind::Var(x) = lhs.kind {
                env[x.0 as usize] = Itv::TOP;
            }
            if matches!(program.stmt(at).kind, StmtKind::Call { .. }) {
                for g in &program.globals {
                    env[g.0 as usize] = Itv::TOP;
                }
            }
            Some(env)
        }
        _ => Some(env),
    }
}

impl Domain for Intervals {
    type Entry = Env;
    type State = Option<Env>;
    type Error = ();

    fn bottom(&self) -> Option<Env> {
        None
    }
    fn is_bottom(&self, state: &Option<Env>) -> bool {
        state.is_none()
    }
    fn start(&mut self, _proc: ProcId, entry: &Env) -> Result<Option<Env>, ()> {
        Ok(Some(entry.clone()))
    }
    fn join(&self, a: Option<Env>, b: Option<Env>) -> Result<Option<Env>, ()> {
        Ok(match (a, b) {
            (None, x) | (x, None) => x,
            (Some(a), Some(b)) => Some(a.iter().zip(&b).map(|(x, y)| x.join(*y)).collect()),
        })
    }
    fn widen(&self, at: StmtRef, old: &Option<Env>, next: Option<Env>) -> Result<Option<Env>, ()> {
        self.widenings.borrow_mut().push((at, old.clone()));
        Ok(match (old, next) {
            (Some(old), Some(_)) if self.broken_widening => Some(old.clone()),
            (_, next) if self.no_widening => next,
            (Some(old), Some(next)) => Some(
                old.iter()
                    .zip(&next)
                    .map(|(o, n)| Itv { lo: if n.lo < o.lo { -INF } else { o.lo }, hi: if n.hi > o.hi { INF } else { o.hi } })
                    .collect(),
            ),
            (_, next) => next,
        })
    }
    fn leq(&self, a: &Option<Env>, b: &Option<Env>) -> bool {
        match (a, b) {
            (None, _) => true,
            (Some(_), None) => false,
            (Some(a), Some(b)) => a.iter().zip(b).all(|(x, y)| y.lo <= x.lo && x.hi <= y.hi),
        }
    }
    fn transfer(engine: &mut Engine<'_, Self>, at: StmtRef, pre: Option<Env>) -> Result<Option<Env>, Fail<()>> {
        let program = engine.program();
        let Some(env) = pre else { return Ok(None) };
        let StmtKind::Call { lhs, callee, args } = &program.stmt(at).kind else { return Ok(step(program, at, env)) };
        if program.proc(*callee).body.is_empty() {
            return Ok(step(program, at, env));
        }
        // entry: the globals, formals := actuals, the rest anything
        let is_global = |i: usize| matches!(program.vars[i].kind, VarKind::Global);
        let mut entry: Env = (0..env.len()).map(|i| if is_global(i) { env[i] } else { Itv::TOP }).collect();
        for (f, a) in program.proc(*callee).formals.iter().zip(args) {
            entry[f.0 as usize] = eval(&env, a);
        }
        let summary = engine.call(*callee, entry)?;
        let Some(exit) = &summary.exit else { return Ok(None) };
        let mut after: Env = (0..env.len()).map(|i| if is_global(i) { exit[i] } else { env[i] }).collect();
        if let Some(Expr { kind: ExprKind::Var(x), .. }) = lhs {
            after[x.0 as usize] = match program.proc(*callee).body.last().map(|s| &s.kind) {
                Some(StmtKind::Return { value: Some(v) }) => eval(exit, v),
                _ => Itv::TOP,
            };
        }
        Ok(Some(after))
    }
    fn record(&mut self, at: StmtRef, _loop_head: bool, state: &Option<Env>) -> Result<(), ()> {
        self.recorded.entry(at).or_default().push(state.clone());
        Ok(())
    }
}

type Analysed = (Result<Rc<Summary<Option<Env>>>, Fail<()>>, Intervals, Stats);

fn analyse_with<'p>(program: &'p Program, domain: Intervals, config: Config, stop: &'p dyn Fn() -> bool) -> Analysed {
    let mut engine = Engine::new(program, domain, config, stop);
    let main = program.entry.expect("main");
    let top = vec![Itv::TOP; program.vars.len()];
    let result = engine.call(main, top);
    let stats = engine.stats();
    (result, engine.domain, stats)
}

fn analyse(program: &Program, config: Config) -> Analysed {
    analyse_with(program, intervals(), config, &NEVER)
}

/// The state before the first loop head of `main`, for variable `name`, over all contexts.
fn at_head(program: &Program, domain: &Intervals, name: &str) -> Option<Itv> {
    let main = program.entry?;
    let head = *program.proc(main).loop_heads().first()?;
    let x = program.vars.iter().position(|v| v.name == name && v.kind.proc() == Some(main))?;
    let states = domain.recorded.get(&StmtRef { proc: main, index: head })?;
    states.iter().flatten().map(|env| env[x]).reduce(Itv::join)
}

/// Every statement's recorded state contains what its predecessors pass on (call-free
/// programs), and every concrete run with inputs `0..runs` stays inside the recorded states.
fn is_sound_post_fixpoint(program: &Program, domain: &Intervals, runs: i128) {
    for proc in program.proc_ids() {
        let body = &program.proc(proc).body;
        let state = |i: usize| domain.recorded.get(&StmtRef { proc, index: i as u32 }).and_then(|s| s.first().cloned()).flatten();
        for i in 0..body.len() {
            for s in program.proc(proc).successors(i as u32) {
                let (Some(before), s) = (state(i), s as usize) else { continue };
                let Some(after) = step(program, StmtRef { proc, index: i as u32 }, before) else { continue };
                assert!(domain.leq(&Some(after), &state(s)), "statement {s} does not contain what {i} passes on");
            }
        }
    }
    for input in 0..runs {
        let mut outside = Vec::new();
        let mut observe = |at: StmtRef, st: &c_ir::interp::State| match domain.recorded.get(&at).and_then(|s| s.first()) {
            Some(Some(env)) => {
                for (i, var) in program.vars.iter().enumerate() {
                    let value = st.eval(&Expr::var(c_ir::VarId(i as u32), var.ty.clone()));
                    if value.is_some_and(|v| !env[i].contains(v)) {
                        outside.push((at, var.name.clone()));
                    }
                }
            }
            _ => outside.push((at, "unreachable".into())),
        };
        // the first input is `input`, each later one one less (loops on inputs end)
        let mut next = input + 1;
        let mut inputs = |_: &c_ir::Type| {
            next = (next - 1).max(0);
            next
        };
        let run = run_observed(program, &mut inputs, &Limits::new(100_000), &mut observe);
        assert_ne!(run.outcome, Outcome::StepLimit);
        assert!(outside.is_empty(), "input {input}: {outside:?}");
    }
}

const COUNTING: &str = "int main() { int x = 0; while (x < 100) { x = x + 1; } if (x != 100) reach_error(); return 0; }";
const UNBOUNDED: &str = "int main() { int x = 0; while (__VERIFIER_nondet_uchar()) { x = x + 1; } return 0; }";

#[test]
fn the_fixpoint_is_a_post_fixpoint_that_concrete_runs_stay_in() {
    let program = lower(COUNTING);
    for descending_rounds in [0, 1] {
        let (result, domain, _) = analyse(&program, Config { descending_rounds, ..Config::default() });
        let summary = result.expect("a fixpoint");
        is_sound_post_fixpoint(&program, &domain, 1);
        // the descending round recovers the loop's bound, which proves the error unreachable
        let head = at_head(&program, &domain, "x").expect("the loop head is reached");
        if descending_rounds == 0 {
            assert_eq!(head, Itv { lo: 0, hi: INF });
            assert!(summary.error);
        } else {
            assert_eq!(head, Itv { lo: 0, hi: 100 });
            assert!(!summary.error);
        }
    }
    let source = "int main() { int n = __VERIFIER_nondet_uchar(); int s = 0;
        for (int i = 0; i < n; i++) { if (i > 3) s = s + 2; else s = s - 1; } return 0; }";
    let program = lower(source);
    let (result, domain, _) = analyse(&program, Config { descending_rounds: 1, ..Config::default() });
    result.expect("a fixpoint");
    is_sound_post_fixpoint(&program, &domain, 256);
}

#[test]
fn widening_ends_the_ascent_of_an_unbounded_loop() {
    let program = lower(UNBOUNDED);
    let (result, domain, stats) = analyse(&program, Config::default());
    assert!(!result.expect("a fixpoint").error);
    assert_eq!(at_head(&program, &domain, "x"), Some(Itv { lo: 0, hi: INF }));
    assert!(stats.rounds < 10, "{stats:?}");
    is_sound_post_fixpoint(&program, &domain, 5);
    // without widening the same loop climbs until the round limit
    let mut joins_only = intervals();
    joins_only.no_widening = true;
    let (result, _, stats) = analyse_with(&program, joins_only, Config { max_rounds: 40, ..Config::default() }, &NEVER);
    assert_eq!(result.err(), Some(Fail::NoFixpoint));
    assert_eq!(stats.rounds, 40);
}

#[test]
fn the_widening_delay_is_respected() {
    let program = lower(UNBOUNDED);
    let main = program.entry.expect("main");
    let head = program.proc(main).loop_heads()[0];
    let x = program.vars.iter().position(|v| v.name == "x").expect("x");
    for delay in 0..6u32 {
        let (result, domain, _) = analyse(&program, Config { widening_delay: delay, ..Config::default() });
        result.expect("a fixpoint");
        let widenings = domain.widenings.borrow();
        // widening only at the loop head, from its (delay + 1)-th visit on: the first visit
        // sees the empty state, each later one a join that is one iteration longer
        assert!(widenings.iter().all(|(at, _)| at.index == head));
        let first = &widenings.first().expect("a widening").1;
        match delay {
            0 => assert_eq!(first, &None),
            _ => assert_eq!(first.as_ref().map(|env| env[x]), Some(Itv { lo: 0, hi: delay as i64 - 1 })),
        }
    }
}

#[test]
fn calls_are_analysed_once_per_entry_state() {
    let source = "int g; int f(int a) { g = g + a; return a + 1; }
        int main() { g = 0; int r = f(1); int s = f(1); int t = f(2); if (r != 2) reach_error(); return 0; }";
    let program = lower(source);
    let (result, domain, stats) = analyse(&program, Config::default());
    assert!(!result.expect("a fixpoint").error);
    // main, then f from {g: 0, a: 1}, {g: 1, a: 1} and {g: 2, a: 2}; every later round of
    // main and its check are answered from the memo
    assert_eq!(stats.fixpoints, 4, "{stats:?}");
    assert!(stats.memo_hits >= 3, "{stats:?}");
    let f = program.proc_by_name("f").expect("f");
    assert_eq!(domain.recorded[&StmtRef { proc: f, index: 0 }].len(), 3);
    // the same entry state twice: one fixpoint
    let source = "int f(int a) { return a + 1; }
        int main() { int r = f(1); int s = f(1); if (s != 2) reach_error(); return 0; }";
    let program = lower(source);
    let (result, _, stats) = analyse(&program, Config::default());
    assert!(!result.expect("a fixpoint").error);
    assert_eq!(stats.fixpoints, 2, "{stats:?}");
}

#[test]
fn a_callees_reachable_error_is_the_callers() {
    for (argument, reachable) in [(3, true), (4, false)] {
        let source = format!("void f(int a) {{ if (a == 3) reach_error(); }} int main() {{ f({argument}); return 0; }}");
        let program = lower(&source);
        let (result, _, _) = analyse(&program, Config::default());
        assert_eq!(result.expect("a fixpoint").error, reachable, "{source}");
    }
}

#[test]
fn each_way_of_giving_up_is_reported() {
    // recursion
    let program = lower("int f(int n) { if (n <= 0) return 0; return f(n - 1); } int main() { return f(3); }");
    assert_eq!(analyse(&program, Config::default()).0.err(), Some(Fail::Recursion));
    // a "widening" that loses states: the ascent stops, the check does not pass
    let program = lower(UNBOUNDED);
    for descending_rounds in [0, 2] {
        let mut broken = intervals();
        broken.broken_widening = true;
        let (result, _, _) = analyse_with(&program, broken, Config { descending_rounds, ..Config::default() }, &NEVER);
        assert_eq!(result.err(), Some(Fail::NotPostFixpoint));
    }
    // the caller's stop
    assert_eq!(analyse_with(&program, intervals(), Config::default(), &ALWAYS).0.err(), Some(Fail::Stopped));
    // too many contexts
    let program = lower("int f(int a) { return a; } int main() { f(1); f(2); f(3); return 0; }");
    assert_eq!(analyse(&program, Config { max_contexts: 3, ..Config::default() }).0.err(), Some(Fail::TooManyContexts));
    assert!(analyse(&program, Config { max_contexts: 4, ..Config::default() }).0.is_ok());
}

const WORKLIST: Config = Config { strategy: Strategy::Worklist, widening_delay: 2, max_rounds: 60, descending_rounds: 0, max_depth: 32, max_contexts: usize::MAX };

/// Every statement's recorded states, per statement, in a stable order.
fn all_recorded(domain: &Intervals) -> Vec<(StmtRef, Vec<Option<Env>>)> {
    let mut all: Vec<(StmtRef, Vec<Option<Env>>)> = domain.recorded.iter().map(|(at, s)| (*at, s.clone())).collect();
    all.sort_by_key(|(at, _)| (at.proc.0, at.index));
    all
}

#[test]
fn without_widening_the_worklist_reaches_the_least_fixpoint_of_the_rounds_with_fewer_transfers() {
    // a straight-line prefix before the loop: the rounds transfer it again in every round
    let source = "int main() { int a = 1; int b = a + 2; int c = b + 3; int d = c + 4; int x = 0;
        while (x < 100) { x = x + 1; } if (x != 100) reach_error(); return d; }";
    for source in [COUNTING, source] {
        let program = lower(source);
        let never_widen = |strategy| Config { strategy, widening_delay: u32::MAX, max_rounds: 200, ..Config::default() };
        let (rounds, by_rounds, rounds_stats) = analyse(&program, never_widen(Strategy::Rounds));
        let (worklist, by_worklist, worklist_stats) = analyse(&program, never_widen(Strategy::Worklist));
        // the least fixpoint: the loop's exact bound, so the error is unreachable, and no
        // widening was asked for
        assert!(!rounds.expect("a fixpoint").error);
        assert!(!worklist.expect("a fixpoint").error);
        assert_eq!(at_head(&program, &by_worklist, "x"), Some(Itv { lo: 0, hi: 100 }));
        assert!(by_rounds.widenings.borrow().is_empty() && by_worklist.widenings.borrow().is_empty());
        assert_eq!(all_recorded(&by_rounds), all_recorded(&by_worklist));
        is_sound_post_fixpoint(&program, &by_worklist, 1);
        assert!(worklist_stats.transfers < rounds_stats.transfers, "{worklist_stats:?} / {rounds_stats:?}");
    }
}

#[test]
fn the_worklist_widens_after_the_delay_and_keeps_the_check() {
    let program = lower(UNBOUNDED);
    let (result, domain, _) = analyse(&program, WORKLIST);
    assert!(!result.expect("a fixpoint").error);
    assert_eq!(at_head(&program, &domain, "x"), Some(Itv { lo: 0, hi: INF }));
    is_sound_post_fixpoint(&program, &domain, 5);
    // the third join into the head (entry, then two back edges) is the first widening
    let main = program.entry.expect("main");
    let head = program.proc(main).loop_heads()[0];
    let x = program.vars.iter().position(|v| v.name == "x").expect("x");
    let widenings = domain.widenings.borrow();
    assert!(widenings.iter().all(|(at, _)| at.index == head));
    assert_eq!(widenings.first().and_then(|(_, old)| old.as_ref()).map(|env| env[x]), Some(Itv { lo: 0, hi: 1 }));
    drop(widenings);
    // a broken widening: the check of the worklist's results catches it, with or without
    // descending rounds
    for descending_rounds in [0, 2] {
        let mut broken = intervals();
        broken.broken_widening = true;
        let (result, _, _) = analyse_with(&program, broken, Config { descending_rounds, ..WORKLIST }, &NEVER);
        assert_eq!(result.err(), Some(Fail::NotPostFixpoint));
    }
    // no widening on an unbounded loop: the evaluations run out
    let mut joins_only = intervals();
    joins_only.no_widening = true;
    let (result, _, stats) = analyse_with(&program, joins_only, Config { max_rounds: 40, ..WORKLIST }, &NEVER);
    assert_eq!(result.err(), Some(Fail::NoFixpoint));
    assert!(stats.transfers <= 40 * program.proc(main).body.len(), "{stats:?}");
    assert_eq!(analyse_with(&program, intervals(), WORKLIST, &ALWAYS).0.err(), Some(Fail::Stopped));
}

#[test]
fn descending_rounds_after_a_worklist_ascent_are_checked_by_transfers() {
    let program = lower(COUNTING);
    let (result, domain, _) = analyse(&program, Config { descending_rounds: 1, ..WORKLIST });
    assert!(!result.expect("a fixpoint").error);
    assert_eq!(at_head(&program, &domain, "x"), Some(Itv { lo: 0, hi: 100 }));
    is_sound_post_fixpoint(&program, &domain, 1);
}

#[test]
fn under_the_worklist_calls_are_tabulated_and_callee_errors_are_the_callers() {
    for (argument, reachable) in [(3, true), (4, false)] {
        let source = format!("void f(int a) {{ if (a == 3) reach_error(); }} int main() {{ f({argument}); return 0; }}");
        let program = lower(&source);
        let (result, _, _) = analyse(&program, WORKLIST);
        assert_eq!(result.expect("a fixpoint").error, reachable, "{source}");
    }
    let source = "int g; int f(int a) { g = g + a; return a + 1; }
        int main() { g = 0; int r = f(1); int s = f(1); int t = f(2); if (r != 2) reach_error(); return 0; }";
    let program = lower(source);
    let (result, _, stats) = analyse(&program, WORKLIST);
    assert!(!result.expect("a fixpoint").error);
    assert_eq!(stats.fixpoints, 4, "{stats:?}");
    let program = lower("int f(int n) { if (n <= 0) return 0; return f(n - 1); } int main() { return f(3); }");
    assert_eq!(analyse(&program, WORKLIST).0.err(), Some(Fail::Recursion));
}
