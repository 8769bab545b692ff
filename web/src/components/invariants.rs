//! The invariants view: the reachable states at each program point the model checker reports
//! (procedure entries, labels, loop heads) as readable formulas over the predicates, each linked
//! to its line.

use super::{line_ref, on_activate, roving, tab_stop, use_app, Empty};
use crate::formula::readable;
use crate::state::{Action, Focus};
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
                                <td><code class="invariant-formula" title={inv.formula.clone()}>{ readable(&inv.formula) }</code></td>
                            </tr>
                        }
                    }) }
                </tbody>
            </table>
        </div>
    }
}
