//! What a [`Machine`](super::machine::Machine) tracks beside the values, per batch: which
//! register components carry an approximate value (`taint`) or a NaN with a free payload
//! (`nan`), which invocations touched each memory word since the last barrier (`race`), and the
//! declared index ranges (`ranges`). The state lives here, apart from the rules that update it,
//! so the machine holds it without depending on those rules.

use std::collections::{HashMap, HashSet};

use dxbc::OperandType;

/// A `dcl_indexrange`: register file, first register, count.
pub type IndexRange = (OperandType, u32, u32);

/// One flag per temp and output register component and lane (component-major, then lane, as
/// the machine's register files are), for the trackers below.
#[derive(Debug, Clone, Default)]
pub struct RegisterFlags {
    temps: Vec<bool>,
    outputs: Vec<bool>,
    lanes: usize,
}

/// Whether `ty` writes the `o#` file: `o#` itself, or a special output register kept there
/// (`oDepth`, `oMask`: `OperandType::special_register`).
pub(super) fn is_output(ty: OperandType) -> bool {
    ty == OperandType::Output
        || matches!(
            ty.special_slot(),
            Some((dxbc::registers::RegisterFile::Output, _))
        )
}

/// The register an operand with one immediate index names, or a special register's
/// (`OperandType::special_register`); `None` for a relative or multi-dimensional one.
pub(super) fn imm_index(op: &dxbc::Operand) -> Option<usize> {
    if let Some(r) = op.ty.special_register() {
        return Some(r as usize);
    }
    match op.indices.first() {
        Some(dxbc::Index::Imm32(r)) if op.indices.len() == 1 => Some(*r as usize),
        _ => None,
    }
}

impl RegisterFlags {
    /// All clear, for `temps` and `outputs` registers of `lanes` lanes.
    pub fn new(temps: usize, outputs: usize, lanes: usize) -> RegisterFlags {
        RegisterFlags {
            temps: vec![false; temps * 4 * lanes],
            outputs: vec![false; outputs * 4 * lanes],
            lanes,
        }
    }

    fn file(&self, ty: OperandType) -> Option<&Vec<bool>> {
        match ty {
            OperandType::Temp => Some(&self.temps),
            ty if is_output(ty) => Some(&self.outputs),
            _ => None,
        }
    }

    /// The flag of register `reg` component `comp` in `lane`; other register files (inputs,
    /// literals, constants) never carry one.
    pub fn get(&self, ty: OperandType, reg: usize, comp: usize, lane: usize) -> bool {
        self.file(ty)
            .and_then(|f| f.get((reg * 4 + comp) * self.lanes + lane))
            .copied()
            .unwrap_or(false)
    }

    /// Set one flag (out of range, or another register file: nothing happens).
    pub fn set(&mut self, ty: OperandType, reg: usize, comp: usize, lane: usize, v: bool) {
        if let Some(t) = self.slice_mut(ty, reg, comp).and_then(|f| f.get_mut(lane)) {
            *t = v;
        }
    }

    /// Every lane's flag of register `reg` component `comp`.
    pub fn slice_mut(&mut self, ty: OperandType, reg: usize, comp: usize) -> Option<&mut [bool]> {
        let n = self.lanes;
        let base = (reg * 4 + comp) * n;
        let file = match ty {
            OperandType::Temp => &mut self.temps,
            ty if is_output(ty) => &mut self.outputs,
            _ => return None,
        };
        file.get_mut(base..base + n)
    }

    /// Clear every flag.
    pub fn clear(&mut self) {
        self.temps.fill(false);
        self.outputs.fill(false);
    }
}

/// Taint state of one batch.
#[derive(Debug, Clone, Default)]
pub struct Taint {
    /// Set once an approximate op has run; until then nothing is tracked.
    pub on: bool,
    /// Which register components hold an approximate value.
    pub(super) values: RegisterFlags,
    /// Per lane: an approximate value was written to some indexable temp.
    pub(super) indexable: Vec<bool>,
    /// An approximate value was written to TGSM or a UAV.
    pub(super) memory: bool,
    /// Which register components' error is absolute (`sincos`, carried by moves, adds and
    /// selections), so that scaling the value scales the error.
    pub(super) absolute: RegisterFlags,
    /// Per compounding instruction (by index) that has run: the lanes it ran in. The judge
    /// sums each instruction's band once, so one that runs again on an approximate value (a
    /// loop) compounds its error past that sum.
    pub(super) ran: Vec<(usize, Vec<bool>)>,
}

impl Taint {
    /// Nothing tainted, for `temps` and `outputs` registers of `lanes` lanes.
    pub fn new(temps: usize, outputs: usize, lanes: usize) -> Taint {
        Taint {
            on: false,
            values: RegisterFlags::new(temps, outputs, lanes),
            indexable: vec![false; lanes],
            memory: false,
            absolute: RegisterFlags::new(temps, outputs, lanes),
            ran: Vec::new(),
        }
    }

    /// Whether the error of a register component is absolute.
    pub(super) fn abs(&self, ty: OperandType, reg: usize, comp: usize, lane: usize) -> bool {
        self.absolute.get(ty, reg, comp, lane)
    }

    /// Mark a register component's error absolute, or not.
    pub(super) fn set_abs(
        &mut self,
        ty: OperandType,
        reg: usize,
        comp: usize,
        lane: usize,
        v: bool,
    ) {
        self.absolute.set(ty, reg, comp, lane, v);
    }

    /// Whether a register component holds an approximate value.
    pub(super) fn reg(&self, ty: OperandType, reg: usize, comp: usize, lane: usize) -> bool {
        self.values.get(ty, reg, comp, lane)
    }

    /// Mark a register component approximate, or not.
    pub(super) fn set(&mut self, ty: OperandType, reg: usize, comp: usize, lane: usize, v: bool) {
        self.values.set(ty, reg, comp, lane, v);
    }
}

/// Which values are NaNs with a free payload, in one batch.
#[derive(Debug, Clone, Default)]
pub struct FreeNan {
    /// Set once any flag has been set; until then nothing needs clearing or carrying.
    pub on: bool,
    /// Which register components hold a freed NaN.
    pub(super) regs: RegisterFlags,
    /// Memory words (TGSM and UAVs, by word index) that hold a freed NaN.
    pub memory: HashSet<(Space, u64)>,
    /// The flags of the values the memory op just executed loaded, per component and lane.
    pub loaded: Option<[Vec<bool>; 4]>,
}

impl FreeNan {
    /// No freed NaN anywhere, for `temps` and `outputs` registers of `lanes` lanes.
    pub fn new(temps: usize, outputs: usize, lanes: usize) -> FreeNan {
        FreeNan {
            on: false,
            regs: RegisterFlags::new(temps, outputs, lanes),
            memory: HashSet::new(),
            loaded: None,
        }
    }

    /// Forget every flag (a new batch).
    pub fn clear(&mut self) {
        self.on = false;
        self.regs.clear();
        self.memory.clear();
        self.loaded = None;
    }

    /// The flag of register `reg` component `comp` in `lane` (inputs, literals and constants
    /// are exact bits: never free).
    pub fn get(&self, ty: OperandType, reg: usize, comp: usize, lane: usize) -> bool {
        self.regs.get(ty, reg, comp, lane)
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

/// Per batch: which register components and memory words hold a zero of free sign
/// (`zero_sign`).
#[derive(Debug, Clone, Default)]
pub struct FreeSign {
    /// Set once any flag has been set; until then only the ops that make one are looked at.
    pub on: bool,
    pub(super) regs: RegisterFlags,
    /// Memory words (TGSM and UAVs, by word index) a flagged zero was stored to.
    pub memory: HashSet<(Space, u64)>,
}

impl FreeSign {
    /// No flag, for `temps` and `outputs` registers of `lanes` lanes.
    pub fn new(temps: usize, outputs: usize, lanes: usize) -> FreeSign {
        FreeSign {
            on: false,
            regs: RegisterFlags::new(temps, outputs, lanes),
            memory: HashSet::new(),
        }
    }

    /// Forget every flag (a new batch).
    pub fn clear(&mut self) {
        self.on = false;
        self.regs.clear();
        self.memory.clear();
    }

    /// Output register `reg` component `comp` of `lane`.
    pub fn output(&self, reg: usize, comp: usize, lane: usize) -> bool {
        self.regs.get(dxbc::OperandType::Output, reg, comp, lane)
    }
}

/// Flag memory word `addr` (a byte address) of `space` in `memory`, or clear its flag; `on`
/// says whether any flag may be set, and becomes true with the first. Freed NaNs and zeros of
/// free sign are kept per word alike.
pub(super) fn flag_word(
    memory: &mut HashSet<(Space, u64)>,
    on: &mut bool,
    space: Space,
    addr: u64,
    flag: bool,
) {
    if flag {
        *on = true;
        memory.insert((space, addr / 4));
    } else if *on {
        memory.remove(&(space, addr / 4));
    }
}
