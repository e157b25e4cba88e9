fn d3d_max(a0: u32, b0: u32) -> u32 {
    let a = d3d_ftz(a0);
    let b = d3d_ftz(b0);
    if (d3d_isnan(a)) {
        return select(b, 0x7fc00000u, d3d_isnan(b));
    }
    if (d3d_isnan(b)) {
        return a;
    }
    if (((a | b) & 0x7fffffffu) == 0u) {
        return a & b;
    }
    return bitcast<u32>(max(bitcast<f32>(a), bitcast<f32>(b)));
}
