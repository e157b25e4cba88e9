fn d3d_bfi(w0: u32, o0: u32, ins: u32, base: u32) -> u32 {
    let w = w0 & 31u;
    let o = o0 & 31u;
    let mask = ((1u << w) - 1u) << o;
    return ((ins << o) & mask) | (base & ~mask);
}
