//! Sizes, alignments and field offsets of IR types (LP64: x86-64 gcc), and value normalisation
//! and constant operators shared by the front end (constant folding) and the interpreter.

use crate::{BinaryOp, Program, StructId, Type, UnaryOp};

/// `sizeof(ty)` in bytes (LP64); `void` and functions count 1 like gcc, opaque types 8.
pub fn size_of(program: &Program, ty: &Type) -> u64 {
    match ty {
        Type::Void | Type::Function => 1,
        Type::Bool => 1,
        Type::Int { bits, .. } => (*bits as u64).div_ceil(8).max(1),
        Type::Pointer(_) => 8,
        Type::Array(elem, n) => size_of(program, elem).saturating_mul(*n),
        Type::Struct(s) => struct_layout(program, *s).0,
        Type::Opaque(name) => match name.as_str() {
            "float" => 4,
            "long double" => 16,
            _ => 8,
        },
    }
}

/// `_Alignof(ty)` in bytes.
pub fn align_of(program: &Program, ty: &Type) -> u64 {
    match ty {
        Type::Array(elem, _) => align_of(program, elem),
        Type::Struct(s) => struct_layout(program, *s).1,
        Type::Opaque(name) if name == "long double" => 16,
        other => size_of(program, other).clamp(1, 8),
    }
}

/// Size and alignment of a struct or union (with trailing padding).
pub fn struct_layout(program: &Program, id: StructId) -> (u64, u64) {
    let Some(def) = program.structs.get(id.0 as usize) else { return (0, 1) };
    let mut size = 0u64;
    let mut align = 1u64;
    for field in &def.fields {
        // a struct containing itself by value is invalid C; guard against it anyway
        if matches!(&field.ty, Type::Struct(s) if *s == id) {
            continue;
        }
        let a = align_of(program, &field.ty);
        let s = size_of(program, &field.ty);
        align = align.max(a);
        if def.is_union {
            size = size.max(s);
        } else {
            size = size.div_ceil(a) * a + s;
        }
    }
    (size.div_ceil(align) * align, align)
}

/// Byte offset of field `index` in struct `id` (0 for unions).
pub fn field_offset(program: &Program, id: StructId, index: u32) -> u64 {
    let Some(def) = program.structs.get(id.0 as usize) else { return 0 };
    if def.is_union {
        return 0;
    }
    let mut offset = 0u64;
    for (i, field) in def.fields.iter().enumerate() {
        let a = align_of(program, &field.ty);
        offset = offset.div_ceil(a) * a;
        if i as u32 == index {
            return offset;
        }
        offset += size_of(program, &field.ty);
    }
    offset
}

/// Normalises `value` into the range of `ty` (two's complement wrap-around, sign extension,
/// `Bool` to 0/1, pointers to 64-bit unsigned).
pub fn normalize(value: i128, ty: &Type) -> i128 {
    match ty {
        Type::Bool => (value != 0) as i128,
        Type::Int { bits, signed } => wrap(value, *bits as u32, *signed),
        Type::Pointer(_) => wrap(value, 64, false),
        _ => value,
    }
}

/// Wraps to `bits` bits, signed or unsigned.
pub fn wrap(value: i128, bits: u32, signed: bool) -> i128 {
    if bits == 0 || bits >= 128 {
        return value;
    }
    let mask: i128 = (1i128 << bits) - 1;
    let v = value & mask;
    if signed && (v >> (bits - 1)) & 1 == 1 {
        v - (1i128 << bits)
    } else {
        v
    }
}

/// A unary operator on a normalised operand of type `ty` (result normalised to `ty`, `Not` to Bool).
pub fn eval_unary(op: UnaryOp, value: i128, ty: &Type) -> i128 {
    match op {
        UnaryOp::Neg => normalize(value.wrapping_neg(), ty),
        UnaryOp::BitNot => normalize(!value, ty),
        UnaryOp::Not => (value == 0) as i128,
    }
}

/// A binary operator on normalised operands whose (converted) type is `operand_ty`; the result
/// is normalised to `result_ty`. `None` for division by zero. Pointer arithmetic is not handled
/// here (the interpreter scales by element size before calling this).
pub fn eval_binary(op: BinaryOp, a: i128, b: i128, operand_ty: &Type, result_ty: &Type) -> Option<i128> {
    let signed = operand_ty.is_signed();
    let bits = match operand_ty {
        Type::Bool => 32,
        Type::Int { bits, .. } => *bits as u32,
        _ => 64,
    };
    let r = match op {
        BinaryOp::Add => a.wrapping_add(b),
        BinaryOp::Sub => a.wrapping_sub(b),
        BinaryOp::Mul => a.wrapping_mul(b),
        BinaryOp::Div => {
            if b == 0 {
                return None;
            }
            a.wrapping_div(b)
        }
        BinaryOp::Rem => {
            if b == 0 {
                return None;
            }
            a.wrapping_rem(b)
        }
        BinaryOp::Shl => {
            let amount = (b as u128 % bits.max(1) as u128) as u32;
            a.wrapping_shl(amount)
        }
        BinaryOp::Shr => {
            let amount = (b as u128 % bits.max(1) as u128) as u32;
            if signed {
                a >> amount
            } else {
                let unsigned = wrap(a, bits, false);
                unsigned >> amount
            }
        }
        BinaryOp::BitAnd => a & b,
        BinaryOp::BitOr => a | b,
        BinaryOp::BitXor => a ^ b,
        BinaryOp::Eq => (a == b) as i128,
        BinaryOp::Ne => (a != b) as i128,
        BinaryOp::Lt => (a < b) as i128,
        BinaryOp::Le => (a <= b) as i128,
        BinaryOp::Gt => (a > b) as i128,
        BinaryOp::Ge => (a >= b) as i128,
        BinaryOp::And => ((a != 0) && (b != 0)) as i128,
        BinaryOp::Or => ((a != 0) || (b != 0)) as i128,
        BinaryOp::Implies => ((a == 0) || (b != 0)) as i128,
    };
    Some(normalize(r, result_ty))
}
