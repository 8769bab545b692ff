//! The parser for both boolean-program syntaxes (Bebop/Moped `begin ... end` and C-like braces), mixed freely; never panics, reports diagnostics.

use diagnostics::{Diagnostic, Span};

use crate::{Expr, Procedure, Program, Stmt, StmtKind, VarDecl};

const KEYWORDS: &[&str] = &[
    "decl", "bool", "void", "begin", "end", "if", "then", "else", "elsif", "elif", "fi", "while", "do", "od", "skip",
    "goto", "return", "assume", "assert", "call", "enforce", "abortif", "choose", "schoose", "unknown", "true", "false",
    "T", "F",
];

/// True for the reserved words of either syntax.
pub(crate) fn is_keyword(word: &str) -> bool {
    KEYWORDS.contains(&word)
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Ident(String),
    Number(String),
    Punct(&'static str),
    Eof,
}

#[derive(Clone, Debug)]
struct Token {
    tok: Tok,
    span: Span,
}

const PUNCTS: &[&str] = &[
    ":=", "==", "!=", "=>", "&&", "||", "(", ")", "{", "}", "[", "]", ",", ";", ":", "=", "!", "~", "&", "|", "^", "<",
    ">", "*", "?",
];

fn lex(text: &str, diags: &mut Vec<Diagnostic>) -> Vec<Token> {
    let bytes = text.as_bytes();
    let mut i = 0usize;
    let mut out = Vec::new();
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if text[i..].starts_with("//") || c == b'#' {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if text[i..].starts_with("/*") {
            match text[i + 2..].find("*/") {
                Some(end) => i = i + 2 + end + 2,
                None => {
                    diags.push(Diagnostic::error(Span::new(i as u32, text.len() as u32), "unterminated comment"));
                    i = bytes.len();
                }
            }
            continue;
        }
        let start = i;
        // `'x` / `'{p}`: the value of `x` after an assignment, inside a `constrain` clause.
        let primed = c == b'\''
            && i + 1 < bytes.len()
            && (bytes[i + 1].is_ascii_alphabetic() || matches!(bytes[i + 1], b'_' | b'$' | b'{'));
        if primed {
            i += 1;
        }
        let c = bytes[i];
        if c == b'{' {
            // `{text}` is a predicate identifier when the text up to the next `}` is non-empty
            // and has no `;`, `{`, newline or comment; otherwise `{` opens a block.
            if let Some(close) = text[i + 1..].find('}') {
                let inner = &text[i + 1..i + 1 + close];
                if !inner.trim().is_empty()
                    && !inner.contains([';', '{', '\n', '\r'])
                    && !inner.contains("//")
                    && !inner.contains("/*")
                {
                    i = i + 1 + close + 1;
                    out.push(identifier(text, start, &mut i, primed));
                    continue;
                }
            }
            if primed {
                // `'` before a `{` that does not form a predicate name: report the quote.
                i = start;
            }
        }
        if c.is_ascii_alphabetic() || c == b'_' || c == b'$' {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'$') {
                i += 1;
            }
            out.push(identifier(text, start, &mut i, primed));
            continue;
        }
        if c.is_ascii_digit() {
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            out.push(Token { tok: Tok::Number(text[start..i].to_string()), span: Span::new(start as u32, i as u32) });
            continue;
        }
        if let Some(p) = PUNCTS.iter().find(|p| text[i..].starts_with(**p)) {
            i += p.len();
            out.push(Token { tok: Tok::Punct(p), span: Span::new(start as u32, i as u32) });
            continue;
        }
        let ch_len = text[i..].chars().next().map(char::len_utf8).unwrap_or(1);
        diags.push(Diagnostic::error(
            Span::new(i as u32, (i + ch_len) as u32),
            format!("unexpected character `{}`", &text[i..i + ch_len]),
        ));
        i += ch_len;
    }
    out.push(Token { tok: Tok::Eof, span: Span::at(text.len() as u32) });
    out
}

/// The identifier `text[start..*end]`. An unprimed name directly followed by `'` (Moped's and
/// c2s's `x'`, the same as Bebop's `'x`) takes the quote along, written in the prefix form.
fn identifier(text: &str, start: usize, end: &mut usize, primed: bool) -> Token {
    let bytes = text.as_bytes();
    let mut name = text[start..*end].to_string();
    let suffix = !primed
        && bytes.get(*end) == Some(&b'\'')
        && !bytes.get(*end + 1).is_some_and(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'{'));
    if suffix {
        name.insert(0, '\'');
        *end += 1;
    }
    Token { tok: Tok::Ident(name), span: Span::new(start as u32, *end as u32) }
}

struct Parser {
    /// The depth errors reported so far (each once per file).
    depth_reported: Vec<&'static str>,
    /// Index in `diags` of the first depth error: the diagnostics after it are consequences
    /// of skipping the nest (a stray `fi` for each of thousands of levels) and are dropped.
    first_depth_error: Option<usize>,
    toks: Vec<Token>,
    pos: usize,
    diags: Vec<Diagnostic>,
    depth: u32,
    /// Inside a `constrain` clause, where primed names (`'x`) are allowed.
    in_constrain: bool,
    /// Statements that follow the one just parsed (the desugaring of `constrain`).
    pending: Vec<StmtKind>,
    /// Locals introduced by desugaring in the procedure being parsed.
    extra_locals: Vec<String>,
    /// Counter for fresh names.
    fresh: u32,
    /// `enforce` statements met inside the body of the procedure being parsed.
    body_enforce: Vec<Expr>,
}

const MAX_DEPTH: u32 = 256;
/// Nesting of statements (blocks, `if`, `while`, `elsif` chains), below [`MAX_DEPTH`] by the
/// room an innermost condition needs.
const MAX_STATEMENT_DEPTH: u32 = MAX_DEPTH - 64;

/// Keywords that close a Bebop block: statement recovery stops there, and the statement
/// before one may omit its `;` (boom).
const BLOCK_CLOSERS: &[&str] = &["end", "fi", "od", "else", "elsif", "elif"];

/// Parses a boolean program in either syntax. Always returns a program (possibly partial);
/// syntax errors and validation problems (see [`crate::validate`]) come back as diagnostics.
pub fn parse(text: &str) -> (Program, Vec<Diagnostic>) {
    let (program, mut diags) = parse_syntax(text);
    if !diagnostics::has_errors(&diags) {
        diags.extend(crate::validate(&program));
    }
    (program, diags)
}

/// Parses without validating: only syntax errors are reported.
pub fn parse_syntax(text: &str) -> (Program, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let toks = lex(text, &mut diags);
    let mut p = Parser { toks, pos: 0, diags, depth: 0, depth_reported: Vec::new(), first_depth_error: None, in_constrain: false, pending: Vec::new(), extra_locals: Vec::new(), fresh: 0,
        body_enforce: Vec::new() };
    let mut program = p.program();
    if let Some(first) = p.first_depth_error {
        p.diags.truncate(first + 1);
    }
    if program.proc_by_name("print").is_none() {
        for proc in &mut program.procs {
            drop_print(&mut proc.body);
        }
    }
    (program, p.diags)
}

/// `print(e, ...);` (c2s's and Moped's debugging output) is a `skip` unless the program
/// defines a procedure `print` itself.
fn drop_print(body: &mut [Stmt]) {
    for stmt in body {
        match &mut stmt.kind {
            StmtKind::Call { lhs, callee, .. } if callee == "print" && lhs.is_empty() => stmt.kind = StmtKind::Skip,
            StmtKind::If { then_branch, else_branch, .. } => {
                drop_print(then_branch);
                drop_print(else_branch);
            }
            StmtKind::While { body, .. } => drop_print(body),
            _ => {}
        }
    }
}

type PResult<T> = Result<T, ()>;

impl Parser {
    fn peek(&self) -> &Tok {
        &self.toks[self.pos].tok
    }
    fn peek_at(&self, n: usize) -> &Tok {
        &self.toks[(self.pos + n).min(self.toks.len() - 1)].tok
    }
    fn span(&self) -> Span {
        self.toks[self.pos].span
    }
    fn prev_span(&self) -> Span {
        self.toks[self.pos.saturating_sub(1)].span
    }
    fn bump(&mut self) -> Token {
        let t = self.toks[self.pos].clone();
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        t
    }
    fn is_punct(&self, p: &str) -> bool {
        matches!(self.peek(), Tok::Punct(q) if *q == p)
    }
    fn is_word(&self, w: &str) -> bool {
        matches!(self.peek(), Tok::Ident(s) if s == w)
    }
    fn eat_punct(&mut self, p: &str) -> bool {
        if self.is_punct(p) {
            self.bump();
            true
        } else {
            false
        }
    }
    fn eat_word(&mut self, w: &str) -> bool {
        if self.is_word(w) {
            self.bump();
            true
        } else {
            false
        }
    }
    fn describe(&self) -> String {
        match self.peek() {
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Number(s) => format!("`{s}`"),
            Tok::Punct(p) => format!("`{p}`"),
            Tok::Eof => "end of input".to_string(),
        }
    }
    fn error_expected(&mut self, what: &str) {
        let msg = format!("expected {what}, found {}", self.describe());
        self.diags.push(Diagnostic::error(self.span(), msg));
    }
    fn expect_punct(&mut self, p: &str) -> PResult<()> {
        if self.eat_punct(p) {
            Ok(())
        } else {
            self.error_expected(&format!("`{p}`"));
            Err(())
        }
    }
    fn expect_word(&mut self, w: &str) -> PResult<()> {
        if self.eat_word(w) {
            Ok(())
        } else {
            self.error_expected(&format!("`{w}`"));
            Err(())
        }
    }
    /// A variable or label name: identifier or `{predicate}`, not a keyword.
    fn name(&mut self) -> PResult<(String, Span)> {
        match self.peek().clone() {
            Tok::Ident(s) if !is_keyword(&s) => {
                let t = self.bump();
                Ok((s, t.span))
            }
            _ => {
                self.error_expected("a name");
                Err(())
            }
        }
    }
    fn names(&mut self) -> PResult<Vec<(String, Span)>> {
        let mut out = vec![self.name()?];
        while self.eat_punct(",") {
            out.push(self.name()?);
        }
        Ok(out)
    }

    fn program(&mut self) -> Program {
        let mut program = Program::default();
        loop {
            match self.peek().clone() {
                Tok::Eof => break,
                Tok::Ident(w) if w == "decl" || (w == "bool" && self.is_global_bool_decl()) => {
                    self.bump();
                    match self.names() {
                        Ok(names) => {
                            program.globals.extend(names.into_iter().map(|(name, span)| VarDecl { name, span }));
                            if self.expect_punct(";").is_err() {
                                self.recover_top();
                            }
                        }
                        Err(()) => self.recover_top(),
                    }
                }
                Tok::Punct(";") => {
                    self.bump();
                }
                _ => {
                    let before = self.pos;
                    match self.procedure() {
                        Ok(proc) => program.procs.push(proc),
                        Err(()) => {
                            if self.pos == before {
                                self.bump();
                            }
                            self.recover_top();
                        }
                    }
                }
            }
        }
        program
    }

    /// After `bool`: a declaration `bool a, b;` rather than a procedure header `bool f(` / `bool<2>`.
    fn is_global_bool_decl(&self) -> bool {
        matches!(self.peek_at(1), Tok::Ident(_)) && !matches!(self.peek_at(2), Tok::Punct("("))
    }

    /// Skips to a plausible start of the next top-level item.
    fn recover_top(&mut self) {
        loop {
            match self.peek() {
                Tok::Eof => return,
                Tok::Ident(w) if w == "decl" || w == "void" || w == "bool" => return,
                Tok::Ident(w) if w == "end" => {
                    self.bump();
                    return;
                }
                _ => {
                    self.bump();
                }
            }
        }
    }

    fn procedure(&mut self) -> PResult<Procedure> {
        let start = self.span();
        let mut returns = 0usize;
        // boom marks procedures for its explicit-state search with `dfs`; it changes nothing here.
        if self.is_word("dfs") && matches!(self.peek_at(1), Tok::Ident(w) if w == "void" || w == "bool") {
            self.bump();
        }
        if self.eat_word("void") {
        } else if self.eat_word("bool") {
            returns = 1;
            if self.eat_punct("<") {
                match self.bump().tok {
                    Tok::Number(n) => match n.parse::<usize>() {
                        Ok(v) if v <= 64 => returns = v,
                        _ => {
                            self.diags.push(Diagnostic::error(self.prev_span(), "too many return values"));
                            return Err(());
                        }
                    },
                    _ => {
                        self.diags.push(Diagnostic::error(self.prev_span(), "expected the number of returned values"));
                        return Err(());
                    }
                }
                self.expect_punct(">")?;
            }
        }
        let (name, _) = self.name()?;
        self.expect_punct("(")?;
        let mut formals = Vec::new();
        if !self.is_punct(")") {
            loop {
                self.eat_word("bool");
                formals.push(self.name()?.0);
                if !self.eat_punct(",") {
                    break;
                }
            }
        }
        self.expect_punct(")")?;
        let mut proc = Procedure::new(name);
        proc.returns = returns;
        proc.formals = formals;
        let closer = if self.eat_word("begin") {
            "end"
        } else if self.eat_punct("{") {
            "}"
        } else {
            self.error_expected("`begin` or `{`");
            return Err(());
        };
        // Declarations and enforce, in any order before the first statement.
        loop {
            if self.is_word("decl") || (self.is_word("bool") && matches!(self.peek_at(1), Tok::Ident(_))) {
                self.bump();
                let names = self.names()?;
                proc.locals.extend(names.into_iter().map(|(n, _)| n));
                self.expect_punct(";")?;
            } else if self.eat_word("enforce") {
                let e = self.expr()?;
                self.expect_punct(";")?;
                proc.enforce = Some(match proc.enforce.take() {
                    Some(old) => Expr::and(old, e),
                    None => e,
                });
            } else {
                break;
            }
        }
        self.extra_locals.clear();
        self.body_enforce.clear();
        proc.body = self.sequence(&[closer]);
        proc.locals.append(&mut self.extra_locals);
        // boom allows `enforce` among the statements; like Bebop's it constrains the whole procedure.
        for e in self.body_enforce.drain(..) {
            proc.enforce = Some(match proc.enforce.take() {
                Some(old) => Expr::and(old, e),
                None => e,
            });
        }
        if closer == "end" {
            self.expect_word("end")?;
        } else {
            self.expect_punct("}")?;
        }
        proc.span = start.cover(self.prev_span());
        Ok(proc)
    }

    fn at_terminator(&self, terminators: &[&str]) -> bool {
        match self.peek() {
            Tok::Eof => true,
            Tok::Ident(w) => terminators.contains(&w.as_str()),
            Tok::Punct(p) => terminators.contains(p),
            Tok::Number(_) => false,
        }
    }

    /// Statements up to (not including) one of `terminators`.
    fn sequence(&mut self, terminators: &[&str]) -> Vec<Stmt> {
        let mut out = Vec::new();
        while !self.at_terminator(terminators) {
            let before = self.pos;
            match self.statement(&mut out) {
                Ok(()) => {}
                Err(()) => {
                    self.recover_stmt(terminators);
                    if self.pos == before {
                        self.bump();
                    }
                }
            }
        }
        out
    }

    /// Skips past the next `;` (or up to a terminator / block keyword).
    fn recover_stmt(&mut self, terminators: &[&str]) {
        loop {
            if self.at_terminator(terminators) {
                return;
            }
            if self.eat_punct(";") {
                return;
            }
            match self.peek() {
                Tok::Ident(w) if BLOCK_CLOSERS.contains(&w.as_str()) => return,
                _ => {
                    self.bump();
                }
            }
        }
    }

    fn statement(&mut self, out: &mut Vec<Stmt>) -> PResult<()> {
        // blocks, `if` and `while` bodies recurse through here
        self.deeper_statement()?;
        let r = self.statement_inner(out);
        self.depth -= 1;
        r
    }

    /// One more level of recursion, or an error (once per file and kind) past [`MAX_DEPTH`].
    /// Every depth error goes through here: reported at each level, a 20,000-deep nest gave
    /// thousands of errors (and a CLI printing the 200 KB line once per error).
    fn deeper(&mut self, what: &'static str) -> PResult<()> {
        self.deeper_than(what, MAX_DEPTH)
    }

    /// One more level of statement nesting: statements stop at [`MAX_STATEMENT_DEPTH`], so that
    /// the innermost condition still has room and a deep nest of `if`s is reported as such.
    fn deeper_statement(&mut self) -> PResult<()> {
        self.deeper_than("statements nested too deeply", MAX_STATEMENT_DEPTH)
    }

    fn deeper_than(&mut self, what: &'static str, limit: u32) -> PResult<()> {
        if self.depth >= limit {
            if !self.depth_reported.contains(&what) {
                self.depth_reported.push(what);
                self.first_depth_error.get_or_insert(self.diags.len());
                self.diags.push(Diagnostic::error(self.span(), format!("{what} (more than {limit} levels)")));
            }
            return Err(());
        }
        self.depth += 1;
        Ok(())
    }

    fn statement_inner(&mut self, out: &mut Vec<Stmt>) -> PResult<()> {
        let start = self.span();
        let mut label = None;
        // `L1: L2: s` (several labels on one statement) becomes `L1: skip; L2: s`.
        while let (Tok::Ident(w), Tok::Punct(":")) = (self.peek().clone(), self.peek_at(1).clone()) {
            if is_keyword(&w) {
                break;
            }
            if let Some(previous) = label.take() {
                out.push(Stmt { kind: StmtKind::Skip, label: Some(previous), origin: None, span: self.prev_span() });
            }
            self.bump();
            self.bump();
            label = Some(w);
        }
        if self.eat_punct(";") {
            if label.is_some() {
                out.push(Stmt { kind: StmtKind::Skip, label, origin: None, span: start.cover(self.prev_span()) });
            }
            return Ok(());
        }
        if self.is_punct("{") {
            // A nested C block: its statements are spliced into the enclosing sequence.
            self.bump();
            let mut inner = self.sequence(&["}"]);
            self.expect_punct("}")?;
            if let Some(l) = label {
                if inner.is_empty() {
                    inner.push(Stmt::skip().with_span(start));
                }
                if inner[0].label.is_some() {
                    inner.insert(0, Stmt::skip().with_span(start));
                }
                inner[0].label = Some(l);
            }
            out.extend(inner);
            return Ok(());
        }
        self.pending.clear();
        let kind = self.statement_kind()?;
        let span = start.cover(self.prev_span());
        out.push(Stmt { kind, label, origin: None, span });
        out.extend(self.pending.drain(..).map(|kind| Stmt { kind, label: None, origin: None, span }));
        Ok(())
    }

    /// The `;` after a statement; boom lets the last statement of a block go without one.
    fn end_statement(&mut self) -> PResult<()> {
        if self.eat_punct(";") || self.at_terminator(BLOCK_CLOSERS) || self.is_punct("}") {
            Ok(())
        } else {
            self.error_expected("`;`");
            Err(())
        }
    }

    fn statement_kind(&mut self) -> PResult<StmtKind> {
        let word = match self.peek().clone() {
            Tok::Ident(w) => w,
            _ => {
                self.error_expected("a statement");
                return Err(());
            }
        };
        match word.as_str() {
            "skip" => {
                self.bump();
                self.end_statement()?;
                Ok(StmtKind::Skip)
            }
            "goto" => {
                self.bump();
                let targets = self.names()?.into_iter().map(|(n, _)| n).collect();
                self.end_statement()?;
                Ok(StmtKind::Goto(targets))
            }
            "return" => {
                self.bump();
                let values = if self.is_punct(";") { Vec::new() } else { self.exprs()? };
                self.end_statement()?;
                Ok(StmtKind::Return(values))
            }
            "assume" | "assert" => {
                self.bump();
                let e = self.expr()?;
                self.end_statement()?;
                Ok(if word == "assume" { StmtKind::Assume(e) } else { StmtKind::Assert(e) })
            }
            "if" => {
                self.bump();
                self.if_rest()
            }
            "while" => {
                self.bump();
                let cond = self.expr()?;
                let body = if self.eat_word("do") {
                    let body = self.sequence(&["od"]);
                    self.expect_word("od")?;
                    body
                } else {
                    self.block()?
                };
                Ok(StmtKind::While { cond, body })
            }
            "abortif" => {
                // boom: the execution is abandoned when the condition holds.
                self.bump();
                let e = self.expr()?;
                self.end_statement()?;
                Ok(StmtKind::Assume(Expr::Not(Box::new(e))))
            }
            "enforce" => {
                self.bump();
                let e = self.expr()?;
                self.end_statement()?;
                self.body_enforce.push(e);
                Ok(StmtKind::Skip)
            }
            "decl" => {
                // boom allows declarations among the statements.
                self.bump();
                let names = self.names()?;
                self.end_statement()?;
                self.extra_locals.extend(names.into_iter().map(|(n, _)| n));
                Ok(StmtKind::Skip)
            }
            "start_thread" | "end_thread" | "sync" | "atomic_begin" | "atomic_end" | "thread_local" => {
                self.diags.push(
                    Diagnostic::error(self.span(), format!("unsupported: `{word}` (concurrent boolean programs)"))
                        .with_help("predabs checks sequential boolean programs"),
                );
                self.bump();
                Err(())
            }
            "call" => {
                self.bump();
                let (callee, _) = self.name()?;
                let args = self.call_args()?;
                self.end_statement()?;
                Ok(StmtKind::Call { lhs: Vec::new(), callee, args })
            }
            _ if is_keyword(&word) => {
                self.error_expected("a statement");
                Err(())
            }
            "dead" if matches!(self.peek_at(1), Tok::Ident(_)) => {
                // `dead a, b;`: the values are no longer needed; modelled as forgetting them.
                self.bump();
                let lhs: Vec<String> = self.names()?.into_iter().map(|(n, _)| n).collect();
                self.end_statement()?;
                let rhs = vec![Expr::Nondet; lhs.len()];
                Ok(StmtKind::Assign { lhs, rhs })
            }
            _ => {
                if matches!(self.peek_at(1), Tok::Punct("(")) {
                    let (callee, _) = self.name()?;
                    let args = self.call_args()?;
                    self.end_statement()?;
                    return Ok(StmtKind::Call { lhs: Vec::new(), callee, args });
                }
                let lhs: Vec<String> = self.names()?.into_iter().map(|(n, _)| n).collect();
                if !self.eat_punct(":=") && !self.eat_punct("=") {
                    self.error_expected("`:=`");
                    return Err(());
                }
                if let (Tok::Ident(w), Tok::Punct("(")) = (self.peek().clone(), self.peek_at(1).clone()) {
                    if !is_keyword(&w) {
                        let (callee, _) = self.name()?;
                        let args = self.call_args()?;
                        self.end_statement()?;
                        // `a, _, b := f()`: `_` drops a returned value (into a fresh local).
                        let lhs = lhs.into_iter().map(|l| if l == "_" { self.fresh_local("ignored") } else { l }).collect();
                        return Ok(StmtKind::Call { lhs, callee, args });
                    }
                }
                let rhs = self.exprs()?;
                if self.eat_word("constrain") {
                    self.in_constrain = true;
                    let constraint = self.expr();
                    self.in_constrain = false;
                    let constraint = constraint?;
                    self.end_statement()?;
                    return Ok(self.desugar_constrain(lhs, rhs, constraint));
                }
                self.end_statement()?;
                Ok(StmtKind::Assign { lhs, rhs })
            }
        }
    }

    /// `lhs := rhs constrain c;` where `'x` in `c` is the new value of `x`. When `c` reads no
    /// assigned variable's old value this is `lhs := rhs; assume(c')` (primes dropped); otherwise
    /// the new values go through fresh locals: `t := rhs; assume(c'); lhs := t; t := *`. The first
    /// statement is returned, the others are queued in `self.pending`.
    fn desugar_constrain(&mut self, lhs: Vec<String>, rhs: Vec<Expr>, constraint: Expr) -> StmtKind {
        let reads_old = constraint.variables().iter().any(|v| lhs.iter().any(|l| l == v));
        if !reads_old {
            let assume = constraint.rename_variables(&|v: &str| v.strip_prefix('\'').map(str::to_string));
            self.pending.push(StmtKind::Assume(assume));
            return StmtKind::Assign { lhs, rhs };
        }
        let temps: Vec<String> = lhs.iter().map(|_| self.fresh_local("constrain_t")).collect();
        let assume = constraint.rename_variables(&|v: &str| {
            let base = v.strip_prefix('\'')?;
            Some(match lhs.iter().position(|l| l == base) {
                Some(i) => temps[i].clone(),
                None => base.to_string(),
            })
        });
        self.pending.push(StmtKind::Assume(assume));
        self.pending.push(StmtKind::Assign { lhs, rhs: temps.iter().map(|t| Expr::Var(t.clone())).collect() });
        // The temporaries are dead from here on: forgetting them keeps the BDDs small.
        self.pending.push(StmtKind::Assign { lhs: temps.clone(), rhs: vec![Expr::Nondet; temps.len()] });
        StmtKind::Assign { lhs: temps, rhs }
    }

    /// A new local `{prefix}{n}` that no token of the input spells.
    fn fresh_local(&mut self, prefix: &str) -> String {
        let name = loop {
            self.fresh += 1;
            let name = format!("{prefix}{}", self.fresh);
            if !self.toks.iter().any(|t| matches!(&t.tok, Tok::Ident(w) if *w == name)) {
                break name;
            }
        };
        self.extra_locals.push(name.clone());
        name
    }

    /// After `if`: condition, then Bebop `then ... [elsif/else ...] fi` or C blocks.
    fn if_rest(&mut self) -> PResult<StmtKind> {
        let cond = self.expr()?;
        if self.eat_word("then") {
            let then_branch = self.sequence(&["else", "elsif", "elif", "fi"]);
            let else_branch = if self.eat_word("elsif") || self.eat_word("elif") {
                let start = self.prev_span();
                self.deeper_statement()?;
                let kind = self.if_rest();
                self.depth -= 1;
                let kind = kind?;
                // The nested `if_rest` consumed the shared `fi`.
                return Ok(StmtKind::If {
                    cond,
                    then_branch,
                    else_branch: vec![Stmt { kind, label: None, origin: None, span: start.cover(self.prev_span()) }],
                });
            } else if self.eat_word("else") {
                self.sequence(&["fi"])
            } else {
                Vec::new()
            };
            self.expect_word("fi")?;
            Ok(StmtKind::If { cond, then_branch, else_branch })
        } else {
            let then_branch = self.block()?;
            let else_branch = if self.eat_word("else") {
                if self.is_word("if") {
                    let start = self.span();
                    self.bump();
                    self.deeper_statement()?;
                    let kind = self.if_rest();
                    self.depth -= 1;
                    let kind = kind?;
                    vec![Stmt { kind, label: None, origin: None, span: start.cover(self.prev_span()) }]
                } else {
                    self.block()?
                }
            } else {
                Vec::new()
            };
            Ok(StmtKind::If { cond, then_branch, else_branch })
        }
    }

    fn block(&mut self) -> PResult<Vec<Stmt>> {
        self.expect_punct("{")?;
        let body = self.sequence(&["}"]);
        self.expect_punct("}")?;
        Ok(body)
    }

    fn call_args(&mut self) -> PResult<Vec<Expr>> {
        self.expect_punct("(")?;
        let args = if self.is_punct(")") { Vec::new() } else { self.exprs()? };
        self.expect_punct(")")?;
        Ok(args)
    }

    fn exprs(&mut self) -> PResult<Vec<Expr>> {
        let mut out = vec![self.expr()?];
        while self.eat_punct(",") {
            out.push(self.expr()?);
        }
        Ok(out)
    }

    fn expr(&mut self) -> PResult<Expr> {
        self.deeper("expression nested too deeply")?;
        let r = self.implies();
        self.depth -= 1;
        r
    }

    fn implies(&mut self) -> PResult<Expr> {
        let left = self.or()?;
        if self.eat_punct("=>") {
            let right = self.expr()?;
            return Ok(Expr::Implies(Box::new(left), Box::new(right)));
        }
        Ok(left)
    }

    /// A left-deep chain `a | b | c ...` is as deep as it is long: each operator is one level
    /// (later passes recurse over the tree), restored when the chain ends.
    fn chained(&mut self, operand: fn(&mut Self) -> PResult<Expr>, operator: fn(&mut Self) -> Option<fn(Box<Expr>, Box<Expr>) -> Expr>) -> PResult<Expr> {
        let saved = self.depth;
        let r = self.chain_from(operand, operator);
        self.depth = saved;
        r
    }

    fn chain_from(&mut self, operand: fn(&mut Self) -> PResult<Expr>, operator: fn(&mut Self) -> Option<fn(Box<Expr>, Box<Expr>) -> Expr>) -> PResult<Expr> {
        let mut left = operand(self)?;
        while let Some(make) = operator(self) {
            self.deeper("expression too long or nested too deeply")?;
            let right = operand(self)?;
            left = make(Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn or(&mut self) -> PResult<Expr> {
        self.chained(Self::and, |p| (p.eat_punct("|") || p.eat_punct("||")).then_some(Expr::Or as fn(_, _) -> _))
    }

    fn and(&mut self) -> PResult<Expr> {
        self.chained(Self::equality, |p| (p.eat_punct("&") || p.eat_punct("&&")).then_some(Expr::And as fn(_, _) -> _))
    }

    fn equality(&mut self) -> PResult<Expr> {
        self.chained(Self::unary, |p| {
            if p.eat_punct("=") || p.eat_punct("==") {
                Some(Expr::Eq as fn(_, _) -> _)
            } else if p.eat_punct("!=") || p.eat_punct("^") {
                Some(Expr::Xor as fn(_, _) -> _)
            } else {
                None
            }
        })
    }

    fn unary(&mut self) -> PResult<Expr> {
        if self.eat_punct("!") || self.eat_punct("~") {
            self.deeper("expression nested too deeply")?;
            let inner = self.unary();
            self.depth -= 1;
            return Ok(Expr::Not(Box::new(inner?)));
        }
        self.primary()
    }

    fn primary(&mut self) -> PResult<Expr> {
        match self.peek().clone() {
            Tok::Punct("(") => {
                self.bump();
                let e = self.expr()?;
                self.expect_punct(")")?;
                Ok(e)
            }
            Tok::Punct("*") | Tok::Punct("?") => {
                self.bump();
                Ok(Expr::Nondet)
            }
            Tok::Number(n) => {
                self.bump();
                match n.as_str() {
                    "0" => Ok(Expr::Const(false)),
                    "1" => Ok(Expr::Const(true)),
                    _ => {
                        self.diags.push(Diagnostic::error(self.prev_span(), "boolean constants are 0 and 1"));
                        Err(())
                    }
                }
            }
            Tok::Ident(w) => match w.as_str() {
                "true" | "T" => {
                    self.bump();
                    Ok(Expr::Const(true))
                }
                "false" | "F" => {
                    self.bump();
                    Ok(Expr::Const(false))
                }
                _ if w.starts_with('\'') && !self.in_constrain => {
                    self.bump();
                    self.diags.push(
                        Diagnostic::error(self.prev_span(), format!("primed variable `{w}` outside a `constrain` clause"))
                            .with_help("`'x` means the new value of `x` in `x := e constrain (...)`"),
                    );
                    Err(())
                }
                "unknown" => {
                    self.bump();
                    self.expect_punct("(")?;
                    self.expect_punct(")")?;
                    Ok(Expr::Nondet)
                }
                "choose" | "schoose" => {
                    self.bump();
                    let (open, close) = if w == "schoose" && self.is_punct("[") { ("[", "]") } else { ("(", ")") };
                    self.expect_punct(open)?;
                    let pos = self.expr()?;
                    self.expect_punct(",")?;
                    let neg = self.expr()?;
                    self.expect_punct(close)?;
                    Ok(Expr::Choose(Box::new(pos), Box::new(neg)))
                }
                _ if is_keyword(&w) => {
                    self.error_expected("an expression");
                    Err(())
                }
                _ => {
                    self.bump();
                    if self.is_punct("(") {
                        self.diags.push(
                            Diagnostic::error(self.prev_span(), format!("call of `{w}` inside an expression"))
                                .with_help("calls are statements: `x := f(...);`"),
                        );
                        return Err(());
                    }
                    Ok(Expr::Var(w))
                }
            },
            _ => {
                self.error_expected("an expression");
                Err(())
            }
        }
    }
}
