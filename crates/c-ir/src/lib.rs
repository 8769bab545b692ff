//! The internal form of C (C2BP §4, polymorphic predicate abstraction §4.1): procedures as flat
//! goto programs over side-effect-free expressions, with spans back to the source.
//!
//! Shape of a lowered program:
//! - every variable lives in one program-wide arena ([`VarId`]) with a unique printable name;
//!   block-scoped locals are renamed apart by the front end;
//! - a procedure body is a flat list of [`Stmt`]; control falls through to the next statement
//!   unless the statement is a [`StmtKind::Goto`] (a nondeterministic jump to any of its
//!   targets, which are indices into the same body) or [`StmtKind::Return`];
//! - `if (c) A else B` is `goto L1, L2; L1: assume(c); A; goto L3; L2: assume(!c); B; L3: ...`;
//! - the last statement of every procedure with a body is its only `return`;
//! - global initialisers (and zero-initialisation) are assignments at the start of the entry
//!   procedure (`main`);
//! - for every formal `f` the procedure starts with `'f = f`, where `'f` is a
//!   [`VarKind::SymbolicConst`] local (polymorphic predicate abstraction §4.1);
//! - relational and logical operators have type [`Type::Bool`]; integer contexts receive an
//!   explicit [`ExprKind::Cast`]; conditions of `assume` are `Bool`-typed.

pub mod interp;
pub mod points;
mod print;
mod symbol;

pub use print::{display_expr, display_program, display_stmt};
pub use symbol::{FloatOp, Symbol};

use diagnostics::Span;

/// Index of a variable in [`Program::vars`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub u32);

/// Index of a procedure in [`Program::procs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProcId(pub u32);

/// Index of a struct or union definition in [`Program::structs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StructId(pub u32);

/// A statement's position: procedure and index into its body.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StmtRef {
    pub proc: ProcId,
    pub index: u32,
}

/// C types as far as analysis needs them.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    Void,
    /// `_Bool`, and the type of relational/logical expressions.
    Bool,
    /// A machine integer (`char` is 8 bits, `short` 16, `int` 32, `long`/`long long` 64).
    Int { bits: u8, signed: bool },
    Pointer(Box<Type>),
    Array(Box<Type>, u64),
    Struct(StructId),
    /// A function type (only behind pointers, which are unsupported for calls).
    Function,
    /// Something the analyses treat as an uninterpreted value (e.g. `float`), with its C name.
    Opaque(String),
}

impl Type {
    pub const INT: Type = Type::Int { bits: 32, signed: true };
    pub const UINT: Type = Type::Int { bits: 32, signed: false };
    pub const CHAR: Type = Type::Int { bits: 8, signed: true };
    pub const LONG: Type = Type::Int { bits: 64, signed: true };
    pub const ULONG: Type = Type::Int { bits: 64, signed: false };

    pub fn pointer_to(t: Type) -> Type {
        Type::Pointer(Box::new(t))
    }
    pub fn is_integer(&self) -> bool {
        matches!(self, Type::Int { .. } | Type::Bool)
    }
    pub fn is_pointer(&self) -> bool {
        matches!(self, Type::Pointer(_))
    }
    pub fn is_scalar(&self) -> bool {
        matches!(self, Type::Int { .. } | Type::Bool | Type::Pointer(_))
    }
    pub fn is_signed(&self) -> bool {
        matches!(self, Type::Int { signed: true, .. })
    }
    /// The inclusive range of values of an integer type (`Bool` is `0..=1`).
    pub fn value_range(&self) -> Option<(i128, i128)> {
        match *self {
            Type::Bool => Some((0, 1)),
            Type::Int { bits, signed } if bits > 0 && (bits as u32) < 128 => {
                let bits = bits as u32;
                Some(if signed { (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1) } else { (0, (1i128 << bits) - 1) })
            }
            _ => None,
        }
    }
    /// Bit width of an integer-like scalar (`Bool` is 1; pointers report 64).
    pub fn bits(&self) -> u32 {
        match self {
            Type::Bool => 1,
            Type::Int { bits, .. } => *bits as u32,
            Type::Pointer(_) => 64,
            _ => 0,
        }
    }
    pub fn pointee(&self) -> Option<&Type> {
        match self {
            Type::Pointer(t) => Some(t),
            _ => None,
        }
    }
    pub fn element(&self) -> Option<&Type> {
        match self {
            Type::Array(t, _) => Some(t),
            _ => None,
        }
    }
}

/// A struct or union definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StructDef {
    pub name: String,
    pub is_union: bool,
    pub fields: Vec<Field>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    pub name: String,
    pub ty: Type,
}

/// What a variable is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VarKind {
    Global,
    Local(ProcId),
    /// The `index`-th formal parameter of the procedure.
    Formal(ProcId, u32),
    /// The symbolic constant `'f` holding formal `of`'s value at procedure entry.
    SymbolicConst { proc: ProcId, of: VarId },
    /// A temporary introduced by lowering (call results, short-circuit values, ...).
    Temp(ProcId),
    /// The variable holding the procedure's return value.
    Return(ProcId),
}

impl VarKind {
    /// The procedure a non-global variable belongs to.
    pub fn proc(&self) -> Option<ProcId> {
        match *self {
            VarKind::Global => None,
            VarKind::Local(p) | VarKind::Formal(p, _) | VarKind::Temp(p) | VarKind::Return(p) => Some(p),
            VarKind::SymbolicConst { proc, .. } => Some(proc),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Var {
    /// Unique in the program; printable as a C identifier (symbolic constants print as `'f`).
    pub name: String,
    /// The name in the source before renaming apart.
    pub source_name: String,
    pub ty: Type,
    pub kind: VarKind,
    pub span: Span,
    /// Whether `&v` occurs anywhere (computed by the front end).
    pub address_taken: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum UnaryOp {
    /// Arithmetic negation `-e`.
    Neg,
    /// Bitwise complement `~e`.
    BitNot,
    /// Logical negation `!e` (operand and result `Bool`).
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    /// C division, truncating toward zero; signedness from the operand type.
    Div,
    Rem,
    Shl,
    /// Arithmetic for signed operands, logical for unsigned.
    Shr,
    BitAnd,
    BitOr,
    BitXor,
    Eq,
    Ne,
    /// Comparisons are signed or unsigned by the (converted) operand type.
    Lt,
    Le,
    Gt,
    Ge,
    /// Logical connectives over `Bool` operands (no short-circuit: expressions have no effects).
    And,
    Or,
    Implies,
}

impl BinaryOp {
    pub fn is_relational(self) -> bool {
        matches!(self, BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge)
    }
    /// The relation holding exactly when `self` does not (`<` ↔ `>=`, `==` ↔ `!=`, …);
    /// `None` for operators that are not relations.
    pub fn negated_relation(self) -> Option<BinaryOp> {
        Some(match self {
            BinaryOp::Eq => BinaryOp::Ne,
            BinaryOp::Ne => BinaryOp::Eq,
            BinaryOp::Lt => BinaryOp::Ge,
            BinaryOp::Le => BinaryOp::Gt,
            BinaryOp::Gt => BinaryOp::Le,
            BinaryOp::Ge => BinaryOp::Lt,
            _ => return None,
        })
    }
    pub fn is_logical(self) -> bool {
        matches!(self, BinaryOp::And | BinaryOp::Or | BinaryOp::Implies)
    }
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Rem => "%",
            BinaryOp::Shl => "<<",
            BinaryOp::Shr => ">>",
            BinaryOp::BitAnd => "&",
            BinaryOp::BitOr => "|",
            BinaryOp::BitXor => "^",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::And => "&&",
            BinaryOp::Or => "||",
            BinaryOp::Implies => "==>",
        }
    }
}

/// A side-effect-free typed expression. Equality is structural, so expressions serve as
/// predicates, cache keys and set members.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Expr {
    pub kind: ExprKind,
    pub ty: Type,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ExprKind {
    /// An integer constant, normalised into the range of `ty` (pointers: `0` is `NULL`; `Bool`: 0/1).
    Const(i128),
    Var(VarId),
    Unary(UnaryOp, Box<Expr>),
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// Conversion of the operand to `ty` (sign/zero extension, truncation, int<->bool, pointer casts).
    Cast(Box<Expr>),
    /// `*e` for a pointer `e`.
    Deref(Box<Expr>),
    /// `&e` for an lvalue `e`.
    AddrOf(Box<Expr>),
    /// `e.f` (field index into the struct of `e`'s type); `p->f` is `Field(Deref(p), f)`.
    Field(Box<Expr>, u32),
    /// `a[i]` for an array-typed lvalue `a`; indexing through a pointer is `*(p + i)`.
    Index(Box<Expr>, Box<Expr>),
    /// `c ? a : b` without effects.
    Ite(Box<Expr>, Box<Expr>, Box<Expr>),
    /// The address of string literal number `n` in [`Program::strings`] (an opaque non-null pointer).
    Str(u32),
    /// An uninterpreted function or predicate symbol applied to arguments (floating point,
    /// fresh values, NEWTON's θ, named functions: see [`Symbol`]).
    App(Symbol, Vec<Expr>),
}

impl Expr {
    pub fn new(kind: ExprKind, ty: Type) -> Expr {
        Expr { kind, ty }
    }
    pub fn int(value: i128, ty: Type) -> Expr {
        Expr { kind: ExprKind::Const(value), ty }
    }
    pub fn bool(value: bool) -> Expr {
        Expr { kind: ExprKind::Const(value as i128), ty: Type::Bool }
    }
    pub fn var(id: VarId, ty: Type) -> Expr {
        Expr { kind: ExprKind::Var(id), ty }
    }
    pub fn logical_not(e: Expr) -> Expr {
        Expr { kind: ExprKind::Unary(UnaryOp::Not, Box::new(e)), ty: Type::Bool }
    }
    /// A binary expression; relational and logical operators get type `Bool`, others the left operand's type.
    pub fn binary(op: BinaryOp, a: Expr, b: Expr) -> Expr {
        let ty = if op.is_relational() || op.is_logical() { Type::Bool } else { a.ty.clone() };
        Expr { kind: ExprKind::Binary(op, Box::new(a), Box::new(b)), ty }
    }
    pub fn and(a: Expr, b: Expr) -> Expr {
        Expr::binary(BinaryOp::And, a, b)
    }
    pub fn or(a: Expr, b: Expr) -> Expr {
        Expr::binary(BinaryOp::Or, a, b)
    }
    pub fn eq(a: Expr, b: Expr) -> Expr {
        Expr::binary(BinaryOp::Eq, a, b)
    }
    pub fn cast(e: Expr, ty: Type) -> Expr {
        if e.ty == ty {
            e
        } else {
            Expr { kind: ExprKind::Cast(Box::new(e)), ty }
        }
    }
    pub fn deref(e: Expr) -> Expr {
        let ty = e.ty.pointee().cloned().unwrap_or(Type::Opaque("?".into()));
        Expr { kind: ExprKind::Deref(Box::new(e)), ty }
    }
    pub fn addr_of(e: Expr) -> Expr {
        let ty = Type::pointer_to(e.ty.clone());
        Expr { kind: ExprKind::AddrOf(Box::new(e)), ty }
    }
    pub fn as_const(&self) -> Option<i128> {
        match self.kind {
            ExprKind::Const(v) => Some(v),
            _ => None,
        }
    }
    pub fn is_true(&self) -> bool {
        self.ty == Type::Bool && self.as_const() == Some(1)
    }
    pub fn is_false(&self) -> bool {
        self.ty == Type::Bool && self.as_const() == Some(0)
    }
    /// Whether the expression may denote a memory location (variable, `*p`, field, element).
    pub fn is_lvalue(&self) -> bool {
        matches!(self.kind, ExprKind::Var(_) | ExprKind::Deref(_) | ExprKind::Field(..) | ExprKind::Index(..))
    }
    /// Calls `f` on this expression and every subexpression, parents first.
    pub fn visit(&self, f: &mut dyn FnMut(&Expr)) {
        f(self);
        match &self.kind {
            ExprKind::Const(_) | ExprKind::Var(_) | ExprKind::Str(_) => {}
            ExprKind::Unary(_, a) | ExprKind::Cast(a) | ExprKind::Deref(a) | ExprKind::AddrOf(a) | ExprKind::Field(a, _) => {
                a.visit(f)
            }
            ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) => {
                a.visit(f);
                b.visit(f);
            }
            ExprKind::Ite(c, a, b) => {
                c.visit(f);
                a.visit(f);
                b.visit(f);
            }
            ExprKind::App(_, args) => args.iter().for_each(|a| a.visit(f)),
        }
    }
    /// The variables occurring in the expression (including under `&`).
    pub fn vars(&self) -> Vec<VarId> {
        let mut out = Vec::new();
        self.visit(&mut |e| {
            if let ExprKind::Var(v) = e.kind {
                if !out.contains(&v) {
                    out.push(v);
                }
            }
        });
        out
    }
}

/// One IR statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
    /// A label unique within the procedure (from the source, or `L<n>` made by lowering).
    pub label: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StmtKind {
    Skip,
    /// `lhs = rhs` for a scalar or struct lvalue.
    Assign { lhs: Expr, rhs: Expr },
    /// `lhs = *`: an arbitrary value of `lhs`'s type (`__VERIFIER_nondet_*`, unknown library results).
    Havoc { lhs: Expr },
    /// `lhs = malloc(size)`: a fresh, non-null address distinct from all existing ones.
    Malloc { lhs: Expr, size: Expr },
    Free { ptr: Expr },
    /// Blocks unless `cond` holds (`__VERIFIER_assume`, branch guards, `abort()` as `assume(false)`).
    Assume { cond: Expr },
    /// Nondeterministic jump to any target (indices into the procedure body); one target is a plain `goto`.
    Goto { targets: Vec<u32> },
    /// `lhs = callee(args)`; `args` are side-effect-free expressions.
    Call { lhs: Option<Expr>, callee: ProcId, args: Vec<Expr> },
    /// The procedure's only return, always its last statement.
    Return { value: Option<Expr> },
    /// The error location: reaching it violates the property (failed `assert`, `reach_error()`).
    Error,
}

/// A procedure with a body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Procedure {
    pub name: String,
    pub formals: Vec<VarId>,
    /// All other variables of the procedure: locals, temporaries, symbolic constants, return variable.
    pub locals: Vec<VarId>,
    pub ret_var: Option<VarId>,
    pub ret_ty: Type,
    pub body: Vec<Stmt>,
    pub span: Span,
}

impl Procedure {
    /// Index of the statement carrying `label`.
    pub fn label_index(&self, label: &str) -> Option<u32> {
        self.body.iter().position(|s| s.label.as_deref() == Some(label)).map(|i| i as u32)
    }
    /// The loop heads: targets of jumps from the same or a later statement, in order.
    pub fn loop_heads(&self) -> Vec<u32> {
        let mut heads: Vec<u32> = Vec::new();
        for (i, stmt) in self.body.iter().enumerate() {
            if let StmtKind::Goto { targets } = &stmt.kind {
                heads.extend(targets.iter().copied().filter(|&t| t as usize <= i));
            }
        }
        heads.sort_unstable();
        heads.dedup();
        heads
    }
    /// Indices of the statements that may execute after statement `index`.
    pub fn successors(&self, index: u32) -> Vec<u32> {
        let Some(stmt) = self.body.get(index as usize) else { return Vec::new() };
        match &stmt.kind {
            StmtKind::Goto { targets } => targets.clone(),
            StmtKind::Return { .. } | StmtKind::Error => Vec::new(),
            StmtKind::Assume { cond } if cond.is_false() => Vec::new(),
            _ if (index as usize + 1) < self.body.len() => vec![index + 1],
            _ => Vec::new(),
        }
    }
}

/// A whole lowered program.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Program {
    pub vars: Vec<Var>,
    pub procs: Vec<Procedure>,
    pub structs: Vec<StructDef>,
    pub globals: Vec<VarId>,
    pub strings: Vec<String>,
    /// The procedure where execution starts (`main`).
    pub entry: Option<ProcId>,
}

impl Program {
    /// The program's names and types without procedure bodies (and no entry): what a solver
    /// context or a printer of expressions needs.
    pub fn without_bodies(&self) -> Program {
        Program {
            vars: self.vars.clone(),
            procs: Vec::new(),
            structs: self.structs.clone(),
            globals: self.globals.clone(),
            strings: self.strings.clone(),
            entry: None,
        }
    }
    pub fn var(&self, id: VarId) -> &Var {
        &self.vars[id.0 as usize]
    }
    pub fn proc(&self, id: ProcId) -> &Procedure {
        &self.procs[id.0 as usize]
    }
    pub fn struct_def(&self, id: StructId) -> &StructDef {
        &self.structs[id.0 as usize]
    }
    pub fn stmt(&self, at: StmtRef) -> &Stmt {
        &self.proc(at.proc).body[at.index as usize]
    }
    pub fn proc_ids(&self) -> impl Iterator<Item = ProcId> {
        (0..self.procs.len() as u32).map(ProcId)
    }
    pub fn proc_by_name(&self, name: &str) -> Option<ProcId> {
        self.procs.iter().position(|p| p.name == name).map(|i| ProcId(i as u32))
    }
    /// A variable visible in `proc` (its formals and locals first, then globals) by unique or source name.
    pub fn lookup_var(&self, proc: Option<ProcId>, name: &str) -> Option<VarId> {
        if let Some(p) = proc {
            let pr = self.proc(p);
            for &v in pr.formals.iter().chain(pr.locals.iter()) {
                if self.var(v).name == name {
                    return Some(v);
                }
            }
            for &v in pr.formals.iter().chain(pr.locals.iter()) {
                if self.var(v).source_name == name && !matches!(self.var(v).kind, VarKind::SymbolicConst { .. }) {
                    return Some(v);
                }
            }
        }
        self.globals.iter().copied().find(|&v| self.var(v).name == name)
    }
    /// Field `index` of the struct type `ty` (or `None` when `ty` is not a struct).
    pub fn field(&self, ty: &Type, index: u32) -> Option<&Field> {
        match ty {
            Type::Struct(s) => self.struct_def(*s).fields.get(index as usize),
            _ => None,
        }
    }
    /// The symbolic constant `'f` of formal `f`, if the procedure has one.
    pub fn symbolic_const_of(&self, formal: VarId) -> Option<VarId> {
        let proc = self.var(formal).kind.proc()?;
        self.proc(proc)
            .locals
            .iter()
            .copied()
            .find(|&v| matches!(self.var(v).kind, VarKind::SymbolicConst { of, .. } if of == formal))
    }
    /// Adds a variable to the arena and returns its id (does not register it with a procedure).
    pub fn add_var(&mut self, var: Var) -> VarId {
        self.vars.push(var);
        VarId(self.vars.len() as u32 - 1)
    }
}

/// Predicates to abstract with, in C2BP's predicate-file form: a `global { ... }` block and
/// `proc { ... }` blocks. Each predicate is a `Bool`-typed expression over the variables visible
/// in its scope (globals; for a procedure also its formals, locals and symbolic constants `'f`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PredicateSet {
    pub global: Vec<Expr>,
    pub local: Vec<(ProcId, Vec<Expr>)>,
}

impl PredicateSet {
    /// The predicates local to `proc`.
    pub fn of_proc(&self, proc: ProcId) -> &[Expr] {
        self.local.iter().find(|(p, _)| *p == proc).map(|(_, v)| v.as_slice()).unwrap_or(&[])
    }
    /// Adds `pred` to `proc`'s set (or the global set), unless already present; returns whether it was new.
    pub fn insert(&mut self, proc: Option<ProcId>, pred: Expr) -> bool {
        let list = match proc {
            None => &mut self.global,
            Some(p) => match self.local.iter().position(|(q, _)| *q == p) {
                Some(i) => &mut self.local[i].1,
                None => {
                    self.local.push((p, Vec::new()));
                    &mut self.local.last_mut().expect("just pushed").1
                }
            },
        };
        if list.contains(&pred) {
            false
        } else {
            list.push(pred);
            true
        }
    }
    pub fn len(&self) -> usize {
        self.global.len() + self.local.iter().map(|(_, v)| v.len()).sum::<usize>()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
