//! The footer: the engine's version (computed by the wasm worker) and the worker's state.

use super::use_app;
use crate::state::WorkerStatus;
use yew::prelude::*;

#[function_component(Footer)]
pub fn footer() -> Html {
    let state = use_app();
    let worker = match &state.worker {
        WorkerStatus::Starting => html! { <span class="worker worker-starting">{ "engine starting…" }</span> },
        WorkerStatus::Ready => html! { <span class="worker worker-ready">{ "engine ready (web worker)" }</span> },
        WorkerStatus::Failed(m) => html! { <span class="worker worker-failed" title={m.clone()}>{ "engine unavailable" }</span> },
    };
    html! {
        <footer class="footer">
            <span id="engine-version">{ state.engine_version.clone().unwrap_or_default() }</span>
            <span class="spacer" />
            { worker }
            <span class="footer-sep">{ "·" }</span>
            <span class="shortcuts">{ "Ctrl+Enter run · F10 step · Shift+F10 back" }</span>
        </footer>
    }
}
