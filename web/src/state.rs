//! The single app state (a Yew reducer shared through a context) and the actions that change
//! it. Side effects (worker messages, storage, clipboard) live in the app component; the
//! reducer itself is pure and unit-tested natively.

use crate::examples::Example;
use crate::model::{DiagnosticView, FromWorker, IterationSnapshot, LineRange, Options, Progress, RunKind, Verdict};
use crate::share::Session;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Clone, Debug, PartialEq)]
pub enum WorkerStatus {
    Starting,
    Ready,
    /// The worker failed to start or crashed; it is respawned on the next run.
    Failed(String),
}

#[derive(Clone, Debug, PartialEq)]
pub enum RunStatus {
    Idle,
    Running(Progress),
    Finished,
    Failed(String),
    Cancelled,
}

/// Results of the current (or last) run.
#[derive(Clone, Debug, PartialEq)]
pub struct RunResults {
    pub status: RunStatus,
    pub diagnostics: Vec<DiagnosticView>,
    pub iterations: Vec<IterationSnapshot>,
    pub verdict: Option<Verdict>,
    /// The run replays hand-written demo data (`?demo`).
    pub demo: bool,
}

impl Default for RunResults {
    fn default() -> RunResults {
        RunResults { status: RunStatus::Idle, diagnostics: Vec::new(), iterations: Vec::new(), verdict: None, demo: false }
    }
}

/// Which lines the pointer is on, for partner highlighting between C and the boolean program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Hover {
    #[default]
    None,
    /// A C line in the editor.
    CLine(u32),
    /// A boolean program line (index into the selected iteration's program) and its C lines.
    BoolLine(usize, Option<LineRange>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Popup {
    Examples,
    Settings,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AppState {
    pub session: Session,
    pub engine_version: Option<String>,
    pub worker: WorkerStatus,
    pub run: RunResults,
    /// Index into `run.iterations`.
    pub selected: Option<usize>,
    pub hover: Hover,
    pub popup: Option<Popup>,
    /// A message bar (share link copied, invalid link, ...): (text, is_error).
    pub notice: Option<(String, bool)>,
    /// 1-based iteration to select when it arrives (from a share link); otherwise the newest
    /// iteration is followed while a run streams in.
    pub pending_selection: Option<u32>,
}

impl AppState {
    pub fn new(session: Session, notice: Option<(String, bool)>) -> AppState {
        AppState {
            session: session.clone(),
            engine_version: None,
            worker: WorkerStatus::Starting,
            run: RunResults::default(),
            selected: None,
            hover: Hover::None,
            popup: None,
            notice,
            pending_selection: session_selection(&session),
        }
    }

    pub fn is_running(&self) -> bool {
        matches!(self.run.status, RunStatus::Running(_))
    }

    pub fn selected_iteration(&self) -> Option<&IterationSnapshot> {
        self.selected.and_then(|i| self.run.iterations.get(i))
    }

    /// C lines to light up because the pointer is on their partner.
    pub fn highlighted_c_lines(&self) -> Option<LineRange> {
        match self.hover {
            Hover::CLine(l) => Some(LineRange::single(l)),
            Hover::BoolLine(_, range) => range,
            Hover::None => None,
        }
    }

    /// Whether boolean program line `index` (with C lines `range`) is lit.
    pub fn bool_line_highlighted(&self, index: usize, range: Option<LineRange>) -> bool {
        match self.hover {
            Hover::BoolLine(i, _) => i == index,
            Hover::CLine(l) => range.is_some_and(|r| r.contains(l)),
            Hover::None => false,
        }
    }
}

pub enum Action {
    SetSource(String),
    SetPredicates(String),
    SetBooleanProgram(String),
    SetMode(RunKind),
    SetOptions(Options),
    LoadExample(&'static Example),
    /// Replace the whole session (share link).
    LoadSession(Session),
    /// A run was sent to the worker (`demo` = replaying fixture data).
    RunStarted { demo: bool },
    Worker(FromWorker),
    WorkerRespawned,
    Cancelled,
    /// Clear results (keeps the source).
    Reset,
    Select(usize),
    StepForward,
    StepBack,
    Hover(Hover),
    TogglePopup(Popup),
    ClosePopup,
    Notice(String, bool),
    DismissNotice,
}

impl Reducible for AppState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut s = (*self).clone();
        match action {
            Action::SetSource(text) => {
                if s.session.mode == RunKind::ModelCheck {
                    s.session.boolean_program = text;
                } else {
                    s.session.source = text;
                }
                s.session.example = None;
            }
            Action::SetPredicates(text) => s.session.predicates = text,
            Action::SetBooleanProgram(text) => s.session.boolean_program = text,
            Action::SetMode(mode) => s.session.mode = mode,
            Action::SetOptions(options) => s.session.options = options,
            Action::LoadExample(example) => {
                s.session.mode = crate::examples::mode_of(example);
                if s.session.mode == RunKind::ModelCheck {
                    s.session.boolean_program = example.source.to_string();
                } else {
                    s.session.source = example.source.to_string();
                }
                s.session.predicates = example.predicates.to_string();
                s.session.example = Some(example.id.to_string());
                s.session.selected_iteration = None;
                s.pending_selection = None;
                s.run = RunResults::default();
                s.selected = None;
                s.popup = None;
                s.hover = Hover::None;
            }
            Action::LoadSession(session) => {
                s.pending_selection = session_selection(&session);
                s.session = session;
                s.run = RunResults::default();
                s.selected = None;
            }
            Action::RunStarted { demo } => {
                s.run = RunResults { status: RunStatus::Running(Progress::default()), demo, ..RunResults::default() };
                s.selected = None;
                s.hover = Hover::None;
            }
            Action::Worker(event) => apply_event(&mut s, event),
            Action::WorkerRespawned => s.worker = WorkerStatus::Starting,
            Action::Cancelled => {
                if s.is_running() {
                    s.run.status = RunStatus::Cancelled;
                }
            }
            Action::Reset => {
                s.pending_selection = None;
                s.run = RunResults::default();
                s.selected = None;
                s.session.selected_iteration = None;
                s.hover = Hover::None;
            }
            Action::Select(i) => {
                if i < s.run.iterations.len() {
                    s.pending_selection = None;
                    s.selected = Some(i);
                    s.session.selected_iteration = Some(i as u32 + 1);
                }
            }
            Action::StepForward => {
                let n = s.run.iterations.len();
                if n > 0 {
                    let next = s.selected.map_or(0, |i| (i + 1).min(n - 1));
                    s.selected = Some(next);
                    s.session.selected_iteration = Some(next as u32 + 1);
                }
            }
            Action::StepBack => {
                if let Some(i) = s.selected {
                    let prev = i.saturating_sub(1);
                    s.selected = Some(prev);
                    s.session.selected_iteration = Some(prev as u32 + 1);
                }
            }
            Action::Hover(h) => s.hover = h,
            Action::TogglePopup(p) => s.popup = if s.popup == Some(p) { None } else { Some(p) },
            Action::ClosePopup => s.popup = None,
            Action::Notice(text, error) => s.notice = Some((text, error)),
            Action::DismissNotice => s.notice = None,
        }
        Rc::new(s)
    }
}

fn session_selection(session: &Session) -> Option<u32> {
    session.selected_iteration.filter(|&k| k >= 1)
}

fn apply_event(s: &mut AppState, event: FromWorker) {
    match event {
        FromWorker::Ready => s.worker = WorkerStatus::Ready,
        FromWorker::Version(v) => s.engine_version = Some(v),
        FromWorker::Progress(p) => {
            if s.is_running() {
                s.run.status = RunStatus::Running(p);
            }
        }
        FromWorker::Diagnostics(d) => s.run.diagnostics = d,
        FromWorker::IterationSnapshot(snapshot) => {
            s.run.iterations.push(*snapshot);
            // Follow the newest iteration unless the user picked one, or a share link asked for one.
            let wanted = s.pending_selection.map(|k| k.saturating_sub(1) as usize);
            let last = s.run.iterations.len() - 1;
            s.selected = Some(match wanted {
                Some(w) if w <= last => w,
                _ => last,
            });
        }
        FromWorker::Done(verdict) => {
            s.run.verdict = Some(verdict);
            s.run.status = RunStatus::Finished;
        }
        FromWorker::Error(message) => {
            if s.is_running() {
                s.run.status = RunStatus::Failed(message);
            } else if s.engine_version.is_none() {
                s.worker = WorkerStatus::Failed(message);
            } else {
                s.notice = Some((message, true));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture;

    fn reduce(s: AppState, a: Action) -> AppState {
        (*Rc::new(s).reduce(a)).clone()
    }

    #[test]
    fn demo_run_selects_latest_iteration_and_finishes() {
        let mut s = AppState::new(Session::default(), None);
        s = reduce(s, Action::RunStarted { demo: true });
        assert!(s.is_running());
        for e in fixture::events() {
            s = reduce(s, Action::Worker(e));
        }
        assert_eq!(s.run.status, RunStatus::Finished);
        assert_eq!(s.selected, Some(s.run.iterations.len() - 1));
        s = reduce(s, Action::StepBack);
        assert_eq!(s.selected, Some(0));
        s = reduce(s, Action::StepBack);
        assert_eq!(s.selected, Some(0));
        assert_eq!(s.session.selected_iteration, Some(1));
        s = reduce(s, Action::StepForward);
        assert_eq!(s.selected, Some(1));
    }

    #[test]
    fn hover_links_both_ways() {
        let mut s = AppState::new(Session::default(), None);
        s = reduce(s, Action::Hover(Hover::CLine(7)));
        assert!(s.bool_line_highlighted(3, Some(LineRange { first: 6, last: 8 })));
        assert!(!s.bool_line_highlighted(3, Some(LineRange::single(9))));
        s = reduce(s, Action::Hover(Hover::BoolLine(2, Some(LineRange::single(9)))));
        assert_eq!(s.highlighted_c_lines(), Some(LineRange::single(9)));
        assert!(s.bool_line_highlighted(2, None));
    }

    #[test]
    fn cancel_only_affects_running_runs() {
        let s = AppState::new(Session::default(), None);
        let s = reduce(s, Action::Cancelled);
        assert_eq!(s.run.status, RunStatus::Idle);
        let s = reduce(reduce(s, Action::RunStarted { demo: false }), Action::Cancelled);
        assert_eq!(s.run.status, RunStatus::Cancelled);
        // late events of the terminated worker are ignored
        let s = reduce(s, Action::Worker(FromWorker::Progress(Progress { iteration: 3, ..Progress::default() })));
        assert_eq!(s.run.status, RunStatus::Cancelled);
    }
}
