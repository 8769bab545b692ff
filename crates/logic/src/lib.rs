//! Predicate terms over IR expressions: substitution, weakest preconditions (Morris' general
//! axiom of assignment, C2BP §4.2), simplification, locations/`drfs`/`vars`, cone of influence.
//!
//! Predicates are plain [`c_ir::Expr`] values of type `Bool`; printing is [`c_ir::display_expr`].
//!
//! Conventions shared with the `solver` crate (its logical memory model):
//! - every variable has a distinct non-null address; lvalues of different [`MemoryTypeKey`]s
//!   never overlap (type-based aliasing), distinct struct fields never overlap;
//! - unknown values introduced by `havoc` and `malloc` are *fresh symbols*
//!   ([`fresh_symbol`]: a nullary [`c_ir::ExprKind::App`] of a [`c_ir::Symbol::Fresh`]), which
//!   stand for universally quantified values when the weakest precondition is checked for
//!   validity (the way abstraction and refinement use it).

pub mod alias;
pub mod cone;
pub mod depth;
pub mod eval;
pub mod locations;
pub mod simplify;
pub mod substitute;
pub mod wp;

pub use alias::{memory_type_key, AlwaysMayAlias, MayAlias, MemoryTypeKey, TypeBasedMayAlias};
pub use depth::{check_all_depths, check_depth, depth, exceeds_depth, TooDeep, MAX_TERM_DEPTH};
pub use cone::{bounded_cone_of_influence, cone_of_influence, shares_symbols, symbols, Symbol};
pub use locations::{drfs, is_location, locations, vars};
pub use simplify::{balanced, conjunction, disjunction, implies, negate, simplify};
pub use substitute::{map_expr, substitute, substitute_at_prefix, substitute_var};
pub use wp::{
    affected_locations, fresh_symbol, is_fresh_symbol, lift_ite, syntactically_distinct, wp_assign, wp_assign_unsimplified, wp_assume, wp_havoc, wp_malloc,
};
