//! The footer: the engine's version and the worker's state. The full version string (computed
//! by the wasm worker, naming its target and the IR it built) is the element's `data-version`
//! and tooltip; the text shows the version number only.

use super::use_app;
use crate::state::WorkerStatus;
use yew::prelude::*;

/// `"predabs engine 0.1.0 (wasm32; ...)"` → `"predabs engine 0.1.0"`.
pub fn short_version(full: &str) -> &str {
    full.split(" (").next().unwrap_or(full)
}

#[function_component(Footer)]
pub fn footer() -> Html {
    let state = use_app();
    let worker = match &state.worker {
        WorkerStatus::Starting => html! { <span class="worker worker-starting">{ "engine starting…" }</span> },
        WorkerStatus::Ready => html! { <span class="worker worker-ready">{ "engine ready" }</span> },
        WorkerStatus::Failed(m) => html! { <span class="worker worker-failed" title={m.clone()}>{ "engine unavailable" }</span> },
    };
    let full = state.engine_version.clone().unwrap_or_default();
    html! {
        <footer class="footer">
            <span id="engine-version" data-version={full.clone()} title={full.clone()}>{ short_version(&full).to_string() }</span>
            <span class="spacer" />
            { worker }
            <span class="footer-sep" aria-hidden="true">{ "·" }</span>
            <span class="shortcuts">{ "Ctrl+Enter run · Alt+. step · Alt+, back · ? all shortcuts" }</span>
        </footer>
    }
}
