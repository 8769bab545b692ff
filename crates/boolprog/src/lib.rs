//! Boolean programs (BOOP Fig 4.2, C2BP Fig 1(b)): the AST, its constructors, and the entry points of the parser, printers (also Moped's and boppo's dialects), validator and exporters.
//!
//! Variable names are plain strings. A predicate variable keeps its braces in the name
//! (`"{x<5}"`), a plain identifier has none (`"t1"`); use [`predicate_name`] to build the former.
//! Statements are identified inside a procedure by their pre-order index ([`StmtId`]), the order
//! in which [`statements_in_order`] lists them; the printers, the model checker and the traces
//! all use that numbering.

use diagnostics::Span;

mod dialect;
pub mod generate;
mod parse;
mod print;
pub mod promela;
mod validate;

pub use dialect::{print_boppo, print_dialect, print_moped, Dialect, MOPED_ERROR_LABEL};
pub use parse::{parse, parse_syntax};
pub use print::{print_bebop, print_c_like, print_expr_bebop, print_expr_c_like, LineInfo, Printed};
pub use validate::validate;

/// Labels whose reachability is an error in a hand-written boolean program, like a failing
/// `assert` (BOOP §3: the property holds only if `ERROR` is unreachable; SLAM's boolean
/// programs use `SLIC_ERROR`).
pub const ERROR_LABELS: &[&str] = &["ERROR", "SLIC_ERROR"];

/// A whole boolean program: global variables, then procedures.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Program {
    pub globals: Vec<VarDecl>,
    pub procs: Vec<Procedure>,
}

/// One declared variable (global).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarDecl {
    pub name: String,
    pub span: Span,
}

impl VarDecl {
    pub fn new(name: impl Into<String>) -> VarDecl {
        VarDecl { name: name.into(), span: Span::default() }
    }
}

/// A procedure: call-by-value formals, uninitialised locals, `returns` boolean results.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Procedure {
    pub name: String,
    pub formals: Vec<String>,
    pub locals: Vec<String>,
    /// Number of returned values: 0 = `void`, 1 = `bool`, n = `bool<n>`.
    pub returns: usize,
    /// A data invariant assumed between every two statements of the procedure (C2BP §5.1).
    pub enforce: Option<Expr>,
    pub body: Vec<Stmt>,
    pub span: Span,
}

impl Procedure {
    pub fn new(name: impl Into<String>) -> Procedure {
        Procedure {
            name: name.into(),
            formals: Vec::new(),
            locals: Vec::new(),
            returns: 0,
            enforce: None,
            body: Vec::new(),
            span: Span::default(),
        }
    }
}

/// The opaque link from a boolean statement to the C statement it abstracts
/// (set by the abstraction, `None` when parsed from text).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Origin {
    pub proc: u32,
    pub index: u32,
}

/// Index of a procedure in [`Program::procs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProcId(pub u32);

/// Pre-order index of a statement inside its procedure (see [`statements_in_order`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StmtId(pub u32);

/// A statement with its optional label, origin and source span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub label: Option<String>,
    pub origin: Option<Origin>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StmtKind {
    Skip,
    /// Parallel assignment `a, b := e1, e2;`.
    Assign { lhs: Vec<String>, rhs: Vec<Expr> },
    /// Paths where the condition can only be false are dropped.
    Assume(Expr),
    /// The error is reachable when the condition can be false.
    Assert(Expr),
    /// Jumps to one of the labels, chosen nondeterministically.
    Goto(Vec<String>),
    If { cond: Expr, then_branch: Vec<Stmt>, else_branch: Vec<Stmt> },
    While { cond: Expr, body: Vec<Stmt> },
    /// `a, b := f(e1, e2);` (`lhs` may be empty: results are dropped).
    Call { lhs: Vec<String>, callee: String, args: Vec<Expr> },
    Return(Vec<Expr>),
}

/// Side-effect-free boolean expressions, with three-valued `*` and `choose`.
/// Every occurrence of `*` chooses independently.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expr {
    Const(bool),
    Var(String),
    Not(Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    /// Also written `!=`.
    Xor(Box<Expr>, Box<Expr>),
    /// If and only if, written `=` (Bebop) or `==` (C-like).
    Eq(Box<Expr>, Box<Expr>),
    Implies(Box<Expr>, Box<Expr>),
    /// `*`, `unknown()`: true or false nondeterministically.
    Nondet,
    /// `choose(pos, neg)`: true if `pos`, else false if `neg`, else nondeterministic.
    /// `schoose[pos, neg]` parses to the same.
    Choose(Box<Expr>, Box<Expr>),
}

impl Expr {
    pub fn tt() -> Expr {
        Expr::Const(true)
    }
    pub fn ff() -> Expr {
        Expr::Const(false)
    }
    pub fn var(name: impl Into<String>) -> Expr {
        Expr::Var(name.into())
    }
    /// Negation, folding constants and double negation.
    #[allow(clippy::should_implement_trait)]
    pub fn not(e: Expr) -> Expr {
        match e {
            Expr::Const(b) => Expr::Const(!b),
            Expr::Not(inner) => *inner,
            other => Expr::Not(Box::new(other)),
        }
    }
    /// Conjunction, folding constants.
    pub fn and(a: Expr, b: Expr) -> Expr {
        match (a, b) {
            (Expr::Const(true), x) | (x, Expr::Const(true)) => x,
            (Expr::Const(false), _) | (_, Expr::Const(false)) => Expr::Const(false),
            (a, b) => Expr::And(Box::new(a), Box::new(b)),
        }
    }
    /// Disjunction, folding constants.
    pub fn or(a: Expr, b: Expr) -> Expr {
        match (a, b) {
            (Expr::Const(false), x) | (x, Expr::Const(false)) => x,
            (Expr::Const(true), _) | (_, Expr::Const(true)) => Expr::Const(true),
            (a, b) => Expr::Or(Box::new(a), Box::new(b)),
        }
    }
    pub fn xor(a: Expr, b: Expr) -> Expr {
        Expr::Xor(Box::new(a), Box::new(b))
    }
    pub fn iff(a: Expr, b: Expr) -> Expr {
        Expr::Eq(Box::new(a), Box::new(b))
    }
    pub fn implies(a: Expr, b: Expr) -> Expr {
        Expr::Implies(Box::new(a), Box::new(b))
    }
    /// `choose(pos, neg)`; `choose(e, !e)` style calls are kept as written.
    pub fn choose(pos: Expr, neg: Expr) -> Expr {
        Expr::Choose(Box::new(pos), Box::new(neg))
    }
    /// `unknown()` / `*`.
    pub fn unknown() -> Expr {
        Expr::Nondet
    }
    /// Conjunction of all (true when empty).
    pub fn and_all(items: impl IntoIterator<Item = Expr>) -> Expr {
        items.into_iter().fold(Expr::Const(true), Expr::and)
    }
    /// Disjunction of all (false when empty).
    pub fn or_all(items: impl IntoIterator<Item = Expr>) -> Expr {
        items.into_iter().fold(Expr::Const(false), Expr::or)
    }
    /// Every variable name read by the expression, in order of first occurrence.
    pub fn variables(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        self.visit_variables(&mut |name| {
            if !out.contains(&name) {
                out.push(name);
            }
        });
        out
    }
    /// The expression with every variable `v` for which `f(v)` is `Some(w)` replaced by `w`.
    pub fn rename_variables(&self, f: &impl Fn(&str) -> Option<String>) -> Expr {
        let r = |e: &Expr| Box::new(e.rename_variables(f));
        match self {
            Expr::Const(_) | Expr::Nondet => self.clone(),
            Expr::Var(name) => Expr::Var(f(name).unwrap_or_else(|| name.clone())),
            Expr::Not(a) => Expr::Not(r(a)),
            Expr::And(a, b) => Expr::And(r(a), r(b)),
            Expr::Or(a, b) => Expr::Or(r(a), r(b)),
            Expr::Xor(a, b) => Expr::Xor(r(a), r(b)),
            Expr::Eq(a, b) => Expr::Eq(r(a), r(b)),
            Expr::Implies(a, b) => Expr::Implies(r(a), r(b)),
            Expr::Choose(a, b) => Expr::Choose(r(a), r(b)),
        }
    }
    fn visit_variables<'a>(&'a self, f: &mut impl FnMut(&'a str)) {
        match self {
            Expr::Const(_) | Expr::Nondet => {}
            Expr::Var(name) => f(name),
            Expr::Not(a) => a.visit_variables(f),
            Expr::And(a, b)
            | Expr::Or(a, b)
            | Expr::Xor(a, b)
            | Expr::Eq(a, b)
            | Expr::Implies(a, b)
            | Expr::Choose(a, b) => {
                a.visit_variables(f);
                b.visit_variables(f);
            }
        }
    }
    /// True when the expression contains `*` or `choose`.
    pub fn is_nondeterministic(&self) -> bool {
        match self {
            Expr::Nondet | Expr::Choose(..) => true,
            Expr::Const(_) | Expr::Var(_) => false,
            Expr::Not(a) => a.is_nondeterministic(),
            Expr::And(a, b) | Expr::Or(a, b) | Expr::Xor(a, b) | Expr::Eq(a, b) | Expr::Implies(a, b) => {
                a.is_nondeterministic() || b.is_nondeterministic()
            }
        }
    }
    /// The set of values the expression can take under `lookup` (three-valued semantics):
    /// `(can_be_true, can_be_false)`.
    pub fn possible_values(&self, lookup: &impl Fn(&str) -> bool) -> (bool, bool) {
        match self {
            Expr::Const(b) => (*b, !*b),
            Expr::Var(name) => {
                let v = lookup(name);
                (v, !v)
            }
            Expr::Nondet => (true, true),
            Expr::Not(a) => {
                let (t, f) = a.possible_values(lookup);
                (f, t)
            }
            Expr::And(a, b) => {
                let (at, af) = a.possible_values(lookup);
                let (bt, bf) = b.possible_values(lookup);
                (at && bt, af || bf)
            }
            Expr::Or(a, b) => {
                let (at, af) = a.possible_values(lookup);
                let (bt, bf) = b.possible_values(lookup);
                (at || bt, af && bf)
            }
            Expr::Xor(a, b) => {
                let (at, af) = a.possible_values(lookup);
                let (bt, bf) = b.possible_values(lookup);
                ((at && bf) || (af && bt), (at && bt) || (af && bf))
            }
            Expr::Eq(a, b) => {
                let (at, af) = a.possible_values(lookup);
                let (bt, bf) = b.possible_values(lookup);
                ((at && bt) || (af && bf), (at && bf) || (af && bt))
            }
            Expr::Implies(a, b) => {
                let (at, af) = a.possible_values(lookup);
                let (bt, bf) = b.possible_values(lookup);
                (af || bt, at && bf)
            }
            Expr::Choose(pos, neg) => {
                let (pt, pf) = pos.possible_values(lookup);
                let (nt, nf) = neg.possible_values(lookup);
                // pos true -> true; pos false & neg true -> false; both false -> either.
                (pt || (pf && nf), pf && (nt || nf))
            }
        }
    }
}

impl Stmt {
    pub fn new(kind: StmtKind) -> Stmt {
        Stmt { kind, label: None, origin: None, span: Span::default() }
    }
    pub fn with_label(mut self, label: impl Into<String>) -> Stmt {
        self.label = Some(label.into());
        self
    }
    pub fn with_origin(mut self, origin: Origin) -> Stmt {
        self.origin = Some(origin);
        self
    }
    pub fn with_span(mut self, span: Span) -> Stmt {
        self.span = span;
        self
    }
    pub fn skip() -> Stmt {
        Stmt::new(StmtKind::Skip)
    }
    /// Parallel assignment; `lhs` and `rhs` must have the same length.
    pub fn assign(lhs: Vec<String>, rhs: Vec<Expr>) -> Stmt {
        Stmt::new(StmtKind::Assign { lhs, rhs })
    }
    pub fn assign_one(lhs: impl Into<String>, rhs: Expr) -> Stmt {
        Stmt::new(StmtKind::Assign { lhs: vec![lhs.into()], rhs: vec![rhs] })
    }
    pub fn assume(cond: Expr) -> Stmt {
        Stmt::new(StmtKind::Assume(cond))
    }
    pub fn assert(cond: Expr) -> Stmt {
        Stmt::new(StmtKind::Assert(cond))
    }
    pub fn goto(targets: Vec<String>) -> Stmt {
        Stmt::new(StmtKind::Goto(targets))
    }
    pub fn if_then_else(cond: Expr, then_branch: Vec<Stmt>, else_branch: Vec<Stmt>) -> Stmt {
        Stmt::new(StmtKind::If { cond, then_branch, else_branch })
    }
    pub fn while_loop(cond: Expr, body: Vec<Stmt>) -> Stmt {
        Stmt::new(StmtKind::While { cond, body })
    }
    pub fn call(lhs: Vec<String>, callee: impl Into<String>, args: Vec<Expr>) -> Stmt {
        Stmt::new(StmtKind::Call { lhs, callee: callee.into(), args })
    }
    pub fn ret(values: Vec<Expr>) -> Stmt {
        Stmt::new(StmtKind::Return(values))
    }
}

/// `{text}`: the name of the boolean variable standing for predicate `text`.
/// Characters that cannot appear inside braces (`}`, `{`, `;`, newlines) are replaced.
pub fn predicate_name(text: &str) -> String {
    let cleaned: String = text
        .chars()
        .map(|c| match c {
            '{' => '(',
            '}' => ')',
            ';' => ',',
            '\n' | '\r' => ' ',
            c => c,
        })
        .collect();
    format!("{{{}}}", cleaned.trim())
}

/// True for a plain identifier `[A-Za-z_$][A-Za-z0-9_$]*` (boom writes shared variables `$x`).
pub fn is_plain_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

/// True for a name the printers can print and the parser read back: a plain identifier that
/// is not a keyword, or `{text}` where `text` is non-empty and has no `{`, `}`, `;` or newline.
pub fn is_valid_variable_name(name: &str) -> bool {
    if let Some(inner) = name.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
        !inner.trim().is_empty() && !inner.contains(['{', '}', ';', '\n', '\r'])
    } else {
        is_plain_identifier(name) && !parse::is_keyword(name)
    }
}

/// Every statement of `body` in pre-order (a statement before the statements nested in it);
/// the position in this list is the statement's [`StmtId`].
pub fn statements_in_order(body: &[Stmt]) -> Vec<&Stmt> {
    fn walk<'a>(body: &'a [Stmt], out: &mut Vec<&'a Stmt>) {
        for stmt in body {
            out.push(stmt);
            match &stmt.kind {
                StmtKind::If { then_branch, else_branch, .. } => {
                    walk(then_branch, out);
                    walk(else_branch, out);
                }
                StmtKind::While { body, .. } => walk(body, out),
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    walk(body, &mut out);
    out
}

impl Program {
    pub fn proc_by_name(&self, name: &str) -> Option<(ProcId, &Procedure)> {
        self.procs.iter().enumerate().find(|(_, p)| p.name == name).map(|(i, p)| (ProcId(i as u32), p))
    }
    pub fn proc(&self, id: ProcId) -> &Procedure {
        &self.procs[id.0 as usize]
    }
    /// The procedure where execution starts: `main` if present, else the first one.
    pub fn entry_proc(&self) -> Option<ProcId> {
        self.proc_by_name("main").map(|(id, _)| id).or(if self.procs.is_empty() { None } else { Some(ProcId(0)) })
    }
    /// True when some procedure can (transitively) call itself.
    pub fn is_recursive(&self) -> bool {
        let n = self.procs.len();
        let callees: Vec<Vec<usize>> = self
            .procs
            .iter()
            .map(|p| {
                statements_in_order(&p.body)
                    .into_iter()
                    .filter_map(|s| match &s.kind {
                        StmtKind::Call { callee, .. } => self.proc_by_name(callee).map(|(id, _)| id.0 as usize),
                        _ => None,
                    })
                    .collect()
            })
            .collect();
        // Colour-based DFS for a cycle.
        let mut colour = vec![0u8; n];
        fn dfs(v: usize, callees: &[Vec<usize>], colour: &mut [u8]) -> bool {
            colour[v] = 1;
            for &w in &callees[v] {
                if colour[w] == 1 || (colour[w] == 0 && dfs(w, callees, colour)) {
                    return true;
                }
            }
            colour[v] = 2;
            false
        }
        (0..n).any(|v| colour[v] == 0 && dfs(v, &callees, &mut colour))
    }
}

impl Procedure {
    /// Formals then locals: the variables this procedure declares.
    pub fn local_names(&self) -> impl Iterator<Item = &String> {
        self.formals.iter().chain(self.locals.iter())
    }
}

/// A copy of `program` with every span reset, for comparing programs parsed from different texts.
pub fn strip_spans(mut program: Program) -> Program {
    fn walk(body: &mut [Stmt]) {
        for stmt in body {
            stmt.span = diagnostics::Span::default();
            match &mut stmt.kind {
                StmtKind::If { then_branch, else_branch, .. } => {
                    walk(then_branch);
                    walk(else_branch);
                }
                StmtKind::While { body, .. } => walk(body),
                _ => {}
            }
        }
    }
    for g in &mut program.globals {
        g.span = diagnostics::Span::default();
    }
    for p in &mut program.procs {
        p.span = diagnostics::Span::default();
        walk(&mut p.body);
    }
    program
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_parse_and_round_trip() {
        for text in [include_str!("../../../tests/boolprog/partition.bp"), include_str!("../../../tests/boolprog/testdev.bp")] {
            let (program, diags) = parse(text);
            assert!(diags.is_empty(), "{diags:?}");
            for printed in [print_bebop(&program), print_c_like(&program)] {
                let (again, diags) = parse(&printed.text);
                assert!(diags.is_empty(), "{diags:?}\n{}", printed.text);
                assert_eq!(strip_spans(again), strip_spans(program.clone()), "{}", printed.text);
            }
        }
    }
}
