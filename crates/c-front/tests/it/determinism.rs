//! The interpreter notices when a run depends on a nondeterministic choice: an input, a read
//! of memory that was never written, or a branch with two open sides. A run without any is the
//! program's only execution, which the CEGAR loop uses as a verdict of last resort.

use crate::support::{lower_ok, run_with};
use c_ir::interp::Outcome;

fn deterministic(source: &str) -> bool {
    let program = lower_ok(source);
    let result = run_with(&program, &[]);
    assert!(matches!(result.outcome, Outcome::Returned(_) | Outcome::ReachedError | Outcome::AssumeFailed), "{:?}", result.outcome);
    result.deterministic
}

#[test]
fn constant_programs_are_deterministic() {
    // no return statement in main: the unwritten return value is never used
    assert!(deterministic("int main() { int x = 1; if (x) x = 2; }"));
    // globals start zeroed
    assert!(deterministic("int g; int main() { if (g) return 1; return 0; }"));
    assert!(deterministic("struct s { int a; int b; }; int main() { struct s v; v.a = 1; v.b = 2; struct s w = v; return w.a; }"));
    assert!(deterministic("extern void *malloc(unsigned long); int main() { int *p = malloc(4); *p = 3; return *p; }"));
    assert!(deterministic("int f(int n) { if (n == 0) return 0; return n + f(n - 1); } int main() { return f(10); }"));
}

#[test]
fn inputs_uninitialised_reads_and_open_branches_are_noticed() {
    assert!(!deterministic("extern int __VERIFIER_nondet_int(void); int main() { int x = __VERIFIER_nondet_int(); return x; }"));
    assert!(!deterministic("int main() { int x; if (x) return 1; return 0; }"));
    assert!(!deterministic("extern void *malloc(unsigned long); int main() { int *p = malloc(4); return *p; }"));
    // an unwritten return value that the caller stores
    assert!(!deterministic("int f() { } int main() { int x = f(); return x; }"));
    // an unknown function's result
    assert!(!deterministic("int get(void); int main() { return get(); }"));
}
