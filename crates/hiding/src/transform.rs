//! The transformation `tr` (seed 003 §2, "Transformation phase"): declarations of hidden
//! variables are removed, stores into hidden locations are removed keeping their concrete
//! side effects, abstract tests and values become `NONDET`, hidden formals disappear from
//! definitions, prototypes and calls. `tr(e1 + e2)` is `e1 + e2` when both are concrete and
//! `(effects of e1, effects of e2, NONDET)` otherwise.

use crate::infer::{keys, occ, Hidden};
use crate::model::*;
use crate::printer::{NondetMark, Printer};
use diagnostics::{LineIndex, Span};
use lang_c::ast::BinaryOperator as B;
use lang_c::ast::UnaryOperator as U;

/// How `NONDET` is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum NondetStyle {
    /// The paper's token `NONDET`.
    #[default]
    Token,
    /// `NONDET` plus a definition `#define NONDET __VERIFIER_nondet_int()` at the top.
    Macro,
    /// `__VERIFIER_nondet_int()` written out at every use (for checking and replay).
    Call,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TransformOptions {
    /// Footnote 4: `a[i] = v` with only `i` hidden becomes `a[NONDET] = v`.
    pub array_nondet_index: bool,
    pub nondet: NondetStyle,
}

/// What the transformation did at a source place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EditKind {
    /// A declarator of a hidden variable removed.
    RemovedDeclaration,
    /// A store into a hidden location removed (its concrete side effects kept).
    RemovedStore,
    /// A hidden formal parameter removed from a definition or prototype.
    RemovedParameter,
    /// The argument for a hidden formal removed from a call (its side effects kept).
    RemovedArgument,
    /// An abstract test (`if`, loop, `switch` condition) became `NONDET`.
    NondetTest,
    /// An abstract value became `NONDET`.
    NondetValue,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub kind: EditKind,
    /// Source span and line.
    pub span: Span,
    pub line: u32,
    /// The hidden variables that caused it.
    pub vars: Vec<VarId>,
}

/// The transformed program.
#[derive(Clone, Debug)]
pub struct Transformed {
    pub text: String,
    /// Source line of each output line (index = output line - 1; 0: generated).
    pub line_map: Vec<u32>,
    pub edits: Vec<Edit>,
    /// Every printed `NONDET`, with the source expression it replaces.
    pub nondets: Vec<NondetMark>,
}

impl Transformed {
    /// The source line that output line `out_line` (1-based) comes from.
    pub fn source_line(&self, out_line: u32) -> Option<u32> {
        self.line_map.get(out_line.checked_sub(1)? as usize).copied().filter(|l| *l > 0)
    }
}

pub const NONDET_CALL: &str = "__VERIFIER_nondet_int()";

struct Tr<'a> {
    program: &'a Program,
    h: &'a Hidden,
    options: TransformOptions,
    lines: &'a LineIndex,
    edits: Vec<Edit>,
    /// The function being transformed.
    function: Option<String>,
}

fn comma_of(mut items: Vec<Expr>, span: Span) -> Option<Expr> {
    match items.len() {
        0 => None,
        1 => items.pop(),
        _ => {
            let ty = items.last().map(|x| x.ty.clone()).unwrap_or(Ty::Unknown);
            Some(Expr::new(ExprKind::Comma(items), span, ty))
        }
    }
}

fn zero(span: Span) -> Expr {
    Expr::new(ExprKind::Lit { text: "0".into(), string: false }, span, Ty::Int(32))
}

/// Whether evaluating `e` can change the state.
pub fn has_effects(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Assign(..) | ExprKind::IncDec(..) | ExprKind::Call { .. } | ExprKind::Verbatim(_) => true,
        ExprKind::Member { base: x, .. } | ExprKind::Unary(_, x) | ExprKind::Cast { e: x, .. } => has_effects(x),
        ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) => has_effects(a) || has_effects(b),
        ExprKind::Cond(a, b, c) => has_effects(a) || has_effects(b) || has_effects(c),
        ExprKind::Comma(items) => items.iter().any(has_effects),
        _ => false,
    }
}

fn mentions(e: &Expr, h: &Hidden) -> bool {
    match &e.kind {
        ExprKind::Var(v) => h.contains(*v),
        ExprKind::Member { base: x, .. } | ExprKind::Unary(_, x) | ExprKind::Cast { e: x, .. } | ExprKind::IncDec(_, x) | ExprKind::SizeofExpr(x) => mentions(x, h),
        ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) | ExprKind::Assign(_, a, b) => mentions(a, h) || mentions(b, h),
        ExprKind::Cond(a, b, c) => mentions(a, h) || mentions(b, h) || mentions(c, h),
        ExprKind::Comma(items) => items.iter().any(|x| mentions(x, h)),
        ExprKind::Call { callee, args } => matches!(callee, Callee::Indirect(c) if mentions(c, h)) || !args.is_empty(),
        _ => false,
    }
}

impl<'a> Tr<'a> {
    fn line(&self, span: Span) -> u32 {
        self.lines.line_col(span.start).line
    }

    fn edit(&mut self, kind: EditKind, span: Span, vars: Vec<VarId>) {
        let line = self.line(span);
        self.edits.push(Edit { kind, span, line, vars });
    }

    fn is_abs(&self, e: &Expr) -> bool {
        !occ(self.program, self.h, e).is_empty()
    }

    fn store_abstract(&self, e1: &Expr) -> Vec<VarId> {
        keys(self.program, e1).into_iter().filter(|k| self.h.contains(*k)).collect()
    }

    /// `(effects..., NONDET)` for the abstract expression `e`.
    fn nondet(&mut self, e: &Expr, effects: Vec<Expr>, kind: EditKind) -> Expr {
        let vars = occ(self.program, self.h, e);
        self.edit(kind, e.span, vars);
        let mut items = effects;
        items.push(Expr::new(ExprKind::Nondet, e.span, e.ty.clone()));
        comma_of(items, e.span).unwrap_or_else(|| zero(e.span))
    }

    fn effects_of(&mut self, es: &[&Expr]) -> Vec<Expr> {
        es.iter().filter_map(|x| self.effect(x)).collect()
    }

    /// Side effects of computing the address of the location `e`.
    fn addr_effects(&mut self, e: &Expr) -> Vec<Expr> {
        match &e.kind {
            ExprKind::Var(_) => Vec::new(),
            ExprKind::Member { base, arrow: false, .. } => self.addr_effects(base),
            ExprKind::Member { base, arrow: true, .. } | ExprKind::Unary(U::Indirection, base) => self.effects_of(&[base]),
            ExprKind::Index(a, i) => {
                let mut out = if matches!(a.ty, Ty::Array(..)) { self.addr_effects(a) } else { self.effects_of(&[a]) };
                out.extend(self.effects_of(&[i]));
                out
            }
            _ => self.effects_of(&[e]),
        }
    }

    /// tr for a location that stays concrete.
    fn lvalue(&mut self, e: &Expr) -> Expr {
        let kind = match &e.kind {
            ExprKind::Var(_) => return e.clone(),
            ExprKind::Member { base, field, arrow } => {
                let b = if *arrow { self.value(base) } else { self.lvalue(base) };
                ExprKind::Member { base: Box::new(b), field: field.clone(), arrow: *arrow }
            }
            ExprKind::Index(a, i) => {
                let a2 = if matches!(a.ty, Ty::Array(..)) { self.lvalue(a) } else { self.value(a) };
                ExprKind::Index(Box::new(a2), Box::new(self.value(i)))
            }
            ExprKind::Unary(U::Indirection, p) => ExprKind::Unary(U::Indirection, Box::new(self.value(p))),
            _ => return self.value(e),
        };
        Expr::new(kind, e.span, e.ty.clone())
    }

    /// Side effects of `e` when its value is not used (`None`: none).
    fn effect(&mut self, e: &Expr) -> Option<Expr> {
        if !has_effects(e) {
            return None;
        }
        match &e.kind {
            ExprKind::Assign(_, a, b) => {
                let hidden = self.store_abstract(a);
                if hidden.is_empty() {
                    return Some(self.value(e));
                }
                self.edit(EditKind::RemovedStore, e.span, hidden);
                let mut effs = self.addr_effects(a);
                effs.extend(self.effect(b));
                comma_of(effs, e.span)
            }
            ExprKind::IncDec(_, x) => {
                let hidden = self.store_abstract(x);
                if hidden.is_empty() {
                    return Some(self.value(e));
                }
                self.edit(EditKind::RemovedStore, e.span, hidden);
                let effs = self.addr_effects(x);
                comma_of(effs, e.span)
            }
            ExprKind::Call { callee, args } => Some(self.call(e, callee, args, false)),
            ExprKind::Comma(items) => {
                let refs: Vec<&Expr> = items.iter().collect();
                let effs = self.effects_of(&refs);
                comma_of(effs, e.span)
            }
            ExprKind::Cond(c, t, f) if has_effects(t) || has_effects(f) => {
                let c2 = self.test(c);
                let t2 = self.effect_or_zero(t);
                let f2 = self.effect_or_zero(f);
                Some(Expr::new(ExprKind::Cond(Box::new(c2), Box::new(t2), Box::new(f2)), e.span, Ty::Int(32)))
            }
            ExprKind::Binary(op @ (B::LogicalAnd | B::LogicalOr), a, b) if has_effects(b) => {
                let a2 = self.test(a);
                let b2 = self.effect_or_zero(b);
                Some(Expr::new(ExprKind::Binary(op.clone(), Box::new(a2), Box::new(b2)), e.span, Ty::Int(32)))
            }
            ExprKind::Verbatim(_) => Some(e.clone()),
            ExprKind::Member { base: x, .. } | ExprKind::Unary(_, x) | ExprKind::Cast { e: x, .. } | ExprKind::Cond(x, _, _) => self.effect(x),
            ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) => {
                let effs = self.effects_of(&[a, b]);
                comma_of(effs, e.span)
            }
            _ => None,
        }
    }

    fn effect_or_zero(&mut self, e: &Expr) -> Expr {
        match self.effect(e) {
            Some(x) => comma_of(vec![x, zero(e.span)], e.span).unwrap_or_else(|| zero(e.span)),
            None => zero(e.span),
        }
    }

    /// A test (`if`, loops, `?:`, `&&`): `NONDET` when abstract.
    fn test(&mut self, c: &Expr) -> Expr {
        if self.is_abs(c) && !has_effects(c) {
            return self.nondet(c, Vec::new(), EditKind::NondetTest);
        }
        self.value(c)
    }

    /// tr(e) when its value is used.
    fn value(&mut self, e: &Expr) -> Expr {
        if !has_effects(e) && !self.is_abs(e) && !mentions(e, self.h) {
            return e.clone();
        }
        match &e.kind {
            ExprKind::Assign(op, a, b) => {
                let hidden = self.store_abstract(a);
                if hidden.is_empty() {
                    let a2 = self.lvalue(a);
                    let b2 = self.value(b);
                    return Expr::new(ExprKind::Assign(op.clone(), Box::new(a2), Box::new(b2)), e.span, e.ty.clone());
                }
                self.edit(EditKind::RemovedStore, e.span, hidden);
                let mut effs = self.addr_effects(a);
                effs.extend(self.effect(b));
                self.nondet(e, effs, EditKind::NondetValue)
            }
            ExprKind::IncDec(k, x) => {
                let hidden = self.store_abstract(x);
                if hidden.is_empty() {
                    let x2 = self.lvalue(x);
                    return Expr::new(ExprKind::IncDec(*k, Box::new(x2)), e.span, e.ty.clone());
                }
                self.edit(EditKind::RemovedStore, e.span, hidden);
                let effs = self.addr_effects(x);
                self.nondet(e, effs, EditKind::NondetValue)
            }
            ExprKind::Call { callee, args } => self.call(e, callee, args, true),
            ExprKind::Comma(items) => {
                let (last, init) = items.split_last().expect("a comma expression has operands");
                let refs: Vec<&Expr> = init.iter().collect();
                let mut effs = self.effects_of(&refs);
                effs.push(self.value(last));
                comma_of(effs, e.span).unwrap_or_else(|| zero(e.span))
            }
            _ if self.is_abs(e) => self.abstract_value(e),
            _ => self.concrete_value(e),
        }
    }

    /// An abstract expression without stores at its top: its effects, then `NONDET`.
    fn abstract_value(&mut self, e: &Expr) -> Expr {
        match &e.kind {
            ExprKind::Cond(c, t, f) if has_effects(t) || has_effects(f) => {
                let inner = self.effect(e).unwrap_or_else(|| zero(e.span));
                let _ = (c, t, f);
                self.nondet(e, vec![inner], EditKind::NondetValue)
            }
            ExprKind::Binary(B::LogicalAnd | B::LogicalOr, _, b) if has_effects(b) => {
                let inner = self.effect(e).unwrap_or_else(|| zero(e.span));
                self.nondet(e, vec![inner], EditKind::NondetValue)
            }
            ExprKind::Unary(U::Address, x) => {
                let effs = self.addr_effects(x);
                self.nondet(e, effs, EditKind::NondetValue)
            }
            _ => {
                let effs = self.effect(e).into_iter().collect();
                self.nondet(e, effs, EditKind::NondetValue)
            }
        }
    }

    /// A concrete expression: rebuilt with transformed operands (they may contain removed
    /// stores, as in `(n = k++, k)`).
    fn concrete_value(&mut self, e: &Expr) -> Expr {
        let kind = match &e.kind {
            ExprKind::Member { .. } | ExprKind::Index(..) | ExprKind::Unary(U::Indirection, _) => return self.lvalue(e),
            ExprKind::Unary(U::Address, x) => ExprKind::Unary(U::Address, Box::new(self.lvalue(x))),
            ExprKind::Unary(op, x) => ExprKind::Unary(op.clone(), Box::new(self.value(x))),
            ExprKind::Cast { type_text, e: x } => ExprKind::Cast { type_text: type_text.clone(), e: Box::new(self.value(x)) },
            ExprKind::Binary(op, a, b) => {
                let a2 = self.value(a);
                let b2 = self.value(b);
                ExprKind::Binary(op.clone(), Box::new(a2), Box::new(b2))
            }
            ExprKind::Cond(c, t, f) => {
                let c2 = self.value(c);
                let t2 = self.value(t);
                let f2 = self.value(f);
                ExprKind::Cond(Box::new(c2), Box::new(t2), Box::new(f2))
            }
            _ => return e.clone(),
        };
        Expr::new(kind, e.span, e.ty.clone())
    }

    /// A call: hidden formals' arguments dropped (effects kept before the call), abstract
    /// arguments of external functions become `NONDET`, a hidden result (when used) `NONDET`.
    fn call(&mut self, e: &Expr, callee: &Callee, args: &[Expr], value_used: bool) -> Expr {
        let function = match callee {
            Callee::Direct(name) => self.program.function(name).filter(|f| f.has_body),
            Callee::Indirect(_) => None,
        };
        let mut before = Vec::new();
        let mut kept = Vec::new();
        for (k, a) in args.iter().enumerate() {
            match function.and_then(|f| f.formals.get(k)) {
                Some(&formal) if self.h.contains(formal) => {
                    self.edit(EditKind::RemovedArgument, a.span, vec![formal]);
                    before.extend(self.effect(a));
                }
                _ => kept.push(self.value(a)),
            }
        }
        let callee2 = match callee {
            Callee::Direct(n) => Callee::Direct(n.clone()),
            Callee::Indirect(c) => Callee::Indirect(Box::new(self.value(c))),
        };
        let call = Expr::new(ExprKind::Call { callee: callee2, args: kept }, e.span, e.ty.clone());
        before.push(call);
        if value_used && self.is_abs(e) {
            return self.nondet(e, before, EditKind::NondetValue);
        }
        comma_of(before, e.span).unwrap_or_else(|| zero(e.span))
    }

    // ------------------------------------------------------------ statements

    fn stmt_or_empty(&mut self, s: &Stmt) -> Stmt {
        self.stmt(s).unwrap_or(Stmt { kind: StmtKind::Expr(None), span: s.span, line: s.line, end_line: s.end_line })
    }

    fn stmt(&mut self, s: &Stmt) -> Option<Stmt> {
        let kind = match &s.kind {
            StmtKind::Block(items) => StmtKind::Block(self.items(items)),
            StmtKind::Expr(Some(e)) => StmtKind::Expr(Some(self.effect(e)?)),
            StmtKind::If(c, t, f) => {
                let c2 = self.test(c);
                let t2 = self.stmt_or_empty(t);
                let f2 = f.as_ref().map(|f| Box::new(self.stmt_or_empty(f)));
                StmtKind::If(c2, Box::new(t2), f2)
            }
            StmtKind::While(c, b) => StmtKind::While(self.test(c), Box::new(self.stmt_or_empty(b))),
            StmtKind::DoWhile(b, c) => {
                let b2 = self.stmt_or_empty(b);
                StmtKind::DoWhile(Box::new(b2), self.test(c))
            }
            StmtKind::Switch(c, b) => StmtKind::Switch(self.test(c), Box::new(self.stmt_or_empty(b))),
            StmtKind::For(init, c, step, b) => {
                // a declaration that loses a hidden declarator with side effects becomes a block
                // `{ kept declarations and effects in order; for (; c; step) body }`
                let mut before = Vec::new();
                let init2 = match &**init {
                    ForInit::Empty => ForInit::Empty,
                    ForInit::Expr(e) => self.effect(e).map(ForInit::Expr).unwrap_or(ForInit::Empty),
                    ForInit::Decl(d) => match self.decl_parts(d, true).as_slice() {
                        [] => ForInit::Empty,
                        [Item::Decl(kept)] => ForInit::Decl(kept.clone()),
                        items => {
                            before = items.to_vec();
                            ForInit::Empty
                        }
                    },
                };
                let c2 = c.as_ref().map(|c| self.test(c));
                let step2 = step.as_ref().and_then(|st| self.effect(st));
                let for_stmt = StmtKind::For(Box::new(init2), c2, step2, Box::new(self.stmt_or_empty(b)));
                if before.is_empty() {
                    for_stmt
                } else {
                    before.push(Item::Stmt(Stmt { kind: for_stmt, span: s.span, line: s.line, end_line: s.end_line }));
                    StmtKind::Block(before)
                }
            }
            StmtKind::Labeled(l, b) => StmtKind::Labeled(l.clone(), Box::new(self.stmt_or_empty(b))),
            StmtKind::Return(Some(e)) => return Some(self.return_stmt(s, e)),
            other => other.clone(),
        };
        Some(Stmt { kind, span: s.span, line: s.line, end_line: s.end_line })
    }

    fn return_stmt(&mut self, s: &Stmt, e: &Expr) -> Stmt {
        let result = self.function.as_ref().and_then(|f| self.program.function(f)).map(|f| (f.result, f.ret.clone()));
        let Some((result, ret)) = result.filter(|(r, _)| self.h.contains(*r)) else {
            let v = self.value(e);
            return Stmt { kind: StmtKind::Return(Some(v)), span: s.span, line: s.line, end_line: s.end_line };
        };
        self.edit(EditKind::RemovedStore, s.span, vec![result]);
        let effs: Vec<Expr> = self.effect(e).into_iter().collect();
        if ret.is_scalar() {
            let v = self.nondet(e, effs, EditKind::NondetValue);
            return Stmt { kind: StmtKind::Return(Some(v)), span: s.span, line: s.line, end_line: s.end_line };
        }
        // a hidden struct result: return an unwritten local (any value)
        let specifiers = self.function_specifiers();
        let any = Stmt { kind: StmtKind::Verbatim(format!("{{ {specifiers} abc_any_result; return abc_any_result; }}")), span: s.span, line: s.line, end_line: s.end_line };
        if effs.is_empty() {
            return any;
        }
        let mut items: Vec<Item> = effs.into_iter().map(|x| Item::Stmt(Stmt { kind: StmtKind::Expr(Some(x)), span: s.span, line: s.line, end_line: s.end_line })).collect();
        items.push(Item::Stmt(any));
        Stmt { kind: StmtKind::Block(items), span: s.span, line: s.line, end_line: s.end_line }
    }

    fn function_specifiers(&self) -> String {
        let name = self.function.clone().unwrap_or_default();
        self.program
            .tops
            .iter()
            .find_map(|t| match &t.kind {
                TopKind::Func(f) if f.name == name => Some(f.specifiers.replace("static", "").replace("inline", "").trim().to_string()),
                _ => None,
            })
            .unwrap_or_else(|| "int".into())
    }

    fn items(&mut self, items: &[Item]) -> Vec<Item> {
        let mut out = Vec::new();
        for item in items {
            match item {
                Item::Decl(d) => out.extend(self.decl_parts(d, true)),
                Item::Stmt(s) => out.extend(self.stmt(s).map(Item::Stmt)),
            }
        }
        out
    }

    /// A declaration without its hidden declarators, in source order: declarations of the kept
    /// declarators (consecutive ones stay together) and, for locals, statements for the side
    /// effects of hidden declarators' initializers between them (`int h = f(), i = g();` with
    /// `h` hidden becomes `f(); int i = g();`, keeping the order of evaluation).
    fn decl_parts(&mut self, d: &Decl, local: bool) -> Vec<Item> {
        if d.verbatim.is_some() {
            return vec![Item::Decl(d.clone())];
        }
        let mut out: Vec<Item> = Vec::new();
        let mut kept: Vec<Declarator> = Vec::new();
        let mut any_kept = false;
        for dl in &d.declarators {
            match dl.var {
                Some(v) if self.h.contains(v) => {
                    self.edit(EditKind::RemovedDeclaration, dl.span, vec![v]);
                    let Some(init) = dl.init.as_ref().filter(|_| local) else { continue };
                    let leaves: Vec<Expr> = init.leaves().into_iter().cloned().collect();
                    for leaf in &leaves {
                        if let Some(x) = self.effect(leaf) {
                            if !kept.is_empty() {
                                out.push(Item::Decl(Decl { declarators: std::mem::take(&mut kept), ..d.clone() }));
                            }
                            out.push(Item::Stmt(Stmt { kind: StmtKind::Expr(Some(x)), span: dl.span, line: dl.line, end_line: dl.line }));
                        }
                    }
                }
                _ => {
                    let init = dl.init.as_ref().map(|i| self.init(i));
                    kept.push(Declarator { init, ..dl.clone() });
                    any_kept = true;
                }
            }
        }
        if !kept.is_empty() {
            out.push(Item::Decl(Decl { declarators: kept, ..d.clone() }));
        }
        let defines_type = d.specifiers.contains('{');
        if defines_type && out.iter().filter(|i| matches!(i, Item::Decl(_))).count() > 1 {
            // one declaration only (a second one would define the type again): effects after it
            let (decls, effects): (Vec<Item>, Vec<Item>) = out.into_iter().partition(|i| matches!(i, Item::Decl(_)));
            let declarators = decls.into_iter().flat_map(|i| if let Item::Decl(x) = i { x.declarators } else { Vec::new() }).collect();
            out = std::iter::once(Item::Decl(Decl { declarators, ..d.clone() })).chain(effects).collect();
        }
        // a declaration that defines a struct, union or enum type keeps its type
        if !any_kept && defines_type {
            out.insert(0, Item::Decl(Decl { declarators: Vec::new(), ..d.clone() }));
        }
        out
    }

    fn init(&mut self, i: &Init) -> Init {
        match i {
            Init::Expr(e) => Init::Expr(self.value(e)),
            Init::List(items) => Init::List(items.iter().map(|(d, x)| (d.clone(), self.init(x))).collect()),
        }
    }

    fn function_declarator(&mut self, name: &str, d: &FunctionDeclarator, span: Span, record: bool) -> String {
        let formals = self.program.function(name).filter(|f| f.has_body).map(|f| f.formals.clone()).unwrap_or_default();
        if d.params.is_empty() {
            return d.prefix.clone();
        }
        let mut kept = Vec::new();
        for (k, p) in d.params.iter().enumerate() {
            match formals.get(k) {
                Some(&v) if self.h.contains(v) => {
                    if record {
                        self.edit(EditKind::RemovedParameter, span, vec![v]);
                    }
                }
                _ => kept.push(p.text.clone()),
            }
        }
        let params = if kept.is_empty() { "void".to_string() } else { kept.join(", ") };
        format!("{}{}{}", d.prefix, params, d.suffix)
    }
}

/// Transforms the program with hidden set `h` (normally closed; any set is accepted, the
/// paper's footnote 5).
pub fn transform(program: &Program, source: &str, h: &Hidden, options: TransformOptions) -> Transformed {
    let lines = LineIndex::new(source);
    let mut tr = Tr { program, h, options, lines: &lines, edits: Vec::new(), function: None };
    let spelling = if options.nondet == NondetStyle::Call { NONDET_CALL } else { "NONDET" };
    let mut p = Printer::new(program, spelling);
    for (line, text) in &program.includes {
        p.set_source_line(*line);
        p.start_line();
        p.write(text);
    }
    if options.nondet != NondetStyle::Token {
        p.set_source_line(0);
        p.start_line();
        p.write("extern int __VERIFIER_nondet_int(void);");
    }
    if options.nondet == NondetStyle::Macro {
        p.start_line();
        p.write("#define NONDET __VERIFIER_nondet_int()");
    }
    for top in program.tops.iter().filter(|t| !t.from_header) {
        top_level(&mut tr, &mut p, top);
    }
    let _ = tr.options;
    let (text, line_map, nondets) = p.finish();
    Transformed { text, line_map, edits: tr.edits, nondets }
}

fn top_level(tr: &mut Tr, p: &mut Printer, top: &Top) {
    match &top.kind {
        TopKind::Decl(d) => {
            for item in tr.decl_parts(d, false) {
                if let Item::Decl(d) = item {
                    p.decl(&d);
                }
            }
        }
        TopKind::Prototype { specifiers, name, declarator, rest } => {
            p.set_source_line(top.line);
            p.start_line();
            let text = tr.function_declarator(name, declarator, Span::at(0), false);
            let rest = if rest.trim().is_empty() { ";".to_string() } else { rest.clone() };
            p.write(&format!("{specifiers} {text}{rest}"));
        }
        TopKind::Func(f) => {
            tr.function = Some(f.name.clone());
            p.set_source_line(f.line);
            p.start_line();
            let text = tr.function_declarator(&f.name, &f.declarator, f.span, true);
            p.write(&format!("{} {}", f.specifiers, text));
            for k in &f.kr_decls {
                p.start_line();
                p.write(k);
            }
            p.newline();
            let body = tr.items(&f.body);
            p.start_line();
            p.block(&body, f.end_line);
            tr.function = None;
        }
        TopKind::Verbatim(text) => {
            p.set_source_line(top.line);
            p.start_line();
            p.write(text);
        }
    }
}

/// Prints the program without hiding anything (a check of the printer).
pub fn print_program(program: &Program, source: &str) -> String {
    transform(program, source, &Hidden::new(program.vars.len()), TransformOptions::default()).text
}
