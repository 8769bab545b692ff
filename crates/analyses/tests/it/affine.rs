//! Karr's affine equalities at loop heads: the relations the examples need, nothing about
//! variables assigned non-linearly, and every equality holds on concrete runs.

use super::lower_source;
use c_ir::interp::{run_observed, Limits};
use c_ir::{display_expr, Program, Type};
use analyses::affine::{loop_equalities, polynomial_loop_equalities, stride_congruences};

fn equalities(program: &Program) -> Vec<String> {
    let main = program.entry.expect("main");
    loop_equalities(program, main).iter().map(|(_, e)| display_expr(program, e)).collect()
}

/// Runs `main` with each input sequence and checks every equality at every loop head visit
/// where it is claimed.
fn assert_hold_on_runs(program: &Program, inputs: &[i128]) {
    let main = program.entry.expect("main");
    let eqs = loop_equalities(program, main);
    for &start in inputs {
        let mut k = 0;
        let mut next = |_: &Type| {
            k += 1;
            start + k - 1
        };
        let mut visits = 0;
        run_observed(program, &mut next, &Limits::new(400), &mut |at, state| {
            if at.proc != main {
                return;
            }
            for (_, e) in eqs.iter().filter(|(head, _)| *head == at.index) {
                // an equality may mention a variable that is not yet assigned
                if let Some(v) = state.eval(e) {
                    assert_eq!(v, 1, "{} fails at statement {} (input {start})", display_expr(program, e), at.index);
                    visits += 1;
                }
            }
        });
        assert!(eqs.is_empty() || visits > 0, "no loop head visited with input {start}");
    }
}

const TWO_LOOPS: &str = "int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  int a = 0;
  int b = 0;
  while (a < n) { a = a + 1; b = b + 2; }
  int c = 0;
  while (c < a) { b = b - 2; c = c + 1; }
  return b;
}
";

#[test]
fn counters_moving_together_give_their_relation() {
    let program = lower_source(TWO_LOOPS);
    let eqs = equalities(&program);
    // first loop: b = 2a; second loop: b + 2c = 2a
    assert!(eqs.iter().any(|e| e == "2 * a == b"), "{eqs:?}");
    assert!(eqs.iter().any(|e| e == "2 * a == b + 2 * c" || e == "b + 2 * c == 2 * a"), "{eqs:?}");
    assert_hold_on_runs(&program, &[-3, 0, 1, 5, 17]);
}

#[test]
fn non_linear_updates_and_calls_forget_the_variable() {
    let program = lower_source(
        "int g;
int __VERIFIER_nondet_int(void);
void bump(void) { g = g + 1; }
int main(void) {
  int n = __VERIFIER_nondet_int();
  int i = 0;
  int sq = 0;
  int h = 0;
  g = 0;
  while (i < n) { i = i + 1; sq = i * i; h = h + 1; bump(); }
  return sq + h + g;
}
",
    );
    let eqs = equalities(&program);
    assert!(eqs.iter().all(|e| !e.contains("sq") && !e.contains('g')), "{eqs:?}");
    assert!(eqs.iter().any(|e| e == "i == h" || e == "h == i"), "{eqs:?}");
    assert_hold_on_runs(&program, &[0, 3, 9]);
}

#[test]
fn branches_join_to_the_affine_hull() {
    let program = lower_source(
        "int __VERIFIER_nondet_int(void);
int main(void) {
  int x = 0;
  int y = 10;
  int z = 0;
  while (__VERIFIER_nondet_int()) {
    if (__VERIFIER_nondet_int()) { x = x + 1; y = y - 1; } else { x = x + 3; y = y - 3; z = z + 1; }
  }
  return x + y + z;
}
",
    );
    let eqs = equalities(&program);
    // z is independent of x along the two branches; x + y == 10 on both
    assert!(eqs.iter().any(|e| e == "x + y == 10"), "{eqs:?}");
    assert!(eqs.iter().all(|e| !e.contains('z')), "{eqs:?}");
    assert_hold_on_runs(&program, &[0, 1, 2, 7]);
}

#[test]
fn strided_variables_give_congruences_that_hold_on_runs() {
    let program = lower_source(
        "int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  int a = 0;
  int b = 6;
  int c = 0;
  int d = 1;
  int i = 0;
  while (i < n) {
    a = a + 8 * n;
    b = b + 4;
    c = c + b;
    d = d + n;
    i = i + 1;
    if (i == 3) { b = 10; a = a - (n << 4); }
  }
  return a + c + d;
}
",
    );
    let main = program.entry.expect("main");
    let found = stride_congruences(&program, main);
    let shown: Vec<String> = found.iter().map(|e| display_expr(&program, e)).collect();
    // `d` moves by `n` and `i` by 1: no congruence; `b` is reset to 10, still 2 modulo 4
    assert_eq!(shown, vec!["a % 8 == 0", "b % 4 == 2", "c % 2 == 0"]);
    for n in 0..6 {
        let mut next = |_: &Type| n;
        let mut checked = 0;
        run_observed(&program, &mut next, &Limits::new(400), &mut |at, state| {
            if at.proc != main {
                return;
            }
            for e in &found {
                // a congruence is claimed once its variable holds a value
                let var = e.vars()[0];
                if state.is_written(var) {
                    assert_eq!(state.eval(e), Some(1), "{} fails with n = {n}", display_expr(&program, e));
                    checked += 1;
                }
            }
        });
        assert!(checked > 0);
    }
}

#[test]
fn straight_line_code_before_a_loop_gives_the_relations_it_sets_up() {
    // the head's `i + y == j + x` holds after `y = j;` only because `x == i` held before it
    let program = lower_source(
        "int __VERIFIER_nondet_int(void);
int main(void) {
  int i = __VERIFIER_nondet_int();
  int j = __VERIFIER_nondet_int();
  int x = i;
  int y = j;
  while (x != 0) { x--; y--; }
  return y;
}
",
    );
    let eqs = equalities(&program);
    assert!(eqs.iter().any(|e| e == "i + y == j + x" || e == "j + x == i + y"), "{eqs:?}");
    assert!(eqs.iter().any(|e| e == "i == x" || e == "x == i"), "{eqs:?}");
    // nothing about the inputs alone, and every claim holds where it is made
    assert!(!eqs.iter().any(|e| e.contains('i') && e.contains('j') && !e.contains('x') && !e.contains('y')), "{eqs:?}");
    assert_hold_on_runs(&program, &[0, 1, 2, 7]);
}

/// The equalities of `main` with their statements, as text.
fn at_statements(equalities: Vec<(u32, c_ir::Expr)>, program: &Program) -> Vec<(u32, String)> {
    equalities.into_iter().map(|(i, e)| (i, display_expr(program, &e))).collect()
}

#[test]
fn on_the_shared_engine_the_loop_equalities_are_those_of_the_former_worklist() {
    // what the analysis found with its own worklist, before it moved onto the engine
    let program = lower_source(include_str!("../../../../tests/cegar/stock_safe.c"));
    let main = program.entry.expect("main");
    let expected: Vec<(u32, String)> = [
        (2, "produced == stock"),
        (3, "produced == stock"),
        (4, "produced == stock"),
        (5, "produced == stock"),
        (6, "produced == stock + 1"),
        (7, "produced == stock"),
        (10, "produced == stock + consumed"),
        (11, "produced == stock + consumed"),
        (12, "produced == stock + consumed"),
        (13, "produced == stock + consumed"),
        (14, "produced == stock + consumed"),
        (15, "produced == stock + consumed"),
        (16, "produced == stock + consumed"),
        (17, "produced == stock + consumed + 1"),
        (18, "produced == stock + consumed"),
        // the straight-line code entering the second loop
        (9, "produced == stock"),
        (8, "produced == stock"),
    ]
    .into_iter()
    .map(|(i, e)| (i, e.to_string()))
    .collect();
    assert_eq!(at_statements(loop_equalities(&program, main), &program), expected);
    assert_hold_on_runs(&program, &[0, 1, 5]);

    let program = lower_source(include_str!("../../../../tests/cegar/odd_sums_safe.c"));
    let main = program.entry.expect("main");
    let affine: Vec<(u32, String)> =
        [(4, "y == (long)c"), (5, "y == (long)c"), (6, "y == (long)c"), (7, "y == (long)c - 1"), (8, "y == (long)c"), (9, "y == (long)c")]
            .into_iter()
            .map(|(i, e)| (i, e.to_string()))
            .collect();
    assert_eq!(at_statements(loop_equalities(&program, main), &program), affine);
    let polynomial = vec![(4, "y * y == x".to_string()), (8, "y * y == x + 2 * y - 1".to_string())];
    assert_eq!(at_statements(polynomial_loop_equalities(&program, main), &program), polynomial);
    assert_hold_on_runs(&program, &[0, 3, 7]);
}
