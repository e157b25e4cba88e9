fn d3d_imul_hi(a: u32, b: u32) -> u32 {
    let hi = d3d_umul_hi(a, b);
    return hi - select(0u, b, bitcast<i32>(a) < 0) - select(0u, a, bitcast<i32>(b) < 0);
}
