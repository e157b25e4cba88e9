//! 3D textures: point and trilinear footprints over (x, y, z) of one level, with the same
//! precision rules as a 2D level (FS §7.18.8): exact where the footprint and its weights are,
//! open near a texel boundary, at a fractional blend of different texels, or where a texel
//! the blend weighs (even at 0) is not a plain finite value.

use super::{Coords, across, address, axis, floor_i64, modes, touched};
use crate::domain::{Domain, Events, raise};
use crate::interp::resources::{Sampler, Texture2d};

/// A level's size along x, y and z.
fn sizes(t: &Texture2d, level: usize) -> [u32; 3] {
    let (w, h) = t.level_size(level);
    [w, h, t.level_layers(level)]
}

/// The texel at integer (x, y, z) of a level after the sampler's address modes, or the border
/// colour.
fn fetch(t: &Texture2d, s: &Sampler, level: usize, at: [i64; 3]) -> [u32; 4] {
    let n = sizes(t, level);
    let m = modes(t, s);
    match (
        address(at[0], n[0], m[0]),
        address(at[1], n[1], m[1]),
        address(at[2], n[2], m[2]),
    ) {
        (Some(x), Some(y), Some(z)) => t.texel(level, z, x, y).unwrap_or([0; 4]),
        _ => s.border,
    }
}

/// The texel-space position of a sample along each axis.
fn position(t: &Texture2d, level: usize, at: &Coords, ev: &mut Events) -> [f64; 3] {
    let n = sizes(t, level);
    [
        axis(at.u, n[0], ev),
        axis(at.v, n[1], ev),
        axis(at.w, n[2], ev),
    ]
}

/// The first corner of a trilinear footprint (offsets included) and the weights' fractions.
fn corner(p: [f64; 3], offsets: [i8; 3]) -> ([i64; 3], [f64; 3]) {
    let q = p.map(|x| x - 0.5);
    (
        std::array::from_fn(|k| floor_i64(q[k]) + i64::from(offsets[k])),
        q.map(|x| x - x.floor()),
    )
}

/// Filter one level of a 3D texture: point takes the texel under the sample, linear blends
/// the eight around it.
pub(super) fn sample_level(
    t: &Texture2d,
    s: &Sampler,
    level: usize,
    at: &Coords,
    ev: &mut Events,
) -> [f64; 4] {
    let p = position(t, level, at, ev);
    let off = at.offsets.map(i64::from);
    let as_f64 = |t: [u32; 4]| t.map(|b| f64::from(f32::from_bits(b)));
    if !s.linear {
        let base = p.map(floor_i64);
        let texel = fetch(t, s, level, std::array::from_fn(|k| base[k] + off[k]));
        // Across a boundary closer than the subtexel precision, the neighbour is an answer too.
        let choices: [Vec<i64>; 3] = std::array::from_fn(|k| {
            std::iter::once(base[k])
                .chain(across(p[k]))
                .map(|i| i + off[k])
                .collect()
        });
        let mut open = false;
        for &x in &choices[0] {
            for &y in &choices[1] {
                for &z in &choices[2] {
                    let other = fetch(t, s, level, [x, y, z]);
                    t.format.enter(&other, ev);
                    open |= other != texel;
                }
            }
        }
        if open {
            raise(ev, Domain::FilterPrecision);
        }
        return as_f64(texel);
    }
    let (i0, frac) = corner(p, at.offsets);
    let footprint: Vec<([u32; 4], f64)> = (0..8)
        .map(|b: usize| {
            let bit = |k: usize| (b >> k) & 1 == 1;
            let texel = fetch(
                t,
                s,
                level,
                std::array::from_fn(|k| i0[k] + i64::from(bit(k))),
            );
            let weight = (0..3)
                .map(|k| if bit(k) { frac[k] } else { 1.0 - frac[k] })
                .product::<f64>();
            (texel, weight)
        })
        .collect();
    for (texel, _) in &footprint {
        t.format.enter(texel, ev);
    }
    let all_same = footprint.iter().all(|(x, _)| *x == footprint[0].0);
    if !blend_plain(t, s, level, at) || (!all_same && frac.iter().any(|f| *f != 0.0)) {
        raise(ev, Domain::FilterPrecision);
    }
    if all_same {
        return as_f64(footprint[0].0);
    }
    std::array::from_fn(|c| {
        footprint
            .iter()
            .map(|(texel, w)| as_f64(*texel)[c] * w)
            .sum()
    })
}

/// Whether a trilinear blend of `level` at `at` gives the exact value of its weighted texels
/// whatever a device does with the texels it weights 0 (the 2D rule, `super::blend_plain`, in
/// three axes).
pub(super) fn blend_plain(t: &Texture2d, s: &Sampler, level: usize, at: &Coords) -> bool {
    let p = position(t, level, at, &mut 0);
    let (i0, _) = corner(p, at.offsets);
    let n = sizes(t, level);
    let m = modes(t, s);
    let axes: [Vec<i64>; 3] = std::array::from_fn(|k| touched(i0[k], n[k], m[k]));
    axes[0].iter().all(|&x| {
        axes[1].iter().all(|&y| {
            axes[2].iter().all(|&z| {
                fetch(t, s, level, [x, y, z]).iter().all(|w| {
                    let f = f32::from_bits(*w);
                    f.is_finite() && !f.is_subnormal() && *w != 0x8000_0000
                })
            })
        })
    })
}
