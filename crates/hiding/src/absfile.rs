//! The abstraction file (seed 003, appendix): one hidden variable per line, `SCOPE NAME`,
//! where SCOPE is a function's name (its locals and formals) or `(global)` (globals, and a
//! function's return value under the function's name). Blank lines and lines starting with
//! `#` or `//` are comments (a completion: the paper shows none).

use crate::model::{Program, Scope, VarId};
use diagnostics::{Diagnostic, Span};

/// One line of an abstraction file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AbsLine {
    pub scope: Scope,
    pub name: String,
    /// The line's text span in the abstraction file.
    pub span: Span,
    pub line: u32,
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_') && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Parses the file; malformed lines are errors with their line:column, never a panic.
pub fn parse(text: &str) -> (Vec<AbsLine>, Vec<Diagnostic>) {
    let mut lines = Vec::new();
    let mut diagnostics = Vec::new();
    let mut offset = 0u32;
    for (n, raw) in text.split_inclusive('\n').enumerate() {
        let start = offset;
        offset += raw.len() as u32;
        let content = raw.trim_end_matches(['\n', '\r']);
        let trimmed = content.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with("//") {
            continue;
        }
        let lead = (content.len() - content.trim_start().len()) as u32;
        let span = Span::new(start + lead, start + lead + trimmed.len() as u32);
        let words: Vec<&str> = trimmed.split_whitespace().collect();
        let malformed = |message: String| Diagnostic::error(span, message).with_help("each line names one variable as `SCOPE NAME`, e.g. `move d` (a local or formal of `move`) or `(global) i`");
        match words.as_slice() {
            [scope, name] => {
                let scope = if *scope == "(global)" {
                    Scope::Global
                } else if is_identifier(scope) {
                    Scope::Function(scope.to_string())
                } else {
                    diagnostics.push(malformed(format!("`{scope}` is not a scope: write a function name or `(global)`")));
                    continue;
                };
                if !is_identifier(name) {
                    diagnostics.push(malformed(format!("`{name}` is not a variable name")));
                    continue;
                }
                lines.push(AbsLine { scope, name: name.to_string(), span, line: n as u32 + 1 });
            }
            [one] => diagnostics.push(malformed(format!("`{one}` has no scope: write `SCOPE NAME`"))),
            _ => diagnostics.push(malformed(format!("expected two words `SCOPE NAME`, found {}", words.len()))),
        }
    }
    (lines, diagnostics)
}

/// Resolves the lines against the program: unknown scopes and variables and function
/// pointers are errors (spans in the abstraction file); duplicates are warnings.
pub fn resolve(program: &Program, lines: &[AbsLine]) -> (Vec<VarId>, Vec<Diagnostic>) {
    let mut out = Vec::new();
    let mut diagnostics = Vec::new();
    for l in lines {
        let Some(v) = program.lookup(&l.scope, &l.name) else {
            diagnostics.push(unknown(program, l));
            continue;
        };
        if program.var(v).ty.is_function_pointer() && program.var(v).kind != crate::model::VarKind::Result {
            diagnostics.push(
                Diagnostic::error(l.span, format!("`{} {}` is a function pointer: abC refuses to hide function pointers", l.scope, l.name))
                    .with_help("calls through a hidden function pointer could not be resolved; hide the variables the called functions use instead"),
            );
            continue;
        }
        if out.contains(&v) {
            diagnostics.push(Diagnostic::warning(l.span, format!("`{} {}` is listed twice", l.scope, l.name)));
            continue;
        }
        out.push(v);
    }
    (out, diagnostics)
}

fn unknown(program: &Program, l: &AbsLine) -> Diagnostic {
    let in_scope: Vec<String> = program.vars.iter().filter(|v| v.scope == l.scope && !v.from_header).map(|v| v.name.clone()).collect();
    match &l.scope {
        Scope::Function(f) if program.function(f).is_none_or(|func| !func.has_body) => {
            let names: Vec<&str> = program.functions.iter().filter(|f| f.has_body).map(|f| f.name.as_str()).collect();
            Diagnostic::error(l.span, format!("the program defines no function `{f}`")).with_help(format!("scopes: (global), {}", names.join(", ")))
        }
        Scope::Function(f) => {
            let d = Diagnostic::error(l.span, format!("function `{f}` has no local variable or parameter `{}`", l.name));
            if in_scope.is_empty() {
                d.with_help(format!("`{f}` has no variables at all"))
            } else {
                d.with_help(format!("variables of `{f}`: {}", in_scope.join(", ")))
            }
        }
        Scope::Global => {
            let local_in: Vec<String> = program.vars.iter().filter(|v| v.name == l.name && v.scope != Scope::Global).map(|v| v.scope.to_string()).collect();
            let d = Diagnostic::error(l.span, format!("the program has no global variable or function named `{}`", l.name));
            if let Some(f) = local_in.first() {
                d.with_help(format!("`{}` is local to `{f}`: write `{f} {}`", l.name, l.name))
            } else {
                d
            }
        }
    }
}

/// The file's text for a list of variables (one `SCOPE NAME` per line).
pub fn render(program: &Program, vars: &[VarId]) -> String {
    vars.iter().map(|&v| format!("{}\n", program.describe(v))).collect()
}
