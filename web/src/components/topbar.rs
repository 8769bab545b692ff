//! The top bar: product name, mode, examples, Run/Step/Cancel/Reset, Share, Settings.

use super::{use_app, use_commands};
use crate::examples;
use crate::model::RunKind;
use crate::state::{Action, Popup, RunStatus};
use yew::prelude::*;

#[function_component(TopBar)]
pub fn top_bar() -> Html {
    let state = use_app();
    let cmds = use_commands();
    let running = state.is_running();

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
    let click = |cb: Callback<()>| Callback::from(move |_: MouseEvent| cb.emit(()));
    let status = match &state.run.status {
        RunStatus::Running(p) => format!(
            "iteration {} · {} · {} solver calls",
            p.iteration,
            if p.phase.is_empty() { "starting" } else { &p.phase },
            p.solver_calls
        ),
        RunStatus::Cancelled => "cancelled".into(),
        RunStatus::Failed(_) => "stopped".into(),
        RunStatus::Finished => state.verdict_label().unwrap_or("done").to_string(),
        RunStatus::Idle => String::new(),
    };

    html! {
        <header class="topbar">
            <div class="brand">
                <span class="logo" aria-hidden="true">{ "⊨" }</span>
                <h1>{ "predabs" }</h1>
                <span class="tagline">{ "predicate abstraction playground" }</span>
            </div>
            <nav class="toolbar">
                <label class="mode">
                    <span class="visually-hidden">{ "Mode" }</span>
                    <select id="mode" onchange={on_mode} title="What Run does">
                        { for RunKind::ALL.iter().map(|k| html! {
                            <option value={k.key()} selected={state.session.mode == *k}>{ k.label() }</option>
                        }) }
                    </select>
                </label>
                <div class="menu">
                    <button id="examples-button" class="btn" onclick={toggle(Popup::Examples)}
                        aria-expanded={(state.popup == Some(Popup::Examples)).to_string()}>{ "Examples ▾" }</button>
                    if state.popup == Some(Popup::Examples) {
                        <ul class="dropdown" id="examples-menu" role="menu">
                            { for examples::ALL.iter().map(|ex| {
                                let state = state.clone();
                                let onclick = Callback::from(move |e: MouseEvent| {
                                    e.stop_propagation();
                                    state.dispatch(Action::LoadExample(ex));
                                });
                                html! {
                                    <li role="menuitem" class="example" data-example={ex.id} {onclick}>
                                        <div class="example-title">{ ex.title }</div>
                                        <div class="example-note">{ ex.description }</div>
                                    </li>
                                }
                            }) }
                        </ul>
                    }
                </div>
                <span class="sep" />
                <button id="run" class="btn btn-primary" onclick={click(cmds.run.clone())} disabled={running}
                    title="Run (Ctrl+Enter)">{ "▶ Run" }</button>
                <button id="step" class="btn" onclick={click(cmds.step.clone())} disabled={running}
                    title="Next iteration (F10)">{ "Step" }</button>
                if running {
                    <button id="cancel" class="btn btn-danger" onclick={click(cmds.cancel.clone())}
                        title="Stop the engine">{ "■ Cancel" }</button>
                }
                <button id="reset" class="btn" onclick={click(cmds.reset.clone())} title="Clear results">{ "Reset" }</button>
                <span class="run-status" id="run-status">{ status }</span>
                <span class="spacer" />
                <button id="share" class="btn" onclick={click(cmds.share.clone())} title="Copy a link to this session">{ "Share" }</button>
                <button id="download" class="btn" onclick={click(cmds.download.clone())} title="Download the sources">{ "⤓" }</button>
                <button id="settings-button" class="btn" onclick={toggle(Popup::Settings)}
                    aria-expanded={(state.popup == Some(Popup::Settings)).to_string()}>{ "⚙ Settings" }</button>
            </nav>
        </header>
    }
}
