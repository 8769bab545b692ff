//! The "ideal" integer semantics ([`IntegerSemantics::Ideal`]): signed overflow is impossible.
//!
//! The seed papers reason over ℤ (C2BP §4 and polymorphic predicate abstraction §4.3 compute
//! `{x<5} := choose({x==2}, !{x<5})` for `x = x + 1`); C's signed overflow is undefined behaviour,
//! so a program without undefined behaviour never reaches a state where one of its signed
//! operations overflows. In this mode every query is solved together with *no-overflow side
//! conditions* for the signed arithmetic its terms contain:
//! - `a + b`: `(a < 0) != (b < 0) || (a + b < 0) == (a < 0)`;
//! - `a - b`: `(a < 0) == (b < 0) || (a - b < 0) == (a < 0)`;
//! - `-a`: `a != MIN`;
//! - `a * b`: `a == 0 || ((a * b) / a == b && !(a == -1 && b == MIN))`;
//! - `a / b`, `a % b`: `!(a == MIN && b == -1)`.
//!
//! States where a term of the query would overflow are thereby excluded (for the terms a
//! statement computes this is exactly "no undefined behaviour"; for a predicate's own terms it
//! is the reading of the predicate over ℤ restricted to states where the two readings agree).
//! Unsigned arithmetic, shifts and conversions keep their C meaning. `Wrap` (the default) is
//! the bit-precise two's complement semantics.

use c_ir::{BinaryOp, Expr, ExprKind, Type, UnaryOp};

/// How signed integer arithmetic is read by the decision procedure.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum IntegerSemantics {
    /// Two's complement: signed overflow wraps around (bit-precise; sound for every program).
    #[default]
    Wrap,
    /// Signed overflow is impossible (the papers' ℤ; sound for programs without undefined
    /// behaviour).
    Ideal,
}

impl IntegerSemantics {
    pub fn name(self) -> &'static str {
        match self {
            IntegerSemantics::Wrap => "wrap",
            IntegerSemantics::Ideal => "ideal",
        }
    }
    pub fn from_name(name: &str) -> Option<IntegerSemantics> {
        match name {
            "wrap" => Some(IntegerSemantics::Wrap),
            "ideal" => Some(IntegerSemantics::Ideal),
            _ => None,
        }
    }
}

/// The width of a signed integer term (with the configured override), if it is one.
fn signed_bits(ty: &Type, int_width: Option<u8>) -> Option<u32> {
    match ty {
        Type::Int { bits, signed: true } => Some(u32::from(int_width.unwrap_or(*bits))),
        _ => None,
    }
}

fn lt_zero(e: &Expr) -> Expr {
    Expr::binary(BinaryOp::Lt, e.clone(), Expr::int(0, e.ty.clone()))
}

fn iff(a: Expr, b: Expr) -> Expr {
    Expr::binary(BinaryOp::Eq, a, b)
}

fn ne(a: Expr, b: Expr) -> Expr {
    Expr::binary(BinaryOp::Ne, a, b)
}

/// The no-overflow side condition of one signed operation `e`, if `e` is one.
fn condition(e: &Expr, int_width: Option<u8>) -> Option<Expr> {
    let bits = signed_bits(&e.ty, int_width)?;
    let min = Expr::int(-(1i128 << (bits - 1)), e.ty.clone());
    let minus_one = Expr::int(-1, e.ty.clone());
    match &e.kind {
        ExprKind::Unary(UnaryOp::Neg, a) => Some(ne((**a).clone(), min)),
        ExprKind::Binary(op, a, b) if a.ty == e.ty && b.ty == e.ty => {
            let (a, b) = ((**a).clone(), (**b).clone());
            match op {
                BinaryOp::Add => Some(Expr::or(
                    ne(lt_zero(&a), lt_zero(&b)),
                    iff(lt_zero(e), lt_zero(&a)),
                )),
                BinaryOp::Sub => Some(Expr::or(
                    iff(lt_zero(&a), lt_zero(&b)),
                    iff(lt_zero(e), lt_zero(&a)),
                )),
                BinaryOp::Mul => {
                    let zero = Expr::binary(BinaryOp::Eq, a.clone(), Expr::int(0, e.ty.clone()));
                    let back = Expr::binary(
                        BinaryOp::Eq,
                        Expr::binary(BinaryOp::Div, e.clone(), a.clone()),
                        b.clone(),
                    );
                    let corner = Expr::and(
                        Expr::binary(BinaryOp::Eq, a, minus_one),
                        Expr::binary(BinaryOp::Eq, b, min),
                    );
                    Some(Expr::or(zero, Expr::and(back, Expr::logical_not(corner))))
                }
                BinaryOp::Div | BinaryOp::Rem => {
                    let corner = Expr::and(
                        Expr::binary(BinaryOp::Eq, a, min),
                        Expr::binary(BinaryOp::Eq, b, minus_one),
                    );
                    Some(Expr::logical_not(corner))
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// The no-overflow side conditions of every signed operation in `e` (each distinct term once).
pub fn no_overflow_conditions(e: &Expr, int_width: Option<u8>) -> Vec<Expr> {
    let mut out: Vec<Expr> = Vec::new();
    e.visit(&mut |t| {
        if let Some(c) = condition(t, int_width) {
            if !out.contains(&c) {
                out.push(c);
            }
        }
    });
    out
}

/// `e ∧ ⋀ no_overflow_conditions(e)` (just `e` when it has no signed arithmetic).
pub fn with_no_overflow(e: &Expr, int_width: Option<u8>) -> Expr {
    no_overflow_conditions(e, int_width)
        .into_iter()
        .fold(e.clone(), Expr::and)
}
