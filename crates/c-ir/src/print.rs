//! Printing the IR in a readable C-like form (`predabs lower`), expressions with minimal parentheses.

use crate::{BinaryOp, Expr, ExprKind, Procedure, Program, Stmt, StmtKind, Symbol, Type, UnaryOp, VarKind};
use std::fmt::Write;

fn precedence(e: &Expr) -> u8 {
    match &e.kind {
        ExprKind::Const(v) if *v < 0 => 13,
        ExprKind::Const(_) | ExprKind::Var(_) | ExprKind::Str(_) | ExprKind::App(..) => 16,
        ExprKind::Field(..) | ExprKind::Index(..) => 15,
        ExprKind::Unary(..) | ExprKind::Deref(_) | ExprKind::AddrOf(_) | ExprKind::Cast(_) => 14,
        ExprKind::Binary(op, ..) => binary_precedence(*op),
        ExprKind::Ite(..) => 2,
    }
}

fn binary_precedence(op: BinaryOp) -> u8 {
    match op {
        BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem => 12,
        BinaryOp::Add | BinaryOp::Sub => 11,
        BinaryOp::Shl | BinaryOp::Shr => 10,
        BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => 9,
        BinaryOp::Eq | BinaryOp::Ne => 8,
        BinaryOp::BitAnd => 7,
        BinaryOp::BitXor => 6,
        BinaryOp::BitOr => 5,
        BinaryOp::And => 4,
        BinaryOp::Or => 3,
        BinaryOp::Implies => 1,
    }
}

/// The C spelling of a type (for casts).
pub fn type_name(program: &Program, ty: &Type) -> String {
    match ty {
        Type::Void => "void".into(),
        Type::Bool => "_Bool".into(),
        Type::Int { bits, signed } => {
            let base = match bits {
                8 => "char".to_string(),
                16 => "short".to_string(),
                32 => "int".to_string(),
                64 => "long".to_string(),
                // bit-fields and other odd widths
                n => format!("int:{n}"),
            };
            if *signed {
                base
            } else {
                format!("unsigned {base}")
            }
        }
        Type::Pointer(t) => format!("{}*", type_name(program, t)),
        Type::Array(t, n) => format!("{}[{n}]", type_name(program, t)),
        Type::Struct(s) => {
            let def = program.structs.get(s.0 as usize);
            match def {
                Some(d) => format!("{} {}", if d.is_union { "union" } else { "struct" }, d.name),
                None => "struct ?".into(),
            }
        }
        Type::Function => "function".into(),
        Type::Opaque(name) => name.clone(),
    }
}

fn write_expr(out: &mut String, program: &Program, e: &Expr, min_prec: u8) {
    let prec = precedence(e);
    let paren = prec < min_prec;
    if paren {
        out.push('(');
    }
    match &e.kind {
        ExprKind::Const(v) => {
            if e.ty.is_pointer() && *v == 0 {
                out.push_str("NULL");
            } else if e.ty == Type::Bool {
                out.push_str(if *v != 0 { "true" } else { "false" });
            } else {
                let _ = write!(out, "{v}");
            }
        }
        ExprKind::Var(v) => match program.vars.get(v.0 as usize) {
            Some(var) => out.push_str(&var.name),
            None => {
                let _ = write!(out, "v{}", v.0);
            }
        },
        ExprKind::Unary(op, a) => {
            out.push_str(match op {
                UnaryOp::Neg => "-",
                UnaryOp::BitNot => "~",
                UnaryOp::Not => "!",
            });
            write_expr(out, program, a, 14);
        }
        ExprKind::Binary(op @ (BinaryOp::And | BinaryOp::Or), a, b) => {
            // a left-nested chain of one connective (an invariant's thousands of cubes) is
            // printed without recursing down its spine
            let p = binary_precedence(*op);
            let mut operands = vec![b.as_ref()];
            let mut left = a.as_ref();
            while let ExprKind::Binary(inner, l, r) = &left.kind {
                if inner != op {
                    break;
                }
                operands.push(r);
                left = l;
            }
            operands.push(left);
            for (i, operand) in operands.iter().rev().enumerate() {
                if i > 0 {
                    let _ = write!(out, " {} ", op.symbol());
                }
                write_expr(out, program, operand, if i == 0 { p } else { p + 1 });
            }
        }
        ExprKind::Binary(op, a, b) => {
            let p = binary_precedence(*op);
            // left-associative: the right operand needs a strictly higher precedence
            write_expr(out, program, a, p);
            let _ = write!(out, " {} ", op.symbol());
            write_expr(out, program, b, p + 1);
        }
        ExprKind::Cast(a) => {
            let _ = write!(out, "({})", type_name(program, &e.ty));
            write_expr(out, program, a, 14);
        }
        ExprKind::Deref(a) => {
            out.push('*');
            write_expr(out, program, a, 14);
        }
        ExprKind::AddrOf(a) => {
            out.push('&');
            write_expr(out, program, a, 14);
        }
        ExprKind::Field(a, index) => {
            let name = program.field(&a.ty, *index).map(|f| f.name.clone()).unwrap_or_else(|| format!("f{index}"));
            if let ExprKind::Deref(p) = &a.kind {
                write_expr(out, program, p, 15);
                let _ = write!(out, "->{name}");
            } else {
                write_expr(out, program, a, 15);
                let _ = write!(out, ".{name}");
            }
        }
        ExprKind::Index(a, i) => {
            write_expr(out, program, a, 15);
            out.push('[');
            write_expr(out, program, i, 0);
            out.push(']');
        }
        ExprKind::Ite(c, a, b) => {
            write_expr(out, program, c, 3);
            out.push_str(" ? ");
            write_expr(out, program, a, 3);
            out.push_str(" : ");
            write_expr(out, program, b, 2);
        }
        ExprKind::Str(n) => match program.strings.get(*n as usize) {
            Some(s) => {
                let _ = write!(out, "{s:?}");
            }
            None => out.push_str("\"?\""),
        },
        ExprKind::App(symbol, args) => {
            match symbol {
                Symbol::Theta(v) => {
                    let _ = write!(out, "θ{}", program.var(*v).name);
                }
                _ => {
                    let _ = write!(out, "{symbol}");
                }
            }
            out.push('(');
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_expr(out, program, a, 0);
            }
            out.push(')');
        }
    }
    if paren {
        out.push(')');
    }
}

/// An expression in C syntax.
pub fn display_expr(program: &Program, e: &Expr) -> String {
    let mut out = String::new();
    write_expr(&mut out, program, e, 0);
    out
}

fn target_name(proc: &Procedure, target: u32) -> String {
    match proc.body.get(target as usize).and_then(|s| s.label.clone()) {
        Some(l) => l,
        None => format!("@{target}"),
    }
}

/// One statement (without its label) in C-like syntax.
pub fn display_stmt(program: &Program, proc: &Procedure, stmt: &Stmt) -> String {
    let e = |x: &Expr| display_expr(program, x);
    match &stmt.kind {
        StmtKind::Skip => "skip;".into(),
        StmtKind::Assign { lhs, rhs } => format!("{} = {};", e(lhs), e(rhs)),
        StmtKind::Havoc { lhs } => format!("{} = *;", e(lhs)),
        StmtKind::Malloc { lhs, size } => format!("{} = malloc({});", e(lhs), e(size)),
        StmtKind::Free { ptr } => format!("free({});", e(ptr)),
        StmtKind::Assume { cond } => format!("assume({});", e(cond)),
        StmtKind::Goto { targets } => {
            let names: Vec<String> = targets.iter().map(|&t| target_name(proc, t)).collect();
            format!("goto {};", names.join(", "))
        }
        StmtKind::Call { lhs, callee, args } => {
            let name = program.procs.get(callee.0 as usize).map(|p| p.name.as_str()).unwrap_or("?");
            let args: Vec<String> = args.iter().map(e).collect();
            match lhs {
                Some(l) => format!("{} = {}({});", e(l), name, args.join(", ")),
                None => format!("{}({});", name, args.join(", ")),
            }
        }
        StmtKind::Return { value: Some(v) } => format!("return {};", e(v)),
        StmtKind::Return { value: None } => "return;".into(),
        StmtKind::Error => "error;".into(),
    }
}

/// The whole program, one procedure after the other, globals first.
pub fn display_program(program: &Program) -> String {
    let mut out = String::new();
    for s in &program.structs {
        let _ = writeln!(out, "{} {} {{", if s.is_union { "union" } else { "struct" }, s.name);
        for f in &s.fields {
            let _ = writeln!(out, "  {} {};", type_name(program, &f.ty), f.name);
        }
        out.push_str("};\n");
    }
    for &g in &program.globals {
        let v = program.var(g);
        let _ = writeln!(out, "{} {};", type_name(program, &v.ty), v.name);
    }
    for proc in &program.procs {
        if !out.is_empty() {
            out.push('\n');
        }
        let formals: Vec<String> =
            proc.formals.iter().map(|&f| format!("{} {}", type_name(program, &program.var(f).ty), program.var(f).name)).collect();
        let _ = writeln!(out, "{} {}({}) {{", type_name(program, &proc.ret_ty), proc.name, formals.join(", "));
        for &l in &proc.locals {
            let v = program.var(l);
            let what = match v.kind {
                VarKind::SymbolicConst { .. } => " // symbolic constant",
                VarKind::Temp(_) => " // temporary",
                VarKind::Return(_) => " // return value",
                _ => "",
            };
            let _ = writeln!(out, "  {} {};{}", type_name(program, &v.ty), v.name, what);
        }
        for stmt in &proc.body {
            if let Some(l) = &stmt.label {
                let _ = writeln!(out, "{l}:");
            }
            let _ = writeln!(out, "  {}", display_stmt(program, proc, stmt));
        }
        out.push_str("}\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Var;

    #[test]
    fn long_left_nested_disjunctions_print_without_deep_recursion() {
        let mut program = Program::default();
        let x = program.add_var(Var {
            name: "x".into(),
            source_name: "x".into(),
            ty: Type::INT,
            kind: VarKind::Global,
            span: diagnostics::Span::default(),
            address_taken: false,
        });
        let atom = |i: i128| Expr::eq(Expr::var(x, Type::INT), Expr::int(i, Type::INT));
        // deep enough to overflow a test thread's stack when printed recursively
        let n = 100_000;
        let mut chain = atom(0);
        for i in 1..n {
            chain = Expr::binary(BinaryOp::Or, chain, atom(i));
        }
        let text = display_expr(&program, &chain);
        assert!(text.starts_with("x == 0 || x == 1 || x == 2"), "{}", &text[..40]);
        assert!(text.ends_with(&format!("x == {}", n - 1)));
        // a disjunction inside a conjunction keeps its parentheses
        let mixed = Expr::binary(BinaryOp::And, Expr::binary(BinaryOp::Or, atom(1), atom(2)), atom(3));
        assert_eq!(display_expr(&program, &mixed), "(x == 1 || x == 2) && x == 3");
        // dropping the chain would recurse as deep
        std::mem::forget(chain);
    }
}
