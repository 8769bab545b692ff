//! Correctness witnesses: loop invariants as C expressions at loop keywords, and the program
//! instrumented with them for validation.
//!
//! An engine's invariant at an IR loop head (the target of a backward jump, before the loop
//! test: C2BP §5's invariant at a statement) is placed at the innermost source loop around the
//! head's statement (the format's `loop_invariant`: it holds each time the loop condition is about
//! to be evaluated). It is printed over source names; a comparison that mentions what C cannot
//! name at that point (a temporary, a formal's entry value `'x`, a variable out of scope or
//! shadowed, an uninterpreted symbol) is replaced by `true` where it occurs positively and by
//! `false` under a negation, so the printed invariant is implied by the engine's: weaker, never
//! wrong.
//!
//! A large engine invariant (a disjunction of many cubes) is first put in the form
//! [`compact`] makes: the literals all cubes share as conjuncts, and the rest kept as one
//! disjunction only when it mentions few predicates, else replaced by the two-literal clauses it
//! implies (weaker, never wrong).
//!
//! Validation (see the `predabs validate` command) checks the instrumented program with the
//! CEGAR loop: each loop `while (c) S` becomes
//! `for (;;) { if (!(a)) reach_error(); if (!(b)) reach_error(); if (!(c)) break; S }` for an
//! invariant `a && b` (a `for` keeps its initialisation and step, a `do` body starts with one
//! check of the whole invariant), which asserts the invariant every time the condition is about
//! to be evaluated and keeps `break`/`continue` as they were. Each top-level conjunct is its own
//! condition because C2BP abstracts a condition over all the predicates it mentions at once
//! (§4's F and G): many small conditions cost little, one conjunction of forty literals costs
//! exponentially more.

use crate::source::{LoopKind, LoopSite, SourceIndex};
use c_ir::{BinaryOp, Expr, ExprKind, ProcId, Program, Type, UnaryOp, VarId, VarKind};

/// How a printed formula is built at its top: a comparison (or anything self-contained), a
/// conjunction or a disjunction (operands of another connective get parentheses).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Atom,
    And,
    Or,
}

enum Approx {
    Const(bool),
    Text(Text),
}

/// A printed formula: its text and class, and what c-front's nesting check (`c_front::nesting`)
/// will count for it: `ops`, the operator tokens and opening brackets in its outermost frame
/// (`a != b && c`: 2), and `inner`, how much deeper than that its parenthesised parts reach.
struct Text {
    text: String,
    class: Class,
    ops: usize,
    inner: usize,
}

impl Text {
    fn atom(text: String) -> Text {
        let (ops, inner) = frame_counts(&text);
        Text { text, class: Class::Atom, ops, inner }
    }

    fn parenthesised(self) -> Text {
        Text { text: format!("({})", self.text), class: Class::Atom, ops: 1, inner: self.depth() }
    }

    /// The nesting depth of the text, counted as c-front does.
    fn depth(&self) -> usize {
        self.ops + self.inner + 1
    }
}

/// `(ops, inner)` of a printed comparison: operator tokens and brackets at its top level, and
/// the depth its brackets add (an over-estimate: every run of operator characters is a token).
fn frame_counts(text: &str) -> (usize, usize) {
    let mut stack = vec![0usize];
    let (mut inner, mut previous_operator) = (0usize, false);
    for c in text.chars() {
        let operator = "+-*/%<>=!&|^~?:".contains(c);
        match c {
            '(' | '[' => {
                *stack.last_mut().unwrap_or(&mut 0) += 1;
                stack.push(0);
            }
            ')' | ']' if stack.len() > 1 => {
                let depth: usize = stack.iter().sum::<usize>() + stack.len() - 1;
                inner = inner.max(depth.saturating_sub(stack[0]));
                stack.pop();
            }
            _ if operator && !previous_operator => *stack.last_mut().unwrap_or(&mut 0) += 1,
            _ => {}
        }
        previous_operator = operator;
    }
    (stack[0], inner)
}

/// The deepest nesting an invariant is printed with when it can be helped: c-front (and so
/// `predabs validate`) rejects expressions nested more than 256 levels, and other parsers have
/// limits of their own. c-front counts every operator of one parenthesis level as a level, so
/// a formula that would be deeper is printed again with at most 48, 12, then 3 operators per
/// parenthesis level (depth logarithmic in the formula's size).
const MAX_DEPTH: usize = 128;

struct Printer<'a> {
    program: &'a Program,
    index: &'a SourceIndex,
    proc: ProcId,
    /// Where the expression must make sense (scope and shadowing are checked there).
    at: u32,
    /// The most operators printed at one parenthesis level (see `MAX_DEPTH`).
    max_ops: usize,
}

fn c_type(ty: &Type) -> Option<&'static str> {
    Some(match ty {
        Type::Bool => "_Bool",
        Type::Int { bits: 8, signed: true } => "signed char",
        Type::Int { bits: 8, signed: false } => "unsigned char",
        Type::Int { bits: 16, signed: true } => "short",
        Type::Int { bits: 16, signed: false } => "unsigned short",
        Type::Int { bits: 32, signed: true } => "int",
        Type::Int { bits: 32, signed: false } => "unsigned int",
        Type::Int { bits: 64, signed: true } => "long long",
        Type::Int { bits: 64, signed: false } => "unsigned long long",
        _ => return None,
    })
}

/// A C literal of `value` in type `ty` (suffixes where `int` would not fit).
fn literal(value: i128, ty: &Type) -> Option<String> {
    match ty {
        Type::Bool => Some(if value != 0 { "1" } else { "0" }.to_string()),
        Type::Int { bits, signed } => {
            let fits_int = (i32::MIN as i128..=i32::MAX as i128).contains(&value);
            Some(match (signed, bits) {
                _ if fits_int && (*signed || value >= 0) && *bits <= 32 => value.to_string(),
                (false, b) if *b <= 32 => format!("{value}U"),
                (false, _) => format!("{value}ULL"),
                (true, _) if value == i64::MIN as i128 => "(-9223372036854775807LL - 1)".to_string(),
                (true, _) if value < 0 => format!("({value}LL)"),
                (true, _) => format!("{value}LL"),
            })
        }
        Type::Pointer(_) if value == 0 => Some("0".to_string()),
        _ => None,
    }
}


impl Printer<'_> {
    /// Whether variable `v` can be named by its source name at `self.at`.
    fn nameable(&self, v: VarId) -> bool {
        let var = self.program.var(v);
        let mine = |k: &VarKind| match *k {
            VarKind::Global => true,
            VarKind::Local(p) | VarKind::Formal(p, _) => p == self.proc,
            _ => false,
        };
        if !mine(&var.kind) {
            return false;
        }
        let visible = |id: VarId| -> Option<u32> {
            let x = self.program.var(id);
            let decl = x.span.start;
            match x.kind {
                VarKind::Global => Some(0),
                _ => self.index.in_scope(decl, self.at).then_some(decl + 1),
            }
        };
        if visible(v).is_none() {
            return false;
        }
        // the innermost visible declaration of that name must be `v` itself
        let innermost = (0..self.program.vars.len() as u32)
            .map(VarId)
            .filter(|&id| {
                let x = self.program.var(id);
                x.source_name == var.source_name && mine(&x.kind)
            })
            .filter_map(|id| visible(id).map(|d| (d, id)))
            .max_by_key(|&(d, _)| d);
        innermost.map(|(_, id)| id) == Some(v)
    }

    /// A non-boolean-structured expression as C text, or `None` when C cannot say it here.
    fn term(&self, e: &Expr) -> Option<String> {
        Some(match &e.kind {
            ExprKind::Const(v) => literal(*v, &e.ty)?,
            ExprKind::Var(v) => {
                if !self.nameable(*v) {
                    return None;
                }
                self.program.var(*v).source_name.clone()
            }
            ExprKind::Unary(op, a) => {
                let a = self.term(a)?;
                match op {
                    UnaryOp::Neg => format!("-({a})"),
                    UnaryOp::BitNot => format!("~({a})"),
                    UnaryOp::Not => format!("!({a})"),
                }
            }
            ExprKind::Binary(BinaryOp::Implies, a, b) => format!("(!({}) || ({}))", self.term(a)?, self.term(b)?),
            ExprKind::Binary(op, a, b) => format!("({} {} {})", self.term(a)?, op.symbol(), self.term(b)?),
            ExprKind::Cast(a) => match (c_type(&e.ty), &a.ty) {
                (Some(t), inner) if inner.is_integer() => format!("(({t})({}))", self.term(a)?),
                _ if e.ty.is_pointer() && a.ty.is_pointer() => self.term(a)?,
                _ => return None,
            },
            ExprKind::Deref(p) => format!("(*({}))", self.term(p)?),
            ExprKind::AddrOf(x) => format!("(&({}))", self.term(x)?),
            ExprKind::Field(s, i) => {
                let Type::Struct(id) = &s.ty else { return None };
                let field = &self.program.struct_def(*id).fields.get(*i as usize)?.name;
                match &s.kind {
                    ExprKind::Deref(p) => format!("(({})->{field})", self.term(p)?),
                    _ => format!("(({}).{field})", self.term(s)?),
                }
            }
            ExprKind::Index(a, i) => format!("(({})[{}])", self.term(a)?, self.term(i)?),
            ExprKind::Ite(c, a, b) => format!("(({}) ? ({}) : ({}))", self.term(c)?, self.term(a)?, self.term(b)?),
            ExprKind::Str(_) | ExprKind::App(..) => return None,
        })
    }

    /// `e` weakened (`positive`) or strengthened (under a negation) to what C can say.
    fn approx(&self, e: &Expr, positive: bool) -> Approx {
        match &e.kind {
            ExprKind::Const(v) if e.ty == Type::Bool => Approx::Const(*v != 0),
            ExprKind::Unary(UnaryOp::Not, a) => match self.approx(a, !positive) {
                Approx::Const(b) => Approx::Const(!b),
                Approx::Text(t) => Approx::Text(Text { text: format!("!({})", t.text), class: Class::Atom, ops: 2, inner: t.depth() }),
            },
            ExprKind::Binary(op @ (BinaryOp::And | BinaryOp::Or), a, b) => {
                let is_and = *op == BinaryOp::And;
                let class = if is_and { Class::And } else { Class::Or };
                let mut parts: Vec<Text> = Vec::new();
                for x in [a, b] {
                    match self.approx(x, positive) {
                        Approx::Const(v) if v == is_and => {}
                        Approx::Const(v) => return Approx::Const(v),
                        Approx::Text(t) if t.class == class || t.class == Class::Atom => parts.push(t),
                        Approx::Text(t) => parts.push(t.parenthesised()),
                    }
                }
                let Some(mut second) = parts.pop() else { return Approx::Const(is_and) };
                let Some(mut first) = parts.pop() else {
                    let class = if second.text.starts_with('(') && outer_parens(&second.text) { Class::Atom } else { second.class };
                    return Approx::Text(Text { class, ..second });
                };
                // a level that would hold more than `max_ops` operators keeps its larger part in parentheses
                if first.ops + second.ops + 1 > self.max_ops {
                    if second.ops > first.ops {
                        second = second.parenthesised();
                    } else {
                        first = first.parenthesised();
                    }
                }
                let text = format!("{} {} {}", first.text, if is_and { "&&" } else { "||" }, second.text);
                Approx::Text(Text { text, class, ops: first.ops + second.ops + 1, inner: first.inner.max(second.inner) })
            }
            ExprKind::Binary(BinaryOp::Implies, a, b) => {
                let not_a = Expr::logical_not((**a).clone());
                self.approx(&Expr::binary(BinaryOp::Or, not_a, (**b).clone()), positive)
            }
            _ => match self.term(e) {
                // `(a < b)` loses its parentheses; `(c ? a : b)` keeps them (`?:` binds looser than `&&`)
                Some(t) if matches!(e.kind, ExprKind::Binary(..)) && outer_parens(&t) => Approx::Text(Text::atom(t[1..t.len() - 1].to_string())),
                Some(t) => Approx::Text(Text::atom(t)),
                None => Approx::Const(positive),
            },
        }
    }
}

/// Whether the first `(` of `t` closes at its last character.
fn outer_parens(t: &str) -> bool {
    if !t.starts_with('(') || !t.ends_with(')') {
        return false;
    }
    let mut depth = 0;
    for (i, c) in t.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return i == t.len() - 1;
                }
            }
            _ => {}
        }
    }
    false
}

/// The invariant `formula` of procedure `proc` as a C expression valid at source offset `at`;
/// `None` when nothing of it can be said there (it would be `1`).
pub fn c_expression(program: &Program, index: &SourceIndex, proc: ProcId, at: u32, formula: &Expr) -> Option<String> {
    let mut last = None;
    for max_ops in [usize::MAX, 48, 12, 3] {
        let printer = Printer { program, index, proc, at, max_ops };
        match printer.approx(formula, true) {
            Approx::Const(true) => return None,
            Approx::Const(false) => return Some("0".to_string()),
            Approx::Text(t) if t.depth() <= MAX_DEPTH => return Some(t.text),
            Approx::Text(t) => last = Some(t.text),
        }
    }
    last
}

/// Reads an engine invariant's text (`model_check::Invariant::text`: comparisons joined by
/// `&&`, `||`, `!` and parentheses, in the engine's names, with `'x` for a formal's entry value)
/// back as a formula of procedure `proc`. Chains of connectives are split here and built as
/// balanced trees, and only the comparisons go through the C parser, so an invariant of
/// thousands of literals reads back although one C expression that long would pass c-front's
/// nesting limit.
pub fn read_invariant(program: &Program, proc: ProcId, text: &str) -> Result<Expr, String> {
    read_formula(program, proc, text.trim(), 0)
}

fn read_formula(program: &Program, proc: ProcId, text: &str, depth: usize) -> Result<Expr, String> {
    if depth > 200 {
        return Err("parentheses nested too deeply".into());
    }
    let mut t = text.trim();
    while outer_parens(t) {
        t = t[1..t.len() - 1].trim();
    }
    for (sep, op) in [("||", BinaryOp::Or), ("&&", BinaryOp::And)] {
        let parts = split_top(t, sep);
        if parts.len() > 1 {
            let exprs = parts.into_iter().map(|p| read_formula(program, proc, p, depth + 1)).collect::<Result<Vec<_>, _>>()?;
            return Ok(logic::balanced(exprs, op));
        }
    }
    if let Some(rest) = t.strip_prefix('!') {
        if outer_parens(rest.trim()) {
            return Ok(Expr::logical_not(read_formula(program, proc, rest, depth + 1)?));
        }
    }
    match c_front::parse_expression(program, Some(proc), t) {
        (Some(e), _) => Ok(e),
        (None, diagnostics) => Err(diagnostics.first().map(|d| format!("`{t}`: {}", d.message)).unwrap_or_else(|| format!("`{t}` cannot be read"))),
    }
}

/// `text` split at each `sep` outside parentheses.
fn split_top<'t>(text: &'t str, sep: &str) -> Vec<&'t str> {
    let bytes = text.as_bytes();
    let (mut depth, mut start, mut parts, mut i) = (0i32, 0, Vec::new(), 0);
    while i < bytes.len() {
        match bytes[i] {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            _ if depth == 0 && text[i..].starts_with(sep) => {
                parts.push(&text[start..i]);
                i += sep.len();
                start = i;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    parts.push(&text[start..]);
    parts
}

/// The most predicates (atoms up to negation) the disjunctive part of a printed invariant may
/// mention before [`compact`] replaces it by its two-literal clauses. A validator that abstracts
/// the asserted invariant (C2BP: `predabs validate`) computes one condition over all of them,
/// whose strengthening grows exponentially with their number: toy.cil's loop in
/// `start_simulation` (74 cubes over 24 predicates beyond the 15 literals they share) made
/// re-verification run out of its 60 s in abstraction and model checking; with its 158
/// two-literal clauses asserted one by one it is re-verified SAFE in 14 s of CPU. The disjunctions
/// of the other shared tasks' witnesses mention at most 11.
pub const MAX_DISJUNCTION_PREDICATES: usize = 12;

/// What [`compact`] did to an invariant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compaction {
    /// The same formula (literals shared by all disjuncts factored out, if any).
    Exact,
    /// The disjunction was replaced by the clauses of two literals it implies: weaker, still
    /// implied by the engine's invariant.
    TwoLiteralClauses { predicates: usize, clauses: usize },
}

fn flatten<'e>(e: &'e Expr, op: BinaryOp, out: &mut Vec<&'e Expr>) {
    match &e.kind {
        ExprKind::Binary(o, a, b) if *o == op => {
            flatten(a, op, out);
            flatten(b, op, out);
        }
        _ => out.push(e),
    }
}

/// A literal's atom, the same for a comparison and its negation (`x != 1`, `!(x == 1)` and
/// `x == 1` have one key).
fn atom_key(e: &Expr) -> Expr {
    match &e.kind {
        ExprKind::Unary(UnaryOp::Not, a) => atom_key(a),
        ExprKind::Binary(op, a, b) => match op.negated_relation() {
            Some(neg) => Expr::binary(if (*op as u8) < (neg as u8) { *op } else { neg }, (**a).clone(), (**b).clone()),
            None => e.clone(),
        },
        _ => e.clone(),
    }
}

/// An engine invariant (a disjunction of cubes, C2BP §5's reachable abstract states) in a form
/// that validators can check: the literals every cube has are factored out as conjuncts, and a
/// remaining disjunction over more than [`MAX_DISJUNCTION_PREDICATES`] predicates is replaced by
/// the clauses `a || b` that every cube implies (a cube contains `a` or `b`). Each of these is
/// implied by the formula, so the result is the formula or weaker, never wrong; its top-level
/// conjuncts are what [`instrument`] asserts one by one.
pub fn compact(formula: &Expr) -> (Expr, Compaction) {
    let mut disjuncts = Vec::new();
    flatten(formula, BinaryOp::Or, &mut disjuncts);
    if disjuncts.len() < 2 {
        return (formula.clone(), Compaction::Exact);
    }
    let cubes: Vec<Vec<&Expr>> = disjuncts
        .iter()
        .map(|d| {
            let mut lits = Vec::new();
            flatten(d, BinaryOp::And, &mut lits);
            lits
        })
        .collect();
    let common: Vec<Expr> = cubes[0].iter().filter(|l| cubes[1..].iter().all(|c| c.contains(l))).map(|l| (*l).clone()).collect();
    let residual: Vec<Vec<&Expr>> = cubes.iter().map(|c| c.iter().copied().filter(|l| !common.contains(l)).collect()).collect();
    if residual.iter().any(|c| c.is_empty()) {
        // one cube is just the common literals: the disjunction is implied by them
        return (logic::balanced(common, BinaryOp::And), Compaction::Exact);
    }
    let mut literals: Vec<&Expr> = Vec::new();
    for l in residual.iter().flatten() {
        if !literals.contains(l) {
            literals.push(l);
        }
    }
    let keys: Vec<Expr> = literals.iter().map(|l| atom_key(l)).collect();
    let mut predicates: Vec<&Expr> = Vec::new();
    for k in &keys {
        if !predicates.contains(&k) {
            predicates.push(k);
        }
    }
    let mut conjuncts = common;
    if predicates.len() <= MAX_DISJUNCTION_PREDICATES {
        let cubes = residual.into_iter().map(|c| logic::balanced(c.into_iter().cloned().collect(), BinaryOp::And)).collect();
        conjuncts.push(logic::balanced(cubes, BinaryOp::Or));
        return (logic::balanced(conjuncts, BinaryOp::And), Compaction::Exact);
    }
    let has: Vec<Vec<bool>> = residual.iter().map(|c| literals.iter().map(|l| c.contains(l)).collect()).collect();
    let mut clauses = 0;
    for i in 0..literals.len() {
        for j in i + 1..literals.len() {
            if keys[i] != keys[j] && has.iter().all(|c| c[i] || c[j]) {
                conjuncts.push(Expr::or(literals[i].clone(), literals[j].clone()));
                clauses += 1;
            }
        }
    }
    (logic::balanced(conjuncts, BinaryOp::And), Compaction::TwoLiteralClauses { predicates: predicates.len(), clauses })
}

/// The top-level conjuncts of a C expression `text` (`a && (b || c) && d`: `a`, `b || c`, `d`),
/// which asserted one by one mean the same as the whole; the text itself when splitting could
/// change its meaning (a top-level `||`, `?:`, comma or assignment binds looser than `&&`).
pub fn conjuncts(text: &str) -> Vec<&str> {
    let mut t = text.trim();
    while outer_parens(t) {
        t = t[1..t.len() - 1].trim();
    }
    let bytes = t.as_bytes();
    let mut depth = 0i32;
    for (i, &c) in bytes.iter().enumerate() {
        match c {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            _ if depth != 0 => {}
            b'?' | b':' | b',' | b'"' | b'\'' => return vec![text.trim()],
            b'|' if bytes.get(i + 1) == Some(&b'|') => return vec![text.trim()],
            b'=' => {
                let before = if i > 0 { bytes[i - 1] } else { b' ' };
                let comparison = matches!(before, b'=' | b'!' | b'<' | b'>') && !(i > 1 && matches!(before, b'<' | b'>') && bytes[i - 2] == before);
                if !comparison && bytes.get(i + 1) != Some(&b'=') {
                    return vec![text.trim()];
                }
            }
            _ => {}
        }
    }
    let parts = split_top(t, "&&");
    if parts.len() < 2 || parts.iter().any(|p| p.trim().is_empty()) {
        return vec![t];
    }
    parts.into_iter().flat_map(conjuncts).collect()
}

/// `if (!(c)) ERR;` for each conjunct of each invariant.
fn assertions(invs: &[&str], err: &str) -> String {
    invs.iter().flat_map(|t| conjuncts(t)).map(|c| format!("if (!({c})) {err}; ")).collect()
}

/// `__VERIFIER_assume(c);` for each conjunct of each invariant.
fn assumptions(invs: &[&str]) -> String {
    invs.iter().flat_map(|t| conjuncts(t)).map(|c| format!("__VERIFIER_assume({c}); ")).collect()
}

/// Where the loop's invariant is evaluated for scoping: inside the header (after a `for`'s
/// initialisation), or at the start of a `do` body.
pub fn scope_point(site: &LoopSite) -> u32 {
    match (site.kind, site.semicolons, site.header) {
        (LoopKind::For, Some((s1, _)), _) => s1 + 1,
        (_, _, Some((open, _))) => open + 1,
        _ => site.body_start,
    }
}

/// The source loop of the IR loop head at `at`.
pub fn loop_of_head<'i>(program: &Program, index: &'i SourceIndex, at: c_ir::StmtRef) -> Option<&'i LoopSite> {
    index.loop_at(program.stmt(at).span.start)
}

/// The call inserted where an invariant fails, and a declaration to put first if one is needed.
pub fn error_call(index: &SourceIndex) -> (&'static str, Option<&'static str>) {
    if index.mentions("reach_error") {
        ("reach_error()", None)
    } else {
        ("__VERIFIER_error()", Some("void __VERIFIER_error(void);\n"))
    }
}

/// The source with the invariants asserted at their loops (`checks`: loop keyword offset and
/// C expression; several at one loop are conjoined). A `while (c) S` becomes
/// `for (;;) { if (!(a)) ERR; if (!(b)) ERR; if (!(c)) break; S }` with one check per top-level
/// conjunct of the invariants ([`conjuncts`]: small conditions abstract cheaply, one large one
/// does not), a `for` keeps its initialisation and step, a `do` body starts with one check of the
/// whole invariant. Lines are kept, except that a needed declaration of the error function is
/// put on a first line of its own (second result: 1).
pub fn instrument(index: &SourceIndex, checks: &[(u32, String)]) -> (String, u32) {
    let text = index.text();
    let (err, decl) = error_call(index);
    let mut edits: Vec<(u32, u32, String)> = Vec::new();
    for site in &index.loops {
        let invs: Vec<&str> = checks.iter().filter(|(k, _)| *k == site.keyword).map(|(_, t)| t.as_str()).collect();
        if invs.is_empty() {
            continue;
        }
        let asserted = assertions(&invs, err);
        let slice = |a: u32, b: u32| &text[a as usize..b as usize];
        let exit = |cond: &str| if cond.trim().is_empty() { String::new() } else { format!("if (!({cond})) break; ") };
        match (site.kind, site.header, site.semicolons) {
            (LoopKind::While, Some((open, close)), _) => {
                let cond = slice(open + 1, close);
                edits.push((site.keyword, close + 1, format!("for (;;) {{ {asserted}{}", exit(cond))));
                edits.push((site.end, site.end, " }".to_string()));
            }
            (LoopKind::For, Some((open, close)), Some((s1, s2))) => {
                let (init, cond, step) = (slice(open + 1, s1), slice(s1 + 1, s2), slice(s2 + 1, close));
                edits.push((site.keyword, close + 1, format!("for ({init}; ; {step}) {{ {asserted}{}", exit(cond))));
                edits.push((site.end, site.end, " }".to_string()));
            }
            (LoopKind::Do, _, _) => {
                let inv = invs.iter().map(|t| format!("({t})")).collect::<Vec<_>>().join(" && ");
                edits.push((site.body_start, site.body_start, format!(" if (!({inv})) {err}; else")));
            }
            _ => {}
        }
    }
    apply(text, edits, decl.map(str::to_string), u32::from(decl.is_some()))
}

/// Applies `edits` (replace `start..end` by the text) to `text`, later ones first; at one
/// offset a replacement goes before an insertion (the insertion closes a loop that ends where
/// the replaced loop starts); `prelude`, if any, becomes the first line.
fn apply(text: &str, mut edits: Vec<(u32, u32, String)>, prelude: Option<String>, shift: u32) -> (String, u32) {
    edits.sort_by_key(|e| (std::cmp::Reverse(e.0), std::cmp::Reverse(e.1)));
    let mut out = text.to_string();
    for (start, end, replacement) in edits {
        out.replace_range(start as usize..end as usize, &replacement);
    }
    match prelude {
        Some(p) => (format!("{}\n{out}", p.trim_end()), shift),
        None => (out, shift),
    }
}

/// The IR loop heads that lie in `site` (innermost loop around their statement).
fn heads_of(program: &Program, index: &SourceIndex, site: &LoopSite) -> Vec<c_ir::StmtRef> {
    let mut out = Vec::new();
    for proc in program.proc_ids() {
        for h in program.proc(proc).loop_heads() {
            let at = c_ir::StmtRef { proc, index: h };
            if index.loop_at(program.stmt(at).span.start).is_some_and(|l| l.keyword == site.keyword) {
                out.push(at);
            }
        }
    }
    out
}

/// What executing a procedure may write: variables, and whether memory (through pointers,
/// fields, arrays, `free`) is written. `None` in `vars` position is never produced: callees'
/// writes to their own locals are dropped, their writes to globals kept.
struct Writes {
    vars: Vec<VarId>,
    memory: bool,
}

fn writes_of(program: &Program, proc: ProcId, range: std::ops::RangeInclusive<usize>, seen: &mut Vec<ProcId>, out: &mut Writes) {
    let body = &program.proc(proc).body;
    for stmt in body.iter().take(range.end() + 1).skip(*range.start()) {
        let lhs = match &stmt.kind {
            c_ir::StmtKind::Assign { lhs, .. } | c_ir::StmtKind::Havoc { lhs } => Some(lhs),
            c_ir::StmtKind::Malloc { lhs, .. } => Some(lhs),
            c_ir::StmtKind::Call { lhs, callee, .. } => {
                if !seen.contains(callee) {
                    seen.push(*callee);
                    let n = program.proc(*callee).body.len();
                    if n > 0 {
                        let mut inner = Writes { vars: Vec::new(), memory: false };
                        writes_of(program, *callee, 0..=n - 1, seen, &mut inner);
                        out.memory |= inner.memory;
                        out.vars.extend(inner.vars.into_iter().filter(|v| program.var(*v).kind == VarKind::Global));
                    }
                }
                lhs.as_ref()
            }
            c_ir::StmtKind::Free { .. } => {
                out.memory = true;
                None
            }
            _ => None,
        };
        match lhs.map(|e| &e.kind) {
            Some(ExprKind::Var(v)) => out.vars.push(*v),
            Some(_) => out.memory = true,
            None => {}
        }
    }
}

fn nondet_function(ty: &Type) -> Option<(&'static str, &'static str)> {
    Some(match ty {
        Type::Bool => ("__VERIFIER_nondet_predabs_bool", "_Bool"),
        Type::Int { bits: 8, signed: true } => ("__VERIFIER_nondet_predabs_s8", "signed char"),
        Type::Int { bits: 8, signed: false } => ("__VERIFIER_nondet_predabs_u8", "unsigned char"),
        Type::Int { bits: 16, signed: true } => ("__VERIFIER_nondet_predabs_s16", "short"),
        Type::Int { bits: 16, signed: false } => ("__VERIFIER_nondet_predabs_u16", "unsigned short"),
        Type::Int { bits: 32, signed: true } => ("__VERIFIER_nondet_predabs_s32", "int"),
        Type::Int { bits: 32, signed: false } => ("__VERIFIER_nondet_predabs_u32", "unsigned int"),
        Type::Int { bits: 64, signed: true } => ("__VERIFIER_nondet_predabs_s64", "long long"),
        Type::Int { bits: 64, signed: false } => ("__VERIFIER_nondet_predabs_u64", "unsigned long long"),
        _ => return None,
    })
}

/// The assignments that give every variable the loop may change an arbitrary value
/// (`x = __VERIFIER_nondet_predabs_s32();`), or why that is not possible.
fn havoc_statements(program: &Program, index: &SourceIndex, site: &LoopSite) -> Result<Vec<(String, &'static str, &'static str)>, String> {
    let heads = heads_of(program, index, site);
    let Some(first) = heads.first() else { return Err("no loop head of the program lies in this loop".into()) };
    let proc = first.proc;
    let mut writes = Writes { vars: Vec::new(), memory: false };
    for h in &heads {
        let body = &program.proc(h.proc).body;
        let last = body
            .iter()
            .enumerate()
            .filter(|(_, s)| matches!(&s.kind, c_ir::StmtKind::Goto { targets } if targets.contains(&h.index)))
            .map(|(i, _)| i)
            .max()
            .unwrap_or(h.index as usize);
        writes_of(program, h.proc, h.index as usize..=last, &mut vec![h.proc], &mut writes);
    }
    if writes.memory {
        return Err("the loop writes memory (through pointers, fields or arrays)".into());
    }
    let printer = Printer { program, index, proc, at: scope_point(site), max_ops: usize::MAX };
    let mut out: Vec<(String, &'static str, &'static str)> = Vec::new();
    for v in writes.vars {
        let var = program.var(v);
        if !matches!(var.kind, VarKind::Global | VarKind::Local(_) | VarKind::Formal(..)) {
            continue;
        }
        if !printer.nameable(v) {
            let inside = site.keyword <= var.span.start && var.span.start < site.end;
            if inside {
                continue; // declared in the body: not live across iterations
            }
            return Err(format!("the loop changes `{}`, which cannot be named at the loop", var.source_name));
        }
        let Some((f, t)) = nondet_function(&var.ty) else { return Err(format!("the loop changes `{}`, which is not an integer", var.source_name)) };
        if !out.iter().any(|(n, _, _)| *n == var.source_name) {
            out.push((var.source_name.clone(), f, t));
        }
    }
    Ok(out)
}

/// The source with each invariant checked by induction at its loop (a `while` or `for`): the
/// invariant is asserted when the loop is reached, the variables the loop changes get arbitrary
/// values, the invariant is assumed, and one iteration runs, after which the invariant is
/// asserted again and the path ends; a path that leaves the loop goes on with the rest of the
/// program. The program is safe exactly when the invariants hold on entry, are preserved by
/// every iteration, and, with the loop conditions' negations, keep the rest of the program safe:
/// the invariants alone prove it. A prelude line declares the helper functions (second result:
/// the number of lines it adds). Errors name a loop the check cannot handle.
pub fn instrument_induction(program: &Program, index: &SourceIndex, checks: &[(u32, String)]) -> Result<(String, u32), String> {
    let text = index.text();
    let (err, decl) = error_call(index);
    let mut prelude = String::from("extern void __VERIFIER_assume(int);");
    if let Some(d) = decl {
        prelude.push(' ');
        prelude.push_str(d.trim_end());
    }
    let mut declared: Vec<&str> = Vec::new();
    let mut edits: Vec<(u32, u32, String)> = Vec::new();
    for site in &index.loops {
        let invs: Vec<&str> = checks.iter().filter(|(k, _)| *k == site.keyword).map(|(_, t)| t.as_str()).collect();
        if invs.is_empty() {
            continue;
        }
        let (line, _) = index.line_col(site.keyword);
        let (asserted, assumed) = (assertions(&invs, err), assumptions(&invs));
        let havoc = havoc_statements(program, index, site).map_err(|e| format!("loop at line {line}: {e}"))?;
        let slice = |a: u32, b: u32| &text[a as usize..b as usize];
        let (init, cond, step) = match (site.kind, site.header, site.semicolons) {
            (LoopKind::While, Some((open, close)), _) => (String::new(), slice(open + 1, close).to_string(), String::new()),
            (LoopKind::For, Some((open, close)), Some((s1, s2))) => (slice(open + 1, s1).to_string(), slice(s1 + 1, s2).to_string(), slice(s2 + 1, close).to_string()),
            _ => return Err(format!("loop at line {line}: only `while` and `for` loops are checked by induction")),
        };
        let mut assigns = String::new();
        for (name, f, t) in &havoc {
            assigns.push_str(&format!("{name} = {f}(); "));
            if !declared.contains(f) {
                declared.push(f);
                prelude.push_str(&format!(" extern {t} {f}(void);"));
            }
        }
        let exit = if cond.trim().is_empty() { String::new() } else { format!(" else if (!({cond})) break;") };
        let step = if step.trim().is_empty() { String::new() } else { format!(", {step}") };
        let close = site.header.map(|(_, c)| c + 1).unwrap_or(site.keyword);
        edits.push((
            site.keyword,
            close,
            format!(
                "{{ {init}; {asserted}{assigns}{assumed}for (int __predabs_k = 0; ; __predabs_k = 1{step}) if (__predabs_k) {{ {asserted}__VERIFIER_assume(0); }}{exit} else"
            ),
        ));
        edits.push((site.end, site.end, " }".to_string()));
    }
    Ok(apply(text, edits, Some(prelude), 1))
}
