//! The Hide mode (abC variable hiding, seed 003): the abstraction file editor, one inference
//! step at a time or to closure, the log with its `iteration K` headers (rows select their
//! source line, a variable shows `why(v)` and, for a pointer, what it may point to), the
//! warnings linked to their lines, the transformed program with `NONDET` marked and its lines
//! linked to the source, and the verdicts of the original and the hidden program.
//!
//! The engine is stateless: Step asks for one more step than shown, Back for one fewer. Every
//! text comes from `playground_api::hide` data and is rendered as text, never as HTML.

use super::{use_app, use_commands, Empty};
use crate::state::{Action, Focus};
use playground_api::hide::{HideCheck, HideResult, HideSettings, HideVarRef, HideVariable, ReplayKind};
use playground_api::Verdict;
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Tab {
    Log,
    Transformed,
    Text,
}

/// Changes the settings, then runs once the new state is rendered (the run command reads it).
fn rerun(state: &UseReducerHandle<crate::state::AppState>, want_run: &Rc<RefCell<bool>>, settings: HideSettings) -> Callback<MouseEvent> {
    let (state, want_run) = (state.clone(), want_run.clone());
    Callback::from(move |_| {
        *want_run.borrow_mut() = true;
        state.dispatch(Action::SetHide(settings.clone()));
    })
}

fn focus_line(state: &UseReducerHandle<crate::state::AppState>, line: u32) -> Callback<MouseEvent> {
    let state = state.clone();
    Callback::from(move |_| state.dispatch(Action::Focus(Focus { c_line: Some(line), bp_line: None })))
}

fn pick(selected: &UseStateHandle<Option<u32>>, id: u32) -> Callback<MouseEvent> {
    let selected = selected.clone();
    Callback::from(move |_| selected.set(Some(id)))
}

fn verdict_class(v: Verdict) -> String {
    format!("verdict-{}", v.as_str().to_lowercase())
}

#[function_component(HidePanes)]
pub fn hide_panes() -> Html {
    let state = use_app();
    let cmds = use_commands();
    let want_run = use_mut_ref(|| false);
    {
        let (want_run, run) = (want_run.clone(), cmds.run.clone());
        use_effect(move || {
            if std::mem::take(&mut *want_run.borrow_mut()) {
                run.emit(());
            }
        });
    }
    let tab = use_state(|| Tab::Log);
    let why = use_state(|| None::<u32>);
    let settings = state.session.hide.clone();
    let result = state.run.hide.as_deref();
    let running = state.is_running();
    let shown = result.map_or(0, |r| r.steps.len() as u32);
    let closed = result.is_some_and(|r| r.closed);
    let with_steps = |steps: Option<u32>| HideSettings { steps, ..settings.clone() };
    let on_abstraction = {
        let (state, settings) = (state.clone(), settings.clone());
        Callback::from(move |e: InputEvent| {
            let area: web_sys::HtmlTextAreaElement = e.target_unchecked_into();
            state.dispatch(Action::SetHide(HideSettings { abstraction: area.value(), ..settings.clone() }));
        })
    };
    let toggle = |f: fn(&mut HideSettings)| {
        let (state, settings) = (state.clone(), settings.clone());
        Callback::from(move |_: Event| {
            let mut s = settings.clone();
            f(&mut s);
            state.dispatch(Action::SetHide(s));
        })
    };
    let tab_button = |t: Tab, id: &'static str, label: &'static str| {
        let tab_state = tab.clone();
        html! {
            <button class={classes!("tab", (*tab == t).then_some("tab-open"))} id={id} role="tab"
                aria-selected={(*tab == t).to_string()} onclick={Callback::from(move |_| tab_state.set(t))}>{ label }</button>
        }
    };
    let status = match result {
        Some(r) if r.parsed => format!(
            "{} · {}/{} variables, {}/{} bits hidden",
            if r.closed { format!("closed after {}", crate::model::plural(r.steps.len(), "step")) } else { format!("step {}", r.steps.len()) },
            r.size.hidden_variables,
            r.size.variables,
            r.size.hidden_bits,
            r.size.bits
        ),
        Some(_) => "the C program does not parse".into(),
        None => "not run yet".into(),
    };

    let body = match (result, *tab) {
        (None, _) => html! { <Empty><p>{ "Press Step to apply the rules once, or To closure." }</p></Empty> },
        (Some(r), _) if !r.parsed => html! { <Empty><p>{ "Fix the C program's errors (left) first." }</p></Empty> },
        (Some(r), Tab::Log) => log_view(&state, r, &why),
        (Some(r), Tab::Transformed) => transformed_view(&state, r),
        (Some(r), Tab::Text) => html! {
            <div class="hide-text">
                <h3>{ "Log (the paper's format)" }</h3>
                <pre id="hide-log-text" tabindex="0">{ &r.log_text }</pre>
                <h3>{ "New abstraction file" }</h3>
                <pre id="hide-abs-out" tabindex="0">{ &r.abstraction_file }</pre>
            </div>
        },
    };

    html! {
        <>
        <section class="pane pane-bp" aria-label="Hiding">
            <div class="pane-header">
                <h2>{ "Hide (abC)" }</h2>
                <span class="chip" id="hide-status">{ status }</span>
            </div>
            <div class="hide-controls" role="toolbar" aria-label="Inference steps">
                <button id="hide-back" class="btn btn-small" disabled={running || shown == 0}
                    onclick={rerun(&state, &want_run, with_steps(Some(shown.saturating_sub(1))))}>{ "◀ Back" }</button>
                <button id="hide-step" class="btn btn-small btn-primary" disabled={running || closed}
                    onclick={rerun(&state, &want_run, with_steps(Some(shown + 1)))}>{ "Step ▶" }</button>
                <button id="hide-closure" class="btn btn-small" disabled={running || closed}
                    onclick={rerun(&state, &want_run, with_steps(None))}>{ "To closure" }</button>
                <label class="hide-option">
                    <input type="checkbox" id="hide-check-both" checked={settings.check} onchange={toggle(|s| s.check = !s.check)} />
                    { " check both programs (slow)" }
                </label>
            </div>
            <div class="tab-list" role="tablist" aria-label="Hide views">
                { tab_button(Tab::Log, "hide-tab-log", "Log") }
                { tab_button(Tab::Transformed, "hide-tab-transformed", "Transformed program") }
                { tab_button(Tab::Text, "hide-tab-text", "Text") }
            </div>
            <div class="pane-body hide-body" tabindex="0" aria-label="Hide results">
                if let crate::state::RunStatus::Failed(message) = &state.run.status {
                    <p class="run-error" id="hide-error">{ format!("The run stopped: {message}") }</p>
                }
                if let Some(check) = result.and_then(|r| r.check.as_ref()) {
                    { check_view(check) }
                }
                { body }
            </div>
        </section>
        <div class="pane-column">
            <section class="pane pane-preds" aria-label="Abstraction file">
                <div class="pane-header"><h2>{ "Abstraction file" }</h2></div>
                <div class="pane-body preds-body">
                    <textarea id="abstraction" class="preds-input" spellcheck="false" readonly={state.embed}
                        placeholder={"One variable a line: SCOPE NAME\n(global) for globals and results, e.g.\nmove d\n(global) i"}
                        value={settings.abstraction.clone()} oninput={on_abstraction} aria-label="Abstraction file" />
                    <label class="hide-option">
                        <input type="checkbox" id="hide-array-index" checked={settings.array_nondet_index}
                            onchange={toggle(|s| s.array_nondet_index = !s.array_nondet_index)} />
                        { " a[NONDET] = v when only the index is hidden (footnote 4)" }
                    </label>
                    if let Some(r) = result {
                        { abstraction_diagnostics(r) }
                    }
                </div>
            </section>
            <section class="pane pane-timeline" aria-label="Variables and warnings">
                <div class="pane-header"><h2>{ "Variables" }</h2></div>
                <div class="pane-body" tabindex="0" aria-label="Hidden variables and warnings">
                    if let Some(r) = result {
                        { variables_view(&state, r, &why) }
                        { warnings_view(&state, r) }
                    } else {
                        <Empty><p>{ "The hidden variables appear here, coloured by the step that hid them." }</p></Empty>
                    }
                </div>
            </section>
        </div>
        </>
    }
}

fn abstraction_diagnostics(r: &HideResult) -> Html {
    let ds: Vec<_> = r.diagnostics.iter().filter(|d| d.origin == "abstraction").collect();
    if ds.is_empty() {
        return html! {};
    }
    html! {
        <ul class="diagnostics" id="abstraction-diagnostics" aria-label="Problems in the abstraction file">
            { for ds.iter().map(|d| html! {
                <li class={classes!("diagnostic", format!("sev-{:?}", d.severity).to_lowercase())}>
                    <span class="diag-pos">{ format!("line {}:{}", d.line, d.column) }</span>
                    <span class="diag-msg">{ &d.message }</span>
                    if let Some(help) = &d.help { <span class="diag-help">{ help }</span> }
                </li>
            }) }
        </ul>
    }
}

fn var_button(v: &HideVarRef, why: &UseStateHandle<Option<u32>>) -> Html {
    html! {
        <button class="var-ref" data-var={v.text()} onclick={pick(why, v.id)} title="why was it hidden?">{ v.text() }</button>
    }
}

fn log_view(state: &UseReducerHandle<crate::state::AppState>, r: &HideResult, why: &UseStateHandle<Option<u32>>) -> Html {
    html! {
        <div class="hide-log" id="hide-log">
            if r.steps.is_empty() {
                <p class="empty-note">{ "No step yet: the initial file is on the right." }</p>
            }
            { for r.steps.iter().map(|step| html! {
                <div class="hide-step" data-step={step.index.to_string()}>
                    <h3 class="iteration-header" id={format!("iteration-{}", step.index)}>{ format!("iteration {}", step.index) }</h3>
                    if step.rows.is_empty() {
                        <p class="closed-note">{ "(closed: no new inferences)" }</p>
                    } else {
                        <div class="table-scroll">
                        <table class="hide-log-table">
                            <thead><tr><th>{ "line" }</th><th>{ "rule" }</th><th>{ "store e1 ← e2" }</th><th>{ "hidden" }</th><th>{ "because of" }</th></tr></thead>
                            <tbody>
                                { for step.rows.iter().map(|row| html! {
                                    <tr class={classes!("hide-row", row.rule.is_pointer_rule().then_some("rule-pointer"))} data-line={row.line.to_string()}>
                                        <td><button class="line-ref" onclick={focus_line(state, row.line)} aria-label={format!("select line {}", row.line)}>{ format!("line {}", row.line) }</button></td>
                                        <td><span class="chip rule-chip" title={row.rule.gloss()}>{ row.rule.name() }</span></td>
                                        <td><code>{ &row.store }</code></td>
                                        <td>{ var_button(&row.variable, why) }</td>
                                        <td class="hide-from">{ row.from.iter().map(|v| v.text()).collect::<Vec<_>>().join(", ") }</td>
                                    </tr>
                                }) }
                            </tbody>
                        </table>
                        </div>
                    }
                </div>
            }) }
            { why_view(state, r, why) }
        </div>
    }
}

fn why_view(state: &UseReducerHandle<crate::state::AppState>, r: &HideResult, why: &UseStateHandle<Option<u32>>) -> Html {
    let Some(v) = (**why).and_then(|id| r.variables.get(id as usize)).and_then(|v| v.as_ref()) else { return html! {} };
    html! {
        <div class="why" id="why" aria-live="polite">
            <h3>{ format!("why({})", v.var.text()) }</h3>
            if v.why.is_empty() {
                <p>{ "Concrete: nothing forces it to be hidden." }</p>
            } else {
                <ol class="why-chain">
                    { for v.why.iter().map(|link| html! {
                        <li>
                            <code>{ link.variable.text() }</code>
                            { match &link.row {
                                Some(row) => html! {
                                    <>
                                        { " ← " }
                                        <button class="line-ref" onclick={focus_line(state, row.line)}>{ format!("line {}", row.line) }</button>
                                        { format!(" (rule {}: {}): ", row.rule.name(), row.rule.gloss()) }
                                        <code>{ &row.store }</code>
                                    </>
                                },
                                None => html! { { " ← the initial abstraction file" } },
                            } }
                        </li>
                    }) }
                </ol>
            }
            if let Some(targets) = &v.points_to {
                <p class="points-to" id="points-to">
                    { format!("{} may point to: ", v.var.text()) }
                    if targets.is_empty() { { "nothing in this program" } } else { <code>{ targets.iter().map(|t| t.text()).collect::<Vec<_>>().join(", ") }</code> }
                </p>
            }
        </div>
    }
}

fn variables_view(state: &UseReducerHandle<crate::state::AppState>, r: &HideResult, why: &UseStateHandle<Option<u32>>) -> Html {
    let mut hidden: Vec<&HideVariable> = r.hidden().collect();
    hidden.sort_by_key(|v| v.hidden_at);
    let concrete: Vec<&HideVariable> = r.variables.iter().flatten().filter(|v| v.hidden_at.is_none()).collect();
    html! {
        <>
            <ul class="hide-vars" id="hide-vars" aria-label="Hidden variables">
                { for hidden.iter().map(|v| {
                    let step = v.hidden_at.unwrap_or(0);
                    html! {
                        <li class={classes!("hide-var", format!("hid-step-{}", step.min(6)))}>
                            { var_button(&v.var, why) }
                            <span class="hide-when">{ if step == 0 { "initial".to_string() } else { format!("step {step}") } }</span>
                            if v.pointer { <span class="chip" title="a pointer: rules 2a/2b follow what it points to">{ "pointer" }</span> }
                        </li>
                    }
                }) }
            </ul>
            if !concrete.is_empty() {
                <details class="concrete-vars">
                    <summary>{ format!("{} concrete", concrete.len()) }</summary>
                    <ul>
                        { for concrete.iter().map(|v| html! {
                            <li><button class="line-ref" onclick={focus_line(state, v.declared.line)}>{ v.var.text() }</button></li>
                        }) }
                    </ul>
                </details>
            }
        </>
    }
}

fn warnings_view(state: &UseReducerHandle<crate::state::AppState>, r: &HideResult) -> Html {
    if r.warnings.is_empty() {
        return html! { <p class="empty-note">{ "No warnings." }</p> };
    }
    html! {
        <>
            <h3>{ "Warnings" }</h3>
            <ul class="hide-warnings" id="hide-warnings">
                { for r.warnings.iter().map(|w| html! {
                    <li class="diagnostic sev-warning">
                        <button class="line-ref diag-pos" onclick={focus_line(state, w.place.line)}>{ format!("{}:{}", w.place.line, w.place.column) }</button>
                        <span class="diag-msg">{ &w.message }</span>
                        <span class="diag-help">{ w.kind.explanation() }</span>
                    </li>
                }) }
            </ul>
        </>
    }
}

/// One line of the transformed program with its `NONDET`s marked (columns from the engine).
fn transformed_line(line: &str, marks: &[(u32, u32)]) -> Html {
    let mut parts = Vec::new();
    let mut at = 0usize;
    for &(column, len) in marks {
        let start = (column as usize).saturating_sub(1);
        let end = start + len as usize;
        match (line.get(at..start), line.get(start..end)) {
            (Some(before), Some(mark)) if start >= at => {
                parts.push(html! { { before.to_string() } });
                parts.push(html! { <mark class="nondet">{ mark.to_string() }</mark> });
                at = end;
            }
            _ => {}
        }
    }
    parts.push(html! { { line.get(at..).unwrap_or("").to_string() } });
    parts.into_iter().collect()
}

fn transformed_view(state: &UseReducerHandle<crate::state::AppState>, r: &HideResult) -> Html {
    let t = &r.transformed;
    let compilable = r.compilable.clone();
    let download = Callback::from(move |_| super::app::download("hidden.c", &compilable));
    html! {
        <div class="hide-transformed">
            <div class="hide-controls">
                <button class="btn btn-small" id="hide-download" onclick={download}
                    title="The hidden program with #define NONDET __VERIFIER_nondet_int()">{ "⤓ hidden.c" }</button>
                if t.not_closed {
                    <span class="chip chip-error">{ "not closed yet: may not over-approximate the original" }</span>
                }
            </div>
            <pre class="tr-code" id="hide-transformed" tabindex="0">
                { for t.text.lines().enumerate().map(|(i, text)| {
                    let n = i as u32 + 1;
                    let source = t.line_map.get(i).copied().unwrap_or(0);
                    let marks: Vec<(u32, u32)> = t.nondets.iter().filter(|m| m.line == n).map(|m| (m.column, m.len)).collect();
                    html! {
                        <div class="tr-line" data-line={n.to_string()}>
                            if source > 0 {
                                <button class="tr-src line-ref" onclick={focus_line(state, source)} aria-label={format!("source line {source}")}>{ format!("{source:>3}") }</button>
                            } else {
                                <span class="tr-src">{ "  -" }</span>
                            }
                            <span class="tr-text">{ transformed_line(text, &marks) }</span>
                        </div>
                    }
                }) }
            </pre>
            if !t.edits.is_empty() {
                <h3>{ "What tr did in the original" }</h3>
                <ul class="hide-edits" id="hide-edits">
                    { for t.edits.iter().map(|e| html! {
                        <li class={classes!(e.kind.is_removal().then_some("edit-removed"))}>
                            <button class="line-ref" onclick={focus_line(state, e.place.line)}>{ format!("line {}", e.place.line) }</button>
                            { format!(" {} ", e.kind.label()) }
                            <span class="hide-from">{ e.variables.iter().map(|v| v.text()).collect::<Vec<_>>().join(", ") }</span>
                        </li>
                    }) }
                </ul>
            }
        </div>
    }
}

fn check_view(c: &HideCheck) -> Html {
    let replay_class = c.replay.as_ref().map(|r| match r.kind {
        ReplayKind::ReachesError => "replay-real",
        ReplayKind::NoError => "replay-spurious",
        ReplayKind::CannotRun => "replay-failed",
    });
    html! {
        <div class="hide-check" id="hide-check">
            <div class={classes!("verdict", verdict_class(c.original))} id="verdict-original">
                <div class="verdict-label">{ format!("original: {}", c.original.as_str()) }</div>
                <p>{ &c.original_reason }</p>
            </div>
            <div class={classes!("verdict", verdict_class(c.hidden))} id="verdict-hidden">
                <div class="verdict-label">{ format!("hidden: {}", c.hidden.as_str()) }</div>
                <p>{ &c.hidden_reason }</p>
            </div>
            if let Some(replay) = &c.replay {
                <p class={classes!("hide-replay", replay_class)} id="hide-replay">{ &replay.message }</p>
            }
            if !c.hidden_trace.is_empty() {
                <details class="hide-trace">
                    <summary>{ "the hidden program's counterexample" }</summary>
                    <table class="trace-table">
                        <thead><tr><th>{ "line" }</th><th>{ "statement" }</th><th>{ "NONDET" }</th></tr></thead>
                        <tbody>
                            { for c.hidden_trace.iter().map(|s| html! {
                                <tr><td>{ s.line }</td><td><code>{ &s.statement }</code></td><td>{ s.nondet.clone().unwrap_or_default() }</td></tr>
                            }) }
                        </tbody>
                    </table>
                </details>
            }
        </div>
    }
}
