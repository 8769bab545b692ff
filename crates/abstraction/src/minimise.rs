//! Minimisation of enumerated boolean functions into prime implicants with BDDs
//! (biodivine-lib-bdd), used by the exact strategy, and BDD comparison of cube formulas.

use biodivine_lib_bdd::{Bdd, BddPartialValuation, BddValuation, BddVariable, BddVariableSet};

/// A cube over BDD variables `0..n`: `(variable index, polarity)` sorted by index.
pub(crate) type IndexCube = Vec<(usize, bool)>;

/// The minimised `F(ψ)` and `F(¬ψ)`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct MinimisedPair {
    pub goal_primes: Vec<IndexCube>,
    pub goal_cover: Vec<IndexCube>,
    pub negated_goal_primes: Vec<IndexCube>,
    pub negated_goal_cover: Vec<IndexCube>,
}

/// More prime implicants than this and the cover is computed from the BDD's optimised DNF instead.
const PRIME_LIMIT: usize = 4096;

fn variable(i: usize) -> BddVariable {
    BddVariable::from_index(i)
}

fn valuations_bdd(vars: &BddVariableSet, n: usize, valuations: &[&[bool]]) -> Bdd {
    if n == 0 {
        return if valuations.is_empty() { vars.mk_false() } else { vars.mk_true() };
    }
    let list: Vec<BddValuation> = valuations.iter().map(|v| BddValuation::new(v[..n].to_vec())).collect();
    if list.is_empty() {
        vars.mk_false()
    } else {
        vars.mk_dnf_valuation(&list)
    }
}

/// A cube as a BDD.
pub(crate) fn cube_bdd(vars: &BddVariableSet, cube: &[(usize, bool)]) -> Bdd {
    let values: Vec<(BddVariable, bool)> = cube.iter().map(|&(i, b)| (variable(i), b)).collect();
    vars.mk_conjunctive_clause(&BddPartialValuation::from_values(&values))
}

/// A disjunction of cubes as a BDD.
pub(crate) fn dnf_bdd(vars: &BddVariableSet, cubes: &[IndexCube]) -> Bdd {
    cubes.iter().fold(vars.mk_false(), |acc, c| acc.or(&cube_bdd(vars, c)))
}

fn is_implicant(vars: &BddVariableSet, cube: &[(usize, bool)], f: &Bdd) -> bool {
    cube_bdd(vars, cube).and_not(f).is_false()
}

/// All prime implicants of `f` over variables `from..n` (recursive Shannon expansion:
/// primes(f) = primes(f0∧f1) ∪ ¬x·(primes(f0) not implicants of f0∧f1) ∪ x·(primes(f1) likewise)).
fn primes_from(vars: &BddVariableSet, f: &Bdd, from: usize, n: usize, budget: &mut usize) -> Option<Vec<IndexCube>> {
    if f.is_false() {
        return Some(Vec::new());
    }
    if f.is_true() {
        return Some(vec![Vec::new()]);
    }
    if from >= n {
        return Some(Vec::new());
    }
    let x = variable(from);
    let f0 = f.var_restrict(x, false);
    let f1 = f.var_restrict(x, true);
    if f0 == f1 {
        return primes_from(vars, f, from + 1, n, budget);
    }
    let both = f0.and(&f1);
    let mut out = primes_from(vars, &both, from + 1, n, budget)?;
    for (half, polarity) in [(&f0, false), (&f1, true)] {
        for p in primes_from(vars, half, from + 1, n, budget)? {
            if !is_implicant(vars, &p, &both) {
                let mut cube = vec![(from, polarity)];
                cube.extend(p);
                out.push(cube);
            }
        }
    }
    if out.len() > *budget {
        return None;
    }
    *budget -= out.len().min(*budget);
    Some(out)
}

/// Prime implicants of `on ∨ dc`, and a small subset of them covering `on` (greedy).
fn primes_and_cover(vars: &BddVariableSet, n: usize, on: &Bdd, dc: &Bdd) -> (Vec<IndexCube>, Vec<IndexCube>) {
    if on.is_false() {
        return (Vec::new(), Vec::new());
    }
    let care = on.or(dc);
    let mut budget = PRIME_LIMIT * 4;
    let Some(mut primes) = primes_from(vars, &care, 0, n, &mut budget) else {
        let cover = expanded_cover(vars, on, &care);
        return (cover.clone(), cover);
    };
    for p in primes.iter_mut() {
        p.sort_unstable();
    }
    primes.sort_by(|a, b| a.len().cmp(&b.len()).then(a.cmp(b)));
    // Greedy cover of the on-set, largest coverage first.
    let mut remaining = on.clone();
    let mut cover: Vec<IndexCube> = Vec::new();
    let prime_bdds: Vec<Bdd> = primes.iter().map(|p| cube_bdd(vars, p)).collect();
    while !remaining.is_false() {
        let mut best: Option<(usize, f64)> = None;
        for (i, b) in prime_bdds.iter().enumerate() {
            let covered = b.and(&remaining).cardinality();
            if covered > 0.0 && best.is_none_or(|(_, c)| covered > c) {
                best = Some((i, covered));
            }
        }
        let Some((i, _)) = best else { break };
        remaining = remaining.and_not(&prime_bdds[i]);
        cover.push(primes[i].clone());
    }
    // Drop cubes made redundant by later picks.
    let mut i = 0;
    while i < cover.len() {
        let others: Vec<IndexCube> = cover.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, c)| c.clone()).collect();
        if on.and_not(&dnf_bdd(vars, &others)).is_false() {
            cover.remove(i);
        } else {
            i += 1;
        }
    }
    cover.sort_by(|a, b| a.len().cmp(&b.len()).then(a.cmp(b)));
    (primes, cover)
}

/// A cover of `on` by prime implicants of `care` without listing all primes (too many of
/// them): the cubes of `on`'s DNF, each expanded by dropping every literal it can keep out
/// of while staying inside `care` (Espresso's EXPAND), skipping cubes already covered.
fn expanded_cover(vars: &BddVariableSet, on: &Bdd, care: &Bdd) -> Vec<IndexCube> {
    let mut remaining = on.clone();
    let mut cover: Vec<IndexCube> = Vec::new();
    for clause in on.to_optimized_dnf() {
        let mut cube: IndexCube = clause.to_values().into_iter().map(|(v, b)| (v.to_index(), b)).collect();
        if cube_bdd(vars, &cube).and(&remaining).is_false() {
            continue;
        }
        let mut i = 0;
        while i < cube.len() {
            let mut smaller = cube.clone();
            smaller.remove(i);
            if is_implicant(vars, &smaller, care) {
                cube = smaller;
            } else {
                i += 1;
            }
        }
        remaining = remaining.and_not(&cube_bdd(vars, &cube));
        cover.push(cube);
        if remaining.is_false() {
            break;
        }
    }
    cover.sort_by(|a, b| a.len().cmp(&b.len()).then(a.cmp(b)));
    cover
}

/// Given the valuations (of `n` cone predicates) consistent with `ψ` and those consistent with
/// `¬ψ`, minimises `F(ψ) = Proj(ψ) ∧ ¬Proj(¬ψ)` and `F(¬ψ) = Proj(¬ψ) ∧ ¬Proj(ψ)`, with the
/// inconsistent valuations `¬(Proj(ψ) ∨ Proj(¬ψ))` as don't-cares.
pub(crate) fn minimise_pair(n: usize, with_goal: &[&[bool]], with_negated_goal: &[&[bool]]) -> MinimisedPair {
    let vars = BddVariableSet::new_anonymous(n.max(1) as u16);
    let n_vars = n;
    let positive = valuations_bdd(&vars, n_vars, with_goal);
    let negative = valuations_bdd(&vars, n_vars, with_negated_goal);
    let dc = positive.or(&negative).not();
    let goal_on = positive.and_not(&negative);
    let negated_on = negative.and_not(&positive);
    let (goal_primes, goal_cover) = primes_and_cover(&vars, n_vars, &goal_on, &dc);
    let (negated_goal_primes, negated_goal_cover) = primes_and_cover(&vars, n_vars, &negated_on, &dc);
    MinimisedPair { goal_primes, goal_cover, negated_goal_primes, negated_goal_cover }
}

/// Prime implicants and a cover of the complement of the given valuations (`F(false)`: the
/// inconsistent valuations).
pub(crate) fn minimise_complement(n: usize, consistent: &[&[bool]]) -> (Vec<IndexCube>, Vec<IndexCube>) {
    let vars = BddVariableSet::new_anonymous(n.max(1) as u16);
    let on = valuations_bdd(&vars, n, consistent).not();
    primes_and_cover(&vars, n, &on, &vars.mk_false())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        #[allow(clippy::needless_range_loop)]
        fn cover_is_exact_on_care_set(n in 1usize..6, table in proptest::collection::vec(0u8..4, 32)) {
            // table[v]: 0 inconsistent, 1 goal only, 2 negated only, 3 both
            let vals: Vec<Vec<bool>> = (0..(1usize << n)).map(|v| (0..n).map(|i| v >> i & 1 == 1).collect()).collect();
            let with_goal: Vec<&[bool]> = (0..vals.len()).filter(|&v| table[v] & 1 == 1).map(|v| vals[v].as_slice()).collect();
            let with_neg: Vec<&[bool]> = (0..vals.len()).filter(|&v| table[v] & 2 == 2).map(|v| vals[v].as_slice()).collect();
            let m = minimise_pair(n, &with_goal, &with_neg);
            let eval = |cubes: &[IndexCube], v: usize| cubes.iter().any(|c| c.iter().all(|&(i, b)| (v >> i & 1 == 1) == b));
            for v in 0..vals.len() {
                if table[v] == 0 { continue; }
                prop_assert_eq!(eval(&m.goal_cover, v), table[v] == 1);
                prop_assert_eq!(eval(&m.negated_goal_cover, v), table[v] == 2);
            }
            // The cover used when there are too many primes: exact on the care set, and
            // every cube prime (no literal can be dropped).
            let vars = BddVariableSet::new_anonymous(n as u16);
            let bdd_of = |pred: &dyn Fn(u8) -> bool| {
                let list: Vec<&[bool]> = (0..vals.len()).filter(|&v| pred(table[v])).map(|v| vals[v].as_slice()).collect();
                valuations_bdd(&vars, n, &list)
            };
            let on = bdd_of(&|t| t == 1);
            let care = bdd_of(&|t| t == 1 || t == 0);
            let expanded = expanded_cover(&vars, &on, &care);
            for v in 0..vals.len() {
                if table[v] != 0 {
                    prop_assert_eq!(eval(&expanded, v), table[v] == 1);
                }
            }
            for cube in &expanded {
                for i in 0..cube.len() {
                    let mut smaller = cube.clone();
                    smaller.remove(i);
                    prop_assert!(!is_implicant(&vars, &smaller, &care));
                }
            }
            for p in &m.goal_primes {
                for v in 0..vals.len() {
                    if eval(std::slice::from_ref(p), v) { prop_assert!(table[v] == 1 || table[v] == 0); }
                }
            }
        }
    }
}
