//! The serializable façade over the engine used by the web worker and the CLI's `--json`.

mod engine;
pub mod examples;
pub mod explain;
mod run;
pub mod types;

pub use run::{diagnostics_data, export_promela, lower_to_text, run};
pub use types::*;

/// `predabs bench-engine`: benchmark figures of the engine's parts as a text report.
pub fn bench_engine() -> String {
    String::new()
}
