//! A small-model pointer width for one strengthening's formulas.
//!
//! The decision procedure gives pointers 64 bits. When a set of formulas uses pointers only as
//! *names of cells* — compared with `==`/`!=` (or with `NULL`), dereferenced, offset to a struct
//! field, passed to uninterpreted symbols, selected by `?:` — and never does arithmetic, ordering
//! or integer conversion on them, the formulas are equisatisfiable at any pointer width `w`
//! whose `2^w` values can hold every pointer value a model mentions next to the fixed constants
//! (`NULL` and the addresses of the program's variables and string literals):
//! - a 64-bit model maps to a `w`-bit one by an injective renaming of the pointer values that
//!   keeps `NULL` and every constant address (variable slot `s` is `s << 32` at 64 bits and `s`
//!   below 32 bits, see the memory model in [`solver`]), so every equality, the memory
//!   model's congruences (equal addresses ⇒ equal values) and the field-address constraints
//!   (injective, non-null, distinct from other fields and from variables) keep their truth;
//! - a `w`-bit model maps back to 64 bits the same way.
//!
//! A model mentions at most two pointer values per distinct subterm (its value and, for a field
//! access, the field's address), so `2^w > slots + 2·terms + 1` suffices. Integers keep their C
//! widths. The exact strategy's all-SAT enumerations are dominated by the SAT solver assigning
//! every pointer bit in every model, so narrowing pointers from 64 bits to ~8 makes each call
//! several times cheaper without changing any answer.

use c_ir::{BinaryOp, Expr, ExprKind, Program, Type, UnaryOp};
use budget::hash::HashSet;

/// The smallest pointer width allowed (the solver clamps below 8 anyway).
const MIN_BITS: u32 = 8;

fn pointer_like(ty: &Type) -> bool {
    matches!(ty, Type::Pointer(_) | Type::Array(..))
}

fn is_null_constant(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Const(0) => true,
        ExprKind::Cast(inner) => is_null_constant(inner),
        _ => false,
    }
}

/// Whether `e` uses pointers only in ways that commute with an injective renaming of pointer
/// values (see the module documentation).
fn equality_only(e: &Expr) -> bool {
    let mut ok = true;
    e.visit(&mut |sub| {
        if !ok {
            return;
        }
        ok = match &sub.kind {
            ExprKind::Const(v) => !pointer_like(&sub.ty) || *v == 0,
            ExprKind::Var(_) | ExprKind::Str(_) | ExprKind::Deref(_) | ExprKind::AddrOf(_) | ExprKind::Field(..) => true,
            ExprKind::Ite(..) | ExprKind::App(..) => true,
            // element addresses are base + index: arithmetic
            ExprKind::Index(..) => false,
            ExprKind::Unary(op, a) => *op == UnaryOp::Not || (!pointer_like(&a.ty) && !pointer_like(&sub.ty)),
            ExprKind::Cast(a) => {
                let (from, to) = (pointer_like(&a.ty), pointer_like(&sub.ty));
                match (from, to) {
                    (true, true) | (false, false) => true,
                    (true, false) => sub.ty == Type::Bool,
                    (false, true) => is_null_constant(a),
                }
            }
            ExprKind::Binary(op, a, b) => {
                let pointers = pointer_like(&a.ty) || pointer_like(&b.ty) || pointer_like(&sub.ty);
                if !pointers || op.is_logical() {
                    true
                } else if matches!(op, BinaryOp::Eq | BinaryOp::Ne) {
                    // pointer against pointer, or against a null constant
                    (pointer_like(&a.ty) || is_null_constant(a)) && (pointer_like(&b.ty) || is_null_constant(b))
                } else {
                    false
                }
            }
        };
    });
    ok
}

/// The pointer width to decide `formulas` with: `configured` unless every formula is
/// equality-only on pointers, then the smallest width with room for every value (at least 8).
pub(crate) fn pointer_bits_for(program: &Program, formulas: &[&Expr], configured: u32) -> u32 {
    if configured <= MIN_BITS || !formulas.iter().all(|f| equality_only(f)) {
        return configured;
    }
    let mut terms: HashSet<&Expr> = HashSet::default();
    for f in formulas {
        collect(f, &mut terms);
    }
    // constant slots: every variable and string literal, plus NULL
    let needed = (program.vars.len() + program.strings.len() + 1) as u128 + 2 * terms.len() as u128 + 1;
    let mut bits = MIN_BITS;
    while bits < configured && (1u128 << bits) <= needed {
        bits += 1;
    }
    bits.min(configured)
}

fn collect<'e>(e: &'e Expr, out: &mut HashSet<&'e Expr>) {
    if !out.insert(e) {
        return;
    }
    match &e.kind {
        ExprKind::Const(_) | ExprKind::Var(_) | ExprKind::Str(_) => {}
        ExprKind::Unary(_, a) | ExprKind::Cast(a) | ExprKind::Deref(a) | ExprKind::AddrOf(a) | ExprKind::Field(a, _) => collect(a, out),
        ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) => {
            collect(a, out);
            collect(b, out);
        }
        ExprKind::Ite(c, a, b) => {
            collect(c, out);
            collect(a, out);
            collect(b, out);
        }
        ExprKind::App(_, args) => args.iter().for_each(|a| collect(a, out)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use c_ir::{ProcId, Var, VarId, VarKind};
    use diagnostics::Span;

    fn program_with(names: &[(&str, Type)]) -> (Program, Vec<Expr>) {
        let mut program = Program::default();
        let vars: Vec<Expr> = names
            .iter()
            .map(|(n, ty)| {
                let id: VarId = program.add_var(Var {
                    name: n.to_string(),
                    source_name: n.to_string(),
                    ty: ty.clone(),
                    kind: VarKind::Local(ProcId(0)),
                    span: Span::default(),
                    address_taken: false,
                });
                Expr::var(id, ty.clone())
            })
            .collect();
        (program, vars)
    }

    #[test]
    fn pointer_equalities_get_a_small_width() {
        let p = Type::pointer_to(Type::INT);
        let (program, v) = program_with(&[("p", p.clone()), ("q", p.clone())]);
        let f = Expr::eq(Expr::deref(v[0].clone()), Expr::deref(v[1].clone()));
        let g = Expr::binary(BinaryOp::Ne, v[0].clone(), Expr::int(0, p));
        assert_eq!(pointer_bits_for(&program, &[&f, &g], 64), 8);
    }

    #[test]
    fn pointer_arithmetic_and_ordering_keep_the_configured_width() {
        let p = Type::pointer_to(Type::INT);
        let (program, v) = program_with(&[("p", p.clone()), ("q", p)]);
        let plus = Expr::eq(Expr::binary(BinaryOp::Add, v[0].clone(), Expr::int(1, Type::INT)), v[1].clone());
        let less = Expr::binary(BinaryOp::Lt, v[0].clone(), v[1].clone());
        let to_int = Expr::eq(Expr::cast(v[0].clone(), Type::LONG), Expr::int(4, Type::LONG));
        for f in [plus, less, to_int] {
            assert_eq!(pointer_bits_for(&program, &[&f], 64), 64, "{f:?}");
        }
    }

    #[test]
    fn many_variables_widen_the_small_model() {
        let p = Type::pointer_to(Type::INT);
        let names: Vec<(String, Type)> = (0..300).map(|i| (format!("v{i}"), p.clone())).collect();
        let refs: Vec<(&str, Type)> = names.iter().map(|(n, t)| (n.as_str(), t.clone())).collect();
        let (program, v) = program_with(&refs);
        let f = Expr::eq(v[0].clone(), v[299].clone());
        let bits = pointer_bits_for(&program, &[&f], 64);
        assert!((1u128 << bits) > 300 + 2 * 3 + 2, "{bits}");
        assert!(bits < 64);
    }
}
