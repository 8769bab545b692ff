//! The boolean program of the selected iteration, each line tinted by the C line it came from;
//! hovering a line lights up its C partner and vice versa (Compiler Explorer style). The text
//! is the boolean program exactly as downloaded; predicates whose names the lowering changed
//! (`{n_main == 0}`) are listed above it with their source form (`{main::n == 0}`, as the trace
//! and explain views print them), and a line's title names the source form of those it uses. The lines
//! are one keyboard stop: ArrowUp/Down/Home/End move between them (lighting the partner like a
//! hover), Enter or Space picks one. In "Boolean program" mode the errors of the program
//! written by the user are listed here with line and column.

use super::{is_activation, move_focus, reveal, use_app, Empty};
use crate::highlight;
use crate::model::{bool_lines, RunKind};
use crate::state::{Action, Hover};
use playground_api::{Dialect, Severity};
use wasm_bindgen::JsCast;
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
    let bp_errors: Vec<_> = state
        .run
        .diagnostics_for(RunKind::ModelCheck)
        .iter()
        .filter(|d| state.session.mode == RunKind::ModelCheck && d.severity == Severity::Error)
        .cloned()
        .collect();
    let body = match state.selected_iteration() {
        None if !bp_errors.is_empty() => html! {
            <div class="bp-errors" id="bp-diagnostics" role="alert">
                <p><strong>{ format!("The boolean program has {}:", crate::model::plural(bp_errors.len(), "error")) }</strong></p>
                <ul>
                    { for bp_errors.iter().map(|d| html! {
                        <li class="bp-error" data-line={d.line.to_string()}>
                            <span class="diag-pos">{ format!("line {}, column {}", d.line, d.column) }</span>
                            { ": " }<span class="diag-msg">{ &d.message }</span>
                            if let Some(help) = &d.help { <span class="diag-help">{ help }</span> }
                        </li>
                    }) }
                </ul>
            </div>
        },
        None => html! {
            <Empty>
                <p>{ "The boolean program of the selected iteration appears here after Run." }</p>
                <p class="hint">{ "Each line is linked to the C statement it abstracts: hover either side." }</p>
            </Empty>
        },
        Some(it) => {
            let counterexample_shown = state.selected.is_some_and(|i| state.reveal.shows(i, crate::reveal::Phase::Counterexample));
            let on_trace: Vec<u32> = if counterexample_shown { it.abstract_trace.iter().filter_map(|s| s.bp_line).collect() } else { Vec::new() };
            // lines with an explanation (Abstract mode): clicking them opens the explain views
            let explained: Vec<u32> =
                it.explanation.iter().flat_map(|e| e.statements.iter().filter_map(|s| s.bp_line)).collect();
            let on_leave = {
                let state = state.clone();
                Callback::from(move |_: MouseEvent| state.dispatch(Action::Hover(Hover::None)))
            };
            let on_key = Callback::from(move |e: KeyboardEvent| {
                let Some(pre) = e.current_target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
                if move_focus(&pre, ".bp-line", &e.key(), false).is_some() {
                    e.prevent_default();
                }
            });
            // the one line in the tab order: the pinned one, else the first
            let tab_stop = state.focus.bp_line.unwrap_or(1);
            let names = &it.predicate_names;
            let legend = (!names.is_empty()).then(|| html! {
                <details class="bp-names" id="bp-names">
                    <summary>{ format!("In the source's terms: {}", crate::model::plural(names.len(), "predicate")) }</summary>
                    <ul>
                        { for names.iter().map(|(own, shown)| html! {
                            <li data-name={own.clone()}><code>{ own }</code>{ " is " }<code class="bp-source-name">{ shown }</code></li>
                        }) }
                    </ul>
                </details>
            });
            html! {
                <>
                { for legend }
                <pre class="bp-code" id="boolean-program" onmouseleave={on_leave} onkeydown={on_key} aria-label="Boolean program lines">
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
                        let onkeydown = {
                            let state = state.clone();
                            Callback::from(move |e: KeyboardEvent| {
                                if is_activation(&e) {
                                    e.prevent_default();
                                    state.dispatch(Action::SelectBoolLine(number));
                                }
                            })
                        };
                        let onfocus = {
                            let state = state.clone();
                            Callback::from(move |_: FocusEvent| state.dispatch(Action::Hover(Hover::BoolLine(i, range))))
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
                        // the source form of the renamed predicates this line uses
                        let used: Vec<String> = names.iter().filter(|(own, _)| line.text.contains(own.as_str())).map(|(own, shown)| format!("{own} is {shown}")).collect();
                        let title = (!used.is_empty()).then(|| used.join("\n"));
                        html! {
                            <div {class} {title} data-c-line={range.map(|r| r.first.to_string())} data-bp-line={number.to_string()}
                                tabindex={if number == tab_stop { "0" } else { "-1" }} {onmouseenter} {onclick} {onkeydown} {onfocus}>
                                <span class="bp-cref" title="C line">{ c_ref.unwrap_or_default() }</span>
                                <span class="bp-text">
                                    { for highlight::lines(line.text).into_iter().flatten().map(|(c, t)| html! { <span class={c.css()}>{ t }</span> }) }
                                </span>
                            </div>
                        }
                    }) }
                </pre>
                </>
            }
        }
    };
    let download = state.selected_iteration().map(|it| {
        let (name, text) = (format!("iteration-{}.bp", it.index), it.boolean_program.text.clone());
        let onclick = Callback::from(move |_: MouseEvent| super::app::download(&name, &text));
        html! {
            <button class="btn btn-small" id="download-bp" {onclick} title="Download this boolean program (Bebop/Moped syntax)"
                aria-label={format!("Download .bp of iteration {}", it.index)}><span aria-hidden="true">{ "⤓" }</span>{ " .bp" }</button>
        }
    });
    let exports = state.selected_iteration().map(|it| html! { <Exports index={it.index} text={it.boolean_program.text.clone()} /> });
    html! {
        <>
            <div class="pane-header"><h2>{ header }</h2><span class="spacer" />{ for download }</div>
            // without lines to focus, the scrollable body itself takes the keyboard
            <div class="pane-body" tabindex={state.selected_iteration().is_none().then_some("0")}>{ body }</div>
            { for exports }
        </>
    }
}

#[derive(Properties, PartialEq)]
struct ExportsProps {
    index: u32,
    /// The boolean program in Bebop/Moped syntax (what the pane shows).
    text: String,
}

/// The boolean program for other model checkers, each with the command line that checks it,
/// beside the `.bp` download: Promela for SPIN (calls inlined; the export refuses recursive
/// programs), Moped's input (the error as a label) and boppo's dialect (SatAbs).
#[function_component(Exports)]
fn exports(props: &ExportsProps) -> Html {
    let problem = use_state(|| None::<String>);
    {
        let problem = problem.clone();
        use_effect_with(props.text.clone(), move |_| problem.set(None));
    }
    let file = format!("iteration-{}.pml", props.index);
    let onclick = export_on_click(file.clone(), props.text.clone(), problem.clone(), playground_api::export_promela);
    let command = spin_command(&file);
    let dialects = Dialect::ALL.map(|dialect| {
        let file = format!("iteration-{}{}", props.index, dialect.file_suffix());
        let onclick = export_on_click(file.clone(), props.text.clone(), problem.clone(), move |text: &str| {
            playground_api::export_dialect(text, dialect)
        });
        let tool = dialect.tool();
        let (what, label, note) = match dialect {
            Dialect::Moped => (
                "Moped's boolean-program input (Bebop syntax; every failing assert calls a procedure labelled predabs_error)",
                "Moped:",
                "Asks whether the label predabs_error is reachable: Moped answers Reachable. when an assert can fail, Not reachable. when none can",
            ),
            Dialect::Boppo => (
                "the input language of SatAbs' boppo (predicate names become b0, b1, ...; a comment maps them back)",
                "boppo:",
                "Checks every assert from main",
            ),
        };
        html! {
            <div class="bp-exports">
                <button class="btn btn-small" id={format!("download-{tool}")} {onclick}
                    title={format!("Download this boolean program as {what}")}
                    aria-label={format!("Download {} of iteration {}", dialect.file_suffix(), props.index)}>
                    <span aria-hidden="true">{ "⤓" }</span>{ format!(" {}", dialect.file_suffix()) }</button>
                <span class="bp-export-label">{ label }</span>
                <code id={format!("{tool}-command")} title={note}>{ dialect.command(&file) }</code>
            </div>
        }
    });
    html! {
        <>
        <div class="bp-exports" id="bp-exports">
            <button class="btn btn-small" id="download-promela" {onclick}
                title="Download this boolean program as Promela, every call inlined, for the SPIN model checker"
                aria-label={format!("Download .pml (Promela) of iteration {}", props.index)}><span aria-hidden="true">{ "⤓" }</span>{ " .pml" }</button>
            <span class="bp-export-label">{ "SPIN:" }</span>
            <code id="spin-command" title="Checks every assert: pan reports errors: 0 when none can fail; then `spin -t -p` replays a failing run">{ command }</code>
            if let Some(message) = &*problem {
                <span class="bp-export-problem" role="alert">{ format!("No export: {message}") }</span>
            }
        </div>
        { for dialects }
        </>
    }
}

/// A click that downloads `export(text)` as `file`, or shows in `problem` why it cannot.
fn export_on_click(
    file: String,
    text: String,
    problem: UseStateHandle<Option<String>>,
    export: impl Fn(&str) -> Result<String, Vec<playground_api::DiagnosticData>> + 'static,
) -> Callback<MouseEvent> {
    Callback::from(move |_: MouseEvent| match export(&text) {
        Ok(exported) => {
            problem.set(None);
            super::app::download(&file, &exported);
        }
        Err(diagnostics) => problem.set(Some(
            diagnostics.first().map(|d| d.message.clone()).unwrap_or_else(|| "this boolean program cannot be exported".into()),
        )),
    })
}

/// The shell command that checks the exported Promela file with SPIN: generate the verifier,
/// compile it for safety properties (asserts) and run it ignoring invalid end states.
fn spin_command(file: &str) -> String {
    format!("spin -a {file} && gcc -O2 -DSAFETY -o pan pan.c && ./pan -E")
}

#[cfg(test)]
mod tests {
    use super::spin_command;

    #[test]
    fn the_spin_command_names_the_downloaded_file() {
        assert_eq!(spin_command("iteration-2.pml"), "spin -a iteration-2.pml && gcc -O2 -DSAFETY -o pan pan.c && ./pan -E");
    }
}
