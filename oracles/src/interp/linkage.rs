//! Class linkage at run time: which body each lane's `fcall` runs, and what `this[]` reads.
//! The declarations come from [`dxbc::Linkage`]; the bound instances from the class-instance
//! buffer ([`super::resources::bound_table`], [`super::resources::this_record`]).

use dxbc::{Index, Instruction};

use super::InterpError;
use super::machine::Machine;
use super::mask::Mask;
use super::resources::bound_table;
use crate::domain::Domain;

impl Machine<'_> {
    /// The bodies an `fcall fp#[i][site]` runs, each with its lanes. A lane whose index is
    /// past the interface's array, or whose slot has a table the interface does not list, runs
    /// nothing and gets `d3d-undefined`: D3D leaves such a call undefined (the runtime refuses
    /// the binding, FS §7.11).
    pub(super) fn fcall_bodies(
        &mut self,
        inst: &Instruction,
        at: usize,
    ) -> Result<Vec<(usize, Mask)>, InterpError> {
        let malformed = |what: &str| InterpError::Malformed {
            index: at,
            what: what.into(),
        };
        let op = inst
            .operands
            .first()
            .ok_or_else(|| malformed("fcall without an interface"))?;
        let Some(Index::Imm32(fp)) = op.indices.first() else {
            return Err(malformed("fcall of an interface without a number"));
        };
        let fp = *fp;
        let site = inst.leading.first().copied().unwrap_or(0);
        let decl = self
            .structure
            .linkage
            .interfaces
            .get(&fp)
            .cloned()
            .ok_or_else(|| malformed("fcall of an undeclared interface"))?;
        let mut element = vec![0u64; self.lanes];
        match op.indices.get(1) {
            Some(idx) => {
                let idx = idx.clone();
                self.index_values(&idx, at, &mut element)?;
            }
            None => element.fill(0),
        }
        let mut bodies: Vec<(usize, Mask)> = Vec::new();
        for l in self.active.lanes().collect::<Vec<_>>() {
            let body = (element[l] < u64::from(decl.slots))
                .then(|| u64::from(fp) + element[l])
                .and_then(|slot| bound_table(self.res, slot))
                .and_then(|table| self.structure.linkage.body(fp, table, site))
                .and_then(|fb| self.structure.linkage.bodies.get(&fb).copied());
            let Some(label) = body else {
                self.scratch_ev[l] |= Domain::D3dUndefined.bit();
                continue;
            };
            match bodies.iter_mut().find(|(b, _)| *b == label) {
                Some((_, m)) => m.set(l, true),
                None => {
                    let mut m = Mask::none(self.lanes);
                    m.set(l, true);
                    bodies.push((label, m));
                }
            }
        }
        Ok(bodies)
    }
}
