//! Literal-zero folding (a denormal literal counts as a zero: D3D flushes it, and so does a GPU
//! that flushes denormals before folding, as the H200's driver does). GPU compilers simplify `x * 0.0` to `0.0`, `x + 0.0` to `x`, `0.0 / x`
//! to `0.0` and dot products with a zero vector to `0.0` when the zero is a literal: WGSL lets
//! them assume no NaN or infinity and ignore the sign of zero, and both lavapipe (NIR) and the
//! H200's driver do it, even through a polyfill, because the literal is a constant wherever it
//! is bound. D3D evaluates the op: NaN stays NaN, `-0 + 0` is `+0`, a flushed denormal keeps
//! its sign. A lane where a float op reads a literal ±0 next to a NaN, an infinity, a −0 or a
//! denormal gets `literal-zero-folded` (found by `dxdiff fuzz`: `dp3 r0.x, v0, l(0,0,0,0)` with
//! a NaN in `v0` gives 0 on both GPUs). The same holds for `x / x` (to 1) and `x + -x` (to 0)
//! of one value (one register component, or copies of one input), which the H200's driver
//! folds.

use dxbc::opcodes::Flags;
use dxbc::{Instruction, Opcode};

use super::machine::{Consumer, Machine, write_mask};
use crate::domain::Domain;

/// An operand value that folding with a literal zero can change: NaN, ±inf, a denormal, or
/// anything negative (`-3 * 0` is `-0` in D3D; folded, `+0`).
fn unusual(w: u32) -> bool {
    let exp = (w >> 23) & 0xff;
    exp == 0xff || (exp == 0 && w != 0) || w >> 31 == 1
}

/// A value `x / x` or `x + -x` folding (to 1 or 0) changes: NaN, ±inf, ±0, a denormal.
fn degenerate(w: u32) -> bool {
    let exp = (w >> 23) & 0xff;
    exp == 0xff || exp == 0
}

impl Machine<'_> {
    pub(super) fn literal_zero_folding(&mut self, inst: &Instruction, at: usize) {
        use Opcode::*;
        if !inst.info().has(Flags::FOLDS_ZERO) {
            return;
        }
        let width = match inst.opcode {
            Dp2 => 2,
            Dp3 => 3,
            Dp4 => 4,
            _ => 0,
        };
        let srcs = &inst.operands[1.min(inst.operands.len())..];
        let mask = inst.operands.first().map_or(0xf, write_mask);
        let comps: Vec<usize> = if width > 0 {
            (0..width).collect()
        } else {
            (0..4).filter(|c| mask & (1 << c) != 0).collect()
        };
        // Thread ids are below 2^23: as float bits always a denormal, which a compiler that
        // knows the range (the H200's does) treats as a literal zero.
        let thread_id = srcs.iter().any(|s| s.ty.is_thread_id());
        // Source components that are compile-time constants: a literal, `icb` at a constant
        // index, or a temp that holds one here (`constants`). Their value is read at run time, where every
        // lane holds the same one.
        let consts: Vec<(&dxbc::Operand, usize)> = srcs
            .iter()
            .flat_map(|s| comps.iter().map(move |c| (s, *c)))
            .filter(|(s, c)| self.consts.operand_is_const(at, s, *c, &self.icb))
            .collect();
        // `x / x` and `x + -x` of one value fold to 1 and 0.
        let same = matches!(inst.opcode, Div | Add)
            && srcs.len() == 2
            && (inst.opcode == Div || srcs[0].modifier != srcs[1].modifier)
            && comps
                .iter()
                .any(|c| self.consts.same_value(at, &srcs[0], &srcs[1], *c));
        if !thread_id && consts.is_empty() && !same {
            return;
        }
        let lanes = self.lanes;
        let mut vals = vec![0u32; lanes];
        // Lanes where a constant source is a zero (a denormal counts: D3D and a GPU that
        // flushes both read it as one).
        let mut zero = vec![thread_id; lanes];
        for (s, c) in &consts {
            if self.read(s, *c, Consumer::Float, at, &mut vals).is_err() {
                return;
            }
            for (z, v) in zero.iter_mut().zip(&vals) {
                *z |= crate::rules::float::ftz(*v) & 0x7fff_ffff == 0;
            }
        }
        let mut hit = vec![false; lanes];
        for s in srcs {
            for c in &comps {
                // With its modifier: `-x * 0` is `-0` in D3D for a positive x.
                if self.read(s, *c, Consumer::Float, at, &mut vals).is_err() {
                    return;
                }
                for ((h, v), z) in hit.iter_mut().zip(&vals).zip(&zero) {
                    *h |= (*z && unusual(*v)) || (same && degenerate(*v));
                }
            }
        }
        for l in self.active.lanes().collect::<Vec<_>>() {
            if hit[l] {
                self.events[l] |= Domain::LiteralZeroFolded.bit();
            }
        }
    }
}
