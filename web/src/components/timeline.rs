//! The iteration timeline: one entry per CEGAR iteration (predicates, abstract counterexample,
//! feasibility with its WP/SP conditions, predicates added), step back/forward, and the verdict.

use super::{use_app, use_commands, verdict::VerdictPanel, Empty};
use crate::model::{count_predicates, IterationSnapshot};
use crate::state::{Action, Hover, RunStatus};
use yew::prelude::*;

fn summary(it: &IterationSnapshot) -> String {
    let trace = match (&it.feasibility, it.abstract_trace.is_empty()) {
        (_, true) => "no abstract counterexample".to_string(),
        (Some(f), false) => format!(
            "counterexample ({} steps) {} ({})",
            it.abstract_trace.len(),
            if f.feasible { "feasible" } else { "infeasible" },
            f.method
        ),
        (None, false) => format!("counterexample ({} steps)", it.abstract_trace.len()),
    };
    format!("{} predicates · {} · {} solver calls", count_predicates(&it.predicates), trace, it.solver_calls)
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
    let at_first = state.selected.is_none_or(|i| i == 0);
    let at_last = state.selected.is_none_or(|i| i + 1 >= its.len());

    let status_line = match &state.run.status {
        RunStatus::Failed(message) => Some(html! { <div class="run-error" id="run-error" role="alert">{ message }</div> }),
        RunStatus::Cancelled => Some(html! { <div class="run-cancelled" id="run-cancelled">{ "Cancelled. The engine was stopped and restarted." }</div> }),
        RunStatus::Running(p) => Some(html! {
            <div class="run-progress" id="run-progress">
                <span class="spinner" aria-hidden="true" />
                { format!("Iteration {} · {} · {} solver calls · {} ms", p.iteration, if p.phase.is_empty() { "starting" } else { &p.phase }, p.solver_calls, p.elapsed_ms) }
            </div>
        }),
        _ => None,
    };

    let details = state.selected_iteration().map(|it| {
        let trace = it.abstract_trace.iter().enumerate().map(|(k, s)| {
            let line = s.c_line;
            let onmouseenter = {
                let state = state.clone();
                Callback::from(move |_: MouseEvent| state.dispatch(Action::Hover(Hover::CLine(line))))
            };
            let values = s.values.iter().map(|(p, v)| {
                let class = match v.as_str() {
                    "T" | "true" => "val-true",
                    "F" | "false" => "val-false",
                    _ => "val-unknown",
                };
                html! { <span class={classes!("val", class)} title={p.clone()}>{ format!("{p}={v}") }</span> }
            });
            html! {
                <li class="trace-step" {onmouseenter}>
                    <span class="step-no">{ k + 1 }</span>
                    <span class="step-line">{ if s.c_line > 0 { format!("L{}", s.c_line) } else { String::new() } }</span>
                    <code class="step-text">{ &s.text }</code>
                    <span class="step-values">{ for values }</span>
                </li>
            }
        });
        html! {
            <div class="iteration-details" id="iteration-details">
                if !it.abstract_trace.is_empty() {
                    <h3>{ "Abstract counterexample" }</h3>
                    <ol class="trace">{ for trace }</ol>
                }
                if let Some(f) = &it.feasibility {
                    <h3>{ format!("Feasibility ({}): {}", f.method.to_uppercase(), if f.feasible { "feasible" } else { "infeasible" }) }</h3>
                    <ul class="conditions">
                        { for f.rows.iter().map(|row| {
                            let onmouseenter = row.c_line.map(|line| {
                                let state = state.clone();
                                Callback::from(move |_: MouseEvent| state.dispatch(Action::Hover(Hover::CLine(line))))
                            });
                            html! {
                                <li class={classes!("condition", row.contradiction.then_some("contradiction"))} {onmouseenter}>
                                    <span class="step-line">{ row.c_line.map(|l| format!("L{l}")).unwrap_or_default() }</span>
                                    <code class="cond-stmt">{ &row.statement }</code>
                                    <span class="cond-columns">
                                        { for row.columns.iter().map(|(name, cond)| html! {
                                            <span class="cond"><span class="cond-name">{ name }</span><code>{ cond }</code></span>
                                        }) }
                                    </span>
                                </li>
                            }
                        }) }
                    </ul>
                    if !f.explanation.is_empty() {
                        <p class="explanation">{ &f.explanation }</p>
                    }
                }
                if !it.new_predicates.is_empty() {
                    <h3>{ "New predicates" }</h3>
                    <ul class="new-preds">
                        { for it.new_predicates.iter().map(|p| html! { <li><code>{ format!("+ {p}") }</code></li> }) }
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
                <button class="btn btn-small" id="step-back" onclick={back} disabled={at_first} title="Previous iteration (Shift+F10)">{ "◀" }</button>
                <span class="chip" id="iteration-position">
                    { match state.selected { Some(i) => format!("{} / {}", i + 1, its.len()), None => format!("– / {}", its.len()) } }
                </span>
                <button class="btn btn-small" id="step-forward" onclick={forward} disabled={!its.is_empty() && at_last} title="Next iteration (F10)">{ "▶" }</button>
            </div>
            <div class="pane-body timeline-body">
                { for status_line }
                if its.is_empty() && !state.is_running() {
                    <Empty>
                        <p>{ "Run to see one entry per CEGAR iteration: predicates, the abstract counterexample, why it is (in)feasible, and the predicates refinement adds." }</p>
                        <p class="hint">{ "Ctrl+Enter runs, F10 steps." }</p>
                    </Empty>
                }
                <ol class="timeline" id="timeline">
                    { for its.iter().enumerate().map(|(i, it)| {
                        let onclick = {
                            let state = state.clone();
                            Callback::from(move |_: MouseEvent| state.dispatch(Action::Select(i)))
                        };
                        let added = it.new_predicates.len();
                        html! {
                            <li class={classes!("timeline-entry", (state.selected == Some(i)).then_some("selected"))}
                                data-iteration={it.index.to_string()} {onclick}>
                                <div class="entry-title">
                                    <span class="entry-index">{ format!("#{}", it.index) }</span>
                                    <span class="entry-summary">{ summary(it) }</span>
                                </div>
                                if added > 0 {
                                    <div class="entry-added">{ format!("+{added} predicate{}", if added == 1 { "" } else { "s" }) }</div>
                                }
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
