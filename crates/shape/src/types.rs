//! Type reasoning (Dams–Namjoshi §4.1): `typreach[F](t1, t2)`.
//!
//! The paper's key property: if `reach[A;F](e1,e2)` holds then `typreach[F](type e1, type e2)`.
//! Plain C types cannot tell `&y` (a variable's address) from `&(x->n)` (a field slot), both
//! `Node **`, so the graph has finer nodes ([`Kind`]): struct cells, field slots and variable
//! slots. Edges: a cell of struct `S` reaches its slots `S.a` for `a ∈ F` (a field step), and a
//! slot reaches the kind of the value stored in it (a dereference step). A variable slot is
//! reached only from itself: the analysed fragment never takes the address of a variable
//! (such procedures are refused), so no memory cell holds one.

use crate::terms::{FieldRef, Names, Term};
use c_ir::{Type, VarId};

/// What an address (or a pointer value) can denote in a well-typed state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Null,
    /// An integer: never an address.
    Int,
    /// A struct cell (a value of type `S *`).
    Cell(c_ir::StructId),
    /// A field slot `&(p->a)`.
    Slot(FieldRef),
    /// A variable slot `&x`.
    VarSlot(VarId),
    /// Anything (a pointer to a non-struct type, an unknown value).
    Unknown,
}

/// The kind of values of C type `ty`.
pub fn kind_of_type(ty: &Type) -> Kind {
    match ty {
        Type::Int { .. } | Type::Bool => Kind::Int,
        Type::Pointer(inner) => match inner.as_ref() {
            Type::Struct(s) => Kind::Cell(*s),
            _ => Kind::Unknown,
        },
        _ => Kind::Unknown,
    }
}

/// The C type of the value a term denotes, when known.
pub fn value_type(names: &Names, t: &Term) -> Option<Type> {
    match t {
        Term::Rigid(r) => names.rigids.get(r.0 as usize).map(|r| r.ty.clone()),
        Term::VarAddr(v) => Some(Type::pointer_to(names.program.vars.get(v.0 as usize)?.ty.clone())),
        Term::FieldAddr(_, f) => Some(Type::pointer_to(field_type(names, *f)?)),
        Term::Load(a) => match a.as_ref() {
            Term::VarAddr(v) => Some(names.program.vars.get(v.0 as usize)?.ty.clone()),
            Term::FieldAddr(_, f) => field_type(names, *f),
            _ => None,
        },
        Term::Fresh(s) => Some(Type::pointer_to(Type::Struct(*s))),
        Term::Scalar => Some(Type::INT),
        Term::Null | Term::Unknown => None,
    }
}

pub fn field_type(names: &Names, f: FieldRef) -> Option<Type> {
    names.program.structs.get(f.strukt.0 as usize)?.fields.get(f.index as usize).map(|x| x.ty.clone())
}

/// The kind of a term.
pub fn kind(names: &Names, t: &Term) -> Kind {
    match t {
        Term::Null => Kind::Null,
        Term::Scalar => Kind::Int,
        Term::Unknown => Kind::Unknown,
        Term::VarAddr(v) => Kind::VarSlot(*v),
        Term::FieldAddr(_, f) => Kind::Slot(*f),
        Term::Fresh(s) => Kind::Cell(*s),
        Term::Rigid(_) | Term::Load(_) => value_type(names, t).map(|ty| kind_of_type(&ty)).unwrap_or(Kind::Unknown),
    }
}

/// The kinds reachable from `from` in ≥ 0 steps over fields `fields`; `None` means "anything".
pub fn reachable_kinds(names: &Names, fields: &[FieldRef], from: Kind) -> Option<Vec<Kind>> {
    let mut seen: Vec<Kind> = Vec::new();
    let mut stack = vec![from];
    while let Some(k) = stack.pop() {
        if seen.contains(&k) {
            continue;
        }
        match k {
            Kind::Null | Kind::Int => continue,
            Kind::Unknown => return None,
            _ => seen.push(k),
        }
        stack.extend(successors(names, fields, k));
    }
    Some(seen)
}

fn successors(names: &Names, fields: &[FieldRef], k: Kind) -> Vec<Kind> {
    match k {
        Kind::Cell(s) => fields.iter().filter(|f| f.strukt == s).map(|f| Kind::Slot(*f)).collect(),
        Kind::Slot(f) => vec![field_type(names, f).map(|t| kind_of_type(&t)).unwrap_or(Kind::Unknown)],
        Kind::VarSlot(v) => vec![names.program.vars.get(v.0 as usize).map(|x| kind_of_type(&x.ty)).unwrap_or(Kind::Unknown)],
        _ => Vec::new(),
    }
}

/// `typreach[F](from, to)`: false only when no well-typed path exists.
pub fn typreach(names: &Names, fields: &[FieldRef], from: Kind, to: Kind) -> bool {
    if matches!(to, Kind::Null | Kind::Int) {
        return false;
    }
    match reachable_kinds(names, fields, from) {
        None => true,
        Some(set) => to == Kind::Unknown || set.contains(&to),
    }
}

/// Whether a heap cycle over `fields` can be reached from `from`, by types.
pub fn typcyclic(names: &Names, fields: &[FieldRef], from: Kind) -> bool {
    let Some(set) = reachable_kinds(names, fields, from) else { return true };
    set.iter().any(|&k| {
        successors(names, fields, k)
            .into_iter()
            .any(|next| reachable_kinds(names, fields, next).map(|s| s.contains(&k)).unwrap_or(true))
    })
}

/// Whether two values of these kinds can be equal in a well-typed state.
pub fn may_be_equal(a: Kind, b: Kind) -> bool {
    use Kind::*;
    match (a, b) {
        (Unknown, _) | (_, Unknown) => true,
        (Null, Null) => true,
        (Null, Cell(_)) | (Cell(_), Null) => true,
        (Null, _) | (_, Null) => false,
        (Int, Int) => true,
        (x, y) => x == y,
    }
}
