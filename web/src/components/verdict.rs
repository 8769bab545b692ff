//! The final verdict: SAFE with invariants, UNSAFE with the concrete inputs and C trace, or
//! UNKNOWN with the reason. The invariants and trace views show the same data in full.

use super::use_app;
use crate::state::{Action, ExplainTab, Focus, Hover};
use playground_api::Verdict;
use yew::prelude::*;

#[function_component(VerdictPanel)]
pub fn verdict_panel() -> Html {
    let state = use_app();
    let Some(outcome) = state.run.outcome.clone() else { return html! {} };
    // a stepped iteration shown phase by phase: the verdict waits for its last phase
    if state.reveal.hides_verdict() {
        return html! {};
    }
    let hover_line = |line: u32| {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| state.dispatch(Action::Hover(Hover::CLine(line))))
    };
    let open = |tab: ExplainTab| {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| state.dispatch(Action::OpenTab(tab)))
    };
    let export_report = {
        let state = state.clone();
        let outcome = outcome.clone();
        Callback::from(move |_: MouseEvent| {
            let s = &state.session;
            let request = crate::engine::api_request(&crate::model::RunRequest {
                kind: s.mode,
                source: if s.mode == crate::model::RunKind::ModelCheck { s.boolean_program.clone() } else { s.source.clone() },
                predicates: s.predicates.clone(),
                options: s.options.clone(),
            });
            let mut outcome = (*outcome).clone();
            // The iterations as the timeline shows them (streamed; kept after a Cancel).
            outcome.iterations = state.run.iterations.clone();
            super::app::download("predabs-report.html", &playground_api::report::report_html(&request, &outcome));
        })
    };
    let focus_line = {
        let state = state.clone();
        Callback::from(move |line: u32| state.dispatch(Action::Focus(Focus { c_line: Some(line), bp_line: None })))
    };
    let body = match outcome.verdict {
        Verdict::Safe => html! {
            <>
                <p>{ if outcome.reason.is_empty() { "The error location is unreachable.".to_string() } else { outcome.reason.clone() } }</p>
                if !outcome.invariants.is_empty() {
                    <p><button class="btn btn-small" onclick={open(ExplainTab::Invariants)}>
                        { format!("{} ▸", crate::model::plural(outcome.invariants.len(), "invariant")) }
                    </button></p>
                }
            </>
        },
        Verdict::Unsafe => html! {
            <>
                <p>{ "A feasible path reaches the error location." }</p>
                if !outcome.reason.is_empty() {
                    <p class="reason">{ format!("How it was found: {}", outcome.reason) }</p>
                }
                if !outcome.inputs.is_empty() {
                    <h3>{ "Concrete inputs" }</h3>
                    <ul class="inputs">
                        { super::input_items(&outcome, &focus_line) }
                    </ul>
                }
                if !outcome.trace.is_empty() {
                    <h3>{ "Trace" }</h3>
                    <ol class="trace">
                        { for outcome.trace.iter().map(|s| html! {
                            <li class="trace-step" onmouseenter={hover_line(s.line)}>
                                <span class="step-line">{ format!("L{}", s.line) }</span>
                                <code class="step-text" title={if s.c_source.is_empty() { String::new() } else { format!("C: {}", s.c_source) }}>{ &s.statement }</code>
                                if !s.values.is_empty() {
                                    <span class="step-values">
                                        { for s.values.iter().map(|(name, v)| html! {
                                            <span class="val">{ format!("{name}={v}") }</span>
                                        }) }
                                    </span>
                                }
                            </li>
                        }) }
                    </ol>
                }
            </>
        },
        Verdict::Unknown => {
            let errors: Vec<_> = state.run.diagnostics.iter().filter(|d| d.severity == playground_api::Severity::Error).collect();
            html! {
                <>
                    <p>{ &outcome.reason }</p>
                    if let Some(e) = &outcome.runtime_error {
                        <p class="runtime-error" id="verdict-runtime-error">
                            <button class="link-button" onclick={focus_line.reform({ let line = e.line; move |_: MouseEvent| line })}>
                                { format!("line {}:{}", e.line, e.column) }</button>
                            { ": " }<code class="c-source">{ &e.c_source }</code>{ format!(" — {}", e.message) }
                        </p>
                        if !outcome.inputs.is_empty() {
                            <h3>{ "Inputs that reach it" }</h3>
                            <ul class="inputs">{ super::input_items(&outcome, &focus_line) }</ul>
                        }
                        <p><button class="btn btn-small" onclick={open(ExplainTab::Trace)}>{ "The run in the trace view ▸" }</button></p>
                    }
                    if !errors.is_empty() {
                        <ul class="verdict-errors" id="verdict-errors">
                            { for errors.iter().take(5).map(|d| html! {
                                <li>{ format!("{}line {}, column {}: {}", if d.origin == "predicates" { "predicates, " } else { "" }, d.line, d.column, d.message) }</li>
                            }) }
                            if errors.len() > 5 { <li>{ format!("… and {} more", errors.len() - 5) }</li> }
                        </ul>
                    }
                </>
            }
        }
    };
    html! {
        <div class={classes!("verdict", format!("verdict-{}", outcome.verdict.as_str().to_lowercase()))} id="verdict">
            <div class="verdict-label">{ outcome.verdict.as_str() }</div>
            if let Some(t) = outcome.decided_by {
                <p class="decided-by" id="decided-by">{ format!("Decided by: {}", crate::model::technique_label(t)) }</p>
            }
            { body }
            if outcome.verdict == Verdict::Unknown && !outcome.next_step.is_empty() {
                <p class="next-step" id="next-step">{ format!("What to try next: {}", outcome.next_step) }</p>
            }
            <p><button class="btn btn-small" id="export-report" onclick={export_report}
                title="One self-contained HTML file: program, settings, every iteration, invariants, trace and verdict">
                { "Export report ⤓" }</button></p>
        </div>
    }
}
