//! The boolean program of the selected iteration, each line tinted by the C line it came from;
//! hovering a line lights up its C partner and vice versa (Compiler Explorer style).

use super::{reveal, use_app, Empty};
use crate::highlight;
use crate::model::bool_lines;
use crate::state::{Action, Hover};
use yew::prelude::*;

/// Number of alternating partner colours (`.link-0` … in the stylesheet).
const LINK_COLOURS: u32 = 6;

#[function_component(BoolProgPane)]
pub fn bool_prog_pane() -> Html {
    let state = use_app();
    {
        let deps = (state.focus.bp_line, state.explain.tab.is_some());
        use_effect_with(deps, move |(line, _)| {
            if let Some(l) = line {
                reveal(".pane-bp .pane-body", &format!("#boolean-program .bp-line[data-bp-line=\"{l}\"]"));
            }
        });
    }
    let header = match state.selected_iteration() {
        Some(it) => format!("Boolean program · iteration {}", it.index),
        None => "Boolean program".into(),
    };
    let body = match state.selected_iteration() {
        None => html! {
            <Empty>
                <p>{ "The boolean program of the selected iteration appears here after Run." }</p>
                <p class="hint">{ "Each line is linked to the C statement it abstracts: hover either side." }</p>
            </Empty>
        },
        Some(it) => {
            let on_trace: Vec<u32> = it.abstract_trace.iter().filter_map(|s| s.bp_line).collect();
            // lines with an explanation (Abstract mode): clicking them opens the explain views
            let explained: Vec<u32> =
                it.explanation.iter().flat_map(|e| e.statements.iter().filter_map(|s| s.bp_line)).collect();
            let on_leave = {
                let state = state.clone();
                Callback::from(move |_: MouseEvent| state.dispatch(Action::Hover(Hover::None)))
            };
            html! {
                <pre class="bp-code" id="boolean-program" onmouseleave={on_leave}>
                    { for bool_lines(&it.boolean_program).into_iter().enumerate().map(|(i, line)| {
                        let range = line.c_lines;
                        let number = i as u32 + 1;
                        let onmouseenter = {
                            let state = state.clone();
                            Callback::from(move |_: MouseEvent| state.dispatch(Action::Hover(Hover::BoolLine(i, range))))
                        };
                        let onclick = {
                            let state = state.clone();
                            Callback::from(move |_: MouseEvent| state.dispatch(Action::SelectBoolLine(number)))
                        };
                        let class = classes!(
                            "bp-line",
                            range.map(|r| format!("linked link-{}", r.first % LINK_COLOURS)),
                            state.bool_line_highlighted(i, range).then_some("lit"),
                            on_trace.contains(&number).then_some("on-trace"),
                            (state.focus.bp_line == Some(number)).then_some("focused"),
                            explained.contains(&number).then_some("explained"),
                        );
                        let c_ref = range.map(|r| if r.first == r.last { r.first.to_string() } else { format!("{}–{}", r.first, r.last) });
                        html! {
                            <div {class} data-c-line={range.map(|r| r.first.to_string())} data-bp-line={number.to_string()} {onmouseenter} {onclick}>
                                <span class="bp-cref" title="C line">{ c_ref.unwrap_or_default() }</span>
                                <span class="bp-text">
                                    { for highlight::lines(line.text).into_iter().flatten().map(|(c, t)| html! { <span class={c.css()}>{ t }</span> }) }
                                </span>
                            </div>
                        }
                    }) }
                </pre>
            }
        }
    };
    html! {
        <>
            <div class="pane-header"><h2>{ header }</h2></div>
            <div class="pane-body">{ body }</div>
        </>
    }
}
