//! Zeros whose sign a translation need not keep. WGSL lets an implementation ignore the sign of
//! zero, and compilers use it where they rewrite an expression: `fract(x)` as `x - floor(x)`
//! in another form, `itof` of a value they know is a comparison mask (0 or −1) as a negated
//! 0.0 or 1.0, a sum of products reordered or factored (`L * (2^31 - 2^31)` with a negative
//! `L`). The H100 gave −0 for each, where D3D gives +0 (dxdiff fuzz, contract profile,
//! 2026-12-07). A zero of the other sign is the same number to every float op that reads it,
//! so the difference matters only where the zero's bits leave float arithmetic. Where an
//! integer, bit, conversion or comparison op reads them, or a test, an atomic or a `switch`,
//! the lane enters `signed-zero` (`dxdiff/signed-zero`): what follows may differ by anything.
//! Where one is stored or written to an output, that word alone is flagged, beside the freed
//! NaNs (`BatchResult::free_nan`), and the judge lets its sign differ under the same entry
//! ([`crate::verdict::Judge::word_free`]); the lane's other words are judged as before.
//!
//! The interpreter follows such zeros as it follows freed NaN payloads (`nan`): set where one
//! of these ops writes a zero, carried through `mov`/`movc`/`swapc` (and `-`, which keeps a
//! zero's sign free), set again where a float op reads one and writes a zero, cleared by any
//! other write.

use dxbc::opcodes::{Flags, Kind, Num};
use dxbc::{Instruction, Modifier, Opcode, Operand};

use super::machine::{Consumer, Machine, write_mask};
use super::tracked::{Space, imm_index, is_output};
use crate::domain::Domain;

/// Ops whose zero result a compiler may give either sign (see the module documentation).
fn makes_free_zero(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::Itof
            | Opcode::Utof
            | Opcode::Frc
            | Opcode::Mad
            | Opcode::Dp2
            | Opcode::Dp3
            | Opcode::Dp4
    )
}

/// What the destinations of one instruction get, computed before it runs: per destination
/// operand, component and lane, the flag a copy carries, or whether a float op read a flag.
pub(super) struct Before {
    copies: bool,
    flags: Vec<(usize, usize, Vec<bool>)>,
}

impl Machine<'_> {
    /// The flag of `op` read for destination component `c` in `lane`.
    fn zero_flag(&self, op: &Operand, c: usize, lane: usize) -> bool {
        imm_index(op).is_some_and(|r| {
            self.free_sign
                .regs
                .get(op.ty, r, op.source_component(c), lane)
        })
    }

    /// Before an instruction runs: raise `signed-zero` where a flagged zero's bits leave float
    /// arithmetic (an integer, bit, comparison or conversion op reading them, an atomic, a
    /// `switch`, a test), and note what the destinations will carry.
    pub(super) fn zero_sign_before(&mut self, inst: &Instruction, at: usize) -> Option<Before> {
        if !self.free_sign.on {
            return None;
        }
        let info = inst.info();
        let ndst = if info.kind == Kind::Flow {
            0
        } else {
            (info.dst as usize).min(inst.operands.len())
        };
        let store = matches!(
            inst.opcode,
            Opcode::StoreRaw | Opcode::StoreStructured | Opcode::StoreUavTyped
        );
        let move_op = info.has(Flags::MOVE);
        // The sources whose bits the op reads: integer, bit, comparison and conversion sources
        // that are not floats, every source of an atomic or a store, a `switch` selector, and
        // the condition of a test (`if_nz`, `breakc`, `movc`, `swapc`, …), where −0 is not 0.
        // (A store keeps the word's flag instead: [`Machine::zero_store`].)
        let bits: smallvec::SmallVec<[usize; 4]> = match info.kind {
            _ if store => smallvec::SmallVec::new(),
            Kind::AluInt | Kind::AluUint | Kind::Bit | Kind::Compare | Kind::Conversion
                if !move_op =>
            {
                (ndst..inst.operands.len())
                    .filter(|k| Consumer::of(info.num(*k)) != Consumer::Float)
                    .collect()
            }
            Kind::Atomic => (ndst..inst.operands.len()).collect(),
            Kind::Flow if inst.opcode == Opcode::Switch || inst.test.is_some() => {
                smallvec::smallvec![0]
            }
            _ if move_op && info.src > 1 => smallvec::smallvec![ndst],
            _ => smallvec::SmallVec::new(),
        };
        // The destination components an ALU op computes read the matching source components;
        // a test reads its one component, a store or an atomic every one it names.
        let mask = match info.kind {
            Kind::Flow => 0x1,
            _ if store || info.kind == Kind::Atomic => 0xf,
            _ => match inst.operands[..ndst]
                .iter()
                .filter(|d| d.ty != dxbc::OperandType::Null)
                .fold(0, |m, d| m | write_mask(d))
            {
                0 => 0xf,
                m => m,
            },
        };
        // Most ops read no source's bits: the active lanes are listed only for those that do.
        let lanes: Vec<usize> = if bits.is_empty() {
            Vec::new()
        } else {
            self.active.lanes().collect()
        };
        for k in bits {
            let Some(src) = inst.operands.get(k) else {
                continue;
            };
            for c in (0..4).filter(|c| mask & (1 << c) != 0) {
                for &l in &lanes {
                    if self.zero_flag(src, c, l) {
                        self.scratch_ev[l] |= Domain::SignedZero.bit();
                    }
                }
            }
        }
        if store || info.kind == Kind::Flow || info.kind == Kind::Atomic {
            return None;
        }
        let float_op = info.kind.is_alu()
            && !move_op
            && (0..usize::from(info.src)).all(|k| info.num(ndst + k) == Num::Float);
        if !move_op && !float_op {
            return None;
        }
        let mut flags = Vec::new();
        if move_op {
            // `_sat` and `|x|` pin a zero's sign to +; `-` keeps it free.
            let keeps = |o: &Operand| matches!(o.modifier, Modifier::None | Modifier::Neg);
            if inst.saturate {
                return None;
            }
            let first = ndst + usize::from(info.src > 1);
            let ops = &inst.operands;
            for c in 0..4 {
                let flag_of =
                    |m: &Machine<'_>, o: &Operand, l: usize| keeps(o) && m.zero_flag(o, c, l);
                match inst.opcode {
                    Opcode::Mov => {
                        let v = (0..self.lanes)
                            .map(|l| flag_of(self, &ops[first], l))
                            .collect();
                        flags.push((0, c, v));
                    }
                    _ => {
                        let mut cond = vec![0u32; self.lanes];
                        self.read(&ops[first - 1], c, Consumer::Int, at, &mut cond)
                            .ok()?;
                        let pick = |take_a: bool, l: usize| {
                            let o = if take_a { &ops[first] } else { &ops[first + 1] };
                            flag_of(self, o, l)
                        };
                        let a: Vec<bool> = (0..self.lanes).map(|l| pick(cond[l] != 0, l)).collect();
                        let b: Vec<bool> = (0..self.lanes).map(|l| pick(cond[l] == 0, l)).collect();
                        if inst.opcode == Opcode::Movc {
                            flags.push((0, c, a));
                        } else {
                            flags.push((0, c, b));
                            flags.push((1, c, a));
                        }
                    }
                }
            }
        } else {
            let dots = match inst.opcode {
                Opcode::Dp2 => 2,
                Opcode::Dp3 => 3,
                Opcode::Dp4 => 4,
                _ => 0,
            };
            for c in 0..4 {
                let v = (0..self.lanes)
                    .map(|l| {
                        inst.operands[ndst..].iter().any(|o| {
                            if dots > 0 {
                                (0..dots).any(|j| self.zero_flag(o, j, l))
                            } else {
                                self.zero_flag(o, c, l)
                            }
                        })
                    })
                    .collect();
                for d in 0..ndst {
                    flags.push((d, c, Vec::clone(&v)));
                }
            }
        }
        Some(Before {
            copies: move_op,
            flags,
        })
    }

    /// After an instruction ran: set, carry or clear the flags of what it wrote (an output's
    /// flag is its word's, read out with the freed NaNs').
    pub(super) fn zero_sign_after(&mut self, inst: &Instruction, before: Option<Before>) {
        let makes = makes_free_zero(inst.opcode) && !inst.saturate;
        if !makes && !self.free_sign.on {
            return;
        }
        let info = inst.info();
        let ndst = (info.dst as usize).min(inst.operands.len());
        // Nothing flagged yet (the common case): only a zero this op wrote starts it, and a
        // scan for one costs no allocation (`mad` runs on every lane of most programs).
        if !self.free_sign.on {
            let any_zero = inst.operands[..ndst].iter().any(|d| {
                let file = match d.ty {
                    dxbc::OperandType::Temp => &self.temps,
                    ty if is_output(ty) => &self.outputs,
                    _ => return false,
                };
                imm_index(d).is_some_and(|r| {
                    (0..4)
                        .filter(|c| write_mask(d) & (1 << c) != 0)
                        .filter_map(|c| file.slice(r, c))
                        .any(|v| v.iter().any(|w| w & 0x7fff_ffff == 0))
                })
            });
            if !any_zero {
                return;
            }
        }
        let lanes: Vec<usize> = self.active.lanes().collect();
        for (k, d) in inst.operands[..ndst].iter().enumerate() {
            let Some(r) = imm_index(d) else { continue };
            let file = match d.ty {
                dxbc::OperandType::Temp => &self.temps,
                ty if is_output(ty) => &self.outputs,
                _ => continue,
            };
            for c in (0..4).filter(|c| write_mask(d) & (1 << c) != 0) {
                let Some(values) = file.slice(r, c) else {
                    continue;
                };
                let from = before
                    .as_ref()
                    .and_then(|b| b.flags.iter().find(|(dk, dc, _)| *dk == k && *dc == c));
                let copies = before.as_ref().is_some_and(|b| b.copies);
                let mut set = Vec::new();
                for &l in &lanes {
                    let zero = values[l] & 0x7fff_ffff == 0;
                    let read_flag = from.is_some_and(|(_, _, v)| v.get(l) == Some(&true));
                    let f = if copies {
                        read_flag
                    } else {
                        zero && (makes || read_flag)
                    };
                    set.push((l, f));
                }
                for (l, f) in set {
                    self.free_sign.regs.set(d.ty, r, c, l, f);
                    self.free_sign.on |= f;
                }
            }
        }
    }

    /// A memory word written with `value` from source `op` (component `c`) in `lane`: a zero
    /// of free sign when the source held one (`-` keeps it free; `|x|` pins it).
    pub(super) fn zero_store(
        &mut self,
        space: Space,
        addr: u64,
        op: &Operand,
        c: usize,
        lane: usize,
        value: u32,
    ) {
        let free = value & 0x7fff_ffff == 0
            && matches!(op.modifier, Modifier::None | Modifier::Neg)
            && self.zero_flag(op, c, lane);
        let f = &mut self.free_sign;
        super::tracked::flag_word(&mut f.memory, &mut f.on, space, addr, free);
    }

    /// An atomic wrote an integer to a memory word.
    pub(super) fn zero_clear_word(&mut self, space: Space, addr: u64) {
        let f = &mut self.free_sign;
        super::tracked::flag_word(&mut f.memory, &mut f.on, space, addr, false);
    }
}
