//! The engine side of the worker protocol: turns one [`ToWorker`] request into a stream of
//! [`FromWorker`] events. Pure Rust (no wasm types), so it runs natively in unit tests and
//! inside the web worker in the browser.

use crate::model::{FromWorker, Progress, Refinement, RunKind, RunRequest, Strategy, ToWorker};
use playground_api as api;

/// Handles one request that needs no state between messages, calling `emit` for every event
/// (in order). Stepped runs ([`ToWorker::Step`] and its follow-ups) are [`stepping`]'s, which
/// the worker keeps between messages.
pub fn handle(request: ToWorker, emit: &mut dyn FnMut(FromWorker)) {
    match request {
        ToWorker::Version => emit(FromWorker::Version(version())),
        ToWorker::Run(req) => run(req, emit),
        ToWorker::Step(req) => run_now(stepping(req, &StepInbox::with(&[]), emit)),
        ToWorker::StepNext | ToWorker::Finish => emit(FromWorker::Error(NO_STEPPED_RUN.into())),
        ToWorker::Hide(req) => emit(FromWorker::HideDone(Box::new(api::hide::hide(&req)))),
        ToWorker::Shape(req) => emit(FromWorker::ShapeDone(Box::new(api::shape::shape(&req)))),
        ToWorker::DebugTrap => panic!("the engine was asked to trap (a test of the worker's respawn)"),
        ToWorker::Explain { request, iteration, predicates } => emit(FromWorker::Explanation {
            iteration,
            result: api::explain_iteration(&api_request(&request), &predicates).map(Box::new),
        }),
        ToWorker::Query { request, predicates, question } => {
            emit(FromWorker::QueryAnswer(Box::new(api::query::answer(&api_request(&request), &predicates, &question))))
        }
        ToWorker::Witness { request, evidence } => {
            let command_line = Some("predabs playground (Check mode, Witness download)".to_string());
            emit(FromWorker::Witness(api::witness::build(&evidence, &api_request(&request), command_line).map(Box::new)))
        }
        ToWorker::ExerciseQueries { request, predicates, questions } => {
            emit(FromWorker::ExerciseAnswers(api::query::answers(&api_request(&request), &predicates, &questions)))
        }
    }
}

/// The answer to a follow-up without a stepped run (e.g. after the worker was restarted).
pub const NO_STEPPED_RUN: &str = "there is no stepped run to continue: press Step to start one";

/// What the student asks a paused stepped run to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepCommand {
    Next,
    Finish,
}

/// The queue of commands of one stepped run: the worker pushes what arrives, [`stepping`]
/// awaits them. Closing it (a new run replaces this one) ends the stepped run.
#[derive(Default)]
pub struct StepInbox {
    state: std::cell::RefCell<InboxState>,
}

#[derive(Default)]
struct InboxState {
    queue: std::collections::VecDeque<StepCommand>,
    closed: bool,
    waker: Option<std::task::Waker>,
}

impl StepInbox {
    /// An inbox holding `commands`, then closed (for runs driven without a worker).
    pub fn with(commands: &[StepCommand]) -> StepInbox {
        let inbox = StepInbox::default();
        commands.iter().for_each(|&c| inbox.push(c));
        inbox.close();
        inbox
    }
    pub fn push(&self, command: StepCommand) {
        let mut s = self.state.borrow_mut();
        s.queue.push_back(command);
        if let Some(w) = s.waker.take() {
            w.wake();
        }
    }
    pub fn close(&self) {
        let mut s = self.state.borrow_mut();
        s.closed = true;
        if let Some(w) = s.waker.take() {
            w.wake();
        }
    }
    /// The next command; `None` once the inbox is closed and empty.
    pub async fn next(&self) -> Option<StepCommand> {
        std::future::poll_fn(|cx| {
            let mut s = self.state.borrow_mut();
            match s.queue.pop_front() {
                Some(c) => std::task::Poll::Ready(Some(c)),
                None if s.closed => std::task::Poll::Ready(None),
                None => {
                    s.waker = Some(cx.waker().clone());
                    std::task::Poll::Pending
                }
            }
        })
        .await
    }
}

/// Polls a future whose every await is already answered (an inbox filled in advance).
pub fn run_now(future: impl std::future::Future<Output = ()>) {
    let mut future = std::pin::pin!(future);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    // an inbox filled in advance never leaves the future pending
    let _ = future.as_mut().poll(&mut cx);
}

/// A stepped Check run: one iteration now, then one more per [`StepCommand::Next`] from
/// `inbox`, or all the rest on [`StepCommand::Finish`]. After each iteration that does not
/// end the loop it emits [`FromWorker::Paused`]; at the end `Diagnostics` and `Done`. The
/// lowered program and the loop live in this future between the worker's messages.
pub async fn stepping(req: RunRequest, inbox: &StepInbox, emit: &mut dyn FnMut(FromWorker)) {
    let start = web_time::Instant::now();
    let request = api_request(&RunRequest { kind: RunKind::Check, ..req });
    let steps = api::CheckSteps::prepare(&request);
    let mut stepper = steps.stepper();
    if stepper.step(&mut |e| translate(e, start, emit)).is_some() {
        return;
    }
    loop {
        emit(FromWorker::Paused);
        match inbox.next().await {
            Some(StepCommand::Next) => {
                if stepper.step(&mut |e| translate(e, start, emit)).is_some() {
                    return;
                }
            }
            Some(StepCommand::Finish) => {
                stepper.finish(&mut |e| translate(e, start, emit));
                return;
            }
            None => return,
        }
    }
}

/// One engine event as the worker's events (`Done` is preceded by its diagnostics).
fn translate(event: api::Event, start: web_time::Instant, emit: &mut dyn FnMut(FromWorker)) {
    match event {
        api::Event::Progress { phase, iteration, solver_queries } => emit(FromWorker::Progress(Progress {
            iteration,
            phase,
            solver_calls: solver_queries,
            elapsed_ms: start.elapsed().as_millis() as u64,
        })),
        api::Event::Iteration { snapshot } => emit(FromWorker::IterationSnapshot(snapshot)),
        api::Event::Done { outcome } => {
            emit(FromWorker::Diagnostics(outcome.diagnostics.clone()));
            emit(FromWorker::Done(outcome));
        }
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
            RunKind::Hide => api::Mode::Hide,
            RunKind::Shape => api::Mode::Shape,
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
            budget: req.options.work_budget,
            // The explain views (lattices, WP, solver log) exist for Abstract mode; recording
            // slows the abstraction down, so other modes skip it.
            record_explanations: req.kind == RunKind::Abstract,
            techniques: req.options.techniques.clone(),
            entry: req.options.paper.entry.clone(),
            error_label: req.options.paper.error_label.clone(),
            integers: req.options.paper.integers,
            enforce: req.options.paper.enforce,
            points_to: req.options.paper.points_to,
            distribute_f: req.options.paper.distribute_f,
            precision: req.options.paper.precision,
            syntax: req.options.paper.syntax,
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
    fn check_mode_explains_an_iteration_on_demand() {
        let source = "extern int __VERIFIER_nondet_int(void);\nvoid reach_error(void);\nint main(void) {\n  int x = __VERIFIER_nondet_int();\n  int y = x;\n  if (y == 5) reach_error();\n  return 0;\n}\n";
        let request = RunRequest { kind: RunKind::Check, source: source.into(), predicates: String::new(), options: Default::default() };
        let events = collect(ToWorker::Explain { request: request.clone(), iteration: 2, predicates: "main { y == 5, x == 5 }".into() });
        match events.as_slice() {
            [FromWorker::Explanation { iteration: 2, result: Ok(data) }] => {
                assert!(data.statements.iter().any(|s| s.c_statement.starts_with("y = x")), "{:?}", data.statements);
            }
            other => panic!("one explanation: {other:?}"),
        }
        let events = collect(ToWorker::Explain { request, iteration: 1, predicates: "main { y == }".into() });
        assert!(matches!(events.as_slice(), [FromWorker::Explanation { iteration: 1, result: Err(_) }]), "{events:?}");
    }

    #[test]
    fn the_invariants_question_is_answered_by_the_worker() {
        let example = playground_api::examples::by_id("partition").expect("partition");
        let request = RunRequest { kind: RunKind::Abstract, source: example.source.into(), predicates: String::new(), options: Default::default() };
        let predicates = playground_api::examples::PARTITION_PREDICATES.to_string();
        let ask = |question: &str| collect(ToWorker::Query { request: request.clone(), predicates: predicates.clone(), question: question.into() });
        match ask("L: prev != curr").as_slice() {
            [FromWorker::QueryAnswer(a)] => assert_eq!(a.verdict, api::query::QueryVerdict::Holds, "{a:?}"),
            other => panic!("one answer: {other:?}"),
        }
        match ask("prev != curr").as_slice() {
            [FromWorker::QueryAnswer(a)] => assert_eq!(a.verdict, api::query::QueryVerdict::Error, "{a:?}"),
            other => panic!("one answer: {other:?}"),
        }
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

    fn stepped(id: &str, commands: &[StepCommand]) -> Vec<FromWorker> {
        let example = playground_api::examples::by_id(id).expect("example");
        let req = RunRequest { kind: RunKind::Check, source: example.source.into(), predicates: example.predicates.into(), options: Default::default() };
        let mut out = Vec::new();
        run_now(stepping(req, &StepInbox::with(commands), &mut |e| out.push(e)));
        out
    }

    /// The shape of a stream: `I1` an iteration, `P` paused, `D` done (progress left out).
    fn shape(events: &[FromWorker]) -> Vec<String> {
        events
            .iter()
            .filter_map(|e| match e {
                FromWorker::IterationSnapshot(s) => Some(format!("I{}", s.index)),
                FromWorker::Paused => Some("P".into()),
                FromWorker::Done(o) => Some(format!("D:{}", o.verdict.as_str())),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn testdev_in_three_steps_pauses_after_each_iteration() {
        let events = stepped("testdev", &[StepCommand::Next, StepCommand::Next]);
        assert_eq!(shape(&events), ["I1", "P", "I2", "P", "I3", "D:UNSAFE"]);
        // a pause with no command left (the student has not clicked yet) keeps waiting
        let events = stepped("testdev", &[StepCommand::Next]);
        assert_eq!(shape(&events), ["I1", "P", "I2", "P"]);
    }

    #[test]
    fn run_to_the_end_continues_a_stepped_run() {
        let events = stepped("testdev", &[StepCommand::Finish]);
        assert_eq!(shape(&events), ["I1", "P", "I2", "I3", "D:UNSAFE"]);
        assert!(matches!(events.iter().rev().nth(1), Some(FromWorker::Diagnostics(_))));
        let follow_up = collect(ToWorker::StepNext);
        assert_eq!(follow_up, vec![FromWorker::Error(NO_STEPPED_RUN.into())]);
    }
}
