//! Affine procedure summaries: the relations recursion needs, and the call-site relations hold
//! on concrete runs.

use super::lower_source;
use c_ir::interp::{run_observed, Limits};
use c_ir::{display_expr, Program, StmtKind, Type};
use analyses::affine::call_relations;

fn relations_of(program: &Program, name: &str) -> Vec<String> {
    let proc = program.proc_ids().find(|&p| program.proc(p).name == name).expect("procedure");
    call_relations(program).get(&proc).map(|l| l.iter().map(|e| display_expr(program, e)).collect()).unwrap_or_default()
}

/// Runs the program with each pair of inputs and checks the call-site relations of `main`
/// right after each call (those whose variables are all assigned); returns the number of checks.
fn check_call_sites(program: &Program, inputs: &[(i128, i128)]) -> usize {
    let main = program.entry.expect("main");
    let relations = call_relations(program).remove(&main).unwrap_or_default();
    let body = &program.proc(main).body;
    let after_call: Vec<u32> = (0..body.len()).filter(|&i| i > 0 && matches!(body[i - 1].kind, StmtKind::Call { .. })).map(|i| i as u32).collect();
    let mut checks = 0;
    for &(a, b) in inputs {
        let mut k = 0;
        let mut next = |_: &Type| {
            k += 1;
            if k == 1 {
                a
            } else {
                b
            }
        };
        run_observed(program, &mut next, &Limits::new(100_000), &mut |at, state| {
            if at.proc != main || !after_call.contains(&at.index) {
                return;
            }
            // a relation of a later call mentions a variable not assigned yet
            for e in relations.iter().filter(|e| e.vars().iter().all(|&v| state.is_written(v))) {
                assert_eq!(state.eval(e), Some(1), "{} fails after the call (inputs {a}, {b})", display_expr(program, e));
                checks += 1;
            }
        });
    }
    checks
}

const ADDITION: &str = "int __VERIFIER_nondet_int(void);
long long addition(long long m, long long n) {
  if (n == 0) return m;
  if (n > 0) return addition(m + 1, n - 1);
  if (n < 0) return addition(m - 1, n + 1);
}
int main(void) {
  int m = __VERIFIER_nondet_int();
  int n = __VERIFIER_nondet_int();
  long long result = addition(m, n);
  return result == m + n;
}
";

#[test]
fn recursion_gives_the_relation_of_result_and_arguments() {
    let program = lower_source(ADDITION);
    let callee = relations_of(&program, "addition");
    let main = relations_of(&program, "main");
    // the summary, and the formals that keep their entry values
    for expected in ["'m + 'n == addition_return", "m == 'm", "n == 'n"] {
        assert!(callee.iter().any(|e| e == expected), "{expected} not in {callee:?}");
    }
    // the recursive call sites, and the call in main
    assert!(callee.iter().any(|e| e == "m + n == addition_return"), "{callee:?}");
    assert_eq!(main, ["(long)m_main + (long)n_main == result"]);
    assert!(check_call_sites(&program, &[(0, 0), (3, 4), (-5, 7), (100, -20)]) > 0);
}

#[test]
fn a_base_case_without_equality_guard_or_a_non_linear_step_gives_no_summary() {
    // the result depends on the argument non-linearly: no relation is claimed
    let program = lower_source(
        "int __VERIFIER_nondet_int(void);
int square(int x) { if (x <= 0) return 0; return square(x - 1) + 2 * x - 1; }
int twice(int x) { return x * x; }
int main(void) {
  int a = __VERIFIER_nondet_int();
  int s = square(a);
  int t = twice(a);
  return s + t;
}
",
    );
    assert_eq!(relations_of(&program, "main"), Vec::<String>::new());
    assert!(relations_of(&program, "square").iter().all(|e| !e.contains("square_return")), "{:?}", relations_of(&program, "square"));
    assert!(relations_of(&program, "twice").iter().all(|e| !e.contains("twice_return")), "{:?}", relations_of(&program, "twice"));
}

#[test]
fn summaries_compose_through_calls_and_hold_after_each_call() {
    // inc adds one, add3 three calls deep, and the results are related to the arguments
    let program = lower_source(
        "int __VERIFIER_nondet_int(void);
int inc(int x) { return x + 1; }
int add3(int y) { int a = inc(y); int b = inc(a); return inc(b); }
int sub(int p, int q) { if (q == 0) return p; return sub(p - 1, q - 1); }
int main(void) {
  int u = __VERIFIER_nondet_int();
  int v = __VERIFIER_nondet_int();
  int r = add3(u);
  int d = sub(u, v);
  int w = inc(r);
  return r + d + w;
}
",
    );
    let main = relations_of(&program, "main");
    for expected in ["u == r - 3", "u == v + d", "r == w - 1"] {
        assert!(main.iter().any(|e| e == expected), "{expected} not in {main:?}");
    }
    // small inputs: `sub` recurses v times
    assert!(check_call_sites(&program, &[(0, 0), (3, 4), (-5, 7), (10, 2)]) >= 12);
}

#[test]
fn the_same_equality_is_recognised_whatever_its_form() {
    let program = lower_source(
        "int __VERIFIER_nondet_int(void);
int main(void) {
  int a = __VERIFIER_nondet_int();
  int b = __VERIFIER_nondet_int();
  long c = b;
  return a + b + c;
}
",
    );
    let main = program.entry;
    let parse = |text: &str| c_front::parse_expression(&program, main, text).0.expect(text);
    let forms = ["b == a + 1", "a == b - 1", "2 * b == 2 * a + 2", "a + 1 == b"].map(parse);
    for x in &forms {
        for y in &forms {
            assert!(analyses::affine::same_equality(x, y), "{} / {}", display_expr(&program, x), display_expr(&program, y));
        }
    }
    // another constant, another width, not an equality
    for other in ["b == a + 2", "c == (long)a + 1", "b <= a + 1"].map(parse) {
        assert!(!analyses::affine::same_equality(&forms[0], &other), "{}", display_expr(&program, &other));
    }
}

#[test]
fn on_the_shared_engine_the_recursive_summary_is_that_of_the_former_worklist() {
    // what the bottom-up iteration found with its own worklist, before it moved onto the engine
    let program = crate::lower_source(include_str!("../../../../tests/cegar/recursive_sum_safe.c"));
    assert_eq!(relations_of(&program, "add"), ["'m + 'n == add_return", "m == 'm", "n == 'n", "m + n == add_return"]);
    assert_eq!(relations_of(&program, "main"), ["(long)m_main + (long)n_main == r"]);
    assert!(check_call_sites(&program, &[(3, 4), (-2, 7), (10, -5)]) > 0);
}
