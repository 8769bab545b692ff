//! The Shape mode (shape analysis by iterated weakest preconditions, seed 004): the procedure,
//! property, precondition, bound and hints editors; the rounds of Fig 3 with the pairs each
//! one added (a round stepper) and the predicates new in each round; the WP derivation of a
//! selected pair; the growing families with a suggested hint that one click adds; the
//! abstract program of Fig 2 linked to the C lines; the verdict (SAFE, UNSAFE with the
//! concrete heap replayed in the interpreter, UNKNOWN with the reason); boxes-and-arrows
//! pictures of concrete runs from small heaps ([`heaps_view`]: at a selected location, the heap
//! as an SVG and every predicate's concrete value beside the values its boolean may take, a
//! mismatch flagged as unsoundness); the Promela text.
//!
//! Every text comes from `playground_api::shape` data and is rendered as text, never as HTML;
//! the runs and pictures are computed in the worker (part of the Shape result), the UI only
//! lays them out.

use super::{use_app, use_commands, Empty};
use crate::state::{Action, AppState, Focus, ShapeTab as Tab};
use playground_api::shape::{AllowedValues, HeapPicture, HeapRun, HeapTarget, ShapeResult, ShapeRun, ShapeSettings, ShapeStep};
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;


fn focus_line(state: &UseReducerHandle<AppState>, line: u32) -> Callback<MouseEvent> {
    let state = state.clone();
    Callback::from(move |_| state.dispatch(Action::Focus(Focus { c_line: Some(line), bp_line: None })))
}

fn rerun(state: &UseReducerHandle<AppState>, want_run: &Rc<RefCell<bool>>, settings: ShapeSettings) -> Callback<MouseEvent> {
    let (state, want_run) = (state.clone(), want_run.clone());
    Callback::from(move |_| {
        *want_run.borrow_mut() = true;
        state.dispatch(Action::SetShape(settings.clone()));
    })
}

/// A text field of the settings.
fn text_input(state: &UseReducerHandle<AppState>, settings: &ShapeSettings, set: fn(&mut ShapeSettings, String)) -> Callback<InputEvent> {
    let (state, settings) = (state.clone(), settings.clone());
    Callback::from(move |e: InputEvent| {
        let value = match e.target_dyn_into::<web_sys::HtmlTextAreaElement>() {
            Some(area) => area.value(),
            None => e.target_unchecked_into::<web_sys::HtmlInputElement>().value(),
        };
        let mut s = settings.clone();
        set(&mut s, value);
        state.dispatch(Action::SetShape(s));
    })
}

fn diagnostics_of(r: Option<&ShapeResult>, origin: &str, id: &str) -> Html {
    let Some(r) = r else { return html! {} };
    let ds: Vec<_> = r.diagnostics.iter().filter(|d| d.origin == origin).collect();
    if ds.is_empty() {
        return html! {};
    }
    html! {
        <ul class="diagnostics" id={id.to_string()} aria-label={format!("Problems in the {origin}")}>
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

#[function_component(ShapePanes)]
pub fn shape_panes() -> Html {
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
    // the open view is app state: a deep link's `tab=` opens it, a share link carries it
    let tab = state.shape_tab;
    // the round the stepper shows (None: all) and the selected pair
    let round = use_state(|| None::<u32>);
    let pair = use_state(|| None::<u32>);
    // the heap run and the state (location visit) of it the Heaps tab shows
    let heap_run = use_state(|| 0usize);
    let heap_step = use_state(|| 0usize);
    let settings = state.session.shape.clone();
    let result = state.run.shape.as_deref();
    let running = state.is_running();
    let tab_button = |t: Tab, label: &'static str| {
        let state = state.clone();
        html! {
            <button class={classes!("tab", (tab == t).then_some("tab-open"))} id={format!("shape-tab-{}", t.key())} role="tab"
                aria-selected={(tab == t).to_string()} onclick={Callback::from(move |_| state.dispatch(Action::SetShapeTab(t)))}>{ label }</button>
        }
    };
    let on_bound = {
        let (state, settings) = (state.clone(), settings.clone());
        Callback::from(move |e: InputEvent| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            if let Ok(b) = input.value().trim().parse::<u32>() {
                state.dispatch(Action::SetShape(ShapeSettings { bound: b.clamp(1, playground_api::shape::MAX_BOUND), ..settings.clone() }));
            }
        })
    };
    let on_auto = {
        let (state, settings) = (state.clone(), settings.clone());
        Callback::from(move |_: Event| state.dispatch(Action::SetShape(ShapeSettings { auto_hints: !settings.auto_hints, ..settings.clone() })))
    };
    let run_view = result.and_then(|r| r.final_run());
    let body = match (result, run_view, tab) {
        (None, _, _) => html! { <Empty><p>{ "Press Analyse: the rounds of weakest preconditions appear here." }</p></Empty> },
        (Some(_), None, _) => html! { <Empty><p>{ "Fix the problems in the inputs (right, or in the C program) first." }</p></Empty> },
        (Some(_), Some(run), Tab::Rounds) => rounds_view(run, &round, &pair),
        (Some(r), Some(run), Tab::Program) => program_view(&state, r, run),
        (Some(r), Some(_), Tab::Heaps) => heaps_view(&state, &r.heap_runs, &heap_run, &heap_step),
        (Some(r), Some(_), Tab::Promela) => promela_view(r),
    };
    html! {
        <>
        <section class="pane pane-bp" aria-label="Shape analysis">
            <div class="pane-header">
                <h2>{ "Shape analysis" }</h2>
                if let Some(run) = run_view {
                    <span class="chip" id="shape-status">{ format!("{} rounds · {} predicates · {} pairs{}", run.iterations, run.predicates.len(), run.pairs.len(), if run.converged { " · converged" } else { " · bound reached" }) }</span>
                }
            </div>
            <div class="hide-controls" role="toolbar" aria-label="Analysis">
                <button id="shape-run" class="btn btn-small btn-primary" disabled={running}
                    onclick={rerun(&state, &want_run, settings.clone())}>{ "▶ Analyse" }</button>
            </div>
            if let Some(r) = result.filter(|r| r.analysed) {
                { verdict_view(r) }
            }
            <div class="tab-list" role="tablist" aria-label="Shape views">
                { tab_button(Tab::Rounds, "Rounds") }
                { tab_button(Tab::Program, "Abstract program") }
                { tab_button(Tab::Heaps, "Heaps") }
                { tab_button(Tab::Promela, "Promela") }
            </div>
            <div class="pane-body shape-body" tabindex="0" aria-label="Shape results">
                if let crate::state::RunStatus::Failed(message) = &state.run.status {
                    <p class="run-error" id="shape-error">{ format!("The run stopped: {message}") }</p>
                }
                { body }
            </div>
        </section>
        <div class="pane-column shape-column">
            <section class="pane pane-preds" aria-label="Property and hints">
                <div class="pane-header"><h2>{ "Property" }</h2></div>
                <div class="pane-body shape-inputs">
                    <label class="field">{ "procedure " }
                        <input id="shape-proc" type="text" value={settings.proc.clone()} readonly={state.embed}
                            oninput={text_input(&state, &settings, |s, v| s.proc = v)} spellcheck="false" />
                    </label>
                    <label class="field">{ "bound " }
                        <input id="shape-bound" type="number" min="1" max="200" value={settings.bound.to_string()} readonly={state.embed} oninput={on_bound} />
                    </label>
                    <label class="field-block" for="shape-properties">{ "properties (one a line)" }</label>
                    <textarea id="shape-properties" class="preds-input shape-input" spellcheck="false" readonly={state.embed}
                        placeholder="none yet; e.g. forall k: reach[;n](x,k)@n1 => reach[;n](x,k)@ne" value={settings.properties.clone()}
                        oninput={text_input(&state, &settings, |s, v| s.properties = v)} />
                    { diagnostics_of(result, "properties", "shape-property-diagnostics") }
                    <label class="field-block" for="shape-preconditions">{ "preconditions (assumed)" }</label>
                    <textarea id="shape-preconditions" class="preds-input shape-input" spellcheck="false" readonly={state.embed}
                        placeholder="none (nothing assumed); e.g. !cyclic[n](x)@n1" value={settings.preconditions.clone()}
                        oninput={text_input(&state, &settings, |s, v| s.preconditions = v)} />
                    { diagnostics_of(result, "preconditions", "shape-pre-diagnostics") }
                    <label class="field-block" for="shape-hints">{ "hints: PRED@LABEL -> if C then false else T" }</label>
                    <textarea id="shape-hints" class="preds-input shape-input" spellcheck="false" readonly={state.embed}
                        placeholder="none; e.g. x == x->n@n4 -> if !cyclic[n](x) then false else T"
                        value={settings.hints.clone()} oninput={text_input(&state, &settings, |s, v| s.hints = v)} />
                    { diagnostics_of(result, "hints", "shape-hint-diagnostics") }
                    <label class="hide-option">
                        <input type="checkbox" id="shape-auto-hints" checked={settings.auto_hints} onchange={on_auto} />
                        { " auto-hints (find growing families, check and use hints)" }
                    </label>
                </div>
            </section>
            <section class="pane pane-timeline" aria-label="Families and derivation">
                <div class="pane-header"><h2>{ "Families and WP" }</h2></div>
                <div class="pane-body shape-side" tabindex="0" aria-label="Growing families and the WP derivation">
                    if let Some(run) = run_view {
                        { derivation_view(run, *pair) }
                        { families_view(&state, &want_run, &settings, run) }
                    } else {
                        <Empty><p>{ "Growing families of predicates and the WP derivation of a selected pair appear here." }</p></Empty>
                    }
                </div>
            </section>
        </div>
        </>
    }
}

fn verdict_view(r: &ShapeResult) -> Html {
    let Some(v) = r.verdict else { return html! {} };
    html! {
        <div class={classes!("verdict", format!("verdict-{}", v.as_str().to_lowercase()))} id="shape-verdict">
            <div class="verdict-label">{ v.as_str() }</div>
            <p>{ &r.reason }</p>
            if let Some(w) = &r.witness {
                <div class="shape-witness" id="shape-witness">
                    <p>{ format!("A concrete heap, replayed in the interpreter, violates property {} at {}:", w.property + 1, w.location) }</p>
                    <ul>{ for w.heap.iter().chain(w.rigids.iter()).map(|l| html! { <li><code>{ l }</code></li> }) }</ul>
                </div>
            }
        </div>
    }
}

fn rounds_view(run: &ShapeRun, round: &UseStateHandle<Option<u32>>, pair: &UseStateHandle<Option<u32>>) -> Html {
    let last = run.rounds.last().map_or(0, |r| r.index);
    let shown = round.unwrap_or(last).min(last);
    let set = |r: Option<u32>| {
        let round = round.clone();
        Callback::from(move |_| round.set(r))
    };
    html! {
        <div class="shape-rounds">
            <div class="hide-controls" role="toolbar" aria-label="Rounds">
                <button id="shape-round-back" class="btn btn-small" disabled={shown == 0} onclick={set(Some(shown.saturating_sub(1)))}>{ "◀ round" }</button>
                <span class="chip" id="shape-round">{ format!("round {shown} of {last}") }</span>
                <button id="shape-round-next" class="btn btn-small" disabled={shown >= last} onclick={set(Some(shown + 1))}>{ "round ▶" }</button>
                <button id="shape-round-all" class="btn btn-small" disabled={shown >= last} onclick={set(None)}>{ "all" }</button>
            </div>
            <ol class="shape-round-list" id="shape-round-list">
                { for run.rounds.iter().filter(|r| r.index <= shown).map(|r| html! {
                    <li data-round={r.index.to_string()}>
                        { format!("round {}: {} processed, {} added", r.index, r.processed.len(), r.added.len()) }
                        if !r.new_predicates.is_empty() {
                            { "; new predicates " }
                            { for r.new_predicates.iter().map(|p| html! { <code class="new-pred">{ p }</code> }) }
                        }
                    </li>
                }) }
            </ol>
            <div class="table-scroll">
            <table class="shape-pairs" id="shape-pairs">
                <thead><tr><th>{ "#" }</th><th>{ "boolean" }</th><th>{ "predicate" }</th><th>{ "at" }</th><th>{ "round" }</th><th>{ "status" }</th><th>{ "from" }</th></tr></thead>
                <tbody>
                    { for run.pairs.iter().filter(|p| p.round <= shown).map(|p| {
                        let (id, pair_state) = (p.id, pair.clone());
                        let selected = **pair == Some(id);
                        html! {
                            <tr class={classes!("shape-pair", format!("status-{}", p.status.label()), selected.then_some("selected"))} data-pair={id.to_string()}>
                                <td>{ id }</td>
                                <td><code>{ &p.boolean }</code></td>
                                <td><button class="var-ref" onclick={Callback::from(move |_| pair_state.set(Some(id)))} title="show its WP derivations"
                                    aria-pressed={selected.to_string()}>{ &p.predicate }</button></td>
                                <td>{ &p.location }</td>
                                <td>{ p.round }</td>
                                <td title={p.approximation.clone()}>{ p.status.label() }</td>
                                <td>{ match (p.parent_pair, p.parent_edge) {
                                    (Some(pp), Some(e)) => format!("pair {pp}, edge {e}"),
                                    (Some(pp), None) => format!("pair {pp}"),
                                    _ => "initial".to_string(),
                                } }</td>
                            </tr>
                        }
                    }) }
                </tbody>
            </table>
            </div>
        </div>
    }
}

fn step_view(s: &ShapeStep) -> Html {
    match s {
        ShapeStep::Update { predicate, store } => html! { <li class="wp-update">{ "WP of " }<code>{ predicate }</code>{ " over " }<code>{ store }</code></li> },
        ShapeStep::AliasCase { condition, predicate } => html! { <li class="wp-case">{ "case " }<code>{ condition }</code>{ ": " }<code>{ predicate }</code></li> },
        ShapeStep::Fig5Row { row } => html! { <li class="wp-row">{ "Fig 5: " }<code>{ row }</code></li> },
        ShapeStep::Rewrite { rule, before, after } => html! { <li class="wp-rewrite"><span class="chip">{ rule }</span>{ " " }<code>{ before }</code>{ " ⟶ " }<code>{ after }</code></li> },
        ShapeStep::Result { formula } => html! { <li class="wp-result">{ "= " }<code>{ formula }</code></li> },
    }
}

fn derivation_view(run: &ShapeRun, pair: Option<u32>) -> Html {
    let Some(id) = pair else {
        return html! { <p class="empty-note">{ "Click a predicate in the pair table to see its WP derivations." }</p> };
    };
    let Some(p) = run.pairs.iter().find(|p| p.id == id) else { return html! {} };
    let derivations: Vec<_> = run.derivations.iter().filter(|d| d.pair == id).collect();
    html! {
        <div class="shape-derivation" id="shape-derivation">
            <h3>{ format!("WP of {} @{}", p.predicate, p.location) }</h3>
            if let Some(a) = &p.approximation {
                <p class="shape-approximation">{ "approximated under its hint's condition: " }<code>{ a }</code></p>
            }
            if derivations.is_empty() {
                <p>{ "No derivation: this pair was not processed (initial at an entry, hinted, or left at the bound)." }</p>
            }
            { for derivations.iter().map(|d| {
                let edge = run.actions.iter().find(|a| a.edge == d.edge);
                html! {
                    <div class="derivation">
                        <h4>{ match edge { Some(a) => format!("over edge {} ({} → {}: {})", d.edge, a.from, a.to, a.c_text), None => format!("over edge {}", d.edge) } }</h4>
                        <ol class="wp-steps">{ for d.steps.iter().map(step_view) }</ol>
                        <p>{ "result: " }<code>{ &d.result }</code>{ format!("; new pairs: {}", if d.new_pairs.is_empty() { "none".to_string() } else { d.new_pairs.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(", ") }) }</p>
                    </div>
                }
            }) }
        </div>
    }
}

fn families_view(state: &UseReducerHandle<AppState>, want_run: &Rc<RefCell<bool>>, settings: &ShapeSettings, run: &ShapeRun) -> Html {
    if run.families.is_empty() {
        return html! { <p class="empty-note" id="shape-no-families">{ "No growing families: the predicates do not repeat field steps." }</p> };
    }
    html! {
        <>
            <h3>{ "Growing families" }</h3>
            <ul class="shape-families" id="shape-families">
                { for run.families.iter().map(|f| html! {
                    <li>
                        { format!("at {}: {} members, e.g. ", f.location, f.members.len()) }
                        <code>{ f.members.first().cloned().unwrap_or_default() }</code>
                        if let Some(hint) = &f.suggested_hint {
                            <div class="suggested-hint">
                                { "suggested: " }<code>{ hint }</code>
                                if f.refuted {
                                    { " (refuted on a small heap)" }
                                } else {
                                    <button class="btn btn-small add-hint" disabled={settings.hints.contains(hint.as_str())}
                                        onclick={rerun(state, want_run, with_hint(settings, hint))}>{ "add hint and re-run" }</button>
                                }
                            </div>
                        }
                    </li>
                }) }
            </ul>
        </>
    }
}

fn with_hint(settings: &ShapeSettings, hint: &str) -> ShapeSettings {
    let mut hints = settings.hints.clone();
    if !hints.is_empty() && !hints.ends_with('\n') {
        hints.push('\n');
    }
    hints.push_str(hint);
    hints.push('\n');
    ShapeSettings { hints, ..settings.clone() }
}

fn program_view(state: &UseReducerHandle<AppState>, r: &ShapeResult, run: &ShapeRun) -> Html {
    html! {
        <div class="shape-program">
            <h3>{ "Booleans" }</h3>
            <table class="shape-preds" id="shape-preds">
                <tbody>{ for run.predicates.iter().map(|p| html! { <tr><td><code>{ &p.boolean }</code></td><td>{ "⟷" }</td><td><code>{ &p.predicate }</code></td></tr> }) }</tbody>
            </table>
            <h3>{ "Abstract actions (Fig 2)" }</h3>
            <ul class="shape-actions" id="shape-actions">
                { for run.actions.iter().map(|a| html! {
                    <li>
                        { for a.lines.first().map(|&l| html! { <button class="line-ref" onclick={focus_line(state, l)}>{ format!("line {l}") }</button> }) }
                        { format!(" {} → {}", a.from, a.to) }
                        if a.guard != "true" { <code>{ format!(" [{}]", a.guard) }</code> }
                        { " " }<code>{ a.assignments.join(", ") }</code>
                        <span class="hide-from">{ format!("  // {}", a.c_text) }</span>
                    </li>
                }) }
            </ul>
            <details>
                <summary>{ "boolean program" }</summary>
                <pre id="shape-bp" tabindex="0">{ &r.boolean_program }</pre>
            </details>
        </div>
    }
}

fn promela_view(r: &ShapeResult) -> Html {
    match (&r.promela, &r.promela_error) {
        (Some(text), _) => {
            let text_for = text.clone();
            let download = Callback::from(move |_| super::app::download("shape.pml", &text_for));
            html! {
                <div class="shape-promela">
                    <button class="btn btn-small" id="shape-promela-download" onclick={download}>{ "⤓ shape.pml" }</button>
                    <p class="empty-note">{ "Run it with spin -a shape.pml && gcc -o pan pan.c && ./pan; the paper reports 7 states for insertion and 34 for reversal." }</p>
                    <pre id="shape-promela" tabindex="0">{ text }</pre>
                </div>
            }
        }
        (None, Some(e)) => html! { <p>{ format!("No Promela export: {e}") }</p> },
        _ => html! {},
    }
}

// ---- the Heaps tab: concrete runs as boxes and arrows ----

const CELL_W: i32 = 84;
const CELL_GAP: i32 = 132;
const ROW_H: i32 = 22;
const ROOT_H: i32 = 18;
/// Where the labels of NULL variables end (right-aligned) at the left of the picture.
const NULL_LABEL_X: i32 = 76;

/// Where the heap's NULL roots go (left) and where cell `c` starts.
struct Layout {
    left: i32,
    top: i32,
    rows: i32,
    cells: usize,
}

impl Layout {
    fn new(h: &HeapPicture) -> Layout {
        let null_roots = h.roots.iter().any(|r| !matches!(r.target, HeapTarget::Cell(_)));
        let stack = (0..h.cells.len()).map(|c| h.roots.iter().filter(|r| r.target == HeapTarget::Cell(c as u32)).count()).max().unwrap_or(0) as i32;
        let rows = h.cells.iter().map(|c| c.fields.len()).max().unwrap_or(1) as i32;
        Layout { left: if null_roots { NULL_LABEL_X + 48 } else { 16 }, top: 30 + ROOT_H * stack.max(1), rows, cells: h.cells.len() }
    }
    fn x(&self, c: usize) -> i32 {
        self.left + c as i32 * CELL_GAP
    }
    /// The y of field row `f`'s centre.
    fn row_y(&self, f: usize) -> i32 {
        self.top + ROW_H + f as i32 * ROW_H + ROW_H / 2
    }
    fn bottom(&self) -> i32 {
        self.top + ROW_H * (self.rows + 1)
    }
    fn width(&self) -> i32 {
        (self.x(self.cells.max(1)) - CELL_GAP + CELL_W + 40).max(self.left + 120)
    }
    fn height(&self) -> i32 {
        self.bottom() + 30 + 14 * self.cells as i32
    }
}

/// The ground symbol of NULL, its wire from (x, y) right to `gx` and down.
fn ground(x: i32, y: i32, gx: i32, class: &'static str) -> Html {
    let gy = y + 10;
    html! {
        <g class={classes!("heap-null", class)}>
            <path d={format!("M {x} {y} H {gx} V {gy}")} fill="none" />
            <line x1={(gx - 7).to_string()} y1={gy.to_string()} x2={(gx + 7).to_string()} y2={gy.to_string()} />
            <line x1={(gx - 4).to_string()} y1={(gy + 3).to_string()} x2={(gx + 4).to_string()} y2={(gy + 3).to_string()} />
            <line x1={(gx - 1).to_string()} y1={(gy + 6).to_string()} x2={(gx + 1).to_string()} y2={(gy + 6).to_string()} />
        </g>
    }
}

fn target_words(h: &HeapPicture, t: &HeapTarget) -> String {
    match t {
        HeapTarget::Null => "NULL".into(),
        HeapTarget::Cell(c) => h.cells.get(*c as usize).map_or_else(|| format!("cell {c}"), |x| x.name.clone()),
        HeapTarget::Int => "an integer".into(),
        HeapTarget::Invalid => "an invalid address".into(),
    }
}

/// The heap in words (the picture's accessible name).
fn heap_words(h: &HeapPicture) -> String {
    let mut parts: Vec<String> = h.roots.iter().map(|r| format!("{} = {}", r.name, target_words(h, &r.target))).collect();
    for c in &h.cells {
        for f in c.fields.iter().filter(|f| f.target != HeapTarget::Int) {
            parts.push(format!("{}->{} = {}", c.name, f.field, target_words(h, &f.target)));
        }
        if c.freed {
            parts.push(format!("{} freed", c.name));
        }
    }
    if h.cells.is_empty() {
        parts.push("no cells".into());
    }
    parts.join(", ")
}

/// The SVG boxes-and-arrows picture of a heap: cells as boxes with a row per field, pointer
/// fields as arrows (NULL as a ground symbol), variables as labels above the cell they point
/// to (NULL ones at the left), rigid variables in italics with dashed arrows.
fn heap_svg(h: &HeapPicture) -> Html {
    let l = Layout::new(h);
    let mut items: Vec<Html> = Vec::new();
    for (c, cell) in h.cells.iter().enumerate() {
        let x = l.x(c);
        items.push(html! {
            <g class={classes!("heap-cell", cell.freed.then_some("heap-freed"))} data-cell={cell.name.clone()}>
                <rect x={x.to_string()} y={l.top.to_string()} width={CELL_W.to_string()} height={(l.bottom() - l.top).to_string()} rx="4" />
                <line x1={x.to_string()} y1={(l.top + ROW_H).to_string()} x2={(x + CELL_W).to_string()} y2={(l.top + ROW_H).to_string()} />
                <text class="heap-cell-name" x={(x + CELL_W / 2).to_string()} y={(l.top + 14).to_string()} text-anchor="middle">
                    { if cell.freed { format!("{} (freed)", cell.name) } else { cell.name.clone() } }
                </text>
            </g>
        });
        for (f, field) in cell.fields.iter().enumerate() {
            let y = l.row_y(f);
            let dot = x + CELL_W - 12;
            items.push(html! { <text class="heap-field-name" x={(x + 8).to_string()} y={(y + 4).to_string()}>{ &field.field }</text> });
            let arrow = match &field.target {
                HeapTarget::Int => html! { <text class="heap-int" x={(x + CELL_W - 6).to_string()} y={(y + 4).to_string()} text-anchor="end">{ "int" }</text> },
                HeapTarget::Invalid => html! { <text class="heap-int" x={(x + CELL_W - 6).to_string()} y={(y + 4).to_string()} text-anchor="end">{ "?" }</text> },
                HeapTarget::Null => html! {
                    <g class="heap-arrow" data-from={format!("{}.{}", cell.name, field.field)} data-to="NULL">
                        <circle cx={dot.to_string()} cy={y.to_string()} r="3" />
                        { ground(dot, y, x + CELL_W + 14, "heap-field-null") }
                    </g>
                },
                HeapTarget::Cell(t) => {
                    let t = *t as usize;
                    let tx = l.x(t);
                    let d = if t == c + 1 {
                        format!("M {dot} {y} H {}", tx - 2)
                    } else {
                        let span = (t as i32 - c as i32).abs();
                        let depth = l.bottom() + 18 + 12 * span;
                        let end = if t == c { tx + 16 } else { tx + CELL_W / 2 };
                        format!("M {dot} {y} C {dot} {depth} {end} {depth} {end} {}", l.bottom() + 2)
                    };
                    html! {
                        <g class="heap-arrow" data-from={format!("{}.{}", cell.name, field.field)} data-to={target_words(h, &field.target)}>
                            <circle cx={dot.to_string()} cy={y.to_string()} r="3" />
                            <path d={d} fill="none" marker-end="url(#heap-arrowhead)" />
                        </g>
                    }
                }
            };
            items.push(arrow);
        }
    }
    // roots: stacked above their cell, or at the left when NULL (or not a cell)
    let mut stacked = vec![0i32; h.cells.len()];
    let mut left_row = 0;
    for r in &h.roots {
        let class = classes!("heap-root", r.rigid.then_some("heap-rigid"));
        match r.target {
            HeapTarget::Cell(c) if (c as usize) < h.cells.len() => {
                let k = stacked[c as usize];
                stacked[c as usize] += 1;
                // the label left of a vertical arrow down to the box; more labels further up-right
                let cx = l.x(c as usize) + CELL_W / 2 + 14 * k;
                let ty = l.top - 14 - ROOT_H * k;
                items.push(html! {
                    <g class={class} data-root={r.name.clone()} data-to={target_words(h, &r.target)}>
                        <text x={(cx - 4).to_string()} y={ty.to_string()} text-anchor="end">{ &r.name }</text>
                        <path d={format!("M {cx} {} V {}", ty - 10, l.top - 2)} fill="none" marker-end="url(#heap-arrowhead)" />
                    </g>
                });
            }
            _ => {
                let y = 20 + left_row * 26;
                left_row += 1;
                items.push(html! {
                    <g class={class} data-root={r.name.clone()} data-to={target_words(h, &r.target)}>
                        <text x={NULL_LABEL_X.to_string()} y={(y + 4).to_string()} text-anchor="end">{ &r.name }</text>
                        if r.target == HeapTarget::Null {
                            { ground(NULL_LABEL_X + 4, y, NULL_LABEL_X + 20, "heap-root-null") }
                        } else {
                            <text x={(NULL_LABEL_X + 6).to_string()} y={(y + 4).to_string()}>{ "= ?" }</text>
                        }
                    </g>
                });
            }
        }
    }
    let height = l.height().max(24 + left_row * 26);
    let words = heap_words(h);
    html! {
        <svg class="heap-svg" id="shape-heap-svg" role="img" aria-label={format!("Heap: {words}")} viewBox={format!("0 0 {} {height}", l.width())}
            width={l.width().to_string()} height={height.to_string()} xmlns="http://www.w3.org/2000/svg">
            <title>{ format!("Heap: {words}") }</title>
            <defs>
                <marker id="heap-arrowhead" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                    <path d="M 0 0 L 10 5 L 0 10 z" fill="currentColor" />
                </marker>
            </defs>
            { for items }
        </svg>
    }
}

fn allowed_text(a: AllowedValues) -> &'static str {
    a.label()
}

fn heaps_view(state: &UseReducerHandle<AppState>, runs: &[HeapRun], run_index: &UseStateHandle<usize>, step_index: &UseStateHandle<usize>) -> Html {
    if runs.is_empty() {
        return html! { <Empty><p>{ "No concrete runs: the procedure has no list struct, or the preconditions exclude every small heap." }</p></Empty> };
    }
    let ri = (**run_index).min(runs.len() - 1);
    let run = &runs[ri];
    let si = (**step_index).min(run.snapshots.len().saturating_sub(1));
    let total: usize = runs.iter().map(|r| r.mismatches).sum();
    let on_run = {
        let (run_index, step_index) = (run_index.clone(), step_index.clone());
        Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            if let Ok(i) = select.value().parse::<usize>() {
                run_index.set(i);
                step_index.set(0);
            }
        })
    };
    let go = |i: usize| {
        let step_index = step_index.clone();
        Callback::from(move |_| step_index.set(i))
    };
    let Some(snap) = run.snapshots.get(si) else { return html! {} };
    html! {
        <div class="shape-heaps" id="shape-heaps">
            <p class="empty-note">{ format!("{} concrete runs of the procedure from small input heaps that satisfy the preconditions; at each location, every predicate's concrete value beside the values the abstract program allows its boolean after the edge taken.", runs.len()) }</p>
            if total > 0 {
                <p class="run-error heap-mismatch-alert" id="shape-heap-mismatch" role="alert">
                    { format!("⚠ UNSOUND: {total} predicate values fall outside what their boolean allows (this run: {}). The abstraction does not cover these concrete states.", run.mismatches) }
                </p>
            } else {
                <p class="heap-sound" id="shape-heap-sound">{ "✓ Every concrete value is one its boolean allows, in every run." }</p>
            }
            <label class="field">{ "input heap " }
                <select id="shape-heap-run" onchange={on_run}>
                    { for runs.iter().enumerate().map(|(i, r)| html! {
                        <option value={i.to_string()} selected={i == ri}>{ format!("{} ({} cell{}): {}", i + 1, r.cells, if r.cells == 1 { "" } else { "s" }, r.title) }</option>
                    }) }
                </select>
            </label>
            <div class="hide-controls heap-steps" role="toolbar" aria-label="Locations of the run">
                <button id="shape-heap-back" class="btn btn-small" disabled={si == 0} onclick={go(si.saturating_sub(1))}>{ "◀" }</button>
                { for run.snapshots.iter().enumerate().map(|(i, s)| html! {
                    <button class={classes!("btn", "btn-small", "heap-step", (i == si).then_some("btn-primary"))} aria-pressed={(i == si).to_string()}
                        data-location={s.location.clone()} onclick={go(i)} title={if s.edge_text.is_empty() { "start".to_string() } else { format!("after {}", s.edge_text) }}>{ &s.location }</button>
                }) }
                <button id="shape-heap-next" class="btn btn-small" disabled={si + 1 >= run.snapshots.len()} onclick={go(si + 1)}>{ "▶" }</button>
            </div>
            <p class="heap-where" id="shape-heap-where" aria-live="polite">
                { format!("step {} of {}: at {} ", si + 1, run.snapshots.len(), snap.location) }
                <button class="line-ref" onclick={focus_line(state, snap.line)}>{ format!("line {}", snap.line) }</button>
                { if snap.edge_text.is_empty() { " (start)".to_string() } else { format!(" after {}", snap.edge_text) } }
                if si + 1 == run.snapshots.len() { { format!("; the run {}", run.end) } }
            </p>
            <div class="heap-picture" tabindex="0" aria-label="Heap picture (scrolls sideways)">{ heap_svg(&snap.heap) }</div>
            <div class="table-scroll" tabindex="0" aria-label="Predicate values (scrolls sideways)">
            <table class="shape-pairs heap-values" id="shape-heap-values">
                <caption>{ format!("Predicates at {}", snap.location) }</caption>
                <thead><tr><th>{ "boolean" }</th><th>{ "predicate" }</th><th>{ "concrete" }</th><th>{ "boolean may be" }</th><th>{ "status" }</th><th>{ "check" }</th></tr></thead>
                <tbody>
                    { for snap.values.iter().map(|v| html! {
                        <tr class={classes!("heap-value", v.mismatch.then_some("heap-mismatch"))} data-pair={v.pair.to_string()}>
                            <td><code>{ &v.boolean }</code></td>
                            <td><code>{ &v.predicate }</code></td>
                            <td class="heap-concrete">{ match v.concrete { Some(b) => b.to_string(), None => "undefined".to_string() } }</td>
                            <td class="heap-allowed">{ allowed_text(v.allowed) }</td>
                            <td>{ v.status.label() }</td>
                            <td class="heap-check">{ if v.mismatch { "✗ MISMATCH: unsound" } else { "✓" } }</td>
                        </tr>
                    }) }
                </tbody>
            </table>
            </div>
            if snap.values.is_empty() {
                <p class="empty-note">{ "No predicate is considered at this location." }</p>
            }
        </div>
    }
}
