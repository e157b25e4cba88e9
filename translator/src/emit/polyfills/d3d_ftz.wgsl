fn d3d_ftz(x: u32) -> u32 {
    return select(x, x & 0x80000000u, (x & 0x7f800000u) == 0u);
}
