//! The pushdown view (BOOP ch. 6): in Boolean program mode, the current program as a pushdown
//! system (Fig 6.1: control locations are the globals' valuations, stack symbols are pairs of a
//! program point and the locals' valuation, one rule family per flow-graph edge) and the
//! automaton post* saturates, as the reachable heads `⟨g, (n, l)⟩` per program point. Each
//! point links to its line of the boolean program.

use super::{line_ref, on_activate, roving, tab_stop, use_app, Empty};
use crate::state::{Action, Focus};
use yew::prelude::*;

#[function_component(PdsView)]
pub fn pds_view() -> Html {
    let state = use_app();
    let Some(view) = state.selected_iteration().and_then(|it| it.pushdown.as_ref()) else {
        return html! {
            <Empty>
                <p>{ "The pushdown view shows a boolean program as a pushdown system (BOOP ch. 6) and its post* result. Switch to Boolean program mode, pick an example such as recursion parity, then Run." }</p>
            </Empty>
        };
    };
    let focused = state.focus.bp_line.or(state.focus.c_line);
    html! {
        <div class="pds-view" id="pds-view">
            if !view.note.is_empty() {
                <p class="hint" id="pds-note">{ &view.note }</p>
            }
            <p class="hint">{ "Rules ⟨g, (n, l)⟩ ↪ …: g is the valuation of the globals, n a program point, l the valuation of the procedure's locals; primed names are the values after the rule. post* saturates an automaton that accepts every reachable configuration: below, the heads it reaches at each point." }</p>
            <h3 class="settings-section">{ "Pushdown system (Fig 6.1)" }</h3>
            <pre class="pds-rules" id="pds-rules" tabindex="0">{ &view.rules }</pre>
            <h3 class="settings-section">{ "post*: reachable heads per point" }</h3>
            <table class="trace-table pds-table" id="pds-heads">
                <thead><tr><th>{ "point" }</th><th>{ "procedure" }</th><th>{ "line" }</th><th>{ "reachable ⟨g, l⟩" }</th></tr></thead>
                <tbody onkeydown={roving("tr")}>
                    { for view.points.iter().enumerate().map(|(k, p)| {
                        let line = p.line;
                        let select = {
                            let state = state.clone();
                            Callback::from(move |()| state.dispatch(Action::Focus(Focus { c_line: line, bp_line: line })))
                        };
                        let onclick = select.reform(|_: MouseEvent| ());
                        let onkeydown = on_activate(select);
                        html! {
                            <tr class={classes!("pds-point", (line.is_some() && focused == line).then_some("selected"))}
                                data-line={line.map(|l| l.to_string())} tabindex={tab_stop(k, None)} {onclick} {onkeydown}>
                                <td><code>{ &p.name }</code></td>
                                <td>{ &p.procedure }</td>
                                <td class="line-ref">{ line_ref(line) }</td>
                                <td><code class="pds-heads">{ &p.heads }</code></td>
                            </tr>
                        }
                    }) }
                </tbody>
            </table>
        </div>
    }
}
