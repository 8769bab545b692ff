//! Serializable explanation data for the explain views: cube lattices, WP steps, solver log.

use serde::{Deserialize, Serialize};

/// One cube visited by the `F`/`G` strengthening.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CubeData {
    /// Literals of the cube: boolean variable name and polarity.
    pub literals: Vec<(String, bool)>,
    /// "implies", "implies_negation", "neither", "pruned", "outside_cone", "beyond_max_length".
    pub outcome: String,
    /// The solver query in C syntax (empty when no query was made).
    pub query: String,
    pub answer: String,
    pub micros: f64,
    /// Position in the BFS order (for the animation).
    pub order: u32,
}

/// For the exact strategy: the enumerated valuations and the minimised prime implicants.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct ExactData {
    pub valuations: Vec<Vec<(String, bool)>>,
    pub prime_implicants: Vec<Vec<(String, bool)>>,
}

/// The strengthening of one target formula (`WP(s, φ)` or a condition).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
pub struct LatticeData {
    pub target: String,
    /// Predicates (boolean variable names) in the cone of influence.
    pub cone: Vec<String>,
    /// Predicates outside the cone.
    pub outside_cone: Vec<String>,
    /// The cone's first layer: the predicates that share a variable with the target itself
    /// (C2BP §5.2), before the closure adds those related to it through other predicates.
    #[serde(default)]
    pub near_cone: Vec<String>,
    pub cubes: Vec<CubeData>,
    /// The resulting `F(target)` and `F(¬target)` in one line (`F(ψ) = …   F(¬ψ) = …`).
    pub result: String,
    /// `F(ψ)`: the disjunction of the cubes that imply the target.
    #[serde(default)]
    pub goal_result: String,
    /// `F(¬ψ)`: the disjunction of the cubes that imply its negation.
    #[serde(default)]
    pub negated_goal_result: String,
    pub exact: Option<ExactData>,
}

/// Why one predicate's new value looks the way it does.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
pub struct PredicateExplanation {
    /// Boolean variable name, e.g. `{prev==NULL}`.
    pub predicate: String,
    /// `WP(s, φ)` as produced by Morris' rule before simplification.
    pub wp_raw: String,
    /// The aliasing cases considered (one line per case).
    pub alias_cases: Vec<String>,
    pub wp_simplified: String,
    pub positive: LatticeData,
    pub negative: LatticeData,
    /// The boolean right-hand side, e.g. `choose({curr==NULL}, !{curr==NULL})`.
    pub assigned: String,
}

/// One boolean-program statement and its explanations.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
pub struct StatementExplanation {
    pub bp_line: Option<u32>,
    pub c_line: Option<u32>,
    pub c_statement: String,
    pub bp_statement: String,
    /// For calls: the meaning of `prm`/`ret`/`E_u` (C2BP §4.5.3), one line each.
    pub call_notes: Vec<String>,
    pub predicates: Vec<PredicateExplanation>,
}

/// One solver query.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QueryData {
    /// Index into [`ExplanationData::statements`] of the statement that asked it.
    #[serde(default)]
    pub statement: u32,
    /// The boolean variable whose strengthening asked it.
    #[serde(default)]
    pub predicate: String,
    pub formula: String,
    pub answer: String,
    pub micros: f64,
    pub cached: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
pub struct ExplanationData {
    pub statements: Vec<StatementExplanation>,
    pub solver_log: Vec<QueryData>,
    pub cache_hit_rate: f64,
}
