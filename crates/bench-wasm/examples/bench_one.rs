//! Checks one generated program with a time budget and prints its statistics (a debugging aid for the benchmark).
//! Run: `cargo run -p bench-wasm --example bench_one -- GLOBALS PROCS LOCALS STMTS SEED [recursive]`.

use boolprog::generate::{random_program, GeneratorParams};
use model_check::{check, Config};

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let recursion = std::env::args().any(|a| a == "recursive");
    let get = |i: usize, d: usize| args.get(i).copied().unwrap_or(d);
    let params = GeneratorParams {
        globals: get(0, 4),
        procs: get(1, 2),
        locals: get(2, 3),
        statements: get(3, 12),
        recursion,
        asserts: false,
        seed: get(4, 1000) as u64,
    };
    let program = random_program(&params);
    if std::env::args().any(|a| a == "print") {
        println!("{}", boolprog::print_bebop(&program).text);
    }
    let outcome = check(&program, &Config { compute_invariants: false, time_budget_ms: Some(20_000), ..Config::default() });
    println!("{:?} {:?}", outcome.verdict, outcome.statistics);
}
