//! How a sample reads a level: D3D's coordinate precision, address modes, point and linear
//! footprints with their exactness rules, the level of detail, and gathers (FS §7.18). The
//! interpreter's answer is exact where D3D's precision leaves no choice; elsewhere the lane
//! enters the domain that says why.

use super::{cube, volume};
use crate::domain::{Domain, Events, raise};
use crate::interp::resources::{Address, Sampler, TexelFormat, Texture2d, TextureShape};
use crate::rules::float as fl;

/// D3D's texture-coordinate precision: 8 bits of subtexel fraction
/// (`D3D11_SUBTEXEL_FRACTIONAL_BIT_COUNT`) and 8 bits of LOD fraction
/// (`D3D11_MIP_LOD_FRACTIONAL_BIT_COUNT`). A sample whose position lies closer than this to
/// where the choice of texel, footprint or level changes may go either way on a conformant
/// device, and a blend weight is only this precise.
pub(super) const FRACTION: f64 = 1.0 / 256.0;

/// Texel-space positions beyond this magnitude leave the fixed-point range in which D3D's
/// subtexel precision is required (a decision: 2^15, twice the largest 2D dimension).
pub(super) const TEXEL_RANGE: f64 = 32768.0;

/// A level of detail this large (2^32 texels per pixel) is past every texture's last level; a
/// `sample_d` reaching it enters [`Domain::HugeGradient`].
pub(super) const HUGE_LOD: f32 = 32.0;

/// An LOD range that spans every level: what the interpreter allows where it does not model
/// the LOD (a cube's), with level 0 taken as the middle.
pub(super) const ANY_LOD: (f32, f32, f32) = (f32::NEG_INFINITY, 0.0, f32::INFINITY);

/// The LODs a range `lo..=hi` must agree at, besides its middle, for the lane to be exact: its
/// ends and every whole level between them (two ends can agree where a level between them
/// does not).
pub(super) fn lod_probes(lo: f32, hi: f32, levels: usize) -> Vec<f32> {
    let mut probes = vec![lo, hi];
    let last = levels.saturating_sub(1) as f32;
    let (a, b) = (lo.max(0.0).ceil(), hi.min(last));
    let mut k = a;
    while k < b {
        probes.push(k);
        k += 1.0;
    }
    probes
}

/// Where one sample is taken: normalised (u, v), and w for a 3D texture, the layer (or cube
/// face) already selected, and the texel offsets (immediate, or a `gather4_po`'s per lane). f64, so a cube's face coordinates
/// lose nothing.
pub(super) struct Coords {
    pub(super) u: f64,
    pub(super) v: f64,
    pub(super) w: f64,
    pub(super) layer: u32,
    pub(super) offsets: [i8; 3],
}

/// Where a sample of `t` is taken from its address's components (bits, as the shader gives
/// them; denormals flush): a cube's face and (u, v) on it (for a cube array, on the cube w
/// selects), a 3D texture's (u, v, w), or (u, v) (a 1D texture's v its row's centre) and, for
/// an array, the layer D3D selects.
pub(super) fn position(t: &Texture2d, bits: [u32; 4], offsets: [i8; 3], ev: &mut Events) -> Coords {
    if t.cube() {
        let mut at = cube_coords([bits[0], bits[1], bits[2]], ev);
        if t.view == TextureShape::CubeArray {
            // w selects the cube as an array's layer is selected; its faces are 6 layers.
            let cubes = (t.layer_count() / 6).max(1);
            let cube = array_layer(f32::from_bits(fl::ftz(bits[3])), cubes, ev);
            at.layer += 6 * cube;
        }
        return at;
    }
    let f = |w: u32| f32::from_bits(fl::ftz(w));
    // A 1D texture is one row: its v is the row's centre, which every address mode and
    // filter reads as that row alone, and only u takes an offset.
    let line = t.line();
    Coords {
        u: f64::from(f(bits[0])),
        v: if line { 0.5 } else { f64::from(f(bits[1])) },
        w: if t.volume() {
            f64::from(f(bits[2]))
        } else {
            0.0
        },
        layer: match t.layer_component() {
            Some(c) => array_layer(f(bits[c]), t.layer_count(), ev),
            None => 0,
        },
        offsets: if line { [offsets[0], 0, 0] } else { offsets },
    }
}

/// Whether a sample of a cube face of `size` texels at `at` reads across the face's edge
/// along either axis ([`cube::crosses_edge`]).
fn cube_edge(at: &Coords, (w, h): (u32, u32), linear: bool) -> bool {
    let edge = |c: f64, n: u32| cube::crosses_edge(c * f64::from(n), n, linear, FRACTION);
    edge(at.u, w) || edge(at.v, h)
}

/// A cube sample's position from the direction's bits: the face it selects and (u, v) on it.
/// A direction that selects no face (zero, NaN or infinite), or whose major axis lies outside
/// the range a device's own arithmetic covers ([`cube::in_range`]), may read any texel: the
/// lane is open. D3D flushes a denormal component first; a device that keeps it divides by it or
/// into it (a major axis of 2^-126 and a minor one just below it lands on the face's edge
/// rather than its centre), so a denormal enters the flush domain.
pub(super) fn cube_coords(bits: [u32; 3], ev: &mut Events) -> Coords {
    let dir = bits.map(|b| f32::from_bits(fl::ftz(b)));
    if dir.iter().any(|c| c.is_nan()) {
        raise(ev, Domain::NanInput);
    }
    if bits.iter().any(|b| f32::from_bits(*b).is_subnormal()) {
        raise(ev, Domain::DenormInputFlushed);
    }
    if !cube::in_range(dir) {
        raise(ev, Domain::FilterPrecision);
    }
    let (layer, u, v) = cube::face(dir).unwrap_or_else(|| {
        raise(ev, Domain::FilterPrecision);
        (0, 0.5, 0.5)
    });
    Coords {
        u,
        v,
        w: 0.0,
        layer,
        offsets: [0; 3],
    }
}

/// The position with a NaN coordinate read as 0, as D3D's float-to-fixed conversion reads it
/// (FS §3.2.3: float-to-fixed conversions take NaN to 0); WGSL leaves it indeterminate.
pub(super) fn not_nan(at: &Coords, ev: &mut Events) -> Coords {
    let fix = |c: f64, ev: &mut Events| {
        if c.is_nan() {
            raise(ev, Domain::NanInput);
            0.0
        } else {
            c
        }
    };
    Coords {
        u: fix(at.u, ev),
        v: fix(at.v, ev),
        w: fix(at.w, ev),
        layer: at.layer,
        offsets: at.offsets,
    }
}

/// D3D's array-layer selection: the float layer rounded to the nearest integer, ties to even,
/// then clamped to the layers (FS §7.18.2; seed: 2D-array sample layers). A NaN layer
/// selects layer 0.
pub(super) fn array_layer(z: f32, layers: u32, ev: &mut Events) -> u32 {
    if z.is_nan() {
        raise(ev, Domain::NanInput);
        return 0;
    }
    let r = f64::from(z.round_ties_even());
    r.clamp(0.0, f64::from(layers.max(1) - 1)) as u32
}

/// The address modes a sample of `t` applies: a cube ignores the sampler's (it clamps within a
/// face, and filters across edges, which [`cube::crosses_edge`] leaves open).
pub(super) fn modes(t: &Texture2d, s: &Sampler) -> [Address; 3] {
    if t.cube() {
        [Address::Clamp; 3]
    } else {
        s.address
    }
}

/// Apply an address mode to an integer texel coordinate; `None` means the border colour.
pub(super) fn address(i: i64, size: u32, mode: Address) -> Option<u32> {
    let n = i64::from(size.max(1));
    Some(match mode {
        Address::Wrap => i.rem_euclid(n) as u32,
        Address::Clamp => i.clamp(0, n - 1) as u32,
        Address::Mirror => {
            let p = i.rem_euclid(2 * n);
            (if p < n { p } else { 2 * n - 1 - p }) as u32
        }
        Address::MirrorOnce => {
            let m = if i < 0 { -1 - i } else { i };
            m.min(n - 1) as u32
        }
        Address::Border => {
            if (0..n).contains(&i) {
                i as u32
            } else {
                return None;
            }
        }
    })
}

/// The texel at integer (x, y) of a level, after the sampler's address modes.
pub(super) fn fetch(
    t: &Texture2d,
    s: &Sampler,
    level: usize,
    layer: u32,
    x: i64,
    y: i64,
) -> [u32; 4] {
    let (w, h) = t.level_size(level);
    let m = modes(t, s);
    match (address(x, w, m[0]), address(y, h, m[1])) {
        (Some(x), Some(y)) => t.texel(level, layer, x, y).unwrap_or([0; 4]),
        _ => s.border,
    }
}

/// One axis of a sample in a level of `size` texels: the texel-space position of normalised
/// `coord`, and whether it lies outside the range D3D's precision covers (then any texel may
/// be chosen).
pub(super) fn axis(coord: f64, size: u32, ev: &mut Events) -> f64 {
    let x = coord * f64::from(size);
    if !x.is_finite() || x.abs() > TEXEL_RANGE {
        raise(ev, Domain::FilterPrecision);
    }
    x
}

/// The texel on the other side of the boundary `x` lies within D3D's subtexel precision of,
/// if it does: the floor may go either way there. A position exactly on a boundary is a tie
/// too: a device that mirrors normalised coordinates (lavapipe) maps it to the mirrored
/// boundary, where the floor takes the other texel.
pub(super) fn across(x: f64) -> Option<i64> {
    let k = x.round();
    let d = (x - k).abs();
    (d < FRACTION).then(|| floor_i64(if x >= k { k - 0.5 } else { k + 0.5 }))
}

pub(super) fn floor_i64(x: f64) -> i64 {
    if x.is_finite() {
        x.floor().clamp(-TEXEL_RANGE * 4.0, TEXEL_RANGE * 4.0) as i64
    } else {
        0
    }
}

/// Filter one mip level: point takes the texel under the sample; linear blends the four
/// around it with weights from the sample's position, computed exactly. Where D3D's precision
/// leaves the result open (a blend of different texels at a fractional weight, a non-finite
/// texel in the footprint, a position at a texel boundary) the lane enters
/// [`Domain::FilterPrecision`].
pub(super) fn sample_level(
    t: &Texture2d,
    s: &Sampler,
    level: usize,
    at: &Coords,
    ev: &mut Events,
) -> [f64; 4] {
    if t.volume() {
        return volume::sample_level(t, s, level, at, ev);
    }
    let get = |x: i64, y: i64| fetch(t, s, level, at.layer, x, y);
    if t.cube() && cube_edge(at, t.level_size(level), s.linear) {
        raise(ev, Domain::FilterPrecision);
    }
    let as_f64 = |t: [u32; 4]| t.map(|b| f64::from(f32::from_bits(b)));
    if !s.linear {
        let (w, h) = t.level_size(level);
        let (x, y) = (axis(at.u, w, ev), axis(at.v, h, ev));
        let (ox, oy) = (i64::from(at.offsets[0]), i64::from(at.offsets[1]));
        let (ix, iy) = (floor_i64(x), floor_i64(y));
        let texel = get(ix + ox, iy + oy);
        // Across a boundary closer than the subtexel precision, the neighbour is an answer too.
        let xs = [Some(ix), across(x)];
        let ys = [Some(iy), across(y)];
        let mut open = false;
        for &cx in xs.iter().flatten() {
            for &cy in ys.iter().flatten() {
                let other = get(cx + ox, cy + oy);
                t.format.enter(&other, ev);
                open |= other != texel;
            }
        }
        if open {
            raise(ev, Domain::FilterPrecision);
        }
        return as_f64(texel);
    }
    let (x0, y0, fx, fy) = bilinear(t, level, at, ev);
    let quad = [
        get(x0, y0),
        get(x0 + 1, y0),
        get(x0, y0 + 1),
        get(x0 + 1, y0 + 1),
    ];
    for q in &quad {
        t.format.enter(q, ev);
    }
    let all_same = quad.iter().all(|q| *q == quad[0]);
    let plain = blend_plain(t, s, level, at);
    if !plain || (!all_same && (fx != 0.0 || fy != 0.0)) {
        raise(ev, Domain::FilterPrecision);
    }
    if !t.format.float32() && weighs_beyond(&get, (x0, y0), (fx, fy)) {
        raise(ev, Domain::PackedWeightNearCentre);
    }
    if all_same {
        return as_f64(quad[0]);
    }
    let [t00, t10, t01, t11] = quad.map(as_f64);
    std::array::from_fn(|c| {
        let top = t00[c] * (1.0 - fx) + t10[c] * fx;
        let bottom = t01[c] * (1.0 - fx) + t11[c] * fx;
        top * (1.0 - fy) + bottom * fy
    })
}

/// Whether a linear blend in `level` at `at` gives the exact value of its weighted texels
/// whatever a device does with the texels it weights 0. A blend computes a·w + b·(1 − w) even
/// where a weight is 0: a non-finite neighbour poisons it, a −0 becomes +0 (even where every
/// texel is the same: a unit that blends as a + w·(b − a) adds +0 to it, as lavapipe does at a
/// 1×1 level), and a filter unit may flush a denormal. At a clamped edge a device may
/// clamp the position first and blend the edge texel with its inward neighbour at weight 0
/// (lavapipe does), so that neighbour counts too.
pub(super) fn blend_plain(t: &Texture2d, s: &Sampler, level: usize, at: &Coords) -> bool {
    let (w, h) = t.level_size(level);
    let (x0, y0, ..) = bilinear(t, level, at, &mut 0);
    let m = modes(t, s);
    let xs = touched(x0, w, m[0]);
    let ys = touched(y0, h, m[1]);
    xs.iter().all(|&tx| {
        ys.iter().all(|&ty| {
            fetch(t, s, level, at.layer, tx, ty).iter().all(|w| {
                let f = f32::from_bits(*w);
                f.is_finite() && !f.is_subnormal() && *w != 0x8000_0000
            })
        })
    })
}

/// Whether a bilinear footprint at (`x0`, `y0`) with fractions (`fx`, `fy`) lies within the
/// subtexel precision of a footprint boundary along an axis, where the footprint shifted by
/// one texel along it (a weight within 1/256 of 0 given to the texel beyond) would weigh a
/// texel that differs from the others.
pub(super) fn weighs_beyond(
    get: &dyn Fn(i64, i64) -> [u32; 4],
    (x0, y0): (i64, i64),
    (fx, fy): (f64, f64),
) -> bool {
    let beyond = |i0: i64, f: f64| -> Vec<i64> {
        let mut v = vec![i0, i0 + 1];
        if f < FRACTION {
            v.push(i0 - 1);
        }
        if f > 1.0 - FRACTION {
            v.push(i0 + 2);
        }
        v
    };
    let (xs, ys) = (beyond(x0, fx), beyond(y0, fy));
    if xs.len() == 2 && ys.len() == 2 {
        return false;
    }
    let first = get(x0, y0);
    xs.iter().any(|&x| ys.iter().any(|&y| get(x, y) != first))
}

/// The footprint of a bilinear blend (or a gather) in `level`: the top-left texel, offsets
/// included, and the weights' fractions along x and y.
pub(super) fn bilinear(
    t: &Texture2d,
    level: usize,
    at: &Coords,
    ev: &mut Events,
) -> (i64, i64, f64, f64) {
    let (w, h) = t.level_size(level);
    let (x, y) = (axis(at.u, w, ev) - 0.5, axis(at.v, h, ev) - 0.5);
    (
        floor_i64(x) + i64::from(at.offsets[0]),
        floor_i64(y) + i64::from(at.offsets[1]),
        x - x.floor(),
        y - y.floor(),
    )
}

/// The texel columns (or rows) a linear blend starting at `i0` may read in a level of `n`:
/// `i0` and `i0 + 1`, and under clamp addressing past an edge the two texels inside it.
pub(super) fn touched(i0: i64, n: u32, mode: Address) -> Vec<i64> {
    let n = i64::from(n);
    let mut v = vec![i0, i0 + 1];
    if mode == Address::Clamp && i0 < 0 {
        v.extend([0, 1]);
    }
    if mode == Address::Clamp && i0 + 1 >= n {
        v.extend([n - 2, n - 1]);
    }
    v
}

/// The LOD a sample takes: clamped to the sampler's `MinLOD`/`MaxLOD`, then to the texture's
/// `levels` (FS §7.18.11). `lod`'s clamped result is this too.
pub(super) fn clamp_lod(lod: f32, s: &Sampler, levels: usize) -> f32 {
    let (min_lod, max_lod) = s.lod_clamp;
    clamp_to_levels(lod.max(min_lod).min(max_lod), levels)
}

/// An LOD clamped to a texture's `levels` alone, the last step of [`clamp_lod`].
pub(super) fn clamp_to_levels(lod: f32, levels: usize) -> f32 {
    lod.clamp(0.0, levels.saturating_sub(1) as f32)
}

/// `sample_l` (and the compute-stage forms of `sample` and `sample_b`) of a 2D texture or
/// array at a level of detail: clamped to the texture's levels, the mip filter following the
/// sampler's filter (FS §7.18.10-11).
pub(super) fn sample(
    t: &Texture2d,
    s: &Sampler,
    at: &Coords,
    lod: f32,
    ev: &mut Events,
) -> [u32; 4] {
    if t.mips.is_empty() || !t.float() {
        return [0; 4];
    }
    let at = &not_nan(at, ev);
    if s.linear && t.format == TexelFormat::Rg11b10Float {
        raise(ev, Domain::Rg11b10Filtered);
    }
    // A NaN LOD reads as 0; then the sampler's MinLOD/MaxLOD, then the texture's levels
    // (FS §7.18.11).
    let lod = if lod.is_nan() {
        raise(ev, Domain::NanInput);
        0.0
    } else {
        lod
    };
    let lod = clamp_lod(lod, s, t.mips.len());
    let frac = f64::from(lod.fract());
    let texel = if s.linear && frac != 0.0 {
        let (lo, hi) = (lod.floor() as usize, lod.ceil() as usize);
        let (a, b) = (
            sample_level(t, s, lo, at, ev),
            sample_level(t, s, hi, at, ev),
        );
        if a != b {
            raise(ev, Domain::FilterPrecision);
        }
        std::array::from_fn(|c| a[c] * (1.0 - frac) + b[c] * frac)
    } else if s.linear {
        // A whole LOD under linear mip filtering: a device may still blend the next level at
        // weight 0 (lavapipe does whenever another invocation of the same SIMD batch needs the
        // blend), with the same hazards as a spatial blend; a −0 result becomes +0 there.
        let lo = lod as usize;
        let texel = sample_level(t, s, lo, at, ev);
        let plain = |level| {
            if t.volume() {
                volume::blend_plain(t, s, level, at)
            } else {
                blend_plain(t, s, level, at)
            }
        };
        if lo + 1 < t.mips.len()
            && (!plain(lo + 1) || texel.iter().any(|c| *c == 0.0 && c.is_sign_negative()))
        {
            raise(ev, Domain::FilterPrecision);
        }
        texel
    } else {
        // Point mip filtering takes the nearest level; a LOD within the LOD precision of the
        // half-way point may take either.
        if (frac - 0.5).abs() < FRACTION {
            raise(ev, Domain::FilterPrecision);
        }
        sample_level(t, s, lod.round() as usize, at, ev)
    };
    texel.map(|c| (c as f32).to_bits())
}

/// `gather4`: one channel of the four texels a bilinear sample of level 0 would blend, in
/// D3D's order (x: bottom-left (u0, v1), y: (u1, v1), z: (u1, v0), w: top-left (u0, v0))
/// (FS §22.4.4). A position within the subtexel precision of a texel centre may take the
/// neighbouring footprint.
pub(super) fn gather(
    t: &Texture2d,
    s: &Sampler,
    at: &Coords,
    channel: usize,
    ev: &mut Events,
) -> [u32; 4] {
    if t.mips.is_empty() {
        return [0; 4];
    }
    let at = &not_nan(at, ev);
    if s.linear && t.mips.len() > 1 {
        raise(ev, Domain::GatherMipmapped);
    }
    let (x0, y0, fx, fy) = bilinear(t, 0, at, ev);
    let edge = |d: f64| !(FRACTION..=1.0 - FRACTION).contains(&d);
    if edge(fx) || edge(fy) {
        raise(ev, Domain::FilterPrecision);
    }
    // A gather's footprint is a linear one.
    if t.cube() && cube_edge(at, t.level_size(0), true) {
        raise(ev, Domain::FilterPrecision);
    }
    let footprint = [(x0, y0 + 1), (x0 + 1, y0 + 1), (x0 + 1, y0), (x0, y0)]
        .map(|(x, y)| fetch(t, s, 0, at.layer, x, y));
    for texel in &footprint {
        t.format.enter(texel, ev);
    }
    let texels = footprint.map(|texel| texel[channel & 3]);
    if t.float() && texels.iter().any(|w| f32::from_bits(*w).is_subnormal()) {
        raise(ev, Domain::GatherDenormal);
    }
    texels
}
