//! The source editor: a transparent textarea over a syntax-coloured copy of its text, with a
//! line-number gutter carrying diagnostics, trace and partner-line highlights.
//!
//! The textarea never scrolls itself: it is as tall and wide as its text (the coloured `pre`
//! below sizes the box) and the surrounding `.editor-scroll` scrolls both together, so gutter,
//! colours and caret stay aligned without scroll syncing.

use super::{reveal, use_app};
use crate::highlight;
use crate::model::RunKind;
use playground_api::{DiagnosticData, Severity, Verdict};
use crate::state::{Action, Hover};
use std::collections::BTreeMap;
use yew::prelude::*;

/// The 1-based line under the pointer, from the rendered lines' own geometry (so it follows
/// the font size setting).
fn line_at(client_y: f64) -> Option<i64> {
    let document = web_sys::window()?.document()?;
    let first = document.query_selector(".code-colours .code-line").ok()??.get_bounding_client_rect();
    (first.height() > 0.0).then(|| ((client_y - first.top()) / first.height()).floor() as i64 + 1)
}

#[function_component(Editor)]
pub fn editor() -> Html {
    let state = use_app();
    {
        // reveal the pinned line, again when the explain panel opens and shrinks the pane
        let deps = (state.focus.c_line, state.explain.tab.is_some());
        use_effect_with(deps, move |(line, _)| {
            if let Some(l) = line {
                reveal(".editor-scroll", &format!(".code-line[data-line=\"{l}\"]"));
            }
        });
    }
    let bp_mode = state.session.mode == RunKind::ModelCheck;
    let text = if bp_mode { state.session.boolean_program.clone() } else { state.session.source.clone() };
    let lines = highlight::lines(&text);
    let line_count = lines.len() as u32;

    // Diagnostics per line (first one wins the gutter marker, all go into the tooltip).
    // (only those about this text: a boolean program's errors never land on C lines)
    let diagnostics = state.run.diagnostics_for(state.session.mode);
    let mut diags: BTreeMap<u32, Vec<&DiagnosticData>> = BTreeMap::new();
    for d in diagnostics.iter().filter(|d| d.origin != "predicates") {
        diags.entry(d.line.clamp(1, line_count.max(1))).or_default().push(d);
    }
    let last_selected = state.selected == Some(state.run.iterations.len().saturating_sub(1));
    let trace_lines: Vec<u32> = match (&state.run.outcome, state.selected_iteration()) {
        (Some(o), _) if o.verdict == Verdict::Unsafe && last_selected && !state.reveal.hides_verdict() => {
            o.trace.iter().map(|s| s.line).filter(|&l| l > 0).collect()
        }
        // a stepped iteration's counterexample is marked once its phase is shown
        (_, Some(it)) if state.selected.is_some_and(|i| state.reveal.shows(i, crate::reveal::Phase::Counterexample)) => {
            it.abstract_trace.iter().filter_map(|s| s.c_line).collect()
        }
        _ => Vec::new(),
    };
    let lit = state.highlighted_c_lines();
    let focused = state.focus.c_line;

    let on_input = {
        let state = state.clone();
        Callback::from(move |e: InputEvent| {
            let area: web_sys::HtmlTextAreaElement = e.target_unchecked_into();
            state.dispatch(Action::SetSource(area.value()));
        })
    };
    let on_move = {
        let state = state.clone();
        Callback::from(move |e: MouseEvent| {
            let line = line_at(e.client_y() as f64).unwrap_or(0);
            let hover = if line >= 1 && line <= line_count as i64 { Hover::CLine(line as u32) } else { Hover::None };
            if state.hover != hover {
                state.dispatch(Action::Hover(hover));
            }
        })
    };
    let on_leave = {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| {
            if state.hover != Hover::None {
                state.dispatch(Action::Hover(Hover::None));
            }
        })
    };

    let line_class = |n: u32| {
        let severity = diags.get(&n).and_then(|ds| ds.iter().map(|d| d.severity).min_by_key(|s| *s as u8));
        classes!(
            match severity {
                Some(Severity::Error) => Some("diag-error"),
                Some(Severity::Warning) => Some("diag-warning"),
                Some(Severity::Note) => Some("diag-note"),
                None => None,
            },
            trace_lines.contains(&n).then_some("on-trace"),
            lit.is_some_and(|r| r.contains(n)).then_some("lit"),
            (focused == Some(n)).then_some("focused"),
        )
    };
    let width_ch = lines.iter().map(|l| l.iter().map(|(_, t)| t.chars().count()).sum::<usize>()).max().unwrap_or(0) + 2;
    let title = if bp_mode { "Boolean program" } else { "C program" };
    let errors = diagnostics.iter().filter(|d| d.severity == Severity::Error).count();
    let readonly = state.embed;

    html! {
        <>
        <div class="pane-header">
            <h2>{ title }</h2>
            if let Some(id) = state.session.example.as_deref() {
                <span class="chip" id="example-chip">{ id }</span>
            }
            <span class="spacer" />
            if !diagnostics.is_empty() {
                <span class={classes!("chip", (errors > 0).then_some("chip-error"))} id="diag-count">
                    { crate::model::plural(diagnostics.len(), "diagnostic") }
                </span>
            }
        </div>
        <div class="editor-scroll">
            <div class="editor" style={format!("--code-width: {width_ch}ch")}>
                <div class="gutter" aria-hidden="true">
                    { for (1..=line_count).map(|n| {
                        let tip: Option<AttrValue> = diags.get(&n).map(|ds| ds.iter()
                            .map(|d| format!("{}:{}: {}", d.line, d.column, d.message)).collect::<Vec<_>>().join("\n").into());
                        html! { <div class={classes!("gutter-line", line_class(n))} data-line={n.to_string()} title={tip}>{ n }</div> }
                    }) }
                </div>
                <div class="code">
                    <pre class="code-colours" aria-hidden="true">
                        { for lines.iter().enumerate().map(|(i, toks)| {
                            let n = i as u32 + 1;
                            html! {
                                <div class={classes!("code-line", line_class(n))} data-line={n.to_string()}>
                                    { for toks.iter().map(|(class, t)| html! { <span class={class.css()}>{ *t }</span> }) }
                                    if let Some(ds) = diags.get(&n) {
                                        { for ds.iter().filter(|d| d.line == n).map(|d| {
                                            let len = if d.end_line == d.line && d.end_column > d.column { d.end_column - d.column } else { 1 };
                                            html! { <span class="squiggle" style={format!("left: {}ch; width: {}ch", d.column.saturating_sub(1), len)} /> }
                                        }) }
                                    }
                                    { "\u{200b}" }
                                </div>
                            }
                        }) }
                    </pre>
                    <textarea id="source" class="code-input" spellcheck="false" wrap="off" autocapitalize="off"
                        autocomplete="off" aria-label={title} value={text} {readonly}
                        oninput={on_input} onmousemove={on_move} onmouseleave={on_leave} />
                </div>
            </div>
        </div>
        if !diagnostics.is_empty() {
            <ul class="diagnostics" id="diagnostics" aria-label="Diagnostics">
                { for diagnostics.iter().map(|d| {
                    let state = state.clone();
                    let line = d.line;
                    let onmouseenter = Callback::from(move |_| state.dispatch(Action::Hover(Hover::CLine(line))));
                    html! {
                        <li class={classes!("diagnostic", format!("sev-{:?}", d.severity).to_lowercase())} {onmouseenter}>
                            <span class="diag-pos">{ format!("{}{}:{}", if d.origin == "predicates" { "predicates " } else { "" }, d.line, d.column) }</span>
                            <span class="diag-sev">{ format!("{:?}", d.severity).to_lowercase() }</span>
                            <span class="diag-msg">{ &d.message }</span>
                            if let Some(help) = &d.help { <span class="diag-help">{ help }</span> }
                        </li>
                    }
                }) }
            </ul>
        }
        </>
    }
}
