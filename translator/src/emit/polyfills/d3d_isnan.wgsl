fn d3d_isnan(x: u32) -> bool {
    return (x & 0x7fffffffu) > 0x7f800000u;
}
