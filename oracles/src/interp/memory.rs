//! Buffer, group-shared memory and atomic instructions. Each lane's access goes through the
//! out-of-bounds rules in `resources`; atomics from the lanes of a batch apply in lane order,
//! which is one of the serial orders D3D allows (FS §7.14.2).

use dxbc::{Instruction, Opcode, Operand, OperandType};

use super::findings::{FindingKind, record};
use super::machine::{Consumer, Machine, source_component, write_mask};
use super::resources::{Buffer, buffer_load, buffer_store};
use super::tracked::{Access, Space};
use super::{InterpError, ViewKind};
use crate::domain::{Domain, Events, raise};

/// Which memory an operand names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    Srv(u32),
    Uav(u32),
    Tgsm(u32),
}

impl Machine<'_> {
    fn target(&self, op: &Operand, at: usize) -> Result<Target, InterpError> {
        let slot = match op.indices.first() {
            Some(dxbc::Index::Imm32(v)) => *v,
            _ => {
                return Err(InterpError::Unsupported {
                    index: at,
                    what: "dynamically indexed resource".into(),
                });
            }
        };
        Ok(match op.ty {
            OperandType::Resource => Target::Srv(slot),
            OperandType::UnorderedAccessView => Target::Uav(slot),
            OperandType::ThreadGroupSharedMemory => Target::Tgsm(slot),
            _ => {
                return Err(InterpError::Unsupported {
                    index: at,
                    what: format!("memory access through {:?}", op.ty),
                });
            }
        })
    }

    /// Record a race-tracked access (TGSM and UAVs; SRVs are read-only).
    fn track(&mut self, t: Target, accesses: &[(usize, u64, Access)], at: usize) {
        let Some(space) = space_of(t) else { return };
        for &(l, addr, access) in accesses {
            self.race_access(space, addr, l, access, at);
        }
    }

    fn view(&self, t: Target) -> ViewKind {
        let key = match t {
            Target::Srv(s) => (OperandType::Resource, s),
            Target::Uav(s) => (OperandType::UnorderedAccessView, s),
            Target::Tgsm(s) => (OperandType::ThreadGroupSharedMemory, s),
        };
        self.views.get(&key).copied().unwrap_or(ViewKind::Raw)
    }

    fn buffer(&self, t: Target) -> Option<&Buffer> {
        match t {
            Target::Srv(s) => match self.res.srvs.get(&s) {
                Some(super::resources::Srv::Buffer(b)) => Some(b),
                _ => None,
            },
            Target::Uav(s) => self.res.uavs.get(&s),
            Target::Tgsm(s) => self.tgsm.regions.get(&s),
        }
    }

    fn buffer_mut(&mut self, t: Target) -> Option<&mut Buffer> {
        match t {
            Target::Srv(_) => None,
            Target::Uav(s) => self.res.uavs.get_mut(&s),
            Target::Tgsm(s) => self.tgsm.regions.get_mut(&s),
        }
    }

    /// Per-lane values of component `c` of operand `op` (integer-typed).
    fn lane_values(&mut self, op: &Operand, c: usize, at: usize) -> Result<Vec<u32>, InterpError> {
        let mut v = vec![0u32; self.lanes];
        self.read(op, c, Consumer::Int, at, &mut v)?;
        Ok(v)
    }

    /// The byte address of an access: raw takes a byte offset; structured an (index, offset)
    /// pair. Structured accesses past the element count are out of bounds whatever the offset.
    fn address(&self, t: Target, first: u32, second: u32) -> Option<u64> {
        match self.view(t) {
            ViewKind::Structured(stride) => {
                let count = self.buffer(t).map_or(0, |b| b.size_bytes / stride.max(1));
                (first < count).then(|| u64::from(first) * u64::from(stride) + u64::from(second))
            }
            _ => Some(u64::from(first)),
        }
    }

    /// Whether word `word` of a structured access at byte `offset` lies past its structure
    /// (or the offset is not a whole word): D3D leaves a load there undefined and a store
    /// makes the whole view undefined (FS §22.4.12-13), so the lane enters `d3d-undefined`.
    fn offset_overruns(&self, t: Target, offset: u32, word: u64) -> bool {
        match self.view(t) {
            ViewKind::Structured(stride) => {
                !offset.is_multiple_of(4) || u64::from(offset) + 4 * word + 4 > u64::from(stride)
            }
            _ => false,
        }
    }

    pub fn memory_op(&mut self, inst: &Instruction, at: usize) -> Result<(), InterpError> {
        use Opcode::*;
        let ops = &inst.operands;
        let lanes_active: Vec<usize> = self.active.lanes().collect();
        match inst.opcode {
            LdRaw | LdStructured => {
                let structured = inst.opcode == LdStructured;
                let res = &ops[if structured { 3 } else { 2 }];
                let t = self.target(res, at)?;
                let a0 = self.lane_values(&ops[1], 0, at)?;
                let a1 = if structured {
                    self.lane_values(&ops[2], 0, at)?
                } else {
                    vec![0; self.lanes]
                };
                let dst = &ops[0];
                let mask = write_mask(dst);
                let mut out: [Vec<u32>; 4] = std::array::from_fn(|_| vec![0u32; self.lanes]);
                let mut accesses = Vec::new();
                let mut words = Vec::new();
                for &l in &lanes_active {
                    let base = self.address(t, a0[l], a1[l]);
                    let overruns = (0..4)
                        .filter(|c| mask & (1 << c) != 0)
                        .any(|c| self.offset_overruns(t, a1[l], source_component(res, c) as u64));
                    let ev = &mut self.scratch_ev[l];
                    if overruns {
                        raise(ev, Domain::D3dUndefined);
                    }
                    for (c, o) in out.iter_mut().enumerate() {
                        if mask & (1 << c) == 0 {
                            continue;
                        }
                        let word = source_component(res, c) as u64;
                        o[l] = match base {
                            Some(b) => {
                                accesses.push((l, b + 4 * word, Access::Read));
                                words.push((l, c, b + 4 * word));
                                let buf = match t {
                                    Target::Srv(s) => match self.res.srvs.get(&s) {
                                        Some(super::resources::Srv::Buffer(b)) => Some(b),
                                        _ => None,
                                    },
                                    Target::Uav(s) => self.res.uavs.get(&s),
                                    Target::Tgsm(s) => self.tgsm.regions.get(&s),
                                };
                                buffer_load(buf, b + 4 * word, ev)
                            }
                            None => {
                                raise(ev, Domain::OobRead);
                                0
                            }
                        };
                    }
                    let spoiled = self.tgsm.spoiled;
                    tgsm_past_the_end(t, &mut self.scratch_ev[l], spoiled);
                }
                self.track(t, &accesses, at);
                if self.free_nan.on
                    && let Some(space) = space_of(t)
                {
                    let mut flags: [Vec<bool>; 4] =
                        std::array::from_fn(|_| vec![false; self.lanes]);
                    for &(l, c, addr) in &words {
                        flags[c][l] = self.nan_word(space, addr);
                    }
                    self.free_nan.loaded = Some(flags);
                }
                for (c, o) in out.iter().enumerate() {
                    if mask & (1 << c) != 0 {
                        self.write(dst, c, o, at)?;
                    }
                }
            }
            StoreRaw | StoreStructured => {
                let structured = inst.opcode == StoreStructured;
                let t = self.target(&ops[0], at)?;
                let a0 = self.lane_values(&ops[1], 0, at)?;
                let a1 = if structured {
                    self.lane_values(&ops[2], 0, at)?
                } else {
                    vec![0; self.lanes]
                };
                let value_op = &ops[if structured { 3 } else { 2 }];
                let mask = write_mask(&ops[0]);
                let mut vals: [Vec<u32>; 4] = std::array::from_fn(|_| Vec::new());
                for (c, v) in vals.iter_mut().enumerate() {
                    if mask & (1 << c) != 0 {
                        *v = vec![0; self.lanes];
                        self.read(value_op, c, Consumer::Raw, at, v)?;
                    }
                }
                let mut accesses = Vec::new();
                let mut stored = Vec::new();
                let (group, compute) = (self.group, self.races.on);
                for &l in &lanes_active {
                    let base = self.address(t, a0[l], a1[l]);
                    let mut ev = 0;
                    if (0..4)
                        .filter(|c| mask & (1 << c) != 0)
                        .any(|c| self.offset_overruns(t, a1[l], c as u64))
                    {
                        raise(&mut ev, Domain::D3dUndefined);
                    }
                    for (c, v) in vals.iter().enumerate() {
                        if mask & (1 << c) == 0 {
                            continue;
                        }
                        match base {
                            Some(b) => {
                                let addr = b + 4 * c as u64;
                                accesses.push((l, addr, Access::Write(v[l])));
                                stored.push((l, c, addr, v[l]));
                                // Within a compute group, barriers order stores: `race` judges.
                                if let Target::Uav(slot) = t
                                    && let Some((g, other, old)) =
                                        self.uav_stores.insert((slot, addr), (group, l, v[l]))
                                    && old != v[l]
                                    && (g != group || (!compute && other != l))
                                {
                                    raise(&mut ev, Domain::D3dUndefined);
                                    if g == group {
                                        self.events[other] |= Domain::D3dUndefined.bit();
                                    }
                                    record(&mut self.findings, FindingKind::UavRace, at, || {
                                        format!(
                                            "u{slot} byte {addr}: different values stored by \
                                             invocation {other} of group {g} and invocation {l} \
                                             of group {group}"
                                        )
                                    });
                                }
                                buffer_store(self.buffer_mut(t), addr, v[l], &mut ev)
                            }
                            None => raise(&mut ev, Domain::OobWrite),
                        }
                    }
                    self.tgsm.spoiled |= tgsm_past_the_end(t, &mut ev, false);
                    self.scratch_ev[l] |= ev;
                }
                self.track(t, &accesses, at);
                if let Some(space) = space_of(t) {
                    for (l, c, addr, v) in stored {
                        self.nan_store(space, addr, value_op, c, l, v);
                        self.zero_store(space, addr, value_op, c, l, v);
                    }
                }
            }
            Bufinfo => {
                let t = self.target(&ops[1], at)?;
                let size = self.buffer(t).map_or(0, |b| b.size_bytes);
                let v = match self.view(t) {
                    ViewKind::Structured(stride) => size / stride.max(1),
                    ViewKind::Typed => {
                        let stride = self
                            .buffer(t)
                            .and_then(|b| b.format)
                            .map_or(4, |f| f.stride());
                        size / stride
                    }
                    ViewKind::Raw => size,
                };
                let vals = vec![v; self.lanes];
                for c in 0..4 {
                    if write_mask(&ops[0]) & (1 << c) != 0 {
                        self.write(&ops[0], c, &vals, at)?;
                    }
                }
            }
            ImmAtomicAlloc | ImmAtomicConsume => {
                let Target::Uav(slot) = self.target(&ops[1], at)? else {
                    return Err(InterpError::Unsupported {
                        index: at,
                        what: "counter on a non-UAV".into(),
                    });
                };
                let mut out = vec![0u32; self.lanes];
                for &l in &lanes_active {
                    let ctr = self.res.counters.entry(slot).or_insert(0);
                    out[l] = crate::rules::counter::step(ctr, inst.opcode == ImmAtomicAlloc);
                }
                self.counter_order(slot, &lanes_active);
                self.write_scalar(&ops[0], &out, at)?;
            }
            op if is_atomic(op) => self.atomic(inst, at, &lanes_active)?,
            _ => {
                return Err(InterpError::Unsupported {
                    index: at,
                    what: format!("instruction `{}`", inst.opcode.mnemonic()),
                });
            }
        }
        Ok(())
    }

    fn write_scalar(&mut self, dst: &Operand, vals: &[u32], at: usize) -> Result<(), InterpError> {
        for c in 0..4 {
            if write_mask(dst) & (1 << c) != 0 {
                self.write(dst, c, vals, at)?;
            }
        }
        Ok(())
    }

    fn atomic(
        &mut self,
        inst: &Instruction,
        at: usize,
        lanes_active: &[usize],
    ) -> Result<(), InterpError> {
        use Opcode::*;
        let imm = inst.info().dst == 2;
        let ops = &inst.operands;
        let (mem, rest) = if imm {
            (&ops[1], &ops[2..])
        } else {
            (&ops[0], &ops[1..])
        };
        let t = self.target(mem, at)?;
        if let Target::Uav(s) = t
            && self.res.uavs.get(&s).is_some_and(|b| b.texture.is_some())
        {
            // D3D has them on R32 views (FS §22.17.8); no storage texture has atomics, so no
            // WGSL translation can be judged on one and the reference does not run them.
            return Err(InterpError::Unsupported {
                index: at,
                what: "an atomic on a typed UAV texture".into(),
            });
        }
        let structured = matches!(self.view(t), ViewKind::Structured(_));
        let a0 = self.lane_values(&rest[0], 0, at)?;
        let a1 = if structured {
            self.lane_values(&rest[0], 1, at)?
        } else {
            vec![0; self.lanes]
        };
        let v0 = self.lane_values(&rest[1], 0, at)?;
        let v1 = if rest.len() > 2 {
            self.lane_values(&rest[2], 0, at)?
        } else {
            vec![0; self.lanes]
        };
        let mut old_out = vec![0u32; self.lanes];
        let mut accesses = Vec::new();
        for &l in lanes_active {
            let addr = self.address(t, a0[l], a1[l]);
            let mut ev = 0;
            let word = addr.and_then(|b| {
                let buf = self.buffer(t)?;
                (b.checked_add(4)? <= u64::from(buf.size_bytes)).then_some((b / 4) as usize)
            });
            match word {
                Some(w) => {
                    accesses.push((l, w as u64 * 4, Access::Atomic));
                    let Some(buf) = self.buffer_mut(t) else {
                        continue;
                    };
                    if buf.words.len() <= w {
                        buf.words.resize(w + 1, 0);
                    }
                    let old = buf.words[w];
                    let new = match inst.opcode {
                        AtomicAnd | ImmAtomicAnd => old & v0[l],
                        AtomicOr | ImmAtomicOr => old | v0[l],
                        AtomicXor | ImmAtomicXor => old ^ v0[l],
                        AtomicIadd | ImmAtomicIadd => old.wrapping_add(v0[l]),
                        AtomicImax | ImmAtomicImax => (old as i32).max(v0[l] as i32) as u32,
                        AtomicImin | ImmAtomicImin => (old as i32).min(v0[l] as i32) as u32,
                        AtomicUmax | ImmAtomicUmax => old.max(v0[l]),
                        AtomicUmin | ImmAtomicUmin => old.min(v0[l]),
                        ImmAtomicExch => v0[l],
                        AtomicCmpStore | ImmAtomicCmpExch => {
                            if old == v0[l] {
                                v1[l]
                            } else {
                                old
                            }
                        }
                        _ => old,
                    };
                    buf.words[w] = new;
                    old_out[l] = old;
                }
                None => raise(&mut ev, Domain::OobAtomic),
            }
            let spoiled = self.tgsm.spoiled;
            self.tgsm.spoiled |= tgsm_past_the_end(t, &mut ev, spoiled);
            self.scratch_ev[l] |= ev;
        }
        self.track(t, &accesses, at);
        if let Some(space) = space_of(t) {
            for &(_, addr, _) in &accesses {
                self.nan_clear_word(space, addr);
                self.zero_clear_word(space, addr);
            }
        }
        if imm {
            self.write_scalar(&ops[0], &old_out, at)?;
        }
        Ok(())
    }
}

/// D3D defines an access past the end of a buffer view (a read gives 0, a write or an atomic
/// is dropped: FS §22.4.10-13) but not one past the end of group-shared memory: the value read
/// is undefined, and a write there leaves the group's whole TGSM undefined (FS §22.4.10/12,
/// doc §3.1 and §4 OOB-MEM). So on a `g#` the defined-out-of-bounds events of one lane's
/// access become `d3d-undefined`, as does any read of a TGSM already `spoiled` by such a write.
/// Returns whether the access went past the end (a write that spoils the TGSM).
fn tgsm_past_the_end(t: Target, ev: &mut Events, spoiled: bool) -> bool {
    if !matches!(t, Target::Tgsm(_)) {
        return false;
    }
    let oob = Domain::OobRead.bit() | Domain::OobWrite.bit() | Domain::OobAtomic.bit();
    let past = *ev & oob != 0;
    if past || spoiled {
        *ev &= !oob;
        raise(ev, Domain::D3dUndefined);
    }
    past
}

/// The race- and NaN-tracked memory a target names (SRVs are read-only: not tracked).
fn space_of(t: Target) -> Option<Space> {
    match t {
        Target::Tgsm(s) => Some(Space::Tgsm(s)),
        Target::Uav(s) => Some(Space::Uav(s)),
        Target::Srv(_) => None,
    }
}

fn is_atomic(op: Opcode) -> bool {
    matches!(op.info().kind, dxbc::opcodes::Kind::Atomic)
}

impl Machine<'_> {
    /// After a counter operation on `u#slot` by `lanes`: once two invocations of the batch (or
    /// the dispatch) have counted with one counter, the counts they got are an order D3D
    /// leaves to the device (FS §5.3.10), so every one of them gets `d3d-undefined`. One
    /// invocation alone (a pixel or vertex vector runs alone when it writes UAVs) is defined.
    pub(super) fn counter_order(&mut self, slot: u32, lanes: &[usize]) {
        let group = self.group;
        for &l in lanes {
            let entry = self
                .counter_users
                .entry(slot)
                .or_insert(((group, l), false));
            if entry.0 != (group, l) {
                entry.1 = true;
            }
        }
        let Some(&((first_group, first), true)) = self.counter_users.get(&slot) else {
            return;
        };
        for &l in lanes {
            self.scratch_ev[l] |= Domain::D3dUndefined.bit();
        }
        if first_group == group
            && let Some(e) = self.events.get_mut(first)
        {
            *e |= Domain::D3dUndefined.bit();
        }
    }
}
