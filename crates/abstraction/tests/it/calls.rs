//! Regression tests for the call abstraction, from the interprocedural soundness property
//! test (`soundness_calls.rs`): each program is abstracted with both strategies and its
//! concrete runs are checked against the boolean program.

use crate::support::{assert_calls_are_simulated, assert_run_within_invariants, assert_strategies_agree, Step};
use abstraction::Abstraction;
use c_ir::interp::{run_observed, Limits};
use c_ir::{Expr, Program, Type};

fn abstract_source(source: &str, predicates: &str) -> (Program, Abstraction, Abstraction) {
    let (program, diags) = c_front::lower(source, "calls.c", &c_front::LowerOptions::default());
    assert!(!diagnostics::has_errors(&diags), "{diags:?}");
    let program = program.expect("lowered");
    let (set, diags) = c_front::parse_predicates(&program, predicates);
    assert!(!diagnostics::has_errors(&diags), "{diags:?}");
    let (lattice, exact) = assert_strategies_agree(&program, &set);
    (program, lattice, exact)
}

/// Runs the program with inputs `0, 1, -1, 2, ...` and checks the run against `abstraction`;
/// returns the number of steps observed.
fn check_runs(program: &Program, abstraction: &Abstraction) -> usize {
    let preds: Vec<Expr> = abstraction.variables.iter().map(|v| v.predicate.clone()).collect();
    let outcome = model_check::check(&abstraction.program, &model_check::Config::default());
    let mut total = 0;
    for run in 0..6i128 {
        let mut k = 0i128;
        let mut inputs = |_: &Type| {
            k += 1;
            (k + run) % 5 - 2
        };
        let mut steps = Vec::new();
        run_observed(program, &mut inputs, &Limits::new(200), &mut |at, state| {
            steps.push(Step { at, depth: state.call_depth(), values: preds.iter().map(|p| state.eval(p).map(|v| v != 0)).collect() });
        });
        assert_calls_are_simulated(abstraction, program, &steps);
        assert_run_within_invariants(abstraction, &outcome, program, &steps);
        total += steps.len();
    }
    total
}

/// `g = f(..)`: the global predicates change by the assignment of the result although the
/// callee keeps them up to date otherwise (they were left unchanged).
#[test]
fn result_assigned_to_a_global_updates_global_predicates() {
    let source = r#"
int g;
int f(int a) { g = a; return a - 1; }
int main(void) { g = 0; g = f(0); if (g != -1) reach_error(); return 0; }
"#;
    let (program, lattice, exact) = abstract_source(source, "global { g == -1, g == 0 }\nf { a == 0 }\n");
    for abstraction in [&lattice, &exact] {
        let text = abstraction.print_bebop();
        let after_call = text.lines().skip_while(|l| !l.contains("f(prm1)")).nth(1).unwrap_or("");
        assert!(after_call.contains("{g == -1}") && after_call.contains(":="), "{text}");
        assert!(check_runs(&program, abstraction) > 0);
    }
}

/// `f(&g)` with the return predicate `g != *q`: `orig` must keep the address `&g` (it used to
/// rename `g` under `&`, giving `γ = g != g_o`).
#[test]
fn addresses_passed_to_callees_keep_their_locations() {
    let source = r#"
int g;
extern int __VERIFIER_nondet_int(void);
int f(int a, int *q) { g = __VERIFIER_nondet_int(); return a; }
int main(void) { int z = 0; g = 0; f(-1, &g); if (z > g) return 1; return 0; }
"#;
    let (program, lattice, exact) = abstract_source(source, "f { g != *q, g <= 1 }\nmain { z <= g }\n");
    for abstraction in [&lattice, &exact] {
        let call = abstraction.calls.iter().find(|c| !c.returns.is_empty()).expect("call record");
        for (_, gamma) in &call.returns {
            assert!(!gamma.contains("g_o"), "{:?}", call.returns);
        }
        assert!(check_runs(&program, abstraction) > 0);
    }
}


/// After `set_g()` the caller's `{x == g}` is stale until its update: `enforce` (which relates
/// it to `{g == 0}`) may not prune that intermediate state, or the model checker loses every
/// run through the call (found on kbfiltr_simpl2 from SV-COMP, a wrong SAFE).
#[test]
fn stale_caller_predicates_after_a_call_are_not_pruned_by_enforce() {
    let source = "int g;\nvoid set_g(void) { g = 5; }\nint main(void) { int x; g = 0; x = 0; set_g(); x = x + 1; return 0; }\n";
    let (program, lattice, exact) = abstract_source(source, "global { g == 0 }\nmain { x == 0, x == g }\n");
    for abstraction in [&lattice, &exact] {
        let bp = abstraction.print_bebop();
        assert!(bp.contains("enforce"), "{bp}");
        let outcome = model_check::check(&abstraction.program, &model_check::Config::default());
        assert_eq!(outcome.verdict, model_check::Verdict::Safe);
        let preds: Vec<Expr> = abstraction.variables.iter().map(|v| v.predicate.clone()).collect();
        let mut steps = Vec::new();
        run_observed(&program, &mut |_: &Type| 0, &Limits::new(100), &mut |at, state| {
            steps.push(Step { at, depth: state.call_depth(), values: preds.iter().map(|p| state.eval(p).map(|v| v != 0)).collect() });
        });
        assert!(assert_run_within_invariants(abstraction, &outcome, &program, &steps) >= 5);
    }
}

/// The model checker's verdict on the boolean program.
fn verdict(abstraction: &Abstraction) -> model_check::Verdict {
    model_check::check(&abstraction.program, &model_check::Config::default()).verdict
}

const COUNTER: &str = "struct counter { int value; int limit; };\n";

/// Field-sensitive mod summaries: a callee that writes only `c->value` leaves the caller's
/// `{k.limit == 10}` as it was (before, any write through a pointer made every field of an
/// address-taken struct stale, and the error was reachable in the boolean program).
#[test]
fn a_field_the_callee_does_not_write_survives_the_call() {
    let source = format!(
        "{COUNTER}void bump(struct counter *c) {{ c->value = c->value + 1; }}\n\
         int main(void) {{ struct counter k; k.value = 0; k.limit = 10; bump(&k); if (k.limit != 10) reach_error(); return 0; }}\n"
    );
    let (program, lattice, exact) = abstract_source(&source, "main { k.limit == 10 }\n");
    for abstraction in [&lattice, &exact] {
        assert_eq!(verdict(abstraction), model_check::Verdict::Safe, "{}", abstraction.print_bebop());
        assert!(check_runs(&program, abstraction) > 0);
    }
}

/// The same caller with callees that may change `k.limit`: through the field itself, through
/// an `int *` to it, through a whole-struct store, or through a callee of the callee. Each
/// keeps the predicate stale after the call (the error stays reachable in the boolean program).
#[test]
fn a_field_the_callee_may_write_is_stale_after_the_call() {
    let callees = [
        ("void change(struct counter *c) { c->limit = c->limit + 1; }", "change(&k);"),
        ("void change(int *p) { *p = 3; }", "change(&k.limit);"),
        ("void change(struct counter *c) { struct counter z; z.value = 0; z.limit = 0; *c = z; }", "change(&k);"),
        ("void inner(struct counter *c) { c->limit = 0; }\nvoid change(struct counter *c) { inner(c); }", "change(&k);"),
    ];
    for (callee, call) in callees {
        let source = format!(
            "{COUNTER}{callee}\nint main(void) {{ struct counter k; k.value = 0; k.limit = 10; {call} if (k.limit != 10) reach_error(); return 0; }}\n"
        );
        let (program, lattice, exact) = abstract_source(&source, "main { k.limit == 10 }\n");
        for abstraction in [&lattice, &exact] {
            assert_eq!(verdict(abstraction), model_check::Verdict::ErrorReachable, "{callee}\n{}", abstraction.print_bebop());
            assert!(check_runs(&program, abstraction) > 0);
        }
    }
}
