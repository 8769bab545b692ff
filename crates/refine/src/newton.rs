//! Feasibility of a linear path by strongest postconditions, NEWTON style (BOOP §7.3, Fig 7.5):
//! forward symbolic simulation with the value map Ω, the conditions Φ and the past valuations Π.
//!
//! Symbolic values are expressions over the variables' values at the start of the path (the
//! Skolem constants θ_x, written as the variable itself) and the path's input variables.

use crate::path::{ExpandedPath, PathOp};
use crate::solve::{check_conjunction, prefer_defined_model, SatAnswer};
use crate::wp::simplify;
use crate::RefineStatistics;
use c_ir::{Expr, ExprKind, VarId};
use budget::hash::HashMap;

/// What one step changed in the symbolic state (the rows of Fig 7.5, as deltas).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum SpDelta {
    /// Ω(var) := value; `previous` went to Π.
    Value { var: VarId, value: Expr, previous: Option<Expr> },
    /// Φ gained `condition` (Ω applied to the assumption `original`).
    Condition { condition: Expr, original: Expr },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SpRow {
    pub step: usize,
    pub delta: SpDelta,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum SpVerdict {
    /// Φ is satisfiable: model values of the path inputs and of the start values in
    /// [`SpAnalysis::initial_vars`] order.
    Feasible { inputs: Vec<Option<i128>>, initial_values: Vec<Option<i128>> },
    /// Φ becomes contradictory at the assumption `step`; `predicates` explain it (per step).
    Infeasible { step: usize, predicates: Vec<(usize, Expr)> },
    /// The path is beyond NEWTON's fragment (memory, structs): `wp` checks it instead.
    Unsupported(String),
    Unknown(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SpAnalysis {
    pub rows: Vec<SpRow>,
    pub verdict: SpVerdict,
    pub initial_vars: Vec<Expr>,
}

struct Condition {
    step: usize,
    value: Expr,
    original: Expr,
}

/// Simulates `path` forward and decides feasibility; `Unknown` for paths through memory
/// (pointers, arrays, fields), which the caller checks with weakest preconditions instead.
pub(crate) fn analyze_sp(path: &ExpandedPath, solver: &mut solver::Solver, stats: &mut RefineStatistics, cancel: &dyn Fn() -> bool) -> SpAnalysis {
    let mut omega: HashMap<VarId, Expr> = HashMap::default();
    // first step at which each variable was assigned
    let mut first_update: HashMap<VarId, usize> = HashMap::default();
    let mut rows = Vec::new();
    let mut conditions: Vec<Condition> = Vec::new();
    // past valuations: (step, var, value before the step)
    let mut pi: Vec<(usize, VarId, Expr)> = Vec::new();
    let unknown = |rows: Vec<SpRow>, reason: &str| SpAnalysis { rows, verdict: SpVerdict::Unknown(reason.into()), initial_vars: Vec::new() };
    let unsupported = |rows: Vec<SpRow>, reason: &str| SpAnalysis { rows, verdict: SpVerdict::Unsupported(reason.into()), initial_vars: Vec::new() };
    for (i, step) in path.steps.iter().enumerate() {
        if cancel() {
            return unknown(rows, "cancelled");
        }
        match &step.op {
            PathOp::Assign { lhs, rhs } => {
                let ExprKind::Var(x) = lhs.kind else { return unsupported(rows, "sp: assignment through memory") };
                if crate::path::uses_memory(rhs) || !lhs.ty.is_scalar() {
                    return unsupported(rows, "sp: memory or struct values");
                }
                let value = simplify(&map_vars_to_values(rhs, &omega));
                if let Err(too_deep) = logic::check_depth(&value) {
                    // symbolic values nest one level per assignment along the path
                    return unknown(rows, &format!("at step {i}: {too_deep}"));
                }
                let previous = omega.get(&x).cloned().or_else(|| Some(Expr::var(x, lhs.ty.clone())));
                if let Some(p) = &previous {
                    pi.push((i, x, p.clone()));
                }
                first_update.entry(x).or_insert(i);
                omega.insert(x, value.clone());
                rows.push(SpRow { step: i, delta: SpDelta::Value { var: x, value, previous } });
            }
            PathOp::Assume { cond } => {
                if crate::path::uses_memory(cond) {
                    return unsupported(rows, "sp: memory in a condition");
                }
                let value = simplify(&map_vars_to_values(cond, &omega));
                if let Err(too_deep) = logic::check_depth(&value) {
                    return unknown(rows, &format!("at step {i}: {too_deep}"));
                }
                rows.push(SpRow { step: i, delta: SpDelta::Condition { condition: value.clone(), original: cond.clone() } });
                let is_false = value.is_false();
                conditions.push(Condition { step: i, value, original: cond.clone() });
                if is_false {
                    break;
                }
            }
            PathOp::ScopeBegin { .. } | PathOp::ScopeEnd { .. } | PathOp::Skip | PathOp::Error => {}
        }
    }
    let all: Vec<Expr> = conditions.iter().map(|c| c.value.clone()).collect();
    let mut initial_vars: Vec<Expr> = Vec::new();
    for c in &all {
        c.visit(&mut |x| {
            if let ExprKind::Var(v) = x.kind {
                if !path.is_fresh(v) && !initial_vars.contains(x) {
                    initial_vars.push(x.clone());
                }
            }
        });
    }
    let last_is_false = all.last().is_some_and(|c| c.is_false());
    if !last_is_false {
        let mut model_of: Vec<Expr> = path.inputs.iter().map(|inp| Expr::var(inp.var, inp.ty.clone())).collect();
        model_of.extend(initial_vars.iter().cloned());
        match check_conjunction(solver, &all, &model_of, stats) {
            SatAnswer::Sat(values) => {
                let values = prefer_defined_model(solver, &all, &model_of, stats, values);
                let (inputs, initial) = values.split_at(path.inputs.len().min(values.len()));
                return SpAnalysis {
                    rows,
                    verdict: SpVerdict::Feasible { inputs: inputs.to_vec(), initial_values: initial.to_vec() },
                    initial_vars,
                };
            }
            SatAnswer::Unknown(reason) => return SpAnalysis { rows, verdict: SpVerdict::Unknown(reason), initial_vars },
            SatAnswer::Unsat => {}
        }
    }
    // the shortest contradictory prefix of Φ
    let mut low = 0usize; // satisfiable prefix length
    let mut high = all.len(); // contradictory prefix length
    if !last_is_false {
        while high - low > 1 {
            let mid = (low + high) / 2;
            match check_conjunction(solver, &all[..mid], &[], stats) {
                SatAnswer::Unsat => high = mid,
                SatAnswer::Sat(_) => low = mid,
                SatAnswer::Unknown(reason) => return SpAnalysis { rows, verdict: SpVerdict::Unknown(reason), initial_vars },
            }
        }
    }
    if high == 0 {
        return SpAnalysis { rows, verdict: SpVerdict::Unsupported("sp: no contradictory prefix".into()), initial_vars };
    }
    let decisive = high - 1;
    // cone of influence of the decisive condition, then deletion-based minimisation when cheap
    let mut chosen = vec![decisive];
    let mut symbols = crate::threads::symbols_of(&all[decisive]);
    let mut changed = true;
    while changed {
        changed = false;
        for j in 0..decisive {
            if chosen.contains(&j) {
                continue;
            }
            let s = crate::threads::symbols_of(&all[j]);
            if s.iter().any(|x| symbols.contains(x)) {
                chosen.push(j);
                symbols.extend(s);
                changed = true;
            }
        }
    }
    if chosen.len() > 1 && chosen.len() <= 8 && !all[decisive].is_false() {
        let mut i = 1;
        while i < chosen.len() {
            let mut without = chosen.clone();
            without.remove(i);
            let f: Vec<Expr> = without.iter().map(|&j| all[j].clone()).collect();
            match check_conjunction(solver, &f, &[], stats) {
                SatAnswer::Unsat => chosen = without,
                _ => i += 1,
            }
        }
    }
    chosen.sort_unstable();
    let infeasible_step = conditions[decisive].step;
    // predicates: the chosen assumptions (over program variables), and C(Ω), C(Π) for the
    // variables they mention, with θ_y read as y where y was not updated before the point
    let mut predicates: Vec<(usize, Expr)> = Vec::new();
    let mut relevant: Vec<VarId> = Vec::new();
    for &j in &chosen {
        let c = &conditions[j];
        predicates.push((c.step, c.original.clone()));
        for v in c.original.vars() {
            if !relevant.contains(&v) {
                relevant.push(v);
            }
        }
    }
    let usable_at = |value: &Expr, step: usize| -> bool {
        value.vars().iter().all(|y| !path.is_fresh(*y) && first_update.get(y).is_none_or(|&u| u >= step))
    };
    for &(step, x, ref value) in &pi {
        if step <= infeasible_step && relevant.contains(&x) && usable_at(value, step) {
            let ty = path.program.var(x).ty.clone();
            let eq = simplify(&Expr::eq(Expr::var(x, ty), value.clone()));
            if !eq.is_true() && !eq.is_false() {
                predicates.push((step, eq));
            }
        }
    }
    for &x in &relevant {
        if let Some(value) = omega_at(&rows, x, infeasible_step) {
            if usable_at(&value, infeasible_step) {
                let ty = path.program.var(x).ty.clone();
                let eq = simplify(&Expr::eq(Expr::var(x, ty), value));
                if !eq.is_true() && !eq.is_false() {
                    predicates.push((infeasible_step, eq));
                }
            }
        }
    }
    SpAnalysis { rows, verdict: SpVerdict::Infeasible { step: infeasible_step, predicates }, initial_vars }
}

fn map_vars_to_values(e: &Expr, omega: &HashMap<VarId, Expr>) -> Expr {
    logic::substitute::map_expr(e, &mut |sub| match sub.kind {
        ExprKind::Var(v) => Some(omega.get(&v).cloned().unwrap_or_else(|| sub.clone())),
        _ => None,
    })
}

/// Ω(x) just before `step`.
fn omega_at(rows: &[SpRow], x: VarId, step: usize) -> Option<Expr> {
    rows.iter()
        .filter(|r| r.step < step)
        .filter_map(|r| match &r.delta {
            SpDelta::Value { var, value, .. } if *var == x => Some(value.clone()),
            _ => None,
        })
        .last()
}

/// An expression with the start values θ_x shown as `θx` symbols (for the Fig 7.5 table).
pub(crate) fn symbolic(e: &Expr) -> Expr {
    logic::substitute::map_expr(e, &mut |sub| match sub.kind {
        ExprKind::Var(v) => Some(Expr::new(ExprKind::App(c_ir::Symbol::Theta(v), Vec::new()), sub.ty.clone())),
        _ => None,
    })
}
