fn d3d_ftou(x: u32) -> u32 {
    if (d3d_isnan(x)) {
        return 0u;
    }
    let f = d3d_fin(x);
    if (f >= 4294967296.0) {
        return 0xffffffffu;
    }
    if (f <= 0.0) {
        return 0u;
    }
    return u32(f);
}
