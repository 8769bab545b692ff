//! Exports of a boolean program to the input languages of two other boolean-program model
//! checkers, so that a verdict can be cross-checked (issue 32; SPIN's Promela is in
//! [`crate::promela`]).
//!
//! **boppo**, the model checker of SatAbs. The grammar is SatAbs' own, `src/bplang/scanner.l`
//! and `src/bplang/parser.y` with the typechecker `src/bplang/bp_typecheck_{code,expr}.cpp`
//! (github.com/martin-cs/SATABS), and its inputs under `regression/boppo/`. It differs from
//! the Bebop text of [`crate::print_bebop`] in:
//! - every two statements are separated by `;`, also after `fi` and `od`;
//! - constants are `T`/`F`; nondeterministic choice is `schoose[pos, neg]`, which boppo reads
//!   as `(* & !neg) | pos`, our `choose(pos, neg)` (boppo has no `choose(...)`);
//! - `=>`, `=` and `!=` share the lowest precedence, below `|` and `&` (Bebop puts `=` above
//!   `&`), so they are parenthesised whenever nested;
//! - `assert(e)` and `assume(e)` are calls of built-in procedures (the same text);
//! - identifiers are `[$A-Za-z_][A-Za-z0-9_$#-]*`: predicate names such as `{x<5}` cannot be
//!   written, so they are renamed `b0`, `b1`, ... (SatAbs' own convention), and so are names
//!   that boppo reserves (`dead`, `constrain`, `sync`, `dfs`, `T`, `_`, ...); a comment at the
//!   top maps every new name back;
//! - a label `ERROR` is not an error for boppo (SatAbs disabled that check), so the closest
//!   sound equivalent is printed: an `assert(F)` under the label, before the labelled statement.
//!
//! `enforce e;` after the declarations, multiple assignment, calls with several results,
//! `bool<n>` procedures, `goto` with several targets, `while` and `skip` are written as in
//! Bebop. boppo's `constrain`, `dead` and primed names have no counterpart in our AST (the
//! parser desugars `constrain` into assignments and `assume`, and drops `dead`), so they never
//! appear in the output.
//!
//! **Moped** (Esparza and Schwoon's pushdown model checker; `moped -b FILE LABEL` reads a
//! boolean program and answers whether `LABEL` is reachable). Its boolean-program input is the
//! Bebop syntax of BOOP Fig 4.2 that SLAM's c2bp wrote and that [`crate::print_bebop`] prints:
//! `decl`, `begin`/`end`, `if (e) then ... else ... fi`, `while (e) do ... od`, `:=`,
//! `choose(pos, neg)`, `enforce`, `assume`, and, which we never print, `constrain`, `dead` and
//! primed names (Moped writes `x'`; our parser reads both forms). Moped's grammar itself is not
//! among the sources we could consult, so the text is otherwise our Bebop text unchanged. What
//! does differ is the question: Moped asks whether a label is reachable, so every `assert(e)`
//! becomes `if (!(e)) then predabs_fail(); fi`, a statement labelled `ERROR`/`SLIC_ERROR` is
//! preceded by the same call (under its label), and the new procedure `predabs_fail` holds one
//! statement labelled [`MOPED_ERROR_LABEL`]. That label is reachable exactly when the program
//! is unsafe in our sense (an assertion can fail or an error label is reachable). Names that
//! clash with the two new ones are renamed.

use std::collections::{BTreeMap, BTreeSet};

use crate::print::{print_program, Syntax};
use crate::{Expr, Procedure, Program, Stmt, StmtKind, VarDecl, ERROR_LABELS};

/// The label whose reachability `moped -b` is asked about in [`print_moped`]'s output.
pub const MOPED_ERROR_LABEL: &str = "predabs_error";

/// The procedure, added by [`print_moped`], that holds [`MOPED_ERROR_LABEL`].
const MOPED_FAIL_PROC: &str = "predabs_fail";

/// Words boppo's scanner reserves, and the names its typechecker reads as constants (`T`, `F`)
/// or as "ignore this result" (`_`); `assert` and `assume` are its built-in procedures.
const BOPPO_RESERVED: &[&str] = &[
    "begin", "end", "decl", "void", "bool", "goto", "while", "do", "skip", "od", "enforce", "abortif", "start_thread",
    "end_thread", "thread_local", "sync", "atomic_begin", "atomic_end", "constrain", "dead", "return", "if", "then",
    "else", "elsif", "fi", "dfs", "schoose", "T", "F", "_", "assert", "assume",
];

/// Another model checker's input language for boolean programs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Dialect {
    /// Moped's `-b` input (Bebop syntax), the error as reachability of [`MOPED_ERROR_LABEL`].
    Moped,
    /// The input language of SatAbs' boppo.
    Boppo,
}

impl Dialect {
    pub const ALL: [Dialect; 2] = [Dialect::Moped, Dialect::Boppo];

    /// The tool's name, as on its command line.
    pub fn tool(self) -> &'static str {
        match self {
            Dialect::Moped => "moped",
            Dialect::Boppo => "boppo",
        }
    }

    /// The end of a downloaded file's name: `iteration-2` + `.moped.bp`.
    pub fn file_suffix(self) -> &'static str {
        match self {
            Dialect::Moped => ".moped.bp",
            Dialect::Boppo => ".boppo.bp",
        }
    }

    /// The shell command that checks `file` (the output of [`print_dialect`]) with the tool:
    /// Moped answers `Reachable.` when the program is unsafe and `Not reachable.` when it is
    /// safe; boppo checks every `assert` from `main`.
    pub fn command(self, file: &str) -> String {
        match self {
            Dialect::Moped => format!("moped -b {file} {MOPED_ERROR_LABEL}"),
            Dialect::Boppo => format!("boppo {file}"),
        }
    }
}

/// `program` in boppo's dialect (see the module docs).
pub fn print_boppo(program: &Program) -> String {
    print_dialect(program, Dialect::Boppo)
}

/// `program` as Moped's input, the error as reachability of [`MOPED_ERROR_LABEL`].
pub fn print_moped(program: &Program) -> String {
    print_dialect(program, Dialect::Moped)
}

/// `program` in `dialect`. Deterministic; never panics.
pub fn print_dialect(program: &Program, dialect: Dialect) -> String {
    let mut rewriter = Rewriter::new(program, dialect);
    let rewritten = rewriter.program(program);
    match dialect {
        Dialect::Moped => print_program(&rewritten, Syntax::Bebop).text,
        Dialect::Boppo => {
            let mut text = String::from("// A boolean program in the input language of SatAbs' boppo, printed by predabs.\n");
            if !rewriter.renamed.is_empty() {
                text.push_str("// Renamed (boppo's identifiers are [$A-Za-z_][A-Za-z0-9_$#-]*), new = old:\n");
                let mut pairs: Vec<(&String, &String)> = rewriter.renamed.iter().map(|(old, new)| (new, old)).collect();
                pairs.sort_by_key(|(new, _)| fresh_index(new));
                for (new, old) in pairs {
                    text.push_str(&format!("// {new} = {old}\n"));
                }
            }
            if rewriter.error_labels {
                text.push_str("// boppo does not report reaching a label ERROR: each such label is on an assert(F).\n");
            }
            text.push('\n');
            text.push_str(&print_program(&rewritten, Syntax::Boppo).text);
            text
        }
    }
}

/// The fresh names are `b<n>`; sorting by `n` lists them in the order they were made.
fn fresh_index(name: &str) -> (usize, String) {
    (name.strip_prefix('b').and_then(|n| n.parse().ok()).unwrap_or(usize::MAX), name.to_string())
}

/// True for a name boppo's scanner reads as one identifier and its typechecker as a variable,
/// procedure or label.
fn is_boppo_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '#' | '-'))
        && !BOPPO_RESERVED.contains(&name)
}

struct Rewriter {
    dialect: Dialect,
    /// Every name the program spells (fresh names avoid them).
    taken: BTreeSet<String>,
    /// Old name → new name.
    renamed: BTreeMap<String, String>,
    next: usize,
    /// A statement was labelled with one of [`ERROR_LABELS`].
    error_labels: bool,
}

impl Rewriter {
    fn new(program: &Program, dialect: Dialect) -> Rewriter {
        let mut taken = BTreeSet::new();
        collect_names(program, &mut taken);
        taken.insert(MOPED_FAIL_PROC.to_string());
        taken.insert(MOPED_ERROR_LABEL.to_string());
        Rewriter { dialect, taken, renamed: BTreeMap::new(), next: 0, error_labels: false }
    }

    fn needs_new_name(&self, name: &str) -> bool {
        match self.dialect {
            Dialect::Boppo => !is_boppo_identifier(name),
            Dialect::Moped => name == MOPED_FAIL_PROC || name == MOPED_ERROR_LABEL,
        }
    }

    /// The name `name` is printed as (the same for a variable, a procedure and a label).
    fn name(&mut self, name: &str) -> String {
        if !self.needs_new_name(name) {
            return name.to_string();
        }
        if let Some(new) = self.renamed.get(name) {
            return new.clone();
        }
        let new = loop {
            let candidate = format!("b{}", self.next);
            self.next += 1;
            if !self.taken.contains(&candidate) {
                break candidate;
            }
        };
        self.taken.insert(new.clone());
        self.renamed.insert(name.to_string(), new.clone());
        new
    }

    fn names(&mut self, names: &[String]) -> Vec<String> {
        names.iter().map(|n| self.name(n)).collect()
    }

    fn expr(&mut self, e: &Expr) -> Expr {
        // Name every variable first (the closure below cannot make fresh names).
        for v in e.variables() {
            self.name(v);
        }
        e.rename_variables(&|v: &str| self.renamed.get(v).cloned())
    }

    fn exprs(&mut self, items: &[Expr]) -> Vec<Expr> {
        items.iter().map(|e| self.expr(e)).collect()
    }

    fn program(&mut self, program: &Program) -> Program {
        let globals = program.globals.iter().map(|g| VarDecl { name: self.name(&g.name), span: g.span }).collect();
        let mut procs: Vec<Procedure> = program.procs.iter().map(|p| self.procedure(p)).collect();
        if self.dialect == Dialect::Moped {
            let mut fail = Procedure::new(MOPED_FAIL_PROC);
            fail.body = vec![Stmt::skip().with_label(MOPED_ERROR_LABEL)];
            procs.push(fail);
        }
        Program { globals, procs }
    }

    fn procedure(&mut self, proc: &Procedure) -> Procedure {
        Procedure {
            name: self.name(&proc.name),
            formals: self.names(&proc.formals),
            locals: self.names(&proc.locals),
            returns: proc.returns,
            enforce: proc.enforce.as_ref().map(|e| self.expr(e)),
            body: self.block(&proc.body),
            span: proc.span,
        }
    }

    fn block(&mut self, body: &[Stmt]) -> Vec<Stmt> {
        let mut out = Vec::with_capacity(body.len());
        for stmt in body {
            let mut new = Stmt { kind: self.kind(&stmt.kind), label: None, origin: stmt.origin, span: stmt.span };
            let label = stmt.label.as_ref().map(|l| self.name(l));
            if stmt.label.as_deref().is_some_and(|l| ERROR_LABELS.contains(&l)) {
                self.error_labels = true;
                let mut marker = match self.dialect {
                    Dialect::Boppo => Stmt::assert(Expr::ff()),
                    Dialect::Moped => Stmt::call(Vec::new(), MOPED_FAIL_PROC, Vec::new()),
                };
                marker.label = label;
                marker.origin = stmt.origin;
                marker.span = stmt.span;
                out.push(marker);
            } else {
                new.label = label;
            }
            out.push(new);
        }
        out
    }

    fn kind(&mut self, kind: &StmtKind) -> StmtKind {
        match kind {
            StmtKind::Skip => StmtKind::Skip,
            StmtKind::Assign { lhs, rhs } => StmtKind::Assign { lhs: self.names(lhs), rhs: self.exprs(rhs) },
            StmtKind::Assume(e) => StmtKind::Assume(self.expr(e)),
            StmtKind::Assert(e) => {
                let e = self.expr(e);
                match self.dialect {
                    Dialect::Boppo => StmtKind::Assert(e),
                    Dialect::Moped => StmtKind::If {
                        cond: Expr::not(e),
                        then_branch: vec![Stmt::call(Vec::new(), MOPED_FAIL_PROC, Vec::new())],
                        else_branch: Vec::new(),
                    },
                }
            }
            StmtKind::Goto(targets) => StmtKind::Goto(self.names(targets)),
            StmtKind::If { cond, then_branch, else_branch } => StmtKind::If {
                cond: self.expr(cond),
                then_branch: self.block(then_branch),
                else_branch: self.block(else_branch),
            },
            StmtKind::While { cond, body } => StmtKind::While { cond: self.expr(cond), body: self.block(body) },
            StmtKind::Call { lhs, callee, args } => {
                StmtKind::Call { lhs: self.names(lhs), callee: self.name(callee), args: self.exprs(args) }
            }
            StmtKind::Return(values) => StmtKind::Return(self.exprs(values)),
        }
    }
}

/// Every name `program` spells: variables, procedures, labels, goto targets, callees.
fn collect_names(program: &Program, out: &mut BTreeSet<String>) {
    fn exprs<'a>(items: impl IntoIterator<Item = &'a Expr>, out: &mut BTreeSet<String>) {
        for e in items {
            out.extend(e.variables().into_iter().map(str::to_string));
        }
    }
    fn block(body: &[Stmt], out: &mut BTreeSet<String>) {
        for stmt in body {
            out.extend(stmt.label.iter().cloned());
            match &stmt.kind {
                StmtKind::Skip => {}
                StmtKind::Assign { lhs, rhs } => {
                    out.extend(lhs.iter().cloned());
                    exprs(rhs, out);
                }
                StmtKind::Assume(e) | StmtKind::Assert(e) => exprs([e], out),
                StmtKind::Goto(targets) => out.extend(targets.iter().cloned()),
                StmtKind::If { cond, then_branch, else_branch } => {
                    exprs([cond], out);
                    block(then_branch, out);
                    block(else_branch, out);
                }
                StmtKind::While { cond, body } => {
                    exprs([cond], out);
                    block(body, out);
                }
                StmtKind::Call { lhs, callee, args } => {
                    out.extend(lhs.iter().cloned());
                    out.insert(callee.clone());
                    exprs(args, out);
                }
                StmtKind::Return(values) => exprs(values, out),
            }
        }
    }
    out.extend(program.globals.iter().map(|g| g.name.clone()));
    for proc in &program.procs {
        out.insert(proc.name.clone());
        out.extend(proc.local_names().cloned());
        exprs(proc.enforce.iter(), out);
        block(&proc.body, out);
    }
}
