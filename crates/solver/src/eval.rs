//! A reference evaluator with exactly the solver's semantics (widths from [`SolverConfig`],
//! SMT-LIB meaning of undefined operations): the oracle of the brute-force tests, and a way to
//! check a model against a formula.

use crate::encode::{comparison_is_signed, type_width};
use crate::SolverConfig;
use c_ir::{BinaryOp, Expr, ExprKind, Type, UnaryOp};
use logic::eval::{eval_binary, eval_shift, eval_unary, to_bits, wrap};

/// The value of `e` (normalised into its type's range at the configured width; `Bool` is 0/1).
/// `leaf` supplies the values of variables and of memory terms (`*p`, `s.f`, `a[i]`, `&x`,
/// uninterpreted symbols); `None` from `leaf` or an unsupported type makes the result `None`.
pub fn evaluate(e: &Expr, config: &SolverConfig, leaf: &dyn Fn(&Expr) -> Option<i128>) -> Option<i128> {
    let w = type_width(config, &e.ty)?;
    let s = e.ty.is_signed();
    let value = |x: &Expr| evaluate(x, config, leaf);
    Some(match &e.kind {
        ExprKind::Const(v) => wrap(*v, w, s),
        ExprKind::Var(_)
        | ExprKind::Deref(_)
        | ExprKind::Field(..)
        | ExprKind::Index(..)
        | ExprKind::AddrOf(_)
        | ExprKind::Str(_)
        | ExprKind::App(..) => wrap(leaf(e)?, w, s),
        ExprKind::Unary(UnaryOp::Not, a) => (value(a)? == 0) as i128,
        ExprKind::Unary(op, a) => {
            let v = wrap(value(a)?, w, s);
            eval_unary(*op, v, w, s)
        }
        ExprKind::Binary(op, a, b) if op.is_logical() => {
            let x = value(a)? != 0;
            let y = value(b)? != 0;
            (match op {
                BinaryOp::And => x && y,
                BinaryOp::Or => x || y,
                _ => !x || y,
            }) as i128
        }
        ExprKind::Binary(op, a, b) if op.is_relational() => {
            let wa = type_width(config, &a.ty)?;
            let wb = type_width(config, &b.ty)?;
            let cw = wa.max(wb);
            let signed = comparison_is_signed(a, b);
            eval_binary(*op, value(a)?, value(b)?, cw, signed)
        }
        ExprKind::Binary(op @ (BinaryOp::Shl | BinaryOp::Shr), a, b) => {
            let wb = type_width(config, &b.ty)?;
            let x = wrap(value(a)?, w, s);
            let amount = to_bits(value(b)?, wb);
            eval_shift(*op, x, amount, w, s)
        }
        ExprKind::Binary(op, a, b) => eval_binary(*op, value(a)?, value(b)?, w, s),
        ExprKind::Cast(a) => {
            let v = value(a)?;
            if e.ty == Type::Bool {
                (v != 0) as i128
            } else {
                wrap(v, w, s)
            }
        }
        ExprKind::Ite(c, x, y) => {
            if value(c)? != 0 {
                wrap(value(x)?, w, s)
            } else {
                wrap(value(y)?, w, s)
            }
        }
    })
}
