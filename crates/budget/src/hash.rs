//! Hash maps whose iteration order is the same in every run (issue 33, "the same answer on
//! every laptop").
//!
//! `std::collections::HashMap` seeds its hasher at random per process, so anything that
//! iterates a map (clauses added to the SAT solver in that order, cubes tried, predicates
//! listed) can differ from one run of the same program to the next; with a conflict or cube
//! budget, so can the result. Measured before this module: `tests/struct-pointers/
//! make_counter.c` with `--techniques cegar` gave one of two final boolean programs (the
//! strengthening of `bump`'s update), 2 runs in 8 the other one.
//!
//! The engine crates use [`HashMap`] and [`HashSet`] from here instead: std's tables with
//! [`StableHasher`], a fixed-key multiplicative hash (FxHash's mixing step, with a finaliser).
//! Its value depends only on the bytes and integers hashed, with `usize` and `isize` always
//! hashed as 64-bit numbers, so a key hashes the same natively and in wasm32. (Where the order
//! must also be independent of the table's implementation, sort what you iterate.)

use std::hash::{BuildHasherDefault, Hasher};

/// std's hash map with [`StableHasher`]: create it with `HashMap::default()`.
pub type HashMap<K, V> = std::collections::HashMap<K, V, BuildStableHasher>;
/// std's hash set with [`StableHasher`]: create it with `HashSet::default()`.
pub type HashSet<T> = std::collections::HashSet<T, BuildStableHasher>;
/// Builds [`StableHasher`]s (all with the same fixed state).
pub type BuildStableHasher = BuildHasherDefault<StableHasher>;

/// A deterministic, platform-independent hasher (not resistant to collision attacks: the
/// engine's maps hold its own terms, not adversarial keys in bulk).
#[derive(Clone, Copy, Debug)]
pub struct StableHasher {
    hash: u64,
}

impl Default for StableHasher {
    /// A non-zero start, so that `0`, `(0, 0)` and `[0; 3]` hash apart.
    fn default() -> Self {
        StableHasher { hash: 0x243f_6a88_85a3_08d3 }
    }
}

const K: u64 = 0xf135_7aea_2e62_a9c5;

impl StableHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(26) ^ word).wrapping_mul(K);
    }
}

impl Hasher for StableHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            // the length tells `[1]` from `[1, 0]`
            self.add(u64::from_le_bytes(last) ^ ((rest.len() as u64) << 59));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    #[inline]
    fn write_u128(&mut self, i: u128) {
        self.add(i as u64);
        self.add((i >> 64) as u64);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    #[inline]
    fn write_i8(&mut self, i: i8) {
        self.add(i as u8 as u64);
    }
    #[inline]
    fn write_i16(&mut self, i: i16) {
        self.add(i as u16 as u64);
    }
    #[inline]
    fn write_i32(&mut self, i: i32) {
        self.add(i as u32 as u64);
    }
    #[inline]
    fn write_i64(&mut self, i: i64) {
        self.add(i as u64);
    }
    #[inline]
    fn write_i128(&mut self, i: i128) {
        self.write_u128(i as u128);
    }
    #[inline]
    fn write_isize(&mut self, i: isize) {
        self.add(i as i64 as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        // murmur3's finaliser: the table uses both the low bits (bucket) and the top 7 (tag)
        let mut h = self.hash;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::{BuildHasher, Hash};

    const PINNED: [u64; 3] = [7296021626999358732, 7713375142554082469, 7645511541608575213];

    fn hash<T: Hash + ?Sized>(t: &T) -> u64 {
        BuildStableHasher::default().hash_one(t)
    }

    #[test]
    fn the_same_key_hashes_the_same_in_every_map_and_run() {
        // fixed values, the same on every platform: a change of the function changes every
        // map's order, which must be on purpose only
        assert_eq!(hash(&0u32), PINNED[0]);
        assert_eq!(hash(&"abc"), PINNED[1]);
        assert_eq!(hash(&(1u32, "x", 2usize)), PINNED[2]);
        // usize is hashed as 64 bits: the same value as a u64
        assert_eq!(hash(&7usize), hash(&7u64));
        assert_eq!(hash(&-1isize), hash(&-1i64));
    }

    #[test]
    fn nearby_keys_spread_over_buckets_and_tags() {
        let hashes: Vec<u64> = (0u32..4096).map(|i| hash(&i)).collect();
        let buckets: HashSet<u64> = hashes.iter().map(|h| h & 4095).collect();
        let tags: HashSet<u64> = hashes.iter().map(|h| h >> 57).collect();
        assert!(buckets.len() > 2400, "{} of 4096 buckets used", buckets.len());
        assert_eq!(tags.len(), 128);
        // byte strings differing in length or in their last byte differ
        assert_ne!(hash(&[1u8][..]), hash(&[1u8, 0][..]));
        assert_ne!(hash(&"ab"), hash(&"ac"));
        assert_ne!(hash(&0u32), hash(&(0u32, 0u32)));
    }

    #[test]
    fn two_maps_built_the_same_way_iterate_in_the_same_order() {
        let build = || {
            let mut m: HashMap<String, usize> = HashMap::default();
            for i in 0..500 {
                m.insert(format!("p{}", (i * 7919) % 1000), i);
            }
            m.into_iter().collect::<Vec<_>>()
        };
        assert_eq!(build(), build());
    }
}
