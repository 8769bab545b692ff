//! Runs `solver::bench` on the recorded abstraction queries with both back ends.

fn main() {
    for report in solver::bench::run_all() {
        println!("{report}");
    }
}
