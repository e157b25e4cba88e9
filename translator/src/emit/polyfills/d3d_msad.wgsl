fn d3d_msad(r: u32, s: u32, acc: u32) -> u32 {
    var sum = acc;
    for (var i = 0u; i < 32u; i = i + 8u) {
        let rb = (r >> i) & 0xffu;
        let sb = (s >> i) & 0xffu;
        if (rb != 0u) {
            sum = sum + select(sb - rb, rb - sb, rb > sb);
        }
    }
    return sum;
}
