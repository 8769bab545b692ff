//! Lowering of a lang-c translation unit to the IR: scopes, declarations and types live here;
//! expressions and statements in the submodules.

mod expr;
mod init;
mod stmt;
mod types;

use crate::preprocess::SourceMap;
use c_ir::{BinaryOp, Expr, ExprKind, ProcId, Program, Stmt, StmtKind, StructId, Type, Var, VarId, VarKind};
use diagnostics::{Diagnostic, Span};
use lang_c::ast;
use lang_c::span::Node;
use budget::hash::{HashMap, HashSet};

/// The signature of a C function.
#[derive(Clone, Debug)]
pub(crate) struct FunctionSignature {
    pub ret: Type,
    pub params: Vec<Type>,
    /// Whether each parameter points to `const` data (library calls do not write through it).
    pub param_points_to_const: Vec<bool>,
    pub variadic: bool,
    /// `false` for old-style `f()` declarations without a prototype.
    pub has_prototype: bool,
}

#[derive(Clone, Debug)]
pub(crate) struct FunctionInfo {
    pub signature: FunctionSignature,
    pub proc: Option<ProcId>,
}

/// What an ordinary identifier denotes in a scope.
#[derive(Clone, Debug)]
pub(crate) enum Binding {
    Var(VarId),
    EnumConstant(i128),
    Function,
    Typedef(Type),
}

/// A `goto` target under construction (an index into [`FunctionState::label_positions`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LabelId(pub u32);

pub(crate) struct SwitchContext {
    /// Labels of the `case`/`default` labels in the order they appear in the body.
    pub case_labels: Vec<LabelId>,
    pub next_case: usize,
}

/// Per-procedure state while lowering a body.
pub(crate) struct FunctionState {
    pub proc: ProcId,
    pub name: String,
    pub body: Vec<Stmt>,
    /// For `Goto` statements in `body`, targets are label ids until [`Lowerer::finish_function`].
    pub label_positions: Vec<Option<u32>>,
    pub source_label_names: Vec<Option<String>>,
    pub source_labels: HashMap<String, LabelId>,
    pub source_label_spans: HashMap<String, Span>,
    pub defined_source_labels: HashSet<String>,
    pub break_targets: Vec<LabelId>,
    pub continue_targets: Vec<LabelId>,
    pub switches: Vec<SwitchContext>,
    pub return_label: LabelId,
    pub return_var: Option<VarId>,
    pub return_type: Type,
    pub locals: Vec<VarId>,
}

pub(crate) struct Lowerer<'a> {
    pub map: &'a SourceMap,
    /// The preprocessed text lang-c parsed (node spans index into it).
    pub parsed_text: &'a str,
    pub program: Program,
    pub diagnostics: Vec<Diagnostic>,
    pub scopes: Vec<HashMap<String, Binding>>,
    pub tags: Vec<HashMap<String, Type>>,
    pub functions: HashMap<String, FunctionInfo>,
    pub used_names: HashSet<String>,
    pub current: Option<FunctionState>,
    /// Globals (and static locals) with their initialisers, lowered at the start of the entry procedure.
    pub global_initialisers: Vec<(VarId, Option<&'a Node<ast::Initializer>>)>,
    pub warned_functions: HashSet<String>,
    pub anonymous_structs: u32,
    /// Set while only the type of an expression is wanted (`sizeof e`, `typeof`): statements are discarded.
    pub discard_depth: u32,
    pub entry_name: String,
    /// Temporaries of the current function available for reuse are not tracked: every temporary is fresh.
    pub temp_counter: u32,
    /// The error for statements emitted where none may be (predicates); `None` means global initialisers.
    pub side_effect_message: Option<&'static str>,
    /// Width of `long` (64 for LP64, 32 for ILP32).
    pub long_bits: u8,
    /// Defined functions whose name appears other than as a callee (their address may be
    /// taken): the possible targets of a call through a function pointer, by procedure.
    pub address_taken_functions: Vec<(String, ProcId)>,
    /// Variable-length array locals (lowered to pointers to allocated memory) and the
    /// variables holding their size in bytes, for `sizeof`.
    pub variable_length_arrays: HashMap<VarId, VarId>,
}

/// Names that end a path with an error location.
pub(crate) fn is_error_function(name: &str) -> bool {
    matches!(name, "reach_error" | "__VERIFIER_error" | "__assert_fail" | "__assert" | "__assert_perror_fail" | "__assert_rtn")
}

impl<'a> Lowerer<'a> {
    pub fn new(map: &'a SourceMap, parsed_text: &'a str, entry_name: &str) -> Lowerer<'a> {
        Lowerer {
            map,
            parsed_text,
            program: Program::default(),
            diagnostics: Vec::new(),
            scopes: vec![HashMap::default()],
            tags: vec![HashMap::default()],
            functions: HashMap::default(),
            used_names: HashSet::default(),
            current: None,
            global_initialisers: Vec::new(),
            warned_functions: HashSet::default(),
            anonymous_structs: 0,
            discard_depth: 0,
            entry_name: entry_name.to_string(),
            temp_counter: 0,
            side_effect_message: None,
            long_bits: 64,
            address_taken_functions: Vec::new(),
            variable_length_arrays: HashMap::default(),
        }
    }

    pub fn span(&self, span: lang_c::span::Span) -> Span {
        if span.is_none() {
            return Span::default();
        }
        // lang-c spans may include trailing whitespace
        let bytes = self.parsed_text.as_bytes();
        let mut end = span.end.min(bytes.len());
        while end > span.start && bytes[end - 1].is_ascii_whitespace() {
            end -= 1;
        }
        self.map.map_span(span.start, end)
    }

    /// The type of `sizeof` (`unsigned long`).
    pub fn size_type(&self) -> Type {
        Type::Int { bits: self.long_bits, signed: false }
    }

    pub fn error(&mut self, span: Span, message: impl Into<String>) {
        self.diagnostics.push(Diagnostic::error(span, message));
    }

    /// Runs `f` with statements discarded (for the type of `sizeof e`, `typeof`, probes), then
    /// forgets the variables it created; probes (`keep_diagnostics == false`) also drop their
    /// diagnostics because the expression is lowered again for real.
    pub fn discarding<T>(&mut self, keep_diagnostics: bool, f: impl FnOnce(&mut Self) -> T) -> T {
        let vars = self.program.vars.len();
        let globals = self.program.globals.len();
        let initialisers = self.global_initialisers.len();
        let locals = self.current.as_ref().map(|c| c.locals.len());
        let diagnostics = self.diagnostics.len();
        let temps = self.temp_counter;
        self.discard_depth += 1;
        let result = f(self);
        self.discard_depth -= 1;
        if self.program.vars.len() > vars {
            for v in self.program.vars.drain(vars..) {
                self.used_names.remove(&v.name);
            }
        }
        self.program.globals.truncate(globals);
        self.global_initialisers.truncate(initialisers);
        if let (Some(c), Some(n)) = (self.current.as_mut(), locals) {
            c.locals.truncate(n);
        }
        self.temp_counter = temps;
        if !keep_diagnostics {
            self.diagnostics.truncate(diagnostics);
        }
        result
    }

    pub fn warning(&mut self, span: Span, message: impl Into<String>) {
        if self.discard_depth == 0 {
            self.diagnostics.push(Diagnostic::warning(span, message));
        }
    }

    pub fn unsupported(&mut self, span: Span, construct: &str) {
        self.diagnostics.push(
            Diagnostic::error(span, format!("unsupported construct: {construct}"))
                .with_help("predabs handles integer, pointer, struct and array programs; rewrite this part or leave it out"),
        );
    }

    // ----- scopes -----

    pub fn push_scope(&mut self) {
        self.scopes.push(HashMap::default());
        self.tags.push(HashMap::default());
    }

    pub fn pop_scope(&mut self) {
        if self.scopes.len() > 1 {
            self.scopes.pop();
            self.tags.pop();
        }
    }

    pub fn lookup(&self, name: &str) -> Option<&Binding> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    pub fn lookup_tag(&self, name: &str) -> Option<&Type> {
        self.tags.iter().rev().find_map(|s| s.get(name))
    }

    pub fn bind(&mut self, name: &str, binding: Binding) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.insert(name.to_string(), binding);
        }
    }

    pub fn at_file_scope(&self) -> bool {
        self.scopes.len() == 1
    }

    // ----- variables -----

    /// A printable name not used yet: `base`, else `base_proc`, else `base_N`.
    pub fn unique_name(&mut self, base: &str, proc_name: Option<&str>) -> String {
        let mut candidates = vec![base.to_string()];
        if let Some(p) = proc_name {
            candidates.push(format!("{base}_{p}"));
        }
        for c in candidates {
            if !self.used_names.contains(&c) {
                self.used_names.insert(c.clone());
                return c;
            }
        }
        let mut n = 1;
        loop {
            let c = format!("{base}_{n}");
            if !self.used_names.contains(&c) {
                self.used_names.insert(c.clone());
                return c;
            }
            n += 1;
        }
    }

    pub fn new_global(&mut self, source_name: &str, ty: Type, span: Span) -> VarId {
        let name = self.unique_name(source_name, None);
        let id = self.program.add_var(Var { name, source_name: source_name.to_string(), ty, kind: VarKind::Global, span, address_taken: false });
        self.program.globals.push(id);
        id
    }

    /// A local of the current procedure (renamed apart from everything else).
    pub fn new_local(&mut self, source_name: &str, ty: Type, span: Span) -> Option<VarId> {
        let (proc, proc_name) = {
            let f = self.current.as_ref()?;
            (f.proc, f.name.clone())
        };
        let name = self.unique_name(source_name, Some(&proc_name));
        let id = self.program.add_var(Var { name, source_name: source_name.to_string(), ty, kind: VarKind::Local(proc), span, address_taken: false });
        self.current.as_mut()?.locals.push(id);
        Some(id)
    }

    /// A fresh temporary of the current procedure; `None` outside procedures (global initialisers).
    pub fn new_temp(&mut self, ty: Type, span: Span) -> Option<VarId> {
        let proc = self.current.as_ref()?.proc;
        let ty = match ty {
            Type::Array(elem, _) => Type::Pointer(elem),
            Type::Void => Type::INT,
            t => t,
        };
        loop {
            self.temp_counter += 1;
            let name = format!("tmp{}", self.temp_counter);
            if !self.used_names.contains(&name) {
                self.used_names.insert(name.clone());
                let id = self.program.add_var(Var { name: name.clone(), source_name: name, ty, kind: VarKind::Temp(proc), span, address_taken: false });
                self.current.as_mut()?.locals.push(id);
                return Some(id);
            }
        }
    }

    pub fn var_expr(&self, id: VarId) -> Expr {
        Expr::var(id, self.program.var(id).ty.clone())
    }

    // ----- statements and labels -----

    pub fn emit(&mut self, kind: StmtKind, span: Span) {
        if self.discard_depth > 0 {
            return;
        }
        match self.current.as_mut() {
            Some(f) => f.body.push(Stmt { kind, span, label: None }),
            None => {
                let message = self.side_effect_message.unwrap_or("initializer of a global variable must be a constant expression");
                self.diagnostics.push(Diagnostic::error(span, message));
            }
        }
    }

    pub fn new_label(&mut self) -> LabelId {
        match self.current.as_mut() {
            Some(f) => {
                f.label_positions.push(None);
                f.source_label_names.push(None);
                LabelId(f.label_positions.len() as u32 - 1)
            }
            None => LabelId(u32::MAX),
        }
    }

    pub fn place_label(&mut self, label: LabelId) {
        if self.discard_depth > 0 {
            return;
        }
        if let Some(f) = self.current.as_mut() {
            let position = f.body.len() as u32;
            if let Some(slot) = f.label_positions.get_mut(label.0 as usize) {
                *slot = Some(position);
            }
        }
    }

    pub fn emit_goto(&mut self, targets: Vec<LabelId>, span: Span) {
        // a jump right after another jump (or the error location) is dead unless a label points here
        if let Some(f) = self.current.as_ref() {
            let here = f.body.len() as u32;
            let dead = matches!(f.body.last().map(|s| &s.kind), Some(StmtKind::Goto { targets }) if targets.len() == 1)
                || matches!(f.body.last().map(|s| &s.kind), Some(StmtKind::Error))
                || matches!(f.body.last().map(|s| &s.kind), Some(StmtKind::Assume { cond }) if cond.is_false());
            if dead && !f.label_positions.contains(&Some(here)) {
                return;
            }
        }
        self.emit(StmtKind::Goto { targets: targets.into_iter().map(|l| l.0).collect() }, span);
    }

    /// Emits `goto Lt, Lf; Lt: assume(c);` and returns `Lf` for [`Lowerer::else_branch`].
    pub fn begin_branch(&mut self, cond: &Expr, span: Span) -> LabelId {
        let on_true = self.new_label();
        let on_false = self.new_label();
        self.emit_goto(vec![on_true, on_false], span);
        self.place_label(on_true);
        self.emit(StmtKind::Assume { cond: cond.clone() }, span);
        on_false
    }

    /// Places `Lf` and emits `assume(!c)`.
    pub fn else_branch(&mut self, on_false: LabelId, cond: &Expr, span: Span) {
        self.place_label(on_false);
        self.emit(StmtKind::Assume { cond: expr::negate(cond.clone()) }, span);
    }

    pub fn is_inside_function(&self) -> bool {
        self.current.is_some()
    }
}

/// Entry point: lowers a parsed translation unit.
pub(crate) fn lower_unit<'a>(lowerer: &mut Lowerer<'a>, unit: &'a ast::TranslationUnit) {
    // pass 1: types, globals, function signatures
    let mut definitions: Vec<(&'a Node<ast::FunctionDefinition>, ProcId)> = Vec::new();
    for external in &unit.0 {
        match &external.node {
            ast::ExternalDeclaration::Declaration(d) => lowerer.declaration(d),
            ast::ExternalDeclaration::StaticAssert(_) => {}
            ast::ExternalDeclaration::FunctionDefinition(def) => {
                if let Some(proc) = lowerer.declare_function_definition(def) {
                    definitions.push((def, proc));
                }
            }
        }
    }
    lowerer.address_taken_functions = functions_used_as_values(lowerer.parsed_text, &lowerer.functions);
    // pass 2: bodies, the entry procedure last so that every static local is known
    let entry = lowerer.program.proc_by_name(&lowerer.entry_name);
    let mut ordered: Vec<_> = definitions.iter().filter(|(_, p)| Some(*p) != entry).cloned().collect();
    ordered.extend(definitions.iter().filter(|(_, p)| Some(*p) == entry).cloned());
    for (def, proc) in ordered {
        lowerer.function_body(def, proc, Some(proc) == entry);
    }
    // procedures declared but whose definition failed keep an empty body: give them a return
    for index in 0..lowerer.program.procs.len() {
        if lowerer.program.procs[index].body.is_empty() {
            let span = lowerer.program.procs[index].span;
            lowerer.program.procs[index].body.push(Stmt { kind: StmtKind::Return { value: None }, span, label: None });
        }
    }
    lowerer.program.entry = entry;
    compute_address_taken(&mut lowerer.program);
}

/// The defined functions whose name occurs in `text` not followed by `(`: every use of a
/// function other than a direct call (`f(h)`, `fp = &h`), so an over-approximation of the
/// functions a pointer may hold (a name in a string or a shadowing variable only adds a target).
fn functions_used_as_values(text: &str, functions: &HashMap<String, FunctionInfo>) -> Vec<(String, ProcId)> {
    let bytes = text.as_bytes();
    let mut found: HashMap<&str, ProcId> = HashMap::default();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            let word = &text[start..i];
            if let Some(proc) = functions.get(word).and_then(|f| f.proc) {
                let next = text[i..].trim_start().as_bytes().first().copied();
                if next != Some(b'(') {
                    found.insert(word, proc);
                }
            }
        } else if c.is_ascii_digit() {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'.') {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    let mut out: Vec<(String, ProcId)> = found.into_iter().map(|(n, p)| (n.to_string(), p)).collect();
    out.sort_by_key(|(_, p)| p.0);
    out
}

/// Sets [`Var::address_taken`] for every variable whose address is taken (`&v`, `&v.f`, `&v[i]`,
/// arrays decaying to pointers).
pub(crate) fn compute_address_taken(program: &mut Program) {
    let mut taken = HashSet::default();
    let mut visit = |e: &Expr| {
        e.visit(&mut |sub| {
            if let ExprKind::AddrOf(inner) = &sub.kind {
                let mut base = inner.as_ref();
                while let ExprKind::Field(b, _) | ExprKind::Index(b, _) = &base.kind {
                    base = b;
                }
                if let ExprKind::Var(v) = base.kind {
                    taken.insert(v);
                }
            }
        })
    };
    for proc in &program.procs {
        for stmt in &proc.body {
            match &stmt.kind {
                StmtKind::Assign { lhs, rhs } => {
                    visit(lhs);
                    visit(rhs);
                }
                StmtKind::Havoc { lhs } => visit(lhs),
                StmtKind::Malloc { lhs, size } => {
                    visit(lhs);
                    visit(size);
                }
                StmtKind::Free { ptr } => visit(ptr),
                StmtKind::Assume { cond } => visit(cond),
                StmtKind::Call { lhs, args, .. } => {
                    if let Some(l) = lhs {
                        visit(l);
                    }
                    args.iter().for_each(&mut visit);
                }
                StmtKind::Return { value: Some(v) } => visit(v),
                _ => {}
            }
        }
    }
    for v in taken {
        program.vars[v.0 as usize].address_taken = true;
    }
}

impl<'a> Lowerer<'a> {
    /// Registers a function definition's signature and allocates its procedure.
    fn declare_function_definition(&mut self, def: &'a Node<ast::FunctionDefinition>) -> Option<ProcId> {
        let span = self.span(def.span);
        let storage = types::storage_class(&def.node.specifiers);
        let _ = storage;
        let base = self.base_type(&types::decl_specifier_types(&def.node.specifiers), span);
        let declarator = self.declarator(base, &def.node.declarator);
        let name = declarator.name.clone()?;
        let Some(mut signature) = declarator.function else {
            self.error(span, format!("`{name}` is defined like a function but its type is not a function type"));
            return None;
        };
        // K&R parameter declarations
        if !def.node.declarations.is_empty() {
            signature = self.kr_signature(&signature, &declarator.kr_names, &def.node.declarations, span);
            signature.has_prototype = true;
        } else if !signature.has_prototype && declarator.kr_names.is_empty() {
            // `int f() { ... }` defines a function with no parameters
            signature.has_prototype = true;
        }
        if let Some(existing) = self.functions.get(&name) {
            if let Some(proc) = existing.proc {
                if !self.program.proc(proc).body.is_empty() || self.program.proc(proc).span != Span::default() {
                    self.error(span, format!("redefinition of function `{name}`"));
                    return None;
                }
            }
        }
        let proc = ProcId(self.program.procs.len() as u32);
        self.program.procs.push(c_ir::Procedure {
            name: name.clone(),
            formals: Vec::new(),
            locals: Vec::new(),
            ret_var: None,
            ret_ty: signature.ret.clone(),
            body: Vec::new(),
            span,
        });
        self.used_names.insert(name.clone());
        self.functions.insert(name.clone(), FunctionInfo { signature, proc: Some(proc) });
        self.bind(&name, Binding::Function);
        Some(proc)
    }

    fn function_body(&mut self, def: &'a Node<ast::FunctionDefinition>, proc: ProcId, is_entry: bool) {
        let span = self.span(def.span);
        let base = self.base_type(&types::decl_specifier_types(&def.node.specifiers), span);
        let declarator = self.declarator(base, &def.node.declarator);
        let name = self.program.proc(proc).name.clone();
        let signature = self.functions.get(&name).map(|f| f.signature.clone());
        let Some(signature) = signature else { return };
        let ret_type = signature.ret.clone();
        self.current = Some(FunctionState {
            proc,
            name: name.clone(),
            body: Vec::new(),
            label_positions: Vec::new(),
            source_label_names: Vec::new(),
            source_labels: HashMap::default(),
            source_label_spans: HashMap::default(),
            defined_source_labels: HashSet::default(),
            break_targets: Vec::new(),
            continue_targets: Vec::new(),
            switches: Vec::new(),
            return_label: LabelId(0),
            return_var: None,
            return_type: ret_type.clone(),
            locals: Vec::new(),
        });
        let return_label = self.new_label();
        if let Some(f) = self.current.as_mut() {
            f.return_label = return_label;
        }
        self.push_scope();
        // formals
        let mut formals = Vec::new();
        let param_names: Vec<(Option<String>, Span)> = if !declarator.kr_names.is_empty() {
            declarator.kr_names.iter().map(|n| (Some(n.clone()), span)).collect()
        } else {
            declarator.param_names.clone()
        };
        for (index, ty) in signature.params.iter().enumerate() {
            let (source_name, pspan) = param_names.get(index).cloned().unwrap_or((None, span));
            let source_name = source_name.unwrap_or_else(|| format!("__param{index}"));
            let unique = self.unique_name(&source_name, Some(&name));
            let id = self.program.add_var(Var {
                name: unique,
                source_name: source_name.clone(),
                ty: ty.clone(),
                kind: VarKind::Formal(proc, index as u32),
                span: pspan,
                address_taken: false,
            });
            self.bind(&source_name, Binding::Var(id));
            formals.push(id);
        }
        // symbolic constants 'f = f
        let mut symbolic = Vec::new();
        for &formal in &formals {
            let v = self.program.var(formal).clone();
            let id = self.program.add_var(Var {
                name: format!("'{}", v.name),
                source_name: format!("'{}", v.source_name),
                ty: v.ty.clone(),
                kind: VarKind::SymbolicConst { proc, of: formal },
                span: v.span,
                address_taken: false,
            });
            symbolic.push((id, formal));
            if let Some(f) = self.current.as_mut() {
                f.locals.push(id);
            }
        }
        // return variable
        let return_var = if ret_type != Type::Void {
            let rname = self.unique_name(&format!("{name}_return"), None);
            let id = self.program.add_var(Var {
                name: rname.clone(),
                source_name: rname,
                ty: ret_type.clone(),
                kind: VarKind::Return(proc),
                span,
                address_taken: false,
            });
            if let Some(f) = self.current.as_mut() {
                f.locals.push(id);
                f.return_var = Some(id);
            }
            Some(id)
        } else {
            None
        };
        self.program.procs[proc.0 as usize].formals = formals;
        self.program.procs[proc.0 as usize].ret_var = return_var;
        let body_span = self.span(def.node.statement.span);
        let entry_span = Span::at(body_span.start);
        if is_entry {
            self.lower_global_initialisers(entry_span);
        }
        for (id, formal) in symbolic {
            let lhs = self.var_expr(id);
            let rhs = self.var_expr(formal);
            self.emit(StmtKind::Assign { lhs, rhs }, entry_span);
        }
        // the body's own block shares the scope of the parameters
        match &def.node.statement.node {
            ast::Statement::Compound(items) => {
                for item in items {
                    self.block_item(item);
                }
            }
            other => {
                let _ = other;
                self.statement(&def.node.statement);
            }
        }
        self.pop_scope();
        self.finish_function(span);
    }

    /// Resolves label ids to statement indices, names goto targets, and installs the body.
    fn finish_function(&mut self, span: Span) {
        let Some(mut f) = self.current.take() else { return };
        let end_span = Span::at(span.end.saturating_sub(1));
        let return_label = f.return_label;
        // `goto return` right before the return is a fall-through
        if matches!(f.body.last().map(|s| &s.kind), Some(StmtKind::Goto { targets }) if targets.as_slice() == [return_label.0]) {
            f.body.pop();
        }
        if let Some(slot) = f.label_positions.get_mut(return_label.0 as usize) {
            *slot = Some(f.body.len() as u32);
        }
        let value = f.return_var.map(|v| Expr::var(v, self.program.var(v).ty.clone()));
        f.body.push(Stmt { kind: StmtKind::Return { value }, span: end_span, label: None });
        // undefined source labels
        for (name, label) in &f.source_labels {
            if !f.defined_source_labels.contains(name) {
                let at = f.source_label_spans.get(name).copied().unwrap_or(span);
                self.diagnostics.push(Diagnostic::error(at, format!("use of undeclared label `{name}`")));
                f.label_positions[label.0 as usize] = Some(f.body.len() as u32 - 1);
            }
        }
        let last = f.body.len() as u32 - 1;
        let resolve = |l: u32| -> u32 { f.label_positions.get(l as usize).copied().flatten().unwrap_or(last).min(last) };
        let mut targeted = vec![false; f.body.len()];
        for stmt in &mut f.body {
            if let StmtKind::Goto { targets } = &mut stmt.kind {
                for t in targets.iter_mut() {
                    *t = resolve(*t);
                    targeted[*t as usize] = true;
                }
            }
        }
        // source labels name their statements
        let mut used_labels: HashSet<String> = HashSet::default();
        for (index, name) in f.source_label_names.iter().enumerate() {
            if let (Some(name), Some(pos)) = (name, f.label_positions[index]) {
                let pos = pos.min(last) as usize;
                if f.body[pos].label.is_none() {
                    f.body[pos].label = Some(name.clone());
                    used_labels.insert(name.clone());
                }
            }
        }
        let mut counter = 0;
        for (index, stmt) in f.body.iter_mut().enumerate() {
            if targeted[index] && stmt.label.is_none() {
                loop {
                    counter += 1;
                    let name = format!("L{counter}");
                    if !used_labels.contains(&name) && !f.source_labels.contains_key(&name) {
                        stmt.label = Some(name);
                        break;
                    }
                }
            }
        }
        let proc = &mut self.program.procs[f.proc.0 as usize];
        proc.body = f.body;
        proc.locals = f.locals;
    }

    /// Assignments for global initialisers (and zero-initialisation) at the start of `main`.
    fn lower_global_initialisers(&mut self, span: Span) {
        let list = std::mem::take(&mut self.global_initialisers);
        for (var, init) in &list {
            let ty = self.program.var(*var).ty.clone();
            let target = self.var_expr(*var);
            let at = self.program.var(*var).span;
            let _ = span;
            match init {
                Some(init) => self.initialise(target, &ty, init, at, true),
                None => self.zero_initialise(target, &ty, at),
            }
        }
        self.global_initialisers = list;
    }

    /// A declaration at file or block scope.
    pub fn declaration(&mut self, decl: &'a Node<ast::Declaration>) {
        let span = self.span(decl.span);
        let storage = types::storage_class(&decl.node.specifiers);
        let base = self.base_type(&types::decl_specifier_types(&decl.node.specifiers), span);
        let points_to_const = types::has_const(&decl.node.specifiers);
        let _ = points_to_const;
        for init_declarator in &decl.node.declarators {
            let dspan = self.span(init_declarator.span);
            let declarator = self.declarator(base.clone(), &init_declarator.node.declarator);
            let Some(name) = declarator.name.clone() else { continue };
            if storage == Some(ast::StorageClassSpecifier::Typedef) {
                let ty = if declarator.function.is_some() { Type::Function } else { declarator.ty.clone() };
                // `typedef struct { ... } Name;` names the anonymous struct
                if let Type::Struct(id) = &ty {
                    let current = &self.program.structs[id.0 as usize].name;
                    if current.starts_with("__anon") && !self.program.structs.iter().any(|s| s.name == name) {
                        self.program.structs[id.0 as usize].name = name.clone();
                    }
                }
                self.refuse_variable_length(&declarator);
                self.bind(&name, Binding::Typedef(ty));
                continue;
            }
            if let Some(signature) = declarator.function.clone() {
                self.declare_function(&name, signature, dspan);
                continue;
            }
            if let Some((length, _)) = declarator.variable_length {
                if self.at_file_scope() || storage.is_some() {
                    self.refuse_variable_length(&declarator);
                } else {
                    self.variable_length_local(&name, &declarator.ty, length, init_declarator.node.initializer.is_some(), dspan);
                }
                continue;
            }
            let mut ty = declarator.ty.clone();
            if let Type::Array(elem, 0) = &ty {
                if let Some(init) = &init_declarator.node.initializer {
                    if let Some(n) = self.initializer_length(elem, init) {
                        ty = Type::Array(elem.clone(), n);
                    }
                }
            }
            if matches!(ty, Type::Void) {
                self.error(dspan, format!("variable `{name}` has type void"));
                continue;
            }
            if self.at_file_scope() || storage == Some(ast::StorageClassSpecifier::Static) || (storage == Some(ast::StorageClassSpecifier::Extern)) {
                self.global_declaration(&name, ty, storage.clone(), init_declarator.node.initializer.as_ref(), dspan);
            } else {
                let Some(id) = self.new_local(&name, ty.clone(), dspan) else { continue };
                self.bind(&name, Binding::Var(id));
                if let Some(init) = &init_declarator.node.initializer {
                    let target = self.var_expr(id);
                    self.initialise(target, &ty, init, dspan, false);
                }
            }
        }
    }

    /// `T a[n];` in a function body: C evaluates `n` when the declaration is reached, so it
    /// becomes `a_bytes = n * sizeof(T); a = malloc(a_bytes);` with `a` a `T *` (the array
    /// decays to one wherever it is used) and `sizeof a` reading `a_bytes`.
    fn variable_length_local(&mut self, name: &str, ty: &Type, length: &'a Node<ast::Expression>, initialised: bool, span: Span) {
        let Type::Array(elem, _) = ty else { return };
        if initialised {
            self.error(span, format!("variable-length array `{name}` cannot have an initializer"));
        }
        let size_type = self.size_type();
        let n = self.rvalue(length);
        let n = self.convert(n, &size_type, span);
        let element_bytes = Expr::int(c_ir::interp::size_of(&self.program, elem) as i128, size_type.clone());
        let bytes = self.binary_operation(BinaryOp::Mul, n, element_bytes, span);
        let Some(size_var) = self.new_local(&format!("{name}_bytes"), size_type, span) else { return };
        self.emit(StmtKind::Assign { lhs: self.var_expr(size_var), rhs: bytes }, span);
        let Some(id) = self.new_local(name, Type::Pointer(elem.clone()), span) else { return };
        self.bind(name, Binding::Var(id));
        self.variable_length_arrays.insert(id, size_var);
        self.emit(StmtKind::Malloc { lhs: self.var_expr(id), size: self.var_expr(size_var) }, span);
    }

    fn global_declaration(
        &mut self,
        name: &str,
        ty: Type,
        storage: Option<ast::StorageClassSpecifier>,
        init: Option<&'a Node<ast::Initializer>>,
        span: Span,
    ) {
        let is_extern = storage == Some(ast::StorageClassSpecifier::Extern);
        // a redeclaration of an existing global refers to the same variable
        if self.at_file_scope() || is_extern {
            if let Some(Binding::Var(existing)) = self.scopes[0].get(name).cloned() {
                if matches!(self.program.var(existing).kind, VarKind::Global) {
                    if let (Type::Array(_, 0), Type::Array(_, n)) = (&self.program.var(existing).ty, &ty) {
                        if *n > 0 {
                            self.program.vars[existing.0 as usize].ty = ty.clone();
                        }
                    }
                    if let Some(init) = init {
                        if let Some(entry) = self.global_initialisers.iter_mut().find(|(v, _)| *v == existing) {
                            entry.1 = Some(init);
                        }
                    }
                    if !self.at_file_scope() {
                        self.bind(name, Binding::Var(existing));
                    }
                    return;
                }
            }
        }
        let id = if self.at_file_scope() || is_extern {
            self.new_global(name, ty, span)
        } else {
            // static local: a global renamed apart
            let proc_name = self.current.as_ref().map(|f| f.name.clone());
            let unique = self.unique_name(name, proc_name.as_deref());
            let id = self.program.add_var(Var { name: unique, source_name: name.to_string(), ty, kind: VarKind::Global, span, address_taken: false });
            self.program.globals.push(id);
            id
        };
        if is_extern && !self.at_file_scope() {
            self.scopes[0].insert(name.to_string(), Binding::Var(id));
        }
        self.bind(name, Binding::Var(id));
        self.global_initialisers.push((id, init));
    }

    pub fn declare_function(&mut self, name: &str, signature: FunctionSignature, _span: Span) {
        match self.functions.get_mut(name) {
            Some(info) => {
                if signature.has_prototype && !info.signature.has_prototype {
                    info.signature = signature;
                }
            }
            None => {
                self.functions.insert(name.to_string(), FunctionInfo { signature, proc: None });
            }
        }
        self.scopes[0].insert(name.to_string(), Binding::Function);
        if !self.at_file_scope() {
            self.bind(name, Binding::Function);
        }
    }

    pub fn struct_type_name(&self, id: StructId) -> String {
        self.program.structs.get(id.0 as usize).map(|s| s.name.clone()).unwrap_or_default()
    }
}
