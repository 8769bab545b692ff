//! The abstract program in Promela for SPIN, compact (Dams–Namjoshi §5 model-check the
//! abstraction with SPIN and report its reachable states: 7 for the insertion, 34 for the
//! reversal).
//!
//! One atomic step per location: the location's checks (precondition and consistency
//! `assume`s, ghost update, `assert`s of the property) and one outgoing abstract transition
//! (guard, parallel assignment, hint and `*` approximations), ending with a jump to the target
//! location. So SPIN stores one state per (location, valuation). Booleans whose pair is not
//! considered at the target location are reset to `false` in the step (their values matter
//! nowhere there, see [`crate::consistency`]'s soundness note), the temporaries of the parallel
//! assignment are reset too, so no auxiliary value is left in the state vector. Only the
//! booleans of the initial location start nondeterministic. Three-valued expressions become
//! guarded choices over "can be true" / "can be false" (each `*` is an independent choice).
//! A blocked `assume` or guard ends the run (`goto end_END`), never an invalid end state.

use crate::abstraction::{Abstraction, Status};
use crate::emit::{self, bar, bool_name};
use crate::flowchart::{Edge, Flowchart, LocId};
use crate::parse::Property;
use crate::terms::{Formula, Names};
use boolprog::Expr;

/// `(can be true, can be false)` of a three-valued boolean expression, as Promela.
fn possible(e: &Expr) -> (String, String) {
    let bin = |a: &Expr, b: &Expr| (possible(a), possible(b));
    match e {
        Expr::Const(true) => ("true".into(), "false".into()),
        Expr::Const(false) => ("false".into(), "true".into()),
        Expr::Var(v) => (v.clone(), format!("!{v}")),
        Expr::Nondet => ("true".into(), "true".into()),
        Expr::Not(a) => {
            let (t, f) = possible(a);
            (f, t)
        }
        Expr::And(a, b) => {
            let ((at, af), (bt, bf)) = bin(a, b);
            (format!("({at} && {bt})"), format!("({af} || {bf})"))
        }
        Expr::Or(a, b) => {
            let ((at, af), (bt, bf)) = bin(a, b);
            (format!("({at} || {bt})"), format!("({af} && {bf})"))
        }
        Expr::Xor(a, b) => {
            let ((at, af), (bt, bf)) = bin(a, b);
            (format!("(({at} && {bf}) || ({af} && {bt}))"), format!("(({at} && {bt}) || ({af} && {bf}))"))
        }
        Expr::Eq(a, b) => {
            let ((at, af), (bt, bf)) = bin(a, b);
            (format!("(({at} && {bt}) || ({af} && {bf}))"), format!("(({at} && {bf}) || ({af} && {bt}))"))
        }
        Expr::Implies(a, b) => {
            let ((at, af), (bt, bf)) = bin(a, b);
            (format!("({af} || {bt})"), format!("({at} && {bf})"))
        }
        Expr::Choose(p, n) => {
            let ((pt, pf), (nt, nf)) = bin(p, n);
            (format!("({pt} || ({pf} && {nf}))"), format!("({pf} && ({nt} || {nf}))"))
        }
    }
}

/// `target = e` with `e` three-valued: a guarded choice unless `e` is two-valued.
fn assign(target: &str, e: &Expr, out: &mut Vec<String>) {
    let (t, f) = possible(e);
    if !has_nondet(e) {
        out.push(format!("{target} = {t}"));
    } else {
        out.push(format!("if :: {t} -> {target} = true :: {f} -> {target} = false fi"));
    }
}

fn has_nondet(e: &Expr) -> bool {
    match e {
        Expr::Nondet | Expr::Choose(..) => true,
        Expr::Const(_) | Expr::Var(_) => false,
        Expr::Not(a) => has_nondet(a),
        Expr::And(a, b) | Expr::Or(a, b) | Expr::Xor(a, b) | Expr::Eq(a, b) | Expr::Implies(a, b) => has_nondet(a) || has_nondet(b),
    }
}

/// The booleans whose pairs are considered at `l`.
fn live(abs: &Abstraction, l: LocId) -> Vec<u32> {
    let mut out: Vec<u32> = abs.pairs.iter().filter(|p| p.loc == l).map(|p| p.pred.0).collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Hint and `*` assignments for the pairs at `l`.
fn approximations(abs: &Abstraction, l: LocId, out: &mut Vec<String>) {
    for pair in emit::approximated_pairs(abs, l) {
        let name = bool_name(pair.pred.0);
        match (pair.status, emit::hint_expr(abs, pair)) {
            (Status::Hinted, Some(e)) => assign(&name, &e, out),
            (Status::OverApproximated, _) => out.push(format!("if :: {name} = true :: {name} = false fi")),
            _ => {}
        }
    }
}

/// Whether location `to` can be reached from `from` (in zero or more edges).
fn reaches(fc: &Flowchart, from: LocId, to: LocId) -> bool {
    let mut seen = vec![from];
    let mut stack = vec![from];
    while let Some(l) = stack.pop() {
        if l == to {
            return true;
        }
        for e in fc.edges.iter().filter(|e| e.from == l) {
            if !seen.contains(&e.to) {
                seen.push(e.to);
                stack.push(e.to);
            }
        }
    }
    false
}

/// Resets the booleans not live at `l` (all of them for `None`, the end), and the ghosts whose
/// assertion location can no longer be reached.
fn reset_dead(abs: &Abstraction, fc: &Flowchart, props: &[Property], l: Option<LocId>, out: &mut Vec<String>) {
    let keep = l.map(|l| live(abs, l)).unwrap_or_default();
    for i in 0..abs.preds.len() as u32 {
        if !keep.contains(&i) {
            out.push(format!("{} = false", bool_name(i)));
        }
    }
    for (k, p) in props.iter().enumerate() {
        if let Property::Implies { then, .. } = p {
            if !l.is_some_and(|l| reaches(fc, l, *then)) {
                out.push(format!("g{k} = false"));
            }
        }
    }
}

struct Checks {
    /// Conjunction of assumes, "can be true".
    assume: String,
    body: Vec<String>,
}

/// The checks of location `l` (as in [`crate::emit`]).
fn checks(abs: &Abstraction, l: LocId, pres: &[Property], props: &[Property]) -> Checks {
    let mut assumes: Vec<Formula> = Vec::new();
    for p in pres {
        if let Property::At { formula, loc } = p {
            if *loc == l {
                assumes.push(formula.clone());
            }
        }
    }
    assumes.extend(crate::consistency::at_location(abs, l));
    let assume = if assumes.is_empty() { "true".to_string() } else { possible(&bar(abs, &Formula::and(assumes))).0 };
    let mut body = Vec::new();
    for (k, p) in props.iter().enumerate() {
        if let Property::Implies { antecedent, at, .. } = p {
            if *at == l {
                assign(&format!("g{k}"), &Expr::or(Expr::var(format!("g{k}")), bar(abs, antecedent)), &mut body);
            }
        }
    }
    for (k, p) in props.iter().enumerate() {
        let checked = match p {
            Property::At { formula, loc } if *loc == l => Some(bar(abs, formula)),
            Property::Implies { consequent, then, .. } if *then == l => Some(Expr::or(Expr::not(Expr::var(format!("g{k}"))), bar(abs, consequent))),
            _ => None,
        };
        if let Some(e) = checked {
            body.push(format!("assert(!{})", possible(&e).1));
        }
    }
    Checks { assume, body }
}

/// One abstract transition: guard (can be true), then its statements.
fn transition(abs: &Abstraction, fc: &Flowchart, props: &[Property], e: &Edge, temps: &mut usize) -> (String, Vec<String>) {
    let guard = if e.guard == Formula::Const(true) { "true".to_string() } else { possible(&bar(abs, &e.guard)).0 };
    let mut body = Vec::new();
    let assigns: Vec<_> = abs.assignments.iter().filter(|a| a.edge == e.id).collect();
    *temps = (*temps).max(assigns.len());
    for (k, a) in assigns.iter().enumerate() {
        assign(&format!("t{k}"), &bar(abs, &a.formula), &mut body);
    }
    for (k, a) in assigns.iter().enumerate() {
        body.push(format!("{} = t{k}; t{k} = false", bool_name(a.pred.0)));
    }
    approximations(abs, e.to, &mut body);
    reset_dead(abs, fc, props, Some(e.to), &mut body);
    body.push(format!("goto L_{}", fc.location(e.to).label));
    (guard, body)
}

fn ghosts(props: &[Property]) -> Vec<String> {
    props.iter().enumerate().filter(|(_, p)| matches!(p, Property::Implies { .. })).map(|(k, _)| format!("g{k}")).collect()
}

fn block(out: &mut String, lines: &[String], indent: &str) {
    for l in lines {
        out.push_str(&format!("{indent}{l};\n"));
    }
}

/// The Promela model of the abstraction with the properties as assertions.
pub fn export(names: &Names, abs: &Abstraction, fc: &Flowchart, pres: &[Property], props: &[Property]) -> String {
    let mut temps = 0usize;
    let mut code = String::new();
    // initial step: nondeterministic booleans at the initial location, its hints
    let mut init = Vec::new();
    for i in live(abs, fc.initial) {
        init.push(format!("if :: {0} = true :: {0} = false fi", bool_name(i)));
    }
    approximations(abs, fc.initial, &mut init);
    // the choice of initial values is part of the first location's step unless it is re-entered
    let merge = !fc.edges.iter().any(|e| e.to == fc.initial);
    if !merge {
        init.push(format!("goto L_{}", fc.location(fc.initial).label));
        code.push_str("  atomic {\n");
        block(&mut code, &init, "    ");
        code.push_str("  }\n");
    }
    for loc in &fc.locations {
        let c = checks(abs, loc.id, pres, props);
        code.push_str(&format!("L_{}:\n  atomic {{\n", loc.label));
        if merge && loc.id == fc.initial {
            block(&mut code, &init, "    ");
        }
        code.push_str(&format!("    if\n    :: {} ->\n", c.assume));
        block(&mut code, &c.body, "      ");
        code.push_str("      if\n");
        let mut any = false;
        for e in fc.edges.iter().filter(|e| e.from == loc.id) {
            any = true;
            let (guard, body) = transition(abs, fc, props, e, &mut temps);
            code.push_str(&format!("      :: {guard} ->\n"));
            block(&mut code, &body, "        ");
        }
        if !any {
            let mut end = Vec::new();
            reset_dead(abs, fc, props, None, &mut end);
            code.push_str("      :: true ->\n");
            block(&mut code, &end, "        ");
            code.push_str("        goto end_END;\n");
        } else {
            code.push_str("      :: else -> goto end_END\n");
        }
        code.push_str("      fi\n    :: else -> goto end_END\n    fi\n  }\n");
    }
    // a valid end state (label `end…`) that executes nothing: no extra terminated state
    code.push_str("end_END:\n  false\n}\n");
    let mut out = String::from("/* Abstract program of the shape analysis (Dams-Namjoshi): one atomic step per location. */\n");
    for (i, p) in abs.preds.iter().enumerate() {
        out.push_str(&format!("/* {} <-> {} */\n", bool_name(i as u32), names.pred(p).replace("*/", "* /")));
    }
    let mut globals: Vec<String> = (0..abs.preds.len() as u32).map(bool_name).collect();
    globals.extend(ghosts(props));
    globals.extend((0..temps).map(|k| format!("t{k}")));
    if !globals.is_empty() {
        out.push_str(&format!("bool {};\n", globals.join(", ")));
    }
    out.push_str("\nactive proctype main() {\n");
    out.push_str(&code);
    out
}
