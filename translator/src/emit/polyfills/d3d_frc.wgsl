fn d3d_frc(x: u32) -> u32 {
    if ((x & 0x7fffffffu) >= 0x7f800000u) {
        return 0x7fc00000u;
    }
    let f = d3d_fin(x);
    return d3d_fout(min(f - floor(f), bitcast<f32>(0x3f7fffffu)));
}
