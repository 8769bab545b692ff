//! C2BP predicate files and single expressions resolved against lowered programs.

use c_ir::{display_expr, ExprKind, Type, VarKind};

fn program(name: &str) -> (c_ir::Program, String) {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/c-front");
    let source = super::support::seed_source(name);
    let preds = std::fs::read_to_string(dir.join(format!("{name}.preds"))).unwrap_or_default();
    (super::support::lower_ok(&source), preds)
}

#[test]
fn partition_predicates_resolve_in_scope() {
    let (p, text) = program("partition");
    let (set, diagnostics) = c_front::parse_predicates(&p, &text);
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    let proc = p.proc_by_name("partition").expect("partition");
    let shown: Vec<String> = set.of_proc(proc).iter().map(|e| display_expr(&p, e)).collect();
    assert_eq!(shown, ["curr == NULL", "prev == NULL", "curr->val > v", "prev->val > v"]);
    assert!(set.of_proc(proc).iter().all(|e| e.ty == Type::Bool));
    assert!(set.global.is_empty());
}

#[test]
fn foo_bar_predicates_have_two_blocks() {
    let (p, text) = program("foo_bar");
    let (set, diagnostics) = c_front::parse_predicates(&p, &text);
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    assert_eq!(set.len(), 7);
    let bar = p.proc_by_name("bar").expect("bar");
    let shown: Vec<String> = set.of_proc(bar).iter().map(|e| display_expr(&p, e)).collect();
    assert_eq!(shown, ["y >= 0", "*q <= y", "y == l1", "y > l2"]);
}

#[test]
fn symbolic_constants_and_semicolons() {
    let (p, text) = program("inc_foo");
    let (set, diagnostics) = c_front::parse_predicates(&p, &text);
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    let inc = p.proc_by_name("inc").expect("inc");
    let preds = set.of_proc(inc);
    assert_eq!(preds.len(), 2);
    let mut saw_symbolic = false;
    preds[0].visit(&mut |e| {
        if let ExprKind::Var(v) = e.kind {
            if matches!(p.var(v).kind, VarKind::SymbolicConst { .. }) {
                saw_symbolic = true;
            }
        }
    });
    assert!(saw_symbolic, "x == 'x must mention the symbolic constant");
    assert_eq!(display_expr(&p, &preds[1]), "r == 'x + 1");
    let foo = p.proc_by_name("foo").expect("foo");
    assert_eq!(set.of_proc(foo).len(), 3);
}

#[test]
fn global_block_and_duplicates() {
    let p = super::support::lower_ok("int g; int h; int main() { g = 1; return g; }");
    let (set, diagnostics) = c_front::parse_predicates(&p, "global { g == 1, g == 1; h < g }\n// comment\n");
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    assert_eq!(set.global.len(), 2);
}

#[test]
fn errors_have_spans_into_the_predicate_text() {
    let p = super::support::lower_ok("int g; int main() { int x = 0; return x; }");
    let text = "main { x == 0, nosuch > 1, x = 3, g ==  }\nnoproc { g == 0 }";
    let (set, diagnostics) = c_front::parse_predicates(&p, text);
    assert_eq!(set.len(), 1, "only `x == 0` is valid");
    let undeclared = diagnostics.iter().find(|d| d.message.contains("nosuch")).expect("undeclared identifier reported");
    assert_eq!(&text[undeclared.span.start as usize..undeclared.span.end as usize], "nosuch");
    assert!(diagnostics.iter().any(|d| d.message.contains("side effects")), "{diagnostics:?}");
    assert!(diagnostics.iter().any(|d| d.message.contains("noproc")), "{diagnostics:?}");
    assert!(diagnostics.iter().all(|d| (d.span.end as usize) <= text.len()));
}

#[test]
fn parse_expression_types_and_converts() {
    let p = super::support::lower_ok("unsigned char c; long l; int main() { int *p = 0; return 0; }");
    let main = p.proc_by_name("main");
    let (e, d) = c_front::parse_expression(&p, main, "c + 1 < l");
    assert!(d.is_empty(), "{d:?}");
    let e = e.expect("expression");
    assert_eq!(display_expr(&p, &e), "(long)((int)c + 1) < l");
    let (e, d) = c_front::parse_expression(&p, main, "p != NULL && *p > 0");
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(e.expect("expression").ty, Type::Bool);
    let (e, d) = c_front::parse_expression(&p, None, "p");
    assert!(e.is_none() && diagnostics::has_errors(&d), "locals are not visible globally");
}

#[test]
fn display_and_parse_round_trip() {
    for name in ["partition", "foo_bar", "inc_foo"] {
        let (p, text) = program(name);
        let (set, diagnostics) = c_front::parse_predicates(&p, &text);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        let shown = c_front::display_predicates(&p, &set);
        let (again, diagnostics) = c_front::parse_predicates(&p, &shown);
        assert!(diagnostics.is_empty(), "{name}: {diagnostics:?}\n{shown}");
        assert_eq!(again, set, "{name}:\n{shown}");
    }
}
