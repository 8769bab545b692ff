//! The abstract program as a boolean program (Dams–Namjoshi Fig 2): one global boolean `b<i>`
//! per predicate, one labelled block per location, one block per edge with `assume(ḡ)`, the
//! parallel assignment of the edge's `b_p := f̄`, the hint equivalences
//! `b_p := choose(false, c̄)` and `b_p := *` for over-approximated pairs. The property becomes
//! assertions: `F@L` is `assert(F̄)` at L; valid implications between the booleans of a
//! location are assumed there ([`consistency`]); the paper's `∀k: P@l1 ⇒ Q@l2` uses a ghost boolean
//! `g` (`g := g | P̄` at l1, `assert(!g | Q̄)` at l2); a precondition is `assume(F̄)`.

use crate::abstraction::{Abstraction, Pair, PredId, Status};
use crate::consistency;
use crate::flowchart::{Flowchart, LocId};
use crate::parse::Property;
use crate::terms::Formula;
use boolprog::{Expr, Procedure, Program, Stmt, VarDecl};

/// The name of predicate `i`'s boolean.
pub fn bool_name(i: u32) -> String {
    format!("b{i}")
}

/// `f̄`: every predicate replaced by its boolean (`*` for ⊤).
pub fn bar(abs: &Abstraction, f: &Formula) -> Expr {
    match f {
        Formula::Const(b) => Expr::Const(*b),
        Formula::Star => Expr::Nondet,
        Formula::Atom(p) => match abs.pred_id(p) {
            Some(id) => Expr::var(bool_name(id.0)),
            None => Expr::Nondet,
        },
        Formula::Not(a) => Expr::not(bar(abs, a)),
        Formula::And(xs) => Expr::and_all(xs.iter().map(|x| bar(abs, x))),
        Formula::Or(xs) => Expr::or_all(xs.iter().map(|x| bar(abs, x))),
    }
}

fn loc_label(fc: &Flowchart, l: LocId) -> String {
    format!("L_{}", fc.location(l).label)
}

/// Statements at location `l`: precondition assumes, ghost updates, assertions.
fn location_checks(abs: &Abstraction, l: LocId, pres: &[Property], props: &[Property]) -> Vec<Stmt> {
    let mut out = Vec::new();
    for p in pres {
        if let Property::At { formula, loc } = p {
            if *loc == l {
                out.push(Stmt::assume(bar(abs, formula)));
            }
        }
    }
    for c in consistency::at_location(abs, l) {
        out.push(Stmt::assume(bar(abs, &c)));
    }
    for (k, p) in props.iter().enumerate() {
        if let Property::Implies { antecedent, at, .. } = p {
            if *at == l {
                let g = format!("g{k}");
                out.push(Stmt::assign_one(g.clone(), Expr::or(Expr::var(g), bar(abs, antecedent))));
            }
        }
    }
    for (k, p) in props.iter().enumerate() {
        match p {
            Property::At { formula, loc } if *loc == l => out.push(Stmt::assert(bar(abs, formula))),
            Property::Implies { consequent, then, .. } if *then == l => {
                out.push(Stmt::assert(Expr::or(Expr::not(Expr::var(format!("g{k}"))), bar(abs, consequent))));
            }
            _ => {}
        }
    }
    out
}

/// The hinted and over-approximated pairs at `l`, each after the approximated pairs at `l`
/// whose booleans its hint reads (a residual may be approximated itself).
pub fn approximated_pairs(abs: &Abstraction, l: LocId) -> Vec<&Pair> {
    let mut todo: Vec<&Pair> = abs.pairs.iter().filter(|p| p.loc == l && matches!(p.status, Status::Hinted | Status::OverApproximated)).collect();
    let reads = |p: &Pair| -> Vec<PredId> {
        let Some(h) = p.hint.filter(|_| p.status == Status::Hinted) else { return Vec::new() };
        abs.hints[h].cond.preds().iter().chain(p.residual.preds().iter()).filter_map(|q| abs.pred_id(q)).collect()
    };
    let mut out: Vec<&Pair> = Vec::new();
    while !todo.is_empty() {
        let ready = todo.iter().position(|p| reads(p).iter().all(|q| !todo.iter().any(|t| t.pred == *q && t.id != p.id))).unwrap_or(0);
        out.push(todo.remove(ready));
    }
    out
}

/// `b_p ≡ if C then r else ⊤` of a hinted pair: `choose(C̄ ∧ r̄, C̄ ∧ !r̄)`, which is
/// `choose(false, C̄)` for the paper's `r = false`.
pub fn hint_expr(abs: &Abstraction, pair: &Pair) -> Option<Expr> {
    let h = pair.hint?;
    let c = bar(abs, &abs.hints[h].cond);
    Some(match &pair.residual {
        Formula::Const(false) => Expr::choose(Expr::ff(), c),
        Formula::Const(true) => Expr::choose(c, Expr::ff()),
        r => Expr::choose(Expr::and(c.clone(), bar(abs, r)), Expr::and(c, Expr::not(bar(abs, r)))),
    })
}

/// Hint and `*` assignments for the pairs at `l` (after the edge's own update).
fn approximations(abs: &Abstraction, l: LocId) -> Vec<Stmt> {
    let mut out = Vec::new();
    for pair in approximated_pairs(abs, l) {
        let name = bool_name(pair.pred.0);
        match (pair.status, hint_expr(abs, pair)) {
            (Status::Hinted, Some(e)) => out.push(Stmt::assign_one(name, e)),
            (Status::OverApproximated, _) => out.push(Stmt::assign_one(name, Expr::Nondet)),
            _ => {}
        }
    }
    out
}

/// The boolean program of the abstraction with the properties compiled to assertions.
pub fn boolean_program(abs: &Abstraction, fc: &Flowchart, pres: &[Property], props: &[Property]) -> Program {
    let mut globals: Vec<VarDecl> = (0..abs.preds.len() as u32).map(|i| VarDecl::new(bool_name(i))).collect();
    let ghosts: Vec<String> =
        props.iter().enumerate().filter(|(_, p)| matches!(p, Property::Implies { .. })).map(|(k, _)| format!("g{k}")).collect();
    globals.extend(ghosts.iter().map(VarDecl::new));
    let mut body = Vec::new();
    for g in &ghosts {
        body.push(Stmt::assign_one(g.clone(), Expr::ff()));
    }
    body.extend(approximations(abs, fc.initial).into_iter().filter(|s| !matches!(&s.kind, boolprog::StmtKind::Assign { rhs, .. } if rhs == &vec![Expr::Nondet])));
    body.push(Stmt::goto(vec![loc_label(fc, fc.initial)]));
    for loc in &fc.locations {
        let mut block = location_checks(abs, loc.id, pres, props);
        let outs: Vec<String> = fc.edges.iter().filter(|e| e.from == loc.id).map(|e| format!("E{}", e.id.0)).collect();
        block.push(Stmt::goto(if outs.is_empty() { vec!["END".to_string()] } else { outs }));
        block[0] = block[0].clone().with_label(loc_label(fc, loc.id));
        body.extend(block);
    }
    for e in &fc.edges {
        let mut block = Vec::new();
        if e.guard != Formula::Const(true) {
            block.push(Stmt::assume(bar(abs, &e.guard)));
        }
        let assigns: Vec<_> = abs.assignments.iter().filter(|a| a.edge == e.id).collect();
        if !assigns.is_empty() {
            let lhs = assigns.iter().map(|a| bool_name(a.pred.0)).collect();
            let rhs = assigns.iter().map(|a| bar(abs, &a.formula)).collect();
            block.push(Stmt::assign(lhs, rhs));
        }
        block.extend(approximations(abs, e.to));
        block.push(Stmt::goto(vec![loc_label(fc, e.to)]));
        block[0] = block[0].clone().with_label(format!("E{}", e.id.0));
        body.extend(block);
    }
    body.push(Stmt::skip().with_label("END"));
    let mut main = Procedure::new("main");
    main.body = body;
    Program { globals, procs: vec![main] }
}
