//! Printing a satisfiability query in SMT-LIB 2 (`QF_UFBV`) with the solver's semantics and
//! memory model, for differential testing against Z3 and for exporting queries.

use crate::encode::{comparison_is_signed, constant_address, type_width};
use crate::SolverConfig;
use c_ir::{BinaryOp, Expr, ExprKind, Program, Type, UnaryOp};
use std::collections::BTreeSet;
use std::fmt::Write;

struct Printer<'a> {
    program: &'a Program,
    config: &'a SolverConfig,
    declarations: BTreeSet<String>,
    /// (struct, field, base term, result term)
    field_terms: Vec<(u32, u32, String, String)>,
    constant_addresses: BTreeSet<u128>,
    memory_vars: BTreeSet<u32>,
}

/// An SMT-LIB 2 script asserting `formula` and asking `(check-sat)`; `None` if the formula has
/// terms the solver does not support.
pub fn to_smtlib(program: &Program, formula: &Expr, config: &SolverConfig) -> Option<String> {
    let mut p = Printer {
        program,
        config,
        declarations: BTreeSet::new(),
        field_terms: Vec::new(),
        constant_addresses: BTreeSet::new(),
        memory_vars: BTreeSet::new(),
    };
    // variables whose address is observable are read from memory
    for (i, v) in program.vars.iter().enumerate() {
        if v.address_taken {
            p.memory_vars.insert(i as u32);
        }
    }
    formula.visit(&mut |e| {
        if let ExprKind::AddrOf(l) = &e.kind {
            if let ExprKind::Var(v) = l.kind {
                p.memory_vars.insert(v.0);
            }
        }
    });
    let body = p.boolean(formula)?;
    let pw = p.pointer_width();
    let mut out = String::from("(set-logic QF_UFBV)\n");
    for d in &p.declarations {
        out.push_str(d);
        out.push('\n');
    }
    let _ = writeln!(out, "(assert {body})");
    // field addresses: non-null, injective per field, distinct across fields and from variables
    let terms = p.field_terms.clone();
    for (i, (s1, f1, b1, r1)) in terms.iter().enumerate() {
        let _ = writeln!(out, "(assert (not (= {r1} {})))", bv_const(0, pw));
        for a in &p.constant_addresses {
            let _ = writeln!(out, "(assert (not (= {r1} {})))", bv_const(*a, pw));
        }
        for (s2, f2, b2, r2) in terms.iter().skip(i + 1) {
            if s1 == s2 && f1 == f2 {
                let _ = writeln!(out, "(assert (= (= {b1} {b2}) (= {r1} {r2})))");
            } else {
                let _ = writeln!(out, "(assert (not (= {r1} {r2})))");
            }
        }
    }
    out.push_str("(check-sat)\n");
    Some(out)
}

fn bv_const(v: u128, w: u32) -> String {
    let v = v & logic::eval::mask(w);
    format!("(_ bv{v} {w})")
}

impl Printer<'_> {
    fn pointer_width(&self) -> u32 {
        self.config.pointer_bits.clamp(8, 64)
    }

    fn width(&self, ty: &Type) -> Option<u32> {
        type_width(self.config, ty)
    }

    fn declare(&mut self, text: String) {
        self.declarations.insert(text);
    }

    /// A boolean term for a formula (non-boolean scalars as `!= 0`).
    fn boolean(&mut self, e: &Expr) -> Option<String> {
        if e.ty != Type::Bool {
            let w = self.width(&e.ty)?;
            let t = self.term(e)?;
            return Some(format!("(not (= {t} {}))", bv_const(0, w)));
        }
        let t = self.term(e)?;
        Some(format!("(= {t} #b1)"))
    }

    /// Extends (by `from`'s signedness) or truncates a bit-vector term of width `w` to `to`.
    fn resize(&self, t: String, w: u32, from: &Type, to: u32) -> String {
        if w == to {
            t
        } else if w > to {
            format!("((_ extract {} 0) {t})", to - 1)
        } else if from.is_signed() {
            format!("((_ sign_extend {}) {t})", to - w)
        } else {
            format!("((_ zero_extend {}) {t})", to - w)
        }
    }

    fn location_value(&mut self, ty: &Type, address: String) -> Option<String> {
        let w = self.width(ty)?;
        let key = match logic::memory_type_key(ty) {
            logic::MemoryTypeKey::Bool => "bool".to_string(),
            logic::MemoryTypeKey::Int(b) => format!("int{b}"),
            logic::MemoryTypeKey::Pointer => "ptr".to_string(),
            logic::MemoryTypeKey::Struct(s) => format!("struct{s}"),
            logic::MemoryTypeKey::Other(_) => return None,
        };
        let name = format!("mem_{key}_{w}");
        let pw = self.pointer_width();
        self.declare(format!("(declare-fun {name} ((_ BitVec {pw})) (_ BitVec {w}))"));
        Some(format!("({name} {address})"))
    }

    fn address(&mut self, l: &Expr) -> Option<String> {
        let pw = self.pointer_width();
        match &l.kind {
            ExprKind::Var(v) => {
                self.program.vars.get(v.0 as usize)?;
                let a = constant_address(pw, v.0);
                self.constant_addresses.insert(a);
                Some(bv_const(a, pw))
            }
            ExprKind::Deref(p) => {
                let w = self.width(&p.ty)?;
                let t = self.term(p)?;
                Some(self.resize(t, w, &p.ty, pw))
            }
            ExprKind::Field(a, f) => {
                let Type::Struct(s) = a.ty else { return None };
                let base = self.address(a)?;
                let name = format!("field_{}_{}", s.0, f);
                self.declare(format!("(declare-fun {name} ((_ BitVec {pw})) (_ BitVec {pw}))"));
                let result = format!("({name} {base})");
                if !self.field_terms.iter().any(|(_, _, _, r)| *r == result) {
                    self.field_terms.push((s.0, *f, base, result.clone()));
                }
                Some(result)
            }
            ExprKind::Index(a, i) => {
                let base = self.address(a)?;
                let wi = self.width(&i.ty)?;
                let ti = self.term(i)?;
                let offset = self.resize(ti, wi, &i.ty, pw);
                Some(format!("(bvadd {base} {offset})"))
            }
            _ => None,
        }
    }

    /// A bit-vector term of `e`'s width (`Bool` as a 1-bit vector).
    fn term(&mut self, e: &Expr) -> Option<String> {
        let w = self.width(&e.ty)?;
        let pw = self.pointer_width();
        Some(match &e.kind {
            ExprKind::Const(v) => bv_const(*v as u128, w),
            ExprKind::Var(v) => {
                if matches!(e.ty, Type::Array(..)) {
                    return self.address(e);
                }
                let var = self.program.vars.get(v.0 as usize)?;
                if self.memory_vars.contains(&v.0) && var.ty.is_scalar() {
                    let a = self.address(e)?;
                    return self.location_value(&e.ty, a);
                }
                let name = format!("v{}", v.0);
                self.declare(format!("(declare-fun {name} () (_ BitVec {w}))"));
                name
            }
            ExprKind::Str(n) => {
                let a = constant_address(pw, self.program.vars.len() as u32 + n);
                self.constant_addresses.insert(a);
                bv_const(a, pw)
            }
            ExprKind::Deref(_) | ExprKind::Field(..) | ExprKind::Index(..) => {
                let a = self.address(e)?;
                if matches!(e.ty, Type::Array(..)) {
                    return Some(a);
                }
                self.location_value(&e.ty, a)?
            }
            ExprKind::AddrOf(l) => self.address(l)?,
            ExprKind::Unary(UnaryOp::Not, a) => {
                let b = self.boolean(a)?;
                format!("(ite {b} #b0 #b1)")
            }
            ExprKind::Unary(op, a) => {
                let wa = self.width(&a.ty)?;
                let t = self.term(a)?;
                let t = self.resize(t, wa, &a.ty, w);
                format!("({} {t})", if *op == UnaryOp::Neg { "bvneg" } else { "bvnot" })
            }
            ExprKind::Binary(op, a, b) if op.is_logical() => {
                let x = self.boolean(a)?;
                let y = self.boolean(b)?;
                let f = match op {
                    BinaryOp::And => format!("(and {x} {y})"),
                    BinaryOp::Or => format!("(or {x} {y})"),
                    _ => format!("(=> {x} {y})"),
                };
                format!("(ite {f} #b1 #b0)")
            }
            ExprKind::Binary(op, a, b) if op.is_relational() => {
                let wa = self.width(&a.ty)?;
                let wb = self.width(&b.ty)?;
                let cw = wa.max(wb);
                let x = self.term(a)?;
                let x = self.resize(x, wa, &a.ty, cw);
                let y = self.term(b)?;
                let y = self.resize(y, wb, &b.ty, cw);
                let signed = comparison_is_signed(a, b);
                let f = match (op, signed) {
                    (BinaryOp::Eq, _) => format!("(= {x} {y})"),
                    (BinaryOp::Ne, _) => format!("(not (= {x} {y}))"),
                    (BinaryOp::Lt, true) => format!("(bvslt {x} {y})"),
                    (BinaryOp::Le, true) => format!("(bvsle {x} {y})"),
                    (BinaryOp::Gt, true) => format!("(bvsgt {x} {y})"),
                    (BinaryOp::Ge, true) => format!("(bvsge {x} {y})"),
                    (BinaryOp::Lt, false) => format!("(bvult {x} {y})"),
                    (BinaryOp::Le, false) => format!("(bvule {x} {y})"),
                    (BinaryOp::Gt, false) => format!("(bvugt {x} {y})"),
                    _ => format!("(bvuge {x} {y})"),
                };
                format!("(ite {f} #b1 #b0)")
            }
            ExprKind::Binary(op @ (BinaryOp::Shl | BinaryOp::Shr), a, b) => {
                let wa = self.width(&a.ty)?;
                let wb = self.width(&b.ty)?;
                let m = w.max(wb);
                let signed = e.ty.is_signed();
                let x = self.term(a)?;
                let x = self.resize(x, wa, &a.ty, w);
                let x = if m > w {
                    if signed && *op == BinaryOp::Shr {
                        format!("((_ sign_extend {}) {x})", m - w)
                    } else {
                        format!("((_ zero_extend {}) {x})", m - w)
                    }
                } else {
                    x
                };
                let y = self.term(b)?;
                let y = if m > wb { format!("((_ zero_extend {}) {y})", m - wb) } else { y };
                let f = match (op, signed) {
                    (BinaryOp::Shl, _) => "bvshl",
                    (_, true) => "bvashr",
                    _ => "bvlshr",
                };
                let r = format!("({f} {x} {y})");
                if m > w {
                    format!("((_ extract {} 0) {r})", w - 1)
                } else {
                    r
                }
            }
            ExprKind::Binary(op, a, b) => {
                let wa = self.width(&a.ty)?;
                let wb = self.width(&b.ty)?;
                let x = self.term(a)?;
                let x = self.resize(x, wa, &a.ty, w);
                let y = self.term(b)?;
                let y = self.resize(y, wb, &b.ty, w);
                let signed = e.ty.is_signed();
                let f = match op {
                    BinaryOp::Add => "bvadd",
                    BinaryOp::Sub => "bvsub",
                    BinaryOp::Mul => "bvmul",
                    BinaryOp::Div if signed => "bvsdiv",
                    BinaryOp::Div => "bvudiv",
                    BinaryOp::Rem if signed => "bvsrem",
                    BinaryOp::Rem => "bvurem",
                    BinaryOp::BitAnd => "bvand",
                    BinaryOp::BitOr => "bvor",
                    _ => "bvxor",
                };
                format!("({f} {x} {y})")
            }
            ExprKind::Cast(a) => {
                if e.ty == Type::Bool {
                    let b = self.boolean(a)?;
                    format!("(ite {b} #b1 #b0)")
                } else {
                    let wa = self.width(&a.ty)?;
                    let t = self.term(a)?;
                    self.resize(t, wa, &a.ty, w)
                }
            }
            ExprKind::Ite(c, x, y) => {
                let cb = self.boolean(c)?;
                let wx = self.width(&x.ty)?;
                let wy = self.width(&y.ty)?;
                let tx = self.term(x)?;
                let tx = self.resize(tx, wx, &x.ty, w);
                let ty = self.term(y)?;
                let ty = self.resize(ty, wy, &y.ty, w);
                format!("(ite {cb} {tx} {ty})")
            }
            ExprKind::App(name, args) => {
                let mut sorts = Vec::new();
                let mut terms = Vec::new();
                for a in args {
                    let wa = self.width(&a.ty)?;
                    sorts.push(format!("(_ BitVec {wa})"));
                    terms.push(self.term(a)?);
                }
                let mangled = name.ascii_name();
                let widths: Vec<String> = sorts.iter().map(|s| s.replace("(_ BitVec ", "").replace(')', "")).collect();
                let fname = format!("app_{mangled}_{}_{}", widths.join("_"), w);
                self.declare(format!("(declare-fun {fname} ({}) (_ BitVec {w}))", sorts.join(" ")));
                if terms.is_empty() {
                    fname
                } else {
                    format!("({fname} {})", terms.join(" "))
                }
            }
        })
    }
}
