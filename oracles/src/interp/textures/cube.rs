//! Cube textures: which face a direction selects and where on it (FS §7.18.6, the cube-map
//! face table D3D shares with Vulkan and WebGPU).

/// The face a direction selects (its layer, in D3D's order +X, −X, +Y, −Y, +Z, −Z) and the
/// normalised (u, v) on it, or `None` for a direction that selects no face: a zero, NaN or
/// infinite component leaves the division by the major axis without a value.
///
/// The major axis is the component of largest magnitude. Where two tie, the direction lies on
/// the edge between their faces and u or v is exactly 0 or 1 on either: a position D3D's
/// subtexel precision leaves open anyway, so the order ties are broken in (z, then y, then x)
/// is a decision that no verdict depends on.
pub(super) fn face(dir: [f32; 3]) -> Option<(u32, f64, f64)> {
    let [x, y, z] = dir.map(f64::from);
    if !(x.is_finite() && y.is_finite() && z.is_finite()) {
        return None;
    }
    let (ax, ay, az) = (x.abs(), y.abs(), z.abs());
    let (face, sc, tc, ma) = if az >= ax && az >= ay {
        if z.is_sign_negative() {
            (5, -x, -y, az)
        } else {
            (4, x, -y, az)
        }
    } else if ay >= ax {
        if y.is_sign_negative() {
            (3, x, -z, ay)
        } else {
            (2, x, z, ay)
        }
    } else if x.is_sign_negative() {
        (1, z, -y, ax)
    } else {
        (0, -z, -y, ax)
    };
    if ma == 0.0 {
        return None;
    }
    Some((face, (sc / ma + 1.0) * 0.5, (tc / ma + 1.0) * 0.5))
}

/// Whether a direction's major axis lies where a device's f32 arithmetic on the direction
/// stays finite and normal: [2^-63, 2^63). Devices may normalise the direction first, and its
/// squared length then overflows or underflows outside it: the H200 read the centre of the +Z
/// face for (0, 0, −FLT_MAX) and for (0, FLT_MAX, 0), as for a zero direction. D3D states no
/// precision for such directions beyond f32 arithmetic, so a lane outside is open.
pub(super) fn in_range(dir: [f32; 3]) -> bool {
    let major = dir.iter().fold(0.0f64, |m, c| m.max(f64::from(c.abs())));
    (2f64.powi(-63)..2f64.powi(63)).contains(&major)
}

/// Whether a sample at texel-space `x` of a face `size` texels wide reads across the face's
/// edge, where D3D filters seamlessly into the neighbouring face (FS §7.18.6): a linear
/// footprint (or a gather's) that reaches past the edge, even at weight 0, or a point sample
/// within the subtexel precision of it. The interpreter does not model the neighbouring
/// face, so such a lane is open.
pub(super) fn crosses_edge(x: f64, size: u32, linear: bool, fraction: f64) -> bool {
    let n = f64::from(size);
    if linear {
        // Within the subtexel precision of a footprint boundary the device may shift the
        // footprint by one texel, onto the neighbouring face.
        !(0.5 + fraction..n - 0.5 - fraction).contains(&x)
    } else {
        !(fraction..=n - fraction).contains(&x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_axis_selects_its_face_with_the_face_table_orientation() {
        // (direction, face, u, v): the centre of each face, and a point towards +u and +v.
        let cases = [
            ([1.0, 0.0, 0.0], 0, 0.5, 0.5),
            ([-1.0, 0.0, 0.0], 1, 0.5, 0.5),
            ([0.0, 1.0, 0.0], 2, 0.5, 0.5),
            ([0.0, -1.0, 0.0], 3, 0.5, 0.5),
            ([0.0, 0.0, 1.0], 4, 0.5, 0.5),
            ([0.0, 0.0, -1.0], 5, 0.5, 0.5),
            // +X: u grows towards -z, v towards -y.
            ([2.0, -1.0, -1.0], 0, 0.75, 0.75),
            // -X: u grows towards +z.
            ([-2.0, 0.0, 1.0], 1, 0.75, 0.5),
            // +Y: u towards +x, v towards +z.
            ([1.0, 2.0, 1.0], 2, 0.75, 0.75),
            // -Y: v towards -z.
            ([0.0, -2.0, -1.0], 3, 0.5, 0.75),
            // +Z: u towards +x, v towards -y.
            ([1.0, -1.0, 2.0], 4, 0.75, 0.75),
            // -Z: u towards -x.
            ([-1.0, 0.0, -2.0], 5, 0.75, 0.5),
        ];
        for (dir, f, u, v) in cases {
            assert_eq!(face(dir), Some((f, u, v)), "{dir:?}");
        }
    }

    #[test]
    fn no_face_for_zero_or_non_finite_directions() {
        assert_eq!(face([0.0, -0.0, 0.0]), None);
        assert_eq!(face([f32::NAN, 1.0, 0.0]), None);
        assert_eq!(face([f32::INFINITY, 1.0, 0.0]), None);
    }

    #[test]
    fn directions_whose_squared_length_leaves_f32_are_out_of_range() {
        assert!(in_range([0.0, 0.0, 1.0]));
        assert!(in_range([2f32.powi(-63), 0.0, 0.0]));
        assert!(!in_range([0.0, 0.0, -f32::MAX]));
        assert!(!in_range([2f32.powi(63), 1.0, 0.0]));
        assert!(!in_range([2f32.powi(-64), 0.0, 0.0]));
        assert!(!in_range([0.0, 0.0, 0.0]));
    }

    #[test]
    fn ties_lie_on_a_face_edge() {
        // |x| == |z|: face +Z by the tie order, at u = 1 (its right edge).
        let (f, u, _) = face([1.0, 0.0, 1.0]).expect("a face");
        assert_eq!((f, u), (4, 1.0));
        assert!(crosses_edge(u * 4.0, 4, false, 1.0 / 256.0));
    }

    #[test]
    fn edges_open_linear_footprints_and_near_point_samples() {
        let fr = 1.0 / 256.0;
        assert!(!crosses_edge(0.6, 4, true, fr));
        assert!(crosses_edge(0.5, 4, true, fr));
        assert!(crosses_edge(0.49, 4, true, fr));
        assert!(crosses_edge(3.5, 4, true, fr));
        assert!(!crosses_edge(3.4, 4, true, fr));
        assert!(!crosses_edge(0.01, 4, false, fr));
        assert!(crosses_edge(0.001, 4, false, fr));
        assert!(crosses_edge(4.0, 4, false, fr));
    }
}
