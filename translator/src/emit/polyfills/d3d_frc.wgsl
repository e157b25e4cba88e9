fn d3d_frc(x: u32) -> u32 {
    if ((x & 0x7fffffffu) >= 0x7f800000u) {
        return 0x7fc00000u;
    }
    let f = d3d_fin(x);
    // D3D's frc is never negative; a compiler may give -0 for 0 - floor(0) (WGSL lets it ignore
    // the sign of zero, and the H200's does for a constant 0), so the sign is cleared in bits.
    return d3d_fout(min(f - floor(f), bitcast<f32>(0x3f7fffffu))) & 0x7fffffffu;
}
