//! The procedure as the paper's flow chart (Dams–Namjoshi §2): locations and guarded actions
//! `s_{m,n}: g → a`.
//!
//! Locations are the first statement after the prelude of symbolic constants (`'f = f`, which
//! the property language cannot mention), every statement carrying a source label (labels
//! `L<n>` come from lowering and are not locations), loop heads, the `return`, and any `assume`
//! that follows an update on a path (so that every action is "guard, then update"). An edge
//! runs from a location through non-location statements to the next location; its guard is
//! the conjunction of the `assume`s, its update the sequence of stores.
//!
//! The paper's fragment: no calls, no unions, no arrays, no pointer arithmetic, no address of a
//! variable. Anything else is refused with a diagnostic at the statement.

use crate::terms::{FieldRef, Formula, Pred, Term};
use crate::wp::Update;
use c_ir::{BinaryOp, Expr, ExprKind, ProcId, Program, StmtKind, Type, UnaryOp, VarKind};
use diagnostics::{Diagnostic, Span};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct LocId(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct EdgeId(pub u32);

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    pub id: LocId,
    /// The source label, or `s<index>` for an unlabelled location.
    pub label: String,
    /// Index of the statement in the procedure body.
    pub stmt: u32,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    pub id: EdgeId,
    pub from: LocId,
    pub to: LocId,
    pub guard: Formula,
    /// The updates in execution order, with the span of their statement.
    pub updates: Vec<(Update, Span)>,
    /// The statements the edge covers (indices into the body).
    pub stmts: Vec<u32>,
    /// The statements as C text, `; `-separated.
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flowchart {
    pub proc: ProcId,
    pub locations: Vec<Location>,
    pub edges: Vec<Edge>,
    pub initial: LocId,
}

impl Flowchart {
    pub fn location_by_label(&self, label: &str) -> Option<LocId> {
        self.locations.iter().find(|l| l.label == label).map(|l| l.id)
    }
    pub fn location(&self, id: LocId) -> &Location {
        &self.locations[id.0 as usize]
    }
    pub fn edges_into(&self, n: LocId) -> impl Iterator<Item = &Edge> {
        self.edges.iter().filter(move |e| e.to == n)
    }
}

fn is_lowering_label(label: &str) -> bool {
    label.len() > 1 && label.starts_with('L') && label[1..].chars().all(|c| c.is_ascii_digit())
}

/// Builds the flow chart of `proc`, or explains why it is outside the fragment.
pub fn build(program: &Program, proc: ProcId) -> Result<Flowchart, Vec<Diagnostic>> {
    let pr = program.proc(proc);
    check_fragment(program, proc)?;
    let mut first = 0u32;
    while let Some(StmtKind::Assign { lhs, .. }) = pr.body.get(first as usize).map(|s| &s.kind) {
        match lhs.kind {
            ExprKind::Var(v) if matches!(program.var(v).kind, VarKind::SymbolicConst { .. }) => first += 1,
            _ => break,
        }
    }
    let mut is_loc = vec![false; pr.body.len()];
    if let Some(x) = is_loc.get_mut(first as usize) {
        *x = true;
    }
    for (i, s) in pr.body.iter().enumerate() {
        let labelled = s.label.as_deref().is_some_and(|l| !is_lowering_label(l));
        if (i as u32) >= first && (labelled || matches!(s.kind, StmtKind::Return { .. } | StmtKind::Error)) {
            is_loc[i] = true;
        }
    }
    for h in pr.loop_heads() {
        is_loc[h as usize] = true;
    }
    loop {
        let mut translator = Translator { program, errors: Vec::new() };
        let (edges, split) = collect_edges(program, proc, &is_loc, &mut translator);
        if !translator.errors.is_empty() {
            return Err(translator.errors);
        }
        if let Some(s) = split {
            is_loc[s as usize] = true;
            continue;
        }
        let locations = location_list(program, proc, &is_loc);
        let id_of = |stmt: u32| LocId(locations.iter().position(|l| l.stmt == stmt).unwrap_or(0) as u32);
        let edges = edges
            .into_iter()
            .enumerate()
            .map(|(k, (from, to, guard, updates, stmts))| {
                let text = stmts
                    .iter()
                    .filter(|&&s| !matches!(pr.body[s as usize].kind, StmtKind::Goto { .. } | StmtKind::Skip))
                    .map(|&s| c_ir::display_stmt(program, pr, &pr.body[s as usize]).trim().trim_end_matches(';').to_string())
                    .collect::<Vec<_>>()
                    .join("; ");
                Edge { id: EdgeId(k as u32), from: id_of(from), to: id_of(to), guard, updates, stmts, text }
            })
            .collect();
        let initial = id_of(first);
        return Ok(Flowchart { proc, locations, edges, initial });
    }
}

fn location_list(program: &Program, proc: ProcId, is_loc: &[bool]) -> Vec<Location> {
    let pr = program.proc(proc);
    is_loc
        .iter()
        .enumerate()
        .filter(|(_, &b)| b)
        .map(|(i, _)| i)
        .enumerate()
        .map(|(k, i)| {
            let s = &pr.body[i];
            let label = match &s.label {
                Some(l) if !is_lowering_label(l) => l.clone(),
                _ if matches!(s.kind, StmtKind::Return { .. }) => "return".to_string(),
                _ => format!("s{i}"),
            };
            Location { id: LocId(k as u32), label, stmt: i as u32, span: s.span }
        })
        .collect()
}

type RawEdge = (u32, u32, Formula, Vec<(Update, Span)>, Vec<u32>);

/// Edges between locations; `Some(stmt)` when an `assume` after an update must become a location.
fn collect_edges(program: &Program, proc: ProcId, is_loc: &[bool], tr: &mut Translator) -> (Vec<RawEdge>, Option<u32>) {
    let pr = program.proc(proc);
    let mut edges = Vec::new();
    for (start, _) in is_loc.iter().enumerate().filter(|(_, &b)| b) {
        let mut stack: Vec<(u32, Vec<Formula>, Vec<(Update, Span)>, Vec<u32>)> = vec![(start as u32, Vec::new(), Vec::new(), Vec::new())];
        while let Some((at, mut guards, mut updates, mut stmts)) = stack.pop() {
            if at as usize != start && is_loc[at as usize] {
                edges.push((start as u32, at, Formula::and(guards), updates, stmts));
                continue;
            }
            let stmt = &pr.body[at as usize];
            stmts.push(at);
            match &stmt.kind {
                StmtKind::Assume { cond } => {
                    if !updates.is_empty() {
                        return (edges, Some(at));
                    }
                    guards.push(tr.guard(cond, stmt.span));
                }
                StmtKind::Assign { lhs, rhs } => {
                    let addr = tr.lvalue(lhs, stmt.span);
                    let value = tr.value(rhs, stmt.span);
                    updates.push((Update::Store { addr, value }, stmt.span));
                }
                StmtKind::Havoc { lhs } => {
                    let addr = tr.lvalue(lhs, stmt.span);
                    updates.push((Update::Store { addr, value: Term::Unknown }, stmt.span));
                }
                StmtKind::Malloc { lhs, .. } => {
                    let addr = tr.lvalue(lhs, stmt.span);
                    match lhs.ty.pointee() {
                        Some(Type::Struct(s)) => updates.push((Update::Malloc { addr, strukt: *s }, stmt.span)),
                        _ => tr.refuse(stmt.span, "`malloc` of something other than a struct is outside the fragment"),
                    }
                }
                StmtKind::Free { ptr } => {
                    let ptr = tr.value(ptr, stmt.span);
                    updates.push((Update::Free { ptr }, stmt.span));
                }
                StmtKind::Call { .. } => tr.refuse(stmt.span, "procedure calls are outside the analysed fragment (the paper's tool handles none)"),
                StmtKind::Skip | StmtKind::Goto { .. } | StmtKind::Return { .. } | StmtKind::Error => {}
            }
            for next in pr.successors(at) {
                stack.push((next, guards.clone(), updates.clone(), stmts.clone()));
            }
        }
    }
    (edges, None)
}

fn check_fragment(program: &Program, proc: ProcId) -> Result<(), Vec<Diagnostic>> {
    let pr = program.proc(proc);
    let mut errors = Vec::new();
    for &v in pr.formals.iter().chain(pr.locals.iter()) {
        let var = program.var(v);
        if matches!(var.ty, Type::Array(..)) {
            errors.push(Diagnostic::error(var.span, format!("`{}` is an array: arrays are outside the analysed fragment", var.source_name)));
        }
        if let Type::Struct(s) = var.ty {
            let kind = if program.struct_def(s).is_union { "a union" } else { "a struct value" };
            errors.push(Diagnostic::error(var.span, format!("`{}` is {kind}: only pointers to structs are supported", var.source_name)));
        }
        if var.address_taken {
            errors.push(Diagnostic::error(var.span, format!("the address of `{}` is taken: the fragment never takes a variable's address", var.source_name)));
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

struct Translator<'a> {
    program: &'a Program,
    errors: Vec<Diagnostic>,
}

impl Translator<'_> {
    fn refuse(&mut self, span: Span, message: &str) {
        if !self.errors.iter().any(|d| d.span == span && d.message == message) {
            self.errors.push(Diagnostic::error(span, message.to_string()));
        }
    }

    fn field_ref(&mut self, base_ty: &Type, index: u32, span: Span) -> Option<FieldRef> {
        match base_ty {
            Type::Struct(s) if self.program.struct_def(*s).is_union => {
                self.refuse(span, "unions are outside the analysed fragment");
                None
            }
            Type::Struct(s) => {
                if let Some(Type::Array(..) | Type::Struct(_)) = self.program.struct_def(*s).fields.get(index as usize).map(|f| &f.ty) {
                    self.refuse(span, "nested structs and array fields are outside the analysed fragment");
                    return None;
                }
                Some(FieldRef { strukt: *s, index })
            }
            _ => {
                self.refuse(span, "field access on something that is not a struct");
                None
            }
        }
    }

    /// The address denoted by an lvalue.
    fn lvalue(&mut self, e: &Expr, span: Span) -> Term {
        match &e.kind {
            ExprKind::Var(v) => Term::VarAddr(*v),
            ExprKind::Field(base, idx) => match &base.kind {
                ExprKind::Deref(p) => {
                    let f = self.field_ref(&base.ty, *idx, span);
                    let p = self.value(p, span);
                    f.map(|f| Term::field_addr(p, f)).unwrap_or(Term::Unknown)
                }
                _ => {
                    self.refuse(span, "fields of struct variables are outside the fragment (use pointers to structs)");
                    Term::Unknown
                }
            },
            ExprKind::Index(..) => {
                self.refuse(span, "arrays are outside the analysed fragment");
                Term::Unknown
            }
            _ => {
                self.refuse(span, "dereference of a non-struct pointer is outside the fragment (no pointer arithmetic)");
                Term::Unknown
            }
        }
    }

    /// The value of an expression.
    fn value(&mut self, e: &Expr, span: Span) -> Term {
        match &e.kind {
            ExprKind::Const(0) if e.ty.is_pointer() => Term::Null,
            ExprKind::Const(_) if e.ty.is_integer() => Term::Scalar,
            ExprKind::Var(_) | ExprKind::Field(..) | ExprKind::Index(..) => {
                if matches!(e.ty, Type::Struct(_)) {
                    self.refuse(span, "struct values are outside the fragment (copy fields one by one)");
                }
                let addr = self.lvalue(e, span);
                if e.ty.is_integer() {
                    Term::Scalar
                } else {
                    Term::load(addr)
                }
            }
            ExprKind::AddrOf(inner) => match &inner.kind {
                ExprKind::Field(..) => self.lvalue(inner, span),
                _ => {
                    self.refuse(span, "taking the address of a variable is outside the fragment");
                    Term::Unknown
                }
            },
            ExprKind::Cast(inner) if e.ty.is_pointer() => {
                if inner.as_const() == Some(0) {
                    Term::Null
                } else if inner.ty.is_pointer() {
                    self.value(inner, span)
                } else {
                    self.refuse(span, "integer-to-pointer casts are outside the fragment");
                    Term::Unknown
                }
            }
            _ if e.ty.is_integer() => {
                self.check_no_pointer_arith(e, span);
                Term::Scalar
            }
            _ => {
                self.refuse(span, "this pointer expression is outside the fragment (no pointer arithmetic, strings or arrays)");
                Term::Unknown
            }
        }
    }

    fn check_no_pointer_arith(&mut self, e: &Expr, span: Span) {
        let mut bad = false;
        e.visit(&mut |s| {
            if matches!(s.kind, ExprKind::Index(..)) || (matches!(s.kind, ExprKind::Binary(op, ..) if !op.is_relational() && !op.is_logical()) && s.ty.is_pointer()) {
                bad = true;
            }
        });
        if bad {
            self.refuse(span, "pointer arithmetic and arrays are outside the analysed fragment");
        }
    }

    /// A guard as a formula over pointer equalities; integer conditions become ⊤.
    fn guard(&mut self, e: &Expr, span: Span) -> Formula {
        match &e.kind {
            ExprKind::Const(v) => Formula::Const(*v != 0),
            ExprKind::Unary(UnaryOp::Not, a) => Formula::not(self.guard(a, span)),
            ExprKind::Binary(BinaryOp::And, a, b) => Formula::and(vec![self.guard(a, span), self.guard(b, span)]),
            ExprKind::Binary(BinaryOp::Or, a, b) => Formula::or(vec![self.guard(a, span), self.guard(b, span)]),
            ExprKind::Binary(op @ (BinaryOp::Eq | BinaryOp::Ne), a, b) if a.ty.is_pointer() || b.ty.is_pointer() => {
                let atom = Formula::Atom(Pred::eq(self.value(a, span), self.value(b, span)));
                if *op == BinaryOp::Eq {
                    atom
                } else {
                    Formula::not(atom)
                }
            }
            ExprKind::Cast(inner) if inner.ty.is_pointer() => Formula::not(Formula::Atom(Pred::eq(self.value(inner, span), Term::Null))),
            _ => {
                self.check_no_pointer_arith(e, span);
                Formula::Star
            }
        }
    }
}
