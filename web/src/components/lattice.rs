//! The cube lattice view (C2BP §4.1): for the chosen statement and predicate φ, the cubes the
//! strengthening of `WP(s, φ)` visited, as an SVG Hasse diagram by cube length coloured by
//! outcome (per-level rows with counts for large lattices), the resulting `F(φ)`/`F(¬φ)`, the
//! solver query of a clicked cube, and a replay of the breadth-first order. For the exact
//! strategy: the enumerated valuations and the minimised prime implicants instead.

use super::explain::StatementPicker;
use super::use_app;
use crate::lattice::{self, cube_label, Layout, Outcome, NODE_HEIGHT};
use crate::state::Action;
use playground_api::explain::{ExactData, LatticeData};
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Rows of the valuation table shown for the exact strategy (the rest is counted).
const MAX_VALUATION_ROWS: usize = 128;
/// Animation: steps per second and the number of frames a whole replay takes at most.
const FRAME_MS: i32 = 110;
const MAX_FRAMES: u32 = 60;

#[function_component(LatticeView)]
pub fn lattice_view() -> Html {
    let state = use_app();
    let predicate = state.explained_predicate().cloned();
    let body = match &predicate {
        None if state.explanation().is_some() => html! {
            <p class="hint">{ "Choose a statement (or click a boolean program line) to see how each of its predicates is strengthened." }</p>
        },
        None => html! {},
        // Predict: the question first, the diagram and F(WP) once it is settled
        Some(_) if crate::exercise::lattice_question(&state).is_some() => html! { <super::exercise::LatticeQuestion /> },
        Some(p) => {
            let data = &p.positive;
            html! {
                <div class="lattice-body" id="lattice-body" data-predicate={p.predicate.clone()}>
                    <super::exercise::LatticeDone />
                    <div class="formula-line">
                        <span class="formula-name">{ "φ" }</span><code>{ &p.predicate }</code>
                        <span class="formula-name">{ "WP(s, φ)" }</span><code id="lattice-target">{ &data.target }</code>
                    </div>
                    if let Some(exact) = &data.exact {
                        <ExactView exact={exact.clone()} />
                    } else {
                        <Diagram data={data.clone()} key={format!("{:?}/{}", state.explain.statement, p.predicate)} />
                    }
                    <div class="lattice-result" id="lattice-result">
                        <div><span class="formula-name">{ "F(WP)" }</span><code id="f-goal">{ &data.goal_result }</code></div>
                        <div><span class="formula-name">{ "F(¬WP)" }</span><code id="f-negated">{ &data.negated_goal_result }</code></div>
                        <div><span class="formula-name">{ "so" }</span><code id="assigned">{ format!("{} := {}", p.predicate, p.assigned) }</code></div>
                    </div>
                </div>
            }
        }
    };
    html! {
        <div class="lattice-view">
            <StatementPicker />
            { body }
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct DiagramProps {
    data: LatticeData,
}

/// Starts a timer advancing `frame` until `total` (then clears it); returns the cleanup.
fn start_replay(frame: UseStateHandle<Option<u32>>, total: u32) -> Box<dyn FnOnce()> {
    let Some(window) = web_sys::window() else { return Box::new(|| ()) };
    let step = total.div_ceil(MAX_FRAMES).max(1);
    let counter = Rc::new(Cell::new(0u32));
    let done = Rc::new(Cell::new(false));
    frame.set(Some(0));
    let (tick_frame, tick_done) = (frame.clone(), done.clone());
    let tick = Closure::<dyn FnMut()>::new(move || {
        if tick_done.get() {
            return;
        }
        let next = counter.get() + step;
        counter.set(next);
        if next >= total {
            tick_done.set(true);
            tick_frame.set(None);
        } else {
            tick_frame.set(Some(next));
        }
    });
    let handle = window.set_interval_with_callback_and_timeout_and_arguments_0(tick.as_ref().unchecked_ref(), FRAME_MS).ok();
    Box::new(move || {
        if let Some(h) = handle {
            window.clear_interval_with_handle(h);
        }
        drop(tick);
    })
}

#[function_component(Diagram)]
fn diagram(props: &DiagramProps) -> Html {
    let state = use_app();
    let data = &props.data;
    let layout = use_memo(props.data.clone(), lattice::layout);
    // Some(k): the replay shows the cubes visited before BFS position k.
    let frame = use_state(|| None::<u32>);
    let playing = use_state(|| 0u32);
    let total = data.cubes.iter().map(|c| c.order + 1).max().unwrap_or(0);
    {
        let frame = frame.clone();
        use_effect_with(*playing, move |run| {
            let cleanup = if *run > 0 { start_replay(frame, total) } else { Box::new(|| ()) as Box<dyn FnOnce()> };
            move || cleanup()
        });
    }
    let animate = {
        let playing = playing.clone();
        Callback::from(move |_: MouseEvent| playing.set(*playing + 1))
    };
    let counts = lattice::outcome_counts(data);
    let legend = Outcome::ALL.iter().map(|&o| {
        html! {
            <span class={classes!("legend-item", format!("outcome-{}", o.key()))} data-outcome={o.key()}>
                <span class="swatch" />{ format!("{} ({})", o.legend(), counts[o as usize]) }
            </span>
        }
    });
    let shown = |order: u32| frame.is_none_or(|f| order <= f);
    let select = |i: usize| {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| state.dispatch(Action::SelectCube(Some(i))))
    };
    let chosen = state.explain.cube.filter(|&i| i < data.cubes.len());
    let picture = match &*layout {
        Layout::Empty => html! { <p class="hint">{ "No cube was queried: the predicate's weakest precondition needed no strengthening." }</p> },
        Layout::Diagram { nodes, edges, width, height, keys, level_tops } => html! {
            <>
            <div class="lattice-keys">
                { for keys.iter().map(|(k, name)| html! { <span class="key"><b>{ k }</b>{ " = " }<code>{ name }</code></span> }) }
            </div>
            <div class="lattice-scroll">
                <svg id="lattice-svg" class="lattice-svg" width={format!("{width:.0}")} height={format!("{height:.0}")}
                    viewBox={format!("0 0 {width:.0} {height:.0}")} role="group" aria-label="Cube lattice">
                    { for level_tops.iter().enumerate().filter(|(_, y)| y.is_finite()).map(|(level, y)| html! {
                        <text class="level-label" x="4" y={format!("{:.0}", y + 17.0)}>{ level }</text>
                    }) }
                    { for edges.iter().filter(|(a, b)| shown(nodes[*a].order) && shown(nodes[*b].order)).map(|&(a, b)| {
                        let (p, c) = (&nodes[a], &nodes[b]);
                        html! {
                            <line class="edge" x1={format!("{:.1}", p.x + p.width / 2.0)} y1={format!("{:.1}", p.y + NODE_HEIGHT)}
                                x2={format!("{:.1}", c.x + c.width / 2.0)} y2={format!("{:.1}", c.y)} />
                        }
                    }) }
                    { for nodes.iter().map(|n| {
                        let class = classes!(
                            "cube",
                            format!("outcome-{}", n.outcome.key()),
                            (!shown(n.order)).then_some("unvisited"),
                            (*frame == Some(n.order)).then_some("current"),
                            (chosen == Some(n.cube)).then_some("chosen"),
                        );
                        let cube = n.cube;
                        let onkeydown = {
                            let state = state.clone();
                            super::on_activate(Callback::from(move |()| state.dispatch(Action::SelectCube(Some(cube)))))
                        };
                        html! {
                            <g {class} data-outcome={n.outcome.key()} data-cube={n.full_label.clone()} data-order={n.order.to_string()} onclick={select(n.cube)}
                                tabindex="0" role="button" {onkeydown}>
                                <title>{ format!("{} — {} (#{})", n.full_label, n.outcome.legend(), n.order + 1) }</title>
                                <rect x={format!("{:.1}", n.x)} y={format!("{:.1}", n.y)} width={format!("{:.1}", n.width)} height={NODE_HEIGHT.to_string()} rx="6" />
                                <text x={format!("{:.1}", n.x + n.width / 2.0)} y={format!("{:.1}", n.y + 17.0)} text-anchor="middle">{ &n.label }</text>
                            </g>
                        }
                    }) }
                </svg>
            </div>
            </>
        },
        Layout::Rows(rows) => html! {
            <table class="lattice-rows" id="lattice-rows">
                <thead><tr>
                    <th>{ "length" }</th><th>{ "cubes" }</th>
                    { for Outcome::ALL.iter().filter(|o| **o != Outcome::OutsideCone).map(|o| html! { <th class={format!("outcome-{}", o.key())}>{ o.legend() }</th> }) }
                    <th>{ "implicants" }</th>
                </tr></thead>
                <tbody>
                    { for rows.iter().map(|row| html! {
                        <tr class={classes!("level-row", frame.is_some_and(|f| row.last_order > f).then_some("unvisited"))} data-length={row.length.to_string()}>
                            <td>{ row.length }</td>
                            <td>{ row.total() }</td>
                            { for Outcome::ALL.iter().filter(|o| **o != Outcome::OutsideCone).map(|o| html! {
                                <td class={classes!("count", format!("outcome-{}", o.key()))}>{ row.count(*o) }</td>
                            }) }
                            <td class="implicants">
                                { for row.implicants.iter().take(24).map(|&i| {
                                    let cube = &data.cubes[i];
                                    html! {
                                        <button class={classes!("cube-chip", format!("outcome-{}", cube.outcome), (chosen == Some(i)).then_some("chosen"))}
                                            data-outcome={cube.outcome.clone()} onclick={select(i)}>{ cube_label(&cube.literals) }</button>
                                    }
                                }) }
                                if row.implicants.len() > 24 { <span class="hint">{ format!(" +{} more", row.implicants.len() - 24) }</span> }
                            </td>
                        </tr>
                    }) }
                </tbody>
            </table>
        },
    };
    let details = chosen.map(|i| {
        let cube = &data.cubes[i];
        html! {
            <div class="cube-details" id="cube-query">
                <div><span class="formula-name">{ "cube" }</span><code>{ cube_label(&cube.literals) }</code>
                    <span class={classes!("badge", format!("outcome-{}", cube.outcome))}>{ Outcome::parse(&cube.outcome).legend() }</span></div>
                if cube.query.is_empty() {
                    <p class="hint">{ "No solver query: the cube was decided without the solver (pruned or beyond the length bound)." }</p>
                } else {
                    <pre class="query">{ &cube.query }</pre>
                    <div class="query-answer">{ format!("answer: {} · {:.0} µs · BFS position {}", cube.answer, cube.micros, cube.order + 1) }</div>
                }
            </div>
        }
    });
    html! {
        <>
            <div class="lattice-toolbar">
                <span class="legend" id="lattice-legend">{ for legend }</span>
                <span class="spacer" />
                <span class="hint">{ format!("cone: {} of {} predicates", data.cone.len(), data.cone.len() + data.outside_cone.len()) }</span>
                <button class="btn btn-small" id="lattice-animate" onclick={animate} disabled={total == 0}>
                    { if frame.is_some() { format!("▶ {} / {}", frame.unwrap_or(0) + 1, total) } else { "▶ animate".to_string() } }
                </button>
            </div>
            { picture }
            if !data.outside_cone.is_empty() {
                <div class="outside-cone">
                    <span class="hint">{ "outside the cone (never queried): " }</span>
                    { for data.outside_cone.iter().map(|p| html! { <span class="cube-chip outcome-outside_cone" data-outcome="outside_cone">{ p }</span> }) }
                </div>
            }
            { for details }
        </>
    }
}

#[derive(Properties, PartialEq)]
struct ExactProps {
    exact: ExactData,
}

/// The exact strategy: all valuations of the cone with the value of ψ, and the prime implicants.
#[function_component(ExactView)]
fn exact_view(props: &ExactProps) -> Html {
    let exact = &props.exact;
    let header: Vec<String> = exact.valuations.first().map(|row| row.iter().map(|(n, _)| n.clone()).collect()).unwrap_or_default();
    html! {
        <div class="exact" id="exact-view">
            <p class="hint">{ "Exact strategy: all-SAT enumerated the valuations of the cone, then minimised them to prime implicants. (Choose the cube lattice strategy in Settings to see the C2BP lattice.)" }</p>
            <h4>{ format!("Prime implicants of ψ ({})", exact.prime_implicants.len()) }</h4>
            <ul class="primes">
                { for exact.prime_implicants.iter().map(|c| html! { <li><code>{ cube_label(c) }</code></li> }) }
            </ul>
            <h4>{ format!("Valuations ({})", exact.valuations.len()) }</h4>
            <table class="valuations">
                <thead><tr>{ for header.iter().map(|h| html! { <th>{ h }</th> }) }</tr></thead>
                <tbody>
                    { for exact.valuations.iter().take(MAX_VALUATION_ROWS).map(|row| html! {
                        <tr>{ for row.iter().map(|(_, v)| html! { <td class={if *v { "val-true" } else { "val-false" }}>{ if *v { "T" } else { "F" } }</td> }) }</tr>
                    }) }
                </tbody>
            </table>
            if exact.valuations.len() > MAX_VALUATION_ROWS {
                <p class="hint">{ format!("… {} more valuations", exact.valuations.len() - MAX_VALUATION_ROWS) }</p>
            }
        </div>
    }
}
