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
    let projected = project_inputs(path, candidates);
    for (step, condition) in candidates.iter().chain(&projected) {
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
                    let variant = scope.and_then(|p| with_unmodified_formals_as_symbolic_constants(program, p, &predicate));
                    for predicate in [Some(predicate), variant].into_iter().flatten() {
                        if !out.iter().any(|d| d.scope == scope && d.predicate == predicate) {
                            out.push(DiscoveredPredicate { scope, predicate, step: *step });
                        }
                    }
                }
            }
        }
    }
    out
}

/// What the conditions at each step say about program variables once the fresh input values
/// they mention are eliminated (see [`crate::eliminate`]).
fn project_inputs(path: &ExpandedPath, candidates: &[(usize, Expr)]) -> Vec<(usize, Expr)> {
    let is_fresh = |v| path.is_fresh(v);
    let mut steps: Vec<usize> = candidates.iter().map(|(s, _)| *s).collect();
    steps.sort_unstable();
    steps.dedup();
    let mut out = Vec::new();
    for step in steps {
        let at: Vec<Expr> = candidates.iter().filter(|(s, _)| *s == step).map(|(_, e)| e.clone()).collect();
        if !at.iter().any(|e| e.vars().into_iter().any(is_fresh)) {
            continue;
        }
        out.extend(crate::eliminate::eliminate_fresh(&at, &is_fresh).into_iter().map(|e| (step, e)));
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

/// For a predicate of `proc` over formals that the procedure never changes (only read, address
/// not taken), the same predicate over their symbolic constants `'f` (equal to `f` everywhere in
/// the body), which callers can interpret at their call sites (polymorphic predicate abstraction).
fn with_unmodified_formals_as_symbolic_constants(program: &Program, proc: ProcId, e: &Expr) -> Option<Expr> {
    let body = &program.proc(proc).body;
    let mut result = e.clone();
    for &formal in &program.proc(proc).formals {
        if !e.vars().contains(&formal) || program.var(formal).address_taken {
            continue;
        }
        let Some(sc) = program.symbolic_const_of(formal) else { continue };
        let assigned = body.iter().any(|s| match &s.kind {
            c_ir::StmtKind::Assign { lhs, .. } | c_ir::StmtKind::Havoc { lhs } | c_ir::StmtKind::Malloc { lhs, .. } => lhs.vars().contains(&formal) && lhs.kind == ExprKind::Var(formal),
            _ => false,
        });
        if assigned {
            continue;
        }
        result = logic::substitute_var(&result, formal, &Expr::var(sc, program.var(sc).ty.clone()));
    }
    let result = simplify(&result);
    (&result != e && !result.is_true() && !result.is_false() && !is_ground(&result)).then_some(result)
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
        let read_vars = vars_read(actual);
        let stable = read_vars.iter().all(|&v| {
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
        // a caller variable whose address is the actual is `*'f` in the callee
        let uncast = match &actual.kind {
            ExprKind::Cast(inner) => inner.as_ref(),
            _ => actual,
        };
        if let ExprKind::AddrOf(target) = &uncast.kind {
            if matches!(target.kind, ExprKind::Var(_)) {
                let pointer = Expr::cast(sc_expr.clone(), uncast.ty.clone());
                result = logic::substitute(&result, target, &Expr::deref(pointer));
            }
        }
    }
    if &result == e {
        None
    } else {
        Some(result)
    }
}

/// The variables whose values `e` reads (not those only under `&`).
fn vars_read(e: &Expr) -> Vec<VarId> {
    let mut out = Vec::new();
    fn walk(e: &Expr, out: &mut Vec<VarId>) {
        match &e.kind {
            ExprKind::AddrOf(inner) => {
                // &v, &v.f: no read; &a[i], &p->f: reads the index / pointer
                let mut x = &**inner;
                loop {
                    match &x.kind {
                        ExprKind::Var(_) => return,
                        ExprKind::Field(a, _) => x = a,
                        ExprKind::Index(a, i) => {
                            walk(i, out);
                            x = a;
                        }
                        _ => return walk(x, out),
                    }
                }
            }
            ExprKind::Var(v) => {
                if !out.contains(v) {
                    out.push(*v)
                }
            }
            _ => {
                let mut children = Vec::new();
                match &e.kind {
                    ExprKind::Unary(_, a) | ExprKind::Cast(a) | ExprKind::Deref(a) | ExprKind::Field(a, _) => children.push(&**a),
                    ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) => {
                        children.push(&**a);
                        children.push(&**b)
                    }
                    ExprKind::Ite(c, a, b) => {
                        children.push(&**c);
                        children.push(&**a);
                        children.push(&**b)
                    }
                    ExprKind::App(_, args) => children.extend(args.iter()),
                    _ => {}
                }
                for c in children {
                    walk(c, out);
                }
            }
        }
    }
    walk(e, &mut out);
    out
}
