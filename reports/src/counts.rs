//! Verdict counts: how many lanes matched, fell within tolerance, were adapted by a catalog
//! entry, mismatched or were inconclusive, and which entries adapted them.

use std::collections::BTreeMap;

use oracles::verdict::Verdict;
use serde::{Deserialize, Serialize};

/// Lanes per verdict.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Lanes checked: the sum of the five verdict counts.
    pub lanes: u64,
    /// Lanes whose bits equal the reference's.
    pub matched: u64,
    /// Lanes that differ within D3D's own error band for the ops involved.
    pub within: u64,
    /// Lanes whose difference a catalog entry accounts for.
    pub adapted: u64,
    /// Lanes that differ with nothing to account for it: a bug.
    pub mismatch: u64,
    /// Lanes not judged: the reference's budget ran out, or either side produced nothing.
    pub inconclusive: u64,
}

impl Counts {
    /// Lanes that got a verdict (all but the inconclusive): what a run compared. A run where
    /// this is 0 showed nothing, right or wrong.
    pub fn judged(&self) -> u64 {
        self.lanes.saturating_sub(self.inconclusive)
    }

    /// Add another set of counts.
    /// Saturating: counts read from a file may be anything, and a sum never wraps to a small
    /// number (the states' own checks refuse what no run could have counted).
    pub fn add(&mut self, o: &Counts) {
        self.lanes = self.lanes.saturating_add(o.lanes);
        self.matched = self.matched.saturating_add(o.matched);
        self.within = self.within.saturating_add(o.within);
        self.adapted = self.adapted.saturating_add(o.adapted);
        self.mismatch = self.mismatch.saturating_add(o.mismatch);
        self.inconclusive = self.inconclusive.saturating_add(o.inconclusive);
    }

    /// `match/within/adapted/mismatch/inconclusive`, the form transitions print.
    pub fn slashed(&self) -> String {
        format!(
            "{}/{}/{}/{}/{}",
            self.matched, self.within, self.adapted, self.mismatch, self.inconclusive
        )
    }
}

/// Counts with the lanes each catalog entry adapted: what one program's lanes add up to.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Lanes per verdict.
    pub counts: Counts,
    /// Lanes adapted per catalog id.
    #[serde(default)]
    pub adapted_by: BTreeMap<String, u64>,
    /// How far apart the differing lanes (within tolerance, adapted, mismatch) were: lanes per
    /// [`Distance`] bucket (empty when no lane differed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub distance: Vec<u64>,
}

/// How far apart two words are, as a histogram bucket: the report's ULP histogram.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Distance {
    /// Only the sign of a zero differs (0 ULP by the case format's distance).
    SignOfZero,
    /// `2^(k-1) <= ulp < 2^k`, `k` in 1..=32 (32 also holds everything wider).
    Log2(u8),
    /// A NaN on either side, or a discard that differs: no distance applies.
    Other,
}

impl Distance {
    /// Buckets in a histogram: the sign of zero, 32 powers of two, other.
    pub const BUCKETS: usize = 34;

    /// The bucket of a reference word `want` against `have`.
    pub fn of(want: u32, have: u32) -> Distance {
        let nan = |w: u32| w & 0x7f80_0000 == 0x7f80_0000 && w & 0x007f_ffff != 0;
        if nan(want) || nan(have) {
            return Distance::Other;
        }
        match oracles::case::ulp_distance(want, have) {
            0 => Distance::SignOfZero,
            d => Distance::Log2((d.ilog2() + 1).min(32) as u8),
        }
    }

    /// Its index in [`Tally::distance`].
    pub fn index(self) -> usize {
        match self {
            Distance::SignOfZero => 0,
            Distance::Log2(k) => usize::from(k.clamp(1, 32)),
            Distance::Other => 33,
        }
    }

    /// The bucket's label: `±0`, `1`, `2-3`, `4-7`, ..., `2^31+`, `NaN/discard`.
    pub fn label(index: usize) -> String {
        match index {
            0 => "±0".into(),
            1 => "1".into(),
            2 => "2-3".into(),
            32 => "2^31+".into(),
            k if k < 32 => {
                let lo = 1u64 << (k - 1);
                if k <= 11 {
                    format!("{lo}-{}", 2 * lo - 1)
                } else {
                    format!("2^{}", k - 1)
                }
            }
            _ => "NaN/discard".into(),
        }
    }
}

impl Tally {
    /// Count one lane's verdict; true when it is a mismatch.
    pub fn add(&mut self, verdict: &Verdict) -> bool {
        self.add_n(verdict, 1)
    }

    /// Count `n` lanes of the same verdict; true when it is a mismatch (and `n` is not 0).
    pub fn add_n(&mut self, verdict: &Verdict, n: u64) -> bool {
        self.counts.lanes += n;
        match verdict {
            Verdict::Match => self.counts.matched += n,
            Verdict::Within => self.counts.within += n,
            Verdict::Adapted(ids) => {
                self.counts.adapted += n;
                for id in ids {
                    *self.adapted_by.entry(id.clone()).or_default() += n;
                }
            }
            Verdict::Mismatch => {
                self.counts.mismatch += n;
                return n > 0;
            }
            Verdict::Inconclusive(_) => self.counts.inconclusive += n,
        }
        false
    }

    /// Count one differing lane's widest word difference.
    pub fn add_distance(&mut self, d: Distance) {
        self.distance.resize(Distance::BUCKETS, 0);
        self.distance[d.index()] += 1;
    }

    /// Add another tally.
    pub fn merge(&mut self, o: &Tally) {
        self.counts.add(&o.counts);
        for (id, n) in &o.adapted_by {
            *self.adapted_by.entry(id.clone()).or_default() += n;
        }
        if !o.distance.is_empty() {
            self.distance.resize(Distance::BUCKETS, 0);
            for (a, b) in self.distance.iter_mut().zip(&o.distance) {
                *a += b;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oracles::verdict::Inconclusive;

    #[test]
    fn tallies_count_every_verdict() {
        let mut t = Tally::default();
        assert!(!t.add(&Verdict::Match));
        assert!(!t.add(&Verdict::Within));
        assert!(!t.add(&Verdict::Adapted(vec!["dxdiff/nan".into()])));
        assert!(!t.add(&Verdict::Adapted(vec!["dxdiff/nan".into()])));
        assert!(t.add(&Verdict::Mismatch));
        assert!(!t.add(&Verdict::Inconclusive(Inconclusive::Budget)));
        assert_eq!(t.counts.slashed(), "1/1/2/1/1");
        assert_eq!(t.counts.lanes, 6);
        assert_eq!(t.adapted_by["dxdiff/nan"], 2);
        let mut u = t.clone();
        u.merge(&t);
        assert_eq!(u.counts.lanes, 12);
        assert_eq!(u.adapted_by["dxdiff/nan"], 4);
    }

    #[test]
    fn distances_fall_into_log2_buckets() {
        assert_eq!(Distance::of(0, 0x8000_0000), Distance::SignOfZero);
        assert_eq!(Distance::of(0x3f80_0000, 0x3f80_0001), Distance::Log2(1));
        assert_eq!(Distance::of(0x3f80_0000, 0x3f80_0003), Distance::Log2(2));
        assert_eq!(Distance::of(0x3f80_0000, 0x3f80_0004), Distance::Log2(3));
        // Across zero: +1 ULP from -0 to the smallest positive denormal.
        assert_eq!(Distance::of(0x8000_0000, 1), Distance::Log2(1));
        assert_eq!(Distance::of(0x7f7f_ffff, 0xff7f_ffff), Distance::Log2(32));
        assert_eq!(Distance::of(0x7fc0_0000, 0), Distance::Other);
        assert_eq!(Distance::label(0), "±0");
        assert_eq!(Distance::label(3), "4-7");
        assert_eq!(Distance::label(12), "2^11");
        assert_eq!(Distance::label(33), "NaN/discard");
        let mut t = Tally::default();
        t.add_distance(Distance::Log2(3));
        t.add_distance(Distance::Other);
        let mut u = Tally::default();
        u.merge(&t);
        u.merge(&t);
        assert_eq!(u.distance.len(), Distance::BUCKETS);
        assert_eq!((u.distance[3], u.distance[33]), (2, 2));
        assert_eq!(u.distance.iter().sum::<u64>(), 4);
    }
}
