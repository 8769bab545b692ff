//! The record of one weakest precondition as the abstraction computes it (C2BP §4.2, Morris'
//! general axiom of assignment), for the explain views: `WP(x = e, φ)` with every location of
//! `φ` case-split, the alias case of each location under the abstraction's own may-alias
//! oracle (points-to or type-based, as configured), and the simplified result that becomes the
//! strengthening's goal. Recorded only while [`crate::AbstractionConfig::record_lattices`] is
//! on; the UI reads it instead of computing WP and points-to a second time.

use c_ir::{Expr, Program};
use logic::MayAlias;

/// How one location that the predicate reads relates to the assigned location.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AliasCaseKind {
    /// It is the assigned location itself: replaced by the assigned value.
    Assigned,
    /// It may alias the assigned location: both cases (`&x == &y`, `&x != &y`) are kept.
    MayAlias,
    /// It cannot alias the assigned location: the alias case is pruned.
    Pruned,
}

/// The alias case of one location read by the predicate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AliasCase {
    /// The location in C syntax (`*p`, `curr->val`).
    pub location: String,
    pub kind: AliasCaseKind,
}

/// `WP(lhs = value, φ)` for one predicate `φ` at one assignment (also `havoc` and `malloc`, whose
/// value is a fresh symbol).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WpRecord {
    /// The assigned location in C syntax.
    pub lhs: String,
    /// The assigned value in C syntax (`$havoc3` for a fresh value).
    pub value: String,
    /// Morris' rule without alias information: every location of `φ` case-split.
    pub unpruned: String,
    /// One case per location that `φ` reads, in the order `logic::locations` lists them.
    pub alias_cases: Vec<AliasCase>,
    /// The weakest precondition with the abstraction's alias oracle, simplified (the goal `ψ`).
    pub simplified: String,
    /// Whether the abstraction used points-to information (otherwise type-based aliasing).
    pub points_to: bool,
}

/// The record of `WP(lhs = value, phi)` under `alias`, printed over `shown` (`program` with
/// the names the records use); `simplified` is the goal the abstraction strengthens.
pub(crate) fn wp_record(program: &Program, shown: &Program, alias: &dyn MayAlias, points_to: bool, lhs: &Expr, value: &Expr, phi: &Expr, simplified: &Expr) -> WpRecord {
    let unpruned = logic::wp_assign_unsimplified(program, &logic::AlwaysMayAlias, lhs, value, phi);
    let alias_cases = logic::locations(phi)
        .into_iter()
        .map(|location| {
            let kind = if &location == lhs {
                AliasCaseKind::Assigned
            } else if alias.may_alias(lhs, &location) {
                AliasCaseKind::MayAlias
            } else {
                AliasCaseKind::Pruned
            };
            AliasCase { location: c_ir::display_expr(shown, &location), kind }
        })
        .collect();
    WpRecord {
        lhs: c_ir::display_expr(shown, lhs),
        value: c_ir::display_expr(shown, value),
        unpruned: c_ir::display_expr(shown, &unpruned),
        alias_cases,
        simplified: c_ir::display_expr(shown, simplified),
        points_to,
    }
}
