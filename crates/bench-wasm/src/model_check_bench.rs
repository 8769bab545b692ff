//! The model-checking benchmark: generated boolean programs ([`boolprog::generate`]) of growing
//! size, checked by BEBOP's engine (time, peak BDD nodes, fixpoint iterations).

use boolprog::generate::{random_program, GeneratorParams};
use model_check::{check, Config, Verdict};
use web_time::Instant;

#[derive(Clone, Debug)]
pub struct BenchRow {
    pub params: GeneratorParams,
    pub verdict: Verdict,
    pub time_ms: f64,
    pub peak_bdd_nodes: usize,
    pub iterations: u64,
    pub bdd_variables: usize,
}

/// Sizes growing in variables and procedures, with recursion and without asserts (so every
/// program is safe and the checker computes the full fixpoint).
pub fn default_sizes() -> Vec<GeneratorParams> {
    [(4, 2, 3, 12), (8, 4, 4, 20), (12, 8, 6, 30), (16, 12, 8, 40), (24, 16, 10, 50), (32, 24, 12, 60)]
        .iter()
        .enumerate()
        .map(|(i, &(globals, procs, locals, statements))| GeneratorParams {
            globals,
            procs,
            locals,
            statements,
            recursion: true,
            asserts: false,
            seed: 1000 + i as u64,
        })
        .collect()
}

/// Model-checks one generated program per entry of `sizes` (no invariants, with traces),
/// measuring wall time and peak BDD nodes.
pub fn generated_programs(sizes: &[GeneratorParams], config: &Config) -> Vec<BenchRow> {
    sizes
        .iter()
        .map(|params| {
            let program = random_program(params);
            let start = Instant::now();
            let outcome = check(&program, config);
            BenchRow {
                params: params.clone(),
                verdict: outcome.verdict,
                time_ms: start.elapsed().as_secs_f64() * 1000.0,
                peak_bdd_nodes: outcome.statistics.peak_bdd_nodes,
                iterations: outcome.statistics.iterations,
                bdd_variables: outcome.statistics.bdd_variables,
            }
        })
        .collect()
}

/// The rows as a plain-text table.
pub fn format_rows(rows: &[BenchRow]) -> String {
    let mut out = String::from("globals procs locals stmts  verdict          time_ms  peak_nodes  iterations\n");
    for r in rows {
        let verdict = match &r.verdict {
            Verdict::Safe => "SAFE".to_string(),
            Verdict::ErrorReachable => "UNSAFE".to_string(),
            Verdict::Unknown(why) => format!("UNKNOWN({why})"),
        };
        out.push_str(&format!(
            "{:>7} {:>5} {:>6} {:>5}  {:<15} {:>8.1} {:>11} {:>11}\n",
            r.params.globals, r.params.procs, r.params.locals, r.params.statements, verdict, r.time_ms, r.peak_bdd_nodes, r.iterations
        ));
    }
    out
}
