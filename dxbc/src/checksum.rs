//! The DXBC container checksum (format reference section 1.4).
//!
//! It is MD5 with a non-standard final block: the bit count goes *first* and a `(2·len)|1` word
//! goes last. A standard MD5 crate cannot express that padding, so the compression function is
//! implemented here (it is small and has no unsafe code).

/// Per-step additive constants `floor(abs(sin(i + 1)) · 2^32)` from RFC 1321.
const K: [u32; 64] = [
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
];

/// Per-step left-rotation amounts from RFC 1321.
const S: [u32; 64] = [
    7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9,
    14, 20, 5, 9, 14, 20, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10, 15,
    21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
];

/// Which message word each step reads (RFC 1321's per-round orderings).
const G: [usize; 64] = {
    let mut g = [0; 64];
    let mut i = 0;
    while i < 64 {
        g[i] = match i / 16 {
            0 => i,
            1 => (5 * i + 1) % 16,
            2 => (3 * i + 5) % 16,
            _ => (7 * i) % 16,
        };
        i += 1;
    }
    g
};

/// One MD5 compression step over a 64-byte block. Each round is its own loop so that the
/// compiler unrolls it with the round's function fixed: every parsed blob is checksummed.
fn compress(state: &mut [u32; 4], block: &[u8; 64]) {
    let mut m = [0u32; 16];
    for (word, bytes) in m.iter_mut().zip(block.chunks_exact(4)) {
        *word = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
    }
    let [mut a, mut b, mut c, mut d] = *state;
    macro_rules! round {
        ($range:expr, $early:expr, $f:expr) => {
            for i in $range {
                // `a + K + m + early(c, d)` does not read the previous step's `b`, so it can
                // be summed beside the dependency chain, leaving only `f`, one add, the
                // rotation and the add of `b` on it. LLVM reassociates the adds to put `f`
                // first (three adds on the chain); `black_box` keeps the sum whole, which
                // took a third off the checksum's time (1.8 -> 1.2 us per bench program).
                let early = std::hint::black_box(
                    a.wrapping_add(K[i])
                        .wrapping_add(m[G[i]])
                        .wrapping_add($early(c, d)),
                );
                let f: u32 = $f(b, c, d);
                let rotated = early.wrapping_add(f).rotate_left(S[i]);
                a = d;
                d = c;
                c = b;
                b = b.wrapping_add(rotated);
            }
        };
    }
    let none = |_: u32, _: u32| 0u32;
    // The selections in forms with less on the chain: `(b & c) | (!b & d)` is
    // `d ^ (b & (c ^ d))`; `(d & b) | (!d & c)` is `(b & d) + (c & !d)`, the two parts having
    // no bit in common, so `c & !d` is added early.
    round!(0..16, none, |b: u32, c: u32, d: u32| d ^ (b & (c ^ d)));
    round!(16..32, |c: u32, d: u32| c & !d, |b: u32, _: u32, d: u32| b
        & d);
    round!(32..48, none, |b: u32, c: u32, d: u32| b ^ c ^ d);
    round!(48..64, none, |b: u32, c: u32, d: u32| c ^ (b | !d));
    state[0] = state[0].wrapping_add(a);
    state[1] = state[1].wrapping_add(b);
    state[2] = state[2].wrapping_add(c);
    state[3] = state[3].wrapping_add(d);
}

/// Whether a container blob's stored checksum (bytes 4..20) is the checksum of its bytes;
/// `false` for a blob too short to hold one.
///
/// Asked on demand (`dxdiff info`), never by parsing: a wrong checksum is reported, not
/// rejected, since real files with edited bytes exist (the SDK corpus's `FxDis/test_PS.o`), so
/// nothing a translation does depends on it, and the MD5 was a quarter of decoding a program.
pub fn checksum_matches(blob: &[u8]) -> bool {
    let Some(stored) = blob.get(4..20) else {
        return false;
    };
    let mut words = [0u32; 4];
    for (w, b) in words.iter_mut().zip(stored.chunks_exact(4)) {
        *w = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    }
    dxbc_checksum(blob) == words
}

/// The checksum of a whole container blob, computed over bytes `[20..]` (everything after the
/// checksum field). Returns the four words as they are stored (little-endian) at offsets 4..20.
///
/// A blob shorter than 20 bytes is checksummed as if its data were empty, so the function is total.
pub fn dxbc_checksum(blob: &[u8]) -> [u32; 4] {
    let data = blob.get(20..).unwrap_or(&[]);
    let mut state = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476];
    let mut blocks = data.chunks_exact(64);
    for block in &mut blocks {
        if let Ok(b) = <&[u8; 64]>::try_from(block) {
            compress(&mut state, b);
        }
    }
    let tail = blocks.remainder();
    // Truncation to 32 bits is part of the algorithm (section 1.4).
    let len = data.len() as u32;
    let bits = len.wrapping_mul(8);
    let t = len.wrapping_mul(2) | 1;
    let mut last = [0u8; 64];
    if tail.len() < 56 {
        last[0..4].copy_from_slice(&bits.to_le_bytes());
        last[4..4 + tail.len()].copy_from_slice(tail);
        last[4 + tail.len()] = 0x80;
        last[60..64].copy_from_slice(&t.to_le_bytes());
        compress(&mut state, &last);
    } else {
        last[..tail.len()].copy_from_slice(tail);
        last[tail.len()] = 0x80;
        compress(&mut state, &last);
        let mut extra = [0u8; 64];
        extra[0..4].copy_from_slice(&bits.to_le_bytes());
        extra[60..64].copy_from_slice(&t.to_le_bytes());
        compress(&mut state, &extra);
    }
    state
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(s: &str) -> Vec<u8> {
        let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("test vector is hex"))
            .collect()
    }

    #[test]
    fn vector1_single_final_block() {
        let blob = hex(
            "44584243dd3558212e5ff6dcc01e6d072b4d66b1010000009800000004000000
             300000004000000050000000780000004953474e080000000000000008000000
             4f53474e08000000000000000800000053484558200000005000050008000000
             6a0800019b0000040100000001000000010000003e0000015254533018000000
             010000000000000018000000000000001800000000000000",
        );
        assert_eq!(blob.len(), 152);
        assert_eq!(
            dxbc_checksum(&blob),
            [0x215835dd, 0xdcf65f2e, 0x076d1ec0, 0xb1664d2b]
        );
    }

    #[test]
    fn vector2_two_final_blocks() {
        let words: [u32; 67] = [
            0x43425844, 0xb570ee39, 0xcf84fe48, 0x7fa59ede, 0x6151def2, 0x00000001, 0x0000010c,
            0x00000003, 0x0000002c, 0x0000003c, 0x00000070, 0x4e475349, 0x00000008, 0x00000000,
            0x00000008, 0x4e47534f, 0x0000002c, 0x00000001, 0x00000008, 0x00000020, 0x00000000,
            0x00000000, 0x00000003, 0x00000000, 0x0000000f, 0x545f5653, 0x65677261, 0xabab0074,
            0x58454853, 0x00000094, 0x00000050, 0x00000025, 0x0100086a, 0x04000059, 0x00208e46,
            0x00000000, 0x00000002, 0x03000065, 0x001020f2, 0x00000000, 0x09000033, 0x00102012,
            0x00000000, 0x0020800a, 0x00000000, 0x00000000, 0x0020800a, 0x00000000, 0x00000001,
            0x09000034, 0x00102022, 0x00000000, 0x0020800a, 0x00000000, 0x00000000, 0x0020800a,
            0x00000000, 0x00000001, 0x08000036, 0x001020c2, 0x00000000, 0x00004002, 0x00000000,
            0x00000000, 0x00000000, 0x00000000, 0x0100003e,
        ];
        let blob: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        assert_eq!(blob.len(), 268);
        assert_eq!(
            dxbc_checksum(&blob),
            [0xb570ee39, 0xcf84fe48, 0x7fa59ede, 0x6151def2]
        );
    }

    /// The shorter selections are the RFC's, bit for bit.
    #[test]
    fn the_selection_forms_agree() {
        let words = [
            0u32,
            u32::MAX,
            0x5555_5555,
            0xdead_beef,
            0x0123_4567,
            0x8000_0001,
        ];
        for b in words {
            for c in words {
                for d in words {
                    assert_eq!(d ^ (b & (c ^ d)), (b & c) | (!b & d));
                    assert_eq!((b & d).wrapping_add(c & !d), (d & b) | (!d & c));
                }
            }
        }
    }

    #[test]
    fn short_input_does_not_panic() {
        let _ = dxbc_checksum(&[]);
        let _ = dxbc_checksum(&[1, 2, 3]);
    }
}
