//! The explain panel under the panes: a tab strip (trace, cube lattice, WP, invariants, solver
//! log, lab notes) and the open view. The statement-based views share a picker: the boolean
//! program statement (also chosen by clicking its line) and one of its predicates.
//! The open panel is resizable: drag the bar above the tabs, or focus it and press ArrowUp /
//! ArrowDown (the height is a display preference of this browser).

use super::{
    invariants::InvariantsView, labnotes::LabNotesView, lattice::LatticeView, solver_log::SolverLogView,
    trace::TraceView, use_app, wp::WpView, Empty,
};
use crate::state::{Action, AppState, ExplainTab, MIN_EXPLAIN_HEIGHT};
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Keyboard resize step in CSS pixels.
const RESIZE_STEP: i32 = 32;

fn window_height() -> f64 {
    web_sys::window().and_then(|w| w.inner_height().ok()).and_then(|h| h.as_f64()).unwrap_or(800.0)
}

/// The allowed height range of the open panel.
fn clamp_height(h: f64) -> u32 {
    let max = (window_height() - 120.0).max(MIN_EXPLAIN_HEIGHT as f64);
    h.clamp(MIN_EXPLAIN_HEIGHT as f64, max) as u32
}

/// The open panel's current height.
fn panel_height() -> f64 {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector(".explain-open").ok().flatten())
        .map_or(300.0, |e| e.get_bounding_client_rect().height())
}

fn set_live_height(h: u32) {
    if let Some(app) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.query_selector(".app").ok().flatten()) {
        let _ = app.set_attribute("style", &format!("--explain-height: {h}px"));
    }
}

fn commit_height(state: &UseReducerHandle<AppState>, h: u32) {
    let mut prefs = state.prefs.clone();
    prefs.explain_height = Some(h);
    state.dispatch(Action::SetPrefs(prefs));
}

/// The drag bar above the open panel (a `separator`, operable with the mouse and the keyboard).
#[function_component(Resizer)]
fn resizer() -> Html {
    let state = use_app();
    // Some((pointer y, height)) while dragging
    let drag = use_mut_ref(|| Rc::new(Cell::new(None::<(f64, f64)>))).borrow().clone();
    let latest = use_mut_ref(|| state.clone());
    *latest.borrow_mut() = state.clone();
    {
        let drag = drag.clone();
        use_effect_with((), move |_| {
            let (move_drag, up_drag) = (drag.clone(), drag);
            let on_move = Closure::<dyn FnMut(web_sys::MouseEvent)>::new(move |e: web_sys::MouseEvent| {
                if let Some((y0, h0)) = move_drag.get() {
                    e.prevent_default();
                    set_live_height(clamp_height(h0 + y0 - e.client_y() as f64));
                }
            });
            let on_up = Closure::<dyn FnMut(web_sys::MouseEvent)>::new(move |e: web_sys::MouseEvent| {
                if let Some((y0, h0)) = up_drag.take() {
                    commit_height(&latest.borrow(), clamp_height(h0 + y0 - e.client_y() as f64));
                }
            });
            let document = web_sys::window().and_then(|w| w.document());
            if let Some(d) = &document {
                let _ = d.add_event_listener_with_callback("mousemove", on_move.as_ref().unchecked_ref());
                let _ = d.add_event_listener_with_callback("mouseup", on_up.as_ref().unchecked_ref());
            }
            move || {
                if let Some(d) = document {
                    let _ = d.remove_event_listener_with_callback("mousemove", on_move.as_ref().unchecked_ref());
                    let _ = d.remove_event_listener_with_callback("mouseup", on_up.as_ref().unchecked_ref());
                }
            }
        });
    }
    let onmousedown = Callback::from(move |e: MouseEvent| {
        e.prevent_default();
        drag.set(Some((e.client_y() as f64, panel_height())));
    });
    let onkeydown = {
        let state = state.clone();
        Callback::from(move |e: KeyboardEvent| {
            let h = panel_height();
            let new = match e.key().as_str() {
                "ArrowUp" => h + RESIZE_STEP as f64,
                "ArrowDown" => h - RESIZE_STEP as f64,
                "PageUp" => h + 4.0 * RESIZE_STEP as f64,
                "PageDown" => h - 4.0 * RESIZE_STEP as f64,
                _ => return,
            };
            e.prevent_default();
            commit_height(&state, clamp_height(new));
        })
    };
    let now = state.prefs.explain_height.unwrap_or_else(|| panel_height() as u32);
    html! {
        <div class="explain-resize" id="explain-resize" role="separator" aria-orientation="horizontal" tabindex="0"
            aria-label="Resize the explain panel (ArrowUp, ArrowDown)" aria-valuemin={MIN_EXPLAIN_HEIGHT.to_string()}
            aria-valuemax={(window_height() as u32).to_string()} aria-valuenow={now.to_string()} {onmousedown} {onkeydown}>
            <span class="grip" aria-hidden="true" />
        </div>
    }
}

#[function_component(ExplainPanel)]
pub fn explain_panel() -> Html {
    let state = use_app();
    let open = state.explain.tab;
    let tabs = ExplainTab::ALL.iter().map(|&tab| {
        let onclick = {
            let state = state.clone();
            Callback::from(move |_: MouseEvent| state.dispatch(Action::ToggleTab(tab)))
        };
        let selected = open == Some(tab);
        // the open tab (else the first) is the tab strip's keyboard stop
        let stop = open.unwrap_or(ExplainTab::ALL[0]) == tab;
        html! {
            <button class={classes!("tab", selected.then_some("tab-open"))} id={format!("tab-{}", tab.key())}
                role="tab" aria-selected={selected.to_string()} aria-controls={selected.then(|| format!("explain-{}", tab.key()))}
                tabindex={if stop { "0" } else { "-1" }} {onclick}>{ tab.label() }</button>
        }
    });
    let tab_keys = Callback::from(|e: KeyboardEvent| {
        let Some(list) = e.current_target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
        if super::move_focus(&list, "[role=tab]", &e.key(), true).is_some() {
            e.prevent_default();
        }
    });
    let fold = {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(tab) = state.explain.tab {
                state.dispatch(Action::ToggleTab(tab));
            }
        })
    };
    let body = open.map(|tab| {
        let view = match tab {
            ExplainTab::Trace => html! { <TraceView /> },
            ExplainTab::Lattice => html! { <LatticeView /> },
            ExplainTab::Wp => html! { <WpView /> },
            ExplainTab::Invariants => html! { <InvariantsView /> },
            ExplainTab::Solver => html! { <SolverLogView /> },
            ExplainTab::LabNotes => html! { <LabNotesView /> },
            ExplainTab::Pushdown => html! { <super::pds::PdsView /> },
        };
        // the views explain the run's program: say so when the editor's differs now
        let stale = (state.edited_since_run() && tab != ExplainTab::LabNotes).then(|| html! {
            <p class="explain-stale" id="explain-stale" role="note">
                { "The program or predicates were edited after this run: these explanations are of the program as it was run. Run again to explain the edited one." }
            </p>
        });
        // keyed per tab: each view starts scrolled to its top
        html! {
            <div class="explain-body" key={tab.key()} id={format!("explain-{}", tab.key())} role="tabpanel"
                aria-labelledby={format!("tab-{}", tab.key())} tabindex="0">{ for stale }{ view }</div>
        }
    });
    html! {
        <section class={classes!("explain", open.is_some().then_some("explain-open"))} aria-label="Explain">
            if open.is_some() {
                <Resizer />
            }
            <div class="explain-tabs">
                <span class="explain-title" aria-hidden="true">{ "Explain" }</span>
                <div class="tab-list" role="tablist" aria-label="Explain views" onkeydown={tab_keys}>
                    { for tabs }
                </div>
                <span class="spacer" />
                if open.is_some() {
                    <button class="btn btn-small" id="explain-fold" onclick={fold} title="Fold the panel" aria-label="Fold the explain panel">{ "▾" }</button>
                }
            </div>
            { for body }
        </section>
    }
}

/// The statement and predicate pickers of the lattice, WP and solver views. Renders an empty
/// state when the selected iteration has no explanations.
#[function_component(StatementPicker)]
pub fn statement_picker() -> Html {
    let state = use_app();
    let Some(explanation) = state.explanation() else {
        return html! {
            <Empty>
                { match state.explanation_pending() {
                    Some(None) => html! { <p id="explanation-pending" role="status">{ "Computing this iteration's abstraction with its explanations…" }</p> },
                    Some(Some(error)) => html! { <p id="explanation-error" role="alert">{ format!("No explanations for this iteration: {error}") }</p> },
                    None => html! { <p>{ "Explanations are recorded for Abstract mode runs and, in Check mode, for the iteration selected in the timeline: Run, then pick an iteration." }</p> },
                } }
            </Empty>
        };
    };
    let on_statement = {
        let state = state.clone();
        Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            if let Ok(i) = select.value().parse::<usize>() {
                state.dispatch(Action::SelectStatement(i));
            }
        })
    };
    let current = state.explain.statement;
    let predicates = state.explained_statement().map(|statement| {
        let chosen = state.explained_predicate().map(|p| p.predicate.clone());
        html! {
            <div class="predicate-picker" role="group" aria-label="Predicate">
                { for statement.predicates.iter().enumerate().map(|(i, p)| {
                    let onclick = {
                        let state = state.clone();
                        Callback::from(move |_: MouseEvent| state.dispatch(Action::SelectPredicate(i)))
                    };
                    let selected = chosen.as_deref() == Some(p.predicate.as_str());
                    html! {
                        <button class={classes!("btn", "btn-small", "pred-choice", selected.then_some("pred-chosen"))}
                            data-predicate={p.predicate.clone()} {onclick}>{ &p.predicate }</button>
                    }
                }) }
            </div>
        }
    });
    html! {
        <div class="picker">
            <label class="statement-picker">
                <span>{ "Statement" }</span>
                <select id="explain-statement" onchange={on_statement}>
                    <option value="" selected={current.is_none()} disabled=true>
                        { format!("choose one of {} statements (or click a boolean line)", explanation.statements.len()) }
                    </option>
                    { for explanation.statements.iter().enumerate().map(|(i, s)| html! {
                        <option value={i.to_string()} selected={current == Some(i)}>
                            { format!("{}  {}", super::line_ref(s.c_line), s.c_statement) }
                        </option>
                    }) }
                </select>
            </label>
            { for predicates }
        </div>
    }
}
