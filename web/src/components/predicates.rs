//! The predicates editor (C2BP's `proc { p1, p2 }` syntax) and what refinement added.

use super::use_app;
use crate::model::{count_predicates, RunKind};
use crate::state::Action;
use yew::prelude::*;

#[function_component(PredicatesPane)]
pub fn predicates_pane() -> Html {
    let state = use_app();
    let on_input = {
        let state = state.clone();
        Callback::from(move |e: InputEvent| {
            let area: web_sys::HtmlTextAreaElement = e.target_unchecked_into();
            state.dispatch(Action::SetPredicates(area.value()));
        })
    };
    let in_use = state.selected_iteration().map(|it| it.predicates.clone());
    let disabled = state.session.mode == RunKind::ModelCheck;
    html! {
        <>
            <div class="pane-header">
                <h2>{ "Predicates" }</h2>
                <span class="spacer" />
                if let Some(it) = state.selected_iteration() {
                    <span class="chip" id="predicate-count">{ format!("iteration {}: {}", it.index, crate::model::plural(count_predicates(&it.predicates), "predicate")) }</span>
                }
            </div>
            <div class="pane-body preds-body">
                <textarea id="predicates" class="preds-input" spellcheck="false" {disabled} readonly={state.embed}
                    placeholder={"Empty: refinement discovers the predicates.\nSyntax (C2BP):  global { .. }  proc { x == 0, y > x }"}
                    value={state.session.predicates.clone()} oninput={on_input} aria-label="Predicates" />
                if let Some(text) = in_use {
                    <details class="preds-in-use" open=true>
                        <summary>{ "used by the selected iteration" }</summary>
                        <pre id="predicates-in-use" tabindex="0">{ text }</pre>
                    </details>
                }
            </div>
        </>
    }
}
