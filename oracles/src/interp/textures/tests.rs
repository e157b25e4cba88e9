//! The texture rules on small textures: addressing, point and linear samples, gathers,
//! loads and the format conversions.

use super::*;
use crate::interp::{Address, Sampler, TexelFormat, TextureShape};

/// A 4×2 float texture of two layers whose texel (x, y, layer) holds x + 10y + 100·layer.
fn numbered() -> Texture2d {
    let texels = (0..2u32)
        .flat_map(|l| (0..2u32).flat_map(move |y| (0..4u32).map(move |x| (x, y, l))))
        .flat_map(|(x, y, l)| [((x + 10 * y + 100 * l) as f32).to_bits(), 0, 0, 0])
        .collect();
    Texture2d {
        width: 4,
        height: 2,
        layers: 2,
        view: TextureShape::Array,
        mips: vec![texels],
        format: TexelFormat::Rgba32Float,
    }
}

fn at(u: f32, v: f32, layer: u32) -> Coords {
    Coords {
        u: f64::from(u),
        v: f64::from(v),
        w: 0.0,
        layer,
        offsets: [0; 3],
    }
}

fn value(w: [u32; 4]) -> f32 {
    f32::from_bits(w[0])
}

#[test]
fn array_layers_round_to_nearest_even_and_clamp() {
    let mut ev = 0;
    let got: Vec<u32> = [0.5f32, 1.5, 2.5, 0.49, -3.0, 9.0]
        .iter()
        .map(|z| array_layer(*z, 4, &mut ev))
        .collect();
    assert_eq!(got, [0, 2, 2, 0, 0, 3]);
    assert_eq!(ev, 0);
    assert_eq!(array_layer(f32::NAN, 4, &mut ev), 0);
    assert_ne!(ev, 0);
}

#[test]
fn address_modes_follow_d3d() {
    let map = |m| (-3..7).map(|i| address(i, 4, m)).collect::<Vec<_>>();
    let s = |v: &[u32]| v.iter().map(|x| Some(*x)).collect::<Vec<_>>();
    assert_eq!(map(Address::Wrap), s(&[1, 2, 3, 0, 1, 2, 3, 0, 1, 2]));
    assert_eq!(map(Address::Clamp), s(&[0, 0, 0, 0, 1, 2, 3, 3, 3, 3]));
    assert_eq!(map(Address::Mirror), s(&[2, 1, 0, 0, 1, 2, 3, 3, 2, 1]));
    assert_eq!(map(Address::MirrorOnce), s(&[2, 1, 0, 0, 1, 2, 3, 3, 3, 3]));
    assert_eq!(address(-1, 4, Address::Border), None);
}

#[test]
fn point_samples_are_exact_away_from_boundaries_and_open_near_them() {
    let t = numbered();
    let s = Sampler::default();
    let mut ev = 0;
    // Texel (2, 1) of layer 1, at its centre.
    assert_eq!(
        value(sample(&t, &s, &at(0.625, 0.75, 1), 0.0, &mut ev)),
        112.0
    );
    assert_eq!(ev, 0);
    // Just short of the boundary between x = 0 and x = 1, or on it: either texel is D3D's
    // answer.
    let u = 0.25 - 1.0 / 4096.0;
    assert_eq!(value(sample(&t, &s, &at(u, 0.25, 0), 0.0, &mut ev)), 0.0);
    assert_eq!(ev, Domain::FilterPrecision.bit());
    let mut ev = 0;
    assert_eq!(value(sample(&t, &s, &at(0.25, 0.25, 0), 0.0, &mut ev)), 1.0);
    assert_eq!(ev, Domain::FilterPrecision.bit());
}

#[test]
fn linear_blends_are_exact_at_centres_and_open_between() {
    let t = numbered();
    let s = Sampler {
        linear: true,
        ..Sampler::default()
    };
    let mut ev = 0;
    assert_eq!(
        value(sample(&t, &s, &at(0.375, 0.25, 0), 0.0, &mut ev)),
        1.0
    );
    assert_eq!(ev, 0);
    // Half-way between texels 1 and 2 of row 0.
    assert_eq!(value(sample(&t, &s, &at(0.5, 0.25, 0), 0.0, &mut ev)), 1.5);
    assert_eq!(ev, Domain::FilterPrecision.bit());
}

#[test]
fn gather_returns_the_footprint_in_d3d_order() {
    let t = numbered();
    let mut ev = 0;
    // Between the centres of texels (1, 0), (2, 0), (1, 1), (2, 1).
    let g = gather(&t, &Sampler::default(), &at(0.5, 0.5, 0), 0, &mut ev);
    assert_eq!(g.map(f32::from_bits), [11.0, 12.0, 2.0, 1.0]);
    assert_eq!(ev, 0);
    // At a texel centre the footprint may be either neighbour's.
    gather(&t, &Sampler::default(), &at(0.375, 0.5, 0), 0, &mut ev);
    assert_ne!(ev, 0);
}

#[test]
fn ld_offsets_move_u_v_and_a_volume_slice_but_never_a_layer() {
    let with = |view, layers| Texture2d {
        view,
        layers,
        ..numbered()
    };
    let off = [-2i8, 3, 1];
    let minus2 = 2u32.wrapping_neg();
    // 2D: u and v move, w is ignored; a move below 0 wraps.
    assert_eq!(
        ld_address(&with(TextureShape::Plain, 1), [0, 1, 5, 1], off),
        [minus2, 4, 0, 1]
    );
    // A 2D array's layer (z) takes no offset.
    assert_eq!(
        ld_address(&with(TextureShape::Array, 2), [3, 0, 1, 0], off),
        [1, 3, 1, 0]
    );
    // 3D: w moves the depth slice.
    assert_eq!(
        ld_address(&with(TextureShape::Volume, 2), [3, 0, 1, 0], off),
        [1, 3, 2, 0]
    );
    // 1D: v is ignored (its one row is 0); a 1D array's layer is y, unmoved.
    assert_eq!(
        ld_address(&with(TextureShape::Line, 1), [3, 9, 9, 0], off),
        [1, 0, 0, 0]
    );
    assert_eq!(
        ld_address(&with(TextureShape::LineArray, 2), [3, 1, 9, 0], off),
        [1, 0, 1, 0]
    );
}

#[test]
fn array_loads_check_the_layer() {
    let t = numbered();
    let mut ev = 0;
    assert_eq!(value(texel_load(&t, 3, 1, 1, 0, &mut ev)), 113.0);
    assert_eq!(ev, 0);
    assert_eq!(texel_load(&t, 0, 0, 2, 0, &mut ev), [0; 4]);
    assert_eq!(ev, Domain::OobRead.bit());
}

/// A 2×1 texture of `format` holding `words`.
fn stored(format: TexelFormat, words: Vec<u32>) -> Texture2d {
    Texture2d {
        width: 2,
        height: 1,
        mips: vec![words],
        format,
        ..Texture2d::default()
    }
}

#[test]
fn loads_decode_the_format_and_fill_its_missing_channels() {
    let one = 0x3f80_0000;
    let t = stored(TexelFormat::Rg32Float, vec![0x4000_0000, 7, 1, 2]);
    let mut ev = 0;
    assert_eq!(texel_load(&t, 1, 0, 0, 0, &mut ev), [1, 2, 0, one]);
    assert_eq!(ev, 0);
    // Out of range, a format without alpha reads alpha 1.0: no WGSL translation can know.
    assert_eq!(texel_load(&t, 2, 0, 0, 0, &mut ev), [0, 0, 0, one]);
    assert_eq!(ev, Domain::OobRead.bit() | Domain::OobFormatAlpha.bit());
    let t = stored(TexelFormat::Rgba8Unorm, vec![0xff00_00ff, 0]);
    let mut ev = 0;
    assert_eq!(texel_load(&t, 0, 0, 0, 0, &mut ev), [one, 0, 0, one]);
    assert_eq!(texel_load(&t, 0, 1, 0, 0, &mut ev), [0; 4]);
    assert_eq!(ev, Domain::OobRead.bit());
}

#[test]
fn reads_enter_the_domains_of_their_conversion() {
    // An sRGB texel with colour, and one with only alpha.
    let t = stored(TexelFormat::Rgba8UnormSrgb, vec![0x0000_0001, 0xff00_0000]);
    let mut ev = 0;
    texel_load(&t, 1, 0, 0, 0, &mut ev);
    assert_eq!(ev, 0);
    texel_load(&t, 0, 0, 0, 0, &mut ev);
    assert_eq!(ev, Domain::SrgbRead.bit());
    // A signalling half NaN in a sampled footprint, and a plain half 1.0.
    let t = stored(TexelFormat::Rg16Float, vec![0x0000_7c01, 0x0000_3c00]);
    let mut ev = 0;
    let s = Sampler::default();
    assert_eq!(value(sample(&t, &s, &at(0.75, 0.5, 0), 0.0, &mut ev)), 1.0);
    assert_eq!(ev, 0);
    assert!(value(sample(&t, &s, &at(0.25, 0.5, 0), 0.0, &mut ev)).is_nan());
    assert_eq!(ev, Domain::TexelNarrowNan.bit());
    // `ld` keeps D3D's payload: the half's, shifted up, still signalling.
    assert_eq!(texel_load(&t, 0, 0, 0, 0, &mut ev)[0], 0x7f80_2000);
}

/// A 2×1 R32_FLOAT texture of two levels: level 0 holds 1.0 and 2.0, level 1 holds 5.0.
fn two_levels() -> Texture2d {
    Texture2d {
        width: 2,
        height: 1,
        mips: vec![vec![0x3f80_0000, 0x4000_0000], vec![0x40a0_0000]],
        format: TexelFormat::R32Float,
        ..Texture2d::default()
    }
}

/// A sampler whose LOD range is `lo..=hi`.
fn clamped(lo: f32, hi: f32) -> Sampler {
    Sampler {
        lod_clamp: (lo, hi),
        ..Sampler::default()
    }
}

#[test]
fn the_sampler_clamps_the_level_of_detail_before_the_levels() {
    let t = two_levels();
    let mut ev = 0;
    let mut at_lod = |s: &Sampler, lod| value(sample(&t, s, &at(0.25, 0.5, 0), lod, &mut ev));
    assert_eq!(at_lod(&Sampler::default(), 0.0), 1.0);
    assert_eq!(at_lod(&clamped(1.0, 1.0), 0.0), 5.0);
    assert_eq!(at_lod(&clamped(0.0, 0.0), 7.0), 1.0);
    // A MinLOD below 0 and a MaxLOD past the last level leave the texture's own clamp.
    assert_eq!(at_lod(&clamped(-3.0, 40.0), 9.0), 5.0);
    assert_eq!(ev, 0);
}

/// A NaN LOD reads as 0 before the sampler's clamp, as devices do: a MinLOD of 1 still applies.
#[test]
fn a_nan_lod_is_clamped_by_the_sampler_too() {
    let mut ev = 0;
    let got = sample(
        &two_levels(),
        &clamped(1.0, 2.0),
        &at(0.25, 0.5, 0),
        f32::NAN,
        &mut ev,
    );
    assert_eq!(value(got), 5.0);
    assert_eq!(ev, Domain::NanInput.bit());
}

/// A cube of 2×2 float faces whose texel (x, y) of face f holds 10f + 2y + x, two levels.
fn numbered_cube() -> Texture2d {
    let level = |n: u32| -> Vec<u32> {
        (0..6u32)
            .flat_map(|f| (0..n * n).map(move |i| (f, i)))
            .flat_map(|(f, i)| [((10 * f + i) as f32).to_bits(), 0, 0, 0])
            .collect()
    };
    Texture2d {
        width: 2,
        height: 2,
        layers: 6,
        view: TextureShape::Cube,
        mips: vec![level(2), level(1)],
        format: TexelFormat::Rgba32Float,
    }
}

#[test]
fn cube_samples_take_the_face_the_direction_selects() {
    let t = numbered_cube();
    let point = Sampler::default();
    let read = |dir: [f32; 3], s: &Sampler, lod: f32| {
        let mut ev = 0;
        let at = cube_coords(dir.map(f32::to_bits), &mut ev);
        (value(sample(&t, s, &at, lod, &mut ev)), ev)
    };
    // +X at (u, v) = (0.75, 0.75): texel (1, 1) of face 0; −Z at (0.25, 0.25): texel (0, 0)
    // of face 5; level 1 holds one texel per face.
    assert_eq!(read([1.0, -0.5, -0.5], &point, 0.0), (3.0, 0));
    assert_eq!(read([0.5, 0.5, -1.0], &point, 0.0), (50.0, 0));
    assert_eq!(read([0.0, -1.0, 0.2], &point, 1.0), (30.0, 0));
    // The address modes do not apply: a wrapping sampler reads the same.
    let wrap = Sampler {
        address: [Address::Wrap; 3],
        ..Sampler::default()
    };
    assert_eq!(read([1.0, -0.5, -0.5], &wrap, 0.0), (3.0, 0));
}

#[test]
fn cube_edges_and_faceless_directions_are_open() {
    let t = numbered_cube();
    let open = |dir: [f32; 3], linear: bool| {
        let mut ev = 0;
        let at = cube_coords(dir.map(f32::to_bits), &mut ev);
        let s = Sampler {
            linear,
            ..Sampler::default()
        };
        sample(&t, &s, &at, 0.0, &mut ev);
        ev & Domain::FilterPrecision.bit() != 0
    };
    // A tie between two axes lies on their shared edge.
    assert!(open([1.0, 0.0, 1.0], false));
    // A linear footprint reaching past the face (u = 0.2 on a 2-texel face: x = 0.4 < 0.5);
    // a point sample there is not open. The centre of an edge texel (x = 0.5) is open to a
    // linear footprint too: within the subtexel precision it may shift onto the next face.
    assert!(!open([1.0, -0.2, 0.6], false));
    assert!(open([1.0, -0.2, 0.6], true));
    assert!(!open([1.0, 0.5, 0.5], false));
    assert!(open([1.0, 0.5, 0.5], true));
    // The centre of a 2×2 face is a corner of four texels, all on the same face.
    assert!(open([0.0, 0.0, 0.0], false));
    let mut ev = 0;
    cube_coords([f32::NAN, 1.0, 0.0].map(f32::to_bits), &mut ev);
    assert_ne!(ev & Domain::NanInput.bit(), 0);
    // A denormal minor axis over the smallest normal major one: D3D flushes it (the centre of
    // +Z), a device that keeps it reads the face's edge.
    let mut ev = 0;
    let at = cube_coords([0, 0x807f_ffff, 0x0080_0000], &mut ev);
    assert_eq!((at.layer, at.u, at.v), (4, 0.5, 0.5));
    assert_ne!(ev & Domain::DenormInputFlushed.bit(), 0);
}

#[test]
fn an_lod_range_is_exact_only_where_every_level_between_agrees() {
    assert_eq!(lod_probes(0.2, 2.7, 3), vec![0.2, 2.7, 1.0]);
    assert_eq!(lod_probes(f32::NEG_INFINITY, f32::INFINITY, 3), {
        let mut v = vec![f32::NEG_INFINITY, f32::INFINITY];
        v.extend([0.0, 1.0]);
        v
    });
    assert_eq!(lod_probes(1.5, 1.7, 3), vec![1.5, 1.7]);
}

/// A 4×2×2 float 3D texture whose texel (x, y, z) holds x + 10y + 100z, and a 2×1×1 level.
fn numbered_volume() -> Texture2d {
    let level = |w: u32, h: u32, d: u32| -> Vec<u32> {
        (0..d)
            .flat_map(|z| (0..h).flat_map(move |y| (0..w).map(move |x| (x, y, z))))
            .flat_map(|(x, y, z)| [((x + 10 * y + 100 * z) as f32).to_bits(), 0, 0, 0])
            .collect()
    };
    Texture2d {
        width: 4,
        height: 2,
        layers: 2,
        view: TextureShape::Volume,
        mips: vec![level(4, 2, 2), level(2, 1, 1)],
        format: TexelFormat::Rgba32Float,
    }
}

fn at3(u: f32, v: f32, w: f32) -> Coords {
    Coords {
        w: f64::from(w),
        ..at(u, v, 0)
    }
}

#[test]
fn volume_samples_address_three_axes_and_halve_the_depth() {
    let t = numbered_volume();
    assert_eq!(
        (t.level_layers(0), t.level_layers(1), t.level_layers(5)),
        (2, 1, 1)
    );
    let point = Sampler::default();
    let read = |c: Coords, s: &Sampler, lod: f32| {
        let mut ev = 0;
        (value(sample(&t, s, &c, lod, &mut ev)), ev)
    };
    // Texel centres: (3, 1, 1) and (0, 0, 0); level 1 at its texel (1, 0, 0).
    assert_eq!(read(at3(0.875, 0.75, 0.75), &point, 0.0), (113.0, 0));
    assert_eq!(read(at3(0.125, 0.25, 0.25), &point, 0.0), (0.0, 0));
    assert_eq!(read(at3(0.75, 0.5, 0.5), &point, 1.0), (1.0, 0));
    // Linear at a texel centre weighs only that texel; between two slices it blends them.
    let linear = Sampler {
        linear: true,
        ..Sampler::default()
    };
    assert_eq!(read(at3(0.375, 0.25, 0.25), &linear, 0.0), (1.0, 0));
    let (v, ev) = read(at3(0.375, 0.25, 0.5), &linear, 0.0);
    assert_eq!(v, 51.0);
    assert_ne!(ev & Domain::FilterPrecision.bit(), 0);
    // A point sample on a slice boundary may take either slice.
    let (_, ev) = read(at3(0.375, 0.25, 0.5), &point, 0.0);
    assert_ne!(ev & Domain::FilterPrecision.bit(), 0);
    // Loads take z as the slice, bounded by the level's depth.
    let mut ev = 0;
    assert_eq!(value(texel_load(&t, 2, 1, 1, 0, &mut ev)), 112.0);
    assert_eq!(texel_load(&t, 0, 0, 1, 1, &mut ev), t.oob());
}

#[test]
fn a_footprint_near_a_texel_centre_may_weigh_the_texel_beyond() {
    // Columns 0..3 of one row: 1, 1, 1, 2. A footprint at column 1 (fx = 0) may shift to weigh
    // column 0 (the same value) or, with fx near 1, column 3 (a different one).
    let row = [1u32, 1, 1, 2];
    let get = |x: i64, _y: i64| [row[x.clamp(0, 3) as usize], 0, 0, 0];
    assert!(!weighs_beyond(&get, (1, 0), (0.0, 0.5)));
    assert!(weighs_beyond(&get, (1, 0), (0.999, 0.5)));
    // Away from a boundary nothing beyond is weighed.
    assert!(!weighs_beyond(&get, (2, 0), (0.5, 0.5)));
}

/// A 4-texel 1D texture array of two layers whose texel (x, layer) holds x + 100·layer.
fn numbered_line() -> Texture2d {
    let texels = (0..2u32)
        .flat_map(|l| (0..4u32).map(move |x| x + 100 * l))
        .flat_map(|n| [(n as f32).to_bits(), 0, 0, 0])
        .collect();
    Texture2d {
        width: 4,
        height: 1,
        layers: 2,
        view: TextureShape::LineArray,
        mips: vec![texels],
        format: TexelFormat::Rgba32Float,
    }
}

#[test]
fn a_1d_address_is_u_and_a_layer_in_its_second_component() {
    let t = numbered_line();
    let bits = |u: f32, y: f32, z: f32| [u.to_bits(), y.to_bits(), z.to_bits(), 0];
    for s in [
        Sampler::default(),
        Sampler {
            linear: true,
            address: [Address::Clamp; 3],
            ..Sampler::default()
        },
    ] {
        // Texel 2 of layer 1: the second component is the layer, the third is ignored, and
        // the one row is read whatever the filter or address mode.
        let mut ev = 0;
        let pos = position(&t, bits(0.625, 1.0, 7.0), [0, 3, 0], &mut ev);
        assert_eq!((pos.v, pos.layer, pos.offsets), (0.5, 1, [0, 0, 0]));
        assert_eq!(value(sample(&t, &s, &pos, 0.0, &mut ev)), 102.0);
        assert_eq!(ev, 0, "{s:?}");
    }
    // Its implicit LOD measures u's steps alone.
    assert_eq!(lod_axes(&t), [4, 0, 0]);
}
