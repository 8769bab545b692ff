//! Soundness with procedure calls: random programs where `main` calls
//! `char f(char a, char *q)` (formal parameter, pointer to a caller's local or to the global,
//! return value, global modified by the callee, formal modified by the callee; `f` calls itself
//! less often, passing its own formal, local, the global or `q`) with predicates
//! over locals, globals, formals, `*q` and the symbolic constants `'a`, `'q` (as `*'q`). Every concrete run of
//! the interpreter must be matched by the boolean program with each predicate variable holding
//! its predicate's value (both strategies, which must also agree), and every concrete state
//! must lie within the model checker's invariant at its statement.

use crate::support::{assert_calls_are_simulated, assert_run_within_invariants, assert_strategies_agree, Step};
use c_ir::interp::{run_observed, Limits};
use c_ir::{BinaryOp, Expr, PredicateSet, ProcId, Procedure, Program, Stmt, StmtKind, Type, Var, VarId, VarKind};
use diagnostics::Span;
use proptest::prelude::*;

const TY: Type = Type::CHAR;
const MAIN: ProcId = ProcId(0);
const F: ProcId = ProcId(1);

/// An operand: one of the procedure's value terms (see [`Terms`]) or a constant.
#[derive(Clone, Debug)]
enum Operand {
    Term(usize),
    Const(i8),
}

#[derive(Clone, Debug)]
enum RandomStmt {
    /// `lvalue = operand (+/- c)`.
    Assign(usize, Operand, Option<(bool, i8)>),
    Havoc(usize),
    Assume(BinaryOp, usize, Operand),
    Goto(Vec<usize>),
    /// `[lvalue =] f(operand, &target)` (`f` may call itself).
    Call(Option<usize>, Operand, usize),
}

fn operand(terms: usize) -> impl Strategy<Value = Operand> {
    prop_oneof![(0..terms).prop_map(Operand::Term), (-2i8..4).prop_map(Operand::Const)]
}

fn relation() -> impl Strategy<Value = BinaryOp> {
    prop_oneof![Just(BinaryOp::Lt), Just(BinaryOp::Le), Just(BinaryOp::Eq), Just(BinaryOp::Ne)]
}

/// `lvalues` assignable terms (a prefix of the `terms` readable ones); `main` calls often, `f`
/// (recursively) rarely.
fn random_stmt(len: usize, lvalues: usize, terms: usize, in_main: bool) -> BoxedStrategy<RandomStmt> {
    let assign = (0..lvalues, operand(terms), proptest::option::of((any::<bool>(), -1i8..3))).prop_map(|(v, o, a)| RandomStmt::Assign(v, o, a));
    let havoc = (0..lvalues).prop_map(RandomStmt::Havoc);
    let assume = (relation(), 0..terms, operand(terms)).prop_map(|(r, v, o)| RandomStmt::Assume(r, v, o));
    let goto = proptest::collection::vec(0..len, 1..3).prop_map(RandomStmt::Goto);
    let call = (proptest::option::of(0..lvalues), operand(terms), 0..lvalues).prop_map(|(l, a, t)| RandomStmt::Call(l, a, t));
    let calls = if in_main { 3 } else { 1 };
    prop_oneof![3 => assign, 1 => havoc, 2 => assume, 1 => goto, calls => call].boxed()
}

type RandomPredicate = (BinaryOp, usize, Operand);

fn predicate(terms: usize) -> impl Strategy<Value = RandomPredicate> {
    (relation(), 0..terms, operand(terms))
}

struct Builder {
    program: Program,
    g: VarId,
    /// main's terms: x, y, z, g (all assignable)
    main_terms: Vec<Expr>,
    /// f's terms: a, t, g, *q (assignable), then 'a, *'q
    f_terms: Vec<Expr>,
}

fn add(program: &mut Program, name: &str, ty: Type, kind: VarKind) -> VarId {
    program.add_var(Var { name: name.into(), source_name: name.into(), ty, kind, span: Span::default(), address_taken: false })
}

impl Builder {
    fn new() -> Builder {
        let mut program = Program::default();
        let ptr = Type::pointer_to(TY);
        let g = add(&mut program, "g", TY, VarKind::Global);
        program.globals.push(g);
        let main_vars: Vec<VarId> = ["x", "y", "z"].iter().map(|n| add(&mut program, n, TY, VarKind::Local(MAIN))).collect();
        let a = add(&mut program, "a", TY, VarKind::Formal(F, 0));
        let q = add(&mut program, "q", ptr.clone(), VarKind::Formal(F, 1));
        let a0 = add(&mut program, "'a", TY, VarKind::SymbolicConst { proc: F, of: a });
        let q0 = add(&mut program, "'q", ptr.clone(), VarKind::SymbolicConst { proc: F, of: q });
        let t = add(&mut program, "t", TY, VarKind::Local(F));
        let v = |id: VarId, ty: &Type| Expr::var(id, ty.clone());
        let mut main_terms: Vec<Expr> = main_vars.iter().map(|&x| v(x, &TY)).collect();
        main_terms.push(v(g, &TY));
        let f_terms = vec![v(a, &TY), v(t, &TY), v(g, &TY), Expr::deref(v(q, &ptr)), v(a0, &TY), Expr::deref(v(q0, &ptr))];
        program.procs.push(Procedure { name: "main".into(), formals: vec![], locals: main_vars, ret_var: None, ret_ty: Type::Void, body: vec![], span: Span::default() });
        program.procs.push(Procedure { name: "f".into(), formals: vec![a, q], locals: vec![a0, q0, t], ret_var: None, ret_ty: TY, body: vec![], span: Span::default() });
        program.entry = Some(MAIN);
        Builder { program, g, main_terms, f_terms }
    }

    fn operand(terms: &[Expr], o: &Operand) -> Expr {
        match o {
            Operand::Term(i) => terms[*i].clone(),
            Operand::Const(c) => Expr::int(*c as i128, TY),
        }
    }

    fn body(&mut self, proc: ProcId, stmts: &[RandomStmt], offset: usize) -> Vec<Stmt> {
        let terms = if proc == MAIN { self.main_terms.clone() } else { self.f_terms.clone() };
        let mut body = Vec::new();
        for s in stmts {
            let kind = match s {
                RandomStmt::Assign(l, o, add) => {
                    let value = Self::operand(&terms, o);
                    let rhs = match add {
                        Some((plus, c)) => Expr::binary(if *plus { BinaryOp::Add } else { BinaryOp::Sub }, value, Expr::int(*c as i128, TY)),
                        None => value,
                    };
                    StmtKind::Assign { lhs: terms[*l].clone(), rhs }
                }
                RandomStmt::Havoc(l) => StmtKind::Havoc { lhs: terms[*l].clone() },
                RandomStmt::Assume(r, t, o) => StmtKind::Assume { cond: Expr::binary(*r, terms[*t].clone(), Self::operand(&terms, o)) },
                // targets within the body (its statements and the return)
                RandomStmt::Goto(targets) => StmtKind::Goto { targets: targets.iter().map(|&t| (t % (stmts.len() + 1) + offset) as u32).collect() },
                RandomStmt::Call(lhs, arg, target) => {
                    let target_expr = terms[*target].clone();
                    if let c_ir::ExprKind::Var(v) = target_expr.kind {
                        self.program.vars[v.0 as usize].address_taken = true;
                    }
                    StmtKind::Call { lhs: lhs.map(|l| terms[l].clone()), callee: F, args: vec![Self::operand(&terms, arg), Expr::addr_of(target_expr)] }
                }
            };
            body.push(Stmt { kind, span: Span::default(), label: None });
        }
        body
    }

    fn build(mut self, main: &[RandomStmt], f: &[RandomStmt], preds: &[(Option<ProcId>, RandomPredicate)]) -> (Program, PredicateSet) {
        let mut main_body = self.body(MAIN, main, 0);
        main_body.push(Stmt { kind: StmtKind::Return { value: None }, span: Span::default(), label: None });
        // f: 'a = a; 'q = q; body; return t;
        let (a, q) = (self.program.procs[1].formals[0], self.program.procs[1].formals[1]);
        let (a0, q0, t) = (self.program.procs[1].locals[0], self.program.procs[1].locals[1], self.program.procs[1].locals[2]);
        let ptr = Type::pointer_to(TY);
        let mut f_body = vec![
            Stmt { kind: StmtKind::Assign { lhs: Expr::var(a0, TY), rhs: Expr::var(a, TY) }, span: Span::default(), label: None },
            Stmt { kind: StmtKind::Assign { lhs: Expr::var(q0, ptr.clone()), rhs: Expr::var(q, ptr) }, span: Span::default(), label: None },
        ];
        f_body.extend(self.body(F, f, 2));
        f_body.push(Stmt { kind: StmtKind::Return { value: Some(Expr::var(t, TY)) }, span: Span::default(), label: None });
        for body in [&mut main_body, &mut f_body] {
            for (i, s) in body.iter_mut().enumerate() {
                s.label = Some(format!("L{i}"));
            }
        }
        self.program.procs[0].body = main_body;
        self.program.procs[1].body = f_body;
        let mut set = PredicateSet::default();
        for (scope, (r, t, o)) in preds {
            let terms = match scope {
                Some(MAIN) => &self.main_terms,
                Some(_) => &self.f_terms,
                None => &vec![Expr::var(self.g, TY)],
            };
            let lhs = terms[*t % terms.len()].clone();
            let rhs = match o {
                Operand::Term(i) => terms[*i % terms.len()].clone(),
                Operand::Const(c) => Expr::int(*c as i128, TY),
            };
            set.insert(*scope, Expr::binary(*r, lhs, rhs));
        }
        (self.program, set)
    }
}

fn scoped_predicates() -> impl Strategy<Value = Vec<(Option<ProcId>, RandomPredicate)>> {
    let main = proptest::collection::vec(predicate(4).prop_map(|p| (Some(MAIN), p)), 1..4);
    let f = proptest::collection::vec(predicate(6).prop_map(|p| (Some(F), p)), 1..4);
    let global = proptest::collection::vec(predicate(1).prop_map(|p| (None, p)), 0..2);
    (main, f, global).prop_map(|(mut m, f, g)| {
        m.extend(f);
        m.extend(g);
        m
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]
    #[test]
    fn concrete_runs_with_calls_are_simulated(
        main in proptest::collection::vec(random_stmt(8, 4, 4, true), 1..8),
        f in proptest::collection::vec(random_stmt(6, 4, 6, false), 0..6),
        preds in scoped_predicates(),
        seeds in proptest::collection::vec(any::<i8>(), 8),
    ) {
        let (program, predicates) = Builder::new().build(&main, &f, &preds);
        let (lattice, exact) = assert_strategies_agree(&program, &predicates);
        for abstraction in [&lattice, &exact] {
            let diags = boolprog::validate(&abstraction.program);
            prop_assert!(!diagnostics::has_errors(&diags), "{diags:?}\n{}", abstraction.print_bebop());
            let preds: Vec<Expr> = abstraction.variables.iter().map(|v| v.predicate.clone()).collect();
            let outcome = model_check::check(&abstraction.program, &model_check::Config::default());
            for run in 0..4 {
                let mut k = run;
                let mut inputs = |_: &Type| { k += 1; seeds[k % seeds.len()] as i128 + run as i128 };
                let mut steps = Vec::new();
                run_observed(&program, &mut inputs, &Limits::new(80), &mut |at, state| {
                    let values = preds.iter().map(|p| state.eval(p).map(|v| v != 0)).collect();
                    steps.push(Step { at, depth: state.call_depth(), values });
                });
                if std::env::var("SHOW").is_ok() {
                    eprintln!("{}\n{}\n{:#?}", c_ir::display_program(&program), abstraction.print_bebop(), abstraction.calls);
                }
                assert_calls_are_simulated(abstraction, &program, &steps);
                assert_run_within_invariants(abstraction, &outcome, &program, &steps);
            }
        }
    }
}
