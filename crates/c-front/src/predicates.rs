//! C2BP predicate files (`global { e1, e2 } proc { e3; e4 }`) and single C expressions, parsed
//! with lang-c and resolved against a lowered program (formals, locals, globals, `'f`, `NULL`).

use crate::lower::{Binding, Lowerer};
use c_ir::{Expr, PredicateSet, ProcId, Program, Type, VarKind};
use diagnostics::{Diagnostic, Span};
use lang_c::ast;

const SYMBOLIC_PREFIX: &str = "__predabs_symbolic_";
/// `'*p` (the value of `*p` at entry, polymorphic predicate abstraction §5.3) is rewritten to this.
const SYMBOLIC_DEREF_PREFIX: &str = "__predabs_symderef_";
const WRAP_PREFIX: &str = "void __predabs_expression(void) { (";
const WRAP_SUFFIX: &str = "\n); }\n";

/// Prints a predicate set in C2BP's predicate-file syntax (`global { ... }` then one block per
/// procedure); [`parse_predicates`] reads it back.
pub fn display_predicates(program: &Program, set: &PredicateSet) -> String {
    let mut out = String::new();
    let mut block = |name: &str, preds: &[Expr]| {
        if preds.is_empty() {
            return;
        }
        out.push_str(name);
        out.push_str(" {\n");
        for (i, p) in preds.iter().enumerate() {
            out.push_str("  ");
            out.push_str(&c_ir::display_expr(program, p));
            out.push_str(if i + 1 < preds.len() { ",\n" } else { "\n" });
        }
        out.push_str("}\n");
    };
    block("global", &set.global);
    for (proc, preds) in &set.local {
        let name = program.procs.get(proc.0 as usize).map(|p| p.name.clone()).unwrap_or_default();
        block(&name, preds);
    }
    out
}

/// Parses a predicate file: blocks `name { p1, p2; p3 }` where `name` is `global` or a procedure.
pub fn parse_predicates(program: &Program, text: &str) -> (PredicateSet, Vec<Diagnostic>) {
    let mut set = PredicateSet::default();
    let mut diagnostics = Vec::new();
    let blanked = crate::preprocess::blank_comments_pub(text);
    let bytes = blanked.as_bytes();
    let mut i = 0usize;
    loop {
        while i < bytes.len() && (bytes[i].is_ascii_whitespace() || bytes[i] == b';' || bytes[i] == b',') {
            i += 1;
        }
        if i >= bytes.len() {
            break;
        }
        let name_start = i;
        while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'$') {
            i += 1;
        }
        if i == name_start {
            let end = (i + 1).min(bytes.len());
            diagnostics.push(Diagnostic::error(Span::new(i as u32, end as u32), "expected a procedure name or `global` before `{`"));
            // skip to the next block
            while i < bytes.len() && bytes[i] != b'}' {
                i += 1;
            }
            i += 1;
            continue;
        }
        let name = &blanked[name_start..i];
        let name_span = Span::new(name_start as u32, i as u32);
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if i >= bytes.len() || bytes[i] != b'{' {
            diagnostics.push(Diagnostic::error(Span::new(i.min(bytes.len()) as u32, (i + 1).min(bytes.len()) as u32), format!("expected `{{` after `{name}`")));
            while i < bytes.len() && bytes[i] != b'}' {
                i += 1;
            }
            i += 1;
            continue;
        }
        i += 1;
        let proc = if name == "global" {
            None
        } else {
            match program.proc_by_name(name) {
                Some(p) => Some(p),
                None => {
                    diagnostics.push(Diagnostic::error(name_span, format!("no procedure named `{name}` in the program")));
                    while i < bytes.len() && bytes[i] != b'}' {
                        i += 1;
                    }
                    i += 1;
                    continue;
                }
            }
        };
        // items up to the matching `}`
        let mut depth = 0i32;
        let mut item_start = i;
        let mut closed = false;
        while i < bytes.len() {
            let c = bytes[i];
            match c {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' => depth -= 1,
                b'}' if depth > 0 => depth -= 1,
                b'}' => {
                    add_item(program, proc, text, item_start, i, &mut set, &mut diagnostics);
                    closed = true;
                    i += 1;
                    break;
                }
                b',' | b';' if depth <= 0 => {
                    add_item(program, proc, text, item_start, i, &mut set, &mut diagnostics);
                    item_start = i + 1;
                }
                _ => {}
            }
            i += 1;
        }
        if !closed {
            diagnostics.push(Diagnostic::error(name_span, format!("the block of `{name}` is not closed with `}}`")));
            add_item(program, proc, text, item_start, bytes.len(), &mut set, &mut diagnostics);
        }
    }
    (set, diagnostics)
}

fn add_item(program: &Program, proc: Option<ProcId>, text: &str, start: usize, end: usize, set: &mut PredicateSet, diagnostics: &mut Vec<Diagnostic>) {
    let item = &text[start..end];
    if item.trim().is_empty() {
        return;
    }
    let (expr, diags) = parse_expression(program, proc, item);
    let shifted = diags.into_iter().map(|mut d| {
        d.span = Span::new(d.span.start + start as u32, d.span.end + start as u32);
        for l in &mut d.labels {
            l.span = Span::new(l.span.start + start as u32, l.span.end + start as u32);
        }
        d
    });
    diagnostics.extend(shifted);
    if let Some(e) = expr {
        match to_predicate(e) {
            Some(e) => {
                set.insert(proc, e);
            }
            None => diagnostics.push(Diagnostic::error(Span::new(start as u32, end as u32), "a predicate must be an integer or pointer condition")),
        }
    }
}

fn to_predicate(e: Expr) -> Option<Expr> {
    match &e.ty {
        Type::Bool => Some(e),
        Type::Int { .. } | Type::Pointer(_) => {
            let zero = Expr::int(0, e.ty.clone());
            Some(Expr::binary(c_ir::BinaryOp::Ne, e, zero))
        }
        _ => None,
    }
}

/// Rewrites `'x` (symbolic constants) to identifiers; returns the text and a map of (new offset, delta).
fn rewrite_symbolic(text: &str) -> (String, Vec<(usize, i64)>) {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len() + 16);
    let mut shifts = Vec::new();
    let mut i = 0;
    let mut delta: i64 = 0;
    while i < bytes.len() {
        let c = bytes[i];
        // `'*p`: the entry value of `*p` for a pointer formal `p`
        if c == b'\'' && i + 2 < bytes.len() && bytes[i + 1] == b'*' && (bytes[i + 2].is_ascii_alphabetic() || bytes[i + 2] == b'_') {
            let j = identifier_end(bytes, i + 2);
            out.push_str(SYMBOLIC_DEREF_PREFIX);
            delta += SYMBOLIC_DEREF_PREFIX.len() as i64 - 2;
            shifts.push((out.len(), delta));
            out.push_str(&text[i + 2..j]);
            i = j;
            continue;
        }
        if c == b'\'' && i + 1 < bytes.len() && (bytes[i + 1].is_ascii_alphabetic() || bytes[i + 1] == b'_') {
            let j = identifier_end(bytes, i + 1);
            let is_char_literal = j < bytes.len() && bytes[j] == b'\'';
            if !is_char_literal {
                out.push_str(SYMBOLIC_PREFIX);
                delta += SYMBOLIC_PREFIX.len() as i64 - 1;
                shifts.push((out.len(), delta));
                out.push_str(&text[i + 1..j]);
                i = j;
                continue;
            }
        }
        let ch_len = text[i..].chars().next().map(|ch| ch.len_utf8()).unwrap_or(1);
        out.push_str(&text[i..i + ch_len]);
        i += ch_len;
    }
    (out, shifts)
}

fn unshift(offset: u32, shifts: &[(usize, i64)], len: usize) -> u32 {
    let mut delta = 0;
    for &(at, d) in shifts {
        if (offset as usize) >= at {
            delta = d;
        }
    }
    ((offset as i64 - delta).max(0) as usize).min(len) as u32
}

/// Parses one side-effect-free C expression in the scope of `proc` (or only globals) and
/// type-checks it against the program. Spans are byte offsets into `text`.
pub fn parse_expression(program: &Program, proc: Option<ProcId>, text: &str) -> (Option<Expr>, Vec<Diagnostic>) {
    let (rewritten, shifts) = rewrite_symbolic(text);
    let wrapped = format!("{WRAP_PREFIX}{rewritten}{WRAP_SUFFIX}");
    let defines = vec![("NULL".to_string(), "((void*)0)".to_string()), ("true".to_string(), "1".to_string()), ("false".to_string(), "0".to_string())];
    let (pre, pre_diags) = crate::preprocess::preprocess(&wrapped, "<predicate>", &[], &defines);
    let map_back = |span: Span| -> Span {
        let s = span.start.saturating_sub(WRAP_PREFIX.len() as u32);
        let e = span.end.saturating_sub(WRAP_PREFIX.len() as u32);
        Span::new(unshift(s, &shifts, text.len()), unshift(e, &shifts, text.len()))
    };
    let fix = |mut d: Diagnostic| -> Diagnostic {
        d.span = map_back(d.span);
        d
    };
    if diagnostics::has_errors(&pre_diags) {
        return (None, pre_diags.into_iter().map(fix).collect());
    }
    if let Some(d) = crate::nesting::check(&pre.text, Some(&pre.source_map)) {
        return (None, vec![fix(d)]);
    }
    let config = lang_c::driver::Config::with_gcc();
    let parse = match lang_c::driver::parse_preprocessed(&config, pre.text.clone()) {
        Ok(p) => p,
        Err(e) => {
            let at = pre.source_map.map_offset(e.offset as u32);
            let d = Diagnostic::error(Span::new(at, at + 1), "syntax error in expression");
            return (None, vec![fix(d)]);
        }
    };
    // exactly one function holding exactly one expression statement (nothing smuggled in)
    let single = parse.unit.0.len() == 1
        && parse.unit.0.iter().all(|ext| match &ext.node {
            ast::ExternalDeclaration::FunctionDefinition(f) => matches!(&f.node.statement.node, ast::Statement::Compound(items) if items.len() == 1),
            _ => false,
        });
    if !single {
        return (None, vec![Diagnostic::error(Span::new(0, text.len() as u32), "expected one C expression")]);
    }
    // find the expression statement
    let expression = parse.unit.0.iter().find_map(|ext| match &ext.node {
        ast::ExternalDeclaration::FunctionDefinition(f) => match &f.node.statement.node {
            ast::Statement::Compound(items) => items.iter().find_map(|item| match &item.node {
                ast::BlockItem::Statement(s) => match &s.node {
                    ast::Statement::Expression(Some(e)) => Some(e.as_ref()),
                    _ => None,
                },
                _ => None,
            }),
            _ => None,
        },
        _ => None,
    });
    let Some(expression) = expression else {
        return (None, vec![Diagnostic::error(Span::new(0, text.len() as u32), "expected one C expression")]);
    };
    let mut lowerer = Lowerer::new(&pre.source_map, &pre.text, "main");
    lowerer.program = program.clone();
    lowerer.side_effect_message = Some("predicates and expressions must not have side effects (no assignments, calls, `++`)");
    for s in program.structs.iter() {
        let key = format!("{} {}", if s.is_union { "union" } else { "struct" }, s.name);
        let id = c_ir::StructId(program.structs.iter().position(|x| std::ptr::eq(x, s)).unwrap_or(0) as u32);
        lowerer.tags[0].insert(key, Type::Struct(id));
    }
    for &g in &program.globals {
        let v = program.var(g);
        lowerer.scopes[0].insert(v.source_name.clone(), Binding::Var(g));
        lowerer.scopes[0].insert(v.name.clone(), Binding::Var(g));
    }
    if let Some(p) = proc {
        lowerer.push_scope();
        let pr = program.proc(p);
        for &v in pr.formals.iter().chain(pr.locals.iter()) {
            let var = program.var(v);
            match var.kind {
                VarKind::SymbolicConst { of, .. } => {
                    let of_var = program.var(of);
                    lowerer.bind(&format!("{SYMBOLIC_PREFIX}{}", of_var.source_name), Binding::Var(v));
                    lowerer.bind(&format!("{SYMBOLIC_PREFIX}{}", of_var.name), Binding::Var(v));
                }
                _ => {
                    // the first declaration of a source name wins (outermost scope)
                    if lowerer.scopes.last().is_some_and(|s| !s.contains_key(&var.source_name)) {
                        lowerer.bind(&var.source_name, Binding::Var(v));
                    }
                    lowerer.bind(&var.name, Binding::Var(v));
                }
            }
        }
    }
    if let Some(p) = proc {
        // `'*f` constants live outside the procedure's locals (see `add_deref_symbolic_constants`)
        for (k, var) in program.vars.iter().enumerate() {
            if let VarKind::SymbolicConst { proc: q, of } = var.kind {
                let of_var = program.var(of);
                if q == p && var.ty != of_var.ty {
                    lowerer.bind(&format!("{SYMBOLIC_DEREF_PREFIX}{}", of_var.source_name), Binding::Var(c_ir::VarId(k as u32)));
                    lowerer.bind(&format!("{SYMBOLIC_DEREF_PREFIX}{}", of_var.name), Binding::Var(c_ir::VarId(k as u32)));
                }
            }
        }
    }
    let value = lowerer.rvalue(expression);
    let mut diagnostics: Vec<Diagnostic> = lowerer.diagnostics.into_iter().map(fix).collect();
    // Show the internal spellings of `'x` and `'*x` as the user wrote them (the prefixes are
    // not prefixes of each other).
    for d in &mut diagnostics {
        d.message = d.message.replace(SYMBOLIC_DEREF_PREFIX, "'*").replace(SYMBOLIC_PREFIX, "'");
    }
    if diagnostics::has_errors(&diagnostics) {
        return (None, diagnostics);
    }
    (Some(value), diagnostics)
}

/// Adds, for every formal `p` of a pointer-to-scalar type, the symbolic constant `'*p` holding
/// the value of `*p` at procedure entry (polymorphic predicate abstraction §5.3): a
/// [`VarKind::SymbolicConst`] of `p` whose type is the pointee type (which tells it apart from
/// `'p`). It is appended to the arena only — no procedure declares or initialises it — so
/// programs run and print as before; the abstraction binds it at the entry statement `'p = p`.
pub fn add_deref_symbolic_constants(program: &mut Program) {
    let mut added = Vec::new();
    for (index, proc) in program.procs.iter().enumerate() {
        for &formal in &proc.formals {
            let var = program.var(formal);
            let Some(pointee) = var.ty.pointee() else { continue };
            if !pointee.is_scalar() {
                continue;
            }
            added.push(c_ir::Var {
                name: format!("'*{}", var.name),
                source_name: format!("'*{}", var.source_name),
                ty: pointee.clone(),
                kind: VarKind::SymbolicConst { proc: c_ir::ProcId(index as u32), of: formal },
                span: var.span,
                address_taken: false,
            });
        }
    }
    for var in added {
        program.add_var(var);
    }
}

/// The end of the identifier characters (`[A-Za-z0-9_]*`) starting at `start`.
fn identifier_end(bytes: &[u8], start: usize) -> usize {
    let mut j = start;
    while j < bytes.len() && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'_') {
        j += 1;
    }
    j
}
