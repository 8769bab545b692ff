//! The papers' input conventions in lowering: an error *label* (BOOP: reaching the label is the
//! error) and an entry procedure other than `main` (polymorphic predicate abstraction's open
//! environment), checked by running the interpreter.

use c_front::LowerOptions;
use c_ir::interp::{run, Limits, Outcome};
use c_ir::StmtKind;

use crate::support::check_invariants;

const SOURCE: &str = "int g;
int check(int x) {
  if (x > 10) {
  BAD: ;
  }
  if (x == 7) goto LAST;
  x = x + 1;
LAST:
  return x;
}
int main(void) { g = 1; check(3); return 0; }
";

fn lower(options: &LowerOptions) -> c_ir::Program {
    let (program, diagnostics) = c_front::lower(SOURCE, "conventions.c", options);
    assert!(
        !diagnostics::has_errors(&diagnostics),
        "{}",
        diagnostics::render_all(&diagnostics, "conventions.c", SOURCE)
    );
    let program = program.expect("a program");
    check_invariants(&program);
    program
}

fn outcome(program: &c_ir::Program, input: i128) -> Outcome {
    run(program, &mut |_| input, &Limits::new(10_000)).outcome
}

#[test]
fn an_error_label_makes_its_statement_the_error_location() {
    let plain = lower(&LowerOptions {
        entry: "check".into(),
        ..LowerOptions::default()
    });
    assert!(!plain
        .procs
        .iter()
        .any(|p| p.body.iter().any(|s| s.kind == StmtKind::Error)));
    assert!(matches!(outcome(&plain, 11), Outcome::Returned(_)));
    let labelled = lower(&LowerOptions {
        entry: "check".into(),
        error_label: Some("BAD".into()),
        ..LowerOptions::default()
    });
    let check = labelled
        .proc_by_name("check")
        .map(|p| labelled.proc(p))
        .expect("check");
    let at = check.label_index("BAD").expect("the label stays") as usize;
    assert_eq!(check.body[at].kind, StmtKind::Error);
    assert_eq!(outcome(&labelled, 11), Outcome::ReachedError);
    assert!(matches!(
        outcome(&labelled, 10),
        Outcome::Returned(Some(11))
    ));
}

#[test]
fn an_error_label_on_the_return_keeps_the_return_last() {
    let program = lower(&LowerOptions {
        entry: "check".into(),
        error_label: Some("LAST".into()),
        ..LowerOptions::default()
    });
    // every path reaches LAST: x == 7 by the jump, the others by falling through
    assert_eq!(outcome(&program, 7), Outcome::ReachedError);
    assert_eq!(outcome(&program, 1), Outcome::ReachedError);
}

#[test]
fn the_entry_procedure_reads_its_formals_from_the_environment() {
    let from_main = lower(&LowerOptions::default());
    assert_eq!(from_main.entry, from_main.proc_by_name("main"));
    assert!(matches!(
        outcome(&from_main, 99),
        Outcome::Returned(Some(0))
    ));
    let open = lower(&LowerOptions {
        entry: "check".into(),
        ..LowerOptions::default()
    });
    assert_eq!(open.entry, open.proc_by_name("check"));
    // `check`'s formal is an input: the run returns x + 1 for the value supplied
    assert!(matches!(outcome(&open, 41), Outcome::Returned(Some(42))));
}

#[test]
fn a_missing_error_label_is_an_error_that_names_it() {
    let options = LowerOptions {
        error_label: Some("NOWHERE".into()),
        ..LowerOptions::default()
    };
    let (_, diagnostics) = c_front::lower(SOURCE, "conventions.c", &options);
    let errors: Vec<_> = diagnostics
        .iter()
        .filter(|d| d.severity == diagnostics::Severity::Error)
        .collect();
    assert_eq!(errors.len(), 1, "{diagnostics:?}");
    assert!(
        errors[0].message.contains("`NOWHERE`"),
        "{}",
        errors[0].message
    );
}
