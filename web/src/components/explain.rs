//! The explain panel under the panes: a tab strip (trace, cube lattice, WP, invariants, solver
//! log, lab notes) and the open view. The statement-based views share a picker: the boolean
//! program statement (also chosen by clicking its line) and one of its predicates.

use super::{
    invariants::InvariantsView, labnotes::LabNotesView, lattice::LatticeView, solver_log::SolverLogView, trace::TraceView,
    use_app, wp::WpView, Empty,
};
use crate::state::{Action, ExplainTab};
use yew::prelude::*;

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
        html! {
            <button class={classes!("tab", selected.then_some("tab-open"))} id={format!("tab-{}", tab.key())}
                role="tab" aria-selected={selected.to_string()} {onclick}>{ tab.label() }</button>
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
        };
        // keyed per tab: each view starts scrolled to its top
        html! { <div class="explain-body" key={tab.key()} id={format!("explain-{}", tab.key())} role="tabpanel">{ view }</div> }
    });
    html! {
        <section class={classes!("explain", open.is_some().then_some("explain-open"))} aria-label="Explain">
            <div class="explain-tabs" role="tablist">
                <span class="explain-title">{ "Explain" }</span>
                { for tabs }
                <span class="spacer" />
                if open.is_some() {
                    <button class="btn btn-small" id="explain-fold" onclick={fold} title="Fold the panel">{ "▾" }</button>
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
                <p>{ "Explanations are recorded for Abstract mode runs: pick an example such as partition or increment, then Run." }</p>
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
