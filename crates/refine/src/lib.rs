//! Counterexample analysis (BOOP ch. 7): maps an abstract counterexample's C statements to a
//! linear C path, decides its feasibility by weakest preconditions with condition threads or by
//! NEWTON-style strongest postconditions, and discovers scoped predicates from infeasible paths.
//!
//! Entry points:
//! - [`analyze_path`] with a [`RefineConfig`] ([`RefinementMethod`] `wp` or `sp`,
//!   [`SolverSettings`]): the [`PathAnalysis`] carries the [`PathVerdict`] (model values, or the
//!   scoped [`DiscoveredPredicate`]s that explain the infeasibility) and the per-step feasibility
//!   table (Fig 7.3 for `wp`, the Ω/Φ/Π rows of Fig 7.5 for `sp`) as display strings for the UI;
//! - [`expand_path`]: the linear C path ([`ExpandedPath`]) of an abstract counterexample's
//!   statements, calls entered;
//! - [`atoms`], [`strip_negation`], [`is_ground`]: the predicate helpers the CEGAR loop uses to
//!   pick predicates from conditions.

mod discover;
mod eliminate;
mod newton;
mod path;
mod solve;
mod threads;
mod wp;

// The linear C path of a counterexample.
pub use path::{expand_path, CallInstance, ExpandedPath, PathError, PathInput, PathOp, PathStep};
// What an analysis finds: scoped predicates, and the `wp` condition threads.
pub use discover::DiscoveredPredicate;
pub use threads::ConditionThread;
// Solver settings of an analysis.
pub use solve::SolverSettings;
// Predicate helpers: atoms of a condition, the predicate under negations, constant formulas.
pub use wp::{atoms, is_ground, strip_negation};

use discover::scope_predicates;
use newton::{analyze_sp, SpAnalysis, SpDelta, SpVerdict};
use threads::{analyze_wp, WpAnalysis, WpVerdict};
use c_ir::{display_expr, Program, StmtRef};

/// How feasibility is decided and predicates are found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RefinementMethod {
    /// Backward weakest preconditions with condition threads (BOOP §7.1–7.2).
    Wp,
    /// Forward strongest postconditions, NEWTON style (BOOP §7.3).
    Sp,
}

impl RefinementMethod {
    pub fn name(self) -> &'static str {
        match self {
            RefinementMethod::Wp => "wp",
            RefinementMethod::Sp => "sp",
        }
    }
    pub fn from_name(name: &str) -> Option<RefinementMethod> {
        match name {
            "wp" => Some(RefinementMethod::Wp),
            "sp" => Some(RefinementMethod::Sp),
            _ => None,
        }
    }
}

/// Settings of one path analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefineConfig {
    pub method: RefinementMethod,
    pub solver: SolverSettings,
}

/// Counters of one path analysis.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RefineStatistics {
    pub solver_calls: u64,
    pub wp_computations: u64,
    pub path_length: usize,
}

/// The feasibility verdict on a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathVerdict {
    /// Feasible: the values of the path's inputs (in path order, `None` where the model has
    /// none) and the start values of the variables read before written.
    Feasible { inputs: Vec<Option<i128>>, initial_values: Vec<(String, Option<i128>)> },
    /// Infeasible before step `step`; the predicates that explain it, scoped.
    Infeasible { step: usize, predicates: Vec<DiscoveredPredicate> },
    Unknown(String),
}

/// The column of a feasibility table a condition belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ConditionColumn {
    /// `wp`: the condition thread started by the assumption at this path step (BOOP Fig 7.3
    /// has one column per thread).
    Thread { origin_step: usize },
    /// NEWTON (BOOP Fig 7.5): Ω, the symbolic store.
    Omega,
    /// NEWTON: Φ, the path condition.
    Phi,
    /// NEWTON: Π, the previous values.
    Pi,
}

/// One condition of a feasibility table row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Condition {
    pub column: ConditionColumn,
    pub text: String,
    /// What `text` prints, as an expression over the path's variables (the arena of
    /// [`expand_path`] on the same statements): `wp`'s precondition, `sp`'s Φ, or the value of
    /// Ω and Π (input values as `θv`), so views can name variables without reading `text`.
    pub expr: c_ir::Expr,
    /// Ω and Π: the variable whose value `expr` is.
    pub var: Option<c_ir::VarId>,
    /// Whether the condition is `false` (the contradiction that makes the path infeasible).
    pub is_false: bool,
}

/// One row of the feasibility table: a path step and the conditions/values shown next to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeasibilityRow {
    pub step: usize,
    pub origin: StmtRef,
    pub statement: String,
    /// `wp`: the preconditions before the step, one per live condition thread (Fig 7.3);
    /// `sp`: the step's Ω/Φ/Π changes (Fig 7.5).
    pub conditions: Vec<Condition>,
}

/// Everything one path analysis found.
#[derive(Clone, Debug)]
pub struct PathAnalysis {
    pub path: ExpandedPath,
    /// The method actually used (`sp` falls back to `wp` on paths through memory).
    pub method: RefinementMethod,
    pub verdict: PathVerdict,
    pub table: Vec<FeasibilityRow>,
    /// For `wp`: the condition threads (indices of the chosen ones in the verdict's predicates' origin).
    pub threads: Vec<ConditionThread>,
    pub chosen_threads: Vec<usize>,
    pub notes: Vec<String>,
    pub statistics: RefineStatistics,
}

/// Analyzes the C path `stmts` (see [`expand_path`] for its shape) of `program`. `known` are the
/// predicates the abstraction already has: when `sp` explains an infeasible path only with known
/// predicates (or ones it cannot express, e.g. over input values), `wp` is tried as well.
pub fn analyze_path(
    program: &Program,
    stmts: &[StmtRef],
    config: &RefineConfig,
    known: &c_ir::PredicateSet,
    cancel: &dyn Fn() -> bool,
) -> Result<PathAnalysis, PathError> {
    let path = expand_path(program, stmts)?;
    let mut stats = RefineStatistics { path_length: path.steps.len(), ..Default::default() };
    let mut notes = Vec::new();
    let mut solver = solver::Solver::new(&path.program, &config.solver.config);
    if config.method == RefinementMethod::Sp {
        let sp = analyze_sp(&path, &mut solver, &mut stats, cancel);
        let memory = matches!(&sp.verdict, SpVerdict::Unsupported(_));
        let mut no_news = false;
        if let SpVerdict::Infeasible { predicates, .. } = &sp.verdict {
            let scoped = scope_predicates(program, &path, predicates, &[]);
            no_news = scoped.iter().all(|d| match d.scope {
                None => known.global.contains(&d.predicate),
                Some(p) => known.of_proc(p).contains(&d.predicate),
            });
            if no_news {
                notes.push("sp: no new predicates (values over inputs cannot be expressed); found with weakest preconditions instead".into());
            }
        }
        if !memory && !no_news {
            let table = sp_table(&path, &sp);
            let verdict = match sp.verdict {
                SpVerdict::Feasible { inputs, initial_values } => PathVerdict::Feasible {
                    inputs,
                    initial_values: named_values(&path, &sp.initial_vars, initial_values),
                },
                SpVerdict::Infeasible { step, predicates } => {
                    PathVerdict::Infeasible { step, predicates: scope_predicates(program, &path, &predicates, &[]) }
                }
                SpVerdict::Unknown(r) | SpVerdict::Unsupported(r) => PathVerdict::Unknown(r),
            };
            return Ok(PathAnalysis {
                path,
                method: RefinementMethod::Sp,
                verdict,
                table,
                threads: Vec::new(),
                chosen_threads: Vec::new(),
                notes,
                statistics: stats,
            });
        }
        if let SpVerdict::Unknown(r) | SpVerdict::Unsupported(r) = &sp.verdict {
            notes.push(format!("{r}; checked with weakest preconditions instead"));
        }
    }
    let wp = analyze_wp(&path, &mut solver, &mut stats, cancel);
    let table = wp_table(&path, &wp);
    let mut chosen_threads = Vec::new();
    let verdict = match wp.verdict.clone() {
        WpVerdict::Feasible { inputs, initial_values } => {
            PathVerdict::Feasible { inputs, initial_values: named_values(&path, &wp.initial_vars, initial_values) }
        }
        WpVerdict::Infeasible { step, chosen } => {
            let mut candidates = Vec::new();
            let mut context = Vec::new();
            for &t in &chosen {
                for (i, e) in &wp.threads[t].elements {
                    if *i >= step {
                        candidates.push((*i, e.clone()));
                    }
                }
                candidates.extend(discover::conditions_at_call_boundaries(&path, &wp.threads[t], step));
            }
            // the chosen threads' conditions live at each candidate's step
            let mut steps: Vec<usize> = candidates.iter().map(|(s, _)| *s).collect();
            steps.sort_unstable();
            steps.dedup();
            for s in steps {
                for &t in &chosen {
                    if let Some(e) = wp.threads[t].at(s).filter(|e| !e.is_true()) {
                        context.push((s, e.clone()));
                    }
                }
            }
            chosen_threads = chosen;
            PathVerdict::Infeasible { step, predicates: scope_predicates(program, &path, &candidates, &context) }
        }
        WpVerdict::Unknown(r) => PathVerdict::Unknown(r),
    };
    Ok(PathAnalysis { path, method: RefinementMethod::Wp, verdict, table, threads: wp.threads, chosen_threads, notes, statistics: stats })
}

fn named_values(path: &ExpandedPath, vars: &[c_ir::Expr], values: Vec<Option<i128>>) -> Vec<(String, Option<i128>)> {
    vars.iter().zip(values).map(|(v, x)| (display_expr(&path.program, v), x)).collect()
}

/// The path step as C-like text.
pub fn display_step(path: &ExpandedPath, step: &PathStep) -> String {
    let e = |x: &c_ir::Expr| display_expr(&path.program, x);
    match &step.op {
        PathOp::Assign { lhs, rhs } => format!("{} = {};", e(lhs), e(rhs)),
        PathOp::Assume { cond } => format!("assume({});", e(cond)),
        PathOp::ScopeBegin { callee, .. } => {
            format!("{{ // call {}", path.program.procs.get(callee.0 as usize).map(|p| p.name.as_str()).unwrap_or("?"))
        }
        PathOp::ScopeEnd { .. } => "} // return".into(),
        PathOp::Skip => "skip;".into(),
        PathOp::Error => "error;".into(),
    }
}

fn wp_table(path: &ExpandedPath, wp: &WpAnalysis) -> Vec<FeasibilityRow> {
    let mut rows = Vec::new();
    for (i, step) in path.steps.iter().enumerate() {
        if i < wp.processed_from {
            continue;
        }
        if matches!(step.op, PathOp::Skip) {
            continue;
        }
        rows.push(FeasibilityRow {
            step: i,
            origin: step.origin,
            statement: display_step(path, step),
            conditions: wp
                .threads
                .iter()
                .filter_map(|t| {
                    let c = t.at(i).filter(|e| !e.is_true())?;
                    let text = display_expr(&path.program, c);
                    let column = ConditionColumn::Thread { origin_step: t.origin_step };
                    Some(Condition { column, is_false: c.is_false(), text, expr: c.clone(), var: None })
                })
                .collect(),
        });
    }
    rows
}

fn sp_table(path: &ExpandedPath, sp: &SpAnalysis) -> Vec<FeasibilityRow> {
    let mut rows: Vec<FeasibilityRow> = Vec::new();
    for r in &sp.rows {
        let mut conditions = Vec::new();
        match &r.delta {
            SpDelta::Value { var, value, previous } => {
                let name = &path.program.var(*var).name;
                let shown = newton::symbolic(value);
                let text = format!("{name} ↦ {}", display_expr(&path.program, &shown));
                conditions.push(Condition { column: ConditionColumn::Omega, text, expr: shown, var: Some(*var), is_false: false });
                if let Some(p) = previous {
                    let shown = newton::symbolic(p);
                    let text = format!("⟨{name}, {}⟩", display_expr(&path.program, &shown));
                    conditions.push(Condition { column: ConditionColumn::Pi, text, expr: shown, var: Some(*var), is_false: false });
                }
            }
            SpDelta::Condition { condition, .. } => {
                let shown = newton::symbolic(condition);
                let text = display_expr(&path.program, &shown);
                conditions.push(Condition { column: ConditionColumn::Phi, is_false: condition.is_false(), text, expr: shown, var: None });
            }
        }
        match rows.last_mut() {
            Some(last) if last.step == r.step => last.conditions.extend(conditions),
            _ => {
                let step = &path.steps[r.step];
                rows.push(FeasibilityRow { step: r.step, origin: step.origin, statement: display_step(path, step), conditions });
            }
        }
    }
    rows
}
