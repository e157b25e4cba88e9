//! Value numbers: which unknown values are one value. A compiler sees the same op of the same
//! values as one value wherever it is computed (common subexpressions), so a load from
//! `x0[r2.x]` after a store to `x0[r4.x]`, both indices `and` of one thread id with 3, reads
//! what was stored (lavapipe and the H100 forwarded a 0 so into a `mad` with a NaN), and
//! `div r0.y, r0.y, r0.x` of two copies of one comparison is `x / x`.
//!
//! A number names a literal, a fixed register component (an input, a constant-buffer word at
//! a literal index, a thread id), a constant named by where it was computed, an ALU op (its
//! opcode, destination, `_sat`, and each source's modifier and number), or what a load or
//! another op no number names wrote, by where it wrote it. A temp component
//! carries the number of what was last written to it, kept where paths meet only when both
//! carry it, and forgotten where a loop writes it.

use std::collections::HashMap;

use dxbc::Operand;

use super::{Alias, Cx, FRESH, Known, foldable, literal_value, temp_index};

/// A value number; [`NONE`] is none.
pub(super) type Number = u32;

/// No number.
pub(super) const NONE: Number = 0;

/// The numbers made while the pass walks one program.
#[derive(Debug, Default)]
pub(super) struct Numbers {
    table: HashMap<Vec<u32>, Number>,
}

impl Numbers {
    fn intern(&mut self, key: Vec<u32>) -> Number {
        let next = Number::try_from(self.table.len() + 1).unwrap_or(Number::MAX);
        *self.table.entry(key).or_insert(next)
    }

    fn alias(&mut self, a: Alias) -> Number {
        self.intern(vec![
            2,
            a.ty as u32,
            a.index[0],
            a.index[1],
            u32::from(a.comp),
        ])
    }

    /// The number of what instruction `at` wrote to component `c` of destination `dst` when
    /// no op names it (a load, a sample, an atomic's old value): that one value, wherever it
    /// is read until the register is written again (a loop that writes it forgets it, as it
    /// forgets every number). The H100 saw `ilt r0.yzw, l(0), r0.yyyy` of a loaded `r0.y` as
    /// one value, then `div r0.y, r0.y, r0.w` as `x / x`.
    pub(super) fn written(&mut self, at: usize, dst: usize, c: usize) -> Number {
        self.intern(vec![5, at as u32, dst as u32, c as u32])
    }

    /// The number of the value source `src` reads in destination component `c`, its modifier
    /// not applied.
    pub(super) fn of_source(
        &mut self,
        src: &Operand,
        c: usize,
        cx: Cx<'_>,
        state: &[[Known; 4]],
    ) -> Option<Number> {
        if let Some(v) = literal_value(src, c, cx.icb).or_else(|| cx.fixed_thread_id(src, c)) {
            return Some(self.intern(vec![0, v]));
        }
        if src.ty.is_thread_id() {
            return Some(self.intern(vec![1, src.ty as u32, src.source_component(c) as u32]));
        }
        if let Some(a) = Alias::under(src, c) {
            return Some(self.alias(a));
        }
        let row = temp_index(src).or_else(|| cx.x.row(src, |r| state.get(r).copied()))?;
        match state.get(row)?[src.source_component(c)] {
            Known::Value(v) => Some(self.intern(vec![0, v])),
            Known::Computed(id) if id != FRESH => Some(self.intern(vec![3, id])),
            Known::Copy(a) => Some(self.alias(a)),
            k => k.number(),
        }
    }

    /// The number of what `inst` (an ALU op or a move) computes in component `c` of
    /// destination `dst`, when every source component it reads has one.
    pub(super) fn of_result(
        &mut self,
        inst: &dxbc::Instruction,
        dst: usize,
        c: usize,
        per_component: bool,
        cx: Cx<'_>,
        state: &[[Known; 4]],
    ) -> Option<Number> {
        if !foldable(inst) {
            return None;
        }
        let (_, srcs) = inst.split_operands();
        if inst.opcode == dxbc::Opcode::Mov
            && !inst.saturate
            && let [s] = srcs
            && s.modifier == dxbc::Modifier::None
        {
            return self.of_source(s, c, cx, state);
        }
        let mut key = vec![4, inst.opcode as u32, dst as u32, u32::from(inst.saturate)];
        for s in srcs {
            key.push(s.modifier as u32);
            if per_component {
                key.push(self.of_source(s, c, cx, state)?);
            } else {
                for j in 0..4 {
                    key.push(self.of_source(s, j, cx, state)?);
                }
            }
        }
        Some(self.intern(key))
    }
}
