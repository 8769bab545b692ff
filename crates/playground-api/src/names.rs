//! Traces in the student's terms (issue 31, item 12): what the engine prints about the lowered
//! program — its renamed-apart variables (`count_main`), return variables
//! (`register_chrdev_return`), lowering temporaries, the symbolic constants `'f` of C2BP's
//! procedure abstraction (C2BP §4.5: `'f` is the value formal `f` had when the call began) —
//! mapped back to the names and expressions of the C source; pointer values shown as what they
//! point to (`&x`, `&heap cell 2`, `NULL`); each input labelled with the C call and line that
//! read it.

use c_ir::interp::PointerTarget;
use c_ir::{Expr, ExprKind, Program, StmtKind, StmtRef, VarId, VarKind};
use refine::{ExpandedPath, PathOp};
use diagnostics::{LineIndex, Span};
use std::collections::BTreeMap;

use crate::types::{InputData, SymbolicConstant};

/// The longest C text of a temporary's expression shown in its place.
const MAX_EXPRESSION: usize = 40;

/// Display names of a lowered program's variables, and the C text behind spans.
pub(crate) struct SourceNames<'a> {
    program: &'a Program,
    index: &'a LineIndex,
    /// Source names that more than one global, local or formal has (locals are then shown as
    /// `proc::name`).
    shared: BTreeMap<&'a str, usize>,
}

impl<'a> SourceNames<'a> {
    pub(crate) fn new(program: &'a Program, index: &'a LineIndex) -> SourceNames<'a> {
        let mut shared: BTreeMap<&str, usize> = BTreeMap::new();
        for v in program.vars.iter().filter(|v| matches!(v.kind, VarKind::Global | VarKind::Local(_) | VarKind::Formal(..))) {
            *shared.entry(v.source_name.as_str()).or_default() += 1;
        }
        SourceNames { program, index, shared }
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

    /// The trimmed text of 1-based `line` of the source.
    pub(crate) fn line_text(&self, line: u32) -> Option<String> {
        self.index.text().lines().nth((line as usize).checked_sub(1)?).map(|l| l.trim().to_string())
    }

    /// Whether the statement at `at` is an artefact of the lowering with nothing to read in C:
    /// `'f = f;` (a symbolic constant takes a formal's value at entry) and `return f_return;`
    /// (the C `return e;` was the assignment before it).
    pub(crate) fn is_lowering_artefact(&self, at: StmtRef) -> bool {
        let kind_of = |e: &Expr| match e.kind {
            ExprKind::Var(v) => Some(self.program.var(v).kind),
            _ => None,
        };
        match &self.program.stmt(at).kind {
            StmtKind::Assign { lhs, .. } => matches!(kind_of(lhs), Some(VarKind::SymbolicConst { .. })),
            StmtKind::Return { value: Some(v) } => matches!(kind_of(v), Some(VarKind::Return(_))),
            _ => false,
        }
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

    /// The symbolic constants among `vars`, each with what it stands for, in order of first
    /// appearance.
    pub(crate) fn symbolic_constants(&self, vars: impl IntoIterator<Item = VarId>) -> Vec<SymbolicConstant> {
        let mut found: Vec<SymbolicConstant> = Vec::new();
        for v in vars {
            let Some(var) = self.program.vars.get(v.0 as usize) else { continue };
            let VarKind::SymbolicConst { proc, of } = var.kind else { continue };
            let shown = self.display(v);
            if found.iter().any(|s| s.name == shown) {
                continue;
            }
            let procedure = &self.program.proc(proc).name;
            let formal = &self.program.var(of).source_name;
            // `'*f` (the value `*f` had) is its own symbolic constant beside `'f`
            let meaning = if var.name.starts_with("'*") {
                format!("the value *{formal} had when {procedure} was called (a symbolic constant: it never changes inside {procedure})")
            } else {
                format!("the value parameter {formal} had when {procedure} was called (a symbolic constant: it never changes inside {procedure})")
            };
            found.push(SymbolicConstant { name: shown, meaning });
        }
        found
    }
}

impl SourceNames<'_> {
    /// The lowered program with every variable named as [`SourceNames::display`] shows it, so
    /// that `c_ir`'s printer prints statements and predicates in the source's terms: the
    /// renaming is done on the typed program, never on printed text.
    pub(crate) fn display_program(&self) -> Program {
        let mut shown = self.program.clone();
        for (var, name) in shown.vars.iter_mut().zip(self.variable_names()) {
            var.name = name;
        }
        shown
    }

    /// Every variable's display name, by `VarId` (the names [`SourceNames::display_program`]
    /// gives; the abstraction's explanation records are printed over them).
    pub(crate) fn variable_names(&self) -> Vec<String> {
        (0..self.program.vars.len()).map(|k| self.display(VarId(k as u32))).collect()
    }

    /// The line and C call of the statement at `at` that reads an input.
    fn input_origin(&self, at: StmtRef) -> (u32, Option<String>) {
        let span = self.program.stmt(at).span;
        (self.index.line_col(span.start).line, self.c_text(span).and_then(|t| self.reading_call(&t)))
    }

    /// A statement of the lowered program as the student reads it, printed from the typed
    /// statement over `shown` ([`SourceNames::display_program`]): a return variable's assignment
    /// as `return e;`, an input read as `x = nondet (input 1, line 12);` (`input` is the
    /// 1-based number of the input, as the inputs list counts them), or `x = nondet (line 12);`
    /// where no run numbers it (the explanations' statement list).
    pub(crate) fn concrete_statement(&self, shown: &Program, at: StmtRef, input: Option<usize>) -> String {
        let stmt = self.program.stmt(at);
        let e = |x: &Expr| c_ir::display_expr(shown, x);
        let line = self.index.line_col(stmt.span.start).line;
        match (&stmt.kind, input) {
            (StmtKind::Havoc { lhs }, Some(k)) | (StmtKind::Call { lhs: Some(lhs), .. }, Some(k)) => {
                format!("{} = {};", e(lhs), nondet(k, line))
            }
            (StmtKind::Havoc { lhs }, None) => format!("{} = nondet (line {line});", e(lhs)),
            (StmtKind::Assign { lhs, rhs }, _) if self.is_return_var(lhs) => format!("return {};", e(rhs)),
            _ => c_ir::display_stmt(shown, shown.proc(at.proc), stmt),
        }
    }

    fn is_return_var(&self, lhs: &Expr) -> bool {
        matches!(lhs.kind, ExprKind::Var(v) if matches!(self.program.var(v).kind, VarKind::Return(_)))
    }

    /// The names of an expanded path's variables (`refine::expand_path`): the program's as
    /// [`SourceNames::display`] shows them, a call instance's copies with their `#k`, each
    /// input read along the path as `input1`, `input2`, … and each allocated cell as `heap1`, ….
    pub(crate) fn path_names<'p>(&self, path: &'p ExpandedPath) -> PathNames<'p> {
        let mut shown = path.program.clone();
        let base = path.base_var_count();
        let mut legend = Vec::new();
        let mut heaps = 0;
        for k in 0..shown.vars.len() {
            let v = VarId(k as u32);
            let name = if k < base {
                self.display(v)
            } else if let Some(original) = path.original_var(v) {
                let suffix = path.program.var(v).name.rsplit_once('#').map(|(_, n)| n.to_string()).unwrap_or_default();
                format!("{}#{suffix}", self.display(original))
            } else if let Some(i) = path.inputs.iter().position(|input| input.var == v) {
                let (line, call) = self.input_origin(path.inputs[i].origin);
                let name = format!("input{}", i + 1);
                let read = call.map(|c| format!("{c} returned")).unwrap_or_else(|| "the environment gave".into());
                legend.push(SymbolicConstant { name: name.clone(), meaning: format!("the value {read} at line {line} (input {} of the path)", i + 1) });
                name
            } else {
                heaps += 1;
                let name = format!("heap{heaps}");
                let at = path.steps.iter().find(|s| matches!(&s.op, PathOp::Assign { rhs, .. } if address_of(rhs) == Some(v)));
                let meaning = match at {
                    Some(step) => format!("the cell allocated at line {}", self.index.line_col(self.program.stmt(step.origin).span.start).line),
                    None => "a cell allocated on the path".to_string(),
                };
                legend.push(SymbolicConstant { name: name.clone(), meaning });
                name
            };
            shown.vars[k].name = name;
        }
        let inputs = path.inputs.iter().map(|input| (input.var, self.input_origin(input.origin).0)).collect();
        PathNames { path, shown, inputs, legend }
    }

    /// The display name of each boolean variable of an abstraction: `{p}` with the predicate
    /// printed over `shown` (a program whose first variables are this program's, named by
    /// [`SourceNames::display_program`] or [`SourceNames::path_names`]).
    pub(crate) fn boolean_names(shown: &Program, variables: &[abstraction::BooleanVariable]) -> BooleanNames {
        BooleanNames(variables.iter().map(|v| (v.name.clone(), format!("{{{}}}", c_ir::display_expr(shown, &v.predicate)))).collect())
    }
}

/// `nondet (input 3, line 12)`.
fn nondet(input: usize, line: u32) -> String {
    format!("nondet (input {input}, line {line})")
}

/// The variable `e` takes the address of (`&v`, `(T*)&v`).
fn address_of(e: &Expr) -> Option<VarId> {
    match &e.kind {
        ExprKind::Cast(inner) => address_of(inner),
        ExprKind::AddrOf(inner) => match inner.kind {
            ExprKind::Var(v) => Some(v),
            _ => None,
        },
        _ => None,
    }
}

/// The variables of an expanded path named in the source's terms (see
/// [`SourceNames::path_names`]): the feasibility table's statements and conditions printed from
/// the typed path.
pub(crate) struct PathNames<'p> {
    path: &'p ExpandedPath,
    /// The path's arena with display names.
    shown: Program,
    /// Each input variable and the line that read it.
    inputs: Vec<(VarId, u32)>,
    /// What the path's inputs and heap cells are.
    legend: Vec<SymbolicConstant>,
}

impl PathNames<'_> {
    /// The path's arena with display names (its first variables are the program's).
    pub(crate) fn shown(&self) -> &Program {
        &self.shown
    }

    /// The inputs and heap cells the path reads, explained.
    pub(crate) fn legend(&self) -> &[SymbolicConstant] {
        &self.legend
    }

    /// Path step `step` as the student reads it; `None` for a lowering artefact with nothing to
    /// read in C (`'f = f`, a symbolic constant taking its formal's value at entry).
    pub(crate) fn statement(&self, step: usize) -> Option<String> {
        let step = self.path.steps.get(step)?;
        let e = |x: &Expr| c_ir::display_expr(&self.shown, x);
        match &step.op {
            PathOp::Assign { lhs, rhs } => {
                let target = match lhs.kind {
                    ExprKind::Var(v) => Some(self.path.program.var(v).kind),
                    _ => None,
                };
                let input = match rhs.kind {
                    ExprKind::Var(v) => self.inputs.iter().position(|(i, _)| *i == v),
                    _ => None,
                };
                match (target, input) {
                    (Some(VarKind::SymbolicConst { .. }), _) => None,
                    (_, Some(k)) => Some(format!("{} = {};", e(lhs), nondet(k + 1, self.inputs[k].1))),
                    (Some(VarKind::Return(_)), None) => Some(format!("return {};", e(rhs))),
                    _ => Some(format!("{} = {};", e(lhs), e(rhs))),
                }
            }
            PathOp::Assume { cond } => Some(format!("assume({});", e(cond))),
            _ => Some(refine::display_step(self.path, step)),
        }
    }

    /// The program variables (call instances' copies as their originals) that the statements
    /// and conditions of `rows` mention, in order.
    pub(crate) fn program_vars(&self, rows: &[refine::FeasibilityRow]) -> Vec<VarId> {
        let mut vars = Vec::new();
        for row in rows {
            if let Some(step) = self.path.steps.get(row.step) {
                match &step.op {
                    PathOp::Assign { lhs, rhs } => vars.extend(lhs.vars().into_iter().chain(rhs.vars())),
                    PathOp::Assume { cond } => vars.extend(cond.vars()),
                    _ => {}
                }
            }
            vars.extend(row.conditions.iter().flat_map(|c| c.expr.vars()));
        }
        vars.into_iter().filter_map(|v| self.path.original_var(v)).collect()
    }

    /// A condition of the feasibility table printed from its expression.
    pub(crate) fn condition(&self, c: &refine::Condition) -> String {
        let e = c_ir::display_expr(&self.shown, &c.expr);
        let var = |v: VarId| self.shown.vars.get(v.0 as usize).map(|x| x.name.clone()).unwrap_or_default();
        match (c.column, c.var) {
            (refine::ConditionColumn::Omega, Some(v)) => format!("{} ↦ {e}", var(v)),
            (refine::ConditionColumn::Pi, Some(v)) => format!("⟨{}, {e}⟩", var(v)),
            _ => e,
        }
    }

    /// The atoms of condition `c` (under `!`, `&&`, `||`, `==>`; `wp`'s threads and `sp`'s Φ,
    /// not the values Ω and Π), each printed over the display names as [`Self::condition`]
    /// prints them, added to `out` unless there already.
    pub(crate) fn condition_atoms(&self, c: &refine::Condition, out: &mut Vec<String>) {
        if matches!(c.column, refine::ConditionColumn::Omega | refine::ConditionColumn::Pi) {
            return;
        }
        let mut atoms = Vec::new();
        refine::atoms(&c.expr, &mut atoms);
        for atom in atoms {
            let text = c_ir::display_expr(&self.shown, &atom);
            if !out.contains(&text) {
                out.push(text);
            }
        }
    }
}

/// Boolean variables' display names (`{p}` over the source's names), by their name in the
/// boolean program.
pub(crate) struct BooleanNames(BTreeMap<String, String>);

impl BooleanNames {
    /// How boolean variable `name` is shown (itself when it stands for no predicate:
    /// parameters `prm1`, results `ret1`).
    pub(crate) fn get(&self, name: &str) -> String {
        self.0.get(name).cloned().unwrap_or_else(|| name.to_string())
    }

    /// The boolean variables shown otherwise than they are named, with their display names.
    pub(crate) fn renamed(&self) -> Vec<(String, String)> {
        self.0.iter().filter(|(name, shown)| name != shown).map(|(n, s)| (n.clone(), s.clone())).collect()
    }

    /// `program` with every boolean variable renamed to its display name (declarations,
    /// assignments, expressions), to print the boolean statements in the source's terms.
    pub(crate) fn rename_program(&self, program: &boolprog::Program) -> boolprog::Program {
        let mut out = program.clone();
        for g in &mut out.globals {
            g.name = self.get(&g.name);
        }
        for p in &mut out.procs {
            for v in p.formals.iter_mut().chain(p.locals.iter_mut()) {
                *v = self.get(v);
            }
            p.enforce = p.enforce.as_ref().map(|e| self.expr(e));
            self.rename_body(&mut p.body);
        }
        out
    }

    fn expr(&self, e: &boolprog::Expr) -> boolprog::Expr {
        e.rename_variables(&|v: &str| self.0.get(v).cloned())
    }

    fn rename_body(&self, body: &mut [boolprog::Stmt]) {
        use boolprog::StmtKind as K;
        for stmt in body {
            match &mut stmt.kind {
                K::Skip | K::Goto(_) => {}
                K::Assign { lhs, rhs } => {
                    lhs.iter_mut().for_each(|v| *v = self.get(v));
                    rhs.iter_mut().for_each(|e| *e = self.expr(e));
                }
                K::Assume(e) | K::Assert(e) => *e = self.expr(e),
                K::If { cond, then_branch, else_branch } => {
                    *cond = self.expr(cond);
                    self.rename_body(then_branch);
                    self.rename_body(else_branch);
                }
                K::While { cond, body } => {
                    *cond = self.expr(cond);
                    self.rename_body(body);
                }
                K::Call { lhs, args, .. } => {
                    lhs.iter_mut().for_each(|v| *v = self.get(v));
                    args.iter_mut().for_each(|e| *e = self.expr(e));
                }
                K::Return(values) => values.iter_mut().for_each(|e| *e = self.expr(e)),
            }
        }
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

    /// The feasibility table's atoms are printed from the typed conditions as its columns are
    /// (`x >> 2 <= y`, over the source's names), one per atom of the row, never parsed back.
    #[test]
    fn the_feasibility_tables_atoms_are_printed_like_its_columns() {
        let o = check("extern void reach_error(void);\nint main(void) {\n  int x = 8;\n  int y = 1;\n  if (x >> 2 > y && x != 0) return 0;\n  reach_error();\n  return 0;\n}\n");
        let it = o.iterations.iter().find(|it| it.feasibility_kind == FeasibilityKind::Infeasible).unwrap_or_else(|| panic!("a spurious path: {:?}", o.iterations));
        let atoms: Vec<&str> = it.feasibility_table.iter().flat_map(|r| r.atoms.iter().map(String::as_str)).collect();
        assert!(atoms.contains(&"x >> 2 <= y") && atoms.contains(&"x >> 2 <= 1"), "{atoms:?} in {:?}", it.feasibility_table);
        for row in &it.feasibility_table {
            for atom in &row.atoms {
                assert!(row.columns.iter().any(|(_, c)| c.contains(atom.as_str())), "{atom} is printed as in the columns {:?}", row.columns);
                assert!(!atom.contains("&&") && !atom.contains("||") && !atom.starts_with('!'), "{atom} is an atom");
            }
        }
    }

    /// An invariant's predicates are those of its boolean variables, printed as in its formula.
    #[test]
    fn an_invariants_predicates_are_the_ones_its_formula_mentions() {
        let example = crate::examples::by_id("partition").expect("partition");
        let request = Request { mode: Mode::Abstract, source: example.source.into(), predicates: example.predicates.into(), ..Request::default() };
        let o = crate::run(&request, &mut |_| {}, &|| false);
        let at_l = o.invariants.iter().find(|i| i.location == "at L").unwrap_or_else(|| panic!("{:?}", o.invariants));
        assert!(!at_l.predicates.is_empty(), "{at_l:?}");
        for p in &at_l.predicates {
            assert!(at_l.formula.contains(&format!("{{{p}}}")), "{{{p}}} in {at_l:?}");
        }
        let braces = at_l.formula.matches('{').count();
        assert!(braces >= at_l.predicates.len(), "{at_l:?}");
        assert!(at_l.predicates.iter().any(|p| p == "curr->val > v"), "{at_l:?}");
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
    fn the_display_program_prints_source_names_and_leaves_fields_alone() {
        let source = "struct s { int count; };\nint count;\nint f(int count) { return count; }\nint main(void) { struct s v; v.count = f(count); return v.count; }\n";
        let (program, _) = c_front::lower(source, "t.c", &c_front::LowerOptions::default());
        let program = program.expect("lowers");
        let index = diagnostics::LineIndex::new(source);
        let names = super::SourceNames::new(&program, &index);
        let shown = names.display_program();
        let main = program.procs.iter().position(|p| p.name == "main").expect("main");
        let main = c_ir::ProcId(main as u32);
        let printed: Vec<String> =
            shown.proc(main).body.iter().map(|stmt| c_ir::display_stmt(&shown, shown.proc(main), stmt)).collect();
        assert!(printed.iter().any(|p| p == "v.count = f(count);"), "{printed:?}");
        assert!(printed.iter().all(|p| !p.contains("_main") && !p.contains("_return")), "{printed:?}");
    }

    /// The abstract trace's boolean statements, the feasibility table and the concrete run of
    /// a program with an input, a call with a symbolic constant and a shared name.
    #[test]
    fn abstract_statements_feasibility_rows_and_inputs_are_in_the_source_terms() {
        let source = "extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\nint n;\nint f(int a) { int n = a; return n + 1; }\nint main(void) {\n  int n = 0;\n  int i = __VERIFIER_nondet_int();\n  int r = f(i);\n  if (r == 5 && n == 0) reach_error();\n  return 0;\n}\n";
        let o = check(source);
        assert_eq!(o.verdict, Verdict::Unsafe, "{}", o.reason);
        let lowered = ["_main", "_return", "input#", "tmp", " = *", "'a = a"];
        for it in &o.iterations {
            for step in &it.abstract_trace {
                for bad in lowered {
                    assert!(!step.statement.contains(bad), "{bad} in {step:?}");
                }
            }
            for row in &it.feasibility_table {
                for text in std::iter::once(&row.statement).chain(row.columns.iter().map(|(_, c)| c)) {
                    for bad in lowered {
                        assert!(!text.contains(bad), "{bad} in {row:?}");
                    }
                }
            }
        }
        let first = &o.iterations[0];
        // the input's row, and the input named in conditions and explained
        assert!(first.feasibility_table.iter().any(|r| r.statement == "main::n = 0;"), "{:?}", first.feasibility_table);
        assert!(first.feasibility_table.iter().any(|r| r.statement == "i = nondet (input 1, line 7);"), "{:?}", first.feasibility_table);
        assert!(first.feasibility_table.iter().any(|r| r.columns.iter().any(|(_, c)| c.contains("input1"))), "{:?}", first.feasibility_table);
        let input = first.symbolic_constants.iter().find(|c| c.name == "input1").expect("input1 is explained");
        assert_eq!(input.meaning, "the value __VERIFIER_nondet_int() returned at line 7 (input 1 of the path)");
        // the boolean program's statements over the source's names
        assert!(first.abstract_trace.iter().any(|s| s.statement.contains("{main::n == 0}")), "{:?}", first.abstract_trace);
        // the concrete run: the input read as nondet with its number and line
        assert!(o.trace.iter().any(|s| s.statement == "i = nondet (input 1, line 7);"), "{:?}", o.trace);
    }

    /// The explain views (lattice, WP, solver log) and their statement list in the source's
    /// terms, in Check mode's explanations on demand and in Abstract mode's.
    #[test]
    fn explanations_name_predicates_statements_and_queries_in_the_source_terms() {
        let source = "extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\nint n;\nint f(int a) { int n = a; return n + 1; }\nint main(void) {\n  int n = 0;\n  int i = __VERIFIER_nondet_int();\n  int r = f(i);\n  if (r == 5 && n == 0) reach_error();\n  return 0;\n}\n";
        let o = check(source);
        let it = o.iterations.last().expect("iterations");
        let lattice = Request {
            mode: Mode::Check,
            source: source.into(),
            options: Options { techniques: vec![Technique::Cegar], strategy: Strategy::Lattice, ..Options::default() },
            ..Request::default()
        };
        let checked = crate::explain_iteration(&lattice, &it.predicates).expect("explains");
        let abstracted = crate::run(
            &Request { mode: Mode::Abstract, predicates: it.predicates.clone(), ..lattice.clone() },
            &mut |_| {},
            &|| false,
        );
        let abstracted_names = abstracted.iterations[0].predicate_names.clone();
        let abstracted = abstracted.iterations[0].explanation.clone().expect("Abstract mode records explanations");
        let lowered = ["n_main", "n_f", "_return", "tmp", " = *", "input#"];
        for data in [&checked, &abstracted] {
            let mut texts: Vec<String> = Vec::new();
            for s in &data.statements {
                texts.extend([s.c_statement.clone(), s.bp_statement.clone()]);
                texts.extend(s.call_notes.iter().cloned());
                for p in &s.predicates {
                    texts.extend([p.predicate.clone(), p.wp_raw.clone(), p.wp_simplified.clone(), p.assigned.clone()]);
                    texts.extend(p.alias_cases.iter().cloned());
                    let l = &p.positive;
                    texts.extend([l.target.clone(), l.result.clone()]);
                    texts.extend(l.cone.iter().chain(&l.outside_cone).cloned());
                    texts.extend(l.cubes.iter().flat_map(|c| c.literals.iter().map(|(n, _)| n.clone()).chain([c.query.clone()])));
                }
            }
            texts.extend(data.solver_log.iter().flat_map(|q| [q.predicate.clone(), q.formula.clone()]));
            for text in &texts {
                for bad in lowered {
                    assert!(!text.contains(bad), "{bad} in {text:?}");
                }
            }
            // main's n and f's n share a name: both qualified, in the lattice, the WP view and
            // the solver log
            assert!(texts.iter().any(|t| t.contains("{main::n == 0}")), "{texts:?}");
            assert!(!data.solver_log.is_empty());
            assert!(data.solver_log.iter().any(|q| q.formula.contains("main::n") || q.formula.contains("f::n")), "{:?}", data.solver_log);
            // the input read is nondet with its line, as the trace shows it (not `i = *;`)
            let statements: Vec<&str> = data.statements.iter().map(|s| s.c_statement.as_str()).collect();
            assert!(!statements.iter().any(|s| s.contains("= *")), "{statements:?}");
        }
        // an input read whose value a predicate tracks is explained as nondet with its line,
        // as the trace shows it (was `x = *;`)
        let input = "extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\nint main(void) {\n  int x = __VERIFIER_nondet_int();\n  if (x == 5) reach_error();\n  return 0;\n}\n";
        let read = check(input);
        let last = read.iterations.last().expect("iterations");
        let request = Request { source: input.into(), ..lattice.clone() };
        let data = crate::explain_iteration(&request, &last.predicates).expect("explains");
        let statements: Vec<&str> = data.statements.iter().map(|s| s.c_statement.as_str()).collect();
        assert!(statements.contains(&"x = nondet (line 4);"), "{statements:?} with {}", last.predicates);
        // the boolean statement of the WP view is the pane's line with the predicates renamed
        let with_n = checked.statements.iter().find(|s| s.c_statement == "main::n = 0;").expect("main::n = 0 explained");
        assert!(with_n.bp_statement.contains("{main::n == 0}"), "{with_n:?}");
        let bp_line = it.boolean_program.text.lines().nth(with_n.bp_line.expect("its line") as usize - 1).expect("the line");
        assert!(bp_line.contains(":=") && !bp_line.contains("main::"), "the pane keeps the boolean program's own names: {bp_line}");
        // the pane shows each renamed predicate's source form beside its own name
        let (own, shown) = it.predicate_names.iter().find(|(_, s)| s == "{main::n == 0}").expect("main's n == 0 renamed");
        assert!(bp_line.contains(own.as_str()), "{own} in {bp_line}");
        assert_ne!(own, shown);
        assert!(it.predicate_names.iter().all(|(o, s)| o != s && it.boolean_program.text.contains(o.as_str())), "{:?}", it.predicate_names);
        assert!(abstracted_names.iter().any(|(_, s)| s == "{main::n == 0}"), "Abstract mode too: {abstracted_names:?}");
    }

    /// NEWTON's table (BOOP §7.3: Ω a variable's value, Π ⟨variable, value⟩, Φ the path's
    /// condition, one column each) and the refinement sentence read from it, in the source's
    /// terms: the shared name qualified, the input as input1, no lowered names.
    #[test]
    fn newton_columns_and_the_refinement_sentence_are_in_the_source_terms() {
        let source = "extern void reach_error(void);\nint f(int i) { return i; }\nint main(void) {\n  int i = f(0);\n  while (i < 2) i = i + 1;\n  if (i != 2) reach_error();\n  return 0;\n}\n";
        let request = Request {
            mode: Mode::Check,
            source: source.into(),
            options: Options { techniques: vec![Technique::Cegar], refine: RefineMethod::Sp, ..Options::default() },
            ..Request::default()
        };
        let o = crate::run(&request, &mut |_| {}, &|| false);
        let it = o.iterations.iter().find(|it| it.feasibility_kind == FeasibilityKind::Infeasible).unwrap_or_else(|| panic!("a spurious path: {:?}", o.iterations));
        assert_eq!(it.feasibility_method, "sp", "{:?}", o.iterations.iter().map(|it| (&it.feasibility_method, &it.feasibility_table)).collect::<Vec<_>>());
        let lowered = ["i_main", "i_f", "_return", "tmp", " = *", "'a = a"];
        let mut columns: Vec<&str> = Vec::new();
        for row in &it.feasibility_table {
            for (column, text) in &row.columns {
                columns.push(column);
                for bad in lowered {
                    assert!(!text.contains(bad) && !row.statement.contains(bad), "{bad} in {row:?}");
                }
            }
        }
        assert!(columns.iter().any(|c| c.contains('Ω')) && columns.iter().any(|c| c.contains('Φ')), "NEWTON's columns: {columns:?}");
        let texts: Vec<&str> = it.feasibility_table.iter().flat_map(|r| r.columns.iter().map(|(_, t)| t.as_str())).collect();
        assert!(texts.iter().any(|t| t.starts_with("main::i ↦ ")), "main's i qualified: {texts:?}");
        assert!(texts.iter().any(|t| t.contains(" ↦ ")), "Ω maps a variable to its value: {texts:?}");
        let explanation = crate::refinement::explain_refinement(it).expect("the spurious path is explained");
        let sentence = explanation.sentence();
        for bad in lowered {
            assert!(!explanation.statement.contains(bad), "{bad} in {explanation:?}");
            assert!(explanation.conditions.iter().all(|(_, c)| !c.contains(bad)), "{bad} in {explanation:?}");
        }
        // the predicates it adds over the source's names too (were `{i_main >= 2}`)
        for bad in lowered {
            assert!(!sentence.contains(bad), "{bad} in {sentence}");
        }
        assert!(sentence.contains("refinement adds {main::i"), "{sentence}");
    }
}
