//! Terms nested deeper than `logic::MAX_TERM_DEPTH` (built by weakest preconditions along long
//! paths, issue 33) get an unknown answer with the reason instead of overflowing the stack in
//! the encoder; terms at the limit are still decided, on a 1 MiB stack (the browser worker's).

use crate::builder::*;
use c_ir::{BinaryOp::*, Expr, Type};
use solver::{Answer, Context, Solver, SolverConfig};

/// `((x ^ y) + z) ^ y) + z ...` compared with 5: a formula `depth` levels deep that
/// simplification cannot flatten (every step is a bijection of `x`, so it is satisfiable).
fn chain(b: &mut Builder, depth: usize) -> Expr {
    let (x, y, z) = (b.var("x", Type::INT), b.var("y", Type::INT), b.var("z", Type::INT));
    let mut e = x;
    // the comparison and the leaf take two levels
    for level in 0..depth - 2 {
        e = if level % 2 == 0 { bin(BitXor, &e, &y) } else { bin(Add, &e, &z) };
    }
    bin(Eq, &e, &int(5))
}

fn on_one_mebibyte_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new().stack_size(1 << 20).spawn(f).expect("spawn").join().expect("no stack overflow on a 1 MiB stack")
}

#[test]
fn formulas_at_the_depth_limit_are_decided_and_deeper_ones_are_unknown_with_the_reason() {
    let (at_limit, past_limit, literal_past_limit) = on_one_mebibyte_stack(|| {
        let mut b = Builder::new();
        let deepest = chain(&mut b, logic::MAX_TERM_DEPTH);
        assert_eq!(logic::depth(&deepest), logic::MAX_TERM_DEPTH);
        let at_limit = Solver::new(&b.program, &SolverConfig::c_semantics()).is_satisfiable(&deepest);
        let mut b = Builder::new();
        let deeper = chain(&mut b, logic::MAX_TERM_DEPTH + 1);
        let mut solver = Solver::new(&b.program, &SolverConfig::c_semantics());
        let past_limit = solver.is_satisfiable(&deeper);
        assert_eq!(solver.statistics().unknown_answers, 1);
        assert_eq!(solver.is_valid(&deeper), past_limit, "validity asks about the negation: as deep");
        let literal_past_limit = Context::new(&b.program, &SolverConfig::c_semantics()).literal(&deeper).map(|_| ()).map_err(|u| u.message);
        (at_limit, past_limit, literal_past_limit)
    });
    assert_eq!(at_limit, Answer::Yes);
    let reason = format!("a formula built by the analysis is nested more than {} levels deep", logic::MAX_TERM_DEPTH);
    assert!(matches!(&past_limit, Answer::Unknown(why) if why.starts_with(&reason)), "{past_limit:?}");
    assert!(matches!(&literal_past_limit, Err(why) if why.starts_with(&reason)), "{literal_past_limit:?}");
}

#[test]
fn the_term_cache_counts_against_the_memory_limit() {
    // every cached subterm of a chain keeps a copy of the subterms below it: about 64,000
    // nodes by the 256th term of this one, past a 4 MiB limit at the size of a node (more
    // than 64 bytes) and its box
    let mut b = Builder::new();
    let deepest = chain(&mut b, logic::MAX_TERM_DEPTH);
    let meter = budget::Meter::with_limits(None, None, Some(4 << 20));
    let config = SolverConfig { meter: meter.clone(), ..SolverConfig::c_semantics() };
    let answer = Solver::new(&b.program, &config).is_satisfiable(&deepest);
    assert!(matches!(&answer, Answer::Unknown(why) if why.starts_with("stopped before the memory limit")), "{answer:?}");
    assert!(meter.memory_exhausted().is_some());
    // without the limit the estimate is only recorded
    let meter = budget::Meter::new(None);
    let config = SolverConfig { meter: meter.clone(), ..SolverConfig::c_semantics() };
    assert_eq!(Solver::new(&b.program, &config).is_satisfiable(&deepest), Answer::Yes);
    assert!(meter.memory_peak() > 4 << 20, "{}", meter.memory_peak());
}
