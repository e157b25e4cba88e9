fn d3d_fout(r: f32) -> u32 {
    let x = bitcast<u32>(r);
    if (d3d_isnan(x)) {
        return 0x7fc00000u;
    }
    return d3d_ftz(x);
}
