//! The strengthening `F_V(ψ)` (and with it `G_V(ψ) = ¬F_V(¬ψ)`) over abstract predicate indices:
//! the cube-lattice search of BOOP §4.4.1 / C2BP §5.2 and the exact all-SAT + BDD strategy.
//!
//! Nothing here knows C: the decision procedure is reached through the narrow traits
//! [`ImplicationOracle`] (lattice) and [`ValuationOracle`] (exact), so both strategies can be
//! unit-tested against a brute-force model.

use crate::minimise;

/// A literal `b_i` or `¬b_i` over predicate number `predicate` (an index into the list of
/// predicates visible at the statement being abstracted).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Literal {
    pub predicate: u32,
    pub positive: bool,
}

impl Literal {
    pub fn new(predicate: u32, positive: bool) -> Literal {
        Literal { predicate, positive }
    }
    pub fn negated(self) -> Literal {
        Literal { predicate: self.predicate, positive: !self.positive }
    }
}

/// A conjunction of literals, sorted by predicate, at most one literal per predicate.
pub type Cube = Vec<Literal>;

/// A disjunction of cubes: no cubes is `false`, the empty cube is `true`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Dnf {
    pub cubes: Vec<Cube>,
}

impl Dnf {
    pub fn falsity() -> Dnf {
        Dnf { cubes: Vec::new() }
    }
    pub fn truth() -> Dnf {
        Dnf { cubes: vec![Vec::new()] }
    }
    pub fn literal(literal: Literal) -> Dnf {
        Dnf { cubes: vec![vec![literal]] }
    }
    pub fn is_false(&self) -> bool {
        self.cubes.is_empty()
    }
    pub fn is_true(&self) -> bool {
        self.cubes.iter().any(|c| c.is_empty())
    }
    /// Evaluates the formula under a valuation of all predicates.
    pub fn evaluate(&self, valuation: &dyn Fn(u32) -> bool) -> bool {
        self.cubes.iter().any(|cube| cube.iter().all(|l| valuation(l.predicate) == l.positive))
    }
    /// The predicates mentioned.
    pub fn predicates(&self) -> Vec<u32> {
        let mut out: Vec<u32> = self.cubes.iter().flatten().map(|l| l.predicate).collect();
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// How the decision procedure answered one implication query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The implication is valid.
    Valid,
    /// The implication is not valid (a counter-model exists).
    Invalid,
    /// The decision procedure gave up (budget, unsupported construct): treated as not valid.
    Unknown,
}

/// One answered query, with what the recorder shows about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct QueryAnswer {
    pub verdict: Verdict,
    /// Whether the answer came from a cache (no solver call was made).
    pub cached: bool,
    /// Microseconds spent (0 when cached).
    pub micros: u64,
    /// For a refuted implication, when the oracle can tell: the counter-model's valuation of
    /// the cone given to [`ImplicationOracle::prepare`] (in its order) and its value of `ψ`.
    pub model: Option<EnumeratedValuation>,
}

/// "Does the conjunction of `cube` imply the goal (or its negation)?" for the lattice strategy.
pub(crate) trait ImplicationOracle {
    /// Decides `E(cube) ⇒ ψ` when `goal_positive`, else `E(cube) ⇒ ¬ψ`.
    fn cube_implies(&mut self, cube: &[Literal], goal_positive: bool) -> QueryAnswer;
    /// The query in C syntax, for the lattice view (only called when recording).
    fn describe_query(&self, cube: &[Literal], goal_positive: bool) -> String;
    /// Called before the queries of one lattice search over `cone` (sorted, deduplicated). An
    /// oracle that reports counter-models ([`QueryAnswer::model`]) reports them over this cone.
    fn prepare(&mut self, _cone: &[u32]) {}
}

/// One valuation found by all-SAT enumeration: values of the cone predicates (in cone order)
/// and the value of the goal `ψ` in that model.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct EnumeratedValuation {
    pub values: Vec<bool>,
    pub goal: bool,
}

/// The exact strategy's access to the decision procedure.
pub(crate) trait ValuationOracle {
    /// Every combination (valuation of `cone`, value of `ψ`) that is satisfiable, by all-SAT
    /// enumeration with blocking clauses. `Err` holds the combinations found before the
    /// enumeration was cut short (then the caller must fall back to a sound
    /// over-approximation; they are real models, see [`lattice_strengthen_seeded`]).
    /// `solver_calls` is incremented once per `solve`.
    fn enumerate(&mut self, cone: &[u32], limit: usize, solver_calls: &mut u64) -> Enumeration;
}

/// What an all-SAT enumeration found: `Ok` all combinations, `Err` those found before it was
/// cut short.
pub(crate) type Enumeration = Result<Vec<EnumeratedValuation>, Vec<EnumeratedValuation>>;

/// What happened to one cube of the lattice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CubeOutcome {
    /// `E(cube) ⇒ ψ`: the cube is a prime implicant of `F(ψ)`.
    ImpliesGoal,
    /// `E(cube) ⇒ ¬ψ`: the cube is a prime implicant of `F(¬ψ)`.
    ImpliesNegatedGoal,
    /// Neither: its extensions are explored.
    Neither,
    /// A superset of a cube that already implies `ψ` or `¬ψ`: not queried.
    PrunedSuperset,
    /// The cube has more literals than the maximum cube length `k`: not queried.
    BeyondMaxLength,
}

/// One solver query asked for a cube.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueryRecord {
    /// The implication in C syntax.
    pub text: String,
    /// The answer ("valid", "invalid", "unknown").
    pub answer: Verdict,
    pub cached: bool,
    pub micros: u64,
}

/// A cube visited by the lattice search, in BFS order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VisitedCube {
    pub cube: Cube,
    pub outcome: CubeOutcome,
    /// The queries made for this cube (none, one or two).
    pub queries: Vec<QueryRecord>,
}

/// Settings of one strengthening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct StrengthenSettings {
    /// Maximum cube length `k` for the lattice (`None`: unbounded, exact).
    pub max_cube_length: Option<usize>,
    /// Record every visited cube and query.
    pub record: bool,
    /// Maximum number of valuations the exact strategy enumerates before giving up.
    pub enumeration_limit: usize,
    /// Only `F(ψ)` is wanted (the lattice does not test `¬ψ`; used for `F(false)`).
    pub goal_only: bool,
    /// The lattice stops here with the cubes found so far (fewer implicants: still sound);
    /// each cube examined is charged to its meter.
    pub limits: crate::oracle::Limits,
}

impl StrengthenSettings {
    pub(crate) fn new(max_cube_length: Option<usize>, record: bool) -> StrengthenSettings {
        StrengthenSettings { max_cube_length, record, enumeration_limit: 1 << 14, goal_only: false, limits: crate::oracle::Limits::default() }
    }
    /// The same settings with cubes of at most `k` literals.
    pub(crate) fn with_cubes_at_most(self, k: usize) -> StrengthenSettings {
        StrengthenSettings { max_cube_length: Some(self.max_cube_length.unwrap_or(k).min(k)), ..self }
    }
}

/// Counters of one or many strengthenings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StrengthenCounters {
    /// Calls that reached the decision procedure.
    pub solver_calls: u64,
    /// Queries answered from a cache.
    pub cache_hits: u64,
    /// Cubes visited (lattice) or valuations enumerated (exact).
    pub cubes_visited: u64,
    /// Strengthenings answered syntactically (`φ ∈ E`, constants) without any query.
    pub shortcuts: u64,
}

impl StrengthenCounters {
    pub fn add(&mut self, other: &StrengthenCounters) {
        self.solver_calls += other.solver_calls;
        self.cache_hits += other.cache_hits;
        self.cubes_visited += other.cubes_visited;
        self.shortcuts += other.shortcuts;
    }
}

/// The exact strategy's record: valuations and the minimisation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExactRecord {
    pub valuations: Vec<EnumeratedValuation>,
    /// Prime implicants of `F(ψ)` (using inconsistent valuations as don't-cares).
    pub goal_primes: Vec<Cube>,
    /// Prime implicants of `F(¬ψ)`.
    pub negated_goal_primes: Vec<Cube>,
    /// Whether the enumeration hit its limit (the result is then `F = false`, sound but coarse).
    pub truncated: bool,
}

/// The result of strengthening `ψ`: `F(ψ)` and `F(¬ψ)` as disjunctions of cubes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Strengthening {
    /// `F_V(ψ)`.
    pub goal: Dnf,
    /// `F_V(¬ψ)`.
    pub negated_goal: Dnf,
    pub counters: StrengthenCounters,
    /// The lattice search, when recorded.
    pub lattice: Vec<VisitedCube>,
    /// The exact strategy's record, when recorded.
    pub exact: Option<ExactRecord>,
    /// Every query was decided and no enumeration was cut short: the result is the one any
    /// other run would compute (only complete results may be reused, see `cache`).
    pub complete: bool,
    /// The combinations an enumeration found before it was cut short (empty otherwise): real
    /// models, which spare a fallback lattice search most of its queries.
    pub partial: Vec<EnumeratedValuation>,
}

/// Known models of the cone (valuations in cone order with the value of `ψ`): a cube that one
/// of them satisfies with the opposite value of `ψ` implies neither side it is asked about.
struct Models {
    cone: Vec<u32>,
    known: Vec<EnumeratedValuation>,
}

impl Models {
    /// Whether a known model satisfies `cube` and gives `ψ` the value `!goal_positive`.
    fn refute(&self, cube: &[Literal], goal_positive: bool) -> bool {
        let positions: Vec<(usize, bool)> =
            cube.iter().filter_map(|l| Some((self.cone.binary_search(&l.predicate).ok()?, l.positive))).collect();
        if positions.len() != cube.len() {
            return false;
        }
        self.known.iter().any(|m| m.goal != goal_positive && positions.iter().all(|&(i, v)| m.values.get(i) == Some(&v)))
    }
    fn learn(&mut self, model: EnumeratedValuation) {
        if model.values.len() == self.cone.len() {
            self.known.push(model);
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn answer_query(
    oracle: &mut dyn ImplicationOracle,
    models: &mut Models,
    cube: &[Literal],
    goal_positive: bool,
    settings: &StrengthenSettings,
    counters: &mut StrengthenCounters,
    queries: &mut Vec<QueryRecord>,
    complete: &mut bool,
) -> Verdict {
    if models.refute(cube, goal_positive) {
        counters.cache_hits += 1;
        if settings.record {
            queries.push(QueryRecord {
                text: format!("{}   (refuted by a known model)", oracle.describe_query(cube, goal_positive)),
                answer: Verdict::Invalid,
                cached: true,
                micros: 0,
            });
        }
        return Verdict::Invalid;
    }
    let answer = oracle.cube_implies(cube, goal_positive);
    if let Some(model) = answer.model {
        models.learn(model);
    }
    if answer.verdict == Verdict::Unknown {
        *complete = false;
    }
    if answer.cached {
        counters.cache_hits += 1;
    } else {
        counters.solver_calls += 1;
    }
    if settings.record {
        queries.push(QueryRecord {
            text: oracle.describe_query(cube, goal_positive),
            answer: answer.verdict,
            cached: answer.cached,
            micros: answer.micros,
        });
    }
    answer.verdict
}

fn is_subset(small: &[Literal], big: &[Literal]) -> bool {
    small.iter().all(|l| big.contains(l))
}

/// The cube-lattice search of BOOP §4.4.1: cubes over the `cone` predicates by increasing
/// length; each cube is checked against `ψ` and `¬ψ`; supersets of cubes that imply either are
/// pruned, so the results are the prime implicants of `F(ψ)` and `F(¬ψ)`.
pub(crate) fn lattice_strengthen(cone: &[u32], oracle: &mut dyn ImplicationOracle, settings: &StrengthenSettings) -> Strengthening {
    lattice_strengthen_seeded(cone, oracle, settings, Vec::new())
}

/// [`lattice_strengthen`] knowing some models already: `seed` holds satisfiable combinations
/// (valuation of the sorted `cone`, value of `ψ`), e.g. from an enumeration cut short. A query
/// that a known model refutes is answered without the oracle (counted as a cache hit); every
/// counter-model the oracle reports joins them. The result is the same, with fewer queries:
/// most cubes of a large cone imply neither side, and one model refutes many of them.
pub(crate) fn lattice_strengthen_seeded(
    cone: &[u32],
    oracle: &mut dyn ImplicationOracle,
    settings: &StrengthenSettings,
    seed: Vec<EnumeratedValuation>,
) -> Strengthening {
    let mut counters = StrengthenCounters::default();
    let mut lattice = Vec::new();
    let mut goal_cubes: Vec<Cube> = Vec::new();
    let mut negated_cubes: Vec<Cube> = Vec::new();
    let mut complete = true;
    let mut cone: Vec<u32> = cone.to_vec();
    cone.sort_unstable();
    cone.dedup();
    oracle.prepare(&cone);
    let mut models = Models { cone: cone.clone(), known: Vec::new() };
    for model in seed {
        models.learn(model);
    }
    // Work queue entries: a cube and the position in `cone` after its greatest predicate.
    let mut queue: std::collections::VecDeque<(Cube, usize)> = std::collections::VecDeque::new();
    queue.push_back((Vec::new(), 0));
    while let Some((cube, next)) = queue.pop_front() {
        // past the budget every query is unknown and the queue would grow to all 3^n cubes
        settings.limits.meter.charge(budget::cost::LATTICE_CUBE);
        let queued = queue_bytes(&queue, cube.len());
        if settings.limits.reached() || !settings.limits.meter.note_memory(queued) {
            complete = false;
            break;
        }
        if goal_cubes.iter().chain(negated_cubes.iter()).any(|d| is_subset(d, &cube)) {
            if settings.record {
                lattice.push(VisitedCube { cube, outcome: CubeOutcome::PrunedSuperset, queries: Vec::new() });
            }
            continue;
        }
        if let Some(k) = settings.max_cube_length {
            if cube.len() > k {
                if settings.record {
                    lattice.push(VisitedCube { cube, outcome: CubeOutcome::BeyondMaxLength, queries: Vec::new() });
                }
                continue;
            }
        }
        counters.cubes_visited += 1;
        let mut queries = Vec::new();
        let outcome = if answer_query(oracle, &mut models, &cube, true, settings, &mut counters, &mut queries, &mut complete) == Verdict::Valid {
            goal_cubes.push(cube.clone());
            CubeOutcome::ImpliesGoal
        } else if !settings.goal_only && answer_query(oracle, &mut models, &cube, false, settings, &mut counters, &mut queries, &mut complete) == Verdict::Valid {
            negated_cubes.push(cube.clone());
            CubeOutcome::ImpliesNegatedGoal
        } else {
            for (position, &predicate) in cone.iter().enumerate().skip(next) {
                for positive in [true, false] {
                    let mut child = cube.clone();
                    child.push(Literal::new(predicate, positive));
                    queue.push_back((child, position + 1));
                }
            }
            CubeOutcome::Neither
        };
        if settings.record {
            lattice.push(VisitedCube { cube, outcome, queries });
        }
    }
    Strengthening {
        goal: Dnf { cubes: goal_cubes },
        negated_goal: Dnf { cubes: negated_cubes },
        counters,
        lattice,
        exact: None,
        complete,
        partial: Vec::new(),
    }
}

/// The estimated memory of the lattice's work queue whose entries are about `cube_length`
/// literals long: its buffer (by capacity: it doubles as it grows) and one heap block per
/// cube, whose capacity is up to twice its length after the push that made it (plus the
/// allocator's header). Measured on a blown-up lattice (`tests/it/memory.rs`): the process's
/// peak resident memory stays within the estimate's limit.
fn queue_bytes(queue: &std::collections::VecDeque<(Cube, usize)>, cube_length: usize) -> u64 {
    let slot = std::mem::size_of::<(Cube, usize)>() as u64;
    let block = (2 * cube_length as u64).max(4) * std::mem::size_of::<Literal>() as u64 + 16;
    queue.capacity() as u64 * slot + queue.len() as u64 * block
}

/// The exact strategy: enumerate the satisfiable (cone valuation, `ψ`) combinations, then
/// `F(ψ)` is the set of consistent valuations where only `ψ` is possible, minimised to prime
/// implicants with BDDs (inconsistent valuations serve as don't-cares).
pub(crate) fn exact_strengthen(cone: &[u32], oracle: &mut dyn ValuationOracle, settings: &StrengthenSettings) -> Strengthening {
    let mut counters = StrengthenCounters::default();
    let mut cone: Vec<u32> = cone.to_vec();
    cone.sort_unstable();
    cone.dedup();
    match oracle.enumerate(&cone, settings.enumeration_limit, &mut counters.solver_calls) {
        Ok(valuations) => exact_from_valuations(&cone, valuations, counters, settings),
        Err(partial) => cut_short(counters, settings, partial),
    }
}

/// The sound answer `F = false` of an enumeration cut short, keeping what it found.
fn cut_short(counters: StrengthenCounters, settings: &StrengthenSettings, partial: Vec<EnumeratedValuation>) -> Strengthening {
    let exact = settings.record.then(|| ExactRecord { truncated: true, ..ExactRecord::default() });
    Strengthening { goal: Dnf::falsity(), negated_goal: Dnf::falsity(), counters, lattice: Vec::new(), exact, complete: false, partial }
}

/// The exact strategy's second half: minimise `F(ψ)` and `F(¬ψ)` from the enumerated
/// (cone valuation, `ψ`) combinations (cone sorted, as enumerated).
pub(crate) fn exact_from_valuations(cone: &[u32], valuations: Vec<EnumeratedValuation>, mut counters: StrengthenCounters, settings: &StrengthenSettings) -> Strengthening {
    counters.cubes_visited += valuations.len() as u64;
    let with_goal: Vec<&[bool]> = valuations.iter().filter(|v| v.goal).map(|v| v.values.as_slice()).collect();
    let with_negated_goal: Vec<&[bool]> = valuations.iter().filter(|v| !v.goal).map(|v| v.values.as_slice()).collect();
    let minimised = minimise::minimise_pair(cone.len(), &with_goal, &with_negated_goal);
    let rename = |cubes: &[Vec<(usize, bool)>]| -> Vec<Cube> {
        cubes.iter().map(|c| c.iter().map(|&(i, positive)| Literal::new(cone[i], positive)).collect()).collect()
    };
    let goal = Dnf { cubes: rename(&minimised.goal_cover) };
    let negated_goal = Dnf { cubes: rename(&minimised.negated_goal_cover) };
    let exact = settings.record.then(|| ExactRecord {
        valuations: valuations.clone(),
        goal_primes: rename(&minimised.goal_primes),
        negated_goal_primes: rename(&minimised.negated_goal_primes),
        truncated: false,
    });
    Strengthening { goal, negated_goal, counters, lattice: Vec::new(), exact, complete: true, partial: Vec::new() }
}

/// `F(false)` by the exact strategy: the valuations of the cone predicates that are
/// inconsistent (the oracle's goal must be `true`), minimised to prime implicants.
pub(crate) fn exact_inconsistency(cone: &[u32], oracle: &mut dyn ValuationOracle, settings: &StrengthenSettings) -> Strengthening {
    let mut counters = StrengthenCounters::default();
    let mut cone: Vec<u32> = cone.to_vec();
    cone.sort_unstable();
    cone.dedup();
    let valuations = match oracle.enumerate(&cone, settings.enumeration_limit, &mut counters.solver_calls) {
        Ok(valuations) => valuations,
        Err(partial) => return cut_short(counters, settings, partial),
    };
    counters.cubes_visited += valuations.len() as u64;
    let consistent: Vec<&[bool]> = valuations.iter().map(|v| v.values.as_slice()).collect();
    let (primes, cover) = minimise::minimise_complement(cone.len(), &consistent);
    let rename = |cubes: &[Vec<(usize, bool)>]| -> Vec<Cube> {
        cubes.iter().map(|c| c.iter().map(|&(i, positive)| Literal::new(cone[i], positive)).collect()).collect()
    };
    let exact = settings.record.then(|| ExactRecord {
        valuations: valuations.clone(),
        goal_primes: rename(&primes),
        negated_goal_primes: Vec::new(),
        truncated: false,
    });
    Strengthening { goal: Dnf { cubes: rename(&cover) }, negated_goal: Dnf::falsity(), counters, lattice: Vec::new(), exact, complete: true, partial: Vec::new() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A brute-force model: a finite set of worlds; each predicate and the goal is a set of worlds.
    struct Worlds {
        predicates: Vec<u64>,
        goal: u64,
        all: u64,
        /// Report counter-models over this cone (set by `prepare` when `Some`).
        cone: Option<Vec<u32>>,
    }

    fn worlds(predicates: Vec<u64>, goal: u64, all: u64) -> Worlds {
        Worlds { predicates, goal, all, cone: None }
    }

    impl Worlds {
        fn cube_worlds(&self, cube: &[Literal]) -> u64 {
            cube.iter().fold(self.all, |acc, l| {
                let p = self.predicates[l.predicate as usize];
                acc & if l.positive { p } else { !p & self.all }
            })
        }
    }

    impl ImplicationOracle for Worlds {
        fn cube_implies(&mut self, cube: &[Literal], goal_positive: bool) -> QueryAnswer {
            let goal = if goal_positive { self.goal } else { !self.goal & self.all };
            let counter = self.cube_worlds(cube) & !goal;
            let model = self.cone.as_ref().filter(|_| counter != 0).map(|cone| {
                let w = counter.trailing_zeros();
                EnumeratedValuation {
                    values: cone.iter().map(|&p| self.predicates[p as usize] >> w & 1 == 1).collect(),
                    goal: self.goal >> w & 1 == 1,
                }
            });
            QueryAnswer { verdict: if counter == 0 { Verdict::Valid } else { Verdict::Invalid }, cached: false, micros: 0, model }
        }
        fn describe_query(&self, cube: &[Literal], goal_positive: bool) -> String {
            format!("{cube:?} => {goal_positive}")
        }
        fn prepare(&mut self, cone: &[u32]) {
            if self.cone.is_some() {
                self.cone = Some(cone.to_vec());
            }
        }
    }

    impl ValuationOracle for Worlds {
        fn enumerate(&mut self, cone: &[u32], _limit: usize, calls: &mut u64) -> Enumeration {
            let mut out: Vec<EnumeratedValuation> = Vec::new();
            for w in 0..64 {
                if self.all >> w & 1 == 0 {
                    continue;
                }
                let v = EnumeratedValuation {
                    values: cone.iter().map(|&p| self.predicates[p as usize] >> w & 1 == 1).collect(),
                    goal: self.goal >> w & 1 == 1,
                };
                if !out.contains(&v) {
                    *calls += 1;
                    out.push(v);
                }
            }
            *calls += 1;
            Ok(out)
        }
    }

    fn exact_enumeration(worlds: &mut Worlds, cone: &[u32]) -> Vec<EnumeratedValuation> {
        let mut calls = 0;
        worlds.enumerate(cone, usize::MAX, &mut calls).unwrap_or_else(|partial| partial)
    }

    fn valuation_worlds(worlds: &Worlds, n: usize, bits: u32) -> u64 {
        let cube: Cube = (0..n as u32).map(|i| Literal::new(i, bits >> i & 1 == 1)).collect();
        worlds.cube_worlds(&cube)
    }

    /// Truth table of `F(ψ)` by definition, on consistent valuations.
    fn check_against_definition(worlds: &Worlds, n: usize, result: &Strengthening) {
        for bits in 0..(1u32 << n) {
            let w = valuation_worlds(worlds, n, bits);
            if w == 0 {
                continue; // inconsistent valuation: don't care
            }
            let val = |p: u32| bits >> p & 1 == 1;
            let implies_goal = w & !worlds.goal == 0;
            let implies_negated = w & worlds.goal == 0;
            assert_eq!(result.goal.evaluate(&val), implies_goal, "F(psi) at {bits:b}");
            assert_eq!(result.negated_goal.evaluate(&val), implies_negated, "F(!psi) at {bits:b}");
        }
    }

    #[test]
    fn x_less_than_five_example() {
        // worlds: x in 0..8; p0 = x<5, p1 = x==2; goal = WP(x=x+1, x<5) = x<4.
        let mut worlds = worlds(vec![0b11111, 0b100], 0b1111, 0xff);
        let settings = StrengthenSettings::new(None, true);
        let lattice = lattice_strengthen(&[0, 1], &mut worlds, &settings);
        assert_eq!(lattice.goal.cubes, vec![vec![Literal::new(1, true)]]);
        assert_eq!(lattice.negated_goal.cubes, vec![vec![Literal::new(0, false)]]);
        let exact = exact_strengthen(&[0, 1], &mut worlds, &settings);
        assert_eq!(exact.goal.cubes, vec![vec![Literal::new(1, true)]]);
        assert_eq!(exact.negated_goal.cubes, vec![vec![Literal::new(0, false)]]);
        assert!(lattice.lattice.iter().any(|c| c.outcome == CubeOutcome::PrunedSuperset));
    }

    #[test]
    fn a_passed_deadline_stops_the_lattice_with_a_sound_partial_answer() {
        let mut worlds = worlds(vec![0b11111, 0b100], 0b1111, 0xff);
        let mut settings = StrengthenSettings::new(None, true);
        settings.limits.deadline = Some(web_time::Instant::now());
        let result = lattice_strengthen(&[0, 1], &mut worlds, &settings);
        assert!(!result.complete, "a search cut short says so");
        assert!(result.goal.is_false() && result.negated_goal.is_false(), "no cube: F is false (sound)");
        assert_eq!(result.counters.cubes_visited, 0);
    }

    /// An oracle that decides nothing: every cube is expanded, the queue grows to all 3^n cubes.
    struct Undecided;

    impl ImplicationOracle for Undecided {
        fn cube_implies(&mut self, _cube: &[Literal], _goal_positive: bool) -> QueryAnswer {
            QueryAnswer { verdict: Verdict::Unknown, cached: false, micros: 0, model: None }
        }
        fn describe_query(&self, cube: &[Literal], goal_positive: bool) -> String {
            format!("{cube:?} => {goal_positive}")
        }
    }

    #[test]
    fn the_memory_estimate_stops_a_lattice_that_blows_up_and_the_work_is_charged() {
        let cone: Vec<u32> = (0..20).collect();
        let mut settings = StrengthenSettings::new(None, false);
        settings.limits.meter = budget::Meter::with_limits(None, None, Some(1 << 20));
        let result = lattice_strengthen(&cone, &mut Undecided, &settings);
        assert!(!result.complete, "a search cut short says so");
        assert!(result.goal.is_false() && result.negated_goal.is_false(), "no cube: F is false (sound)");
        let stop = settings.limits.meter.stopped().expect("the memory estimate passed the limit");
        assert!(matches!(stop, budget::Exhausted::Memory { .. }), "{stop}");
        assert!(result.counters.cubes_visited < 3u64.pow(20), "stopped long before all cubes");
        assert_eq!(settings.limits.meter.spent(), (result.counters.cubes_visited + 1) * budget::cost::LATTICE_CUBE);
        // the same search with a work budget stops after exactly as many cubes each time
        let visited = |limit: u64| {
            let mut s = StrengthenSettings::new(None, false);
            s.limits.meter = budget::Meter::new(Some(limit));
            lattice_strengthen(&cone, &mut Undecided, &s).counters.cubes_visited
        };
        assert_eq!(visited(5_000), visited(5_000));
        assert_eq!(visited(5_000), 5_000 / budget::cost::LATTICE_CUBE - 1);
    }

    #[test]
    fn max_cube_length_limits_the_search() {
        // goal = p0 && p1 needs a cube of length 2.
        let mut worlds = worlds(vec![0b1010, 0b1100], 0b1000, 0b1111);
        let settings = StrengthenSettings::new(Some(1), true);
        let result = lattice_strengthen(&[0, 1], &mut worlds, &settings);
        assert!(result.goal.is_false());
        assert!(result.lattice.iter().any(|c| c.outcome == CubeOutcome::BeyondMaxLength));
        let full = lattice_strengthen(&[0, 1], &mut worlds, &StrengthenSettings::new(None, false));
        assert_eq!(full.goal.cubes, vec![vec![Literal::new(0, true), Literal::new(1, true)]]);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        #[test]
        fn lattice_and_exact_compute_the_definition(
            n in 0usize..5,
            world_count in 1u32..20,
            seed in proptest::collection::vec(any::<u64>(), 6),
        ) {
            let all = (1u64 << world_count) - 1;
            let mut worlds = worlds((0..n).map(|i| seed[i] & all).collect(), seed[5] & all, all);
            let cone: Vec<u32> = (0..n as u32).collect();
            let settings = StrengthenSettings::new(None, true);
            let lattice = lattice_strengthen(&cone, &mut worlds, &settings);
            check_against_definition(&worlds, n, &lattice);
            let exact = exact_strengthen(&cone, &mut worlds, &settings);
            check_against_definition(&worlds, n, &exact);
            // every lattice result is a prime implicant: no proper sub-cube implies the goal
            for cube in &lattice.goal.cubes {
                for drop in 0..cube.len() {
                    let mut smaller = cube.clone();
                    smaller.remove(drop);
                    prop_assert!(worlds.cube_worlds(&smaller) & !worlds.goal != 0);
                }
            }
        }
        #[test]
        fn known_models_spare_queries_without_changing_the_result(
            n in 1usize..6,
            world_count in 1u32..24,
            seed in proptest::collection::vec(any::<u64>(), 6),
            kept in any::<u64>(),
            max_cube in 0usize..4,
        ) {
            let all = (1u64 << world_count) - 1;
            let predicates: Vec<u64> = (0..n).map(|i| seed[i] & all).collect();
            let cone: Vec<u32> = (0..n as u32).rev().collect();
            let settings = StrengthenSettings::new(if max_cube == 0 { None } else { Some(max_cube) }, false);
            let plain = lattice_strengthen(&cone, &mut worlds(predicates.clone(), seed[5] & all, all), &settings);
            // counter-models reported by the oracle, plus some models known in advance
            let mut reporting = worlds(predicates.clone(), seed[5] & all, all);
            reporting.cone = Some(Vec::new());
            let sorted: Vec<u32> = (0..n as u32).collect();
            let known: Vec<EnumeratedValuation> = exact_enumeration(&mut worlds(predicates, seed[5] & all, all), &sorted)
                .into_iter()
                .enumerate()
                .filter(|(i, _)| kept >> (i % 64) & 1 == 1)
                .map(|(_, v)| v)
                .collect();
            let seeded = lattice_strengthen_seeded(&cone, &mut reporting, &settings, known);
            prop_assert_eq!(&seeded.goal, &plain.goal);
            prop_assert_eq!(&seeded.negated_goal, &plain.negated_goal);
            prop_assert!(seeded.counters.solver_calls <= plain.counters.solver_calls);
            prop_assert_eq!(
                seeded.counters.solver_calls + seeded.counters.cache_hits,
                plain.counters.solver_calls + plain.counters.cache_hits
            );
        }
    }
}
