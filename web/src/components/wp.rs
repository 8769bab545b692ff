//! The WP view (C2BP §4.2–4.5): for an assignment, `WP(s, φ)` by Morris' general axiom before
//! alias analysis, the aliasing cases the points-to analysis keeps or prunes, and the simplified
//! precondition the strengthening works on; for a call, what `prm`, `ret` and `E_u` stand for.

use super::explain::StatementPicker;
use super::use_app;
use yew::prelude::*;

#[function_component(WpView)]
pub fn wp_view() -> Html {
    let state = use_app();
    let statement = state.explained_statement().cloned();
    let body = statement.map(|s| {
        let is_call = !s.call_notes.is_empty();
        html! {
            <div class="wp" id="wp-view">
                <div class="formula-line">
                    <span class="formula-name">{ "C" }</span><code id="wp-c-statement">{ &s.c_statement }</code>
                    <span class="formula-name">{ "boolean" }</span><code>{ &s.bp_statement }</code>
                </div>
                if is_call {
                    <h4>{ "Call abstraction (C2BP §4.5.3)" }</h4>
                    <ul class="call-notes" id="call-notes">
                        { for s.call_notes.iter().map(|n| html! { <li>{ n }</li> }) }
                    </ul>
                    <p class="hint">{ "prm: the callee's formal-parameter predicates evaluated at the call; ret: its return predicates; E_u: the caller's predicates the call may change, re-strengthened after it from the return predicates." }</p>
                }
                <table class="wp-table">
                    <thead><tr>
                        <th>{ "predicate φ" }</th><th>{ "WP(s, φ), Morris" }</th><th>{ "aliasing cases" }</th>
                        <th>{ "simplified" }</th><th>{ "new value" }</th>
                    </tr></thead>
                    <tbody>
                        { for s.predicates.iter().map(|p| html! {
                            <tr class="wp-row" data-predicate={p.predicate.clone()}>
                                <td><code>{ &p.predicate }</code></td>
                                <td><code class="wp-raw">{ &p.wp_raw }</code></td>
                                <td>
                                    if p.alias_cases.is_empty() {
                                        <span class="hint">{ if is_call { "—" } else { "no locations to alias" } }</span>
                                    } else {
                                        <ul class="alias-cases">{ for p.alias_cases.iter().map(|c| html! { <li>{ c }</li> }) }</ul>
                                    }
                                </td>
                                <td><code class="wp-simplified">{ &p.wp_simplified }</code></td>
                                <td><code class="wp-assigned">{ &p.assigned }</code></td>
                            </tr>
                        }) }
                    </tbody>
                </table>
            </div>
        }
    });
    html! {
        <div class="wp-view">
            <StatementPicker />
            { for body }
        </div>
    }
}
