//! The top bar: product name, mode, examples, Run/Step/Cancel/Reset, Share, download,
//! shortcuts and Settings. It wraps onto several rows on narrow windows (nothing is clipped).
//!
//! The examples menu follows the WAI-ARIA menu button pattern: the button opens it (click,
//! Enter, Space, ArrowDown), the focus moves to the open example (or the first), ArrowUp/Down,
//! Home/End move, Enter/Space open an example, Escape or Tab closes and the focus returns to
//! the button. The menu is at most as tall as the room below it and scrolls.

use super::{move_focus, use_app, use_commands};
use crate::examples;
use crate::model::RunKind;
use crate::state::{Action, Popup, RunStatus};
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Fits the open menu into the window: height down to the bottom edge, shifted left when it
/// would stick out on the right.
fn fit_menu() {
    let Some(window) = web_sys::window() else { return };
    let Some(menu) = window.document().and_then(|d| d.get_element_by_id("examples-menu")) else { return };
    let height = window.inner_height().ok().and_then(|h| h.as_f64()).unwrap_or(800.0);
    let width = window.inner_width().ok().and_then(|w| w.as_f64()).unwrap_or(1280.0);
    let rect = menu.get_bounding_client_rect();
    let room = (height - rect.top() - 8.0).max(160.0);
    let shift = (width - 8.0 - rect.right()).min(0.0);
    let _ = menu.set_attribute("style", &format!("max-height: {room:.0}px; transform: translateX({shift:.0}px)"));
}

#[function_component(TopBar)]
pub fn top_bar() -> Html {
    let state = use_app();
    let cmds = use_commands();
    let running = state.is_running();
    let menu_open = state.popup == Some(Popup::Examples);
    use_effect_with(menu_open, |open| {
        if *open {
            fit_menu();
        }
    });

    let on_mode = {
        let state = state.clone();
        Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            if let Some(kind) = RunKind::from_key(&select.value()) {
                state.dispatch(Action::SetMode(kind));
            }
        })
    };
    let toggle = |p: Popup| {
        let state = state.clone();
        Callback::from(move |e: MouseEvent| {
            e.stop_propagation();
            state.dispatch(Action::TogglePopup(p));
        })
    };
    let on_button_key = {
        let state = state.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "ArrowDown" && state.popup != Some(Popup::Examples) {
                e.prevent_default();
                state.dispatch(Action::TogglePopup(Popup::Examples));
            }
        })
    };
    let on_menu_key = {
        let state = state.clone();
        Callback::from(move |e: KeyboardEvent| {
            let Some(menu) = e.current_target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
            if move_focus(&menu, "[role=menuitem]", &e.key(), false).is_some() {
                e.prevent_default();
            } else if e.key() == "Tab" {
                state.dispatch(Action::ClosePopup);
            }
        })
    };
    let click = |cb: Callback<()>| Callback::from(move |_: MouseEvent| cb.emit(()));
    let status = match &state.run.status {
        RunStatus::Running(p) => format!(
            "iteration {} · {} · {} solver calls",
            p.iteration,
            if p.phase.is_empty() { "starting" } else { &p.phase },
            p.solver_calls
        ),
        RunStatus::Paused => format!("paused after iteration {}", state.run.iterations.len()),
        RunStatus::Cancelled => "cancelled".into(),
        RunStatus::Failed(_) => "stopped".into(),
        RunStatus::Finished => state.verdict_label().unwrap_or("done").to_string(),
        RunStatus::Idle => String::new(),
    };
    let current = state.session.example.clone();
    // a student's lab may lock the mode
    let mode_lock = super::lab::lock_of(&state, playground_api::lab::Lockable::Mode).map(super::lab::lock_explanation);
    let paused = state.is_paused();
    // a paused stepped run: Run continues it to the end, Step computes one more iteration
    let run_label = if paused { "▶ Run to the end" } else { "▶ Run" };
    let step_title = if paused { "Compute the next CEGAR iteration (Alt+. or ])" } else { "One CEGAR iteration at a time, or the next iteration (Alt+. or ])" };

    let menu = menu_open.then(|| {
        html! {
            <ul class="dropdown" id="examples-menu" role="menu" aria-label="Examples" onkeydown={on_menu_key}>
                { for examples::ALL.iter().map(|ex| {
                    let state = state.clone();
                    let onclick = Callback::from(move |e: MouseEvent| {
                        e.stop_propagation();
                        state.dispatch(Action::LoadExample(ex));
                    });
                    let is_current = current.as_deref() == Some(ex.id);
                    html! {
                        <li role="none">
                            <button role="menuitem" class="example" data-example={ex.id} tabindex="-1" {onclick}
                                aria-current={is_current.then_some("true")}>
                                <span class="example-title">{ ex.title }</span>
                                <span class="example-note">{ ex.description }</span>
                            </button>
                        </li>
                    }
                }) }
            </ul>
        }
    });

    if state.embed {
        // the full playground opens a copy of this session as a share link
        let open_full = {
            let href = web_sys::window().and_then(|w| w.location().href().ok()).unwrap_or_default();
            let base = href.split(['?', '#']).next().unwrap_or_default().to_string();
            format!("{base}#{}", crate::share::encode(&state.session))
        };
        return html! {
            <header class="topbar topbar-embed">
                <div class="brand">
                    <span class="logo" aria-hidden="true">{ "⊨" }</span>
                    <h1>{ "predabs" }</h1>
                    <span class="chip">{ state.session.mode.label() }</span>
                </div>
                <nav class="toolbar" aria-label="Commands">
                    <button id="run" class="btn btn-primary" onclick={click(cmds.run.clone())} disabled={running}>{ run_label }</button>
                    <button id="step" class="btn" onclick={click(cmds.step.clone())} disabled={running} title={step_title}>{ "Step" }</button>
                    if running || paused {
                        <button id="cancel" class="btn btn-danger" onclick={click(cmds.cancel.clone())}>{ "■ Cancel" }</button>
                    }
                    <span class="run-status" id="run-status">{ status }</span>
                    <span class="spacer" />
                    <a id="open-full" class="btn" href={open_full} target="_blank" rel="noopener">{ "Open in the playground ↗" }</a>
                </nav>
            </header>
        };
    }

    html! {
        <header class="topbar">
            <div class="brand">
                <span class="logo" aria-hidden="true">{ "⊨" }</span>
                <h1>{ "predabs" }</h1>
                <span class="tagline">{ "predicate abstraction playground" }</span>
            </div>
            <nav class="toolbar" aria-label="Commands">
                <label class="mode">
                    <span class="visually-hidden">{ "Mode" }</span>
                    if let Some(note) = &mode_lock {
                        <span class="visually-hidden" id="mode-locked">{ note.clone() }</span>
                    }
                    <select id="mode" onchange={on_mode} disabled={mode_lock.is_some()} aria-describedby={mode_lock.is_some().then_some("mode-locked")}
                        title={mode_lock.clone().unwrap_or_else(|| "What Run does".to_string())}>
                        { for RunKind::ALL.iter().map(|k| html! {
                            <option value={k.key()} selected={state.session.mode == *k}>{ k.label() }</option>
                        }) }
                    </select>
                </label>
                <div class="menu">
                    <button id="examples-button" class="btn" onclick={toggle(Popup::Examples)} onkeydown={on_button_key}
                        aria-haspopup="menu" aria-controls="examples-menu"
                        aria-expanded={menu_open.to_string()}>{ "Examples ▾" }</button>
                    { for menu }
                </div>
                <span class="sep" />
                <button id="run" class="btn btn-primary" onclick={click(cmds.run.clone())} disabled={running}
                    title="Run (Ctrl+Enter, ⌘+Enter)">{ run_label }</button>
                <button id="step" class="btn" onclick={click(cmds.step.clone())} disabled={running}
                    title={step_title}>{ "Step" }</button>
                if running || paused {
                    <button id="cancel" class="btn btn-danger" onclick={click(cmds.cancel.clone())}
                        title="Stop the engine">{ "■ Cancel" }</button>
                }
                <button id="reset" class="btn" onclick={click(cmds.reset.clone())} title="Clear results">{ "Reset" }</button>
                <span class="run-status" id="run-status">{ status }</span>
                <span class="spacer" />
                <button id="lab-button" class="btn" onclick={{
                        let state = state.clone();
                        Callback::from(move |_: MouseEvent| state.dispatch(Action::ToggleLabPanel))
                    }} aria-expanded={state.lab_panel.to_string()} aria-controls="lab-panel"
                    title="Labs: the gallery labs, or author exercises with hidden answers">{ "Lab" }</button>
                <button id="share" class="btn" onclick={click(cmds.share.clone())} title="Copy a link to this session">{ "Share" }</button>
                <button id="download" class="btn" onclick={click(cmds.download.clone())}
                    title={if state.session.mode == RunKind::ModelCheck { "Download program.bp" } else { "Download program.c" }}
                    aria-label={if state.session.mode == RunKind::ModelCheck { "Download program.bp" } else { "Download program.c" }}>{ "⤓" }</button>
                { witness_button(&state) }
                <button id="shortcuts-button" class="btn" onclick={toggle(Popup::Shortcuts)} title="Keyboard shortcuts (?)"
                    aria-label="Keyboard shortcuts">{ "?" }</button>
                <button id="settings-button" class="btn" onclick={toggle(Popup::Settings)} aria-haspopup="dialog"
                    aria-expanded={(state.popup == Some(Popup::Settings)).to_string()}>{ "⚙ Settings" }</button>
            </nav>
        </header>
    }
}

/// Check mode's "Witness (.yml)" beside the download: the SV-COMP witness (format 2.0) of the
/// shown SAFE or UNSAFE run, built by the worker; disabled, with the reason, for UNKNOWN.
fn witness_button(state: &UseReducerHandle<crate::state::AppState>) -> Html {
    // (not while the reveal hides the verdict: the witness's kind would tell it)
    let Some(outcome) = state.run.outcome.as_ref().filter(|_| state.run.kind == Some(RunKind::Check) && !state.is_running() && !state.reveal.hides_verdict()) else {
        return html! {};
    };
    let unknown = outcome.verdict == playground_api::Verdict::Unknown;
    let (title, problem) = match &state.run.witness {
        _ if unknown => ("No witness for an UNKNOWN verdict: SV-COMP witnesses prove SAFE (invariants) or UNSAFE (a violation path)".to_string(), None),
        Some(Err(e)) => (format!("No witness: {e}"), Some(e.clone())),
        Some(Ok(w)) => (format!("Downloaded witness.yml: {}", w.summary), None),
        None => ("Download the SV-COMP witness (format 2.0, YAML) of this run: an invariant set for SAFE, a violation sequence for UNSAFE".to_string(), None),
    };
    let onclick = {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| state.dispatch(Action::AskWitness))
    };
    html! {
        <>
            <button id="download-witness" class="btn" {onclick} disabled={unknown} title={title.clone()} aria-label={title}>
                <span aria-hidden="true">{ "⤓" }</span>{ " Witness (.yml)" }</button>
            if let Some(e) = problem {
                <span class="visually-hidden" role="status" id="witness-problem">{ format!("No witness: {e}") }</span>
            }
        </>
    }
}
