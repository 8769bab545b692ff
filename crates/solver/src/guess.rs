//! Cheap models for formulas that multiply variables.
//!
//! A satisfiable query through 64-bit multipliers can cost the SAT solver its whole conflict
//! budget: `s == (a + 1) * (a + 1) && s == 0` holds for `a == -1`, but the solver searches the
//! multiplier's bits. When the first conflicts give no answer, a few evaluations of small
//! values often find a model: each variable starts from a small value, then the equalities
//! of the conjunction that define a variable (`s == (a + 1) * (a + 1)`) set it from the others,
//! and the formula is evaluated with the solver's own semantics ([`crate::eval`]), so a model
//! found here is a model of the formula.

use crate::encode::type_width;
use crate::eval::evaluate;
use crate::SolverConfig;
use c_ir::{BinaryOp, Expr, ExprKind, Program, Type, UnaryOp, VarId};
use logic::eval::wrap;
use budget::hash::HashMap;

/// Assignments tried.
const TRIES: u64 = 64;
/// The values variables start from.
const SMALL: [i128; 9] = [0, 1, -1, 2, -2, 3, 4, 5, 10];
/// Rounds of the defining equalities per assignment (a definition may use another).
const ROUNDS: usize = 3;

/// Whether `e` multiplies, divides or takes the remainder of two non-constant operands.
pub fn has_product(e: &Expr) -> bool {
    fn constant(e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Const(_) => true,
            ExprKind::Cast(inner) => constant(inner),
            _ => false,
        }
    }
    let mut found = false;
    e.visit(&mut |x| {
        if let ExprKind::Binary(BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem, a, b) = &x.kind {
            found |= !constant(a) && !constant(b);
        }
    });
    found
}

/// Small assignments to the variables of some formulas, with equalities as definitions.
struct Sampler<'a> {
    config: &'a SolverConfig,
    vars: Vec<VarId>,
    position: HashMap<VarId, usize>,
    types: Vec<Type>,
    widths: Vec<u32>,
    seed: u64,
}

impl<'a> Sampler<'a> {
    /// `None` unless every variable of `formulas` is an integer or a boolean.
    fn new(formulas: &[&Expr], program: &Program, config: &'a SolverConfig) -> Option<Sampler<'a>> {
        let mut vars: Vec<VarId> = formulas.iter().flat_map(|f| f.vars()).collect();
        vars.sort();
        vars.dedup();
        let types: Vec<Type> = vars.iter().map(|v| program.vars.get(v.0 as usize).map(|d| d.ty.clone())).collect::<Option<_>>()?;
        if !types.iter().all(|t| matches!(t, Type::Int { .. } | Type::Bool)) {
            return None;
        }
        let widths: Vec<u32> = types.iter().map(|t| type_width(config, t)).collect::<Option<_>>()?;
        let position = vars.iter().enumerate().map(|(i, v)| (*v, i)).collect();
        Some(Sampler { config, vars, position, types, widths, seed: 0x9e37_79b9_7f4a_7c15 })
    }

    fn random(&mut self) -> u64 {
        self.seed ^= self.seed << 13;
        self.seed ^= self.seed >> 7;
        self.seed ^= self.seed << 17;
        self.seed
    }

    fn normalise(&self, i: usize, v: i128) -> i128 {
        match &self.types[i] {
            Type::Int { signed, .. } => wrap(v, self.widths[i], *signed),
            _ => (v != 0) as i128,
        }
    }

    fn eval(&self, e: &Expr, values: &[i128]) -> Option<i128> {
        let leaf = |x: &Expr| match x.kind {
            ExprKind::Var(v) => self.position.get(&v).map(|&j| values[j]),
            _ => None,
        };
        evaluate(e, self.config, &leaf)
    }

    /// Small values (all zero when `zero`), then each definition `x == e` in turn sets `x`
    /// from the others, for a few rounds (the first definition of a variable wins in a round).
    fn assignment(&mut self, zero: bool, definitions: &[(usize, &Expr)]) -> Vec<i128> {
        let mut values: Vec<i128> = Vec::with_capacity(self.vars.len());
        for i in 0..self.vars.len() {
            let v = if zero { 0 } else { SMALL[(self.random() % SMALL.len() as u64) as usize] };
            values.push(self.normalise(i, v));
        }
        for _ in 0..ROUNDS {
            let mut set = vec![false; self.vars.len()];
            for &(i, e) in definitions {
                if set[i] {
                    continue;
                }
                if let Some(v) = self.eval(e, &values) {
                    values[i] = self.normalise(i, v);
                    set[i] = true;
                }
            }
        }
        values
    }

    fn definitions<'e>(&self, e: &'e Expr) -> Vec<(usize, &'e Expr)> {
        let mut out = Vec::new();
        collect_definitions(e, &self.position, &mut out);
        out
    }
}

/// A model of `formula` over its variables, if one of the tried assignments is one. Only
/// formulas over integer and boolean variables are tried.
pub(crate) fn guess_model(formula: &Expr, program: &Program, config: &SolverConfig) -> Option<Vec<(VarId, i128)>> {
    let mut sampler = Sampler::new(&[formula], program, config)?;
    let definitions = sampler.definitions(formula);
    for t in 0..TRIES {
        let values = sampler.assignment(t == 0, &definitions);
        if sampler.eval(formula, &values) == Some(1) {
            return Some(sampler.vars.iter().copied().zip(values).collect());
        }
    }
    None
}

/// Distinct truth values of `formulas` at assignments that satisfy `side` (if any): each is
/// the valuation of an actual state, found by evaluation. Every try uses the definitions of
/// `side` and a random half of those of `formulas` (an equality true in a valuation is one
/// a random assignment seldom makes true). Empty unless every variable is an integer or a
/// boolean.
pub fn sample_valuations(formulas: &[&Expr], side: Option<&Expr>, program: &Program, config: &SolverConfig, tries: u64) -> Vec<Vec<bool>> {
    let all: Vec<&Expr> = formulas.iter().copied().chain(side).collect();
    let Some(mut sampler) = Sampler::new(&all, program, config) else { return Vec::new() };
    let required = side.map(|s| sampler.definitions(s)).unwrap_or_default();
    let optional: Vec<Vec<(usize, &Expr)>> = formulas.iter().map(|f| sampler.definitions(f)).collect();
    let mut out: Vec<Vec<bool>> = Vec::new();
    for t in 0..tries {
        let mut definitions = required.clone();
        for d in &optional {
            if sampler.random() % 2 == 0 {
                definitions.extend(d.iter().copied());
            }
        }
        let values = sampler.assignment(t == 0, &definitions);
        if side.is_some_and(|s| sampler.eval(s, &values) != Some(1)) {
            continue;
        }
        let Some(valuation) = formulas.iter().map(|f| sampler.eval(f, &values).map(|v| v != 0)).collect::<Option<Vec<bool>>>() else { continue };
        if !out.contains(&valuation) {
            out.push(valuation);
        }
    }
    out
}

/// The equalities `x == e` (either side, through casts) among the conjuncts of `e`.
fn collect_definitions<'a>(e: &'a Expr, position: &HashMap<VarId, usize>, out: &mut Vec<(usize, &'a Expr)>) {
    match &e.kind {
        ExprKind::Binary(BinaryOp::And, a, b) => {
            collect_definitions(a, position, out);
            collect_definitions(b, position, out);
        }
        ExprKind::Unary(UnaryOp::Not, inner) => {
            if let ExprKind::Binary(BinaryOp::Ne, l, r) = &inner.kind {
                definition(l, r, position, out);
            }
        }
        ExprKind::Binary(BinaryOp::Eq, l, r) => definition(l, r, position, out),
        _ => {}
    }
}

/// `l == r` as a definition of the variable on either side (through integer casts).
fn definition<'a>(l: &'a Expr, r: &'a Expr, position: &HashMap<VarId, usize>, out: &mut Vec<(usize, &'a Expr)>) {
    fn variable(e: &Expr) -> Option<VarId> {
        match &e.kind {
            ExprKind::Var(v) => Some(*v),
            ExprKind::Cast(inner) if e.ty.is_integer() && inner.ty.is_integer() => variable(inner),
            _ => None,
        }
    }
    for (side, other) in [(l, r), (r, l)] {
        if let Some(&i) = variable(side).and_then(|v| position.get(&v)) {
            out.push((i, other));
        }
    }
}
