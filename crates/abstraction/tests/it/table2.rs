//! The C2BP Table 2 benchmark programs lower, abstract with the exact strategy, and agree with
//! the lattice strategy.

use crate::support::assert_strategies_agree;
use abstraction::bench::{format_table, measure, programs, BenchProgram};
use c_ir::{PredicateSet, Program};

fn lower(p: &BenchProgram) -> (Program, PredicateSet) {
    let (program, diags) = c_front::lower(p.source, &format!("{}.c", p.name), &c_front::LowerOptions::default());
    assert!(!diagnostics::has_errors(&diags), "{}: {diags:?}", p.name);
    let program = program.expect("lowered");
    let (set, diags) = c_front::parse_predicates(&program, p.predicates);
    assert!(!diagnostics::has_errors(&diags), "{}: {diags:?}", p.name);
    (program, set)
}

#[test]
fn benchmark_programs_abstract_and_strategies_agree() {
    for p in programs() {
        let (program, set) = lower(&p);
        assert!(!set.is_empty(), "{}", p.name);
        let (lattice, exact) = assert_strategies_agree(&program, &set);
        assert!(exact.statistics.prover_calls > 0, "{}", p.name);
        // the lattice answers most of its queries from the counter-models of earlier ones
        assert!(lattice.statistics.cache_hits > lattice.statistics.prover_calls, "{}: {:?}", p.name, lattice.statistics);
    }
}

#[test]
fn benchmark_table_has_two_rows_per_program() {
    let p = programs().into_iter().find(|p| p.name == "qsort").expect("qsort");
    let (program, set) = lower(&p);
    let rows = measure(p.name, p.lines(), &program, &set);
    assert_eq!(rows.len(), 2);
    let table = format_table(&rows);
    assert!(table.contains("qsort") && table.contains("lattice") && table.contains("exact"), "{table}");
}

/// Reusing exact strengthenings (off while recording, which shows every enumeration) and the
/// small-model pointer width change no result: the boolean programs are identical.
#[test]
fn exact_results_do_not_depend_on_recording() {
    for p in programs() {
        let (program, set) = lower(&p);
        let mut texts = Vec::new();
        for record in [false, true] {
            let mut config = abstraction::AbstractionConfig::new(abstraction::Strategy::Exact);
            config.record_lattices = record;
            let (a, diags) = abstraction::abstract_program(&program, &set, &config);
            assert!(!diagnostics::has_errors(&diags), "{}: {diags:?}", p.name);
            texts.push(a.print_bebop());
        }
        assert_eq!(texts[0], texts[1], "{}", p.name);
    }
}
