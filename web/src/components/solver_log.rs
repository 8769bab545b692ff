//! The solver log: every decision-procedure query of the chosen statement (C syntax) with its
//! answer, time and whether the cache answered it, and totals with the cache-hit rate. Check
//! mode records no per-query log while it runs: there the view shows each iteration's solver
//! totals, and the selected iteration's log once the worker has recomputed it.

use super::explain::StatementPicker;
use super::use_app;
use playground_api::explain::QueryData;
use yew::prelude::*;

/// Rows shown at once (the totals always cover everything).
const MAX_ROWS: usize = 400;

fn totals(queries: &[&QueryData]) -> (usize, f64, usize) {
    let micros = queries.iter().map(|q| q.micros).sum();
    let cached = queries.iter().filter(|q| q.cached).count();
    (queries.len(), micros, cached)
}

fn rate(cached: usize, count: usize) -> String {
    if count == 0 {
        "–".into()
    } else {
        format!("{:.0}%", 100.0 * cached as f64 / count as f64)
    }
}

#[function_component(SolverLogView)]
pub fn solver_log_view() -> Html {
    let state = use_app();
    let check = state.run.kind == Some(crate::model::RunKind::Check);
    let Some(explanation) = state.explanation() else {
        // Check mode: totals per iteration, and the selected iteration's log once computed
        return html! {
            <div class="solver-view">
                <p class="hint">{ match state.explanation_pending() {
                    Some(None) => "Computing the selected iteration's solver queries… Solver work per CEGAR iteration:".to_string(),
                    Some(Some(error)) => format!("No per-query log for this iteration ({error}). Solver work per CEGAR iteration:"),
                    None => "Per-query logs are recorded in Abstract mode, and in Check mode for the iteration selected in the timeline. Solver work per CEGAR iteration:".to_string(),
                } }</p>
                { iteration_totals(&state) }
            </div>
        };
    };
    let all: Vec<&QueryData> = explanation.solver_log.iter().collect();
    let (count, micros, cached) = totals(&all);
    let chosen = state.explain.statement;
    let shown: Vec<&QueryData> = match chosen {
        Some(i) => all.iter().copied().filter(|q| q.statement as usize == i).collect(),
        None => all.clone(),
    };
    let (shown_count, shown_micros, shown_cached) = totals(&shown);
    html! {
        <div class="solver-view">
            if check {
                { iteration_totals(&state) }
                <h4>{ format!("Queries of iteration {}'s abstraction (recomputed with its predicates)", state.selected_iteration().map_or(0, |it| it.index)) }</h4>
            }
            <StatementPicker />
            <p class="solver-totals" id={if check { "solver-log-totals" } else { "solver-totals" }}>
                { format!("Whole abstraction: {count} queries, {:.1} ms, {cached} answered by the cache (hit rate {})", micros / 1000.0, rate(cached, count)) }
                <br />
                { format!("{}: {shown_count} queries, {:.1} ms, cache hit rate {}",
                    if chosen.is_some() { "This statement" } else { "Shown" }, shown_micros / 1000.0, rate(shown_cached, shown_count)) }
            </p>
            <div class="table-scroll">
                <table class="trace-table solver-table" id="solver-log">
                    <thead><tr><th>{ "#" }</th><th>{ "for" }</th><th>{ "query (valid?)" }</th><th>{ "answer" }</th><th>{ "µs" }</th><th>{ "cache" }</th></tr></thead>
                    <tbody>
                        { for shown.iter().take(MAX_ROWS).enumerate().map(|(k, q)| html! {
                            <tr class={classes!("query-row", format!("answer-{}", q.answer))}>
                                <td class="num">{ k + 1 }</td>
                                <td><code>{ &q.predicate }</code></td>
                                <td><code class="query-text">{ &q.formula }</code></td>
                                <td class="answer">{ &q.answer }</td>
                                <td class="num">{ format!("{:.0}", q.micros) }</td>
                                <td>{ if q.cached { "hit" } else { "" } }</td>
                            </tr>
                        }) }
                    </tbody>
                </table>
            </div>
            if shown.len() > MAX_ROWS {
                <p class="hint">{ format!("… {} more queries", shown.len() - MAX_ROWS) }</p>
            }
        </div>
    }
}

/// Check mode: the solver work of each CEGAR iteration and of the whole run.
fn iteration_totals(state: &crate::state::AppState) -> Html {
    html! {
        <>
            <table class="trace-table" id="solver-iterations">
                <thead><tr><th>{ "iteration" }</th><th>{ "queries" }</th><th>{ "abstraction" }</th><th>{ "model checking" }</th><th>{ "refinement" }</th></tr></thead>
                <tbody>
                    { for state.run.iterations.iter().map(|it| html! {
                        <tr>
                            <td>{ it.index }</td><td>{ it.statistics.solver_queries }</td>
                            <td>{ format!("{:.0} ms", it.statistics.abstraction_ms) }</td>
                            <td>{ format!("{:.0} ms", it.statistics.model_check_ms) }</td>
                            <td>{ format!("{:.0} ms", it.statistics.refine_ms) }</td>
                        </tr>
                    }) }
                </tbody>
            </table>
            if let Some(o) = &state.run.outcome {
                <p id="solver-totals">{ format!("Total: {} solver queries in {:.0} ms", o.statistics.solver_queries, o.elapsed_ms) }</p>
            }
        </>
    }
}
