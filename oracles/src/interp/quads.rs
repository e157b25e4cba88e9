//! Pixel quads. Lanes `4q .. 4q + 3` of a batch are the 2×2 quad `q`: lane `4q + i` is the
//! pixel at `x = i & 1`, `y = i >> 1` of it, the layout in which the GPU executor's render
//! pipeline draws vectors. Derivatives and the implicit LOD of a sample come from the quad.
//!
//! Decisions (docs/interpreter.md, "Quads"):
//! - a coarse derivative is the top row's (x) or the left column's (y) difference, the pixel
//!   the quad's first lane is: the H200 takes it there (measured), and a per-lane verdict
//!   cannot accept "either row, the same in all four lanes", which is what tells a coarse
//!   lowering from a fine one. Every derivative lane enters `quad-derivative`, which an
//!   executor entry scopes to lavapipe (wrong derivatives in some quads, coarse computed as
//!   fine);
//! - `deriv_rtx`/`deriv_rty` may be either: where coarse and fine differ the lane enters
//!   `derivative-choice`;
//! - a quad with a lane that is not running (beyond the batch, discarded, or on another
//!   branch) gives undefined derivatives: `derivative-divergent`.

use dxbc::{Instruction, Opcode};

use super::InterpError;
use super::machine::{Consumer, Machine, write_mask};
use crate::domain::{Domain, Events, raise};
use crate::rules::float as fl;
use crate::rules::interpolation;

/// How far past the range of its exact forms a device's implicit LOD may lie (a decision,
/// docs/interpreter.md, "Quads").
const LOD_SLACK: f64 = 0.5;

/// Which difference a derivative instruction takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Coarse,
    Fine,
    /// `deriv_rtx`/`deriv_rty`: coarse or fine, the implementation's choice.
    Either,
}

/// `b − a` with D3D's float rules.
fn difference(a: u32, b: u32, ev: &mut Events) -> u32 {
    fl::fadd(b, a ^ 0x8000_0000, ev)
}

/// The lanes of `l`'s quad whose difference a derivative along x (`along_x`) or y takes:
/// (coarse pair, fine pair), each (from, to).
fn pairs(l: usize, along_x: bool) -> ((usize, usize), (usize, usize)) {
    let q = l & !3;
    let i = l & 3;
    if along_x {
        ((q, q + 1), (q + (i & 2), q + (i & 2) + 1))
    } else {
        ((q, q + 2), (q + (i & 1), q + (i & 1) + 2))
    }
}

impl Machine<'_> {
    /// Whether every lane of `l`'s quad is in the batch and running.
    pub(super) fn quad_complete(&self, l: usize) -> bool {
        let q = l & !3;
        q + 3 < self.lanes && (q..q + 4).all(|k| self.active.get(k))
    }

    /// `deriv_rt{x,y}` in its coarse, fine and unspecified forms.
    pub fn derivative(&mut self, inst: &Instruction, at: usize) -> Result<(), InterpError> {
        use Opcode::*;
        let (along_x, kind) = match inst.opcode {
            DerivRtx => (true, Kind::Either),
            DerivRtxCoarse => (true, Kind::Coarse),
            DerivRtxFine => (true, Kind::Fine),
            DerivRty => (false, Kind::Either),
            DerivRtyCoarse => (false, Kind::Coarse),
            _ => (false, Kind::Fine),
        };
        if inst.saturate {
            return Err(InterpError::Unsupported {
                index: at,
                what: "a saturated derivative".into(),
            });
        }
        let dst = &inst.operands[0];
        let mask = write_mask(dst);
        let lanes = self.lanes;
        let active: Vec<usize> = self.active.lanes().collect();
        let complete: Vec<bool> = (0..lanes).map(|l| self.quad_complete(l)).collect();
        for c in 0..4 {
            if mask & (1 << c) == 0 {
                continue;
            }
            let mut v = vec![0u32; lanes];
            self.read(&inst.operands[1], c, Consumer::Float, at, &mut v)?;
            let mut out = vec![0u32; lanes];
            let get = |k: usize| v.get(k).copied().unwrap_or(0);
            for &l in &active {
                let ev = &mut self.scratch_ev[l];
                if !complete[l] {
                    raise(ev, Domain::DerivativeDivergent);
                }
                let ((ca, cb), (fa, fb)) = pairs(l, along_x);
                let coarse = difference(get(ca), get(cb), ev);
                let fine = difference(get(fa), get(fb), ev);
                raise(ev, Domain::QuadDerivative);
                out[l] = match kind {
                    Kind::Coarse => coarse,
                    Kind::Fine => fine,
                    Kind::Either => {
                        if coarse != fine {
                            raise(ev, Domain::DerivativeChoice);
                        }
                        coarse
                    }
                };
            }
            self.write(dst, c, &out, at)?;
        }
        Ok(())
    }

    /// `eval_snapped`, `eval_sample_index` and `eval_centroid`: the source attribute evaluated
    /// at an offset, a sample of the pipeline's target or the centroid (the centre of a fully
    /// covered pixel), from the plane of the quad's fed values ([`interpolation::evaluate`]).
    /// The source must name `v#` directly; its modifier applies to the evaluated value. A
    /// `constant` attribute is its fed value anywhere (the FS ignores the position).
    pub fn evaluate(&mut self, inst: &Instruction, at: usize) -> Result<(), InterpError> {
        let Some(reg) = dxbc::evaluation::evaluated_register(inst) else {
            return Err(InterpError::Unsupported {
                index: at,
                what: format!(
                    "`{}` of a source other than a directly indexed `v#`",
                    inst.opcode.mnemonic()
                ),
            });
        };
        let lanes = self.lanes;
        let constant = dxbc::evaluation::is_constant(&self.program.instructions, reg);
        let mut offsets = vec![[0.0f64; 2]; lanes];
        let mut past = vec![false; lanes];
        if !constant && dxbc::evaluation::off_centre(inst.opcode) {
            let mut x = vec![0u32; lanes];
            self.read(&inst.operands[2], 0, Consumer::Int, at, &mut x)?;
            if inst.opcode == Opcode::EvalSnapped {
                let mut y = vec![0u32; lanes];
                self.read(&inst.operands[2], 1, Consumer::Int, at, &mut y)?;
                for l in 0..lanes {
                    offsets[l] = [
                        interpolation::snapped_offset(x[l]),
                        interpolation::snapped_offset(y[l]),
                    ];
                }
            } else if inst.opcode == Opcode::EvalSampleIndex {
                for l in 0..lanes {
                    match interpolation::sample_offset(x[l]) {
                        Some(o) => offsets[l] = o,
                        None => past[l] = true,
                    }
                }
            }
        }
        let src = &inst.operands[1];
        let raw = dxbc::Operand {
            modifier: dxbc::Modifier::None,
            ..src.clone()
        };
        let dst = &inst.operands[0];
        let mask = write_mask(dst);
        let active: Vec<usize> = self.active.lanes().collect();
        for c in 0..4 {
            if mask & (1 << c) == 0 {
                continue;
            }
            let mut v = vec![0u32; lanes];
            self.read_raw(&raw, src.source_component(c), at, &mut v)?;
            let mut out = vec![0u32; lanes];
            for &l in &active {
                let ev = &mut self.scratch_ev[l];
                let q = l & !3;
                let value = if past[l] {
                    // A sample past the target's: D3D gives no position.
                    raise(ev, Domain::D3dUndefined);
                    v[l]
                } else if offsets[l] == [0.0, 0.0] {
                    v[l]
                } else if q + 3 >= lanes {
                    // No quad, so no plane: the batch ends inside it.
                    raise(ev, Domain::D3dUndefined);
                    v[l]
                } else {
                    let quad = [v[q], v[q + 1], v[q + 2], v[q + 3]];
                    interpolation::evaluate(quad, l & 3, offsets[l], ev)
                };
                let value = super::machine::apply_modifier(value, src.modifier, Consumer::Float);
                out[l] = if inst.saturate {
                    fl::saturate_ev(value, ev)
                } else {
                    value
                };
            }
            self.write(dst, c, &out, at)?;
        }
        Ok(())
    }

    /// The implicit level of detail of lane `l`'s sample of a `w`×`h` level 0 at (u, v)
    /// (`coords[0]`, `coords[1]`, every lane's): log2 of the longer screen-space step in texels
    /// (FS §7.18.11). Devices approximate it (coarse or fine steps, the vector length or its
    /// largest component), so the answer is a range: (lowest, middle, highest), the middle from
    /// coarse steps and vector lengths; all NaN where a step is NaN (a NaN or infinite
    /// coordinate in the quad). `None` for a lane whose quad is not complete.
    pub(super) fn implicit_lod(
        &self,
        coords: &[Vec<u32>; 4],
        l: usize,
        size: [u32; 3],
    ) -> Option<(f32, f32, f32)> {
        if !self.quad_complete(l) {
            return None;
        }
        let f = |c: usize, k: usize| f64::from(f32::from_bits(fl::ftz(coords[c][k])));
        // Axes of size 0 (w of a 2D texture, whose z may be an array layer) take no step.
        let step = |(a, b): (usize, usize)| -> [f64; 3] {
            std::array::from_fn(|c| match size[c] {
                0 => 0.0,
                n => (f(c, b) - f(c, a)) * f64::from(n),
            })
        };
        let (cx, fx) = pairs(l, true);
        let (cy, fy) = pairs(l, false);
        Some(lod_range(&[(step(cx), step(cy)), (step(fx), step(fy))]))
    }
}

/// One pixel step of a sample in texels: (x step, y step), each (u, v, w); w is 0 but for a
/// 3D texture.
pub(super) type Steps = ([f64; 3], [f64; 3]);

/// The LOD range of a sample whose screen-space steps in texels (x step, y step) are each of
/// `candidates` (the first gives the middle): log2 of the longer step, by its length or by its
/// largest component, widened by [`LOD_SLACK`] each way; all NaN where a step is NaN.
pub(super) fn lod_range(candidates: &[Steps]) -> (f32, f32, f32) {
    let mut all = Vec::with_capacity(2 * candidates.len());
    let mut middle = f64::NAN;
    for (k, (sx, sy)) in candidates.iter().enumerate() {
        // hypot(h, 0) is h exactly: a 2D step's length is the same as before w was added.
        let length = |s: &[f64; 3]| s[0].hypot(s[1]).hypot(s[2]);
        let euclid = length(sx).max(length(sy));
        let largest = sx.iter().chain(sy).fold(0.0f64, |m, c| m.max(c.abs()));
        all.extend([euclid.log2(), largest.log2()]);
        if k == 0 {
            middle = euclid.log2();
        }
    }
    // A NaN or infinite coordinate leaves no LOD at all (NaN steps), and a step past the f32
    // range overflows a device's own (f32) arithmetic: any level.
    // The test is on the steps themselves: `f64::max` drops a NaN, so a NaN step along y
    // beside a zero step along x gave a lengths' maximum of 0 (an LOD of −inf) and hid it.
    let steps = || {
        candidates
            .iter()
            .flat_map(|(sx, sy)| sx.iter().chain(sy))
            .copied()
    };
    let overflows = steps().any(|c| c.abs() > f64::from(f32::MAX));
    if overflows || steps().any(f64::is_nan) || all.iter().any(|x| x.is_nan()) {
        return (f32::NAN, f32::NAN, f32::NAN);
    }
    // Half a level either way on top: D3D lets a device approximate the LOD (FS §7.18.11), and
    // the H200 answered outside the exact forms in 10 lanes of 10,000.
    let lo = all.iter().copied().fold(f64::INFINITY, f64::min) - LOD_SLACK;
    let hi = all.iter().copied().fold(f64::NEG_INFINITY, f64::max) + LOD_SLACK;
    (lo as f32, middle as f32, hi as f32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quad_pairs_follow_the_render_layout() {
        // Lane 6 is x = 0, y = 1 of quad 1 (lanes 4..7).
        assert_eq!(pairs(6, true), ((4, 5), (6, 7)));
        assert_eq!(pairs(6, false), ((4, 6), (4, 6)));
        assert_eq!(pairs(5, false), ((4, 6), (5, 7)));
    }

    #[test]
    fn a_nan_step_beside_a_zero_one_leaves_no_lod() {
        // Found on the H200 and SwiftShader: a quad whose x step was 0 and whose y step was NaN
        // (a NaN coordinate below) got an LOD of −inf, exact at level 0, where devices took
        // level 2.
        let (lo, mid, hi) = lod_range(&[([0.0; 3], [f64::NAN, -0.5, 0.0])]);
        assert!(lo.is_nan() && mid.is_nan() && hi.is_nan());
    }

    #[test]
    fn a_3d_step_counts_its_depth() {
        // A step of 4 texels along w alone: LOD 2, widened by the slack.
        let (lo, mid, hi) = lod_range(&[([0.0, 0.0, 4.0], [0.0, 0.0, 0.0])]);
        assert_eq!((lo, mid, hi), (1.5, 2.0, 2.5));
        // (3, 4, 0): the length 5 and the largest component 4 bound the range.
        let (lo, _, hi) = lod_range(&[([3.0, 4.0, 0.0], [0.0; 3])]);
        assert_eq!((lo, hi), ((2.0 - 0.5) as f32, (5f64.log2() + 0.5) as f32));
    }

    #[test]
    fn a_difference_follows_d3d_float_rules() {
        let mut ev = 0;
        assert_eq!(
            difference(1.5f32.to_bits(), 4.0f32.to_bits(), &mut ev),
            2.5f32.to_bits()
        );
        assert_eq!(ev, 0);
    }
}
