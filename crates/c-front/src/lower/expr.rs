//! Lowering of C expressions to side-effect-free IR expressions, emitting statements for the side
//! effects (assignments, calls, `++`, short-circuit control flow) in evaluation order.

use super::{is_error_function, Binding, Lowerer};
use crate::preprocess::{parse_char_literal, unescape};
use c_ir::interp::{eval_binary, eval_unary, field_offset, normalize, size_of, align_of};
use c_ir::{BinaryOp, Expr, ExprKind, FloatOp, StmtKind, Symbol, Type, UnaryOp, VarId};
use diagnostics::Span;
use lang_c::ast;
use lang_c::span::Node;

/// The integer promotion of a type (`_Bool`, `char`, `short` become `int`).
pub(crate) fn promoted(ty: &Type) -> Type {
    match ty {
        Type::Bool => Type::INT,
        Type::Int { bits, .. } if *bits < 32 => Type::INT,
        t => t.clone(),
    }
}

/// The usual arithmetic conversions of two integer types.
pub(crate) fn common_type(a: &Type, b: &Type) -> Type {
    let a = promoted(a);
    let b = promoted(b);
    match (&a, &b) {
        (Type::Int { bits: ab, signed: asg }, Type::Int { bits: bb, signed: bsg }) => {
            if a == b {
                a.clone()
            } else if asg == bsg {
                Type::Int { bits: (*ab).max(*bb), signed: *asg }
            } else {
                let (ub, sb) = if *asg { (*bb, *ab) } else { (*ab, *bb) };
                if ub >= sb {
                    Type::Int { bits: ub, signed: false }
                } else {
                    Type::Int { bits: sb, signed: true }
                }
            }
        }
        _ => a.clone(),
    }
}

/// Logical negation with relational operators flipped (`!(a < b)` is `a >= b`).
pub(crate) fn negate(e: Expr) -> Expr {
    match e.kind {
        ExprKind::Const(v) if e.ty == Type::Bool => Expr::bool(v == 0),
        ExprKind::Unary(UnaryOp::Not, inner) => *inner,
        ExprKind::Binary(op, a, b) if op.is_relational() => {
            Expr::new(ExprKind::Binary(op.negated_relation().unwrap_or(op), a, b), Type::Bool)
        }
        // De Morgan keeps negations on the atoms
        ExprKind::Binary(BinaryOp::And, a, b) => Expr::or(negate(*a), negate(*b)),
        ExprKind::Binary(BinaryOp::Or, a, b) => Expr::and(negate(*a), negate(*b)),
        kind => Expr::logical_not(Expr { kind, ty: e.ty }),
    }
}

/// The bytes of a (possibly concatenated) string literal, without the terminating NUL.
pub(crate) fn string_literal_bytes(parts: &[String]) -> Vec<u8> {
    let mut out = Vec::new();
    for p in parts {
        let p = p.trim_start_matches(['L', 'u', 'U', '8']);
        let inner = p.strip_prefix('"').and_then(|s| s.strip_suffix('"')).unwrap_or(p);
        out.extend(unescape(inner));
    }
    out
}

/// Whether evaluating the expression may have side effects (assignments, calls, `++`/`--`).
pub(crate) fn has_effects(e: &ast::Expression) -> bool {
    use ast::Expression as E;
    match e {
        E::Identifier(_) | E::Constant(_) | E::StringLiteral(_) | E::SizeOfTy(_) | E::SizeOfVal(_) | E::AlignOf(_) | E::OffsetOf(_) => false,
        E::Call(_) | E::Statement(_) | E::VaArg(_) | E::CompoundLiteral(_) => true,
        E::GenericSelection(g) => has_effects(&g.node.expression.node),
        E::Member(m) => has_effects(&m.node.expression.node),
        E::UnaryOperator(u) => {
            matches!(
                u.node.operator.node,
                ast::UnaryOperator::PostIncrement | ast::UnaryOperator::PostDecrement | ast::UnaryOperator::PreIncrement | ast::UnaryOperator::PreDecrement
            ) || has_effects(&u.node.operand.node)
        }
        E::Cast(c) => has_effects(&c.node.expression.node),
        E::BinaryOperator(b) => {
            use ast::BinaryOperator as B;
            !matches!(
                b.node.operator.node,
                B::Index
                    | B::Multiply
                    | B::Divide
                    | B::Modulo
                    | B::Plus
                    | B::Minus
                    | B::ShiftLeft
                    | B::ShiftRight
                    | B::Less
                    | B::Greater
                    | B::LessOrEqual
                    | B::GreaterOrEqual
                    | B::Equals
                    | B::NotEquals
                    | B::BitwiseAnd
                    | B::BitwiseXor
                    | B::BitwiseOr
                    | B::LogicalAnd
                    | B::LogicalOr
            ) || has_effects(&b.node.lhs.node)
                || has_effects(&b.node.rhs.node)
        }
        E::Conditional(c) => has_effects(&c.node.condition.node) || has_effects(&c.node.then_expression.node) || has_effects(&c.node.else_expression.node),
        E::Comma(list) => list.iter().any(|x| has_effects(&x.node)),
    }
}

/// The type of the nondeterministic value returned by `__VERIFIER_nondet_<suffix>`.
pub(crate) fn nondet_type(name: &str, long_bits: u8) -> Type {
    let suffix = name.trim_start_matches("__VERIFIER_nondet_");
    match suffix {
        "int" | "s32" => Type::INT,
        "uint" | "unsigned" | "u32" | "unsigned_int" => Type::UINT,
        "char" | "s8" => Type::CHAR,
        "uchar" | "u8" | "unsigned_char" => Type::Int { bits: 8, signed: false },
        "short" | "s16" => Type::Int { bits: 16, signed: true },
        "ushort" | "u16" | "unsigned_short" => Type::Int { bits: 16, signed: false },
        "long" => Type::Int { bits: long_bits, signed: true },
        "ulong" | "size_t" | "unsigned_long" => Type::Int { bits: long_bits, signed: false },
        "longlong" | "loff_t" | "s64" | "int64" => Type::LONG,
        "ulonglong" | "u64" | "uint64" => Type::ULONG,
        "bool" | "_Bool" => Type::Bool,
        "pointer" | "pchar" => Type::pointer_to(Type::Void),
        "float" => Type::Opaque("float".into()),
        "double" => Type::Opaque("double".into()),
        _ => Type::INT,
    }
}

fn is_nondet_function(name: &str) -> bool {
    name.starts_with("__VERIFIER_nondet")
}

impl<'a> Lowerer<'a> {
    fn placeholder(&self) -> Expr {
        Expr::int(0, Type::INT)
    }

    // ----- conversions -----

    /// Implicit conversion of `e` to `ty` (as in assignment), folding constants.
    pub fn convert(&mut self, e: Expr, ty: &Type, span: Span) -> Expr {
        if &e.ty == ty {
            return e;
        }
        match (&e.ty, ty) {
            (_, Type::Void) => e,
            (from, Type::Bool) if from.is_scalar() => self.truth_value(e),
            (Type::Int { .. } | Type::Bool, Type::Int { .. }) => match e.as_const() {
                Some(v) => Expr::int(normalize(v, ty), ty.clone()),
                None => Expr::cast(e, ty.clone()),
            },
            (Type::Int { .. } | Type::Bool, Type::Pointer(_)) => match e.as_const() {
                Some(v) => Expr::int(normalize(v, ty), ty.clone()),
                None => Expr::cast(e, ty.clone()),
            },
            (Type::Pointer(_), Type::Pointer(_)) => match e.as_const() {
                Some(v) => Expr::int(v, ty.clone()),
                None => Expr::cast(e, ty.clone()),
            },
            (Type::Pointer(_), Type::Int { .. }) => Expr::cast(e, ty.clone()),
            (Type::Array(elem, _), Type::Pointer(_)) => {
                let elem = elem.as_ref().clone();
                let decayed = self.decay_array(e, elem);
                self.convert(decayed, ty, span)
            }
            (Type::Struct(a), Type::Struct(b)) if a == b => e,
            (Type::Opaque(_), _) | (_, Type::Opaque(_)) if e.ty.is_scalar() || ty.is_scalar() || matches!((&e.ty, ty), (Type::Opaque(_), Type::Opaque(_))) => {
                self.float_warning(span);
                Expr::cast(e, ty.clone())
            }
            (Type::Function, _) | (_, Type::Function) => Expr::cast(e, ty.clone()),
            _ => {
                let from = c_ir_type_name(&self.program, &e.ty);
                let to = c_ir_type_name(&self.program, ty);
                self.error(span, format!("cannot convert a value of type `{from}` to `{to}`"));
                Expr::int(0, if ty.is_scalar() { ty.clone() } else { Type::INT })
            }
        }
    }

    /// `e != 0` (or `e != NULL`) as a `Bool`.
    pub fn truth_value(&mut self, e: Expr) -> Expr {
        match &e.ty {
            Type::Bool => e,
            Type::Int { .. } | Type::Pointer(_) => {
                if let Some(v) = e.as_const() {
                    return Expr::bool(v != 0);
                }
                // `(int)(a < b) != 0` is `a < b`
                if let ExprKind::Cast(inner) = &e.kind {
                    if inner.ty == Type::Bool {
                        return inner.as_ref().clone();
                    }
                }
                let zero = Expr::int(0, e.ty.clone());
                Expr::binary(BinaryOp::Ne, e, zero)
            }
            Type::Array(..) => Expr::bool(true),
            Type::Opaque(_) => Expr::new(ExprKind::App(Symbol::Float(FloatOp::NonZero), vec![e]), Type::Bool),
            _ => Expr::binary(BinaryOp::Ne, e, Expr::int(0, Type::INT)),
        }
    }

    /// `&a[0]` for an array lvalue `a`.
    pub fn decay_array(&mut self, e: Expr, elem: Type) -> Expr {
        // `&*p` style simplification: an array reached through `*q` where q points to the array
        let index = Expr::new(ExprKind::Index(Box::new(e), Box::new(Expr::int(0, Type::LONG))), elem.clone());
        Expr::new(ExprKind::AddrOf(Box::new(index)), Type::pointer_to(elem))
    }

    fn require_scalar(&mut self, e: Expr, span: Span, what: &str) -> Expr {
        match &e.ty {
            Type::Int { .. } | Type::Bool | Type::Pointer(_) => e,
            Type::Opaque(_) => e,
            _ => {
                self.error(span, format!("{what} needs a scalar operand"));
                Expr::int(0, Type::INT)
            }
        }
    }

    fn integer_operand(&mut self, e: Expr, span: Span, what: &str) -> Expr {
        let e = self.require_scalar(e, span, what);
        if e.ty.is_pointer() {
            self.error(span, format!("{what} needs an integer operand, not a pointer"));
            return Expr::int(0, Type::INT);
        }
        e
    }

    /// An arithmetic, bitwise or relational operation with C's conversions, folding constants.
    pub fn binary_operation(&mut self, op: BinaryOp, a: Expr, b: Expr, span: Span) -> Expr {
        let a = self.require_scalar(a, span, "the operator");
        let b = self.require_scalar(b, span, "the operator");
        if matches!(a.ty, Type::Opaque(_)) || matches!(b.ty, Type::Opaque(_)) {
            return self.float_operation(op, a, b, span);
        }
        if op.is_logical() {
            let a = self.truth_value(a);
            let b = self.truth_value(b);
            return fold(Expr::binary(op, a, b));
        }
        let (ap, bp) = (a.ty.is_pointer(), b.ty.is_pointer());
        if ap || bp {
            return self.pointer_operation(op, a, b, span);
        }
        match op {
            BinaryOp::Shl | BinaryOp::Shr => {
                let lt = promoted(&a.ty);
                let a = self.convert(a, &lt, span);
                let b = self.convert(b, &lt, span);
                fold(Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), lt))
            }
            _ => {
                let t = common_type(&a.ty, &b.ty);
                let a = self.convert(a, &t, span);
                let b = self.convert(b, &t, span);
                let ty = if op.is_relational() { Type::Bool } else { t };
                fold(Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), ty))
            }
        }
    }

    /// Floating point operations stay uninterpreted: `__float_add(a, b)` and friends.
    fn float_operation(&mut self, op: BinaryOp, a: Expr, b: Expr, span: Span) -> Expr {
        self.float_warning(span);
        if op.is_logical() {
            let a = self.truth_value(a);
            let b = self.truth_value(b);
            return Expr::binary(op, a, b);
        }
        let wide = |t: &Type| matches!(t, Type::Opaque(n) if n != "float");
        let float_ty = if wide(&a.ty) || wide(&b.ty) || !matches!(a.ty, Type::Opaque(_)) || !matches!(b.ty, Type::Opaque(_)) {
            Type::Opaque("double".into())
        } else {
            Type::Opaque("float".into())
        };
        let float_ty = match (&a.ty, &b.ty) {
            (Type::Opaque(x), Type::Opaque(y)) if x == y => a.ty.clone(),
            (Type::Opaque(_), other) if !matches!(other, Type::Opaque(_)) => a.ty.clone(),
            (other, Type::Opaque(_)) if !matches!(other, Type::Opaque(_)) => b.ty.clone(),
            _ => float_ty,
        };
        let a = if matches!(a.ty, Type::Opaque(_)) { a } else { Expr::cast(a, float_ty.clone()) };
        let b = if matches!(b.ty, Type::Opaque(_)) { b } else { Expr::cast(b, float_ty.clone()) };
        let Some(float_op) = FloatOp::of_binary(op) else {
            self.error(span, format!("invalid floating point operand to `{}`", op.symbol()));
            return self.placeholder();
        };
        let ty = if op.is_relational() { Type::Bool } else { float_ty };
        Expr::new(ExprKind::App(Symbol::Float(float_op), vec![a, b]), ty)
    }

    /// Floating point is uninterpreted: say so once per file.
    pub fn float_warning(&mut self, span: Span) {
        if self.warned_functions.insert("<float>".to_string()) {
            self.diagnostics.push(
                diagnostics::Diagnostic::warning(span, "floating point values are treated as uninterpreted (opaque) by predabs")
                    .with_help("their arithmetic becomes uninterpreted functions such as `__float_add(a, b)`"),
            );
        }
    }

    fn pointer_operation(&mut self, op: BinaryOp, a: Expr, b: Expr, span: Span) -> Expr {
        match op {
            BinaryOp::Add | BinaryOp::Sub if a.ty.is_pointer() && b.ty.is_integer() => {
                self.check_pointer_arith(&a.ty, span);
                let b = self.convert(b, &Type::LONG, span);
                if b.as_const() == Some(0) {
                    return a;
                }
                let ty = a.ty.clone();
                Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), ty)
            }
            BinaryOp::Add if a.ty.is_integer() && b.ty.is_pointer() => self.pointer_operation(op, b, a, span),
            BinaryOp::Sub if a.ty.is_pointer() && b.ty.is_pointer() => {
                self.check_pointer_arith(&a.ty, span);
                let b = if b.ty != a.ty { Expr::cast(b, a.ty.clone()) } else { b };
                Expr::new(ExprKind::Binary(BinaryOp::Sub, Box::new(a), Box::new(b)), Type::LONG)
            }
            _ if op.is_relational() => {
                let target = if a.ty.is_pointer() { a.ty.clone() } else { b.ty.clone() };
                let a = if a.ty != target { self.convert_for_compare(a, &target) } else { a };
                let b = if b.ty != target { self.convert_for_compare(b, &target) } else { b };
                fold(Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), Type::Bool))
            }
            _ => {
                self.error(span, format!("invalid operands to `{}` (pointer)", op.symbol()));
                Expr::int(0, Type::INT)
            }
        }
    }

    fn convert_for_compare(&mut self, e: Expr, target: &Type) -> Expr {
        match e.as_const() {
            Some(v) if e.ty.is_integer() || e.ty.is_pointer() => Expr::int(normalize(v, target), target.clone()),
            _ => Expr::cast(e, target.clone()),
        }
    }

    fn check_pointer_arith(&mut self, ty: &Type, span: Span) {
        if matches!(ty.pointee(), Some(Type::Function)) {
            self.unsupported(span, "function pointers");
        }
    }

    // ----- expressions -----

    /// An rvalue with arrays decayed to pointers.
    pub fn rvalue(&mut self, e: &'a Node<ast::Expression>) -> Expr {
        let v = self.rvalue_no_decay(e);
        if let Type::Array(elem, _) = &v.ty {
            let elem = elem.as_ref().clone();
            return self.decay_array(v, elem);
        }
        v
    }

    /// A `Bool`-typed condition.
    pub fn condition(&mut self, e: &'a Node<ast::Expression>) -> Expr {
        let span = self.span(e.span);
        let v = self.rvalue(e);
        let v = self.require_scalar(v, span, "a condition");
        self.truth_value(v)
    }

    /// Evaluates an expression for its side effects only.
    pub fn effect(&mut self, e: &'a Node<ast::Expression>) {
        let span = self.span(e.span);
        use ast::Expression as E;
        match &e.node {
            E::BinaryOperator(b) if b.node.operator.node == ast::BinaryOperator::Assign => {
                self.assignment(&b.node.lhs, &b.node.rhs, span, false);
            }
            E::BinaryOperator(b) if matches!(b.node.operator.node, ast::BinaryOperator::LogicalAnd | ast::BinaryOperator::LogicalOr) && has_effects(&b.node.rhs.node) => {
                let c = self.condition(&b.node.lhs);
                let c = if b.node.operator.node == ast::BinaryOperator::LogicalAnd { c } else { negate(c) };
                let end = self.new_label();
                let on_false = self.begin_branch(&c, span);
                self.effect(&b.node.rhs);
                self.emit_goto(vec![end], span);
                self.else_branch(on_false, &c, span);
                self.place_label(end);
            }
            E::UnaryOperator(u)
                if matches!(u.node.operator.node, ast::UnaryOperator::PostIncrement | ast::UnaryOperator::PreIncrement | ast::UnaryOperator::PostDecrement | ast::UnaryOperator::PreDecrement) =>
            {
                let increment = matches!(u.node.operator.node, ast::UnaryOperator::PostIncrement | ast::UnaryOperator::PreIncrement);
                self.increment(&u.node.operand, increment, false, span);
            }
            E::Call(c) => {
                self.call(c, None, false, span);
            }
            E::Comma(list) => {
                for x in list.iter() {
                    self.effect(x);
                }
            }
            E::Cast(c) => {
                self.effect(&c.node.expression);
            }
            E::Conditional(c) if has_effects(&c.node.then_expression.node) || has_effects(&c.node.else_expression.node) => {
                let cond = self.condition(&c.node.condition);
                let end = self.new_label();
                let on_false = self.begin_branch(&cond, span);
                self.effect(&c.node.then_expression);
                self.emit_goto(vec![end], span);
                self.else_branch(on_false, &cond, span);
                self.effect(&c.node.else_expression);
                self.place_label(end);
            }
            E::Statement(s) => {
                self.statement_expression(s, false);
            }
            _ => {
                let _ = self.rvalue_no_decay(e);
            }
        }
    }

    /// An lvalue expression (variable, `*p`, field, array element).
    pub fn lvalue(&mut self, e: &'a Node<ast::Expression>) -> Expr {
        let span = self.span(e.span);
        let v = self.rvalue_no_decay(e);
        if v.is_lvalue() {
            return v;
        }
        // struct values returned by calls live in temporaries, which are lvalues
        self.error(span, "expression is not assignable (not an lvalue)");
        v
    }

    pub fn rvalue_no_decay(&mut self, e: &'a Node<ast::Expression>) -> Expr {
        let span = self.span(e.span);
        use ast::Expression as E;
        match &e.node {
            E::Identifier(id) => self.identifier(&id.node.name, span),
            E::Constant(c) => self.constant(&c.node, span),
            E::StringLiteral(s) => {
                let bytes = string_literal_bytes(&s.node);
                let text = String::from_utf8_lossy(&bytes).into_owned();
                let index = match self.program.strings.iter().position(|x| *x == text) {
                    Some(i) => i,
                    None => {
                        self.program.strings.push(text);
                        self.program.strings.len() - 1
                    }
                };
                Expr::new(ExprKind::Str(index as u32), Type::pointer_to(Type::CHAR))
            }
            E::Member(m) => {
                let base = match m.node.operator.node {
                    ast::MemberOperator::Direct => {
                        let b = self.rvalue_no_decay(&m.node.expression);
                        if b.is_lvalue() {
                            b
                        } else {
                            self.materialise(b, span)
                        }
                    }
                    ast::MemberOperator::Indirect => {
                        let p = self.rvalue(&m.node.expression);
                        self.dereference(p, span)
                    }
                };
                self.member(base, &m.node.identifier.node.name, span)
            }
            E::Call(c) => match self.call(c, None, true, span) {
                Some(v) => v,
                None => {
                    self.error(span, "a call to a function returning void used as a value");
                    self.placeholder()
                }
            },
            E::CompoundLiteral(c) => {
                let ty = self.type_name(&c.node.type_name);
                let Some(temp) = self.new_temp(ty.clone(), span) else {
                    self.unsupported(span, "compound literals outside functions");
                    return self.placeholder();
                };
                let target = self.var_expr(temp);
                // compound literals of array type are arrays: temps decay, so use the element pointer
                self.initialise_list(target.clone(), &ty, &c.node.initializer_list, span, false);
                target
            }
            E::SizeOfTy(s) => {
                let ty = self.type_name(&s.node.0);
                Expr::int(size_of(&self.program, &ty) as i128, self.size_type())
            }
            E::SizeOfVal(s) => {
                if let E::StringLiteral(lit) = &s.node.0.node {
                    return Expr::int(string_literal_bytes(&lit.node).len() as i128 + 1, self.size_type());
                }
                if let Some(bytes) = self.variable_length_array(&s.node.0) {
                    return self.var_expr(bytes);
                }
                let ty = self.discarding(true, |l| l.rvalue_no_decay(&s.node.0).ty);
                Expr::int(size_of(&self.program, &ty) as i128, self.size_type())
            }
            E::AlignOf(a) => {
                let ty = self.type_name(&a.node.0);
                Expr::int(align_of(&self.program, &ty) as i128, self.size_type())
            }
            E::OffsetOf(o) => {
                let ty = self.type_name(&o.node.type_name);
                let mut offset = 0u64;
                let mut current = ty;
                let mut steps: Vec<(bool, String)> = vec![(false, o.node.designator.node.base.node.name.clone())];
                for m in &o.node.designator.node.members {
                    match &m.node {
                        ast::OffsetMember::Member(id) | ast::OffsetMember::IndirectMember(id) => steps.push((false, id.node.name.clone())),
                        ast::OffsetMember::Index(_) => steps.push((true, String::new())),
                    }
                }
                for (is_index, name) in steps {
                    if is_index {
                        self.unsupported(span, "array index in offsetof");
                        break;
                    }
                    match &current {
                        Type::Struct(s) => {
                            let sid = *s;
                            match self.program.structs[sid.0 as usize].fields.iter().position(|f| f.name == name) {
                                Some(i) => {
                                    offset += field_offset(&self.program, sid, i as u32);
                                    current = self.program.structs[sid.0 as usize].fields[i].ty.clone();
                                }
                                None => {
                                    self.error(span, format!("no field `{name}`"));
                                    break;
                                }
                            }
                        }
                        _ => {
                            self.error(span, "offsetof needs a struct type");
                            break;
                        }
                    }
                }
                Expr::int(offset as i128, self.size_type())
            }
            E::UnaryOperator(u) => self.unary(u, span),
            E::Cast(c) => {
                let ty = self.type_name(&c.node.type_name);
                if ty == Type::Void {
                    self.effect(&c.node.expression);
                    return Expr::int(0, Type::INT);
                }
                let v = self.rvalue(&c.node.expression);
                self.explicit_cast(v, &ty, span)
            }
            E::BinaryOperator(b) => self.binary(b, span),
            E::Conditional(c) => self.conditional(c, span),
            E::Comma(list) => {
                let n = list.len();
                for x in list.iter().take(n.saturating_sub(1)) {
                    self.effect(x);
                }
                match list.last() {
                    Some(last) => self.rvalue_no_decay(last),
                    None => self.placeholder(),
                }
            }
            E::GenericSelection(_) => {
                self.unsupported(span, "_Generic selections");
                self.placeholder()
            }
            E::VaArg(_) => {
                self.unsupported(span, "variadic arguments (va_arg)");
                self.placeholder()
            }
            E::Statement(s) => match self.statement_expression(s, true) {
                Some(v) => v,
                None => self.placeholder(),
            },
        }
    }

    /// Stores a non-lvalue (e.g. a struct returned by a call) in a temporary.
    fn materialise(&mut self, value: Expr, span: Span) -> Expr {
        match self.new_temp(value.ty.clone(), span) {
            Some(t) => {
                let target = self.var_expr(t);
                self.emit(StmtKind::Assign { lhs: target.clone(), rhs: value }, span);
                target
            }
            None => value,
        }
    }

    pub fn dereference(&mut self, p: Expr, span: Span) -> Expr {
        match &p.ty {
            Type::Pointer(t) => {
                if **t == Type::Void {
                    self.error(span, "dereferencing a `void *` pointer");
                }
                if **t == Type::Function {
                    self.unsupported(span, "function pointers");
                }
                if let ExprKind::AddrOf(inner) = p.kind {
                    return *inner;
                }
                Expr::deref(p)
            }
            Type::Int { .. } => {
                self.error(span, "dereferencing an integer");
                Expr::deref(Expr::cast(p, Type::pointer_to(Type::INT)))
            }
            _ => {
                self.error(span, "dereferencing a non-pointer");
                self.placeholder()
            }
        }
    }

    /// `base.name`, looking through anonymous struct/union members.
    fn member(&mut self, base: Expr, name: &str, span: Span) -> Expr {
        let Type::Struct(sid) = base.ty.clone() else {
            self.error(span, format!("member access `.{name}` on a value that is not a struct or union"));
            return self.placeholder();
        };
        if let Some(path) = self.field_path(sid, name) {
            let mut current = base;
            for index in path {
                let ty = self.program.field(&current.ty, index).map(|f| f.ty.clone()).unwrap_or(Type::INT);
                current = Expr::new(ExprKind::Field(Box::new(current), index), ty);
            }
            return current;
        }
        let sname = self.struct_type_name(sid);
        self.error(span, format!("no field `{name}` in `{sname}`"));
        self.placeholder()
    }

    fn field_path(&self, sid: c_ir::StructId, name: &str) -> Option<Vec<u32>> {
        let def = self.program.structs.get(sid.0 as usize)?;
        if let Some(i) = def.fields.iter().position(|f| f.name == name) {
            return Some(vec![i as u32]);
        }
        for (i, f) in def.fields.iter().enumerate() {
            if f.name.starts_with("__anon_member") {
                if let Type::Struct(inner) = &f.ty {
                    if let Some(mut rest) = self.field_path(*inner, name) {
                        rest.insert(0, i as u32);
                        return Some(rest);
                    }
                }
            }
        }
        None
    }

    fn identifier(&mut self, name: &str, span: Span) -> Expr {
        match self.lookup(name).cloned() {
            Some(Binding::Var(v)) => self.var_expr(v),
            Some(Binding::EnumConstant(value)) => Expr::int(value, Type::INT),
            Some(Binding::Function) => self.function_address(name, span),
            Some(Binding::Typedef(_)) => {
                self.error(span, format!("type name `{name}` used as a value"));
                self.placeholder()
            }
            None => {
                if name == "__func__" || name == "__FUNCTION__" || name == "__PRETTY_FUNCTION__" {
                    let fname = self.current.as_ref().map(|f| f.name.clone()).unwrap_or_default();
                    let index = match self.program.strings.iter().position(|x| *x == fname) {
                        Some(i) => i,
                        None => {
                            self.program.strings.push(fname);
                            self.program.strings.len() - 1
                        }
                    };
                    return Expr::new(ExprKind::Str(index as u32), Type::pointer_to(Type::CHAR));
                }
                self.error(span, format!("use of undeclared identifier `{name}`"));
                self.placeholder()
            }
        }
    }

    fn constant(&mut self, c: &ast::Constant, span: Span) -> Expr {
        match c {
            ast::Constant::Integer(i) => {
                let radix = match i.base {
                    ast::IntegerBase::Decimal => 10,
                    ast::IntegerBase::Octal => 8,
                    ast::IntegerBase::Hexadecimal => 16,
                    ast::IntegerBase::Binary => 2,
                };
                let digits: &str = &i.number;
                let Ok(value) = u128::from_str_radix(digits, radix) else {
                    self.error(span, format!("invalid integer constant `{digits}`"));
                    return self.placeholder();
                };
                let value = value as i128;
                let decimal = radix == 10;
                let unsigned = i.suffix.unsigned;
                let long = i.suffix.size != ast::IntegerSize::Int;
                let (long_ty, ulong_ty) = if i.suffix.size == ast::IntegerSize::LongLong {
                    (Type::LONG, Type::ULONG)
                } else {
                    (Type::Int { bits: self.long_bits, signed: true }, Type::Int { bits: self.long_bits, signed: false })
                };
                let fits = |bits: u32, signed: bool| -> bool {
                    if signed {
                        value < (1i128 << (bits - 1))
                    } else {
                        value < (1i128 << bits)
                    }
                };
                let candidates: Vec<Type> = match (unsigned, long, decimal) {
                    (false, false, true) => vec![Type::INT, long_ty, Type::LONG, Type::ULONG],
                    (false, false, false) => vec![Type::INT, Type::UINT, long_ty, ulong_ty, Type::LONG, Type::ULONG],
                    (true, false, _) => vec![Type::UINT, ulong_ty, Type::ULONG],
                    (false, true, true) => vec![long_ty, Type::LONG, Type::ULONG],
                    (false, true, false) => vec![long_ty, ulong_ty, Type::LONG, Type::ULONG],
                    (true, true, _) => vec![ulong_ty, Type::ULONG],
                };
                let ty = candidates
                    .iter()
                    .find(|t| match t {
                        Type::Int { bits, signed } => fits(*bits as u32, *signed),
                        _ => false,
                    })
                    .cloned()
                    .unwrap_or(Type::ULONG);
                Expr::int(normalize(value, &ty), ty)
            }
            ast::Constant::Character(text) => match parse_char_literal(text) {
                Some(v) => Expr::int(v, Type::INT),
                None => {
                    self.error(span, format!("invalid character constant {text}"));
                    self.placeholder()
                }
            },
            ast::Constant::Float(_) => {
                self.float_warning(span);
                let text = match c {
                    ast::Constant::Float(f) => f.number.to_string(),
                    _ => String::new(),
                };
                let single = matches!(c, ast::Constant::Float(f) if f.suffix.format == ast::FloatFormat::Float);
                Expr::new(ExprKind::App(Symbol::FloatLiteral(text), Vec::new()), Type::Opaque(if single { "float" } else { "double" }.into()))
            }
        }
    }

    fn explicit_cast(&mut self, v: Expr, ty: &Type, span: Span) -> Expr {
        match (&v.ty, ty) {
            (Type::Pointer(_), Type::Bool) => self.truth_value(v),
            (Type::Int { .. } | Type::Bool | Type::Pointer(_), Type::Int { .. } | Type::Pointer(_) | Type::Bool) => self.convert(v, ty, span),
            (Type::Struct(a), Type::Struct(b)) if a == b => v,
            (Type::Opaque(_), _) | (_, Type::Opaque(_)) => {
                self.float_warning(span);
                Expr::cast(v, ty.clone())
            }
            (Type::Function, _) | (_, Type::Function) => {
                self.unsupported(span, "function pointers");
                Expr::int(0, if ty.is_scalar() { ty.clone() } else { Type::INT })
            }
            _ => {
                self.error(span, "invalid cast");
                Expr::int(0, if ty.is_scalar() { ty.clone() } else { Type::INT })
            }
        }
    }

    /// The variable holding the size in bytes of `e` when it names a variable-length array.
    fn variable_length_array(&self, e: &Node<ast::Expression>) -> Option<VarId> {
        let ast::Expression::Identifier(id) = &e.node else { return None };
        match self.lookup(&id.node.name) {
            Some(Binding::Var(v)) => self.variable_length_arrays.get(v).copied(),
            _ => None,
        }
    }

    fn unary(&mut self, u: &'a Node<ast::UnaryOperatorExpression>, span: Span) -> Expr {
        use ast::UnaryOperator as U;
        match u.node.operator.node {
            U::PostIncrement | U::PostDecrement | U::PreIncrement | U::PreDecrement => {
                let inc = matches!(u.node.operator.node, U::PostIncrement | U::PreIncrement);
                let post = matches!(u.node.operator.node, U::PostIncrement | U::PostDecrement);
                self.increment(&u.node.operand, inc, post, span).unwrap_or_else(|| self.placeholder())
            }
            U::Address => {
                if let ast::Expression::Identifier(id) = &u.node.operand.node {
                    if let Some(Binding::Function) = self.lookup(&id.node.name) {
                        let name = id.node.name.clone();
                        return self.function_address(&name, span);
                    }
                }
                if self.variable_length_array(&u.node.operand).is_some() {
                    self.unsupported(span, "the address of a variable-length array (use the array itself)");
                    return self.placeholder();
                }
                let lv = self.lvalue(&u.node.operand);
                if let ExprKind::Deref(p) = lv.kind {
                    return *p;
                }
                if !lv.is_lvalue() {
                    return Expr::int(0, Type::pointer_to(lv.ty));
                }
                Expr::addr_of(lv)
            }
            U::Indirection => {
                let p = self.rvalue(&u.node.operand);
                self.dereference(p, span)
            }
            U::Plus => {
                let v = self.rvalue(&u.node.operand);
                let v = self.integer_operand(v, span, "unary `+`");
                let t = promoted(&v.ty);
                self.convert(v, &t, span)
            }
            U::Minus | U::Complement => {
                let v = self.rvalue(&u.node.operand);
                if matches!(v.ty, Type::Opaque(_)) && u.node.operator.node == U::Minus {
                    self.float_warning(span);
                    let ty = v.ty.clone();
                    return Expr::new(ExprKind::App(Symbol::Float(FloatOp::Neg), vec![v]), ty);
                }
                let v = self.integer_operand(v, span, "the unary operator");
                let t = promoted(&v.ty);
                let v = self.convert(v, &t, span);
                let op = if u.node.operator.node == U::Minus { UnaryOp::Neg } else { UnaryOp::BitNot };
                fold(Expr::new(ExprKind::Unary(op, Box::new(v)), t))
            }
            U::Negate => {
                let c = self.condition(&u.node.operand);
                negate(c)
            }
        }
    }

    /// `++x`/`x++`/`--x`/`x--`; returns the expression's value when `post` or a value is wanted.
    pub fn increment(&mut self, operand: &'a Node<ast::Expression>, inc: bool, post: bool, span: Span) -> Option<Expr> {
        let lv = self.lvalue(operand);
        let ty = lv.ty.clone();
        let old = if post {
            let t = self.new_temp(ty.clone(), span)?;
            let te = self.var_expr(t);
            self.emit(StmtKind::Assign { lhs: te.clone(), rhs: lv.clone() }, span);
            Some(te)
        } else {
            None
        };
        let one = Expr::int(1, Type::INT);
        let op = if inc { BinaryOp::Add } else { BinaryOp::Sub };
        let sum = self.binary_operation(op, lv.clone(), one, span);
        let rhs = self.convert(sum, &ty, span);
        self.emit(StmtKind::Assign { lhs: lv.clone(), rhs }, span);
        Some(old.unwrap_or(lv))
    }

    fn binary(&mut self, b: &'a Node<ast::BinaryOperatorExpression>, span: Span) -> Expr {
        use ast::BinaryOperator as B;
        let op = match b.node.operator.node {
            B::Index => return self.index(&b.node.lhs, &b.node.rhs, span),
            B::Assign => return self.assignment(&b.node.lhs, &b.node.rhs, span, true).unwrap_or_else(|| self.placeholder()),
            B::LogicalAnd | B::LogicalOr => return self.logical(b, span),
            B::Multiply => BinaryOp::Mul,
            B::Divide => BinaryOp::Div,
            B::Modulo => BinaryOp::Rem,
            B::Plus => BinaryOp::Add,
            B::Minus => BinaryOp::Sub,
            B::ShiftLeft => BinaryOp::Shl,
            B::ShiftRight => BinaryOp::Shr,
            B::Less => BinaryOp::Lt,
            B::Greater => BinaryOp::Gt,
            B::LessOrEqual => BinaryOp::Le,
            B::GreaterOrEqual => BinaryOp::Ge,
            B::Equals => BinaryOp::Eq,
            B::NotEquals => BinaryOp::Ne,
            B::BitwiseAnd => BinaryOp::BitAnd,
            B::BitwiseXor => BinaryOp::BitXor,
            B::BitwiseOr => BinaryOp::BitOr,
            B::AssignMultiply => return self.compound_assignment(BinaryOp::Mul, b, span),
            B::AssignDivide => return self.compound_assignment(BinaryOp::Div, b, span),
            B::AssignModulo => return self.compound_assignment(BinaryOp::Rem, b, span),
            B::AssignPlus => return self.compound_assignment(BinaryOp::Add, b, span),
            B::AssignMinus => return self.compound_assignment(BinaryOp::Sub, b, span),
            B::AssignShiftLeft => return self.compound_assignment(BinaryOp::Shl, b, span),
            B::AssignShiftRight => return self.compound_assignment(BinaryOp::Shr, b, span),
            B::AssignBitwiseAnd => return self.compound_assignment(BinaryOp::BitAnd, b, span),
            B::AssignBitwiseXor => return self.compound_assignment(BinaryOp::BitXor, b, span),
            B::AssignBitwiseOr => return self.compound_assignment(BinaryOp::BitOr, b, span),
        };
        let a = self.rvalue(&b.node.lhs);
        let c = self.rvalue(&b.node.rhs);
        if matches!(op, BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor | BinaryOp::Rem | BinaryOp::Shl | BinaryOp::Shr | BinaryOp::Mul | BinaryOp::Div)
            && (a.ty.is_pointer() || c.ty.is_pointer())
        {
            self.error(span, format!("invalid pointer operand to `{}`", op.symbol()));
            return self.placeholder();
        }
        self.binary_operation(op, a, c, span)
    }

    fn index(&mut self, a: &'a Node<ast::Expression>, i: &'a Node<ast::Expression>, span: Span) -> Expr {
        let base = self.rvalue_no_decay(a);
        let index = self.rvalue(i);
        let (base, index) = if base.ty.is_integer() && (index.ty.is_pointer()) { (index, base) } else { (base, index) };
        let index = self.integer_operand(index, span, "an array index");
        let it = promoted(&index.ty);
        let index = self.convert(index, &it, span);
        match &base.ty {
            Type::Array(elem, _) if base.is_lvalue() => {
                let elem = elem.as_ref().clone();
                Expr::new(ExprKind::Index(Box::new(base), Box::new(index)), elem)
            }
            Type::Array(elem, _) => {
                let elem = elem.as_ref().clone();
                let p = self.decay_array(base, elem);
                let sum = self.pointer_operation(BinaryOp::Add, p, index, span);
                self.dereference(sum, span)
            }
            Type::Pointer(_) => {
                let sum = self.pointer_operation(BinaryOp::Add, base, index, span);
                self.dereference(sum, span)
            }
            _ => {
                self.error(span, "subscripted value is neither an array nor a pointer");
                self.placeholder()
            }
        }
    }

    /// `lhs = rhs`; returns the assigned value when `want_value`.
    pub fn assignment(&mut self, lhs: &'a Node<ast::Expression>, rhs: &'a Node<ast::Expression>, span: Span, want_value: bool) -> Option<Expr> {
        // calls assign straight into a simple destination (also `p = (T *)malloc(n)`)
        let lv = self.lvalue(lhs);
        let rhs = if lv.ty.is_pointer() { peel_allocation_cast(rhs) } else { rhs };
        if let ast::Expression::Call(c) = &rhs.node {
            if let Some(value) = self.call(c, Some(lv.clone()), true, span) {
                if value != lv {
                    let v = self.convert(value, &lv.ty.clone(), span);
                    self.emit(StmtKind::Assign { lhs: lv.clone(), rhs: v }, span);
                }
            } else {
                self.error(span, "a call to a function returning void used as a value");
            }
            return want_value.then_some(lv);
        }
        let v = self.rvalue(rhs);
        if matches!(lv.ty, Type::Array(..)) {
            self.error(span, "assignment to an array");
            return want_value.then_some(lv);
        }
        let v = self.convert(v, &lv.ty.clone(), span);
        self.emit(StmtKind::Assign { lhs: lv.clone(), rhs: v }, span);
        want_value.then_some(lv)
    }

    fn compound_assignment(&mut self, op: BinaryOp, b: &'a Node<ast::BinaryOperatorExpression>, span: Span) -> Expr {
        let lv = self.lvalue(&b.node.lhs);
        let v = self.rvalue(&b.node.rhs);
        let result = self.binary_operation(op, lv.clone(), v, span);
        let ty = lv.ty.clone();
        let result = self.convert(result, &ty, span);
        self.emit(StmtKind::Assign { lhs: lv.clone(), rhs: result }, span);
        lv
    }

    fn logical(&mut self, b: &'a Node<ast::BinaryOperatorExpression>, span: Span) -> Expr {
        let is_and = b.node.operator.node == ast::BinaryOperator::LogicalAnd;
        let left = self.condition(&b.node.lhs);
        if !has_effects(&b.node.rhs.node) {
            let right = self.condition(&b.node.rhs);
            let op = if is_and { BinaryOp::And } else { BinaryOp::Or };
            return fold(Expr::binary(op, left, right));
        }
        // short-circuit with a temporary: t = left; if (t (or !t)) t = right;
        let Some(t) = self.new_temp(Type::Bool, span) else {
            self.emit(StmtKind::Skip, span);
            return Expr::bool(false);
        };
        let te = self.var_expr(t);
        self.emit(StmtKind::Assign { lhs: te.clone(), rhs: left.clone() }, span);
        let guard = if is_and { left } else { negate(left) };
        let end = self.new_label();
        let on_false = self.begin_branch(&guard, span);
        let right = self.condition(&b.node.rhs);
        self.emit(StmtKind::Assign { lhs: te.clone(), rhs: right }, span);
        self.emit_goto(vec![end], span);
        self.else_branch(on_false, &guard, span);
        self.place_label(end);
        te
    }

    fn conditional(&mut self, c: &'a Node<ast::ConditionalExpression>, span: Span) -> Expr {
        let cond = self.condition(&c.node.condition);
        let effects = has_effects(&c.node.then_expression.node) || has_effects(&c.node.else_expression.node);
        if !effects {
            let a = self.rvalue(&c.node.then_expression);
            let b = self.rvalue(&c.node.else_expression);
            let Some(ty) = self.conditional_type(&a, &b, span) else { return self.placeholder() };
            if ty == Type::Void {
                return Expr::int(0, Type::INT);
            }
            let a = self.convert(a, &ty, span);
            let b = self.convert(b, &ty, span);
            if let Some(v) = cond.as_const() {
                return if v != 0 { a } else { b };
            }
            return Expr::new(ExprKind::Ite(Box::new(cond), Box::new(a), Box::new(b)), ty);
        }
        // control flow: determine the type without emitting, then evaluate each arm in its branch
        let ty = self.discarding(false, |l| {
            let a_probe = l.rvalue(&c.node.then_expression);
            let b_probe = l.rvalue(&c.node.else_expression);
            l.conditional_type(&a_probe, &b_probe, span)
        });
        let ty = ty.unwrap_or(Type::INT);
        let temp = if ty == Type::Void { None } else { self.new_temp(ty.clone(), span) };
        let end = self.new_label();
        let on_false = self.begin_branch(&cond, span);
        self.conditional_arm(&c.node.then_expression, temp, &ty, span);
        self.emit_goto(vec![end], span);
        self.else_branch(on_false, &cond, span);
        self.conditional_arm(&c.node.else_expression, temp, &ty, span);
        self.place_label(end);
        match temp {
            Some(t) => self.var_expr(t),
            None => Expr::int(0, Type::INT),
        }
    }

    fn conditional_arm(&mut self, e: &'a Node<ast::Expression>, temp: Option<c_ir::VarId>, ty: &Type, span: Span) {
        match temp {
            Some(t) => {
                if let ast::Expression::Call(c) = &e.node {
                    let te = self.var_expr(t);
                    let espan = self.span(e.span);
                    if let Some(v) = self.call(c, Some(te.clone()), true, espan) {
                        if v != te {
                            let v = self.convert(v, ty, span);
                            self.emit(StmtKind::Assign { lhs: te, rhs: v }, span);
                        }
                    }
                    return;
                }
                let v = self.rvalue(e);
                let v = self.convert(v, ty, span);
                let te = self.var_expr(t);
                self.emit(StmtKind::Assign { lhs: te, rhs: v }, span);
            }
            None => self.effect(e),
        }
    }

    fn conditional_type(&mut self, a: &Expr, b: &Expr, span: Span) -> Option<Type> {
        Some(match (&a.ty, &b.ty) {
            (x, y) if x.is_integer() && y.is_integer() => common_type(x, y),
            (Type::Pointer(_), _) => a.ty.clone(),
            (_, Type::Pointer(_)) => b.ty.clone(),
            (Type::Struct(x), Type::Struct(y)) if x == y => a.ty.clone(),
            (Type::Void, _) | (_, Type::Void) => Type::Void,
            _ => {
                if let Type::Opaque(_) = &a.ty {
                    return Some(a.ty.clone());
                } else if let Type::Opaque(_) = &b.ty {
                    return Some(b.ty.clone());
                } else {
                    self.error(span, "incompatible operand types in `?:`");
                }
                return None;
            }
        })
    }

    /// A GNU statement expression `({ ...; e; })`; its value is the last expression statement's.
    pub fn statement_expression(&mut self, s: &'a Node<ast::Statement>, want_value: bool) -> Option<Expr> {
        let ast::Statement::Compound(items) = &s.node else {
            self.statement(s);
            return None;
        };
        self.push_scope();
        let mut value = None;
        let n = items.len();
        for (i, item) in items.iter().enumerate() {
            if i + 1 == n && want_value {
                if let ast::BlockItem::Statement(st) = &item.node {
                    if let ast::Statement::Expression(Some(e)) = &st.node {
                        let v = self.rvalue(e);
                        value = Some(v);
                        continue;
                    }
                }
            }
            self.block_item(item);
        }
        self.pop_scope();
        // the value must not change when later statements run: copy it into a temporary
        match value {
            Some(v) if v.ty != Type::Void && v.as_const().is_none() => {
                let span = self.span(s.span);
                Some(self.materialise(v, span))
            }
            other => other,
        }
    }

    // ----- calls -----

    /// Lowers a call. `dest` is where the caller will store the result (used directly when the
    /// types agree). Returns the call's value (`None` for `void` functions).
    pub fn call(&mut self, c: &'a Node<ast::CallExpression>, dest: Option<Expr>, need_value: bool, span: Span) -> Option<Expr> {
        if self.current.is_none() && self.discard_depth == 0 {
            let message = self.side_effect_message.unwrap_or("initializer of a global variable must be a constant expression");
            self.error(span, message);
            return Some(self.placeholder());
        }
        let ast::Expression::Identifier(id) = &c.node.callee.node else {
            return self.call_through_pointer(c, dest, need_value, span);
        };
        let name = id.node.name.clone();
        let binding = self.lookup(&name).cloned();
        if let Some(Binding::Var(_)) = binding {
            return self.call_through_pointer(c, dest, need_value, span);
        }
        let info = self.functions.get(&name).cloned();
        let has_body = info.as_ref().and_then(|i| i.proc).is_some();
        let args = &c.node.arguments;
        // SV-COMP and library conventions
        if is_error_function(&name) {
            self.emit(StmtKind::Error, span);
            return info.map(|i| i.signature.ret).filter(|t| *t != Type::Void).map(|t| Expr::int(0, if t.is_scalar() { t } else { Type::INT }));
        }
        if is_nondet_function(&name) {
            for a in args {
                self.effect(a);
            }
            let ty = info.as_ref().map(|i| i.signature.ret.clone()).filter(|t| *t != Type::Void || !name.ends_with("void")).unwrap_or_else(|| nondet_type(&name, self.long_bits));
            let ty = if ty == Type::Void { nondet_type(&name, self.long_bits) } else { ty };
            return Some(self.havoc_value(ty, dest, span));
        }
        if matches!(name.as_str(), "setjmp" | "_setjmp" | "__setjmp" | "sigsetjmp" | "__sigsetjmp" | "longjmp" | "_longjmp" | "siglongjmp") {
            self.unsupported(span, &format!("setjmp/longjmp (`{name}`)"));
            return Some(self.placeholder());
        }
        if name.starts_with("__builtin_va_") || matches!(name.as_str(), "va_start" | "va_end" | "va_copy") {
            self.unsupported(span, "variadic arguments (va_list)");
            return Some(self.placeholder());
        }
        if !has_body {
            match name.as_str() {
                "__VERIFIER_assume" | "assume" | "__CPROVER_assume" => {
                    if let Some(a) = args.first() {
                        let cond = self.condition(a);
                        self.emit(StmtKind::Assume { cond }, span);
                    }
                    return None;
                }
                "assert" | "__VERIFIER_assert" | "__CPROVER_assert" => {
                    if let Some(a) = args.first() {
                        let cond = self.condition(a);
                        let on_false = self.begin_branch(&negate(cond.clone()), span);
                        self.emit(StmtKind::Error, span);
                        self.else_branch(on_false, &negate(cond), span);
                    }
                    return None;
                }
                "abort" | "exit" | "_exit" | "_Exit" | "__builtin_unreachable" | "__builtin_trap" | "__VERIFIER_abort" => {
                    for a in args {
                        self.effect(a);
                    }
                    self.emit(StmtKind::Assume { cond: Expr::bool(false) }, span);
                    return None;
                }
                "malloc" | "alloca" | "__builtin_alloca" | "calloc" | "kmalloc" | "kzalloc" | "valloc" => {
                    let size = if name == "calloc" && args.len() == 2 {
                        let n = self.rvalue(&args[0]);
                        let s = self.rvalue(&args[1]);
                        let n = self.convert(n, &self.size_type(), span);
                        let s = self.convert(s, &self.size_type(), span);
                        self.binary_operation(BinaryOp::Mul, n, s, span)
                    } else if let Some(a) = args.first() {
                        let v = self.rvalue(a);
                        for extra in args.iter().skip(1) {
                            self.effect(extra);
                        }
                        self.convert(v, &self.size_type(), span)
                    } else {
                        Expr::int(0, self.size_type())
                    };
                    let lhs = match dest {
                        Some(d) if d.ty.is_pointer() && d.is_lvalue() => d,
                        _ => {
                            let Some(t) = self.new_temp(Type::pointer_to(Type::Void), span) else { return Some(self.placeholder()) };
                            self.var_expr(t)
                        }
                    };
                    self.emit(StmtKind::Malloc { lhs: lhs.clone(), size }, span);
                    return Some(lhs);
                }
                "free" | "kfree" => {
                    if let Some(a) = args.first() {
                        let ptr = self.rvalue(a);
                        self.emit(StmtKind::Free { ptr }, span);
                    }
                    return None;
                }
                "__builtin_expect" | "__builtin_assume_aligned" => {
                    let v = args.first().map(|a| self.rvalue(a)).unwrap_or_else(|| self.placeholder());
                    for extra in args.iter().skip(1) {
                        self.effect(extra);
                    }
                    return Some(v);
                }
                "__builtin_constant_p" => return Some(Expr::int(0, Type::INT)),
                _ => {}
            }
        }
        let signature = match &info {
            Some(i) => i.signature.clone(),
            None => {
                self.warning(span, format!("implicit declaration of function `{name}`; assuming it returns int"));
                super::FunctionSignature { ret: Type::INT, params: Vec::new(), param_points_to_const: Vec::new(), variadic: true, has_prototype: false }
            }
        };
        // arguments, left to right
        let mut actuals = Vec::new();
        for (i, a) in args.iter().enumerate() {
            let v = self.rvalue(a);
            let aspan = self.span(a.span);
            let v = match signature.params.get(i) {
                Some(t) if signature.has_prototype => self.convert(v, t, aspan),
                _ => {
                    // default argument promotions
                    let t = if v.ty.is_integer() { promoted(&v.ty) } else { v.ty.clone() };
                    self.convert(v, &t, aspan)
                }
            };
            actuals.push(v);
        }
        if let Some(proc) = info.as_ref().and_then(|i| i.proc) {
            let formal_count = self.formal_count(proc, &signature);
            if actuals.len() != formal_count && !(signature.variadic && actuals.len() >= formal_count) {
                self.error(span, format!("`{name}` expects {formal_count} argument(s) but is called with {}", actuals.len()));
                actuals.resize(formal_count, Expr::int(0, Type::INT));
            }
            if signature.variadic {
                actuals.truncate(formal_count);
            }
            // fix argument types for unprototyped definitions
            for (i, ty) in signature.params.iter().enumerate() {
                if let Some(a) = actuals.get_mut(i) {
                    if &a.ty != ty {
                        let v = std::mem::replace(a, Expr::int(0, Type::INT));
                        *a = self.convert(v, ty, span);
                    }
                }
            }
            let ret = signature.ret.clone();
            if ret == Type::Void {
                self.emit(StmtKind::Call { lhs: None, callee: proc, args: actuals }, span);
                return None;
            }
            let lhs = match dest {
                Some(d) if d.ty == ret && d.is_lvalue() && !mentions_side_sensitive(&d) => Some(d),
                _ if need_value => {
                    let t = self.new_temp(ret.clone(), span)?;
                    Some(self.var_expr(t))
                }
                _ => None,
            };
            self.emit(StmtKind::Call { lhs: lhs.clone(), callee: proc, args: actuals }, span);
            return lhs.or_else(|| Some(Expr::int(0, if ret.is_scalar() { ret } else { Type::INT })));
        }
        // a function without a body that is handed a function could call it (a thread, a
        // callback): that is outside the sequential semantics the analyses assume
        let passes_function = actuals.iter().any(|a| {
            let a = match &a.kind {
                ExprKind::Cast(inner) => inner.as_ref(),
                _ => a,
            };
            matches!(&a.ty, Type::Pointer(t) if **t == Type::Function)
        });
        if passes_function {
            let what = if name.contains("thread") || name.starts_with("thrd_") {
                format!("unsupported: threads (`{name}`): predabs checks sequential programs only")
            } else {
                format!("unsupported: a function is passed to `{name}`, which has no body and could call it")
            };
            self.error(span, what);
        }
        // a function without a body: havoc what it could change
        if self.warned_functions.insert(name.clone()) {
            self.diagnostics.push(
                diagnostics::Diagnostic::warning(span, format!("function `{name}` has no body: its result is treated as unknown"))
                    .with_help("pointer arguments are assumed to be written through as well"),
            );
        }
        for (i, a) in actuals.iter().enumerate() {
            let points_to_const = signature.param_points_to_const.get(i).copied().unwrap_or(false)
                || i >= signature.params.len() && signature.has_prototype
                || library_function_reads_only(&name);
            if points_to_const || a.as_const().is_some() || matches!(a.kind, ExprKind::Str(_)) {
                continue;
            }
            // look through the conversion to the parameter type (`memset(&s, ...)` writes `s`)
            let a = match &a.kind {
                ExprKind::Cast(inner) if inner.ty.is_pointer() => inner.as_ref(),
                _ => a,
            };
            if let Type::Pointer(t) = &a.ty {
                if matches!(**t, Type::Int { .. } | Type::Bool | Type::Pointer(_) | Type::Struct(_)) {
                    let target = Expr::deref(a.clone());
                    self.emit(StmtKind::Havoc { lhs: target }, span);
                }
            }
        }
        let ret = signature.ret.clone();
        if ret == Type::Void {
            return None;
        }
        if !need_value && dest.is_none() {
            return Some(Expr::int(0, if ret.is_scalar() { ret } else { Type::INT }));
        }
        Some(self.havoc_value(ret, dest, span))
    }

    /// The value of function `name` used as a pointer: a constant address per defined function
    /// ([`function_address_of`] its procedure), distinct from null and from data.
    fn function_address(&mut self, name: &str, span: Span) -> Expr {
        match self.functions.get(name).and_then(|f| f.proc) {
            Some(proc) => Expr::int(function_address_of(proc), Type::pointer_to(Type::Function)),
            None => {
                self.unsupported(span, &format!("pointers to functions without a body (`{name}`)"));
                Expr::int(0, Type::pointer_to(Type::Function))
            }
        }
    }

    /// `fp(args)` / `(*fp)(args)` / `s->op(args)`: the pointer is compared with the address of
    /// every defined function that is used as a value and takes as many arguments, and the
    /// matching one is called directly; any other value (null, a data pointer) cannot be called
    /// in a defined execution, so that path ends (`assume(false)`).
    fn call_through_pointer(&mut self, c: &'a Node<ast::CallExpression>, dest: Option<Expr>, need_value: bool, span: Span) -> Option<Expr> {
        let mut callee = &c.node.callee;
        while let ast::Expression::UnaryOperator(u) = &callee.node {
            if u.node.operator.node != ast::UnaryOperator::Indirection {
                break;
            }
            callee = &u.node.operand;
        }
        let target = self.rvalue(callee);
        if !matches!(target.ty.pointee(), Some(Type::Function)) {
            self.unsupported(span, "calls through function pointers");
            for a in &c.node.arguments {
                self.effect(a);
            }
            return Some(self.placeholder());
        }
        // lowered expressions have no side effects, and only `assume`s run between here and
        // the call: the pointer and the arguments can be used as they are
        let args: Vec<Expr> = c.node.arguments.iter().map(|a| self.rvalue(a)).collect();
        // (procedure, signature, number of formals)
        let candidates: Vec<(c_ir::ProcId, super::FunctionSignature, usize)> = self
            .address_taken_functions
            .iter()
            .filter_map(|(name, proc)| {
                let signature = self.functions.get(name)?.signature.clone();
                let formals = self.formal_count(*proc, &signature);
                (args.len() == formals || signature.variadic && args.len() >= formals).then_some((*proc, signature, formals))
            })
            .collect();
        let Some(ret) = candidates.first().map(|(_, s, _)| s.ret.clone()) else {
            self.unsupported(span, &format!("calls through function pointers (no function taking {} argument(s) is used as a value)", args.len()));
            return Some(self.placeholder());
        };
        let result = if ret != Type::Void && (need_value || dest.is_some()) {
            match dest {
                Some(d) if d.ty == ret && d.is_lvalue() => Some(d),
                _ => self.new_temp(ret.clone(), span).map(|t| self.var_expr(t)),
            }
        } else {
            None
        };
        let join = self.new_label();
        for (proc, signature, formals) in candidates {
            let address = Expr::int(function_address_of(proc), target.ty.clone());
            let cond = Expr::eq(target.clone(), address);
            let on_false = self.begin_branch(&cond, span);
            let mut actuals = Vec::new();
            for (i, a) in args.iter().take(formals).enumerate() {
                let ty = match signature.params.get(i) {
                    Some(t) => t.clone(),
                    None if a.ty.is_integer() => promoted(&a.ty),
                    None => a.ty.clone(),
                };
                actuals.push(self.convert(a.clone(), &ty, span));
            }
            let lhs = match (&result, signature.ret == Type::Void) {
                (Some(r), false) if r.ty == signature.ret => Some(r.clone()),
                (Some(_), false) => self.new_temp(signature.ret.clone(), span).map(|t| self.var_expr(t)),
                _ => None,
            };
            self.emit(StmtKind::Call { lhs: lhs.clone(), callee: proc, args: actuals }, span);
            if let (Some(r), Some(l)) = (&result, lhs) {
                if l != *r {
                    let value = self.convert(l, &r.ty, span);
                    self.emit(StmtKind::Assign { lhs: r.clone(), rhs: value }, span);
                }
            }
            self.emit_goto(vec![join], span);
            self.else_branch(on_false, &cond, span);
        }
        self.emit(StmtKind::Assume { cond: Expr::bool(false) }, span);
        self.place_label(join);
        if ret == Type::Void {
            return None;
        }
        result.or_else(|| Some(Expr::int(0, if ret.is_scalar() { ret } else { Type::INT })))
    }

    /// How many arguments a call of `proc` passes: its formals, or its prototype's parameters
    /// when the definition has fewer.
    fn formal_count(&self, proc: c_ir::ProcId, signature: &super::FunctionSignature) -> usize {
        self.program.proc(proc).formals.len().max(signature.params.len())
    }

    /// A havocked value of type `ty`, in `dest` when it has that type, else in a temporary.
    fn havoc_value(&mut self, ty: Type, dest: Option<Expr>, span: Span) -> Expr {
        if matches!(ty, Type::Opaque(_)) {
            self.float_warning(span);
        }
        let lhs = match dest {
            Some(d) if d.ty == ty && d.is_lvalue() => d,
            _ => match self.new_temp(ty.clone(), span) {
                Some(t) => self.var_expr(t),
                None => return Expr::int(0, Type::INT),
            },
        };
        self.emit(StmtKind::Havoc { lhs: lhs.clone() }, span);
        lhs
    }
}

/// Function addresses: small constants, never null and far below the interpreter's data
/// addresses.
const FUNCTION_ADDRESS_BASE: i128 = 0x1000;

/// The address of the function whose body is procedure `proc`.
fn function_address_of(proc: c_ir::ProcId) -> i128 {
    FUNCTION_ADDRESS_BASE + proc.0 as i128
}

/// Library functions known not to write through their pointer arguments.
fn library_function_reads_only(name: &str) -> bool {
    matches!(
        name,
        "printf" | "puts" | "fprintf" | "fputs" | "putchar" | "strlen" | "strcmp" | "strncmp" | "memcmp" | "strchr" | "strrchr" | "strstr" | "atoi" | "atol" | "abs" | "labs"
            | "perror" | "fflush" | "fclose" | "getenv" | "strdup"
    )
}

/// `(T *)malloc(n)` is `malloc(n)` for the purpose of assigning into a pointer.
pub(crate) fn peel_allocation_cast(e: &Node<ast::Expression>) -> &Node<ast::Expression> {
    if let ast::Expression::Cast(c) = &e.node {
        if let ast::Expression::Call(call) = &c.node.expression.node {
            if let ast::Expression::Identifier(id) = &call.node.callee.node {
                if matches!(id.node.name.as_str(), "malloc" | "calloc" | "alloca" | "__builtin_alloca" | "kmalloc" | "kzalloc") {
                    return &c.node.expression;
                }
            }
        }
    }
    e
}

/// Whether an lvalue's meaning could change between evaluating the call's arguments and storing
/// the result (never for the lvalues built here, which are side-effect-free; kept as a hook).
fn mentions_side_sensitive(_e: &Expr) -> bool {
    false
}

/// Folds constant operands of unary and binary operators.
pub(crate) fn fold(e: Expr) -> Expr {
    match &e.kind {
        ExprKind::Unary(op, a) => match a.as_const() {
            Some(v) if a.ty.is_integer() => Expr::int(eval_unary(*op, v, &e.ty), e.ty.clone()),
            _ => e,
        },
        ExprKind::Binary(op, a, b) => match (a.as_const(), b.as_const()) {
            (Some(x), Some(y)) if a.ty.is_integer() && b.ty.is_integer() => match eval_binary(*op, x, y, &a.ty, &e.ty) {
                Some(v) => Expr::int(v, e.ty.clone()),
                None => e,
            },
            _ => e,
        },
        _ => e,
    }
}

fn c_ir_type_name(program: &c_ir::Program, ty: &Type) -> String {
    let v = Expr::int(0, ty.clone());
    let shown = c_ir::display_expr(program, &Expr::cast(Expr::int(1, Type::INT), v.ty));
    shown.trim_start_matches('(').split(')').next().unwrap_or("?").to_string()
}
