//! Shared helpers: lowering with assertions, IR invariant checks, running with fixed inputs.

use c_ir::interp::{run, Limits, Outcome, RunResult};
use c_ir::{Program, StmtKind, Type};
use std::collections::HashSet;

/// The C source of a golden-test program: `tests/c-front/NAME.c`, or else the seed program
/// `tests/programs/NAME.c` that is shared with the other golden tests and the playground examples.
pub fn seed_source(name: &str) -> String {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests");
    let own = root.join(format!("c-front/{name}.c"));
    let path = if own.exists() { own } else { root.join(format!("programs/{name}.c")) };
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Lowers `source`, failing the test with rendered diagnostics when there are errors.
pub fn lower_ok(source: &str) -> Program {
    let (program, diagnostics) = c_front::lower(source, "test.c", &c_front::LowerOptions::default());
    let rendered = diagnostics::render_all(&diagnostics, "test.c", source);
    assert!(!diagnostics::has_errors(&diagnostics), "unexpected errors:\n{rendered}");
    let program = program.expect("a program");
    check_invariants(&program);
    program
}

/// The structural invariants every lowered program must satisfy (c-ir's module doc).
pub fn check_invariants(program: &Program) {
    let mut names = HashSet::new();
    for v in &program.vars {
        assert!(names.insert(v.name.clone()), "variable name `{}` is not unique", v.name);
    }
    for proc in &program.procs {
        assert!(!proc.body.is_empty(), "procedure {} has an empty body", proc.name);
        let returns = proc.body.iter().filter(|s| matches!(s.kind, StmtKind::Return { .. })).count();
        assert_eq!(returns, 1, "procedure {} must have exactly one return", proc.name);
        assert!(matches!(proc.body.last().map(|s| &s.kind), Some(StmtKind::Return { .. })), "return of {} is not last", proc.name);
        let mut labels = HashSet::new();
        for stmt in &proc.body {
            if let Some(l) = &stmt.label {
                assert!(labels.insert(l.clone()), "label {l} is not unique in {}", proc.name);
            }
            match &stmt.kind {
                StmtKind::Goto { targets } => {
                    assert!(!targets.is_empty());
                    for t in targets {
                        assert!((*t as usize) < proc.body.len(), "goto target out of range in {}", proc.name);
                        assert!(proc.body[*t as usize].label.is_some(), "goto target without label in {}", proc.name);
                    }
                }
                StmtKind::Assume { cond } => assert_eq!(cond.ty, Type::Bool, "assume condition must be Bool in {}", proc.name),
                StmtKind::Call { callee, args, .. } => {
                    let formals = program.proc(*callee).formals.len();
                    assert_eq!(args.len(), formals, "call of {} with wrong arity", program.proc(*callee).name);
                }
                _ => {}
            }
        }
        // 'f = f for every formal, in order, at entry (after global initialisers in main)
        for &f in &proc.formals {
            let sym = program.symbolic_const_of(f).expect("every formal has a symbolic constant");
            let found = proc.body.iter().any(|s| {
                matches!(&s.kind, StmtKind::Assign { lhs, rhs } if lhs.kind == c_ir::ExprKind::Var(sym) && rhs.kind == c_ir::ExprKind::Var(f))
            });
            assert!(found, "missing 'f = f for a formal of {}", proc.name);
        }
    }
}

/// Runs with the given nondeterministic values (then zeros).
pub fn run_with(program: &Program, values: &[i128]) -> RunResult {
    let mut next = 0;
    let mut inputs = |_: &Type| {
        let v = values.get(next).copied().unwrap_or(0);
        next += 1;
        v
    };
    run(program, &mut inputs, &Limits::new(200_000))
}

/// The entry procedure's return value.
pub fn returned(program: &Program, values: &[i128]) -> i128 {
    match run_with(program, values).outcome {
        Outcome::Returned(Some(v)) => v,
        other => panic!("expected a return, got {other:?}"),
    }
}
