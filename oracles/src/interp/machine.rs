//! The batch machine: register files laid out component-major (`[register][component][lane]`), so
//! each instruction runs as tight loops over all lanes of a batch at once.

use dxbc::opcodes::Num;
use dxbc::registers::RegisterFile;
use dxbc::{Index, Instruction, Modifier, Operand, OperandType, Program};

use super::InterpError;
use super::flow::{Frame, Structure};
use super::mask::Mask;
use super::resources::{Resources, Tgsm, cb_read, indexed_cb_read, this_record};
use crate::domain::{Domain, Events};
use crate::rules;

/// Reusable per-instruction buffers (sources by operand and component, and two result sets),
/// so executing an instruction allocates nothing.
#[derive(Debug, Clone, Default)]
pub struct Pool {
    pub src: [[Vec<u32>; 4]; 4],
    /// Where each source component lives: in place in a register file, or in `src`.
    pub slots: [[Slot; 4]; 4],
    pub out: [[Vec<u32>; 4]; 2],
}

impl Pool {
    /// Component `c` of the first `N` sources, `lanes` long each: in place in a register file
    /// (`temps`, `inputs`), or gathered into `src`. An associated function over the fields, so
    /// that the caller keeps `out` borrowed mutably beside it.
    #[inline]
    pub fn sources<'a, const N: usize>(
        slots: &[[Slot; 4]; 4],
        src: &'a [[Vec<u32>; 4]; 4],
        (temps, inputs): (&'a [u32], &'a [u32]),
        c: usize,
        lanes: usize,
    ) -> [&'a [u32]; N] {
        std::array::from_fn(|k| {
            (slots[k][c].in_file(temps, inputs, lanes)).unwrap_or(&src[k][c][..lanes])
        })
    }
}

/// A source component's location (offsets into a register file's data).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Slot {
    #[default]
    Pool,
    Temps(usize),
    Inputs(usize),
}

impl Slot {
    /// The lanes of a component that lives in a register file; `None` when it is in the pool.
    pub fn in_file<'a>(
        self,
        temps: &'a [u32],
        inputs: &'a [u32],
        lanes: usize,
    ) -> Option<&'a [u32]> {
        match self {
            Slot::Temps(o) => Some(&temps[o..o + lanes]),
            Slot::Inputs(o) => Some(&inputs[o..o + lanes]),
            Slot::Pool => None,
        }
    }
}

impl Pool {
    pub fn new(lanes: usize) -> Pool {
        let v = || std::array::from_fn(|_| vec![0u32; lanes]);
        Pool {
            src: std::array::from_fn(|_| v()),
            slots: Default::default(),
            out: std::array::from_fn(|_| v()),
        }
    }

    /// Copy in-place sources into `src`, for code that wants every source there.
    pub fn materialize(&mut self, temps: &[u32], inputs: &[u32], sources: usize, lanes: usize) {
        for k in 0..sources.min(4) {
            for c in 0..4 {
                let Some(from) = self.slots[k][c].in_file(temps, inputs, lanes) else {
                    continue;
                };
                self.src[k][c][..lanes].copy_from_slice(from);
                self.slots[k][c] = Slot::Pool;
            }
        }
    }
}

/// Per-lane values of the special compute inputs.
#[derive(Debug, Clone, Copy, Default)]
pub struct ThreadIds {
    /// `vThreadID` (SV_DispatchThreadID): `group * group size + in_group`.
    pub thread: [u32; 3],
    /// `vThreadGroupID` (SV_GroupID).
    pub group: [u32; 3],
    /// `vThreadIDInGroup` (SV_GroupThreadID).
    pub in_group: [u32; 3],
    /// `vThreadIDInGroupFlattened` (SV_GroupIndex): the lane's index within its group.
    pub flattened: u32,
}

/// A register file of `regs` four-component registers for `lanes` lanes.
#[derive(Debug, Clone, Default)]
pub struct RegFile {
    pub lanes: usize,
    pub data: Vec<u32>,
}

impl RegFile {
    pub fn new(regs: usize, lanes: usize) -> RegFile {
        RegFile {
            lanes,
            data: vec![0; regs * 4 * lanes],
        }
    }

    #[inline]
    pub fn slice(&self, reg: usize, comp: usize) -> Option<&[u32]> {
        let start = (reg * 4 + comp) * self.lanes;
        self.data.get(start..start + self.lanes)
    }

    #[inline]
    pub fn slice_mut(&mut self, reg: usize, comp: usize) -> Option<&mut [u32]> {
        let start = (reg * 4 + comp) * self.lanes;
        self.data.get_mut(start..start + self.lanes)
    }

    /// How many registers the file has.
    pub fn regs(&self) -> usize {
        self.data.len() / (4 * self.lanes.max(1))
    }

    pub fn get(&self, reg: usize, comp: usize, lane: usize) -> Option<u32> {
        self.data.get((reg * 4 + comp) * self.lanes + lane).copied()
    }

    pub fn set(&mut self, reg: usize, comp: usize, lane: usize, v: u32) {
        if let Some(w) = self.data.get_mut((reg * 4 + comp) * self.lanes + lane) {
            *w = v;
        }
    }
}

pub struct Machine<'a> {
    pub program: &'a Program,
    pub structure: Structure,
    pub lanes: usize,
    pub temps: RegFile,
    /// `x#` arrays: id -> (element count, file of `count` registers).
    pub indexable: Vec<Option<RegFile>>,
    pub inputs: RegFile,
    pub outputs: RegFile,
    pub ids: Vec<ThreadIds>,
    pub res: &'a mut Resources,
    pub tgsm: Tgsm,
    pub active: Mask,
    pub alive: Mask,
    pub discarded: Mask,
    pub frames: Vec<Frame>,
    pub events: Vec<Events>,
    /// Per-lane events of the instruction being executed, merged into `events` for active lanes.
    pub scratch_ev: Vec<Events>,
    pub icb: Vec<u32>,
    /// The per-instruction buffers, lent out while an instruction runs ([`Machine::with_pool`]):
    /// `None` only then, so lending costs no placeholder pool to build and drop per step.
    pub pool: Option<Pool>,
    /// How each declared buffer is viewed: raw, structured (stride) or typed.
    pub views: std::collections::BTreeMap<(OperandType, u32), super::ViewKind>,
    /// Instructions executed so far (each counts once for the whole batch).
    pub executed: u64,
    /// The last plain store to each UAV word in this batch (a pixel/vertex batch) or dispatch
    /// (compute): (slot, byte address) → (group, lane, value). Two invocations storing
    /// different values to one word race: D3D leaves the winner undefined (FS §7.14: no
    /// ordering between threads without atomics), so they get `d3d-undefined`. Within a compute
    /// group [`super::race`] decides instead, since barriers order its invocations.
    pub uav_stores: std::collections::HashMap<(u32, u64), (u32, usize, u32)>,
    /// Per hidden counter (by `u#`) in this batch or dispatch: the first invocation (group,
    /// lane) that counted with it, and whether another did too. With two, which one gets
    /// which count is the device's order (`counter_order`).
    pub counter_users: std::collections::BTreeMap<u32, ((u32, usize), bool)>,
    /// Race tracking per memory word and barrier epoch (compute only).
    pub races: super::tracked::Races,
    /// The index of the thread group this batch runs (0 outside a dispatch).
    pub group: u32,
    /// `dcl_indexrange`s of `v#` and `o#`, which bound their dynamic indices.
    pub index_ranges: Vec<super::tracked::IndexRange>,
    /// The temp components each instruction reads as compile-time constants (`constants`).
    pub consts: std::sync::Arc<super::constants::Constants>,
    /// The `add`s that read a product a compiler may contract.
    pub contractions: std::sync::Arc<super::contraction::Contractions>,
    /// Which values are NaNs with a free payload (`nan`).
    pub free_nan: super::tracked::FreeNan,
    /// Zeros whose sign a translation need not keep (`zero_sign`).
    pub free_sign: super::tracked::FreeSign,
    /// Components of the instruction being executed that may hold a NaN: the fast path clears
    /// the ones it computed (all normal), so the NaN scan skips them.
    pub nan_check: u8,
    /// Where approximate results went (`approximate-amplified`).
    pub taint: super::tracked::Taint,
    /// What this run found about the program (races, indices out of range).
    pub findings: Vec<super::findings::Finding>,
}

/// How a source operand is typed by its consumer, which decides what `-` and `|x|` mean.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Consumer {
    Float,
    Int,
    /// Bits only: a modifier makes it a float operation (FS §22.9.1).
    Raw,
}

impl Consumer {
    pub fn of(num: Num) -> Consumer {
        match num {
            Num::Float | Num::Double => Consumer::Float,
            Num::Int | Num::Uint => Consumer::Int,
            Num::Typeless | Num::Reg => Consumer::Raw,
        }
    }
}

/// Apply a source modifier as the consumer reads it (FS §22.18).
#[inline]
pub fn apply_modifier(v: u32, m: Modifier, c: Consumer) -> u32 {
    match (m, c) {
        (Modifier::None, _) => v,
        (_, Consumer::Int) => match m {
            Modifier::Neg => rules::int::ineg_modifier(v),
            Modifier::Abs => rules::int::iabs_modifier(v),
            _ => rules::int::ineg_modifier(rules::int::iabs_modifier(v)),
        },
        (Modifier::Neg, _) => rules::float::fneg_modifier(v),
        (Modifier::Abs, _) => rules::float::fabs_modifier(v),
        (Modifier::AbsNeg, _) => rules::float::fneg_modifier(rules::float::fabs_modifier(v)),
    }
}

/// Which source component feeds destination component `comp`.
#[inline]
pub fn source_component(op: &Operand, comp: usize) -> usize {
    op.source_component(comp)
}

/// The write mask of a destination (0 for `null`).
pub fn write_mask(op: &Operand) -> u8 {
    op.write_mask()
}

impl Machine<'_> {
    /// Clear per-invocation state so the machine can run another batch of the same size.
    pub fn reset(&mut self) {
        self.temps.data.fill(0);
        for f in self.indexable.iter_mut().flatten() {
            f.data.fill(0);
        }
        self.inputs.data.fill(0);
        self.outputs.data.fill(0);
        self.active = Mask::all(self.lanes);
        self.alive = Mask::all(self.lanes);
        self.discarded = Mask::none(self.lanes);
        self.frames.clear();
        self.events.fill(0);
        self.scratch_ev.fill(0);
        self.uav_stores.clear();
        self.counter_users.clear();
        self.findings.clear();
        self.races = super::tracked::Races::new(self.races.on);
        self.free_nan.clear();
        self.free_sign.clear();
        self.executed = 0;
    }

    fn unsupported(&self, index: usize, what: &str) -> InterpError {
        InterpError::Unsupported {
            index,
            what: what.to_string(),
        }
    }

    /// Evaluate an index dimension for every lane.
    pub(super) fn index_values(
        &mut self,
        index: &Index,
        at: usize,
        out: &mut [u64],
    ) -> Result<(), InterpError> {
        match index.relative() {
            None => out.fill(index.immediate().unwrap_or(0)),
            Some(rel) => {
                let base = index.immediate().unwrap_or(0);
                let mut tmp = vec![0u32; self.lanes];
                self.read_raw(rel, source_component(rel, 0), at, &mut tmp)?;
                for (o, t) in out.iter_mut().zip(&tmp) {
                    *o = base.wrapping_add(u64::from(*t));
                }
            }
        }
        Ok(())
    }

    /// An `x#[i]` operand's array and each lane's element index.
    fn indexable_element(
        &mut self,
        op: &Operand,
        at: usize,
    ) -> Result<(usize, Vec<u64>), InterpError> {
        let id = self.first_index(op, at)?;
        let idx = op
            .indices
            .get(1)
            .cloned()
            .ok_or_else(|| self.unsupported(at, "x# without an element"))?;
        let mut el = vec![0u64; self.lanes];
        self.index_values(&idx, at, &mut el)?;
        Ok((id, el))
    }

    fn first_index(&self, op: &Operand, at: usize) -> Result<usize, InterpError> {
        match op.indices.first() {
            Some(Index::Imm32(v)) => Ok(*v as usize),
            _ => Err(self.unsupported(at, "relative addressing of this register file")),
        }
    }

    /// Read the raw bits of component `comp` of a source operand for all lanes (no modifier).
    pub fn read_raw(
        &mut self,
        op: &Operand,
        comp: usize,
        at: usize,
        out: &mut [u32],
    ) -> Result<(), InterpError> {
        let lanes = self.lanes;
        match op.ty {
            OperandType::Immediate32 => {
                let v = if op.imm.len() == 4 {
                    op.imm[comp]
                } else {
                    op.imm.first().copied().unwrap_or(0)
                };
                out.fill(v);
            }
            // `d(x)` holds one double (low, high) and `d(x, y)` two: 32-bit component `comp` is
            // word `comp` of that list, repeating for a single double.
            OperandType::Immediate64 => {
                let n = op.imm.len().max(1);
                out.fill(op.imm.get(comp % n).copied().unwrap_or(0));
            }
            OperandType::Temp => {
                let r = self.first_index(op, at)?;
                let s = self
                    .temps
                    .slice(r, comp)
                    .ok_or_else(|| self.unsupported(at, "temp register out of range"))?;
                out.copy_from_slice(s);
            }
            OperandType::Input | OperandType::Output => {
                let file = if op.ty == OperandType::Input {
                    &self.inputs
                } else {
                    &self.outputs
                };
                match op.indices.first() {
                    Some(Index::Imm32(r)) if op.indices.len() == 1 => {
                        match file.slice(*r as usize, comp) {
                            Some(s) => out.copy_from_slice(s),
                            None => out.fill(0),
                        }
                    }
                    Some(idx) if op.indices.len() == 1 => {
                        let idx = idx.clone();
                        let mut regs = vec![0u64; lanes];
                        self.index_values(&idx, at, &mut regs)?;
                        let inside = self.check_index_range(op.ty, &idx, &regs, at);
                        let file = if op.ty == OperandType::Input {
                            &self.inputs
                        } else {
                            &self.outputs
                        };
                        for (l, o) in out.iter_mut().enumerate() {
                            *o = if inside[l] {
                                file.get(regs[l] as usize, comp, l).unwrap_or(0)
                            } else {
                                0
                            };
                        }
                    }
                    _ => return Err(self.unsupported(at, "multi-dimensional input registers")),
                }
            }
            OperandType::IndexableTemp => {
                let (id, el) = self.indexable_element(op, at)?;
                let file = self.indexable.get(id).and_then(Option::as_ref);
                let regs = file.map_or(0, RegFile::regs);
                for (l, o) in out.iter_mut().enumerate() {
                    *o = file
                        .and_then(|f| f.get(el[l] as usize, comp, l))
                        .unwrap_or(0);
                    // Out-of-range x# reads are undefined in D3D (FS §7.3); 0 is one outcome.
                    // Only an active lane's read counts: an inactive lane's index is whatever
                    // its register held, and a flow instruction's operands are read before
                    // the events are committed for the lanes of the next one.
                    if el[l] >= regs as u64 && self.active.get(l) {
                        self.scratch_ev[l] |= Domain::D3dUndefined.bit();
                    }
                }
            }
            // `cb[r1.w + 0][r0.w + 0]`: a program with interfaces picks the buffer at run
            // time (a class instance's data, `this[].x`).
            OperandType::ConstantBuffer
                if op.indices.first().is_some_and(|i| i.relative().is_some()) =>
            {
                let (Some(first), Some(second)) = (op.indices.first(), op.indices.get(1)) else {
                    return Err(self.unsupported(at, "cb# without a register"));
                };
                let (first, second) = (first.clone(), second.clone());
                let mut slots = vec![0u64; lanes];
                let mut rows = vec![0u64; lanes];
                self.index_values(&first, at, &mut slots)?;
                self.index_values(&second, at, &mut rows)?;
                for (l, o) in out.iter_mut().enumerate() {
                    let (v, defined) = indexed_cb_read(self.res, slots[l], rows[l], comp);
                    *o = v;
                    if !defined && self.active.get(l) {
                        self.scratch_ev[l] |= Domain::D3dUndefined.bit();
                    }
                }
            }
            OperandType::ThisPointer => {
                let idx = op
                    .indices
                    .first()
                    .cloned()
                    .ok_or_else(|| self.unsupported(at, "this without a slot"))?;
                let mut slots = vec![0u64; lanes];
                self.index_values(&idx, at, &mut slots)?;
                for (o, slot) in out.iter_mut().zip(&slots) {
                    *o = this_record(self.res, *slot, comp);
                }
            }
            OperandType::ConstantBuffer => {
                let slot = self.first_index(op, at)? as u32;
                let idx = op
                    .indices
                    .get(1)
                    .cloned()
                    .ok_or_else(|| self.unsupported(at, "cb# without a register"))?;
                if let Index::Imm32(r) = idx {
                    out.fill(cb_read(self.res.cbs.get(&slot), u64::from(r), comp));
                } else {
                    let mut regs = vec![0u64; lanes];
                    self.index_values(&idx, at, &mut regs)?;
                    let cb = self.res.cbs.get(&slot);
                    for (l, o) in out.iter_mut().enumerate() {
                        *o = cb_read(cb, regs[l], comp);
                    }
                }
            }
            OperandType::ImmediateConstantBuffer => {
                let idx = op
                    .indices
                    .first()
                    .cloned()
                    .ok_or_else(|| self.unsupported(at, "icb without an index"))?;
                let mut regs = vec![0u64; lanes];
                self.index_values(&idx, at, &mut regs)?;
                for (l, o) in out.iter_mut().enumerate() {
                    *o = cb_read(Some(&self.icb), regs[l], comp);
                    // D3D reads 0 past the table; WGSL's array access there is the
                    // implementation's choice (adapted/icb-const-array).
                    if regs[l] >= (self.icb.len() / 4) as u64 {
                        self.scratch_ev[l] |= Domain::OobRead.bit();
                    }
                }
            }
            OperandType::InputThreadId => fill_ids(out, &self.ids, |t| t.thread[comp.min(2)]),
            OperandType::InputThreadGroupId => fill_ids(out, &self.ids, |t| t.group[comp.min(2)]),
            OperandType::InputThreadIdInGroup => {
                fill_ids(out, &self.ids, |t| t.in_group[comp.min(2)])
            }
            OperandType::InputThreadIdInGroupFlattened => fill_ids(out, &self.ids, |t| t.flattened),
            OperandType::Null => out.fill(0),
            // `vCoverage` (and, read back, `oDepth`/`oMask`): one component of the register
            // it stands for (`OperandType::special_register`).
            ty if let Some((file, r)) = ty.special_slot() => {
                let file = match file {
                    RegisterFile::Input => &self.inputs,
                    RegisterFile::Output => &self.outputs,
                };
                match file.slice(r as usize, 0) {
                    Some(s) => out.copy_from_slice(s),
                    None => out.fill(0),
                }
            }
            _ => return Err(self.unsupported(at, &format!("reading {:?}", op.ty))),
        }
        Ok(())
    }

    /// Read a source component with its modifier applied as `consumer` types it.
    pub fn read(
        &mut self,
        op: &Operand,
        dst_comp: usize,
        consumer: Consumer,
        at: usize,
        out: &mut [u32],
    ) -> Result<(), InterpError> {
        self.read_raw(op, source_component(op, dst_comp), at, out)?;
        if op.modifier != Modifier::None {
            let raw = consumer == Consumer::Raw;
            for (l, v) in out.iter_mut().enumerate() {
                if raw && rules::float::is_denorm(*v) {
                    self.scratch_ev[l] |= crate::domain::Domain::DenormModified.bit();
                }
                *v = apply_modifier(*v, op.modifier, consumer);
            }
        }
        Ok(())
    }

    /// Write `vals` to component `comp` of a destination, for active lanes.
    pub fn write(
        &mut self,
        op: &Operand,
        comp: usize,
        vals: &[u32],
        at: usize,
    ) -> Result<(), InterpError> {
        let lanes = self.lanes;
        let full = self.active.is_full();
        let active = &self.active;
        let store = |dst: &mut [u32]| {
            if full {
                dst.copy_from_slice(vals);
            } else {
                for l in active.lanes() {
                    dst[l] = vals[l];
                }
            }
        };
        match op.ty {
            OperandType::Null => {}
            // `oDepth` (and its conservative forms), `oMask`: the one component of the output
            // register each stands for (`OperandType::special_register`).
            ty if let Some((RegisterFile::Output, r)) = ty.special_slot() => {
                let Some(dst) = self.outputs.slice_mut(r as usize, 0) else {
                    return Err(InterpError::Unsupported {
                        index: at,
                        what: "register out of range".into(),
                    });
                };
                store(dst);
            }
            // `o[r0.x + n]`: written where the index is in range, dropped elsewhere.
            OperandType::Output
                if op.indices.len() == 1 && !matches!(op.indices[0], Index::Imm32(_)) =>
            {
                let idx = op.indices[0].clone();
                let mut regs = vec![0u64; lanes];
                self.index_values(&idx, at, &mut regs)?;
                let inside = self.check_index_range(op.ty, &idx, &regs, at);
                for l in self.active.lanes().collect::<Vec<_>>() {
                    if inside[l] {
                        self.outputs.set(regs[l] as usize, comp, l, vals[l]);
                    }
                }
            }
            OperandType::Temp | OperandType::Output => {
                let r = self.first_index(op, at)?;
                let file = if op.ty == OperandType::Temp {
                    &mut self.temps
                } else {
                    &mut self.outputs
                };
                let Some(dst) = file.slice_mut(r, comp) else {
                    return Err(InterpError::Unsupported {
                        index: at,
                        what: "register out of range".into(),
                    });
                };
                store(dst);
            }
            OperandType::IndexableTemp => {
                let (id, el) = self.indexable_element(op, at)?;
                let active: Vec<usize> = self.active.lanes().collect();
                if let Some(Some(file)) = self.indexable.get_mut(id) {
                    let regs = file.regs() as u64;
                    for l in active {
                        if el[l] >= regs {
                            self.scratch_ev[l] |= Domain::D3dUndefined.bit();
                        }
                        // Out-of-range x# writes are undefined in D3D (FS §7.3); dropping them is one
                        // allowed outcome.
                        file.set(el[l] as usize, comp, l, vals[l]);
                    }
                }
            }
            _ => return Err(self.unsupported(at, &format!("writing {:?}", op.ty))),
        }
        Ok(())
    }

    /// Merge this instruction's per-lane events into the run's, for active lanes only.
    pub fn commit_events(&mut self) {
        for l in self.active.lanes() {
            self.events[l] |= self.scratch_ev[l];
        }
        self.scratch_ev.fill(0);
    }

    /// The `_nz`/`_z` condition of a flow instruction, as a mask within the active lanes.
    pub fn condition(&mut self, inst: &Instruction, at: usize) -> Result<Mask, InterpError> {
        let op = inst
            .operands
            .first()
            .ok_or_else(|| self.unsupported(at, "condition operand"))?;
        let mut vals = vec![0u32; self.lanes];
        self.read(op, 0, Consumer::Int, at, &mut vals)?;
        let nz = inst.test != Some(dxbc::Test::Zero);
        let m = Mask::from_fn(self.lanes, |l| (vals[l] != 0) == nz);
        Ok(m.and(&self.active))
    }
}

fn fill_ids(out: &mut [u32], ids: &[ThreadIds], f: impl Fn(&ThreadIds) -> u32) {
    for (o, t) in out.iter_mut().zip(ids) {
        *o = f(t);
    }
}
