//! The settings panel: integer width, abstraction strategy, max cube length, refinement method,
//! iteration and time budgets. Values go into every run request and into share links.

use super::use_app;
use crate::model::{Options, Refinement, Strategy};
use crate::state::Action;
use yew::prelude::*;

#[function_component(SettingsPanel)]
pub fn settings_panel() -> Html {
    let state = use_app();
    let options = state.session.options.clone();
    let update = |f: fn(&mut Options, String)| {
        let (state, options) = (state.clone(), options.clone());
        Callback::from(move |e: Event| {
            let value = if let Some(s) = e.target_dyn_into::<web_sys::HtmlSelectElement>() {
                s.value()
            } else {
                e.target_unchecked_into::<web_sys::HtmlInputElement>().value()
            };
            let mut o = options.clone();
            f(&mut o, value);
            state.dispatch(Action::SetOptions(o));
        })
    };
    let close = {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| state.dispatch(Action::ClosePopup))
    };
    let stop = Callback::from(|e: MouseEvent| e.stop_propagation());
    html! {
        <div class="settings" id="settings" role="dialog" aria-label="Settings" onclick={stop}>
            <div class="settings-header">
                <h2>{ "Settings" }</h2>
                <button class="btn btn-small" onclick={close} aria-label="Close">{ "×" }</button>
            </div>
            <label>{ "Integer width" }
                <select id="opt-width" onchange={update(|o, v| o.int_width = v.parse().unwrap_or(0))}>
                    { for [0u8, 8, 16, 32, 64].iter().map(|w| html! {
                        <option value={w.to_string()} selected={options.int_width == *w}>{ if *w == 0 { "C's own widths".to_string() } else { format!("{w} bits") } }</option>
                    }) }
                </select>
            </label>
            <label>{ "Abstraction strategy" }
                <select id="opt-strategy" onchange={update(|o, v| o.strategy = if v == "exact" { Strategy::Exact } else { Strategy::Lattice })}>
                    <option value="lattice" selected={options.strategy == Strategy::Lattice}>{ "cube lattice (C2BP)" }</option>
                    <option value="exact" selected={options.strategy == Strategy::Exact}>{ "exact (all-SAT)" }</option>
                </select>
            </label>
            <label>{ "Max cube length k (0 = ∞)" }
                <input id="opt-k" type="number" min="0" max="16" value={options.max_cube_len.to_string()} title="0 = unbounded"
                    onchange={update(|o, v| o.max_cube_len = v.parse().unwrap_or(0).min(16))} />
            </label>
            <label>{ "Refinement" }
                <select id="opt-refinement" onchange={update(|o, v| o.refinement = if v == "sp" { Refinement::Sp } else { Refinement::Wp })}>
                    <option value="wp" selected={options.refinement == Refinement::Wp}>{ "weakest preconditions" }</option>
                    <option value="sp" selected={options.refinement == Refinement::Sp}>{ "strongest postconditions" }</option>
                </select>
            </label>
            <label>{ "Max iterations" }
                <input id="opt-iterations" type="number" min="1" max="1000" value={options.max_iterations.to_string()}
                    onchange={update(|o, v| o.max_iterations = v.parse().unwrap_or(20).clamp(1, 1000))} />
            </label>
            <label>{ "Time budget (s)" }
                <input id="opt-time" type="number" min="1" max="3600" value={(options.time_budget_ms / 1000).to_string()}
                    onchange={update(|o, v| o.time_budget_ms = v.parse::<u64>().unwrap_or(30).clamp(1, 3600) * 1000)} />
            </label>
        </div>
    }
}
