//! Concrete two's complement semantics of the IR operators at a given bit width, shared by
//! constant folding here and the solver's reference evaluator.
//!
//! Values are mathematical integers normalised into the range of the type (`[-2^(w-1), 2^(w-1))`
//! for signed, `[0, 2^w)` for unsigned). Cases C leaves undefined get the SMT-LIB `QF_BV`
//! meaning (so the bit-blaster, the brute-force tests and Z3 agree): `x / 0` is all ones
//! (unsigned) or `x < 0 ? 1 : -1` (signed), `x % 0` is `x`, `INT_MIN / -1` wraps to `INT_MIN`;
//! shifting by an amount `>= w` (the amount read as an unsigned number of its own width) gives
//! 0 for `<<` and logical `>>`, and all sign bits for arithmetic `>>`; signed overflow wraps.

use c_ir::{BinaryOp, UnaryOp};

/// The bit mask of width `w` (1..=64; 0 is treated as 1).
pub fn mask(w: u32) -> u128 {
    let w = w.clamp(1, 127);
    (1u128 << w) - 1
}

/// The bit pattern of `v` at width `w`.
pub fn to_bits(v: i128, w: u32) -> u128 {
    (v as u128) & mask(w)
}

/// The value of bit pattern `bits` at width `w`.
pub fn from_bits(bits: u128, w: u32, signed: bool) -> i128 {
    let w = w.clamp(1, 127);
    let bits = bits & mask(w);
    if signed && (bits >> (w - 1)) & 1 == 1 {
        (bits as i128) - (1i128 << w)
    } else {
        bits as i128
    }
}

/// `v` reduced modulo `2^w` into the range of a (signed or unsigned) `w`-bit type.
pub fn wrap(v: i128, w: u32, signed: bool) -> i128 {
    from_bits(to_bits(v, w), w, signed)
}

/// A unary operator on a `w`-bit value (`Not` treats any non-zero value as true).
pub fn eval_unary(op: UnaryOp, v: i128, w: u32, signed: bool) -> i128 {
    match op {
        UnaryOp::Neg => wrap(v.wrapping_neg(), w, signed),
        UnaryOp::BitNot => wrap(!v, w, signed),
        UnaryOp::Not => (v == 0) as i128,
    }
}

/// A shift of the `w`-bit value `a` by the unsigned amount `amount`.
pub fn eval_shift(op: BinaryOp, a: i128, amount: u128, w: u32, signed: bool) -> i128 {
    let w = w.clamp(1, 127);
    let bits = to_bits(a, w);
    let large = amount >= w as u128;
    let result = match op {
        BinaryOp::Shl => {
            if large {
                0
            } else {
                bits << amount
            }
        }
        _ => {
            if signed {
                let negative = (bits >> (w - 1)) & 1 == 1;
                if large {
                    if negative {
                        mask(w)
                    } else {
                        0
                    }
                } else {
                    let shifted = bits >> amount;
                    if negative {
                        shifted | (mask(w) & !(mask(w) >> amount))
                    } else {
                        shifted
                    }
                }
            } else if large {
                0
            } else {
                bits >> amount
            }
        }
    };
    from_bits(result, w, signed)
}

/// A binary operator on two `w`-bit operands of the given signedness. Relational and logical
/// operators return 0 or 1; shifts read `b` as an unsigned `w`-bit amount (use [`eval_shift`]
/// when the amount has another width).
pub fn eval_binary(op: BinaryOp, a: i128, b: i128, w: u32, signed: bool) -> i128 {
    let ua = to_bits(a, w);
    let ub = to_bits(b, w);
    let m = mask(w);
    let r = |bits: u128| from_bits(bits, w, signed);
    match op {
        BinaryOp::Add => r(ua.wrapping_add(ub)),
        BinaryOp::Sub => r(ua.wrapping_sub(ub)),
        BinaryOp::Mul => r(ua.wrapping_mul(ub)),
        BinaryOp::Div | BinaryOp::Rem => {
            if signed {
                let sa = from_bits(ua, w, true);
                let sb = from_bits(ub, w, true);
                let abs_a = to_bits(sa.abs(), w);
                let abs_b = to_bits(sb.abs(), w);
                let (q, rem) = unsigned_div_rem(abs_a, abs_b, m);
                if op == BinaryOp::Div {
                    if (sa < 0) != (sb < 0) {
                        r(q.wrapping_neg())
                    } else {
                        r(q)
                    }
                } else if sa < 0 {
                    r(rem.wrapping_neg())
                } else {
                    r(rem)
                }
            } else {
                let (q, rem) = unsigned_div_rem(ua, ub, m);
                if op == BinaryOp::Div {
                    r(q)
                } else {
                    r(rem)
                }
            }
        }
        BinaryOp::Shl | BinaryOp::Shr => eval_shift(op, a, ub, w, signed),
        BinaryOp::BitAnd => r(ua & ub),
        BinaryOp::BitOr => r(ua | ub),
        BinaryOp::BitXor => r(ua ^ ub),
        BinaryOp::Eq => (ua == ub) as i128,
        BinaryOp::Ne => (ua != ub) as i128,
        BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => {
            let (x, y) = if signed {
                (from_bits(ua, w, true), from_bits(ub, w, true))
            } else {
                (ua as i128, ub as i128)
            };
            (match op {
                BinaryOp::Lt => x < y,
                BinaryOp::Le => x <= y,
                BinaryOp::Gt => x > y,
                _ => x >= y,
            }) as i128
        }
        BinaryOp::And => (a != 0 && b != 0) as i128,
        BinaryOp::Or => (a != 0 || b != 0) as i128,
        BinaryOp::Implies => (a == 0 || b != 0) as i128,
    }
}

/// Unsigned division with the SMT-LIB convention for a zero divisor.
fn unsigned_div_rem(a: u128, b: u128, m: u128) -> (u128, u128) {
    match (a.checked_div(b), a.checked_rem(b)) {
        (Some(q), Some(r)) => (q, r),
        _ => (m, a),
    }
}

/// Whether C defines the operation (no division by zero, no overflowing signed division, no
/// shift by a negative amount or by the width or more); constant folding only folds these.
pub fn is_defined(op: BinaryOp, a: i128, b: i128, w: u32, signed: bool) -> bool {
    match op {
        BinaryOp::Div | BinaryOp::Rem => {
            b != 0 && !(signed && b == -1 && a == from_bits(1u128 << (w.clamp(1, 127) - 1), w, true))
        }
        BinaryOp::Shl | BinaryOp::Shr => b >= 0 && b < w as i128,
        _ => true,
    }
}
