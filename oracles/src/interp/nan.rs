//! NaN payloads. Direct3D defines that float arithmetic on a NaN, or producing one, gives *a*
//! NaN, not which one: "the NaN bit pattern need not survive, except through a raw move"
//! (FS §3.1.3; `../shared/docs/d3d11-vs-wgsl-semantics.md` §1.1), and a `-`/`_abs` modifier on
//! a NaN leaves its bit pattern undefined (FS §22.18, same doc §2.10), while moves, selects,
//! bit and integer ops, loads and stores copy bits exactly. So where the
//! reference holds a NaN that a payload-freeing op produced, any NaN from the candidate is
//! equally right. The interpreter follows that fact like taint: set when such an op writes a
//! NaN, carried unchanged through `mov`/`movc`/`swapc` and through memory, cleared by any other
//! write. The verdict side asks [`crate::verdict::nan_payload_free`].

use dxbc::opcodes::Flags;
use dxbc::{Instruction, Modifier, Opcode, Operand, OperandType};

use super::machine::{Consumer, Machine, write_mask};
use super::tracked::{Space, imm_index};
use crate::rules::float::is_nan;

/// Whether `op` leaves the payload of a NaN result undefined in D3D (the one place the rule is
/// stated; docs/interpreter.md has the table):
/// - free: float arithmetic (`add`, `mul`, `mad`, `div`, `min`, `max`, `dp*`, `frc`, `round_*`,
///   `exp`, `log`, `rsq`, `sqrt`, `rcp`, `sincos`, and the derivatives, a subtraction of
///   neighbours: the H100 returns its own NaN where a neighbour holds one with a payload), conversions that make a float from a
///   float of another width (`f16tof32`, `dtof`, `ftod`), double arithmetic, and reads
///   through the texture unit (`sample*`, `gather4*`: the H200 returns a gathered NaN as
///   0x7fffffff);
/// - exact: `mov`, `movc`, `swapc`, `dmov`, `dmovc` (bit copies, FS §22.9), bit and integer
///   ops, comparisons, `itof`/`utof`/`ftoi`/`ftou`/`f32tof16` (whose results are never an f32
///   NaN), `ld*`, raw/structured/typed loads and stores, and atomics.
///
/// A `mov`/`movc`/`swapc` with `_sat` or a modifier on a value source is a float op and frees
/// the payload too; that depends on the instruction, not the opcode ([`frees_nan_inst`]).
pub fn frees_nan(op: Opcode) -> bool {
    op.info().has(Flags::FREES_NAN)
}

/// The bit-copying selects: their value sources (after the destinations and, where there is
/// more than one source, the condition).
fn value_sources(op: Opcode) -> Option<usize> {
    let info = op.info();
    info.has(Flags::MOVE)
        .then(|| info.dst as usize + usize::from(info.src > 1))
}

/// [`frees_nan`] for one instruction: a copy that `_sat` or a source modifier makes a float op
/// frees the payload as well.
pub fn frees_nan_inst(inst: &Instruction) -> bool {
    frees_nan(inst.opcode)
        || value_sources(inst.opcode).is_some_and(|first| {
            inst.saturate
                || inst.operands[first.min(inst.operands.len())..]
                    .iter()
                    .any(|o| o.modifier != Modifier::None)
        })
}

/// Per destination operand and component, the flags a copy carries from its sources.
pub type Carried = Vec<(usize, usize, Vec<bool>)>;

impl Machine<'_> {
    /// The flag of source `op` read for destination component `c`, per lane.
    fn source_flags(&self, op: &Operand, c: usize) -> Vec<bool> {
        let lanes = self.lanes;
        match imm_index(op) {
            Some(r) if op.modifier == Modifier::None => (0..lanes)
                .map(|l| self.free_nan.get(op.ty, r, op.source_component(c), l))
                .collect(),
            _ => vec![false; lanes],
        }
    }

    /// Before a bit-copying select runs: the flags its destinations will carry (sources are
    /// read before any destination is written).
    pub(super) fn nan_before(&mut self, inst: &Instruction, at: usize) -> Option<Carried> {
        let first = value_sources(inst.opcode)?;
        if !self.free_nan.on || frees_nan_inst(inst) {
            return None;
        }
        let ops = &inst.operands;
        let mut out = Vec::new();
        for c in 0..4 {
            match inst.opcode {
                Opcode::Mov => out.push((0, c, self.source_flags(&ops[first], c))),
                _ => {
                    let mut cond = vec![0u32; self.lanes];
                    self.read(&ops[first - 1], c, Consumer::Int, at, &mut cond)
                        .ok()?;
                    let a = self.source_flags(&ops[first], c);
                    let b = self.source_flags(&ops[first + 1], c);
                    let pick = |x: &[bool], y: &[bool]| -> Vec<bool> {
                        (0..self.lanes)
                            .map(|l| if cond[l] != 0 { x[l] } else { y[l] })
                            .collect()
                    };
                    if inst.opcode == Opcode::Movc {
                        out.push((0, c, pick(&a, &b)));
                    } else {
                        out.push((0, c, pick(&b, &a)));
                        out.push((1, c, pick(&a, &b)));
                    }
                }
            }
        }
        Some(out)
    }

    /// An op that reads a freed NaN as bits: D3D leaves those bits undefined, so what the op
    /// makes of them is undefined too, and the lane is `nan-bits-read` (a don't-care where it
    /// reaches an output). The bit readers are the integer, bit, comparison and conversion ops,
    /// the atomics (their address and values), the double ops (a word is half a double's bits)
    /// and `switch` (its selector is compared as bits).
    /// Float sources are exempt (a float op frees the payload again, a float comparison does
    /// not look at it), and so are the copies, which carry the flag instead
    /// ([`nan_before`](Self::nan_before)), and the `!= 0` tests of `if`/`breakc`/`discard`,
    /// which every NaN passes alike.
    pub(super) fn nan_bits_read(&mut self, inst: &Instruction) {
        use dxbc::opcodes::Kind;
        if !self.free_nan.on {
            return;
        }
        let info = inst.info();
        let reads_bits = match info.kind {
            Kind::AluInt | Kind::AluUint | Kind::Bit | Kind::Compare | Kind::Conversion => {
                !info.has(Flags::MOVE)
            }
            Kind::Atomic => true,
            Kind::Flow => inst.opcode == Opcode::Switch,
            // A word of a double is half its bits: a freed NaN's payload there leaves the
            // double undefined (copies too: `dmov` does not carry an f32 flag).
            Kind::Double => true,
            _ => false,
        };
        if !reads_bits {
            return;
        }
        let ndst = if info.kind == Kind::Flow {
            0
        } else {
            (info.dst as usize).min(inst.operands.len())
        };
        // An ALU op reads the source components its destinations' lanes select; a selector, an
        // atomic's address and values, or an op with only null destinations: every component
        // the sources name.
        let mask = match info.kind {
            Kind::Flow | Kind::Atomic => 0xf,
            // A double op reads whole pairs, or a widening one the k-th component: not the
            // components its destination mask names (`itod r0.z, r1.wxxx` reads r1.w).
            Kind::Double => inst.double_source_mask(),
            _ => match inst.operands[..ndst]
                .iter()
                .filter(|d| d.ty != OperandType::Null)
                .fold(0, |m, d| m | write_mask(d))
            {
                0 => 0xf,
                m => m,
            },
        };
        for (k, src) in inst.operands.iter().enumerate().skip(ndst) {
            if Consumer::of(info.num(k)) == Consumer::Float {
                continue;
            }
            for c in (0..4).filter(|c| mask & (1 << c) != 0) {
                let flags = self.source_flags(src, c);
                for l in self.active.lanes() {
                    if flags[l] {
                        self.scratch_ev[l] |= crate::domain::Domain::NanBitsRead.bit();
                    }
                }
            }
        }
    }

    /// After an instruction ran: set, carry or clear the flags of what it wrote.
    pub(super) fn nan_after(&mut self, inst: &Instruction, carried: Option<Carried>) {
        let loaded = self.free_nan.loaded.take();
        let frees = frees_nan_inst(inst);
        if !frees && !self.free_nan.on {
            return;
        }
        let info = inst.info();
        // Each 32-bit word of a double is not an f32 value: double results are never flagged.
        let double_result = inst.writes_double();
        let ndst = (info.dst as usize).min(inst.operands.len());
        let mut lanes: Option<Vec<usize>> = None;
        for (k, d) in inst.operands[..ndst].iter().enumerate() {
            let Some(r) = imm_index(d) else { continue };
            let mask = write_mask(d);
            for c in (0..4).filter(|c| mask & (1 << c) != 0) {
                let from_copy = carried
                    .as_ref()
                    .and_then(|v| v.iter().find(|(dk, dc, _)| *dk == k && *dc == c));
                let scan = frees && !double_result && self.nan_check & (1 << c) != 0;
                // Nothing to set, and nothing set to clear: the common case of arithmetic that
                // stayed on the fast path before any NaN was flagged.
                if !scan && !self.free_nan.on {
                    continue;
                }
                let file = match d.ty {
                    OperandType::Temp => &self.temps,
                    ty if super::tracked::is_output(ty) => &self.outputs,
                    _ => continue,
                };
                let (Some(values), Some(flags)) =
                    (file.slice(r, c), self.free_nan.regs.slice_mut(d.ty, r, c))
                else {
                    continue;
                };
                let lanes = lanes.get_or_insert_with(|| self.active.lanes().collect());
                let mut any = false;
                for &l in lanes.iter() {
                    let f = if scan {
                        is_nan(values[l])
                    } else if let Some((_, _, from)) = from_copy {
                        from[l]
                    } else if let Some(ld) = &loaded {
                        ld[c][l]
                    } else {
                        false
                    };
                    flags[l] = f;
                    any |= f;
                }
                self.free_nan.on |= any;
            }
        }
    }

    /// A memory word written with `value` from source `op` (component `c`) in `lane`: it
    /// holds a freed NaN when the source did (a modifier on a NaN frees it as well).
    pub(super) fn nan_store(
        &mut self,
        space: Space,
        addr: u64,
        op: &Operand,
        c: usize,
        lane: usize,
        value: u32,
    ) {
        let free = is_nan(value)
            && (op.modifier != Modifier::None
                || imm_index(op)
                    .is_some_and(|r| self.free_nan.get(op.ty, r, op.source_component(c), lane)));
        let f = &mut self.free_nan;
        super::tracked::flag_word(&mut f.memory, &mut f.on, space, addr, free);
    }

    /// An atomic wrote an integer to a memory word.
    pub(super) fn nan_clear_word(&mut self, space: Space, addr: u64) {
        let f = &mut self.free_nan;
        super::tracked::flag_word(&mut f.memory, &mut f.on, space, addr, false);
    }

    /// Whether the memory word at `addr` holds a freed NaN.
    pub(super) fn nan_word(&self, space: Space, addr: u64) -> bool {
        self.free_nan.on && self.free_nan.memory.contains(&(space, addr / 4))
    }
}
