//! The root component: owns the state reducer and the engine worker, wires commands
//! (run, step, cancel, reset, share, download), keyboard shortcuts, focus management of the
//! popups, the live region, display preferences and persistence.
//!
//! URL: `#v1,...` is a share link (see [`crate::share`], and [`crate::storage`] for how it meets
//! the stored session); `?embed` shows a read-only compact view (with `&example=ID` for a gallery
//! example, or a share link's fragment) that never touches storage; `?present` turns on
//! presenter mode.

use super::{boolprog::BoolProgPane, editor::Editor, footer::Footer, predicates::PredicatesPane};
use super::{explain::ExplainPanel, timeline::TimelinePane, topbar::TopBar, Commands};
use crate::bridge::EngineBridge;
use crate::model::{plural, RunKind, RunRequest, ToWorker};
use crate::share::{self, Session};
use crate::state::{Action, AppState, CopyStatus, Notice, NoticeAction, Popup, Prefs, RunStatus};
use crate::storage;
use gloo::events::{EventListener, EventListenerOptions};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// The query parameters the app reads (`?embed&example=partition&present`).
#[derive(Default)]
struct Query {
    embed: bool,
    present: bool,
    example: Option<String>,
}

fn query() -> Query {
    let search = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
    let mut q = Query::default();
    for pair in search.trim_start_matches('?').split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        match key {
            "embed" => q.embed = true,
            "present" => q.present = true,
            "example" => q.example = Some(value.to_string()),
            _ => {}
        }
    }
    q
}

fn notice_of(text: Option<(String, bool)>, alternative: Option<(String, Session)>, current_label: &str) -> Option<Notice> {
    let (text, error) = text?;
    let action = alternative.map(|(label, session)| NoticeAction {
        back_label: current_label.to_string(),
        then: "Switched to the other version (the button switches back).".into(),
        label,
        session: Box::new(session),
    });
    Some(Notice { text, error, action })
}

/// The initial state and whether to run at once.
fn initial_state() -> (AppState, bool) {
    let hash = web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default();
    let q = query();
    let shared = share::decode(&hash);
    let (mut state, run) = if q.embed {
        // read-only view: never reads or writes the user's stored session
        let example = q.example.as_deref().map(|id| (id, crate::examples::by_id(id)));
        let (session, notice) = match (shared, example) {
            (Ok(Some(session)), _) => (session, None),
            (Err(message), _) => (Session::default(), Some((message, true))),
            (Ok(None), Some((_, Some(ex)))) => (session_of(ex), None),
            (Ok(None), Some((id, None))) => (Session::default(), Some((format!("There is no example called \"{id}\"."), true))),
            (Ok(None), None) => (Session::default(), None),
        };
        let (options, notes) = session.options.validated();
        let session = Session { options, ..session };
        let notice = notice.or_else(|| (!notes.is_empty()).then(|| (format!("Some settings were reset: {}.", notes.join("; ")), true)));
        (AppState::new(session, notice_of(notice, None, "")), false)
    } else if playground_api::lab::Lab::is_link(&hash) {
        (super::lab::open_lab_link(&hash), false)
    } else {
        let (session, notice, run) = open_link(&hash, shared, storage::load());
        (AppState::new(session, notice), run)
    };
    state.embed = q.embed;
    // a deep link's place (crate::deeplink): the mode now, the rest after the run
    let search = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
    let (mut link, mut problems) = crate::deeplink::DeepLink::parse(&search);
    if let Some(mode) = link.mode {
        state.session.mode = mode;
    }
    problems.extend(crate::deeplink::apply_shape_tab(&mut link, &mut state));
    if link.predict {
        crate::exercise::reduce(&mut state, crate::exercise::ExerciseAction::SetEnabled(true));
    }
    // (applied now: the run's Done must not turn it on again after the student turned it off)
    let link = crate::deeplink::DeepLink { predict: false, ..link };
    if !link.is_empty() {
        state.pending_link = Some(link);
    }
    crate::deeplink::notify(&mut state, problems);
    state.prefs = if q.embed { Prefs::default() } else { storage::load_prefs() };
    if q.present {
        state.prefs.presenter = true;
    }
    (state, run)
}

/// Applies [`storage::choose`] (keeping a backup of replaced work, remembering the link):
/// the session to show, its notice, and whether to run it.
fn open_link(hash: &str, shared: Result<Option<Session>, String>, stored: Option<Session>) -> (Session, Option<Notice>, bool) {
    let opening = storage::choose(hash, shared, stored, storage::load_link().as_deref());
    if let Some(backup) = &opening.backup {
        storage::save_backup(backup);
    }
    if opening.run {
        storage::save_link(hash);
    }
    let current = if opening.backup.is_some() { "Back to the shared session" } else { "Back to my edits" };
    (opening.session, notice_of(opening.notice, opening.alternative, current), opening.run)
}

fn session_of(example: &crate::examples::Example) -> Session {
    let mode = crate::examples::mode_of(example);
    let mut session = Session { mode, predicates: example.predicates.to_string(), example: Some(example.id.to_string()), ..Session::default() };
    if mode == RunKind::ModelCheck {
        session.boolean_program = example.source.to_string();
    } else {
        session.source = example.source.to_string();
    }
    crate::state::load_mode_settings(&mut session, example);
    session
}

type SharedBridge = Rc<RefCell<Option<EngineBridge>>>;

/// Spawns a fresh worker into `slot` (terminating any previous one) and asks for its version.
/// When the worker dies, [`Action::WorkerDied`] makes the app spawn another (an effect on
/// `worker_deaths`: the dead worker's own listener must not replace its bridge).
fn spawn_engine(slot: &SharedBridge, dispatch: Callback<Action>) {
    slot.borrow_mut().take(); // terminate the old worker first
    let (events, deaths) = (dispatch.clone(), dispatch.clone());
    match EngineBridge::spawn(move |event| events.emit(Action::Worker(event)), move |why| deaths.emit(Action::WorkerDied(why))) {
        Ok(bridge) => {
            bridge.send(&ToWorker::Version);
            *slot.borrow_mut() = Some(bridge);
        }
        Err(message) => dispatch.emit(Action::Worker(crate::model::FromWorker::Error(message))),
    }
}

/// Replaces the address (no reload, no history entry) by this page's path with `query`
/// (`?…` or empty) and `#fragment`.
fn set_address(query: &str, fragment: &str) {
    if let Some(window) = web_sys::window() {
        let url = format!("{}{query}#{fragment}", window.location().pathname().unwrap_or_default());
        if let Ok(history) = window.history() {
            let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url));
        }
    }
}

fn document() -> Option<web_sys::Document> {
    web_sys::window()?.document()
}

/// Copies with a temporary selected text field and `document.execCommand("copy")`, the way
/// that works without the clipboard API (plain http).
fn copy_with_selection(text: &str) -> CopyStatus {
    let Some(doc) = document() else { return CopyStatus::Manual };
    let (Some(body), Ok(field)) = (doc.body(), doc.create_element("textarea")) else { return CopyStatus::Manual };
    let field: web_sys::HtmlTextAreaElement = field.unchecked_into();
    field.set_value(text);
    let _ = field.set_attribute("readonly", "");
    let _ = field.set_attribute("style", "position: fixed; top: 0; left: 0; opacity: 0;");
    let _ = body.append_child(&field);
    field.select();
    let copied = js_sys::Reflect::get(&doc, &"execCommand".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .and_then(|f| f.call1(&doc, &"copy".into()).ok())
        .is_some_and(|r| r.as_bool() == Some(true));
    field.remove();
    if copied {
        CopyStatus::Copied
    } else {
        CopyStatus::Manual
    }
}

/// Puts `text` on the clipboard: the clipboard API where it exists (secure contexts), else the
/// selection fallback. Reports the result through `done` (possibly later).
fn copy_to_clipboard(text: &str, done: Callback<CopyStatus>) {
    let clipboard = web_sys::window()
        .and_then(|w| js_sys::Reflect::get(&w.navigator(), &"clipboard".into()).ok())
        .filter(|c| !c.is_undefined() && !c.is_null());
    let Some(clipboard) = clipboard else {
        done.emit(copy_with_selection(text));
        return;
    };
    let clipboard: web_sys::Clipboard = clipboard.unchecked_into();
    let (ok_done, text_again) = (done.clone(), text.to_string());
    let ok = Closure::<dyn FnMut(JsValue)>::new(move |_| ok_done.emit(CopyStatus::Copied));
    let refused = Closure::<dyn FnMut(JsValue)>::new(move |_| done.emit(copy_with_selection(&text_again)));
    let _ = clipboard.write_text(text).then2(&ok, &refused);
    ok.forget();
    refused.forget();
}

/// Starts the download of one text file (a gloo blob and object URL, revoked when dropped).
pub fn download(name: &str, text: &str) {
    let Some(document) = document() else { return };
    let blob = gloo::file::Blob::new_with_options(text, Some("text/plain"));
    let url = gloo::file::ObjectUrl::from(blob);
    if let Ok(a) = document.create_element("a") {
        let a: web_sys::HtmlAnchorElement = a.unchecked_into();
        a.set_href(&url);
        a.set_download(name);
        a.click();
    }
}

/// Focuses the element matching `selector`, if any; returns whether it exists.
pub fn focus(selector: &str) -> bool {
    let Some(element) = document().and_then(|d| d.query_selector(selector).ok().flatten()) else { return false };
    if let Ok(e) = element.dyn_into::<web_sys::HtmlElement>() {
        let _ = e.focus();
    }
    true
}

/// Whether the keyboard focus went nowhere (its element was removed, e.g. a closed popup).
fn focus_lost() -> bool {
    let Some(doc) = document() else { return false };
    match doc.active_element() {
        None => true,
        Some(active) => doc.body().is_some_and(|b| active == *b),
    }
}

/// Whether a key event comes from a text field (where plain keys type text).
fn in_text_field(e: &web_sys::KeyboardEvent) -> bool {
    let Some(target) = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return false };
    matches!(target.tag_name().as_str(), "TEXTAREA" | "INPUT" | "SELECT") || target.has_attribute("contenteditable")
}

/// The text of the live region: progress (iteration and phase only, so it changes rarely),
/// then the verdict.
fn announcement(state: &AppState) -> String {
    match &state.run.status {
        RunStatus::Idle => String::new(),
        RunStatus::Running(p) if p.iteration == 0 => "Running.".into(),
        RunStatus::Running(p) => format!("Running: iteration {}, {}.", p.iteration, if p.phase.is_empty() { "starting" } else { &p.phase }),
        RunStatus::Paused => format!("Paused after iteration {}: Step for the next one, or Run to the end.", state.run.iterations.len()),
        RunStatus::Cancelled => format!("Cancelled; {} kept.", plural(state.run.iterations.len(), "finished iteration")),
        RunStatus::Failed(message) => format!("The run stopped: {message}"),
        RunStatus::Finished => match state.verdict_label().filter(|_| state.run.outcome.is_some()) {
            Some(verdict) => format!("Verdict: {verdict} after {}.", plural(state.run.iterations.len(), "iteration")),
            None => "Finished.".into(),
        },
    }
}

/// Applies the display preferences to the root element (font size, presenter mode, embed).
fn apply_prefs(prefs: &Prefs, embed: bool) {
    let Some(root) = document().and_then(|d| d.document_element()) else { return };
    let scale = prefs.effective_scale();
    let _ = root.set_attribute("style", &format!("font-size: {}px", 14 * scale / 100));
    let class = [prefs.presenter.then_some("presenter"), embed.then_some("embedded")].into_iter().flatten().collect::<Vec<_>>().join(" ");
    let _ = root.set_attribute("class", &class);
}

#[function_component(App)]
pub fn app() -> Html {
    let auto_run = use_mut_ref(|| false);
    let state = use_reducer(|| {
        let (state, run) = initial_state();
        *auto_run.borrow_mut() = run;
        state
    });
    let bridge: SharedBridge = use_mut_ref(|| None::<EngineBridge>);
    let dispatch = {
        let state = state.clone();
        Callback::from(move |a: Action| state.dispatch(a))
    };

    // Check mode records no explanations: the lattice, WP and solver-log tabs ask the worker for
    // the selected iteration's when they open on it (issue 31 item 9).
    {
        let (state, bridge, dispatch) = (state.clone(), bridge.clone(), dispatch.clone());
        use_effect_with(state.wanted_explanation(), move |wanted| {
            if let (Some((iteration, predicates)), Some(b)) = (wanted.clone(), bridge.borrow().as_ref()) {
                // the program the run was made from, not the editor's (it may have changed since)
                let request = state.run_request().cloned().unwrap_or_else(|| crate::state::run_request_of(&state.session));
                b.send(&ToWorker::Explain {
                    request: RunRequest { kind: RunKind::Check, ..request },
                    iteration,
                    predicates,
                });
                dispatch.emit(Action::ExplanationRequested(iteration));
            }
        });
    }

    // The invariants view's question is answered by the worker (the engine is not in this bundle).
    {
        let (state, bridge) = (state.clone(), bridge.clone());
        use_effect_with(state.run.query.clone(), move |asked| {
            if let (Some(q), Some(b)) = (asked.as_ref(), bridge.borrow().as_ref()) {
                // about the program of the shown run (its invariants), not the editor's
                b.send(&ToWorker::Query {
                    request: state.question_request(),
                    predicates: q.predicates.clone(),
                    question: q.question.clone(),
                });
            }
        });
    }

    // Predict's "which of these hold at L?" is decided by the worker (crate::exercise).
    {
        let (state, bridge) = (state.clone(), bridge.clone());
        use_effect_with(state.exercises.holds_ask.clone(), move |asked| {
            if let (Some(a), Some(b)) = (asked.as_ref(), bridge.borrow().as_ref()) {
                // about the program of the shown run (its invariants), as the view's own question
                b.send(&ToWorker::ExerciseQueries {
                    request: state.question_request(),
                    predicates: a.predicates.clone(),
                    questions: a.choices.iter().map(|c| format!("{}: {}", a.label, c.answer)).collect(),
                });
            }
        });
    }

    // The witness download is built by the worker (the witness crate is not in this bundle)
    // from the shown run's program and outcome; its answer is downloaded below.
    {
        let (state, bridge) = (state.clone(), bridge.clone());
        use_effect_with(state.run.witness_asked, move |&asked| {
            let run = state.run_request().filter(|r| r.kind == RunKind::Check);
            if let (true, Some(request), Some(outcome), Some(b)) = (asked > 0, run, state.run.outcome.as_ref(), bridge.borrow().as_ref()) {
                b.send(&ToWorker::Witness { request: request.clone(), evidence: playground_api::witness::Evidence::of(outcome) });
            }
        });
    }
    {
        let witness = state.run.witness.clone();
        use_effect_with(witness, move |built| {
            if let Some(Ok(w)) = built {
                download("witness.yml", &w.yaml);
            }
        });
    }

    // Start the worker once; re-run a shared session straight away.
    let run = {
        let (state, bridge) = (state.clone(), bridge.clone());
        let dispatch = dispatch.clone();
        Callback::from(move |()| {
            if state.is_running() {
                return;
            }
            if state.is_paused() {
                // "Run to the end" of a stepped run
                if let Some(b) = bridge.borrow().as_ref() {
                    b.send(&ToWorker::Finish);
                }
                dispatch.emit(Action::Continued);
                return;
            }
            if !bridge.borrow().as_ref().is_some_and(EngineBridge::is_alive) {
                spawn_engine(&bridge, dispatch.clone());
            }
            // a student's lab puts its locked settings back first
            let locked = super::lab::locked_session(&state);
            if let Some(session) = locked.as_ref().filter(|l| **l != state.session) {
                dispatch.emit(Action::LoadSession(session.clone()));
            }
            let s = locked.as_ref().unwrap_or(&state.session);
            let request = match s.mode {
                RunKind::Hide => ToWorker::Hide(s.hide.request(&s.source)),
                RunKind::Shape => ToWorker::Shape(s.shape.request(&s.source)),
                _ => ToWorker::Run(crate::state::run_request_of(s)),
            };
            dispatch.emit(Action::RunStarted);
            if let Some(b) = bridge.borrow().as_ref() {
                b.send(&request);
            }
        })
    };
    {
        let (bridge, dispatch) = (bridge.clone(), dispatch.clone());
        use_effect_with((), move |_| {
            spawn_engine(&bridge, dispatch);
            move || {
                bridge.borrow_mut().take();
            }
        });
    }

    // A worker that died is replaced at once (the first spawn is the effect above).
    {
        let (bridge, dispatch) = (bridge.clone(), dispatch.clone());
        use_effect_with(state.worker_deaths, move |deaths| {
            if *deaths > 0 {
                spawn_engine(&bridge, dispatch);
            }
        });
    }
    // Test hook for the respawn path: a page script dispatches `predabs-debug-trap` on the
    // window and the worker traps (no control of the UI sends it).
    {
        let bridge = bridge.clone();
        use_effect_with((), move |_| {
            let listener = EventListener::new(&gloo::utils::window(), "predabs-debug-trap", move |_| {
                if let Some(b) = bridge.borrow().as_ref() {
                    b.send(&ToWorker::DebugTrap);
                }
            });
            move || drop(listener)
        });
    }

    let cancel = {
        let (state, bridge, dispatch) = (state.clone(), bridge.clone(), dispatch.clone());
        Callback::from(move |()| {
            if !state.is_running() && !state.is_paused() {
                return;
            }
            // Terminating the worker is the only way to stop synchronous wasm work.
            dispatch.emit(Action::Cancelled);
            dispatch.emit(Action::WorkerRespawned);
            spawn_engine(&bridge, dispatch.clone());
        })
    };
    // Step: one more iteration of a paused stepped run; otherwise the next recorded iteration;
    // with no iterations, a new stepped run (Check mode; the other modes have one iteration).
    let step = {
        let (state, run, bridge, dispatch) = (state.clone(), run.clone(), bridge.clone(), dispatch.clone());
        Callback::from(move |()| {
            let send = |request: &ToWorker| {
                if let Some(b) = bridge.borrow().as_ref() {
                    b.send(request);
                }
            };
            if state.is_running() {
                return;
            }
            if state.is_paused() {
                send(&ToWorker::StepNext);
                dispatch.emit(Action::Continued);
            } else if !state.run.iterations.is_empty() {
                state.dispatch(Action::StepForward);
            } else if state.session.mode != RunKind::Check {
                run.emit(());
            } else {
                if !bridge.borrow().as_ref().is_some_and(EngineBridge::is_alive) {
                    spawn_engine(&bridge, dispatch.clone());
                }
                let locked = super::lab::locked_session(&state);
                if let Some(session) = locked.as_ref().filter(|l| **l != state.session) {
                    dispatch.emit(Action::LoadSession(session.clone()));
                }
                let s = locked.as_ref().unwrap_or(&state.session);
                dispatch.emit(Action::StepStarted);
                send(&ToWorker::Step(RunRequest { kind: s.mode, source: s.source.clone(), predicates: s.predicates.clone(), options: s.options.clone() }));
            }
        })
    };
    let reset = {
        let (state, cancel) = (state.clone(), cancel.clone());
        Callback::from(move |()| {
            cancel.emit(());
            state.dispatch(Action::Reset);
        })
    };
    let share_cb = {
        let state = state.clone();
        Callback::from(move |()| {
            let fragment = share::encode(&state.session);
            let href = web_sys::window().and_then(|w| w.location().href().ok()).unwrap_or_default();
            let base = href.split(['?', '#']).next().unwrap_or_default().to_string();
            let query = if state.embed { String::new() } else { crate::deeplink::of(&state).to_query() };
            // the place shown now goes with the link (crate::deeplink)
            let href = format!("{base}{query}#{fragment}");
            if !state.embed {
                // the address bar shows the link itself: copying it from there works too
                set_address(&query, &fragment);
                // a reload of this address now restores the stored session (later edits included)
                storage::save_link(&fragment);
            }
            state.dispatch(Action::Shared(href.clone(), CopyStatus::Pending));
            let done = {
                let state = state.clone();
                Callback::from(move |status| state.dispatch(Action::CopyResult(status)))
            };
            copy_to_clipboard(&href, done);
        })
    };
    let download_cb = {
        let state = state.clone();
        Callback::from(move |()| {
            // one file per click: the text of the editor
            let s = &state.session;
            if s.mode == RunKind::ModelCheck {
                download("program.bp", &s.boolean_program);
            } else {
                download("program.c", &s.source);
            }
        })
    };
    let commands = Commands { run, step, cancel, reset, share: share_cb, download: download_cb };

    // A run asked for before this render (a share link at load, or pasted into the address bar
    // of this page) starts with the state of this render.
    {
        let (auto_run, run) = (auto_run.clone(), commands.run.clone());
        use_effect(move || {
            if std::mem::take(&mut *auto_run.borrow_mut()) {
                run.emit(());
            }
        });
    }
    // A share link pasted into the address bar of an open page (no reload: `hashchange`) opens
    // like one loaded afresh: the current work is kept as the alternative.
    let latest_state = use_mut_ref(|| state.clone());
    *latest_state.borrow_mut() = state.clone();
    {
        let (latest_state, auto_run) = (latest_state.clone(), auto_run.clone());
        use_effect_with((), move |_| {
            let listener = EventListener::new(&gloo::utils::window(), "hashchange", move |_| {
                let state = latest_state.borrow().clone();
                if state.embed {
                    return;
                }
                let hash = web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default();
                if playground_api::lab::Lab::is_link(&hash) {
                    state.dispatch(Action::OpenLab(std::rc::Rc::new(match playground_api::lab::Lab::from_link(&hash) {
                        Ok(lab) => lab,
                        Err(e) => return state.dispatch(Action::Notice(format!("This lab link cannot be opened: {e}"), true)),
                    })));
                    return;
                }
                let shared = share::decode(&hash);
                if matches!(&shared, Ok(Some(s)) if *s == state.session) || matches!(shared, Ok(None)) {
                    return;
                }
                let (session, notice, run) = open_link(&hash, shared, Some(state.session.clone()));
                *auto_run.borrow_mut() = run;
                state.dispatch(Action::Open(session, notice));
            });
            move || drop(listener)
        });
    }

    // Persist the user's work (never from an embedded view).
    {
        let (session, embed) = (state.session.clone(), state.embed);
        use_effect_with(session, move |session| {
            if !embed {
                storage::save(session);
            }
        });
    }
    {
        let (prefs, embed) = (state.prefs.clone(), state.embed);
        use_effect_with(prefs, move |prefs| {
            apply_prefs(prefs, embed);
            if !embed {
                storage::save_prefs(prefs);
            }
        });
    }

    // Focus: an opened popup takes it, a closed one gives it back to its opener.
    {
        let previous = use_mut_ref(|| None::<Popup>);
        use_effect_with(state.popup, move |popup| {
            let old = previous.replace(*popup);
            match popup {
                Some(Popup::Examples) => {
                    let _ = focus("#examples-menu [aria-current=\"true\"]") || focus("#examples-menu [role=menuitem]");
                }
                Some(Popup::Settings) => {
                    focus("#opt-width");
                }
                Some(Popup::Share) => {
                    if let Some(input) = document().and_then(|d| d.query_selector("#share-link").ok().flatten()) {
                        let input: web_sys::HtmlInputElement = input.unchecked_into();
                        let _ = input.focus();
                        input.select();
                    }
                }
                Some(Popup::Shortcuts) => {
                    focus("#shortcuts-close");
                }
                None => {
                    if let Some(old) = old.filter(|_| focus_lost()) {
                        focus(old.opener());
                    }
                }
            }
        });
    }

    // Keyboard shortcuts (documented in the `?` overlay): Ctrl/⌘+Enter run; Alt+. and Alt+,
    // (or ] and [ outside text fields) next/previous iteration; ? shortcuts; Escape closes.
    let latest = use_mut_ref(|| commands.clone());
    *latest.borrow_mut() = commands.clone();
    {
        let (latest, state) = (latest.clone(), state.clone());
        use_effect_with((), move |_| {
            // not passive: the shortcuts prevent the browser's default action
            let options = EventListenerOptions::enable_prevent_default();
            let listener = EventListener::new_with_options(&gloo::utils::document(), "keydown", options, move |e| {
                let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else { return };
                let cmds = latest.borrow().clone();
                let plain = !e.ctrl_key() && !e.meta_key() && !e.alt_key() && !in_text_field(e);
                let key = e.key();
                let code = e.code();
                let action: Option<Box<dyn FnOnce()>> = match () {
                    _ if key == "Enter" && (e.ctrl_key() || e.meta_key()) => Some(Box::new(move || cmds.run.emit(()))),
                    _ if e.alt_key() && !e.ctrl_key() && !e.meta_key() && code == "Period" => Some(Box::new(move || cmds.step.emit(()))),
                    _ if e.alt_key() && !e.ctrl_key() && !e.meta_key() && code == "Comma" => {
                        let state = state.clone();
                        Some(Box::new(move || state.dispatch(Action::StepBack)))
                    }
                    _ if plain && key == "]" => Some(Box::new(move || cmds.step.emit(()))),
                    _ if plain && key == "[" => {
                        let state = state.clone();
                        Some(Box::new(move || state.dispatch(Action::StepBack)))
                    }
                    _ if plain && key == "?" => {
                        let state = state.clone();
                        Some(Box::new(move || state.dispatch(Action::TogglePopup(Popup::Shortcuts))))
                    }
                    _ if key == "Escape" => {
                        let state = state.clone();
                        Some(Box::new(move || state.dispatch(Action::ClosePopup)))
                    }
                    _ => None,
                };
                if let Some(action) = action {
                    if key != "Escape" {
                        e.prevent_default();
                    }
                    action();
                }
            });
            move || drop(listener)
        });
    }

    let dismiss = {
        let state = state.clone();
        Callback::from(move |_| state.dispatch(Action::DismissNotice))
    };
    let notice_action = {
        let state = state.clone();
        Callback::from(move |_| {
            // the version being replaced stays in storage too
            if !state.embed {
                storage::save_backup(&state.session);
            }
            state.dispatch(Action::NoticeAction)
        })
    };
    let close_popup = {
        let state = state.clone();
        Callback::from(move |_| state.dispatch(Action::ClosePopup))
    };

    let explain_height = state.prefs.explain_height;
    html! {
        <ContextProvider<UseReducerHandle<AppState>> context={state.clone()}>
        <ContextProvider<Commands> context={commands}>
            <div class={classes!("app", state.embed.then_some("embed"), (state.lab_panel && !state.embed).then_some("lab-open"))} style={explain_height.map(|h| format!("--explain-height: {h}px"))}>
                <TopBar />
                if let Some(notice) = state.notice.clone() {
                    <div class={classes!("notice", notice.error.then_some("notice-error"))} role="status" id="notice">
                        <span class="notice-text">{ notice.text }</span>
                        if let Some(action) = notice.action {
                            <button class="btn btn-small" id="notice-action" onclick={notice_action}>{ action.label }</button>
                        }
                        <button class="notice-close" onclick={dismiss} aria-label="Dismiss">{ "×" }</button>
                    </div>
                }
                <main class="panes" onclick={if state.popup.is_some() { Some(close_popup) } else { None }}>
                    <section class="pane pane-c" aria-label={if state.session.mode == RunKind::ModelCheck { "Boolean program text" } else { "C program" }}>
                        <Editor />
                    </section>
                    if state.session.mode == RunKind::Hide {
                        <super::hide::HidePanes />
                    } else if state.session.mode == RunKind::Shape {
                        <super::shape::ShapePanes />
                    } else {
                    <section class="pane pane-bp" aria-label="Boolean program">
                        <BoolProgPane />
                    </section>
                    <div class="pane-column">
                        <section class="pane pane-preds" aria-label="Predicates">
                            <PredicatesPane />
                        </section>
                        <section class="pane pane-timeline" aria-label="Iterations">
                            <TimelinePane />
                        </section>
                    </div>
                    }
                </main>
                <ExplainPanel />
                // before the footer: in the page's flow (narrow windows) the panel follows the
                // explain panel and the status line stays last
                if state.lab_panel && !state.embed {
                    <super::lab::LabPanel />
                }
                if !state.embed {
                    <Footer />
                }
                <div class="visually-hidden" aria-live="polite" aria-atomic="true" id="announcer">{ announcement(&state) }</div>
                if state.popup == Some(Popup::Settings) {
                    <super::settings::SettingsPanel />
                }
                if state.popup == Some(Popup::Share) {
                    <super::dialogs::ShareDialog />
                }
                if state.popup == Some(Popup::Shortcuts) {
                    <super::dialogs::ShortcutsDialog />
                }
            </div>
        </ContextProvider<Commands>>
        </ContextProvider<UseReducerHandle<AppState>>>
    }
}
