//! Lane masks: one bit per invocation in a batch. Control flow is executed for a whole batch at
//! once, and each construct narrows which lanes are active.

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mask {
    words: Vec<u64>,
    lanes: usize,
}

impl Mask {
    pub fn none(lanes: usize) -> Mask {
        Mask {
            words: vec![0; lanes.div_ceil(64)],
            lanes,
        }
    }

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

    #[inline]
    pub fn get(&self, i: usize) -> bool {
        self.words[i / 64] >> (i % 64) & 1 == 1
    }

    pub fn set(&mut self, i: usize, v: bool) {
        if v {
            self.words[i / 64] |= 1 << (i % 64);
        } else {
            self.words[i / 64] &= !(1 << (i % 64));
        }
    }

    pub fn any(&self) -> bool {
        self.words.iter().any(|w| *w != 0)
    }

    pub fn is_full(&self) -> bool {
        *self == Mask::all(self.lanes)
    }

    pub fn and(&self, o: &Mask) -> Mask {
        self.zip(o, |a, b| a & b)
    }

    pub fn or(&self, o: &Mask) -> Mask {
        self.zip(o, |a, b| a | b)
    }

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

    pub fn lanes(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.lanes).filter(|&i| self.get(i))
    }
}
