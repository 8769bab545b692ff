//! Bounded memory (issue 33): a generated program whose cube-lattice strengthening would grow
//! its work queue without bound stops at the memory limit of the run's `budget::Meter`, which
//! says why; the process stays within that limit.
//!
//! The program assigns `s = x0 + … + x19;` with the predicates `s == 7` and `xi == 0`: every
//! predicate `xi == 0` is in the cone of `WP(s == 7)`, no short cube implies it or its negation,
//! and the lattice's queue would grow towards all 3^20 cubes. The estimate of the queue (its
//! buffer by capacity and one heap block per cube, see `strengthen::queue_bytes`) passes a
//! 64 MiB limit and the strengthening stops (sound: `F = false`).
//!
//! Measured in a child process (so that other tests do not move the peak), test profile:
//! VmHWM grew by 61 MiB for the 64 MiB limit, 90,907 cubes, 1.1 s, the same cubes every run.
//! With the earlier estimate (queue length × (8 bytes per literal + 48)) the same run grew by
//! 95 MiB, past the limit, after 134,314 cubes; without a limit the queue grew past 2 GB
//! (issue 33's benchmark note).

use super::child_process::{field, peak_resident_kib, run_child};
use abstraction::{abstract_program, AbstractionConfig, Strategy};

const LIMIT_MIB: u64 = 64;
const CHILD: &str = "PREDABS_LATTICE_MEMORY_CHILD";

/// The measured run (in the child): prints `peak-growth-kib=N`, `stop-reason=S`, `memory-stop=B`, `cubes-visited=N`.
fn blow_up_the_lattice() {
    let terms: Vec<String> = (0..20).map(|i| format!("x{i}")).collect();
    let source = format!(
        "extern int __VERIFIER_nondet_int(void);\nint main(void) {{\n  int s, {};\n  s = {};\n  return s;\n}}\n",
        terms.iter().map(|t| format!("{t} = __VERIFIER_nondet_int()")).collect::<Vec<_>>().join(", "),
        terms.join(" + ")
    );
    let (program, diagnostics) = c_front::lower(&source, "lattice.c", &c_front::LowerOptions::default());
    assert!(!diagnostics::has_errors(&diagnostics), "{diagnostics:?}");
    let program = program.expect("lowered");
    let predicates = format!("main {{ s == 7, {} }}", terms.iter().map(|t| format!("{t} == 0")).collect::<Vec<_>>().join(", "));
    let (predicates, diagnostics) = c_front::parse_predicates(&program, &predicates);
    assert!(!diagnostics::has_errors(&diagnostics), "{diagnostics:?}");
    let mut config = AbstractionConfig::new(Strategy::Lattice);
    let meter = budget::Meter::with_limits(None, Some(600_000), Some(LIMIT_MIB << 20));
    config.solver.meter = meter.clone();
    let before = peak_resident_kib();
    let (abstraction, _) = abstract_program(&program, &predicates, &config);
    let after = peak_resident_kib();
    println!("peak-growth-kib={}", after.saturating_sub(before));
    println!("stop-reason={}", meter.stopped().map(|s| s.to_string()).unwrap_or_default());
    println!("memory-stop={}", meter.memory_exhausted().is_some());
    println!("cubes-visited={}", abstraction.statistics.cubes_visited);
}

#[test]
fn the_memory_limit_stops_a_lattice_that_blows_up() {
    if std::env::var_os(CHILD).is_some() {
        return blow_up_the_lattice();
    }
    let stdout = run_child("memory::the_memory_limit_stops_a_lattice_that_blows_up", CHILD);
    let field = |name: &str| field(&stdout, name);
    let growth_kib: u64 = field("peak-growth-kib=").parse().expect("a number");
    let stopped = field("stop-reason=");
    eprintln!("lattice blow-up: peak resident memory grew by {} MiB (limit {LIMIT_MIB} MiB); {stopped}; {} cubes", growth_kib >> 10, field("cubes-visited="));
    assert_eq!(field("memory-stop="), "true", "stopped by the memory estimate: {stopped}");
    assert!(stopped.starts_with("stopped before the memory limit: one structure would need about"), "{stopped}");
    assert!(stopped.ends_with(&format!("(limit {LIMIT_MIB} MB)")), "{stopped}");
    // within the limit, with a quarter of it to spare for the solver and the allocator
    assert!(growth_kib < (LIMIT_MIB + LIMIT_MIB / 4) << 10, "peak resident memory grew by {growth_kib} KiB");
}
