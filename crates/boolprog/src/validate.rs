//! Static checks of a boolean program: declarations, names, arities, labels and goto targets.

use budget::hash::{HashMap, HashSet};

use diagnostics::{Diagnostic, Span};

use crate::{is_valid_variable_name, statements_in_order, Expr, Procedure, Program, Stmt, StmtKind};

/// Every problem found: undeclared or duplicate variables, unknown procedures, arity
/// mismatches of calls, assignments and returns, duplicate labels, unknown goto targets.
/// Errors make the program unfit for model checking; warnings do not.
pub fn validate(program: &Program) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let mut globals: HashSet<&str> = HashSet::default();
    for g in &program.globals {
        if !is_valid_variable_name(&g.name) {
            diags.push(Diagnostic::error(g.span, format!("`{}` is not a valid variable name", g.name)));
        }
        if !globals.insert(&g.name) {
            diags.push(Diagnostic::error(g.span, format!("global `{}` declared twice", g.name)));
        }
    }
    let mut procs: HashMap<&str, &Procedure> = HashMap::default();
    for proc in &program.procs {
        if procs.insert(&proc.name, proc).is_some() {
            diags.push(Diagnostic::error(proc.span, format!("procedure `{}` defined twice", proc.name)));
        }
    }
    for proc in &program.procs {
        validate_procedure(program, proc, &globals, &procs, &mut diags);
    }
    diags
}

struct Scope<'a> {
    globals: &'a HashSet<&'a str>,
    locals: HashSet<&'a str>,
}

impl Scope<'_> {
    fn has(&self, name: &str) -> bool {
        self.locals.contains(name) || self.globals.contains(name)
    }
}

fn validate_procedure(
    _program: &Program,
    proc: &Procedure,
    globals: &HashSet<&str>,
    procs: &HashMap<&str, &Procedure>,
    diags: &mut Vec<Diagnostic>,
) {
    let mut locals: HashSet<&str> = HashSet::default();
    for name in proc.local_names() {
        if !is_valid_variable_name(name) {
            diags.push(Diagnostic::error(proc.span, format!("`{name}` is not a valid variable name in `{}`", proc.name)));
        }
        if !locals.insert(name) {
            diags.push(Diagnostic::error(proc.span, format!("`{name}` declared twice in `{}`", proc.name)));
        }
    }
    let scope = Scope { globals, locals };
    if let Some(e) = &proc.enforce {
        check_expr(e, &scope, proc.span, &mut *diags);
    }
    let mut labels: HashMap<&str, Span> = HashMap::default();
    let stmts = statements_in_order(&proc.body);
    for stmt in &stmts {
        if let Some(label) = &stmt.label {
            if let Some(first) = labels.get(label.as_str()) {
                diags.push(
                    Diagnostic::error(stmt.span, format!("label `{label}` defined twice in `{}`", proc.name))
                        .with_label(*first, "first defined here"),
                );
            } else {
                labels.insert(label, stmt.span);
            }
        }
    }
    for stmt in &stmts {
        check_stmt(stmt, proc, &scope, procs, &labels, diags);
    }
}

fn check_expr(e: &Expr, scope: &Scope, span: Span, diags: &mut Vec<Diagnostic>) {
    for name in e.variables() {
        if !scope.has(name) {
            diags.push(Diagnostic::error(span, format!("undeclared variable `{name}`")));
        }
    }
}

fn check_lhs(lhs: &[String], scope: &Scope, span: Span, diags: &mut Vec<Diagnostic>) {
    let mut seen = HashSet::default();
    for name in lhs {
        if !scope.has(name) {
            diags.push(Diagnostic::error(span, format!("undeclared variable `{name}`")));
        }
        if !seen.insert(name) {
            diags.push(Diagnostic::error(span, format!("`{name}` assigned twice in one parallel assignment")));
        }
    }
}

fn check_stmt(
    stmt: &Stmt,
    proc: &Procedure,
    scope: &Scope,
    procs: &HashMap<&str, &Procedure>,
    labels: &HashMap<&str, Span>,
    diags: &mut Vec<Diagnostic>,
) {
    let span = stmt.span;
    match &stmt.kind {
        StmtKind::Skip => {}
        StmtKind::Assign { lhs, rhs } => {
            check_lhs(lhs, scope, span, diags);
            if lhs.len() != rhs.len() {
                diags.push(Diagnostic::error(
                    span,
                    format!("{} variables assigned but {} values given", lhs.len(), rhs.len()),
                ));
            }
            for e in rhs {
                check_expr(e, scope, span, diags);
            }
        }
        StmtKind::Assume(e) | StmtKind::Assert(e) => check_expr(e, scope, span, diags),
        StmtKind::Goto(targets) => {
            if targets.is_empty() {
                diags.push(Diagnostic::error(span, "goto without a target"));
            }
            for t in targets {
                if !labels.contains_key(t.as_str()) {
                    diags.push(Diagnostic::error(span, format!("goto to unknown label `{t}` in `{}`", proc.name)));
                }
            }
        }
        StmtKind::If { cond, .. } | StmtKind::While { cond, .. } => check_expr(cond, scope, span, diags),
        StmtKind::Call { lhs, callee, args } => {
            check_lhs(lhs, scope, span, diags);
            for e in args {
                check_expr(e, scope, span, diags);
            }
            match procs.get(callee.as_str()) {
                None => diags.push(Diagnostic::error(span, format!("call of unknown procedure `{callee}`"))),
                Some(target) => {
                    if target.formals.len() != args.len() {
                        diags.push(Diagnostic::error(
                            span,
                            format!(
                                "`{callee}` takes {} arguments but {} were given",
                                target.formals.len(),
                                args.len()
                            ),
                        ));
                    }
                    if !lhs.is_empty() && lhs.len() != target.returns {
                        diags.push(Diagnostic::error(
                            span,
                            format!("`{callee}` returns {} values but {} are assigned", target.returns, lhs.len()),
                        ));
                    }
                }
            }
        }
        StmtKind::Return(values) => {
            for e in values {
                check_expr(e, scope, span, diags);
            }
            if values.len() != proc.returns {
                diags.push(Diagnostic::error(
                    span,
                    format!("`{}` returns {} values but this return gives {}", proc.name, proc.returns, values.len()),
                ));
            }
        }
    }
}
