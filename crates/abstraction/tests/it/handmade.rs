//! Abstractions of small hand-built IR programs (no front end involved).

use abstraction::{abstract_program, AbstractionConfig, Strategy};
use c_ir::{BinaryOp, Expr, PredicateSet, ProcId, Procedure, Program, Stmt, StmtKind, Type, Var, VarId, VarKind};
use diagnostics::Span;

fn var(program: &mut Program, name: &str, kind: VarKind) -> VarId {
    program.add_var(Var { name: name.into(), source_name: name.into(), ty: Type::INT, kind, span: Span::default(), address_taken: false })
}

fn stmt(kind: StmtKind) -> Stmt {
    Stmt { kind, span: Span::default(), label: None }
}

/// `x = x + 1;` with predicates `x < 5`, `x == 2` (polymorphic §4.3).
fn increment_program() -> (Program, PredicateSet) {
    let mut program = Program::default();
    let x = var(&mut program, "x", VarKind::Local(ProcId(0)));
    let xe = Expr::var(x, Type::INT);
    let body = vec![
        stmt(StmtKind::Assign { lhs: xe.clone(), rhs: Expr::binary(BinaryOp::Add, xe.clone(), Expr::int(1, Type::INT)) }),
        stmt(StmtKind::Assume { cond: Expr::binary(BinaryOp::Lt, xe.clone(), Expr::int(2, Type::INT)) }),
        stmt(StmtKind::Return { value: None }),
    ];
    program.procs.push(Procedure {
        name: "main".into(),
        formals: vec![],
        locals: vec![x],
        ret_var: None,
        ret_ty: Type::Void,
        body,
        span: Span::default(),
    });
    program.entry = Some(ProcId(0));
    let mut preds = PredicateSet::default();
    preds.insert(Some(ProcId(0)), Expr::binary(BinaryOp::Lt, xe.clone(), Expr::int(5, Type::INT)));
    preds.insert(Some(ProcId(0)), Expr::eq(xe, Expr::int(2, Type::INT)));
    (program, preds)
}

#[test]
fn increment_with_both_strategies() {
    let (program, preds) = increment_program();
    for strategy in [Strategy::Lattice, Strategy::Exact] {
        let mut config = AbstractionConfig::new(strategy);
        config.record_lattices = true;
        let (abstraction, diags) = abstract_program(&program, &preds, &config);
        assert!(diags.is_empty(), "{diags:?}");
        let text = abstraction.print_bebop();
        // The paper's `choose({x==2}, !{x<5})` assumes unbounded integers; with C's 32-bit
        // wrap-around `x = INT_MAX` makes `x+1 < 5` true, so only `{x==2}` survives.
        assert!(text.contains("{x < 5}, {x == 2} := choose({x == 2}, 0), choose(0, "), "{strategy:?}\n{text}");
        assert!(text.contains("assume({x < 5} & !{x == 2})") || text.contains("assume(!{x == 2} & {x < 5})"), "{strategy:?}\n{text}");
        assert!(!abstraction.lattices.is_empty());
    }
}
