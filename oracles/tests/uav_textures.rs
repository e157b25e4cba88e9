//! Typed UAV textures (`RWTexture1D` … `RWTexture3D`): D3D's addressing, out-of-range rules
//! (FS §22.4.8-9) and format conversions on store (FS §3.2.3), run through a dispatch.

use oracles::domain::Domain;
use oracles::interp::{
    Buffer, DEFAULT_BUDGET, Resources, TexelFormat, TextureShape, UavTexture, run_dispatch,
};

fn program(text: &str) -> dxbc::Program {
    dxbc::assemble(text)
        .expect("test program assembles")
        .program
}

fn texture(view: TextureShape, format: TexelFormat, dims: (u32, u32, u32), fill: u32) -> Buffer {
    let shape = UavTexture {
        width: dims.0,
        height: dims.1,
        layers: dims.2,
        view,
        format,
    };
    let words = vec![fill; shape.texels() as usize * format.words()];
    Buffer {
        size_bytes: (words.len() * 4) as u32,
        words,
        format: None,
        texture: Some(shape),
    }
}

fn raw(words: usize) -> Buffer {
    Buffer {
        words: vec![0; words],
        size_bytes: (words * 4) as u32,
        format: None,
        texture: None,
    }
}

/// Each thread stores its own id at (x, y, layer) of a 2D array, with one thread's address
/// past the last layer: every in-range texel gets its thread's value, the store out of range
/// is dropped and entered as `oob-write`.
#[test]
fn stores_land_at_their_texel_and_out_of_range_ones_are_dropped() {
    let p = program(
        "cs_5_0
dcl_uav_typed_texture2darray (uint,uint,uint,uint) u0
dcl_input vThreadID.xyz
dcl_input vThreadIDInGroupFlattened
dcl_temps 1
dcl_thread_group 2, 2, 3
mov r0.xyzw, vThreadIDInGroupFlattened.xxxx
store_uav_typed u0.xyzw, vThreadID.xyzz, r0.xyzw
ret
",
    );
    let mut res = Resources::default();
    // Two layers: the threads of z = 2 address past the last one.
    res.uavs.insert(
        0,
        texture(
            TextureShape::Array,
            TexelFormat::Rgba32Uint,
            (2, 2, 2),
            0xdead,
        ),
    );
    let r = run_dispatch(&p, &mut res, [1, 1, 1], DEFAULT_BUDGET).expect("runs");
    let words = &res.uavs[&0].words;
    for texel in 0..8u32 {
        assert_eq!(
            &words[texel as usize * 4..][..4],
            [texel; 4],
            "texel {texel}"
        );
    }
    assert_ne!(r.events & Domain::OobWrite.bit(), 0);
}

/// A load of an R32 view reads (r, 0, 0, 1); out of range it reads the format's defaults,
/// 1.0 in the alpha of a float format, and enters `oob-read`.
#[test]
fn loads_read_the_texel_or_the_formats_defaults() {
    let p = program(
        "cs_5_0
dcl_uav_typed_texture2d (float,float,float,float) u0
dcl_uav_raw u1
dcl_temps 2
dcl_thread_group 1, 1, 1
ld_uav_typed r0.xyzw, l(1, 0, 0, 0), u0.xyzw
store_raw u1.xyzw, l(0), r0.xyzw
ld_uav_typed r1.xyzw, l(0, 3, 0, 0), u0.xyzw
store_raw u1.xyzw, l(16), r1.xyzw
ret
",
    );
    let mut res = Resources::default();
    res.uavs.insert(
        0,
        texture(
            TextureShape::Plain,
            TexelFormat::R32Float,
            (2, 3, 1),
            0x4040_0000,
        ),
    );
    res.uavs.insert(1, raw(8));
    let r = run_dispatch(&p, &mut res, [1, 1, 1], DEFAULT_BUDGET).expect("runs");
    let one = 0x3f80_0000;
    assert_eq!(res.uavs[&1].words, [0x4040_0000, 0, 0, one, 0, 0, 0, one]);
    assert_ne!(r.events & Domain::OobRead.bit(), 0);
}

/// A UNORM store converts by D3D's rules: NaN is 0, values clamp to [0, 1], and 0.5 rounds
/// up (c·255 + 0.5 truncated). A SNORM store takes −1.0 to −127 and clamps below it.
#[test]
fn normalized_stores_convert_by_d3d_rules() {
    let p = program(
        "cs_5_0
dcl_uav_typed_texture1d (unorm,unorm,unorm,unorm) u0
dcl_uav_typed_texture1d (snorm,snorm,snorm,snorm) u1
dcl_temps 1
dcl_thread_group 1, 1, 1
store_uav_typed u0.xyzw, l(0, 0, 0, 0), l(0x7fc00000, 0x40000000, 0xbf800000, 0x3f000000)
store_uav_typed u1.xyzw, l(0, 0, 0, 0), l(0xbf800000, 0xc0000000, 0x3f800000, 0x7fc00000)
ret
",
    );
    let mut res = Resources::default();
    res.uavs.insert(
        0,
        texture(TextureShape::Line, TexelFormat::Rgba8Unorm, (1, 1, 1), 7),
    );
    res.uavs.insert(
        1,
        texture(TextureShape::Line, TexelFormat::Rgba8Snorm, (1, 1, 1), 7),
    );
    run_dispatch(&p, &mut res, [1, 1, 1], DEFAULT_BUDGET).expect("runs");
    assert_eq!(res.uavs[&0].words, [0x80_00_ff_00]);
    assert_eq!(res.uavs[&1].words, [0x00_7f_81_81]);
}

/// Atomics on a texture UAV are not run: no storage texture has them, so the reference has
/// nothing to judge a translation by.
#[test]
fn atomics_on_a_texture_uav_are_unsupported() {
    let p = program(
        "cs_5_0
dcl_uav_typed_texture2d (uint,uint,uint,uint) u0
dcl_thread_group 1, 1, 1
atomic_iadd u0, l(0, 0, 0, 0), l(1)
ret
",
    );
    let mut res = Resources::default();
    res.uavs.insert(
        0,
        texture(TextureShape::Plain, TexelFormat::R32Uint, (1, 1, 1), 0),
    );
    assert!(run_dispatch(&p, &mut res, [1, 1, 1], DEFAULT_BUDGET).is_err());
}
