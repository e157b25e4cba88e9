//! Literal-zero folding. GPU compilers simplify `x * 0.0` to `0.0`, `x + 0.0` to `x`, `0.0 / x`
//! to `0.0` and dot products with a zero vector to `0.0` when the zero is a literal: WGSL lets
//! them assume no NaN or infinity and ignore the sign of zero, and both lavapipe (NIR) and the
//! H200's driver do it, even through a polyfill, because the literal is a constant wherever it
//! is bound. D3D evaluates the op: NaN stays NaN, `-0 + 0` is `+0`, a flushed denormal keeps
//! its sign. A lane where a float op reads a literal ±0 next to a NaN, an infinity, a −0 or a
//! denormal gets `literal-zero-folded` (found by `dxdiff fuzz`: `dp3 r0.x, v0, l(0,0,0,0)` with
//! a NaN in `v0` gives 0 on both GPUs).

use dxbc::{Instruction, Opcode, OperandType};

use super::machine::{Machine, source_component, write_mask};
use crate::domain::Domain;

/// An operand value that folding with a literal zero can change: NaN, ±inf, −0, a denormal.
fn unusual(w: u32) -> bool {
    let exp = (w >> 23) & 0xff;
    exp == 0xff || (exp == 0 && w != 0)
}

impl Machine<'_> {
    pub(super) fn literal_zero_folding(&mut self, inst: &Instruction, at: usize) {
        use Opcode::*;
        let width = match inst.opcode {
            Add | Mul | Mad | Div => 0,
            Dp2 => 2,
            Dp3 => 3,
            Dp4 => 4,
            _ => return,
        };
        let srcs = &inst.operands[1.min(inst.operands.len())..];
        let mask = inst.operands.first().map_or(0xf, write_mask);
        let comps: Vec<usize> = if width > 0 {
            (0..width).collect()
        } else {
            (0..4).filter(|c| mask & (1 << c) != 0).collect()
        };
        let zero_literal = srcs.iter().any(|s| {
            s.ty == OperandType::Immediate32
                && comps.iter().any(|c| {
                    let v = s.imm.get(source_component(s, *c) % s.imm.len().max(1));
                    v.is_some_and(|w| w & 0x7fff_ffff == 0)
                })
        });
        if !zero_literal {
            return;
        }
        let lanes = self.lanes;
        let mut vals = vec![0u32; lanes];
        let mut hit = vec![false; lanes];
        for s in srcs.iter().filter(|s| s.ty != OperandType::Immediate32) {
            for c in &comps {
                if self
                    .read_raw(s, source_component(s, *c), at, &mut vals)
                    .is_err()
                {
                    return;
                }
                for (h, v) in hit.iter_mut().zip(&vals) {
                    *h |= unusual(*v);
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
