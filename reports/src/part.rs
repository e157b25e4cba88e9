//! Which shard a report is of: a leaf that every report model names in its `shard` field, so
//! that the models need nothing of [`crate::shard`], which merges them.

use serde::{Deserialize, Serialize};

/// One shard: `k` of `n`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// This shard, 0-based (Kubernetes' `JOB_COMPLETION_INDEX` as it is).
    pub k: u32,
    /// The number of shards.
    pub n: u32,
}

impl std::str::FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("`{s}` is not K/N with 0 <= K < N");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (k, n): (u32, u32) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if n == 0 || k >= n {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

impl Shard {
    /// Whether unit `index` of the run's order is this shard's.
    pub fn owns(&self, index: usize) -> bool {
        index % self.n as usize == self.k as usize
    }
}

/// A shard as its report records it: which one, and the dxdiff that ran it (`dxdiff --version`),
/// so that shards of different builds are never merged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Part {
    /// Which shard.
    #[serde(flatten)]
    pub shard: Shard,
    /// The dxdiff that ran it.
    pub version: String,
}
