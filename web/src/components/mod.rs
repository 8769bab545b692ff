//! The panes of the playground, as Yew function components reading the shared
//! [`AppState`](crate::state::AppState) context and the [`Commands`] context.

pub mod app;
pub mod boolprog;
pub mod editor;
pub mod footer;
pub mod predicates;
pub mod settings;
pub mod timeline;
pub mod topbar;
pub mod verdict;

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
