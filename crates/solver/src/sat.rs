//! The narrow SAT back-end interface (clauses, solving under assumptions, models) and its two
//! implementations, `batsat` and `varisat`.

use std::ops::Not;

/// A literal: variable index times two, plus one when negated. Variable 0 is the constant true.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Lit(pub u32);

impl Lit {
    pub const TRUE: Lit = Lit(0);
    pub const FALSE: Lit = Lit(1);

    pub fn positive(var: u32) -> Lit {
        Lit(var << 1)
    }
    pub fn var(self) -> u32 {
        self.0 >> 1
    }
    pub fn is_negated(self) -> bool {
        self.0 & 1 == 1
    }
    pub fn from_bool(b: bool) -> Lit {
        if b {
            Lit::TRUE
        } else {
            Lit::FALSE
        }
    }
    pub fn is_constant(self) -> bool {
        self.var() == 0
    }
}

impl Not for Lit {
    type Output = Lit;
    fn not(self) -> Lit {
        Lit(self.0 ^ 1)
    }
}

/// Which SAT solver to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BackendKind {
    Batsat,
    Varisat,
}

impl BackendKind {
    pub fn name(self) -> &'static str {
        match self {
            BackendKind::Batsat => "batsat",
            BackendKind::Varisat => "varisat",
        }
    }
}

/// What the encoder needs from a SAT solver. Variable 0 is reserved by the caller for the
/// constant true; the back end allocates variables densely from 0.
pub trait SatBackend {
    /// A new variable's index.
    fn new_var(&mut self) -> u32;
    fn add_clause(&mut self, lits: &[Lit]);
    /// `Some(true)` satisfiable, `Some(false)` unsatisfiable under the assumptions, `None` unknown.
    fn solve(&mut self, assumptions: &[Lit]) -> Option<bool>;
    /// The value of `lit` in the last model (false for variables the model does not mention).
    fn model_value(&self, lit: Lit) -> bool;
    fn num_vars(&self) -> u32;
    fn num_clauses(&self) -> u64;
    fn kind(&self) -> BackendKind;
    /// Charges the back end's work (conflicts, clauses) to `meter` and makes later `solve`
    /// calls give up (`None`) once it is exhausted, where the back end supports interruption.
    fn set_meter(&mut self, _meter: budget::Meter) {}
    /// Makes later `solve` calls give up (`None`) after `conflicts` more conflicts in all
    /// (`None`: no limit), where the back end supports it.
    fn set_conflict_budget(&mut self, _conflicts: Option<u64>) {}
    /// All-SAT projected on `projection`: appends to `found` every valuation of `projection`
    /// (literal values, in order) that extends to a model under `assumptions`, once each.
    /// Each is blocked by a clause guarded by `guard`, which must be one of the assumptions (the
    /// caller retires the clauses by adding `!guard`). Returns whether the enumeration is
    /// complete: `false` once `found` holds more than `limit` valuations or the solver gave up.
    ///
    /// This default solves once per valuation; a back end may do better.
    fn enumerate(&mut self, assumptions: &[Lit], guard: Lit, projection: &[Lit], limit: usize, found: &mut Vec<Vec<bool>>) -> bool {
        loop {
            if found.len() > limit {
                return false;
            }
            match self.solve(assumptions) {
                Some(true) => {
                    let values: Vec<bool> = projection.iter().map(|&l| literal_value(&*self, l)).collect();
                    self.add_clause(&blocking_clause(guard, projection, &values));
                    found.push(values);
                }
                Some(false) => return true,
                None => return false,
            }
        }
    }
}

/// The value of `lit` in the back end's last model (constants included).
fn literal_value(backend: &(impl SatBackend + ?Sized), lit: Lit) -> bool {
    if lit.is_constant() {
        lit == Lit::TRUE
    } else {
        backend.model_value(lit)
    }
}

/// `!guard ∨ ⋁ ¬(projection_i = values_i)`: excludes one valuation while `guard` holds.
pub(crate) fn blocking_clause(guard: Lit, projection: &[Lit], values: &[bool]) -> Vec<Lit> {
    std::iter::once(!guard)
        .chain(projection.iter().zip(values).filter(|(l, _)| !l.is_constant()).map(|(&l, &v)| if v { !l } else { l }))
        .collect()
}

/// A new back end of the given kind.
pub fn new_backend(kind: BackendKind) -> Box<dyn SatBackend> {
    match kind {
        BackendKind::Batsat => Box::new(BatsatBackend::new()),
        BackendKind::Varisat => Box::new(VarisatBackend::new()),
    }
}

/// batsat's callbacks: charge conflicts to the meter, stop once it is exhausted or the conflict
/// budget is spent.
#[derive(Default)]
struct Interrupt {
    meter: budget::Meter,
    /// Conflicts so far (learnt clauses).
    conflicts: u64,
    /// Stop once `conflicts` reaches this.
    conflict_limit: Option<u64>,
    /// Conflicts that were models answered by an enumeration's blocking clause: not search
    /// effort, so they do not count against the budget.
    models: std::rc::Rc<std::cell::Cell<u64>>,
    /// Propagations of the running search counted so far by its [`TrailCount`] (not yet
    /// charged: the exact count is charged when the search ends).
    pending: std::rc::Rc<std::cell::Cell<u64>>,
}

impl Interrupt {
    /// Conflicts of search so far.
    fn effort(&self) -> u64 {
        self.conflicts.saturating_sub(self.models.get())
    }
    /// Whether charging the running search's propagations would spend the budget.
    fn propagations_would_exhaust(&self) -> bool {
        let pending = self.pending.get() / budget::cost::SAT_PROPAGATIONS_PER_UNIT;
        pending > 0 && self.meter.remaining().is_some_and(|left| pending >= left)
    }
}

/// Counts a search's unit propagations while it runs, from the growth of the trail that
/// batsat shows its theory before every decision ([`batsat::Theory::partial_check`]): a
/// search that propagates millions of literals between a few conflicts (bounded model
/// checking of `sum02-1`: 23M propagations on 700 decisions) stops within two decisions once
/// its propagations would spend the budget (batsat asks whether to stop before it shows the
/// theory the last decision's trail, so the count lags one decision), instead of overrunning the
/// budget by the whole search.
/// The count is only the stop signal; the charge at the end of the search stays batsat's own
/// propagation counter, so runs that stay within their budget are charged as before.
struct TrailCount {
    /// Trail length at the last check or, if lower, the level the search backjumped to.
    last: usize,
    /// Trail length below each open decision level (its decision's position).
    levels: Vec<usize>,
    pending: std::rc::Rc<std::cell::Cell<u64>>,
}

impl TrailCount {
    fn new(start: usize, pending: std::rc::Rc<std::cell::Cell<u64>>) -> TrailCount {
        pending.set(0);
        TrailCount { last: start, levels: Vec::new(), pending }
    }
    fn check(&mut self, trail: usize) {
        let grown = trail.saturating_sub(self.last) as u64;
        self.pending.set(self.pending.get() + grown);
        self.last = trail;
    }
    fn create_level(&mut self) {
        self.levels.push(self.last);
    }
    fn pop_levels(&mut self, n: usize) {
        let keep = self.levels.len().saturating_sub(n);
        if let Some(&below) = self.levels.get(keep) {
            self.last = self.last.min(below);
        }
        self.levels.truncate(keep);
    }
}

impl Drop for TrailCount {
    fn drop(&mut self) {
        self.pending.set(0);
    }
}

/// The theory of a plain `solve`: no theory at all, only the [`TrailCount`].
struct Counting(TrailCount);

impl batsat::Theory for Counting {
    fn final_check(&mut self, _acts: &mut batsat::TheoryArg) {}
    fn partial_check(&mut self, acts: &mut batsat::TheoryArg) {
        self.0.check(acts.model().len());
    }
    fn create_level(&mut self) {
        self.0.create_level();
    }
    fn pop_levels(&mut self, n: usize) {
        self.0.pop_levels(n);
    }
    fn n_levels(&self) -> usize {
        self.0.levels.len()
    }
    fn explain_propagation(&mut self, _p: batsat::Lit) -> &[batsat::Lit] {
        &[]
    }
}

impl batsat::Callbacks for Interrupt {
    fn on_new_clause(&mut self, _c: &[batsat::Lit], kind: batsat::ClauseKind) {
        if matches!(kind, batsat::ClauseKind::Learnt) {
            self.conflicts += 1;
            self.meter.charge(budget::cost::SAT_CONFLICT);
        }
    }
    fn stop(&self) -> bool {
        // checked before every decision; the meter costs far less than a decision's propagation
        self.conflict_limit.is_some_and(|l| self.effort() >= l) || self.meter.exhausted() || self.propagations_would_exhaust()
    }
}

/// `batsat` (a MiniSat port).
pub(crate) struct BatsatBackend {
    solver: batsat::Solver<Interrupt>,
    vars: u32,
    clauses: u64,
    scratch: Vec<batsat::Lit>,
}

impl BatsatBackend {
    pub(crate) fn new() -> BatsatBackend {
        BatsatBackend { solver: batsat::Solver::new(batsat::SolverOpts::default(), Interrupt::default()), vars: 0, clauses: 0, scratch: Vec::new() }
    }
    /// Charges the propagations of the search that began at `before` propagations: most of a
    /// hard instance's time is unit propagation between conflicts (bounded model checking of
    /// `toy.cil`: three quarters), which the per-conflict charge does not see.
    fn charge_propagations(&mut self, before: u64) {
        use batsat::SolverInterface;
        let done = self.solver.num_propagations().saturating_sub(before);
        self.solver.cb().meter.charge(done / budget::cost::SAT_PROPAGATIONS_PER_UNIT);
    }
    /// A propagation count for the next search, starting from the literals fixed at level 0.
    fn trail_count(&self) -> TrailCount {
        use batsat::SolverInterface;
        TrailCount::new(self.solver.proved_at_lvl_0().len(), self.solver.cb().pending.clone())
    }
    fn lit(l: Lit) -> batsat::Lit {
        batsat::Lit::new(batsat::Var::unsafe_from_idx(l.var()), !l.is_negated())
    }
}

impl Default for BatsatBackend {
    fn default() -> Self {
        BatsatBackend::new()
    }
}

/// batsat's all-SAT in a single search: every complete assignment the solver reaches is
/// reported to [`Theory::final_check`](batsat::Theory::final_check), which records its
/// projection and answers with the blocking clause as a conflict. The solver backjumps only as
/// far as that clause requires and searches on, instead of restarting from level 0 (where each
/// model would cost a decision per variable of the whole instance).
struct Enumerator<'a> {
    guard: Lit,
    projection: Vec<Lit>,
    seen: budget::hash::HashSet<Vec<bool>>,
    found: &'a mut Vec<Vec<bool>>,
    limit: usize,
    cut_short: bool,
    /// Incremented per model ([`Interrupt::models`]).
    models: std::rc::Rc<std::cell::Cell<u64>>,
    trail: TrailCount,
    clause: Vec<batsat::Lit>,
}

impl batsat::Theory for Enumerator<'_> {
    fn final_check(&mut self, acts: &mut batsat::TheoryArg) {
        let value = |l: Lit| {
            let theirs = BatsatBackend::lit(l);
            if l.is_constant() {
                l == Lit::TRUE
            } else {
                acts.value(theirs.var()) ^ !theirs.sign() == batsat::lbool::TRUE
            }
        };
        let values: Vec<bool> = self.projection.iter().map(|&l| value(l)).collect();
        self.clause.clear();
        if self.found.len() > self.limit {
            // enough: the guard's own negation stops the search (reported as cut short)
            self.cut_short = true;
            self.clause.push(BatsatBackend::lit(!self.guard));
        } else {
            self.clause.extend(blocking_clause(self.guard, &self.projection, &values).into_iter().map(BatsatBackend::lit));
            if self.seen.insert(values.clone()) {
                self.found.push(values);
            }
            self.models.set(self.models.get() + 1);
        }
        acts.raise_conflict(&self.clause, true);
    }
    fn partial_check(&mut self, acts: &mut batsat::TheoryArg) {
        self.trail.check(acts.model().len());
    }
    fn create_level(&mut self) {
        self.trail.create_level();
    }
    fn pop_levels(&mut self, n: usize) {
        self.trail.pop_levels(n);
    }
    fn n_levels(&self) -> usize {
        self.trail.levels.len()
    }
    fn explain_propagation(&mut self, _p: batsat::Lit) -> &[batsat::Lit] {
        &[]
    }
}

impl SatBackend for BatsatBackend {
    fn new_var(&mut self) -> u32 {
        use batsat::SolverInterface;
        let v = self.solver.new_var_default();
        self.vars += 1;
        v.idx()
    }
    fn add_clause(&mut self, lits: &[Lit]) {
        use batsat::SolverInterface;
        self.scratch.clear();
        self.scratch.extend(lits.iter().map(|&l| Self::lit(l)));
        self.clauses += 1;
        let cb = self.solver.cb();
        cb.meter.charge(budget::cost::SAT_CLAUSE);
        if self.clauses.is_multiple_of(4096) {
            // the clause database: literals plus the solver's per-clause and per-variable data
            cb.meter.note_memory(self.clauses * 48 + u64::from(self.vars) * 80);
        }
        let mut clause = std::mem::take(&mut self.scratch);
        self.solver.add_clause_reuse(&mut clause);
        self.scratch = clause;
    }
    fn solve(&mut self, assumptions: &[Lit]) -> Option<bool> {
        use batsat::SolverInterface;
        let assumps: Vec<batsat::Lit> = assumptions.iter().map(|&l| Self::lit(l)).collect();
        self.solver.cb().meter.charge(budget::cost::SAT_CALL);
        if self.solver.cb().meter.exhausted() {
            return None;
        }
        let before = self.solver.num_propagations();
        let mut counting = Counting(self.trail_count());
        let r = self.solver.solve_limited_th(&mut counting, &assumps);
        drop(counting);
        self.charge_propagations(before);
        if r == batsat::lbool::TRUE {
            Some(true)
        } else if r == batsat::lbool::FALSE {
            Some(false)
        } else {
            None
        }
    }
    fn model_value(&self, lit: Lit) -> bool {
        use batsat::SolverInterface;
        if lit.var() >= self.vars {
            return false;
        }
        self.solver.value_lit(Self::lit(lit)) == batsat::lbool::TRUE
    }
    fn num_vars(&self) -> u32 {
        self.vars
    }
    fn num_clauses(&self) -> u64 {
        self.clauses
    }
    fn kind(&self) -> BackendKind {
        BackendKind::Batsat
    }
    fn set_meter(&mut self, meter: budget::Meter) {
        self.solver.cb_mut().meter = meter;
    }
    fn set_conflict_budget(&mut self, conflicts: Option<u64>) {
        let cb = self.solver.cb_mut();
        cb.conflict_limit = conflicts.map(|c| cb.effort().saturating_add(c));
    }
    fn enumerate(&mut self, assumptions: &[Lit], guard: Lit, projection: &[Lit], limit: usize, found: &mut Vec<Vec<bool>>) -> bool {
        use batsat::SolverInterface;
        if found.len() > limit {
            return false;
        }
        self.solver.cb().meter.charge(budget::cost::SAT_CALL);
        if self.solver.cb().meter.exhausted() {
            return false;
        }
        let assumps: Vec<batsat::Lit> = assumptions.iter().map(|&l| Self::lit(l)).collect();
        let seen = found.iter().cloned().collect();
        let mut theory = Enumerator {
            guard,
            projection: projection.to_vec(),
            seen,
            found,
            limit,
            cut_short: false,
            models: self.solver.cb_mut().models.clone(),
            trail: self.trail_count(),
            clause: Vec::new(),
        };
        let before = self.solver.num_propagations();
        let r = self.solver.solve_limited_th(&mut theory, &assumps);
        let cut_short = theory.cut_short;
        drop(theory);
        self.charge_propagations(before);
        // the search can only end unsatisfiable (every model is answered with a conflict)
        r == batsat::lbool::FALSE && !cut_short
    }
}

/// `varisat` (a CDCL solver with incremental assumptions).
pub(crate) struct VarisatBackend {
    solver: varisat::Solver<'static>,
    vars: u32,
    clauses: u64,
    model: Vec<bool>,
    scratch: Vec<varisat::Lit>,
}

impl VarisatBackend {
    pub(crate) fn new() -> VarisatBackend {
        VarisatBackend { solver: varisat::Solver::new(), vars: 0, clauses: 0, model: Vec::new(), scratch: Vec::new() }
    }
    fn lit(l: Lit) -> varisat::Lit {
        varisat::Lit::from_index(l.var() as usize, !l.is_negated())
    }
}

impl Default for VarisatBackend {
    fn default() -> Self {
        VarisatBackend::new()
    }
}

impl SatBackend for VarisatBackend {
    fn new_var(&mut self) -> u32 {
        let v = self.vars;
        self.vars += 1;
        v
    }
    fn add_clause(&mut self, lits: &[Lit]) {
        use varisat::ExtendFormula;
        self.scratch.clear();
        self.scratch.extend(lits.iter().map(|&l| Self::lit(l)));
        self.clauses += 1;
        self.solver.add_clause(&self.scratch);
    }
    fn solve(&mut self, assumptions: &[Lit]) -> Option<bool> {
        let assumps: Vec<varisat::Lit> = assumptions.iter().map(|&l| Self::lit(l)).collect();
        self.solver.assume(&assumps);
        match self.solver.solve() {
            Ok(true) => {
                self.model.clear();
                self.model.resize(self.vars as usize, false);
                if let Some(m) = self.solver.model() {
                    for l in m {
                        if let Some(slot) = self.model.get_mut(l.index()) {
                            *slot = l.is_positive();
                        }
                    }
                }
                Some(true)
            }
            Ok(false) => Some(false),
            Err(_) => None,
        }
    }
    fn model_value(&self, lit: Lit) -> bool {
        let v = self.model.get(lit.var() as usize).copied().unwrap_or(false);
        v != lit.is_negated()
    }
    fn num_vars(&self) -> u32 {
        self.vars
    }
    fn num_clauses(&self) -> u64 {
        self.clauses
    }
    fn kind(&self) -> BackendKind {
        BackendKind::Varisat
    }
}
