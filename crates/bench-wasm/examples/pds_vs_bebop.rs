//! Benchmark: the pushdown-system engine (post* saturation, BOOP ch. 6) against the BEBOP engine
//! on the generated programs of `model_check_bench` (with and without recursion), verdicts only.
//! Run: `cargo run --profile native -p bench-wasm --example pds_vs_bebop`.

use bench_wasm::model_check_bench::default_sizes;
use boolprog::generate::random_program;
use model_check::{check, pds, Config, Verdict};
use web_time::Instant;

fn name(v: &Verdict) -> String {
    match v {
        Verdict::Safe => "SAFE".into(),
        Verdict::ErrorReachable => "UNSAFE".into(),
        Verdict::Unknown(why) => format!("UNKNOWN({why})"),
    }
}

fn main() {
    let config = Config {
        compute_invariants: false,
        compute_trace: false,
        time_budget_ms: Some(60_000),
        ..Config::default()
    };
    println!(
        "recursion globals procs  bebop_ms    pds_ms  pds/bebop  bebop_peak  pds_peak  verdict"
    );
    let (mut total_bebop, mut total_pds) = (0.0, 0.0);
    for recursion in [true, false] {
        for mut params in default_sizes() {
            params.recursion = recursion;
            let program = random_program(&params);
            let t = Instant::now();
            let bebop = check(&program, &config);
            let bebop_ms = t.elapsed().as_secs_f64() * 1000.0;
            let t = Instant::now();
            let pushdown = pds::check(&program, &config);
            let pds_ms = t.elapsed().as_secs_f64() * 1000.0;
            let agree = if bebop.verdict == pushdown.verdict {
                name(&bebop.verdict)
            } else {
                format!(
                    "DISAGREE {} vs {}",
                    name(&bebop.verdict),
                    name(&pushdown.verdict)
                )
            };
            println!(
                "{:>9} {:>7} {:>5} {:>9.1} {:>9.1} {:>10.2} {:>11} {:>9}  {agree}",
                recursion,
                params.globals,
                params.procs,
                bebop_ms,
                pds_ms,
                pds_ms / bebop_ms.max(0.001),
                bebop.statistics.peak_bdd_nodes,
                pushdown.statistics.peak_bdd_nodes
            );
            total_bebop += bebop_ms;
            total_pds += pds_ms;
        }
    }
    println!(
        "total: bebop {total_bebop:.1} ms, pds {total_pds:.1} ms, ratio pds/bebop {:.2}",
        total_pds / total_bebop.max(0.001)
    );
}
