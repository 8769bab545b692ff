//! The enumeration of heaps up to isomorphism and unreachable cells
//! (`concrete::HeapSpace::each_reachable`), against the enumeration of every heap: up to 3
//! cells, every heap's reachable part, renamed canonically, is one of the enumerated heaps,
//! and every enumerated heap is one class (no two are isomorphic).

use crate::wp_props::fixture;
use std::collections::BTreeSet;

#[test]
fn every_heap_of_up_to_3_cells_is_one_enumerated_reachable_heap_up_to_isomorphism() {
    let space = fixture().space();
    let key = |h: &shape::concrete::Heap| format!("{h:?}");
    let mut enumerated = BTreeSet::new();
    for cells in 0..=3 {
        for h in space.reachable_heaps(cells) {
            assert_eq!(key(&space.canonical(&h)), key(&h), "an enumerated heap is not in canonical form");
            assert!(enumerated.insert(key(&h)), "enumerated twice: {h:?}");
        }
    }
    let mut reached = BTreeSet::new();
    let mut all = 0;
    for cells in 0..=3 {
        for h in space.heaps(cells) {
            let c = space.canonical(&h);
            assert!(enumerated.contains(&key(&c)), "the reachable part of {h:?} is not enumerated");
            reached.insert(key(&c));
            all += 1;
        }
    }
    assert_eq!(reached, enumerated, "an enumerated heap is the reachable part of no heap");
    assert!(enumerated.len() * 5 < all, "{} classes of {all} heaps", enumerated.len());
}
