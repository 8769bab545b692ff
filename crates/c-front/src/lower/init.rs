//! Initialisers: scalar, string, struct and array initialiser lists (with designators and brace
//! elision) and zero-initialisation, lowered to element-wise assignments.

use super::expr::string_literal_bytes;
use super::Lowerer;
use c_ir::{BinaryOp, Expr, ExprKind, StmtKind, Type};
use diagnostics::Span;
use lang_c::ast;
use lang_c::span::Node;

/// Aggregates with more scalar leaves than this are zero-filled by a loop.
const UNROLL_LIMIT: u64 = 32;

impl<'a> Lowerer<'a> {
    /// Initialises `target` (of type `ty`) from `init`. Globals get zero-filled remainders like locals.
    pub fn initialise(&mut self, target: Expr, ty: &Type, init: &'a Node<ast::Initializer>, span: Span, _is_global: bool) {
        match &init.node {
            ast::Initializer::Expression(e) => {
                if let (Type::Array(elem, n), ast::Expression::StringLiteral(s)) = (ty, &e.node) {
                    if elem.is_integer() {
                        let bytes = string_literal_bytes(&s.node);
                        let elem = elem.as_ref().clone();
                        for i in 0..*n {
                            let value = bytes.get(i as usize).copied().unwrap_or(0) as i8 as i128;
                            let element = element_of(target.clone(), i, &elem);
                            let value = c_ir::interp::normalize(value, &elem);
                            self.emit(StmtKind::Assign { lhs: element, rhs: Expr::int(value, elem.clone()) }, span);
                        }
                        return;
                    }
                }
                if matches!(ty, Type::Array(..)) {
                    self.error(span, "an array must be initialised with a brace-enclosed list");
                    return;
                }
                let espan = self.span(e.span);
                let e = if ty.is_pointer() { super::expr::peel_allocation_cast(e) } else { e };
                if let ast::Expression::Call(c) = &e.node {
                    if let Some(value) = self.call(c, Some(target.clone()), true, espan) {
                        if value != target {
                            let v = self.convert(value, ty, espan);
                            self.emit(StmtKind::Assign { lhs: target, rhs: v }, espan);
                        }
                    } else {
                        self.error(espan, "a call to a function returning void used as a value");
                    }
                    return;
                }
                let v = self.rvalue(e);
                let v = self.convert(v, ty, espan);
                self.emit(StmtKind::Assign { lhs: target, rhs: v }, espan);
            }
            ast::Initializer::List(items) => self.initialise_list(target, ty, items, span, false),
        }
    }

    /// Initialises an aggregate or scalar from a brace-enclosed list.
    pub fn initialise_list(&mut self, target: Expr, ty: &Type, items: &'a [Node<ast::InitializerListItem>], span: Span, _nested: bool) {
        let mut position = 0usize;
        match ty {
            Type::Array(..) | Type::Struct(_) => {
                self.initialise_aggregate(target, ty, items, &mut position, span, true);
                if position < items.len() {
                    let s = self.span(items[position].span);
                    self.warning(s, "excess elements in initializer are ignored");
                }
            }
            _ => {
                // `int x = { 1 };`
                match items.first() {
                    Some(item) => self.initialise(target, ty, &item.node.initializer, span, false),
                    None => self.zero_initialise(target, ty, span),
                }
            }
        }
    }

    /// Consumes items for one aggregate. With `braced`, the aggregate owns all of `items`
    /// (designators allowed); otherwise it takes as many as it needs (brace elision).
    fn initialise_aggregate(&mut self, target: Expr, ty: &Type, items: &'a [Node<ast::InitializerListItem>], position: &mut usize, span: Span, braced: bool) {
        match ty {
            Type::Array(elem, n) => {
                let elem = elem.as_ref().clone();
                let mut initialised = vec![false; (*n).min(1 << 20) as usize];
                let mut index: u64 = 0;
                while *position < items.len() {
                    let item = &items[*position];
                    if let Some(d) = item.node.designation.first() {
                        if !braced {
                            break;
                        }
                        match &d.node {
                            ast::Designator::Index(e) => match self.constant_value(e) {
                                Some(v) if v >= 0 => index = v as u64,
                                _ => {
                                    let s = self.span(e.span);
                                    self.error(s, "array designator is not a non-negative constant");
                                }
                            },
                            ast::Designator::Range(r) => {
                                let from = self.constant_value(&r.node.from).unwrap_or(0).max(0) as u64;
                                let to = self.constant_value(&r.node.to).unwrap_or(0).max(0) as u64;
                                for i in from..=to.min(n.saturating_sub(1)) {
                                    let element = element_of(target.clone(), i, &elem);
                                    self.initialise(element, &elem, &item.node.initializer, span, false);
                                    if let Some(slot) = initialised.get_mut(i as usize) {
                                        *slot = true;
                                    }
                                }
                                index = to + 1;
                                *position += 1;
                                continue;
                            }
                            ast::Designator::Member(_) => {
                                let s = self.span(item.span);
                                self.error(s, "field designator in an array initializer");
                            }
                        }
                    }
                    if index >= *n {
                        if braced {
                            let s = self.span(item.span);
                            self.warning(s, "excess elements in array initializer are ignored");
                            *position = items.len();
                        }
                        break;
                    }
                    let element = element_of(target.clone(), index, &elem);
                    self.initialise_element(element, &elem, items, position, span);
                    if let Some(slot) = initialised.get_mut(index as usize) {
                        *slot = true;
                    }
                    index += 1;
                }
                self.zero_rest(&target, &elem, &initialised, *n, span);
            }
            Type::Struct(sid) => {
                let def = self.program.struct_def(*sid).clone();
                let mut initialised = vec![false; def.fields.len()];
                let mut field_index = 0usize;
                while *position < items.len() {
                    let item = &items[*position];
                    if let Some(d) = item.node.designation.first() {
                        if !braced {
                            break;
                        }
                        match &d.node {
                            ast::Designator::Member(name) => match def.fields.iter().position(|f| f.name == name.node.name) {
                                Some(i) => field_index = i,
                                None => {
                                    let s = self.span(name.span);
                                    self.error(s, format!("no field `{}` in `{}`", name.node.name, def.name));
                                    *position += 1;
                                    continue;
                                }
                            },
                            _ => {
                                let s = self.span(item.span);
                                self.error(s, "array designator in a struct initializer");
                                *position += 1;
                                continue;
                            }
                        }
                        if item.node.designation.len() > 1 {
                            let s = self.span(item.span);
                            self.unsupported(s, "nested designators in initializers");
                        }
                    }
                    if field_index >= def.fields.len() || (def.is_union && field_index > 0 && item.node.designation.is_empty()) {
                        if braced {
                            let s = self.span(item.span);
                            self.warning(s, "excess elements in struct initializer are ignored");
                            *position = items.len();
                        }
                        break;
                    }
                    let field_ty = def.fields[field_index].ty.clone();
                    let field = Expr::new(ExprKind::Field(Box::new(target.clone()), field_index as u32), field_ty.clone());
                    self.initialise_element(field, &field_ty, items, position, span);
                    initialised[field_index] = true;
                    field_index += 1;
                    if def.is_union {
                        break;
                    }
                }
                if !def.is_union {
                    for (i, f) in def.fields.iter().enumerate() {
                        if !initialised[i] {
                            let field = Expr::new(ExprKind::Field(Box::new(target.clone()), i as u32), f.ty.clone());
                            self.zero_initialise(field, &f.ty, span);
                        }
                    }
                } else if !initialised.iter().any(|b| *b) {
                    self.zero_initialise(target, ty, span);
                }
            }
            _ => {
                if let Some(item) = items.get(*position) {
                    self.initialise(target, ty, &item.node.initializer, span, false);
                    *position += 1;
                }
            }
        }
    }

    /// One element of an aggregate: a braced sub-list, a value of the element's own type, or
    /// (brace elision) the next items spread over the element's scalars.
    fn initialise_element(&mut self, element: Expr, elem: &Type, items: &'a [Node<ast::InitializerListItem>], position: &mut usize, span: Span) {
        let item = &items[*position];
        match &item.node.initializer.node {
            ast::Initializer::List(sub) => {
                *position += 1;
                self.initialise_list(element, elem, sub, span, true);
            }
            ast::Initializer::Expression(e) => {
                let aggregate = matches!(elem, Type::Array(..) | Type::Struct(_));
                let string_for_char_array =
                    matches!(elem, Type::Array(inner, _) if inner.is_integer()) && matches!(e.node, ast::Expression::StringLiteral(_));
                let same_struct = if let Type::Struct(_) = elem {
                    // a struct-typed expression initialises the whole member
                    let probe = self.discarding(false, |l| l.rvalue_no_decay(e).ty);
                    probe == *elem
                } else {
                    false
                };
                if aggregate && !string_for_char_array && !same_struct {
                    self.initialise_aggregate(element, elem, items, position, span, false);
                } else {
                    *position += 1;
                    self.initialise(element, elem, &item.node.initializer, span, false);
                }
            }
        }
    }

    fn zero_rest(&mut self, target: &Expr, elem: &Type, initialised: &[bool], n: u64, span: Span) {
        let missing: Vec<u64> = (0..n).filter(|&i| !initialised.get(i as usize).copied().unwrap_or(false)).collect();
        if missing.is_empty() {
            return;
        }
        let leaves = self.scalar_leaf_count(elem).saturating_mul(missing.len() as u64);
        let contiguous_tail = missing.windows(2).all(|w| w[1] == w[0] + 1) && *missing.last().unwrap_or(&0) == n - 1;
        if leaves > UNROLL_LIMIT && contiguous_tail && self.is_inside_function() {
            self.zero_loop(target, elem, missing[0], n, span);
            return;
        }
        for i in missing {
            let element = element_of(target.clone(), i, elem);
            self.zero_initialise(element, elem, span);
        }
    }

    /// `for (i = from; i < to; i++) target[i] = 0...;`
    fn zero_loop(&mut self, target: &Expr, elem: &Type, from: u64, to: u64, span: Span) {
        let Some(i) = self.new_temp(Type::LONG, span) else { return };
        let ie = self.var_expr(i);
        self.emit(StmtKind::Assign { lhs: ie.clone(), rhs: Expr::int(from as i128, Type::LONG) }, span);
        let head = self.new_label();
        let exit = self.new_label();
        let body = self.new_label();
        self.place_label(head);
        let cond = Expr::binary(BinaryOp::Lt, ie.clone(), Expr::int(to as i128, Type::LONG));
        self.emit_goto(vec![body, exit], span);
        self.place_label(body);
        self.emit(StmtKind::Assume { cond: cond.clone() }, span);
        let element = Expr::new(ExprKind::Index(Box::new(target.clone()), Box::new(ie.clone())), elem.clone());
        self.zero_initialise(element, elem, span);
        let next = Expr::binary(BinaryOp::Add, ie.clone(), Expr::int(1, Type::LONG));
        self.emit(StmtKind::Assign { lhs: ie, rhs: next }, span);
        self.emit_goto(vec![head], span);
        self.place_label(exit);
        self.emit(StmtKind::Assume { cond: super::expr::negate(cond) }, span);
    }

    /// Zero-initialisation (globals without initialiser, omitted aggregate members).
    pub fn zero_initialise(&mut self, target: Expr, ty: &Type, span: Span) {
        match ty {
            Type::Int { .. } | Type::Bool | Type::Pointer(_) => {
                self.emit(StmtKind::Assign { lhs: target, rhs: Expr::int(0, ty.clone()) }, span);
            }
            Type::Array(elem, n) => {
                let leaves = self.scalar_leaf_count(ty);
                if leaves > UNROLL_LIMIT && self.is_inside_function() {
                    let elem = elem.as_ref().clone();
                    self.zero_loop(&target, &elem, 0, *n, span);
                } else {
                    for i in 0..*n {
                        let element = element_of(target.clone(), i, elem);
                        self.zero_initialise(element, elem, span);
                    }
                }
            }
            Type::Struct(sid) => {
                let def = self.program.struct_def(*sid).clone();
                let fields: Vec<_> = if def.is_union { def.fields.iter().take(1).cloned().collect() } else { def.fields.clone() };
                for (i, f) in fields.iter().enumerate() {
                    let field = Expr::new(ExprKind::Field(Box::new(target.clone()), i as u32), f.ty.clone());
                    self.zero_initialise(field, &f.ty, span);
                }
            }
            _ => {}
        }
    }
}

fn element_of(target: Expr, index: u64, elem: &Type) -> Expr {
    Expr::new(ExprKind::Index(Box::new(target), Box::new(Expr::int(index as i128, Type::LONG))), elem.clone())
}
