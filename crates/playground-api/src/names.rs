//! Traces in the student's terms (issue 31, item 12): what the engine prints about the lowered
//! program — its renamed-apart variables (`count_main`), return variables
//! (`register_chrdev_return`), lowering temporaries, the symbolic constants `'f` of C2BP's
//! procedure abstraction (C2BP §4.5: `'f` is the value formal `f` had when the call began) —
//! mapped back to the names and expressions of the C source; pointer values shown as what they
//! point to (`&x`, `&heap cell 2`, `NULL`); each input labelled with the C call and line that
//! read it.

use c_ir::interp::PointerTarget;
use c_ir::{Program, VarId, VarKind};
use diagnostics::{LineIndex, Span};
use std::collections::BTreeMap;

use crate::types::{InputData, SymbolicConstant};

/// The longest C text of a temporary's expression shown in its place.
const MAX_EXPRESSION: usize = 40;

/// Display names of a lowered program's variables, and the C text behind spans.
pub(crate) struct SourceNames<'a> {
    program: &'a Program,
    index: &'a LineIndex,
    /// Printed (lowered) name → variable.
    by_name: BTreeMap<&'a str, VarId>,
    /// Source names that more than one global, local or formal has (locals are then shown as
    /// `proc::name`).
    shared: BTreeMap<&'a str, usize>,
}

impl<'a> SourceNames<'a> {
    pub(crate) fn new(program: &'a Program, index: &'a LineIndex) -> SourceNames<'a> {
        let by_name = program.vars.iter().enumerate().map(|(k, v)| (v.name.as_str(), VarId(k as u32))).collect();
        let mut shared: BTreeMap<&str, usize> = BTreeMap::new();
        for v in program.vars.iter().filter(|v| matches!(v.kind, VarKind::Global | VarKind::Local(_) | VarKind::Formal(..))) {
            *shared.entry(v.source_name.as_str()).or_default() += 1;
        }
        SourceNames { program, index, by_name, shared }
    }

    /// The C text of `span` when it lies on one line (trimmed), else its first line with `…`.
    pub(crate) fn c_text(&self, span: Span) -> Option<String> {
        let text = self.index.text();
        let (start, end) = (span.start as usize, (span.end as usize).min(text.len()));
        if start >= end || !text.is_char_boundary(start) || !text.is_char_boundary(end) {
            return None;
        }
        let snippet = text[start..end].trim();
        match snippet.split_once('\n') {
            None => Some(snippet.to_string()),
            Some((first, _)) => Some(format!("{} …", first.trim_end())),
        }
    }

    /// How variable `v` is shown: its source name; a temporary as the C expression it holds
    /// (when short), a return variable as the call `f()` whose value it is.
    pub(crate) fn display(&self, v: VarId) -> String {
        let var = self.program.var(v);
        match var.kind {
            VarKind::Global => var.source_name.clone(),
            VarKind::Local(p) | VarKind::Formal(p, _) if self.shared.get(var.source_name.as_str()).is_some_and(|&n| n > 1) => {
                format!("{}::{}", self.program.proc(p).name, var.source_name)
            }
            VarKind::Local(_) | VarKind::Formal(..) => var.source_name.clone(),
            VarKind::SymbolicConst { .. } => var.source_name.clone(),
            VarKind::Return(p) => format!("{}()", self.program.proc(p).name),
            VarKind::Temp(_) => match self.c_text(var.span) {
                Some(e) if !e.is_empty() && e.len() <= MAX_EXPRESSION && !e.contains('…') && !e.ends_with(';') => {
                    if e.contains(' ') {
                        format!("({e})")
                    } else {
                        e
                    }
                }
                _ => "(a value computed by the lowering)".to_string(),
            },
        }
    }

    /// The variable a printed name stands for (`x#2`, a call instance in a path, is `x`).
    fn lookup(&self, name: &str) -> Option<VarId> {
        let base = match name.split_once('#') {
            Some((base, k)) if k.bytes().all(|b| b.is_ascii_digit()) => base,
            _ => name,
        };
        self.by_name.get(base).copied()
    }

    /// The trimmed text of 1-based `line` of the source.
    pub(crate) fn line_text(&self, line: u32) -> Option<String> {
        self.index.text().lines().nth((line as usize).checked_sub(1)?).map(|l| l.trim().to_string())
    }

    /// `text` (a printed statement or condition over the lowered program) with every lowered
    /// variable name replaced by its display name; `x#2` (the second call's instance in a path)
    /// keeps its suffix. Field names after `.` and `->` are left alone.
    pub(crate) fn rewrite(&self, text: &str) -> String {
        let bytes = text.as_bytes();
        let mut out = String::with_capacity(text.len());
        let mut k = 0;
        while k < bytes.len() {
            let c = bytes[k];
            let starts_name = c == b'\'' || c == b'_' || c.is_ascii_alphabetic();
            let after_member = out.ends_with('.') || out.ends_with("->");
            if !starts_name || (k > 0 && (bytes[k - 1].is_ascii_alphanumeric() || bytes[k - 1] == b'_')) {
                let ch = text[k..].chars().next().unwrap_or(' ');
                out.push(ch);
                k += ch.len_utf8();
                continue;
            }
            let start = k;
            k += 1;
            // `'*p` is one symbolic constant
            if c == b'\'' && k < bytes.len() && bytes[k] == b'*' {
                k += 1;
            }
            while k < bytes.len() && (bytes[k] == b'_' || bytes[k].is_ascii_alphanumeric()) {
                k += 1;
            }
            let name = &text[start..k];
            match self.lookup(name) {
                Some(v) if !after_member => out.push_str(&self.display(v)),
                _ => out.push_str(name),
            }
        }
        out
    }

    /// A statement of the lowered program as the student reads it: names mapped back, a
    /// return variable's assignment as `return e;`.
    pub(crate) fn statement(&self, printed: &str) -> String {
        if let Some((lhs, rhs)) = printed.split_once(" = ") {
            if self.lookup(lhs.trim()).is_some_and(|v| matches!(self.program.var(v).kind, VarKind::Return(_))) {
                return format!("return {}", self.rewrite(rhs));
            }
        }
        self.rewrite(printed)
    }

    /// Whether a printed lowered statement is an artefact of the lowering with nothing to read
    /// in C: `'f = f;` (a symbolic constant takes a formal's value at entry) and
    /// `return f_return;` (the C `return e;` was the assignment before it).
    pub(crate) fn is_lowering_artefact(&self, printed: &str) -> bool {
        let s = printed.trim().trim_end_matches(';');
        if let Some((lhs, _)) = s.split_once(" = ") {
            return self.lookup(lhs.trim()).is_some_and(|v| matches!(self.program.var(v).kind, VarKind::SymbolicConst { .. }));
        }
        if let Some(r) = s.strip_prefix("return ") {
            return self.lookup(r.trim()).is_some_and(|v| matches!(self.program.var(v).kind, VarKind::Return(_)));
        }
        false
    }

    /// Whether a variable's value is worth showing beside a step: not a symbolic constant, not
    /// a return variable (its value before `return e;` is no C value).
    pub(crate) fn shows_value(&self, v: VarId) -> bool {
        !matches!(self.program.var(v).kind, VarKind::SymbolicConst { .. } | VarKind::Return(_))
    }

    /// A pointer value as what it points to.
    pub(crate) fn pointer(&self, target: PointerTarget) -> String {
        let plus = |offset: u64| if offset == 0 { String::new() } else { format!(" + {offset} bytes") };
        match target {
            PointerTarget::Null => "NULL".into(),
            PointerTarget::Variable { var, offset } => format!("&{}{}", self.display(var), plus(offset)),
            PointerTarget::Heap { cell, offset, freed } => {
                format!("&heap cell {cell}{}{}", plus(offset), if freed { " (freed)" } else { "" })
            }
            PointerTarget::StringLiteral { offset } => format!("a string literal{}", plus(offset)),
            PointerTarget::Invalid => "a dangling pointer".into(),
        }
    }

    /// An input with the C call (or entry parameter) and the line that read it.
    pub(crate) fn input(&self, value: i128, site: concrete::InputSite) -> InputData {
        match site {
            concrete::InputSite::EntryFormal(f) => {
                let var = self.program.var(f);
                let entry = self.program.entry.map(|e| self.program.proc(e).name.clone()).unwrap_or_default();
                let at = self.index.line_col(var.span.start);
                InputData {
                    value: value.to_string(),
                    source: format!("parameter {} of {entry}", var.source_name),
                    line: at.line,
                    column: at.column,
                }
            }
            concrete::InputSite::Statement { at, span } => {
                let text = self.c_text(span).unwrap_or_default();
                let source = self.reading_call(&text).unwrap_or_else(|| match self.c_text(self.program.stmt(at).span) {
                    Some(t) if !t.is_empty() => t,
                    _ => "an input".to_string(),
                });
                let position = self.index.line_col(span.start);
                InputData { value: value.to_string(), source, line: position.line, column: position.column }
            }
        }
    }

    /// The call in C text `text` that reads an input: a `__VERIFIER_nondet_*` (or other
    /// `nondet`) call, else the first call of a function without a body.
    fn reading_call(&self, text: &str) -> Option<String> {
        let calls = call_names(text);
        let bodiless = |name: &str| !self.program.procs.iter().any(|p| p.name == name && !p.body.is_empty());
        calls
            .iter()
            .find(|n| n.to_ascii_lowercase().contains("nondet"))
            .or_else(|| calls.iter().find(|n| bodiless(n)))
            .map(|n| format!("{n}()"))
    }

    /// The symbolic constants named in `texts`, each with what it stands for.
    pub(crate) fn symbolic_constants<'t>(&self, texts: impl IntoIterator<Item = &'t str>) -> Vec<SymbolicConstant> {
        let mut found: Vec<SymbolicConstant> = Vec::new();
        for text in texts {
            for name in symbolic_names(text) {
                let Some(v) = self.lookup(name) else { continue };
                let VarKind::SymbolicConst { proc, of } = self.program.var(v).kind else { continue };
                let shown = self.display(v);
                if found.iter().any(|s| s.name == shown) {
                    continue;
                }
                let procedure = &self.program.proc(proc).name;
                let formal = &self.program.var(of).source_name;
                let meaning = if name.starts_with("'*") {
                    format!("the value *{formal} had when {procedure} was called (a symbolic constant: it never changes inside {procedure})")
                } else {
                    format!("the value parameter {formal} had when {procedure} was called (a symbolic constant: it never changes inside {procedure})")
                };
                found.push(SymbolicConstant { name: shown, meaning });
            }
        }
        found
    }
}

/// Identifiers followed by `(` in C text, in order.
fn call_names(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let mut names = Vec::new();
    let mut k = 0;
    while k < bytes.len() {
        if bytes[k] == b'_' || bytes[k].is_ascii_alphabetic() {
            let start = k;
            while k < bytes.len() && (bytes[k] == b'_' || bytes[k].is_ascii_alphanumeric()) {
                k += 1;
            }
            let mut j = k;
            while j < bytes.len() && bytes[j] == b' ' {
                j += 1;
            }
            if bytes.get(j) == Some(&b'(') && !matches!(&text[start..k], "if" | "while" | "for" | "switch" | "sizeof" | "return") {
                names.push(text[start..k].to_string());
            }
        } else {
            k += 1;
        }
    }
    names
}

/// The `'f` and `'*f` names in a printed text.
fn symbolic_names(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut names = Vec::new();
    let mut k = 0;
    while k < bytes.len() {
        if bytes[k] == b'\'' {
            let start = k;
            k += 1;
            if bytes.get(k) == Some(&b'*') {
                k += 1;
            }
            while k < bytes.len() && (bytes[k] == b'_' || bytes[k].is_ascii_alphanumeric()) {
                k += 1;
            }
            if k > start + 1 {
                names.push(&text[start..k]);
            }
        } else {
            k += 1;
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use crate::types::*;

    fn check(source: &str) -> Outcome {
        let request = Request {
            mode: Mode::Check,
            source: source.into(),
            file_name: "t.c".into(),
            options: Options { techniques: vec![Technique::Cegar], ..Options::default() },
            ..Request::default()
        };
        crate::run(&request, &mut |_| {}, &|| false)
    }

    fn testdev() -> Outcome {
        check(crate::examples::by_id("testdev").expect("testdev").source)
    }

    #[test]
    fn the_concrete_run_of_testdev_is_in_the_source_names() {
        let o = testdev();
        assert_eq!(o.verdict, Verdict::Unsafe);
        let lowered = ["_main", "_return", "'", "tmp", "inode_testdev_release"];
        for step in &o.trace {
            for bad in lowered {
                assert!(!step.statement.contains(bad), "{bad} in {step:?}");
                assert!(step.values.iter().all(|(n, _)| !n.contains(bad)), "{bad} in {step:?}");
            }
            assert!(!step.c_source.is_empty(), "every step has its C line: {step:?}");
        }
        // a return variable's assignment is C's return; the copy into it is not a step
        let ret = o.trace.iter().find(|s| s.line == 22).expect("register_chrdev returns");
        assert_eq!(ret.statement, "return 42;");
        assert_eq!(ret.c_source, "return 42;");
        // `MOD_INC_USE_COUNT;` executes as usecount = usecount + 1
        let inc = o.trace.iter().find(|s| s.line == 33).expect("the increment");
        assert_eq!((inc.c_source.as_str(), inc.statement.as_str()), ("MOD_INC_USE_COUNT;", "usecount = usecount + 1;"));
        // main's inode and testdev_open's parameter share a name: both are qualified, and the
        // pointer is shown as what it points to
        let deref = o.trace.iter().find(|s| s.line == 32).expect("the assertion");
        assert!(deref.values.contains(&("testdev_open::inode".to_string(), "&main::inode".to_string())), "{deref:?}");
    }

    #[test]
    fn the_feasibility_table_and_abstract_trace_use_source_names_and_explain_symbolic_constants() {
        let o = testdev();
        let it = o.iterations.last().expect("iterations");
        for row in &it.feasibility_table {
            for text in std::iter::once(&row.statement).chain(row.columns.iter().map(|(_, c)| c)) {
                assert!(!text.contains("_main") && !text.contains("_return"), "{text}");
            }
        }
        assert!(it.feasibility_table.iter().any(|r| r.statement == "return -19;"), "the second call's return, instance #2");
        let names: Vec<&str> = it.abstract_trace.iter().flat_map(|s| s.valuation.iter().map(|(n, _)| n.as_str())).collect();
        assert!(names.contains(&"{main::inode.i_rdev >> 8 == major}"), "{names:?}");
        let inode = it.symbolic_constants.iter().find(|c| c.name == "'inode").expect("'inode is explained");
        assert!(inode.meaning.contains("parameter inode had when testdev_open was called"), "{}", inode.meaning);
    }

    #[test]
    fn each_input_is_labelled_with_the_call_and_line_that_read_it() {
        let source = "extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\nint main(void) {\n  int a = __VERIFIER_nondet_int();\n  int b = __VERIFIER_nondet_int();\n  if (a == 5 && b == a + 2) reach_error();\n  return 0;\n}\n";
        let o = check(source);
        assert_eq!(o.verdict, Verdict::Unsafe);
        let described: Vec<String> = o.input_sources.iter().map(InputData::describe).collect();
        assert_eq!(described, ["__VERIFIER_nondet_int() at line 4 = 5", "__VERIFIER_nondet_int() at line 5 = 7"]);
        assert_eq!(o.input_sources[0].column, 11);
    }

    #[test]
    fn pointers_are_shown_as_what_they_point_to() {
        let source = "#include <stdlib.h>\nextern void reach_error(void);\nint main(void) {\n  int *p = malloc(sizeof(int));\n  int *q = 0;\n  int *r = malloc(sizeof(int));\n  if (p != 0 && r != 0 && q == 0) reach_error();\n  return 0;\n}\n";
        let o = check(source);
        assert_eq!(o.verdict, Verdict::Unsafe, "{}", o.reason);
        let last = o.trace.iter().rev().find(|s| s.line == 7 && !s.values.is_empty()).expect("the test");
        let value = |n: &str| last.values.iter().find(|(m, _)| m == n).map(|(_, v)| v.clone());
        assert_eq!(value("p").as_deref(), Some("&heap cell 1"), "{last:?}");
        assert_eq!(value("r").as_deref(), Some("&heap cell 2"), "{last:?}");
        assert_eq!(value("q").as_deref(), Some("NULL"), "{last:?}");
    }

    #[test]
    fn an_out_of_bounds_read_on_a_feasible_path_is_reported_with_its_line_and_inputs() {
        let source = "extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\nint main(void) {\n  int a[4];\n  int i = __VERIFIER_nondet_int();\n  if (i >= 0) {\n    int x = a[i];\n    if (i > 5) reach_error();\n  }\n  return 0;\n}\n";
        let o = check(source);
        assert_eq!(o.verdict, Verdict::Unknown);
        let e = o.runtime_error.as_ref().expect("the undefined behaviour");
        assert_eq!((e.line, e.column, e.c_source.as_str()), (7, 13, "a[i]"));
        assert!(e.message.contains("out of bounds"), "{}", e.message);
        assert!(o.reason.contains("line 7:13"), "{}", o.reason);
        assert_eq!(o.input_sources.len(), 1);
        let i: i64 = o.input_sources[0].value.parse().expect("a number");
        assert!(i > 5, "the input reaches the read out of bounds and the error: {i}");
        assert_eq!(o.trace.last().map(|s| s.line), Some(7), "the run ends at the read");
        assert!(o.next_step.contains("undefined behaviour"), "{}", o.next_step);
    }

    #[test]
    fn every_unknown_suggests_a_next_step() {
        let broken = check("int main(void) { x = ; }");
        assert_eq!(broken.verdict, Verdict::Unknown);
        assert!(broken.next_step.contains("fix the errors"), "{}", broken.next_step);
        let bp = Request { mode: Mode::BooleanProgram, source: "void main() begin x := ; end".into(), ..Request::default() };
        let bp = crate::run(&bp, &mut |_| {}, &|| false);
        assert_eq!(bp.verdict, Verdict::Unknown);
        assert!(!bp.next_step.is_empty());
        let request = Request {
            mode: Mode::Check,
            source: crate::examples::by_id("testdev").expect("testdev").source.into(),
            options: Options { techniques: vec![Technique::Cegar], max_iterations: 1, ..Options::default() },
            ..Request::default()
        };
        let bounded = crate::run(&request, &mut |_| {}, &|| false);
        assert_eq!(bounded.verdict, Verdict::Unknown);
        assert!(bounded.next_step.contains("iteration bound"), "{}", bounded.next_step);
        let cancelled = crate::run(&request, &mut |_| {}, &|| true);
        assert_eq!(cancelled.verdict, Verdict::Unknown);
        assert!(!cancelled.next_step.is_empty());
    }

    #[test]
    fn rewriting_leaves_fields_and_unknown_names_alone() {
        let source = "struct s { int count; };\nint count;\nint f(int count) { return count; }\nint main(void) { struct s v; v.count = f(count); return v.count; }\n";
        let (program, _) = c_front::lower(source, "t.c", &c_front::LowerOptions::default());
        let program = program.expect("lowers");
        let index = diagnostics::LineIndex::new(source);
        let names = super::SourceNames::new(&program, &index);
        let lowered: Vec<&str> = program.vars.iter().map(|v| v.name.as_str()).collect();
        let v = lowered.iter().find(|n| n.starts_with('v')).expect("v");
        let text = format!("{v}.count = count + unknown;");
        assert_eq!(names.rewrite(&text), "v.count = count + unknown;", "{lowered:?}");
    }
}
