//! The run-time half of `contraction`: where an `add` reads a product a compiler may contract,
//! whether the fused evaluation rounds differently (`fusion-sensitive`). Apart from the
//! analysis so that the machine, which holds the analysis, is not imported by it.

use dxbc::Modifier;

impl super::machine::Machine<'_> {
    /// Before an `add` runs: where it reads a product a compiler may contract, whether the
    /// fused `fma(x, y, c)` rounds differently from the `add` of the rounded product, as for
    /// `mad` (`fusion-sensitive`).
    pub(super) fn contraction_check(&mut self, inst: &dxbc::Instruction, at: usize) {
        use super::machine::Consumer;
        if self.contractions.of(at).is_empty() {
            return;
        }
        let table = self.contractions.clone();
        let program = self.program;
        let (_, srcs) = inst.split_operands();
        let lanes: Vec<usize> = self.active.lanes().collect();
        let mut vals = [vec![0u32; self.lanes], vec![0u32; self.lanes]];
        let mut factors = [vec![0u32; self.lanes], vec![0u32; self.lanes]];
        for c in table.of(at) {
            let (_, mul_srcs) = program.instructions[c.mul].split_operands();
            let (Some(read_product), Some(other), [x, y]) =
                (srcs.get(c.src), srcs.get(1 - c.src), mul_srcs)
            else {
                continue;
            };
            let [v0, v1] = &mut vals;
            let [f0, f1] = &mut factors;
            if self
                .read(read_product, c.comp, Consumer::Float, at, v0)
                .is_err()
                || self.read(other, c.comp, Consumer::Float, at, v1).is_err()
                || self.read(x, c.mul_comp, Consumer::Float, at, f0).is_err()
                || self.read(y, c.mul_comp, Consumer::Float, at, f1).is_err()
            {
                return;
            }
            let negated = read_product.modifier == Modifier::Neg;
            for &l in &lanes {
                let mut scratch = 0;
                let unfused = crate::rules::float::fadd(v0[l], v1[l], &mut scratch);
                let x = if negated { f0[l] ^ 0x8000_0000 } else { f0[l] };
                let mut ev = 0;
                crate::rules::fusion::fusion_check(
                    &[(x, f1[l]), (v1[l], 0x3f80_0000)],
                    unfused,
                    &mut ev,
                );
                self.events[l] |= ev;
            }
        }
    }
}
