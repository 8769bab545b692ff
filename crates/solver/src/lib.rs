//! The decision procedure: satisfiability and validity of `logic` formulas (IR expressions of
//! type `Bool`) by bit-blasting to CNF and incremental SAT (BOOP ch. 5 did this with HOL98).
//!
//! Entry points:
//! - [`Context`]: the incremental interface (encode formulas to literals once, add clauses,
//!   solve under assumptions, read models) for all-SAT enumeration and cube checks;
//! - [`Solver`]: a session with a query cache keyed by the simplified formula, statistics and an
//!   optional query log for the UI; [`is_satisfiable`], [`is_valid`], [`implies`] are one-shot
//!   conveniences; [`SolverConfig`] chooses widths, back end, integer semantics and budget;
//! - semantics: C's two's complement at the declared widths (or one reduced width for all
//!   integers, [`SolverConfig::int_width`]), operations undefined in C get the SMT-LIB `QF_BV`
//!   meaning (see [`logic::eval`]); [`IntegerSemantics::Ideal`] excludes signed overflow
//!   instead ([`with_no_overflow`]);
//! - [`evaluate`] is a reference evaluator with the same semantics (for brute-force tests and
//!   checking models), [`to_smtlib`] prints a query in SMT-LIB 2 (differential testing against
//!   Z3, exporting queries);
//! - [`SatBackend`] ([`new_backend`]) is the narrow SAT interface the circuits are built on
//!   (`batsat` or `varisat`, [`BackendKind`]).
//!
//! Memory model:
//! - variable `v` has the constant address `(v + 1) << (pointer_bits / 2)` (string literal `n`
//!   continues the numbering after the variables): distinct, non-null, and far enough apart that
//!   `&a[i] = &a + i` (a signed index, stride 1) never reaches another variable;
//! - every location term (address-taken variable, `*p`, `s.f`/`p->f`, `a[i]`) has an address
//!   and a value; any two location terms of the same memory type key are functionally
//!   consistent (Ackermann): equal addresses imply equal values;
//! - `&(e.f)` is an uninterpreted function of `&e` per struct field: injective, non-null,
//!   different from every other field's addresses and from variable addresses;
//! - uninterpreted symbols `App(symbol, args)` are functions of their arguments (Ackermann);
//!   nullary ones (fresh values `$...`) are free constants.

mod blast;
mod encode;
mod eval;
mod guess;
mod linear;
mod overflow;
mod polynomial;
mod sat;
mod smtlib;

// Formulas outside the encodable fragment; the bit width of a type under a configuration.
pub use encode::{type_width, Unsupported};
// The reference evaluator and the SMT-LIB 2 printer, with the solver's semantics.
pub use eval::evaluate;
pub use smtlib::to_smtlib;
// Cheap models for formulas that multiply variables: valuations found by evaluation.
pub use guess::{has_product, sample_valuations};
// Integer semantics: wrapping (bit-precise) or without signed overflow (the papers' ℤ).
pub use overflow::{no_overflow_conditions, with_no_overflow, IntegerSemantics};
// The SAT back-end interface under `Context`.
pub use sat::{new_backend, BackendKind, Lit, SatBackend};

use c_ir::{display_expr, Expr, ExprKind, Program, Type, VarId};
use budget::hash::HashMap;
use web_time::Instant;

pub(crate) fn blast_mask(w: u32) -> u128 {
    logic::eval::mask(w)
}

/// How formulas are interpreted and solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolverConfig {
    /// `None`: every integer type has its C width (char 8, short 16, int 32, long 64);
    /// `Some(w)`: all integer types have `w` bits (faster, less precise).
    pub int_width: Option<u8>,
    /// Width of pointers (addresses); at least 8, 64 by default.
    pub pointer_bits: u32,
    pub backend: BackendKind,
    /// Whether [`Solver`] caches answers by simplified formula.
    pub cache: bool,
    /// Whether [`Solver`] records every query in its log.
    pub log_queries: bool,
    /// [`Solver`] starts a fresh incremental context once the current one has this many
    /// clauses (satisfiable queries must assign every variable of the context, so unbounded
    /// growth makes them slower); 0 = never.
    pub recycle_after_clauses: u64,
    /// The work budget (`budget::Meter`, with the run's safety time limit): SAT conflicts,
    /// calls and clauses are charged to it, and once it is exhausted a SAT call still running
    /// gives up (the query answers `Unknown`, which every client treats soundly). Only the
    /// `batsat` back end can be interrupted inside a call. Meters compare equal.
    pub meter: budget::Meter,
    /// Signed overflow wraps (bit-precise, the default) or is impossible (the papers' ℤ,
    /// sound for programs without undefined behaviour): see `solver::overflow`.
    pub integers: IntegerSemantics,
}

impl SolverConfig {
    /// C widths, 64-bit pointers, the default back end, caching on, no log.
    pub fn c_semantics() -> SolverConfig {
        SolverConfig {
            int_width: None,
            pointer_bits: 64,
            backend: DEFAULT_BACKEND,
            cache: true,
            log_queries: false,
            recycle_after_clauses: 20_000,
            meter: budget::Meter::default(),
            integers: IntegerSemantics::Wrap,
        }
    }
    /// All integers `width` bits wide.
    pub fn with_int_width(width: u8) -> SolverConfig {
        SolverConfig { int_width: Some(width), ..SolverConfig::c_semantics() }
    }
}

impl Default for SolverConfig {
    fn default() -> Self {
        SolverConfig::c_semantics()
    }
}

/// The back end used unless configured otherwise (the faster one in `solver::bench`).
pub const DEFAULT_BACKEND: BackendKind = BackendKind::Batsat;

/// The result of [`Context::solve`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveResult {
    Sat,
    Unsat,
    Unknown,
}

/// The answer to a yes/no question (`is_satisfiable`: yes = satisfiable; `is_valid`/`implies`:
/// yes = valid). `Unknown` carries the reason (an unsupported term, a solver give-up).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    Yes,
    No,
    Unknown(String),
}

impl Answer {
    pub fn is_yes(&self) -> bool {
        *self == Answer::Yes
    }
    pub fn is_no(&self) -> bool {
        *self == Answer::No
    }
    fn negated(self) -> Answer {
        match self {
            Answer::Yes => Answer::No,
            Answer::No => Answer::Yes,
            u => u,
        }
    }
}

/// The incremental solver: a circuit over one SAT instance, with every encoded term cached.
pub struct Context {
    encoder: encode::Encoder,
    sat_calls: u64,
    last: Option<SolveResult>,
}

impl Context {
    pub fn new(program: &Program, config: &SolverConfig) -> Context {
        let mut backend = sat::new_backend(config.backend);
        backend.set_meter(config.meter.clone());
        let circuit = blast::Circuit::new(backend);
        Context { encoder: encode::Encoder::new(program, config, circuit), sat_calls: 0, last: None }
    }

    /// The literal equivalent to the formula `e` (encoded once; later calls share the encoding
    /// and that of common subterms). Non-boolean scalars count as `e != 0`. With
    /// [`IntegerSemantics::Ideal`], the no-overflow conditions of `e`'s signed operations become
    /// permanent constraints of this context.
    /// A term nested deeper than [`logic::MAX_TERM_DEPTH`] is not encoded (the encoder recurses
    /// once per level): `Err` with the reason.
    pub fn literal(&mut self, e: &Expr) -> Result<Lit, Unsupported> {
        logic::check_depth(e).map_err(|too_deep| Unsupported { message: too_deep.to_string() })?;
        if self.encoder.config().integers == IntegerSemantics::Ideal {
            let width = self.encoder.config().int_width;
            for condition in no_overflow_conditions(e, width) {
                let l = self.encoder.bool_lit(&condition)?;
                self.add_clause(&[l]);
            }
        }
        self.encoder.bool_lit(e)
    }

    /// Adds `e` as a permanent constraint.
    pub fn assert_expr(&mut self, e: &Expr) -> Result<(), Unsupported> {
        let l = self.literal(e)?;
        self.add_clause(&[l]);
        Ok(())
    }

    /// Adds a permanent clause over literals from [`Context::literal`] or [`Context::new_literal`].
    pub fn add_clause(&mut self, lits: &[Lit]) {
        self.encoder.circuit.clause(lits);
    }

    /// A fresh unconstrained literal (e.g. an activation literal for retractable constraints).
    pub fn new_literal(&mut self) -> Lit {
        self.encoder.circuit.fresh()
    }

    /// Makes later [`Context::solve`] calls answer [`SolveResult::Unknown`] once they have
    /// spent `conflicts` more SAT conflicts in all (`None`: no limit). A deterministic budget,
    /// unlike the deadline: the same query gives up at the same point on every machine.
    pub fn set_conflict_budget(&mut self, conflicts: Option<u64>) {
        self.encoder.circuit.sat_mut().set_conflict_budget(conflicts);
    }

    /// Solves the permanent constraints together with the assumption literals.
    pub fn solve(&mut self, assumptions: &[Lit]) -> SolveResult {
        self.sat_calls += 1;
        if assumptions.contains(&Lit::FALSE) {
            self.last = Some(SolveResult::Unsat);
            return SolveResult::Unsat;
        }
        let assumptions: Vec<Lit> = assumptions.iter().copied().filter(|&l| l != Lit::TRUE).collect();
        let r = match self.encoder.circuit.sat_mut().solve(&assumptions) {
            Some(true) => SolveResult::Sat,
            Some(false) => SolveResult::Unsat,
            None => SolveResult::Unknown,
        };
        self.last = Some(r);
        r
    }

    /// Excludes the valuation `values` of `projection` while `guard` holds (a blocking clause,
    /// retired by adding `!guard`).
    pub fn block(&mut self, guard: Lit, projection: &[Lit], values: &[bool]) {
        self.add_clause(&sat::blocking_clause(guard, projection, values));
    }

    /// All-SAT projected on `projection` under `assumptions` (see
    /// [`SatBackend::enumerate`]): appends each satisfiable valuation once to `found`; blocking
    /// clauses are guarded by `guard`, one of the assumptions. `false` when cut short (more
    /// than `limit` valuations, the conflict budget, the deadline).
    pub fn enumerate(&mut self, assumptions: &[Lit], guard: Lit, projection: &[Lit], limit: usize, found: &mut Vec<Vec<bool>>) -> bool {
        self.sat_calls += 1;
        self.last = None;
        if assumptions.contains(&Lit::FALSE) {
            return true;
        }
        let assumptions: Vec<Lit> = assumptions.iter().copied().filter(|&l| l != Lit::TRUE).collect();
        self.encoder.circuit.sat_mut().enumerate(&assumptions, guard, projection, limit, found)
    }

    /// The value of `lit` in the last model (after [`SolveResult::Sat`]).
    pub fn model_value_of_literal(&self, lit: Lit) -> bool {
        if lit.is_constant() {
            return lit == Lit::TRUE;
        }
        self.encoder.circuit.sat().model_value(lit)
    }

    /// The value of an encoded term in the last model, normalised into its type's range at the
    /// configured width (`None` if the term was never encoded or there is no model).
    pub fn model_value(&self, e: &Expr) -> Option<i128> {
        if self.last != Some(SolveResult::Sat) {
            return None;
        }
        let bits = self.encoder.encoded(e)?;
        let mut raw = 0u128;
        for (i, &b) in bits.iter().enumerate() {
            if self.model_value_of_literal(b) && i < 128 {
                raw |= 1 << i;
            }
        }
        let signed = e.ty.is_signed();
        Some(logic::eval::from_bits(raw, bits.len() as u32, signed))
    }

    /// The values of all variables encoded so far, in the last model.
    pub fn model(&self, program: &Program) -> Vec<(VarId, i128)> {
        self.encoder
            .encoded_vars()
            .into_iter()
            .filter_map(|v| {
                let var = program.vars.get(v.0 as usize)?;
                let value = self.model_value(&Expr::var(v, var.ty.clone()))?;
                Some((v, value))
            })
            .collect()
    }

    pub fn config(&self) -> &SolverConfig {
        self.encoder.config()
    }
    pub fn num_vars(&self) -> u32 {
        self.encoder.circuit.sat().num_vars()
    }
    pub fn num_clauses(&self) -> u64 {
        self.encoder.circuit.sat().num_clauses()
    }
    pub fn sat_calls(&self) -> u64 {
        self.sat_calls
    }
}

/// Counters of a [`Solver`] session.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Statistics {
    pub queries: u64,
    pub cache_hits: u64,
    pub sat_calls: u64,
    pub unknown_answers: u64,
    /// Variables of the current incremental context.
    pub sat_vars: u64,
    /// Clauses added over the whole session.
    pub clauses: u64,
    pub time_micros: u64,
}

/// What was asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QueryKind {
    Satisfiable,
    Valid,
    Implies,
}

/// One recorded query (for the UI's cube lattice and query views).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueryLogEntry {
    pub kind: QueryKind,
    /// The formula in C syntax (for `Implies`: `premises ==> conclusion`).
    pub formula: String,
    pub answer: Answer,
    /// For a satisfiable formula (or a refuted validity/implication): variable values by name.
    pub model: Vec<(String, i128)>,
    pub micros: u64,
    pub cached: bool,
}

/// Variable values of a satisfying assignment.
pub type Model = Vec<(VarId, i128)>;

/// SAT conflicts a formula that multiplies variables may spend before a model is guessed
/// (`guess`).
const GUESS_AFTER_CONFLICTS: u64 = 1000;

/// A query session: one incremental [`Context`], a cache, statistics and an optional log.
pub struct Solver {
    program: Program,
    context: Context,
    cache: HashMap<Expr, (Answer, Model)>,
    statistics: Statistics,
    log: Vec<QueryLogEntry>,
    last_model: Option<Model>,
    retired_sat_calls: u64,
    retired_clauses: u64,
    /// SAT conflicts each query may spend ([`Solver::set_conflict_budget`]).
    conflict_budget: Option<u64>,
}

impl Solver {
    pub fn new(program: &Program, config: &SolverConfig) -> Solver {
        // the session only needs names and types, not procedure bodies
        let slim = program.without_bodies();
        Solver {
            context: Context::new(&slim, config),
            program: slim,
            cache: HashMap::default(),
            statistics: Statistics::default(),
            log: Vec::new(),
            last_model: None,
            retired_sat_calls: 0,
            retired_clauses: 0,
            conflict_budget: None,
        }
    }

    /// Is there a state satisfying `e`? (`Yes` leaves a model in [`Solver::last_model`].)
    pub fn is_satisfiable(&mut self, e: &Expr) -> Answer {
        self.query(QueryKind::Satisfiable, e, None)
    }

    /// Does `e` hold in every state?
    pub fn is_valid(&mut self, e: &Expr) -> Answer {
        let negation = Expr::logical_not(e.clone());
        self.query(QueryKind::Valid, &negation, Some(e)).negated()
    }

    /// Does the conjunction of `premises` imply `conclusion`?
    pub fn implies(&mut self, premises: &[Expr], conclusion: &Expr) -> Answer {
        let mut items: Vec<Expr> = premises.to_vec();
        items.push(Expr::logical_not(conclusion.clone()));
        let counter = and_all(&items);
        let shown = Expr::binary(c_ir::BinaryOp::Implies, and_all(premises), conclusion.clone());
        self.query(QueryKind::Implies, &counter, Some(&shown)).negated()
    }

    fn query(&mut self, kind: QueryKind, formula: &Expr, shown: Option<&Expr>) -> Answer {
        let start = Instant::now();
        self.statistics.queries += 1;
        // simplification, the cache's hashing and the encoder recurse once per level
        if let Err(too_deep) = logic::check_depth(formula) {
            self.statistics.unknown_answers += 1;
            self.last_model = None;
            return Answer::Unknown(too_deep.to_string());
        }
        let config = self.context.config().clone();
        let constrained;
        let formula = if config.integers == IntegerSemantics::Ideal {
            constrained = with_no_overflow(formula, config.int_width);
            &constrained
        } else {
            formula
        };
        // simplification folds constants at C's widths: only sound without a reduced width
        let key = if config.int_width.is_none() { logic::simplify(formula) } else { formula.clone() };
        let (answer, model, cached) = match self.cache.get(&key) {
            Some((a, m)) if config.cache => {
                self.statistics.cache_hits += 1;
                (a.clone(), m.clone(), true)
            }
            _ => {
                let (a, m) = self.solve_uncached(&key);
                if config.cache && !matches!(a, Answer::Unknown(_)) {
                    self.cache.insert(key.clone(), (a.clone(), m.clone()));
                }
                (a, m, false)
            }
        };
        if matches!(answer, Answer::Unknown(_)) {
            self.statistics.unknown_answers += 1;
        }
        self.last_model = if answer == Answer::Yes { Some(model.clone()) } else { None };
        let micros = start.elapsed().as_micros() as u64;
        self.statistics.time_micros += micros;
        self.statistics.sat_calls = self.retired_sat_calls + self.context.sat_calls();
        self.statistics.sat_vars = self.context.num_vars() as u64;
        self.statistics.clauses = self.retired_clauses + self.context.num_clauses();
        if config.log_queries {
            let shown_answer = if kind == QueryKind::Satisfiable { answer.clone() } else { answer.clone().negated() };
            let named: Vec<(String, i128)> =
                model.iter().map(|(v, x)| (self.program.vars.get(v.0 as usize).map(|d| d.name.clone()).unwrap_or_default(), *x)).collect();
            self.log.push(QueryLogEntry {
                kind,
                formula: display_expr(&self.program, shown.unwrap_or(formula)),
                answer: shown_answer,
                model: named,
                micros,
                cached,
            });
        }
        answer
    }

    fn solve_uncached(&mut self, formula: &Expr) -> (Answer, Model) {
        if formula.is_true() {
            return (Answer::Yes, Vec::new());
        }
        if formula.is_false() {
            return (Answer::No, Vec::new());
        }
        let limit = self.context.config().recycle_after_clauses;
        if limit > 0 && self.context.num_clauses() > limit {
            let config = self.context.config().clone();
            self.retired_sat_calls += self.context.sat_calls();
            self.retired_clauses += self.context.num_clauses();
            self.context = Context::new(&self.program, &config);
        }
        // the side conditions are part of `formula` already: not permanent in this shared context
        let lit = match self.context.encoder.bool_lit(formula) {
            Ok(l) => l,
            Err(u) => return (Answer::Unknown(u.to_string()), Vec::new()),
        };
        // a formula that multiplies variables gets a few conflicts first, then a guessed
        // model, then the rest of its budget
        let mut result = SolveResult::Unknown;
        let mut budget = self.conflict_budget;
        if guess::has_product(formula) && budget.is_none_or(|b| b > GUESS_AFTER_CONFLICTS) {
            self.context.set_conflict_budget(Some(GUESS_AFTER_CONFLICTS));
            result = self.context.solve(&[lit]);
            if result == SolveResult::Unknown {
                if let Some(model) = guess::guess_model(formula, &self.program, self.context.config()) {
                    self.context.set_conflict_budget(None);
                    return (Answer::Yes, model);
                }
            }
            budget = budget.map(|b| b - GUESS_AFTER_CONFLICTS);
        }
        if result == SolveResult::Unknown {
            self.context.set_conflict_budget(budget);
            result = self.context.solve(&[lit]);
        }
        self.context.set_conflict_budget(None);
        match result {
            SolveResult::Sat => {
                let mut vars = formula.vars();
                vars.sort();
                let model = vars
                    .into_iter()
                    .filter_map(|v| {
                        let ty = self.program.vars.get(v.0 as usize)?.ty.clone();
                        if !ty.is_scalar() {
                            return None;
                        }
                        Some((v, self.context.model_value(&Expr::var(v, ty))?))
                    })
                    .collect();
                (Answer::Yes, model)
            }
            SolveResult::Unsat => (Answer::No, Vec::new()),
            SolveResult::Unknown => {
                let why = if let Some(stop) = self.context.config().meter.stopped() {
                    format!("{stop} (during a SAT call)")
                } else if self.conflict_budget.is_some() {
                    "the SAT solver spent its conflict budget".to_string()
                } else {
                    "the SAT solver gave up".to_string()
                };
                (Answer::Unknown(why), Vec::new())
            }
        }
    }

    /// Makes each later query answer [`Answer::Unknown`] once its SAT call has spent
    /// `conflicts` conflicts (`None`: no limit). Unknown answers are not cached.
    pub fn set_conflict_budget(&mut self, conflicts: Option<u64>) {
        self.conflict_budget = conflicts;
    }

    /// The model of the last query whose underlying satisfiability check succeeded: a model of
    /// a satisfiable formula, or a counterexample to a refuted validity or implication (values
    /// of the formula's scalar variables).
    pub fn last_model(&self) -> Option<&Model> {
        self.last_model.as_ref()
    }
    /// The shared incremental context (terms encoded there are shared with the queries).
    pub fn context(&mut self) -> &mut Context {
        &mut self.context
    }
    pub fn statistics(&self) -> Statistics {
        self.statistics.clone()
    }
    pub fn query_log(&self) -> &[QueryLogEntry] {
        &self.log
    }
    pub fn clear_query_log(&mut self) {
        self.log.clear();
    }
}

/// The conjunction of `items` without simplification (`true` when empty).
pub fn and_all(items: &[Expr]) -> Expr {
    let mut iter = items.iter();
    match iter.next() {
        None => Expr::bool(true),
        Some(first) => iter.fold(first.clone(), |acc, e| Expr::and(acc, e.clone())),
    }
}

/// One-shot satisfiability.
pub fn is_satisfiable(program: &Program, e: &Expr, config: &SolverConfig) -> Answer {
    Solver::new(program, config).is_satisfiable(e)
}

/// One-shot validity.
pub fn is_valid(program: &Program, e: &Expr, config: &SolverConfig) -> Answer {
    Solver::new(program, config).is_valid(e)
}

/// One-shot implication check.
pub fn implies(program: &Program, premises: &[Expr], conclusion: &Expr, config: &SolverConfig) -> Answer {
    Solver::new(program, config).implies(premises, conclusion)
}

/// Whether the solver can encode `e` at all (no floating point, opaque or struct-valued terms).
pub fn check_supported(program: &Program, e: &Expr) -> Result<(), Unsupported> {
    let mut bad: Option<Unsupported> = None;
    e.visit(&mut |sub| {
        if bad.is_some() {
            return;
        }
        if let Type::Opaque(name) = &sub.ty {
            bad = Some(Unsupported { message: format!("a value of type `{name}` in `{}`", display_expr(program, sub)) });
        }
        if let ExprKind::Var(v) = sub.kind {
            if program.vars.get(v.0 as usize).is_none() {
                bad = Some(Unsupported { message: format!("unknown variable v{}", v.0) });
            }
        }
    });
    match bad {
        Some(u) => Err(u),
        None => Ok(()),
    }
}

/// The normal form of an integer equality `a == b` or disequality `a != b` as the encoder
/// sees it at C's widths (sums of monomials modulo `2^w`, see the `linear` module): two predicates
/// with equal normal forms are equivalent, and one whose form has no terms left
/// ([`EqualityForm::constant`]) is constant (`(y + 1) * (y + 1) - 2 * (y + 1 + x) + (y + 1) == 0`
/// is `y * y - 2 * x + y == 0`, and `z - 1 - z + 1 == 0` is true). `None`: not such a predicate.
pub fn equality_form(e: &Expr) -> Option<EqualityForm> {
    let ExprKind::Binary(op @ (c_ir::BinaryOp::Eq | c_ir::BinaryOp::Ne), a, b) = &e.kind else { return None };
    let Type::Int { bits, .. } = a.ty else { return None };
    if a.ty != b.ty {
        return None;
    }
    let equality = linear::Equality::from_sides(a, b, &a.ty, (bits as u32).clamp(1, 64));
    Some(EqualityForm { negated: *op == c_ir::BinaryOp::Ne, equality })
}

/// See [`equality_form`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EqualityForm {
    negated: bool,
    equality: linear::Equality,
}

impl EqualityForm {
    /// The truth value of a predicate whose terms all cancel.
    pub fn constant(&self) -> Option<bool> {
        self.equality.atoms.is_empty().then(|| (self.equality.target == 0) != self.negated)
    }
    /// Whether the two are the same predicate up to negation.
    pub fn same_up_to_negation(&self, other: &EqualityForm) -> bool {
        self.equality == other.equality
    }
}
