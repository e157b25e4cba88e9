//! The lane verdict: match (equal bits), within the op's error band, adapted by a catalog entry
//! the translation relied on and whose domain the interpreter entered in that lane, or mismatch.

use dxbc::Opcode;
use oracles::case::ulp_distance;
use oracles::domain::Events;
use oracles::rules::transcendental::{Tolerance, error_band};

/// One lane's verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Match,
    Within,
    Adapted(Vec<String>),
    Mismatch,
}

impl Verdict {
    fn rank(&self) -> u8 {
        match self {
            Verdict::Match => 0,
            Verdict::Within => 1,
            Verdict::Adapted(_) => 2,
            Verdict::Mismatch => 3,
        }
    }

    /// The worse of two verdicts (a lane is as bad as its worst component).
    pub fn worst(self, other: Verdict) -> Verdict {
        if other.rank() > self.rank() {
            other
        } else {
            self
        }
    }
}

fn f(w: u32) -> f64 {
    f64::from(f32::from_bits(w))
}

/// Whether `got` is within `op`'s D3D error band of the reference. `terms` is the summed
/// magnitude of a fused op's terms (mad, dp), for the term-scaled band.
pub fn within(op: Opcode, reference: u32, got: u32, terms: f64) -> bool {
    let (r, g) = (f(reference), f(got));
    if !r.is_finite() || !g.is_finite() {
        return false;
    }
    match error_band(op) {
        Tolerance::Exact => false,
        Tolerance::Ulp(n) => ulp_distance(reference, got) <= u64::from(n),
        Tolerance::Rel(rel) => (g - r).abs() <= f64::from(rel) * r.abs(),
        Tolerance::Abs(abs) => (g - r).abs() <= f64::from(abs),
        Tolerance::RelOrAbs { rel, abs } => {
            (g - r).abs() <= f64::from(rel) * r.abs() || (g - r).abs() <= f64::from(abs)
        }
        Tolerance::TermScaled { steps } => {
            (g - r).abs() <= f64::from(steps) * f64::from(2f32.powi(-24)) * terms
        }
    }
}

/// The verdict on one component.
pub fn judge(
    op: Opcode,
    float_result: bool,
    reference: u32,
    got: u32,
    terms: f64,
    events: Events,
    claimed: &[String],
) -> Verdict {
    if reference == got {
        return Verdict::Match;
    }
    if float_result && within(op, reference, got, terms) {
        return Verdict::Within;
    }
    let catalog = oracles::catalog::catalog();
    let ids: Vec<String> = claimed
        .iter()
        .filter(|id| catalog.get(id).is_some_and(|e| e.allows(events)))
        .cloned()
        .collect();
    if ids.is_empty() {
        Verdict::Mismatch
    } else {
        Verdict::Adapted(ids)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_and_attribution() {
        assert_eq!(judge(Opcode::Add, true, 1, 1, 0.0, 0, &[]), Verdict::Match);
        // sqrt allows 1 ULP; add allows none.
        assert_eq!(
            judge(Opcode::Sqrt, true, 0x3f80_0000, 0x3f80_0001, 0.0, 0, &[]),
            Verdict::Within
        );
        assert_eq!(
            judge(Opcode::Add, true, 0x3f80_0000, 0x3f80_0001, 0.0, 0, &[]),
            Verdict::Mismatch
        );
        // A difference is adapted only when the lane entered a domain of a claimed entry.
        let ev = oracles::domain::Domain::FtouOverflow.bit();
        let claimed = vec!["adapted/numeric-conversion-edges".to_string()];
        assert_eq!(
            judge(
                Opcode::Ftou,
                false,
                0xffff_ffff,
                0xffff_ff00,
                0.0,
                ev,
                &claimed
            ),
            Verdict::Adapted(claimed.clone())
        );
        assert_eq!(
            judge(
                Opcode::Ftou,
                false,
                0xffff_ffff,
                0xffff_ff00,
                0.0,
                0,
                &claimed
            ),
            Verdict::Mismatch
        );
        assert_eq!(
            judge(Opcode::Ftou, false, 0xffff_ffff, 0xffff_ff00, 0.0, ev, &[]),
            Verdict::Mismatch
        );
    }
}
