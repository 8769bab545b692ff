//! The decision procedure behind the strengthening traits: cube implications (in a lattice
//! search's own incremental context, reporting counter-models; through the caching
//! `solver::Solver` session for formulas that multiply variables), and all-SAT enumeration in
//! a fresh incremental `Context`.

use crate::strengthen::{EnumeratedValuation, Enumeration, ImplicationOracle, Literal, QueryAnswer, ValuationOracle, Verdict};
use c_ir::{Expr, Program};
use solver::{Answer, Lit, SolveResult, Solver};
use web_time::Instant;

/// Cube checks `E(cube) ⇒ ±ψ` where cube variable `i` stands for `interpretations[i]`.
pub(crate) struct SolverOracle<'a> {
    pub program: &'a Program,
    /// The program the query texts are printed over ([`crate::AbstractionConfig::record_names`]).
    pub shown: &'a Program,
    pub solver: &'a mut Solver,
    pub interpretations: &'a [Expr],
    pub goal: &'a Expr,
    /// When set, each enumeration runs in a fresh incremental context over this (slim)
    /// program instead of the session's shared one: the memory model's congruence constraints
    /// then only relate the terms of this one strengthening, which keeps SAT calls cheap.
    pub fresh_context: Option<(&'a Program, &'a solver::SolverConfig)>,
    /// A side condition assumed in every query (e.g. `malloc`'s fresh address is new).
    pub assumption: Option<&'a Expr>,
    /// Once these are reached every query answers Unknown (treated as "not implied", so the
    /// abstraction stays sound, only coarser) and enumerations are cut short.
    pub limits: Limits,
    /// SAT conflicts one enumeration, or one implication query, may spend
    /// ([`crate::AbstractionConfig::enumeration_conflicts`]).
    pub conflict_budget: Option<u64>,
    /// Set by [`ImplicationOracle::prepare`]: the lattice's own incremental context.
    pub lattice: Option<LatticeContext>,
}

/// A lattice search's incremental context: the cone predicates, `ψ` and the side condition
/// encoded once; each cube query is one `solve` under assumptions, and its model gives the
/// counter-model's valuation of the whole cone.
pub(crate) struct LatticeContext {
    context: solver::Context,
    /// The cone's predicate indices, sorted.
    cone: Vec<u32>,
    /// Their literals, in the same order.
    literals: Vec<Lit>,
    goal: Lit,
    side: Option<Lit>,
}

/// When the abstraction stops asking the solver: its own time limit
/// ([`crate::AbstractionConfig::time_budget_ms`]) and the run's work meter (the solver's).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Limits {
    pub deadline: Option<Instant>,
    pub meter: budget::Meter,
}

impl Limits {
    /// Whether the time limit has passed or the work budget is spent.
    pub(crate) fn reached(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d) || self.meter.exhausted()
    }
}

/// States sampled before an enumeration over formulas that multiply variables
/// (`solver::sample_valuations`).
const SAMPLES: u64 = 64;

impl SolverOracle<'_> {
    fn out_of_time(&self) -> bool {
        self.limits.reached()
    }

    /// A fresh context over the slim program for `formulas`, at a small-model pointer width
    /// when they only compare pointers (`None` without `fresh_context`).
    fn fresh(&self, formulas: &[&Expr]) -> Option<solver::Context> {
        let (program, config) = self.fresh_context?;
        let bits = crate::width::pointer_bits_for(program, formulas, config.pointer_bits);
        Some(if bits == config.pointer_bits {
            solver::Context::new(program, config)
        } else {
            solver::Context::new(program, &solver::SolverConfig { pointer_bits: bits, ..config.clone() })
        })
    }

    /// The lattice context for `cone`, unless a formula multiplies variables (the session's
    /// queries then guess models, see `solver::Solver`) or cannot be encoded.
    fn lattice_context(&self, cone: &[u32]) -> Option<LatticeContext> {
        let mut formulas: Vec<&Expr> = cone.iter().map(|&i| self.interpretations.get(i as usize)).collect::<Option<_>>()?;
        formulas.push(self.goal);
        formulas.extend(self.assumption);
        if formulas.iter().copied().any(solver::has_product) {
            return None;
        }
        let mut context = self.fresh(&formulas)?;
        let mut literals = Vec::with_capacity(cone.len());
        for &i in cone {
            literals.push(context.literal(&self.interpretations[i as usize]).ok()?);
        }
        let goal = context.literal(self.goal).ok()?;
        let side = match self.assumption {
            Some(a) => Some(context.literal(a).ok()?),
            None => None,
        };
        Some(LatticeContext { context, cone: cone.to_vec(), literals, goal, side })
    }

    /// `cube ⇒ ±ψ` in the lattice context, with the counter-model's valuation when refuted.
    fn lattice_query(&mut self, cube: &[Literal], goal_positive: bool) -> Option<QueryAnswer> {
        let budget = self.conflict_budget;
        let lattice = self.lattice.as_mut()?;
        let mut assumptions: Vec<Lit> = lattice.side.into_iter().collect();
        for l in cube {
            let lit = lattice.literals[lattice.cone.binary_search(&l.predicate).ok()?];
            assumptions.push(if l.positive { lit } else { !lit });
        }
        assumptions.push(if goal_positive { !lattice.goal } else { lattice.goal });
        let start = Instant::now();
        lattice.context.set_conflict_budget(budget);
        let result = lattice.context.solve(&assumptions);
        lattice.context.set_conflict_budget(None);
        let micros = start.elapsed().as_micros() as u64;
        let (verdict, model) = match result {
            SolveResult::Unsat => (Verdict::Valid, None),
            SolveResult::Unknown => (Verdict::Unknown, None),
            SolveResult::Sat => {
                let context = &lattice.context;
                let values = lattice.literals.iter().map(|&l| context.model_value_of_literal(l)).collect();
                (Verdict::Invalid, Some(EnumeratedValuation { values, goal: context.model_value_of_literal(lattice.goal) }))
            }
        };
        Some(QueryAnswer { verdict, cached: false, micros, model })
    }
}

impl SolverOracle<'_> {
    fn premises(&self, cube: &[Literal]) -> Vec<Expr> {
        self.assumption
            .into_iter()
            .cloned()
            .chain(cube.iter()
            .filter_map(|l| {
                let e = self.interpretations.get(l.predicate as usize)?;
                Some(if l.positive { e.clone() } else { logic::negate(e) })
            }))
            .collect()
    }
    fn conclusion(&self, goal_positive: bool) -> Expr {
        if goal_positive {
            self.goal.clone()
        } else {
            logic::negate(self.goal)
        }
    }
}

impl ImplicationOracle for SolverOracle<'_> {
    fn cube_implies(&mut self, cube: &[Literal], goal_positive: bool) -> QueryAnswer {
        if self.out_of_time() {
            return QueryAnswer { verdict: Verdict::Unknown, cached: false, micros: 0, model: None };
        }
        if let Some(answer) = self.lattice_query(cube, goal_positive) {
            return answer;
        }
        let premises = self.premises(cube);
        let conclusion = self.conclusion(goal_positive);
        let hits_before = self.solver.statistics().cache_hits;
        let start = Instant::now();
        self.solver.set_conflict_budget(self.conflict_budget);
        let answer = self.solver.implies(&premises, &conclusion);
        self.solver.set_conflict_budget(None);
        let micros = start.elapsed().as_micros() as u64;
        let cached = self.solver.statistics().cache_hits > hits_before;
        let verdict = match answer {
            Answer::Yes => Verdict::Valid,
            Answer::No => Verdict::Invalid,
            Answer::Unknown(_) => Verdict::Unknown,
        };
        QueryAnswer { verdict, cached, micros: if cached { 0 } else { micros }, model: None }
    }

    fn prepare(&mut self, cone: &[u32]) {
        self.lattice = if self.out_of_time() { None } else { self.lattice_context(cone) };
    }

    fn describe_query(&self, cube: &[Literal], goal_positive: bool) -> String {
        let premises = self.premises(cube);
        let lhs = if premises.is_empty() {
            "true".to_string()
        } else {
            premises.iter().map(|p| format!("({})", c_ir::display_expr(self.shown, p))).collect::<Vec<_>>().join(" && ")
        };
        format!("{lhs} ==> ({})", c_ir::display_expr(self.shown, &self.conclusion(goal_positive)))
    }
}

impl ValuationOracle for SolverOracle<'_> {
    fn enumerate(&mut self, cone: &[u32], limit: usize, solver_calls: &mut u64) -> Enumeration {
        let goal = self.goal;
        let single = |joint: Vec<(Vec<bool>, Vec<bool>)>| joint.into_iter().map(|(values, goals)| EnumeratedValuation { values, goal: goals[0] }).collect();
        self.enumerate_goals(cone, &[goal], limit, solver_calls).map(single).map_err(single)
    }
}

impl SolverOracle<'_> {
    /// All satisfiable combinations (valuation of `cone`, values of `goals`), by all-SAT with
    /// blocking clauses over those literals; `Err` with those found so far if cut short by
    /// `limit`, the conflict budget or the deadline.
    pub(crate) fn enumerate_goals(&mut self, cone: &[u32], goals: &[&Expr], limit: usize, solver_calls: &mut u64) -> Result<Vec<(Vec<bool>, Vec<bool>)>, Vec<(Vec<bool>, Vec<bool>)>> {
        if self.out_of_time() {
            // past the budget: do not even encode (the caller falls back to the coarse answer)
            return Err(Vec::new());
        }
        let mut formulas: Vec<&Expr> = cone.iter().filter_map(|&i| self.interpretations.get(i as usize)).collect();
        formulas.extend(goals.iter().copied());
        formulas.extend(self.assumption);
        let mut own = self.fresh(&formulas);
        let context = match own.as_mut() {
            Some(own) => own,
            None => self.solver.context(),
        };
        let mut projection = Vec::with_capacity(cone.len() + goals.len());
        for e in cone.iter().map(|&i| self.interpretations.get(i as usize)).chain(goals.iter().map(|&g| Some(g))) {
            match e.map(|e| context.literal(e)) {
                Some(Ok(l)) => projection.push(l),
                _ => return Err(Vec::new()),
            }
        }
        let side = match self.assumption.map(|a| context.literal(a)) {
            Some(Ok(l)) => Some(l),
            Some(Err(_)) => return Err(Vec::new()),
            None => None,
        };
        // Blocking clauses are guarded by an activation literal, retired at the end.
        let activation = context.new_literal();
        let mut found: Vec<Vec<bool>> = Vec::new();
        // Through multipliers the SAT solver can spend long on each satisfiable valuation:
        // the valuations of sampled states come first (each is one of an actual state).
        let formulas: Vec<&Expr> = cone.iter().filter_map(|&i| self.interpretations.get(i as usize)).chain(goals.iter().copied()).collect();
        if formulas.iter().copied().chain(self.assumption).any(solver::has_product) {
            for valuation in solver::sample_valuations(&formulas, self.assumption, self.program, context.config(), SAMPLES) {
                context.block(activation, &projection, &valuation);
                found.push(valuation);
            }
        }
        let sampled = found.len();
        context.set_conflict_budget(self.conflict_budget);
        let assumptions: Vec<Lit> = std::iter::once(activation).chain(side).collect();
        let complete = context.enumerate(&assumptions, activation, &projection, limit, &mut found);
        context.set_conflict_budget(None);
        context.add_clause(&[!activation]);
        *solver_calls += 1 + (found.len() - sampled) as u64;
        let out = found
            .into_iter()
            .map(|mut values| {
                let goal_values = values.split_off(cone.len());
                (values, goal_values)
            })
            .collect();
        if complete && !self.out_of_time() {
            Ok(out)
        } else {
            Err(out)
        }
    }
}
