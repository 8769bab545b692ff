//! The engine side of the worker protocol: turns one [`ToWorker`] request into a stream of
//! [`FromWorker`] events. Pure Rust (no wasm types), so it runs natively in unit tests and
//! inside the web worker in the browser.

use crate::fixture;
use crate::model::{FromWorker, Progress, RunKind, RunRequest, ToWorker, Verdict};

/// Handles one request, calling `emit` for every event (in order).
pub fn handle(request: ToWorker, emit: &mut dyn FnMut(FromWorker)) {
    match request {
        ToWorker::Version => emit(FromWorker::Version(version())),
        ToWorker::Run(req) => run(req, emit),
        ToWorker::Demo => fixture::replay(emit),
    }
}

/// The engine's version string. It is computed by building and printing a tiny IR program
/// (`int main(void) { return 0; }`) with the engine crates, and names the target it was compiled
/// for, so only the running wasm worker can produce the `wasm32` form the end-to-end test expects.
pub fn version() -> String {
    let program = tiny_program();
    let printed = c_ir::display_program(&program);
    let stmts: usize = program.procs.iter().map(|p| p.body.len()).sum();
    let procs = program.procs.len();
    format!(
        "predabs engine {} ({}; c-ir: {} procedure{}, {} statement{}, {} bytes printed)",
        env!("CARGO_PKG_VERSION"),
        target_name(),
        procs,
        if procs == 1 { "" } else { "s" },
        stmts,
        if stmts == 1 { "" } else { "s" },
        printed.len(),
    )
}

fn target_name() -> &'static str {
    if cfg!(target_arch = "wasm32") {
        "wasm32"
    } else {
        std::env::consts::ARCH
    }
}

/// `int main(void) { return 0; }` as the front end would lower it.
fn tiny_program() -> c_ir::Program {
    use c_ir::{Expr, Procedure, Program, Stmt, StmtKind, Type, Var, VarKind};
    use diagnostics::Span;
    let mut program = Program::default();
    let main = c_ir::ProcId(0);
    let ret = program.add_var(Var {
        name: "main$return".into(),
        source_name: "main$return".into(),
        ty: Type::INT,
        kind: VarKind::Return(main),
        span: Span::default(),
        address_taken: false,
    });
    program.procs.push(Procedure {
        name: "main".into(),
        formals: Vec::new(),
        locals: vec![ret],
        ret_var: Some(ret),
        ret_ty: Type::INT,
        body: vec![
            Stmt {
                kind: StmtKind::Assign { lhs: Expr::var(ret, Type::INT), rhs: Expr::int(0, Type::INT) },
                span: Span::new(17, 26),
                label: None,
            },
            Stmt { kind: StmtKind::Return { value: Some(Expr::var(ret, Type::INT)) }, span: Span::new(27, 28), label: None },
        ],
        span: Span::new(0, 28),
    });
    program.entry = Some(main);
    program
}

fn run(req: RunRequest, emit: &mut dyn FnMut(FromWorker)) {
    emit(FromWorker::Progress(Progress { iteration: 0, phase: "parse".into(), solver_calls: 0, elapsed_ms: 0 }));
    if req.source.trim().is_empty() {
        emit(FromWorker::Diagnostics(Vec::new()));
        emit(FromWorker::Done(Verdict::Unknown { reason: "the program is empty".into() }));
        return;
    }
    // The engine stages land one by one (issues 3–7); until `playground-api` exposes a session
    // this answers honestly instead of pretending.
    emit(FromWorker::Diagnostics(Vec::new()));
    let what = match req.kind {
        RunKind::Check => "the CEGAR loop",
        RunKind::Abstract => "predicate abstraction",
        RunKind::ModelCheck => "the boolean program model checker",
    };
    emit(FromWorker::Error(format!(
        "{what} is not in this build of the engine yet ({} lines received). Open ?demo to see the panes with recorded data.",
        req.source.lines().count()
    )));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collect(req: ToWorker) -> Vec<FromWorker> {
        let mut out = Vec::new();
        handle(req, &mut |e| out.push(e));
        out
    }

    #[test]
    fn version_names_the_ir_it_built() {
        let v = version();
        assert!(v.starts_with(concat!("predabs engine ", env!("CARGO_PKG_VERSION"))), "{v}");
        assert!(v.contains("c-ir: 1 procedure, 2 statements"), "{v}");
        assert!(!v.contains("wasm32"), "native build must not claim wasm32: {v}");
    }

    #[test]
    fn a_run_always_ends_with_done_or_error() {
        for kind in RunKind::ALL {
            let events = collect(ToWorker::Run(RunRequest {
                kind,
                source: "int main(void) { return 0; }\n".into(),
                predicates: String::new(),
                options: Default::default(),
            }));
            assert!(matches!(events.last(), Some(FromWorker::Done(_) | FromWorker::Error(_))), "{events:?}");
            let ends = events.iter().filter(|e| matches!(e, FromWorker::Done(_) | FromWorker::Error(_))).count();
            assert_eq!(ends, 1);
        }
    }

    #[test]
    fn demo_streams_snapshots_then_a_verdict() {
        let events = collect(ToWorker::Demo);
        let snapshots = events.iter().filter(|e| matches!(e, FromWorker::IterationSnapshot(_))).count();
        assert!(snapshots >= 2);
        assert!(matches!(events.last(), Some(FromWorker::Done(_))));
    }
}
