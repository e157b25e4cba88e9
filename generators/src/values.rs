//! Edge-biased 32-bit values: the numeric edges where D3D and WGSL part ways (NaN payloads, ±0,
//! denormals, ±inf, FLT_MAX, 2^24, 2^31±1, 2^32, f16 limits, near-integers), mixed with ordinary
//! floats, small integers and random bits. Values are raw words and never pass through a host
//! float.

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

/// The curated edge words.
pub const EDGES: &[u32] = &[
    0x0000_0000, // +0
    0x8000_0000, // -0
    0x0000_0001, // smallest denormal
    0x8000_0001,
    0x007f_ffff, // largest denormal
    0x807f_ffff,
    0x0080_0000, // smallest normal
    0x3f80_0000, // 1
    0xbf80_0000, // -1
    0x3f00_0000, // 0.5
    0xbf00_0000,
    0x3fc0_0000, // 1.5
    0x7f7f_ffff, // FLT_MAX
    0xff7f_ffff,
    0x7f80_0000, // +inf
    0xff80_0000, // -inf
    0x7fc0_0000, // quiet NaN
    0xffc0_0000,
    0x7f80_0001, // signalling NaN
    0x7fc0_1234, // NaN with payload
    0x4b80_0000, // 2^24
    0x4b7f_ffff,
    0x4f00_0000, // 2^31
    0xcf00_0000, // -2^31
    0x4eff_ffff,
    0x4f80_0000, // 2^32
    0x477f_e000, // 65504
    0x477f_f000, // 65520
    0x4780_0000, // 65536
    0x3380_0000, // 2^-24 (smallest f16 denormal)
    0x3880_0000, // 2^-14 (smallest f16 normal)
    0x7fff_ffff, // INT_MAX
    0x8000_0000, // INT_MIN
    0xffff_ffff, // -1 / UINT_MAX
    0x0000_001f, // 31
    0x0000_0020, // 32
    0x0000_0021, // 33
    0x0000_7c00, // f16 +inf
    0x0000_7e00, // f16 NaN
    0x0000_03ff, // f16 largest denormal
    0x0000_7bff, // f16 65504
    0x4049_0fdb, // pi
    0xc049_0fdb,
    0x3eaa_aaab, // 1/3
];

/// One edge-biased word.
pub fn word() -> impl Strategy<Value = u32> {
    prop_oneof![
        4 => proptest::sample::select(EDGES),
        2 => any::<u32>(),
        // Ordinary floats of moderate magnitude.
        3 => (-1000.0f32..1000.0).prop_map(f32::to_bits),
        // Near-integers, where rounding and conversion edges sit.
        1 => (-100i32..100, -2i32..3).prop_map(|(i, d)| ((i as f32).to_bits() as i64 + i64::from(d)) as u32),
        // Small integers, for shifts, bitfields and integer ops.
        2 => 0u32..40,
    ]
}

/// Words per independently seeded block of [`sample`].
const BLOCK: usize = 1 << 16;

/// `n` edge-biased words, deterministic for a seed; the first words walk the edge list so every
/// edge appears in every component. Blocks of `BLOCK` (2^16) words have their own derived
/// seeds, so they are drawn on all cores (drawing from the strategy is most of `dxdiff verify`'s
/// input time) and the result does not depend on the core count.
pub fn sample(seed: u64, n: usize) -> Vec<u32> {
    let mut out = vec![0u32; n];
    let blocks: Vec<(usize, &mut [u32])> = out.chunks_mut(BLOCK).enumerate().collect();
    let threads = std::thread::available_parallelism()
        .map_or(1, |t| t.get())
        .min(blocks.len().max(1));
    let mut shares: Vec<Vec<(usize, &mut [u32])>> = (0..threads).map(|_| Vec::new()).collect();
    for (k, b) in blocks.into_iter().enumerate() {
        shares[k % threads].push(b);
    }
    std::thread::scope(|s| {
        for share in shares {
            s.spawn(move || {
                for (index, block) in share {
                    fill_block(seed, index, block);
                }
            });
        }
    });
    out
}

fn fill_block(seed: u64, index: usize, block: &mut [u32]) {
    let block_seed = seed ^ (index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&block_seed.to_le_bytes());
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &bytes),
    );
    let strategy = word();
    for (j, w) in block.iter_mut().enumerate() {
        let i = index * BLOCK + j;
        *w = if i < EDGES.len() * EDGES.len() {
            // All pairs of edges in neighbouring words (components of one input).
            EDGES[(i / EDGES.len() + i) % EDGES.len()]
        } else {
            strategy
                .new_tree(&mut runner)
                .map(|t| t.current())
                .unwrap_or(0)
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_are_deterministic_and_cover_the_edges() {
        let a = sample(7, 20_000);
        assert_eq!(a, sample(7, 20_000));
        assert_ne!(a, sample(8, 20_000));
        for e in EDGES {
            assert!(a.contains(e), "{e:#x}");
        }
        // Not only edges: random words appear after the edge walk.
        assert!(
            a[EDGES.len() * EDGES.len()..]
                .iter()
                .any(|w| !EDGES.contains(w))
        );
    }
}
