//! parse → print → parse gives the same program, in both syntaxes (proptest over random ASTs).

use boolprog::{parse_syntax, print_bebop, print_c_like, strip_spans, Expr, Procedure, Program, Stmt, StmtKind, VarDecl};
use proptest::prelude::*;

const NAMES: &[&str] = &["a", "b", "t1", "{x<5}", "{p->next==NULL}", "{a[i] != 0}", "_tmp"];
const LABELS: &[&str] = &["L0", "L1", "ERROR", "loop_head"];

fn name() -> impl Strategy<Value = String> {
    prop::sample::select(NAMES).prop_map(str::to_string)
}

fn expr() -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![
        any::<bool>().prop_map(Expr::Const),
        name().prop_map(Expr::Var),
        Just(Expr::Nondet),
    ];
    leaf.prop_recursive(4, 24, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|a| Expr::Not(Box::new(a))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Expr::And(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Expr::Or(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Expr::Xor(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Expr::Eq(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Expr::Implies(Box::new(a), Box::new(b))),
            (inner.clone(), inner).prop_map(|(a, b)| Expr::Choose(Box::new(a), Box::new(b))),
        ]
    })
}

fn simple_stmt() -> impl Strategy<Value = Stmt> {
    prop_oneof![
        Just(Stmt::skip()),
        prop::collection::vec((name(), expr()), 1..3).prop_map(|pairs| {
            let (lhs, rhs) = pairs.into_iter().unzip();
            Stmt::assign(lhs, rhs)
        }),
        expr().prop_map(Stmt::assume),
        expr().prop_map(Stmt::assert),
        prop::collection::vec(prop::sample::select(LABELS).prop_map(str::to_string), 1..3).prop_map(Stmt::goto),
        (prop::collection::vec(name(), 0..3), prop::collection::vec(expr(), 0..3))
            .prop_map(|(lhs, args)| Stmt::call(lhs, "callee", args)),
        prop::collection::vec(expr(), 0..3).prop_map(Stmt::ret),
    ]
}

fn stmt() -> impl Strategy<Value = Stmt> {
    simple_stmt().prop_recursive(3, 30, 4, |inner| {
        prop_oneof![
            (expr(), prop::collection::vec(inner.clone(), 0..3), prop::collection::vec(inner.clone(), 0..3))
                .prop_map(|(c, t, e)| Stmt::if_then_else(c, t, e)),
            (expr(), prop::collection::vec(inner, 0..3)).prop_map(|(c, b)| Stmt::while_loop(c, b)),
        ]
    })
}

fn labelled(stmts: Vec<Stmt>, labels: Vec<Option<usize>>) -> Vec<Stmt> {
    stmts
        .into_iter()
        .zip(labels.into_iter().chain(std::iter::repeat(None)))
        .map(|(s, l)| match l {
            Some(i) => s.with_label(LABELS[i % LABELS.len()]),
            None => s,
        })
        .collect()
}

fn procedure() -> impl Strategy<Value = Procedure> {
    (
        prop::sample::select(&["main", "callee", "f_2"][..]),
        prop::collection::vec(name(), 0..3),
        prop::collection::vec(name(), 0..3),
        0usize..4,
        prop::option::of(expr()),
        prop::collection::vec(stmt(), 0..6),
        prop::collection::vec(prop::option::of(0usize..4), 0..6),
    )
        .prop_map(|(n, formals, locals, returns, enforce, body, labels)| Procedure {
            formals,
            locals,
            returns,
            enforce,
            body: labelled(body, labels),
            ..Procedure::new(n)
        })
}

pub(crate) fn program() -> impl Strategy<Value = Program> {
    (prop::collection::vec(name(), 0..4), prop::collection::vec(procedure(), 0..3)).prop_map(|(globals, procs)| Program {
        globals: globals.into_iter().map(VarDecl::new).collect(),
        procs,
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn bebop_round_trip(p in program()) {
        let printed = print_bebop(&p);
        let (again, diags) = parse_syntax(&printed.text);
        prop_assert!(diags.is_empty(), "{:?}\n{}", diags, printed.text);
        prop_assert_eq!(strip_spans(again), p, "{}", printed.text);
    }

    #[test]
    fn c_like_round_trip(p in program()) {
        let printed = print_c_like(&p);
        let (again, diags) = parse_syntax(&printed.text);
        prop_assert!(diags.is_empty(), "{:?}\n{}", diags, printed.text);
        prop_assert_eq!(strip_spans(again), p, "{}", printed.text);
    }

    #[test]
    fn printed_lines_point_at_their_statements(p in program()) {
        for printed in [print_bebop(&p), print_c_like(&p)] {
            let lines: Vec<&str> = printed.text.lines().collect();
            for info in &printed.lines {
                let proc = &p.procs[info.proc.0 as usize];
                let stmt = boolprog::statements_in_order(&proc.body)[info.stmt.0 as usize];
                let line = lines[info.line as usize - 1].trim_start();
                let line = match &stmt.label { Some(l) => line.strip_prefix(&format!("{l}: ")).unwrap_or(""), None => line };
                let keyword = match &stmt.kind {
                    StmtKind::Skip => "skip",
                    StmtKind::Assume(_) => "assume",
                    StmtKind::Assert(_) => "assert",
                    StmtKind::Goto(_) => "goto",
                    StmtKind::If { .. } => "if",
                    StmtKind::While { .. } => "while",
                    StmtKind::Return(_) => "return",
                    StmtKind::Assign { lhs, .. } => lhs[0].as_str(),
                    StmtKind::Call { lhs, callee, .. } => lhs.first().map(String::as_str).unwrap_or(callee),
                };
                prop_assert!(line.starts_with(keyword), "line {} `{}` is not {:?}", info.line, line, stmt.kind);
            }
            let count: usize = p.procs.iter().map(|q| boolprog::statements_in_order(&q.body).len()).sum();
            prop_assert_eq!(printed.lines.len(), count);
        }
    }

    #[test]
    fn parser_never_panics_on_garbage(text in "[a-z{}();:=!&|*, \\n0-9<>]{0,200}") {
        let _ = boolprog::parse(&text);
    }
}
