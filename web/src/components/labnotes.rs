//! Lab notes: the guided exercise of the open gallery example, rendered from its markdown with
//! the tiny subset of [`crate::markdown`] (text nodes only, never raw HTML).

use super::{use_app, Empty};
use crate::markdown::{self, Block, Inline};
use yew::prelude::*;

fn inlines(nodes: &[Inline]) -> Html {
    nodes
        .iter()
        .map(|n| match n {
            Inline::Text(t) => html! { { t.clone() } },
            Inline::Code(c) => html! { <code>{ c.clone() }</code> },
            Inline::Strong(inner) => html! { <strong>{ inlines(inner) }</strong> },
            Inline::Emphasis(inner) => html! { <em>{ inlines(inner) }</em> },
        })
        .collect()
}

/// Renders parsed markdown blocks.
pub fn render(blocks: &[Block]) -> Html {
    blocks
        .iter()
        .map(|b| match b {
            Block::Heading(1, t) => html! { <h2>{ inlines(t) }</h2> },
            Block::Heading(2, t) => html! { <h3>{ inlines(t) }</h3> },
            Block::Heading(_, t) => html! { <h4>{ inlines(t) }</h4> },
            Block::Paragraph(t) => html! { <p>{ inlines(t) }</p> },
            Block::List { ordered: true, items } => html! { <ol>{ for items.iter().map(|i| html! { <li>{ inlines(i) }</li> }) }</ol> },
            Block::List { ordered: false, items } => html! { <ul>{ for items.iter().map(|i| html! { <li>{ inlines(i) }</li> }) }</ul> },
        })
        .collect()
}

#[function_component(LabNotesView)]
pub fn lab_notes_view() -> Html {
    let state = use_app();
    let example = state.session.example.as_deref().and_then(crate::examples::by_id);
    match example {
        Some(example) => html! {
            <article class="lab-notes" id="lab-notes" data-example={example.id}>
                { render(&markdown::parse(example.lab_note)) }
            </article>
        },
        None => html! {
            <Empty><p>{ "Lab notes come with the gallery examples: open one from Examples." }</p></Empty>
        },
    }
}
