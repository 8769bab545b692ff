//! The fixpoint engine the abstract interpretations of this crate share: Kleene iteration of
//! a [`Domain`]'s transfer functions over a lowered program, procedure by procedure, with
//! calls analysed per entry state (Cousot and Cousot, 1977; the interprocedural scheme is the
//! "functional approach" of Sharir and Pnueli, 1981, tabulated on demand).
//!
//! For one procedure and one entry state the engine keeps the state *before* every statement
//! and iterates in one of two ways ([`Config::strategy`]):
//!
//! 1. **ascending**, by [`Strategy::Rounds`]: rounds over the statements in program order, each
//!    new state used at once; a statement's state is the join of what its predecessors pass on
//!    (their states through [`Domain::transfer`]; the entry state too at statement 0). At a
//!    loop head the new state is also joined with the old one, and after
//!    [`Config::widening_delay`] such joins it is widened ([`Domain::widen`]) so that the
//!    ascent ends on domains of infinite height. More than [`Config::max_rounds`] rounds
//!    give up ([`Fail::NoFixpoint`]). Or by [`Strategy::Worklist`] (Kildall's worklist, 1973;
//!    a chaotic iteration in the sense of Cousot and Cousot): only a statement whose state
//!    changed is evaluated again, the lowest such statement first, and its result is joined
//!    into its successors' states (widened at a loop head as above). On a domain of finite
//!    height whose join is the least upper bound both reach the least fixpoint, the worklist
//!    with fewer transfers, which counts for domains whose transfer costs much (Karr's affine
//!    spaces: a Gaussian elimination each). More than [`Config::max_rounds`] evaluations per
//!    statement on average give up. A [`Config::widening_delay`] of `u32::MAX` never widens,
//!    for domains of finite height;
//! 2. **descending** (optional, [`Config::descending_rounds`]): from the post-fixpoint, rounds
//!    without join or widening recover bounds that widening lost (narrowing by iteration);
//! 3. **the check**: every statement's state must contain what its predecessors pass on
//!    ([`Domain::leq`]), i.e. the states are a post-fixpoint, which is what makes them sound
//!    whatever the iteration did. If the descended states fail it, the ascended ones are
//!    checked instead; if those fail too the engine gives up ([`Fail::NotPostFixpoint`]).
//!    After a worklist ascent every reached statement's last result was computed from its
//!    final state (a change would have queued it again), so the check of the ascended states
//!    joins those results instead of applying the transfers once more.
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
//! Users: the difference bounds ([`crate::zones`]) and the heap values ([`crate::heap`]) by
//! rounds, with widening and calls tabulated per entry state; Karr's affine equalities
//! ([`crate::affine`], its polynomial equalities and its procedure summaries) by the worklist
//! without widening (the lattice of affine subspaces has height `n + 1`). The summaries do not
//! use [`Engine::call`]: their transfer applies the callees' summaries as they stand, and
//! the bottom-up iteration over all procedures (recursion included) runs the engine once
//! per procedure and round; see that module's documentation.

use c_ir::{ProcId, Program, StmtKind, StmtRef};
use std::collections::BTreeSet;
use budget::hash::HashMap;
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

/// How the ascent visits a procedure's statements (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// Rounds over all statements in program order until a round changes nothing.
    Rounds,
    /// A worklist of the statements whose state changed, the lowest first.
    Worklist,
}

/// The iteration's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// How the ascent visits the statements.
    pub strategy: Strategy,
    /// Joins at a loop head before its state is widened (`u32::MAX`: never).
    pub widening_delay: u32,
    /// Ascending rounds over a procedure before giving up; with [`Strategy::Worklist`],
    /// evaluations per statement on average.
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
        Config { strategy: Strategy::Rounds, widening_delay: 2, max_rounds: 60, descending_rounds: 0, max_depth: 32, max_contexts: usize::MAX }
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
    /// Ascending rounds over all fixpoints ([`Strategy::Rounds`]).
    pub rounds: usize,
    /// Applications of [`Domain::transfer`] (ascent, descent and check).
    pub transfers: usize,
}

/// Loop heads, predecessors and successors of a procedure's statements.
struct Cfg {
    heads: Vec<bool>,
    preds: Vec<Vec<usize>>,
    succs: Vec<Vec<usize>>,
}

/// What a statement passed on in the last evaluation of a worklist ascent (from its final
/// state), and whether a callee it called reaches an error.
struct Passed<S> {
    post: S,
    error: bool,
}

/// The results of a worklist ascent, per statement (`None`: not evaluated from its final state).
type Cache<S> = [Option<Passed<S>>];

/// A worklist ascent's states and results.
type Ascent<S> = (Vec<S>, Vec<Option<Passed<S>>>);

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
        Engine { program, stop, config, domain, memo: HashMap::default(), frames: Vec::new(), cfgs: HashMap::default(), stats: Stats::default() }
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
        if result.error {
            self.note_callee_error();
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
        let (mut states, cache) = match self.config.strategy {
            Strategy::Rounds => (self.ascend(&run)?, None),
            Strategy::Worklist => {
                let (states, cache) = self.ascend_worklist(&run)?;
                (states, Some(cache))
            }
        };
        let descending = self.config.descending_rounds > 0;
        let ascended = descending.then(|| states.clone());
        for _ in 0..self.config.descending_rounds {
            for s in 0..states.len() {
                states[s] = self.incoming(&run, &states, s, None)?;
            }
        }
        // the worklist's results were computed from the ascended states only
        let mut error = self.check(&run, &states, if descending { None } else { cache.as_deref() })?;
        if error.is_none() {
            if let Some(ascended) = ascended {
                states = ascended;
                error = self.check(&run, &states, cache.as_deref())?;
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
                let incoming = self.incoming(run, &states, s, None)?;
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

    /// The worklist ascent: evaluates the lowest statement whose state changed and joins its
    /// result into its successors' states (widened at loop heads after the delay), until no
    /// state changes; the states and each statement's last result.
    fn ascend_worklist(&mut self, run: &Run<D::State>) -> Result<Ascent<D::State>, Fail<D::Error>> {
        let n = run.cfg.preds.len();
        let mut states: Vec<D::State> = vec![self.domain.bottom(); n];
        let mut cache: Vec<Option<Passed<D::State>>> = (0..n).map(|_| None).collect();
        let mut visits = vec![0u32; n];
        let mut work = BTreeSet::new();
        if n == 0 || self.domain.is_bottom(&run.start) {
            return Ok((states, cache));
        }
        if self.join_into(run, &mut states, &mut visits, 0, run.start.clone())? {
            work.insert(0);
        }
        let limit = self.config.max_rounds.saturating_mul(n);
        let mut evaluations = 0usize;
        while let Some(s) = work.pop_first() {
            if (self.stop)() {
                return Err(Fail::Stopped);
            }
            evaluations += 1;
            if evaluations > limit {
                return Err(Fail::NoFixpoint);
            }
            cache[s] = None;
            let pre = if run.cfg.heads[s] { self.domain.normalize(states[s].clone()) } else { states[s].clone() };
            if self.domain.is_bottom(&pre) {
                continue;
            }
            // as in the check: a callee's reachable error is noted with the result
            self.set_checking(true);
            let post = self.apply(run, s, pre);
            let error = self.set_checking(false);
            let post = post?;
            if !self.domain.is_bottom(&post) {
                for &t in &run.cfg.succs[s] {
                    if self.join_into(run, &mut states, &mut visits, t, post.clone())? {
                        work.insert(t);
                    }
                }
            }
            cache[s] = Some(Passed { post, error });
        }
        Ok((states, cache))
    }

    /// Joins `post` into the state of statement `t` (widening at a loop head after the
    /// delay); whether the state changed.
    fn join_into(&mut self, run: &Run<D::State>, states: &mut [D::State], visits: &mut [u32], t: usize, post: D::State) -> Result<bool, Fail<D::Error>> {
        let mut new = self.domain.join(states[t].clone(), post).map_err(Fail::Domain)?;
        if run.cfg.heads[t] {
            visits[t] = visits[t].saturating_add(1);
            if visits[t] > self.config.widening_delay {
                new = self.domain.widen(StmtRef { proc: run.proc, index: t as u32 }, &states[t], new).map_err(Fail::Domain)?;
            }
        }
        if new == states[t] {
            return Ok(false);
        }
        states[t] = new;
        Ok(true)
    }

    /// Whether every statement's state contains what its predecessors pass on: `Some(error)`
    /// when it does, `error` telling whether a callee reaches an `Error` statement. `cache`:
    /// what a worklist ascent to these states passed on, used instead of the transfers.
    fn check(&mut self, run: &Run<D::State>, states: &[D::State], cache: Option<&Cache<D::State>>) -> Result<Option<bool>, Fail<D::Error>> {
        self.set_checking(true);
        let mut holds = true;
        for s in 0..states.len() {
            let incoming = match self.incoming(run, states, s, cache) {
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

    /// The join of what the predecessors of statement `s` pass on (and the entry state at 0);
    /// a predecessor's result in `cache` is taken as it is, its callee error noted as if the
    /// transfer had run again.
    fn incoming(&mut self, run: &Run<D::State>, states: &[D::State], s: usize, cache: Option<&Cache<D::State>>) -> Result<D::State, Fail<D::Error>> {
        let mut acc = if s == 0 { run.start.clone() } else { self.domain.bottom() };
        for &p in &run.cfg.preds[s] {
            if self.domain.is_bottom(&states[p]) {
                continue;
            }
            let post = match cache.and_then(|c| c[p].as_ref()) {
                Some(passed) => {
                    if passed.error {
                        self.note_callee_error();
                    }
                    passed.post.clone()
                }
                None => {
                    let pre = if run.cfg.heads[p] { self.domain.normalize(states[p].clone()) } else { states[p].clone() };
                    if self.domain.is_bottom(&pre) {
                        continue;
                    }
                    self.apply(run, p, pre)?
                }
            };
            acc = self.domain.join(acc, post).map_err(Fail::Domain)?;
        }
        Ok(acc)
    }

    /// [`Domain::transfer`] of statement `p`, counted.
    fn apply(&mut self, run: &Run<D::State>, p: usize, pre: D::State) -> Result<D::State, Fail<D::Error>> {
        self.stats.transfers += 1;
        D::transfer(self, StmtRef { proc: run.proc, index: p as u32 }, pre)
    }

    /// A callee of the current procedure reaches an error (counted while checking).
    fn note_callee_error(&mut self) {
        if let Some(frame) = self.frames.last_mut() {
            if frame.checking {
                frame.error = true;
            }
        }
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
        let mut succs: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, out) in succs.iter_mut().enumerate() {
            for s in p.successors(i as u32) {
                let s = s as usize;
                if s < n && !preds[s].contains(&i) {
                    preds[s].push(i);
                    out.push(s);
                }
            }
        }
        let cfg = Rc::new(Cfg { heads, preds, succs });
        self.cfgs.insert(proc, cfg.clone());
        cfg
    }
}
