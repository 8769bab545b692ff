//! The head symbols of uninterpreted applications ([`crate::ExprKind::App`]).
//!
//! Each kind of symbol is its own variant, so code that treats one kind specially (the
//! front end's floating point, the weakest precondition's fresh values, NEWTON's start values
//! θ in BOOP Fig 7.5) matches on it, and a new kind is a `match` arm the compiler checks. Every
//! symbol is uninterpreted to the solver: equal symbols on equal arguments give equal values
//! (Ackermann), nothing else is known about them.

use crate::{BinaryOp, VarId};
use std::fmt;

/// The symbol of an uninterpreted application.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Symbol {
    /// A floating-point operation: floating point stays uninterpreted.
    Float(FloatOp),
    /// A floating-point literal, by its source text (`1.5`); its type says `float` or `double`.
    FloatLiteral(String),
    /// A fresh symbolic value (of a `havoc`, a `malloc`, a value before a call), named per
    /// statement instance; printed `$name`. Within one formula every occurrence of the same
    /// name denotes the same value.
    Fresh(String),
    /// NEWTON's symbolic start value θ_x of a variable (BOOP §7.3, Fig 7.5); printed `θx`.
    Theta(VarId),
    /// A named uninterpreted function or predicate (e.g. a shape predicate in a test).
    Named(String),
}

/// The floating-point operations the front end keeps uninterpreted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FloatOp {
    Add,
    Sub,
    Mul,
    Div,
    Neg,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    /// `x != 0.0` as a truth value (a float in a condition).
    NonZero,
}

impl FloatOp {
    /// The floating-point operation of a binary C operator, if it has one.
    pub fn of_binary(op: BinaryOp) -> Option<FloatOp> {
        Some(match op {
            BinaryOp::Add => FloatOp::Add,
            BinaryOp::Sub => FloatOp::Sub,
            BinaryOp::Mul => FloatOp::Mul,
            BinaryOp::Div => FloatOp::Div,
            BinaryOp::Lt => FloatOp::Lt,
            BinaryOp::Le => FloatOp::Le,
            BinaryOp::Gt => FloatOp::Gt,
            BinaryOp::Ge => FloatOp::Ge,
            BinaryOp::Eq => FloatOp::Eq,
            BinaryOp::Ne => FloatOp::Ne,
            _ => return None,
        })
    }

    /// The printed name's suffix (`__float_add`).
    pub fn name(self) -> &'static str {
        match self {
            FloatOp::Add => "add",
            FloatOp::Sub => "sub",
            FloatOp::Mul => "mul",
            FloatOp::Div => "div",
            FloatOp::Neg => "neg",
            FloatOp::Lt => "lt",
            FloatOp::Le => "le",
            FloatOp::Gt => "gt",
            FloatOp::Ge => "ge",
            FloatOp::Eq => "eq",
            FloatOp::Ne => "ne",
            FloatOp::NonZero => "nonzero",
        }
    }
}

impl Symbol {
    /// An identifier for the symbol made of ASCII letters, digits and `_` only, distinct for
    /// distinct symbols (for SMT-LIB declarations).
    pub fn ascii_name(&self) -> String {
        let mangle = |s: &str| -> String {
            s.chars()
                .map(|c| if c.is_ascii_alphanumeric() { c.to_string() } else { format!("_{:x}_", c as u32) })
                .collect()
        };
        match self {
            Symbol::Float(op) => format!("float_{}", op.name()),
            Symbol::FloatLiteral(text) => format!("floatlit_{}", mangle(text)),
            Symbol::Fresh(name) => format!("fresh_{}", mangle(name)),
            Symbol::Theta(v) => format!("theta_{}", v.0),
            Symbol::Named(name) => format!("fn_{}", mangle(name)),
        }
    }
}

/// The printed form without a program at hand: θ shows the variable's id (`θv3`);
/// [`crate::display_expr`] shows its name.
impl fmt::Display for Symbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Symbol::Float(op) => write!(f, "__float_{}", op.name()),
            Symbol::FloatLiteral(text) => f.write_str(text),
            Symbol::Fresh(name) => write!(f, "${name}"),
            Symbol::Theta(v) => write!(f, "θv{}", v.0),
            Symbol::Named(name) => f.write_str(name),
        }
    }
}
