//! Bounded memory (issue 33): a boolean program whose BDDs blow up stops at the memory limit
//! of the run's `budget::Meter`, which says why, and the process stays within that limit.
//!
//! The program draws `a0 … a15` and copies each into `b0 … b15`. The variable order keeps all
//! `a`s before all `b`s (globals in declaration order), so the reachable set `⋀ ai = bi` needs
//! about 2^15 nodes, and every one of the `c := !c` statements after the copies holds a path
//! edge of that size: the sum grows by that much per statement, far past the limit, while no
//! single BDD comes near the node budget. The model checker reports the sum of its path edges'
//! sizes to the meter (`symbolic.rs`) and stops before the limit with UNKNOWN.
//!
//! Measured in a child process (so that other tests do not move the peak); see the test's
//! output for the figures of the last run.

use super::child_process::{field, peak_resident_kib, run_child};
use model_check::{check, Config, Verdict};

const LIMIT_MIB: u64 = 32;
const CHILD: &str = "PREDABS_BDD_MEMORY_CHILD";
const PAIRS: usize = 14;
const FLIPS: usize = 2_000;

fn program(flips: usize) -> boolprog::Program {
    let a: Vec<String> = (0..PAIRS).map(|i| format!("a{i}")).collect();
    let b: Vec<String> = (0..PAIRS).map(|i| format!("b{i}")).collect();
    let mut text = format!("decl {}, {}, c;\nvoid main()\nbegin\n", a.join(", "), b.join(", "));
    for x in &a {
        text.push_str(&format!("  {x} := *;\n"));
    }
    for (x, y) in a.iter().zip(&b) {
        text.push_str(&format!("  {y} := {x};\n"));
    }
    for _ in 0..flips {
        text.push_str("  c := !c;\n");
    }
    text.push_str("  assert(a0 = b0);\nend\n");
    let (program, diagnostics) = boolprog::parse(&text);
    assert!(!diagnostics::has_errors(&diagnostics), "{diagnostics:?}");
    program
}

/// The measured run (in the child): prints `peak-growth-kib=N`, `verdict=S`, `memory-stop=B`, `peak-nodes=N`, `steps=N`.
fn blow_up_the_bdds() {
    let program = program(FLIPS);
    let meter = budget::Meter::with_limits(None, Some(600_000), Some(LIMIT_MIB << 20));
    let config = Config { meter: meter.clone(), ..Config::default() };
    let before = peak_resident_kib();
    let outcome = check(&program, &config);
    let after = peak_resident_kib();
    println!("peak-growth-kib={}", after.saturating_sub(before));
    println!("verdict={:?}", outcome.verdict);
    println!("memory-stop={}", meter.memory_exhausted().is_some());
    println!("peak-nodes={}", outcome.statistics.peak_bdd_nodes);
    println!("steps={}", outcome.statistics.iterations);
}

#[test]
fn the_memory_limit_stops_bdds_that_blow_up() {
    if std::env::var_os(CHILD).is_some() {
        return blow_up_the_bdds();
    }
    let started = std::time::Instant::now();
    let stdout = run_child("memory::the_memory_limit_stops_bdds_that_blow_up", CHILD);
    let field = |name: &str| field(&stdout, name);
    let growth_kib: u64 = field("peak-growth-kib=").parse().expect("a number");
    let verdict = field("verdict=");
    eprintln!(
        "BDD blow-up: peak resident memory grew by {} MiB (limit {LIMIT_MIB} MiB); {verdict}; peak {} nodes in one BDD, {} steps, {:.1} s",
        growth_kib >> 10,
        field("peak-nodes="),
        field("steps="),
        started.elapsed().as_secs_f64()
    );
    assert_eq!(field("memory-stop="), "true", "stopped by the memory estimate: {verdict}");
    assert!(verdict.contains("stopped before the memory limit: one structure would need about"), "{verdict}");
    assert!(verdict.contains(&format!("(limit {LIMIT_MIB} MB)")), "{verdict}");
    // within the limit, with a quarter of it to spare for the allocator
    assert!(growth_kib < (LIMIT_MIB + LIMIT_MIB / 4) << 10, "peak resident memory grew by {growth_kib} KiB");
}

#[test]
fn a_program_of_the_same_shape_that_fits_is_decided_under_the_limit() {
    // the limit stops the blow-up, not the shape: a few statements after the copies fit
    let meter = budget::Meter::with_limits(None, None, Some(LIMIT_MIB << 20));
    let outcome = check(&program(3), &Config { meter: meter.clone(), ..Config::default() });
    assert_eq!(outcome.verdict, Verdict::Safe);
    assert!(meter.memory_exhausted().is_none());
    assert!(meter.memory_peak() > 0, "the path edges were reported");
}
