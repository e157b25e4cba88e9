fn d3d_ftoi(x: u32) -> u32 {
    if (d3d_isnan(x)) {
        return 0u;
    }
    let f = d3d_fin(x);
    if (f >= 2147483648.0) {
        return 0x7fffffffu;
    }
    if (f <= -2147483648.0) {
        return 0x80000000u;
    }
    return bitcast<u32>(i32(f));
}
