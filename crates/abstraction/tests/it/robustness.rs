//! Programs using the rest of C (recursion, globals, heap, structs, arrays, unknown library
//! functions) abstracted with their own branch conditions as predicates: no panic, no error,
//! strategies agree, every boolean statement links back to a C statement.

use crate::support::assert_strategies_agree;
use c_ir::{ExprKind, PredicateSet, StmtKind, VarKind};

const PROGRAMS: &[(&str, &str)] = &[
    (
        "recursion",
        r#"int g;
int fact(int n) {
    int r;
    if (n <= 1) return 1;
    r = fact(n - 1);
    g = g + 1;
    return n * r;
}
int main(void) {
    int x = fact(3);
    if (x != 6) reach_error();
    return 0;
}"#,
    ),
    (
        "heap",
        r#"#include <stdlib.h>
struct node { int v; struct node *next; };
extern int __VERIFIER_nondet_int(void);
int main(void) {
    struct node *head = NULL;
    int n = 0;
    while (__VERIFIER_nondet_int() && n < 3) {
        struct node *p = malloc(sizeof(struct node));
        if (p == NULL) return 1;
        p->v = n;
        p->next = head;
        head = p;
        n++;
    }
    if (head != NULL && head->v >= 3) reach_error();
    while (head != NULL) {
        struct node *t = head->next;
        free(head);
        head = t;
    }
    return 0;
}"#,
    ),
    (
        "arrays_and_pointers",
        r#"extern int __VERIFIER_nondet_int(void);
extern int unknown_library_call(int *p);
int a[4];
void swap(int *p, int *q) { int t = *p; *p = *q; *q = t; }
int main(void) {
    int x = 1, y = 2, i;
    for (i = 0; i < 4; i++) a[i] = i;
    swap(&x, &y);
    if (x != 2) reach_error();
    unknown_library_call(&x);
    if (a[2] == 2 && y == 1) return 0;
    return 1;
}"#,
    ),
];

/// The program's branch conditions (over one procedure's variables) as local predicates.
fn branch_predicates(program: &c_ir::Program) -> PredicateSet {
    let mut set = PredicateSet::default();
    for proc in program.proc_ids() {
        for stmt in &program.proc(proc).body {
            if let StmtKind::Assume { cond } = &stmt.kind {
                if cond.as_const().is_some() || set.of_proc(proc).len() >= 5 {
                    continue;
                }
                let positive = match &cond.kind {
                    ExprKind::Unary(c_ir::UnaryOp::Not, inner) => (**inner).clone(),
                    _ => cond.clone(),
                };
                let ok = positive.vars().iter().all(|&v| matches!(program.var(v).kind.proc(), Some(p) if p == proc) || program.var(v).kind == VarKind::Global);
                if ok {
                    set.insert(Some(proc), positive);
                }
            }
        }
    }
    set
}

#[test]
fn more_of_c_abstracts_soundly_shaped() {
    for (name, source) in PROGRAMS {
        let (program, diags) = c_front::lower(source, &format!("{name}.c"), &c_front::LowerOptions::default());
        assert!(!diagnostics::has_errors(&diags), "{name}: {diags:?}");
        let program = program.expect("lowered");
        let set = branch_predicates(&program);
        assert!(!set.is_empty(), "{name}");
        let (_, exact) = assert_strategies_agree(&program, &set);
        for proc in &exact.program.procs {
            for stmt in boolprog::statements_in_order(&proc.body) {
                assert!(stmt.origin.is_some(), "{name}: statement without origin in {}", proc.name);
            }
        }
        if std::env::var("SHOW").is_ok() { eprintln!("{}", exact.print_bebop()); }
        let diags = boolprog::validate(&exact.program);
        assert!(!diagnostics::has_errors(&diags), "{name}: {diags:?}\n{}", exact.print_bebop());
    }
}

fn lower_ok(source: &str, name: &str) -> c_ir::Program {
    let (program, diags) = c_front::lower(source, name, &c_front::LowerOptions::default());
    assert!(!diagnostics::has_errors(&diags), "{name}: {diags:?}");
    program.expect("lowered")
}

/// Once the time budget is spent the translation still finishes, soundly: every predicate an
/// assignment may change becomes `*`, without simplification or solver work.
#[test]
fn a_spent_budget_turns_every_changed_predicate_into_unknown() {
    let source = "int main(void) { int x = 0; int y = 1; x = x + 1; y = x; if (x != 1) reach_error(); return 0; }";
    let program = lower_ok(source, "late.c");
    let set = branch_predicates(&program);
    assert!(!set.is_empty());
    for strategy in [abstraction::Strategy::Lattice, abstraction::Strategy::Exact] {
        let mut config = abstraction::AbstractionConfig::new(strategy);
        // on time: the assignments get precise values
        let (on_time, _) = abstraction::abstract_program(&program, &set, &config);
        config.time_budget_ms = Some(0);
        let (late, diags) = abstraction::abstract_program(&program, &set, &config);
        assert!(!diagnostics::has_errors(&diags), "{diags:?}");
        let assigned = |abs: &abstraction::Abstraction| -> Vec<Vec<boolprog::Expr>> {
            let main = abs.program.procs.iter().find(|p| p.name == "main").expect("main");
            boolprog::statements_in_order(&main.body)
                .into_iter()
                .filter_map(|s| match &s.kind {
                    boolprog::StmtKind::Assign { rhs, .. } => Some(rhs.clone()),
                    _ => None,
                })
                .collect()
        };
        let (precise, coarse) = (assigned(&on_time), assigned(&late));
        assert_eq!(precise.len(), coarse.len(), "{strategy:?}: same statements");
        assert!(precise.iter().flatten().any(|e| *e != boolprog::Expr::unknown()), "{strategy:?}");
        assert!(coarse.iter().flatten().all(|e| *e == boolprog::Expr::unknown()), "{strategy:?}: {coarse:?}");
    }
}

/// With bounded cones, a component of more than 12 related predicates gets its `enforce` from
/// the inconsistent pairs (lattice, cube length 2) instead of an exact enumeration; concrete
/// runs are still simulated.
#[test]
fn a_large_enforce_component_uses_inconsistent_pairs() {
    let source = "extern int __VERIFIER_nondet_int(void);\nint main(void) {\n  int x = __VERIFIER_nondet_int();\n  if (x == 3)\n    x = x + 1;\n  x = x + 1;\n  return 0;\n}\n";
    let program = lower_ok(source, "many.c");
    let text = format!("main {{ {} }}", (0..14).map(|k| format!("x == {k}")).collect::<Vec<_>>().join(", "));
    let (set, diags) = c_front::parse_predicates(&program, &text);
    assert!(!diagnostics::has_errors(&diags), "{diags:?}");
    let mut config = abstraction::AbstractionConfig::new(abstraction::Strategy::Exact);
    config.max_cone = Some(8);
    let (abs, diags) = abstraction::abstract_program(&program, &set, &config);
    assert!(!diagnostics::has_errors(&diags), "{diags:?}");
    let (_, main) = abs.program.proc_by_name("main").expect("main");
    let enforce = boolprog::print_expr_bebop(main.enforce.as_ref().expect("an enforce"));
    // every pair of distinct values excluded: C(14, 2) = 91 two-literal clauses
    assert_eq!(enforce.matches("=>").count(), 91, "{enforce}");
    let preds: Vec<c_ir::Expr> = abs.variables.iter().map(|v| v.predicate.clone()).collect();
    for start in [0i128, 2, 3, 12, 13, 40] {
        let mut inputs = |_: &c_ir::Type| start;
        let mut steps = Vec::new();
        c_ir::interp::run_observed(&program, &mut inputs, &c_ir::interp::Limits::new(100), &mut |at, state| {
            steps.push((at, preds.iter().map(|p| state.eval(p).map(|v| v != 0)).collect::<Vec<_>>()));
        });
        crate::support::assert_run_is_simulated(&abs, "main", &steps);
    }
}
