//! The catalog entries a translation relies on: recorded as the lowering asks, several times
//! per operation, and listed once each, sorted, in the result.

use crate::names as id;

/// The entries recorded so far, each once, with a direct-mapped table of their texts'
/// addresses in front of the list: the common question (already recorded?) is one compare. A
/// scan's exit point varies with the entry, a branch the predictor misses (docs/corpus.md).
#[derive(Debug, Default)]
pub struct Relied {
    list: Vec<&'static str>,
    seen: [usize; 16],
}

impl Relied {
    /// Record `entry`. An entry whose text sits at another address than the one seen takes
    /// the scan, which is exact.
    pub fn record(&mut self, entry: &'static str) {
        let addr = entry.as_ptr() as usize;
        let slot = (addr >> 3) % self.seen.len();
        if self.seen[slot] == addr {
            return;
        }
        self.seen[slot] = addr;
        if self.list.contains(&entry) {
            return;
        }
        self.list.push(entry);
        // An approximate builtin's allowed error can be amplified without bound by a later add
        // that cancels, so relying on builtin accuracy relies on that entry too.
        if entry == id::BUILTIN_ACCURACY {
            self.record(id::CANCELLATION);
        }
    }

    /// The entries, each once, sorted.
    pub fn sorted(mut self) -> Vec<&'static str> {
        self.list.sort_unstable();
        self.list
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each entry is listed once however often and however it is asked for, including a copy
    /// of its text at another address, and builtin accuracy brings cancellation with it.
    #[test]
    fn each_entry_is_listed_once_and_accuracy_brings_cancellation() {
        let mut r = Relied::default();
        let copy: &'static str = String::from(id::NAN).leak();
        for _ in 0..3 {
            r.record(id::NAN);
            r.record(id::DENORMALS);
            r.record(copy);
        }
        r.record(id::BUILTIN_ACCURACY);
        r.record(id::BUILTIN_ACCURACY);
        let mut want = vec![
            id::NAN,
            id::DENORMALS,
            id::BUILTIN_ACCURACY,
            id::CANCELLATION,
        ];
        want.sort_unstable();
        assert_eq!(r.sorted(), want);
    }
}
