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
/// (fresh inputs, variables of two procedures, constants). `context` are further conditions
/// that hold at their steps (the live heads of the explaining threads): they take part in the
/// elimination of input values (see [`project_inputs`]) but are not candidates themselves.
pub(crate) fn scope_predicates(program: &Program, path: &ExpandedPath, candidates: &[(usize, Expr)], context: &[(usize, Expr)]) -> Vec<DiscoveredPredicate> {
    let mut out: Vec<DiscoveredPredicate> = Vec::new();
    let projected = project_inputs(path, candidates, context);
    for (step, condition) in candidates.iter().chain(&projected) {
        let mut parts = Vec::new();
        atoms(&simplify(condition), &mut parts);
        for atom in parts {
            if atom.ty != Type::Bool {
                continue;
            }
            let atom = strip_negation(&atom);
            let instance = path.steps.get(*step).map(|s| s.instance).unwrap_or(0);
            let mut rewritten = vec![atom.clone()];
            rewritten.extend(rewrite_with_symbolic_constants(program, path, &atom, instance));
            rewritten.extend(rewrite_down_the_calls(program, path, &atom, instance));
            for candidate in rewritten {
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
/// they mention are eliminated (see [`crate::eliminate`]). A thread records its condition only
/// at the steps that change it, so the conditions of one step are the candidates recorded there
/// and the `context` conditions live there: `k.value + input#1 > 10` (recorded where `k.limit =
/// 10` changed it) meets `input#1 <= 5` (recorded only later, at `d = input#1`) and gives
/// `10 - k.value < 5`, which the abstraction of `k.value = 0` decides.
fn project_inputs(path: &ExpandedPath, candidates: &[(usize, Expr)], context: &[(usize, Expr)]) -> Vec<(usize, Expr)> {
    let is_fresh = |v| path.is_fresh(v);
    let mut steps: Vec<usize> = candidates.iter().map(|(s, _)| *s).collect();
    steps.sort_unstable();
    steps.dedup();
    let mut out = Vec::new();
    for step in steps {
        let mut at: Vec<Expr> = candidates.iter().filter(|(s, _)| *s == step).map(|(_, e)| e.clone()).collect();
        if !at.iter().any(|e| e.vars().into_iter().any(is_fresh)) {
            continue;
        }
        for (_, e) in context.iter().filter(|(s, _)| *s == step) {
            if !at.contains(e) {
                at.push(e.clone());
            }
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
    let mut result = e.clone();
    for &formal in &program.proc(proc).formals {
        if !e.vars().contains(&formal) || program.var(formal).address_taken {
            continue;
        }
        let Some(sc) = program.symbolic_const_of(formal) else { continue };
        if formal_assigned(program, proc, formal) {
            continue;
        }
        result = logic::substitute_var(&result, formal, &Expr::var(sc, program.var(sc).ty.clone()));
    }
    let result = simplify(&result);
    (&result != e && !result.is_true() && !result.is_false() && !is_ground(&result)).then_some(result)
}

/// The conditions of a WP thread where the path enters and leaves call instances, when they
/// read memory (fields, dereferences, address-taken variables) that the callee may change
/// through a pointer argument. A thread records only the steps where its condition changes;
/// one that a callee leaves unchanged (the branch that does not update `c->value`) has no
/// element inside the callee, yet the callee's boolean program needs the condition in its own
/// terms (`c->value > c->limit` for the caller's `k.value > k.limit`, C2BP §4.5's return
/// predicates) for the call to keep it. `from` is the first step the explanation covers.
pub(crate) fn conditions_at_call_boundaries(path: &ExpandedPath, thread: &crate::threads::ConditionThread, from: usize) -> Vec<(usize, Expr)> {
    let mut out = Vec::new();
    for i in from.max(1)..=thread.origin_step.min(path.steps.len().saturating_sub(1)) {
        let step = &path.steps[i];
        let entering = step.instance != path.steps[i - 1].instance;
        let leaving = matches!(step.op, crate::path::PathOp::ScopeEnd { .. });
        if !(entering || leaving) || !path.calls.iter().any(|c| c.instance == step.instance) {
            continue;
        }
        let Some(e) = thread.at(i) else { continue };
        let reads_memory = crate::path::uses_memory(e) || e.vars().iter().any(|&v| path.program.var(v).address_taken);
        if reads_memory && !e.is_true() && !out.iter().any(|(j, x)| *j == i && x == e) {
            out.push((i, e.clone()));
        }
    }
    out
}

/// A condition over variables of callers, brought into call instance `instance` through the
/// whole chain of calls from the entry procedure's instance: at each call the actuals become
/// the callee's symbolic constants (a caller variable whose address is passed becomes `*'f`),
/// and the symbolic constants of formals the callee never assigns become the formals
/// themselves, which the next call's actuals mention. Returns the result over symbolic
/// constants and, where it differs, the one over the formals (`'c->value` and `c->value`).
fn rewrite_down_the_calls(program: &Program, path: &ExpandedPath, e: &Expr, instance: u32) -> Vec<Expr> {
    let mut chain = Vec::new();
    let mut current = instance;
    while let Some(call) = path.calls.iter().find(|c| c.instance == current) {
        chain.push(call);
        current = call.caller_instance;
        if chain.len() > path.calls.len() {
            return Vec::new();
        }
    }
    chain.reverse();
    let mut expr = e.clone();
    let mut over_constants = None;
    for call in chain {
        if let Some(r) = rewrite_with_symbolic_constants(program, path, &expr, call.instance) {
            over_constants = Some(r.clone());
            expr = symbolic_constants_as_formals(program, path, call, &r);
        } else if call.instance == instance {
            over_constants = None;
        }
    }
    let mut out: Vec<Expr> = over_constants.into_iter().collect();
    if !out.contains(&expr) && &expr != e {
        out.push(expr);
    }
    out
}

/// Replaces in `e` the symbolic constant `'f` of each formal of call instance `call` that its
/// procedure never assigns (and whose address it never takes) by that formal's copy in the
/// instance: the two are equal throughout the body.
fn symbolic_constants_as_formals(program: &Program, path: &ExpandedPath, call: &crate::path::CallInstance, e: &Expr) -> Expr {
    let Some(vars) = path.steps.iter().find_map(|s| match &s.op {
        crate::path::PathOp::ScopeBegin { instance, vars, .. } if *instance == call.instance => Some(vars),
        _ => None,
    }) else {
        return e.clone();
    };
    let proc = program.proc(call.callee);
    let mut result = e.clone();
    for (j, &formal) in proc.formals.iter().enumerate() {
        let Some(sc) = program.symbolic_const_of(formal) else { continue };
        if program.var(formal).address_taken || formal_assigned(program, call.callee, formal) {
            continue;
        }
        let Some(&instance_formal) = vars.get(j) else { continue };
        let Some(&(instance_sc, _)) = call.bindings.iter().find(|(s, _)| path.original_var(*s) == Some(sc)) else { continue };
        let ty = path.program.var(instance_formal).ty.clone();
        result = logic::substitute_var(&result, instance_sc, &Expr::var(instance_formal, ty));
    }
    simplify(&result)
}

/// Whether `proc`'s body assigns the variable `formal` itself.
fn formal_assigned(program: &Program, proc: ProcId, formal: VarId) -> bool {
    program.proc(proc).body.iter().any(|s| match &s.kind {
        c_ir::StmtKind::Assign { lhs, .. } | c_ir::StmtKind::Havoc { lhs } | c_ir::StmtKind::Malloc { lhs, .. } => lhs.kind == ExprKind::Var(formal),
        _ => false,
    })
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
