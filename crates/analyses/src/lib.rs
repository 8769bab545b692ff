//! Analyses that work beside the CEGAR loop, each on its own (none of them names the loop):
//!
//! - [`fixpoint`]: the engine the abstract interpretations share (a domain trait: join, widen,
//!   inclusion, transfer; widening delay, descending rounds, post-fixpoint check, per-entry
//!   memo of calls).
//! - [`zones`]: difference bounds (Miné's zones), an abstract interpretation sound for machine
//!   integers; a proof when no state reaches the error, candidate relations otherwise.
//! - [`heap`]: value sets of variables and of heap cells' fields per allocation site (newest,
//!   previous, summary), with strong and weak updates.
//! - [`affine`]: Karr's affine equalities at loop heads, counter bounds, stride congruences,
//!   polynomial equalities and affine procedure summaries (loop-invariant candidates).
//! - [`bmc`]: bounded model checking by unrolling, for programs over integer variables.
//!
//! None of these techniques is described by the seed papers; the portfolio (`verify`) names
//! which one decided a verdict, and the textbook mode runs the loop without them.

pub mod affine;
pub mod bmc;
pub mod fixpoint;
pub mod heap;
pub mod zones;
