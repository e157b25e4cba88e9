fn d3d_f16tof32(x: u32) -> u32 {
    let s = (x & 0x8000u) << 16u;
    let e = (x >> 10u) & 0x1fu;
    let m = x & 0x3ffu;
    if (e == 0x1fu) {
        return s | 0x7f800000u | (m << 13u);
    }
    if (e == 0u) {
        if (m == 0u) {
            return s;
        }
        var mm = m;
        var ee = 113u;
        loop {
            if ((mm & 0x400u) != 0u) {
                break;
            }
            mm = mm << 1u;
            ee = ee - 1u;
        }
        return s | (ee << 23u) | ((mm & 0x3ffu) << 13u);
    }
    return s | ((e + 112u) << 23u) | (m << 13u);
}
