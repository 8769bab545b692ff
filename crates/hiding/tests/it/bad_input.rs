//! Bad input gives clear messages with line:column, never a panic.

use crate::read_fixture;
use expect_test::expect;
use hiding::diagnostics::render_all;

fn abs_messages(c: &str, abs: &str) -> String {
    let a = hiding::Analysis::new(c, "prog.c", abs, Default::default()).expect("the C file parses");
    render_all(&a.abs_diagnostics, "prog.abs", abs)
}

const PROGRAM: &str = "int g;\nvoid (*handler)(int);\nint f(int x) { int y = x; return y; }\nint main(void) { int z = f(g); handler = 0; return z; }\n";

#[test]
fn unknown_variables_and_scopes() {
    let text = abs_messages(PROGRAM, "f y\nf nothere\n(global) y\nnofunc x\n(global) nothere\n");
    expect![[r#"
        prog.abs:2:1: error: function `f` has no local variable or parameter `nothere`
        2 | f nothere
          | ^^^^^^^^^
          = help: variables of `f`: x, y
        prog.abs:3:1: error: the program has no global variable or function named `y`
        3 | (global) y
          | ^^^^^^^^^^
          = help: `y` is local to `f`: write `f y`
        prog.abs:4:1: error: the program defines no function `nofunc`
        4 | nofunc x
          | ^^^^^^^^
          = help: scopes: (global), f, main
        prog.abs:5:1: error: the program has no global variable or function named `nothere`
        5 | (global) nothere
          | ^^^^^^^^^^^^^^^^
    "#]]
    .assert_eq(&text);
}

#[test]
fn malformed_lines() {
    let text = abs_messages(PROGRAM, "# a comment\n\n  g\nmain z extra\n(glob) g\nmain 3z\n");
    expect![[r#"
        prog.abs:3:3: error: `g` has no scope: write `SCOPE NAME`
        3 |   g
          |   ^
          = help: each line names one variable as `SCOPE NAME`, e.g. `move d` (a local or formal of `move`) or `(global) i`
        prog.abs:4:1: error: expected two words `SCOPE NAME`, found 3
        4 | main z extra
          | ^^^^^^^^^^^^
          = help: each line names one variable as `SCOPE NAME`, e.g. `move d` (a local or formal of `move`) or `(global) i`
        prog.abs:5:1: error: `(glob)` is not a scope: write a function name or `(global)`
        5 | (glob) g
          | ^^^^^^^^
          = help: each line names one variable as `SCOPE NAME`, e.g. `move d` (a local or formal of `move`) or `(global) i`
        prog.abs:6:1: error: `3z` is not a variable name
        6 | main 3z
          | ^^^^^^^
          = help: each line names one variable as `SCOPE NAME`, e.g. `move d` (a local or formal of `move`) or `(global) i`
    "#]]
    .assert_eq(&text);
}

#[test]
fn function_pointers_cannot_be_hidden() {
    let text = abs_messages(PROGRAM, "(global) handler\n(global) f\n");
    expect![[r#"
        prog.abs:1:1: error: `(global) handler` is a function pointer: abC refuses to hide function pointers
        1 | (global) handler
          | ^^^^^^^^^^^^^^^^
          = help: calls through a hidden function pointer could not be resolved; hide the variables the called functions use instead
    "#]]
    .assert_eq(&text);
}

#[test]
fn c_syntax_errors_are_reported_at_their_line() {
    let source = "int main(void) {\n  int x = 1;\n  x = = 2;\n}\n";
    let Err(diagnostics) = hiding::Analysis::new(source, "prog.c", "main x\n", Default::default()) else {
        panic!("a syntax error must be reported");
    };
    expect![[r#"
        prog.c:3:7: error: syntax error: unexpected `=`
        3 |   x = = 2;
          |       ^
          = help: expected one of `!`, `"`, `&`, `(`, `*`, `+`, `++`, `-`, `--`, `[_a-zA-Z]`, `[uUL]`, `u8`
    "#]]
    .assert_eq(&render_all(&diagnostics, "prog.c", source));
}

#[test]
fn calls_through_function_pointers_and_pointer_arithmetic_are_flagged() {
    let source = read_fixture("warnings.c");
    let mut a = hiding::Analysis::new(&source, "warnings.c", "main k\n", Default::default()).unwrap();
    a.closure();
    expect![[r#"
        *** abC: WARNING (line 9): pointer arithmetic: abC's rules assume a pointer stays inside the object it points to
        *** abC: WARNING (line 10): pointer arithmetic (`++`/`--` on a pointer): abC's rules assume a pointer stays inside the object it points to
        *** abC: WARNING (line 11): cast between a pointer and an integer or between unrelated pointer types: abC's rules may miss what the result points to
        *** abC: WARNING (line 12): call through a function pointer: abC does not know the callee, so no parameter passing is analysed here
        *** abC: WARNING (line 13): call to external (or builtin) function; cannot analyze definition - assuming concrete result returned unless specified in abstraction list
    "#]]
    .assert_eq(&a.warnings_text());
}
