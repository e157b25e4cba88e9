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
    /// Add another set of counts.
    pub fn add(&mut self, o: &Counts) {
        self.lanes += o.lanes;
        self.matched += o.matched;
        self.within += o.within;
        self.adapted += o.adapted;
        self.mismatch += o.mismatch;
        self.inconclusive += o.inconclusive;
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
}

impl Tally {
    /// Count one lane's verdict; true when it is a mismatch.
    pub fn add(&mut self, verdict: &Verdict) -> bool {
        self.counts.lanes += 1;
        match verdict {
            Verdict::Match => self.counts.matched += 1,
            Verdict::Within => self.counts.within += 1,
            Verdict::Adapted(ids) => {
                self.counts.adapted += 1;
                for id in ids {
                    *self.adapted_by.entry(id.clone()).or_default() += 1;
                }
            }
            Verdict::Mismatch => {
                self.counts.mismatch += 1;
                return true;
            }
            Verdict::Inconclusive(_) => self.counts.inconclusive += 1,
        }
        false
    }

    /// Add another tally.
    pub fn merge(&mut self, o: &Tally) {
        self.counts.add(&o.counts);
        for (id, n) in &o.adapted_by {
            *self.adapted_by.entry(id.clone()).or_default() += n;
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
}
