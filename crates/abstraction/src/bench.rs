//! The C2BP Table 2 benchmark: small array and list programs with the paper's predicates,
//! abstracted with both strategies (program, lines, predicates, prover calls, time).
//!
//! The abstraction crate does not depend on the front end, so callers (the CLI, the tests)
//! lower [`programs`] themselves and pass the results to [`measure`]. Partition (the shared seed
//! program `tests/programs/partition.c`) and reverse (`mark`) are golden-test programs of
//! `tests/abstraction`.

use crate::{abstract_program, AbstractionConfig, Strategy};
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

pub const LISTFIND: &str = r#"#include <stdlib.h>
struct cell {
  int val;
  struct cell *next;
};

struct cell *listfind(struct cell *l, int v) {
  struct cell *curr;
  struct cell *found;
  curr = l;
  found = NULL;
  while (curr != NULL) {
    if (curr->val == v) {
      found = curr;
      break;
    }
    curr = curr->next;
  }
  if (found != NULL) {
    assert(found->val == v);
  }
  return found;
}
"#;

pub const LISTFIND_PREDICATES: &str = "listfind {
  curr == NULL,
  found == NULL,
  curr->val == v,
  found->val == v,
  found == curr,
  l == NULL
}
";

pub const REVERSE: &str = include_str!("../../../tests/abstraction/mark.c");

pub const REVERSE_PREDICATES: &str = include_str!("../../../tests/abstraction/mark.preds");

pub const KMP: &str = r#"extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
int pat[64];
int str[256];
int next[64];

int kmp(int m, int n) {
  int i, j, k;
  __VERIFIER_assume(m > 0 && m <= 64 && n >= 0 && n <= 256);
  next[0] = -1;
  k = -1;
  for (j = 1; j < m; j++) {
    while (k >= 0 && pat[k + 1] != pat[j])
      k = next[k];
    if (pat[k + 1] == pat[j])
      k = k + 1;
    next[j] = k;
  }
  j = -1;
  for (i = 0; i < n; i++) {
    while (j >= 0 && pat[j + 1] != str[i])
      j = next[j];
    if (pat[j + 1] == str[i])
      j = j + 1;
    if (j == m - 1)
      return i - m + 1;
  }
  return -1;
}
"#;

pub const KMP_PREDICATES: &str = "kmp {
  0 <= i,
  i < n,
  0 <= j,
  j < m
}
";

pub const QSORT: &str = r#"extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
int a[100];

void qsort_partition(int lo, int hi) {
  int i, j, pivot, t;
  __VERIFIER_assume(0 <= lo && lo < hi && hi < 100);
  pivot = a[hi];
  i = lo - 1;
  for (j = lo; j < hi; j++) {
    if (a[j] <= pivot) {
      i = i + 1;
      assert(0 <= i && i < 100);
      t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
  }
  t = a[i + 1];
  a[i + 1] = a[hi];
  a[hi] = t;
}
"#;

pub const QSORT_PREDICATES: &str = "qsort_partition {
  lo - 1 <= i,
  i < j
}
";
