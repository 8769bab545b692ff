//! The predabs playground: a Yew single-page app on the main thread and the engine in a web
//! worker, talking through the plain-data protocol of [`model`].
//!
//! Code map:
//! - [`model`]: messages between UI and worker, and the data the panes render;
//! - [`engine`]: the worker's request handler (pure Rust, unit-tested natively);
//! - [`worker`] / [`bridge`]: the two ends of the `postMessage` channel (JSON strings);
//! - [`state`]: the single reducer-based app state shared through a context;
//! - [`components`]: the panes and the explain views; [`highlight`], [`share`], [`storage`],
//!   [`examples`]; pure helpers of the views: [`lattice`] (Hasse diagram layout), [`formula`]
//!   (readable invariants), [`markdown`] (lab notes), [`reveal`] (a stepped iteration's phases
//!   one at a time), [`deeplink`] (links to a place of a run), [`exercise`] (predict, then
//!   reveal: the questions of an ordinary run, checked against the engine's answers).

pub mod bridge;
pub mod components;
pub mod deeplink;
pub mod engine;
pub mod examples;
pub mod exercise;
pub mod formula;
pub mod highlight;
pub mod lattice;
pub mod markdown;
pub mod model;
pub mod reveal;
pub mod share;
pub mod state;
pub mod storage;
pub mod worker;

pub use components::app::App;
