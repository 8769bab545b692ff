//! Syntax errors with line:column, validation of names, arities, labels; origins survive printing.

use boolprog::{parse, print_bebop, Expr, Origin, Procedure, Program, Stmt, StmtId, StmtKind};
use diagnostics::{render_all, LineIndex};

fn messages(text: &str) -> Vec<String> {
    let (_, diags) = parse(text);
    let index = LineIndex::new(text);
    diags.iter().map(|d| format!("{}: {}", index.line_col(d.span.start), d.message)).collect()
}

#[test]
fn syntax_errors_have_positions() {
    let text = "void main()\nbegin\n  x := ;\n  skip;\nend\n";
    let m = messages(text);
    assert_eq!(m, vec!["3:8: expected an expression, found `;`".to_string()]);
    let shown = render_all(&parse(text).1, "t.bp", text);
    assert!(shown.contains("t.bp:3:8: error"), "{shown}");
}

#[test]
fn parser_recovers_and_reports_several_errors() {
    let text = "void main() begin\n  skip\n  a := 1 +;\n  skip;\nend\nvoid g() begin skip; end\n";
    let (program, diags) = parse(text);
    assert!(diags.len() >= 2, "{diags:?}");
    assert_eq!(program.procs.len(), 2);
}

#[test]
fn validation_finds_undeclared_arity_labels_and_gotos() {
    let text = "\
decl g;
bool<2> f(x)
begin
  return x;
end
void main()
begin
  decl a, b;
  L: a := h;
  L: skip;
  a, b := f(a, b);
  a := f(g);
  c();
  goto M;
  a, a := 0, 1;
  a := 1, 0;
end
";
    let m = messages(text);
    let expected = [
        "4:3: `f` returns 2 values but this return gives 1",
        "9:3: undeclared variable `h`",
        "10:3: label `L` defined twice in `main`",
        "11:3: `f` takes 1 arguments but 2 were given",
        "12:3: `f` returns 2 values but 1 are assigned",
        "13:3: call of unknown procedure `c`",
        "14:3: goto to unknown label `M` in `main`",
        "15:3: `a` assigned twice in one parallel assignment",
        "16:3: 1 variables assigned but 2 values given",
    ];
    for e in expected {
        assert!(m.iter().any(|x| x == e), "missing `{e}` in {m:#?}");
    }
    assert_eq!(m.len(), expected.len(), "{m:#?}");
}

#[test]
fn dialect_keywords_parse() {
    let text = "\
decl a, b;
void main()
begin
  enforce !(a & b);
  a := schoose[b, !b];
  b := unknown();
  call main();
  if (a) then skip; elsif (b) then skip; else skip; fi
  a, b := choose(1, 0), T_var;
end
";
    let (program, diags) = parse(text);
    assert_eq!(diags.len(), 1, "{diags:?}"); // only T_var is undeclared
    assert!(program.procs[0].enforce.is_some());
    assert_eq!(program.procs[0].body.len(), 5);
}

#[test]
fn bebop_constants_labels_dead_and_constrain_desugar() {
    let text = "\
void main()
begin
  decl a, b, constrain_t1;
  a := T;
  b := F;
  L1: L2: a := ?;
  dead a, b;
  a, b := *, * constrain !('a & 'b);
  a := * constrain ('a != a);
  goto L1, L2;
end
";
    let (program, diags) = parse(text);
    assert!(diags.is_empty(), "{diags:?}");
    let main = &program.procs[0];
    let printed = print_bebop(&program).text;
    let shown: Vec<&str> = printed
        .lines()
        .map(str::trim)
        .filter(|l| !(l.is_empty() || l.starts_with("void") || l.starts_with("decl") || *l == "begin" || *l == "end"))
        .collect();
    assert_eq!(
        shown,
        vec![
            "a := 1;",
            "b := 0;",
            "L1: skip;",
            "L2: a := *;",
            "a, b := *, *;",
            "a, b := *, *;",
            "assume(!(a & b));",
            // the clause reads the old `a`: the new value goes through a fresh local
            "constrain_t2 := *;",
            "assume(constrain_t2 != a);",
            "a := constrain_t2;",
            "constrain_t2 := *;",
            "goto L1, L2;",
        ]
    );
    assert_eq!(main.locals, vec!["a", "b", "constrain_t1", "constrain_t2"]);
}

#[test]
fn suffix_primes_and_print_statements() {
    // c2s and Moped write the new value as `x'`; `print(...)` is debugging output.
    let suffix = "void main()\nbegin\n  decl a, b, {p};\n  a, b := *, * constrain !(a' & b');\n  {p} := * constrain ({p}' != a);\n  print(a, b);\n  if (a) then print(b); fi\nend\n";
    let prefix = "void main()\nbegin\n  decl a, b, {p};\n  a, b := *, * constrain !('a & 'b);\n  {p} := * constrain ('{p} != a);\n  skip;\n  if (a) then skip; fi\nend\n";
    let (left, diags) = parse(suffix);
    assert!(diags.is_empty(), "{diags:?}");
    let (right, diags) = parse(prefix);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(print_bebop(&left).text, print_bebop(&right).text);
    // A program's own `print` stays a call, and a prime outside `constrain` is still reported.
    let own = "void print(x) begin skip; end\nvoid main() begin decl a; print(a); end\n";
    let (program, diags) = parse(own);
    assert!(diags.is_empty(), "{diags:?}");
    assert!(matches!(&program.procs[1].body[0].kind, StmtKind::Call { callee, .. } if callee == "print"));
    let m = messages("void main()\nbegin\n  decl a;\n  a := a';\nend\n");
    assert!(m.iter().any(|x| x == "4:8: primed variable `'a` outside a `constrain` clause"), "{m:#?}");
}

#[test]
fn primed_names_and_reserved_constants_are_reported() {
    let text = "void main()\nbegin\n  decl a;\n  a := 'a;\n  a := * constrain ' a;\nend\ndecl T;\n";
    let m = messages(text);
    assert!(m.iter().any(|x| x == "4:8: primed variable `'a` outside a `constrain` clause"), "{m:#?}");
    assert!(m.iter().any(|x| x == "5:20: unexpected character `'`"), "{m:#?}");
    assert!(m.iter().any(|x| x == "7:6: expected a name, found `T`"), "{m:#?}");
}

#[test]
fn origins_are_reported_per_printed_line() {
    let mut proc = Procedure::new("main");
    proc.body = vec![
        Stmt::skip().with_origin(Origin { proc: 0, index: 3 }),
        Stmt::if_then_else(Expr::Nondet, vec![Stmt::assume(Expr::tt()).with_origin(Origin { proc: 0, index: 4 })], vec![]),
    ];
    let program = Program { globals: vec![], procs: vec![proc] };
    let printed = print_bebop(&program);
    assert_eq!(printed.text, "void main()\nbegin\n  skip;\n  if (*) then\n    assume(1);\n  fi\nend\n");
    let lines: Vec<(u32, u32, Option<Origin>)> = printed.lines.iter().map(|l| (l.line, l.stmt.0, l.origin)).collect();
    assert_eq!(
        lines,
        vec![(3, 0, Some(Origin { proc: 0, index: 3 })), (4, 1, None), (5, 2, Some(Origin { proc: 0, index: 4 }))]
    );
    assert_eq!(printed.line_of(boolprog::ProcId(0), StmtId(2)), Some(5));
}

#[test]
fn predicate_names_are_sanitised() {
    assert_eq!(boolprog::predicate_name("x < 5"), "{x < 5}");
    assert_eq!(boolprog::predicate_name("a{b}; c"), "{a(b), c}");
    assert!(boolprog::is_valid_variable_name("{x<5}"));
    assert!(!boolprog::is_valid_variable_name("if"));
    assert!(!boolprog::is_valid_variable_name("{}"));
}

#[test]
fn promela_export_refuses_recursion() {
    let (program, _) = parse("void main() begin main(); end");
    assert!(boolprog::promela::export(&program).is_err());
    let (program, _) = parse("decl a; void main() begin a := *; assert(a); end");
    let text = boolprog::promela::export(&program).unwrap();
    assert!(text.contains("assert(!(!b0))"), "{text}");
}

#[test]
fn boom_dialect_parses() {
    // boom (CPROVER) syntax: `dfs`, `elif`, `abortif`, `enforce` and `decl` among the statements,
    // `$` in names, `_` for a dropped return value, no `;` before a closing keyword.
    let text = "\
decl $g, h;
dfs void main()
begin
  $g := 1;
  if $g then h := 0 elif h then skip else skip fi;
  decl l;
  l, _ := pair($g != h);
  enforce $g | l;
  abortif !l;
  assert(l)
end
bool<2> pair(a)
begin
  return a, !a
end
";
    let (program, diags) = parse(text);
    assert!(diags.is_empty(), "{diags:?}");
    let main = &program.procs[0];
    assert_eq!(main.enforce, Some(Expr::Or(Box::new(Expr::Var("$g".into())), Box::new(Expr::Var("l".into())))));
    assert_eq!(main.locals.len(), 2, "{:?}", main.locals); // `l` and the dropped value
    let printed = print_bebop(&program).text;
    assert!(printed.contains("assume(!(!l));") || printed.contains("assume(!!l);") || printed.contains("assume(l);"), "{printed}");
    let (again, diags) = parse(&printed);
    assert!(diags.is_empty(), "{printed}\n{diags:?}");
    assert_eq!(again.procs.len(), 2);
}

#[test]
fn concurrent_boom_statements_are_reported_as_unsupported() {
    let m = messages("void main()\nbegin\n  start_thread goto L;\n  L: skip;\nend\n");
    assert!(m.iter().any(|x| x == "3:3: unsupported: `start_thread` (concurrent boolean programs)"), "{m:#?}");
}

#[test]
fn deep_nests_get_one_error_that_names_them() {
    // the shapes of fuzz-targets' deep_boolean_programs_get_a_diagnostic, far past the limit:
    // one error each, naming statements for statements. They used to give one error per level
    // past the limit (2,748 "expression nested too deeply" for 3,000 nested `if`s) or one per
    // stray `fi` after the skipped nest, which `predabs mc` printed with the whole line each
    // (236 MB of output; 20,000 levels did not end in a minute)
    let n = 20_000;
    for (text, kind) in [
        (format!("decl x; void main() begin x := {}x{}; end", "(".repeat(n), ")".repeat(n)), "expression nested too deeply"),
        (format!("decl x; void main() begin x := x{}; end", " | x".repeat(n)), "expression too long or nested too deeply"),
        (format!("decl x; void main() begin x := {}x; end", "!".repeat(n)), "expression nested too deeply"),
        (format!("decl x; void main() begin {} x := 1; {} end", "if (x) then ".repeat(n), "fi ".repeat(n)), "statements nested too deeply"),
        (format!("decl x; void main() begin if (x) then skip; {} fi end", "elsif (x) then skip; ".repeat(n)), "statements nested too deeply"),
        (format!("decl x; void main() begin {} skip; {} end", "while (x) do ".repeat(n), "od ".repeat(n)), "statements nested too deeply"),
        (format!("bool x; void main() {{ {} x = 1; {} }}", "{".repeat(n), "}".repeat(n)), "statements nested too deeply"),
    ] {
        let errors = messages(&text);
        assert_eq!(errors.len(), 1, "{}: {:?}", &text[..40], &errors[..errors.len().min(3)]);
        assert!(errors[0].starts_with("1:") && errors[0].contains(kind), "{}: {errors:?}", &text[..40]);
    }
    // a nest of `if`s just inside the statement limit still parses, conditions and all
    let ok = format!("decl x; void main() begin {} x := 1; {} end", "if (x & !x | x) then ".repeat(190), "fi ".repeat(190));
    assert_eq!(messages(&ok), Vec::<String>::new());
}
