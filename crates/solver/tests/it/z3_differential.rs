//! Differential testing against Z3 at 32 bits (C widths, 64-bit pointers) on random and
//! hand-written formulas with pointer, field and array terms. Requires `z3` on the PATH.

use crate::builder::*;
use crate::generate::{Rng, Vocabulary};
use c_ir::{BinaryOp::*, Expr, ExprKind, Program, Type};
use solver::{to_smtlib, Answer, Solver, SolverConfig};
use std::io::Write;
use std::process::{Command, Stdio};

/// Runs every script through one `z3 -in` process; one answer line per script.
fn z3_answers(scripts: &[String]) -> Vec<String> {
    let child = Command::new("z3").arg("-in").stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => panic!("the differential test needs Z3: could not run `z3 -in` ({e}); install it with `apt-get install -y z3`"),
    };
    {
        let mut stdin = child.stdin.take().expect("piped stdin");
        for s in scripts {
            stdin.write_all(s.as_bytes()).expect("write to z3");
            stdin.write_all(b"(reset)\n").expect("write to z3");
        }
    }
    let out = child.wait_with_output().expect("z3 output");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let lines: Vec<String> = text.lines().map(|l| l.trim().to_string()).filter(|l| !l.is_empty()).collect();
    assert_eq!(lines.len(), scripts.len(), "z3 answered {} of {} queries:\n{text}", lines.len(), scripts.len());
    for (l, s) in lines.iter().zip(scripts) {
        assert!(l == "sat" || l == "unsat", "z3 said {l} for\n{s}");
    }
    lines
}

struct World {
    b: Builder,
    int_leaves: Vec<Expr>,
    pointer_atoms: Vec<Expr>,
    x: Expr,
    y: Expr,
    u: Expr,
    p: Expr,
    q: Expr,
    n1: Expr,
    n2: Expr,
    s: Expr,
    arr: Expr,
}

fn world() -> World {
    let mut b = Builder::new();
    let x = b.var_taken("x", Type::INT);
    let y = b.var_taken("y", Type::INT);
    let u = b.var("u", Type::UINT);
    let int_ptr = Type::pointer_to(Type::INT);
    let p = b.var("p", int_ptr.clone());
    let q = b.var("q", int_ptr.clone());
    // struct node { int val; struct node *next; }
    let node = b.structure("node", &[("val", Type::INT)]);
    let node_ptr = Type::pointer_to(node.clone());
    b.program.structs[0].fields.push(c_ir::Field { name: "next".into(), ty: node_ptr.clone() });
    let n1 = b.var("n1", node_ptr.clone());
    let n2 = b.var("n2", node_ptr.clone());
    let s = b.var_taken("s", node.clone());
    let arr = b.var_taken("arr", Type::Array(Box::new(Type::INT), 4));
    let f = |base: &Expr, i: u32| field(&b.program, base, i);
    let n1_val = f(&deref(&n1), 0);
    let n2_val = f(&deref(&n2), 0);
    let n1_next = f(&deref(&n1), 1);
    let n1_next_val = f(&deref(&n1_next), 0);
    let s_val = f(&s, 0);
    let index = |i: Expr| Expr::new(ExprKind::Index(Box::new(arr.clone()), Box::new(i)), Type::INT);
    let int_leaves = vec![
        x.clone(),
        y.clone(),
        deref(&p),
        deref(&q),
        n1_val.clone(),
        n2_val.clone(),
        n1_next_val.clone(),
        s_val.clone(),
        index(int(1)),
        index(x.clone()),
    ];
    let null_int = Expr::int(0, int_ptr.clone());
    let null_node = Expr::int(0, node_ptr.clone());
    let pointer_atoms = vec![
        bin(Eq, &p, &q),
        bin(Eq, &p, &addr(&x)),
        bin(Eq, &p, &addr(&y)),
        bin(Eq, &q, &addr(&x)),
        bin(Eq, &q, &addr(&s_val)),
        bin(Eq, &p, &addr(&n1_val)),
        bin(Eq, &addr(&n1_val), &addr(&n2_val)),
        bin(Eq, &n1, &n2),
        bin(Eq, &n1_next, &n2),
        bin(Eq, &n1, &addr(&s)),
        bin(Eq, &p, &addr(&index(int(1)))),
        bin(Eq, &p, &null_int),
        bin(Ne, &n1, &null_node),
    ];
    World { b, int_leaves, pointer_atoms, x, y, u, p, q, n1, n2, s, arr }
}

fn random_formula(w: &World, voc: &Vocabulary, rng: &mut Rng, depth: u32) -> Expr {
    if depth == 0 || rng.chance(40) {
        if rng.chance(35) {
            return w.pointer_atoms[rng.below(w.pointer_atoms.len() as u64) as usize].clone();
        }
        let term_depth = rng.below(3) as u32;
        return voc.formula(rng, term_depth.min(1));
    }
    let d = depth - 1;
    match rng.below(4) {
        0 => Expr::logical_not(random_formula(w, voc, rng, d)),
        1 => Expr::and(random_formula(w, voc, rng, d), random_formula(w, voc, rng, d)),
        2 => Expr::or(random_formula(w, voc, rng, d), random_formula(w, voc, rng, d)),
        _ => Expr::binary(Implies, random_formula(w, voc, rng, d), random_formula(w, voc, rng, d)),
    }
}

/// Hand-written formulas with the answer we expect (true = satisfiable).
fn hand_written(w: &World) -> Vec<(Expr, bool)> {
    let p = &w.p;
    let q = &w.q;
    let x = &w.x;
    let y = &w.y;
    let prog = &w.b.program;
    let n1_val = field(prog, &deref(&w.n1), 0);
    let n2_val = field(prog, &deref(&w.n2), 0);
    let n1_next = field(prog, &deref(&w.n1), 1);
    let s_val = field(prog, &w.s, 0);
    let index = |i: i128| Expr::new(ExprKind::Index(Box::new(w.arr.clone()), Box::new(int(i))), Type::INT);
    let and = |a: Expr, b: Expr| Expr::and(a, b);
    let f_of = |e: &Expr| Expr::new(ExprKind::App(c_ir::Symbol::Named("f".into()), vec![e.clone()]), Type::INT);
    let fresh = logic::fresh_symbol("malloc_1", &p.ty);
    vec![
        (and(bin(Eq, p, &addr(x)), bin(Ne, &deref(p), x)), false),
        (and(bin(Eq, p, q), bin(Ne, &deref(p), &deref(q))), false),
        (and(bin(Eq, &addr(&n1_val), &addr(&n2_val)), bin(Ne, &w.n1, &w.n2)), false),
        (and(bin(Eq, &w.n1, &w.n2), bin(Ne, &n1_val, &n2_val)), false),
        (and(bin(Eq, p, &addr(&s_val)), bin(Ne, &deref(p), &s_val)), false),
        (and(bin(Eq, p, &addr(&index(1))), bin(Ne, &deref(p), &index(1))), false),
        (bin(Eq, &addr(&index(1)), &addr(&index(2))), false),
        (and(bin(Eq, &n1_next, &w.n1), bin(Ne, &field(prog, &deref(&n1_next), 0), &n1_val)), false),
        (bin(Eq, &addr(&n1_val), &addr(x)), false),
        (and(and(bin(Eq, x, &int(5)), bin(Eq, y, &bin(Add, x, &int(1)))), and(bin(Eq, p, &addr(y)), bin(Ne, &deref(p), &int(6)))), false),
        (and(bin(Eq, &deref(p), &int(3)), bin(Eq, &deref(q), &int(4))), true),
        (and(and(bin(Eq, p, &addr(x)), bin(Eq, q, &addr(y))), bin(Eq, p, q)), false),
        (and(bin(Gt, x, &int(0)), bin(Lt, &bin(Add, x, &int(1)), &int(0))), true),
        (and(bin(Eq, &bin(Div, x, &int(0)), &int(-1)), bin(Ge, x, &int(0))), true),
        (and(bin(Eq, &bin(Div, x, &int(0)), &int(1)), bin(Gt, x, &int(0))), false),
        (bin(Ne, &bin(Shl, x, &int(32)), &int(0)), false),
        (and(bin(Gt, &w.u, &Expr::int(4000000000, Type::UINT)), bin(Lt, &Expr::cast(w.u.clone(), Type::INT), &int(0))), true),
        (and(bin(Ne, &f_of(x), &f_of(y)), bin(Eq, x, y)), false),
        (and(bin(Ne, &fresh, &Expr::int(0, p.ty.clone())), bin(Eq, &fresh, p)), true),
        (and(bin(Eq, &deref(p), x), bin(Ne, p, &addr(x))), true),
    ]
}

fn our_answer(program: &Program, f: &Expr) -> bool {
    let mut s = Solver::new(program, &SolverConfig::c_semantics());
    match s.is_satisfiable(f) {
        Answer::Yes => true,
        Answer::No => false,
        Answer::Unknown(why) => panic!("unknown for {}: {why}", c_ir::display_expr(program, f)),
    }
}

#[test]
fn agrees_with_z3_on_random_and_hand_written_formulas() {
    let w = world();
    let config = SolverConfig::c_semantics();
    let mut formulas: Vec<Expr> = Vec::new();
    let mut expected: Vec<Option<bool>> = Vec::new();
    for (f, sat) in hand_written(&w) {
        formulas.push(f);
        expected.push(Some(sat));
    }
    let voc = Vocabulary {
        vars: vec![w.x.clone(), w.y.clone(), w.u.clone()],
        types: vec![Type::INT, Type::UINT],
        extra_leaves: w.int_leaves.clone(),
        width: 32,
    };
    let mut rng = Rng::new(20261121);
    while formulas.len() < 260 {
        formulas.push(random_formula(&w, &voc, &mut rng, 3));
        expected.push(None);
    }
    let scripts: Vec<String> = formulas.iter().map(|f| to_smtlib(&w.b.program, f, &config).expect("printable")).collect();
    let z3 = z3_answers(&scripts);
    let mut disagreements = Vec::new();
    for ((f, exp), z) in formulas.iter().zip(expected.iter()).zip(z3.iter()) {
        let ours = our_answer(&w.b.program, f);
        let theirs = z == "sat";
        let shown = w.b.show(f);
        if ours != theirs {
            disagreements.push(format!("ours {ours}, z3 {theirs}: {shown}"));
        }
        if let Some(e) = exp {
            assert_eq!(ours, *e, "expected answer for {shown}");
        }
    }
    // both answers occur
    assert!(z3.iter().filter(|z| *z == "unsat").count() >= 30, "too few unsatisfiable formulas");
    assert!(disagreements.is_empty(), "{} disagreements:\n{}", disagreements.len(), disagreements.join("\n"));
    let _ = (&w.p, &w.q, &w.n1, &w.n2, &w.s, &w.arr);
}
