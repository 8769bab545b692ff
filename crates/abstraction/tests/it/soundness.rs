//! Soundness on random programs: every concrete run of the interpreter is matched by the
//! boolean program (each predicate variable holding its predicate's value), and the lattice
//! and exact strategies agree on every strengthening.

use crate::support::{assert_run_is_simulated, assert_run_within_invariants, assert_strategies_agree, Step};
use c_ir::interp::{run_observed, Limits};
use c_ir::{BinaryOp, Expr, PredicateSet, ProcId, Procedure, Program, Stmt, StmtKind, Type, Var, VarKind};
use diagnostics::Span;
use abstraction::{abstract_program, AbstractionConfig};
use proptest::prelude::*;

const TY: Type = Type::CHAR;

#[derive(Clone, Debug)]
enum Operand {
    Var(usize),
    Const(i8),
}

#[derive(Clone, Debug)]
enum RandomStmt {
    Assign(usize, Operand, Option<(bool, i8)>),
    Havoc(usize),
    Assume(BinaryOp, usize, Operand),
    Goto(Vec<usize>),
}

fn operand() -> impl Strategy<Value = Operand> {
    prop_oneof![(0usize..3).prop_map(Operand::Var), (-3i8..6).prop_map(Operand::Const)]
}

fn relation() -> impl Strategy<Value = BinaryOp> {
    prop_oneof![Just(BinaryOp::Lt), Just(BinaryOp::Le), Just(BinaryOp::Eq), Just(BinaryOp::Ne)]
}

fn random_stmt(len: usize) -> impl Strategy<Value = RandomStmt> {
    prop_oneof![
        3 => (0usize..3, operand(), proptest::option::of((any::<bool>(), -2i8..3))).prop_map(|(v, o, a)| RandomStmt::Assign(v, o, a)),
        1 => (0usize..3).prop_map(RandomStmt::Havoc),
        2 => (relation(), 0usize..3, operand()).prop_map(|(r, v, o)| RandomStmt::Assume(r, v, o)),
        1 => proptest::collection::vec(0..len, 1..3).prop_map(RandomStmt::Goto),
    ]
}

fn build(stmts: &[RandomStmt], preds: &[(BinaryOp, usize, Operand)]) -> (Program, PredicateSet) {
    let mut program = Program::default();
    let vars: Vec<_> = ["x", "y", "z"]
        .iter()
        .map(|n| {
            program.add_var(Var { name: n.to_string(), source_name: n.to_string(), ty: TY, kind: VarKind::Local(ProcId(0)), span: Span::default(), address_taken: false })
        })
        .collect();
    let var = |i: usize| Expr::var(vars[i], TY);
    let op = |o: &Operand| match o {
        Operand::Var(i) => var(*i),
        Operand::Const(c) => Expr::int(*c as i128, TY),
    };
    let mut body: Vec<Stmt> = stmts
        .iter()
        .map(|s| {
            let kind = match s {
                RandomStmt::Assign(v, o, add) => {
                    let rhs = match add {
                        Some((plus, c)) => Expr::binary(if *plus { BinaryOp::Add } else { BinaryOp::Sub }, op(o), Expr::int(*c as i128, TY)),
                        None => op(o),
                    };
                    StmtKind::Assign { lhs: var(*v), rhs }
                }
                RandomStmt::Havoc(v) => StmtKind::Havoc { lhs: var(*v) },
                RandomStmt::Assume(r, v, o) => StmtKind::Assume { cond: Expr::binary(*r, var(*v), op(o)) },
                RandomStmt::Goto(t) => StmtKind::Goto { targets: t.iter().map(|&i| i as u32).collect() },
            };
            Stmt { kind, span: Span::default(), label: None }
        })
        .collect();
    body.push(Stmt { kind: StmtKind::Return { value: None }, span: Span::default(), label: None });
    for (i, s) in body.iter_mut().enumerate() {
        s.label = Some(format!("L{i}"));
    }
    program.procs.push(Procedure { name: "main".into(), formals: vec![], locals: vars.clone(), ret_var: None, ret_ty: Type::Void, body, span: Span::default() });
    program.entry = Some(ProcId(0));
    let mut set = PredicateSet::default();
    for (r, v, o) in preds {
        set.insert(Some(ProcId(0)), Expr::binary(*r, var(*v), op(o)));
    }
    (program, set)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
    #[test]
    fn concrete_runs_are_simulated_by_the_abstraction(
        stmts in proptest::collection::vec(random_stmt(8), 1..8),
        preds in proptest::collection::vec((relation(), 0usize..3, operand()), 1..4),
        seeds in proptest::collection::vec(any::<i8>(), 8),
    ) {
        let (program, predicates) = build(&stmts, &preds);
        let (lattice, exact) = assert_strategies_agree(&program, &predicates);
        // cones cut after their first layer: less precise, still sound
        let mut bounded_config = AbstractionConfig::new(abstraction::Strategy::Exact);
        bounded_config.max_cone = Some(1);
        let (bounded, _) = abstract_program(&program, &predicates, &bounded_config);
        for abstraction in [&lattice, &exact, &bounded] {
            let outcome = model_check::check(&abstraction.program, &model_check::Config::default());
            for run in 0..4 {
                let mut k = run;
                let mut inputs = |_: &Type| { k += 1; seeds[k % seeds.len()] as i128 + run as i128 };
                let preds: Vec<Expr> = abstraction.variables.iter().map(|v| v.predicate.clone()).collect();
                let mut steps = Vec::new();
                run_observed(&program, &mut inputs, &Limits::new(60), &mut |at, state| {
                    steps.push((at, preds.iter().map(|p| state.eval(p).map(|v| v != 0)).collect::<Vec<_>>()));
                });
                if std::env::var("SHOW").is_ok() { eprintln!("steps {} calls {}\n{}", steps.len(), abstraction.statistics.prover_calls, abstraction.print_bebop()); }
                assert_run_is_simulated(abstraction, "main", &steps);
                let observed: Vec<Step> = steps.into_iter().map(|(at, values)| Step { at, depth: 0, values }).collect();
                assert_run_within_invariants(abstraction, &outcome, &program, &observed);
            }
        }
    }
}
