//! The trace view of the selected iteration: the abstract counterexample step by step with the
//! values of the boolean variables in scope (clicking a step pins its C and boolean lines), the
//! feasibility table (WP condition threads as in BOOP Fig 7.3, or NEWTON's Ω/Φ/Π columns) with
//! the row where the contradiction appears marked, and for UNSAFE the concrete inputs and run
//! (or, for a feasible path whose run meets undefined behaviour, that run). Everything is in the
//! source's terms (`playground_api`'s name mapping): C statements, source names, pointers as
//! `&x`, each input with the call and line that read it, symbolic constants explained.

use super::{line_ref, on_activate, roving, tab_stop, use_app, Empty};
use crate::model::is_spurious;
use crate::reveal::Phase;
use crate::state::{Action, Focus};
use playground_api::{AbstractStep, FeasibilityRow, Verdict};
use yew::prelude::*;

/// The boolean variables of a trace in order of first appearance.
fn variables(steps: &[AbstractStep]) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    for step in steps {
        for (name, _) in &step.valuation {
            if !names.contains(&name.as_str()) {
                names.push(name);
            }
        }
    }
    names
}

fn value_of(step: &AbstractStep, name: &str) -> Option<bool> {
    step.valuation.iter().find(|(n, _)| n == name).map(|(_, v)| *v)
}

/// Column names of a feasibility table: `wp` threads in one column, `sp`'s Ω, Φ, Π apart.
fn columns(rows: &[FeasibilityRow]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for (name, _) in rows.iter().flat_map(|r| &r.columns) {
        if !names.contains(name) {
            names.push(name.clone());
        }
    }
    if names.is_empty() {
        names.push("wp".into());
    }
    names
}

#[function_component(TraceView)]
pub fn trace_view() -> Html {
    let state = use_app();
    let Some(it) = state.selected_iteration() else {
        return html! { <Empty><p>{ "Run, then pick an iteration in the timeline: its abstract counterexample and feasibility check appear here." }</p></Empty> };
    };
    // the program of the run, not the editor's (it may have changed since)
    let source_lines: Vec<&str> = state.run_source().lines().collect();
    let c_text = |line: Option<u32>| line.and_then(|l| source_lines.get((l as usize).checked_sub(1)?)).map(|s| s.trim().to_string());
    let names = variables(&it.abstract_trace);
    let selected_step = state.explain.trace_step;
    // a stepped iteration shown phase by phase (crate::reveal)
    let index = state.selected.unwrap_or_default();
    let shows = |phase: Phase| state.reveal.shows(index, phase);
    if !shows(Phase::Counterexample) {
        return html! { <Empty><p id="trace-hidden">{ format!("Iteration {}: its abstract counterexample is the next phase: reveal it in the Iterations pane.", it.index) }</p></Empty> };
    }

    let steps = it.abstract_trace.iter().enumerate().map(|(k, step)| {
        let select = {
            let state = state.clone();
            Callback::from(move |()| state.dispatch(Action::SelectTraceStep(k)))
        };
        let onclick = select.reform(|_: MouseEvent| ());
        let onkeydown = on_activate(select);
        let previous = k.checked_sub(1).and_then(|p| it.abstract_trace.get(p));
        html! {
            <tr class={classes!("step-row", (selected_step == Some(k)).then_some("selected"))} data-step={k.to_string()}
                tabindex={tab_stop(k, selected_step)} aria-selected={(selected_step == Some(k)).to_string()} {onclick} {onkeydown}>
                <td class="num">{ k + 1 }</td>
                <td>{ &step.procedure }</td>
                <td class="line-ref">{ line_ref(step.c_line) }</td>
                <td class="line-ref">{ step.bp_line.map(|l| format!("b{l}")).unwrap_or_default() }</td>
                <td>{ c_text(step.c_line).map(|c| html! { <code class="c-source step-c-source" title={c.clone()}>{ c }</code> }).unwrap_or_default() }</td>
                <td><code class="step-statement">{ &step.statement }</code>
                    if step.kind != "Normal" && !step.kind.is_empty() { <span class="step-kind">{ &step.kind }</span> }</td>
                { for names.iter().map(|name| {
                    let value = value_of(step, name);
                    let changed = value.is_some() && previous.is_some_and(|p| value_of(p, name).is_some_and(|v| Some(v) != value));
                    match value {
                        Some(v) => html! { <td class={classes!("bit", if v { "val-true" } else { "val-false" }, changed.then_some("changed"))}>{ if v { "T" } else { "F" } }</td> },
                        None => html! { <td class="bit out-of-scope" /> },
                    }
                }) }
            </tr>
        }
    });

    let table_columns = columns(&it.feasibility_table);
    let method_title = match it.feasibility_method.as_str() {
        "sp" => "strongest postconditions (NEWTON: values Ω, conditions Φ, past values Π)",
        _ => "weakest preconditions along the path (BOOP Fig 7.3), one entry per condition thread",
    };
    let feasibility_rows = it.feasibility_table.iter().enumerate().map(|(k, row)| {
        let select = {
            let state = state.clone();
            let line = row.c_line;
            Callback::from(move |()| state.dispatch(Action::Focus(Focus { c_line: line, bp_line: None })))
        };
        let onclick = select.reform(|_: MouseEvent| ());
        let onkeydown = on_activate(select);
        html! {
            <tr class={classes!("feasibility-row", row.contradiction.then_some("contradiction"))} data-step={k.to_string()}
                tabindex={tab_stop(k, None)} {onclick} {onkeydown}>
                <td class="num" title="path step">{ row.step }</td>
                <td class="line-ref">{ line_ref(row.c_line) }</td>
                <td><code class="c-source">{ c_text(row.c_line).unwrap_or_default() }</code></td>
                <td><code class="path-statement">{ &row.statement }</code></td>
                { for table_columns.iter().map(|name| html! {
                    <td class="conditions-cell">
                        { for row.columns.iter().filter(|(n, _)| n == name).map(|(_, c)| html! {
                            <code class={classes!("cond", (c.trim() == "false").then_some("cond-false"))}>{ c }</code>
                        }) }
                    </td>
                }) }
                <td class="mark">{ if row.contradiction { "⟂ contradiction" } else { "" } }</td>
            </tr>
        }
    });

    let last = state.selected == Some(state.run.iterations.len().saturating_sub(1));
    let focus_line = {
        let state = state.clone();
        Callback::from(move |line: u32| state.dispatch(Action::Focus(Focus { c_line: Some(line), bp_line: None })))
    };
    let shown_run = |o: &playground_api::Outcome| o.verdict == Verdict::Unsafe || o.runtime_error.is_some();
    let concrete = state.run.outcome.as_ref().filter(|o| last && shown_run(o) && !state.reveal.hides_verdict()).map(|o| {
        html! {
            <div class="concrete" id="concrete-run">
                if let Some(e) = &o.runtime_error {
                    <p class="runtime-error" id="runtime-error" role="note">
                        <strong>{ format!("Undefined behaviour at line {}:{}: ", e.line, e.column) }</strong>
                        <code class="c-source">{ &e.c_source }</code>{ format!(" — {}. ", e.message) }
                        { "The run below, with these inputs, reaches it: the error location is never reached, so the verdict stays UNKNOWN." }
                    </p>
                }
                <h4>{ "Concrete inputs" }</h4>
                if o.inputs.is_empty() {
                    <p class="hint">{ "The program reads no input." }</p>
                } else {
                    <ol class="inputs" id="concrete-inputs">{ super::input_items(o, &focus_line) }</ol>
                }
                <h4>{ format!("Concrete run ({} steps, replayed by the interpreter)", o.trace.len()) }</h4>
                <table class="trace-table concrete-table">
                    <thead><tr><th>{ "#" }</th><th>{ "C" }</th><th>{ "procedure" }</th><th>{ "C source" }</th><th>{ "executed" }</th><th>{ "values before" }</th></tr></thead>
                    <tbody onkeydown={roving("tr")}>
                        { for o.trace.iter().enumerate().map(|(k, s)| {
                            let line = s.line;
                            let select = {
                                let state = state.clone();
                                Callback::from(move |()| state.dispatch(Action::Focus(Focus { c_line: Some(line), bp_line: None })))
                            };
                            let onclick = select.reform(|_: MouseEvent| ());
                            let onkeydown = on_activate(select);
                            html! {
                                <tr class="concrete-row" tabindex={tab_stop(k, None)} {onclick} {onkeydown}>
                                    <td class="num">{ k + 1 }</td><td class="line-ref">{ format!("L{}", s.line) }</td><td>{ &s.procedure }</td>
                                    <td><code class="c-source">{ &s.c_source }</code></td>
                                    <td><code class="executed">{ &s.statement }</code></td>
                                    <td>{ for s.values.iter().map(|(n, v)| html! { <span class="val">{ format!("{n}={v}") }</span> }) }</td>
                                </tr>
                            }
                        }) }
                    </tbody>
                </table>
            </div>
        }
    });

    html! {
        <div class="trace-view">
            <div class="formula-line">
                <strong>{ format!("Iteration {}", it.index) }</strong>
                if it.abstract_trace.is_empty() {
                    <span class="hint">{ "no abstract counterexample: the boolean program is safe" }</span>
                } else {
                    <span>{ format!("abstract counterexample, {} steps", it.abstract_trace.len()) }</span>
                    <span class="hint" id="counterexample-search">{ it.counterexample_search.describe() }</span>
                    if !it.feasibility.is_empty() && shows(Phase::Feasibility) {
                        <span class={classes!("feasibility-word", if is_spurious(it) { "is-spurious" } else { "is-feasible" })} id="feasibility-verdict">
                            { if is_spurious(it) { format!("spurious: {}", it.feasibility) } else { it.feasibility.clone() } }
                        </span>
                    }
                }
            </div>
            if !it.abstract_trace.is_empty() {
                <div class="table-scroll trace-scroll">
                    <table class="trace-table" id="abstract-trace">
                        <thead><tr>
                            <th>{ "#" }</th><th>{ "procedure" }</th><th>{ "C" }</th><th>{ "bool" }</th><th>{ "C statement" }</th><th>{ "boolean statement" }</th>
                            { for names.iter().map(|n| html! { <th class="var-head" title={n.to_string()}><span>{ *n }</span></th> }) }
                        </tr></thead>
                        <tbody onkeydown={roving("tr")}>{ for steps }</tbody>
                    </table>
                </div>
            }
            if !shows(Phase::Feasibility) && Phase::Feasibility.present_in(it) {
                <p class="hint" id="feasibility-hidden">{ "Is this path feasible in the C program? The feasibility check is the next phase: reveal it in the Iterations pane." }</p>
            }
            if !it.feasibility_table.is_empty() && shows(Phase::Feasibility) {
                <h4>{ format!("Feasibility: {method_title}") }</h4>
                <div class="table-scroll">
                    <table class="trace-table feasibility-table" id="feasibility-table" data-method={it.feasibility_method.clone()}>
                        <thead><tr>
                            <th>{ "#" }</th><th>{ "C" }</th><th>{ "C source" }</th><th>{ "path statement" }</th>
                            { for table_columns.iter().map(|n| html! { <th>{ if n == "wp" { "WP conditions" } else { n.as_str() } }</th> }) }
                            <th />
                        </tr></thead>
                        <tbody onkeydown={roving("tr")}>{ for feasibility_rows }</tbody>
                    </table>
                </div>
            }
            if !it.symbolic_constants.is_empty() && shows(Phase::Feasibility) {
                <dl class="symbolic-constants" id="symbolic-constants">
                    { for it.symbolic_constants.iter().map(|c| html! {
                        <><dt><code>{ &c.name }</code></dt><dd>{ &c.meaning }</dd></>
                    }) }
                </dl>
            }
            if let Some(why) = playground_api::refinement::explain_refinement(it).filter(|_| shows(Phase::Predicates)) {
                <p class="refinement-why" id="refinement-why"><strong>{ "Why it is spurious: " }</strong>{ why.sentence() }</p>
            }
            if !it.new_predicates.is_empty() && shows(Phase::Predicates) {
                <p class="new-predicates">{ "New predicates: " }
                    { for it.new_predicates.iter().map(|p| html! { <code class="new-pred">{ p }</code> }) }</p>
            }
            { diff_view(&state.run.iterations, state.selected) }
            { for concrete }
        </div>
    }
}

/// The boolean program of the selected iteration against the one before it: what the new
/// predicates changed (unchanged runs shortened to two lines of context).
fn diff_view(iterations: &[playground_api::IterationSnapshot], selected: Option<usize>) -> Html {
    use playground_api::refinement::{iteration_diff, DiffLine};
    let Some(index) = selected else { return html! {} };
    let Some(diff) = iteration_diff(iterations, index, 2) else { return html! {} };
    let changed = diff.iter().filter(|l| matches!(l, DiffLine::Added(_) | DiffLine::Removed(_))).count();
    html! {
        <details class="bp-diff" id="bp-diff">
            <summary>{ format!("Boolean program: {} against iteration {}", crate::model::plural(changed, "changed line"), index) }</summary>
            <pre class="diff">
                { for diff.into_iter().map(|line| match line {
                    DiffLine::Same(t) => html! { <span class="diff-same">{ format!("  {t}\n") }</span> },
                    DiffLine::Added(t) => html! { <span class="diff-add">{ format!("+ {t}\n") }</span> },
                    DiffLine::Removed(t) => html! { <span class="diff-del">{ format!("- {t}\n") }</span> },
                    DiffLine::Skipped(n) => html! { <span class="diff-skip">{ format!("  … {}\n", crate::model::plural(n as usize, "unchanged line")) }</span> },
                }) }
            </pre>
        </details>
    }
}
