//! fp32 ↔ integer and fp32 ↔ fp16 conversion rules (FS §3.2.2, §22.13).

use super::float::{SIGN, ftz, is_denorm, is_inf, is_nan};
use crate::domain::{Domain, Events, raise};

/// 2^31 as f32 bits.
const F_2P31: u32 = 0x4F00_0000;
/// 2^32 as f32 bits.
const F_2P32: u32 = 0x4F80_0000;
/// 65504 (the largest finite fp16) as f32 bits.
const F_HALF_MAX: u32 = 0x477F_E000;
/// 2^-14 (the smallest normal fp16) as f32 bits.
const F_HALF_MIN_NORMAL: u32 = 0x3880_0000;

/// `ftoi` (FS §22.13.3): round toward zero, saturate to i32. NaN → 0 (`FtoiNan`);
/// x ≥ 2^31 or +inf → 0x7FFFFFFF, x < −2^31 or −inf → 0x80000000 (`FtoiOverflow`;
/// −2^31 itself converts exactly). A denormal input gives 0 whether flushed or not, so
/// no denormal event is raised. Source modifiers are applied by the caller first.
pub fn ftoi(a: u32, ev: &mut Events) -> u32 {
    if is_nan(a) {
        raise(ev, Domain::FtoiNan);
        return 0;
    }
    let neg = a & SIGN != 0;
    let mag = a & !SIGN;
    if mag >= F_2P31 && !(neg && mag == F_2P31) {
        raise(ev, Domain::FtoiOverflow);
        return if neg { 0x8000_0000 } else { 0x7FFF_FFFF };
    }
    f32::from_bits(ftz(a)).trunc() as i32 as u32
}

/// `ftou` (FS §22.13.4): round toward zero, saturate to u32. NaN → 0 (`FtouNan`); a value
/// whose truncation is negative (x ≤ −1, −inf) → 0 (`FtouNegative`; −1 < x < 0 truncates
/// to 0 without an event); x ≥ 2^32 or +inf → 0xFFFFFFFF (`FtouOverflow`).
pub fn ftou(a: u32, ev: &mut Events) -> u32 {
    if is_nan(a) {
        raise(ev, Domain::FtouNan);
        return 0;
    }
    let x = f32::from_bits(ftz(a));
    if x <= -1.0 {
        raise(ev, Domain::FtouNegative);
        return 0;
    }
    if a & SIGN == 0 && a >= F_2P32 {
        raise(ev, Domain::FtouOverflow);
        return u32::MAX;
    }
    x.trunc() as u32
}

/// `itof` (FS §22.13.5): signed i32 → f32, round-to-nearest-even (the spec strongly
/// recommends RNE for |v| > 2^24 without requiring it). `IntToFloatInexact` when rounding
/// happened.
/// A zero result's sign is free to a translation (`interp::zero_sign`).
pub fn itof(a: u32, ev: &mut Events) -> u32 {
    let v = a as i32;
    let f = v as f32;
    if f as i64 != v as i64 {
        raise(ev, Domain::IntToFloatInexact);
    }
    f.to_bits()
}

/// `utof` (FS §22.13.6): u32 → f32, RNE; `IntToFloatInexact` when rounding happened.
pub fn utof(a: u32, ev: &mut Events) -> u32 {
    let f = a as f32;
    if f as u64 != a as u64 {
        raise(ev, Domain::IntToFloatInexact);
    }
    f.to_bits()
}

/// Convert finite, non-denormal f32 bits to fp16 bits, either truncating (`rtz`) or
/// rounding to nearest even; RNE overflows to inf, RTZ to 65504.
fn to_half(a: u32, rtz: bool) -> u32 {
    let sign = (a >> 16) & 0x8000;
    let mag = a & !SIGN;
    if mag == 0 {
        return sign;
    }
    let e = (mag >> 23) as i32 - 127 + 15;
    if e > 30 {
        return sign | if rtz { 0x7BFF } else { 0x7C00 };
    }
    let m = ((mag & 0x007F_FFFF) | 0x0080_0000) as u64;
    let (base, shift) = if e >= 1 {
        (((e - 1) as u64) << 10, 13u32)
    } else {
        (0, (13 + 1 - e).min(40) as u32)
    };
    let mut q = m >> shift;
    if !rtz {
        let rem = m & ((1u64 << shift) - 1);
        let half = 1u64 << (shift - 1);
        if rem > half || (rem == half && q & 1 == 1) {
            q += 1;
        }
    }
    // A carry out of the mantissa moves into the exponent (up to inf), as intended.
    sign | (base + q) as u32
}

/// The fp16 bits IEEE round-to-nearest-even would give for f32 bits `a` (low 16 bits;
/// overflow → ±inf, NaN → quiet half NaN, denormal f32 input flushed). Not a D3D rule:
/// used to detect `F16RoundTowardZero` and by generators aiming at rounding boundaries.
pub fn f16_round_nearest(a: u32) -> u32 {
    let a = ftz(a);
    if is_nan(a) {
        ((a >> 16) & 0x8000) | 0x7E00
    } else if is_inf(a) {
        ((a >> 16) & 0x8000) | 0x7C00
    } else {
        to_half(a, false)
    }
}

/// `f32tof16` (FS §22.13.2, §3.2.2): fp32 → fp16 in the low 16 bits, upper 16 bits 0.
/// Round toward zero; finite |x| > 65504 → ±65504 = 0x7BFF/0xFBFF (`F16Overflow`);
/// ±inf → 0x7C00/0xFC00 (`F16Inf`); NaN → 0x7E00 with the sign kept (`F16Nan`; payload
/// unspecified); fp32 denormal inputs → ±0 (`DenormInputFlushed`); fp16 denormal results
/// are produced (`F16Denorm` for any nonzero |x| < 2^-14). `F16RoundTowardZero` when the
/// result differs from [`f16_round_nearest`].
///
/// Peer `f32tof16-4a3580f3.json` pins RTZ: 1024.75 (0x44801800) → 0x6400 and
/// 0.75·2^-24 (0x33400000) → 0 (the upstream vkd3d marks those `is_todo`, because GLSL
/// packHalf2x16 rounds to nearest), 100000 → 0x7BFF, 2^-24 → 0x0001.
pub fn f32tof16(a: u32, ev: &mut Events) -> u32 {
    let sign = (a >> 16) & 0x8000;
    if is_nan(a) {
        raise(ev, Domain::F16Nan);
        return sign | 0x7E00;
    }
    if is_inf(a) {
        raise(ev, Domain::F16Inf);
        return sign | 0x7C00;
    }
    if is_denorm(a) {
        raise(ev, Domain::DenormInputFlushed);
    }
    let a = ftz(a);
    let mag = a & !SIGN;
    if mag > F_HALF_MAX {
        raise(ev, Domain::F16Overflow);
    }
    if mag != 0 && mag < F_HALF_MIN_NORMAL {
        raise(ev, Domain::F16Denorm);
    }
    let r = to_half(a, true);
    if r != f16_round_nearest(a) {
        raise(ev, Domain::F16RoundTowardZero);
    }
    // WGSL's pack2x16float may drop a zero's sign: the H200 packs -0 as 0x0000.
    if r == 0x8000 {
        raise(ev, Domain::SignedZero);
    }
    if mag <= F_HALF_MAX && f16tof32(r, &mut 0) != a {
        raise(ev, Domain::F16Inexact);
    }
    r
}

/// `f16tof32` (FS §22.13.1): converts the LOW 16 bits (the upper 16 are ignored), exactly.
/// fp16 denormals become normal fp32 values (`F16Denorm`); ±inf stays ±inf (`F16Inf`);
/// a half NaN becomes an f32 NaN with its sign and payload shifted up (`F16Nan`).
pub fn f16tof32(a: u32, ev: &mut Events) -> u32 {
    let sign = (a & 0x8000) << 16;
    let exp = (a >> 10) & 0x1F;
    let man = a & 0x3FF;
    match (exp, man) {
        (0, 0) => {
            if sign != 0 {
                raise(ev, Domain::SignedZero);
            }
            sign
        }
        (0, _) => {
            raise(ev, Domain::F16Denorm);
            sign | (man as f32 * f32::from_bits(0x3380_0000)).to_bits()
        }
        (0x1F, 0) => {
            raise(ev, Domain::F16Inf);
            sign | 0x7F80_0000
        }
        (0x1F, _) => {
            raise(ev, Domain::F16Nan);
            if man & 0x200 == 0 {
                raise(ev, Domain::F16Snan);
            }
            sign | 0x7F80_0000 | (man << 13)
        }
        _ => sign | ((exp + 127 - 15) << 23) | (man << 13),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{Domain as D, domains};

    fn run(g: fn(u32, &mut Events) -> u32, a: u32) -> (u32, Vec<D>) {
        let mut ev = 0;
        let r = g(a, &mut ev);
        (r, domains(ev).collect())
    }
    fn f(x: f32) -> u32 {
        x.to_bits()
    }

    const QNAN: u32 = 0x7FC0_0000;
    const SNAN: u32 = 0x7F80_0001;
    const NQNAN: u32 = 0xFFC0_0000;
    const INF: u32 = 0x7F80_0000;
    const NINF: u32 = 0xFF80_0000;
    const MAX: u32 = 0x7F7F_FFFF;

    #[test]
    fn ftoi_edges() {
        for n in [QNAN, SNAN, NQNAN, 0xFFBF_FFFF] {
            assert_eq!(run(ftoi, n), (0, vec![D::FtoiNan]));
        }
        assert_eq!(run(ftoi, INF), (0x7FFF_FFFF, vec![D::FtoiOverflow]));
        assert_eq!(run(ftoi, NINF), (0x8000_0000, vec![D::FtoiOverflow]));
        assert_eq!(run(ftoi, MAX).0, 0x7FFF_FFFF);
        assert_eq!(
            run(ftoi, f(2147483648.0)),
            (0x7FFF_FFFF, vec![D::FtoiOverflow])
        );
        assert_eq!(run(ftoi, 0x4EFF_FFFF), (0x7FFF_FF80, vec![]));
        assert_eq!(run(ftoi, f(-2147483648.0)), (0x8000_0000, vec![]));
        assert_eq!(run(ftoi, 0xCF00_0001), (0x8000_0000, vec![D::FtoiOverflow]));
        assert_eq!(run(ftoi, f(4294967296.0)).0, 0x7FFF_FFFF);
        assert_eq!(run(ftoi, f(-1.9)).0, (-1i32) as u32);
        assert_eq!(run(ftoi, f(1.9)).0, 1);
        assert_eq!(run(ftoi, f(-0.5)).0, 0);
        assert_eq!(run(ftoi, 0x8000_0000).0, 0);
        assert_eq!(run(ftoi, 0x807F_FFFF), (0, vec![]));
        assert_eq!(run(ftoi, 0x0000_0001).0, 0);
        assert_eq!(run(ftoi, f(16777217.0)).0, 16777216);
        assert_eq!(run(ftoi, f(65504.0)).0, 65504);
    }

    #[test]
    fn ftou_edges() {
        // Peer ftou-95ee1d6b.json / ps_ftou-a73de0a1.json: NaN (either sign) → 0,
        // −inf → 0, +inf → ~0, −1 → 0, 1 → 1.
        assert_eq!(run(ftou, 0xFFC0_0000), (0, vec![D::FtouNan]));
        assert_eq!(run(ftou, QNAN), (0, vec![D::FtouNan]));
        assert_eq!(run(ftou, SNAN).0, 0);
        assert_eq!(run(ftou, NINF), (0, vec![D::FtouNegative]));
        assert_eq!(run(ftou, INF), (u32::MAX, vec![D::FtouOverflow]));
        assert_eq!(run(ftou, f(-1.0)), (0, vec![D::FtouNegative]));
        assert_eq!(run(ftou, f(1.0)), (1, vec![]));
        assert_eq!(run(ftou, f(-0.99)), (0, vec![]));
        assert_eq!(run(ftou, 0x8000_0000).0, 0);
        assert_eq!(run(ftou, 0x807F_FFFF).0, 0);
        assert_eq!(
            run(ftou, f(4294967296.0)),
            (u32::MAX, vec![D::FtouOverflow])
        );
        assert_eq!(run(ftou, 0x4F7F_FFFF), (0xFFFF_FF00, vec![]));
        assert_eq!(run(ftou, f(2147483648.0)).0, 0x8000_0000);
        assert_eq!(run(ftou, MAX).0, u32::MAX);
        assert_eq!(run(ftou, f(-2147483648.0)).0, 0);
        assert_eq!(run(ftou, f(3.99)).0, 3);
    }

    #[test]
    fn itof_utof_edges() {
        assert_eq!(run(itof, 0), (0, vec![]));
        assert_eq!(run(itof, u32::MAX).0, f(-1.0));
        assert_eq!(run(itof, 0x8000_0000), (f(-2147483648.0), vec![]));
        assert_eq!(
            run(itof, 0x7FFF_FFFF),
            (f(2147483648.0), vec![D::IntToFloatInexact])
        );
        assert_eq!(run(itof, 16777216), (f(16777216.0), vec![]));
        assert_eq!(
            run(itof, 16777217),
            (f(16777216.0), vec![D::IntToFloatInexact])
        );
        assert_eq!(run(itof, 16777219).0, f(16777220.0));
        assert_eq!(
            run(utof, u32::MAX),
            (f(4294967296.0), vec![D::IntToFloatInexact])
        );
        assert_eq!(run(utof, 0x8000_0000), (f(2147483648.0), vec![]));
        assert_eq!(run(utof, 16777217).0, f(16777216.0));
        assert_eq!(run(utof, 16777218), (f(16777218.0), vec![]));
        assert_eq!(run(utof, 0).0, 0);
    }

    #[test]
    fn f32tof16_peer_cases() {
        // Peer f32tof16-4a3580f3.json, every run.
        let table: [(u32, u32); 30] = [
            (0x0000_0000, 0x0000),
            (0x3F80_0000, 0x3C00),
            (0xBF80_0000, 0xBC00),
            (0x4426_8000, 0x6134),
            (0x3380_0000, 0x0001),
            (0x3400_0000, 0x0002),
            (0x3440_0000, 0x0003),
            (0x3480_0000, 0x0004),
            (0xB380_0000, 0x8001),
            (0xB480_0000, 0x8004),
            (0x4480_0000, 0x6400),
            (0x4480_6000, 0x6403),
            (0x4500_2000, 0x6801),
            (0xC480_2000, 0xE401),
            (0xC500_6000, 0xE803),
            (0x4480_1800, 0x6400),
            (0x4480_3800, 0x6401),
            (0x4480_7800, 0x6403),
            (0x4500_1C00, 0x6800),
            (0x4500_7C00, 0x6803),
            (0xC480_1800, 0xE400),
            (0xC500_5C00, 0xE802),
            (0x3340_0000, 0x0000),
            (0xB340_0000, 0x8000),
            (0x33E0_0000, 0x0001),
            (0xB3E0_0000, 0x8001),
            (0x7F80_0000, 0x7C00),
            (0xFF80_0000, 0xFC00),
            (0x47C3_5000, 0x7BFF),
            (0xC7C3_5000, 0xFBFF),
        ];
        for (x, h) in table {
            let mut ev = 0;
            assert_eq!(f32tof16(x, &mut ev), h, "{x:#010x}");
        }
    }

    #[test]
    fn f32tof16_edges_and_events() {
        assert_eq!(run(f32tof16, f(65504.0)), (0x7BFF, vec![]));
        assert_eq!(
            run(f32tof16, f(65520.0)),
            (0x7BFF, vec![D::F16Overflow, D::F16RoundTowardZero])
        );
        assert_eq!(run(f32tof16, f(65505.0)), (0x7BFF, vec![D::F16Overflow]));
        assert_eq!(run(f32tof16, MAX).0, 0x7BFF);
        assert_eq!(run(f32tof16, f(-65536.0)).0, 0xFBFF);
        assert_eq!(run(f32tof16, INF), (0x7C00, vec![D::F16Inf]));
        assert_eq!(run(f32tof16, QNAN), (0x7E00, vec![D::F16Nan]));
        assert_eq!(run(f32tof16, SNAN).0, 0x7E00);
        assert_eq!(run(f32tof16, NQNAN).0, 0xFE00);
        assert_eq!(run(f32tof16, 0x8000_0000), (0x8000, vec![D::SignedZero]));
        assert_eq!(run(f16tof32, 0x8000), (0x8000_0000, vec![D::SignedZero]));
        // -26.000004 rounds to -26 either way, but it is no binary16 value.
        assert_eq!(run(f32tof16, 0xC1D0_0002), (0xCE80, vec![D::F16Inexact]));
        assert_eq!(run(f32tof16, f(-26.0)), (0xCE80, vec![]));
        assert_eq!(run(f16tof32, 0), (0, vec![]));
        assert_eq!(run(f32tof16, 0x0000_0001), (0, vec![D::DenormInputFlushed]));
        assert_eq!(run(f32tof16, 0x807F_FFFF).0, 0x8000);
        assert_eq!(run(f32tof16, 0x3380_0000), (0x0001, vec![D::F16Denorm]));
        assert_eq!(
            run(f32tof16, 0x3340_0000),
            (0, vec![D::F16Denorm, D::F16RoundTowardZero, D::F16Inexact])
        );
        // 3.05e-5 → 0x0200 (doc §2.9, VKH:f32tof16): 2^-15 exactly.
        assert_eq!(run(f32tof16, f(2f32.powi(-15))).0, 0x0200);
        assert_eq!(run(f32tof16, F_HALF_MIN_NORMAL), (0x0400, vec![]));
        assert_eq!(run(f32tof16, f(16777216.0)).0, 0x7BFF);
        assert_eq!(
            run(f32tof16, f(1.0 + 2f32.powi(-11))),
            (0x3C00, vec![D::F16Inexact])
        );
        assert_eq!(
            run(f32tof16, f(1.0 + 3.0 * 2f32.powi(-11))),
            (0x3C01, vec![D::F16RoundTowardZero, D::F16Inexact])
        );
        assert_eq!(f16_round_nearest(f(65520.0)), 0x7C00);
        assert_eq!(f16_round_nearest(f(65519.0)), 0x7BFF);
        assert_eq!(f16_round_nearest(f(1.0 + 3.0 * 2f32.powi(-11))), 0x3C02);
        assert_eq!(f16_round_nearest(0x3340_0000), 0x0001);
        assert_eq!(f16_round_nearest(0x3300_0000), 0x0000);
        assert_eq!(f16_round_nearest(0x1000_0000), 0x0000);
        assert_eq!(f16_round_nearest(0x387F_F000), 0x0400);
    }

    #[test]
    fn f16tof32_edges() {
        // Peer f16tof32-962f7a4e.json: upper 16 bits ignored; 0x3C00 → 1.0 etc.
        for hi in [0u32, 0x0001_0000, 0x000F_0000, 0xFFFF_0000] {
            let mut ev = 0;
            assert_eq!(f16tof32(hi, &mut ev), 0);
            assert_eq!(f16tof32(hi | 0x3C00, &mut ev), f(1.0));
            assert_eq!(f16tof32(hi | 0x5640, &mut ev), f(100.0));
            assert_eq!(f16tof32(hi | 0x5BD0, &mut ev), f(250.0));
            assert_eq!(ev, 0);
        }
        assert_eq!(run(f16tof32, 0x8000).0, 0x8000_0000);
        assert_eq!(run(f16tof32, 0x7BFF).0, f(65504.0));
        assert_eq!(run(f16tof32, 0xFBFF).0, f(-65504.0));
        assert_eq!(
            run(f16tof32, 0x0001),
            (f(2f32.powi(-24)), vec![D::F16Denorm])
        );
        assert_eq!(run(f16tof32, 0x8001).0, f(-(2f32.powi(-24))));
        assert_eq!(run(f16tof32, 0x03FF).0, f(1023.0 * 2f32.powi(-24)));
        assert_eq!(run(f16tof32, 0x0400).0, f(2f32.powi(-14)));
        assert_eq!(run(f16tof32, 0x7C00), (INF, vec![D::F16Inf]));
        assert_eq!(run(f16tof32, 0xFC00).0, NINF);
        assert_eq!(run(f16tof32, 0x7E00), (QNAN, vec![D::F16Nan]));
        assert_eq!(
            run(f16tof32, 0xFD00),
            (0xFFA0_0000, vec![D::F16Nan, D::F16Snan])
        );
        assert_eq!(run(f16tof32, 0xFFFF_3C00).0, f(1.0));
    }

    #[test]
    fn f16_round_trip_is_identity_for_finite_halves() {
        for h in 0u32..0x1_0000 {
            if (h >> 10) & 0x1F == 0x1F {
                continue;
            }
            let mut ev = 0;
            let x = f16tof32(h, &mut ev);
            assert_eq!(f32tof16(x, &mut ev), h, "{h:#06x}");
            assert_eq!(f16_round_nearest(x), h);
        }
    }
}
