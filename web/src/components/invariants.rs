//! The invariants view: the reachable states at each program point the model checker reports
//! (procedure entries, labels, loop heads) as readable formulas over the predicates, each linked
//! to its line. Below them, C2BP §2.2's question: does the invariant at a C label imply a C
//! expression (`L: prev != curr` on partition)? Answered in the worker by `playground_api::query`
//! (the engine function of `predabs abstract --query`), with the solver query shown.

use super::{line_ref, on_activate, roving, tab_stop, use_app, Empty};
use crate::formula::readable;
use crate::state::{Action, Focus};
use playground_api::query::{QueryAnswer, QueryVerdict};
use yew::prelude::*;

#[function_component(InvariantsView)]
pub fn invariants_view() -> Html {
    let state = use_app();
    let Some(outcome) = state.run.outcome.as_ref() else {
        return html! { <Empty><p>{ "Invariants appear when a run finishes." }</p></Empty> };
    };
    if outcome.invariants.is_empty() {
        let why = if outcome.verdict == playground_api::Verdict::Safe && !outcome.reason.is_empty() {
            format!("No invariants: the verdict rests on this instead: {}.", outcome.reason)
        } else {
            format!("No invariants: the verdict is {}.", outcome.verdict.as_str())
        };
        return html! { <Empty><p>{ why }</p></Empty> };
    }
    let focused = state.focus.c_line;
    let hint = match outcome.invariant_source.as_str() {
        "single_execution" => "The states the program's only execution passes through at each point (it reads no input): a SAFE verdict is proved by running it.",
        "difference_bounds" => "Bounds on the variables and on differences of two variables at each point, from the difference-bound analysis (an abstract interpretation over machine integers): no state they allow reaches the error.",
        "heap_values" => "Values of the variables and of the fields read through pointers at each point, from the allocation-site value analysis (every heap cell is the newest or second-newest of its allocation site, or in a summary of the older ones): no state they allow reaches the error.",
        _ => "The states the boolean program can be in at each point, over the predicates: a SAFE verdict is proved by these facts.",
    };
    html! {
        <div class="invariants-view">
            <p class="hint">{ hint }</p>
            if outcome.invariant_source.is_empty() || outcome.invariant_source == "boolean_program" {
                <QueryForm />
            }
            <super::exercise::HoldsQuestion />
            <table class="trace-table invariants-table" id="invariants-table">
                <thead><tr><th>{ "procedure" }</th><th>{ "where" }</th><th>{ "line" }</th><th>{ "reachable states" }</th></tr></thead>
                <tbody onkeydown={roving("tr")}>
                    { for outcome.invariants.iter().enumerate().map(|(k, inv)| {
                        let line = inv.c_line;
                        let select = {
                            let state = state.clone();
                            Callback::from(move |()| state.dispatch(Action::Focus(Focus { c_line: line, bp_line: None })))
                        };
                        let onclick = select.reform(|_: MouseEvent| ());
                        let onkeydown = on_activate(select);
                        html! {
                            <tr class={classes!("invariant-row", (line.is_some() && focused == line).then_some("selected"))}
                                data-line={line.map(|l| l.to_string())} tabindex={tab_stop(k, None)} {onclick} {onkeydown}>
                                <td>{ &inv.procedure }</td>
                                <td>{ &inv.location }</td>
                                <td class="line-ref">{ line_ref(line) }</td>
                                if crate::exercise::hides_invariant(&state, &inv.location) {
                                    <td class="invariant-hidden">{ "hidden until you answer the question above" }</td>
                                } else {
                                    <td><code class="invariant-formula" title={inv.formula.clone()}>{ readable(&inv.formula) }</code></td>
                                }
                            </tr>
                        }
                    }) }
                </tbody>
            </table>
        </div>
    }
}

/// The `LABEL: EXPR` field and its answer. The question is asked of the shown run's program
/// abstracted with the run's predicates ([`crate::state::AppState::question_predicates`]:
/// Abstract mode: the run's own, not the editor's; Check mode: the run's final predicates).
/// While Predict asks "which of these hold at L?", this field does not answer about L (it
/// would give the answer away) and hides the invariant at L of an earlier answer.
#[function_component(QueryForm)]
fn query_form() -> Html {
    let state = use_app();
    let text = use_state(String::new);
    // a label whose Predict question is open, named by the last question typed
    let refused = use_state(|| None::<String>);
    let oninput = {
        let text = text.clone();
        Callback::from(move |e: InputEvent| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            text.set(input.value());
        })
    };
    let onsubmit = {
        let (state, text, refused) = (state.clone(), text.clone(), refused.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let question = text.trim().to_string();
            if question.is_empty() {
                return;
            }
            let label = question.split_once(':').map(|(l, _)| l.trim().to_string()).unwrap_or_default();
            if crate::exercise::hides_invariant(&state, &format!("at {label}")) {
                refused.set(Some(label));
                return;
            }
            refused.set(None);
            state.dispatch(Action::AskQuery { question, predicates: state.question_predicates() });
        })
    };
    let asking = state.run.query.is_some() && state.run.query_answer.is_none();
    // an answer about a label whose question is open shows no invariant (asked before Predict)
    let answer = state.run.query_answer.as_deref().filter(|a| !crate::exercise::hides_invariant(&state, &format!("at {}", a.label)));
    let refused = (*refused).clone().filter(|l| crate::exercise::hides_invariant(&state, &format!("at {l}")));
    html! {
        <form class="invariant-query" id="invariant-query-form" {onsubmit}>
            <label for="invariant-query">{ "Does the invariant at a label imply an expression? (C2BP §2.2)" }</label>
            <div class="invariant-query-row">
                <input id="invariant-query" type="text" size="40" spellcheck="false" value={(*text).clone()} {oninput}
                    placeholder="LABEL: EXPR, e.g. L: prev != curr" aria-describedby="query-answer" />
                <button class="btn btn-small" id="invariant-query-ask" type="submit">{ "Ask" }</button>
            </div>
            <div id="query-answer" aria-live="polite">
                if let Some(label) = refused {
                    <p class="query-refused" id="query-refused">{ format!("Answer the Predict question about {label} below first: the engine's answer here would show the invariant at {label}.") }</p>
                } else if let Some(a) = answer {
                    { answer_view(a) }
                } else if asking {
                    <p class="hint">{ "Asking the engine…" }</p>
                }
            </div>
        </form>
    }
}

fn answer_view(a: &QueryAnswer) -> Html {
    let verdict = match a.verdict {
        QueryVerdict::Holds => "holds",
        QueryVerdict::DoesNotHold => "does_not_hold",
        QueryVerdict::Unknown => "unknown",
        QueryVerdict::Error => "error",
    };
    html! {
        <div class="query-answer" data-verdict={verdict}>
            if a.verdict == QueryVerdict::Error {
                <p><strong class="query-verdict">{ "Cannot ask: " }</strong><code class="query-reason">{ &a.reason }</code></p>
            } else {
                <p><code>{ format!("{}: {}", a.label, a.expression) }</code>{ " " }<strong class="query-verdict">{ a.verdict.as_str() }</strong>
                    if !a.reason.is_empty() { { format!(" ({})", a.reason) } }</p>
                if !a.invariant.is_empty() {
                    <p class="hint">{ format!("invariant at {}: ", a.label) }<code class="query-invariant">{ readable(&a.invariant) }</code></p>
                }
                if !a.solver_query.is_empty() {
                    <p class="hint">{ format!("solver query ({} integers): valid? ", a.integers) }<code class="query-solver">{ &a.solver_query }</code></p>
                }
            }
        </div>
    }
}
