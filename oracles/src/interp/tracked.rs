//! What a [`Machine`](super::machine::Machine) tracks beside the values, per batch: which
//! register components carry an approximate value (`taint`) or a NaN with a free payload
//! (`nan`), which invocations touched each memory word since the last barrier (`race`), and the
//! declared index ranges (`ranges`). The state lives here, apart from the rules that update it,
//! so the machine holds it without depending on those rules.

use std::collections::{HashMap, HashSet};

use dxbc::OperandType;

/// A `dcl_indexrange`: register file, first register, count.
pub type IndexRange = (OperandType, u32, u32);

/// Taint state of one batch.
#[derive(Debug, Clone, Default)]
pub struct Taint {
    /// Set once an approximate op has run; until then nothing is tracked.
    pub on: bool,
    pub(super) temps: Vec<bool>,
    pub(super) outputs: Vec<bool>,
    /// Per lane: an approximate value was written to some indexable temp.
    pub(super) indexable: Vec<bool>,
    /// An approximate value was written to TGSM or a UAV.
    pub(super) memory: bool,
    /// Per temp/output component and lane: the value's error is absolute (`sincos`, carried
    /// by moves, adds and selections), so scaling it scales the error.
    pub(super) abs_temps: Vec<bool>,
    pub(super) abs_outputs: Vec<bool>,
    pub(super) lanes: usize,
}

impl Taint {
    pub fn new(temps: usize, outputs: usize, lanes: usize) -> Taint {
        Taint {
            on: false,
            temps: vec![false; temps * 4 * lanes],
            outputs: vec![false; outputs * 4 * lanes],
            indexable: vec![false; lanes],
            memory: false,
            abs_temps: vec![false; temps * 4 * lanes],
            abs_outputs: vec![false; outputs * 4 * lanes],
            lanes,
        }
    }

    pub(super) fn abs(&self, ty: OperandType, reg: usize, comp: usize, lane: usize) -> bool {
        let file = match ty {
            OperandType::Temp => &self.abs_temps,
            OperandType::Output => &self.abs_outputs,
            _ => return false,
        };
        file.get((reg * 4 + comp) * self.lanes + lane)
            .copied()
            .unwrap_or(false)
    }

    pub(super) fn set_abs(
        &mut self,
        ty: OperandType,
        reg: usize,
        comp: usize,
        lane: usize,
        v: bool,
    ) {
        let lanes = self.lanes;
        let file = match ty {
            OperandType::Temp => &mut self.abs_temps,
            OperandType::Output => &mut self.abs_outputs,
            _ => return,
        };
        if let Some(t) = file.get_mut((reg * 4 + comp) * lanes + lane) {
            *t = v;
        }
    }

    pub(super) fn reg(&self, ty: OperandType, reg: usize, comp: usize, lane: usize) -> bool {
        let file = if ty == OperandType::Temp {
            &self.temps
        } else {
            &self.outputs
        };
        file.get((reg * 4 + comp) * self.lanes + lane)
            .copied()
            .unwrap_or(false)
    }

    pub(super) fn set(&mut self, ty: OperandType, reg: usize, comp: usize, lane: usize, v: bool) {
        let lanes = self.lanes;
        let file = if ty == OperandType::Temp {
            &mut self.temps
        } else {
            &mut self.outputs
        };
        if let Some(t) = file.get_mut((reg * 4 + comp) * lanes + lane) {
            *t = v;
        }
    }
}

/// Which values are NaNs with a free payload, in one batch.
#[derive(Debug, Clone, Default)]
pub struct FreeNan {
    /// Set once any flag has been set; until then nothing needs clearing or carrying.
    pub on: bool,
    pub(super) temps: Vec<bool>,
    pub(super) outputs: Vec<bool>,
    pub(super) lanes: usize,
    /// Memory words (TGSM and UAVs, by word index) that hold a freed NaN.
    pub memory: HashSet<(Space, u64)>,
    /// The flags of the values the memory op just executed loaded, per component and lane.
    pub loaded: Option<[Vec<bool>; 4]>,
}

impl FreeNan {
    pub fn new(temps: usize, outputs: usize, lanes: usize) -> FreeNan {
        FreeNan {
            on: false,
            temps: vec![false; temps * 4 * lanes],
            outputs: vec![false; outputs * 4 * lanes],
            lanes,
            memory: HashSet::new(),
            loaded: None,
        }
    }

    pub fn clear(&mut self) {
        self.on = false;
        self.temps.fill(false);
        self.outputs.fill(false);
        self.memory.clear();
        self.loaded = None;
    }

    /// The flag of register `reg` component `comp` in `lane` (inputs, literals and constants
    /// are exact bits: never free).
    pub fn get(&self, ty: OperandType, reg: usize, comp: usize, lane: usize) -> bool {
        let file = match ty {
            OperandType::Temp => &self.temps,
            OperandType::Output => &self.outputs,
            _ => return false,
        };
        file.get((reg * 4 + comp) * self.lanes + lane)
            .copied()
            .unwrap_or(false)
    }

    /// Output register `reg` component `comp` of `lane`.
    pub fn output(&self, reg: usize, comp: usize, lane: usize) -> bool {
        self.get(OperandType::Output, reg, comp, lane)
    }
}

/// Which invocations of the group did something to a word in this epoch.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) enum Who {
    #[default]
    Nobody,
    One(u32),
    Many,
}

impl Who {
    pub(super) fn add(self, l: u32) -> Who {
        match self {
            Who::Nobody => Who::One(l),
            Who::One(x) if x == l => self,
            _ => Who::Many,
        }
    }

    /// Someone other than `l`: `Some(Some(lane))` when it is one known invocation.
    pub(super) fn other_than(self, l: u32) -> Option<Option<u32>> {
        match self {
            Who::One(x) if x != l => Some(Some(x)),
            Who::Many => Some(None),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Default)]
pub(super) struct Word {
    pub(super) epoch: u64,
    pub(super) writers: Who,
    /// The value of the first plain store this epoch, and whether a later one differed.
    pub(super) value: u32,
    pub(super) mixed: bool,
    pub(super) readers: Who,
    pub(super) atomics: Who,
    /// A race left the word's value undefined.
    pub(super) poisoned: bool,
}

/// One access to a memory word by one invocation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Read,
    Write(u32),
    Atomic,
}

/// The memory a word lives in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Space {
    Tgsm(u32),
    Uav(u32),
}

/// Race tracking of one thread group.
#[derive(Debug, Clone, Default)]
pub struct Races {
    /// Only compute groups are tracked (pixel and vertex programs have no barriers).
    pub on: bool,
    pub(super) tgsm_epoch: u64,
    pub(super) uav_epoch: u64,
    pub(super) words: HashMap<(Space, u64), Word>,
}

impl Races {
    pub fn new(on: bool) -> Races {
        Races {
            on,
            ..Races::default()
        }
    }

    /// A `sync` with these flags (bit 0 thread sync, 1 TGSM fence, 2/3 UAV fences) ends the
    /// epochs of the memories it fences, but only together with the thread sync.
    pub fn barrier(&mut self, flags: u32) {
        if flags & 1 == 0 {
            return;
        }
        if flags & 2 != 0 {
            self.tgsm_epoch += 1;
        }
        if flags & 0b1100 != 0 {
            self.uav_epoch += 1;
        }
    }
}
