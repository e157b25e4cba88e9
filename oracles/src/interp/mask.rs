//! Lane masks: one bit per invocation in a batch. Control flow is executed for a whole batch at
//! once, and each construct narrows which lanes are active.

/// A set of lanes out of `lanes`, one bit each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mask {
    words: Vec<u64>,
    lanes: usize,
}

impl Mask {
    /// No lane set.
    pub fn none(lanes: usize) -> Mask {
        Mask {
            words: vec![0; lanes.div_ceil(64)],
            lanes,
        }
    }

    /// Every lane set.
    pub fn all(lanes: usize) -> Mask {
        let mut m = Mask {
            words: vec![u64::MAX; lanes.div_ceil(64)],
            lanes,
        };
        m.trim();
        m
    }

    /// A mask with the lanes where `f(lane)` holds.
    pub fn from_fn(lanes: usize, mut f: impl FnMut(usize) -> bool) -> Mask {
        let mut m = Mask::none(lanes);
        for i in 0..lanes {
            if f(i) {
                m.words[i / 64] |= 1 << (i % 64);
            }
        }
        m
    }

    fn trim(&mut self) {
        let rem = self.lanes % 64;
        if rem != 0
            && let Some(last) = self.words.last_mut()
        {
            *last &= (1u64 << rem) - 1;
        }
    }

    /// Whether lane `i` is set.
    #[inline]
    pub fn get(&self, i: usize) -> bool {
        self.words[i / 64] >> (i % 64) & 1 == 1
    }

    /// Set or clear lane `i`.
    pub fn set(&mut self, i: usize, v: bool) {
        if v {
            self.words[i / 64] |= 1 << (i % 64);
        } else {
            self.words[i / 64] &= !(1 << (i % 64));
        }
    }

    /// Whether some lane is set.
    pub fn any(&self) -> bool {
        self.words.iter().any(|w| *w != 0)
    }

    /// Whether every lane is set.
    pub fn is_full(&self) -> bool {
        *self == Mask::all(self.lanes)
    }

    /// Lanes set in both.
    pub fn and(&self, o: &Mask) -> Mask {
        self.zip(o, |a, b| a & b)
    }

    /// Lanes set in either.
    pub fn or(&self, o: &Mask) -> Mask {
        self.zip(o, |a, b| a | b)
    }

    /// Lanes set in `self` but not in `o`.
    pub fn and_not(&self, o: &Mask) -> Mask {
        self.zip(o, |a, b| a & !b)
    }

    fn zip(&self, o: &Mask, f: impl Fn(u64, u64) -> u64) -> Mask {
        Mask {
            words: self
                .words
                .iter()
                .zip(&o.words)
                .map(|(a, b)| f(*a, *b))
                .collect(),
            lanes: self.lanes,
        }
    }

    /// The set lanes' indices, ascending.
    pub fn lanes(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.lanes).filter(|&i| self.get(i))
    }
}
