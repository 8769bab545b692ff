//! The fixpoint engine the abstract interpretations of this crate share: Kleene iteration of
//! a [`Domain`]'s transfer functions over a lowered program, procedure by procedure, with
//! calls analysed per entry state (Cousot and Cousot, 1977; the interprocedural scheme is the
//! "functional approach" of Sharir and Pnueli, 1981, tabulated on demand).
//!
//! For one procedure and one entry state the engine keeps the state *before* every statement
//! and iterates in rounds (statements in program order, each new state used at once):
//!
//! 1. **ascending**: a statement's state is the join of what its predecessors pass on (their
//!    states through [`Domain::transfer`]; the entry state too at statement 0). At a loop head
//!    the new state is also joined with the old one, and after
//!    [`Config::widening_delay`] such joins it is widened ([`Domain::widen`]) so that the
//!    ascent ends on domains of infinite height. More than [`Config::max_rounds`] rounds
//!    give up ([`Fail::NoFixpoint`]);
//! 2. **descending** (optional, [`Config::descending_rounds`]): from the post-fixpoint, rounds
//!    without join or widening recover bounds that widening lost (narrowing by iteration);
//! 3. **the check**: every statement's state must contain what its predecessors pass on
//!    ([`Domain::leq`]), i.e. the states are a post-fixpoint, which is what makes them sound
//!    whatever the iteration did. If the descended states fail it, the ascended ones are
//!    checked instead; if those fail too the engine gives up ([`Fail::NotPostFixpoint`]).
//!
//! A call statement's transfer asks the engine for the callee's [`Summary`] from an entry
//! state ([`Engine::call`]): summaries are memoised per `(procedure, entry)`, so a procedure
//! called twice with the same entry state is analysed once. Recursion gives up
//! ([`Fail::Recursion`]); so do more than [`Config::max_contexts`] analysed contexts.
//!
//! To put an analysis on the engine: implement [`Domain`] (its transfer function receives the
//! engine, to ask for callees' summaries), choose a [`Config`], and [`Engine::call`] the entry
//! procedure; [`Domain::record`] collects the invariants, [`Summary::error`] tells whether an
//! `Error` statement is reachable.
//!
//! Users: the difference bounds ([`crate::zones`]) and the heap values ([`crate::heap`]).
//! Karr's affine equalities ([`crate::affine`]) keep their own worklist for now: they need no
//! widening (the lattice of affine subspaces has height `n + 1`), re-evaluate only the
//! statements whose state changed, and compute procedure summaries bottom-up to a fixpoint
//! over all procedures (recursion included) with two states per statement, where this engine
//! iterates rounds and tabulates callees per entry state; see that module's documentation.

use c_ir::{ProcId, Program, StmtKind, StmtRef};
use std::collections::HashMap;
use std::hash::Hash;
use std::rc::Rc;

/// An abstract domain and its transfer functions, as the engine iterates them.
pub trait Domain: Sized {
    /// A procedure's entry state: the key of the per-entry memo of calls.
    type Entry: Clone + Eq + Hash;
    /// The abstract states before a statement, the empty one (unreachable) included.
    type State: Clone + PartialEq;
    /// Why the domain gives up (an unsupported construct, an overflow).
    type Error;

    /// The empty state (no concrete state; the statement is unreachable).
    fn bottom(&self) -> Self::State;
    fn is_bottom(&self, state: &Self::State) -> bool;
    /// The state before statement 0 of `proc` from `entry`; an error when the domain cannot
    /// analyse `proc` (too many variables, say).
    fn start(&mut self, proc: ProcId, entry: &Self::Entry) -> Result<Self::State, Self::Error>;
    /// An upper bound of both states.
    fn join(&self, a: Self::State, b: Self::State) -> Result<Self::State, Self::Error>;
    /// A widening at loop head `at`: an upper bound of `old` and `next` (which contains `old`)
    /// such that every increasing chain of widenings is finite.
    fn widen(&self, at: StmtRef, old: &Self::State, next: Self::State) -> Result<Self::State, Self::Error>;
    /// Inclusion: every concrete state of `a` is one of `b`.
    fn leq(&self, a: &Self::State, b: &Self::State) -> bool;
    /// A state read back after widening, in the domain's normal form (the default: as it is).
    /// Widening may leave a loop head's state unnormalised so that the ascent ends (the
    /// closure of a difference-bound matrix could bring dropped bounds back); the engine
    /// normalises a loop head's state before passing it on, and every summary's exit state.
    fn normalize(&self, state: Self::State) -> Self::State {
        state
    }
    /// The state after statement `at` from `pre` before it (never empty); calls ask
    /// `engine.call` for the callee's summary.
    fn transfer(engine: &mut Engine<'_, Self>, at: StmtRef, pre: Self::State) -> Result<Self::State, Fail<Self::Error>>;
    /// Sees the final state before every statement of each analysed context, once it passed
    /// the check (the default: nothing). `loop_head` tells the loop heads apart.
    fn record(&mut self, _at: StmtRef, _loop_head: bool, _state: &Self::State) -> Result<(), Self::Error> {
        Ok(())
    }
}

/// Why the engine gave up.
#[derive(Debug, PartialEq, Eq)]
pub enum Fail<E> {
    /// The caller's `stop` said so.
    Stopped,
    /// A procedure calls itself (directly or not), or calls nest too deep.
    Recursion,
    /// More than [`Config::max_contexts`] entry states were analysed.
    TooManyContexts,
    /// The ascent did not stabilise within [`Config::max_rounds`] rounds.
    NoFixpoint,
    /// Neither the descended nor the ascended states are a post-fixpoint.
    NotPostFixpoint,
    /// The domain gave up.
    Domain(E),
}

/// The iteration's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Joins at a loop head before its state is widened.
    pub widening_delay: u32,
    /// Ascending rounds over a procedure before giving up.
    pub max_rounds: usize,
    /// Descending rounds after the ascent (0: none).
    pub descending_rounds: usize,
    /// Calls nested deeper than this give up.
    pub max_depth: usize,
    /// Entry states analysed in all before giving up.
    pub max_contexts: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config { widening_delay: 2, max_rounds: 60, descending_rounds: 0, max_depth: 32, max_contexts: usize::MAX }
    }
}

/// What a procedure does from one entry state.
#[derive(Debug)]
pub struct Summary<S> {
    /// The normalised state before the procedure's last statement (its `return`).
    pub exit: S,
    /// An `Error` statement is reachable, here or in a callee.
    pub error: bool,
}

/// How much work the engine did (for tests and measurements).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Fixpoints computed (one per procedure and entry state not memoised).
    pub fixpoints: usize,
    /// Calls answered from the memo.
    pub memo_hits: usize,
    /// Ascending rounds over all fixpoints.
    pub rounds: usize,
}

/// Loop heads and predecessors of a procedure's statements.
struct Cfg {
    heads: Vec<bool>,
    preds: Vec<Vec<usize>>,
}

/// A procedure being analysed: whether its check runs, and whether it saw a callee's error.
struct Frame {
    proc: ProcId,
    checking: bool,
    error: bool,
}

/// The engine: a domain, the memo of summaries and the procedures being analysed.
pub struct Engine<'p, D: Domain> {
    program: &'p Program,
    stop: &'p dyn Fn() -> bool,
    config: Config,
    /// The domain, with whatever it caches or collects.
    pub domain: D,
    memo: Memo<D>,
    frames: Vec<Frame>,
    cfgs: HashMap<ProcId, Rc<Cfg>>,
    stats: Stats,
}

/// The summaries computed, per procedure and entry state.
type Memo<D> = HashMap<(ProcId, <D as Domain>::Entry), Rc<Summary<<D as Domain>::State>>>;

/// One procedure's iteration: its control flow and the entry state.
struct Run<S> {
    proc: ProcId,
    cfg: Rc<Cfg>,
    start: S,
}

impl<'p, D: Domain> Engine<'p, D> {
    /// An engine over `program`; `stop` is polled before every statement of the ascent.
    pub fn new(program: &'p Program, domain: D, config: Config, stop: &'p dyn Fn() -> bool) -> Engine<'p, D> {
        Engine { program, stop, config, domain, memo: HashMap::new(), frames: Vec::new(), cfgs: HashMap::new(), stats: Stats::default() }
    }

    /// The program analysed (for transfer functions).
    pub fn program(&self) -> &'p Program {
        self.program
    }

    /// The work done so far.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// The summary of `proc` from `entry` (memoised); from a transfer function, while the
    /// caller's states are checked, a reachable error of the callee counts as the caller's.
    pub fn call(&mut self, proc: ProcId, entry: D::Entry) -> Result<Rc<Summary<D::State>>, Fail<D::Error>> {
        let result = self.summary(proc, entry)?;
        if let Some(caller) = self.frames.last_mut() {
            if caller.checking {
                caller.error |= result.error;
            }
        }
        Ok(result)
    }

    fn summary(&mut self, proc: ProcId, entry: D::Entry) -> Result<Rc<Summary<D::State>>, Fail<D::Error>> {
        if let Some(r) = self.memo.get(&(proc, entry.clone())) {
            self.stats.memo_hits += 1;
            return Ok(r.clone());
        }
        self.stats.fixpoints += 1;
        if self.stats.fixpoints > self.config.max_contexts {
            return Err(Fail::TooManyContexts);
        }
        if self.frames.iter().any(|f| f.proc == proc) || self.frames.len() > self.config.max_depth {
            return Err(Fail::Recursion);
        }
        self.frames.push(Frame { proc, checking: false, error: false });
        let result = self.fixpoint(proc, &entry);
        self.frames.pop();
        let result = Rc::new(result?);
        self.memo.insert((proc, entry), result.clone());
        Ok(result)
    }

    /// The states of `proc` from `entry`: ascent, descent, check; then the summary.
    fn fixpoint(&mut self, proc: ProcId, entry: &D::Entry) -> Result<Summary<D::State>, Fail<D::Error>> {
        let start = self.domain.start(proc, entry).map_err(Fail::Domain)?;
        let run = Run { proc, cfg: self.cfg(proc), start };
        let mut states = self.ascend(&run)?;
        let ascended = (self.config.descending_rounds > 0).then(|| states.clone());
        for _ in 0..self.config.descending_rounds {
            for s in 0..states.len() {
                states[s] = self.incoming(&run, &states, s)?;
            }
        }
        let mut error = self.check(&run, &states)?;
        if error.is_none() {
            if let Some(ascended) = ascended {
                states = ascended;
                error = self.check(&run, &states)?;
            }
        }
        let Some(mut error) = error else { return Err(Fail::NotPostFixpoint) };
        let body = &self.program.proc(proc).body;
        for (s, stmt) in body.iter().enumerate() {
            if matches!(stmt.kind, StmtKind::Error) && !self.domain.is_bottom(&states[s]) {
                error = true;
            }
        }
        for (s, state) in states.iter().enumerate() {
            let at = StmtRef { proc, index: s as u32 };
            self.domain.record(at, run.cfg.heads[s], state).map_err(Fail::Domain)?;
        }
        let exit = match states.pop() {
            Some(last) => self.domain.normalize(last),
            None => self.domain.bottom(),
        };
        Ok(Summary { exit, error })
    }

    /// Rounds until no state changes, with joins and widening at loop heads.
    fn ascend(&mut self, run: &Run<D::State>) -> Result<Vec<D::State>, Fail<D::Error>> {
        let n = run.cfg.preds.len();
        let mut states: Vec<D::State> = vec![self.domain.bottom(); n];
        let mut visits = vec![0u32; n];
        for _ in 0..self.config.max_rounds {
            self.stats.rounds += 1;
            let mut changed = false;
            for s in 0..n {
                if (self.stop)() {
                    return Err(Fail::Stopped);
                }
                let incoming = self.incoming(run, &states, s)?;
                let new = if run.cfg.heads[s] {
                    visits[s] += 1;
                    let joined = self.domain.join(states[s].clone(), incoming).map_err(Fail::Domain)?;
                    if visits[s] > self.config.widening_delay {
                        self.domain.widen(StmtRef { proc: run.proc, index: s as u32 }, &states[s], joined).map_err(Fail::Domain)?
                    } else {
                        joined
                    }
                } else {
                    incoming
                };
                if new != states[s] {
                    states[s] = new;
                    changed = true;
                }
            }
            if !changed {
                return Ok(states);
            }
        }
        Err(Fail::NoFixpoint)
    }

    /// Whether every statement's state contains what its predecessors pass on: `Some(error)`
    /// when it does, `error` telling whether a callee reaches an `Error` statement.
    fn check(&mut self, run: &Run<D::State>, states: &[D::State]) -> Result<Option<bool>, Fail<D::Error>> {
        self.set_checking(true);
        let mut holds = true;
        for s in 0..states.len() {
            let incoming = match self.incoming(run, states, s) {
                Ok(incoming) => incoming,
                Err(e) => {
                    self.set_checking(false);
                    return Err(e);
                }
            };
            if !self.domain.leq(&incoming, &states[s]) {
                holds = false;
                break;
            }
        }
        let error = self.set_checking(false);
        Ok(holds.then_some(error))
    }

    /// Starts (`true`) or ends the check of the current procedure; the callee errors seen.
    fn set_checking(&mut self, on: bool) -> bool {
        let frame = self.frames.last_mut().expect("a procedure is being analysed");
        frame.checking = on;
        std::mem::replace(&mut frame.error, false)
    }

    /// The join of what the predecessors of statement `s` pass on (and the entry state at 0).
    fn incoming(&mut self, run: &Run<D::State>, states: &[D::State], s: usize) -> Result<D::State, Fail<D::Error>> {
        let mut acc = if s == 0 { run.start.clone() } else { self.domain.bottom() };
        for &p in &run.cfg.preds[s] {
            if self.domain.is_bottom(&states[p]) {
                continue;
            }
            let pre = if run.cfg.heads[p] { self.domain.normalize(states[p].clone()) } else { states[p].clone() };
            if self.domain.is_bottom(&pre) {
                continue;
            }
            let post = D::transfer(self, StmtRef { proc: run.proc, index: p as u32 }, pre)?;
            acc = self.domain.join(acc, post).map_err(Fail::Domain)?;
        }
        Ok(acc)
    }

    /// The procedure's control flow, computed once for all its entry states.
    fn cfg(&mut self, proc: ProcId) -> Rc<Cfg> {
        if let Some(c) = self.cfgs.get(&proc) {
            return c.clone();
        }
        let p = self.program.proc(proc);
        let n = p.body.len();
        let mut heads = vec![false; n];
        for h in p.loop_heads() {
            heads[h as usize] = true;
        }
        let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
        for i in 0..n {
            for s in p.successors(i as u32) {
                if (s as usize) < n && !preds[s as usize].contains(&i) {
                    preds[s as usize].push(i);
                }
            }
        }
        let cfg = Rc::new(Cfg { heads, preds });
        self.cfgs.insert(proc, cfg.clone());
        cfg
    }
}
