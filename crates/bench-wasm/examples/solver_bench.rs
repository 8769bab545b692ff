//! Runs `bench_wasm::solver_bench` on the recorded abstraction queries with both back ends.

fn main() {
    for report in bench_wasm::solver_bench::run_all() {
        println!("{report}");
    }
}
