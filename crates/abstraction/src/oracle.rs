//! The decision procedure behind the strengthening traits: cube implications through the
//! caching `solver::Solver` session, and all-SAT enumeration in its incremental `Context`.

use crate::strengthen::{EnumeratedValuation, ImplicationOracle, Literal, QueryAnswer, ValuationOracle, Verdict};
use c_ir::{Expr, Program};
use solver::{Answer, SolveResult, Solver};
use web_time::Instant;

/// Cube checks `E(cube) ⇒ ±ψ` where cube variable `i` stands for `interpretations[i]`.
pub struct SolverOracle<'a> {
    pub program: &'a Program,
    pub solver: &'a mut Solver,
    pub interpretations: &'a [Expr],
    pub goal: &'a Expr,
    /// When set, each enumeration runs in a fresh incremental context over this (slim)
    /// program instead of the session's shared one: the memory model's congruence constraints
    /// then only relate the terms of this one strengthening, which keeps SAT calls cheap.
    pub fresh_context: Option<(&'a Program, &'a solver::SolverConfig)>,
    /// A side condition assumed in every query (e.g. `malloc`'s fresh address is new).
    pub assumption: Option<&'a Expr>,
    /// Past this instant every query answers Unknown (treated as "not implied", so the
    /// abstraction stays sound, only coarser) and enumerations are cut short.
    pub deadline: Option<Instant>,
    /// SAT conflicts one enumeration, or one implication query, may spend
    /// ([`crate::AbstractionConfig::enumeration_conflicts`]).
    pub conflict_budget: Option<u64>,
}

/// States sampled before an enumeration over formulas that multiply variables
/// (`solver::sample_valuations`).
const SAMPLES: u64 = 64;

impl SolverOracle<'_> {
    fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
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
            return QueryAnswer { verdict: Verdict::Unknown, cached: false, micros: 0 };
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
        QueryAnswer { verdict, cached, micros: if cached { 0 } else { micros } }
    }

    fn describe_query(&self, cube: &[Literal], goal_positive: bool) -> String {
        let premises = self.premises(cube);
        let lhs = if premises.is_empty() {
            "true".to_string()
        } else {
            premises.iter().map(|p| format!("({})", c_ir::display_expr(self.program, p))).collect::<Vec<_>>().join(" && ")
        };
        format!("{lhs} ==> ({})", c_ir::display_expr(self.program, &self.conclusion(goal_positive)))
    }
}

impl ValuationOracle for SolverOracle<'_> {
    fn enumerate(&mut self, cone: &[u32], limit: usize, solver_calls: &mut u64) -> Option<Vec<EnumeratedValuation>> {
        let goal = self.goal;
        let joint = self.enumerate_goals(cone, &[goal], limit, solver_calls)?;
        Some(joint.into_iter().map(|(values, goals)| EnumeratedValuation { values, goal: goals[0] }).collect())
    }
}

impl SolverOracle<'_> {
    /// All satisfiable combinations (valuation of `cone`, values of `goals`), by all-SAT with
    /// blocking clauses over those literals; `None` if cut short by `limit` or the solver.
    pub fn enumerate_goals(&mut self, cone: &[u32], goals: &[&Expr], limit: usize, solver_calls: &mut u64) -> Option<Vec<(Vec<bool>, Vec<bool>)>> {
        let deadline = self.deadline;
        if deadline.is_some_and(|d| Instant::now() >= d) {
            // past the budget: do not even encode (the caller falls back to the coarse answer)
            return None;
        }
        let mut own;
        let context = match self.fresh_context {
            Some((program, config)) => {
                // a small-model pointer width when the formulas only compare pointers
                let mut formulas: Vec<&Expr> = cone.iter().filter_map(|&i| self.interpretations.get(i as usize)).collect();
                formulas.extend(goals.iter().copied());
                formulas.extend(self.assumption);
                let bits = crate::width::pointer_bits_for(program, &formulas, config.pointer_bits);
                let narrowed;
                let config = if bits == config.pointer_bits {
                    config
                } else {
                    narrowed = solver::SolverConfig { pointer_bits: bits, ..config.clone() };
                    &narrowed
                };
                own = solver::Context::new(program, config);
                &mut own
            }
            None => self.solver.context(),
        };
        let mut literals = Vec::with_capacity(cone.len());
        for &i in cone {
            let e = self.interpretations.get(i as usize)?;
            literals.push(context.literal(e).ok()?);
        }
        let mut goal_literals = Vec::with_capacity(goals.len());
        for g in goals {
            goal_literals.push(context.literal(g).ok()?);
        }
        let side = match self.assumption {
            Some(a) => Some(context.literal(a).ok()?),
            None => None,
        };
        // Blocking clauses are guarded by an activation literal, retired at the end.
        let activation = context.new_literal();
        let mut out = Vec::new();
        let block = |context: &mut solver::Context, values: &[bool], goal_values: &[bool]| {
            let mut blocking = vec![!activation];
            for (&l, &v) in literals.iter().zip(values).chain(goal_literals.iter().zip(goal_values)) {
                blocking.push(if v { !l } else { l });
            }
            context.add_clause(&blocking);
        };
        // Through multipliers the SAT solver can spend long on each satisfiable valuation:
        // the valuations of sampled states come first (each is one of an actual state).
        let formulas: Vec<&Expr> = cone.iter().filter_map(|&i| self.interpretations.get(i as usize)).chain(goals.iter().copied()).collect();
        if formulas.iter().copied().chain(self.assumption).any(solver::has_product) {
            for valuation in solver::sample_valuations(&formulas, self.assumption, self.program, context.config(), SAMPLES) {
                let (values, goal_values) = valuation.split_at(cone.len());
                block(context, values, goal_values);
                out.push((values.to_vec(), goal_values.to_vec()));
            }
        }
        context.set_conflict_budget(self.conflict_budget);
        let assumptions: Vec<solver::Lit> = std::iter::once(activation).chain(side).collect();
        let result = loop {
            if deadline.is_some_and(|d| Instant::now() >= d) || out.len() > limit {
                break None;
            }
            *solver_calls += 1;
            match context.solve(&assumptions) {
                SolveResult::Sat => {
                    let values: Vec<bool> = literals.iter().map(|&l| context.model_value_of_literal(l)).collect();
                    let goal_values: Vec<bool> = goal_literals.iter().map(|&l| context.model_value_of_literal(l)).collect();
                    block(context, &values, &goal_values);
                    out.push((values, goal_values));
                    if out.len() > limit {
                        break None;
                    }
                }
                SolveResult::Unsat => break Some(()),
                SolveResult::Unknown => break None,
            }
        };
        context.set_conflict_budget(None);
        context.add_clause(&[!activation]);
        result.map(|()| out)
    }
}
