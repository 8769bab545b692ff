//! Feasibility of a linear path by weakest preconditions with condition threads (BOOP §7.1–7.2,
//! Figs 7.2–7.4) and the reduction to the threads that explain a contradiction.

use crate::path::{ExpandedPath, PathOp};
use crate::solve::{check_conjunction, prefer_defined_model, SatAnswer};
use crate::wp::{simplify, wp_assign};
use crate::RefineStatistics;
use c_ir::{Expr, ExprKind};

/// One condition thread: started by the assumption at `origin_step`, with its predicate
/// `p_{i,j}` after every step `i` that changed it (BOOP Def. 7.1–7.2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConditionThread {
    pub origin_step: usize,
    /// `(step, predicate)` from the assumption backwards; the last element is the head.
    pub elements: Vec<(usize, Expr)>,
}

impl ConditionThread {
    pub fn head(&self) -> &Expr {
        &self.elements.last().expect("a thread has at least its assumption").1
    }
    /// The thread's predicate before step `step` (the element of the latest step `>= step`).
    pub fn at(&self, step: usize) -> Option<&Expr> {
        if step > self.origin_step {
            return None;
        }
        self.elements.iter().rev().find(|(i, _)| *i >= step).map(|(_, e)| e)
    }
}

/// The result of the backward pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum WpVerdict {
    /// The preconditions at the start are satisfiable; the model's values of the path inputs and
    /// of the variables read before being written (in [`WpAnalysis::initial_vars`] order).
    Feasible { inputs: Vec<Option<i128>>, initial_values: Vec<Option<i128>> },
    /// The conjunction of the heads is contradictory before step `step`; `chosen` are the
    /// threads (indices) that explain it.
    Infeasible { step: usize, chosen: Vec<usize> },
    Unknown(String),
}

/// The condition threads of a path and the verdict (the Fig 7.3 table is
/// [`WpAnalysis::conditions_before`] for every step).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct WpAnalysis {
    pub threads: Vec<ConditionThread>,
    pub verdict: WpVerdict,
    /// The variables the start conditions mention (whose initial values a model provides).
    pub initial_vars: Vec<Expr>,
    /// Index of the first step the backward pass processed (the pass stops at a `false` head).
    pub processed_from: usize,
}

impl WpAnalysis {
    /// The live conditions (heads of the threads started at or after `step`) before `step`.
    pub(crate) fn conditions_before(&self, step: usize) -> Vec<Expr> {
        self.threads.iter().filter_map(|t| t.at(step)).filter(|e| !e.is_true()).cloned().collect()
    }
}

/// Conditions larger than this (expression nodes) end the analysis with an unknown verdict:
/// the solver and the feasibility table would spend the budget on them.
pub(crate) const MAX_CONDITION_SIZE: usize = 250_000;

/// The number of nodes of `e`.
fn expression_size(e: &Expr) -> usize {
    let mut n = 0usize;
    e.visit(&mut |_| n += 1);
    n
}

/// Runs the backward pass over `path` and decides feasibility.
pub(crate) fn analyze_wp(path: &ExpandedPath, solver: &mut solver::Solver, stats: &mut RefineStatistics, cancel: &dyn Fn() -> bool) -> WpAnalysis {
    let alias = logic::TypeBasedMayAlias::new(&path.program);
    let mut threads: Vec<ConditionThread> = Vec::new();
    let mut false_at: Option<(usize, usize)> = None;
    let mut processed_from = path.steps.len();
    for i in (0..path.steps.len()).rev() {
        if cancel() {
            return WpAnalysis { threads, verdict: WpVerdict::Unknown("cancelled".into()), initial_vars: Vec::new(), processed_from };
        }
        processed_from = i;
        match &path.steps[i].op {
            PathOp::Assume { cond } => {
                let c = simplify(cond);
                threads.push(ConditionThread { origin_step: i, elements: vec![(i, c.clone())] });
                if c.is_false() {
                    false_at = Some((i, threads.len() - 1));
                }
            }
            PathOp::Assign { lhs, rhs } => {
                for (t_index, t) in threads.iter_mut().enumerate() {
                    if cancel() {
                        return WpAnalysis { threads, verdict: WpVerdict::Unknown("cancelled".into()), initial_vars: Vec::new(), processed_from };
                    }
                    let head = t.head();
                    if head.is_true() {
                        continue;
                    }
                    let pre = simplify(&wp_assign(&path.program, &alias, lhs, rhs, head));
                    if let Err(too_deep) = logic::check_depth(&pre) {
                        // the next substitution, simplification or encoding would recurse too deeply
                        let why = format!("at step {i}: {too_deep}");
                        return WpAnalysis { threads, verdict: WpVerdict::Unknown(why), initial_vars: Vec::new(), processed_from };
                    }
                    if expression_size(&pre) > MAX_CONDITION_SIZE {
                        // Morris' case splits over possible aliases multiply along the path
                        let why = format!("a weakest precondition grew beyond {MAX_CONDITION_SIZE} expression nodes (case splits over possible aliases)");
                        return WpAnalysis { threads, verdict: WpVerdict::Unknown(why), initial_vars: Vec::new(), processed_from };
                    }
                    if &pre != head {
                        let is_false = pre.is_false();
                        t.elements.push((i, pre));
                        if is_false && false_at.is_none() {
                            false_at = Some((i, t_index));
                        }
                    }
                }
                stats.wp_computations += threads.len() as u64;
            }
            PathOp::ScopeBegin { .. } | PathOp::ScopeEnd { .. } | PathOp::Skip | PathOp::Error => {}
        }
        if let Some((step, thread)) = false_at {
            return WpAnalysis {
                threads,
                verdict: WpVerdict::Infeasible { step, chosen: vec![thread] },
                initial_vars: Vec::new(),
                processed_from,
            };
        }
    }
    let mut analysis = WpAnalysis { threads, verdict: WpVerdict::Unknown(String::new()), initial_vars: Vec::new(), processed_from };
    // feasibility at the start of the path
    let start_conditions = analysis.conditions_before(0);
    let mut initial_vars: Vec<Expr> = Vec::new();
    for c in &start_conditions {
        c.visit(&mut |x| {
            if let ExprKind::Var(v) = x.kind {
                if !path.is_fresh(v) && x.ty.is_scalar() && !initial_vars.contains(x) {
                    initial_vars.push(x.clone());
                }
            }
        });
    }
    let mut model_of: Vec<Expr> = path.inputs.iter().map(|inp| Expr::var(inp.var, inp.ty.clone())).collect();
    model_of.extend(initial_vars.iter().cloned());
    match check_conjunction(solver, &start_conditions, &model_of, stats) {
        SatAnswer::Sat(values) => {
            let values = prefer_defined_model(solver, &start_conditions, &model_of, stats, values);
            let (inputs, initial) = values.split_at(path.inputs.len().min(values.len()));
            analysis.verdict = WpVerdict::Feasible { inputs: inputs.to_vec(), initial_values: initial.to_vec() };
            analysis.initial_vars = initial_vars;
            return analysis;
        }
        SatAnswer::Unknown(reason) => {
            analysis.verdict = WpVerdict::Unknown(reason);
            return analysis;
        }
        SatAnswer::Unsat => {}
    }
    // the latest step before which the conditions are contradictory (monotone in the step)
    let mut low = 0usize; // known unsat
    let mut high = path.steps.len(); // known sat (no conditions after the end)
    while high - low > 1 {
        if cancel() {
            analysis.verdict = WpVerdict::Unknown("cancelled".into());
            return analysis;
        }
        let mid = (low + high) / 2;
        match check_conjunction(solver, &analysis.conditions_before(mid), &[], stats) {
            SatAnswer::Unsat => low = mid,
            SatAnswer::Sat(_) => high = mid,
            SatAnswer::Unknown(reason) => {
                analysis.verdict = WpVerdict::Unknown(reason);
                return analysis;
            }
        }
    }
    let step = low;
    match reduce_threads(&analysis.threads, step, solver, stats) {
        Ok(chosen) => analysis.verdict = WpVerdict::Infeasible { step, chosen },
        Err(reason) => analysis.verdict = WpVerdict::Unknown(reason),
    }
    analysis
}

/// BOOP §7.2 steps 1–5: the threads (shortest first) whose heads before `step` suffice for the
/// contradiction, cut down to the cone of influence of the decisive head and, when few, to a
/// minimal subset.
fn reduce_threads(
    threads: &[ConditionThread],
    step: usize,
    solver: &mut solver::Solver,
    stats: &mut RefineStatistics,
) -> Result<Vec<usize>, String> {
    let mut live: Vec<usize> = (0..threads.len()).filter(|&t| threads[t].at(step).is_some_and(|e| !e.is_true())).collect();
    live.sort_by_key(|&t| threads[t].origin_step);
    let heads = |set: &[usize]| -> Vec<Expr> { set.iter().filter_map(|&t| threads[t].at(step).cloned()).collect() };
    // smallest prefix that is contradictory (monotone in the prefix length)
    let mut low = 0usize; // prefix known satisfiable
    let mut high = live.len(); // prefix known contradictory
    while high - low > 1 {
        let mid = (low + high) / 2;
        match check_conjunction(solver, &heads(&live[..mid]), &[], stats) {
            SatAnswer::Unsat => high = mid,
            SatAnswer::Sat(_) => low = mid,
            SatAnswer::Unknown(reason) => return Err(reason),
        }
    }
    if high == 0 {
        return Ok(Vec::new());
    }
    let prefix: Vec<usize> = live[..high].to_vec();
    let decisive = prefix[high - 1];
    // syntactic cone of influence of the decisive head
    let mut cone = vec![decisive];
    let mut symbols = symbols_of(threads[decisive].at(step).expect("live"));
    let mut changed = true;
    while changed {
        changed = false;
        for &t in &prefix {
            if cone.contains(&t) {
                continue;
            }
            let s = symbols_of(threads[t].at(step).expect("live"));
            if s.iter().any(|x| symbols.contains(x)) {
                cone.push(t);
                symbols.extend(s);
                changed = true;
            }
        }
    }
    // deletion-based minimisation when cheap
    if cone.len() > 1 && cone.len() <= 8 {
        let mut i = 0;
        while i < cone.len() && cone.len() > 1 {
            let mut without = cone.clone();
            without.remove(i);
            match check_conjunction(solver, &heads(&without), &[], stats) {
                SatAnswer::Unsat => cone = without,
                _ => i += 1,
            }
        }
    }
    cone.sort_unstable();
    Ok(cone)
}

/// What links two conditions in the syntactic cone of influence: a variable, an uninterpreted
/// symbol, or reading memory through a pointer (any two dereferences may meet).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum ConeSymbol {
    Var(c_ir::VarId),
    App(c_ir::Symbol),
    Memory,
}

/// The variables and symbols of an expression (for the syntactic cone of influence).
pub(crate) fn symbols_of(e: &Expr) -> Vec<ConeSymbol> {
    let mut out = Vec::new();
    e.visit(&mut |x| match &x.kind {
        ExprKind::Var(v) => out.push(ConeSymbol::Var(*v)),
        ExprKind::App(symbol, _) => out.push(ConeSymbol::App(symbol.clone())),
        ExprKind::Deref(_) => out.push(ConeSymbol::Memory),
        _ => {}
    });
    out.sort();
    out.dedup();
    out
}
