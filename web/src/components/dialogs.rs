//! Small dialogs: the share link (with a manual-copy fallback where the clipboard API is
//! missing, e.g. over plain http) and the keyboard shortcuts overlay (`?`).
//! Both take the focus when they open (see [`super::app`]) and close with Escape.

use super::use_app;
use crate::state::{Action, CopyStatus};
use yew::prelude::*;

/// The shortcuts, as (keys, what they do). The same keys work on Linux, Windows and macOS
/// (⌘ instead of Ctrl, Option instead of Alt); none is taken by a browser or a desktop.
pub const SHORTCUTS: &[(&str, &str)] = &[
    ("Ctrl+Enter  (⌘+Enter)", "Run"),
    ("Alt+.  (Option+.)", "Next iteration (Step)"),
    ("Alt+,  (Option+,)", "Previous iteration"),
    ("]  and  [", "Next / previous iteration (outside text fields)"),
    ("?", "This list (outside text fields)"),
    ("Escape", "Close a menu or dialog"),
    ("↑ ↓ Home End", "Move in the examples menu, the boolean program and the trace"),
    ("Enter or Space", "Open the focused example, iteration, line, trace step or cube"),
];

#[function_component(ShareDialog)]
pub fn share_dialog() -> Html {
    let state = use_app();
    let Some((url, status)) = state.share.clone() else { return html! {} };
    let close = {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| state.dispatch(Action::ClosePopup))
    };
    let select_all = Callback::from(|e: FocusEvent| {
        let input: web_sys::HtmlInputElement = e.target_unchecked_into();
        input.select();
    });
    let stop = Callback::from(|e: MouseEvent| e.stop_propagation());
    let message = match status {
        CopyStatus::Pending => "Copying…".to_string(),
        CopyStatus::Copied => format!("Link copied to the clipboard ({} characters).", url.len()),
        CopyStatus::Manual => {
            "This page cannot use the clipboard (plain http or permission refused). The link is selected: copy it with Ctrl+C (⌘C).".to_string()
        }
    };
    html! {
        <div class="dialog share-dialog" id="share-dialog" role="dialog" aria-labelledby="share-title" onclick={stop}>
            <div class="dialog-header">
                <h2 id="share-title">{ "Share this session" }</h2>
                <button class="btn btn-small" onclick={close} aria-label="Close">{ "×" }</button>
            </div>
            <label for="share-link">{ "Link (program, predicates, settings, mode and iteration)" }</label>
            <input id="share-link" type="text" readonly=true value={url} onfocus={select_all} />
            <p id="share-status" class={classes!("share-status", (status == CopyStatus::Manual).then_some("share-manual"))} role="status">{ message }</p>
            <p class="hint">{ "Whoever opens the link gets their own copy; their edits stay in their browser." }</p>
        </div>
    }
}

#[function_component(ShortcutsDialog)]
pub fn shortcuts_dialog() -> Html {
    let state = use_app();
    let close = {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| state.dispatch(Action::ClosePopup))
    };
    let stop = Callback::from(|e: MouseEvent| e.stop_propagation());
    html! {
        <div class="dialog-backdrop" onclick={close.clone()}>
            <div class="dialog shortcuts-dialog" id="shortcuts" role="dialog" aria-modal="true" aria-labelledby="shortcuts-title" onclick={stop}>
                <div class="dialog-header">
                    <h2 id="shortcuts-title">{ "Keyboard shortcuts" }</h2>
                    <button class="btn btn-small" id="shortcuts-close" onclick={close} aria-label="Close">{ "×" }</button>
                </div>
                <table class="shortcuts-table">
                    <tbody>
                        { for SHORTCUTS.iter().map(|(keys, what)| html! {
                            <tr><th scope="row"><kbd>{ *keys }</kbd></th><td>{ *what }</td></tr>
                        }) }
                    </tbody>
                </table>
                <h3>{ "Your work" }</h3>
                <p>{ "The program, predicates and settings are saved in this browser as you type, and come back after a reload. \
                      Share makes a link with all of it. After opening a shared link, your edits win on reload; \
                      the notice offers the shared version (or your previous program) in one click." }</p>
            </div>
        </div>
    }
}
