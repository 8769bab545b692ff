//! Printers: the Bebop/Moped syntax of BOOP Fig 4.2 and the C-like form of C2BP Fig 1(b), with a line → statement map;
//! also the statement and expression syntax of boppo's dialect (see [`crate::dialect`]).

use crate::{Expr, Origin, ProcId, Program, Stmt, StmtId, StmtKind};

/// Printed text plus, for every printed statement, the line it starts on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Printed {
    pub text: String,
    /// Sorted by line.
    pub lines: Vec<LineInfo>,
}

/// The statement printed on 1-based `line`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineInfo {
    pub line: u32,
    pub proc: ProcId,
    pub stmt: StmtId,
    pub origin: Option<Origin>,
}

impl Printed {
    /// The statement printed on `line`, if any.
    pub fn stmt_at_line(&self, line: u32) -> Option<&LineInfo> {
        self.lines.iter().find(|info| info.line == line)
    }
    /// The line where statement `stmt` of `proc` is printed.
    pub fn line_of(&self, proc: ProcId, stmt: StmtId) -> Option<u32> {
        self.lines.iter().find(|info| info.proc == proc && info.stmt == stmt).map(|info| info.line)
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Syntax {
    Bebop,
    CLike,
    /// SatAbs' boppo: Bebop's statements with `;` after `fi`/`od` too, `T`/`F`, `schoose[a, b]`,
    /// and `=`, `!=`, `=>` binding weaker than `|` (always parenthesised when nested).
    Boppo,
}

struct Printer {
    syntax: Syntax,
    out: Vec<String>,
    lines: Vec<LineInfo>,
    proc: ProcId,
    next_stmt: u32,
}

/// Prints in the Bebop/Moped syntax (`decl`, `begin`/`end`, `if (*) then ... else ... fi`, `:=`).
pub fn print_bebop(program: &Program) -> Printed {
    print_program(program, Syntax::Bebop)
}

/// Prints in the C-like syntax of C2BP Fig 1(b) (`bool`, braces, `=`).
pub fn print_c_like(program: &Program) -> Printed {
    print_program(program, Syntax::CLike)
}

/// One expression in Bebop syntax.
pub fn print_expr_bebop(expr: &Expr) -> String {
    let mut s = String::new();
    write_expr(&mut s, expr, Syntax::Bebop);
    s
}

/// One expression in C-like syntax.
pub fn print_expr_c_like(expr: &Expr) -> String {
    let mut s = String::new();
    write_expr(&mut s, expr, Syntax::CLike);
    s
}

pub(crate) fn print_program(program: &Program, syntax: Syntax) -> Printed {
    let mut p = Printer { syntax, out: Vec::new(), lines: Vec::new(), proc: ProcId(0), next_stmt: 0 };
    if !program.globals.is_empty() {
        let names: Vec<&str> = program.globals.iter().map(|g| g.name.as_str()).collect();
        p.out.push(format!("{} {};", decl_keyword(syntax), names.join(", ")));
        p.out.push(String::new());
    }
    for (index, proc) in program.procs.iter().enumerate() {
        if index > 0 {
            p.out.push(String::new());
        }
        p.proc = ProcId(index as u32);
        p.next_stmt = 0;
        let ret = match proc.returns {
            0 => "void".to_string(),
            1 => "bool".to_string(),
            n => format!("bool<{n}>"),
        };
        let formals: Vec<String> = match syntax {
            Syntax::Bebop | Syntax::Boppo => proc.formals.clone(),
            Syntax::CLike => proc.formals.iter().map(|f| format!("bool {f}")).collect(),
        };
        match syntax {
            Syntax::Bebop | Syntax::Boppo => {
                p.out.push(format!("{ret} {}({})", proc.name, formals.join(", ")));
                p.out.push("begin".to_string());
            }
            Syntax::CLike => p.out.push(format!("{ret} {}({}) {{", proc.name, formals.join(", "))),
        }
        if !proc.locals.is_empty() {
            p.out.push(format!("  {} {};", decl_keyword(syntax), proc.locals.join(", ")));
        }
        if let Some(enforce) = &proc.enforce {
            let mut s = String::new();
            write_expr(&mut s, enforce, syntax);
            match syntax {
                Syntax::Bebop | Syntax::Boppo => p.out.push(format!("  enforce {s};")),
                Syntax::CLike => p.out.push(format!("  enforce({s});")),
            }
        }
        p.block(&proc.body, 1);
        p.out.push(match syntax {
            Syntax::Bebop | Syntax::Boppo => "end".to_string(),
            Syntax::CLike => "}".to_string(),
        });
    }
    let mut text = p.out.join("\n");
    text.push('\n');
    Printed { text, lines: p.lines }
}

fn decl_keyword(syntax: Syntax) -> &'static str {
    match syntax {
        Syntax::Bebop | Syntax::Boppo => "decl",
        Syntax::CLike => "bool",
    }
}

impl Printer {
    fn push_stmt_line(&mut self, stmt: &Stmt, id: StmtId, indent: usize, text: String) {
        let label = match &stmt.label {
            Some(l) => format!("{l}: "),
            None => String::new(),
        };
        self.out.push(format!("{}{label}{text}", "  ".repeat(indent)));
        self.lines.push(LineInfo { line: self.out.len() as u32, proc: self.proc, stmt: id, origin: stmt.origin });
    }

    fn line(&mut self, indent: usize, text: &str) {
        self.out.push(format!("{}{text}", "  ".repeat(indent)));
    }

    fn block(&mut self, body: &[Stmt], indent: usize) {
        for stmt in body {
            self.stmt(stmt, indent);
        }
    }

    fn exprs(&self, items: &[Expr]) -> String {
        items.iter().map(|e| self.expr(e)).collect::<Vec<_>>().join(", ")
    }

    fn expr(&self, e: &Expr) -> String {
        let mut s = String::new();
        write_expr(&mut s, e, self.syntax);
        s
    }

    fn cond(&self, e: &Expr) -> String {
        match e {
            Expr::Nondet => "*".to_string(),
            other => self.expr(other),
        }
    }

    fn stmt(&mut self, stmt: &Stmt, indent: usize) {
        let id = StmtId(self.next_stmt);
        self.next_stmt += 1;
        let syntax = self.syntax;
        let assign_op = if syntax == Syntax::CLike { "=" } else { ":=" };
        // boppo separates every two statements by `;`, also after `fi` and `od`.
        let close = |word: &str| if syntax == Syntax::Boppo { format!("{word};") } else { word.to_string() };
        match &stmt.kind {
            StmtKind::Skip => self.push_stmt_line(stmt, id, indent, "skip;".to_string()),
            StmtKind::Assign { lhs, rhs } => {
                let text = format!("{} {assign_op} {};", lhs.join(", "), self.exprs(rhs));
                self.push_stmt_line(stmt, id, indent, text)
            }
            StmtKind::Assume(e) => {
                let text = format!("assume({});", self.cond(e));
                self.push_stmt_line(stmt, id, indent, text)
            }
            StmtKind::Assert(e) => {
                let text = format!("assert({});", self.cond(e));
                self.push_stmt_line(stmt, id, indent, text)
            }
            StmtKind::Goto(targets) => {
                let text = format!("goto {};", targets.join(", "));
                self.push_stmt_line(stmt, id, indent, text)
            }
            StmtKind::Call { lhs, callee, args } => {
                let call = format!("{callee}({});", self.exprs(args));
                let text = if lhs.is_empty() { call } else { format!("{} {assign_op} {call}", lhs.join(", ")) };
                self.push_stmt_line(stmt, id, indent, text)
            }
            StmtKind::Return(values) => {
                let text = if values.is_empty() { "return;".to_string() } else { format!("return {};", self.exprs(values)) };
                self.push_stmt_line(stmt, id, indent, text)
            }
            StmtKind::If { cond, then_branch, else_branch } => {
                let c = self.cond(cond);
                match syntax {
                    Syntax::Bebop | Syntax::Boppo => {
                        self.push_stmt_line(stmt, id, indent, format!("if ({c}) then"));
                        self.block(then_branch, indent + 1);
                        if !else_branch.is_empty() {
                            self.line(indent, "else");
                            self.block(else_branch, indent + 1);
                        }
                        self.line(indent, &close("fi"));
                    }
                    Syntax::CLike => {
                        self.push_stmt_line(stmt, id, indent, format!("if ({c}) {{"));
                        self.block(then_branch, indent + 1);
                        if !else_branch.is_empty() {
                            self.line(indent, "} else {");
                            self.block(else_branch, indent + 1);
                        }
                        self.line(indent, "}");
                    }
                }
            }
            StmtKind::While { cond, body } => {
                let c = self.cond(cond);
                match syntax {
                    Syntax::Bebop | Syntax::Boppo => {
                        self.push_stmt_line(stmt, id, indent, format!("while ({c}) do"));
                        self.block(body, indent + 1);
                        self.line(indent, &close("od"));
                    }
                    Syntax::CLike => {
                        self.push_stmt_line(stmt, id, indent, format!("while ({c}) {{"));
                        self.block(body, indent + 1);
                        self.line(indent, "}");
                    }
                }
            }
        }
    }
}

/// Binding strength: `=>` 1 < `|` 2 < `&` 3 < `=`/`!=` 4 < unary/atoms 5. In boppo's grammar
/// `=>`, `=` and `!=` share the lowest level (SatAbs `src/bplang/parser.y`), so there they are 1.
fn precedence(e: &Expr, syntax: Syntax) -> u8 {
    match e {
        Expr::Implies(..) => 1,
        Expr::Or(..) => 2,
        Expr::And(..) => 3,
        Expr::Eq(..) | Expr::Xor(..) if syntax == Syntax::Boppo => 1,
        Expr::Eq(..) | Expr::Xor(..) => 4,
        _ => 5,
    }
}

fn same_op(a: &Expr, b: &Expr) -> bool {
    std::mem::discriminant(a) == std::mem::discriminant(b)
}

fn write_child(out: &mut String, parent: &Expr, child: &Expr, is_left: bool, syntax: Syntax) {
    let pp = precedence(parent, syntax);
    let cp = precedence(child, syntax);
    let needs = if syntax == Syntax::Boppo {
        // Every nested operator in parentheses but left-nested `&`/`|` chains: boppo's
        // precedences differ from Bebop's, and this text means the same in both.
        cp < 5 && !(is_left && same_op(parent, child) && matches!(child, Expr::And(..) | Expr::Or(..)))
    } else if cp < pp {
        true
    } else if cp == pp && cp < 5 {
        // Only left-nested `&`/`|` chains print without parentheses (the parser is left-associative).
        !(is_left && same_op(parent, child) && matches!(child, Expr::And(..) | Expr::Or(..)))
    } else {
        false
    };
    if needs {
        out.push('(');
        write_expr(out, child, syntax);
        out.push(')');
    } else {
        write_expr(out, child, syntax);
    }
}

fn write_expr(out: &mut String, e: &Expr, syntax: Syntax) {
    let (and, or, eq) = match syntax {
        Syntax::Bebop | Syntax::Boppo => (" & ", " | ", " = "),
        Syntax::CLike => (" && ", " || ", " == "),
    };
    match e {
        Expr::Const(b) => out.push_str(match (syntax, b) {
            (Syntax::Bebop, true) => "1",
            (Syntax::Bebop, false) => "0",
            (Syntax::Boppo, true) => "T",
            (Syntax::Boppo, false) => "F",
            (Syntax::CLike, true) => "true",
            (Syntax::CLike, false) => "false",
        }),
        Expr::Var(name) => out.push_str(name),
        Expr::Nondet => out.push_str(match syntax {
            Syntax::Bebop | Syntax::Boppo => "*",
            Syntax::CLike => "unknown()",
        }),
        Expr::Not(inner) => {
            out.push('!');
            if precedence(inner, syntax) < 5 {
                out.push('(');
                write_expr(out, inner, syntax);
                out.push(')');
            } else {
                write_expr(out, inner, syntax);
            }
        }
        Expr::Choose(pos, neg) => {
            let (open, close) = if syntax == Syntax::Boppo { ("schoose[", ']') } else { ("choose(", ')') };
            out.push_str(open);
            write_expr(out, pos, syntax);
            out.push_str(", ");
            write_expr(out, neg, syntax);
            out.push(close);
        }
        Expr::And(a, b) | Expr::Or(a, b) | Expr::Xor(a, b) | Expr::Eq(a, b) | Expr::Implies(a, b) => {
            let op = match e {
                Expr::And(..) => and,
                Expr::Or(..) => or,
                Expr::Xor(..) => " != ",
                Expr::Eq(..) => eq,
                _ => " => ",
            };
            write_child(out, e, a, true, syntax);
            out.push_str(op);
            write_child(out, e, b, false, syntax);
        }
    }
}
