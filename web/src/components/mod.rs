//! The panes of the playground, as Yew function components reading the shared
//! [`AppState`](crate::state::AppState) context and the [`Commands`] context.

pub mod app;
pub mod boolprog;
pub mod dialogs;
pub mod editor;
pub mod exercise;
pub mod explain;
pub mod footer;
pub mod hide;
pub mod invariants;
pub mod lab;
pub mod labnotes;
pub mod lattice;
pub mod pds;
pub mod predicates;
pub mod settings;
pub mod shape;
pub mod solver_log;
pub mod timeline;
pub mod topbar;
pub mod trace;
pub mod verdict;
pub mod wp;

use crate::state::AppState;
use yew::prelude::*;

/// Actions with side effects (worker, clipboard, URL), provided by [`app::App`].
#[derive(Clone, PartialEq)]
pub struct Commands {
    pub run: Callback<()>,
    pub step: Callback<()>,
    pub cancel: Callback<()>,
    pub reset: Callback<()>,
    pub share: Callback<()>,
    pub download: Callback<()>,
}

/// The app state handle from the context (panics outside [`app::App`], a programming error).
#[hook]
pub fn use_app() -> UseReducerHandle<AppState> {
    use_context::<UseReducerHandle<AppState>>().expect("AppState context is provided by App")
}

#[hook]
pub fn use_commands() -> Commands {
    use_context::<Commands>().expect("Commands context is provided by App")
}

/// An empty-state placeholder for a pane.
#[derive(Properties, PartialEq)]
pub struct EmptyProps {
    pub children: Children,
}

#[function_component(Empty)]
pub fn empty(props: &EmptyProps) -> Html {
    html! { <div class="empty">{ props.children.clone() }</div> }
}

/// Scrolls the `container` element vertically so that its descendant `item` is visible (a third
/// from the top), unless it already is. Only `scrollTop` changes: no horizontal or page jumps.
pub fn reveal(container: &str, item: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let find = |selector: &str| document.query_selector(selector).ok().flatten();
    let (Some(container), Some(item)) = (find(container), find(item)) else { return };
    let (outer, inner) = (container.get_bounding_client_rect(), item.get_bounding_client_rect());
    let top = inner.top() - outer.top();
    if top < 0.0 || top + inner.height() > outer.height() {
        container.set_scroll_top(container.scroll_top() + (top - outer.height() / 3.0) as i32);
    }
}

/// Inputs listed one per item before the rest are summarised in one last item.
pub const SHOWN_INPUTS: usize = 200;

/// The items of a list of concrete inputs: the first [`SHOWN_INPUTS`], then "... N more" (a
/// run through a loop over a large array reads hundreds of thousands of inputs). Each input
/// is labelled with the C call and line that read it (`__VERIFIER_nondet_int()` at line 12 =
/// 5) when the outcome says, and the line is a link to the editor.
pub fn input_items(outcome: &playground_api::Outcome, on_line: &Callback<u32>) -> Html {
    let labelled = outcome.input_sources.len() == outcome.inputs.len();
    let rest = outcome.inputs.len().saturating_sub(SHOWN_INPUTS);
    html! {
        <>
            if labelled {
                { for outcome.input_sources.iter().take(SHOWN_INPUTS).map(|i| {
                    let line = i.line;
                    let focus = on_line.reform(move |_: MouseEvent| line);
                    html! {
                        <li class="input" data-line={line.to_string()}>
                            <code class="input-source">{ &i.source }</code>{ " at " }
                            <button class="link-button input-line" onclick={focus} title="show the line in the editor">{ format!("line {}", i.line) }</button>
                            { " = " }<code class="input-value">{ &i.value }</code>
                        </li>
                    }
                }) }
            } else {
                { for outcome.inputs.iter().take(SHOWN_INPUTS).map(|i| html! { <li><code>{ i }</code></li> }) }
            }
            if rest > 0 {
                <li class="more-inputs">{ format!("... and {rest} more inputs") }</li>
            }
        </>
    }
}

/// Moves the keyboard focus among the elements matching `items` inside `container` for a key
/// (ArrowDown/ArrowUp/Home/End; ArrowRight/ArrowLeft too when `horizontal`); returns the index
/// focused, or `None` when the key is not a movement (the caller lets it through).
pub fn move_focus(container: &web_sys::Element, items: &str, key: &str, horizontal: bool) -> Option<usize> {
    use wasm_bindgen::JsCast;
    let list = container.query_selector_all(items).ok()?;
    let elements: Vec<web_sys::HtmlElement> = (0..list.length()).filter_map(|i| list.item(i)?.dyn_into().ok()).collect();
    if elements.is_empty() {
        return None;
    }
    let active = web_sys::window().and_then(|w| w.document()).and_then(|d| d.active_element());
    let current = active.and_then(|a| elements.iter().position(|e| {
        let e: &web_sys::Element = e;
        *e == a || e.contains(Some(&a))
    }));
    let last = elements.len() - 1;
    let next = match key {
        "ArrowDown" => current.map_or(0, |i| (i + 1).min(last)),
        "ArrowRight" if horizontal => current.map_or(0, |i| (i + 1).min(last)),
        "ArrowUp" => current.map_or(0, |i| i.saturating_sub(1)),
        "ArrowLeft" if horizontal => current.map_or(0, |i| i.saturating_sub(1)),
        "Home" => 0,
        "End" => last,
        _ => return None,
    };
    let _ = elements[next].focus();
    Some(next)
}

/// A keydown handler for a container whose `items` form one keyboard stop (roving tabindex):
/// arrows, Home and End move the focus between them.
pub fn roving(items: &'static str) -> Callback<KeyboardEvent> {
    Callback::from(move |e: KeyboardEvent| {
        use wasm_bindgen::JsCast;
        let Some(container) = e.current_target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
        if move_focus(&container, items, &e.key(), false).is_some() {
            e.prevent_default();
        }
    })
}

/// A keydown handler that runs `action` on Enter or Space.
pub fn on_activate(action: Callback<()>) -> Callback<KeyboardEvent> {
    Callback::from(move |e: KeyboardEvent| {
        if is_activation(&e) {
            e.prevent_default();
            action.emit(());
        }
    })
}

/// `tabindex` of item `index` in a roving group whose stop is `stop` (else the first item).
pub fn tab_stop(index: usize, stop: Option<usize>) -> &'static str {
    if index == stop.unwrap_or(0) {
        "0"
    } else {
        "-1"
    }
}

/// Whether a key activates the focused item (Enter or Space).
pub fn is_activation(e: &KeyboardEvent) -> bool {
    matches!(e.key().as_str(), "Enter" | " ")
}

/// A C line reference (`L12`) or nothing.
pub fn line_ref(line: Option<u32>) -> String {
    line.map(|l| format!("L{l}")).unwrap_or_default()
}
