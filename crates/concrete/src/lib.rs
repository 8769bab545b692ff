//! Concrete runs below the CEGAR loop and its portfolio: replaying a feasible path's inputs on
//! the interpreter (UNSAFE is reported only when the interpreter reaches the error location with
//! them), random runs that look for the error, the single execution of a program that reads no
//! input, and the invariants that execution shows.

use diagnostics::Span;
use c_ir::points::{invariant_points, InvariantPoint, ProgramPointInvariant};
use c_ir::{display_expr, BinaryOp, Expr, StmtRef, VarId, VarKind};
use c_ir::interp::{run_observed, run_with_stop, Limits, Outcome, PointerTarget};
use c_ir::{display_stmt, Program, StmtKind};

/// One step of a concrete counterexample.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CounterexampleStep {
    pub at: StmtRef,
    pub span: Span,
    /// 1-based line in the checked file (0 when unknown).
    pub line: u32,
    pub statement: String,
    /// Values of the scalar variables the statement mentions, before it executes.
    pub values: Vec<StepValue>,
}

/// The value of a variable before a step; for a pointer, also what it points to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepValue {
    pub var: VarId,
    /// The variable's name in the source.
    pub name: String,
    pub value: i128,
    pub target: Option<PointerTarget>,
}

/// Where a run read one of its inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputSite {
    /// A formal parameter of the entry procedure (read before its first statement).
    EntryFormal(VarId),
    /// The statement (a `__VERIFIER_nondet_*()` call, lowered to a havoc) that read it.
    Statement { at: StmtRef, span: Span },
}

/// A feasible error trace, confirmed by the concrete interpreter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counterexample {
    pub steps: Vec<CounterexampleStep>,
    /// The values read from the environment (`__VERIFIER_nondet_*`), in order.
    pub inputs: Vec<i128>,
    /// Where each of `inputs` was read (same length and order).
    pub input_sites: Vec<InputSite>,
}

/// Why a replay did not reach the error. A run stopped by undefined behaviour (an
/// out-of-bounds read, a null dereference, ...) keeps the statement's span and the run up to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayFailure {
    pub message: String,
    /// The undefined behaviour that stopped the run, with the run that reached it.
    pub runtime_error: Option<RuntimeFailure>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuntimeFailure {
    /// What the interpreter detected (`array index 10 out of bounds`).
    pub message: String,
    /// The statement where it happened.
    pub span: Span,
    /// The run from the start to that statement (its last step), with its inputs.
    pub run: Counterexample,
}

impl std::fmt::Display for ReplayFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<&str> for ReplayFailure {
    fn from(message: &str) -> ReplayFailure {
        ReplayFailure { message: message.to_string(), runtime_error: None }
    }
}

/// Statements a replay may execute before giving up (about five seconds natively).
pub const REPLAY_STEP_LIMIT: u64 = 50_000_000;
/// Statements of one random run over all magnitudes ([`InputDistribution::Magnitudes`]).
pub const RANDOM_RUN_STEP_LIMIT: u64 = 2_000_000;
/// A replayed trace longer than `TRACE_HEAD + TRACE_TAIL` statements keeps its first
/// `TRACE_HEAD` and last `TRACE_TAIL` steps, with one step in between that says how many
/// statements are not shown.
pub const TRACE_HEAD: u64 = 2_000;
pub const TRACE_TAIL: u64 = 2_000;

/// The budgets of every interpreter run this crate makes: no recorded path (observers see the
/// statements), loops accelerated.
pub fn run_limits(max_steps: u64) -> Limits {
    Limits { record_path: false, accelerate_loops: true, ..Limits::new(max_steps) }
}

/// Runs `program` with `inputs` as the values of its environment reads (in order; 0 once they
/// run out) and returns the concrete trace if the run ends in an error statement. A run that
/// stops on undefined behaviour instead gives its trace up to that statement in the failure.
pub fn replay_to_error(program: &Program, inputs: &[i128]) -> Result<Counterexample, ReplayFailure> {
    // the statement executing now (the observer sees it before it runs), for the input sites
    let current: std::cell::Cell<Option<StmtRef>> = std::cell::Cell::new(None);
    let sites: std::cell::RefCell<Vec<Option<StmtRef>>> = std::cell::RefCell::new(Vec::new());
    let feeder = |record: bool| {
        let mut next = 0usize;
        let (current, sites) = (&current, &sites);
        move |_: &c_ir::Type| -> i128 {
            let v = inputs.get(next).copied().unwrap_or(0);
            next += 1;
            if record {
                sites.borrow_mut().push(current.get());
            }
            v
        }
    };
    // a first run counts the statements the trace lists, so that a long trace keeps only its
    // ends (the run is deterministic given the inputs)
    let listed = |at: c_ir::StmtRef| !matches!(program.stmt(at).kind, StmtKind::Goto { .. } | StmtKind::Skip);
    let mut statements = 0u64;
    let result = run_observed(program, &mut feeder(false), &run_limits(REPLAY_STEP_LIMIT), &mut |at, _| statements += listed(at) as u64);
    let runtime_error = match result.outcome {
        Outcome::ReachedError => None,
        Outcome::Returned(_) => return Err("the concrete run returned from the entry procedure".into()),
        Outcome::AssumeFailed => return Err("the concrete run was blocked by an assumption".into()),
        Outcome::StepLimit => return Err("the concrete run exceeded the step limit".into()),
        Outcome::RuntimeError(message, span) => Some((message, span)),
    };
    // `k` listed statements seen so far (this one included)
    let hidden = |k: u64| statements > TRACE_HEAD + TRACE_TAIL && k > TRACE_HEAD && k <= statements - TRACE_TAIL;
    let mut steps: Vec<CounterexampleStep> = Vec::new();
    let mut skipped = 0u64;
    let mut k = 0u64;
    let mut observe = |at: c_ir::StmtRef, state: &c_ir::interp::State| {
        current.set(Some(at));
        let is_listed = listed(at);
        k += is_listed as u64;
        if hidden(k) {
            if is_listed && k == TRACE_HEAD + 1 {
                steps.push(CounterexampleStep {
                    at,
                    span: program.stmt(at).span,
                    line: 0,
                    statement: format!("/* {} statements not shown */", statements - TRACE_HEAD - TRACE_TAIL),
                    values: Vec::new(),
                });
            }
            skipped = state.skipped_iterations();
            return;
        }
        if state.skipped_iterations() != skipped {
            skipped = state.skipped_iterations();
            if let Some(jump) = state.last_acceleration() {
                steps.push(accelerated_step(program, jump));
            }
        }
        let proc = program.proc(at.proc);
        let stmt = &proc.body[at.index as usize];
        if matches!(stmt.kind, StmtKind::Goto { .. } | StmtKind::Skip) {
            return;
        }
        let mut values = Vec::new();
        let mut seen = Vec::new();
        logic::locations::for_each_stmt_expr(&stmt.kind, &mut |e: &c_ir::Expr| {
            for v in e.vars() {
                if seen.contains(&v) {
                    continue;
                }
                seen.push(v);
                let var = program.var(v);
                if !var.ty.is_scalar() {
                    continue;
                }
                if let Some(x) = state.eval(&c_ir::Expr::var(v, var.ty.clone())) {
                    let target = var.ty.is_pointer().then(|| state.pointer_target(x));
                    values.push(StepValue { var: v, name: var.source_name.clone(), value: x, target });
                }
            }
        });
        steps.push(CounterexampleStep { at, span: stmt.span, line: 0, statement: display_stmt(program, proc, stmt), values });
    };
    let result = run_observed(program, &mut feeder(true), &run_limits(REPLAY_STEP_LIMIT), &mut observe);
    let input_sites = input_sites(program, &sites.into_inner());
    let run = Counterexample { steps, inputs: result.inputs, input_sites };
    match (result.outcome, runtime_error) {
        (Outcome::ReachedError, None) => Ok(run),
        (Outcome::RuntimeError(message, span), Some(_)) => Err(ReplayFailure {
            message: format!("the concrete run failed: {message}"),
            runtime_error: Some(RuntimeFailure { message, span, run }),
        }),
        _ => Err("the second concrete run with the same inputs took another path".into()),
    }
}

/// The sites of a run's inputs from the statements that read them (`None`: before the first
/// statement, the entry procedure's integer formals in order).
fn input_sites(program: &Program, read_at: &[Option<StmtRef>]) -> Vec<InputSite> {
    let mut formals = program
        .entry
        .map(|e| program.proc(e).formals.iter().copied().filter(|&f| program.var(f).ty.is_integer()).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter();
    read_at
        .iter()
        .map(|at| match at {
            Some(at) => InputSite::Statement { at: *at, span: program.stmt(*at).span },
            None => formals.next().map(InputSite::EntryFormal).unwrap_or(InputSite::Statement {
                at: StmtRef { proc: program.entry.unwrap_or(c_ir::ProcId(0)), index: 0 },
                span: Span::default(),
            }),
        })
        .collect()
}

/// The trace step standing for loop iterations the interpreter jumped over: the loop head, with
/// the change of each variable per iteration.
fn accelerated_step(program: &Program, jump: &c_ir::interp::Acceleration) -> CounterexampleStep {
    let changes: Vec<String> = jump
        .deltas
        .iter()
        .map(|&(v, d)| {
            let name = &program.var(v).source_name;
            if d < 0 {
                format!("{name} -= {}", d.unsigned_abs())
            } else {
                format!("{name} += {d}")
            }
        })
        .collect();
    CounterexampleStep {
        at: jump.at,
        span: program.stmt(jump.at).span,
        line: 0,
        statement: format!("/* {} more iterations of this loop, each: {} */", jump.iterations, changes.join(", ")),
        values: Vec::new(),
    }
}

/// How [`random_search_for_error`] draws input values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputDistribution {
    /// Mostly small values (-10..10), sometimes 0/±1/INT_MAX/INT_MIN or any 64-bit value.
    Small,
    /// Every magnitude alike: ±(2^k + d) for k in 0..34, d in -2..2 — reaches bugs behind
    /// loops that must run thousands of times (with a larger step limit). Run `r` draws most
    /// inputs with k = r mod 34 (positive in the first 34 runs), so the magnitudes are swept
    /// in ascending order: the cheap runs (short loops) come first and a bug behind 2^16
    /// iterations is reached within the first 20 runs, whatever the machine's speed.
    Magnitudes,
}

/// Runs `program` up to `runs` times with pseudo-random inputs drawn from `distribution` and
/// returns the first run that reaches an error statement, replayed into a counterexample.
/// Stops early when `out_of_time` says so. Used as a cross-check before a SAFE verdict is
/// reported, and as a last try before UNKNOWN.
pub fn random_search_for_error(
    program: &Program,
    runs: u32,
    max_steps: u64,
    distribution: InputDistribution,
    out_of_time: &dyn Fn() -> bool,
) -> Option<Counterexample> {
    search_for_error(program, runs, &|_| (max_steps, distribution), out_of_time)
}

/// Statements of a short run of [`probe_for_error`].
pub const PROBE_SHORT_RUN_STEPS: u64 = 100_000;
/// Every this many runs, one run of [`probe_for_error`] may go on to [`REPLAY_STEP_LIMIT`].
pub const PROBE_LONG_RUN_EVERY: u32 = 4;

/// Testing before proving: up to `runs` random runs with mostly small inputs, where every
/// fourth run may go on to [`REPLAY_STEP_LIMIT`] statements (bugs behind loops over large
/// arrays), all of them cut short by `out_of_time`. The first run that reaches an error is
/// replayed into a counterexample.
pub fn probe_for_error(program: &Program, runs: u32, out_of_time: &dyn Fn() -> bool) -> Option<Counterexample> {
    let plan = |run: u32| {
        let steps = if run % PROBE_LONG_RUN_EVERY == PROBE_LONG_RUN_EVERY - 1 { REPLAY_STEP_LIMIT } else { PROBE_SHORT_RUN_STEPS };
        (steps, InputDistribution::Small)
    };
    search_for_error(program, runs, &plan, out_of_time)
}

/// Random runs where run `r` has the step limit and input distribution `plan(r)`; each run
/// also ends when `out_of_time` says so.
fn search_for_error(
    program: &Program,
    runs: u32,
    plan: &dyn Fn(u32) -> (u64, InputDistribution),
    out_of_time: &dyn Fn() -> bool,
) -> Option<Counterexample> {
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    for run in 0..runs {
        if out_of_time() {
            return None;
        }
        let (max_steps, distribution) = plan(run);
        let mut feed = |_: &c_ir::Type| -> i128 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            match distribution {
                InputDistribution::Small => match state % 8 {
                    0 => [0i128, 1, -1, i32::MAX as i128, i32::MIN as i128][((state >> 8) % 5) as usize],
                    1 => ((state >> 3) as i64) as i128,
                    _ => ((state >> 5) % 21) as i128 - 10,
                },
                InputDistribution::Magnitudes => {
                    // most inputs follow the sweep (positive in the first round), the rest vary
                    let swept = (state >> 20) % 4 != 0;
                    let k = if swept { u64::from(run) % 34 } else { (state >> 4) % 34 };
                    let magnitude = (1i128 << k) + ((state >> 12) % 5) as i128 - 2;
                    let negative = if swept && run < 34 { false } else { state % 4 == 0 };
                    if negative {
                        -magnitude
                    } else {
                        magnitude
                    }
                }
            }
        };
        let result = run_with_stop(program, &mut feed, &run_limits(max_steps), &mut |_, _| {}, out_of_time);
        if result.outcome == Outcome::ReachedError {
            return replay_to_error(program, &result.inputs).ok();
        }
    }
    None
}

/// The outcome of [`single_execution`].
#[derive(Clone, Debug)]
pub enum SingleExecution {
    /// The only execution ends (returns, exits or aborts) after `steps` statements without
    /// reaching the error.
    Safe { steps: u64 },
    /// The only execution reaches the error.
    Unsafe(Counterexample),
    /// No choice so far, but the run was stopped before it ended.
    Unfinished { steps: u64 },
}

/// Runs `program` once and, when the run makes no nondeterministic choice (no input, no read
/// of unwritten memory, no branch with two open sides: `RunResult::deterministic`), returns
/// what it shows about the program's only execution. `None` when the program has inputs or the
/// run stops on undefined behaviour.
pub fn single_execution(program: &Program, max_steps: u64, stop: &dyn Fn() -> bool) -> Option<SingleExecution> {
    // the first input decides: the run stops at the next poll
    let asked = std::cell::Cell::new(false);
    let mut feed = |_: &c_ir::Type| -> i128 {
        asked.set(true);
        0
    };
    let result = run_with_stop(program, &mut feed, &run_limits(max_steps), &mut |_, _| {}, &|| asked.get() || stop());
    if !result.deterministic {
        return None;
    }
    match result.outcome {
        Outcome::Returned(_) | Outcome::AssumeFailed => Some(SingleExecution::Safe { steps: result.steps }),
        Outcome::ReachedError => replay_to_error(program, &[]).ok().map(SingleExecution::Unsafe),
        Outcome::StepLimit => Some(SingleExecution::Unfinished { steps: result.steps }),
        Outcome::RuntimeError(..) => None,
    }
}

/// The invariants of a program that has a single execution (`replay::single_execution`): at
/// each procedure entry and loop head, the states that execution passes through — listed when
/// there are at most 8, else as bounds of each integer variable — over the integer variables
/// (source locals, formals, globals) written by then. They hold because there is no other run.
pub fn execution_invariants(program: &Program, max_steps: u64) -> Vec<ProgramPointInvariant> {
    use budget::hash::HashMap;
    let points = invariant_points(program);
    let kinds: HashMap<StmtRef, InvariantPoint> = points.iter().copied().collect();
    let mut visits: HashMap<StmtRef, Visits> = HashMap::default();
    let tracked = |proc: c_ir::ProcId| -> Vec<VarId> {
        let p = program.proc(proc);
        program
            .globals
            .iter()
            .chain(p.formals.iter())
            .chain(p.locals.iter())
            .copied()
            .filter(|&v| {
                let var = program.var(v);
                var.ty.is_integer() && matches!(var.kind, VarKind::Global | VarKind::Local(_) | VarKind::Formal(..))
            })
            .collect()
    };
    let mut scope: HashMap<c_ir::ProcId, Vec<VarId>> = HashMap::default();
    let mut observe = |at: StmtRef, state: &c_ir::interp::State| {
        if !kinds.contains_key(&at) {
            return;
        }
        let vars = scope.entry(at.proc).or_insert_with(|| tracked(at.proc));
        let valuation: Vec<(VarId, i128)> =
            vars.iter().filter(|&&v| state.is_written(v)).filter_map(|&v| Some((v, state.value_of(v)?))).collect();
        let entry = visits.entry(at).or_default();
        if entry.count == 0 {
            entry.bounds = valuation.iter().map(|&(v, x)| (v, x, x, true)).collect();
        } else {
            for b in entry.bounds.iter_mut() {
                match valuation.iter().find(|(v, _)| *v == b.0) {
                    Some(&(_, x)) => {
                        b.1 = b.1.min(x);
                        b.2 = b.2.max(x);
                    }
                    None => b.3 = false,
                }
            }
        }
        entry.count += 1;
        if entry.states.len() <= MAX_LISTED_STATES && !entry.states.contains(&valuation) {
            entry.states.push(valuation);
        }
    };
    let mut feed = |_: &c_ir::Type| -> i128 { 0 };
    // skipped loop iterations pass through states between those observed before and after
    // the jump: bounds cover them, a list of states would not
    let accelerated = c_ir::interp::run_observed(program, &mut feed, &run_limits(max_steps), &mut observe).skipped_iterations > 0;
    let mut out = Vec::new();
    for (at, point) in points {
        // a point the execution never reaches: nothing holds there but `false`
        let formula = match visits.get(&at) {
            None => Expr::bool(false),
            Some(v) if v.states.len() <= MAX_LISTED_STATES && !accelerated => logic::balanced(
                v.states.iter().map(|state| logic::conjunction(&state.iter().map(|&(x, value)| equals(program, x, value)).collect::<Vec<_>>())).collect(),
                BinaryOp::Or,
            ),
            Some(v) => logic::conjunction(
                &v.bounds
                    .iter()
                    .filter(|b| b.3)
                    .flat_map(|&(x, lo, hi, _)| {
                        if lo == hi {
                            vec![equals(program, x, lo)]
                        } else {
                            let ty = program.var(x).ty.clone();
                            let var = Expr::var(x, ty.clone());
                            vec![Expr::binary(BinaryOp::Ge, var.clone(), Expr::int(lo, ty.clone())), Expr::binary(BinaryOp::Le, var, Expr::int(hi, ty))]
                        }
                    })
                    .collect::<Vec<_>>(),
            ),
        };
        let text = display_expr(program, &formula);
        out.push(ProgramPointInvariant { at, point, span: program.stmt(at).span, line: 0, formula, text });
    }
    out
}

fn equals(program: &Program, x: VarId, value: i128) -> Expr {
    let ty = program.var(x).ty.clone();
    Expr::eq(Expr::var(x, ty.clone()), Expr::int(value, ty))
}

/// Distinct states kept per program point before [`execution_invariants`] falls back to bounds.
const MAX_LISTED_STATES: usize = 8;

/// What one run saw at one program point.
#[derive(Default)]
struct Visits {
    /// Distinct valuations of the written integer variables (up to `MAX_LISTED_STATES + 1`).
    states: Vec<Vec<(VarId, i128)>>,
    /// Per variable: smallest and largest value, and whether it was written at every visit.
    bounds: Vec<(VarId, i128, i128, bool)>,
    count: u64,
}

