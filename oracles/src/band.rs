//! Error bands: how far a result may be from the reference and still count as right.
//!
//! One type serves both sources of bands the judge reads: D3D's own accuracy requirement per
//! opcode ([`crate::rules::transcendental::error_band`], a D3D rule like any other) and the
//! tolerance of a catalog entry that applies ([`crate::catalog::Entry::tolerance_for`]). The
//! judge ([`crate::verdict::Judge`]) combines them per program; nothing else decides whether a
//! difference is "close enough".

use serde::{Deserialize, Serialize};

use crate::case::ulp_distance;

/// A band around a reference result.
///
/// Comparisons work on raw words: both must be finite floats for any band but [`Band::Any`]
/// to hold (an infinity or NaN is either equal or different, never "close").
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Band {
    /// Bit-exact.
    Exact,
    /// At most `ulp` representable steps from the reference (the `ulp` compare of
    /// docs/case-format.md, so +0 and −0 are 0 steps apart).
    Ulp {
        /// Largest allowed [`ulp_distance`].
        ulp: u32,
    },
    /// |got − ref| ≤ rel · |ref|.
    Rel {
        /// Allowed error as a fraction of |ref|.
        rel: f64,
    },
    /// |got − ref| ≤ abs.
    Abs {
        /// Allowed absolute error.
        abs: f64,
    },
    /// Within `ulp` steps or within `abs` (WGSL `log2`: 2^-21 absolute on [0.5, 2]).
    UlpOrAbs {
        /// Largest allowed [`ulp_distance`].
        ulp: u32,
        /// Allowed absolute error, whichever test is looser wins.
        abs: f64,
    },
    /// Within `rel · |ref|` or within `abs` (D3D `log`).
    RelOrAbs {
        /// Allowed error as a fraction of |ref|.
        rel: f64,
        /// Allowed absolute error, whichever test is looser wins.
        abs: f64,
    },
    /// |got − ref| ≤ steps · 2^-24 · (Σ|aᵢ·bᵢ| + |c|): a fused or reassociated op's band,
    /// scaled by the magnitude of its terms rather than of its result.
    TermScaled {
        /// Number of 2^-24 steps of the term magnitude allowed.
        steps: u32,
    },
    /// Any value: the requirement does not constrain the result at all.
    Any,
}

/// 2^-23: the relative size of one ULP at the bottom of a binade, used to count a relative
/// band as ULPs when bands of several instructions are summed.
const ULP_REL: f64 = 1.0 / 8_388_608.0;

fn float(w: u32) -> f64 {
    f64::from(f32::from_bits(w))
}

impl Band {
    /// Whether `got` lies within the band around `reference`. `terms` is the summed magnitude
    /// of a fused op's terms (Σ|aᵢ·bᵢ| + |c|), used only by [`Band::TermScaled`].
    pub fn allows(self, reference: u32, got: u32, terms: f64) -> bool {
        if reference == got || self == Band::Any {
            return true;
        }
        let (r, g) = (float(reference), float(got));
        if !r.is_finite() || !g.is_finite() {
            return false;
        }
        let d = (g - r).abs();
        let ulps = || ulp_distance(reference, got);
        match self {
            Band::Exact => false,
            Band::Ulp { ulp } => ulps() <= u64::from(ulp),
            Band::Rel { rel } => d <= rel * r.abs(),
            Band::Abs { abs } => d <= abs,
            Band::UlpOrAbs { ulp, abs } => ulps() <= u64::from(ulp) || d <= abs,
            Band::RelOrAbs { rel, abs } => d <= rel * r.abs() || d <= abs,
            Band::TermScaled { steps } => d <= f64::from(steps) * f64::from(2f32.powi(-24)) * terms,
            Band::Any => true,
        }
    }

    /// Whether the band's absolute part is the looser test at `reference`: an error of that
    /// size is allowed however small the value, so a later product scales it past any
    /// relative band (D3D `log` near 1: 2^-21 absolute on a result of 1e-5).
    pub fn absolute_at(self, reference: u32) -> bool {
        let r = float(reference).abs();
        match self {
            Band::Abs { .. } => true,
            Band::RelOrAbs { rel, abs } => rel * r < abs,
            Band::UlpOrAbs { ulp, abs } => f64::from(ulp) * ULP_REL * r < abs,
            _ => false,
        }
    }

    /// The wider of two bands for one op, where "wider" is judged by the ULPs each counts for
    /// in a program's sum ([`Band::as_sum`]); `Any` is wider than everything.
    pub fn widest(self, other: Band) -> Band {
        let (a, b) = (self.as_sum(), other.as_sum());
        if b.any || (!a.any && (b.ulps, b.abs) > (a.ulps, a.abs)) {
            other
        } else {
            self
        }
    }

    /// This band as a term of a program's summed band: relative bands count as ULPs of 2^-23,
    /// a term-scaled band as its steps.
    pub fn as_sum(self) -> ProgramBand {
        let ulps_of = |rel: f64| (rel / ULP_REL).ceil() as u64;
        let mut b = ProgramBand::default();
        match self {
            Band::Exact => {}
            Band::Ulp { ulp } => b.ulps = u64::from(ulp),
            Band::Rel { rel } => b.ulps = ulps_of(rel),
            Band::Abs { abs } => b.abs = abs,
            Band::UlpOrAbs { ulp, abs } => {
                b.ulps = u64::from(ulp);
                b.abs = abs;
            }
            Band::RelOrAbs { rel, abs } => {
                b.ulps = ulps_of(rel);
                b.abs = abs;
            }
            Band::TermScaled { steps } => b.ulps = u64::from(steps),
            Band::Any => b.any = true,
        }
        b
    }
}

impl std::fmt::Display for Band {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Band::Exact => f.write_str("exact"),
            Band::Ulp { ulp } => write!(f, "{ulp} ulp"),
            Band::Rel { rel } => write!(f, "rel {rel:e}"),
            Band::Abs { abs } => write!(f, "abs {abs:e}"),
            Band::UlpOrAbs { ulp, abs } => write!(f, "{ulp} ulp or abs {abs:e}"),
            Band::RelOrAbs { rel, abs } => write!(f, "rel {rel:e} or abs {abs:e}"),
            Band::TermScaled { steps } => write!(f, "term-scaled {steps}"),
            Band::Any => f.write_str("any"),
        }
    }
}

/// The band of a program of many instructions, where no single op's band applies: the sum of
/// the bands of its instructions, each relative band counted as ULPs of 2^-23.
///
/// Decision: a sum of per-instruction bands, without modelling how later exact instructions
/// amplify an earlier error. Amplification is attributed through the interpreter's events
/// instead (`fusion-sensitive`, `cancellation`, `approximate-amplified`).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ProgramBand {
    /// Summed ULP bands, relative bands counted as ULPs of 2^-23.
    pub ulps: u64,
    /// Summed absolute bands.
    pub abs: f64,
    /// Some instruction's band is [`Band::Any`].
    pub any: bool,
}

impl ProgramBand {
    /// Add one instruction's band.
    pub fn add(&mut self, b: Band) {
        let s = b.as_sum();
        self.ulps += s.ulps;
        self.abs += s.abs;
        self.any |= s.any;
    }

    /// Whether the program has no band at all (every instruction exact).
    pub fn is_exact(&self) -> bool {
        self.ulps == 0 && self.abs == 0.0 && !self.any
    }

    /// Whether two words are within the band (both finite floats, unless `any`).
    pub fn allows(&self, reference: u32, got: u32) -> bool {
        if reference == got || self.any {
            return true;
        }
        let (r, g) = (float(reference), float(got));
        if !r.is_finite() || !g.is_finite() || self.is_exact() {
            return false;
        }
        ulp_distance(reference, got) <= self.ulps || (g - r).abs() <= self.abs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ONE: u32 = 0x3f80_0000;

    #[test]
    fn bands_hold_where_they_say() {
        assert!(Band::Exact.allows(ONE, ONE, 0.0));
        assert!(!Band::Exact.allows(ONE, ONE + 1, 0.0));
        assert!(Band::Ulp { ulp: 1 }.allows(ONE, ONE + 1, 0.0));
        assert!(!Band::Ulp { ulp: 1 }.allows(ONE, ONE + 2, 0.0));
        // +0 and -0 are zero steps apart.
        assert!(Band::Ulp { ulp: 0 }.allows(0, 0x8000_0000, 0.0));
        let rel = Band::Rel {
            rel: 2f64.powi(-21),
        };
        assert!(rel.allows(ONE, ONE + 4, 0.0));
        assert!(!rel.allows(ONE, ONE + 9, 0.0));
        assert!(Band::Abs { abs: 0.5 }.allows(ONE, 1.4f32.to_bits(), 0.0));
        // The term-scaled band grows with the terms, not the result.
        let ts = Band::TermScaled { steps: 2 };
        assert!(!ts.allows(0, 2f32.powi(-20).to_bits(), 1.0));
        assert!(ts.allows(0, 2f32.powi(-20).to_bits(), 64.0));
        // Non-finite words are never "close", except under Any.
        assert!(!Band::Ulp { ulp: 1000 }.allows(0x7f80_0000, 0x7f7f_ffff, 0.0));
        assert!(Band::Any.allows(0x7f80_0000, 0x7fc0_0000, 0.0));
    }

    #[test]
    fn widest_and_sums() {
        let a = Band::Ulp { ulp: 3 };
        let b = Band::Ulp { ulp: 9 };
        assert_eq!(a.widest(b), b);
        assert_eq!(b.widest(a), b);
        assert_eq!(a.widest(Band::Any), Band::Any);
        let mut p = ProgramBand::default();
        assert!(p.is_exact());
        p.add(Band::Rel {
            rel: 2f64.powi(-21),
        });
        p.add(Band::Ulp { ulp: 1 });
        assert_eq!(p.ulps, 5);
        assert!(p.allows(ONE, ONE + 5));
        assert!(!p.allows(ONE, ONE + 6));
        p.add(Band::Any);
        assert!(p.allows(ONE, 0x7fc0_0000));
    }

    #[test]
    fn catalog_spelling_round_trips() {
        for b in [
            Band::Exact,
            Band::Ulp { ulp: 3 },
            Band::Rel { rel: 0.25 },
            Band::Abs { abs: 0.5 },
            Band::UlpOrAbs { ulp: 4, abs: 0.5 },
            Band::RelOrAbs {
                rel: 0.25,
                abs: 0.5,
            },
            Band::TermScaled { steps: 4 },
            Band::Any,
        ] {
            let text = serde_json::to_string(&b).expect("serializes");
            assert_eq!(serde_json::from_str::<Band>(&text).expect("parses"), b);
        }
        assert_eq!(
            serde_json::from_str::<Band>(r#"{"kind":"ulp","ulp":3}"#).expect("parses"),
            Band::Ulp { ulp: 3 }
        );
    }
}
