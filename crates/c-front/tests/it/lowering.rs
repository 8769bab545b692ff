//! Lowering semantics, checked by running the interpreter on small programs, and diagnostics
//! for unsupported or wrong input.

use super::support::{check_invariants, lower_ok, returned, run_with};
use c_ir::interp::Outcome;
use c_ir::StmtKind;
use std::collections::HashSet;

#[test]
fn short_circuit_with_side_effects_is_control_flow() {
    let p = lower_ok(
        "int n; int bump(void) { n++; return 1; }
         int main() { int a = 0; if (a && bump()) a = 5; if (a || bump()) a = a + 10; a = a ? bump() : bump() + 1; return n * 100 + a; }",
    );
    // first `&&` skips bump, `||` calls it once, `?:` with a==10 calls bump once more -> n=2, a=1
    assert_eq!(returned(&p, &[]), 201);
}

#[test]
fn increments_compound_assignments_and_comma() {
    let p = lower_ok(
        "int main() { int i = 5, j; j = i++ + ++i; j += 3; j <<= 1; j -= i--; int k = (i, j, 7); unsigned u = 10; u -= 11; return j * 1000 + k * 10 + (u == 4294967295u) + i; }",
    );
    // i: 5 -> 6 (post) -> 7 (pre): j = 5 + 7 = 12; +3 = 15; <<1 = 30; -= 7 -> 23; i -> 6
    assert_eq!(returned(&p, &[]), 23 * 1000 + 70 + 1 + 6);
}

#[test]
fn loops_switch_break_continue_goto() {
    let p = lower_ok(
        "int main() {
           int s = 0, i;
           for (i = 0; i < 10; i++) { if (i == 2) continue; if (i == 6) break; s += i; }
           do { s++; } while (s < 20);
           switch (s) { case 1: s = 100; case 20: s += 1; case 21: s += 2; break; default: s = -1; }
           switch (s) { case 0 ... 5: s = 0; break; default: s *= 2; }
           if (s > 0) goto out;
           s = 999;
         out:
           while (1) { s++; if (s % 7 == 0) break; }
           return s;
         }",
    );
    // for: 0+1+3+4+5 = 13; do-while to 20; switch: 20 -> 21 -> 23; default *2 -> 46; then to 49
    assert_eq!(returned(&p, &[]), 49);
}

#[test]
fn scopes_are_renamed_apart_and_initialisers_run() {
    let p = lower_ok(
        "int g[3]; struct pt { int x, y; } origin = { .y = 4 };
         int main() {
           int x = 1;
           { int x = 2; g[0] = x; }
           for (int x = 10; x < 11; x++) g[1] = x;
           int a[4] = { 1, 2 };
           struct pt p = { 3 };
           char s[] = \"hey\";
           return x * 1000000 + g[0] * 100000 + g[1] * 1000 + a[1] * 100 + a[3] * 10 + p.x + p.y + origin.y + g[2] + (sizeof s == 4) + s[1] - 'e';
         }",
    );
    assert_eq!(returned(&p, &[]), 1_210_208);
    // x=1, g[0]=2, g[1]=10, a[1]=2, a[3]=0, p.x=3, p.y=0, origin.y=4, g[2]=0, sizeof s == 4, s[1]-'e'=0
    let names: Vec<&str> = p.vars.iter().filter(|v| v.source_name == "x").map(|v| v.name.as_str()).collect();
    assert_eq!(names.len(), 3, "three variables named x: {names:?}");
}

#[test]
fn enums_typedefs_unions_and_sizeof() {
    let p = lower_ok(
        "enum color { RED, GREEN = 5, BLUE }; typedef unsigned char byte; union u { int i; byte b[4]; };
         struct s { char c; int i; long l; };
         int main() { union u x; x.i = 0x01020304; byte lo = x.b[0]; enum color c = BLUE;
           return c * 1000 + lo * 10 + (sizeof(struct s) == 16) + (sizeof(union u) == 4); }",
    );
    assert_eq!(returned(&p, &[]), 6000 + 40 + 2);
}

#[test]
fn gcc_builtin_va_list_from_preprocessed_glibc_headers() {
    // preprocessed `.i` files carry glibc's `typedef __builtin_va_list __gnuc_va_list;`
    let p = lower_ok(
        "typedef __builtin_va_list __gnuc_va_list;
         extern int vprintf(const char *__restrict __format, __gnuc_va_list __arg);
         #include <stdarg.h>
         int main() { va_list none; return 3; }",
    );
    assert_eq!(returned(&p, &[]), 3);
}

#[test]
fn calls_through_function_pointers_dispatch_on_the_address() {
    let p = lower_ok(
        "struct ops { int (*get)(int); void (*set)(int *, int); };
         int inc(int x) { return x + 1; }
         int dec(int x) { return x - 1; }
         void put(int *p, int v) { *p = v; }
         int apply(int (*f)(int), int v) { return (*f)(v); }
         int main() {
           int n = __VERIFIER_nondet_int();
           struct ops o;
           o.get = n > 0 ? inc : &dec;
           o.set = put;
           int s;
           o.set(&s, o.get(n));
           int (*g)(int) = inc;
           return s * 100 + apply(g, 3) * 10 + (g == inc) + (g != dec) + (o.get == 0);
         }",
    );
    assert_eq!(returned(&p, &[5]), 6 * 100 + 40 + 2);
    assert_eq!(returned(&p, &[-5]), -6 * 100 + 40 + 2);
    // every call is direct: a pointer call became a comparison of addresses per target
    let main = p.proc(p.proc_by_name("main").expect("main"));
    let callees: HashSet<&str> =
        main.body.iter().filter_map(|s| if let StmtKind::Call { callee, .. } = &s.kind { Some(p.proc(*callee).name.as_str()) } else { None }).collect();
    assert_eq!(callees, HashSet::from(["inc", "dec", "put", "apply"]));
    // `put` takes two arguments: the one-argument call `o.get(n)` never dispatches to it
    let calls_with_one_arg_to_put = main.body.iter().any(|s| matches!(&s.kind, StmtKind::Call { callee, args, .. } if p.proc(*callee).name == "put" && args.len() != 2));
    assert!(!calls_with_one_arg_to_put);
}

#[test]
fn recursion_and_pointers_and_heap() {
    let p = lower_ok(
        "#include <stdlib.h>
         struct node { int v; struct node *next; };
         int fact(int n) { if (n <= 1) return 1; return n * fact(n - 1); }
         void swap(int *a, int *b) { int t = *a; *a = *b; *b = t; }
         int main() {
           int x = 1, y = 2; swap(&x, &y);
           struct node *head = 0;
           for (int i = 0; i < 4; i++) { struct node *n = malloc(sizeof(struct node)); n->v = i; n->next = head; head = n; }
           int sum = 0; struct node *c = head;
           while (c) { sum += c->v; struct node *d = c; c = c->next; free(d); }
           int arr[5] = {1,2,3,4,5}; int *q = arr + 1; q += 2;
           return fact(5) * 1000 + x * 100 + y * 10 + sum + *q - (int)(q - arr);
         }",
    );
    assert_eq!(returned(&p, &[]), 120_000 + 200 + 10 + 6 + 4 - 3);
}

#[test]
fn verifier_conventions() {
    let p = lower_ok(
        "extern int __VERIFIER_nondet_int(void); extern void __VERIFIER_assume(int);
         void reach_error() { }
         int main() { int x = __VERIFIER_nondet_int(); __VERIFIER_assume(x > 0); if (x == 7) reach_error(); return x; }",
    );
    assert_eq!(run_with(&p, &[7]).outcome, Outcome::ReachedError);
    assert_eq!(run_with(&p, &[-3]).outcome, Outcome::AssumeFailed);
    assert_eq!(run_with(&p, &[3]).outcome, Outcome::Returned(Some(3)));
    let main = p.proc(p.proc_by_name("main").expect("main"));
    assert!(main.body.iter().any(|s| matches!(s.kind, StmtKind::Havoc { .. })));
    assert!(main.body.iter().any(|s| matches!(s.kind, StmtKind::Error)));
    assert!(!main.body.iter().any(|s| matches!(&s.kind, StmtKind::Call { callee, .. } if p.proc(*callee).name == "reach_error")));
}

#[test]
fn assert_abort_and_unknown_functions() {
    let (p, d) = c_front::lower(
        "#include <assert.h>\n#include <stdlib.h>\nint lib(int *p);\nint main() { int v = 1; int r = lib(&v); if (r < 0) abort(); assert(v != 3); return r; }",
        "t.c",
        &c_front::LowerOptions::default(),
    );
    let p = p.expect("program");
    super::support::check_invariants(&p);
    assert!(!diagnostics::has_errors(&d));
    let warning = d.iter().find(|x| x.message.contains("`lib` has no body")).expect("a warning for the bodiless function");
    assert_eq!(warning.severity, diagnostics::Severity::Warning);
    // inputs: *(&v) then r
    assert_eq!(run_with(&p, &[3, 5]).outcome, Outcome::ReachedError);
    assert_eq!(run_with(&p, &[4, -1]).outcome, Outcome::AssumeFailed);
    assert_eq!(run_with(&p, &[4, 9]).outcome, Outcome::Returned(Some(9)));
}

#[test]
fn spans_point_into_the_users_text_through_includes_and_macros() {
    let source = "#include \"defs.h\"\n#define SET(v) v = LIMIT\nint main() { int x; SET(x); return x; }\n";
    let options = c_front::LowerOptions { files: vec![("defs.h".into(), "#define LIMIT 42\nint unused;\n".into())], ..Default::default() };
    let (p, d) = c_front::lower(source, "t.c", &options);
    assert!(d.is_empty(), "{d:?}");
    let p = p.expect("program");
    let main = p.proc(p.proc_by_name("main").expect("main"));
    let assign = main.body.iter().find(|s| matches!(&s.kind, StmtKind::Assign { rhs, .. } if rhs.as_const() == Some(42))).expect("x = 42");
    assert_eq!(&source[assign.span.start as usize..assign.span.end as usize], "SET(x)");
    let ret = main.body.iter().find(|s| matches!(&s.kind, StmtKind::Assign { lhs, .. } if p.var(match lhs.kind { c_ir::ExprKind::Var(v) => v, _ => c_ir::VarId(0) }).name == "main_return")).expect("return");
    assert_eq!(&source[ret.span.start as usize..ret.span.end as usize], "return x;");
}

fn error_messages(source: &str) -> Vec<(String, diagnostics::LineCol)> {
    let (_, d) = c_front::lower(source, "t.c", &c_front::LowerOptions::default());
    let index = diagnostics::LineIndex::new(source);
    d.iter().filter(|x| x.is_error()).map(|x| (x.message.clone(), index.line_col(x.span.start))).collect()
}

#[test]
fn unsupported_constructs_are_named_with_positions() {
    let cases = [
        ("int f(int x);\nint main() { int (*fp)(int) = f; return fp(1); }", "pointers to functions without a body (`f`)", 2),
        ("int main() {\n  __asm__(\"nop\");\n  return 0; }", "inline assembly", 2),
        ("int main() { int n = 3;\n  int a[n][n]; return 0; }", "variable-length arrays of more than one dimension", 2),
        ("int n = 3;\nint a[n];\nint main() { return 0; }", "variable-length arrays outside a function body", 2),
        ("int main() { int n = 3; int a[n];\n  int *p = (int *)&a; return 0; }", "the address of a variable-length array", 2),
        ("int main() {\n  return y; }", "undeclared identifier `y`", 2),
        ("int main() { int x = 1;\n  x = ; }", "syntax error", 2),
        ("#if 1\nint main() { return 0; }\n", "unterminated conditional", 1),
        (
            "#include <pthread.h>\nvoid *worker(void *arg) { return 0; }\nint main() { pthread_t t;\n  pthread_create(&t, 0, worker, 0); return 0; }",
            "unsupported: threads (`pthread_create`)",
            4,
        ),
        (
            "void on_exit_call(void (*f)(void));\nvoid bye(void) { }\nint main() {\n  on_exit_call(bye); return 0; }",
            "a function is passed to `on_exit_call`",
            4,
        ),
    ];
    for (source, what, line) in cases {
        let errors = error_messages(source);
        let found = errors.iter().find(|(m, _)| m.contains(what));
        let (_, at) = found.unwrap_or_else(|| panic!("expected an error about {what} in {source:?}, got {errors:?}"));
        assert_eq!(at.line, line, "{what}: {errors:?}");
    }
}

#[test]
fn every_formal_gets_a_symbolic_constant_first() {
    let p = lower_ok("int g = 3; int f(int a, int *b) { return a + *b; } int main(int argc, char **argv) { return f(argc, &g); }");
    let f = p.proc(p.proc_by_name("f").expect("f"));
    for (i, &formal) in f.formals.iter().enumerate() {
        let sym = p.symbolic_const_of(formal).expect("symbolic constant");
        assert_eq!(p.var(sym).name, format!("'{}", p.var(formal).name));
        assert!(matches!(&f.body[i].kind, StmtKind::Assign { lhs, rhs } if lhs.kind == c_ir::ExprKind::Var(sym) && rhs.kind == c_ir::ExprKind::Var(formal)));
    }
    // main: the global initialiser comes first, then 'argc = argc, 'argv = argv
    let main = p.proc(p.proc_by_name("main").expect("main"));
    assert!(matches!(&main.body[0].kind, StmtKind::Assign { rhs, .. } if rhs.as_const() == Some(3)));
    assert!(p.var(p.lookup_var(None, "g").expect("g")).address_taken);
}

#[test]
fn variable_length_arrays_are_allocated_when_declared() {
    // `a` becomes an `int *` to n ints allocated at the declaration, `sizeof a` is n * 4, and
    // a parameter `int b[n]` decays like any array parameter
    let p = lower_ok(
        "extern int __VERIFIER_nondet_int(void);
         int sum(int n, int b[n]) { int s = 0; for (int i = 0; i < n; i++) s += b[i]; return s; }
         int main() {
           int n = __VERIFIER_nondet_int();
           if (n < 1 || n > 100) return -1;
           int a[n];
           for (int i = 0; i < n; i++) a[i] = i;
           return sum(n, a) + 1000 * (int)(sizeof a / sizeof a[0]);
         }",
    );
    check_invariants(&p);
    let main = p.proc(p.proc_by_name("main").expect("main"));
    assert!(main.body.iter().any(|s| matches!(&s.kind, StmtKind::Malloc { lhs, .. } if lhs.ty.is_pointer())));
    assert_eq!(returned(&p, &[10]), 45 + 10_000);
    assert_eq!(returned(&p, &[1]), 1000);
    // declared in a loop: a fresh array of the current length each time
    let p = lower_ok(
        "int main() { int t = 0; for (int k = 1; k <= 3; k++) { int a[k]; a[k - 1] = k; t += a[k - 1] * (int)sizeof(a); } return t; }",
    );
    assert_eq!(returned(&p, &[]), 4 + 2 * 8 + 3 * 12);
}
