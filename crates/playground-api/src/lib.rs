//! The serializable façade over the engine used by the web worker and the CLI's `--json`.

mod engine;
pub use engine::{explain_iteration, replay_inputs};
pub mod examples;
pub mod explain;
pub mod hide;
mod names;
pub mod lab;
pub mod refinement;
pub mod report;
pub mod pushdown;
pub mod query;
mod run;
pub mod shape;
pub mod share;
pub mod types;
pub mod witness;

pub use boolprog::Dialect;
pub use run::{diagnostics_data, export_dialect, export_promela, lower_to_text, run, CheckSteps, Stepper};
pub use types::*;
