//! Double-precision instructions in the exact profile: each double is a `vec2<u32>` (low word,
//! high word) taken from a register's `.xy` or `.zw`, computed by the software doubles of
//! `polyfills/d3d_double.wgsl` (integer operations only, exact to D3D's rules: round to
//! nearest even, denormals kept, NaN results canonical), and written back as two words. The
//! operand layout is `dxbc::Instruction::double_slots`, the reference's too (FS §22.15): the
//! k-th result reads the k-th double of each source, a widening conversion the k-th 32-bit
//! component, `dmovc` its condition beside the double it selects.

use dxbc::opcodes::Num;
use dxbc::{Instruction, Modifier, Opcode, Operand};
use naga::BinaryOperator as B;

use super::Ctx;
use super::Rejection;
use super::build::{self, H};
use super::operand::write_mask;

impl Ctx<'_> {
    /// One double-precision instruction (`dadd` … `utod`, `dmov`, `dmovc`).
    pub fn double(&mut self, inst: &Instruction) -> Result<(), Rejection> {
        use Opcode::*;
        let ops = &inst.operands;
        let dst = &ops[0];
        let mask = write_mask(dst);
        let info = inst.info();
        let mut values: Vec<(usize, H)> = Vec::new();
        for slot in inst.double_slots() {
            let (lo, hi, narrow) = (slot.lo, slot.hi, slot.word);
            // Each source read once, as the table types it: a double from its pair, or a
            // 32-bit word (the other slot holds a literal nothing reads).
            let mut d = Vec::new();
            let mut w = Vec::new();
            for (i, op) in ops[1..].iter().enumerate() {
                let unread = self.b.u(0);
                match info.num(i + 1) {
                    Num::Double => {
                        d.push(self.source_double(op, lo, hi)?);
                        w.push(unread);
                    }
                    num => {
                        let num = if matches!(num, Num::Float | Num::Int) {
                            num
                        } else {
                            Num::Uint
                        };
                        w.push(self.src(op, narrow.min(3), num)?);
                        d.push(unread);
                    }
                }
            }
            let call = |c: &mut Self, name: &'static str, args: Vec<H>| c.helper(name, args);
            let r = match inst.opcode {
                Dadd => call(self, "d3d_dadd", vec![d[0], d[1]]),
                Dmul => call(self, "d3d_dmul", vec![d[0], d[1]]),
                Ddiv => call(self, "d3d_ddiv", vec![d[0], d[1]]),
                Dfma if crate::planted(crate::PlantedBug::DfmaRoundedTwice) => {
                    let p = call(self, "d3d_dmul", vec![d[0], d[1]]);
                    call(self, "d3d_dadd", vec![p, d[2]])
                }
                Dfma => call(self, "d3d_dfma", vec![d[0], d[1], d[2]]),
                Drcp => call(self, "d3d_drcp", vec![d[0]]),
                Dmin => call(self, "d3d_dmin", vec![d[0], d[1]]),
                Dmax => call(self, "d3d_dmax", vec![d[0], d[1]]),
                Dmov => d[0],
                Dmovc => {
                    let z = self.b.u(0);
                    let c = self.b.bin(B::NotEqual, w[0], z);
                    self.b.select(d[2], d[1], c)
                }
                Deq => call(self, "d3d_deq", vec![d[0], d[1]]),
                Dge => call(self, "d3d_dge", vec![d[0], d[1]]),
                Dlt => call(self, "d3d_dlt", vec![d[0], d[1]]),
                Dne => call(self, "d3d_dne", vec![d[0], d[1]]),
                Dtof => call(self, "d3d_dtof", vec![d[0]]),
                Dtoi => call(self, "d3d_dtoi", vec![d[0]]),
                Dtou => call(self, "d3d_dtou", vec![d[0]]),
                Ftod => call(self, "d3d_ftod", vec![w[0]]),
                Itod => call(self, "d3d_itod", vec![w[0]]),
                Utod => call(self, "d3d_utod", vec![w[0]]),
                other => {
                    return Err(Rejection::new(
                        crate::names::NOT_LOWERED,
                        format!("`{}` is not lowered", other.mnemonic()),
                    ));
                }
            };
            if slot.dst.len() == 2 {
                let r = if inst.saturate {
                    call(self, "d3d_dsat", vec![r])
                } else {
                    r
                };
                let x = self.b.at(r, 0);
                let y = self.b.at(r, 1);
                values.push((slot.dst[0], x));
                values.push((slot.dst[1], y));
            } else {
                values.push((slot.dst[0], r));
            }
        }
        values.retain(|(c, _)| mask & (1 << c) != 0);
        self.assign(dst, &values)
    }

    /// The double in components `lo` and `hi` of a source (through its swizzle), its modifier
    /// applied to the sign bit of the high word.
    fn source_double(&mut self, op: &Operand, lo: usize, hi: usize) -> Result<H, Rejection> {
        let x = self.src_raw(op, lo)?;
        let mut y = self.src_raw(op, hi)?;
        let sign = self.b.u(0x8000_0000);
        y = match op.modifier {
            Modifier::None => y,
            Modifier::Neg => self.b.bin(B::ExclusiveOr, y, sign),
            Modifier::Abs => {
                let keep = self.b.u(0x7fff_ffff);
                self.b.bin(B::And, y, keep)
            }
            Modifier::AbsNeg => self.b.bin(B::InclusiveOr, y, sign),
        };
        Ok(self.compose(build::U32, vec![x, y]))
    }
}
