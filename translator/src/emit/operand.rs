//! Operands as WGSL expressions: every source component is a `u32` expression (registers are
//! typeless), with its modifier applied as its consumer types it; every destination component is
//! an lvalue.

use dxbc::opcodes::Num;
use dxbc::{Index, Modifier, Operand, OperandType};

use super::Ctx;
use crate::Rejection;
use crate::names as id;

pub const XYZW: [char; 4] = ['x', 'y', 'z', 'w'];

/// A `u32` literal.
pub fn lit(v: u32) -> String {
    format!("0x{v:08x}u")
}

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

fn unsupported(what: String) -> Rejection {
    Rejection::new(id::UNSUPPORTED, what)
}

impl Ctx<'_> {
    /// A `u32` expression for an index dimension.
    pub fn index(&mut self, index: &Index) -> Result<String, Rejection> {
        Ok(match index {
            Index::Imm32(v) => format!("{v}u"),
            Index::Imm64(_) | Index::Imm64Relative(..) => {
                return Err(unsupported("64-bit indices".into()));
            }
            Index::Relative(rel) => self.src_raw(rel, 0)?,
            Index::Imm32Relative(base, rel) => format!("({} + {base}u)", self.src_raw(rel, 0)?),
        })
    }

    /// A `vec4<u32>` expression for a source register (no modifier, no swizzle).
    fn register(&mut self, op: &Operand) -> Result<String, Rejection> {
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
                let (name, n) = if op.ty == OperandType::Input {
                    ("v", self.inputs)
                } else {
                    ("o", self.outputs)
                };
                match imm_index(0) {
                    Some(r) => format!("{name}[{r}]"),
                    None => {
                        let i = self.index(&op.indices[0])?;
                        format!("{name}[min({i}, {}u)]", n.max(1) - 1)
                    }
                }
            }
            OperandType::IndexableTemp => {
                let x = imm_index(0).ok_or_else(|| unsupported("relative x# array".into()))?;
                let n = *self
                    .indexable
                    .get(&x)
                    .ok_or_else(|| unsupported(format!("undeclared x{x}")))?;
                let i = self.index(
                    op.indices
                        .get(1)
                        .ok_or_else(|| unsupported("x# without element".into()))?,
                )?;
                self.relies(id::TYPELESS_REGISTERS);
                // Out-of-range x# access is undefined in D3D (FS §7.3); clamping keeps it in bounds.
                format!("x{x}[min({i}, {}u)]", n.max(1) - 1)
            }
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
                match idx {
                    Index::Imm32(r) if *r < size => format!("cb{slot}.v[{r}]"),
                    Index::Imm32(_) => "vec4<u32>()".to_string(),
                    _ => {
                        let i = self.index(idx)?;
                        format!("cb{slot}_at({i})")
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
                format!("icb_at({i})")
            }
            OperandType::InputThreadId => "vec4<u32>(thread_id, 0u)".into(),
            OperandType::InputThreadGroupId => "vec4<u32>(group_id, 0u)".into(),
            OperandType::InputThreadIdInGroup => "vec4<u32>(thread_in_group, 0u)".into(),
            OperandType::InputThreadIdInGroupFlattened => "vec4<u32>(thread_index)".into(),
            // The pixel program's special registers live in `v`/`o` past the numbered ones
            // (`OperandType::special_register`); the entry point fills and returns them. The
            // seed lowers none (`fail-closed/system-values`); the exact profile does.
            ty if ty.special_register().is_some() && self.exact() => {
                let r = ty.special_register().unwrap_or_default();
                format!("{}[{r}]", if ty.is_special_input() { "v" } else { "o" })
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

    /// Source component `comp` (a destination component; the swizzle is applied) without the
    /// modifier.
    pub fn src_raw(&mut self, op: &Operand, comp: usize) -> Result<String, Rejection> {
        let c = swizzled(op, comp);
        match op.ty {
            OperandType::Immediate32 => {
                let v = if op.imm.len() == 4 {
                    op.imm[c]
                } else {
                    op.imm.first().copied().unwrap_or(0)
                };
                let non_finite = v & 0x7f80_0000 == 0x7f80_0000;
                if self.opaque_literals || (self.opaque_non_finite && non_finite) {
                    let t = self.fresh();
                    self.line(&format!("var {t} = {};", lit(v)));
                    return Ok(t);
                }
                Ok(lit(v))
            }
            OperandType::Temp => temp_component(op, c),
            _ => Ok(format!("{}.{}", self.register(op)?, XYZW[c])),
        }
    }

    /// Source component with its modifier, as consumer `num` reads it (FS §22.18: float
    /// modifiers are sign-bit operations, integer negation is two's complement).
    pub fn src(&mut self, op: &Operand, comp: usize, num: Num) -> Result<String, Rejection> {
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
        Ok(match (num, op.modifier) {
            (Num::Int | Num::Uint, Modifier::Neg) => format!("(0u - {e})"),
            (Num::Int | Num::Uint, Modifier::Abs) => {
                format!("bitcast<u32>(abs(bitcast<i32>({e})))")
            }
            (Num::Int | Num::Uint, _) => format!("(0u - bitcast<u32>(abs(bitcast<i32>({e}))))"),
            (_, Modifier::Neg) => format!("({e} ^ 0x80000000u)"),
            (_, Modifier::Abs) => format!("({e} & 0x7fffffffu)"),
            (_, _) => format!("({e} | 0x80000000u)"),
        })
    }

    /// The lvalue of destination component `comp`; `None` for `null`.
    pub fn dst(&mut self, op: &Operand, comp: usize) -> Result<Option<String>, Rejection> {
        if op.ty == OperandType::Null {
            return Ok(None);
        }
        let c = XYZW[comp];
        match op.ty {
            OperandType::Temp => temp_component(op, comp).map(Some),
            OperandType::Output | OperandType::Input | OperandType::IndexableTemp => {
                Ok(Some(format!("{}.{c}", self.register(op)?)))
            }
            ty if ty.special_register().is_some() && self.exact() => {
                Ok(Some(format!("{}.{c}", self.register(op)?)))
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

    /// Assign per-component values to a destination: all values are computed first (the
    /// destination may also be a source), then written.
    pub fn assign(&mut self, op: &Operand, values: &[(usize, String)]) -> Result<(), Rejection> {
        let mut writes = Vec::new();
        for (comp, expr) in values {
            if let Some(lv) = self.dst(op, *comp)? {
                let t = self.fresh();
                self.line(&format!("let {t} = {expr};"));
                writes.push(format!("{lv} = {t};"));
            }
        }
        for w in writes {
            self.line(&w);
        }
        Ok(())
    }
}

/// Component `c` of a temporary register: one function-local `u32` per component (`r0x`).
/// Tint's uniformity analysis follows function-local scalars exactly, but treats a module-scope
/// `var<private>` as non-uniform and a `vec4` as one value, so a barrier behind a branch on a
/// uniform component of a register was rejected there (naga accepted it). Found by
/// `dxdiff corpus --gate tint` (docs/chrome.md).
pub fn temp_component(op: &Operand, c: usize) -> Result<String, Rejection> {
    match op.indices.first() {
        Some(Index::Imm32(r)) => Ok(format!("r{r}{}", XYZW[c % 4])),
        _ => Err(unsupported("relative temp".into())),
    }
}
