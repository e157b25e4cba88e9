//! The values of integer ops whose sources are known values: a compiler folds them, and an
//! index computed so (`and r2.x, l(0), l(3)`) names one element of an indexable temp.

use dxbc::Opcode;

use super::{Cx, Known, source};

/// Component `c` of `inst`'s single destination, when `inst` is a bit or integer op whose
/// every source there is a known value (plain: a modifier makes a source a computed
/// constant the pass does not evaluate).
pub(super) fn evaluate(
    inst: &dxbc::Instruction,
    c: usize,
    cx: Cx<'_>,
    state: &[[Known; 4]],
) -> Option<u32> {
    if inst.info().dst != 1 || inst.saturate {
        return None;
    }
    let srcs = inst.operands.get(1..)?;
    let v = |k: usize| match source(srcs.get(k)?, c, cx, state) {
        Known::Value(v) => Some(v),
        _ => None,
    };
    // D3D takes a shift's count from its low five bits.
    Some(match inst.opcode {
        Opcode::And => v(0)? & v(1)?,
        Opcode::Or => v(0)? | v(1)?,
        Opcode::Xor => v(0)? ^ v(1)?,
        Opcode::Not => !v(0)?,
        Opcode::Iadd => v(0)?.wrapping_add(v(1)?),
        Opcode::Ineg => v(0)?.wrapping_neg(),
        Opcode::Ishl => v(0)? << (v(1)? & 31),
        Opcode::Ushr => v(0)? >> (v(1)? & 31),
        Opcode::Ishr => ((v(0)? as i32) >> (v(1)? & 31)) as u32,
        Opcode::Umin => v(0)?.min(v(1)?),
        Opcode::Umax => v(0)?.max(v(1)?),
        Opcode::Imin => (v(0)? as i32).min(v(1)? as i32) as u32,
        Opcode::Imax => (v(0)? as i32).max(v(1)? as i32) as u32,
        _ => return None,
    })
}
