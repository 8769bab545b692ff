//! Lowering of C statements to the flat goto form: `if`, loops, `switch`, `break`/`continue`,
//! `goto`/labels, `return` (one exit per procedure), block scopes.

use super::{LabelId, Lowerer, SwitchContext};
use c_ir::{Expr, StmtKind, Type};
use diagnostics::Span;
use lang_c::ast;
use lang_c::span::Node;

/// `case`/`default` labels of a switch body, in order (not descending into nested switches).
enum CaseKind<'a> {
    Value(&'a Node<ast::Expression>),
    Range(&'a Node<ast::Expression>, &'a Node<ast::Expression>),
    Default,
}

fn collect_cases<'a>(s: &'a Node<ast::Statement>, out: &mut Vec<(CaseKind<'a>, lang_c::span::Span)>) {
    match &s.node {
        ast::Statement::Labeled(l) => {
            match &l.node.label.node {
                ast::Label::Case(e) => out.push((CaseKind::Value(e), l.span)),
                ast::Label::CaseRange(r) => out.push((CaseKind::Range(&r.node.low, &r.node.high), l.span)),
                ast::Label::Default => out.push((CaseKind::Default, l.span)),
                ast::Label::Identifier(_) => {}
            }
            collect_cases(&l.node.statement, out);
        }
        ast::Statement::Compound(items) => {
            for item in items {
                if let ast::BlockItem::Statement(st) = &item.node {
                    collect_cases(st, out);
                }
            }
        }
        ast::Statement::If(i) => {
            collect_cases(&i.node.then_statement, out);
            if let Some(e) = &i.node.else_statement {
                collect_cases(e, out);
            }
        }
        ast::Statement::While(w) => collect_cases(&w.node.statement, out),
        ast::Statement::DoWhile(w) => collect_cases(&w.node.statement, out),
        ast::Statement::For(f) => collect_cases(&f.node.statement, out),
        _ => {}
    }
}

impl<'a> Lowerer<'a> {
    pub fn block_item(&mut self, item: &'a Node<ast::BlockItem>) {
        match &item.node {
            ast::BlockItem::Declaration(d) => self.declaration(d),
            ast::BlockItem::StaticAssert(_) => {}
            ast::BlockItem::Statement(s) => self.statement(s),
        }
    }

    pub fn statement(&mut self, s: &'a Node<ast::Statement>) {
        let span = self.span(s.span);
        match &s.node {
            ast::Statement::Compound(items) => {
                self.push_scope();
                for item in items {
                    self.block_item(item);
                }
                self.pop_scope();
            }
            ast::Statement::Expression(Some(e)) => self.effect(e),
            ast::Statement::Expression(None) => {}
            ast::Statement::Labeled(l) => self.labeled(l, span),
            ast::Statement::If(i) => {
                let cond = self.condition(&i.node.condition);
                let cspan = self.span(i.node.condition.span);
                let end = self.new_label();
                let on_false = self.begin_branch(&cond, cspan);
                self.statement(&i.node.then_statement);
                self.emit_goto(vec![end], span);
                self.else_branch(on_false, &cond, cspan);
                if let Some(e) = &i.node.else_statement {
                    self.statement(e);
                }
                self.place_label(end);
            }
            ast::Statement::While(w) => {
                let head = self.new_label();
                let exit = self.new_label();
                self.place_label(head);
                let test = self.loop_condition(Some(&w.node.expression), exit, span);
                self.loop_body(&w.node.statement, exit, head);
                self.emit_goto(vec![head], span);
                self.loop_exit(test, exit);
            }
            ast::Statement::DoWhile(w) => {
                let head = self.new_label();
                let exit = self.new_label();
                let test = self.new_label();
                self.place_label(head);
                self.loop_body(&w.node.statement, exit, test);
                self.place_label(test);
                let cond = self.condition(&w.node.expression);
                let espan = self.span(w.node.expression.span);
                match cond.as_const() {
                    Some(0) => {}
                    Some(_) => self.emit_goto(vec![head], espan),
                    _ => {
                        let on_false = self.begin_branch(&cond, espan);
                        self.emit_goto(vec![head], espan);
                        self.else_branch(on_false, &cond, espan);
                    }
                }
                self.place_label(exit);
            }
            ast::Statement::For(f) => {
                self.push_scope();
                match &f.node.initializer.node {
                    ast::ForInitializer::Empty | ast::ForInitializer::StaticAssert(_) => {}
                    ast::ForInitializer::Expression(e) => self.effect(e),
                    ast::ForInitializer::Declaration(d) => self.declaration(d),
                }
                let head = self.new_label();
                let exit = self.new_label();
                let step = self.new_label();
                self.place_label(head);
                let test = self.loop_condition(f.node.condition.as_deref(), exit, span);
                self.loop_body(&f.node.statement, exit, step);
                self.place_label(step);
                if let Some(e) = &f.node.step {
                    self.effect(e);
                }
                self.emit_goto(vec![head], span);
                self.loop_exit(test, exit);
                self.pop_scope();
            }
            ast::Statement::Switch(sw) => self.switch(sw, span),
            ast::Statement::Goto(label) => {
                let l = self.source_label(&label.node.name, span);
                self.emit_goto(vec![l], span);
            }
            ast::Statement::Continue => match self.current.as_ref().and_then(|f| f.continue_targets.last().copied()) {
                Some(l) => self.emit_goto(vec![l], span),
                None => self.error(span, "`continue` outside a loop"),
            },
            ast::Statement::Break => match self.current.as_ref().and_then(|f| f.break_targets.last().copied()) {
                Some(l) => self.emit_goto(vec![l], span),
                None => self.error(span, "`break` outside a loop or switch"),
            },
            ast::Statement::Return(value) => self.return_statement(value.as_deref(), span),
            ast::Statement::Asm(_) => self.unsupported(span, "inline assembly"),
        }
    }

    /// Emits the loop test `goto Lbody, Lfalse; Lbody: assume(c);` and returns what
    /// [`Lowerer::loop_exit`] needs to emit `Lfalse: assume(!c);` after the loop.
    fn loop_condition(&mut self, cond: Option<&'a Node<ast::Expression>>, exit: LabelId, _span: Span) -> Option<(LabelId, Expr, Span)> {
        let cond = cond?;
        let c = self.condition(cond);
        let cspan = self.span(cond.span);
        match c.as_const() {
            Some(0) => {
                self.emit_goto(vec![exit], cspan);
                None
            }
            Some(_) => None,
            None => {
                let on_false = self.begin_branch(&c, cspan);
                Some((on_false, c, cspan))
            }
        }
    }

    /// `Lfalse: assume(!c); exit:` (breaks jump past the negated test).
    fn loop_exit(&mut self, test: Option<(LabelId, Expr, Span)>, exit: LabelId) {
        if let Some((on_false, c, cspan)) = test {
            self.else_branch(on_false, &c, cspan);
        }
        self.place_label(exit);
    }

    fn loop_body(&mut self, body: &'a Node<ast::Statement>, exit: LabelId, next: LabelId) {
        if let Some(f) = self.current.as_mut() {
            f.break_targets.push(exit);
            f.continue_targets.push(next);
        }
        self.statement(body);
        if let Some(f) = self.current.as_mut() {
            f.break_targets.pop();
            f.continue_targets.pop();
        }
    }

    fn switch(&mut self, sw: &'a Node<ast::SwitchStatement>, span: Span) {
        let value = self.rvalue(&sw.node.expression);
        let value = match value.ty.is_integer() {
            true => {
                let t = super::expr::promoted(&value.ty);
                self.convert(value, &t, span)
            }
            false => {
                self.error(span, "switch quantity is not an integer");
                Expr::int(0, Type::INT)
            }
        };
        let mut cases = Vec::new();
        collect_cases(&sw.node.statement, &mut cases);
        let exit = self.new_label();
        // dispatch: one arm per case plus the default arm
        let mut arms = Vec::new();
        let mut case_labels = Vec::new();
        let mut conditions = Vec::new();
        let mut default_label = None;
        for (kind, lspan) in &cases {
            let label = self.new_label();
            case_labels.push(label);
            let lspan = self.span(*lspan);
            match kind {
                CaseKind::Default => default_label = Some(label),
                CaseKind::Value(e) => {
                    let v = self.case_constant(e, &value.ty, lspan);
                    let cond = self.binary_operation(c_ir::BinaryOp::Eq, value.clone(), v, lspan);
                    conditions.push((cond, label, lspan));
                }
                CaseKind::Range(lo, hi) => {
                    let lo = self.case_constant(lo, &value.ty, lspan);
                    let hi = self.case_constant(hi, &value.ty, lspan);
                    let a = self.binary_operation(c_ir::BinaryOp::Le, lo, value.clone(), lspan);
                    let b = self.binary_operation(c_ir::BinaryOp::Le, value.clone(), hi, lspan);
                    conditions.push((Expr::and(a, b), label, lspan));
                }
            }
        }
        for _ in 0..conditions.len() + 1 {
            arms.push(self.new_label());
        }
        self.emit_goto(arms.clone(), span);
        let mut none_matched: Option<Expr> = None;
        for (i, (cond, label, lspan)) in conditions.iter().enumerate() {
            self.place_label(arms[i]);
            self.emit(StmtKind::Assume { cond: cond.clone() }, *lspan);
            self.emit_goto(vec![*label], *lspan);
            let negated = super::expr::negate(cond.clone());
            none_matched = Some(match none_matched {
                None => negated,
                Some(acc) => Expr::and(acc, negated),
            });
        }
        self.place_label(arms[conditions.len()]);
        self.emit(StmtKind::Assume { cond: none_matched.unwrap_or_else(|| Expr::bool(true)) }, span);
        self.emit_goto(vec![default_label.unwrap_or(exit)], span);
        if let Some(f) = self.current.as_mut() {
            f.break_targets.push(exit);
            f.switches.push(SwitchContext { case_labels, next_case: 0 });
        }
        self.statement(&sw.node.statement);
        if let Some(f) = self.current.as_mut() {
            f.break_targets.pop();
            f.switches.pop();
        }
        self.place_label(exit);
    }

    fn case_constant(&mut self, e: &'a Node<ast::Expression>, ty: &Type, span: Span) -> Expr {
        match self.constant_value(e) {
            Some(v) => Expr::int(c_ir::interp::normalize(v, ty), ty.clone()),
            None => {
                self.error(span, "case label is not an integer constant");
                Expr::int(0, ty.clone())
            }
        }
    }

    fn labeled(&mut self, l: &'a Node<ast::LabeledStatement>, span: Span) {
        match &l.node.label.node {
            ast::Label::Identifier(id) => {
                let name = id.node.name.clone();
                let label = self.source_label(&name, span);
                let already = self.current.as_ref().map(|f| f.defined_source_labels.contains(&name)).unwrap_or(false);
                if already {
                    self.error(span, format!("redefinition of label `{name}`"));
                } else {
                    // two source labels on one statement: separate them with a skip
                    let position = self.current.as_ref().map(|f| f.body.len() as u32);
                    let shared = self.current.as_ref().is_some_and(|f| {
                        f.source_label_names.iter().enumerate().any(|(i, n)| n.is_some() && f.label_positions[i] == position)
                    });
                    if shared {
                        self.emit(StmtKind::Skip, span);
                    }
                    if let Some(f) = self.current.as_mut() {
                        f.defined_source_labels.insert(name.clone());
                        if let Some(slot) = f.source_label_names.get_mut(label.0 as usize) {
                            *slot = Some(name);
                        }
                    }
                    self.place_label(label);
                }
            }
            ast::Label::Case(_) | ast::Label::CaseRange(_) | ast::Label::Default => {
                let label = self.current.as_mut().and_then(|f| {
                    let sw = f.switches.last_mut()?;
                    let l = sw.case_labels.get(sw.next_case).copied();
                    sw.next_case += 1;
                    l
                });
                match label {
                    Some(l) => self.place_label(l),
                    None => self.error(span, "`case` or `default` outside a switch"),
                }
            }
        }
        self.statement(&l.node.statement);
    }

    fn source_label(&mut self, name: &str, span: Span) -> LabelId {
        if let Some(l) = self.current.as_ref().and_then(|f| f.source_labels.get(name).copied()) {
            return l;
        }
        let l = self.new_label();
        if let Some(f) = self.current.as_mut() {
            f.source_labels.insert(name.to_string(), l);
            f.source_label_spans.insert(name.to_string(), span);
        }
        l
    }

    fn return_statement(&mut self, value: Option<&'a Node<ast::Expression>>, span: Span) {
        let (return_var, return_label, return_type) = match self.current.as_ref() {
            Some(f) => (f.return_var, f.return_label, f.return_type.clone()),
            None => return,
        };
        match (value, return_var) {
            (Some(e), Some(rv)) => {
                let target = self.var_expr(rv);
                if let ast::Expression::Call(c) = &e.node {
                    let espan = self.span(e.span);
                    match self.call(c, Some(target.clone()), true, espan) {
                        Some(v) if v != target => {
                            let v = self.convert(v, &return_type, espan);
                            self.emit(StmtKind::Assign { lhs: target, rhs: v }, span);
                        }
                        Some(_) => {}
                        None => self.error(espan, "a call to a function returning void used as a value"),
                    }
                } else {
                    let v = self.rvalue(e);
                    let v = self.convert(v, &return_type, span);
                    self.emit(StmtKind::Assign { lhs: target, rhs: v }, span);
                }
            }
            (Some(e), None) => self.effect(e),
            (None, Some(_)) => {
                // `return;` in a non-void function: the value stays undefined
            }
            (None, None) => {}
        }
        self.emit_goto(vec![return_label], span);
    }
}
