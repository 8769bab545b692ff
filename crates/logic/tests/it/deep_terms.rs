//! The term depth limit (issue 33): a predicate at `MAX_TERM_DEPTH` pushed through an
//! assignment whose right-hand side is as deep as the front end allows (256 levels) is
//! substituted, simplified, measured and dropped on a 1 MiB stack (the browser worker's).

use crate::builder::*;
use c_ir::{BinaryOp::*, Expr, Type};
use logic::{check_depth, depth, simplify, wp_assign, AlwaysMayAlias, MAX_TERM_DEPTH};

/// `((leaf ^ y) + z) ^ y ...`, `levels` operators deep.
fn chain(leaf: Expr, y: &Expr, z: &Expr, levels: usize) -> Expr {
    (0..levels).fold(leaf, |e, level| if level % 2 == 0 { bin(BitXor, &e, y) } else { bin(Add, &e, z) })
}

#[test]
fn the_deepest_predicate_through_the_deepest_assignment_fits_a_one_mebibyte_stack() {
    let (before, after, rejected) = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(|| {
            let mut b = Builder::new();
            let (x, y, z) = (b.var("x", Type::INT), b.var("y", Type::INT), b.var("z", Type::INT));
            let phi = bin(Eq, &chain(x.clone(), &y, &z, MAX_TERM_DEPTH - 2), &int(5));
            let rhs = chain(y.clone(), &z, &x, 255);
            let pre = simplify(&wp_assign(&b.program, &AlwaysMayAlias, &x, &rhs, &phi));
            (depth(&phi), depth(&pre), check_depth(&pre).is_err())
        })
        .expect("spawn")
        .join()
        .expect("no stack overflow on a 1 MiB stack");
    assert_eq!(before, MAX_TERM_DEPTH);
    assert!(after > MAX_TERM_DEPTH + 200, "{after}");
    assert!(rejected, "the weakest precondition is past the limit: the caller gives up on it");
}
