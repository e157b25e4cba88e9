fn d3d_sat(x: u32) -> u32 {
    if (d3d_isnan(x) || (x & 0x7fffffffu) == 0u) {
        return 0u;
    }
    return bitcast<u32>(clamp(d3d_fin(x), 0.0, 1.0));
}
