//! The final verdict: SAFE with invariants, UNSAFE with the C trace and concrete inputs, or
//! UNKNOWN with the reason.

use super::use_app;
use crate::model::Verdict;
use crate::state::{Action, Hover};
use yew::prelude::*;

#[function_component(VerdictPanel)]
pub fn verdict_panel() -> Html {
    let state = use_app();
    let Some(verdict) = state.run.verdict.clone() else { return html! {} };
    let hover_line = |line: u32| {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| state.dispatch(Action::Hover(Hover::CLine(line))))
    };
    let body = match &verdict {
        Verdict::Safe { invariants } => html! {
            <>
                <p>{ "The error location is unreachable." }</p>
                if !invariants.is_empty() {
                    <h3>{ "Invariants" }</h3>
                    <ul class="invariants">
                        { for invariants.iter().map(|(line, inv)| html! {
                            <li onmouseenter={line.map(hover_line)}>
                                <span class="step-line">{ line.map(|l| format!("L{l}")).unwrap_or_default() }</span><code>{ inv }</code>
                            </li>
                        }) }
                    </ul>
                }
            </>
        },
        Verdict::Unsafe { trace, inputs } => html! {
            <>
                <p>{ "A feasible path reaches the error location." }</p>
                if !inputs.is_empty() {
                    <h3>{ "Concrete inputs" }</h3>
                    <ul class="inputs">
                        { for inputs.iter().map(|input| html! { <li><code>{ input }</code></li> }) }
                    </ul>
                }
                <h3>{ "Trace" }</h3>
                <ol class="trace">
                    { for trace.iter().map(|s| html! {
                        <li class="trace-step" onmouseenter={hover_line(s.c_line)}>
                            <span class="step-line">{ format!("L{}", s.c_line) }</span><code class="step-text">{ &s.text }</code>
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
            </>
        },
        Verdict::Unknown { reason } => html! { <p>{ reason }</p> },
    };
    html! {
        <div class={classes!("verdict", format!("verdict-{}", verdict.label().to_lowercase()))} id="verdict">
            <div class="verdict-label">{ verdict.label() }</div>
            { body }
        </div>
    }
}
