//! Integration tests of the points-to analysis on hand-built IR programs.

use c_ir::{BinaryOp, Expr, ExprKind, Field, ProcId, Procedure, Program, Stmt, StmtKind, StmtRef, StructDef, StructId, Type, Var, VarId, VarKind};
use diagnostics::Span;
use logic::MayAlias;
use points_to::{AbstractLocation, PointsTo};

struct Builder {
    program: Program,
}

impl Builder {
    fn new() -> Builder {
        Builder { program: Program::default() }
    }
    fn var(&mut self, name: &str, ty: Type, kind: VarKind) -> Expr {
        let id = self.program.add_var(Var {
            name: name.into(),
            source_name: name.into(),
            ty: ty.clone(),
            kind,
            span: Span::default(),
            address_taken: false,
        });
        if kind == VarKind::Global {
            self.program.globals.push(id);
        }
        Expr::var(id, ty)
    }
    fn proc(&mut self, name: &str, formals: Vec<VarId>, ret_var: Option<VarId>, body: Vec<StmtKind>) -> ProcId {
        let mut body: Vec<Stmt> = body.into_iter().map(|kind| Stmt { kind, span: Span::default(), label: None }).collect();
        body.push(Stmt { kind: StmtKind::Return { value: None }, span: Span::default(), label: None });
        self.program.procs.push(Procedure {
            name: name.into(),
            formals,
            locals: Vec::new(),
            ret_var,
            ret_ty: Type::Void,
            body,
            span: Span::default(),
        });
        ProcId(self.program.procs.len() as u32 - 1)
    }
}

fn id(e: &Expr) -> VarId {
    match e.kind {
        ExprKind::Var(v) => v,
        _ => VarId(u32::MAX),
    }
}
fn assign(l: &Expr, r: &Expr) -> StmtKind {
    StmtKind::Assign { lhs: l.clone(), rhs: r.clone() }
}
fn addr(e: &Expr) -> Expr {
    Expr::addr_of(e.clone())
}
fn deref(e: &Expr) -> Expr {
    Expr::deref(e.clone())
}

#[test]
fn c2bp_figure_2_star_p_cannot_alias_x_or_r() {
    // void foo(int *p, int x) { int r; ... *p = *p + x; r = bar(p, x); }, main() { int a; foo(&a, 1); }
    let mut b = Builder::new();
    let int_ptr = Type::pointer_to(Type::INT);
    let foo = ProcId(1);
    let bar = ProcId(2);
    let a = b.var("a", Type::INT, VarKind::Local(ProcId(0)));
    let p = b.var("p", int_ptr.clone(), VarKind::Formal(foo, 0));
    let x = b.var("x", Type::INT, VarKind::Formal(foo, 1));
    let r = b.var("r", Type::INT, VarKind::Local(foo));
    let q = b.var("q", int_ptr.clone(), VarKind::Formal(bar, 0));
    let y = b.var("y", Type::INT, VarKind::Formal(bar, 1));
    let l1 = b.var("l1", Type::INT, VarKind::Return(bar));
    b.proc("main", vec![], None, vec![StmtKind::Call { lhs: None, callee: foo, args: vec![addr(&a), Expr::int(1, Type::INT)] }]);
    b.proc(
        "foo",
        vec![id(&p), id(&x)],
        None,
        vec![
            assign(&deref(&p), &Expr::binary(BinaryOp::Add, deref(&p), x.clone())),
            StmtKind::Call { lhs: Some(r.clone()), callee: bar, args: vec![p.clone(), x.clone()] },
        ],
    );
    b.proc("bar", vec![id(&q), id(&y)], Some(id(&l1)), vec![assign(&l1, &y)]);
    let pt = PointsTo::analyze(&b.program);
    assert!(!pt.may_alias(&deref(&p), &x));
    assert!(!pt.may_alias(&deref(&p), &r));
    assert!(pt.may_alias(&deref(&p), &a));
    assert!(pt.may_alias(&deref(&p), &deref(&q)), "actuals flow into formals");
    assert_eq!(pt.points_to(&p), vec![AbstractLocation::Var(id(&a))]);
    assert_eq!(pt.points_to(&q), vec![AbstractLocation::Var(id(&a))]);
    // the WP of C2BP §4.3 with this alias information
    let phi = Expr::binary(BinaryOp::Le, deref(&p), Expr::int(0, Type::INT));
    let rhs = Expr::binary(BinaryOp::Add, deref(&p), x.clone());
    let wp = logic::wp_assign(&b.program, &pt, &deref(&p), &rhs, &phi);
    assert_eq!(c_ir::display_expr(&b.program, &wp), "*p + x <= 0");
}

#[test]
fn c2bp_section_4_2_with_and_without_alias() {
    // WP(x = 3, *p > 5): p = &y only (no alias) vs p = &x somewhere (may alias)
    for p_may_point_to_x in [false, true] {
        let mut b = Builder::new();
        let int_ptr = Type::pointer_to(Type::INT);
        let x = b.var("x", Type::INT, VarKind::Global);
        let y = b.var("y", Type::INT, VarKind::Global);
        let p = b.var("p", int_ptr, VarKind::Global);
        let mut body = vec![assign(&p, &addr(&y)), assign(&x, &Expr::int(3, Type::INT))];
        if p_may_point_to_x {
            body.push(assign(&p, &addr(&x)));
        }
        b.proc("main", vec![], None, body);
        let pt = PointsTo::analyze(&b.program);
        let phi = Expr::binary(BinaryOp::Gt, deref(&p), Expr::int(5, Type::INT));
        let wp = logic::wp_assign(&b.program, &pt, &x, &Expr::int(3, Type::INT), &phi);
        let shown = c_ir::display_expr(&b.program, &wp);
        if p_may_point_to_x {
            assert_eq!(shown, "&x != p && *p > 5");
        } else {
            assert_eq!(shown, "*p > 5");
        }
    }
}

#[test]
fn unification_through_pointer_assignments_malloc_and_fields() {
    let mut b = Builder::new();
    b.program.structs.push(StructDef { name: "node".into(), is_union: false, fields: vec![Field { name: "val".into(), ty: Type::INT }] });
    let node = Type::Struct(StructId(0));
    let node_ptr = Type::pointer_to(node.clone());
    b.program.structs[0].fields.push(Field { name: "next".into(), ty: node_ptr.clone() });
    let l1 = b.var("l1", node_ptr.clone(), VarKind::Global);
    let l2 = b.var("l2", node_ptr.clone(), VarKind::Global);
    let other = b.var("other", node_ptr.clone(), VarKind::Global);
    let pp = b.var("pp", Type::pointer_to(node_ptr.clone()), VarKind::Global);
    let next = |e: &Expr| Expr::new(ExprKind::Field(Box::new(deref(e)), 1), node_ptr.clone());
    let val = |e: &Expr| Expr::new(ExprKind::Field(Box::new(deref(e)), 0), Type::INT);
    let size = Expr::int(16, Type::ULONG);
    b.proc(
        "main",
        vec![],
        None,
        vec![
            StmtKind::Malloc { lhs: l1.clone(), size: size.clone() },
            StmtKind::Malloc { lhs: l2.clone(), size: size.clone() },
            StmtKind::Malloc { lhs: other.clone(), size },
            assign(&next(&l1), &l2),
            assign(&pp, &addr(&l1)),
            assign(&deref(&pp), &next(&l1)),
        ],
    );
    let pt = PointsTo::analyze(&b.program);
    let site = |i: u32| AbstractLocation::Malloc(StmtRef { proc: ProcId(0), index: i });
    // l1 = l1->next through *pp merges the two list cells, but not the third allocation
    assert!(pt.points_to(&l1).contains(&site(0)) && pt.points_to(&l1).contains(&site(1)));
    assert!(pt.may_alias(&val(&l1), &val(&l2)));
    assert!(!pt.may_alias(&val(&l1), &val(&other)));
    assert!(pt.may_alias(&deref(&pp), &l1));
    assert!(!pt.may_alias(&deref(&pp), &l2), "pp only points to l1");
    assert_eq!(pt.points_to(&other), vec![site(2)]);
    assert!(pt.may_point_to(&pp, &l1));
    assert!(!pt.classes().is_empty());
    // different types never alias
    assert!(!pt.may_alias(&val(&l1), &next(&l1)));
}

#[test]
fn uncalled_formals_and_havoc_point_to_external_memory() {
    let mut b = Builder::new();
    let int_ptr = Type::pointer_to(Type::INT);
    let f = ProcId(0);
    let p = b.var("p", int_ptr.clone(), VarKind::Formal(f, 0));
    let q = b.var("q", int_ptr.clone(), VarKind::Formal(f, 1));
    let h = b.var("h", int_ptr.clone(), VarKind::Local(f));
    let never = b.var("never", int_ptr.clone(), VarKind::Local(f));
    let g = b.var("g", Type::INT, VarKind::Global);
    b.proc("entry", vec![id(&p), id(&q)], None, vec![StmtKind::Havoc { lhs: h.clone() }]);
    let pt = PointsTo::analyze(&b.program);
    assert!(pt.may_alias(&deref(&p), &deref(&q)), "inputs may alias each other");
    assert!(pt.may_alias(&deref(&p), &deref(&h)));
    assert!(!pt.may_alias(&deref(&p), &g), "g's address is never taken");
    assert!(!pt.may_alias(&deref(&never), &deref(&p)), "a pointer never assigned points nowhere");
    assert_eq!(pt.points_to(&p), vec![AbstractLocation::External]);
    // robust on odd expressions
    let odd = Expr::new(ExprKind::App(c_ir::Symbol::Named("f".into()), vec![]), int_ptr.clone());
    assert!(pt.may_alias(&deref(&odd), &deref(&p)));
    let bad = Expr::var(VarId(999), int_ptr);
    let _ = pt.may_alias(&deref(&bad), &deref(&p));
    let _ = pt.points_to(&bad);
}
