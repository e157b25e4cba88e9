fn d3d_umul_hi(a: u32, b: u32) -> u32 {
    let a0 = a & 0xffffu;
    let a1 = a >> 16u;
    let b0 = b & 0xffffu;
    let b1 = b >> 16u;
    let p01 = a0 * b1;
    let p10 = a1 * b0;
    let mid = ((a0 * b0) >> 16u) + (p01 & 0xffffu) + (p10 & 0xffffu);
    return a1 * b1 + (p01 >> 16u) + (p10 >> 16u) + (mid >> 16u);
}
