//! Predicate discovery: turns the conditions that explain an infeasible path into predicates over
//! program variables at the right scope (global, procedure-local, formals and symbolic constants).

use crate::path::ExpandedPath;
use crate::wp::{atoms, is_ground, map_vars, simplify, strip_negation};
use c_ir::{Expr, ExprKind, ProcId, Program, Type, VarId, VarKind};

/// A predicate found by refinement, with its scope (`None` = global) and the path step it explains.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiscoveredPredicate {
    pub scope: Option<ProcId>,
    pub predicate: Expr,
    pub step: usize,
}

/// Scopes the candidate conditions `(step, condition)` of `path`: splits them into atoms, maps
/// call-instance copies back to program variables, rewrites caller values passed as arguments
/// into the callee's symbolic constants `'f`, and drops what no single scope can express
/// (fresh inputs, variables of two procedures, constants).
pub fn scope_predicates(program: &Program, path: &ExpandedPath, candidates: &[(usize, Expr)]) -> Vec<DiscoveredPredicate> {
    let mut out: Vec<DiscoveredPredicate> = Vec::new();
    for (step, condition) in candidates {
        let mut parts = Vec::new();
        atoms(&simplify(condition), &mut parts);
        for atom in parts {
            if atom.ty != Type::Bool {
                continue;
            }
            let atom = strip_negation(&atom);
            let instance = path.steps.get(*step).map(|s| s.instance).unwrap_or(0);
            for candidate in [Some(atom.clone()), rewrite_with_symbolic_constants(program, path, &atom, instance)].into_iter().flatten() {
                if let Some((scope, predicate)) = to_program_predicate(program, path, &candidate) {
                    if !out.iter().any(|d| d.scope == scope && d.predicate == predicate) {
                        out.push(DiscoveredPredicate { scope, predicate, step: *step });
                    }
                }
            }
        }
    }
    out
}

fn to_program_predicate(program: &Program, path: &ExpandedPath, e: &Expr) -> Option<(Option<ProcId>, Expr)> {
    let mut ok = true;
    let mapped = map_vars(e, &mut |v| match path.original_var(v) {
        Some(o) => o,
        None => {
            ok = false;
            v
        }
    });
    let mut fresh_symbol = false;
    mapped.visit(&mut |x| {
        if matches!(x.kind, ExprKind::App(..)) {
            fresh_symbol = true;
        }
    });
    if !ok || fresh_symbol || is_ground(&mapped) {
        return None;
    }
    let mut scope: Option<ProcId> = None;
    for v in mapped.vars() {
        let Some(var) = program.vars.get(v.0 as usize) else { return None };
        if let Some(p) = var.kind.proc() {
            match scope {
                None => scope = Some(p),
                Some(q) if q == p => {}
                Some(_) => return None,
            }
        }
    }
    let simplified = simplify(&mapped);
    if simplified.is_true() || simplified.is_false() {
        return None;
    }
    Some((scope, strip_negation(&simplified)))
}

/// Which procedure instance a path variable belongs to (`None` for globals and fresh symbols).
fn instance_proc(program: &Program, path: &ExpandedPath, v: VarId) -> Option<ProcId> {
    let original = path.original_var(v)?;
    program.vars.get(original.0 as usize)?.kind.proc()
}

/// For a condition at a point of call instance `instance` that also mentions variables of
/// callers: replaces the actual arguments (over caller locals whose address is not taken, so
/// the call cannot change them) by the callee's symbolic constants.
fn rewrite_with_symbolic_constants(program: &Program, path: &ExpandedPath, e: &Expr, instance: u32) -> Option<Expr> {
    let call = path.calls.iter().find(|c| c.instance == instance)?;
    let vars = e.vars();
    let foreign = vars.iter().any(|&v| instance_proc(program, path, v).is_some_and(|p| p != call.callee));
    if !foreign {
        return None;
    }
    let mut result = e.clone();
    for (sc, actual) in &call.bindings {
        let stable = actual.vars().iter().all(|&v| {
            let var = path.program.var(v);
            !var.address_taken && !matches!(var.kind, VarKind::Global) && !path.is_fresh(v)
        });
        if !stable || actual.vars().is_empty() {
            continue;
        }
        let sc_expr = Expr::var(*sc, path.program.var(*sc).ty.clone());
        result = logic::substitute(&result, actual, &sc_expr);
        // also the uncast form of the actual
        if let ExprKind::Cast(inner) = &actual.kind {
            result = logic::substitute(&result, inner, &Expr::cast(sc_expr.clone(), inner.ty.clone()));
        }
    }
    if &result == e {
        None
    } else {
        Some(result)
    }
}
