//! Values that are not constants but provably below 2^23 as integers: as float bits a
//! denormal or zero, which a compiler that flushes denormals folds as it folds a zero.

use dxbc::Opcode;

use super::{Cx, Known, source};

/// Whether component `c` of `inst`'s destination `dst` is provably below 2^23 though not a
/// constant.
pub(super) fn small_result(
    inst: &dxbc::Instruction,
    dst: usize,
    c: usize,
    cx: Cx<'_>,
    state: &[[Known; 4]],
) -> bool {
    let (_, srcs) = inst.split_operands();
    let src = |k: usize| {
        srcs.get(k)
            .map_or(Known::Unknown, |s| source(s, c, cx, state))
    };
    // The sources' bounds (products of two u32 bounds fit in u64; sums are checked).
    let b = |k: usize| srcs.get(k).and_then(|s| bound(s, c, cx, state));
    let below = |m: Option<u64>| m.is_some_and(|m| m < 1 << 23);
    match inst.opcode {
        // A bit count, a half in the low 16 bits, a carry or a borrow (the H200 folded
        // `usubb`'s borrow into a `dp3` with a NaN).
        Opcode::Countbits | Opcode::F32tof16 => true,
        Opcode::Uaddc | Opcode::Usubb if dst == 1 => true,
        // The high word of a product with a factor below 2^23 is below 2^23.
        Opcode::Umul if dst == 0 => (0..srcs.len()).any(|k| src(k).small()),
        // A denormal or zero of either sign converts to the integer 0.
        Opcode::Ftoi | Opcode::Ftou => src(0).small(),
        Opcode::And | Opcode::Umin => (0..srcs.len()).any(|k| src(k).small()),
        Opcode::Ushr => matches!(src(1), Known::Value(n) if n & 31 >= 9) || src(0).small(),
        // A shift right of a small non-negative integer stays small (the H200 folded `ushr` of
        // a literal 0 by a thread id into a `dp4` with a NaN).
        Opcode::Ishr => src(0).small(),
        // A small integer as float bits is a denormal or 0, which D3D flushes to +0 before it
        // rounds or takes the root: +0 (the H200 folded `round_ni` of a thread id into a `dp4`
        // with a NaN, and `sqrt` of one into a `dp2`; the H100 `round_pi` of its absolute
        // value into a `mul`). Negated, it is −0.
        Opcode::RoundNe
        | Opcode::RoundNi
        | Opcode::RoundPi
        | Opcode::RoundZ
        | Opcode::Frc
        | Opcode::Sqrt => {
            srcs.first()
                .is_some_and(|s| matches!(s.modifier, dxbc::Modifier::None | dxbc::Modifier::Abs))
                && src(0).small()
        }
        // A quotient by a literal of at least 2^9, a remainder by one of at most 2^23, or
        // either of a small dividend by a nonzero literal (a zero divisor gives 0xffffffff).
        // The H200 folded `udiv` of an input by 0x3fc00000 (at most 4) into a `dp2` with a NaN.
        Opcode::Udiv => match src(1) {
            Known::Value(0) => false,
            Known::Value(d) => src(0).small() || if dst == 0 { d >= 1 << 9 } else { d <= 1 << 23 },
            _ => false,
        },
        // A field of at most 23 bits; a field of width 0 is 0 for both (the H200 folded
        // `ibfe r0.zw, l(0), l(0), tid` into a `mad` with a NaN). `ubfe` at an offset of 9 or
        // more keeps at most the 23 bits above it, whatever the width (the H100 folded `ubfe`
        // of width 26 at offset 20 into a `dp2` with a NaN).
        Opcode::Ubfe => {
            matches!(src(0), Known::Value(w) if w & 31 <= 23)
                || matches!(src(1), Known::Value(o) if o & 31 >= 9)
        }
        Opcode::Ibfe => matches!(src(0), Known::Value(w) if w & 31 == 0),
        // Of small floats (denormals or +0, which D3D flushes to +0) the least or the greatest
        // is small (the H200 folded `min r1.xzw, l(0), tid` into a `mad` with a NaN).
        Opcode::Min | Opcode::Max | Opcode::Imin | Opcode::Imax | Opcode::Umax => {
            !srcs.is_empty()
                && srcs.iter().all(|s| s.modifier == dxbc::Modifier::None)
                && (0..srcs.len()).all(|k| src(k).small())
        }
        Opcode::Mov if !inst.saturate => matches!(src(0), Known::Small(_)),
        // Integer arithmetic of values whose bound the compiler knows (literals, thread ids
        // within the group) that stays below 2^23: the H100 folded `imad r0.x, l(8),
        // vThreadIDInGroupFlattened.x, l(0)` (at most 120 in a group of 16) into a `mul` with
        // a negative value, giving +0 where D3D gives −0.
        Opcode::Imad | Opcode::Umad => below((|| b(0)?.checked_mul(b(1)?)?.checked_add(b(2)?))()),
        Opcode::Imul | Opcode::Umul if dst == 1 => below((|| b(0)?.checked_mul(b(1)?))()),
        Opcode::Iadd | Opcode::Uaddc => below((|| b(0)?.checked_add(b(1)?))()),
        Opcode::Ishl => below((|| b(0)?.checked_mul(1 << (b(1)? & 31)))()),
        _ => false,
    }
}

/// The largest value source `src` can hold in component `c` as a plain integer, where the
/// compiler knows one: a literal (or a temp holding one), or a thread id within the group.
fn bound(src: &dxbc::Operand, c: usize, cx: Cx<'_>, state: &[[Known; 4]]) -> Option<u64> {
    if src.modifier != dxbc::Modifier::None {
        return None;
    }
    let group = cx.group.map(u64::from);
    match src.ty {
        dxbc::OperandType::InputThreadIdInGroup => {
            group.get(src.source_component(c))?.checked_sub(1)
        }
        dxbc::OperandType::InputThreadIdInGroupFlattened => {
            (group[0] * group[1] * group[2]).checked_sub(1)
        }
        _ => source(src, c, cx, state).value().map(u64::from),
    }
}
