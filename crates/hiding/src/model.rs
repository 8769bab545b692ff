//! The program as abC sees it: the `lang-c` parse of the user's file turned into a small
//! source-level tree whose identifiers are resolved to abC variables (`SCOPE NAME`), with a
//! simple C typing (enough to answer "is this expression a pointer", seed 003 §2 rule 2).
//!
//! The tree keeps every side effect and the source order (the IR of `c-ir` would not: it is
//! flattened and renamed, which would change the paper's log). Types, declarators and
//! literals keep their preprocessed text so the transformation can print them back.

use diagnostics::Span;
use lang_c::ast;
use lang_c::span::Node;
use budget::hash::HashMap;

/// An abC variable: a global, a function's local or formal, or a function's return value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub u32);

/// Where a variable lives, as the abstraction file names it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scope {
    Global,
    Function(String),
}

impl std::fmt::Display for Scope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Scope::Global => f.write_str("(global)"),
            Scope::Function(name) => f.write_str(name),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarKind {
    Global,
    Local,
    /// The k-th formal parameter of its function.
    Formal(usize),
    /// The return value of the function of that name (`(global) f`).
    Result,
}

/// A simple C type: what the rules need (pointer or not) and what the size report needs.
#[derive(Clone, Debug, PartialEq)]
pub enum Ty {
    Int(u32),
    Float(u32),
    Void,
    Ptr(Box<Ty>),
    Array(Box<Ty>, Option<u64>),
    Record(u32),
    Func(Box<Ty>),
    Unknown,
}

impl Ty {
    /// Pointer-typed in the sense of rule 2 (an array value decays to a pointer).
    pub fn is_pointer(&self) -> bool {
        matches!(self, Ty::Ptr(_) | Ty::Array(..))
    }
    pub fn is_function_pointer(&self) -> bool {
        match self {
            Ty::Ptr(t) => matches!(**t, Ty::Func(_)) || t.is_function_pointer(),
            Ty::Func(_) => true,
            Ty::Array(t, _) => t.is_function_pointer(),
            _ => false,
        }
    }
    pub fn is_scalar(&self) -> bool {
        matches!(self, Ty::Int(_) | Ty::Float(_) | Ty::Ptr(_) | Ty::Unknown)
    }
    /// The pointee of a pointer or the element of an array.
    pub fn target(&self) -> Ty {
        match self {
            Ty::Ptr(t) | Ty::Array(t, _) => (**t).clone(),
            _ => Ty::Unknown,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Var {
    pub name: String,
    pub scope: Scope,
    pub kind: VarKind,
    pub ty: Ty,
    /// Declaration in the user's file (for functions' results: the function's declarator).
    pub span: Span,
    /// Declared in an included header, not in the user's file.
    pub from_header: bool,
}

#[derive(Clone, Debug)]
pub struct Record {
    pub union: bool,
    pub fields: Vec<(String, Ty)>,
}

/// A function known to the program (defined, declared or just called).
#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    pub result: VarId,
    pub formals: Vec<VarId>,
    pub has_body: bool,
    pub ret: Ty,
    pub variadic: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IncDec {
    PreInc,
    PreDec,
    PostInc,
    PostDec,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Callee {
    /// A call of a named function (with or without body).
    Direct(String),
    /// A call through a function pointer.
    Indirect(Box<Expr>),
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Var(VarId),
    /// A function designator used as a value (`&f`, `f` passed around).
    FuncName(String),
    /// A constant, string literal or unknown identifier (enumerators): printed verbatim.
    Lit { text: String, string: bool },
    Member { base: Box<Expr>, field: String, arrow: bool },
    Index(Box<Expr>, Box<Expr>),
    /// `&`, `*`, `+`, `-`, `~`, `!`.
    Unary(ast::UnaryOperator, Box<Expr>),
    IncDec(IncDec, Box<Expr>),
    /// Non-assigning binary operators.
    Binary(ast::BinaryOperator, Box<Expr>, Box<Expr>),
    /// `e1 = e2` (`None`) or `e1 op= e2` (`Some(op)` with the plain operator).
    Assign(Option<ast::BinaryOperator>, Box<Expr>, Box<Expr>),
    Call { callee: Callee, args: Vec<Expr> },
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    Comma(Vec<Expr>),
    Cast { type_text: String, e: Box<Expr> },
    SizeofType(String),
    SizeofExpr(Box<Expr>),
    /// Anything else (statement expressions, `_Generic`, compound literals, ...): verbatim
    /// text, treated as concrete and without side effects the analysis can see.
    Verbatim(String),
    /// Only in transformed programs: the nondeterministic token.
    Nondet,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    /// In the user's file.
    pub span: Span,
    pub ty: Ty,
}

impl Expr {
    pub fn new(kind: ExprKind, span: Span, ty: Ty) -> Expr {
        Expr { kind, span, ty }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Init {
    Expr(Expr),
    /// `{ designation-text init, ... }`.
    List(Vec<(String, Init)>),
}

impl Init {
    /// The leaf expressions of an initializer, in source order.
    pub fn leaves(&self) -> Vec<&Expr> {
        match self {
            Init::Expr(e) => vec![e],
            Init::List(items) => items.iter().flat_map(|(_, i)| i.leaves()).collect(),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Declarator {
    pub var: Option<VarId>,
    /// The declarator's text (`*nametab[2][2]`).
    pub text: String,
    pub init: Option<Init>,
    pub span: Span,
    pub line: u32,
}

#[derive(Clone, Debug)]
pub struct Decl {
    pub specifiers: String,
    pub declarators: Vec<Declarator>,
    /// A typedef, or a declaration we do not look into (printed verbatim).
    pub verbatim: Option<String>,
    pub is_static_or_extern: bool,
    /// The function declared, when the declarators declare functions (prototypes).
    pub span: Span,
    pub line: u32,
}

#[derive(Clone, Debug)]
pub enum Item {
    Decl(Decl),
    Stmt(Stmt),
}

#[derive(Clone, Debug)]
pub enum ForInit {
    Empty,
    Expr(Expr),
    Decl(Decl),
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    Block(Vec<Item>),
    Expr(Option<Expr>),
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    While(Expr, Box<Stmt>),
    DoWhile(Box<Stmt>, Expr),
    For(Box<ForInit>, Option<Expr>, Option<Expr>, Box<Stmt>),
    Switch(Expr, Box<Stmt>),
    /// `label:` / `case e:` / `default:` with the label's text.
    Labeled(String, Box<Stmt>),
    Goto(String),
    Continue,
    Break,
    Return(Option<Expr>),
    Verbatim(String),
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
    pub line: u32,
    /// The line of the statement's last character (a block's `}`).
    pub end_line: u32,
}

/// A parameter of a function definition or prototype: its text and (definitions) its variable.
#[derive(Clone, Debug)]
pub struct Param {
    pub text: String,
    pub var: Option<VarId>,
}

/// How to print a function declarator with some parameters removed.
#[derive(Clone, Debug)]
pub struct FunctionDeclarator {
    /// Text before the first parameter (`move(`), or the whole declarator if it has none.
    pub prefix: String,
    pub params: Vec<Param>,
    /// Text after the last parameter (`)`).
    pub suffix: String,
}

#[derive(Clone, Debug)]
pub struct FunctionDef {
    pub name: String,
    pub specifiers: String,
    pub declarator: FunctionDeclarator,
    /// K&R parameter declarations, verbatim.
    pub kr_decls: Vec<String>,
    pub body: Vec<Item>,
    pub span: Span,
    pub line: u32,
    pub end_line: u32,
}

#[derive(Clone, Debug)]
pub enum TopKind {
    Decl(Decl),
    /// A prototype of a function (printed with hidden formals removed).
    Prototype { specifiers: String, name: String, declarator: FunctionDeclarator, rest: String },
    Func(FunctionDef),
    Verbatim(String),
}

#[derive(Clone, Debug)]
pub struct Top {
    pub kind: TopKind,
    pub line: u32,
    pub from_header: bool,
}

/// The whole program.
#[derive(Clone, Debug, Default)]
pub struct Program {
    pub vars: Vec<Var>,
    pub records: Vec<Record>,
    pub functions: Vec<Function>,
    pub function_index: HashMap<String, usize>,
    pub tops: Vec<Top>,
    /// `#include` lines of the user's file, verbatim, with their line numbers.
    pub includes: Vec<(u32, String)>,
}

impl Program {
    pub fn var(&self, v: VarId) -> &Var {
        &self.vars[v.0 as usize]
    }
    pub fn function(&self, name: &str) -> Option<&Function> {
        self.function_index.get(name).map(|&i| &self.functions[i])
    }
    /// `SCOPE NAME` of a variable, as in the abstraction file and the log.
    pub fn describe(&self, v: VarId) -> String {
        let var = self.var(v);
        format!("{} {}", var.scope, var.name)
    }
    /// The variable an abstraction-file line names.
    pub fn lookup(&self, scope: &Scope, name: &str) -> Option<VarId> {
        self.vars.iter().position(|v| &v.scope == scope && v.name == name).map(|i| VarId(i as u32))
    }
    /// Size in bits of a type (arrays of unknown length count one element).
    pub fn bits(&self, ty: &Ty) -> u64 {
        match ty {
            Ty::Int(b) | Ty::Float(b) => *b as u64,
            Ty::Void | Ty::Func(_) => 0,
            Ty::Ptr(_) | Ty::Unknown => 64,
            Ty::Array(t, n) => self.bits(t).saturating_mul(n.unwrap_or(1).max(1)),
            Ty::Record(r) => {
                let rec = &self.records[*r as usize];
                let sizes = rec.fields.iter().map(|(_, t)| self.bits(t));
                if rec.union {
                    sizes.max().unwrap_or(0)
                } else {
                    sizes.sum()
                }
            }
        }
    }
}

/// Converts the lang-c translation unit.
pub(crate) struct Builder<'a> {
    pub pre: &'a str,
    pub map: &'a c_front::SourceMap,
    pub lines: &'a diagnostics::LineIndex,
    /// Byte ranges of the user's file that are preprocessor directive lines.
    pub directive_lines: Vec<(u32, u32)>,
    pub program: Program,
    typedefs: HashMap<String, Ty>,
    tags: HashMap<String, u32>,
    globals: HashMap<String, VarId>,
    scopes: Vec<HashMap<String, VarId>>,
    locals: HashMap<(String, String), VarId>,
    current: Option<String>,
    /// Enumerator names (constants).
    enumerators: budget::hash::HashSet<String>,
}

fn is_undefined(span: lang_c::span::Span) -> bool {
    span.start == usize::MAX || span.end < span.start
}

impl<'a> Builder<'a> {
    pub fn new(pre: &'a str, map: &'a c_front::SourceMap, lines: &'a diagnostics::LineIndex) -> Builder<'a> {
        let mut directive_lines = Vec::new();
        let text = lines.text();
        let mut offset = 0u32;
        let mut includes = Vec::new();
        for (n, line) in text.split_inclusive('\n').enumerate() {
            let t = line.trim();
            if t.starts_with('#') {
                directive_lines.push((offset, offset + line.len() as u32));
                if t.trim_start_matches('#').trim_start().starts_with("include") {
                    includes.push((n as u32 + 1, t.to_string()));
                }
            }
            offset += line.len() as u32;
        }
        Builder {
            pre,
            map,
            lines,
            directive_lines,
            program: Program { includes, ..Program::default() },
            typedefs: HashMap::default(),
            tags: HashMap::default(),
            globals: HashMap::default(),
            scopes: Vec::new(),
            locals: HashMap::default(),
            current: None,
            enumerators: Default::default(),
        }
    }

    pub fn span(&self, s: lang_c::span::Span) -> Span {
        if is_undefined(s) {
            return Span::at(0);
        }
        let span = self.map.map_span(s.start, s.end);
        let bytes = self.lines.text().as_bytes();
        let mut end = span.end.min(bytes.len() as u32);
        while end > span.start && bytes[end as usize - 1].is_ascii_whitespace() {
            end -= 1;
        }
        Span::new(span.start, end)
    }
    pub fn text(&self, s: lang_c::span::Span) -> String {
        if is_undefined(s) {
            return String::new();
        }
        self.pre.get(s.start..s.end.min(self.pre.len())).unwrap_or("").trim().to_string()
    }
    fn line(&self, s: lang_c::span::Span) -> u32 {
        self.lines.line_col(self.span(s).start).line
    }
    fn in_header(&self, s: lang_c::span::Span) -> bool {
        let at = self.span(s).start;
        self.directive_lines.iter().any(|&(a, b)| a <= at && at < b)
    }

    // ---------------------------------------------------------------- variables

    fn new_var(&mut self, name: &str, scope: Scope, kind: VarKind, ty: Ty, span: Span, from_header: bool) -> VarId {
        let id = VarId(self.program.vars.len() as u32);
        self.program.vars.push(Var { name: name.to_string(), scope, kind, ty, span, from_header });
        id
    }

    /// The function record of `name`, created on first mention.
    fn function_entry(&mut self, name: &str, ret: Ty, span: Span, from_header: bool) -> usize {
        if let Some(&i) = self.program.function_index.get(name) {
            if self.program.functions[i].ret == Ty::Unknown && ret != Ty::Unknown {
                self.program.functions[i].ret = ret.clone();
                let r = self.program.functions[i].result;
                self.program.vars[r.0 as usize].ty = ret;
            }
            return i;
        }
        let result = self.new_var(name, Scope::Global, VarKind::Result, ret.clone(), span, from_header);
        let index = self.program.functions.len();
        self.program.functions.push(Function { name: name.to_string(), result, formals: Vec::new(), has_body: false, ret, variadic: false });
        self.program.function_index.insert(name.to_string(), index);
        index
    }

    fn declare_local(&mut self, name: &str, kind: VarKind, ty: Ty, span: Span) -> VarId {
        let function = self.current.clone().unwrap_or_default();
        let key = (function.clone(), name.to_string());
        let id = match self.locals.get(&key) {
            Some(&id) => id,
            None => {
                let id = self.new_var(name, Scope::Function(function), kind, ty, span, false);
                self.locals.insert(key, id);
                id
            }
        };
        if let Some(scope) = self.scopes.last_mut() {
            scope.insert(name.to_string(), id);
        }
        id
    }

    fn resolve(&self, name: &str) -> Option<VarId> {
        for scope in self.scopes.iter().rev() {
            if let Some(&v) = scope.get(name) {
                return Some(v);
            }
        }
        self.globals.get(name).copied()
    }

    // ---------------------------------------------------------------- types

    fn base_type(&mut self, specs: &[&ast::TypeSpecifier], spans: &[lang_c::span::Span]) -> Ty {
        let mut longs = 0;
        let (mut char_, mut short, mut float, mut double, mut void, mut bool_) = (false, false, false, false, false, false);
        for (i, s) in specs.iter().enumerate() {
            match s {
                ast::TypeSpecifier::Void => void = true,
                ast::TypeSpecifier::Char => char_ = true,
                ast::TypeSpecifier::Short => short = true,
                ast::TypeSpecifier::Long => longs += 1,
                ast::TypeSpecifier::Float => float = true,
                ast::TypeSpecifier::Double => double = true,
                ast::TypeSpecifier::Bool => bool_ = true,
                ast::TypeSpecifier::Struct(st) => return self.record_type(st),
                ast::TypeSpecifier::Enum(en) => {
                    for e in &en.node.enumerators {
                        self.enumerators.insert(e.node.identifier.node.name.clone());
                    }
                    return Ty::Int(32);
                }
                ast::TypeSpecifier::TypedefName(id) => return self.typedefs.get(&id.node.name).cloned().unwrap_or(Ty::Unknown),
                ast::TypeSpecifier::TypeOf(_) | ast::TypeSpecifier::Atomic(_) => {
                    let _ = spans.get(i);
                    return Ty::Unknown;
                }
                _ => {}
            }
        }
        if void {
            Ty::Void
        } else if bool_ || char_ {
            Ty::Int(8)
        } else if short {
            Ty::Int(16)
        } else if double {
            Ty::Float(if longs > 0 { 128 } else { 64 })
        } else if float {
            Ty::Float(32)
        } else if longs > 0 {
            Ty::Int(64)
        } else {
            Ty::Int(32)
        }
    }

    fn record_type(&mut self, st: &Node<ast::StructType>) -> Ty {
        let union = matches!(st.node.kind.node, ast::StructKind::Union);
        let tag = st.node.identifier.as_ref().map(|i| i.node.name.clone());
        let id = match tag.as_ref().and_then(|t| self.tags.get(t)) {
            Some(&id) => id,
            None => {
                let id = self.program.records.len() as u32;
                self.program.records.push(Record { union, fields: Vec::new() });
                if let Some(t) = &tag {
                    self.tags.insert(t.clone(), id);
                }
                id
            }
        };
        if let Some(decls) = &st.node.declarations {
            let mut fields = Vec::new();
            for d in decls {
                if let ast::StructDeclaration::Field(f) = &d.node {
                    let specs: Vec<&ast::TypeSpecifier> = f.node.specifiers.iter().filter_map(|s| match &s.node {
                        ast::SpecifierQualifier::TypeSpecifier(t) => Some(&t.node),
                        _ => None,
                    }).collect();
                    let base = self.base_type(&specs, &[]);
                    for sd in &f.node.declarators {
                        if let Some(decl) = &sd.node.declarator {
                            let (name, ty, _) = self.declarator(base.clone(), decl);
                            fields.push((name.unwrap_or_default(), ty));
                        }
                    }
                }
            }
            self.program.records[id as usize].fields = fields;
        }
        Ty::Record(id)
    }

    fn specifier_base(&mut self, specifiers: &[Node<ast::DeclarationSpecifier>]) -> Ty {
        let specs: Vec<&ast::TypeSpecifier> = specifiers.iter().filter_map(|s| match &s.node {
            ast::DeclarationSpecifier::TypeSpecifier(t) => Some(&t.node),
            _ => None,
        }).collect();
        self.base_type(&specs, &[])
    }

    fn array_length(&self, size: &ast::ArraySize) -> Option<u64> {
        match size {
            ast::ArraySize::VariableExpression(e) | ast::ArraySize::StaticExpression(e) => match &e.node {
                ast::Expression::Constant(c) => match &c.node {
                    ast::Constant::Integer(i) => {
                        let radix = match i.base {
                            ast::IntegerBase::Hexadecimal => 16,
                            ast::IntegerBase::Octal => 8,
                            ast::IntegerBase::Binary => 2,
                            ast::IntegerBase::Decimal => 10,
                        };
                        u64::from_str_radix(&i.number, radix).ok()
                    }
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        }
    }

    /// Applies a declarator to `base`: (name, type, parameters of the outermost function
    /// declarator). Pointers apply first, then array/function suffixes from the innermost.
    pub fn declarator<'n>(&mut self, base: Ty, d: &'n Node<ast::Declarator>) -> (Option<String>, Ty, Option<&'n Node<ast::FunctionDeclarator>>) {
        let mut ty = base;
        let mut suffixes = Vec::new();
        for dd in &d.node.derived {
            match &dd.node {
                ast::DerivedDeclarator::Pointer(_) | ast::DerivedDeclarator::Block(_) => ty = Ty::Ptr(Box::new(ty)),
                _ => suffixes.push(dd),
            }
        }
        let mut params = None;
        for dd in suffixes.iter().rev() {
            match &dd.node {
                ast::DerivedDeclarator::Array(a) => ty = Ty::Array(Box::new(ty), self.array_length(&a.node.size)),
                ast::DerivedDeclarator::Function(f) => {
                    ty = Ty::Func(Box::new(ty));
                    params = Some(f);
                }
                ast::DerivedDeclarator::KRFunction(_) => ty = Ty::Func(Box::new(ty)),
                _ => {}
            }
        }
        match &d.node.kind.node {
            ast::DeclaratorKind::Abstract => (None, ty, params),
            ast::DeclaratorKind::Identifier(id) => (Some(id.node.name.clone()), ty, params),
            ast::DeclaratorKind::Declarator(inner) => {
                let (name, t, inner_params) = self.declarator(ty, inner);
                (name, t, inner_params.or(params))
            }
        }
    }

    fn type_name(&mut self, tn: &Node<ast::TypeName>) -> Ty {
        let specs: Vec<&ast::TypeSpecifier> = tn.node.specifiers.iter().filter_map(|s| match &s.node {
            ast::SpecifierQualifier::TypeSpecifier(t) => Some(&t.node),
            _ => None,
        }).collect();
        let base = self.base_type(&specs, &[]);
        match &tn.node.declarator {
            Some(d) => self.declarator(base, d).1,
            None => base,
        }
    }

    fn specifiers_text(&self, specifiers: &[Node<ast::DeclarationSpecifier>]) -> String {
        match (specifiers.first(), specifiers.last()) {
            (Some(a), Some(b)) if !is_undefined(a.span) && !is_undefined(b.span) => self.pre.get(a.span.start..b.span.end).unwrap_or("").to_string(),
            _ => String::new(),
        }
    }

    fn function_declarator(&self, d: &Node<ast::Declarator>, f: Option<&Node<ast::FunctionDeclarator>>, vars: &[VarId]) -> FunctionDeclarator {
        let whole = self.text(d.span);
        let Some(f) = f else {
            return FunctionDeclarator { prefix: whole, params: Vec::new(), suffix: String::new() };
        };
        let params = &f.node.parameters;
        let (Some(first), Some(last)) = (params.first(), params.last()) else {
            return FunctionDeclarator { prefix: whole, params: Vec::new(), suffix: String::new() };
        };
        if is_undefined(first.span) || is_undefined(last.span) || first.span.start < d.span.start || last.span.end > d.span.end {
            return FunctionDeclarator { prefix: whole, params: Vec::new(), suffix: String::new() };
        }
        let prefix = self.pre.get(d.span.start..first.span.start).unwrap_or("").to_string();
        let suffix = self.pre.get(last.span.end..d.span.end).unwrap_or("").to_string();
        let ps = params.iter().enumerate().map(|(i, p)| Param { text: self.text(p.span), var: vars.get(i).copied() }).collect();
        FunctionDeclarator { prefix, params: ps, suffix }
    }

    // ---------------------------------------------------------------- top level

    pub fn unit(&mut self, unit: &ast::TranslationUnit) {
        for ext in &unit.0 {
            let line = self.line(ext.span);
            let from_header = self.in_header(ext.span);
            let kind = match &ext.node {
                ast::ExternalDeclaration::Declaration(d) => self.top_declaration(d, from_header),
                ast::ExternalDeclaration::StaticAssert(s) => TopKind::Verbatim(self.text(s.span)),
                ast::ExternalDeclaration::FunctionDefinition(f) => TopKind::Func(self.function_definition(f)),
            };
            self.program.tops.push(Top { kind, line, from_header });
        }
    }

    fn is_typedef(specifiers: &[Node<ast::DeclarationSpecifier>]) -> bool {
        specifiers.iter().any(|s| matches!(&s.node, ast::DeclarationSpecifier::StorageClass(c) if c.node == ast::StorageClassSpecifier::Typedef))
    }

    fn top_declaration(&mut self, d: &Node<ast::Declaration>, from_header: bool) -> TopKind {
        let base = self.specifier_base(&d.node.specifiers);
        if Self::is_typedef(&d.node.specifiers) {
            for init in &d.node.declarators {
                let (name, ty, _) = self.declarator(base.clone(), &init.node.declarator);
                if let Some(n) = name {
                    self.typedefs.insert(n, ty);
                }
            }
            return TopKind::Verbatim(self.text(d.span));
        }
        // prototypes: one function declarator, no initializer
        if let [single] = d.node.declarators.as_slice() {
            let (name, ty, params) = self.declarator(base.clone(), &single.node.declarator);
            if let (Some(name), Ty::Func(ret)) = (name, ty) {
                let span = self.span(single.node.declarator.span);
                let index = self.function_entry(&name, (*ret).clone(), span, from_header);
                if let Some(p) = params {
                    self.program.functions[index].variadic |= matches!(p.node.ellipsis, ast::Ellipsis::Some);
                }
                let declarator = self.function_declarator(&single.node.declarator, params, &[]);
                let rest = self.pre.get(single.node.declarator.span.end..d.span.end).unwrap_or("").to_string();
                return TopKind::Prototype { specifiers: self.specifiers_text(&d.node.specifiers), name, declarator, rest };
            }
        }
        let decl = self.declaration(d, base, true, from_header);
        TopKind::Decl(decl)
    }

    /// A declaration of variables (global when `global`).
    fn declaration(&mut self, d: &Node<ast::Declaration>, base: Ty, global: bool, from_header: bool) -> Decl {
        let line = self.line(d.span);
        let is_static_or_extern = d.node.specifiers.iter().any(|s| matches!(&s.node, ast::DeclarationSpecifier::StorageClass(c) if matches!(c.node, ast::StorageClassSpecifier::Static | ast::StorageClassSpecifier::Extern)));
        if Self::is_typedef(&d.node.specifiers) {
            for init in &d.node.declarators {
                let (name, ty, _) = self.declarator(base.clone(), &init.node.declarator);
                if let Some(n) = name {
                    self.typedefs.insert(n, ty);
                }
            }
            return Decl { specifiers: String::new(), declarators: Vec::new(), verbatim: Some(self.text(d.span)), is_static_or_extern, span: self.span(d.span), line };
        }
        let mut declarators = Vec::new();
        for init in &d.node.declarators {
            let (name, ty, _) = self.declarator(base.clone(), &init.node.declarator);
            let span = self.span(init.node.declarator.span);
            let var = match (name, &ty) {
                (Some(n), Ty::Func(ret)) => {
                    self.function_entry(&n, (**ret).clone(), span, from_header);
                    None
                }
                (Some(n), _) if global => {
                    let id = match self.globals.get(&n) {
                        Some(&id) => id,
                        None => {
                            let id = self.new_var(&n, Scope::Global, VarKind::Global, ty.clone(), span, from_header);
                            self.globals.insert(n, id);
                            id
                        }
                    };
                    Some(id)
                }
                (Some(n), _) => Some(self.declare_local(&n, VarKind::Local, ty.clone(), span)),
                (None, _) => None,
            };
            let init_value = init.node.initializer.as_ref().map(|i| self.initializer(i));
            declarators.push(Declarator { var, text: self.text(init.node.declarator.span), init: init_value, span, line: self.line(init.node.declarator.span) });
        }
        Decl { specifiers: self.specifiers_text(&d.node.specifiers), declarators, verbatim: None, is_static_or_extern, span: self.span(d.span), line }
    }

    fn initializer(&mut self, i: &Node<ast::Initializer>) -> Init {
        match &i.node {
            ast::Initializer::Expression(e) => Init::Expr(self.expr(e)),
            ast::Initializer::List(items) => Init::List(
                items
                    .iter()
                    .map(|item| {
                        let designation = match (item.node.designation.first(), item.node.designation.last()) {
                            (Some(a), Some(b)) if !is_undefined(a.span) && !is_undefined(b.span) => {
                                let text = self.pre.get(a.span.start..b.span.end).unwrap_or("").to_string();
                                // `.f` / `[i]`: lang-c's designator spans may omit the `.`
                                let dot = if matches!(item.node.designation[0].node, ast::Designator::Member(_)) && !text.starts_with('.') { "." } else { "" };
                                format!("{dot}{text} = ")
                            }
                            _ => String::new(),
                        };
                        (designation, self.initializer(&item.node.initializer))
                    })
                    .collect(),
            ),
        }
    }

    fn function_definition(&mut self, f: &Node<ast::FunctionDefinition>) -> FunctionDef {
        let base = self.specifier_base(&f.node.specifiers);
        let (name, ty, params) = self.declarator(base, &f.node.declarator);
        let name = name.unwrap_or_default();
        let ret = match ty {
            Ty::Func(r) => *r,
            other => other,
        };
        let span = self.span(f.node.declarator.span);
        let index = self.function_entry(&name, ret, span, false);
        self.program.functions[index].has_body = true;
        self.current = Some(name.clone());
        self.scopes.push(HashMap::default());
        let mut formals = Vec::new();
        if let Some(p) = params {
            self.program.functions[index].variadic |= matches!(p.node.ellipsis, ast::Ellipsis::Some);
            for (k, param) in p.node.parameters.iter().enumerate() {
                let base = self.specifier_base(&param.node.specifiers);
                let Some(d) = &param.node.declarator else { continue };
                let (pname, mut pty, _) = self.declarator(base, d);
                if let Ty::Array(t, _) = pty {
                    pty = Ty::Ptr(t);
                }
                if let Some(pname) = pname {
                    let pspan = self.span(param.span);
                    formals.push(self.declare_local(&pname, VarKind::Formal(k), pty, pspan));
                }
            }
        }
        let mut kr_decls = Vec::new();
        for d in &f.node.declarations {
            let base = self.specifier_base(&d.node.specifiers);
            let decl = self.declaration(d, base, false, false);
            for (k, dl) in decl.declarators.iter().enumerate() {
                if let Some(v) = dl.var {
                    self.program.vars[v.0 as usize].kind = VarKind::Formal(k);
                    formals.push(v);
                }
            }
            kr_decls.push(self.text(d.span));
        }
        self.program.functions[index].formals = formals.clone();
        let declarator = self.function_declarator(&f.node.declarator, params, &formals);
        let body = match &f.node.statement.node {
            ast::Statement::Compound(items) => self.block(items),
            _ => vec![Item::Stmt(self.stmt(&f.node.statement))],
        };
        self.scopes.pop();
        self.current = None;
        let end = self.span(f.span).end;
        FunctionDef {
            name,
            specifiers: self.specifiers_text(&f.node.specifiers),
            declarator,
            kr_decls,
            body,
            span: self.span(f.span),
            line: self.line(f.span),
            end_line: self.lines.line_col(end.saturating_sub(1)).line,
        }
    }

    // ---------------------------------------------------------------- statements

    fn block(&mut self, items: &[Node<ast::BlockItem>]) -> Vec<Item> {
        self.scopes.push(HashMap::default());
        let mut out = Vec::new();
        for item in items {
            match &item.node {
                ast::BlockItem::Declaration(d) => {
                    let base = self.specifier_base(&d.node.specifiers);
                    out.push(Item::Decl(self.declaration(d, base, false, false)));
                }
                ast::BlockItem::StaticAssert(s) => {
                    out.push(Item::Stmt(Stmt { kind: StmtKind::Verbatim(self.text(s.span)), span: self.span(s.span), line: self.line(s.span), end_line: self.line(s.span) }))
                }
                ast::BlockItem::Statement(s) => out.push(Item::Stmt(self.stmt(s))),
            }
        }
        self.scopes.pop();
        out
    }

    fn stmt(&mut self, s: &Node<ast::Statement>) -> Stmt {
        use ast::Statement as S;
        let span = self.span(s.span);
        let line = self.line(s.span);
        let kind = match &s.node {
            S::Labeled(l) => {
                let label = match &l.node.label.node {
                    ast::Label::Identifier(id) => format!("{}:", id.node.name),
                    ast::Label::Case(e) => format!("case {}:", self.text(e.span)),
                    ast::Label::CaseRange(r) => format!("case {} ... {}:", self.text(r.node.low.span), self.text(r.node.high.span)),
                    ast::Label::Default => "default:".to_string(),
                };
                StmtKind::Labeled(label, Box::new(self.stmt(&l.node.statement)))
            }
            S::Compound(items) => StmtKind::Block(self.block(items)),
            S::Expression(e) => StmtKind::Expr(e.as_ref().map(|e| self.expr(e))),
            S::If(i) => StmtKind::If(
                self.expr(&i.node.condition),
                Box::new(self.stmt(&i.node.then_statement)),
                i.node.else_statement.as_ref().map(|e| Box::new(self.stmt(e))),
            ),
            S::Switch(w) => StmtKind::Switch(self.expr(&w.node.expression), Box::new(self.stmt(&w.node.statement))),
            S::While(w) => StmtKind::While(self.expr(&w.node.expression), Box::new(self.stmt(&w.node.statement))),
            S::DoWhile(w) => StmtKind::DoWhile(Box::new(self.stmt(&w.node.statement)), self.expr(&w.node.expression)),
            S::For(f) => {
                self.scopes.push(HashMap::default());
                let init = match &f.node.initializer.node {
                    ast::ForInitializer::Empty | ast::ForInitializer::StaticAssert(_) => ForInit::Empty,
                    ast::ForInitializer::Expression(e) => ForInit::Expr(self.expr(e)),
                    ast::ForInitializer::Declaration(d) => {
                        let base = self.specifier_base(&d.node.specifiers);
                        ForInit::Decl(self.declaration(d, base, false, false))
                    }
                };
                let cond = f.node.condition.as_ref().map(|c| self.expr(c));
                let step = f.node.step.as_ref().map(|c| self.expr(c));
                let body = self.stmt(&f.node.statement);
                self.scopes.pop();
                StmtKind::For(Box::new(init), cond, step, Box::new(body))
            }
            S::Goto(id) => StmtKind::Goto(id.node.name.clone()),
            S::Continue => StmtKind::Continue,
            S::Break => StmtKind::Break,
            S::Return(e) => StmtKind::Return(e.as_ref().map(|e| self.expr(e))),
            S::Asm(_) => StmtKind::Verbatim(self.text(s.span)),
        };
        let end_line = self.lines.line_col(span.end.saturating_sub(1).max(span.start)).line;
        Stmt { kind, span, line, end_line }
    }

    // ---------------------------------------------------------------- expressions

    pub fn expr(&mut self, e: &Node<ast::Expression>) -> Expr {
        use ast::Expression as E;
        let span = self.span(e.span);
        match &e.node {
            E::Identifier(id) => self.identifier(&id.node.name, span),
            E::Constant(c) => {
                let ty = match &c.node {
                    ast::Constant::Float(f) => Ty::Float(if matches!(f.suffix.format, ast::FloatFormat::Float) { 32 } else { 64 }),
                    ast::Constant::Character(_) => Ty::Int(32),
                    ast::Constant::Integer(i) => Ty::Int(if matches!(i.suffix.size, ast::IntegerSize::Int) { 32 } else { 64 }),
                };
                Expr::new(ExprKind::Lit { text: self.text(e.span), string: false }, span, ty)
            }
            E::StringLiteral(_) => Expr::new(ExprKind::Lit { text: self.text(e.span), string: true }, span, Ty::Ptr(Box::new(Ty::Int(8)))),
            E::Member(m) => {
                let base = self.expr(&m.node.expression);
                let arrow = matches!(m.node.operator.node, ast::MemberOperator::Indirect);
                let record = if arrow { base.ty.target() } else { base.ty.clone() };
                let field = m.node.identifier.node.name.clone();
                let ty = self.field_type(&record, &field);
                Expr::new(ExprKind::Member { base: Box::new(base), field, arrow }, span, ty)
            }
            E::Call(c) => self.call(c, span),
            E::SizeOfTy(t) => Expr::new(ExprKind::SizeofType(self.text(t.node.0.span)), span, Ty::Int(64)),
            E::SizeOfVal(v) => {
                let inner = self.expr(&v.node.0);
                Expr::new(ExprKind::SizeofExpr(Box::new(inner)), span, Ty::Int(64))
            }
            E::UnaryOperator(u) => self.unary(u, span),
            E::Cast(c) => {
                let ty = self.type_name(&c.node.type_name);
                let inner = self.expr(&c.node.expression);
                Expr::new(ExprKind::Cast { type_text: self.text(c.node.type_name.span), e: Box::new(inner) }, span, ty)
            }
            E::BinaryOperator(b) => self.binary(b, span),
            E::Conditional(c) => {
                let cond = self.expr(&c.node.condition);
                let t = self.expr(&c.node.then_expression);
                let f = self.expr(&c.node.else_expression);
                let ty = if t.ty.is_pointer() || f.ty == Ty::Unknown { t.ty.clone() } else { f.ty.clone() };
                Expr::new(ExprKind::Cond(Box::new(cond), Box::new(t), Box::new(f)), span, ty)
            }
            E::Comma(list) => {
                let items: Vec<Expr> = list.iter().map(|x| self.expr(x)).collect();
                let ty = items.last().map(|x| x.ty.clone()).unwrap_or(Ty::Unknown);
                Expr::new(ExprKind::Comma(items), span, ty)
            }
            _ => Expr::new(ExprKind::Verbatim(self.text(e.span)), span, Ty::Unknown),
        }
    }

    fn identifier(&mut self, name: &str, span: Span) -> Expr {
        if let Some(v) = self.resolve(name) {
            let ty = self.program.var(v).ty.clone();
            return Expr::new(ExprKind::Var(v), span, ty);
        }
        if let Some(f) = self.program.function(name) {
            let ty = Ty::Func(Box::new(f.ret.clone()));
            return Expr::new(ExprKind::FuncName(name.to_string()), span, ty);
        }
        let ty = if self.enumerators.contains(name) { Ty::Int(32) } else { Ty::Unknown };
        Expr::new(ExprKind::Lit { text: name.to_string(), string: false }, span, ty)
    }

    fn field_type(&self, record: &Ty, field: &str) -> Ty {
        match record {
            Ty::Record(r) => self.program.records[*r as usize].fields.iter().find(|(n, _)| n == field).map(|(_, t)| t.clone()).unwrap_or(Ty::Unknown),
            _ => Ty::Unknown,
        }
    }

    fn call(&mut self, c: &Node<ast::CallExpression>, span: Span) -> Expr {
        let args: Vec<Expr> = c.node.arguments.iter().map(|a| self.expr(a)).collect();
        let direct = match &c.node.callee.node {
            ast::Expression::Identifier(id) if self.resolve(&id.node.name).is_none() => Some(id.node.name.clone()),
            _ => None,
        };
        match direct {
            Some(name) => {
                let cspan = self.span(c.node.callee.span);
                let index = self.function_entry(&name, Ty::Unknown, cspan, false);
                let ty = match &self.program.functions[index].ret {
                    Ty::Unknown => Ty::Int(32),
                    t => t.clone(),
                };
                Expr::new(ExprKind::Call { callee: Callee::Direct(name), args }, span, ty)
            }
            None => {
                let callee = self.expr(&c.node.callee);
                let ty = match &callee.ty {
                    Ty::Ptr(t) => match &**t {
                        Ty::Func(r) => (**r).clone(),
                        _ => Ty::Unknown,
                    },
                    Ty::Func(r) => (**r).clone(),
                    _ => Ty::Unknown,
                };
                Expr::new(ExprKind::Call { callee: Callee::Indirect(Box::new(callee)), args }, span, ty)
            }
        }
    }

    fn unary(&mut self, u: &Node<ast::UnaryOperatorExpression>, span: Span) -> Expr {
        use ast::UnaryOperator as U;
        let inner = self.expr(&u.node.operand);
        let op = u.node.operator.node.clone();
        let incdec = match op {
            U::PostIncrement => Some(IncDec::PostInc),
            U::PostDecrement => Some(IncDec::PostDec),
            U::PreIncrement => Some(IncDec::PreInc),
            U::PreDecrement => Some(IncDec::PreDec),
            _ => None,
        };
        if let Some(k) = incdec {
            let ty = inner.ty.clone();
            return Expr::new(ExprKind::IncDec(k, Box::new(inner)), span, ty);
        }
        let ty = match op {
            U::Address => Ty::Ptr(Box::new(inner.ty.clone())),
            U::Indirection => match &inner.ty {
                Ty::Func(_) => inner.ty.clone(),
                t => t.target(),
            },
            U::Negate => Ty::Int(32),
            _ => inner.ty.clone(),
        };
        Expr::new(ExprKind::Unary(op, Box::new(inner)), span, ty)
    }

    fn binary(&mut self, b: &Node<ast::BinaryOperatorExpression>, span: Span) -> Expr {
        use ast::BinaryOperator as B;
        let lhs = self.expr(&b.node.lhs);
        let rhs = self.expr(&b.node.rhs);
        let op = b.node.operator.node.clone();
        let compound = match op {
            B::Assign => Some(None),
            B::AssignMultiply => Some(Some(B::Multiply)),
            B::AssignDivide => Some(Some(B::Divide)),
            B::AssignModulo => Some(Some(B::Modulo)),
            B::AssignPlus => Some(Some(B::Plus)),
            B::AssignMinus => Some(Some(B::Minus)),
            B::AssignShiftLeft => Some(Some(B::ShiftLeft)),
            B::AssignShiftRight => Some(Some(B::ShiftRight)),
            B::AssignBitwiseAnd => Some(Some(B::BitwiseAnd)),
            B::AssignBitwiseXor => Some(Some(B::BitwiseXor)),
            B::AssignBitwiseOr => Some(Some(B::BitwiseOr)),
            _ => None,
        };
        if let Some(inner) = compound {
            let ty = lhs.ty.clone();
            return Expr::new(ExprKind::Assign(inner, Box::new(lhs), Box::new(rhs)), span, ty);
        }
        let ty = match op {
            B::Index => match &lhs.ty {
                Ty::Ptr(_) | Ty::Array(..) => lhs.ty.target(),
                _ => rhs.ty.target(),
            },
            B::Plus | B::Minus if lhs.ty.is_pointer() && rhs.ty.is_pointer() => Ty::Int(64),
            B::Plus | B::Minus if lhs.ty.is_pointer() => Ty::Ptr(Box::new(lhs.ty.target())),
            B::Plus if rhs.ty.is_pointer() => Ty::Ptr(Box::new(rhs.ty.target())),
            B::Less | B::Greater | B::LessOrEqual | B::GreaterOrEqual | B::Equals | B::NotEquals | B::LogicalAnd | B::LogicalOr => Ty::Int(32),
            _ => match (&lhs.ty, &rhs.ty) {
                (Ty::Float(a), Ty::Float(b)) => Ty::Float((*a).max(*b)),
                (Ty::Float(a), _) | (_, Ty::Float(a)) => Ty::Float(*a),
                (Ty::Int(a), Ty::Int(b)) => Ty::Int((*a).max(*b).max(32)),
                _ => Ty::Int(32),
            },
        };
        if op == B::Index {
            return Expr::new(ExprKind::Index(Box::new(lhs), Box::new(rhs)), span, ty);
        }
        Expr::new(ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)), span, ty)
    }
}
