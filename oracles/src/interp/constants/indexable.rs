//! Indexable temps (`x#[n]`) element by element. A compiler keeps a small array in registers
//! and forwards a store at a known index to a load at the same one: the H100 folded
//! `mov x0[r4.x + 0].zw, l(0)` with `r4.x` a thread id of a one-thread group, then
//! `mad r0.y, r0, x0[r2.x + 0].yzww, l(1)` with `r2.x = 0 & 3`, to 1 with a NaN in `r0.y`
//! (dxdiff fuzz, exact profile, seed 44). Each element of a small array gets a row of the
//! pass's state after the temps'; an element is found when its index is an immediate or a
//! temp holding a known value, and a write at an index the pass does not know forgets the
//! whole array. Such a write is remembered in two more rows, with the value number of its
//! index ([`super::numbers`]): a read at an index of that number reads what it wrote (a
//! compiler forwards a store to a load at the same address).

use std::ops::Range;

use dxbc::{Index, Operand, OperandType, Program};

use super::{Known, Number, temp_index};

/// Arrays longer than this are not followed (a compiler keeps those in memory).
const MAX_ELEMENTS: u32 = 64;
/// Rows for all arrays together: the pass copies its state at every branch.
const MAX_ROWS: usize = 256;

/// The rows of the followed arrays.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Elements {
    /// (array id, its first row, its length). The two rows after the elements hold the last
    /// write at an index of unknown value: what it wrote, and the index's number.
    arrays: Vec<(u32, usize, u32)>,
    rows: usize,
}

impl Elements {
    /// The small arrays `program` declares, their rows starting at `first`.
    pub(super) fn of(program: &Program, first: usize) -> Elements {
        let mut e = Elements::default();
        for (id, len, _) in program
            .instructions
            .iter()
            .filter_map(dxbc::Instruction::indexable_temp)
        {
            // A redeclared id (another subroutine's scope) is not followed at all.
            if let Some(k) = e.arrays.iter().position(|a| a.0 == id) {
                e.arrays[k].2 = 0;
                continue;
            }
            let rows = len as usize + 2;
            if len <= MAX_ELEMENTS && e.rows + rows <= MAX_ROWS {
                e.arrays.push((id, first + e.rows, len));
                e.rows += rows;
            }
        }
        e
    }

    pub(super) fn rows(&self) -> usize {
        self.rows
    }

    /// The first row and length of the followed array `op` (an `x#` operand) names.
    fn array(&self, op: &Operand) -> Option<(usize, u32)> {
        if op.ty != OperandType::IndexableTemp || op.indices.len() != 2 {
            return None;
        }
        let Index::Imm32(id) = op.indices[0] else {
            return None;
        };
        let &(_, first, len) = self.arrays.iter().find(|a| a.0 == id)?;
        (len > 0).then_some((first, len))
    }

    /// The row of the element `op` names, when its index is known: an immediate, or an
    /// immediate plus a temp component that `temp` knows the value of. `None` past the end.
    pub(super) fn row(
        &self,
        op: &Operand,
        temp: impl Fn(usize) -> Option<[Known; 4]>,
    ) -> Option<usize> {
        let (first, len) = self.array(op)?;
        let element = match &op.indices[1] {
            Index::Imm32(e) => *e,
            Index::Relative(r) => relative_value(r, &temp)?,
            Index::Imm32Relative(base, r) => base.checked_add(relative_value(r, &temp)?)?,
            _ => return None,
        };
        (element < len).then(|| first + element as usize)
    }

    /// Every row of the array `op` names: what a write at an unknown index may change.
    pub(super) fn all(&self, op: &Operand) -> Option<Range<usize>> {
        let (first, len) = self.array(op)?;
        Some(first..first + len as usize + 2)
    }

    /// The rows of the last write at an index of unknown value to the array `op` names: what it
    /// wrote, and its index's number.
    pub(super) fn forward(&self, op: &Operand) -> Option<(usize, usize)> {
        let (first, len) = self.array(op)?;
        let at = first + len as usize;
        Some((at, at + 1))
    }

    /// The value number of `op`'s index, when it is a plain temp component (with no offset)
    /// that carries one.
    pub(super) fn index_number(
        &self,
        op: &Operand,
        temp: impl Fn(usize) -> Option<[Known; 4]>,
    ) -> Option<Number> {
        let r = match op.indices.get(1)? {
            Index::Relative(r) | Index::Imm32Relative(0, r) => r,
            _ => return None,
        };
        index_known(r, &temp)?.number()
    }

    /// The row a read of component `sc` of `op` finds its value in: the element at a known
    /// index, or the last write at an index of unknown value when its index carries the same
    /// number as this one's.
    pub(super) fn read_row(
        &self,
        op: &Operand,
        sc: usize,
        temp: impl Fn(usize) -> Option<[Known; 4]>,
    ) -> Option<usize> {
        if let Some(row) = self.row(op, &temp) {
            return Some(row);
        }
        let n = self.index_number(op, &temp)?;
        let (value, index) = self.forward(op)?;
        (temp(index)?.get(sc) == Some(&Known::Same(n))).then_some(value)
    }
}

/// The value a relative index's temp component holds, when known.
fn relative_value(r: &Operand, temp: &impl Fn(usize) -> Option<[Known; 4]>) -> Option<u32> {
    index_known(r, temp)?.value()
}

/// What the pass knows of the temp component a plain relative index `r` reads.
fn index_known(r: &Operand, temp: &impl Fn(usize) -> Option<[Known; 4]>) -> Option<Known> {
    if r.modifier != dxbc::Modifier::None {
        return None;
    }
    Some(temp(temp_index(r)?)?[r.source_component(0)])
}

/// The temp an `x#` operand's relative index reads.
pub(super) fn index_temp(op: &Operand) -> Option<usize> {
    if op.ty != OperandType::IndexableTemp {
        return None;
    }
    temp_index(op.indices.get(1)?.relative()?)
}
