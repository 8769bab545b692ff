//! The settings panel: integer width, abstraction strategy, max cube length, refinement method,
//! iteration and time budgets (these go into every run request and into share links), and the
//! display preferences of this browser (font size, presenter mode). It takes the focus when it
//! opens; Escape closes it and the focus returns to the Settings button.

use super::use_app;
use crate::model::{Options, Refinement, Strategy, INT_WIDTHS};
use playground_api::lab::Lockable;
use playground_api::{Integers, Precision, Syntax};
use crate::state::{Action, FONT_SCALES};
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
    let toggle = |f: fn(&mut Options, bool)| {
        let (state, options) = (state.clone(), options.clone());
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            let mut o = options.clone();
            f(&mut o, input.checked());
            state.dispatch(Action::SetOptions(o));
        })
    };
    let paper = options.paper.clone();
    let close = {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| state.dispatch(Action::ClosePopup))
    };
    let stop = Callback::from(|e: MouseEvent| e.stop_propagation());
    let prefs = state.prefs.clone();
    let on_scale = {
        let (state, prefs) = (state.clone(), prefs.clone());
        Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            let mut p = prefs.clone();
            p.font_scale = select.value().parse().unwrap_or(100);
            state.dispatch(Action::SetPrefs(p));
        })
    };
    let on_presenter = {
        let (state, prefs) = (state.clone(), prefs.clone());
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            let mut p = prefs.clone();
            p.presenter = input.checked();
            state.dispatch(Action::SetPrefs(p));
        })
    };
    // a student's lab may lock settings: their controls are disabled and point to why
    let lock_note = Lockable::ALL.iter().find_map(|&l| super::lab::lock_of(&state, l)).map(super::lab::lock_explanation);
    let locked = |part: Lockable| super::lab::lock_of(&state, part).is_some();
    let described = |part: Lockable| locked(part).then_some("settings-locked");
    let tip = |part: Lockable| locked(part).then(|| lock_note.clone().unwrap_or_default());
    html! {
        <div class="settings" id="settings" role="dialog" aria-labelledby="settings-title" onclick={stop}>
            <div class="settings-header">
                <h2 id="settings-title">{ "Settings" }</h2>
                <button class="btn btn-small" id="settings-close" onclick={close} aria-label="Close">{ "×" }</button>
            </div>
            if let Some(note) = &lock_note {
                <p class="settings-locked" id="settings-locked" role="note">{ note.clone() }</p>
            }
            <label>{ "Integer width" }
                <select id="opt-width" onchange={update(|o, v| o.int_width = v.parse().unwrap_or(0))}>
                    { for INT_WIDTHS.iter().map(|w| html! {
                        <option value={w.to_string()} selected={options.int_width == *w}>{ if *w == 0 { "C's own widths".to_string() } else { format!("{w} bits") } }</option>
                    }) }
                </select>
            </label>
            <label>{ "Abstraction strategy" }
                <select id="opt-strategy" disabled={locked(Lockable::Strategy)} aria-describedby={described(Lockable::Strategy)} title={tip(Lockable::Strategy)} onchange={update(|o, v| o.strategy = if v == "exact" { Strategy::Exact } else { Strategy::Lattice })}>
                    <option value="lattice" selected={options.strategy == Strategy::Lattice}>{ "cube lattice (C2BP)" }</option>
                    <option value="exact" selected={options.strategy == Strategy::Exact}>{ "exact (all-SAT)" }</option>
                </select>
            </label>
            <label>{ "Max cube length k (0 = ∞)" }
                <input id="opt-k" type="number" min="0" max="16" value={options.max_cube_len.to_string()} title="0 = unbounded"
                    onchange={update(|o, v| o.max_cube_len = v.parse().unwrap_or(0).min(16))} />
            </label>
            <label>{ "Refinement" }
                <select id="opt-refinement" disabled={locked(Lockable::Refinement)} aria-describedby={described(Lockable::Refinement)} title={tip(Lockable::Refinement)} onchange={update(|o, v| o.refinement = if v == "sp" { Refinement::Sp } else { Refinement::Wp })}>
                    <option value="wp" selected={options.refinement == Refinement::Wp}>{ "weakest preconditions" }</option>
                    <option value="sp" selected={options.refinement == Refinement::Sp}>{ "strongest postconditions" }</option>
                </select>
            </label>
            <label>{ "Techniques (Check mode)" }
                <select id="opt-techniques" disabled={locked(Lockable::Techniques)} aria-describedby={described(Lockable::Techniques)} title={tip(Lockable::Techniques)} onchange={update(|o, v| o.techniques = techniques_of(&v))}>
                    { for TECHNIQUE_CHOICES.iter().map(|(value, text, _)| html! {
                        <option value={*value} selected={choice_of(&options.techniques) == *value}>{ *text }</option>
                    }) }
                </select>
            </label>
            <label>{ "Max iterations" }
                <input id="opt-iterations" type="number" min="1" max="1000" value={options.max_iterations.to_string()}
                    disabled={locked(Lockable::IterationBound)} aria-describedby={described(Lockable::IterationBound)} title={tip(Lockable::IterationBound)}
                    onchange={update(|o, v| o.max_iterations = v.parse().unwrap_or(20).clamp(1, 1000))} />
            </label>
            <label>{ "Work budget (units, 0 = unlimited)" }
                <input id="opt-work" type="number" min="0" max={crate::model::MAX_WORK_BUDGET.to_string()} step="1000000" value={options.work_budget.to_string()}
                    title="Check mode: work counted in units, the same on every machine, so a share link or a lab gives the same iterations and verdict everywhere"
                    onchange={update(|o, v| o.work_budget = v.parse::<u64>().map_or(o.work_budget, |w| w.min(crate::model::MAX_WORK_BUDGET)))} />
            </label>
            <label>{ "Safety time limit (s)" }
                <input id="opt-time" type="number" min="1" max="3600" value={(options.time_budget_ms / 1000).to_string()}
                    title="this machine's clock: a run it ends says so, and may end elsewhere at another point"
                    onchange={update(|o, v| o.time_budget_ms = v.parse::<u64>().unwrap_or(30).clamp(1, 3600) * 1000)} />
            </label>
            <h3 class="settings-section">{ "The papers' conventions" }</h3>
            <label>{ "Entry procedure" }
                <input id="opt-entry" type="text" value={paper.entry.clone()} title="main, or another procedure analysed in an open environment (polymorphic predicate abstraction §2)"
                    onchange={update(|o, v| o.paper.entry = if v.trim().is_empty() { "main".into() } else { v.trim().to_string() })} />
            </label>
            <label>{ "Error label (C)" }
                <input id="opt-error-label" type="text" value={paper.error_label.clone()} placeholder="none" title="reaching this C label is the error (BOOP's convention)"
                    onchange={update(|o, v| o.paper.error_label = v.trim().to_string())} />
            </label>
            <label>{ "Integers" }
                <select id="opt-integers" disabled={locked(Lockable::Integers)} aria-describedby={described(Lockable::Integers)} title={tip(Lockable::Integers)} onchange={update(|o, v| o.paper.integers = if v == "ideal" { Integers::Ideal } else { Integers::Wrap })}>
                    <option value="wrap" selected={paper.integers == Integers::Wrap}>{ "signed overflow wraps (bit-precise)" }</option>
                    <option value="ideal" selected={paper.integers == Integers::Ideal}>{ "signed overflow is impossible (the papers' ℤ)" }</option>
                </select>
            </label>
            <label>{ "Boolean program syntax (Abstract)" }
                <select id="opt-syntax" onchange={update(|o, v| o.paper.syntax = if v == "c2bp" { Syntax::C2bp } else { Syntax::Bebop })}>
                    <option value="bebop" selected={paper.syntax == Syntax::Bebop}>{ "Bebop (BOOP Fig 4.2)" }</option>
                    <option value="c2bp" selected={paper.syntax == Syntax::C2bp}>{ "C2BP's C-like form (Fig 1(b))" }</option>
                </select>
            </label>
            <h3 class="settings-section">{ "Precision (Abstract)" }</h3>
            <label>{ "Abstraction of a statement" }
                <select id="opt-precision" onchange={update(|o, v| o.paper.precision = if v == "boolean" { Precision::Boolean } else { Precision::Cartesian })}>
                    <option value="cartesian" selected={paper.precision == Precision::Cartesian}>{ "cartesian: each predicate on its own (C2BP)" }</option>
                    <option value="boolean" selected={paper.precision == Precision::Boolean}>{ "boolean: all valuations at once (C2BP §4.6)" }</option>
                </select>
            </label>
            <label class="check">
                <input id="opt-distribute-f" type="checkbox" checked={paper.distribute_f} onchange={toggle(|o, b| o.paper.distribute_f = b)} />
                { "F distributed over && and || (C2BP §5.2)" }
            </label>
            <label class="check">
                <input id="opt-enforce" type="checkbox" checked={paper.enforce} onchange={toggle(|o, b| o.paper.enforce = b)} />
                { "enforce (C2BP §5.1)" }
            </label>
            <label class="check">
                <input id="opt-points-to" type="checkbox" checked={paper.points_to} onchange={toggle(|o, b| o.paper.points_to = b)} />
                { "points-to analysis (off: aliasing by types only)" }
            </label>
            <h3 class="settings-section">{ "Display (this browser)" }</h3>
            <label>{ "Font size" }
                <select id="opt-font-size" onchange={on_scale}>
                    { for FONT_SCALES.iter().map(|s| html! {
                        <option value={s.to_string()} selected={prefs.font_scale == *s}>{ format!("{s} %") }</option>
                    }) }
                </select>
            </label>
            <label class="check">
                <input id="opt-presenter" type="checkbox" checked={prefs.presenter} onchange={on_presenter} />
                { "Presenter mode (large type, high contrast)" }
            </label>
        </div>
    }
}

/// The technique selections the settings offer: the textbook loop, the loop with its
/// loop-invariant candidates, and the whole portfolio.
const TECHNIQUE_CHOICES: [(&str, &str, &[playground_api::Technique]); 3] = [
    ("cegar", "CEGAR loop only (textbook)", &[playground_api::Technique::Cegar]),
    ("cegar-candidates", "CEGAR loop + loop-invariant candidates", &[playground_api::Technique::Cegar, playground_api::Technique::Candidates]),
    ("all", "all techniques (portfolio)", &playground_api::Technique::ALL),
];

fn techniques_of(value: &str) -> Vec<playground_api::Technique> {
    TECHNIQUE_CHOICES.iter().find(|(v, _, _)| *v == value).map(|(_, _, list)| list.to_vec()).unwrap_or_else(crate::model::textbook_techniques)
}

/// The choice a selection matches (a share link may carry another selection: shown as "all").
fn choice_of(selected: &[playground_api::Technique]) -> &'static str {
    TECHNIQUE_CHOICES.iter().find(|(_, _, list)| list.len() == selected.len() && list.iter().all(|t| selected.contains(t))).map(|(v, _, _)| *v).unwrap_or("all")
}
