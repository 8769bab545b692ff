//! How deeply a term is nested, measured without recursion, and the limit for terms the engine
//! builds (issue 33: "never panic, abort or hang on user input").
//!
//! The front end rejects source expressions nested deeper than `c_front::MAX_NESTING` (256)
//! levels, but the analyses *build* terms: a weakest precondition (C2BP §4.2, Morris' axiom)
//! or a strongest postcondition along a path of `n` assignments `x = y - x;` nests `x` `n`
//! levels deep, although every statement is flat. Simplification, substitution, the solver's
//! encoder and even `Drop` of such a term recurse once per level, so a long enough path
//! overflows the stack (8 MiB natively, 1 MiB in the browser's worker). Every stage that
//! builds or consumes such terms asks [`check_depth`] first and gives up on the term with
//! [`TooDeep`] (an unknown answer with this reason) instead.

use c_ir::{Expr, ExprKind};
use std::fmt;

/// The deepest term the analyses build or decide: levels of operators, casts, dereferences
/// and applications from the root to the deepest leaf. Measured (see the tests of `solver`
/// and `refine`): a term of this depth passes through substitution, simplification and the
/// solver's encoder on a 1 MiB stack in the test profile; the unoptimised CLI overflowed its
/// 8 MiB main stack at about 1,000 levels. Twice the front end's limit, so that the weakest
/// precondition of a source predicate through a source assignment always fits.
pub const MAX_TERM_DEPTH: usize = 512;

/// A term nested deeper than [`MAX_TERM_DEPTH`] (the analysis gives up on it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooDeep {
    /// The limit that was passed.
    pub limit: usize,
}

impl fmt::Display for TooDeep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a formula built by the analysis is nested more than {} levels deep (e.g. a weakest precondition through a long chain of assignments to the same variable); the answer is unknown",
            self.limit
        )
    }
}

impl std::error::Error for TooDeep {}

/// The nesting depth of `e` (a leaf has depth 1), computed with an explicit stack.
pub fn depth(e: &Expr) -> usize {
    deepest(e, usize::MAX)
}

/// Whether `e` is nested deeper than `limit` levels (stops at the first such path).
pub fn exceeds_depth(e: &Expr, limit: usize) -> bool {
    deepest(e, limit) > limit
}

/// `Err` if `e` is nested deeper than [`MAX_TERM_DEPTH`].
pub fn check_depth(e: &Expr) -> Result<(), TooDeep> {
    if exceeds_depth(e, MAX_TERM_DEPTH) {
        Err(TooDeep { limit: MAX_TERM_DEPTH })
    } else {
        Ok(())
    }
}

/// `Err` if any of `items` is nested deeper than [`MAX_TERM_DEPTH`].
pub fn check_all_depths<'a>(items: impl IntoIterator<Item = &'a Expr>) -> Result<(), TooDeep> {
    items.into_iter().try_for_each(check_depth)
}

/// The depth of `e`, or the first depth past `limit` found.
fn deepest(e: &Expr, limit: usize) -> usize {
    let mut stack: Vec<(&Expr, usize)> = vec![(e, 1)];
    let mut max = 0;
    while let Some((e, d)) = stack.pop() {
        max = max.max(d);
        if max > limit {
            return max;
        }
        match &e.kind {
            ExprKind::Const(_) | ExprKind::Var(_) | ExprKind::Str(_) => {}
            ExprKind::Unary(_, a) | ExprKind::Cast(a) | ExprKind::Deref(a) | ExprKind::AddrOf(a) | ExprKind::Field(a, _) => stack.push((a, d + 1)),
            ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) => {
                stack.push((a, d + 1));
                stack.push((b, d + 1));
            }
            ExprKind::Ite(c, a, b) => {
                stack.push((c, d + 1));
                stack.push((a, d + 1));
                stack.push((b, d + 1));
            }
            ExprKind::App(_, args) => stack.extend(args.iter().map(|a| (a, d + 1))),
        }
    }
    max
}

#[cfg(test)]
mod tests {
    use super::*;
    use c_ir::{BinaryOp, Type, VarId};

    /// `y - (y - (... - x))`, `n` subtractions: depth `n + 1`, built and dropped iteratively.
    fn chain(n: usize) -> Expr {
        let mut e = Expr::var(VarId(0), Type::INT);
        for _ in 0..n {
            e = Expr::binary(BinaryOp::Sub, Expr::var(VarId(1), Type::INT), e);
        }
        e
    }

    /// Takes a deep chain apart without recursion (its `Drop` would recurse once per level).
    fn dismantle(mut e: Expr) {
        while let ExprKind::Binary(_, _, b) = e.kind {
            e = *b;
        }
    }

    #[test]
    fn depth_counts_levels_without_recursion() {
        assert_eq!(depth(&chain(0)), 1);
        assert_eq!(depth(&chain(3)), 4);
        assert!(check_depth(&chain(MAX_TERM_DEPTH - 1)).is_ok());
        let too_deep = check_depth(&chain(MAX_TERM_DEPTH)).unwrap_err();
        assert!(too_deep.to_string().contains("nested more than 512 levels deep"), "{too_deep}");
        // a million levels on a 64 KiB stack: no recursion anywhere
        let measured = std::thread::Builder::new()
            .stack_size(64 << 10)
            .spawn(|| {
                let e = chain(1_000_000);
                let d = (depth(&e), exceeds_depth(&e, 10), check_all_depths([&chain(2), &e]).is_err());
                dismantle(e);
                d
            })
            .expect("spawn")
            .join()
            .expect("no stack overflow");
        assert_eq!(measured, (1_000_001, true, true));
    }
}
