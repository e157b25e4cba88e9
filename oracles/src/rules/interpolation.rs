//! Pull-model attribute evaluation (the FS's "pull-model attribute evaluation" and its
//! `eval_snapped`, `eval_sample_index` and `eval_centroid` instructions): an attribute read at
//! another position of the pixel than where the rasterizer fed it.
//!
//! Decisions (docs/interpreter.md, "Attribute evaluation"):
//! - the fed value of an input register is the attribute at the pixel centre, and the
//!   attribute is the plane through the four pixel centres of the quad (what a screen-aligned
//!   primitive of constant w gives, perspective or not). The quad's values must lie on a plane
//!   (the two rows step alike, and so do the two columns); four that lie on none come from no
//!   primitive: `d3d-undefined`;
//! - D3D states no precision for interpolation, so a value is defined only where every
//!   evaluation order gives the same word: each step along an axis, each product of a step
//!   and an offset, and every partial sum of the centre value and those products is a normal
//!   float (or zero) exactly. Elsewhere (an infinity, a NaN, a denormal, a rounding) the lane
//!   is `d3d-undefined`. The harness draws planes on which all of it is exact;
//! - an evaluation at the centre (offset 0) is the fed word itself, whatever it is.

use crate::domain::{Domain, Events, raise};

/// `eval_snapped`'s offset along one axis from its integer source: the low 4 bits, signed
/// (−8 to 7), in sixteenths of a pixel.
pub fn snapped_offset(word: u32) -> f64 {
    f64::from(((word << 28) as i32) >> 28) / 16.0
}

/// Where `eval_sample_index` evaluates sample `index` of the pipeline's
/// [`dxbc::evaluation::TARGET_SAMPLES`]-sample target, from the pixel centre in pixels;
/// `None` past its samples, where D3D gives no position.
pub fn sample_offset(index: u32) -> Option<[f64; 2]> {
    let count = dxbc::evaluation::TARGET_SAMPLES;
    dxbc::standard_sample_positions(count)
        .get(index as usize)
        .map(|[x, y]| [f64::from(*x) / 16.0, f64::from(*y) / 16.0])
}

/// `a + b` when it is exact in f64 and exactly a normal f32 (or zero), else `None`.
fn exact_sum(a: f64, b: f64) -> Option<f64> {
    let s = a + b;
    // Two-sum: the rounding error of `a + b` in f64 is zero exactly when the sum is exact.
    let bb = s - a;
    let err = (a - (s - bb)) + (b - bb);
    (err == 0.0 && representable(s)).then_some(s)
}

/// Whether `x` is exactly a finite, normal f32 or a zero.
fn representable(x: f64) -> bool {
    let f = x as f32;
    f64::from(f) == x && (f == 0.0 || f.is_normal())
}

/// The attribute of pixel `pixel` (0 to 3: x = bit 0, y = bit 1) of a quad whose fed words
/// are `quad`, evaluated `offset` pixels from the pixel's centre. Raises `d3d-undefined` where
/// D3D leaves the value open (module doc) and `quad-derivative` where the quad's plane is read
/// (an offset other than 0).
pub fn evaluate(quad: [u32; 4], pixel: usize, offset: [f64; 2], ev: &mut Events) -> u32 {
    let own = quad[pixel & 3];
    if offset == [0.0, 0.0] {
        return own;
    }
    raise(ev, Domain::QuadDerivative);
    match plane_value(quad, pixel & 3, offset) {
        Some(v) => v,
        None => {
            raise(ev, Domain::D3dUndefined);
            own
        }
    }
}

/// [`evaluate`]'s value off the centre where every evaluation order agrees, else `None`.
fn plane_value(quad: [u32; 4], pixel: usize, offset: [f64; 2]) -> Option<u32> {
    let v: [f64; 4] = quad.map(|w| f64::from(f32::from_bits(w)));
    if !v.iter().all(|x| representable(*x)) {
        return None;
    }
    // Each row's step along x and each column's along y, exact, and alike (a plane).
    let dx = exact_sum(v[1], -v[0])?;
    let dy = exact_sum(v[2], -v[0])?;
    if exact_sum(v[3], -v[2])? != dx || exact_sum(v[3], -v[1])? != dy {
        return None;
    }
    let own = v[pixel];
    let (px, py) = (dx * offset[0], dy * offset[1]);
    if !representable(px) || !representable(py) {
        return None;
    }
    // Every partial sum, so that every order of the three terms is exact.
    let with_x = exact_sum(own, px)?;
    exact_sum(own, py)?;
    exact_sum(px, py)?;
    let total = exact_sum(with_x, py)?;
    // The sign of a zero sum is IEEE's: −0 only when every term is −0, in any order.
    let word = (total as f32).to_bits();
    let negative_zero = total == 0.0
        && [own, px, py]
            .iter()
            .all(|t| *t == 0.0 && t.is_sign_negative());
    Some(if negative_zero { 0x8000_0000 } else { word })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::domains;

    fn quad(v: [f32; 4]) -> [u32; 4] {
        v.map(f32::to_bits)
    }

    fn entered(ev: Events) -> Vec<Domain> {
        domains(ev).collect()
    }

    #[test]
    fn snapped_offsets_are_signed_sixteenths_of_the_low_four_bits() {
        assert_eq!(snapped_offset(0), 0.0);
        assert_eq!(snapped_offset(7), 7.0 / 16.0);
        assert_eq!(snapped_offset(8), -0.5);
        assert_eq!(snapped_offset(0xf), -1.0 / 16.0);
        assert_eq!(
            snapped_offset(0x17),
            7.0 / 16.0,
            "bits above the fourth are ignored"
        );
    }

    #[test]
    fn samples_of_the_four_sample_pattern_and_none_past_it() {
        assert_eq!(sample_offset(0), Some([-2.0 / 16.0, -6.0 / 16.0]));
        assert_eq!(sample_offset(3), Some([2.0 / 16.0, 6.0 / 16.0]));
        assert_eq!(sample_offset(4), None);
    }

    #[test]
    fn a_plane_is_evaluated_exactly_at_the_offset() {
        // x steps by 2, y by 8: pixel 3 (x 1, y 1) is 1 + 2 + 8.
        let q = quad([1.0, 3.0, 9.0, 11.0]);
        let mut ev = 0;
        let v = evaluate(q, 3, [0.5, -0.25], &mut ev);
        assert_eq!(f32::from_bits(v), 11.0 + 1.0 - 2.0);
        assert_eq!(entered(ev), vec![Domain::QuadDerivative]);
    }

    #[test]
    fn the_centre_is_the_fed_word_whatever_it_is() {
        let q = [0x7fc0_0001, 5, 0x8000_0000, 1];
        let mut ev = 0;
        assert_eq!(evaluate(q, 2, [0.0, 0.0], &mut ev), 0x8000_0000);
        assert_eq!(ev, 0);
    }

    #[test]
    fn four_values_on_no_plane_are_undefined() {
        let mut ev = 0;
        evaluate(quad([1.0, 3.0, 9.0, 12.0]), 0, [0.5, 0.0], &mut ev);
        assert!(entered(ev).contains(&Domain::D3dUndefined));
    }

    #[test]
    fn a_rounding_evaluation_or_a_non_finite_value_is_undefined() {
        let mut ev = 0;
        // 2^24 + 2/16 is no f32.
        let big = 16_777_216.0f32;
        evaluate(
            quad([big, big + 2.0, big, big + 2.0]),
            0,
            [1.0 / 16.0, 0.0],
            &mut ev,
        );
        assert!(entered(ev).contains(&Domain::D3dUndefined));
        let mut ev = 0;
        evaluate(quad([f32::INFINITY, 1.0, 1.0, 1.0]), 1, [0.5, 0.5], &mut ev);
        assert!(entered(ev).contains(&Domain::D3dUndefined));
    }

    #[test]
    fn a_zero_sum_is_negative_only_when_every_term_is() {
        let mut ev = 0;
        // The x step is +0, so its product with a negative offset is −0.
        let q = quad([-0.0, -0.0, -0.0, -0.0]);
        assert_eq!(evaluate(q, 0, [-0.5, -0.5], &mut ev), 0x8000_0000);
        let q = quad([-0.0, -0.0, -0.0, -0.0]);
        assert_eq!(evaluate(q, 0, [0.5, 0.5], &mut ev), 0);
        assert_eq!(
            f32::from_bits(evaluate(quad([1.0, 0.0, 1.0, 0.0]), 0, [1.0, 0.0], &mut ev)),
            0.0
        );
    }
}
