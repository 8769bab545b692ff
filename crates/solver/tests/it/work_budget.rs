//! Work budgets inside one SAT search (issue 33): a search that spends its work on unit
//! propagation between few conflicts stops at a decision once its propagations would spend
//! the budget, instead of being charged the whole search after the fact.

use solver::{new_backend, BackendKind, Lit, SatBackend};

/// `chains` equivalence chains of `length` variables each (`x ↔ y` as two clauses): every
/// decision on a chain propagates the whole chain, and the instance is satisfiable without a
/// single conflict. Returns the back end with its clauses added and no meter yet.
fn chains(chains: u32, length: u32) -> Box<dyn SatBackend> {
    let mut sat = new_backend(BackendKind::Batsat);
    let constant = sat.new_var();
    sat.add_clause(&[Lit::positive(constant)]);
    for _ in 0..chains {
        let mut previous = Lit::positive(sat.new_var());
        for _ in 1..length {
            let next = Lit::positive(sat.new_var());
            sat.add_clause(&[!previous, next]);
            sat.add_clause(&[previous, !next]);
            previous = next;
        }
    }
    sat
}

/// Units one decision's propagation costs in [`chains`] (one whole chain).
fn per_decision(length: u32) -> u64 {
    u64::from(length) / budget::cost::SAT_PROPAGATIONS_PER_UNIT
}

#[test]
fn a_propagation_heavy_search_stops_near_its_budget() {
    const CHAINS: u32 = 64;
    const LENGTH: u32 = 4_000;
    // the unlimited search: its propagations alone cost about 16,000 units
    let mut free = chains(CHAINS, LENGTH);
    let unlimited = budget::Meter::new(None);
    free.set_meter(unlimited.clone());
    assert_eq!(free.solve(&[]), Some(true));
    let whole = unlimited.spent();
    assert!(whole >= u64::from(CHAINS * LENGTH) / budget::cost::SAT_PROPAGATIONS_PER_UNIT, "the whole search was charged {whole} units");

    let limit = whole / 3;
    let mut limited = chains(CHAINS, LENGTH);
    let meter = budget::Meter::new(Some(limit));
    limited.set_meter(meter.clone());
    assert_eq!(limited.solve(&[]), None, "the search stops unfinished");
    let spent = meter.spent();
    // batsat asks whether to stop before it shows the theory the trail of the last decision,
    // so the count lags one decision: at most two decisions' propagation over
    assert!(spent >= limit, "spent {spent} of {limit}: stopped before the budget was used");
    assert!(spent <= limit + 2 * per_decision(LENGTH) + budget::cost::SAT_CALL, "spent {spent} of {limit} (one decision costs {})", per_decision(LENGTH));
    assert!(spent * 10 <= limit * 11, "spent {spent} of {limit}: more than 10 % over");
}

#[test]
fn the_same_search_stops_at_the_same_point_every_time() {
    let run = || {
        let mut sat = chains(32, 3_000);
        let meter = budget::Meter::new(Some(2_000));
        sat.set_meter(meter.clone());
        (sat.solve(&[]), meter.spent())
    };
    let first = run();
    assert_eq!(first.0, None);
    assert_eq!(run(), first);
}

#[test]
fn searches_within_their_budget_are_charged_as_before() {
    // the stop signal never cuts a search that fits: the limit is the whole search's charge
    let mut free = chains(16, 2_000);
    let unlimited = budget::Meter::new(None);
    free.set_meter(unlimited.clone());
    assert_eq!(free.solve(&[]), Some(true));
    let whole = unlimited.spent();
    let mut fits = chains(16, 2_000);
    let meter = budget::Meter::new(Some(whole + 1));
    fits.set_meter(meter.clone());
    assert_eq!(fits.solve(&[]), Some(true));
    assert_eq!(meter.spent(), whole);
}
