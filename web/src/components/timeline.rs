//! The iteration timeline: one entry per CEGAR iteration (predicates, abstract counterexample,
//! feasibility with its WP/SP conditions, predicates added), step back/forward, and the verdict.

use super::{use_app, use_commands, verdict::VerdictPanel, Empty};
use crate::model::{count_predicates, is_spurious, plural};
use crate::state::{Action, ExplainTab, RunStatus};
use playground_api::{CounterexampleSearch, IterationSnapshot};
use yew::prelude::*;

/// "spurious", "feasible" or "" (no feasibility check) for an iteration.
fn feasibility_word(it: &IterationSnapshot) -> &'static str {
    if is_spurious(it) {
        "spurious"
    } else if it.feasibility_kind == playground_api::FeasibilityKind::Feasible {
        "feasible"
    } else {
        ""
    }
}

fn summary(it: &IterationSnapshot) -> String {
    let steps = plural(it.abstract_trace.len(), "step");
    let trace = match (feasibility_word(it), it.abstract_trace.is_empty()) {
        (_, true) => "no abstract counterexample".to_string(),
        ("", false) => format!("counterexample ({steps})"),
        (word, false) => format!("counterexample ({steps}) {} ({})", word, it.feasibility_method),
    };
    format!(
        "{} · {} · {}",
        plural(count_predicates(&it.predicates), "predicate"),
        trace,
        plural(it.statistics.solver_queries as usize, "solver call")
    )
}

#[function_component(TimelinePane)]
pub fn timeline_pane() -> Html {
    let state = use_app();
    let cmds = use_commands();
    let its = &state.run.iterations;
    let back = {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| state.dispatch(Action::StepBack))
    };
    let forward = {
        let step = cmds.step.clone();
        Callback::from(move |_: MouseEvent| step.emit(()))
    };
    // The engine reports progress between phases only; a gloo interval re-renders the progress
    // line while a run is busy so its clock never freezes (the UI thread is free: the engine
    // runs in the worker).
    let tick = use_state(|| 0u32);
    {
        let tick = tick.clone();
        use_effect_with(state.is_running(), move |running| {
            let interval = running.then(|| gloo::timers::callback::Interval::new(250, move || tick.set(tick.wrapping_add(1))));
            move || drop(interval)
        });
    }
    let elapsed_ms = |p: &crate::model::Progress| state.run.started.map_or(p.elapsed_ms, |t| t.elapsed().as_millis() as u64);
    let at_first = state.selected.is_none_or(|i| i == 0);
    let at_last = state.selected.is_none_or(|i| i + 1 >= its.len());

    let status_line = match &state.run.status {
        RunStatus::Failed(message) => Some(html! { <div class="run-error" id="run-error" role="alert">{ message }</div> }),
        RunStatus::Cancelled => Some(html! {
            <div class="run-cancelled" id="run-cancelled">
                { format!("Cancelled: the run was stopped and the engine restarted; {} kept.", plural(its.len(), "finished iteration")) }
            </div>
        }),
        RunStatus::Paused => Some(html! {
            <div class="run-paused" id="run-paused">
                { format!("Paused after iteration {}: Step computes the next one, Run continues to the end.", its.len()) }
            </div>
        }),
        RunStatus::Running(p) => Some(html! {
            <div class="run-progress" id="run-progress" data-elapsed-ms={elapsed_ms(p).to_string()}>
                <span class="spinner" aria-hidden="true" />
                { format!("Iteration {} · {} · {} solver calls · {:.1} s", p.iteration, if p.phase.is_empty() { "starting" } else { &p.phase }, p.solver_calls, elapsed_ms(p) as f64 / 1000.0) }
            </div>
        }),
        _ => None,
    };

    let details = state.selected_iteration().map(|it| {
        let open_trace = {
            let state = state.clone();
            Callback::from(move |e: MouseEvent| {
                e.stop_propagation();
                state.dispatch(Action::OpenTab(ExplainTab::Trace));
            })
        };
        let word = feasibility_word(it);
        html! {
            <div class="iteration-details" id="iteration-details">
                if !it.abstract_trace.is_empty() {
                    <p class="details-line">
                        <span title={it.counterexample_search.describe()}>
                            { format!("Abstract counterexample: {}", plural(it.abstract_trace.len(), "step")) }
                            if it.counterexample_search == CounterexampleSearch::Ranked { { ", first found" } }
                        </span>
                        if !word.is_empty() {
                            { " · " }
                            <span class={classes!("feasibility-word", format!("is-{word}"))}>
                                { format!("{word} ({})", it.feasibility_method.to_uppercase()) }
                            </span>
                        }
                        <button class="btn btn-small open-trace" onclick={open_trace}>{ "Trace ▸" }</button>
                    </p>
                }
                if !it.new_predicates.is_empty() {
                    <h3>{ "New predicates" }</h3>
                    <ul class="new-preds">
                        { for it.new_predicates.iter().enumerate().map(|(i, p)| html! {
                            <li><code>{ format!("+ {p}") }</code>
                                if let Some(added) = it.added_predicates.get(i) {
                                    <span class="pred-origin">{ format!(" ({})", crate::model::origin_label(&added.origin)) }</span>
                                }
                            </li>
                        }) }
                    </ul>
                }
            </div>
        }
    });

    html! {
        <>
            <div class="pane-header">
                <h2>{ "Iterations" }</h2>
                <span class="spacer" />
                <button class="btn btn-small" id="step-back" onclick={back} disabled={at_first} title="Previous iteration (Alt+, or [)" aria-label="Previous iteration">{ "◀" }</button>
                <span class="chip" id="iteration-position">
                    { match state.selected { Some(i) => format!("{} / {}", i + 1, its.len()), None => format!("– / {}", its.len()) } }
                </span>
                <button class="btn btn-small" id="step-forward" onclick={forward} disabled={!its.is_empty() && at_last && !state.is_paused()} title="Next iteration (Alt+. or ])" aria-label="Next iteration">{ "▶" }</button>
            </div>
            <div class="pane-body timeline-body" tabindex="0" aria-label="Iterations and verdict">
                { for status_line }
                if its.is_empty() && !state.is_running() {
                    <Empty>
                        <p>{ "Run to see one entry per CEGAR iteration: predicates, the abstract counterexample, why it is (in)feasible, and the predicates refinement adds." }</p>
                        <p class="hint">{ "Ctrl+Enter runs, Alt+. steps; ? lists all shortcuts." }</p>
                    </Empty>
                }
                <ol class="timeline" id="timeline">
                    { for its.iter().enumerate().map(|(i, it)| {
                        let onclick = {
                            let state = state.clone();
                            Callback::from(move |_: MouseEvent| state.dispatch(Action::Select(i)))
                        };
                        let added = it.new_predicates.len();
                        let selected = state.selected == Some(i);
                        html! {
                            <li class={classes!("timeline-entry", selected.then_some("selected"))} data-iteration={it.index.to_string()}>
                                <button class="entry-button" {onclick} aria-current={selected.then_some("step")}>
                                    <span class="entry-title">
                                        <span class="entry-index">{ format!("#{}", it.index) }</span>
                                        <span class="entry-summary">{ summary(it) }</span>
                                    </span>
                                    if added > 0 {
                                        <span class="entry-added">{ format!("+{}", plural(added, "predicate")) }</span>
                                    }
                                </button>
                            </li>
                        }
                    }) }
                </ol>
                { for details }
                <VerdictPanel />
            </div>
        </>
    }
}
