//! Store sites (seed 003 §2 "whenever the value of an expression e2 is stored in a location
//! denoted by e1"): assignments, compound assignments and `++`/`--`, initializers (an
//! aggregate is one store of its whole list), parameter passing (actual → formal, at the
//! call's line), `return e` (a store into the function's name), and the warnings the paper
//! asks for (external calls, pointer arithmetic and casts, calls through function pointers).

use crate::model::*;
use diagnostics::Span;
use lang_c::ast::BinaryOperator as B;
use lang_c::ast::UnaryOperator as U;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SiteId(pub u32);

/// The location stored into.
#[derive(Clone, Debug)]
pub enum Target {
    /// A declared variable, a formal (parameter passing) or a function's name (`return`).
    Var(VarId),
    Expr(Expr),
}

/// The value stored.
#[derive(Clone, Debug)]
pub enum Value {
    Expr(Expr),
    /// The leaves of an aggregate initializer.
    List(Vec<Expr>),
    /// `e1 op= e2` (with `Some(e2)`) or `e1++` (`None`): the store of `e1 op e2`.
    Compound(Expr, Option<Expr>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SiteKind {
    Assign,
    CompoundAssign,
    IncDec,
    Initializer,
    /// Actual `index` of a call of `function` stored into its formal.
    Parameter { function: String, index: usize },
    Return { function: String },
}

#[derive(Clone, Debug)]
pub struct Site {
    pub id: SiteId,
    pub kind: SiteKind,
    pub target: Target,
    pub value: Value,
    pub line: u32,
    pub span: Span,
    /// The function containing the site (`None` for global initializers).
    pub function: Option<String>,
}

/// What a warning is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum WarningKind {
    /// A call of a function without body (the paper's warning).
    ExternalCall,
    /// Pointer arithmetic (`p + i`, `p++`, `p - q`).
    PointerArithmetic,
    /// A cast between a pointer and an integer, or between unrelated pointer types.
    PointerCast,
    /// A call through a function pointer: no parameter passing is analysed.
    FunctionPointerCall,
    /// The inference hid a function pointer (calls through it cannot be kept).
    HiddenFunctionPointer,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    pub kind: WarningKind,
    pub line: u32,
    pub span: Span,
    pub message: String,
}

/// The SV-COMP intrinsics and allocation functions: no warning, concrete results, no key.
pub fn is_builtin(name: &str) -> bool {
    name.starts_with("__VERIFIER_")
        || matches!(
            name,
            "reach_error" | "abort" | "exit" | "assert" | "__assert_fail" | "malloc" | "calloc" | "realloc" | "alloca" | "free" | "assume" | "__CPROVER_assume" | "__CPROVER_assert"
        )
}

/// The paper's warning text for a call of an external function.
pub fn external_call_text(line: u32) -> String {
    format!("*** abC: WARNING (line {line}): call to external (or builtin) function; cannot analyze definition - assuming concrete result returned unless specified in abstraction list")
}

pub(crate) struct Collector<'p> {
    pub program: &'p Program,
    pub lines: &'p diagnostics::LineIndex,
    pub sites: Vec<Site>,
    pub warnings: Vec<Warning>,
    function: Option<String>,
}

impl<'p> Collector<'p> {
    pub fn new(program: &'p Program, lines: &'p diagnostics::LineIndex) -> Collector<'p> {
        Collector { program, lines, sites: Vec::new(), warnings: Vec::new(), function: None }
    }

    fn line(&self, span: Span) -> u32 {
        self.lines.line_col(span.start).line
    }

    fn push(&mut self, kind: SiteKind, target: Target, value: Value, span: Span, line: u32) {
        let id = SiteId(self.sites.len() as u32);
        self.sites.push(Site { id, kind, target, value, line, span, function: self.function.clone() });
    }

    fn warn(&mut self, kind: WarningKind, span: Span, message: String) {
        let line = self.line(span);
        if kind == WarningKind::ExternalCall && self.warnings.iter().any(|w| w.kind == kind && w.line == line) {
            return;
        }
        self.warnings.push(Warning { kind, line, span, message });
    }

    pub fn run(&mut self) {
        let program = self.program;
        for top in &program.tops {
            match &top.kind {
                TopKind::Decl(d) if !top.from_header => self.decl(d),
                TopKind::Func(f) => {
                    self.function = Some(f.name.clone());
                    for item in &f.body {
                        self.item(item);
                    }
                    self.function = None;
                }
                _ => {}
            }
        }
        self.warnings.sort_by_key(|w| (w.line, w.span.start, w.kind));
    }

    pub fn decl(&mut self, d: &Decl) {
        for dl in &d.declarators {
            let (Some(var), Some(init)) = (dl.var, &dl.init) else { continue };
            let leaves: Vec<Expr> = init.leaves().into_iter().cloned().collect();
            for leaf in &leaves {
                self.expr(leaf);
            }
            let value = match init {
                Init::Expr(e) => Value::Expr(e.clone()),
                Init::List(_) => Value::List(leaves),
            };
            self.push(SiteKind::Initializer, Target::Var(var), value, dl.span, dl.line);
        }
    }

    fn item(&mut self, item: &Item) {
        match item {
            Item::Decl(d) => self.decl(d),
            Item::Stmt(s) => self.stmt(s),
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Block(items) => items.iter().for_each(|i| self.item(i)),
            StmtKind::Expr(e) => {
                if let Some(e) = e {
                    self.expr(e)
                }
            }
            StmtKind::If(c, t, e) => {
                self.expr(c);
                self.stmt(t);
                if let Some(e) = e {
                    self.stmt(e);
                }
            }
            StmtKind::While(c, b) | StmtKind::Switch(c, b) => {
                self.expr(c);
                self.stmt(b);
            }
            StmtKind::DoWhile(b, c) => {
                self.stmt(b);
                self.expr(c);
            }
            StmtKind::For(init, c, step, b) => {
                match &**init {
                    ForInit::Expr(e) => self.expr(e),
                    ForInit::Decl(d) => self.decl(d),
                    ForInit::Empty => {}
                }
                if let Some(c) = c {
                    self.expr(c);
                }
                if let Some(st) = step {
                    self.expr(st);
                }
                self.stmt(b);
            }
            StmtKind::Labeled(_, b) => self.stmt(b),
            StmtKind::Return(Some(e)) => {
                self.expr(e);
                if let Some(f) = self.function.clone() {
                    if let Some(func) = self.program.function(&f) {
                        self.push(SiteKind::Return { function: f.clone() }, Target::Var(func.result), Value::Expr(e.clone()), s.span, s.line);
                    }
                }
            }
            _ => {}
        }
    }

    /// Visits `e` in evaluation order, pushing the store sites it contains after those of its
    /// operands (so a call's parameter bindings come before the store of its result).
    pub fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Member { base, .. } => self.expr(base),
            ExprKind::Index(a, i) => {
                self.expr(a);
                self.expr(i);
            }
            ExprKind::Unary(_, x) | ExprKind::SizeofExpr(x) | ExprKind::Cast { e: x, .. } => {
                self.expr(x);
                if let ExprKind::Cast { e: inner, .. } = &e.kind {
                    self.check_cast(e, inner);
                }
                if let (ExprKind::Unary(U::Plus | U::Minus, _), true) = (&e.kind, e.ty.is_pointer()) {
                    self.warn(WarningKind::PointerArithmetic, e.span, "pointer arithmetic: abC's rules assume a pointer stays inside the object it points to".into());
                }
            }
            ExprKind::IncDec(_, x) => {
                self.expr(x);
                if x.ty.is_pointer() {
                    self.warn(WarningKind::PointerArithmetic, e.span, "pointer arithmetic (`++`/`--` on a pointer): abC's rules assume a pointer stays inside the object it points to".into());
                }
                let line = self.line(e.span);
                self.push(SiteKind::IncDec, Target::Expr((**x).clone()), Value::Compound((**x).clone(), None), e.span, line);
            }
            ExprKind::Binary(op, a, b) => {
                self.expr(a);
                self.expr(b);
                if matches!(op, B::Plus | B::Minus) && (a.ty.is_pointer() || b.ty.is_pointer()) {
                    self.warn(WarningKind::PointerArithmetic, e.span, "pointer arithmetic: abC's rules assume a pointer stays inside the object it points to".into());
                }
            }
            ExprKind::Assign(op, a, b) => {
                self.expr(a);
                self.expr(b);
                let line = self.line(e.span);
                match op {
                    None => self.push(SiteKind::Assign, Target::Expr((**a).clone()), Value::Expr((**b).clone()), e.span, line),
                    Some(o) => {
                        if matches!(o, B::Plus | B::Minus) && a.ty.is_pointer() {
                            self.warn(WarningKind::PointerArithmetic, e.span, "pointer arithmetic (`+=`/`-=` on a pointer): abC's rules assume a pointer stays inside the object it points to".into());
                        }
                        self.push(SiteKind::CompoundAssign, Target::Expr((**a).clone()), Value::Compound((**a).clone(), Some((**b).clone())), e.span, line)
                    }
                }
            }
            ExprKind::Call { callee, args } => self.call(e, callee, args),
            ExprKind::Cond(c, t, f) => {
                self.expr(c);
                self.expr(t);
                self.expr(f);
            }
            ExprKind::Comma(items) => items.iter().for_each(|x| self.expr(x)),
            _ => {}
        }
    }

    fn call(&mut self, e: &Expr, callee: &Callee, args: &[Expr]) {
        if let Callee::Indirect(c) = callee {
            self.expr(c);
        }
        for a in args {
            self.expr(a);
        }
        let line = self.line(e.span);
        match callee {
            Callee::Indirect(_) => self.warn(
                WarningKind::FunctionPointerCall,
                e.span,
                "call through a function pointer: abC does not know the callee, so no parameter passing is analysed here".into(),
            ),
            Callee::Direct(name) => {
                let Some(f) = self.program.function(name) else { return };
                if f.has_body {
                    for (k, a) in args.iter().enumerate() {
                        if let Some(&formal) = f.formals.get(k) {
                            self.push(SiteKind::Parameter { function: name.clone(), index: k }, Target::Var(formal), Value::Expr(a.clone()), a.span, line);
                        }
                    }
                } else if !is_builtin(name) {
                    self.warn(WarningKind::ExternalCall, e.span, external_call_text(line));
                }
            }
        }
    }

    fn check_cast(&mut self, cast: &Expr, inner: &Expr) {
        let (to, from) = (&cast.ty, &inner.ty);
        let literal = matches!(inner.kind, ExprKind::Lit { string: false, .. });
        let flagged = match (to, from) {
            (Ty::Ptr(_), Ty::Int(_)) => !literal,
            (Ty::Int(_), Ty::Ptr(_) | Ty::Array(..)) => true,
            (Ty::Ptr(a), Ty::Ptr(b) | Ty::Array(b, _)) => **a != Ty::Void && **b != Ty::Void && a != b,
            _ => false,
        };
        if flagged {
            self.warn(WarningKind::PointerCast, cast.span, "cast between a pointer and an integer or between unrelated pointer types: abC's rules may miss what the result points to".into());
        }
    }
}
