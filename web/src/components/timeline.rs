//! The iteration timeline: one entry per CEGAR iteration (predicates, abstract counterexample,
//! feasibility with its WP/SP conditions, predicates added), step back/forward, and the verdict.
//! With "phase by phase", a stepped iteration's phases are revealed one at a time
//! ([`crate::reveal`]) from a button that names the next one.

use super::{use_app, use_commands, verdict::VerdictPanel, Empty};
use crate::model::{count_predicates, is_spurious, plural};
use crate::reveal::Phase;
use crate::state::{Action, AppState, ExplainTab, RunStatus};
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

/// An entry's summary, with only the phases `shows` lets through (crate::reveal).
fn summary(it: &IterationSnapshot, shows: &dyn Fn(Phase) -> bool) -> String {
    // a Run's later iteration while Predict walks through an earlier one: even its predicate
    // count would tell what the earlier refinements add
    if !shows(Phase::BooleanProgram) {
        return "not revealed yet".into();
    }
    let steps = plural(it.abstract_trace.len(), "step");
    let word = if shows(Phase::Feasibility) { feasibility_word(it) } else { "" };
    let trace = match (word, it.abstract_trace.is_empty()) {
        _ if !shows(Phase::Counterexample) => "model checking next".to_string(),
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
    let toggle_reveal = {
        let state = state.clone();
        Callback::from(move |e: Event| {
            use wasm_bindgen::JsCast;
            let on = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()).is_some_and(|i| i.checked());
            state.dispatch(Action::SetPhaseReveal(on));
        })
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

    let index = state.selected.unwrap_or_default();
    let shows = |phase: Phase| state.reveal.shows(index, phase);
    let details = state.selected_iteration().map(|it| {
        let open_trace = {
            let state = state.clone();
            Callback::from(move |e: MouseEvent| {
                e.stop_propagation();
                state.dispatch(Action::OpenTab(ExplainTab::Trace));
            })
        };
        let word = if shows(Phase::Feasibility) { feasibility_word(it) } else { "" };
        html! {
            <div class="iteration-details" id="iteration-details">
                if !it.abstract_trace.is_empty() && shows(Phase::Counterexample) {
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
                if !it.new_predicates.is_empty() && shows(Phase::Predicates) {
                    <h3>{ "New predicates" }</h3>
                    <ul class="new-preds">
                        { for it.new_predicates.iter().enumerate().map(|(i, p)| html! {
                            <li><code>{ format!("+ {p}") }</code>
                                if let Some(added) = it.added_predicates.get(i) {
                                    if !added.shown.is_empty() && added.shown != *p {
                                        <span class="pred-source">{ format!(" = {} in the source", added.shown) }</span>
                                    }
                                    <span class="pred-origin">{ format!(" ({})", crate::model::origin_label(&added.origin)) }</span>
                                }
                            </li>
                        }) }
                    </ul>
                }
                if !it.learned.is_empty() && shows(Phase::Predicates) {
                    <h3>{ "Learned for enforce" }</h3>
                    <ul class="learned-cubes">
                        { for it.learned.iter().map(|cube| html! { <li><code>{ format!("enforce {cube}") }</code></li> }) }
                    </ul>
                }
                if !it.notes.is_empty() && shows(Phase::Predicates) {
                    <ul class="loop-notes">
                        { for it.notes.iter().map(|note| html! { <li>{ note }</li> }) }
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
                if state.session.mode == crate::model::RunKind::Check {
                    <label class="reveal-toggle" title="After Step, show the new iteration's phases one at a time: boolean program, abstract counterexample, feasibility, new predicates">
                        <input type="checkbox" id="reveal-phases" checked={state.reveal.enabled} onchange={toggle_reveal} />
                        { "Step reveals each phase (boolean program, counterexample, feasibility, predicates) on demand" }
                    </label>
                }
                <super::exercise::PredictToggle />
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
                        let entry_shows = |phase: Phase| state.reveal.shows(i, phase);
                        let added = if entry_shows(Phase::Predicates) { it.new_predicates.len() } else { 0 };
                        let selected = state.selected == Some(i);
                        html! {
                            <li class={classes!("timeline-entry", selected.then_some("selected"))} data-iteration={it.index.to_string()}>
                                <button class="entry-button" {onclick} aria-current={selected.then_some("step")}>
                                    <span class="entry-title">
                                        <span class="entry-index">{ format!("#{}", it.index) }</span>
                                        <span class="entry-summary">{ summary(it, &entry_shows) }</span>
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
                { reveal_bar(&state) }
                <VerdictPanel />
            </div>
        </>
    }
}

/// The reveal control of a stepped iteration shown phase by phase: which phase is shown, and a
/// button for the next one (after the last: the verdict, when the loop has ended; while
/// walking through a Run's iterations, the next iteration).
fn reveal_bar(state: &UseReducerHandle<AppState>) -> Html {
    let Some((index, shown)) = state.reveal.current else { return html! {} };
    let Some(it) = state.run.iterations.get(index) else { return html! {} };
    let phases = Phase::of(it);
    let position = phases.iter().position(|&p| p == shown).map_or(1, |k| k + 1);
    let next = state.reveal.next_phase(&state.run.iterations);
    let following = state.reveal.next_iteration(&state.run.iterations).and_then(|n| state.run.iterations.get(n));
    let label = match (next, following) {
        (Some(p), _) => format!("Reveal: {} ▸", p.label()),
        (None, Some(n)) => format!("Next: iteration {} ▸", n.index),
        (None, None) if state.run.outcome.is_some() => "Reveal the verdict ▸".to_string(),
        (None, None) => "Done with this iteration ▸".to_string(),
    };
    let onclick = {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| state.dispatch(Action::RevealNext))
    };
    html! {
        <div class="reveal-bar" id="reveal-bar">
            <p class="reveal-status" id="reveal-status" role="status" aria-live="polite" data-phase={shown.key()}>
                { format!("Iteration {}: phase {} of {} shown, {}.", it.index, position, phases.len(), shown.label()) }
            </p>
            <ol class="reveal-phases" aria-label="Phases of this iteration">
                { for phases.iter().enumerate().map(|(k, &p)| html! {
                    <li class={classes!(if p <= shown { "phase-shown" } else { "phase-hidden" })}>{ format!("{}. {}", k + 1, p.label()) }</li>
                }) }
            </ol>
            <super::exercise::RevealQuestion />
            <button class="btn btn-small btn-primary" id="reveal-next" {onclick}>{ label }</button>
        </div>
    }
}
