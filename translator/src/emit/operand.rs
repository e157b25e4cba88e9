//! Operands as WGSL expressions: every source component is a `u32` expression (registers are
//! typeless), with its modifier applied as its consumer types it; every destination component is
//! an lvalue.

use dxbc::opcodes::Num;
use dxbc::{Index, Modifier, Operand, OperandType};
use naga::{BinaryOperator, Expression, Handle, MathFunction, VectorSize};

use super::Ctx;
use super::Rejection;
use super::build::{self, H};
use crate::names as id;

/// The component names, as a register component's variable ends (`r0x`).
const XYZW: [&str; 4] = ["x", "y", "z", "w"];

/// Per-component values for a destination: (component, value), at most four, on the stack.
pub type Values = smallvec::SmallVec<[(usize, H); 4]>;

/// Which source component feeds destination component `comp`.
pub fn swizzled(op: &Operand, comp: usize) -> usize {
    if crate::planted(crate::PlantedBug::ReplicateSwizzleIgnored)
        && let dxbc::Components::Four(dxbc::Selection::Swizzle(s)) = op.components
        && s.iter().all(|c| *c == s[0])
        && s[0] != 0
    {
        return comp;
    }
    op.source_component(comp)
}

/// The components a destination writes.
pub fn write_mask(op: &Operand) -> u8 {
    op.write_mask()
}

#[cold]
fn unsupported(what: String) -> Rejection {
    Rejection::new(id::NOT_LOWERED, what)
}

/// A register as the lowering reads it: a pointer to its `vec4<u32>`, a pointer to one that no
/// statement of `run` writes (a constant-buffer row, an input of a program that writes none),
/// or a `vec4<u32>` value (a thread id, a guarded constant-buffer row, zeros).
#[derive(Debug, Clone, Copy)]
pub enum Reg {
    Ptr(H),
    Invariant(H),
    Val(H),
}

/// What identifies a register resolved without a run-time index: its file, its immediate
/// indices, and the block it was resolved in. Resolving it again there gives the same
/// expressions (the accesses are shared per block), so the cache changes no module.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RegKey {
    ty: OperandType,
    indices: [u32; 2],
    epoch: u32,
}

impl RegKey {
    /// The key of an input, output or constant-buffer register whose indices are all
    /// immediate; `None` for any other operand.
    fn of(op: &Operand, epoch: u32) -> Option<RegKey> {
        if !matches!(
            op.ty,
            OperandType::Input | OperandType::Output | OperandType::ConstantBuffer
        ) || op.indices.len() > 2
        {
            return None;
        }
        let mut indices = [u32::MAX; 2];
        for (slot, i) in indices.iter_mut().zip(&op.indices) {
            match i {
                Index::Imm32(v) => *slot = *v,
                _ => return None,
            }
        }
        Some(RegKey {
            ty: op.ty,
            indices,
            epoch,
        })
    }
}

/// A register resolved by the instruction being lowered: the operand (by address: the
/// instruction outlives the lowering of it), the block, and what it resolved to. Fetched once,
/// a relatively indexed constant-buffer row is one call, not one per component.
pub type Fetched = (*const Operand, u32, Reg);

impl Ctx<'_> {
    /// A `u32` expression for an index dimension.
    pub fn index(&mut self, index: &Index) -> Result<H, Rejection> {
        Ok(match index {
            Index::Imm32(v) => self.b.u(*v),
            Index::Imm64(_) | Index::Imm64Relative(..) => {
                return Err(unsupported("64-bit indices".into()));
            }
            Index::Relative(rel) => self.src_raw(rel, 0)?,
            Index::Imm32Relative(base, rel) => {
                let r = self.src_raw(rel, 0)?;
                let b = self.b.u(*base);
                self.b.bin(BinaryOperator::Add, r, b)
            }
        })
    }

    /// `min(i, n - 1)`: a relative index kept inside its array.
    fn clamped(&mut self, i: H, n: u32) -> H {
        let last = self.b.u(n.max(1) - 1);
        self.b.math(MathFunction::Min, &[i, last])
    }

    /// Element `index` of the `array<vec4<u32>, n>` variable `g`, clamped when relative.
    fn element(
        &mut self,
        g: Handle<naga::GlobalVariable>,
        index: &Index,
        n: u32,
    ) -> Result<H, Rejection> {
        let base = self.global(g);
        Ok(match index {
            Index::Imm32(r) => self.b.at(base, *r),
            other => {
                let i = self.index(other)?;
                let i = self.clamped(i, n);
                self.b.access(base, i)
            }
        })
    }

    /// A source or destination register (no modifier, no swizzle): from [`Ctx::fetched`] when
    /// this instruction resolved the same operand in this block (a pointer comparison, so an
    /// operand's second to fourth components skip the key), else from [`Ctx::regs`] when it was
    /// resolved in this block already, else resolved now.
    fn register(&mut self, op: &Operand) -> Result<Reg, Rejection> {
        let epoch = self.b.epoch();
        let at: *const Operand = op;
        if let Some((_, _, r)) = self
            .fetched
            .iter()
            .find(|(o, e, _)| std::ptr::eq(*o, at) && *e == epoch)
        {
            return Ok(*r);
        }
        let key = RegKey::of(op, epoch);
        if let Some(key) = key
            && let Some((_, r)) = self.regs.iter().find(|(k, _)| *k == key)
        {
            let r = *r;
            self.fetched.push((at, epoch, r));
            return Ok(r);
        }
        let r = self.resolve(op)?;
        if let Some(key) = key
            && !matches!(r, Reg::Val(_))
        {
            if self.regs.len() == self.regs.inline_size() {
                self.regs.clear();
            }
            self.regs.push((key, r));
        }
        self.fetched.push((at, epoch, r));
        Ok(r)
    }

    /// A register resolved from the declarations.
    fn resolve(&mut self, op: &Operand) -> Result<Reg, Rejection> {
        let imm_index = |k: usize| {
            op.indices.get(k).and_then(|i| match i {
                Index::Imm32(v) => Some(*v),
                _ => None,
            })
        };
        Ok(match op.ty {
            OperandType::Input | OperandType::Output => {
                if op.indices.len() != 1 {
                    return Err(unsupported("multi-dimensional input registers".into()));
                }
                let (g, n) = if op.ty == OperandType::Input {
                    (self.g.v, self.inputs)
                } else {
                    (self.g.o, self.outputs)
                };
                let g = g.ok_or_else(|| unsupported("no register file".into()))?;
                let p = self.element(g, &op.indices[0], n)?;
                if op.ty == OperandType::Input && !self.inputs_written {
                    Reg::Invariant(p)
                } else {
                    Reg::Ptr(p)
                }
            }
            OperandType::IndexableTemp => {
                let x = imm_index(0).ok_or_else(|| unsupported("relative x# array".into()))?;
                let n = *self
                    .indexable
                    .get(&x)
                    .ok_or_else(|| unsupported(format!("undeclared x{x}")))?;
                let g = *self
                    .g
                    .x
                    .get(&x)
                    .ok_or_else(|| unsupported(format!("undeclared x{x}")))?;
                let idx = op
                    .indices
                    .get(1)
                    .ok_or_else(|| unsupported("x# without element".into()))?;
                self.relies(id::TYPELESS_REGISTERS);
                // Out-of-range x# access is undefined in D3D (FS §7.3); clamping keeps it in
                // bounds. Always clamped, an immediate index too.
                let i = self.index(idx)?;
                let i = self.clamped(i, n);
                let base = self.global(g);
                Reg::Ptr(self.b.access(base, i))
            }
            OperandType::ConstantBuffer if imm_index(0).is_none() && self.exact() => {
                self.selected_cb(op)?
            }
            OperandType::ThisPointer if self.exact() => self.this_register(op)?,
            OperandType::ConstantBuffer => {
                let slot = imm_index(0)
                    .ok_or_else(|| unsupported("dynamically selected constant buffer".into()))?;
                let size = *self
                    .cbs
                    .get(&slot)
                    .ok_or_else(|| unsupported(format!("undeclared cb{slot}")))?;
                let idx = op
                    .indices
                    .get(1)
                    .ok_or_else(|| unsupported("cb# without register".into()))?;
                let g = self
                    .g
                    .cb
                    .get(&slot)
                    .ok_or_else(|| unsupported(format!("undeclared cb{slot}")))?
                    .var;
                match idx {
                    Index::Imm32(r) if *r < size => {
                        let base = self.global(g);
                        let rows = self.b.at(base, 0);
                        Reg::Invariant(self.b.at(rows, *r))
                    }
                    Index::Imm32(_) => Reg::Val(self.zero_vec4()),
                    _ => {
                        let i = self.index(idx)?;
                        let at = self
                            .cb_at(slot)
                            .ok_or_else(|| unsupported(format!("undeclared cb{slot}")))?;
                        Reg::Val(self.b.call(at, vec![i]))
                    }
                }
            }
            OperandType::ImmediateConstantBuffer => {
                self.relies(id::ICB_CONST_ARRAY);
                let i = self.index(
                    op.indices
                        .first()
                        .ok_or_else(|| unsupported("icb without index".into()))?,
                )?;
                let f = self
                    .g
                    .icb_at
                    .ok_or_else(|| unsupported("icb without its data".into()))?;
                Reg::Val(self.b.call(f, vec![i]))
            }
            OperandType::InputThreadId
            | OperandType::InputThreadGroupId
            | OperandType::InputThreadIdInGroup => {
                let g = match op.ty {
                    OperandType::InputThreadId => self.g.thread_id,
                    OperandType::InputThreadGroupId => self.g.group_id,
                    _ => self.g.thread_in_group,
                }
                .ok_or_else(|| unsupported("a compute id outside a compute program".into()))?;
                let p = self.global(g);
                let v = self.b.load(p);
                let zero = self.b.u(0);
                let [x, y, z] = [0, 1, 2].map(|k| self.b.at(v, k));
                Reg::Val(self.compose4([x, y, z, zero]))
            }
            OperandType::InputThreadIdInGroupFlattened => {
                let g = self
                    .g
                    .thread_index
                    .ok_or_else(|| unsupported("a compute id outside a compute program".into()))?;
                let p = self.global(g);
                let v = self.b.load(p);
                Reg::Val(self.compose4([v, v, v, v]))
            }
            // The pixel program's special registers live in `v`/`o` past the numbered ones
            // (`OperandType::special_register`); the entry point fills and returns them. The
            // seed lowers none (`fail-closed/system-values`); the exact profile does.
            ty if let Some((file, r)) = ty.special_slot()
                && self.exact() =>
            {
                let g = match file {
                    dxbc::registers::RegisterFile::Input => self.g.v,
                    dxbc::registers::RegisterFile::Output => self.g.o,
                };
                let g = g.ok_or_else(|| unsupported("no register file".into()))?;
                let base = self.global(g);
                Reg::Ptr(self.b.at(base, r))
            }
            ty if ty.special_register().is_some() => {
                return Err(Rejection::new(
                    id::SYSTEM_VALUES,
                    format!("special register {ty:?}"),
                ));
            }
            other => return Err(unsupported(format!("reading {other:?}"))),
        })
    }

    /// `vec4<u32>()`.
    pub fn zero_vec4(&mut self) -> H {
        let t = self.vec4u();
        self.b.expr(naga::Expression::ZeroValue(t))
    }

    /// `vec4<u32>(a, b, c, d)`.
    pub fn compose4(&mut self, parts: [H; 4]) -> H {
        self.compose(build::U32, parts.to_vec())
    }

    /// `vecN<scalar>(parts...)`.
    pub fn compose(&mut self, scalar: naga::Scalar, parts: Vec<H>) -> H {
        let size = match parts.len() {
            2 => VectorSize::Bi,
            3 => VectorSize::Tri,
            _ => VectorSize::Quad,
        };
        let ty = self.vector_ty(size, scalar);
        self.b.expr(Expression::Compose {
            ty,
            components: parts,
        })
    }

    /// `vecN<u32>(value)`.
    pub fn splat(&mut self, n: usize, value: H) -> H {
        let size = if n == 3 {
            VectorSize::Tri
        } else {
            VectorSize::Bi
        };
        self.b.expr(Expression::Splat { size, value })
    }

    /// Component `c` of a register value.
    fn component(&mut self, reg: Reg, c: usize) -> H {
        match reg {
            Reg::Ptr(p) => {
                let q = self.b.at(p, c as u32);
                self.b.load(q)
            }
            Reg::Invariant(p) => {
                let q = self.b.at(p, c as u32);
                self.b.load_invariant(q)
            }
            Reg::Val(v) => self.b.at(v, c as u32),
        }
    }

    /// A `u32` variable in `run` holding `v`, read back: a value WGSL cannot fold into a
    /// constant (see [`Ctx::opaque_literals`]).
    pub fn opaque(&mut self, v: H) -> H {
        let name = self.fresh();
        let ty = self.u32_ty();
        let var = self.b.local(name, ty, Some(v));
        self.b.load(var)
    }

    /// Source component `comp` (a destination component; the swizzle is applied) without the
    /// modifier.
    pub fn src_raw(&mut self, op: &Operand, comp: usize) -> Result<H, Rejection> {
        let c = swizzled(op, comp);
        match op.ty {
            OperandType::Immediate32 => {
                let v = if op.imm.len() == 4 {
                    op.imm[c]
                } else {
                    op.imm.first().copied().unwrap_or(0)
                };
                let non_finite = v & 0x7f80_0000 == 0x7f80_0000;
                let lit = self.b.u(v);
                if self.opaque_literals || (self.opaque_non_finite && non_finite) {
                    return Ok(self.opaque(lit));
                }
                Ok(lit)
            }
            // `d(x)` holds one double (low, high) and `d(x, y)` two: component `c` is word `c`
            // of that list, repeating for a single double (as the reference reads it).
            OperandType::Immediate64 => {
                let n = op.imm.len().max(1);
                let v = op.imm.get(c % n).copied().unwrap_or(0);
                Ok(self.b.u(v))
            }
            OperandType::Temp => {
                let p = self.temp_component(op, c)?;
                Ok(self.b.load(p))
            }
            _ => {
                let r = self.register(op)?;
                Ok(self.component(r, c))
            }
        }
    }

    /// Source component with its modifier, as consumer `num` reads it (FS §22.18: float
    /// modifiers are sign-bit operations, integer negation is two's complement).
    pub fn src(&mut self, op: &Operand, comp: usize, num: Num) -> Result<H, Rejection> {
        let e = self.src_raw(op, comp)?;
        if op.modifier == Modifier::None {
            return Ok(e);
        }
        // The exact profile reproduces D3D's modifiers bit for bit (its float consumers flush
        // their inputs, and a modified `mov` flushes its own); only the contract's lowering
        // inherits WGSL's latitude.
        if !self.exact() {
            self.relies(id::SOURCE_MODIFIERS);
        }
        use BinaryOperator as B;
        Ok(match (num, op.modifier) {
            (Num::Int | Num::Uint, Modifier::Neg) => {
                let z = self.b.u(0);
                self.b.bin(B::Subtract, z, e)
            }
            (Num::Int | Num::Uint, m) => {
                let i = self.b.bitcast(naga::ScalarKind::Sint, e);
                let a = self.b.math(MathFunction::Abs, &[i]);
                let a = self.b.bitcast(naga::ScalarKind::Uint, a);
                if m == Modifier::Abs {
                    a
                } else {
                    let z = self.b.u(0);
                    self.b.bin(B::Subtract, z, a)
                }
            }
            (_, m) => self.float_modifier(e, m),
        })
    }

    /// A float source modifier applied to a word: a sign-bit operation (FS §22.18), so it
    /// keeps a denormal's and a NaN's other bits.
    pub fn float_modifier(&mut self, e: H, m: Modifier) -> H {
        use BinaryOperator as B;
        match m {
            Modifier::None => e,
            Modifier::Neg => {
                let k = self.b.u(0x8000_0000);
                self.b.bin(B::ExclusiveOr, e, k)
            }
            Modifier::Abs => {
                let k = self.b.u(0x7fff_ffff);
                self.b.bin(B::And, e, k)
            }
            Modifier::AbsNeg => {
                let k = self.b.u(0x8000_0000);
                self.b.bin(B::InclusiveOr, e, k)
            }
        }
    }

    /// A pointer to destination component `comp`; `None` for `null`.
    pub fn dst(&mut self, op: &Operand, comp: usize) -> Result<Option<H>, Rejection> {
        if op.ty == OperandType::Null {
            return Ok(None);
        }
        match op.ty {
            OperandType::Temp => self.temp_component(op, comp).map(Some),
            OperandType::Output | OperandType::Input | OperandType::IndexableTemp => {
                self.dst_in_register(op, comp).map(Some)
            }
            ty if ty.special_register().is_some() && self.exact() => {
                self.dst_in_register(op, comp).map(Some)
            }
            OperandType::OutputDepth
            | OperandType::OutputDepthGreaterEqual
            | OperandType::OutputDepthLessEqual
            | OperandType::OutputCoverageMask
            | OperandType::OutputStencilRef => Err(Rejection::new(
                id::SYSTEM_VALUES,
                format!("writing {:?}", op.ty),
            )),
            other => Err(unsupported(format!("writing {other:?}"))),
        }
    }

    fn dst_in_register(&mut self, op: &Operand, comp: usize) -> Result<H, Rejection> {
        match self.register(op)? {
            Reg::Ptr(p) => Ok(self.b.at(p, comp as u32)),
            Reg::Invariant(_) | Reg::Val(_) => Err(unsupported(format!("writing {:?}", op.ty))),
        }
    }

    /// Assign per-component values to a destination: every value is evaluated before the
    /// first store (the destination may also be a source).
    pub fn assign(&mut self, op: &Operand, values: &[(usize, H)]) -> Result<(), Rejection> {
        let mut writes: smallvec::SmallVec<[(H, H); 4]> = smallvec::SmallVec::new();
        for &(comp, value) in values {
            if let Some(p) = self.dst(op, comp)? {
                writes.push((p, value));
            }
        }
        for (p, v) in writes {
            self.b.store(p, v);
        }
        Ok(())
    }

    /// Component `c` of a temporary register: one function-local `u32` per component (`r0x`).
    /// Tint's uniformity analysis follows function-local scalars exactly, but treats a
    /// module-scope `var<private>` as non-uniform and a `vec4` as one value, so a barrier
    /// behind a branch on a uniform component of a register was rejected there (naga accepted
    /// it). Found by `dxdiff corpus --gate tint` (docs/chrome.md).
    pub fn temp_component(&mut self, op: &Operand, c: usize) -> Result<H, Rejection> {
        let r = match op.indices.first() {
            Some(Index::Imm32(r)) => *r as usize,
            _ => return Err(unsupported("relative temp".into())),
        };
        let c = c % 4;
        if r >= self.temp_vars.len() {
            return Err(unsupported(format!("r{r} past dcl_temps")));
        }
        if let Some(h) = self.temp_vars[r][c] {
            return Ok(h);
        }
        let ty = self.u32_ty();
        // A program with subroutines shares its temps between functions.
        if let Some(slot) = self.private_temps.get_mut(r) {
            let g = match slot[c] {
                Some(g) => g,
                None => {
                    let g = self.private_global(build::numbered("r", r as u32, XYZW[c]), ty);
                    self.private_temps[r][c] = Some(g);
                    g
                }
            };
            let h = self.global(g);
            self.temp_vars[r][c] = Some(h);
            return Ok(h);
        }
        let h = self
            .b
            .local(build::numbered("r", r as u32, XYZW[c]), ty, None);
        self.temp_vars[r][c] = Some(h);
        Ok(h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dxbc::{Components, Selection};

    fn cb(slot: u32, row: Index) -> Operand {
        let mut op = Operand::reg(
            OperandType::ConstantBuffer,
            Components::Four(Selection::Swizzle([0, 1, 2, 3])),
            &[slot],
        );
        op.indices.push(row);
        op
    }

    /// The cache's key names the block: a register resolved in one block is never taken for
    /// the same register in another (its expressions may not be in scope there), and a
    /// register with a run-time index is never cached.
    #[test]
    fn a_register_key_is_per_block_and_only_for_immediate_indices() {
        let row = cb(0, Index::Imm32(3));
        assert_eq!(RegKey::of(&row, 1), RegKey::of(&row, 1));
        assert_ne!(RegKey::of(&row, 1), RegKey::of(&row, 2));
        assert_ne!(RegKey::of(&row, 1), RegKey::of(&cb(0, Index::Imm32(4)), 1));
        assert_ne!(RegKey::of(&row, 1), RegKey::of(&cb(1, Index::Imm32(3)), 1));
        let temp = Operand::reg(OperandType::Temp, Components::One, &[0]);
        assert_eq!(
            RegKey::of(&cb(0, Index::Relative(Box::new(temp.clone()))), 1),
            None
        );
        assert_eq!(RegKey::of(&temp, 1), None);
        let input = Operand::reg(OperandType::Input, Components::One, &[3]);
        let output = Operand::reg(OperandType::Output, Components::One, &[3]);
        assert!(RegKey::of(&input, 1).is_some());
        assert_ne!(RegKey::of(&input, 1), RegKey::of(&output, 1));
    }
}
