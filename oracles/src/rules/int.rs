//! 32-bit integer, shift, bitfield and bit-count rules (FS §7.8, §22.6, §22.11, §22.12).
//! All arithmetic is full 32-bit with wrap-around; values are the raw register bits.

use crate::domain::{Domain, Events, raise};

/// `iadd` (FS §22.12, doc §2.6): wrapping 32-bit add (signedness does not matter).
pub const fn iadd(a: u32, b: u32) -> u32 {
    a.wrapping_add(b)
}

/// `ineg` (FS §22.12, doc §2.6): two's complement negate; −INT_MIN = INT_MIN.
pub const fn ineg(a: u32) -> u32 {
    a.wrapping_neg()
}

/// `imul` (FS §22.12, doc §2.6): signed 64-bit product of two i32, returned as `(hi, lo)`
/// (dest0 = hi, dest1 = lo).
pub const fn imul(a: u32, b: u32) -> (u32, u32) {
    let p = (a as i32 as i64) * (b as i32 as i64);
    ((p >> 32) as u32, p as u32)
}

/// `umul` (FS §22.12, doc §2.6): unsigned 64-bit product, returned as `(hi, lo)`.
pub const fn umul(a: u32, b: u32) -> (u32, u32) {
    let p = (a as u64) * (b as u64);
    ((p >> 32) as u32, p as u32)
}

/// `imad` (FS §22.12, doc §2.6): low 32 bits of a·b, plus c, wrapping.
pub const fn imad(a: u32, b: u32, c: u32) -> u32 {
    a.wrapping_mul(b).wrapping_add(c)
}

/// `umad` (FS §22.12, doc §2.6): identical bits to [`imad`] (the low word does not depend on
/// signedness); kept separate so each opcode has its rule.
pub const fn umad(a: u32, b: u32, c: u32) -> u32 {
    a.wrapping_mul(b).wrapping_add(c)
}

/// `udiv` (FS §22.12.9): `(quotient, remainder)`; divide by 0 → `(0xFFFFFFFF, 0xFFFFFFFF)`
/// and `UdivByZero` (WGSL's a/0 = a, a%0 = 0 differ).
pub fn udiv(a: u32, b: u32, ev: &mut Events) -> (u32, u32) {
    if b == 0 {
        raise(ev, Domain::UdivByZero);
        return (u32::MAX, u32::MAX);
    }
    (a / b, a % b)
}

/// `imin` (FS §22.12, doc §2.6): signed minimum.
pub const fn imin(a: u32, b: u32) -> u32 {
    if (a as i32) < (b as i32) { a } else { b }
}

/// `imax` (FS §22.12, doc §2.6): signed maximum.
pub const fn imax(a: u32, b: u32) -> u32 {
    if (a as i32) >= (b as i32) { a } else { b }
}

/// `umin` (FS §22.12, doc §2.6): unsigned minimum.
pub const fn umin(a: u32, b: u32) -> u32 {
    if a < b { a } else { b }
}

/// `umax` (FS §22.12, doc §2.6): unsigned maximum.
pub const fn umax(a: u32, b: u32) -> u32 {
    if a >= b { a } else { b }
}

fn shift_count(b: u32, ev: &mut Events) -> u32 {
    if b >= 32 {
        raise(ev, Domain::ShiftMasked);
    }
    b & 31
}

/// `ishl` (FS §22.11.7): a << (b & 31); `ShiftMasked` when b ≥ 32 (counts 32 and 64 act as
/// 0, 33 as 1).
pub fn ishl(a: u32, b: u32, ev: &mut Events) -> u32 {
    a << shift_count(b, ev)
}

/// `ishr` (FS §22.11.8): arithmetic a >> (b & 31); `ShiftMasked` when b ≥ 32.
pub fn ishr(a: u32, b: u32, ev: &mut Events) -> u32 {
    ((a as i32) >> shift_count(b, ev)) as u32
}

/// `ushr` (FS §22.11.12): logical a >> (b & 31); `ShiftMasked` when b ≥ 32.
pub fn ushr(a: u32, b: u32, ev: &mut Events) -> u32 {
    a >> shift_count(b, ev)
}

/// `and` (FS §22.11, doc §2.7).
pub const fn bit_and(a: u32, b: u32) -> u32 {
    a & b
}

/// `or` (FS §22.11, doc §2.7).
pub const fn bit_or(a: u32, b: u32) -> u32 {
    a | b
}

/// `xor` (FS §22.11, doc §2.7).
pub const fn bit_xor(a: u32, b: u32) -> u32 {
    a ^ b
}

/// `not` (FS §22.11, doc §2.7).
pub const fn bit_not(a: u32) -> u32 {
    !a
}

const fn mask(c: bool) -> u32 {
    if c { u32::MAX } else { 0 }
}

/// `ieq` (FS §22.6.3-6, doc §2.5): 0xFFFFFFFF if equal, else 0.
pub const fn ieq(a: u32, b: u32) -> u32 {
    mask(a == b)
}

/// `ine` (FS §22.6.3-6, doc §2.5).
pub const fn ine(a: u32, b: u32) -> u32 {
    mask(a != b)
}

/// `ilt` (FS §22.6.3-6, doc §2.5): signed <.
pub const fn ilt(a: u32, b: u32) -> u32 {
    mask((a as i32) < (b as i32))
}

/// `ige` (FS §22.6.3-6, doc §2.5): signed >=.
pub const fn ige(a: u32, b: u32) -> u32 {
    mask((a as i32) >= (b as i32))
}

/// `ult` (FS §22.6.9-10, doc §2.5): unsigned <.
pub const fn ult(a: u32, b: u32) -> u32 {
    mask(a < b)
}

/// `uge` (FS §22.6.9-10, doc §2.5): unsigned >=.
pub const fn uge(a: u32, b: u32) -> u32 {
    mask(a >= b)
}

/// `uaddc` (FS §22.12, doc §2.6): `(a + b wrapping, carry 0 or 1)`.
pub const fn uaddc(a: u32, b: u32) -> (u32, u32) {
    let (s, c) = a.overflowing_add(b);
    (s, c as u32)
}

/// `usubb` (FS §22.12, doc §2.6): `(a − b wrapping, borrow 0 or 1)`.
pub const fn usubb(a: u32, b: u32) -> (u32, u32) {
    let (d, br) = a.overflowing_sub(b);
    (d, br as u32)
}

/// `countbits` (FS §22.11, doc §2.8): population count.
pub const fn countbits(a: u32) -> u32 {
    a.count_ones()
}

/// `firstbit_hi` (FS §22.11.5): position of the highest set bit COUNTED FROM THE MSB
/// (0x80000000 → 0, 1 → 31); 0 → 0xFFFFFFFF. HLSL `firstbithigh` is `31 − this`
/// (peer `bits-82599eca.json`: firstbithigh(0x00080000) = 19 = 31 − 12).
pub const fn firstbit_hi(a: u32) -> u32 {
    if a == 0 { u32::MAX } else { a.leading_zeros() }
}

/// `firstbit_lo` (FS §22.11, doc §2.8): index of the lowest set bit from the LSB; 0 → 0xFFFFFFFF.
pub const fn firstbit_lo(a: u32) -> u32 {
    if a == 0 { u32::MAX } else { a.trailing_zeros() }
}

/// `firstbit_shi` (FS §22.11, doc §2.8): for a negative value the first 0 counted from the MSB,
/// otherwise the first 1 from the MSB; 0 and −1 → 0xFFFFFFFF (0x80000000 → 1,
/// 0x11111111 → 3; peer `bits-82599eca.json` shows HLSL's `31 − r`).
pub const fn firstbit_shi(a: u32) -> u32 {
    if a == 0 || a == u32::MAX {
        u32::MAX
    } else if a & 0x8000_0000 != 0 {
        a.leading_ones()
    } else {
        a.leading_zeros()
    }
}

fn field(width: u32, offset: u32, ev: &mut Events) -> (u32, u32) {
    if width >= 32 || offset >= 32 {
        raise(ev, Domain::BitfieldMasked);
    }
    (width & 31, offset & 31)
}

/// `ubfe` (FS §22.11.11): w = width & 31, o = offset & 31 (`BitfieldMasked` if either was
/// ≥ 32). w = 0 → 0; w + o < 32 → bits o..o+w−1 zero-extended; otherwise value >> o
/// (logical). So width 32 masks to 0 and gives 0.
pub fn ubfe(width: u32, offset: u32, value: u32, ev: &mut Events) -> u32 {
    let (w, o) = field(width, offset, ev);
    if w == 0 {
        0
    } else if w + o < 32 {
        (value << (32 - w - o)) >> (32 - w)
    } else {
        value >> o
    }
}

/// `ibfe` (FS §22.11.6): as [`ubfe`] but sign-extended from bit w−1 of the field, and the
/// w + o ≥ 32 case is an arithmetic shift right by o.
pub fn ibfe(width: u32, offset: u32, value: u32, ev: &mut Events) -> u32 {
    let (w, o) = field(width, offset, ev);
    let v = value as i32;
    if w == 0 {
        0
    } else if w + o < 32 {
        ((v << (32 - w - o)) >> (32 - w)) as u32
    } else {
        (v >> o) as u32
    }
}

/// `bfi` (FS §22.11.2): w = width & 31, o = offset & 31 (`BitfieldMasked` if either was
/// ≥ 32); mask = ((1 << w) − 1) << o truncated to 32 bits;
/// result = ((insert << o) & mask) | (base & !mask). w = 0 → base; when w + o > 32 only the
/// low 32 − o bits of `insert` land.
pub fn bfi(width: u32, offset: u32, insert: u32, base: u32, ev: &mut Events) -> u32 {
    let (w, o) = field(width, offset, ev);
    let mask = ((1u32 << w) - 1) << o;
    ((insert << o) & mask) | (base & !mask)
}

/// `bfrev` (doc §2.8): reverse the 32 bits.
pub const fn bfrev(a: u32) -> u32 {
    a.reverse_bits()
}

/// `msad` (D3D11.1 masked sum of absolute differences, doc §2.6): for each byte i of
/// `reference` that is nonzero, add `|reference.byte[i] − source.byte[i]|` to `accum`.
///
/// Choice: the spec leaves overflow undefined (saturate or wrap); this wraps. Inputs that
/// reach it are a don't-care in the harness.
pub const fn msad(reference: u32, source: u32, accum: u32) -> u32 {
    let mut acc = accum;
    let mut i = 0;
    while i < 4 {
        let r = (reference >> (8 * i)) & 0xFF;
        let s = (source >> (8 * i)) & 0xFF;
        if r != 0 {
            acc = acc.wrapping_add(r.abs_diff(s));
        }
        i += 1;
    }
    acc
}

/// `-` source modifier on an integer consumer (FS §22.18, doc §2.10): two's complement
/// negate (−INT_MIN = INT_MIN).
pub const fn ineg_modifier(a: u32) -> u32 {
    a.wrapping_neg()
}

/// `_abs` source modifier on an integer consumer.
///
/// Choice: the doc (§2.10) defines only `-` for integer sources and fxc never emits
/// `_abs` on one; this reads it as two's-complement absolute value, |INT_MIN| = INT_MIN.
pub const fn iabs_modifier(a: u32) -> u32 {
    (a as i32).wrapping_abs() as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{Domain as D, domains};

    const IMIN: u32 = 0x8000_0000;
    const IMAX: u32 = 0x7FFF_FFFF;
    const M1: u32 = u32::MAX;

    fn evs(ev: Events) -> Vec<D> {
        domains(ev).collect()
    }

    #[test]
    fn add_neg_mul_mad() {
        assert_eq!(iadd(IMAX, 1), IMIN);
        assert_eq!(iadd(M1, 1), 0);
        assert_eq!(ineg(IMIN), IMIN);
        assert_eq!(ineg(1), M1);
        assert_eq!(ineg(0), 0);
        assert_eq!(imul(M1, M1), (0, 1));
        assert_eq!(imul(IMIN, IMIN), (0x4000_0000, 0));
        assert_eq!(imul(IMIN, M1), (0, IMIN));
        assert_eq!(imul(IMAX, 2), (0, 0xFFFF_FFFE));
        assert_eq!(imul(M1, 2), (M1, 0xFFFF_FFFE));
        assert_eq!(umul(M1, M1), (0xFFFF_FFFE, 1));
        assert_eq!(umul(1 << 31, 2), (1, 0));
        assert_eq!(umul(0x1_0000, 0x1_0000), (1, 0));
        assert_eq!(imad(M1, M1, M1), 0);
        assert_eq!(imad(0x1_0000, 0x1_0000, 5), 5);
        assert_eq!(umad(3, 4, M1), 11);
    }

    #[test]
    fn udiv_edges() {
        let mut ev = 0;
        assert_eq!(udiv(7, 2, &mut ev), (3, 1));
        assert_eq!(udiv(M1, 1, &mut ev), (M1, 0));
        assert_eq!(udiv(IMIN, M1, &mut ev), (0, IMIN));
        assert_eq!(ev, 0);
        assert_eq!(udiv(0, 0, &mut ev), (M1, M1));
        assert_eq!(udiv(1, 0, &mut ev), (M1, M1));
        assert_eq!(evs(ev), vec![D::UdivByZero]);
    }

    #[test]
    fn min_max() {
        assert_eq!(imin(IMIN, IMAX), IMIN);
        assert_eq!(imax(IMIN, IMAX), IMAX);
        assert_eq!(imin(M1, 0), M1);
        assert_eq!(imax(M1, 0), 0);
        // Peer umin_umax-8569d808.json.
        assert_eq!(umin(0, M1), 0);
        assert_eq!(umax(0, M1), M1);
        assert_eq!(umin(M1, M1), M1);
        assert_eq!(umin(IMIN, IMAX), IMAX);
        assert_eq!(umax(1, 0), 1);
    }

    #[test]
    fn shifts() {
        let mut ev = 0;
        // Peer ishl-e61e59e1.json / ishr-8e9f0ef5.json / ushr-b5f19460.json.
        assert_eq!(ishl(1, 31, &mut ev), IMIN);
        assert_eq!(ishl(0x800F_EAC1, 11, &mut ev), 0x7F56_0800);
        assert_eq!(ishr(IMIN, 7, &mut ev), 0xFF00_0000);
        assert_eq!(ishr(IMIN, 31, &mut ev), M1);
        assert_eq!(ushr(IMIN, 31, &mut ev), 1);
        assert_eq!(ushr(IMIN, 11, &mut ev), 0x0010_0000);
        assert_eq!(ev, 0);
        assert_eq!(ishl(0x1234_5678, 0xFFFF_FFE0, &mut ev), 0x1234_5678);
        assert_eq!(evs(ev), vec![D::ShiftMasked]);
        let mut ev = 0;
        assert_eq!(ishl(M1, 0x21, &mut ev), 0xFFFF_FFFE);
        assert_eq!(ishl(M1, 0x42, &mut ev), 0xFFFF_FFFC);
        assert_eq!(ishr(0xFEFE_FEFE, 32, &mut ev), 0xFEFE_FEFE);
        assert_eq!(ushr(0x0F0F_0F0F, 64, &mut ev), 0x0F0F_0F0F);
        assert_eq!(ushr(M1, 33, &mut ev), IMAX);
        assert_eq!(ishr(M1, 33, &mut ev), M1);
        assert_eq!(evs(ev), vec![D::ShiftMasked]);
    }

    #[test]
    fn bitwise_and_compares() {
        // Peer not-87d5b22f.json.
        assert_eq!(bit_not(0xF0F0_F0F0), 0x0F0F_0F0F);
        assert_eq!(bit_not(bit_xor(0, M1)), 0);
        assert_eq!(bit_and(0xFF00, 0x0FF0), 0x0F00);
        assert_eq!(bit_or(0xFF00, 0x0FF0), 0xFFF0);
        assert_eq!(ieq(5, 5), M1);
        assert_eq!(ine(5, 5), 0);
        assert_eq!(ilt(IMIN, 0), M1);
        assert_eq!(ige(IMIN, 0), 0);
        assert_eq!(ige(IMAX, IMAX), M1);
        // Peer ucmp-4d2cd621.json.
        assert_eq!(uge(0, 0), M1);
        assert_eq!(ult(0, 1), M1);
        assert_eq!(ult(1, 1), 0);
        assert_eq!(ult(IMIN, 0), 0);
        assert_eq!(uge(1, 2), 0);
    }

    #[test]
    fn carry_borrow() {
        assert_eq!(uaddc(M1, 1), (0, 1));
        assert_eq!(uaddc(M1, M1), (0xFFFF_FFFE, 1));
        assert_eq!(uaddc(1, 2), (3, 0));
        assert_eq!(usubb(0, 1), (M1, 1));
        assert_eq!(usubb(5, 5), (0, 0));
        assert_eq!(usubb(IMIN, IMAX), (1, 0));
    }

    #[test]
    fn bit_counts() {
        // Peer bits-82599eca.json (firstbithigh is 31 − firstbit_hi there).
        let cases = [
            (0u32, 0u32, M1, M1, M1),
            (M1, 32, 0, 0, M1),
            (IMAX, 31, 0, 1, 1),
            (IMIN, 1, 31, 0, 1),
            (1, 1, 0, 31, 31),
            (0x8000_0001, 2, 0, 0, 1),
            (0x8888_8888, 8, 3, 0, 1),
            (0xCCCC_CCCC, 16, 2, 0, 2),
            (0x1111_1111, 8, 0, 3, 3),
            (0x0000_000F, 4, 0, 28, 28),
            (0x8000_000F, 5, 0, 0, 1),
            (0x0008_0000, 1, 19, 12, 12),
        ];
        for (x, cnt, lo, hi, shi) in cases {
            assert_eq!(countbits(x), cnt, "{x:#x}");
            assert_eq!(firstbit_lo(x), lo, "{x:#x}");
            assert_eq!(firstbit_hi(x), hi, "{x:#x}");
            assert_eq!(firstbit_shi(x), shi, "{x:#x}");
        }
        // bits-82599eca.json: int 0x11111c11 → firstbithigh 28 → raw 3.
        assert_eq!(firstbit_shi(0x1111_1C11), 3);
        assert_eq!(firstbit_shi(0xFFFF_FFFE), 31);
        assert_eq!(firstbit_hi(0x1000_0000), 3);
    }

    #[test]
    fn bitfield_extract() {
        let mut ev = 0;
        // Peer ps_ubfe2-d72eacff.json and ibfe2-1db03aad.json.
        assert_eq!(ubfe(4, 4, IMAX, &mut ev), 0xF);
        assert_eq!(ubfe(23, 8, M1, &mut ev), 0x007F_FFFF);
        assert_eq!(ubfe(30, 1, M1, &mut ev), 0x3FFF_FFFF);
        assert_eq!(ubfe(15, 15, 0xFFFF_00FF, &mut ev), 0x7FFE);
        assert_eq!(ubfe(16, 15, 0x3FFF_FFFF, &mut ev), 0x7FFF);
        assert_eq!(ubfe(20, 15, M1, &mut ev), 0x0001_FFFF);
        assert_eq!(ubfe(31, 31, IMIN, &mut ev), 1);
        assert_eq!(ubfe(31, 31, IMAX, &mut ev), 0);
        assert_eq!(ibfe(16, 15, 0x3FFF_FFFF, &mut ev), 0x7FFF);
        assert_eq!(ibfe(4, 4, 0xF0, &mut ev), M1);
        assert_eq!(ibfe(4, 4, 0x70, &mut ev), 7);
        assert_eq!(ibfe(31, 31, IMIN, &mut ev), M1);
        assert_eq!(ibfe(8, 28, IMIN, &mut ev), 0xFFFF_FFF8);
        assert_eq!(ubfe(0, 5, M1, &mut ev), 0);
        assert_eq!(ibfe(0, 5, M1, &mut ev), 0);
        assert_eq!(ev, 0);
        // Width 32 masks to 0 → 0; offset 32 masks to 0.
        assert_eq!(ubfe(32, 0, M1, &mut ev), 0);
        assert_eq!(evs(ev), vec![D::BitfieldMasked]);
        assert_eq!(ibfe(32, 0, M1, &mut ev), 0);
        assert_eq!(ubfe(8, 32, 0x1234_5678, &mut ev), 0x78);
        assert_eq!(ibfe(8, 0xFFFF_FFE0, 0x80, &mut ev), 0xFFFF_FF80);
    }

    #[test]
    fn bitfield_insert() {
        let mut ev = 0;
        // Peer bfi-cb7e841d.json / ps_bfi2-33c4dd57.json.
        assert_eq!(bfi(0, 0, 0, 0, &mut ev), 0);
        assert_eq!(bfi(0, 0, 0, 1, &mut ev), 1);
        assert_eq!(bfi(16, 16, 0xFF, 0xFF, &mut ev), 0x00FF_00FF);
        assert_eq!(bfi(0, 0, M1, M1, &mut ev), M1);
        assert_eq!(bfi(0, 0, 0xFF, 2, &mut ev), 2);
        assert_eq!(ev, 0);
        assert_eq!(bfi(M1, 0, M1, 0, &mut ev), IMAX);
        assert_eq!(bfi(M1, M1, M1, 0, &mut ev), IMIN);
        assert_eq!(bfi(M1, 31, M1, 0, &mut ev), IMIN);
        assert_eq!(bfi(M1, 0xFFFF_FFE0, M1, 0, &mut ev), IMAX);
        assert_eq!(bfi(0xFFFF_FFE0, 0, M1, 1, &mut ev), 1);
        assert_eq!(bfi(0xFFFF_FFE0, 0xFFFF_FFE0, M1, 2, &mut ev), 2);
        assert_eq!(evs(ev), vec![D::BitfieldMasked]);
        let mut ev = 0;
        // w + o > 32: only the low 32 − o bits of insert land.
        assert_eq!(bfi(8, 28, 0xAB, 0, &mut ev), 0xB000_0000);
        assert_eq!(ev, 0);
    }

    #[test]
    fn bfrev_and_msad() {
        // Peer bfrev-474bfc86.json.
        assert_eq!(bfrev(0x1234_5678), 0x1E6A_2C48);
        assert_eq!(bfrev(0xFFFF_0000), 0x0000_FFFF);
        assert_eq!(bfrev(0x5678), 0x1E6A_0000);
        assert_eq!(bfrev(1), IMIN);
        assert_eq!(msad(0x0102_0304, 0x0403_0201, 10), 10 + 3 + 1 + 1 + 3);
        assert_eq!(msad(0x0000_0000, M1, 7), 7);
        assert_eq!(msad(0xFF00_FF00, 0x0000_0000, 0), 510);
        assert_eq!(msad(0x0000_0001, 0xFF, M1), 253);
    }

    #[test]
    fn int_modifiers() {
        assert_eq!(ineg_modifier(1), M1);
        assert_eq!(ineg_modifier(IMIN), IMIN);
        assert_eq!(ineg_modifier(0), 0);
        assert_eq!(iabs_modifier(M1), 1);
        assert_eq!(iabs_modifier(IMIN), IMIN);
        assert_eq!(iabs_modifier(IMAX), IMAX);
    }
}
