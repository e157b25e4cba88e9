//! fp32 arithmetic, rounding, comparison and modifier rules (FS §3.1.3, §22.6, §22.10).
//!
//! Host `f32` arithmetic is IEEE 754 binary32 with round-to-nearest-even and denormals
//! kept, so each rule flushes its inputs, runs one host operation (one rounding) and
//! flushes the output. Every NaN result is the canonical [`QNAN`]: D3D does not define
//! NaN payloads (doc §1.1), and a fixed pattern keeps the reference independent of the
//! host's NaN propagation; comparisons of float results must treat all NaNs as equal.

pub use super::bits::{ONE, QNAN, SIGN, flush_in, ftz, is_denorm, is_inf, is_nan, is_normal};
use super::fusion::fusion_check;
use crate::domain::{Domain, Events, raise};

/// Flushed inputs as host floats, plus whether any was NaN or infinite.
pub(crate) fn read<const N: usize>(xs: [u32; N], ev: &mut Events) -> ([f32; N], bool, bool) {
    let mut out = [0f32; N];
    let (mut nan, mut inf) = (false, false);
    for (o, &x) in out.iter_mut().zip(xs.iter()) {
        nan |= is_nan(x);
        inf |= is_inf(x);
        *o = f32::from_bits(flush_in(x, ev));
    }
    (out, nan, inf)
}

/// Turn a once-rounded host result into register bits: NaN → [`QNAN`] (raising
/// `NanProduced` unless an input was NaN), a new infinity raises `InfProduced`, a denormal
/// is flushed to a same-signed zero (`DenormOutputFlushed`) and a −0 result raises
/// `SignedZero`. The flush looks at the rounded result (tininess after rounding).
pub(crate) fn finish(r: f32, nan_in: bool, inf_in: bool, ev: &mut Events) -> u32 {
    if r.is_nan() {
        if !nan_in {
            raise(ev, Domain::NanProduced);
        }
        return QNAN;
    }
    let mut bits = r.to_bits();
    if is_inf(bits) && !inf_in {
        raise(ev, Domain::InfProduced);
    }
    if is_denorm(bits) {
        raise(ev, Domain::DenormOutputFlushed);
        bits = ftz(bits);
    }
    if bits == SIGN {
        raise(ev, Domain::SignedZero);
    }
    bits
}

/// `add` (FS §22.10.1): a + b, correctly rounded (RNE), denormals flushed in and out.
/// −inf + +inf = NaN; −0 + +0 = +0; x + (−x) = +0.
pub fn fadd(a: u32, b: u32, ev: &mut Events) -> u32 {
    let ([a, b], nan, inf) = read([a, b], ev);
    tiny_before_rounding(f64::from(a) + f64::from(b), a + b, ev);
    if cancels(a, b) {
        raise(ev, Domain::Cancellation);
    }
    finish(a + b, nan, inf, ev)
}

/// Whether `a + b` loses ten or more leading bits: the sum is below 2^-10 of the larger
/// operand. An error an operand carries (an approximate op within its band) then grows by that
/// factor relative to the sum.
pub fn cancels(a: f32, b: f32) -> bool {
    let m = a.abs().max(b.abs());
    let r = (a + b).abs();
    m.is_finite() && m > 0.0 && r < m * (1.0 / 1024.0)
}

/// Raise `TinyBeforeRounding` when the exact result (an f32 sum or product is exact in f64) is
/// below the smallest normal but the rounded one is not.
fn tiny_before_rounding(exact: f64, rounded: f32, ev: &mut Events) {
    const MIN_NORMAL: f64 = 1.175_494_350_822_287_5e-38;
    if exact != 0.0 && exact.abs() < MIN_NORMAL && rounded.abs() >= f32::MIN_POSITIVE {
        raise(ev, Domain::TinyBeforeRounding);
    }
}

/// `mul` (FS §22.10.12): a · b, RNE, flushed in and out. ±inf · ±0 (and ·den) = NaN;
/// the sign rule applies to zeros.
pub fn fmul(a: u32, b: u32, ev: &mut Events) -> u32 {
    let ([a, b], nan, inf) = read([a, b], ev);
    tiny_before_rounding(f64::from(a) * f64::from(b), a * b, ev);
    finish(a * b, nan, inf, ev)
}

/// `mad` (FS §22.10.9, §3.1.3.2): a · b + c, evaluated UNFUSED: the product is rounded
/// (RNE) and flushed, then the sum is rounded and flushed.
///
/// Choice: D3D allows fused or unfused evaluation and bounds both by "the worst serial
/// ordering of the unfused steps". The unfused form is that reference ordering, it is what
/// fxc's source `a*b + c` means, and its NaN/inf behaviour (e.g. an overflowing product)
/// is the one the spec describes; the fused alternative is covered by
/// [`error_band`](super::transcendental::error_band) (`Band::TermScaled`).
pub fn fmad(a: u32, b: u32, c: u32, ev: &mut Events) -> u32 {
    let p = fmul(a, b, ev);
    let r = fadd(p, c, ev);
    fusion_check(&[(a, b), (c, ONE_BITS)], r, ev);
    r
}

const ONE_BITS: u32 = 0x3f80_0000;

/// `div` (FS §22.10.2): a / b, computed as a correctly rounded quotient with flushes.
/// ±F/±0 = ±inf, 0/0 = NaN, inf/inf = NaN, F/inf = ±0. Raises `DivisorOutOfRange` when the
/// flushed |b| is outside [2^-126, 2^126].
///
/// Choice: D3D also allows x·(1/y) (≈2.5 ULP), which for |b| > 2^126 can flush 1/y and
/// turn inf/b into NaN; the reference uses the exact quotient and the harness applies
/// `error_band(Div)` plus the events (`DivisorHuge`, D3D's own latitude, for a finite |b|
/// above 2^126).
pub fn fdiv(a: u32, b: u32, ev: &mut Events) -> u32 {
    let bf = ftz(b) & !SIGN;
    if !is_nan(b) && !(0x0080_0000..=0x7E80_0000).contains(&bf) {
        raise(ev, Domain::DivisorOutOfRange);
        if (0x7E80_0001..0x7F80_0000).contains(&bf) {
            raise(ev, Domain::DivisorHuge);
        }
    }
    let ([a, b], nan, inf) = read([a, b], ev);
    finish(a / b, nan, inf, ev)
}

fn min_max(a: u32, b: u32, want_max: bool, ev: &mut Events) -> u32 {
    let fa = flush_in(a, ev);
    let fb = flush_in(b, ev);
    match (is_nan(fa), is_nan(fb)) {
        (true, true) => {
            raise(ev, Domain::MinMaxNan);
            return QNAN;
        }
        (true, false) => {
            raise(ev, Domain::MinMaxNan);
            return fb;
        }
        (false, true) => {
            raise(ev, Domain::MinMaxNan);
            return fa;
        }
        (false, false) => {}
    }
    if fa & !SIGN == 0 && fb & !SIGN == 0 && fa != fb {
        raise(ev, Domain::SignedZero);
        return if want_max { 0 } else { SIGN };
    }
    let (x, y) = (f32::from_bits(fa), f32::from_bits(fb));
    let r = if want_max {
        if x >= y { fa } else { fb }
    } else if x < y {
        fa
    } else {
        fb
    };
    if r == SIGN {
        raise(ev, Domain::SignedZero);
    }
    r
}

/// `min` (FS §22.10.11): `a < b ? a : b` after flushing both. Exactly one NaN → the other
/// operand; both NaN → NaN (`MinMaxNan`).
///
/// Choices: the returned value is the *flushed* operand (the spec allows either); for
/// +0 vs −0 the recommended −0 is returned regardless of operand order.
pub fn fmin(a: u32, b: u32, ev: &mut Events) -> u32 {
    min_max(a, b, false, ev)
}

/// `max` (FS §22.10.10): `a >= b ? a : b` after flushing both; NaN rules as [`fmin`].
/// Choices as [`fmin`]; for +0 vs −0 the recommended +0 is returned.
pub fn fmax(a: u32, b: u32, ev: &mut Events) -> u32 {
    min_max(a, b, true, ev)
}

/// `frc` (FS §22.10.7): x − round_ni(x), in [+0, 1). ±0, ±den → +0; ±inf, NaN → NaN.
/// A tiny negative x whose exact result rounds to 1.0 returns 0x3F7FFFFF, the largest
/// value below 1 (doc §2.2 asks the reference to clamp there). A zero result's sign is free to
/// a translation (`interp::zero_sign`).
pub fn frc(a: u32, ev: &mut Events) -> u32 {
    let ([x], nan, inf) = read([a], ev);
    let r = x - x.floor();
    if r >= 1.0 {
        return 0x3F7F_FFFF;
    }
    finish(r, nan, inf, ev)
}

fn round_with(a: u32, f: fn(f32) -> f32, ev: &mut Events) -> u32 {
    let ([x], nan, inf) = read([a], ev);
    finish(f(x), nan, inf, ev)
}

/// `round_ne` (FS §22.10.14): to nearest integral, ties to even; ±inf kept, ±den → ±0,
/// NaN → NaN; −0.5 → −0.
pub fn round_ne(a: u32, ev: &mut Events) -> u32 {
    round_with(a, f32::round_ties_even, ev)
}

/// `round_ni` (FS §22.10.15): floor; −den → −0 (flushed first, never −1).
pub fn round_ni(a: u32, ev: &mut Events) -> u32 {
    round_with(a, f32::floor, ev)
}

/// `round_pi` (FS §22.10.16): ceil; +den → +0 (flushed first, never 1).
///
/// Choice: ceil(−0.5) = −0 (IEEE). The peer case `round-5b118f18.json` shows +0 from a
/// driver, compared under `ulp` (which equates ±0), so the sign is not pinned; `SignedZero`
/// is raised.
pub fn round_pi(a: u32, ev: &mut Events) -> u32 {
    round_with(a, f32::ceil, ev)
}

/// `round_z` (FS §22.10.17): toward zero; −0.5 → −0.
pub fn round_z(a: u32, ev: &mut Events) -> u32 {
    round_with(a, f32::trunc, ev)
}

fn compare(a: u32, b: u32, f: fn(f32, f32) -> bool, ev: &mut Events) -> u32 {
    let x = f32::from_bits(flush_in(a, ev));
    let y = f32::from_bits(flush_in(b, ev));
    if f(x, y) { u32::MAX } else { 0 }
}

/// `eq` (FS §22.6.1): ordered ==, after flushing; +0 == −0; NaN → 0. Result 0xFFFFFFFF/0.
pub fn feq(a: u32, b: u32, ev: &mut Events) -> u32 {
    compare(a, b, |x, y| x == y, ev)
}

/// `ne` (FS §22.6.8): UNordered !=, after flushing; NaN on either side → 0xFFFFFFFF.
pub fn fne(a: u32, b: u32, ev: &mut Events) -> u32 {
    compare(a, b, |x, y| x != y, ev)
}

/// `lt` (FS §22.6.7): ordered <, after flushing; NaN → 0.
pub fn flt(a: u32, b: u32, ev: &mut Events) -> u32 {
    compare(a, b, |x, y| x < y, ev)
}

/// `ge` (FS §22.6.2): ordered >=, after flushing; NaN → 0.
pub fn fge(a: u32, b: u32, ev: &mut Events) -> u32 {
    compare(a, b, |x, y| x >= y, ev)
}

/// `_sat` (FS §22.19.1): min(1, max(0, x)) with the D3D min/max rules, so NaN → +0,
/// +inf → 1, −inf → 0, −0 → +0, a denormal → +0.
pub fn saturate(x: u32) -> u32 {
    saturate_ev(x, &mut 0)
}

/// [`saturate`] of an instruction's result, with the domains its input enters: a NaN
/// (`NanInput`: WGSL's clamp of a NaN is indeterminate) and a denormal (`DenormInputFlushed`:
/// D3D flushes it to +0, WGSL may keep it). Bit movers (`movc_sat`) raise nothing else, so
/// this is where their saturation's latitude is named.
pub fn saturate_ev(x: u32, ev: &mut Events) -> u32 {
    if is_nan(x) {
        raise(ev, Domain::NanInput);
        return 0;
    }
    if is_denorm(x) {
        raise(ev, Domain::DenormInputFlushed);
    }
    let f = f32::from_bits(ftz(x));
    if f <= 0.0 {
        0
    } else if f >= 1.0 {
        ONE
    } else {
        x
    }
}

fn dot<const N: usize>(a: [u32; N], b: [u32; N], ev: &mut Events) -> u32 {
    let mut acc = fmul(a[0], b[0], ev);
    for i in 1..N {
        let p = fmul(a[i], b[i], ev);
        acc = fadd(acc, p, ev);
    }
    let terms: [(u32, u32); N] = std::array::from_fn(|i| (a[i], b[i]));
    fusion_check(&terms, acc, ev);
    acc
}

/// `dp2` (FS §22.10.3): a.x·b.x + a.y·b.y.
///
/// Choice (all dp*): unfused, each product rounded and flushed, then summed left to right
/// `((p0 + p1) + p2) + p3`, each sum rounded and flushed. D3D allows any fused or
/// reordered evaluation within the worst serial ordering (FS §3.1.3.2); the harness
/// tolerance `error_band(Dp*)` covers the others.
pub fn dp2(a: [u32; 2], b: [u32; 2], ev: &mut Events) -> u32 {
    dot(a, b, ev)
}

/// `dp3` (FS §22.10.4): `(a.x·b.x + a.y·b.y) + a.z·b.z`; order as [`dp2`].
pub fn dp3(a: [u32; 3], b: [u32; 3], ev: &mut Events) -> u32 {
    dot(a, b, ev)
}

/// `dp4` (FS §22.10.5): `((a.x·b.x + a.y·b.y) + a.z·b.z) + a.w·b.w`; order as [`dp2`].
pub fn dp4(a: [u32; 4], b: [u32; 4], ev: &mut Events) -> u32 {
    dot(a, b, ev)
}

/// `-` source modifier on a float consumer (FS §22.18): flips the sign bit, inf and NaN
/// included. A pure bit operation: no flush (the consuming op flushes its input).
pub const fn fneg_modifier(x: u32) -> u32 {
    x ^ SIGN
}

/// `_abs` source modifier on a float consumer (FS §22.18): clears the sign bit. `-x_abs`
/// is `fneg_modifier(fabs_modifier(x))`, which forces the sign negative.
pub const fn fabs_modifier(x: u32) -> u32 {
    x & !SIGN
}

#[cfg(test)]
mod tests {
    #[test]
    fn tininess_before_rounding_is_an_event() {
        let mut ev = 0;
        // -(1 - 2^-24) * 2^-126 is a tie between the largest denormal and -2^-126; it rounds to
        // the (even) normal, which hardware testing tininess before rounding flushes to -0.
        assert_eq!(fmul(0xbf7f_ffff, 0x0080_0000, &mut ev), 0x8080_0000);
        assert!(ev & Domain::TinyBeforeRounding.bit() != 0);
        let mut ev = 0;
        assert_eq!(fmul(0x3f80_0000, 0x0080_0000, &mut ev), 0x0080_0000);
        assert_eq!(ev & Domain::TinyBeforeRounding.bit(), 0);
    }

    use super::*;
    use crate::domain::{Domain as D, domains};

    pub(crate) const DEN_MIN: u32 = 0x0000_0001;
    pub(crate) const DEN_MAX: u32 = 0x007F_FFFF;
    pub(crate) const NDEN_MIN: u32 = 0x8000_0001;
    pub(crate) const NDEN_MAX: u32 = 0x807F_FFFF;
    const SNAN: u32 = 0x7F80_0001;
    const NQNAN: u32 = 0xFFC0_0000;
    const NSNAN: u32 = 0xFFBF_FFFF;
    const INF: u32 = 0x7F80_0000;
    const NINF: u32 = 0xFF80_0000;
    const MAX: u32 = 0x7F7F_FFFF;
    const NZERO: u32 = SIGN;
    const TWO: u32 = 0x4000_0000;
    const HALF: u32 = 0x3F00_0000;
    const NHALF: u32 = 0xBF00_0000;
    const NONE: u32 = 0xBF80_0000;

    fn f(x: f32) -> u32 {
        x.to_bits()
    }

    fn run1(g: fn(u32, &mut Events) -> u32, a: u32) -> (u32, Vec<D>) {
        let mut ev = 0;
        let r = g(a, &mut ev);
        (r, domains(ev).collect())
    }

    fn run2(g: fn(u32, u32, &mut Events) -> u32, a: u32, b: u32) -> (u32, Vec<D>) {
        let mut ev = 0;
        let r = g(a, b, &mut ev);
        (r, domains(ev).collect())
    }

    #[test]
    fn predicates_and_ftz() {
        for n in [QNAN, SNAN, NQNAN, NSNAN] {
            assert!(is_nan(n) && !is_inf(n) && !is_denorm(n));
        }
        assert!(is_inf(INF) && is_inf(NINF) && !is_nan(INF));
        for d in [DEN_MIN, DEN_MAX, NDEN_MIN, NDEN_MAX] {
            assert!(is_denorm(d));
        }
        assert!(!is_denorm(0) && !is_denorm(NZERO) && !is_denorm(0x0080_0000));
        assert_eq!(ftz(DEN_MIN), 0);
        assert_eq!(ftz(DEN_MAX), 0);
        assert_eq!(ftz(NDEN_MIN), NZERO);
        assert_eq!(ftz(NDEN_MAX), NZERO);
        assert_eq!(ftz(0x0080_0000), 0x0080_0000);
        for x in [0, NZERO, INF, NINF, QNAN, SNAN, NSNAN, MAX, ONE] {
            assert_eq!(ftz(x), x);
        }
    }

    #[test]
    fn flush_in_events() {
        assert_eq!(
            run1(flush_in, NDEN_MAX),
            (NZERO, vec![D::DenormInputFlushed])
        );
        assert_eq!(run1(flush_in, SNAN), (SNAN, vec![D::NanInput]));
        assert_eq!(run1(flush_in, NINF), (NINF, vec![D::InfInput]));
        assert_eq!(run1(flush_in, ONE), (ONE, vec![]));
        assert_eq!(run1(flush_in, NZERO), (NZERO, vec![]));
    }

    #[test]
    fn add_edges() {
        assert_eq!(run2(fadd, ONE, ONE), (TWO, vec![]));
        assert_eq!(
            run2(fadd, INF, NINF),
            (QNAN, vec![D::NanProduced, D::InfInput])
        );
        assert_eq!(run2(fadd, INF, ONE).0, INF);
        assert_eq!(run2(fadd, SNAN, ONE), (QNAN, vec![D::NanInput]));
        assert_eq!(run2(fadd, ONE, NSNAN).0, QNAN);
        assert_eq!(run2(fadd, NZERO, 0), (0, vec![]));
        assert_eq!(run2(fadd, NZERO, NZERO), (NZERO, vec![D::SignedZero]));
        // −den + −den = −0 (doc §2.1), and a denormal sum is flushed.
        assert_eq!(
            run2(fadd, NDEN_MIN, NDEN_MIN),
            (NZERO, vec![D::DenormInputFlushed, D::SignedZero])
        );
        assert_eq!(run2(fadd, DEN_MAX, ONE), (ONE, vec![D::DenormInputFlushed]));
        // Two normals whose difference is denormal: flushed output.
        assert_eq!(
            run2(fadd, 0x0080_0001, 0x8080_0000),
            (0, vec![D::DenormOutputFlushed, D::Cancellation])
        );
        // Ten or more leading bits cancelling is an event; fewer is not.
        assert_eq!(run2(fadd, ONE, f(-0.9995)).1, vec![D::Cancellation]);
        assert_eq!(run2(fadd, ONE, f(-0.99)).1, vec![]);
        assert_eq!(run2(fadd, MAX, MAX), (INF, vec![D::InfProduced]));
        assert_eq!(run2(fadd, ONE, NONE).0, 0);
        // RNE: 2^24 + 1 is a tie → stays 2^24; 2^24 + 3 → 2^24 + 4.
        assert_eq!(run2(fadd, f(16777216.0), ONE).0, f(16777216.0));
        assert_eq!(run2(fadd, f(16777216.0), f(3.0)).0, f(16777220.0));
    }

    #[test]
    fn mul_edges() {
        assert_eq!(run2(fmul, INF, 0).0, QNAN);
        assert_eq!(
            run2(fmul, INF, DEN_MAX),
            (
                QNAN,
                vec![D::DenormInputFlushed, D::NanProduced, D::InfInput]
            )
        );
        assert_eq!(run2(fmul, NONE, 0), (NZERO, vec![D::SignedZero]));
        assert_eq!(run2(fmul, ONE, DEN_MIN).0, 0);
        assert_eq!(run2(fmul, NONE, NINF).0, INF);
        assert_eq!(
            run2(fmul, f(1e-20), f(1e-20)),
            (0, vec![D::DenormOutputFlushed])
        );
        assert_eq!(
            run2(fmul, f(-1e-20), f(1e-20)),
            (NZERO, vec![D::DenormOutputFlushed, D::SignedZero])
        );
        assert_eq!(run2(fmul, MAX, TWO), (INF, vec![D::InfProduced]));
        assert_eq!(run2(fmul, QNAN, 0).0, QNAN);
        assert_eq!(run2(fmul, ONE, MAX).0, MAX);
    }

    #[test]
    fn mad_is_unfused() {
        let mut ev = 0;
        // (1 + 2^-12)^2 - 1: fused keeps 2^-24 in the product's tail; unfused rounds it away.
        let a = f(1.0 + 2f32.powi(-12));
        let r = fmad(a, a, NONE, &mut ev);
        assert_eq!(r, f(2f32.powi(-11)));
        assert_ne!(r, f(2f32.powi(-11) + 2f32.powi(-24)));
        // ... which is exactly where a fused evaluation would differ (and the sum cancels).
        assert_eq!(ev, D::FusionSensitive.bit() | D::Cancellation.bit());
        // Product overflows to inf, then inf + (−inf) = NaN.
        let mut ev = 0;
        assert_eq!(fmad(MAX, TWO, NINF, &mut ev), QNAN);
        assert!(ev & D::InfProduced.bit() != 0 && ev & D::NanProduced.bit() != 0);
        let mut ev = 0;
        assert_eq!(fmad(TWO, f(3.0), ONE, &mut ev), f(7.0));
    }

    #[test]
    fn div_edges() {
        assert_eq!(run2(fdiv, TWO, f(4.0)), (HALF, vec![]));
        assert_eq!(
            run2(fdiv, ONE, 0),
            (INF, vec![D::InfProduced, D::DivisorOutOfRange])
        );
        assert_eq!(run2(fdiv, ONE, NZERO).0, NINF);
        assert_eq!(run2(fdiv, NONE, NZERO).0, INF);
        assert_eq!(run2(fdiv, 0, 0).0, QNAN);
        assert_eq!(run2(fdiv, INF, INF).0, QNAN);
        assert_eq!(run2(fdiv, ONE, INF).0, 0);
        assert_eq!(run2(fdiv, NONE, INF).0, NZERO);
        assert_eq!(run2(fdiv, ONE, DEN_MAX).0, INF);
        assert_eq!(run2(fdiv, DEN_MAX, ONE).0, 0);
        assert_eq!(
            run2(fdiv, ONE, f(2f32.powi(127))).1,
            vec![D::DenormOutputFlushed, D::DivisorOutOfRange, D::DivisorHuge]
        );
        assert_eq!(run2(fdiv, ONE, 0x7E80_0000), (0x0080_0000, vec![]));
        // Above 2^126 the quotient is D3D's choice (x·(1/y) flushes 1/y): the H100 gave +0 for
        // -211.875 / -MAX. An infinite divisor is in D3D's table (F/inf = ±0), so it is not.
        let (q, ev) = run2(fdiv, f(-211.875), 0xff7f_ffff);
        assert_ne!(q, 0, "the reference keeps the exact quotient");
        assert!(ev.contains(&D::DivisorHuge), "{ev:?}");
        assert!(!run2(fdiv, ONE, INF).1.contains(&D::DivisorHuge));
        assert!(!run2(fdiv, ONE, 0).1.contains(&D::DivisorHuge));
        assert_eq!(run2(fdiv, SNAN, ONE).0, QNAN);
        // Peer div-333fe4cc.json: 2/4 = 0.5, -2/-4 = 0.5, 0/-1 = -0, 1/0 = inf, -1/-0 = inf.
        assert_eq!(run2(fdiv, f(-2.0), f(-4.0)).0, HALF);
        assert_eq!(run2(fdiv, 0, NONE).0, NZERO);
        assert_eq!(run2(fdiv, NONE, NZERO).0, INF);
    }

    #[test]
    fn min_max_edges() {
        // Peer min_max-d344f7df.json: min/max(NaN, 1) = 1; min/max(0, NaN) = 0;
        // min(0, -inf) = -inf; max(1, inf) = inf.
        assert_eq!(
            run2(fmin, QNAN, ONE),
            (ONE, vec![D::NanInput, D::MinMaxNan])
        );
        assert_eq!(run2(fmax, QNAN, ONE).0, ONE);
        assert_eq!(run2(fmin, 0, QNAN).0, 0);
        assert_eq!(run2(fmax, 0, QNAN).0, 0);
        assert_eq!(run2(fmin, 0, NINF).0, NINF);
        assert_eq!(run2(fmax, ONE, INF).0, INF);
        assert_eq!(run2(fmin, ONE, INF).0, ONE);
        assert_eq!(run2(fmin, SNAN, NSNAN).0, QNAN);
        assert_eq!(run2(fmax, NSNAN, NONE).0, NONE);
        assert_eq!(run2(fmin, 0, NZERO), (NZERO, vec![D::SignedZero]));
        assert_eq!(run2(fmin, NZERO, 0).0, NZERO);
        assert_eq!(run2(fmax, NZERO, 0), (0, vec![D::SignedZero]));
        assert_eq!(run2(fmax, 0, NZERO).0, 0);
        // Denormals are flushed before comparing and the flushed value is returned.
        assert_eq!(
            run2(fmax, DEN_MAX, DEN_MIN),
            (0, vec![D::DenormInputFlushed])
        );
        assert_eq!(run2(fmin, NDEN_MIN, 0).0, NZERO);
        assert_eq!(run2(fmax, DEN_MAX, NONE).0, 0);
        assert_eq!(run2(fmin, MAX, INF).0, MAX);
    }

    #[test]
    fn frc_edges() {
        // Peer frc-d26ea35f.json: frc(±0) = 0, frc(±1) = 0, frc(±0.5) = 0.5.
        assert_eq!(run1(frc, 0).0, 0);
        assert_eq!(run1(frc, NZERO).0, 0);
        assert_eq!(run1(frc, ONE).0, 0);
        assert_eq!(run1(frc, NONE).0, 0);
        assert_eq!(run1(frc, NHALF).0, HALF);
        assert_eq!(run1(frc, f(2.75)).0, f(0.75));
        assert_eq!(run1(frc, NDEN_MAX), (0, vec![D::DenormInputFlushed]));
        assert_eq!(run1(frc, f(-1e-10)).0, 0x3F7F_FFFF);
        assert_eq!(run1(frc, INF), (QNAN, vec![D::NanProduced, D::InfInput]));
        assert_eq!(run1(frc, SNAN).0, QNAN);
        assert_eq!(run1(frc, MAX).0, 0);
    }

    #[test]
    fn rounding_edges() {
        // Peer round_ne-166f1980.json and round-5b118f18.json.
        assert_eq!(run1(round_ne, f(2.5)).0, f(2.0));
        assert_eq!(run1(round_ne, f(3.5)).0, f(4.0));
        assert_eq!(run1(round_ne, NHALF), (NZERO, vec![D::SignedZero]));
        assert_eq!(run1(round_ne, f(-4.5)).0, f(-4.0));
        assert_eq!(run1(round_ni, NHALF).0, NONE);
        assert_eq!(run1(round_pi, HALF).0, ONE);
        assert_eq!(run1(round_z, NHALF).0, NZERO);
        assert_eq!(run1(round_pi, NHALF).0, NZERO);
        // Denormals flush first: floor(−den) = −0, ceil(+den) = +0.
        assert_eq!(
            run1(round_ni, NDEN_MIN),
            (NZERO, vec![D::DenormInputFlushed, D::SignedZero])
        );
        assert_eq!(run1(round_pi, DEN_MAX).0, 0);
        for g in [round_ne, round_ni, round_pi, round_z] {
            assert_eq!(run1(g, INF), (INF, vec![D::InfInput]));
            assert_eq!(run1(g, NINF).0, NINF);
            assert_eq!(run1(g, SNAN), (QNAN, vec![D::NanInput]));
            assert_eq!(run1(g, MAX).0, MAX);
            assert_eq!(run1(g, f(16777216.0)).0, f(16777216.0));
        }
    }

    #[test]
    fn compare_edges() {
        // Peer eq-0de49a70.json / ne-22a20e02.json: eq(NaN, NaN) = 0, ne(x, NaN) = ~0.
        assert_eq!(run2(feq, QNAN, QNAN), (0, vec![D::NanInput]));
        assert_eq!(run2(fne, QNAN, QNAN).0, u32::MAX);
        assert_eq!(run2(fne, ONE, QNAN).0, u32::MAX);
        assert_eq!(run2(feq, 0, NZERO).0, u32::MAX);
        assert_eq!(
            run2(feq, DEN_MIN, 0),
            (u32::MAX, vec![D::DenormInputFlushed])
        );
        assert_eq!(run2(flt, NDEN_MIN, DEN_MIN).0, 0);
        assert_eq!(run2(fge, NDEN_MIN, DEN_MIN).0, u32::MAX);
        assert_eq!(run2(flt, NINF, MAX).0, u32::MAX);
        assert_eq!(run2(fge, INF, INF).0, u32::MAX);
        for g in [feq, flt, fge] {
            assert_eq!(run2(g, SNAN, ONE).0, 0);
            assert_eq!(run2(g, ONE, NSNAN).0, 0);
        }
        assert_eq!(run2(fne, ONE, ONE).0, 0);
    }

    #[test]
    fn saturate_edges() {
        // Peer sat-6af24f44.json: sat(NaN) = 0, sat(+inf) = 1, sat(-inf) = 0.
        assert_eq!(saturate(QNAN), 0);
        assert_eq!(saturate(NQNAN), 0);
        assert_eq!(saturate(SNAN), 0);
        assert_eq!(saturate(INF), ONE);
        assert_eq!(saturate(NINF), 0);
        assert_eq!(saturate(NZERO), 0);
        assert_eq!(saturate(DEN_MAX), 0);
        assert_eq!(saturate(NONE), 0);
        assert_eq!(saturate(f(2.0)), ONE);
        assert_eq!(saturate(HALF), HALF);
        assert_eq!(saturate(ONE), ONE);
    }

    #[test]
    fn dot_products() {
        let mut ev = 0;
        // Peer dot3-96ecc170.json: dot((1,2,3,4),(1,1,1,1)) = 6 (a float4·float3 compiles to dp3).
        assert_eq!(dp3([ONE, TWO, f(3.0)], [ONE, ONE, ONE], &mut ev), f(6.0));
        assert_eq!(
            dp3([ONE, TWO, f(3.0)], [f(3.0), ONE, TWO], &mut ev),
            f(11.0)
        );
        assert_eq!(dp2([ONE, TWO], [f(3.0), f(4.0)], &mut ev), f(11.0));
        assert_eq!(dp4([ONE; 4], [ONE, TWO, f(3.0), f(4.0)], &mut ev), f(10.0));
        assert_eq!(ev, 0);
        // Left-to-right order: (2^24 + 1) + 1 loses both ones; 1 + 1 + 2^24 keeps them.
        let big = f(16777216.0);
        assert_eq!(dp3([big, ONE, ONE], [ONE; 3], &mut ev), big);
        assert_eq!(dp3([ONE, ONE, big], [ONE; 3], &mut ev), f(16777218.0));
        assert_eq!(dp4([INF, ONE, ONE, ONE], [0, ONE, ONE, ONE], &mut ev), QNAN);
        assert_eq!(dp2([MAX, MAX], [MAX, NONE], &mut ev), INF);
    }

    #[test]
    fn float_modifiers() {
        // Peer src_modifiers-decc17bf.json: -x, |x|, -|x|.
        assert_eq!(fneg_modifier(ONE), NONE);
        assert_eq!(fabs_modifier(NONE), ONE);
        assert_eq!(fneg_modifier(fabs_modifier(ONE)), NONE);
        assert_eq!(fneg_modifier(0), NZERO);
        assert_eq!(fneg_modifier(INF), NINF);
        assert_eq!(fabs_modifier(NINF), INF);
        assert_eq!(fneg_modifier(DEN_MIN), NDEN_MIN);
        assert_eq!(fabs_modifier(NSNAN), 0x7FBF_FFFF);
        assert!(is_nan(fneg_modifier(QNAN)));
    }
}
