//! fp32 special functions (FS §22.10.6, 8, 18-21) and the D3D11 accuracy band of every
//! float opcode.
//!
//! Reference values are *correctly rounded*: each function is evaluated in f64 and rounded
//! once to f32 (sqrt and rcp are single IEEE f32 operations, hence exactly correctly
//! rounded). D3D itself only promises a band (e.g. 2^-21 relative for exp); the band's
//! centre is the most useful reference, and the f64 evaluation (error < 1 f64 ULP) rounds
//! to the correctly rounded f32 except when the exact value lies within ~2^-52 relative of
//! an f32 rounding midpoint — far inside every band in [`error_band`]. Inputs are flushed
//! and outputs flushed (FS §3.1.3.1); NaN results are [`QNAN`](super::float::QNAN).

use super::float::{SIGN, finish, is_denorm, read};
use crate::band::Band;
use crate::domain::{Domain, Events, raise};
use dxbc::Opcode;

/// `exp` (FS §22.10.6): 2^x. −inf → +0; ±0, ±den → 1; +inf → +inf; NaN → NaN; results
/// below 2^-126 flush to +0; overflow → +inf. `ExpLargeInput` when |x| > 2.5 (where
/// WGSL's 3 + 2|x| ULP exceeds D3D's band).
pub fn exp2(a: u32, ev: &mut Events) -> u32 {
    let ([x], nan, inf) = read([a], ev);
    if !nan && x.abs() > 2.5 {
        raise(ev, Domain::ExpLargeInput);
    }
    finish((x as f64).exp2() as f32, nan, inf, ev)
}

/// `log` (FS §22.10.8): log2 x. ±0, ±den → −inf; negative (including −inf) → NaN;
/// +inf → +inf; NaN → NaN. `LogOfZeroOrNegative` for zero, denormal or negative input.
pub fn log2(a: u32, ev: &mut Events) -> u32 {
    let ([x], nan, inf) = read([a], ev);
    if !nan && x <= 0.0 {
        raise(ev, Domain::LogOfZeroOrNegative);
    }
    finish((x as f64).log2() as f32, nan, inf, ev)
}

/// `rsq` (FS §22.10.19): 1/√x. −inf, −F → NaN; −0, −den → −inf; +0, +den → +inf;
/// +inf → +0. `RsqOfZeroOrNegative` for zero, denormal or negative input.
pub fn rsq(a: u32, ev: &mut Events) -> u32 {
    let ([x], nan, inf) = read([a], ev);
    if !nan && (x <= 0.0 || a & SIGN != 0) {
        raise(ev, Domain::RsqOfZeroOrNegative);
    }
    finish((1.0 / (x as f64).sqrt()) as f32, nan, inf, ev)
}

/// `sqrt` (FS §22.10.21): correctly rounded √x. −F, −inf → NaN; −0, −den → −0;
/// +den → +0; +inf → +inf. `SqrtOfNegative` for any negative input including −0/−den.
pub fn sqrt(a: u32, ev: &mut Events) -> u32 {
    let ([x], nan, inf) = read([a], ev);
    if !nan && a & SIGN != 0 {
        raise(ev, Domain::SqrtOfNegative);
    }
    finish(x.sqrt(), nan, inf, ev)
}

/// `rcp` (FS §22.10.18): correctly rounded 1/x. ±0, ±den → ±inf (`RcpOfZeroOrDenorm`);
/// ±inf → ±0; |x| > 2^126 gives a denormal that flushes to ±0. Peer `rcp-db3802fa.json`:
/// rcp(−inf) = −0, rcp(−0) = −inf, rcp(±2) = ±0.5.
pub fn rcp(a: u32, ev: &mut Events) -> u32 {
    if a & !SIGN == 0 || is_denorm(a) {
        raise(ev, Domain::RcpOfZeroOrDenorm);
    }
    let ([x], nan, inf) = read([a], ev);
    finish(1.0 / x, nan, inf, ev)
}

fn sincos_with(a: u32, f: fn(f64) -> f64, ev: &mut Events) -> u32 {
    let ([x], nan, inf) = read([a], ev);
    if !nan && (x as f64).abs() > std::f64::consts::PI {
        raise(ev, Domain::SinCosOutsidePi);
    }
    if !nan && (x as f64).abs() > 100.0 * std::f64::consts::PI {
        raise(ev, Domain::SinCosOutside100Pi);
    }
    finish(f(x as f64) as f32, nan, inf, ev)
}

/// `sincos` sine (FS §22.10.20): ±inf, NaN → NaN; ±0, ±den → ±0. `SinCosOutsidePi` when
/// |x| > π (note f32(π) = 0x40490FDB is just above π). The argument is reduced exactly
/// (f64 libm), whatever its size.
pub fn sin(a: u32, ev: &mut Events) -> u32 {
    sincos_with(a, f64::sin, ev)
}

/// `sincos` cosine (FS §22.10.20): ±inf, NaN → NaN; ±0, ±den → 1. Events as [`sin`].
pub fn cos(a: u32, ev: &mut Events) -> u32 {
    sincos_with(a, f64::cos, ev)
}

/// 2^-21, the FS relative bound of rcp/rsq/exp/log.
const REL_2M21: f64 = 1.0 / 2_097_152.0;

/// How far (in levels) a device's `lod` may lie from the LOD of the quad's coarse steps by
/// their lengths: a device may take a step's largest component instead of its length (up to
/// half a level lower in 2D) and approximate the logarithm (half a level more, docs
/// interpreter.md, "Quads"). A decision: D3D states the approximations, not a bound.
pub const LOD_BAND: f64 = 1.0;

/// The error band D3D11 accepts for `op` (FS §3.1.3.1-2, §22.10; doc §1.1, §2). Which ops are
/// inexact, and how, is the opcode table's accuracy column (`dxbc::opcodes::Accuracy`); this
/// turns each cell into its band, with no default arm:
///
/// * add, mul (and sub = add with `-`): 0.5 ULP, i.e. correctly rounded → `Exact`.
/// * div: x·(1/y) with 1/y within 1 ULP and the multiply 0.5 ULP, i.e. ≤ 2.5 ULP of the
///   exact quotient → `Ulp(3)` from the rounded reference.
/// * sqrt: 1 ULP → `Ulp(1)`.
/// * rcp, rsq, exp: 2^-21 relative → `Rel(2^-21)`.
/// * log: 2^-21 absolute on x ∈ [0.5, 2] (|result| ≤ 1), 2^-21 relative elsewhere →
///   `RelOrAbs { 2^-21, 2^-21 }` (the two rules coincide at |result| = 1).
/// * sincos: 0.0008 absolute on [−100π, 100π] → `Abs(0.0008)`; the FS gives no bound
///   outside that range, so a lane that entered `SinCosOutside100Pi` gets `Any`: whatever
///   the result, it is D3D's own answer (not an adaptation a translator claims).
/// * mad: fused or unfused, each step 0.5 ULP → `TermScaled { steps: 2 }`;
///   dpN → `TermScaled { steps: N + 1 }` (doc §2.1).
/// * itof, utof: RNE recommended, not required → `Ulp(1)`.
/// * drcp: 1 ULP (exact when representable) → `Ulp(1)` in f64 steps.
/// * lod: devices approximate the level of detail (FS §7.18.11) → `Abs(LOD_BAND)` around the
///   LOD of the quad's coarse steps by their lengths; a lane whose allowed range is wider
///   enters `filter-precision` (`interp::textures::lod`).
/// * Everything else (min/max, frc, round_*, compares, ftoi/ftou, fp16 conversions, the
///   other double ops, integer, bit and move ops): `Exact`.
pub fn error_band(op: Opcode, events: Events) -> Band {
    use dxbc::opcodes::Accuracy;
    match op.info().accuracy {
        Accuracy::Exact => Band::Exact,
        Accuracy::Ulp(ulp) => Band::Ulp { ulp: ulp.into() },
        Accuracy::Rel21 => Band::Rel { rel: REL_2M21 },
        Accuracy::Log => Band::RelOrAbs {
            rel: REL_2M21,
            abs: REL_2M21,
        },
        Accuracy::SinCos if events & Domain::SinCosOutside100Pi.bit() != 0 => Band::Any,
        Accuracy::SinCos => Band::Abs { abs: 0.0008 },
        Accuracy::Fused(steps) => Band::TermScaled {
            steps: steps.into(),
        },
        Accuracy::Lod => Band::Abs { abs: LOD_BAND },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bands and the opcode table say the same: every row the table calls approximate or
    /// fused has a band, and every band belongs to such a row or to one whose rounding D3D
    /// leaves open (`itof`, `utof`, `drcp`) or whose level of detail devices approximate
    /// (`lod`). A new approximate opcode without a band fails here instead of being judged
    /// exact.
    #[test]
    fn every_approximate_row_of_the_table_has_a_band() {
        use dxbc::opcodes::{Flags, TABLE};
        let open_rounding = [Opcode::Itof, Opcode::Utof, Opcode::Drcp, Opcode::Lod];
        for row in TABLE {
            let op = row.opcode;
            let banded = error_band(op, 0) != Band::Exact;
            let flagged = row.flags.has(Flags::APPROXIMATE) || row.flags.has(Flags::FUSED);
            assert_eq!(
                banded,
                flagged || open_rounding.contains(&op),
                "{}: band {:?}, flags say approximate or fused: {flagged}",
                row.mnemonic,
                error_band(op, 0)
            );
        }
    }
    use crate::domain::{Domain as D, domains};
    use crate::rules::float::QNAN;

    const INF: u32 = 0x7F80_0000;
    const NINF: u32 = 0xFF80_0000;
    const NZERO: u32 = 0x8000_0000;
    const DEN: u32 = 0x007F_FFFF;
    const NDEN: u32 = 0x8000_0001;
    const SNAN: u32 = 0x7F80_0001;
    const NQNAN: u32 = 0xFFC0_0000;
    const MAX: u32 = 0x7F7F_FFFF;
    const ONE: u32 = 0x3F80_0000;

    fn f(x: f32) -> u32 {
        x.to_bits()
    }
    fn run(g: fn(u32, &mut Events) -> u32, a: u32) -> (u32, Vec<D>) {
        let mut ev = 0;
        let r = g(a, &mut ev);
        (r, domains(ev).collect())
    }

    #[test]
    fn exp2_edges() {
        // Peer exp-7add3ba9.json: exp(±0) = 1, exp(2) = 4, exp(-2) = 0.25, +inf, -inf → 0.
        assert_eq!(run(exp2, 0), (ONE, vec![]));
        assert_eq!(run(exp2, NZERO).0, ONE);
        assert_eq!(run(exp2, f(2.0)).0, f(4.0));
        assert_eq!(run(exp2, f(-2.0)).0, f(0.25));
        assert_eq!(run(exp2, INF), (INF, vec![D::InfInput, D::ExpLargeInput]));
        assert_eq!(run(exp2, NINF).0, 0);
        assert_eq!(run(exp2, DEN), (ONE, vec![D::DenormInputFlushed]));
        assert_eq!(run(exp2, NDEN).0, ONE);
        assert_eq!(run(exp2, SNAN), (QNAN, vec![D::NanInput]));
        assert_eq!(
            run(exp2, f(128.0)),
            (INF, vec![D::InfProduced, D::ExpLargeInput])
        );
        assert_eq!(run(exp2, f(127.0)).0, f(2f32.powi(127)));
        assert_eq!(run(exp2, f(-126.0)).0, 0x0080_0000);
        assert_eq!(
            run(exp2, f(-130.0)),
            (0, vec![D::DenormOutputFlushed, D::ExpLargeInput])
        );
        assert_eq!(run(exp2, f(0.5)).0, f(std::f32::consts::SQRT_2));
        assert_eq!(run(exp2, MAX).0, INF);
    }

    #[test]
    fn log2_edges() {
        // Peer log-f995c404.json: log(-0) = log(0) = -inf, log(inf) = inf, log(0.25) = -2.
        assert_eq!(
            run(log2, NZERO),
            (NINF, vec![D::InfProduced, D::LogOfZeroOrNegative])
        );
        assert_eq!(run(log2, 0).0, NINF);
        assert_eq!(run(log2, INF), (INF, vec![D::InfInput]));
        assert_eq!(run(log2, f(0.25)).0, f(-2.0));
        assert_eq!(run(log2, f(0.5)).0, f(-1.0));
        assert_eq!(run(log2, f(8.0)).0, f(3.0));
        assert_eq!(run(log2, ONE), (0, vec![]));
        assert_eq!(run(log2, DEN).0, NINF);
        assert_eq!(run(log2, NDEN).0, NINF);
        assert_eq!(
            run(log2, f(-1.0)),
            (QNAN, vec![D::NanProduced, D::LogOfZeroOrNegative])
        );
        assert_eq!(run(log2, NINF).0, QNAN);
        assert_eq!(run(log2, NQNAN), (QNAN, vec![D::NanInput]));
        assert_eq!(run(log2, MAX).0, f(128.0));
    }

    #[test]
    fn rsq_edges() {
        assert_eq!(run(rsq, f(4.0)), (f(0.5), vec![]));
        assert_eq!(run(rsq, NZERO).0, NINF);
        assert_eq!(run(rsq, NDEN).0, NINF);
        assert_eq!(
            run(rsq, 0),
            (INF, vec![D::InfProduced, D::RsqOfZeroOrNegative])
        );
        assert_eq!(run(rsq, DEN).0, INF);
        assert_eq!(run(rsq, INF).0, 0);
        assert_eq!(run(rsq, f(-4.0)).0, QNAN);
        assert_eq!(run(rsq, NINF).0, QNAN);
        assert_eq!(run(rsq, SNAN).0, QNAN);
        assert_eq!(run(rsq, 0x0080_0000).0, f(2f32.powi(63)));
        assert_eq!(run(rsq, f(2.0)).0, f(std::f32::consts::FRAC_1_SQRT_2));
    }

    #[test]
    fn sqrt_edges() {
        assert_eq!(run(sqrt, f(4.0)), (f(2.0), vec![]));
        assert_eq!(
            run(sqrt, NZERO),
            (NZERO, vec![D::SignedZero, D::SqrtOfNegative])
        );
        assert_eq!(run(sqrt, NDEN).0, NZERO);
        assert_eq!(run(sqrt, DEN).0, 0);
        assert_eq!(run(sqrt, INF).0, INF);
        assert_eq!(
            run(sqrt, f(-1.0)),
            (QNAN, vec![D::NanProduced, D::SqrtOfNegative])
        );
        assert_eq!(run(sqrt, NINF).0, QNAN);
        assert_eq!(run(sqrt, SNAN).0, QNAN);
        assert_eq!(run(sqrt, f(2.0)).0, f(std::f32::consts::SQRT_2));
        assert_eq!(run(sqrt, MAX).0, 0x5F7F_FFFF);
    }

    #[test]
    fn rcp_edges() {
        // Peer rcp-db3802fa.json and rcp_vector-6504f857.json.
        assert_eq!(run(rcp, NINF).0, NZERO);
        assert_eq!(run(rcp, INF), (0, vec![D::InfInput]));
        assert_eq!(
            run(rcp, NZERO),
            (NINF, vec![D::InfProduced, D::RcpOfZeroOrDenorm])
        );
        assert_eq!(run(rcp, 0).0, INF);
        assert_eq!(run(rcp, f(-1.0)).0, f(-1.0));
        assert_eq!(run(rcp, f(-2.0)).0, f(-0.5));
        assert_eq!(run(rcp, f(4.0)).0, f(0.25));
        assert_eq!(run(rcp, f(-4.0)).0, f(-0.25));
        // rcp(2^-127) is +inf in D3D (input flushed), not 2^127 (doc §2.2).
        assert_eq!(run(rcp, 0x0040_0000).0, INF);
        assert_eq!(run(rcp, NDEN).0, NINF);
        assert_eq!(
            run(rcp, f(2f32.powi(127))),
            (0, vec![D::DenormOutputFlushed])
        );
        assert_eq!(run(rcp, 0x7E80_0000).0, 0x0080_0000);
        assert_eq!(run(rcp, MAX).0, 0);
        assert_eq!(run(rcp, SNAN).0, QNAN);
        assert_eq!(run(rcp, f(3.0)).0, f(1.0 / 3.0));
    }

    #[test]
    fn sincos_edges() {
        // Peer sincos-77f01829.json: sin(±0) = ±0, cos(±0) = 1.
        assert_eq!(run(sin, 0), (0, vec![]));
        assert_eq!(run(sin, NZERO), (NZERO, vec![D::SignedZero]));
        assert_eq!(run(cos, 0).0, ONE);
        assert_eq!(run(cos, NZERO).0, ONE);
        assert_eq!(run(sin, NDEN).0, NZERO);
        assert_eq!(run(cos, DEN).0, ONE);
        for g in [sin, cos] {
            assert_eq!(
                run(g, INF),
                (
                    QNAN,
                    vec![
                        D::NanProduced,
                        D::InfInput,
                        D::SinCosOutsidePi,
                        D::SinCosOutside100Pi
                    ]
                )
            );
            assert_eq!(run(g, NINF).0, QNAN);
            assert_eq!(run(g, SNAN), (QNAN, vec![D::NanInput]));
        }
        let pi = f(std::f32::consts::PI);
        assert_eq!(run(sin, pi), (f(-8.742278e-8), vec![D::SinCosOutsidePi]));
        assert_eq!(run(cos, pi).0, f(-1.0));
        assert_eq!(run(sin, f(std::f32::consts::FRAC_PI_2)), (ONE, vec![]));
        assert_eq!(run(cos, f(3.0)).1, vec![]);
        // Large arguments are reduced exactly: sin(1e10) ≈ -0.48750604.
        let (r, e) = run(sin, f(1e10));
        assert!((f32::from_bits(r) - -0.487_506).abs() < 1e-6);
        assert_eq!(e, vec![D::SinCosOutsidePi, D::SinCosOutside100Pi]);
        assert!(f32::from_bits(run(sin, MAX).0).abs() <= 1.0);
    }

    #[test]
    fn bands() {
        let b = |op| error_band(op, 0);
        assert_eq!(b(Opcode::Add), Band::Exact);
        assert_eq!(b(Opcode::Mul), Band::Exact);
        assert_eq!(b(Opcode::Div), Band::Ulp { ulp: 3 });
        assert_eq!(b(Opcode::Sqrt), Band::Ulp { ulp: 1 });
        let rel = Band::Rel {
            rel: 2f64.powi(-21),
        };
        assert_eq!(b(Opcode::Rcp), rel);
        assert_eq!(b(Opcode::Exp), rel);
        assert_eq!(b(Opcode::Rsq), rel);
        assert!(matches!(b(Opcode::Log), Band::RelOrAbs { .. }));
        assert_eq!(b(Opcode::Sincos), Band::Abs { abs: 0.0008 });
        assert_eq!(b(Opcode::Mad), Band::TermScaled { steps: 2 });
        assert_eq!(b(Opcode::Dp4), Band::TermScaled { steps: 5 });
        assert_eq!(b(Opcode::Ftoi), Band::Exact);
        assert_eq!(b(Opcode::Drcp), Band::Ulp { ulp: 1 });
        assert_eq!(b(Opcode::Iadd), Band::Exact);
        // Beyond 100π D3D requires nothing of sincos: its own band is Any there.
        let mut ev = 0;
        let _ = sin(f(1000.0), &mut ev);
        assert_eq!(error_band(Opcode::Sincos, ev), Band::Any);
        let mut ev = 0;
        let _ = sin(f(300.0), &mut ev);
        assert_eq!(error_band(Opcode::Sincos, ev), Band::Abs { abs: 0.0008 });
    }
}
