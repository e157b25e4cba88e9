//! Sorted maps and sets of the few registers a program declares (`cb#`, `t#`, `s#`, `u#`,
//! `g#`, `x#`): kept inline, in key order like the `BTreeMap`s they replace, so what is
//! emitted from them comes out in the same order.
//!
//! A program declares a handful of each; a `BTreeMap` allocated a node for the first entry
//! of every map and freed it after, a dozen allocations a program, and walked nodes on every
//! lookup (docs/corpus.md).

use smallvec::SmallVec;

/// A map from a declared slot to what the lowering keeps for it, sorted by key.
#[derive(Debug, Clone)]
pub struct SlotMap<K, V> {
    entries: SmallVec<[(K, V); 4]>,
}

impl<K, V> Default for SlotMap<K, V> {
    fn default() -> Self {
        SlotMap {
            entries: SmallVec::new(),
        }
    }
}

impl<K: Ord + Copy, V> SlotMap<K, V> {
    pub fn new() -> Self {
        Self::default()
    }

    fn find(&self, k: &K) -> Result<usize, usize> {
        self.entries.binary_search_by(|(e, _)| e.cmp(k))
    }

    /// Set `k` to `v`; the value it had, if any (as `BTreeMap::insert`).
    pub fn insert(&mut self, k: K, v: V) -> Option<V> {
        match self.find(&k) {
            Ok(i) => Some(std::mem::replace(&mut self.entries[i].1, v)),
            Err(i) => {
                self.entries.insert(i, (k, v));
                None
            }
        }
    }

    pub fn get(&self, k: &K) -> Option<&V> {
        self.find(k).ok().map(|i| &self.entries[i].1)
    }

    pub fn get_mut(&mut self, k: &K) -> Option<&mut V> {
        self.find(k).ok().map(|i| &mut self.entries[i].1)
    }

    pub fn contains_key(&self, k: &K) -> bool {
        self.find(k).is_ok()
    }

    /// The entries in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.entries.len()
    }
}

impl<K: Ord + Copy, V: Copy> SlotMap<K, V> {
    /// The entries in key order, copied out (inline, as the map keeps them): a caller that adds
    /// to the module while it walks the map holds no borrow of it.
    pub fn copied(&self) -> smallvec::IntoIter<[(K, V); 4]> {
        self.entries.clone().into_iter()
    }
}

/// A set of declared slots, sorted.
#[derive(Debug, Clone, Default)]
pub struct SlotSet<K> {
    map: SlotMap<K, ()>,
}

impl<K: Ord + Copy> SlotSet<K> {
    pub fn new() -> Self {
        SlotSet {
            map: SlotMap::new(),
        }
    }

    /// Add `k`; whether it was new (as `BTreeSet::insert`).
    pub fn insert(&mut self, k: K) -> bool {
        self.map.insert(k, ()).is_none()
    }

    pub fn contains(&self, k: &K) -> bool {
        self.map.contains_key(k)
    }

    /// The slots in order.
    #[cfg(test)]
    pub fn iter(&self) -> impl Iterator<Item = &K> {
        self.map.iter().map(|(k, _)| k)
    }

    /// The slots in order, copied out (see [`SlotMap::copied`]).
    pub fn copied(&self) -> impl Iterator<Item = K> + use<K> {
        self.map.copied().map(|(k, ())| k)
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.map.len()
    }
}

impl<K: Ord + Copy> FromIterator<K> for SlotSet<K> {
    fn from_iter<I: IntoIterator<Item = K>>(iter: I) -> Self {
        let mut s = SlotSet::new();
        for k in iter {
            s.insert(k);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::{SlotMap, SlotSet};
    use std::collections::{BTreeMap, BTreeSet};

    /// Every sequence of up to five inserts over four keys (each value its position) leaves
    /// the same entries, in the same order, with the same answers to lookups and inserts, as
    /// the `BTreeMap` it replaces: duplicates, descending and interleaved keys included.
    #[test]
    fn a_slot_map_answers_as_a_btree_map() {
        const KEYS: u32 = 4;
        for len in 0..=5 {
            for code in 0..KEYS.pow(len) {
                let (mut a, mut b) = (SlotMap::new(), BTreeMap::new());
                let (mut s, mut t) = (SlotSet::new(), BTreeSet::new());
                for (v, at) in (0..len).enumerate() {
                    let k = code / KEYS.pow(at) % KEYS;
                    assert_eq!(a.insert(k, v), b.insert(k, v));
                    assert_eq!(s.insert(k), t.insert(k));
                    let q = (k + 1) % (KEYS + 1);
                    assert_eq!(a.get(&q), b.get(&q));
                    assert_eq!(s.contains(&q), t.contains(&q));
                }
                assert!(a.iter().eq(b.iter()));
                assert!(s.iter().eq(t.iter()));
                assert_eq!((a.len(), s.len()), (b.len(), t.len()));
                let copied: Vec<_> = a.copied().collect();
                assert_eq!(copied, b.into_iter().collect::<Vec<_>>());
            }
        }
    }
}
