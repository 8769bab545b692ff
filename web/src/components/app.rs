//! The root component: owns the state reducer and the engine worker, wires commands
//! (run, step, cancel, reset, share, download), keyboard shortcuts and persistence.

use super::{boolprog::BoolProgPane, editor::Editor, footer::Footer, predicates::PredicatesPane};
use super::{explain::ExplainPanel, timeline::TimelinePane, topbar::TopBar, Commands};
use crate::bridge::EngineBridge;
use crate::model::{RunKind, RunRequest, ToWorker};
use crate::share;
use crate::state::{Action, AppState, Popup};
use crate::storage;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// The initial session: a share link wins over local storage, which wins over the default.
fn initial_state() -> (AppState, bool) {
    let hash = web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default();
    match share::decode(&hash) {
        Ok(Some(session)) => (AppState::new(session, Some(("Opened a shared session.".into(), false))), true),
        Ok(None) => (AppState::new(storage::load().unwrap_or_default(), None), false),
        Err(message) => (AppState::new(storage::load().unwrap_or_default(), Some((message, true))), false),
    }
}

type SharedBridge = Rc<RefCell<Option<EngineBridge>>>;

/// Spawns a fresh worker into `slot` (terminating any previous one) and asks for its version.
fn spawn_engine(slot: &SharedBridge, dispatch: Callback<Action>) {
    slot.borrow_mut().take(); // terminate the old worker first
    let events = dispatch.clone();
    match EngineBridge::spawn(move |event| events.emit(Action::Worker(event))) {
        Ok(bridge) => {
            bridge.send(&ToWorker::Version);
            *slot.borrow_mut() = Some(bridge);
        }
        Err(message) => dispatch.emit(Action::Worker(crate::model::FromWorker::Error(message))),
    }
}

fn set_fragment(fragment: &str) {
    if let Some(window) = web_sys::window() {
        let url = format!("{}{}#{}", window.location().pathname().unwrap_or_default(), window.location().search().unwrap_or_default(), fragment);
        if let Ok(history) = window.history() {
            let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url));
        }
    }
}

fn download(name: &str, text: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("text/plain");
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else { return };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else { return };
    if let Ok(a) = document.create_element("a") {
        let a: web_sys::HtmlAnchorElement = a.unchecked_into();
        a.set_href(&url);
        a.set_download(name);
        a.click();
    }
    let _ = web_sys::Url::revoke_object_url(&url);
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

    // Start the worker once; re-run a shared session straight away.
    let run = {
        let (state, bridge) = (state.clone(), bridge.clone());
        let dispatch = dispatch.clone();
        Callback::from(move |()| {
            if state.is_running() {
                return;
            }
            if !bridge.borrow().as_ref().is_some_and(EngineBridge::is_alive) {
                spawn_engine(&bridge, dispatch.clone());
            }
            let s = &state.session;
            let request = ToWorker::Run(RunRequest {
                kind: s.mode,
                source: if s.mode == RunKind::ModelCheck { s.boolean_program.clone() } else { s.source.clone() },
                predicates: s.predicates.clone(),
                options: s.options.clone(),
            });
            dispatch.emit(Action::RunStarted);
            if let Some(b) = bridge.borrow().as_ref() {
                b.send(&request);
            }
        })
    };
    {
        let (bridge, dispatch, run, auto_run) = (bridge.clone(), dispatch.clone(), run.clone(), auto_run.clone());
        use_effect_with((), move |_| {
            spawn_engine(&bridge, dispatch);
            if *auto_run.borrow() {
                run.emit(());
            }
            move || {
                bridge.borrow_mut().take();
            }
        });
    }

    let cancel = {
        let (state, bridge, dispatch) = (state.clone(), bridge.clone(), dispatch.clone());
        Callback::from(move |()| {
            if !state.is_running() {
                return;
            }
            // Terminating the worker is the only way to stop synchronous wasm work.
            dispatch.emit(Action::Cancelled);
            dispatch.emit(Action::WorkerRespawned);
            spawn_engine(&bridge, dispatch.clone());
        })
    };
    let step = {
        let (state, run) = (state.clone(), run.clone());
        Callback::from(move |()| {
            if state.run.iterations.is_empty() && !state.is_running() {
                run.emit(());
            } else {
                state.dispatch(Action::StepForward);
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
            set_fragment(&fragment);
            let href = web_sys::window().and_then(|w| w.location().href().ok()).unwrap_or_default();
            if let Some(w) = web_sys::window() {
                let _ = w.navigator().clipboard().write_text(&href);
            }
            state.dispatch(Action::Notice(format!("Link copied to the clipboard ({} characters).", href.len()), false));
        })
    };
    let download_cb = {
        let state = state.clone();
        Callback::from(move |()| {
            let s = &state.session;
            if s.mode == RunKind::ModelCheck {
                download("program.bp", &s.boolean_program);
            } else if let Some(it) = state.selected_iteration() {
                download("program.c", &s.source);
                download(&format!("iteration-{}.bp", it.index), &it.boolean_program.text);
            } else {
                download("program.c", &s.source);
            }
        })
    };
    let commands = Commands { run, step, cancel, reset, share: share_cb, download: download_cb };

    // Persist the user's work.
    {
        let session = state.session.clone();
        use_effect_with(session, storage::save);
    }

    // Keyboard shortcuts: Ctrl/Cmd+Enter = Run, F10 = Step, Shift+F10 = step back, Escape.
    let latest = use_mut_ref(|| commands.clone());
    *latest.borrow_mut() = commands.clone();
    {
        let (latest, state) = (latest.clone(), state.clone());
        use_effect_with((), move |_| {
            let listener = Closure::<dyn FnMut(web_sys::KeyboardEvent)>::new(move |e: web_sys::KeyboardEvent| {
                let cmds = latest.borrow().clone();
                match e.key().as_str() {
                    "Enter" if e.ctrl_key() || e.meta_key() => {
                        e.prevent_default();
                        cmds.run.emit(());
                    }
                    "F10" if e.shift_key() => {
                        e.prevent_default();
                        state.dispatch(Action::StepBack);
                    }
                    "F10" => {
                        e.prevent_default();
                        cmds.step.emit(());
                    }
                    "Escape" => state.dispatch(Action::ClosePopup),
                    _ => {}
                }
            });
            let document = web_sys::window().and_then(|w| w.document());
            if let Some(d) = &document {
                let _ = d.add_event_listener_with_callback("keydown", listener.as_ref().unchecked_ref());
            }
            move || {
                if let Some(d) = document {
                    let _ = d.remove_event_listener_with_callback("keydown", listener.as_ref().unchecked_ref());
                }
            }
        });
    }

    let dismiss = {
        let state = state.clone();
        Callback::from(move |_| state.dispatch(Action::DismissNotice))
    };
    let close_popup = {
        let state = state.clone();
        Callback::from(move |_| state.dispatch(Action::ClosePopup))
    };

    html! {
        <ContextProvider<UseReducerHandle<AppState>> context={state.clone()}>
        <ContextProvider<Commands> context={commands}>
            <div class="app">
                <TopBar />
                if let Some((text, error)) = state.notice.clone() {
                    <div class={classes!("notice", error.then_some("notice-error"))} role="status" id="notice">
                        <span class="notice-text">{ text }</span>
                        <button class="notice-close" onclick={dismiss} aria-label="Dismiss">{ "×" }</button>
                    </div>
                }
                <main class="panes" onclick={if state.popup.is_some() { Some(close_popup) } else { None }}>
                    <section class="pane pane-c" aria-label="C program">
                        <Editor />
                    </section>
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
                </main>
                <ExplainPanel />
                <Footer />
                if state.popup == Some(Popup::Settings) {
                    <super::settings::SettingsPanel />
                }
            </div>
        </ContextProvider<Commands>>
        </ContextProvider<UseReducerHandle<AppState>>>
    }
}
