//! The single app state (a Yew reducer shared through a context) and the actions that change
//! it. Side effects (worker messages, storage, clipboard) live in the app component; the
//! reducer itself is pure and unit-tested natively.

use crate::examples::Example;
use crate::model::{FromWorker, LineRange, Options, Progress, RunKind};
use crate::share::Session;
use playground_api as api;
use serde::{Deserialize, Serialize};
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
    /// A stepped run finished an iteration and waits for Step or "Run to the end".
    Paused,
    Finished,
    Failed(String),
    Cancelled,
}

/// Results of the current (or last) run.
#[derive(Clone, Debug, PartialEq)]
pub struct RunResults {
    pub status: RunStatus,
    pub diagnostics: Vec<api::DiagnosticData>,
    pub iterations: Vec<api::IterationSnapshot>,
    /// The end of the run (verdict, invariants, concrete trace); its `iterations` are empty.
    pub outcome: Option<Box<api::Outcome>>,
    /// The mode the run was started in: its diagnostics are about that mode's text (the C
    /// program, or the boolean program of the "Boolean program" mode).
    pub kind: Option<RunKind>,
    /// When the engine started working on the current run (or step): the progress line counts
    /// from here on its own clock, so it moves while the engine is busy inside a phase.
    pub started: Option<web_time::Instant>,
    /// The run is stepped (Step): the worker keeps it between iterations.
    pub stepped: bool,
    /// The result of a Hide run (Hide mode).
    pub hide: Option<Box<api::hide::HideResult>>,
    /// The result of a Shape run (Shape mode).
    pub shape: Option<Box<api::shape::ShapeResult>>,
    /// Check mode: the 1-based iterations whose explanations were asked of the worker, and the
    /// answer when it was an error.
    pub explaining: Vec<(u32, Option<String>)>,
    /// The invariants view's question as last asked of the worker (`None` before any).
    pub query: Option<QueryAsk>,
    /// Its answer, once the worker sent it.
    pub query_answer: Option<Box<api::query::QueryAnswer>>,
    /// Check mode's witness download: how many times it was asked of the worker (an asking
    /// sends `ToWorker::Witness` once), and the worker's answer to the last asking.
    pub witness_asked: u32,
    pub witness: Option<Result<Box<api::witness::BuiltWitness>, String>>,
    /// The program, predicates and settings the run was made from: the explanations asked of
    /// the worker later, the C text beside trace steps and the invariants question use these,
    /// not the editor's text (which may have changed since).
    pub request: Option<crate::model::RunRequest>,
}

/// The request a run of `session` sends (Hide and Shape send their own; their text is the C
/// program all the same).
pub fn run_request_of(session: &Session) -> crate::model::RunRequest {
    crate::model::RunRequest {
        kind: session.mode,
        source: if session.mode == RunKind::ModelCheck { session.boolean_program.clone() } else { session.source.clone() },
        predicates: session.predicates.clone(),
        options: session.options.clone(),
    }
}

/// A `LABEL: EXPR` question for the worker (`ToWorker::Query`); `serial` tells two askings of
/// the same question apart, so that asking again sends it again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueryAsk {
    pub question: String,
    pub predicates: String,
    pub serial: u32,
}

impl Default for RunResults {
    fn default() -> RunResults {
        RunResults {
            status: RunStatus::Idle,
            diagnostics: Vec::new(),
            iterations: Vec::new(),
            outcome: None,
            kind: None,
            started: None,
            stepped: false,
            hide: None,
            shape: None,
            explaining: Vec::new(),
            query: None,
            query_answer: None,
            witness_asked: 0,
            witness: None,
            request: None,
        }
    }
}

impl RunResults {
    /// The diagnostics about the text the editor shows in `mode` (none when the run was about
    /// the other text: a boolean program's errors never land on C lines, and vice versa).
    pub fn diagnostics_for(&self, mode: RunKind) -> &[api::DiagnosticData] {
        let bp = |k: RunKind| k == RunKind::ModelCheck;
        match self.kind {
            Some(k) if bp(k) == bp(mode) => &self.diagnostics,
            _ => &[],
        }
    }
}

/// Font sizes offered by the settings, in percent of the base size (14 px).
pub const FONT_SCALES: [u32; 6] = [100, 115, 130, 150, 175, 200];

/// Display preferences of this browser (not part of share links).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Prefs {
    /// Percent of the base font size (one of [`FONT_SCALES`]).
    pub font_scale: u32,
    /// Large type and high contrast, for projectors.
    pub presenter: bool,
    /// Height of the open explain panel in CSS pixels (`None`: 46 % of the window).
    pub explain_height: Option<u32>,
}

impl Default for Prefs {
    fn default() -> Prefs {
        Prefs { font_scale: 100, presenter: false, explain_height: None }
    }
}

impl Prefs {
    pub fn validated(mut self) -> Prefs {
        if !FONT_SCALES.contains(&self.font_scale) {
            self.font_scale = 100;
        }
        self.explain_height = self.explain_height.map(|h| h.clamp(MIN_EXPLAIN_HEIGHT, 4000));
        self
    }
    /// The font scale in effect (presenter mode is at least 150 %).
    pub fn effective_scale(&self) -> u32 {
        if self.presenter {
            self.font_scale.max(150)
        } else {
            self.font_scale
        }
    }
}

/// The smallest height the explain panel can be resized to.
pub const MIN_EXPLAIN_HEIGHT: u32 = 120;

/// A message bar (share link copied, invalid link, ...), possibly with one button that loads
/// another session (the shared version, the user's previous program).
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    pub text: String,
    pub error: bool,
    pub action: Option<NoticeAction>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct NoticeAction {
    pub label: String,
    pub session: Box<Session>,
    /// The notice shown once it is done, with a button back.
    pub then: String,
    pub back_label: String,
}

/// How the share link reached the clipboard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CopyStatus {
    Pending,
    Copied,
    /// No clipboard access (plain http, permission refused): the user copies the selected link.
    Manual,
}

/// The tabs of the explain panel under the panes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExplainTab {
    Trace,
    Lattice,
    Wp,
    Invariants,
    Solver,
    LabNotes,
    /// Boolean program mode: the pushdown system and its post* (BOOP ch. 6).
    Pushdown,
}

impl ExplainTab {
    pub const ALL: [ExplainTab; 7] = [
        ExplainTab::Trace,
        ExplainTab::Lattice,
        ExplainTab::Wp,
        ExplainTab::Invariants,
        ExplainTab::Solver,
        ExplainTab::LabNotes,
        ExplainTab::Pushdown,
    ];

    pub fn label(self) -> &'static str {
        match self {
            ExplainTab::Trace => "Trace",
            ExplainTab::Lattice => "Cube lattice",
            ExplainTab::Wp => "WP",
            ExplainTab::Invariants => "Invariants",
            ExplainTab::Solver => "Solver log",
            ExplainTab::LabNotes => "Lab notes",
            ExplainTab::Pushdown => "Pushdown",
        }
    }
    /// Used in element ids (`#tab-lattice`, `#explain-lattice`).
    pub fn key(self) -> &'static str {
        match self {
            ExplainTab::Trace => "trace",
            ExplainTab::Lattice => "lattice",
            ExplainTab::Wp => "wp",
            ExplainTab::Invariants => "invariants",
            ExplainTab::Solver => "solver",
            ExplainTab::LabNotes => "notes",
            ExplainTab::Pushdown => "pds",
        }
    }
}

/// The Shape mode's views (`tab=` of a deep link in Shape mode, crate::deeplink).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ShapeTab {
    #[default]
    Rounds,
    Program,
    Heaps,
    Promela,
}

impl ShapeTab {
    pub const ALL: [ShapeTab; 4] = [ShapeTab::Rounds, ShapeTab::Program, ShapeTab::Heaps, ShapeTab::Promela];

    /// The `tab=` value, also the element id's end (`#shape-tab-heaps`).
    pub fn key(self) -> &'static str {
        match self {
            ShapeTab::Rounds => "rounds",
            ShapeTab::Program => "program",
            ShapeTab::Heaps => "heaps",
            ShapeTab::Promela => "promela",
        }
    }
}

/// What the explain views look at.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Explain {
    /// The open tab (`None`: the panel is folded to its tab strip).
    pub tab: Option<ExplainTab>,
    /// Index into the selected iteration's `explanation.statements`.
    pub statement: Option<usize>,
    /// Index into that statement's `predicates`.
    pub predicate: usize,
    /// Index into the shown lattice's `cubes` (its query is shown).
    pub cube: Option<usize>,
    /// Index into the selected iteration's abstract trace.
    pub trace_step: Option<usize>,
}

/// Lines pinned by a click (a trace step, a statement, an invariant): lit in both programs
/// until something else is picked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Focus {
    pub c_line: Option<u32>,
    /// 1-based line of the selected iteration's boolean program.
    pub bp_line: Option<u32>,
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
    /// The share dialog with the link.
    Share,
    /// The keyboard shortcuts overlay (`?`).
    Shortcuts,
}

impl Popup {
    /// The element that opened it, which gets the focus back when it closes.
    pub fn opener(self) -> &'static str {
        match self {
            Popup::Examples => "#examples-button",
            Popup::Settings => "#settings-button",
            Popup::Share => "#share",
            Popup::Shortcuts => "#shortcuts-button",
        }
    }
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
    pub notice: Option<Notice>,
    /// The link of the share dialog and whether it was copied.
    pub share: Option<(String, CopyStatus)>,
    pub prefs: Prefs,
    /// A read-only compact view for iframes (`?embed`): nothing is saved.
    pub embed: bool,
    /// 1-based iteration to select when it arrives (from a share link); otherwise the newest
    /// iteration is followed while a run streams in.
    pub pending_selection: Option<u32>,
    pub explain: Explain,
    /// The Shape mode's open view.
    pub shape_tab: ShapeTab,
    pub focus: Focus,
    /// Counts the engine workers that died (a trap, a panic, out of memory); the app spawns a
    /// fresh one each time it grows.
    pub worker_deaths: u32,
    /// A stepped iteration's phases shown one at a time.
    pub reveal: crate::reveal::Reveal,
    /// A deep link's place, applied when the run's results (or, for a statement, the
    /// explanations) are in.
    pub pending_link: Option<crate::deeplink::DeepLink>,
    /// The open lab view (teacher, or a student's lab) and whether its panel shows.
    pub lab: Option<crate::components::lab::LabView>,
    pub lab_panel: bool,
    /// Predict, then reveal: the questions of an ordinary run and the score.
    pub exercises: crate::exercise::Exercises,
}

impl AppState {
    pub fn new(session: Session, notice: Option<Notice>) -> AppState {
        AppState {
            session: session.clone(),
            engine_version: None,
            worker: WorkerStatus::Starting,
            run: RunResults::default(),
            selected: None,
            hover: Hover::None,
            popup: None,
            notice,
            share: None,
            prefs: Prefs::default(),
            embed: false,
            pending_selection: session_selection(&session),
            explain: Explain::default(),
            shape_tab: ShapeTab::default(),
            focus: Focus::default(),
            worker_deaths: 0,
            reveal: crate::reveal::Reveal::default(),
            pending_link: None,
            lab: None,
            lab_panel: false,
            exercises: crate::exercise::Exercises::default(),
        }
    }

    pub fn is_running(&self) -> bool {
        matches!(self.run.status, RunStatus::Running(_))
    }

    /// A stepped run waits for the next Step or "Run to the end".
    pub fn is_paused(&self) -> bool {
        self.run.status == RunStatus::Paused
    }

    pub fn selected_iteration(&self) -> Option<&api::IterationSnapshot> {
        self.selected.and_then(|i| self.run.iterations.get(i))
    }

    /// Check mode records no explanations: when the lattice, WP or solver-log tab is open on an
    /// iteration without them, the (1-based) iteration and predicates to ask the worker for.
    pub fn wanted_explanation(&self) -> Option<(u32, String)> {
        let tab = self.explain.tab?;
        let it = self.selected_iteration()?;
        let wanted = matches!(tab, ExplainTab::Lattice | ExplainTab::Wp | ExplainTab::Solver)
            && self.run.kind == Some(RunKind::Check)
            && it.explanation.is_none()
            && !self.is_running()
            && !self.run.explaining.iter().any(|(i, _)| *i == it.index);
        wanted.then(|| (it.index, it.predicates.clone()))
    }

    /// The request of the current run's results (`None` before any run).
    pub fn run_request(&self) -> Option<&crate::model::RunRequest> {
        self.run.request.as_ref()
    }

    /// The C program the current results are about: the run's, else the editor's.
    pub fn run_source(&self) -> &str {
        match self.run_request() {
            Some(r) if r.kind != RunKind::ModelCheck => &r.source,
            _ => &self.session.source,
        }
    }

    /// The request for a question about the shown run's program (the invariants view's and
    /// Predict's "holds at L"): Abstract mode over its source and options, no predicates of
    /// its own (the question brings them).
    pub fn question_request(&self) -> crate::model::RunRequest {
        let options = self.run_request().map_or_else(|| self.session.options.clone(), |r| r.options.clone());
        crate::model::RunRequest { kind: RunKind::Abstract, source: self.run_source().to_string(), predicates: String::new(), options }
    }

    /// The predicates a question about the shown run brings ([`AppState::question_request`]):
    /// a Check run's final predicates, an Abstract run's own (not the editor's, which may have
    /// changed since), the editor's before any run.
    pub fn question_predicates(&self) -> String {
        match (self.run_request(), self.run.outcome.as_ref()) {
            (Some(r), Some(outcome)) if r.kind == RunKind::Check => outcome.final_predicates.clone(),
            (Some(r), _) => r.predicates.clone(),
            _ => self.session.predicates.clone(),
        }
    }

    /// Whether the program or predicates in the editor differ from the ones the shown results
    /// were computed from.
    pub fn edited_since_run(&self) -> bool {
        self.run_request().is_some_and(|r| {
            let now = run_request_of(&self.session);
            r.kind == now.kind && (r.source != now.source || r.predicates != now.predicates)
        })
    }

    /// Check mode: the selected iteration's explanations were asked for; `Some(error)` when
    /// they could not be computed.
    pub fn explanation_pending(&self) -> Option<Option<&str>> {
        let it = self.selected_iteration()?;
        if it.explanation.is_some() {
            return None;
        }
        self.run.explaining.iter().find(|(i, _)| *i == it.index).map(|(_, e)| e.as_deref())
    }

    /// The explanation data of the selected iteration (Abstract mode records it; Check mode on
    /// demand, [`AppState::wanted_explanation`]).
    pub fn explanation(&self) -> Option<&api::explain::ExplanationData> {
        self.selected_iteration().and_then(|it| it.explanation.as_ref())
    }

    /// The statement the explain views show.
    pub fn explained_statement(&self) -> Option<&api::explain::StatementExplanation> {
        self.explain.statement.and_then(|i| self.explanation()?.statements.get(i))
    }

    /// The predicate (of the explained statement) the lattice and WP views show.
    pub fn explained_predicate(&self) -> Option<&api::explain::PredicateExplanation> {
        let statement = self.explained_statement()?;
        statement.predicates.get(self.explain.predicate).or(statement.predicates.first())
    }

    /// C lines to light up because the pointer is on their partner.
    pub fn highlighted_c_lines(&self) -> Option<LineRange> {
        match self.hover {
            Hover::CLine(l) => Some(LineRange::single(l)),
            Hover::BoolLine(_, range) => range,
            Hover::None => None,
        }
    }

    /// The verdict's label once the run finished.
    /// `None` also while the reveal hides the verdict (a stepped iteration shown phase by phase,
    /// a Run walked through with Predict): the top bar and the live region do not tell it early.
    pub fn verdict_label(&self) -> Option<&'static str> {
        if self.reveal.hides_verdict() {
            return None;
        }
        let shape = || self.run.shape.as_ref().and_then(|r| r.verdict).map(|v| v.as_str());
        self.run.outcome.as_ref().map(|o| o.verdict.as_str()).or_else(shape)
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
    /// Hide mode's abstraction file and steps.
    SetHide(api::hide::HideSettings),
    /// Shape mode's procedure, properties, bound and hints.
    SetShape(api::shape::ShapeSettings),
    SetShapeTab(ShapeTab),
    SetBooleanProgram(String),
    SetMode(RunKind),
    SetOptions(Options),
    LoadExample(&'static Example),
    /// Replace the whole session (share link).
    LoadSession(Session),
    /// A run was sent to the worker.
    RunStarted,
    /// A stepped run was started (its first iteration was asked for).
    StepStarted,
    /// A paused stepped run was asked for one more iteration, or for the rest.
    Continued,
    /// The engine worker died (its `error` event); the app respawns it.
    WorkerDied(String),
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
    /// The notice's button: load its session, then offer the way back.
    NoticeAction,
    /// Open a session (a share link pasted into the address bar) with its notice.
    Open(Session, Option<Notice>),
    /// The share dialog opens with this link.
    Shared(String, CopyStatus),
    CopyResult(CopyStatus),
    SetPrefs(Prefs),
    /// Open a tab of the explain panel (the open one again folds the panel).
    ToggleTab(ExplainTab),
    OpenTab(ExplainTab),
    /// Explain a statement (index into the explanation's statements); pins its lines.
    SelectStatement(usize),
    /// Explain the statement of a boolean program line (1-based), if it has one; pins the line.
    SelectBoolLine(u32),
    SelectPredicate(usize),
    SelectCube(Option<usize>),
    /// A step of the abstract counterexample; pins its C and boolean lines.
    SelectTraceStep(usize),
    /// Pin lines directly (an invariant, a feasibility row).
    Focus(Focus),
    /// Show a stepped iteration's phases one at a time (or whole).
    SetPhaseReveal(bool),
    /// Show the next phase of the iteration being revealed (after the last: the verdict).
    RevealNext,
    /// Check mode: the explanations of this (1-based) iteration were asked of the worker.
    ExplanationRequested(u32),
    /// Ask the invariants view's question (`LABEL: EXPR`) of the worker, over `predicates`.
    AskQuery { question: String, predicates: String },
    /// Ask the worker for the SV-COMP witness of the shown Check run (then download it).
    AskWitness,
    /// Open a lab view (`None`: leave the lab).
    SetLab(Option<crate::components::lab::LabView>),
    /// Open a lab as a student: its program and settings replace the session.
    OpenLab(Rc<playground_api::lab::Lab>),
    /// Show or hide the lab panel (with no lab open: the teacher view).
    ToggleLabPanel,
    /// Predict, then reveal (crate::exercise).
    Exercise(crate::exercise::ExerciseAction),
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
                // an edited program has other iterations
                s.session.selected_iteration = None;
            }
            Action::SetPredicates(text) => s.session.predicates = text,
            Action::SetHide(settings) => s.session.hide = settings,
            Action::SetShape(settings) => s.session.shape = settings,
            Action::SetShapeTab(tab) => s.shape_tab = tab,
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
                load_mode_settings(&mut s.session, example);
                // the settings the example's lab note assumes
                s.session.options.techniques = example.techniques.to_vec();
                s.session.options.refinement = match example.refine {
                    playground_api::RefineMethod::Wp => crate::model::Refinement::Wp,
                    playground_api::RefineMethod::Sp => crate::model::Refinement::Sp,
                };
                s.session.selected_iteration = None;
                s.pending_selection = None;
                s.run = RunResults::default();
                s.selected = None;
                s.popup = None;
                s.hover = Hover::None;
                s.focus = Focus::default();
                s.explain = Explain { tab: s.explain.tab, ..Explain::default() };
            }
            Action::LoadSession(session) => {
                s.pending_selection = session_selection(&session);
                s.session = session;
                s.run = RunResults::default();
                s.selected = None;
            }
            Action::RunStarted | Action::StepStarted => {
                s.run = RunResults {
                    status: RunStatus::Running(Progress::default()),
                    kind: Some(s.session.mode),
                    request: Some(run_request_of(&s.session)),
                    started: Some(web_time::Instant::now()),
                    stepped: matches!(action, Action::StepStarted),
                    ..RunResults::default()
                };
                s.selected = None;
                s.hover = Hover::None;
                s.focus = Focus::default();
                s.explain = Explain { tab: s.explain.tab, ..Explain::default() };
                s.reveal.show_all();
                s.exercises.run_started();
            }
            Action::Worker(event) => apply_event(&mut s, event),
            Action::WorkerRespawned => s.worker = WorkerStatus::Starting,
            Action::Continued => {
                if s.is_paused() {
                    let iteration = s.run.iterations.len() as u32 + 1;
                    s.run.status = RunStatus::Running(Progress { iteration, ..Progress::default() });
                    s.run.started = Some(web_time::Instant::now());
                }
            }
            Action::WorkerDied(message) => {
                s.worker_deaths += 1;
                s.worker = WorkerStatus::Starting;
                // the program is in the session (and in storage): only the run is lost
                let text = format!(
                    "The engine stopped ({message}) and was restarted. Your program is unchanged; {} Run again, or try a smaller program or lower settings.",
                    match s.run.iterations.len() {
                        0 => "no iteration had finished.".to_string(),
                        n => format!("the {} that finished {} kept.", crate::model::plural(n, "iteration"), if n == 1 { "is" } else { "are" }),
                    }
                );
                // (the worker's panic hook may have reported the crash just before)
                if s.is_running() || s.is_paused() || matches!(s.run.status, RunStatus::Failed(_)) {
                    s.run.status = RunStatus::Failed(text);
                } else {
                    s.notice = Some(Notice { text, error: true, action: None });
                }
            }
            Action::Cancelled => {
                if s.is_running() || s.is_paused() {
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
                    s.reveal.pick(i);
                    s.pending_selection = None;
                    if s.selected != Some(i) {
                        s.explain.trace_step = None;
                        s.explain.cube = None;
                        s.focus = Focus::default();
                    }
                    s.selected = Some(i);
                    s.session.selected_iteration = Some(i as u32 + 1);
                }
            }
            Action::StepForward => {
                let n = s.run.iterations.len();
                if n > 0 {
                    let next = s.selected.map_or(0, |i| (i + 1).min(n - 1));
                    s.reveal.pick(next);
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
            Action::Notice(text, error) => s.notice = Some(Notice { text, error, action: None }),
            Action::DismissNotice => s.notice = None,
            Action::NoticeAction => {
                if let Some(action) = s.notice.take().and_then(|n| n.action) {
                    let back = NoticeAction {
                        label: action.back_label.clone(),
                        session: Box::new(s.session.clone()),
                        then: "Switched to the other version (the button switches back).".into(),
                        back_label: action.label.clone(),
                    };
                    s.pending_selection = session_selection(&action.session);
                    s.session = *action.session;
                    s.run = RunResults::default();
                    s.selected = None;
                    s.focus = Focus::default();
                    s.hover = Hover::None;
                    s.notice = Some(Notice { text: action.then, error: false, action: Some(back) });
                }
            }
            Action::Open(session, notice) => {
                s.pending_selection = session_selection(&session);
                s.session = session;
                s.run = RunResults::default();
                s.selected = None;
                s.focus = Focus::default();
                s.hover = Hover::None;
                s.popup = None;
                s.notice = notice;
            }
            Action::Shared(url, status) => {
                s.share = Some((url, status));
                s.popup = Some(Popup::Share);
            }
            Action::CopyResult(status) => {
                if let Some((_, st)) = &mut s.share {
                    *st = status;
                }
            }
            Action::SetPrefs(prefs) => s.prefs = prefs.validated(),
            Action::ToggleTab(tab) => s.explain.tab = if s.explain.tab == Some(tab) { None } else { Some(tab) },
            Action::OpenTab(tab) => s.explain.tab = Some(tab),
            Action::SelectStatement(i) => select_statement(&mut s, i),
            Action::SelectBoolLine(line) => {
                let index = s.explanation().and_then(|e| e.statements.iter().position(|st| st.bp_line == Some(line)));
                let c_line = s
                    .selected_iteration()
                    .and_then(|it| it.boolean_program.c_lines.get((line as usize).checked_sub(1)?).copied().flatten());
                match index {
                    Some(i) => select_statement(&mut s, i),
                    None => s.focus = Focus { c_line, bp_line: Some(line) },
                }
            }
            Action::SelectPredicate(i) => {
                s.explain.predicate = i;
                s.explain.cube = None;
            }
            Action::SelectCube(cube) => s.explain.cube = cube,
            Action::SelectTraceStep(k) => {
                if let Some(step) = s.selected_iteration().and_then(|it| it.abstract_trace.get(k)) {
                    s.focus = Focus { c_line: step.c_line, bp_line: step.bp_line };
                    s.explain.trace_step = Some(k);
                }
            }
            Action::Focus(focus) => s.focus = focus,
            Action::SetPhaseReveal(on) => {
                s.reveal.enabled = on;
                if !on {
                    s.reveal.show_all();
                }
            }
            Action::SetLab(view) => {
                s.lab_panel = view.is_some();
                s.lab = view;
            }
            Action::OpenLab(lab) => {
                s.session = crate::components::lab::session_of(&lab);
                s.pending_selection = None;
                s.run = RunResults::default();
                s.selected = None;
                s.focus = Focus::default();
                s.hover = Hover::None;
                s.popup = None;
                s.lab = Some(crate::components::lab::LabView::Student(lab));
                s.lab_panel = true;
            }
            Action::ToggleLabPanel => {
                if s.lab.is_none() {
                    s.lab = Some(crate::components::lab::LabView::Teacher);
                    s.lab_panel = true;
                } else {
                    s.lab_panel = !s.lab_panel;
                }
            }
            Action::ExplanationRequested(iteration) => s.run.explaining.push((iteration, None)),
            Action::AskWitness => {
                s.run.witness_asked += 1;
                s.run.witness = None;
            }
            Action::AskQuery { question, predicates } => {
                let serial = s.run.query.as_ref().map_or(0, |q| q.serial + 1);
                s.run.query = Some(QueryAsk { question, predicates, serial });
                s.run.query_answer = None;
            }
            Action::Exercise(action) => crate::exercise::reduce(&mut s, action),
            Action::RevealNext => {
                let reveal = &mut s.reveal;
                reveal.advance(&s.run.iterations);
                if let Some((i, _)) = reveal.current {
                    s.selected = Some(i);
                }
            }
        }
        Rc::new(s)
    }
}

fn select_statement(s: &mut AppState, i: usize) {
    let Some(statement) = s.explanation().and_then(|e| e.statements.get(i)) else { return };
    let focus = Focus { c_line: statement.c_line, bp_line: statement.bp_line };
    // keep the predicate when the new statement has one of the same name
    let predicate_name = s.explained_predicate().map(|p| p.predicate.clone());
    let predicate = predicate_name.and_then(|n| statement.predicates.iter().position(|p| p.predicate == n)).unwrap_or(0);
    s.focus = focus;
    s.explain.statement = Some(i);
    s.explain.predicate = predicate;
    s.explain.cube = None;
}

/// The Hide and Shape settings of an example (its `predicates` is the abstraction file of a
/// Hide example; a Shape example's settings are `playground_api::shape::EXAMPLES`).
pub fn load_mode_settings(session: &mut Session, example: &Example) {
    match session.mode {
        RunKind::Hide => {
            session.hide = api::hide::HideSettings { abstraction: example.predicates.to_string(), ..Default::default() };
            session.predicates = String::new();
        }
        RunKind::Shape => {
            if let Some(settings) = api::shape::example(example.id) {
                session.shape = settings.settings();
            }
        }
        _ => {}
    }
}

fn session_selection(session: &Session) -> Option<u32> {
    session.selected_iteration.filter(|&k| k >= 1)
}

fn apply_event(s: &mut AppState, event: FromWorker) {
    match event {
        FromWorker::Ready => s.worker = WorkerStatus::Ready,
        FromWorker::Version(v) => s.engine_version = Some(v),
        FromWorker::QueryAnswer(answer) => s.run.query_answer = Some(answer),
        FromWorker::Witness(built) => {
            if s.run.witness_asked > 0 {
                s.run.witness = Some(built);
            }
        }
        FromWorker::ExerciseAnswers(answers) => crate::exercise::holds_answered(s, answers),
        FromWorker::Progress(p) => {
            if s.is_running() {
                s.run.status = RunStatus::Running(p);
            }
        }
        FromWorker::Paused => {
            if s.is_running() {
                s.run.status = RunStatus::Paused;
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
            if last == 0 && s.exercises.enabled && !s.run.stepped && s.run.kind == Some(RunKind::Check) {
                // Predict after Run: the iterations are walked through, asking before each reveal
                s.reveal.walk_from(0);
            }
            s.reveal.iteration_arrived(last, s.run.stepped);
            if let Some((i, _)) = s.reveal.current.filter(|_| s.reveal.walk) {
                s.selected = Some(i);
            }
        }
        FromWorker::Done(outcome) => {
            s.run.outcome = Some(outcome);
            s.run.status = RunStatus::Finished;
            if let Some(k) = s.pending_selection.take() {
                let n = s.run.iterations.len();
                if n > 0 && k as usize > n {
                    let text = format!("The link asked for iteration {k}, but this run has {}: showing the last one.", crate::model::plural(n, "iteration"));
                    // keep an earlier notice's button (e.g. "Restore my previous program")
                    s.notice = Some(match s.notice.take() {
                        Some(n) => Notice { text: format!("{} {text}", n.text), error: true, action: n.action },
                        None => Notice { text, error: true, action: None },
                    });
                }
            }
            if let Some(link) = s.pending_link.take() {
                crate::deeplink::apply(link, s);
            }
        }
        FromWorker::HideDone(result) => {
            // the C program's problems go to the editor; the abstraction file's stay in the pane
            s.run.diagnostics = result.diagnostics.iter().filter(|d| d.origin == "source").cloned().collect();
            s.run.hide = Some(result);
            s.run.status = RunStatus::Finished;
        }
        FromWorker::ShapeDone(result) => {
            s.run.diagnostics = result.diagnostics.iter().filter(|d| d.origin == "source").cloned().collect();
            s.run.shape = Some(result);
            s.run.status = RunStatus::Finished;
            // a link's iteration, statement, ... do not exist in Shape mode: the notice says so
            if let Some(link) = s.pending_link.take() {
                crate::deeplink::apply(link, s);
            }
        }
        FromWorker::Explanation { iteration, result } => match result {
            Ok(data) => {
                if let Some(it) = s.run.iterations.iter_mut().find(|it| it.index == iteration) {
                    it.explanation = Some(*data);
                }
                // a deep link's statement and predicate waited for them
                if s.explanation().is_some() {
                    if let Some(link) = s.pending_link.take() {
                        let problems = crate::deeplink::apply_statement(&link, s);
                        crate::deeplink::notify(s, problems);
                    }
                }
            }
            Err(message) => {
                if let Some(entry) = s.run.explaining.iter_mut().find(|(i, _)| *i == iteration) {
                    entry.1 = Some(message);
                }
            }
        },
        FromWorker::Error(message) => {
            if s.is_running() || s.is_paused() {
                s.run.status = RunStatus::Failed(message);
            } else if s.engine_version.is_none() {
                s.worker = WorkerStatus::Failed(message);
            } else {
                s.notice = Some(Notice { text: message, error: true, action: None });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reduce(s: AppState, a: Action) -> AppState {
        (*Rc::new(s).reduce(a)).clone()
    }

    /// A real engine run of a gallery example, as the worker would stream it.
    fn engine_events(id: &str, kind: RunKind) -> Vec<FromWorker> {
        let example = crate::examples::by_id(id).expect("example");
        let mut events = Vec::new();
        crate::engine::handle(
            crate::model::ToWorker::Run(crate::model::RunRequest {
                kind,
                source: example.source.into(),
                predicates: example.predicates.into(),
                options: Options { strategy: crate::model::Strategy::Lattice, ..Options::default() },
            }),
            &mut |e| events.push(e),
        );
        events
    }

    fn finished(id: &str, kind: RunKind) -> AppState {
        let mut s = reduce(AppState::new(Session::default(), None), Action::RunStarted);
        for e in engine_events(id, kind) {
            s = reduce(s, Action::Worker(e));
        }
        s
    }

    #[test]
    fn a_run_selects_the_latest_iteration_and_steps_back_and_forth() {
        let mut s = finished("testdev", RunKind::Check);
        assert_eq!(s.run.status, RunStatus::Finished);
        assert_eq!(s.verdict_label(), Some("UNSAFE"));
        let n = s.run.iterations.len();
        assert!(n >= 2);
        assert_eq!(s.selected, Some(n - 1));
        for _ in 0..n {
            s = reduce(s, Action::StepBack);
        }
        assert_eq!(s.selected, Some(0));
        assert_eq!(s.session.selected_iteration, Some(1));
        s = reduce(s, Action::StepForward);
        assert_eq!(s.selected, Some(1));
    }

    #[test]
    fn a_trace_step_pins_its_c_and_boolean_lines() {
        let mut s = finished("testdev", RunKind::Check);
        let i = s.run.iterations.iter().position(crate::model::is_spurious).expect("a spurious iteration");
        s = reduce(s, Action::Select(i));
        let k = s.run.iterations[i].abstract_trace.iter().position(|st| st.c_line.is_some() && st.bp_line.is_some()).unwrap();
        s = reduce(s, Action::SelectTraceStep(k));
        let step = &s.run.iterations[i].abstract_trace[k];
        assert_eq!(s.focus, Focus { c_line: step.c_line, bp_line: step.bp_line });
        assert_eq!(s.explain.trace_step, Some(k));
    }

    #[test]
    fn clicking_a_boolean_line_explains_its_statement() {
        let mut s = finished("partition", RunKind::Abstract);
        let explanation = s.explanation().expect("Abstract runs record explanations").clone();
        let (i, st) = explanation.statements.iter().enumerate().find(|(_, st)| st.c_statement == "prev = curr;").unwrap();
        s = reduce(s, Action::SelectBoolLine(st.bp_line.unwrap()));
        assert_eq!(s.explain.statement, Some(i));
        assert_eq!(s.focus.c_line, st.c_line);
        let k = st.predicates.iter().position(|p| p.predicate == "{prev == NULL}").unwrap();
        s = reduce(s, Action::SelectPredicate(k));
        assert_eq!(s.explained_predicate().map(|p| p.assigned.as_str()), Some("choose({curr == NULL}, !{curr == NULL})"));
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
        let s = reduce(reduce(s, Action::RunStarted), Action::Cancelled);
        assert_eq!(s.run.status, RunStatus::Cancelled);
        // late events of the terminated worker are ignored
        let s = reduce(s, Action::Worker(FromWorker::Progress(Progress { iteration: 3, ..Progress::default() })));
        assert_eq!(s.run.status, RunStatus::Cancelled);
    }

    #[test]
    fn boolean_program_errors_stay_with_the_boolean_program() {
        let mut s = AppState::new(Session::default(), None);
        s = reduce(s, Action::SetMode(RunKind::ModelCheck));
        s = reduce(s, Action::SetSource("void main() begin\n  x := ;\nend\n".into()));
        s = reduce(s, Action::RunStarted);
        let events = {
            let mut events = Vec::new();
            crate::engine::handle(
                crate::model::ToWorker::Run(crate::model::RunRequest {
                    kind: RunKind::ModelCheck,
                    source: s.session.boolean_program.clone(),
                    predicates: String::new(),
                    options: Options::default(),
                }),
                &mut |e| events.push(e),
            );
            events
        };
        for e in events {
            s = reduce(s, Action::Worker(e));
        }
        let errors = s.run.diagnostics_for(RunKind::ModelCheck);
        assert!(errors.iter().any(|d| d.line == 2), "{errors:?}");
        assert!(s.run.diagnostics_for(RunKind::Check).is_empty());
        assert!(s.run.diagnostics_for(RunKind::Abstract).is_empty());
    }

    #[test]
    fn the_notice_button_loads_the_other_session_and_offers_the_way_back() {
        let other = Session { source: "other".into(), ..Session::default() };
        let notice = Notice {
            text: "Opened".into(),
            error: false,
            action: Some(NoticeAction { label: "Restore".into(), session: Box::new(other), then: "Restored.".into(), back_label: "Shared".into() }),
        };
        let s = AppState::new(Session { source: "shared".into(), ..Session::default() }, Some(notice));
        let s = reduce(s, Action::NoticeAction);
        assert_eq!(s.session.source, "other");
        let action = s.notice.as_ref().and_then(|n| n.action.clone()).expect("a way back");
        assert_eq!(action.session.source, "shared");
        assert_eq!(action.label, "Shared");
        let s = reduce(s, Action::NoticeAction);
        assert_eq!(s.session.source, "shared");
    }

    #[test]
    fn a_link_to_a_missing_iteration_says_so() {
        let session = Session { selected_iteration: Some(40), ..Session::default() };
        let mut s = reduce(AppState::new(session, None), Action::RunStarted);
        for e in engine_events("lock", RunKind::Check) {
            s = reduce(s, Action::Worker(e));
        }
        let notice = s.notice.expect("a notice");
        assert!(notice.error && notice.text.contains("iteration 40"), "{}", notice.text);
    }

    #[test]
    fn a_stepped_run_pauses_continues_and_cancel_keeps_what_finished() {
        let mut s = reduce(AppState::new(Session::default(), None), Action::StepStarted);
        assert!(s.run.stepped && s.is_running());
        let snapshot = || FromWorker::IterationSnapshot(Box::new(api::IterationSnapshot { index: 1, ..api::IterationSnapshot::default() }));
        s = reduce(s, Action::Worker(snapshot()));
        s = reduce(s, Action::Worker(FromWorker::Paused));
        assert_eq!(s.run.status, RunStatus::Paused);
        s = reduce(s, Action::Continued);
        assert!(matches!(&s.run.status, RunStatus::Running(p) if p.iteration == 2));
        s = reduce(s, Action::Cancelled);
        assert_eq!(s.run.status, RunStatus::Cancelled);
        assert_eq!(s.run.iterations.len(), 1, "the finished iteration stays");
    }

    #[test]
    fn a_dead_worker_is_respawned_and_the_program_stays() {
        let session = Session { source: "int main(void) { return 0; }".into(), ..Session::default() };
        let mut s = reduce(AppState::new(session.clone(), None), Action::RunStarted);
        s = reduce(s, Action::WorkerDied("RuntimeError: unreachable".into()));
        assert_eq!(s.worker_deaths, 1);
        assert_eq!(s.worker, WorkerStatus::Starting);
        assert!(matches!(&s.run.status, RunStatus::Failed(m) if m.contains("restarted") && m.contains("unchanged")), "{:?}", s.run.status);
        assert_eq!(s.session, session);
    }

    #[test]
    fn the_explain_tab_toggles() {
        let s = AppState::new(Session::default(), None);
        let s = reduce(s, Action::ToggleTab(ExplainTab::Lattice));
        assert_eq!(s.explain.tab, Some(ExplainTab::Lattice));
        let s = reduce(s, Action::ToggleTab(ExplainTab::Lattice));
        assert_eq!(s.explain.tab, None);
    }

    /// Predict after Run (issue 31): the run's iterations are walked through phase by phase,
    /// the feasibility and new-predicates questions asked before their phases, later
    /// iterations and the verdict hidden; a later iteration picked in the timeline is next.
    #[test]
    fn predict_after_run_asks_before_each_iterations_phases() {
        use crate::exercise::{reveal_question, ExerciseAction, Key};
        use crate::reveal::Phase;
        let mut s = AppState::new(Session::default(), None);
        s.session.mode = RunKind::Check;
        s = reduce(s, Action::Exercise(ExerciseAction::SetEnabled(true)));
        s = reduce(s, Action::RunStarted);
        for e in engine_events("testdev", RunKind::Check) {
            s = reduce(s, Action::Worker(e));
        }
        assert!(s.run.iterations.len() >= 3 && s.run.outcome.is_some(), "Run computed every iteration");
        assert_eq!((s.reveal.current, s.selected), (Some((0, Phase::BooleanProgram)), Some(0)), "the walk starts at the first");
        assert!(s.reveal.hides_verdict() && !s.reveal.shows(1, Phase::BooleanProgram), "later iterations and the verdict wait");
        assert_eq!(s.verdict_label(), None, "the top bar and the live region do not tell it either");
        assert_eq!(reveal_question(&s), None);
        s = reduce(s, Action::RevealNext);
        assert_eq!(reveal_question(&s), Some(Key::Feasibility { iteration: 1 }), "asked before the feasibility is shown");
        s = reduce(s, Action::Exercise(ExerciseAction::Answer { key: Key::Feasibility { iteration: 1 }, given: vec!["infeasible".into()] }));
        assert!(s.exercises.answer(&Key::Feasibility { iteration: 1 }).is_some_and(|a| a.mark.is_right()));
        s = reduce(s, Action::RevealNext);
        assert_eq!(reveal_question(&s), Some(Key::NewPredicates { iteration: 1 }));
        // the student picks the last iteration in the timeline: asked about it from its start
        let last = s.run.iterations.len() - 1;
        s = reduce(s, Action::Select(last));
        assert_eq!(s.reveal.current, Some((last, Phase::BooleanProgram)));
        s = reduce(s, Action::RevealNext);
        assert_eq!(reveal_question(&s), Some(Key::Feasibility { iteration: last as u32 + 1 }));
        while s.reveal.current.is_some() {
            s = reduce(s, Action::RevealNext);
        }
        assert!(!s.reveal.hides_verdict() && s.verdict_label() == Some("UNSAFE"));
        // without Predict, Run shows everything at once
        let plain = finished("testdev", RunKind::Check);
        assert_eq!(plain.reveal.current, None);
    }

    /// The invariants view's question and Predict's "holds at L" bring the shown run's
    /// predicates, not the editor's (issue 31: Abstract mode used the editor's).
    #[test]
    fn questions_bring_the_runs_predicates_not_the_editors() {
        let mut s = AppState::new(Session::default(), None);
        s.session.mode = RunKind::Abstract;
        s.session.predicates = "main { x == 0 }".into();
        s = reduce(s, Action::RunStarted);
        s = reduce(s, Action::SetPredicates("main { x == 1 }".into()));
        assert_eq!(s.question_predicates(), "main { x == 0 }");
    }
}
