fn d3d_f32tof16(x0: u32) -> u32 {
    let x = d3d_ftz(x0);
    let s = (x >> 16u) & 0x8000u;
    let a = x & 0x7fffffffu;
    if (a > 0x7f800000u) {
        return s | 0x7e00u;
    }
    if (a == 0x7f800000u) {
        return s | 0x7c00u;
    }
    if (a >= 0x47800000u) {
        return s | 0x7bffu;
    }
    let e = i32(a >> 23u) - 127;
    if (e >= -14) {
        return s | (u32(e + 15) << 10u) | ((a >> 13u) & 0x3ffu);
    }
    if (e >= -24) {
        return s | (((a & 0x7fffffu) | 0x800000u) >> u32(-1 - e));
    }
    return s;
}
