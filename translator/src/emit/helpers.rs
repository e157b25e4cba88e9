//! WGSL helper functions the lowering calls. Each is emitted once, only when used, and states one
//! D3D rule with integer operations on the raw bits, so no float latitude of WGSL applies to it.
//!
//! Each helper is a file of its own under `polyfills/`, so it can be read, diffed and checked
//! as WGSL; `super::import` parses them once and copies what a module calls into it, with
//! what each helper calls in turn (read from the parsed functions, not kept by hand).

/// (name, WGSL source), in the order they are emitted. Names are referenced by the lowering
/// through [`super::Ctx::helper`].
pub const HELPERS: &[(&str, &str)] = &[
    ("d3d_ftz", include_str!("polyfills/d3d_ftz.wgsl")),
    ("d3d_isnan", include_str!("polyfills/d3d_isnan.wgsl")),
    ("d3d_fin", include_str!("polyfills/d3d_fin.wgsl")),
    ("d3d_fout", include_str!("polyfills/d3d_fout.wgsl")),
    ("d3d_min", include_str!("polyfills/d3d_min.wgsl")),
    ("d3d_max", include_str!("polyfills/d3d_max.wgsl")),
    ("d3d_sat", include_str!("polyfills/d3d_sat.wgsl")),
    ("d3d_frc", include_str!("polyfills/d3d_frc.wgsl")),
    ("d3d_ftoi", include_str!("polyfills/d3d_ftoi.wgsl")),
    ("d3d_ftou", include_str!("polyfills/d3d_ftou.wgsl")),
    ("d3d_f32tof16", include_str!("polyfills/d3d_f32tof16.wgsl")),
    ("d3d_f16tof32", include_str!("polyfills/d3d_f16tof32.wgsl")),
    ("d3d_ubfe", include_str!("polyfills/d3d_ubfe.wgsl")),
    ("d3d_ibfe", include_str!("polyfills/d3d_ibfe.wgsl")),
    ("d3d_bfi", include_str!("polyfills/d3d_bfi.wgsl")),
    ("d3d_umul_hi", include_str!("polyfills/d3d_umul_hi.wgsl")),
    ("d3d_imul_hi", include_str!("polyfills/d3d_imul_hi.wgsl")),
    ("d3d_msad", include_str!("polyfills/d3d_msad.wgsl")),
    // Software doubles: `d3d_dadd` … `d3d_utod` and the 64- and 128-bit integer helpers
    // they share, one file.
    ("d3d_double", include_str!("polyfills/d3d_double.wgsl")),
];
