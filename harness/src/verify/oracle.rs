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

/// The error band of a whole program, for programs of many instructions where no single op's
/// band applies: the sum of the bands of every instruction whose D3D rule allows one (each
/// relative band counted as ULPs of 2^-23). A difference within it is "within tolerance".
///
/// Decision: a sum of per-instruction bands, without modelling how later exact instructions
/// amplify an earlier error (cancellation can). A lane beyond it is a mismatch, to be
/// explained; a program without approximate instructions has no band at all.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ProgramBand {
    pub ulps: u64,
    pub abs: f64,
}

impl ProgramBand {
    pub fn of(program: &dxbc::Program) -> ProgramBand {
        let ulps_of = |rel: f32| (f64::from(rel) * f64::from(1u32 << 23)).ceil() as u64;
        let mut b = ProgramBand::default();
        for inst in &program.instructions {
            match error_band(inst.opcode) {
                Tolerance::Exact => {}
                Tolerance::Ulp(n) => b.ulps += u64::from(n),
                Tolerance::Rel(r) => b.ulps += ulps_of(r),
                Tolerance::RelOrAbs { rel, abs } => {
                    b.ulps += ulps_of(rel);
                    b.abs += f64::from(abs);
                }
                Tolerance::Abs(a) => b.abs += f64::from(a),
                Tolerance::TermScaled { steps } => b.ulps += u64::from(steps),
            }
        }
        b
    }

    /// Whether two finite float words are within the band.
    pub fn allows(&self, reference: u32, got: u32) -> bool {
        let (r, g) = (f(reference), f(got));
        if !r.is_finite() || !g.is_finite() || (self.ulps == 0 && self.abs == 0.0) {
            return false;
        }
        ulp_distance(reference, got) <= self.ulps || (g - r).abs() <= self.abs
    }
}

/// The catalog entries that allow a difference in a lane with these events: those the
/// translation claims, those scoped to this executor, and the don't-care entry for what D3D
/// leaves undefined.
pub fn allowing(events: Events, claimed: &[String], adapter: &str) -> Vec<String> {
    let catalog = oracles::catalog::catalog();
    let mut ids: Vec<String> = claimed
        .iter()
        .filter(|id| {
            catalog
                .get(id)
                .is_some_and(|e| e.executors.is_empty() && e.allows(events))
        })
        .cloned()
        .collect();
    ids.extend(
        catalog
            .entries
            .iter()
            .filter(|e| (e.scoped_to(adapter) || e.is_dont_care()) && e.allows(events))
            .map(|e| e.id.clone()),
    );
    ids.sort();
    ids.dedup();
    ids
}

/// The verdict on one word of a multi-instruction program: equal, within the program's band,
/// adapted by an allowed entry whose domain the run entered, or a mismatch.
pub fn judge_word(
    band: &ProgramBand,
    reference: u32,
    got: u32,
    events: Events,
    claimed: &[String],
    adapter: &str,
) -> Verdict {
    if reference == got {
        return Verdict::Match;
    }
    if band.allows(reference, got) {
        return Verdict::Within;
    }
    attribute(events, claimed, adapter)
}

/// A difference outside every band: adapted by the entries that allow it, else a mismatch.
pub fn attribute(events: Events, claimed: &[String], adapter: &str) -> Verdict {
    let ids = allowing(events, claimed, adapter);
    if ids.is_empty() {
        Verdict::Mismatch
    } else {
        Verdict::Adapted(ids)
    }
}

/// The verdict on one component.
#[allow(clippy::too_many_arguments)]
pub fn judge(
    op: Opcode,
    float_result: bool,
    reference: u32,
    got: u32,
    terms: f64,
    events: Events,
    claimed: &[String],
    adapter: &str,
) -> Verdict {
    if reference == got {
        return Verdict::Match;
    }
    if float_result && within(op, reference, got, terms) {
        return Verdict::Within;
    }
    attribute(events, claimed, adapter)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LAVAPIPE: &str = "llvmpipe (LLVM 15)";

    #[test]
    fn bands_and_attribution() {
        let j = |op, float, r, g, ev, claimed: &[String], adapter| {
            judge(op, float, r, g, 0.0, ev, claimed, adapter)
        };
        assert_eq!(j(Opcode::Add, true, 1, 1, 0, &[], LAVAPIPE), Verdict::Match);
        // sqrt allows 1 ULP; add allows none.
        assert_eq!(
            j(
                Opcode::Sqrt,
                true,
                0x3f80_0000,
                0x3f80_0001,
                0,
                &[],
                LAVAPIPE
            ),
            Verdict::Within
        );
        assert_eq!(
            j(
                Opcode::Add,
                true,
                0x3f80_0000,
                0x3f80_0001,
                0,
                &[],
                LAVAPIPE
            ),
            Verdict::Mismatch
        );
        // A difference is adapted only when the lane entered a domain of a claimed entry.
        let ev = oracles::domain::Domain::FtouOverflow.bit();
        let claimed = vec!["adapted/numeric-conversion-edges".to_string()];
        assert_eq!(
            j(
                Opcode::Ftou,
                false,
                0xffff_ffff,
                0xffff_ff00,
                ev,
                &claimed,
                LAVAPIPE
            ),
            Verdict::Adapted(claimed.clone())
        );
        assert_eq!(
            j(
                Opcode::Ftou,
                false,
                0xffff_ffff,
                0xffff_ff00,
                0,
                &claimed,
                LAVAPIPE
            ),
            Verdict::Mismatch
        );
        assert_eq!(
            j(
                Opcode::Ftou,
                false,
                0xffff_ffff,
                0xffff_ff00,
                ev,
                &[],
                LAVAPIPE
            ),
            Verdict::Mismatch
        );
        // An executor-scoped entry applies on its executor only, claimed or not.
        let tiny = oracles::domain::Domain::TinyBeforeRounding.bit();
        assert_eq!(
            j(
                Opcode::Mul,
                true,
                0x8080_0000,
                0x8000_0000,
                tiny,
                &[],
                "NVIDIA H200"
            ),
            Verdict::Adapted(vec!["dxdiff/ftz-before-rounding".into()])
        );
        assert_eq!(
            j(
                Opcode::Mul,
                true,
                0x8080_0000,
                0x8000_0000,
                tiny,
                &[],
                LAVAPIPE
            ),
            Verdict::Mismatch
        );
    }
}
