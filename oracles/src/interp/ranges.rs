//! Dynamic indices into `v#` and `o#`. D3D defines relative addressing only inside the
//! `dcl_indexrange` that holds the base register (or, without one, inside the declared
//! registers); any other index is undefined (FS §7.3). The interpreter reads 0 and drops the
//! write (its own choice), gives the lane `d3d-undefined` and records an `index-out-of-range`
//! finding, so no translator is judged on what it does there.

use dxbc::{Index, OperandType, Program};

use super::findings::{FindingKind, record};
use super::machine::Machine;
use super::tracked::IndexRange;
use crate::domain::Domain;

/// The index ranges a program declares for `v#` and `o#`.
pub fn index_ranges(program: &Program) -> Vec<IndexRange> {
    program
        .instructions
        .iter()
        .filter(|i| i.opcode == dxbc::Opcode::DclIndexrange)
        .filter_map(|i| {
            let op = i.operands.first()?;
            let start = op.indices.first().and_then(Index::immediate)? as u32;
            let count = i.trailing.first().copied()?;
            Some((op.ty, start, count))
        })
        .collect()
}

fn prefix(ty: OperandType) -> &'static str {
    if ty == OperandType::Output { "o" } else { "v" }
}

impl Machine<'_> {
    /// The registers `[lo, hi)` a dynamic index with immediate part `base` may reach in file
    /// `ty` (with `regs` registers), and whether a `dcl_indexrange` gave them.
    fn index_bounds(&self, ty: OperandType, base: u64, regs: usize) -> (u64, u64, bool) {
        self.index_ranges
            .iter()
            .find(|(t, start, count)| {
                *t == ty
                    && base >= u64::from(*start)
                    && base < u64::from(*start) + u64::from(*count)
            })
            .map_or((0, regs as u64, false), |(_, s, c)| {
                (u64::from(*s), u64::from(*s) + u64::from(*c), true)
            })
    }

    /// Per lane whether each index in `regs` is inside the range of `index` into file `ty`;
    /// active lanes outside it get `d3d-undefined`, and the run a finding.
    pub(super) fn check_index_range(
        &mut self,
        ty: OperandType,
        index: &Index,
        regs: &[u64],
        at: usize,
    ) -> Vec<bool> {
        // The numbered registers only: the special ones kept past them (`oDepth` as `o32`)
        // are no `o[...]` or `v[...]` a relative index may reach.
        let numbered = dxbc::OperandType::SPECIAL_REGISTERS_START as usize;
        let file = if ty == OperandType::Output {
            self.outputs.regs()
        } else {
            self.inputs.regs()
        }
        .min(numbered);
        let base = index.immediate().unwrap_or(0);
        let (lo, hi, declared) = self.index_bounds(ty, base, file);
        let inside: Vec<bool> = regs.iter().map(|r| (lo..hi).contains(r)).collect();
        let mut first_out = None;
        for l in self.active.lanes() {
            if !inside[l] {
                self.scratch_ev[l] |= Domain::D3dUndefined.bit();
                first_out.get_or_insert((l, regs[l]));
            }
        }
        if let Some((l, r)) = first_out {
            let p = prefix(ty);
            let range = if declared {
                "its dcl_indexrange"
            } else {
                "the declared registers"
            };
            record(&mut self.findings, FindingKind::IndexOutOfRange, at, || {
                format!(
                    "{p}[{r}] in invocation {l} is outside {range} {p}{lo}..{p}{}",
                    hi.saturating_sub(1)
                )
            });
        }
        inside
    }
}
