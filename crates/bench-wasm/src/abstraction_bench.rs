//! The C2BP Table 2 benchmark: small array and list programs with the paper's predicates,
//! abstracted with both strategies (program, lines, predicates, prover calls, time).
//!
//! Callers lower [`programs`] with the front end and pass the results to [`measure`]. The
//! programs are the gallery's (`tests/programs/NAME.c`), with the predicate files
//! `tests/abstraction/NAME.preds` that the golden tests also read.

use abstraction::{abstract_program, AbstractionConfig, Strategy};
use c_ir::{PredicateSet, Program};

/// One benchmark program: C source and a C2BP predicate file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchProgram {
    pub name: &'static str,
    pub source: &'static str,
    pub predicates: &'static str,
}

impl BenchProgram {
    /// Non-blank source lines that are not `//` comments.
    pub fn lines(&self) -> usize {
        self.source.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with("//")).count()
    }
}

/// One row of the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchRow {
    pub program: String,
    pub lines: usize,
    pub predicates: usize,
    pub strategy: Strategy,
    pub prover_calls: u64,
    pub cache_hits: u64,
    pub cubes_visited: u64,
    pub micros: u64,
}

/// The programs of C2BP Table 2 (our versions): partition (Fig 1a), listfind, reverse (the
/// `mark` procedure of Fig 3 with `h`/`hnext`), kmp and a quicksort partition loop.
pub fn programs() -> Vec<BenchProgram> {
    vec![
        BenchProgram { name: "partition", source: PARTITION, predicates: PARTITION_PREDICATES },
        BenchProgram { name: "listfind", source: LISTFIND, predicates: LISTFIND_PREDICATES },
        BenchProgram { name: "reverse", source: REVERSE, predicates: REVERSE_PREDICATES },
        BenchProgram { name: "kmp", source: KMP, predicates: KMP_PREDICATES },
        BenchProgram { name: "qsort", source: QSORT, predicates: QSORT_PREDICATES },
    ]
}

/// Abstracts `program` with both strategies (no recording, no `enforce`, like C2BP's table)
/// and returns one row per strategy.
pub fn measure(name: &str, lines: usize, program: &Program, predicates: &PredicateSet) -> Vec<BenchRow> {
    [Strategy::Lattice, Strategy::Exact]
        .into_iter()
        .map(|strategy| {
            let mut config = AbstractionConfig::new(strategy);
            config.enforce = false;
            let (abstraction, _) = abstract_program(program, predicates, &config);
            let s = abstraction.statistics;
            BenchRow {
                program: name.to_string(),
                lines,
                predicates: predicates.len(),
                strategy,
                prover_calls: s.prover_calls,
                cache_hits: s.cache_hits,
                cubes_visited: s.cubes_visited,
                micros: s.micros,
            }
        })
        .collect()
}

/// The rows as a plain-text table.
pub fn format_table(rows: &[BenchRow]) -> String {
    let mut out = String::from("program    lines  preds  strategy  prover-calls  cache-hits  cubes  time(ms)\n");
    for r in rows {
        out.push_str(&format!(
            "{:<10} {:>5}  {:>5}  {:<8}  {:>12}  {:>10}  {:>5}  {:>8.1}\n",
            r.program,
            r.lines,
            r.predicates,
            r.strategy.name(),
            r.prover_calls,
            r.cache_hits,
            r.cubes_visited,
            r.micros as f64 / 1000.0
        ));
    }
    out
}

pub const PARTITION: &str = include_str!("../../../tests/programs/partition.c");

pub const PARTITION_PREDICATES: &str = include_str!("../../../tests/abstraction/partition.preds");

pub const LISTFIND: &str = include_str!("../../../tests/programs/listfind.c");

pub const LISTFIND_PREDICATES: &str = include_str!("../../../tests/abstraction/listfind.preds");

pub const REVERSE: &str = include_str!("../../../tests/programs/reverse.c");

pub const REVERSE_PREDICATES: &str = include_str!("../../../tests/abstraction/reverse.preds");

pub const KMP: &str = include_str!("../../../tests/programs/kmp.c");

pub const KMP_PREDICATES: &str = include_str!("../../../tests/abstraction/kmp.preds");

pub const QSORT: &str = include_str!("../../../tests/programs/qsort.c");

pub const QSORT_PREDICATES: &str = include_str!("../../../tests/abstraction/qsort.preds");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn benchmark_table_has_two_rows_per_program() {
        let p = programs().into_iter().find(|p| p.name == "qsort").expect("qsort");
        let (program, diags) = c_front::lower(p.source, "qsort.c", &c_front::LowerOptions::default());
        assert!(!diagnostics::has_errors(&diags), "{diags:?}");
        let program = program.expect("lowered");
        let (set, diags) = c_front::parse_predicates(&program, p.predicates);
        assert!(!diagnostics::has_errors(&diags), "{diags:?}");
        let rows = measure(p.name, p.lines(), &program, &set);
        assert_eq!(rows.len(), 2);
        let table = format_table(&rows);
        assert!(table.contains("qsort") && table.contains("lattice") && table.contains("exact"), "{table}");
    }
}
