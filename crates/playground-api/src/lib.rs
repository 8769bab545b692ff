//! The serializable façade over the engine used by the web worker and the CLI's `--json`.

mod engine;
pub use engine::replay_inputs;
pub mod examples;
pub mod explain;
pub mod refinement;
pub mod report;
mod run;
pub mod share;
pub mod types;

pub use run::{diagnostics_data, export_promela, lower_to_text, run, CheckSteps, Stepper};
pub use types::*;

/// `predabs bench-engine`: benchmark figures of the engine's parts as a text report
/// (solver throughput per back end, C2BP Table 2 style abstraction rows for both strategies,
/// model checking of generated boolean programs). Runs the same code natively and in wasm.
pub fn bench_engine() -> String {
    let mut out = String::new();
    out.push_str("== solver: recorded abstraction queries (cube => WP)\n");
    for line in solver::bench::run_all() {
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str("\n== abstraction (C2BP Table 2 style)\n");
    let mut rows = Vec::new();
    for bench in abstraction::bench::programs() {
        let (program, diagnostics) = c_front::lower(bench.source, bench.name, &c_front::LowerOptions::default());
        let Some(program) = program.filter(|_| !diagnostics::has_errors(&diagnostics)) else {
            out.push_str(&format!("{}: does not lower\n", bench.name));
            continue;
        };
        let (predicates, pd) = c_front::parse_predicates(&program, bench.predicates);
        if diagnostics::has_errors(&pd) {
            out.push_str(&format!("{}: predicates do not parse\n", bench.name));
            continue;
        }
        rows.extend(abstraction::bench::measure(bench.name, bench.lines(), &program, &predicates));
    }
    out.push_str(&abstraction::bench::format_table(&rows));
    out.push_str("\n== model checking generated boolean programs\n");
    let mc = model_check::bench::generated_programs(&model_check::bench::default_sizes(), &model_check::Config::default());
    out.push_str(&model_check::bench::format_rows(&mc));
    out
}
