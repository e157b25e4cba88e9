//! Double-precision rules (FS §3.1.4, §22.14-22.17; doc §2.11), on u64 bits (low word in
//! the .x/.z component, high word in .y/.w).
//!
//! IEEE 754 binary64 with denormals KEPT and round-to-nearest-even: host `f64` arithmetic
//! is exactly that, so dadd/dmul/ddiv are single host operations and dfma is the fused
//! `f64::mul_add`. NaN results are the canonical [`DQNAN`]. Every rule raises `DoubleUsed`
//! (WGSL has no f64: the whole class is an adaptation boundary); the ftoi/ftou events are
//! reused by dtoi/dtou.

use super::float::{QNAN, ftz, is_denorm as f32_is_denorm, is_nan as f32_is_nan};
use crate::domain::{Domain, Events, raise};

/// The NaN every double rule returns (payload undefined in D3D).
pub const DQNAN: u64 = 0x7FF8_0000_0000_0000;
/// Sign bit of an fp64 value.
pub const DSIGN: u64 = 0x8000_0000_0000_0000;

fn d(x: u64) -> f64 {
    f64::from_bits(x)
}

fn out(r: f64) -> u64 {
    if r.is_nan() { DQNAN } else { r.to_bits() }
}

fn used(ev: &mut Events) {
    raise(ev, Domain::DoubleUsed);
}

/// `dadd` (FS §22.14-22.17, doc §2.11): correctly rounded a + b, denormals kept.
pub fn dadd(a: u64, b: u64, ev: &mut Events) -> u64 {
    used(ev);
    out(d(a) + d(b))
}

/// `dmul` (FS §22.14-22.17, doc §2.11): correctly rounded a · b, denormals kept.
pub fn dmul(a: u64, b: u64, ev: &mut Events) -> u64 {
    used(ev);
    out(d(a) * d(b))
}

/// `ddiv` (D3D11.1; FS §22.14-22.17, doc §2.11): correctly rounded a / b; x/0 = ±inf, 0/0 = NaN.
pub fn ddiv(a: u64, b: u64, ev: &mut Events) -> u64 {
    used(ev);
    out(d(a) / d(b))
}

/// `dfma` (D3D11.1; FS §22.14-22.17, doc §2.11): FUSED a · b + c with a single rounding.
pub fn dfma(a: u64, b: u64, c: u64, ev: &mut Events) -> u64 {
    used(ev);
    out(d(a).mul_add(d(b), d(c)))
}

fn dmin_max(a: u64, b: u64, want_max: bool, ev: &mut Events) -> u64 {
    used(ev);
    let (x, y) = (d(a), d(b));
    match (x.is_nan(), y.is_nan()) {
        (true, true) => {
            raise(ev, Domain::MinMaxNan);
            return DQNAN;
        }
        (true, false) => {
            raise(ev, Domain::MinMaxNan);
            return b;
        }
        (false, true) => {
            raise(ev, Domain::MinMaxNan);
            return a;
        }
        (false, false) => {}
    }
    if x == 0.0 && y == 0.0 && a != b {
        raise(ev, Domain::SignedZero);
        return if want_max { 0 } else { DSIGN };
    }
    if want_max {
        if x >= y { a } else { b }
    } else if x < y {
        a
    } else {
        b
    }
}

/// `dmin` (FS §22.14-22.17, doc §2.11): the fp32 min rules without flushing: one NaN → the other
/// operand, both → NaN (`MinMaxNan`); min(+0, −0) = −0 (the recommended choice).
pub fn dmin(a: u64, b: u64, ev: &mut Events) -> u64 {
    dmin_max(a, b, false, ev)
}

/// `dmax` (FS §22.14-22.17, doc §2.11): as [`dmin`]; max(+0, −0) = +0.
pub fn dmax(a: u64, b: u64, ev: &mut Events) -> u64 {
    dmin_max(a, b, true, ev)
}

/// `drcp` (D3D11.1; doc §2.11): 1/x, correctly rounded (the FS allows 1 ULP, exact when the result is
/// representable); ±0 → ±inf, ±inf → ±0, denormals kept.
pub fn drcp(a: u64, ev: &mut Events) -> u64 {
    used(ev);
    out(1.0 / d(a))
}

fn dcmp(a: u64, b: u64, f: fn(f64, f64) -> bool, ev: &mut Events) -> u32 {
    used(ev);
    if f(d(a), d(b)) { u32::MAX } else { 0 }
}

/// `deq` (FS §22.14-22.17, doc §2.11): ordered ==; +0 == −0; NaN → 0. Result 0xFFFFFFFF/0.
pub fn deq(a: u64, b: u64, ev: &mut Events) -> u32 {
    dcmp(a, b, |x, y| x == y, ev)
}

/// `dge` (FS §22.14-22.17, doc §2.11): ordered >=; NaN → 0.
pub fn dge(a: u64, b: u64, ev: &mut Events) -> u32 {
    dcmp(a, b, |x, y| x >= y, ev)
}

/// `dlt` (FS §22.14-22.17, doc §2.11): ordered <; NaN → 0.
pub fn dlt(a: u64, b: u64, ev: &mut Events) -> u32 {
    dcmp(a, b, |x, y| x < y, ev)
}

/// `dne` (FS §22.14-22.17, doc §2.11): unordered !=; NaN → 0xFFFFFFFF.
pub fn dne(a: u64, b: u64, ev: &mut Events) -> u32 {
    dcmp(a, b, |x, y| x != y, ev)
}

/// `dtof` (FS §22.17.1): round-to-nearest-even (NOT the round-toward-zero of FS §3.2.2);
/// overflow → ±inf (peer `dtof-1d57c1f2.json`: −1e40 → 0xFF800000; 1/3 → 0x3EAAAAAB);
/// NaN → f32 NaN.
///
/// Choice: fp32 has no denormals (FS §3.1.3.1), so an f32 denormal result is flushed to a
/// same-signed zero (`DenormOutputFlushed`); the spec allows either.
pub fn dtof(a: u64, ev: &mut Events) -> u32 {
    used(ev);
    let r = d(a) as f32;
    if r.is_nan() {
        return QNAN;
    }
    let bits = r.to_bits();
    if f32_is_denorm(bits) {
        raise(ev, Domain::DenormOutputFlushed);
    }
    ftz(bits)
}

/// `ftod` (FS §22.14-22.17, doc §2.11): exact widening; NaN → NaN, ±inf kept.
///
/// Choice: an f32 denormal input is flushed to a same-signed zero first
/// (`DenormInputFlushed`), consistent with fp32 having no denormals; the spec allows either.
pub fn ftod(a: u32, ev: &mut Events) -> u64 {
    used(ev);
    if f32_is_nan(a) {
        return DQNAN;
    }
    if f32_is_denorm(a) {
        raise(ev, Domain::DenormInputFlushed);
    }
    (f32::from_bits(ftz(a)) as f64).to_bits()
}

/// `dtoi` (FS §22.14-22.17, doc §2.11): as ftoi: round toward zero, NaN → 0 (`FtoiNan`), saturate to
/// [INT_MIN, INT_MAX] (`FtoiOverflow`; peer `dtoi-51183e96.json`: ±inf → 0x7FFFFFFF /
/// 0x80000000).
pub fn dtoi(a: u64, ev: &mut Events) -> u32 {
    used(ev);
    let x = d(a);
    if x.is_nan() {
        raise(ev, Domain::FtoiNan);
        return 0;
    }
    let t = x.trunc();
    if t > i32::MAX as f64 || t < i32::MIN as f64 {
        raise(ev, Domain::FtoiOverflow);
        return if t > 0.0 { 0x7FFF_FFFF } else { 0x8000_0000 };
    }
    t as i32 as u32
}

/// `dtou` (FS §22.14-22.17, doc §2.11): as ftou: NaN → 0 (`FtouNan`), truncation negative → 0
/// (`FtouNegative`), ≥ 2^32 → 0xFFFFFFFF (`FtouOverflow`) (peer `dtou-b397ea5c.json`).
pub fn dtou(a: u64, ev: &mut Events) -> u32 {
    used(ev);
    let x = d(a);
    if x.is_nan() {
        raise(ev, Domain::FtouNan);
        return 0;
    }
    let t = x.trunc();
    if t < 0.0 {
        raise(ev, Domain::FtouNegative);
        return 0;
    }
    if t > u32::MAX as f64 {
        raise(ev, Domain::FtouOverflow);
        return u32::MAX;
    }
    t as u32
}

/// `itod` (FS §22.14-22.17, doc §2.11): exact i32 → f64.
pub fn itod(a: u32, ev: &mut Events) -> u64 {
    used(ev);
    (a as i32 as f64).to_bits()
}

/// `utod` (FS §22.14-22.17, doc §2.11): exact u32 → f64.
pub fn utod(a: u32, ev: &mut Events) -> u64 {
    used(ev);
    (a as f64).to_bits()
}

/// `-` source modifier on a double consumer: flip the sign bit (pure bit operation).
pub const fn dneg_modifier(a: u64) -> u64 {
    a ^ DSIGN
}

/// `_abs` source modifier on a double consumer: clear the sign bit.
pub const fn dabs_modifier(a: u64) -> u64 {
    a & !DSIGN
}

/// `_sat` on a double result: clamp to [0, 1], NaN → +0 (FS §22.19.1 applied to fp64, as the
/// `dmov_sat` peer cases show: `saturate(-1.5)` is 0).
pub fn dsaturate(a: u64) -> u64 {
    let v = f64::from_bits(a);
    if v.is_nan() || v <= 0.0 {
        0
    } else if v >= 1.0 {
        1.0f64.to_bits()
    } else {
        a
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{Domain as D, domains};

    const ONE: u64 = 0x3FF0_0000_0000_0000;
    const NONE: u64 = 0xBFF0_0000_0000_0000;
    const INF: u64 = 0x7FF0_0000_0000_0000;
    const NINF: u64 = 0xFFF0_0000_0000_0000;
    const SNAN: u64 = 0x7FF0_0000_0000_0001;
    const NQNAN: u64 = 0xFFF8_0000_0000_0000;
    const DEN: u64 = 0x0000_0000_0000_0001;
    const NZERO: u64 = DSIGN;
    const MAX: u64 = 0x7FEF_FFFF_FFFF_FFFF;

    fn b(x: f64) -> u64 {
        x.to_bits()
    }
    fn w(lo: u32, hi: u32) -> u64 {
        ((hi as u64) << 32) | lo as u64
    }

    #[test]
    fn arithmetic_peer_cases() {
        let mut ev = 0;
        // dadd-23a70481.json: 2.5 + 1.0000002433080226 and 2.5 + 2.000000481493771.
        let src = w(0, 0x4004_0000);
        assert_eq!(
            dadd(src, b(1.0000002433080226), &mut ev),
            w(0x20A8_0000, 0x400C_0000)
        );
        assert_eq!(
            dadd(src, b(2.000000481493771), &mut ev),
            w(0x2050_0000, 0x4012_0000)
        );
        // dmul-2e53f70b.json: 1.5 · 3 and 1.5 · −3.
        assert_eq!(dmul(b(1.5), b(3.0), &mut ev), w(0, 0x4012_0000));
        assert_eq!(
            dmul(b(1.5), dneg_modifier(b(3.0)), &mut ev),
            w(0, 0xC012_0000)
        );
        // dfma-8d7515fd.json: single rounding.
        let x = w(0x4150_0000, 0x3FF0_0000);
        let y = w(0x40A0_0000, 0x4000_0000);
        assert_eq!(
            dfma(x, y, b(1.0000002433080226), &mut ev),
            w(0xA298_0108, 0x4008_0000)
        );
        // drcp-fa518ead.json.
        assert_eq!(drcp(b(2.0), &mut ev), b(0.5));
        assert_eq!(drcp(b(-0.5), &mut ev), b(-2.0));
        assert_eq!(domains(ev).collect::<Vec<_>>(), vec![D::DoubleUsed]);
    }

    #[test]
    fn arithmetic_edges() {
        let mut ev = 0;
        assert_eq!(dadd(INF, NINF, &mut ev), DQNAN);
        assert_eq!(dadd(SNAN, ONE, &mut ev), DQNAN);
        assert_eq!(dadd(NZERO, 0, &mut ev), 0);
        assert_eq!(dadd(NZERO, NZERO, &mut ev), NZERO);
        assert_eq!(dadd(DEN, DEN, &mut ev), 2, "denormals kept");
        assert_eq!(dadd(MAX, MAX, &mut ev), INF);
        assert_eq!(dmul(INF, 0, &mut ev), DQNAN);
        assert_eq!(dmul(DEN, b(0.5), &mut ev), 0, "RNE tie to even");
        assert_eq!(
            dmul(b(2f64.powi(-1022)), b(0.5), &mut ev),
            0x0008_0000_0000_0000
        );
        assert_eq!(ddiv(ONE, 0, &mut ev), INF);
        assert_eq!(ddiv(ONE, NZERO, &mut ev), NINF);
        assert_eq!(ddiv(0, 0, &mut ev), DQNAN);
        assert_eq!(ddiv(b(1.0), b(3.0), &mut ev), b(1.0 / 3.0));
        assert_eq!(ddiv(ONE, DEN, &mut ev), INF);
        assert_eq!(dfma(INF, 0, ONE, &mut ev), DQNAN);
        let e = b(1.0 + f64::EPSILON);
        // (1+ε)(1−ε) − 1 = −ε²: fused keeps it, unfused would give 0.
        assert_eq!(
            dfma(e, b(1.0 - f64::EPSILON), NONE, &mut ev),
            b(-f64::EPSILON * f64::EPSILON)
        );
        assert_eq!(drcp(0, &mut ev), INF);
        assert_eq!(drcp(NZERO, &mut ev), NINF);
        assert_eq!(drcp(NINF, &mut ev), NZERO);
        assert_eq!(drcp(MAX, &mut ev), 0x0004_0000_0000_0000);
        assert_eq!(drcp(NQNAN, &mut ev), DQNAN);
    }

    #[test]
    fn min_max_compare() {
        let mut ev = 0;
        // dmin_dmax-3dea8f30.json: min/max(−1, 1).
        assert_eq!(dmin(NONE, ONE, &mut ev), NONE);
        assert_eq!(dmax(NONE, ONE, &mut ev), ONE);
        assert_eq!(ev, D::DoubleUsed.bit());
        assert_eq!(dmin(DQNAN, ONE, &mut ev), ONE);
        assert_eq!(dmax(ONE, SNAN, &mut ev), ONE);
        assert_eq!(dmin(SNAN, NQNAN, &mut ev), DQNAN);
        assert!(ev & D::MinMaxNan.bit() != 0);
        assert_eq!(dmin(0, NZERO, &mut ev), NZERO);
        assert_eq!(dmax(NZERO, 0, &mut ev), 0);
        assert_eq!(dmin(DEN, 0, &mut ev), 0, "denormals are not flushed");
        assert_eq!(dmax(DEN, 0, &mut ev), DEN);
        assert_eq!(dmin(NINF, MAX, &mut ev), NINF);
        // deq-6dcac876.json, dge-7da62d52.json, dlt-09c33668.json.
        assert_eq!(deq(0, 0, &mut ev), u32::MAX);
        assert_eq!(deq(ONE, 0, &mut ev), 0);
        assert_eq!(dge(0, ONE, &mut ev), 0);
        assert_eq!(dge(ONE, ONE, &mut ev), u32::MAX);
        assert_eq!(dge(b(1.5), ONE, &mut ev), u32::MAX);
        assert_eq!(dlt(0, ONE, &mut ev), u32::MAX);
        assert_eq!(dlt(ONE, ONE, &mut ev), 0);
        assert_eq!(deq(0, NZERO, &mut ev), u32::MAX);
        assert_eq!(deq(DEN, 0, &mut ev), 0);
        assert_eq!(deq(DQNAN, DQNAN, &mut ev), 0);
        assert_eq!(dge(SNAN, ONE, &mut ev), 0);
        assert_eq!(dlt(ONE, SNAN, &mut ev), 0);
        assert_eq!(dne(DQNAN, DQNAN, &mut ev), u32::MAX);
        assert_eq!(dne(ONE, ONE, &mut ev), 0);
        assert_eq!(dne(ONE, NONE, &mut ev), u32::MAX);
    }

    #[test]
    fn conversions_to_f32() {
        let mut ev = 0;
        // dtof-1d57c1f2.json: 1.5, 1/3 → 0x3EAAAAAB (RNE), −1e40 → −inf, −(−0) → +0.
        assert_eq!(dtof(b(1.5), &mut ev), 0x3FC0_0000);
        assert_eq!(dtof(w(0x5555_5555, 0x3FD5_5555), &mut ev), 0x3EAA_AAAB);
        assert_eq!(
            dtof(dneg_modifier(w(0xF1C3_5CA5, 0x483D_6329)), &mut ev),
            0xFF80_0000
        );
        assert_eq!(dtof(dneg_modifier(NZERO), &mut ev), 0);
        // dmodifier-079a31f0.json: dtof(−1.5), dtof(|−1.5|).
        assert_eq!(dtof(dneg_modifier(b(1.5)), &mut ev), 0xBFC0_0000);
        assert_eq!(dtof(dabs_modifier(b(-1.5)), &mut ev), 0x3FC0_0000);
        // dmovc-75bcc47d.json: 4.5 → 0x40900000.
        assert_eq!(dtof(b(4.5), &mut ev), 0x4090_0000);
        assert_eq!(dtof(NZERO, &mut ev), 0x8000_0000);
        assert_eq!(dtof(INF, &mut ev), 0x7F80_0000);
        assert_eq!(dtof(SNAN, &mut ev), QNAN);
        assert_eq!(dtof(b(f32::MAX as f64), &mut ev), 0x7F7F_FFFF);
        assert_eq!(dtof(MAX, &mut ev), 0x7F80_0000);
        assert_eq!(ev, D::DoubleUsed.bit());
        assert_eq!(dtof(b(1e-40), &mut ev), 0);
        assert_eq!(dtof(b(-1e-40), &mut ev), 0x8000_0000);
        assert_eq!(dtof(DEN, &mut ev), 0);
        assert!(ev & D::DenormOutputFlushed.bit() != 0);
    }

    #[test]
    fn conversions_from_f32_and_ints() {
        let mut ev = 0;
        assert_eq!(ftod(0x3FC0_0000, &mut ev), b(1.5));
        assert_eq!(ftod(0x8000_0000, &mut ev), NZERO);
        assert_eq!(ftod(0xFF80_0000, &mut ev), NINF);
        assert_eq!(ftod(0x7F80_0001, &mut ev), DQNAN);
        assert_eq!(ftod(0x7F7F_FFFF, &mut ev), b(f32::MAX as f64));
        assert_eq!(ev, D::DoubleUsed.bit());
        assert_eq!(ftod(0x807F_FFFF, &mut ev), NZERO);
        assert!(ev & D::DenormInputFlushed.bit() != 0);
        // itod-4d7e3c6b.json and utod-33bf2ecb.json.
        assert_eq!(itod(3, &mut ev), w(0, 0x4008_0000));
        assert_eq!(itod(0x8000_0000, &mut ev), w(0, 0xC1E0_0000));
        assert_eq!(itod(u32::MAX, &mut ev), NONE);
        assert_eq!(utod(3, &mut ev), w(0, 0x4008_0000));
        assert_eq!(utod(u32::MAX, &mut ev), w(0xFFE0_0000, 0x41EF_FFFF));
        assert_eq!(utod(0, &mut ev), 0);
    }

    #[test]
    fn double_to_int() {
        let run_i = |x: u64| {
            let mut ev = 0;
            (dtoi(x, &mut ev), domains(ev).collect::<Vec<_>>())
        };
        let run_u = |x: u64| {
            let mut ev = 0;
            (dtou(x, &mut ev), domains(ev).collect::<Vec<_>>())
        };
        // dtoi-51183e96.json: −inf, −(1.0), +inf, −(−1.0).
        assert_eq!(
            run_i(NINF),
            (0x8000_0000, vec![D::FtoiOverflow, D::DoubleUsed])
        );
        assert_eq!(run_i(dneg_modifier(ONE)).0, u32::MAX);
        assert_eq!(run_i(INF).0, 0x7FFF_FFFF);
        assert_eq!(run_i(dneg_modifier(NONE)).0, 1);
        assert_eq!(run_i(DQNAN), (0, vec![D::FtoiNan, D::DoubleUsed]));
        assert_eq!(run_i(b(2147483647.9)), (0x7FFF_FFFF, vec![D::DoubleUsed]));
        assert_eq!(run_i(b(2147483648.0)).0, 0x7FFF_FFFF);
        assert_eq!(run_i(b(-2147483648.9)), (0x8000_0000, vec![D::DoubleUsed]));
        assert_eq!(
            run_i(b(-2147483649.0)).1,
            vec![D::FtoiOverflow, D::DoubleUsed]
        );
        assert_eq!(run_i(b(-0.5)).0, 0);
        assert_eq!(run_i(DEN).0, 0);
        // dtou-b397ea5c.json: −inf → 0, −(1.0) → 0, +inf → ~0, NaN (either sign) → 0.
        assert_eq!(run_u(NINF), (0, vec![D::FtouNegative, D::DoubleUsed]));
        assert_eq!(run_u(dneg_modifier(ONE)).0, 0);
        assert_eq!(run_u(INF), (u32::MAX, vec![D::FtouOverflow, D::DoubleUsed]));
        assert_eq!(run_u(dneg_modifier(NONE)).0, 1);
        assert_eq!(
            run_u(w(0, 0x7FF8_0000)),
            (0, vec![D::FtouNan, D::DoubleUsed])
        );
        assert_eq!(run_u(w(0, 0xFFF8_0000)).0, 0);
        assert_eq!(run_u(b(4294967295.9)), (u32::MAX, vec![D::DoubleUsed]));
        assert_eq!(run_u(b(4294967296.0)).0, u32::MAX);
        assert_eq!(run_u(b(-0.9)), (0, vec![D::DoubleUsed]));
        assert_eq!(run_u(NZERO).0, 0);
    }

    #[test]
    fn double_modifiers() {
        // dmodifier-8ad8e5b7.json: |−1.5| = 1.5.
        assert_eq!(dabs_modifier(b(-1.5)), w(0, 0x3FF8_0000));
        assert_eq!(dneg_modifier(0), NZERO);
        assert_eq!(dneg_modifier(INF), NINF);
        assert_eq!(dabs_modifier(NQNAN), DQNAN);
        assert_eq!(dneg_modifier(DEN), DSIGN | 1);
    }
}
