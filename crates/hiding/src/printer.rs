//! A C pretty-printer for the (transformed) source tree: minimal parentheses by precedence
//! (comma expressions always parenthesised, as the paper prints them), four-space
//! indentation, and a map from each output line to the source line it came from.

use crate::model::*;
use diagnostics::Span;
use lang_c::ast::BinaryOperator as B;
use lang_c::ast::UnaryOperator as U;

/// Where a `NONDET` token was printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NondetMark {
    /// Byte offset in the output.
    pub offset: u32,
    /// 1-based output line.
    pub out_line: u32,
    /// The source expression it replaces.
    pub span: Span,
}

pub struct Printer {
    pub out: String,
    /// Source line of each output line (index = output line - 1; 0: none).
    pub line_map: Vec<u32>,
    pub nondets: Vec<NondetMark>,
    /// How `NONDET` is spelled.
    pub nondet: String,
    /// Variable names (index = `VarId`).
    names: Vec<String>,
    current: u32,
    indent: usize,
}

fn binary_op(op: &B) -> (&'static str, u8) {
    match op {
        B::Multiply => ("*", 13),
        B::Divide => ("/", 13),
        B::Modulo => ("%", 13),
        B::Plus => ("+", 12),
        B::Minus => ("-", 12),
        B::ShiftLeft => ("<<", 11),
        B::ShiftRight => (">>", 11),
        B::Less => ("<", 10),
        B::Greater => (">", 10),
        B::LessOrEqual => ("<=", 10),
        B::GreaterOrEqual => (">=", 10),
        B::Equals => ("==", 9),
        B::NotEquals => ("!=", 9),
        B::BitwiseAnd => ("&", 8),
        B::BitwiseXor => ("^", 7),
        B::BitwiseOr => ("|", 6),
        B::LogicalAnd => ("&&", 5),
        B::LogicalOr => ("||", 4),
        _ => ("?", 13),
    }
}

fn unary_op(op: &U) -> &'static str {
    match op {
        U::Address => "&",
        U::Indirection => "*",
        U::Plus => "+",
        U::Minus => "-",
        U::Complement => "~",
        U::Negate => "!",
        _ => "",
    }
}

fn precedence(e: &Expr) -> u8 {
    match &e.kind {
        ExprKind::Comma(_) => 16,
        ExprKind::Assign(..) => 2,
        ExprKind::Cond(..) => 3,
        ExprKind::Binary(op, ..) => binary_op(op).1,
        ExprKind::Unary(..) | ExprKind::Cast { .. } | ExprKind::SizeofExpr(_) | ExprKind::SizeofType(_) => 14,
        ExprKind::IncDec(IncDec::PreInc | IncDec::PreDec, _) => 14,
        ExprKind::IncDec(..) | ExprKind::Call { .. } | ExprKind::Index(..) | ExprKind::Member { .. } => 15,
        ExprKind::Verbatim(_) => 1,
        _ => 16,
    }
}

impl Printer {
    pub fn new(program: &Program, nondet: &str) -> Printer {
        let names = program.vars.iter().map(|v| v.name.clone()).collect();
        Printer { out: String::new(), line_map: Vec::new(), nondets: Vec::new(), nondet: nondet.to_string(), names, current: 0, indent: 0 }
    }

    pub fn set_source_line(&mut self, line: u32) {
        self.current = line;
    }

    /// Appends text (may contain newlines; each output line gets the current source line).
    pub fn write(&mut self, text: &str) {
        for (i, part) in text.split('\n').enumerate() {
            if i > 0 {
                self.newline();
            }
            if !part.is_empty() {
                if self.line_map.is_empty() {
                    self.line_map.push(self.current);
                }
                self.out.push_str(part);
            }
        }
    }

    pub fn newline(&mut self) {
        if self.line_map.is_empty() {
            self.line_map.push(self.current);
        }
        self.out.push('\n');
        self.line_map.push(self.current);
    }

    fn out_line(&self) -> u32 {
        self.line_map.len().max(1) as u32
    }

    pub fn start_line(&mut self) {
        if !self.out.is_empty() && !self.out.ends_with('\n') {
            self.newline();
        }
        if let Some(last) = self.line_map.last_mut() {
            *last = self.current;
        }
        let pad = "    ".repeat(self.indent);
        self.write(&pad);
    }

    /// Removes the trailing empty line entry when the output ends with a newline.
    pub fn finish(mut self) -> (String, Vec<u32>, Vec<NondetMark>) {
        if !self.out.ends_with('\n') {
            self.newline();
        }
        self.line_map.pop();
        (self.out, self.line_map, self.nondets)
    }

    // ------------------------------------------------------------ expressions

    pub fn expr(&mut self, e: &Expr, min: u8) {
        let p = precedence(e);
        let paren = p < min;
        if paren {
            self.write("(");
        }
        self.expr_inner(e);
        if paren {
            self.write(")");
        }
    }

    fn expr_inner(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Var(_) | ExprKind::FuncName(_) | ExprKind::Lit { .. } | ExprKind::Verbatim(_) => {
                let text = self.leaf_text(e);
                self.write(&text)
            }
            ExprKind::Nondet => {
                self.nondets.push(NondetMark { offset: self.out.len() as u32, out_line: self.out_line(), span: e.span });
                let n = self.nondet.clone();
                self.write(&n);
            }
            ExprKind::Member { base, field, arrow } => {
                self.expr(base, 15);
                self.write(if *arrow { "->" } else { "." });
                self.write(field);
            }
            ExprKind::Index(a, i) => {
                self.expr(a, 15);
                self.write("[");
                self.expr(i, 1);
                self.write("]");
            }
            ExprKind::Unary(op, x) => {
                let sym = unary_op(op);
                self.write(sym);
                let start = self.out.len();
                self.expr(x, 14);
                if matches!(op, U::Plus | U::Minus | U::Address) && self.out[start..].starts_with(['+', '-', '&']) {
                    self.out.insert(start, ' ');
                }
            }
            ExprKind::IncDec(k, x) => match k {
                IncDec::PreInc | IncDec::PreDec => {
                    self.write(if *k == IncDec::PreInc { "++" } else { "--" });
                    self.expr(x, 14);
                }
                _ => {
                    self.expr(x, 15);
                    self.write(if *k == IncDec::PostInc { "++" } else { "--" });
                }
            },
            ExprKind::Binary(op, a, b) => {
                let (sym, p) = binary_op(op);
                self.expr(a, p);
                self.write(&format!(" {sym} "));
                self.expr(b, p + 1);
            }
            ExprKind::Assign(op, a, b) => {
                self.expr(a, 14);
                let sym = op.as_ref().map(|o| binary_op(o).0).unwrap_or("");
                self.write(&format!(" {sym}= "));
                self.expr(b, 2);
            }
            ExprKind::Call { callee, args } => {
                match callee {
                    Callee::Direct(name) => self.write(name),
                    Callee::Indirect(c) => self.expr(c, 15),
                }
                self.write("(");
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        self.write(", ");
                    }
                    self.expr(a, 2);
                }
                self.write(")");
            }
            ExprKind::Cond(c, t, f) => {
                self.expr(c, 4);
                self.write(" ? ");
                self.expr(t, 1);
                self.write(" : ");
                self.expr(f, 3);
            }
            ExprKind::Comma(items) => {
                self.write("(");
                for (i, x) in items.iter().enumerate() {
                    if i > 0 {
                        self.write(", ");
                    }
                    self.expr(x, 2);
                }
                self.write(")");
            }
            ExprKind::Cast { type_text, e: x } => {
                self.write(&format!("({type_text})"));
                self.expr(x, 14);
            }
            ExprKind::SizeofType(t) => self.write(&format!("sizeof({t})")),
            ExprKind::SizeofExpr(x) => {
                self.write("sizeof(");
                self.expr(x, 1);
                self.write(")");
            }
        }
    }

    fn leaf_text(&self, e: &Expr) -> String {
        match &e.kind {
            ExprKind::Var(v) => self.names.get(v.0 as usize).cloned().unwrap_or_default(),
            ExprKind::FuncName(n) => n.clone(),
            ExprKind::Lit { text, .. } | ExprKind::Verbatim(text) => text.clone(),
            _ => String::new(),
        }
    }

    // ------------------------------------------------------------ statements

    pub fn init(&mut self, init: &Init) {
        match init {
            Init::Expr(e) => self.expr(e, 2),
            Init::List(items) => {
                self.write("{ ");
                for (i, (designation, item)) in items.iter().enumerate() {
                    if i > 0 {
                        self.write(", ");
                    }
                    self.write(designation);
                    self.init(item);
                }
                self.write(" }");
            }
        }
    }

    /// `specifiers d1 = i1, d2;` on the current line.
    pub fn decl_inline(&mut self, d: &Decl) {
        if let Some(text) = &d.verbatim {
            self.write(text);
            return;
        }
        self.write(&d.specifiers);
        for (i, dl) in d.declarators.iter().enumerate() {
            self.write(if i == 0 { " " } else { ", " });
            self.write(&dl.text);
            if let Some(init) = &dl.init {
                self.write(" = ");
                self.init(init);
            }
        }
        if !d.verbatim.as_ref().is_some_and(|t| t.ends_with(';')) {
            self.write(";");
        }
    }

    pub fn decl(&mut self, d: &Decl) {
        self.set_source_line(d.line);
        self.start_line();
        self.decl_inline(d);
    }

    pub fn item(&mut self, item: &Item) {
        match item {
            Item::Decl(d) => self.decl(d),
            Item::Stmt(s) => self.stmt(s),
        }
    }

    pub fn block(&mut self, items: &[Item], end_line: u32) {
        self.write("{");
        self.indent += 1;
        for item in items {
            self.item(item);
        }
        self.indent -= 1;
        self.set_source_line(end_line);
        self.start_line();
        self.write("}");
    }

    /// A statement nested under `if`/`while`/...: a block stays on the line, others go below.
    fn body(&mut self, s: &Stmt) {
        if let StmtKind::Block(items) = &s.kind {
            self.write(" ");
            self.block(items, s.end_line);
        } else {
            self.indent += 1;
            self.stmt(s);
            self.indent -= 1;
        }
    }

    pub fn stmt(&mut self, s: &Stmt) {
        self.set_source_line(s.line);
        self.start_line();
        match &s.kind {
            StmtKind::Block(items) => self.block(items, s.end_line),
            StmtKind::Expr(None) => self.write(";"),
            StmtKind::Expr(Some(e)) => {
                self.expr(e, 1);
                self.write(";");
            }
            StmtKind::If(c, t, f) => {
                self.write("if (");
                self.expr(c, 1);
                self.write(")");
                self.body(t);
                if let Some(f) = f {
                    self.set_source_line(f.line);
                    self.start_line();
                    self.write("else");
                    self.body(f);
                }
            }
            StmtKind::While(c, b) => {
                self.write("while (");
                self.expr(c, 1);
                self.write(")");
                self.body(b);
            }
            StmtKind::DoWhile(b, c) => {
                self.write("do");
                self.body(b);
                self.start_line();
                self.write("while (");
                self.expr(c, 1);
                self.write(");");
            }
            StmtKind::For(init, c, step, b) => {
                self.write("for (");
                match &**init {
                    ForInit::Empty => self.write(";"),
                    ForInit::Expr(e) => {
                        self.expr(e, 1);
                        self.write(";");
                    }
                    ForInit::Decl(d) => self.decl_inline(d),
                }
                if let Some(c) = c {
                    self.write(" ");
                    self.expr(c, 1);
                }
                self.write(";");
                if let Some(st) = step {
                    self.write(" ");
                    self.expr(st, 1);
                }
                self.write(")");
                self.body(b);
            }
            StmtKind::Switch(c, b) => {
                self.write("switch (");
                self.expr(c, 1);
                self.write(")");
                self.body(b);
            }
            StmtKind::Labeled(label, b) => {
                self.write(label);
                self.indent += 1;
                self.stmt(b);
                self.indent -= 1;
            }
            StmtKind::Goto(l) => self.write(&format!("goto {l};")),
            StmtKind::Continue => self.write("continue;"),
            StmtKind::Break => self.write("break;"),
            StmtKind::Return(None) => self.write("return;"),
            StmtKind::Return(Some(e)) => {
                self.write("return ");
                self.expr(e, 1);
                self.write(";");
            }
            StmtKind::Verbatim(t) => self.write(t),
        }
    }
}

/// Prints one expression (for logs and tests).
pub fn expr_to_string(program: &Program, e: &Expr) -> String {
    let mut p = Printer::new(program, "NONDET");
    p.expr(e, 1);
    p.out
}
