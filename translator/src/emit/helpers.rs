//! WGSL helper functions the lowering calls. Each is emitted once, only when used, and states one
//! D3D rule with integer operations on the raw bits, so no float latitude of WGSL applies to it.

/// (name, WGSL source). Names are referenced by the lowering through [`super::Ctx::helper`].
pub const HELPERS: &[(&str, &str)] = &[
    (
        "d3d_ftz",
        "fn d3d_ftz(x: u32) -> u32 {\n    return select(x, x & 0x80000000u, (x & 0x7f800000u) == 0u);\n}\n",
    ),
    (
        "d3d_isnan",
        "fn d3d_isnan(x: u32) -> bool {\n    return (x & 0x7fffffffu) > 0x7f800000u;\n}\n",
    ),
    (
        "d3d_fin",
        "fn d3d_fin(x: u32) -> f32 {\n    return bitcast<f32>(d3d_ftz(x));\n}\n",
    ),
    (
        "d3d_fout",
        "fn d3d_fout(r: f32) -> u32 {\n    let x = bitcast<u32>(r);\n    if (d3d_isnan(x)) {\n        return 0x7fc00000u;\n    }\n    return d3d_ftz(x);\n}\n",
    ),
    (
        "d3d_min",
        "fn d3d_min(a0: u32, b0: u32) -> u32 {\n    let a = d3d_ftz(a0);\n    let b = d3d_ftz(b0);\n    if (d3d_isnan(a)) {\n        return select(b, 0x7fc00000u, d3d_isnan(b));\n    }\n    if (d3d_isnan(b)) {\n        return a;\n    }\n    if (((a | b) & 0x7fffffffu) == 0u) {\n        return a | b;\n    }\n    return bitcast<u32>(min(bitcast<f32>(a), bitcast<f32>(b)));\n}\n",
    ),
    (
        "d3d_max",
        "fn d3d_max(a0: u32, b0: u32) -> u32 {\n    let a = d3d_ftz(a0);\n    let b = d3d_ftz(b0);\n    if (d3d_isnan(a)) {\n        return select(b, 0x7fc00000u, d3d_isnan(b));\n    }\n    if (d3d_isnan(b)) {\n        return a;\n    }\n    if (((a | b) & 0x7fffffffu) == 0u) {\n        return a & b;\n    }\n    return bitcast<u32>(max(bitcast<f32>(a), bitcast<f32>(b)));\n}\n",
    ),
    (
        "d3d_sat",
        "fn d3d_sat(x: u32) -> u32 {\n    if (d3d_isnan(x) || (x & 0x7fffffffu) == 0u) {\n        return 0u;\n    }\n    return bitcast<u32>(clamp(d3d_fin(x), 0.0, 1.0));\n}\n",
    ),
    (
        "d3d_frc",
        "fn d3d_frc(x: u32) -> u32 {\n    if ((x & 0x7fffffffu) >= 0x7f800000u) {\n        return 0x7fc00000u;\n    }\n    let f = d3d_fin(x);\n    return d3d_fout(min(f - floor(f), bitcast<f32>(0x3f7fffffu)));\n}\n",
    ),
    (
        "d3d_ftoi",
        "fn d3d_ftoi(x: u32) -> u32 {\n    if (d3d_isnan(x)) {\n        return 0u;\n    }\n    let f = d3d_fin(x);\n    if (f >= 2147483648.0) {\n        return 0x7fffffffu;\n    }\n    if (f <= -2147483648.0) {\n        return 0x80000000u;\n    }\n    return bitcast<u32>(i32(f));\n}\n",
    ),
    (
        "d3d_ftou",
        "fn d3d_ftou(x: u32) -> u32 {\n    if (d3d_isnan(x)) {\n        return 0u;\n    }\n    let f = d3d_fin(x);\n    if (f >= 4294967296.0) {\n        return 0xffffffffu;\n    }\n    if (f <= 0.0) {\n        return 0u;\n    }\n    return u32(f);\n}\n",
    ),
    (
        "d3d_f32tof16",
        "fn d3d_f32tof16(x0: u32) -> u32 {\n    let x = d3d_ftz(x0);\n    let s = (x >> 16u) & 0x8000u;\n    let a = x & 0x7fffffffu;\n    if (a > 0x7f800000u) {\n        return s | 0x7e00u;\n    }\n    if (a == 0x7f800000u) {\n        return s | 0x7c00u;\n    }\n    if (a >= 0x47800000u) {\n        return s | 0x7bffu;\n    }\n    let e = i32(a >> 23u) - 127;\n    if (e >= -14) {\n        return s | (u32(e + 15) << 10u) | ((a >> 13u) & 0x3ffu);\n    }\n    if (e >= -24) {\n        return s | (((a & 0x7fffffu) | 0x800000u) >> u32(-1 - e));\n    }\n    return s;\n}\n",
    ),
    (
        "d3d_f16tof32",
        "fn d3d_f16tof32(x: u32) -> u32 {\n    let s = (x & 0x8000u) << 16u;\n    let e = (x >> 10u) & 0x1fu;\n    let m = x & 0x3ffu;\n    if (e == 0x1fu) {\n        return s | 0x7f800000u | (m << 13u);\n    }\n    if (e == 0u) {\n        if (m == 0u) {\n            return s;\n        }\n        var mm = m;\n        var ee = 113u;\n        loop {\n            if ((mm & 0x400u) != 0u) {\n                break;\n            }\n            mm = mm << 1u;\n            ee = ee - 1u;\n        }\n        return s | (ee << 23u) | ((mm & 0x3ffu) << 13u);\n    }\n    return s | ((e + 112u) << 23u) | (m << 13u);\n}\n",
    ),
    (
        "d3d_ubfe",
        "fn d3d_ubfe(w0: u32, o0: u32, v: u32) -> u32 {\n    let w = w0 & 31u;\n    let o = o0 & 31u;\n    if (w == 0u) {\n        return 0u;\n    }\n    if (w + o < 32u) {\n        return (v << (32u - w - o)) >> (32u - w);\n    }\n    return v >> o;\n}\n",
    ),
    (
        "d3d_ibfe",
        "fn d3d_ibfe(w0: u32, o0: u32, v: u32) -> u32 {\n    let w = w0 & 31u;\n    let o = o0 & 31u;\n    if (w == 0u) {\n        return 0u;\n    }\n    if (w + o < 32u) {\n        return bitcast<u32>(bitcast<i32>(v << (32u - w - o)) >> (32u - w));\n    }\n    return bitcast<u32>(bitcast<i32>(v) >> o);\n}\n",
    ),
    (
        "d3d_bfi",
        "fn d3d_bfi(w0: u32, o0: u32, ins: u32, base: u32) -> u32 {\n    let w = w0 & 31u;\n    let o = o0 & 31u;\n    let mask = ((1u << w) - 1u) << o;\n    return ((ins << o) & mask) | (base & ~mask);\n}\n",
    ),
    (
        "d3d_umul_hi",
        "fn d3d_umul_hi(a: u32, b: u32) -> u32 {\n    let a0 = a & 0xffffu;\n    let a1 = a >> 16u;\n    let b0 = b & 0xffffu;\n    let b1 = b >> 16u;\n    let p01 = a0 * b1;\n    let p10 = a1 * b0;\n    let mid = ((a0 * b0) >> 16u) + (p01 & 0xffffu) + (p10 & 0xffffu);\n    return a1 * b1 + (p01 >> 16u) + (p10 >> 16u) + (mid >> 16u);\n}\n",
    ),
    (
        "d3d_imul_hi",
        "fn d3d_imul_hi(a: u32, b: u32) -> u32 {\n    let hi = d3d_umul_hi(a, b);\n    return hi - select(0u, b, bitcast<i32>(a) < 0) - select(0u, a, bitcast<i32>(b) < 0);\n}\n",
    ),
    (
        "d3d_msad",
        "fn d3d_msad(r: u32, s: u32, acc: u32) -> u32 {\n    var sum = acc;\n    for (var i = 0u; i < 32u; i = i + 8u) {\n        let rb = (r >> i) & 0xffu;\n        let sb = (s >> i) & 0xffu;\n        if (rb != 0u) {\n            sum = sum + select(sb - rb, rb - sb, rb > sb);\n        }\n    }\n    return sum;\n}\n",
    ),
];

/// Helpers a helper calls, so asking for one brings its dependencies.
pub fn dependencies(name: &str) -> &'static [&'static str] {
    match name {
        "d3d_fin" => &["d3d_ftz"],
        "d3d_fout" => &["d3d_ftz", "d3d_isnan"],
        "d3d_min" | "d3d_max" => &["d3d_ftz", "d3d_isnan"],
        "d3d_sat" => &["d3d_isnan", "d3d_fin"],
        "d3d_frc" => &["d3d_fin", "d3d_fout"],
        "d3d_ftoi" | "d3d_ftou" => &["d3d_isnan", "d3d_fin"],
        "d3d_f32tof16" => &["d3d_ftz"],
        "d3d_imul_hi" => &["d3d_umul_hi"],
        _ => &[],
    }
}
