//! The may-alias interface queried by weakest preconditions, with two simple implementations.

use c_ir::{Expr, ExprKind, Program, Type, VarId};
use budget::hash::HashSet;

/// Which memory a location of this type lives in: locations of different keys never overlap
/// (the solver keeps one uninterpreted memory per key). Integer signedness is ignored.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MemoryTypeKey {
    Bool,
    Int(u8),
    Pointer,
    Struct(u32),
    Other(String),
}

/// The memory key of values of type `ty`.
pub fn memory_type_key(ty: &Type) -> MemoryTypeKey {
    match ty {
        Type::Bool => MemoryTypeKey::Bool,
        Type::Int { bits, .. } => MemoryTypeKey::Int(*bits),
        Type::Pointer(_) => MemoryTypeKey::Pointer,
        Type::Struct(s) => MemoryTypeKey::Struct(s.0),
        // arrays are never read or written as a whole; their elements have the element's key
        Type::Array(..) => MemoryTypeKey::Other("array".into()),
        Type::Void => MemoryTypeKey::Other("void".into()),
        Type::Function => MemoryTypeKey::Other("function".into()),
        Type::Opaque(name) => MemoryTypeKey::Other(name.clone()),
    }
}

/// May-alias information: may the lvalues `a` and `b` denote the same location (at any point)?
/// Implementations must be conservative (answer `true` when unsure).
pub trait MayAlias {
    fn may_alias(&self, a: &Expr, b: &Expr) -> bool;
}

/// No alias information: every two lvalues may alias (C2BP §4.2 "in the absence of alias
/// information"), except the purely syntactic facts that [`crate::wp_assign`] applies itself
/// (distinct variables, different memory types, different fields).
#[derive(Clone, Copy, Debug, Default)]
pub struct AlwaysMayAlias;

impl MayAlias for AlwaysMayAlias {
    fn may_alias(&self, _a: &Expr, _b: &Expr) -> bool {
        true
    }
}

/// Type-based alias information: lvalues may alias only if they have the same memory type
/// key, and a variable can be aliased by a dereference only if its address is taken.
#[derive(Clone, Debug, Default)]
pub struct TypeBasedMayAlias {
    address_taken: HashSet<VarId>,
}

impl TypeBasedMayAlias {
    /// Variables count as address-taken if the front end says so or `&v` occurs in the program.
    pub fn new(program: &Program) -> TypeBasedMayAlias {
        let mut address_taken: HashSet<VarId> = HashSet::default();
        for (i, v) in program.vars.iter().enumerate() {
            if v.address_taken {
                address_taken.insert(VarId(i as u32));
            }
        }
        let mut note = |e: &Expr| {
            e.visit(&mut |sub| {
                if let ExprKind::AddrOf(inner) = &sub.kind {
                    if let Some(root) = root_var(inner) {
                        address_taken.insert(root);
                    }
                }
                if let ExprKind::Cast(inner) = &sub.kind {
                    // array-to-pointer decay takes the array's address
                    if matches!(inner.ty, Type::Array(..)) {
                        if let Some(root) = root_var(inner) {
                            address_taken.insert(root);
                        }
                    }
                }
            })
        };
        for proc in &program.procs {
            for stmt in &proc.body {
                crate::locations::for_each_stmt_expr(&stmt.kind, &mut note);
            }
        }
        TypeBasedMayAlias { address_taken }
    }

    /// Additionally treats the variables under `&` in `e` as address-taken (e.g. predicates).
    pub fn note_expr(&mut self, e: &Expr) {
        e.visit(&mut |sub| {
            if let ExprKind::AddrOf(inner) = &sub.kind {
                if let Some(root) = root_var(inner) {
                    self.address_taken.insert(root);
                }
            }
        });
    }

    pub fn is_address_taken(&self, v: VarId) -> bool {
        self.address_taken.contains(&v)
    }
}

/// The variable at the root of an lvalue path `v`, `v.f`, `v[i]` (not through dereferences).
pub fn root_var(e: &Expr) -> Option<VarId> {
    match &e.kind {
        ExprKind::Var(v) => Some(*v),
        ExprKind::Field(a, _) | ExprKind::Index(a, _) => root_var(a),
        _ => None,
    }
}

impl MayAlias for TypeBasedMayAlias {
    fn may_alias(&self, a: &Expr, b: &Expr) -> bool {
        if memory_type_key(&a.ty) != memory_type_key(&b.ty) {
            return false;
        }
        match (root_var(a), root_var(b)) {
            (Some(x), Some(y)) => x == y,
            (Some(x), None) | (None, Some(x)) => self.address_taken.contains(&x),
            (None, None) => true,
        }
    }
}
