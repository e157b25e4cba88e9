//! The values of integer ops whose sources are known values: a compiler folds them, and an
//! index computed so (`and r2.x, l(0), l(3)`) names one element of an indexable temp, a
//! selector so computed one `case` (the H100 folded `ibfe` of literals into a `switch`).

use dxbc::Opcode;

use super::{Cx, Known, source};

/// Component `c` of destination `dst` of `inst`, when `inst` is a bit or integer op whose
/// every source there is a known value (plain: a modifier makes a source a computed constant
/// the pass does not evaluate). The interpreter's own rules compute it, so the pass and a run
/// agree on every value; float ops are left alone (a compiler's folding of them need not
/// flush as D3D does), but for comparisons of values that flushing does not touch.
pub(super) fn evaluate(
    inst: &dxbc::Instruction,
    dst: usize,
    c: usize,
    cx: Cx<'_>,
    state: &[[Known; 4]],
) -> Option<u32> {
    use crate::rules::{float, int};
    if inst.saturate {
        return None;
    }
    let (_, srcs) = inst.split_operands();
    let v = |k: usize| source(srcs.get(k)?, c, cx, state).value();
    // Events a rule raises (an out-of-range shift) matter to a run, not to the value.
    let ev = &mut 0;
    let pick = |(hi, lo): (u32, u32)| if dst == 0 { hi } else { lo };
    Some(match inst.opcode {
        Opcode::And => v(0)? & v(1)?,
        Opcode::Or => v(0)? | v(1)?,
        Opcode::Xor => v(0)? ^ v(1)?,
        Opcode::Not => !v(0)?,
        Opcode::Iadd => int::iadd(v(0)?, v(1)?),
        Opcode::Ineg => int::ineg(v(0)?),
        Opcode::Imad => int::imad(v(0)?, v(1)?, v(2)?),
        Opcode::Umad => int::umad(v(0)?, v(1)?, v(2)?),
        Opcode::Imul => pick(int::imul(v(0)?, v(1)?)),
        Opcode::Umul => pick(int::umul(v(0)?, v(1)?)),
        Opcode::Udiv => pick(int::udiv(v(0)?, v(1)?, ev)),
        Opcode::Uaddc => pick(int::uaddc(v(0)?, v(1)?)),
        Opcode::Usubb => pick(int::usubb(v(0)?, v(1)?)),
        Opcode::Ishl => int::ishl(v(0)?, v(1)?, ev),
        Opcode::Ushr => int::ushr(v(0)?, v(1)?, ev),
        Opcode::Ishr => int::ishr(v(0)?, v(1)?, ev),
        Opcode::Umin => int::umin(v(0)?, v(1)?),
        Opcode::Umax => int::umax(v(0)?, v(1)?),
        Opcode::Imin => int::imin(v(0)?, v(1)?),
        Opcode::Imax => int::imax(v(0)?, v(1)?),
        Opcode::Ieq => int::ieq(v(0)?, v(1)?),
        Opcode::Ine => int::ine(v(0)?, v(1)?),
        Opcode::Ilt => int::ilt(v(0)?, v(1)?),
        Opcode::Ige => int::ige(v(0)?, v(1)?),
        Opcode::Ult => int::ult(v(0)?, v(1)?),
        Opcode::Uge => int::uge(v(0)?, v(1)?),
        // Float comparisons of values that are neither denormal nor NaN: a compiler's folding
        // agrees with D3D's there, flush or not (the H100 folded `lt r0.z, l(0), l(0)`, met
        // with a `mov r0.z, l(0)`, into a `dp3` with a NaN).
        Opcode::Eq | Opcode::Ne | Opcode::Lt | Opcode::Ge => {
            let (a, b) = (v(0)?, v(1)?);
            let plain = |x: u32| {
                let e = (x >> 23) & 0xff;
                e != 0xff && (e != 0 || x & 0x7f_ffff == 0)
            };
            if !plain(a) || !plain(b) {
                return None;
            }
            let rule = match inst.opcode {
                Opcode::Eq => float::feq,
                Opcode::Ne => float::fne,
                Opcode::Lt => float::flt,
                _ => float::fge,
            };
            rule(a, b, ev)
        }
        Opcode::Countbits => int::countbits(v(0)?),
        Opcode::FirstbitHi => int::firstbit_hi(v(0)?),
        Opcode::FirstbitLo => int::firstbit_lo(v(0)?),
        Opcode::FirstbitShi => int::firstbit_shi(v(0)?),
        Opcode::Bfrev => int::bfrev(v(0)?),
        Opcode::Ubfe => int::ubfe(v(0)?, v(1)?, v(2)?, ev),
        Opcode::Ibfe => int::ibfe(v(0)?, v(1)?, v(2)?, ev),
        Opcode::Bfi => int::bfi(v(0)?, v(1)?, v(2)?, v(3)?, ev),
        _ => return None,
    })
}

/// What `inst` gives in component `c` whatever its unknown sources hold, when a known source
/// decides it: an integer product or `and` with 0 is 0, `or` with all ones is all ones, a
/// shift of 0 is 0, a bit field of 0 (or 0 inserted into 0) is 0, `imad`/`umad` with a zero factor is its addend, a float sum, product or
/// quotient with a NaN is NaN, which `_sat` makes +0, and a float product or dot product with a
/// zero factor in every term, or a quotient of a zero, is 0 to a compiler (the H100 and lavapipe folded `dp4 r0.y, l(0,
/// 0, 0, 0), v0.xxxx` into the `dp4` after it). A compiler folds each (the H100
/// folded `imad r1.x, l(0), v0, l(0)` and `add_sat r0.y, v0, l(NaN)` into a dot product with a
/// NaN or an infinity, to 0). `here` names a computed constant made here.
pub(super) fn absorbed(
    inst: &dxbc::Instruction,
    c: usize,
    cx: Cx<'_>,
    state: &[[Known; 4]],
    here: Known,
) -> Option<Known> {
    let (_, srcs) = inst.split_operands();
    let k = |i: usize| {
        srcs.get(i)
            .map_or(Known::Unknown, |s| source(s, c, cx, state))
    };
    let is = |i: usize, v: u32| k(i) == Known::Value(v);
    let either = |v: u32| is(0, v) || is(1, v);
    let nan = |i: usize| matches!(k(i), Known::Value(v) if v & 0x7fff_ffff > 0x7f80_0000);
    // A float factor known to be ±0 makes its product 0 to a compiler (which ignores NaN,
    // infinity and the sign of zero), and so a dot product all of whose terms have one.
    let zero_factor = |j: usize| {
        (0..2).any(|i| {
            matches!(
                srcs.get(i).map(|s| source(s, j, cx, state)),
                Some(Known::Value(0 | 0x8000_0000))
            )
        })
    };
    let terms = match inst.opcode {
        Opcode::Dp2 => 2,
        Opcode::Dp3 => 3,
        Opcode::Dp4 => 4,
        _ => 0,
    };
    Some(match inst.opcode {
        Opcode::And | Opcode::Umin | Opcode::Imul | Opcode::Umul if either(0) => Known::Value(0),
        Opcode::Or | Opcode::Umax if either(u32::MAX) => Known::Value(u32::MAX),
        Opcode::Ishl | Opcode::Ushr | Opcode::Ishr if is(0, 0) => Known::Value(0),
        // A field of 0 taken out of 0, or inserted into 0, is 0 whatever the width and offset
        // (the H100 folded `bfi r1.y, v0, l(0), l(0), l(0)` into a `mul` with −0 in `v0.y`).
        Opcode::Ubfe | Opcode::Ibfe if is(2, 0) => Known::Value(0),
        Opcode::Bfi if is(2, 0) && is(3, 0) => Known::Value(0),
        Opcode::Imad | Opcode::Umad if either(0) => match k(2) {
            Known::Unknown => return None,
            Known::Computed(_) => here,
            addend => addend,
        },
        Opcode::Add | Opcode::Mul | Opcode::Mad | Opcode::Div if (0..srcs.len()).any(nan) => {
            if inst.saturate { Known::Value(0) } else { here }
        }
        Opcode::Mul if zero_factor(c) => here,
        // `0 / x` is 0 to a compiler, as `0 * x` is (the H100 folded `div r0.y, l(0), v0` into
        // a `dp4` with a NaN).
        Opcode::Div if matches!(k(0), Known::Value(0 | 0x8000_0000)) => here,
        Opcode::Dp2 | Opcode::Dp3 | Opcode::Dp4 if (0..terms).all(zero_factor) => here,
        _ => return None,
    })
}
