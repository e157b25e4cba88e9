fn d3d_ibfe(w0: u32, o0: u32, v: u32) -> u32 {
    let w = w0 & 31u;
    let o = o0 & 31u;
    if (w == 0u) {
        return 0u;
    }
    if (w + o < 32u) {
        return bitcast<u32>(bitcast<i32>(v << (32u - w - o)) >> (32u - w));
    }
    return bitcast<u32>(bitcast<i32>(v) >> o);
}
