//! Polynomial equalities in loops (Karr's analysis over monomials): the invariants of the
//! classic non-linear loops, none from the affine ones alone, and every reported equality
//! holds on concrete runs.

use super::lower_source;
use c_ir::interp::{run_observed, Limits};
use c_ir::{display_expr, Program, Type};
use analyses::affine::polynomial_loop_equalities;

/// The equalities of `main`, as text, once each.
fn equalities(program: &Program) -> Vec<String> {
    let main = program.entry.expect("main");
    let mut out: Vec<String> = polynomial_loop_equalities(program, main).iter().map(|(_, e)| display_expr(program, e)).collect();
    out.dedup();
    out
}

/// Runs `main` with small inputs and checks each equality wherever it is claimed.
fn assert_hold_on_runs(program: &Program) {
    let main = program.entry.expect("main");
    let eqs = polynomial_loop_equalities(program, main);
    assert!(!eqs.is_empty());
    let mut checked = 0;
    for start in 0..12 {
        let mut k = 0;
        let mut next = |_: &Type| {
            k += 1;
            (start * 7 + k * 3) % 23
        };
        run_observed(program, &mut next, &Limits::new(2000), &mut |at, state| {
            if at.proc != main {
                return;
            }
            for (_, e) in eqs.iter().filter(|(i, _)| *i == at.index) {
                if let Some(v) = state.eval(e) {
                    assert_eq!(v, 1, "{} fails at statement {}", display_expr(program, e), at.index);
                    checked += 1;
                }
            }
        });
    }
    assert!(checked > 0, "no equality was evaluated");
}

const SQUARE_ROOT: &str = "int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  long long a = 0, s = 1, t = 1;
  while (s <= n) {
    a = a + 1;
    t = t + 2;
    s = s + t;
  }
  return a;
}
";

#[test]
fn square_root_loop_relates_the_square_to_the_counter_between_statements() {
    let program = lower_source(SQUARE_ROOT);
    let eqs = equalities(&program);
    // at the head and after each statement of the body: the sum of odd numbers is a square
    for expected in ["a * a + 2 * a == s - 1", "a * a == s"] {
        assert!(eqs.iter().any(|e| e == expected), "{expected} missing from {eqs:?}");
    }
    // nothing that follows from them or from the affine `t == 2 * a + 1` (`a * s == a * a * a`)
    assert_eq!(eqs.len(), 2, "{eqs:?}");
    assert_hold_on_runs(&program);
}

const TRIANGLE: &str = "int __VERIFIER_nondet_int(void);
int main(void) {
  int k = __VERIFIER_nondet_int();
  long long x = 0, y = 0;
  while (y < k) {
    y = y + 1;
    x = y + x;
  }
  return x;
}
";

#[test]
fn triangular_numbers_relate_the_sum_to_the_counter() {
    let program = lower_source(TRIANGLE);
    let eqs = equalities(&program);
    // at the head (and after `x = y + x`), and between the two statements
    assert_eq!(eqs, ["y * y + y == 2 * x", "y * y == 2 * x + y"]);
    assert_hold_on_runs(&program);
}

const GEOMETRIC: &str = "int __VERIFIER_nondet_int(void);
int main(void) {
  int z = __VERIFIER_nondet_int();
  int k = __VERIFIER_nondet_int();
  long long x = 1, y = z, c = 1;
  while (c < k) {
    c = c + 1;
    x = x * z + 1;
    y = y * z;
  }
  return x;
}
";

/// The linearisation forgets a monomial whose new value has too high a degree: `x * z` becomes
/// `x * z * z + z`, and the invariant `x * z + 1 == x + y` cannot be kept (the abstraction
/// proves it inductive once it is a predicate; the analysis does not propose it).
#[test]
fn non_linear_assignments_forget_what_exceeds_the_degree() {
    let program = lower_source(GEOMETRIC);
    assert_eq!(equalities(&program), Vec::<String>::new());
}

const COHEN_CUBE: &str = "int __VERIFIER_nondet_int(void);
int main(void) {
  int a = __VERIFIER_nondet_int();
  long long n = 0, x = 0, y = 1, z = 6;
  while (n <= a) {
    n = n + 1;
    x = x + y;
    y = y + z;
    z = z + 6;
  }
  return x;
}
";

#[test]
fn cohen_cube_gives_the_square_and_cube_invariants() {
    let program = lower_source(COHEN_CUBE);
    let eqs = equalities(&program);
    // `y == 3*n*n + 3*n + 1` at the head, `n * z == 2 * y - 2` from `z == 6*n + 6`, and the
    // cubes through `n * y`
    for expected in ["3 * (n * n) + 3 * n == y - 1", "n * z == 2 * y - 2", "n * y + 2 * n == 3 * x + y - 1"] {
        assert!(eqs.iter().any(|e| e == expected), "{expected} missing from {eqs:?}");
    }
    assert_hold_on_runs(&program);
}

#[test]
fn linear_loops_give_no_polynomial_equalities() {
    let program = lower_source(
        "int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  int i = 0, j = 10;
  while (i < n) { i = i + 1; j = j + 2; }
  return j;
}
",
    );
    assert_eq!(equalities(&program), Vec::<String>::new());
}
