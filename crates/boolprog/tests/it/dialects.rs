//! Moped's and boppo's dialects (`boolprog::print_moped`, `boolprog::print_boppo`): golden
//! texts, the boppo text read back by our parser, Moped's error label standing for every
//! failing assert, and random programs (never a panic, always the same text).

use std::collections::BTreeMap;

use boolprog::generate::{random_program, GeneratorParams};
use boolprog::{
    parse, parse_syntax, print_boppo, print_moped, statements_in_order, strip_spans, Dialect, Expr, Program, Stmt,
    StmtKind, ERROR_LABELS, MOPED_ERROR_LABEL,
};
use expect_test::expect;
use proptest::prelude::*;

const TESTDEV: &str = include_str!("../../../../tests/boolprog/testdev.bp");

/// Every construct a boolean program of ours can hold: `enforce`, `choose`/`schoose`, a
/// desugared `constrain`, multiple assignment, a call with two results, `assert`/`assume`,
/// labels and a two-target `goto`, `while`, `if`/`else`, `=`/`!=`/`=>` nested in `&`/`|`, an
/// `ERROR` label, and names boppo cannot spell (`{x<5}`, the keyword `dfs`).
const EVERY_CONSTRUCT: &str = "\
decl g, {x<5};

bool<2> two(a, {p->next==NULL})
begin
  decl t, dfs;
  enforce g | !{x<5};
  t := choose(a, !a);
  dfs := t => a;
  if (*) then
    return t, schoose[{p->next==NULL}, F];
  fi
  return a => t, a != t;
end

void main()
begin
  decl l1, l2, l3;
  l1, l2 := *, g = {x<5};
  l3 := * constrain 'l3 = l1;
L0: l1, l2 := two(l1, l2 & l3 | g);
  while (l1 | l2) do
    l1 := !l1;
    assume(l2);
  od
  if (l1 = l2 & g) then goto L0, L1; else skip; fi
  assert(l1 => (l2 | !g));
L1: l3 := T;
ERROR: skip;
end
";

fn program(text: &str) -> Program {
    let (program, diags) = parse(text);
    assert!(diags.is_empty(), "{diags:?}");
    program
}

#[test]
fn boppo_testdev() {
    expect![[r#"
        // A boolean program in the input language of SatAbs' boppo, printed by predabs.
        // Renamed (boppo's identifiers are [$A-Za-z_][A-Za-z0-9_$#-]*), new = old:
        // b0 = {locked!=0}
        // b1 = {inode->i_rdev>>8=major}
        // b2 = {testdev_open=0}

        decl b0;

        bool<2> testdev_open(b1)
        begin
          decl b2;
          assert(b1);
          skip;
          if (*) then
            assume(b0);
            b2 := schoose[F, T];
            return b1, b2;
          else
            assume(!b0);
          fi;
          b0 := schoose[T, F];
          b2 := schoose[T, F];
          return b1, b2;
        end

        void main()
        begin
          decl prm1, ret1, ret2;
          b0 := F;
          prm1 := T;
          A: ret1, ret2 := testdev_open(prm1);
          if (ret2) then
            prm1 := *;
            B: ret1, ret2 := testdev_open(prm1);
          fi;
        end
    "#]]
    .assert_eq(&print_boppo(&program(TESTDEV)));
}

#[test]
fn boppo_every_construct() {
    expect![[r#"
        // A boolean program in the input language of SatAbs' boppo, printed by predabs.
        // Renamed (boppo's identifiers are [$A-Za-z_][A-Za-z0-9_$#-]*), new = old:
        // b0 = {x<5}
        // b1 = {p->next==NULL}
        // b2 = dfs
        // boppo does not report reaching a label ERROR: each such label is on an assert(F).

        decl g, b0;

        bool<2> two(a, b1)
        begin
          decl t, b2;
          enforce g | !b0;
          t := schoose[a, !a];
          b2 := t => a;
          if (*) then
            return t, schoose[b1, F];
          fi;
          return a => t, a != t;
        end

        void main()
        begin
          decl l1, l2, l3;
          l1, l2 := *, g = b0;
          l3 := *;
          assume(l3 = l1);
          L0: l1, l2 := two(l1, (l2 & l3) | g);
          while (l1 | l2) do
            l1 := !l1;
            assume(l2);
          od;
          if ((l1 = l2) & g) then
            goto L0, L1;
          else
            skip;
          fi;
          assert(l1 => (l2 | !g));
          L1: l3 := T;
          ERROR: assert(F);
          skip;
        end
    "#]]
    .assert_eq(&print_boppo(&program(EVERY_CONSTRUCT)));
}

#[test]
fn moped_every_construct() {
    expect![[r#"
        decl g, {x<5};

        bool<2> two(a, {p->next==NULL})
        begin
          decl t, dfs;
          enforce g | !{x<5};
          t := choose(a, !a);
          dfs := t => a;
          if (*) then
            return t, choose({p->next==NULL}, 0);
          fi
          return a => t, a != t;
        end

        void main()
        begin
          decl l1, l2, l3;
          l1, l2 := *, g = {x<5};
          l3 := *;
          assume(l3 = l1);
          L0: l1, l2 := two(l1, l2 & l3 | g);
          while (l1 | l2) do
            l1 := !l1;
            assume(l2);
          od
          if (l1 = l2 & g) then
            goto L0, L1;
          else
            skip;
          fi
          if (!(l1 => l2 | !g)) then
            predabs_fail();
          fi
          L1: l3 := 1;
          ERROR: predabs_fail();
          skip;
        end

        void predabs_fail()
        begin
          predabs_error: skip;
        end
    "#]]
    .assert_eq(&print_moped(&program(EVERY_CONSTRUCT)));
}

#[test]
fn the_commands_name_the_file_and_moped_s_label() {
    assert_eq!(Dialect::Boppo.command("iteration-2.boppo.bp"), "boppo iteration-2.boppo.bp");
    assert_eq!(Dialect::Moped.command("iteration-2.moped.bp"), format!("moped -b iteration-2.moped.bp {MOPED_ERROR_LABEL}"));
    for dialect in Dialect::ALL {
        assert!(dialect.file_suffix().ends_with(".bp"));
        assert!(dialect.command("f.bp").starts_with(dialect.tool()));
    }
}

#[test]
fn names_that_clash_with_moped_s_additions_are_renamed() {
    let text = "decl predabs_error;\nvoid predabs_fail() begin predabs_error := 1; end\nvoid main() begin predabs_fail(); assert(predabs_error); end\n";
    let printed = print_moped(&program(text));
    let (again, diags) = parse(&printed);
    assert!(diags.is_empty(), "{diags:?}\n{printed}");
    let names: Vec<&str> = again.procs.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["b1", "main", "predabs_fail"], "{printed}");
    assert_eq!(again.globals[0].name, "b0", "{printed}");
}

/// Undoes the boppo printer's changes on a program read back from its text: the names of the
/// header comment `// new = old` are mapped back and every `ERROR: assert(F)` marker gives its
/// label back to the statement after it.
fn undo_boppo(program: Program, text: &str) -> Program {
    let back: BTreeMap<String, String> = text
        .lines()
        .take_while(|l| l.starts_with("//"))
        .filter_map(|l| l.strip_prefix("// ")?.split_once(" = "))
        .map(|(new, old)| (new.to_string(), old.to_string()))
        .collect();
    let name = |n: &String| back.get(n).cloned().unwrap_or_else(|| n.clone());
    let names = |ns: &[String]| ns.iter().map(name).collect::<Vec<_>>();
    let expr = |e: &Expr| e.rename_variables(&|v: &str| back.get(v).cloned());
    let exprs = |es: &[Expr]| es.iter().map(expr).collect::<Vec<_>>();
    fn block(body: Vec<Stmt>, f: &dyn Fn(StmtKind) -> StmtKind, name: &dyn Fn(&String) -> String) -> Vec<Stmt> {
        let mut out: Vec<Stmt> = Vec::new();
        let mut pending_label = None;
        for mut stmt in body {
            let is_marker = matches!(&stmt.kind, StmtKind::Assert(Expr::Const(false)))
                && stmt.label.as_deref().is_some_and(|l| ERROR_LABELS.contains(&l));
            if is_marker && pending_label.is_none() {
                pending_label = stmt.label.take();
                continue;
            }
            stmt.kind = match f(stmt.kind) {
                StmtKind::If { cond, then_branch, else_branch } => {
                    StmtKind::If { cond, then_branch: block(then_branch, f, name), else_branch: block(else_branch, f, name) }
                }
                StmtKind::While { cond, body } => StmtKind::While { cond, body: block(body, f, name) },
                other => other,
            };
            stmt.label = pending_label.take().or(stmt.label.as_ref().map(name));
            out.push(stmt);
        }
        out
    }
    let kind = |k: StmtKind| match k {
        StmtKind::Assign { lhs, rhs } => StmtKind::Assign { lhs: names(&lhs), rhs: exprs(&rhs) },
        StmtKind::Assume(e) => StmtKind::Assume(expr(&e)),
        StmtKind::Assert(e) => StmtKind::Assert(expr(&e)),
        StmtKind::Goto(t) => StmtKind::Goto(names(&t)),
        StmtKind::If { cond, then_branch, else_branch } => StmtKind::If { cond: expr(&cond), then_branch, else_branch },
        StmtKind::While { cond, body } => StmtKind::While { cond: expr(&cond), body },
        StmtKind::Call { lhs, callee, args } => StmtKind::Call { lhs: names(&lhs), callee: name(&callee), args: exprs(&args) },
        StmtKind::Return(v) => StmtKind::Return(exprs(&v)),
        StmtKind::Skip => StmtKind::Skip,
    };
    let mut program = program;
    for g in &mut program.globals {
        g.name = name(&g.name);
    }
    for p in &mut program.procs {
        p.name = name(&p.name);
        p.formals = names(&p.formals);
        p.locals = names(&p.locals);
        p.enforce = p.enforce.as_ref().map(expr);
        p.body = block(std::mem::take(&mut p.body), &kind, &name);
    }
    program
}

/// The boppo text, read back by our parser, is the program (modulo names and ERROR markers).
fn boppo_reads_back(p: &Program) -> Result<(), TestCaseError> {
    let text = print_boppo(p);
    let (again, diags) = parse_syntax(&text);
    prop_assert!(diags.is_empty(), "{:?}\n{}", diags, text);
    prop_assert_eq!(undo_boppo(strip_spans(again), &text), strip_spans(p.clone()), "{}", text);
    Ok(())
}

/// Moped's text reads back; no `assert` is left; `predabs_fail` is called once per `assert`
/// and per ERROR label of the input, and holds the one statement labelled `predabs_error`.
fn moped_reads_back(p: &Program) -> Result<(), TestCaseError> {
    let text = print_moped(p);
    let (again, diags) = parse_syntax(&text);
    prop_assert!(diags.is_empty(), "{:?}\n{}", diags, text);
    prop_assert_eq!(again.procs.len(), p.procs.len() + 1);
    let fail = again.procs.last().expect("predabs_fail");
    prop_assert_eq!(fail.name.as_str(), "predabs_fail");
    prop_assert_eq!(fail.body.len(), 1);
    prop_assert_eq!(fail.body[0].label.as_deref(), Some(MOPED_ERROR_LABEL));
    let count = |prog: &Program, f: &dyn Fn(&Stmt) -> bool| -> usize {
        prog.procs.iter().map(|q| statements_in_order(&q.body).into_iter().filter(|s| f(s)).count()).sum()
    };
    let errors = count(p, &|s| matches!(s.kind, StmtKind::Assert(_)))
        + count(p, &|s| s.label.as_deref().is_some_and(|l| ERROR_LABELS.contains(&l)));
    let calls = count(&again, &|s| matches!(&s.kind, StmtKind::Call { callee, .. } if callee == "predabs_fail"));
    prop_assert_eq!(calls, errors, "{}", text);
    prop_assert_eq!(count(&again, &|s| matches!(s.kind, StmtKind::Assert(_))), 0);
    Ok(())
}

#[test]
fn the_golden_programs_read_back() {
    for text in [TESTDEV, EVERY_CONSTRUCT, include_str!("../../../../tests/boolprog/partition.bp")] {
        let p = program(text);
        boppo_reads_back(&p).unwrap();
        moped_reads_back(&p).unwrap();
    }
}

fn params(seed: u64, recursion: bool) -> GeneratorParams {
    GeneratorParams { globals: 3, procs: 3, locals: 2, statements: 12, recursion, asserts: true, seed }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_programs_print_the_same_text_twice_and_read_back(seed in any::<u64>(), recursion in any::<bool>()) {
        let p = random_program(&params(seed, recursion));
        for dialect in Dialect::ALL {
            prop_assert_eq!(boolprog::print_dialect(&p, dialect), boolprog::print_dialect(&p.clone(), dialect));
        }
        boppo_reads_back(&p)?;
        moped_reads_back(&p)?;
    }

    #[test]
    fn arbitrary_syntax_trees_read_back(p in super::round_trip::program()) {
        boppo_reads_back(&p)?;
        moped_reads_back(&p)?;
    }
}
