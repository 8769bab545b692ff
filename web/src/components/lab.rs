//! Labs in the playground (issue 31, "exercises: predict, then reveal"; "lab files and lab
//! links"): the teacher view authors a [`Lab`] from the current program and settings (tasks,
//! answers filled by the engine's last run, hints, locked settings) and exports it as a link
//! (`#lab=v1,...`) or a file, and reviews a student's submission; the student view opens a lab
//! link, shows the tasks in order, checks each answer against its sealed hash (a hint after a
//! wrong one), keeps the progress in local storage and exports the submission file.
//!
//! The lab format, the answer normalisation and the checks are `playground_api::lab` (native,
//! tested against the engine, fuzzed); this module is the UI around them. Every text of a lab
//! (prompts, hints, answers) is rendered as a text node, never as HTML.

use super::app::download;
use super::use_app;
use crate::engine::api_request;
use crate::model::{Options, PaperOptions, Refinement, RunKind, RunRequest, Strategy};
use crate::share::Session;
use crate::state::Action;
use gloo::storage::{LocalStorage, Storage};
use playground_api as api;
use playground_api::lab::{self, Lab, LabDraft, Lockable, Mark, Question, Review, RunSummary, Submission, TaskDraft};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Which lab view is open.
#[derive(Clone, Debug, PartialEq)]
pub enum LabView {
    /// Authoring and reviewing.
    Teacher,
    /// Working through a lab (from a link, a file or the gallery).
    Student(Rc<Lab>),
}

/// How a form field writes its text into the draft (or one of its tasks).
type Edit<T> = Rc<dyn Fn(&mut T, String)>;

/// Where the teacher's draft is kept between visits.
const DRAFT_KEY: &str = "predabs.lab-draft.v1";

fn storage_ok() -> bool {
    web_sys::window().and_then(|w| w.local_storage().ok().flatten()).is_some()
}

fn progress_key(lab: &Lab) -> String {
    format!("predabs.lab-progress.v1.{}.{}", lab.id, lab.digest())
}

fn load_progress(lab: &Lab) -> Submission {
    let stored = storage_ok().then(|| LocalStorage::raw().get_item(&progress_key(lab)).ok().flatten()).flatten();
    stored
        .and_then(|text| Submission::from_file(&text).ok())
        .filter(|s| s.lab == lab.key())
        .unwrap_or_else(|| Submission::start(lab))
}

fn save_progress(lab: &Lab, progress: &Submission) {
    if storage_ok() {
        let _ = LocalStorage::raw().set_item(&progress_key(lab), &progress.to_file());
    }
}

fn now() -> String {
    String::from(js_sys::Date::new_0().to_iso_string())
}

/// The playground's options for a lab's (`playground-api`'s) options.
fn web_options(o: &api::Options) -> Options {
    let options = Options {
        int_width: o.int_width,
        strategy: match o.strategy {
            api::Strategy::Lattice => Strategy::Lattice,
            api::Strategy::Exact => Strategy::Exact,
        },
        max_cube_len: o.max_cube,
        refinement: match o.refine {
            api::RefineMethod::Wp => Refinement::Wp,
            api::RefineMethod::Sp => Refinement::Sp,
        },
        max_iterations: o.max_iterations,
        time_budget_ms: o.timeout_ms,
        work_budget: o.budget,
        techniques: o.techniques.clone(),
        paper: PaperOptions {
            entry: o.entry.clone(),
            error_label: o.error_label.clone(),
            integers: o.integers,
            enforce: o.enforce,
            points_to: o.points_to,
            distribute_f: o.distribute_f,
            precision: o.precision,
            syntax: o.syntax,
        },
    };
    options.validated().0
}

fn run_kind(mode: api::Mode) -> RunKind {
    match mode {
        api::Mode::Check => RunKind::Check,
        api::Mode::Abstract => RunKind::Abstract,
        api::Mode::BooleanProgram => RunKind::ModelCheck,
        api::Mode::Hide => RunKind::Hide,
        api::Mode::Shape => RunKind::Shape,
    }
}

/// The request the playground would run for `session`.
fn request_of(session: &Session) -> api::Request {
    api_request(&RunRequest {
        kind: session.mode,
        source: if session.mode == RunKind::ModelCheck { session.boolean_program.clone() } else { session.source.clone() },
        predicates: session.predicates.clone(),
        options: session.options.clone(),
    })
}

/// `session` with the parts of `request` it shows.
fn with_request(mut session: Session, request: &api::Request) -> Session {
    session.mode = run_kind(request.mode);
    if session.mode == RunKind::ModelCheck {
        session.boolean_program = request.source.clone();
    } else {
        session.source = request.source.clone();
    }
    session.predicates = request.predicates.clone();
    session.options = web_options(&request.options);
    session
}

/// The session that opens a lab.
pub fn session_of(lab: &Lab) -> Session {
    with_request(Session { example: None, selected_iteration: None, ..Session::default() }, &lab.request())
}

/// `session` with the lab's locked parts put back (what a student's Run and Step send).
pub fn enforced(session: &Session, lab: &Lab) -> Session {
    let mut request = request_of(session);
    lab.enforce(&mut request);
    with_request(session.clone(), &request)
}

/// The session a student's Run and Step send: the lab's locked parts put back (`None`: no
/// lab is open as a student).
pub fn locked_session(state: &crate::state::AppState) -> Option<Session> {
    match &state.lab {
        Some(LabView::Student(lab)) => Some(enforced(&state.session, lab)),
        _ => None,
    }
}

/// The student's open lab if it locks `part` (the controls of a locked part are disabled and
/// say why).
pub fn lock_of(state: &crate::state::AppState, part: Lockable) -> Option<&Lab> {
    match &state.lab {
        Some(LabView::Student(lab)) if lab.locked.contains(&part) => Some(lab),
        _ => None,
    }
}

/// The sentence a locked control points to (`aria-describedby`) and shows as its tooltip.
pub fn lock_explanation(lab: &Lab) -> String {
    let locked = lab.locked.iter().map(|l| l.label()).collect::<Vec<_>>().join(", ");
    format!("Locked by the lab \u{201c}{}\u{201d}: {locked}. The teacher fixed these settings for this lab; leave the lab to change them.", lab.title)
}

/// The state a lab link opens (`#lab=v1,...`): the lab in the student view with its program,
/// or, after a reload of the same link, the student's own edits of it (stored like any
/// session). A link that cannot be read leaves the stored work and says why.
pub fn open_lab_link(hash: &str) -> crate::state::AppState {
    use crate::state::{AppState, Notice};
    use crate::storage;
    let stored = storage::load();
    let mut state = match Lab::from_link(hash) {
        Ok(lab) => {
            let lab = Rc::new(lab);
            let same_link = storage::load_link().is_some_and(|l| l == hash.trim_start_matches('#'));
            let session = match stored {
                Some(stored) if same_link => stored,
                stored => {
                    if let Some(previous) = stored {
                        storage::save_backup(&previous);
                    }
                    storage::save_link(hash);
                    session_of(&lab)
                }
            };
            let mut state = AppState::new(session, None);
            state.lab = Some(LabView::Student(lab));
            state.lab_panel = true;
            state
        }
        Err(e) => {
            let notice = Notice { text: format!("This lab link cannot be opened: {e}"), error: true, action: None };
            AppState::new(stored.unwrap_or_default(), Some(notice))
        }
    };
    state.prefs = storage::load_prefs();
    state
}

/// The last run as one outcome (the state keeps the iterations beside it).
fn last_outcome(state: &crate::state::AppState) -> Option<api::Outcome> {
    let mut outcome = (**state.run.outcome.as_ref()?).clone();
    outcome.iterations = state.run.iterations.clone();
    Some(outcome)
}

fn run_summary(state: &crate::state::AppState) -> Option<RunSummary> {
    let source = if state.session.mode == RunKind::ModelCheck { &state.session.boolean_program } else { &state.session.source };
    match last_outcome(state) {
        Some(outcome) => Some(RunSummary::new(source, &outcome)),
        // a run still going (or stepped) has reached the iterations it shows
        None if !state.run.iterations.is_empty() => {
            Some(RunSummary { source: source.clone(), iterations: state.run.iterations.len() as u32, verdict: None })
        }
        None => None,
    }
}

fn input_value(e: &Event) -> String {
    let target = e.target();
    if let Some(input) = target.as_ref().and_then(|t| t.dyn_ref::<web_sys::HtmlInputElement>()) {
        return input.value();
    }
    if let Some(area) = target.as_ref().and_then(|t| t.dyn_ref::<web_sys::HtmlTextAreaElement>()) {
        return area.value();
    }
    target.and_then(|t| t.dyn_into::<web_sys::HtmlSelectElement>().ok()).map(|s| s.value()).unwrap_or_default()
}

fn checked(e: &Event) -> bool {
    e.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()).is_some_and(|i| i.checked())
}

/// Reads the file chosen in a file input as text, then calls `done` with it.
fn read_chosen_file(e: &Event, reader: &Rc<std::cell::RefCell<Option<gloo::file::callbacks::FileReader>>>, done: Callback<String>) {
    let Some(input) = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else { return };
    let Some(file) = input.files().and_then(|files| files.get(0)) else { return };
    let file = gloo::file::File::from(file);
    let task = gloo::file::callbacks::read_as_text(&file, move |text| done.emit(text.unwrap_or_default()));
    *reader.borrow_mut() = Some(task);
    input.set_value("");
}

/// How a mark reads.
fn mark_text(mark: &Mark) -> String {
    match mark {
        Mark::Right => "Right.".into(),
        Mark::Wrong => "Not right yet.".into(),
        Mark::Recorded => "Recorded (not checked).".into(),
        Mark::NotYet => "Not reached yet: run the program first.".into(),
        Mark::Unreadable { message } => format!("Could not read the answer: {message}."),
    }
}

fn mark_class(mark: &Mark) -> &'static str {
    match mark {
        Mark::Right => "lab-right",
        Mark::Recorded => "lab-recorded",
        _ => "lab-wrong",
    }
}

/// What a question asks, in a few words (the teacher's task list).
fn question_label(q: &Question) -> String {
    match q {
        Question::ImplyingCubes { iteration, statement, predicate, negated } => {
            format!("cubes implying {}WP({statement}, {predicate}) in iteration {iteration}", if *negated { "¬" } else { "" })
        }
        Question::Feasibility { iteration } => format!("feasibility of iteration {iteration}'s counterexample"),
        Question::NewPredicates { iteration } => format!("predicates added by iteration {iteration}"),
        Question::InvariantAt { procedure, location } => format!("invariant {location} in {procedure}"),
        Question::Verdict => "the verdict".into(),
        Question::ReachIteration { iteration } => format!("goal: reach iteration {iteration}"),
        Question::MakeSafe => "goal: make the program SAFE".into(),
        Question::FreeText => "free text".into(),
    }
}

/// The kinds the teacher can add, with a default question of each.
const KINDS: [(&str, &str); 8] = [
    ("feasibility", "Is iteration N's counterexample feasible?"),
    ("new_predicates", "Which predicates does refinement add at iteration N?"),
    ("implying_cubes", "Which cubes imply WP(statement, predicate)?"),
    ("invariant_at", "Which invariant holds at a label?"),
    ("verdict", "What is the verdict?"),
    ("reach_iteration", "Goal: reach iteration N"),
    ("make_safe", "Goal: make the program SAFE"),
    ("free_text", "Free-text prompt"),
];

fn question_of_kind(kind: &str) -> Question {
    match kind {
        "feasibility" => Question::Feasibility { iteration: 1 },
        "new_predicates" => Question::NewPredicates { iteration: 1 },
        "implying_cubes" => Question::ImplyingCubes { iteration: 1, statement: String::new(), predicate: String::new(), negated: false },
        "invariant_at" => Question::InvariantAt { procedure: "main".into(), location: "at entry".into() },
        "verdict" => Question::Verdict,
        "reach_iteration" => Question::ReachIteration { iteration: 2 },
        "make_safe" => Question::MakeSafe,
        _ => Question::FreeText,
    }
}

fn kind_of(q: &Question) -> &'static str {
    match q {
        Question::Feasibility { .. } => "feasibility",
        Question::NewPredicates { .. } => "new_predicates",
        Question::ImplyingCubes { .. } => "implying_cubes",
        Question::InvariantAt { .. } => "invariant_at",
        Question::Verdict => "verdict",
        Question::ReachIteration { .. } => "reach_iteration",
        Question::MakeSafe => "make_safe",
        Question::FreeText => "free_text",
    }
}

/// Puts the lab panel's top edge at the top bar's bottom edge.
fn fit_below_top_bar() {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let (Some(bar), Some(panel)) = (document.query_selector(".topbar").ok().flatten(), document.get_element_by_id("lab-panel")) else { return };
    let bottom = bar.get_bounding_client_rect().bottom().max(0.0);
    let _ = panel.set_attribute("style", &format!("top: {bottom:.0}px"));
}

/// In the page's flow (below the explain panel: narrow windows, 200 % zoom) the opened panel
/// scrolls to the top of the window; the focus alone scrolls only its heading into view, at the
/// window's bottom edge. Docked beside the panes (position: fixed) it is in view already.
fn show_in_flow() {
    let Some(window) = web_sys::window() else { return };
    let Some(panel) = window.document().and_then(|d| d.get_element_by_id("lab-panel")) else { return };
    let docked = window.get_computed_style(&panel).ok().flatten().and_then(|s| s.get_property_value("position").ok()).is_some_and(|p| p == "fixed");
    if !docked {
        panel.scroll_into_view_with_bool(true);
    }
}

#[function_component(LabPanel)]
pub fn lab_panel() -> Html {
    let state = use_app();
    let close = {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| state.dispatch(Action::ToggleLabPanel))
    };
    let body = match &state.lab {
        // keyed: another lab is another form (its answers, marks and progress)
        Some(LabView::Student(lab)) => html! { <StudentView key={format!("{}-{}", lab.id, lab.digest())} lab={lab.clone()} /> },
        _ => html! { <TeacherView /> },
    };
    // the panel takes the focus when it opens (the Lab button gets it back when it hides), and
    // starts below the top bar, which wraps to two or three rows on narrow windows (or, in the
    // page's flow, at the top of the window)
    use_effect_with((), |_| {
        super::app::focus("#lab-panel-heading");
        fit_below_top_bar();
        show_in_flow();
        let resize = gloo::events::EventListener::new(&gloo::utils::window(), "resize", |_| fit_below_top_bar());
        move || {
            drop(resize);
            super::app::focus("#lab-button");
        }
    });
    use_effect(fit_below_top_bar);
    let heading = match &state.lab {
        Some(LabView::Student(_)) => "Lab",
        _ => "Labs",
    };
    html! {
        <aside class="lab-panel" id="lab-panel" aria-labelledby="lab-panel-heading">
            <div class="lab-panel-head">
                <h2 id="lab-panel-heading" tabindex="-1">{ heading }</h2>
                <button class="btn btn-small" id="lab-hide" onclick={close} title="Hide the lab panel (the Lab button shows it again)">{ "Hide" }</button>
            </div>
            { body }
        </aside>
    }
}

#[derive(Properties, PartialEq)]
struct StudentProps {
    lab: Rc<Lab>,
}

#[function_component(StudentView)]
fn student_view(props: &StudentProps) -> Html {
    let state = use_app();
    let lab = props.lab.clone();
    let progress = {
        let lab = lab.clone();
        use_state(move || load_progress(&lab))
    };
    // the answers being typed, and the last mark of each task
    let drafts = use_state(|| vec![String::new(); props.lab.tasks.len()]);
    let marks = use_state(|| vec![None::<Mark>; props.lab.tasks.len()]);
    {
        let lab = lab.clone();
        use_effect_with((*progress).clone(), move |p| save_progress(&lab, p));
    }
    let summary = run_summary(&state);
    let done = lab
        .tasks
        .iter()
        .enumerate()
        .filter(|(i, _)| progress.get(*i).is_some_and(|a| a.right == Some(true) || (a.right.is_none() && !a.answer.is_empty())))
        .count();
    let on_name = {
        let progress = progress.clone();
        Callback::from(move |e: Event| {
            let mut p = (*progress).clone();
            p.student = input_value(&e);
            progress.set(p);
        })
    };
    let export = {
        let (lab, progress) = (lab.clone(), progress.clone());
        Callback::from(move |_: MouseEvent| download(&format!("{}-submission.json", lab.id), &progress.to_file()))
    };
    let leave = {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| state.dispatch(Action::SetLab(None)))
    };
    let restore = {
        let (state, lab) = (state.clone(), lab.clone());
        Callback::from(move |_: MouseEvent| state.dispatch(Action::LoadSession(session_of(&lab))))
    };
    let locked = lab.locked.iter().map(|l| l.label()).collect::<Vec<_>>().join(", ");
    let tasks = lab.tasks.iter().enumerate().map(|(i, task)| {
        let given = progress.get(i).cloned();
        let mark = marks.get(i).cloned().flatten().or_else(|| given.as_ref().and_then(|g| match g.right {
            Some(true) => Some(Mark::Right),
            None if !g.answer.is_empty() => Some(Mark::Recorded),
            _ => None,
        }));
        let hint = task.hint_after(progress.wrong(i)).filter(|_| !matches!(mark, Some(Mark::Right)));
        let check = {
            let (lab, progress, drafts, marks, summary) = (lab.clone(), progress.clone(), drafts.clone(), marks.clone(), summary.clone());
            Callback::from(move |_: MouseEvent| {
                let goal = lab.tasks[i].question.is_goal();
                let answer = if goal {
                    summary.as_ref().map(|s| format!("iterations: {}, verdict: {}", s.iterations, s.verdict.map_or("none", |v| v.as_str()))).unwrap_or_default()
                } else {
                    drafts.get(i).cloned().unwrap_or_default()
                };
                let mut p = (*progress).clone();
                let mark = p.answer(&lab, i, &answer, summary.as_ref(), Some(now()));
                let mut m = (*marks).clone();
                if let Some(slot) = m.get_mut(i) {
                    *slot = Some(mark);
                }
                marks.set(m);
                progress.set(p);
            })
        };
        let on_input = {
            let drafts = drafts.clone();
            Callback::from(move |e: InputEvent| {
                let mut d = (*drafts).clone();
                if let Some(slot) = d.get_mut(i) {
                    *slot = input_value(&e);
                }
                drafts.set(d);
            })
        };
        let on_key = {
            let check = check.clone();
            Callback::from(move |e: KeyboardEvent| {
                if e.key() == "Enter" && (e.ctrl_key() || e.meta_key()) {
                    e.prevent_default();
                    e.stop_propagation();
                    if let Ok(event) = web_sys::MouseEvent::new("click") {
                        check.emit(event);
                    }
                }
            })
        };
        let goal = task.question.is_goal();
        let answer_id = format!("lab-answer-{}", i + 1);
        html! {
            <li class="lab-task" id={format!("lab-task-{}", i + 1)} data-kind={kind_of(&task.question)}>
                <p class="lab-prompt" id={format!("lab-prompt-{}", i + 1)}>{ task.prompt.clone() }</p>
                if goal {
                    <p class="lab-format">{ task.question.answer_format() }</p>
                    <button class="btn btn-small" id={format!("lab-check-{}", i + 1)} onclick={check}>{ "Check my run" }</button>
                } else {
                    <label class="lab-format" for={answer_id.clone()}>{ format!("Your answer ({})", task.question.answer_format()) }</label>
                    <textarea id={answer_id} class="lab-answer" rows="2" spellcheck="false"
                        value={drafts.get(i).cloned().unwrap_or_default()} oninput={on_input} onkeydown={on_key}
                        aria-describedby={format!("lab-prompt-{}", i + 1)} />
                    <button class="btn btn-small" id={format!("lab-check-{}", i + 1)} onclick={check}>
                        { if matches!(task.question, Question::FreeText) { "Save" } else { "Check" } }
                    </button>
                }
                <div class="lab-feedback" role="status" id={format!("lab-mark-{}", i + 1)}>
                    if let Some(mark) = &mark {
                        <span class={mark_class(mark)}>{ mark_text(mark) }</span>
                    }
                    if let Some(hint) = hint {
                        <p class="lab-hint" id={format!("lab-hint-{}", i + 1)}>{ format!("Hint: {hint}") }</p>
                    }
                    if let Some(given) = given.filter(|g| g.right == Some(true) && !goal) {
                        <p class="lab-given">{ format!("Your answer: {}", given.answer) }</p>
                    }
                </div>
            </li>
        }
    });
    html! {
        <div class="lab-student" id="lab-student" data-lab={lab.id.clone()}>
            <h3 class="lab-title" id="lab-title-text">{ lab.title.clone() }</h3>
            if !lab.introduction.is_empty() {
                <p class="lab-intro">{ lab.introduction.clone() }</p>
            }
            if !locked.is_empty() {
                <p class="lab-locks">{ format!("Locked by the lab: {locked}. Run and Step put them back.") }
                    { " " }<button class="btn btn-small" id="lab-restore" onclick={restore}>{ "Reload the lab's program" }</button></p>
            }
            <p class="lab-progress" id="lab-progress">{ format!("{done} of {} tasks done", lab.tasks.len()) }</p>
            <ol class="lab-tasks">{ for tasks }</ol>
            <div class="lab-actions">
                <label for="lab-student-name">{ "Your name (in the submission)" }</label>
                <input id="lab-student-name" type="text" value={progress.student.clone()} onchange={on_name} />
                <button class="btn" id="lab-export" onclick={export}>{ "Download submission" }</button>
                <button class="btn" id="lab-leave" onclick={leave}>{ "Leave the lab" }</button>
            </div>
        </div>
    }
}

fn load_draft() -> Option<LabDraft> {
    storage_ok().then(|| LocalStorage::get::<LabDraft>(DRAFT_KEY).ok()).flatten()
}

fn new_draft(session: &Session) -> LabDraft {
    LabDraft {
        id: "my-lab".into(),
        title: "A lab".into(),
        request: request_of(session),
        salt: lab::salt_from(now().as_bytes()),
        ..LabDraft::default()
    }
}

#[function_component(TeacherView)]
fn teacher_view() -> Html {
    let state = use_app();
    let draft = {
        let session = state.session.clone();
        use_state(move || load_draft().unwrap_or_else(|| new_draft(&session)))
    };
    let message = use_state(|| None::<(String, bool)>);
    let link = use_state(|| None::<String>);
    let sealed = use_state(|| None::<Rc<Lab>>);
    let review = use_state(|| None::<Review>);
    let reader = use_mut_ref(|| None::<gloo::file::callbacks::FileReader>);
    let new_kind = use_state(|| "feasibility".to_string());
    use_effect_with((*draft).clone(), |d| {
        if storage_ok() {
            let _ = LocalStorage::set(DRAFT_KEY, d);
        }
    });
    let update = |f: Edit<LabDraft>| {
        let draft = draft.clone();
        Callback::from(move |e: Event| {
            let mut d = (*draft).clone();
            f(&mut d, input_value(&e));
            draft.set(d);
        })
    };
    let take = {
        let (draft, state, message) = (draft.clone(), state.clone(), message.clone());
        Callback::from(move |_: MouseEvent| {
            let mut d = (*draft).clone();
            d.request = request_of(&state.session);
            draft.set(d);
            message.set(Some(("The lab now has the playground's program, predicates and settings.".into(), false)));
        })
    };
    let fill = {
        let (draft, state, message) = (draft.clone(), state.clone(), message.clone());
        Callback::from(move |_: MouseEvent| {
            let Some(outcome) = last_outcome(&state) else {
                message.set(Some(("Run the lab's program first (Run, Ctrl+Enter): the answers come from that run.".into(), true)));
                return;
            };
            if request_of(&state.session) != draft.request {
                message.set(Some(("The playground's program or settings differ from the lab's: press \"Use the playground's program\" first, or open the lab's program.".into(), true)));
                return;
            }
            let mut d = (*draft).clone();
            let missing = d.fill_answers(&outcome);
            let text = if missing.is_empty() {
                "Answers filled from the last run.".to_string()
            } else {
                let reasons: Vec<String> = missing.iter().map(|(i, why)| format!("task {}: {why}", i + 1)).collect();
                format!("Some answers could not be filled: {}.", reasons.join("; "))
            };
            message.set(Some((text, !missing.is_empty())));
            draft.set(d);
        })
    };
    let add = {
        let (draft, new_kind) = (draft.clone(), new_kind.clone());
        Callback::from(move |_: MouseEvent| {
            let mut d = (*draft).clone();
            let question = question_of_kind(&new_kind);
            let prompt = KINDS.iter().find(|(k, _)| *k == new_kind.as_str()).map(|(_, p)| p.to_string()).unwrap_or_default();
            d.tasks.push(TaskDraft { prompt, question, ..TaskDraft::default() });
            draft.set(d);
        })
    };
    let on_kind = {
        let new_kind = new_kind.clone();
        Callback::from(move |e: Event| new_kind.set(input_value(&e)))
    };
    let make = {
        let (draft, message, link, sealed) = (draft.clone(), message.clone(), link.clone(), sealed.clone());
        Callback::from(move |_: MouseEvent| match draft.seal() {
            Ok(lab) => {
                let href = web_sys::window().and_then(|w| w.location().href().ok()).unwrap_or_default();
                let base = href.split('#').next().unwrap_or_default().to_string();
                link.set(Some(format!("{base}#{}", lab.to_link())));
                sealed.set(Some(Rc::new(lab)));
                message.set(Some(("The lab is sealed: copy the link or download the file. The answers in it are hashed.".into(), false)));
            }
            Err(e) => {
                link.set(None);
                message.set(Some((format!("The lab cannot be sealed yet: {e}"), true)));
            }
        })
    };
    let save_file = {
        let sealed = sealed.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(lab) = sealed.as_ref() {
                download(&format!("{}.lab.json", lab.id), &lab.to_file());
            }
        })
    };
    let try_it = {
        let (sealed, state) = (sealed.clone(), state.clone());
        Callback::from(move |_: MouseEvent| {
            if let Some(lab) = sealed.as_ref() {
                state.dispatch(Action::OpenLab(lab.clone()));
            }
        })
    };
    let open_lab_file = {
        let (sealed, message, reader) = (sealed.clone(), message.clone(), reader.clone());
        let done = Callback::from(move |text: String| match Lab::from_file(&text) {
            Ok(lab) => {
                message.set(Some((format!("Opened the lab \"{}\": load a submission to check it.", lab.title), false)));
                sealed.set(Some(Rc::new(lab)));
            }
            Err(e) => message.set(Some((format!("This lab file cannot be opened: {e}"), true))),
        });
        Callback::from(move |e: Event| read_chosen_file(&e, &reader, done.clone()))
    };
    let open_submission = {
        let (sealed, draft, message, review, reader) = (sealed.clone(), draft.clone(), message.clone(), review.clone(), reader.clone());
        let done = Callback::from(move |text: String| {
            let lab = match sealed.as_ref() {
                Some(lab) => Ok((**lab).clone()),
                None => draft.seal(),
            };
            let checked = Submission::from_file(&text).and_then(|s| lab.and_then(|lab| lab.review(&s)));
            match checked {
                Ok(r) => {
                    message.set(Some((format!("Submission checked: {} of {} right.", r.right, r.checked), false)));
                    review.set(Some(r));
                }
                Err(e) => {
                    review.set(None);
                    message.set(Some((format!("This submission cannot be checked: {e}"), true)));
                }
            }
        });
        Callback::from(move |e: Event| read_chosen_file(&e, &reader, done.clone()))
    };
    let locks = Lockable::ALL.iter().map(|lock| {
        let lock = *lock;
        let on = draft.locked.contains(&lock);
        let toggle = {
            let draft = draft.clone();
            Callback::from(move |e: Event| {
                let mut d = (*draft).clone();
                d.locked.retain(|l| *l != lock);
                if checked(&e) {
                    d.locked.push(lock);
                    d.locked.sort();
                }
                draft.set(d);
            })
        };
        let id = format!("lab-lock-{}", serde_json::to_string(&lock).unwrap_or_default().trim_matches('"'));
        html! { <label class="lab-check" for={id.clone()}><input type="checkbox" id={id} checked={on} onchange={toggle} />{ lock.label() }</label> }
    });
    let tasks = draft.tasks.iter().enumerate().map(|(i, task)| {
        let n = i + 1;
        let edit = |f: Edit<TaskDraft>| {
            let draft = draft.clone();
            Callback::from(move |e: Event| {
                let mut d = (*draft).clone();
                if let Some(t) = d.tasks.get_mut(i) {
                    f(t, input_value(&e));
                }
                draft.set(d);
            })
        };
        let remove = {
            let draft = draft.clone();
            Callback::from(move |_: MouseEvent| {
                let mut d = (*draft).clone();
                d.tasks.remove(i);
                draft.set(d);
            })
        };
        let up = {
            let draft = draft.clone();
            Callback::from(move |_: MouseEvent| {
                let mut d = (*draft).clone();
                if i > 0 {
                    d.tasks.swap(i - 1, i);
                }
                draft.set(d);
            })
        };
        let iteration = task.question.iteration();
        let set_iteration = edit(Rc::new(|t: &mut TaskDraft, v: String| {
            let n: u32 = v.trim().parse().unwrap_or(1).max(1);
            match &mut t.question {
                Question::ImplyingCubes { iteration, .. }
                | Question::Feasibility { iteration }
                | Question::NewPredicates { iteration }
                | Question::ReachIteration { iteration } => *iteration = n,
                _ => {}
            }
        }));
        let fields = match &task.question {
            Question::ImplyingCubes { statement, predicate, negated, .. } => {
                let (statement, predicate, negated) = (statement.clone(), predicate.clone(), *negated);
                html! { <>
                    <label for={format!("lab-t{n}-statement")}>{ "C statement (as the WP view shows it)" }</label>
                    <input id={format!("lab-t{n}-statement")} type="text" value={statement} onchange={edit(Rc::new(|t: &mut TaskDraft, v: String| if let Question::ImplyingCubes { statement, .. } = &mut t.question { *statement = v; }))} />
                    <label for={format!("lab-t{n}-predicate")}>{ "Predicate (boolean variable)" }</label>
                    <input id={format!("lab-t{n}-predicate")} type="text" value={predicate} onchange={edit(Rc::new(|t: &mut TaskDraft, v: String| if let Question::ImplyingCubes { predicate, .. } = &mut t.question { *predicate = v; }))} />
                    <label class="lab-check" for={format!("lab-t{n}-negated")}>
                        <input id={format!("lab-t{n}-negated")} type="checkbox" checked={negated} onchange={{
                            let draft = draft.clone();
                            Callback::from(move |e: Event| {
                                let mut d = (*draft).clone();
                                if let Some(Question::ImplyingCubes { negated, .. }) = d.tasks.get_mut(i).map(|t| &mut t.question) {
                                    *negated = checked(&e);
                                }
                                draft.set(d);
                            })
                        }} />{ "the negation" }</label>
                </> }
            }
            Question::InvariantAt { procedure, location } => {
                let (procedure, location) = (procedure.clone(), location.clone());
                html! { <>
                    <label for={format!("lab-t{n}-procedure")}>{ "Procedure" }</label>
                    <input id={format!("lab-t{n}-procedure")} type="text" value={procedure} onchange={edit(Rc::new(|t: &mut TaskDraft, v: String| if let Question::InvariantAt { procedure, .. } = &mut t.question { *procedure = v; }))} />
                    <label for={format!("lab-t{n}-location")}>{ "Location (as the invariants view shows it: at L, at entry)" }</label>
                    <input id={format!("lab-t{n}-location")} type="text" value={location} onchange={edit(Rc::new(|t: &mut TaskDraft, v: String| if let Question::InvariantAt { location, .. } = &mut t.question { *location = v; }))} />
                </> }
            }
            _ => html! {},
        };
        html! {
            <li class="lab-task lab-task-edit" id={format!("lab-edit-{n}")}>
                <p class="lab-kind">{ question_label(&task.question) }</p>
                if let Some(iteration) = iteration {
                    <label for={format!("lab-t{n}-iteration")}>{ "Iteration" }</label>
                    <input id={format!("lab-t{n}-iteration")} type="number" min="1" value={iteration.to_string()} onchange={set_iteration} />
                }
                { fields }
                <label for={format!("lab-t{n}-prompt")}>{ "Prompt (what the student reads)" }</label>
                <textarea id={format!("lab-t{n}-prompt")} rows="2" value={task.prompt.clone()} onchange={edit(Rc::new(|t: &mut TaskDraft, v: String| t.prompt = v))} />
                if task.question.has_answer() {
                    <label for={format!("lab-t{n}-answer")}>{ format!("Expected answer ({})", task.question.answer_format()) }</label>
                    <textarea id={format!("lab-t{n}-answer")} rows="2" spellcheck="false" value={task.answer.clone()} onchange={edit(Rc::new(|t: &mut TaskDraft, v: String| t.answer = v))} />
                }
                <label for={format!("lab-t{n}-hints")}>{ "Hints, one a line (shown one more after each wrong answer)" }</label>
                <textarea id={format!("lab-t{n}-hints")} rows="2" value={task.hints.join("\n")} onchange={edit(Rc::new(|t: &mut TaskDraft, v: String| t.hints = v.lines().map(str::trim).filter(|l| !l.is_empty()).map(str::to_string).collect()))} />
                <div class="lab-row">
                    <button class="btn btn-small" id={format!("lab-t{n}-up")} onclick={up} disabled={i == 0}>{ "Move up" }</button>
                    <button class="btn btn-small" id={format!("lab-t{n}-remove")} onclick={remove}>{ "Remove" }</button>
                </div>
            </li>
        }
    });
    let review_table = review.as_ref().map(|r| {
        html! {
            <table class="lab-review" id="lab-review">
                <caption>{ format!("Submission: {} of {} right{}", r.right, r.checked, if r.same_version { "" } else { " (made for another version of this lab)" }) }</caption>
                <thead><tr><th scope="col">{ "Task" }</th><th scope="col">{ "Answer" }</th><th scope="col">{ "Check" }</th><th scope="col">{ "Attempts" }</th></tr></thead>
                <tbody>
                    { for r.rows.iter().map(|row| html! {
                        <tr class={mark_class(&row.mark)}>
                            <th scope="row">{ format!("{}. {}", row.task + 1, row.prompt) }</th>
                            <td><code>{ row.answer.clone() }</code></td>
                            <td>{ mark_text(&row.mark) }
                                { if row.goal { " (the student's run, as claimed)" } else { "" } }
                                { if row.agrees { "" } else { " The file claimed otherwise." } }</td>
                            <td>{ row.attempts }</td>
                        </tr>
                    }) }
                </tbody>
            </table>
        }
    });
    let gallery = lab::GALLERY.iter().filter_map(|(id, _)| Some((*id, Rc::new(lab::gallery_lab(id)?.ok()?)))).map(|(id, lab)| {
        let state = state.clone();
        let title = lab.title.clone();
        let open = Callback::from(move |_: MouseEvent| state.dispatch(Action::OpenLab(lab.clone())));
        html! { <li><button class="btn btn-small" data-lab={id} id={format!("lab-gallery-{id}")} onclick={open}>{ title }</button></li> }
    });
    html! {
        <div class="lab-teacher" id="lab-teacher">
            <p class="lab-intro">{ "Author a lab from the playground's program and settings, share it as a link or a file, and check the submissions students send back." }</p>
            <h3 id="lab-gallery-heading">{ "Gallery labs" }</h3>
            <p class="lab-format">{ "Work through one as a student: predict, then check." }</p>
            <ul class="lab-gallery" aria-labelledby="lab-gallery-heading">{ for gallery }</ul>
            <h3>{ "Author a lab" }</h3>
            <label for="lab-id">{ "Lab id (letters, digits, -)" }</label>
            <input id="lab-id" type="text" value={draft.id.clone()} onchange={update(Rc::new(|d: &mut LabDraft, v: String| d.id = v.trim().to_string()))} />
            <label for="lab-title">{ "Title" }</label>
            <input id="lab-title" type="text" value={draft.title.clone()} onchange={update(Rc::new(|d: &mut LabDraft, v: String| d.title = v))} />
            <label for="lab-intro">{ "Introduction" }</label>
            <textarea id="lab-intro" rows="3" value={draft.introduction.clone()} onchange={update(Rc::new(|d: &mut LabDraft, v: String| d.introduction = v))} />
            <p class="lab-format">{ format!("Program: {} mode, {}, {}.", run_kind(draft.request.mode).label(), crate::model::plural(draft.request.source.lines().count(), "line"), crate::model::plural(crate::model::count_predicates(&draft.request.predicates), "predicate")) }</p>
            <div class="lab-row">
                <button class="btn btn-small" id="lab-take" onclick={take}>{ "Use the playground's program" }</button>
                <button class="btn btn-small" id="lab-fill" onclick={fill}>{ "Fill answers from the last run" }</button>
            </div>
            <fieldset class="lab-locks-edit">
                <legend>{ "Locked for the student" }</legend>
                { for locks }
            </fieldset>
            <ol class="lab-tasks">{ for tasks }</ol>
            <div class="lab-row">
                <label for="lab-new-kind">{ "New task" }</label>
                <select id="lab-new-kind" onchange={on_kind}>
                    { for KINDS.iter().map(|(k, label)| html! { <option value={*k} selected={new_kind.as_str() == *k}>{ *label }</option> }) }
                </select>
                <button class="btn btn-small" id="lab-add-task" onclick={add}>{ "Add task" }</button>
            </div>
            <div class="lab-row">
                <button class="btn btn-primary" id="lab-make-link" onclick={make}>{ "Seal: make the link" }</button>
                if sealed.is_some() {
                    <button class="btn" id="lab-download" onclick={save_file}>{ "Download lab file" }</button>
                    <button class="btn" id="lab-try" onclick={try_it}>{ "Try it as a student" }</button>
                }
            </div>
            if let Some((text, error)) = (*message).clone() {
                <p class={classes!("lab-message", error.then_some("lab-wrong"))} id="lab-message" role={if error { "alert" } else { "status" }}>{ text }</p>
            }
            if let Some(link) = (*link).clone() {
                <label for="lab-link">{ "Lab link" }</label>
                <input id="lab-link" type="text" readonly=true value={link} />
            }
            <div class="lab-row">
                <label for="lab-open-file">{ "Open a lab file" }</label>
                <input id="lab-open-file" type="file" accept=".json,application/json" onchange={open_lab_file} />
            </div>
            <div class="lab-row">
                <label for="lab-submission-file">{ "Check a submission" }</label>
                <input id="lab-submission-file" type="file" accept=".json,application/json" onchange={open_submission} />
            </div>
            { for review_table }
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lab_opens_with_its_program_and_settings_and_locks_come_back() {
        let lab = lab::gallery_lab("boop-testdev").expect("shipped").expect("valid");
        let session = session_of(&lab);
        assert_eq!(session.mode, RunKind::Check);
        assert_eq!(session.source, lab.source);
        assert_eq!(session.options.techniques, vec![api::Technique::Cegar]);
        // the student changes a locked setting and an unlocked one; Run puts the locked one back
        let mut changed = session.clone();
        changed.options.techniques = api::Technique::ALL.to_vec();
        changed.options.max_iterations = 7;
        changed.source.push_str("\n/* edited */\n");
        let run = enforced(&changed, &lab);
        assert_eq!(run.options.techniques, vec![api::Technique::Cegar]);
        assert_eq!(run.options.max_iterations, 7, "not locked");
        assert!(run.source.ends_with("/* edited */\n"), "the program is not locked in this lab");
        // the lab's own request survives the trip through the playground's options
        // (the playground records explanations in Abstract mode only, whatever the lab says)
        let mut request = request_of(&session);
        request.file_name = lab.request().file_name;
        request.options.record_explanations = lab.options.record_explanations;
        assert_eq!(request, lab.request());
    }

    #[test]
    fn every_kind_the_teacher_can_add_round_trips() {
        for (kind, _) in KINDS {
            assert_eq!(kind_of(&question_of_kind(kind)), kind);
        }
    }
}
