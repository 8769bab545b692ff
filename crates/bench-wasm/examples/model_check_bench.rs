//! Benchmark: model-checks generated boolean programs of growing size (time, peak BDD nodes),
//! then compares recursion-free ones with SPIN when `spin` and `gcc` are installed.
//! Run: `cargo run -p bench-wasm --example model_check_bench [--release]`.

use std::process::Command;

use bench_wasm::model_check_bench::{default_sizes, format_rows, generated_programs};
use boolprog::generate::random_program;
use model_check::Config;
use web_time::Instant;

fn main() {
    let config = Config { compute_invariants: false, time_budget_ms: Some(30_000), ..Config::default() };
    println!("recursive programs:");
    println!("{}", format_rows(&generated_programs(&default_sizes(), &config)));
    let flat: Vec<_> = default_sizes().into_iter().map(|mut p| {
        p.recursion = false;
        p
    }).collect();
    println!("recursion-free programs:");
    let rows = generated_programs(&flat, &config);
    println!("{}", format_rows(&rows));
    let spin_ok = Command::new("spin").arg("-V").output().map(|o| o.status.success()).unwrap_or(false);
    if !spin_ok {
        println!("spin not installed: no comparison");
        return;
    }
    println!("SPIN comparison (pan time only / including spin -a and gcc -O2), BDD time / SPIN time:");
    for (params, row) in flat.iter().zip(&rows) {
        let program = random_program(params);
        let model = match boolprog::promela::export(&program) {
            Ok(model) => model,
            Err(e) => {
                println!("{:>3} globals {:>3} procs: export failed: {}", params.globals, params.procs, e.message);
                continue;
            }
        };
        if model.len() > 150_000 {
            println!("{:>3} globals {:>3} procs: inlined Promela has {} bytes, skipped", params.globals, params.procs, model.len());
            continue;
        }
        let dir = std::env::temp_dir().join(format!("predabs-bench-{}-{}", std::process::id(), params.globals));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("model.pml"), model).unwrap();
        let t0 = Instant::now();
        let ok = Command::new("spin").args(["-a", "model.pml"]).current_dir(&dir).output().unwrap().status.success()
            && Command::new("gcc").args(["-O2", "-DSAFETY", "-DVECTORSZ=65536", "-o", "pan", "pan.c"]).current_dir(&dir).output().unwrap().status.success();
        let build_ms = t0.elapsed().as_secs_f64() * 1000.0;
        if !ok {
            println!("{:>3} globals: spin/gcc failed", params.globals);
            continue;
        }
        let t1 = Instant::now();
        let pan = Command::new("timeout").args(["120", "./pan", "-E", "-m1000000", "-w22"]).current_dir(&dir).output().unwrap();
        let pan_ms = t1.elapsed().as_secs_f64() * 1000.0;
        let out = String::from_utf8_lossy(&pan.stdout);
        let verdict = if out.contains("assertion violated") { "UNSAFE" } else if out.contains("errors: 0") { "SAFE" } else { "?" };
        println!(
            "{:>3} globals {:>3} procs: BDD {:>8.1} ms ({:?}), SPIN pan {:>8.1} ms + build {:>8.1} ms ({verdict}); ratio BDD/pan = {:.2}",
            params.globals, params.procs, row.time_ms, row.verdict, pan_ms, build_ms, row.time_ms / pan_ms.max(0.001)
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
