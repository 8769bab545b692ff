//! The C2BP Table 2 programs (§6.2: `tests/programs/NAME.c` with `tests/abstraction/NAME.preds`,
//! the files the gallery and the engine benchmark `bench_wasm::abstraction_bench` read; reverse
//! is Fig 3's `mark` with the `h`/`hnext` instrumentation) lower, abstract with the exact
//! strategy, and agree with the lattice strategy.

use crate::support::assert_strategies_agree;
use c_ir::{PredicateSet, Program};

/// (name, C source, predicate file) of each Table 2 program.
const PROGRAMS: [(&str, &str, &str); 5] = [
    ("partition", include_str!("../../../../tests/programs/partition.c"), include_str!("../../../../tests/abstraction/partition.preds")),
    ("listfind", include_str!("../../../../tests/programs/listfind.c"), include_str!("../../../../tests/abstraction/listfind.preds")),
    ("reverse", include_str!("../../../../tests/programs/reverse.c"), include_str!("../../../../tests/abstraction/reverse.preds")),
    ("kmp", include_str!("../../../../tests/programs/kmp.c"), include_str!("../../../../tests/abstraction/kmp.preds")),
    ("qsort", include_str!("../../../../tests/programs/qsort.c"), include_str!("../../../../tests/abstraction/qsort.preds")),
];

fn lower(&(name, source, predicates): &(&str, &str, &str)) -> (Program, PredicateSet) {
    let (program, diags) = c_front::lower(source, &format!("{name}.c"), &c_front::LowerOptions::default());
    assert!(!diagnostics::has_errors(&diags), "{name}: {diags:?}");
    let program = program.expect("lowered");
    let (set, diags) = c_front::parse_predicates(&program, predicates);
    assert!(!diagnostics::has_errors(&diags), "{name}: {diags:?}");
    (program, set)
}

#[test]
fn benchmark_programs_abstract_and_strategies_agree() {
    for p in &PROGRAMS {
        let (program, set) = lower(p);
        assert!(!set.is_empty(), "{}", p.0);
        let (lattice, exact) = assert_strategies_agree(&program, &set);
        assert!(exact.statistics.prover_calls > 0, "{}", p.0);
        // the lattice answers most of its queries from the counter-models of earlier ones
        assert!(lattice.statistics.cache_hits > lattice.statistics.prover_calls, "{}: {:?}", p.0, lattice.statistics);
    }
}

/// Reusing exact strengthenings (off while recording, which shows every enumeration) and the
/// small-model pointer width change no result: the boolean programs are identical.
#[test]
fn exact_results_do_not_depend_on_recording() {
    for p in &PROGRAMS {
        let (program, set) = lower(p);
        let mut texts = Vec::new();
        for record in [false, true] {
            let mut config = abstraction::AbstractionConfig::new(abstraction::Strategy::Exact);
            config.record_lattices = record;
            let (a, diags) = abstraction::abstract_program(&program, &set, &config);
            assert!(!diagnostics::has_errors(&diags), "{}: {diags:?}", p.0);
            texts.push(a.print_bebop());
        }
        assert_eq!(texts[0], texts[1], "{}", p.0);
    }
}
