//! The engine side of the worker protocol: turns one [`ToWorker`] request into a stream of
//! [`FromWorker`] events. Pure Rust (no wasm types), so it runs natively in unit tests and
//! inside the web worker in the browser.

use crate::model::{FromWorker, Progress, Refinement, RunKind, RunRequest, Strategy, ToWorker};
use playground_api as api;

/// Handles one request, calling `emit` for every event (in order).
pub fn handle(request: ToWorker, emit: &mut dyn FnMut(FromWorker)) {
    match request {
        ToWorker::Version => emit(FromWorker::Version(version())),
        ToWorker::Run(req) => run(req, emit),
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

/// Converts the UI's request into `playground-api`'s.
pub fn api_request(req: &RunRequest) -> api::Request {
    api::Request {
        mode: match req.kind {
            RunKind::Check => api::Mode::Check,
            RunKind::Abstract => api::Mode::Abstract,
            RunKind::ModelCheck => api::Mode::BooleanProgram,
        },
        source: req.source.clone(),
        file_name: if req.kind == RunKind::ModelCheck { "program.bp" } else { "program.c" }.into(),
        predicates: req.predicates.clone(),
        options: api::Options {
            int_width: req.options.int_width,
            strategy: match req.options.strategy {
                Strategy::Lattice => api::Strategy::Lattice,
                Strategy::Exact => api::Strategy::Exact,
            },
            max_cube: req.options.max_cube_len,
            refine: match req.options.refinement {
                Refinement::Wp => api::RefineMethod::Wp,
                Refinement::Sp => api::RefineMethod::Sp,
            },
            max_iterations: req.options.max_iterations,
            timeout_ms: req.options.time_budget_ms,
            // The explain views (lattices, WP, solver log) exist for Abstract mode; recording
            // slows the abstraction down, so other modes skip it.
            record_explanations: req.kind == RunKind::Abstract,
            techniques: req.options.techniques.clone(),
            ..api::Options::default()
        },
    }
}

/// Runs the engine through `playground-api`, translating its events. Cancellation is by
/// terminating the worker, so the engine's own cancel flag is never raised here.
fn run(req: RunRequest, emit: &mut dyn FnMut(FromWorker)) {
    let start = web_time::Instant::now();
    let request = api_request(&req);
    let mut sent_iterations = 0usize;
    emit(FromWorker::Progress(Progress { iteration: 0, phase: "parse".into(), solver_calls: 0, elapsed_ms: 0 }));
    let mut on_event = |event: api::Event| match event {
        api::Event::Progress { phase, iteration, solver_queries } => emit(FromWorker::Progress(Progress {
            iteration,
            phase,
            solver_calls: solver_queries,
            elapsed_ms: start.elapsed().as_millis() as u64,
        })),
        api::Event::Iteration { snapshot } => {
            sent_iterations += 1;
            emit(FromWorker::IterationSnapshot(snapshot));
        }
        api::Event::Done { mut outcome } => {
            emit(FromWorker::Diagnostics(outcome.diagnostics.clone()));
            // Modes without streamed iterations (boolean programs) report them only here.
            let iterations = std::mem::take(&mut outcome.iterations);
            for s in iterations.into_iter().skip(sent_iterations) {
                emit(FromWorker::IterationSnapshot(Box::new(s)));
            }
            emit(FromWorker::Done(outcome));
        }
    };
    let _ = api::run(&request, &mut on_event, &|| false);
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
    fn default_options_are_the_engines() {
        let req = RunRequest { kind: RunKind::Check, source: String::new(), predicates: String::new(), options: Default::default() };
        let ours = api_request(&req).options;
        // the engine's defaults, except that the playground starts with the textbook loop alone
        assert_eq!(ours, api::Options { record_explanations: false, techniques: vec![api::Technique::Cegar], ..api::Options::default() });
        let abstract_req = RunRequest { kind: RunKind::Abstract, ..req };
        assert!(api_request(&abstract_req).options.record_explanations, "the explain views need them");
    }

    #[test]
    fn a_buggy_program_is_unsafe_with_a_trace() {
        let source = "extern int __VERIFIER_nondet_int(void);\nvoid reach_error(void);\nint main(void) {\n  int x = __VERIFIER_nondet_int();\n  if (x == 5) reach_error();\n  return 0;\n}\n";
        let events = collect(ToWorker::Run(RunRequest {
            kind: RunKind::Check,
            source: source.into(),
            predicates: String::new(),
            options: Default::default(),
        }));
        match events.last() {
            Some(FromWorker::Done(outcome)) => {
                assert_eq!(outcome.verdict, api::Verdict::Unsafe);
                assert!(!outcome.trace.is_empty());
                assert!(outcome.iterations.is_empty(), "iterations are streamed, not repeated");
            }
            other => panic!("{other:?}"),
        }
        assert!(events.iter().any(|e| matches!(e, FromWorker::IterationSnapshot(_))));
    }

    #[test]
    fn a_syntax_error_is_a_diagnostic_at_its_line() {
        let events = collect(ToWorker::Run(RunRequest {
            kind: RunKind::Check,
            source: "int main(void) {\n  int x = 1;\n  x = x +;\n  return 0;\n}\n".into(),
            predicates: String::new(),
            options: Default::default(),
        }));
        let diags = events.iter().find_map(|e| match e { FromWorker::Diagnostics(d) => Some(d.clone()), _ => None }).unwrap();
        assert!(diags.iter().any(|d| d.line == 3 && d.severity == api::Severity::Error), "{diags:?}");
        assert!(matches!(events.last(), Some(FromWorker::Done(_) | FromWorker::Error(_))));
    }

    #[test]
    fn abstract_runs_carry_explanations() {
        let example = playground_api::examples::by_id("increment").expect("increment");
        let events = collect(ToWorker::Run(RunRequest {
            kind: RunKind::Abstract,
            source: example.source.into(),
            predicates: example.predicates.into(),
            options: Default::default(),
        }));
        let snapshot = events
            .iter()
            .find_map(|e| match e {
                FromWorker::IterationSnapshot(s) => Some(s.clone()),
                _ => None,
            })
            .expect("a snapshot");
        assert!(snapshot.explanation.is_some_and(|e| !e.statements.is_empty()));
    }
}
