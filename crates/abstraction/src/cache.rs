//! Strengthening results that persist across abstractions of one program (CEGAR iterations).
//!
//! Refinement usually adds one to three predicates per iteration, and a predicate outside a
//! statement's cone of influence does not change what the decision procedure is asked for it.
//! The cache therefore keys each result by *everything the queries depend on*:
//! - the goal `ψ` (simplified) and the side assumption (`malloc`'s "the address is new"),
//! - the interpretations of the cone predicates, in the order the strategy sees them (the cube
//!   variables actually used; predicates outside the cone never reach the solver),
//! - the settings (strategy, maximum cube length, enumeration limit, solver widths and back end),
//!   kept once per cache: different settings clear it,
//!
//! and stores `F(ψ)` / `F(¬ψ)` over *cone positions* (`0..cone.len()`), renamed back to the
//! current cube variables on a hit. The queries are then literally the same formulas (fresh
//! symbols such as `x_o` are part of the key by name), so a reused result is the one a fresh
//! computation would give: the lattice search is a function of the validity answers, the exact
//! strategy's minimisation a function of the set of satisfiable valuations (both canonical BDDs).
//!
//! Only complete results are stored: never one cut short by the time budget, an unknown
//! answer or the enumeration limit. While lattices are recorded for the UI the cache is neither
//! read nor written (every strengthening must show its own search).

use crate::strengthen::{Dnf, Literal};
use crate::{AbstractionConfig, Strategy};
use c_ir::{Expr, Program};
use budget::hash::HashMap;

/// What one strengthening depends on (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct ConeKey {
    pub goal: Expr,
    pub assumption: Option<Expr>,
    /// Interpretations of the cone's cube variables, in increasing variable order.
    pub cone: Vec<Expr>,
}

/// The settings a cached result depends on, with the time-related fields blanked.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Fingerprint {
    config: AbstractionConfig,
    /// A cheap identity of the program (a cache belongs to one program).
    program_shape: (usize, usize, usize, usize),
}

impl Fingerprint {
    fn of(program: &Program, config: &AbstractionConfig) -> Fingerprint {
        let mut config = config.clone();
        config.time_budget_ms = None;
        config.record_lattices = false;
        config.record_names = None;
        config.solver.log_queries = false;
        // applied after the cached results, which do not depend on them
        config.learned_inconsistencies = Vec::new();
        let statements = program.procs.iter().map(|p| p.body.len()).sum();
        Fingerprint { config, program_shape: (program.vars.len(), program.procs.len(), program.structs.len(), statements) }
    }
}

/// Counters of a cache over its lifetime.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStatistics {
    /// Strengthenings answered from the cache.
    pub hits: u64,
    /// Strengthenings computed and stored.
    pub stored: u64,
    /// `enforce` components answered from the cache.
    pub enforce_hits: u64,
}

/// Strengthening results reusable by later abstractions of the same program with the same
/// settings: create one before the CEGAR loop and pass it to every
/// [`crate::abstract_program_cached`] call. A cache used with another program or other
/// settings clears itself. Each result is keyed by everything its queries depend on (the goal,
/// the side assumption, the interpretations of the cone predicates, the settings), so a reused
/// result is the one a fresh computation would give; results cut short are never stored.
#[derive(Debug, Default)]
pub struct AbstractionCache {
    fingerprint: Option<Fingerprint>,
    strengthenings: HashMap<ConeKey, (Dnf, Dnf)>,
    /// `F(false)` of one `enforce` component, by its predicates in order.
    inconsistencies: HashMap<Vec<Expr>, Dnf>,
    statistics: CacheStatistics,
}

impl AbstractionCache {
    pub fn new() -> AbstractionCache {
        AbstractionCache::default()
    }

    /// Number of stored strengthenings (including `enforce` components).
    pub fn len(&self) -> usize {
        self.strengthenings.len() + self.inconsistencies.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn statistics(&self) -> CacheStatistics {
        self.statistics
    }

    /// Forgets everything when `program`/`config` differ from what the entries were made with.
    pub(crate) fn prepare(&mut self, program: &Program, config: &AbstractionConfig) {
        let fingerprint = Fingerprint::of(program, config);
        if self.fingerprint.as_ref() != Some(&fingerprint) {
            self.strengthenings.clear();
            self.inconsistencies.clear();
            self.fingerprint = Some(fingerprint);
        }
    }

    /// `F(ψ)`, `F(¬ψ)` for `key`, over cone positions.
    pub(crate) fn lookup(&self, key: &ConeKey) -> Option<(Dnf, Dnf)> {
        self.strengthenings.get(key).cloned()
    }

    /// Counts a strengthening answered from the cache.
    pub(crate) fn note_hit(&mut self) {
        self.statistics.hits += 1;
    }

    pub(crate) fn store(&mut self, key: ConeKey, result: (Dnf, Dnf)) {
        self.statistics.stored += 1;
        self.strengthenings.insert(key, result);
    }

    pub(crate) fn lookup_inconsistency(&mut self, component: &[Expr]) -> Option<Dnf> {
        let hit = self.inconsistencies.get(component).cloned();
        if hit.is_some() {
            self.statistics.enforce_hits += 1;
        }
        hit
    }

    pub(crate) fn store_inconsistency(&mut self, component: Vec<Expr>, result: Dnf) {
        self.inconsistencies.insert(component, result);
    }
}

/// Whether the negation-swapped reuse is exact for `strategy`: the exact strategy's result is
/// symmetric in `ψ`/`¬ψ`; the lattice tests `ψ` first, so on inconsistent cubes it is not.
pub(crate) fn swap_is_exact(strategy: Strategy) -> bool {
    strategy == Strategy::Exact
}

/// `dnf` with predicate `cone[j]` renamed to position `j` (every literal must be in the cone).
pub(crate) fn to_positions(dnf: &Dnf, cone: &[u32]) -> Option<Dnf> {
    let mut cubes = Vec::with_capacity(dnf.cubes.len());
    for cube in &dnf.cubes {
        let mut out = Vec::with_capacity(cube.len());
        for l in cube {
            let position = cone.iter().position(|&c| c == l.predicate)?;
            out.push(Literal::new(position as u32, l.positive));
        }
        cubes.push(out);
    }
    Some(Dnf { cubes })
}

/// `dnf` over cone positions with position `j` renamed to predicate `cone[j]`.
pub(crate) fn from_positions(dnf: &Dnf, cone: &[u32]) -> Option<Dnf> {
    let mut cubes = Vec::with_capacity(dnf.cubes.len());
    for cube in &dnf.cubes {
        let mut out = Vec::with_capacity(cube.len());
        for l in cube {
            out.push(Literal::new(*cone.get(l.predicate as usize)?, l.positive));
        }
        cubes.push(out);
    }
    Some(Dnf { cubes })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_round_trip() {
        let cone = [2, 5, 9];
        let dnf = Dnf { cubes: vec![vec![Literal::new(5, true), Literal::new(9, false)], vec![Literal::new(2, false)]] };
        let positions = to_positions(&dnf, &cone).expect("in cone");
        assert_eq!(positions.cubes[0], vec![Literal::new(1, true), Literal::new(2, false)]);
        assert_eq!(from_positions(&positions, &cone), Some(dnf));
        // a literal outside the cone cannot be stored
        assert_eq!(to_positions(&Dnf::literal(Literal::new(3, true)), &cone), None);
        assert_eq!(from_positions(&Dnf::literal(Literal::new(3, true)), &cone), None);
    }

    #[test]
    fn other_settings_clear_the_cache() {
        let program = Program::default();
        let mut cache = AbstractionCache::new();
        let config = AbstractionConfig::new(Strategy::Exact);
        cache.prepare(&program, &config);
        let key = ConeKey { goal: Expr::bool(true), assumption: None, cone: Vec::new() };
        cache.store(key.clone(), (Dnf::truth(), Dnf::falsity()));
        // a different time budget keeps the entries
        let mut later = config.clone();
        later.time_budget_ms = Some(5);
        cache.prepare(&program, &later);
        assert_eq!(cache.lookup(&key), Some((Dnf::truth(), Dnf::falsity())));
        // another cube bound does not
        let mut bounded = config;
        bounded.max_cube_length = Some(2);
        cache.prepare(&program, &bounded);
        assert!(cache.is_empty());
        assert_eq!(cache.lookup(&key), None);
    }
}
