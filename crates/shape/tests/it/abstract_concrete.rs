//! Every concrete heap transition is matched by the abstract transition (the soundness relation
//! of Dams–Namjoshi §2: a concrete state at `n` is related to an abstract one when every
//! considered pair's predicate `p(s) ⪯₃ b_p`).
//!
//! The flow chart is executed concretely on every heap of up to 3 cells up to isomorphism and
//! unreachable cells (`crate::small_heaps`; `SHAPE_CELLS=N` goes further) (`concrete::Heap`,
//! each pointer field, variable and rigid over NULL and the cells), along every path of up to
//! [`STEPS`] edges (each distinct state once: `Checker::seen`). For each edge `m → n` taken from `s` to `s'`, and each pair `(p, n)`:
//! - marked: the abstract update `f` (the simplified WP) evaluated on `s` is `⊤` or `p(s')`;
//! - hinted `if c then false else ⊤`: `c(s')` true implies `p(s')` false;
//!
//! and at every location the consistency constraints (`shape::consistency`) hold on `s`.
//! The abstractions: insertion, traversal, push-onto-itself, the reversal with hand-written
//! hints, and the reversal with the hints `--auto-hints` finds. `SHAPE_CELLS=6`: every heap of
//! up to 6 cells (the reversal's 63,987 input heaps, 82,954 states) in about a minute.

use shape::abstraction::{self, Abstraction, Status};
use shape::autohint::{self, Online};
use shape::concrete::{Heap, HeapSpace, Val};
use std::collections::BTreeMap;
use shape::flowchart::LocId;
use crate::session;
use shape::Session;

const STEPS: usize = 20;

/// The abstraction `--auto-hints` ends with (online hints, then the rerun with them).
fn auto_abstraction(s: &Session) -> Abstraction {
    let mut online = Online::new(s);
    let found = abstraction::run_online(s.names(), &s.flowchart, &s.initial_pairs(), &[], 40, &mut |a| online.hints_for(a));
    s.abstract_with(&found.hints, 40)
}

struct Checker<'a> {
    s: &'a Session,
    abs: &'a Abstraction,
    checked: usize,
    /// The consistency constraints of each location (computed once).
    constraints: Vec<Vec<shape::terms::Formula>>,
    space: HeapSpace,
    /// The states explored: (location, the canonical form of the heap's reachable part) ↦ the
    /// most steps explored from it. Paths from different input heaps meet (the reversal's
    /// `y = NULL` and `t = y` forget the inputs' `y` and `t`), and every check depends only on
    /// the part the roots reach up to the names of its cells, so a state already explored with
    /// at least as many steps left has had every transition of those paths checked.
    seen: BTreeMap<(LocId, BTreeMap<Val, Val>, Vec<Val>), usize>,
    states: usize,
}

impl Checker<'_> {
    fn at_location(&mut self, n: LocId, h: &Heap) {
        for c in &self.constraints[n.0 as usize] {
            assert_ne!(h.eval_formula(c), Some(false), "consistency constraint {} fails at {} on {h:?}", self.s.names().formula(c), self.s.flowchart.location(n).label);
            self.checked += 1;
        }
    }

    fn transition(&mut self, e: usize, before: &Heap, after: &Heap) {
        let edge = &self.s.flowchart.edges[e];
        let names = self.s.names();
        for a in self.abs.assignments.iter().filter(|a| a.edge == edge.id) {
            let p = self.abs.pred(a.pred);
            if let (Some(f), Some(v)) = (before.eval_formula(&a.formula), after.eval_pred(p)) {
                assert_eq!(f, v, "edge {} ({}): {} := {} is {f} before, but the predicate is {v} after\nbefore {before:?}\nafter {after:?}", e, edge.text, names.pred(p), names.formula(&a.formula));
                self.checked += 1;
            }
        }
        for pair in self.abs.pairs.iter().filter(|p| p.loc == edge.to && p.status == Status::Hinted) {
            let Some(h) = pair.hint else { continue };
            let p = self.abs.pred(pair.pred);
            // `b_p ≡ if C then r else ⊤`: where C holds, p has the residual's value
            if after.eval_formula(&self.abs.hints[h].cond) == Some(true) {
                if let (Some(v), Some(r)) = (after.eval_pred(p), after.eval_formula(&pair.residual)) {
                    assert_eq!(v, r, "hint {} gives {} = {} wrongly after edge {e} on {after:?}", names.pred(&self.abs.hints[h].pattern), names.pred(p), names.formula(&pair.residual));
                    self.checked += 1;
                }
            }
        }
    }

    /// Every path of up to `steps` edges from `n` in state `h`.
    fn explore(&mut self, n: LocId, h: &Heap, steps: usize) {
        // (a freed cell is not in the canonical form: such states are not merged)
        if h.cells.iter().all(|c| c.alloc) {
            let canon = self.space.canonical(h);
            let key = (n, canon.mem, canon.rigids);
            if self.seen.get(&key).is_some_and(|&done| done >= steps) {
                return;
            }
            self.seen.insert(key, steps);
        }
        self.states += 1;
        self.at_location(n, h);
        if steps == 0 {
            return;
        }
        for (k, e) in self.s.flowchart.edges.iter().enumerate().filter(|(_, e)| e.from == n) {
            if h.eval_formula(&e.guard) == Some(false) {
                continue;
            }
            let mut next = Some(h.clone());
            for (u, _) in &e.updates {
                next = next.and_then(|x| x.execute(u, &[]));
            }
            let Some(mut after) = next else { continue };
            after.fresh = None;
            self.transition(k, h, &after);
            self.explore(e.to, &after, steps - 1);
        }
    }
}

fn check(s: &Session, abs: &Abstraction) -> usize {
    let space = autohint::heap_space(s).expect("a list struct");
    let constraints = s.flowchart.locations.iter().map(|l| shape::consistency::at_location(abs, l.id)).collect();
    let heaps = crate::small_heaps(&space);
    let mut c = Checker { s, abs, checked: 0, constraints, space, seen: BTreeMap::new(), states: 0 };
    for h in &heaps {
        c.explore(s.flowchart.initial, h, STEPS);
    }
    eprintln!("{} states explored from {} input heaps, {} checks", c.states, heaps.len(), c.checked);
    assert!(c.checked > 0, "nothing was checked");
    c.checked
}

#[test]
fn insertion_traversal_and_push_abstractions_match_every_concrete_transition() {
    let k = "forall k: reach[;n](x,k)@n1 => reach[;n](x,k)@ne";
    for s in [session("insert.c", "insert", k, &[], ""), session("traverse.c", "length", k, &[], ""), session("push_cycle.c", "push_self", "!cyclic[n](t)@ne", &["!cyclic[n](x)@n1"], "")] {
        let abs = s.abstract_with(&s.hints, 10);
        check(&s, &abs);
    }
}

#[test]
fn reversal_abstractions_with_hints_match_every_concrete_transition() {
    let s = session("reverse.c", "reverse", "!cyclic[n](y)@n8", &["!cyclic[n](x)@n1"], "reverse_full.hints");
    let hinted = s.abstract_with(&s.hints, 40);
    assert!(hinted.converged);
    check(&s, &hinted);
    let auto = auto_abstraction(&s);
    assert!(auto.converged);
    check(&s, &auto);
    // the paper's two hints alone: other predicates at n4 and n5 reduced under their conditions
    let s = session("reverse.c", "reverse", "!cyclic[n](y)@n8", &["!cyclic[n](x)@n1"], "reverse.hints");
    let paper = s.abstract_with(&s.hints, 40);
    assert!(paper.pairs.iter().filter(|p| !p.residual_rules.is_empty()).count() >= 4, "reduced pairs");
    check(&s, &paper);
}
