//! The predicates of a run: the initial ones (error guards, BOOP ch. 3; branch conditions;
//! the user's C2BP predicate file), each with its origin, in the order they were added, and
//! the redundancy test that keeps refinement from adding what the scope already says.

use crate::records::{PredicateOrigin, ScopedPredicate};
use c_ir::{display_expr, Expr, ExprKind, ProcId, PredicateSet, Program, StmtKind, Type};

/// The predicates of a run with their origins, in the order they were added.
#[derive(Clone, Debug, Default)]
pub struct Predicates {
    set: PredicateSet,
    list: Vec<ScopedPredicate>,
}

impl Predicates {
    /// The predicates as the abstraction takes them.
    pub fn set(&self) -> &PredicateSet {
        &self.set
    }
    /// Every predicate with its scope, text and origin, in the order added.
    pub fn list(&self) -> &[ScopedPredicate] {
        &self.list
    }
    pub fn len(&self) -> usize {
        self.list.len()
    }
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
    /// Adds `predicate` to `scope` unless it is there already; returns the new entry.
    pub fn insert(&mut self, program: &Program, scope: Option<ProcId>, predicate: Expr, origin: PredicateOrigin) -> Option<&ScopedPredicate> {
        if !self.set.insert(scope, predicate.clone()) {
            return None;
        }
        let text = display_expr(program, &predicate);
        self.list.push(ScopedPredicate { scope, predicate, text, origin });
        self.list.last()
    }
}

/// Whether `pred` adds nothing to the predicates of its scope: an integer (dis)equality that is
/// constant, or the same polynomial equality over the same variables as a predicate of the
/// scope or a global one, as the decision procedure normalises them (weakest preconditions
/// through `y = y + 1` turn `y*y - 2*x + y == 0` into `(y + 1) * (y + 1) - 2 * (y + 1 + x) +
/// (y + 1) == 0`). The variables must match: `'n == 0` is `'m == 'm + 'n`, but only the
/// first is about `'n` alone, which is what procedure signatures and cones go by.
pub fn is_redundant(predicates: &PredicateSet, scope: Option<ProcId>, pred: &Expr) -> bool {
    let Some(form) = solver::equality_form(pred) else { return false };
    if form.constant().is_some() {
        return true;
    }
    let variables = |e: &Expr| {
        let mut v = e.vars();
        v.sort();
        v
    };
    let mine = variables(pred);
    let local = scope.map(|p| predicates.of_proc(p)).unwrap_or(&[]);
    predicates.global.iter().chain(local).any(|p| solver::equality_form(p).is_some_and(|f| f.same_up_to_negation(&form)) && variables(p) == mine)
}


/// Predicates in C2BP's file form: `global { ... }` then `proc { ... }` blocks.
pub fn format_predicates(program: &Program, predicates: &[ScopedPredicate]) -> String {
    let mut out = String::new();
    let globals: Vec<&str> = predicates.iter().filter(|p| p.scope.is_none()).map(|p| p.text.as_str()).collect();
    if !globals.is_empty() {
        out.push_str(&format!("global {{ {} }}\n", globals.join(", ")));
    }
    for proc in program.proc_ids() {
        let local: Vec<&str> = predicates.iter().filter(|p| p.scope == Some(proc)).map(|p| p.text.as_str()).collect();
        if !local.is_empty() {
            out.push_str(&format!("{} {{ {} }}\n", program.proc(proc).name, local.join(", ")));
        }
    }
    out
}

/// The conditions of the `assume` statements right before error statements (the arguments of
/// failed `assert`s), scoped by their variables.
pub fn error_guard_predicates(program: &Program) -> Vec<(Option<ProcId>, Expr)> {
    let mut out = Vec::new();
    for proc_id in program.proc_ids() {
        let proc = program.proc(proc_id);
        for (i, stmt) in proc.body.iter().enumerate() {
            if !matches!(stmt.kind, StmtKind::Error) || i == 0 {
                continue;
            }
            // the statements that lead here: the one before (fall through) and gotos
            let mut preds: Vec<usize> = Vec::new();
            for (j, s) in proc.body.iter().enumerate() {
                if proc.successors(j as u32).contains(&(i as u32)) {
                    preds.push(j);
                    let _ = s;
                }
            }
            for j in preds {
                if let StmtKind::Assume { cond } = &proc.body[j].kind {
                    let mut atoms = Vec::new();
                    refine::atoms(cond, &mut atoms);
                    for a in atoms {
                        let a = refine::strip_negation(&a);
                        if a.ty != Type::Bool || refine::is_ground(&a) {
                            continue;
                        }
                        if let Some(scope) = predicate_scope(program, &a) {
                            if !out.contains(&(scope, a.clone())) {
                                out.push((scope, a));
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

/// The atoms of all `assume` conditions (branch guards) of the program, scoped.
pub fn condition_predicates(program: &Program) -> Vec<(Option<ProcId>, Expr)> {
    let mut out = Vec::new();
    for proc_id in program.proc_ids() {
        for stmt in &program.proc(proc_id).body {
            if let StmtKind::Assume { cond } = &stmt.kind {
                let mut atoms = Vec::new();
                refine::atoms(cond, &mut atoms);
                for a in atoms {
                    let a = refine::strip_negation(&a);
                    if a.ty != Type::Bool || refine::is_ground(&a) {
                        continue;
                    }
                    if let Some(scope) = predicate_scope(program, &a) {
                        if !out.contains(&(scope, a.clone())) {
                            out.push((scope, a));
                        }
                    }
                }
            }
        }
    }
    out
}

/// The scope of a predicate over program variables: `Some(None)` global, `Some(Some(p))` local to
/// `p`, `None` when it mixes procedures.
pub fn predicate_scope(program: &Program, e: &Expr) -> Option<Option<ProcId>> {
    let mut scope: Option<ProcId> = None;
    let mut ok = true;
    e.visit(&mut |x| {
        if let ExprKind::Var(v) = x.kind {
            if let Some(p) = program.vars.get(v.0 as usize).and_then(|var| var.kind.proc()) {
                match scope {
                    None => scope = Some(p),
                    Some(q) if q == p => {}
                    Some(_) => ok = false,
                }
            }
        }
    });
    ok.then_some(scope)
}
