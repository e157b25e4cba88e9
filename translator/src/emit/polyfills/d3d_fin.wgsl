fn d3d_fin(x: u32) -> f32 {
    return bitcast<f32>(d3d_ftz(x));
}
