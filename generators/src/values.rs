//! Edge-biased 32-bit values: the numeric edges where D3D and WGSL part ways (NaN payloads, ±0,
//! denormals, ±inf, FLT_MAX, 2^24, 2^31±1, 2^32, f16 limits, near-integers), mixed with ordinary
//! floats, small integers and random bits. Values are raw words and never pass through a host
//! float.

use proptest::prelude::*;
use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, SeedableRng};

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

/// The mixture both samplers draw from, as weights out of [`WEIGHT_TOTAL`]: curated edges,
/// random bits, ordinary floats of moderate magnitude, near-integers (where rounding and
/// conversion edges sit), and small integers (shifts, bitfields, integer ops).
const W_EDGE: u32 = 4;
const W_BITS: u32 = 2;
const W_FLOAT: u32 = 3;
const W_NEAR_INTEGER: u32 = 1;
const W_SMALL: u32 = 2;
const WEIGHT_TOTAL: u32 = W_EDGE + W_BITS + W_FLOAT + W_NEAR_INTEGER + W_SMALL;

/// A near-integer: the float `i` moved by `d` ULPs.
fn near_integer(i: i32, d: i32) -> u32 {
    ((i as f32).to_bits() as i64 + i64::from(d)) as u32
}

/// One edge-biased word, as a proptest strategy: for property tests, which shrink it. Bulk
/// inputs come from [`sample`], which draws the same mixture with `rand`.
pub fn word() -> impl Strategy<Value = u32> {
    prop_oneof![
        W_EDGE => proptest::sample::select(EDGES),
        W_BITS => any::<u32>(),
        W_FLOAT => (-1000.0f32..1000.0).prop_map(f32::to_bits),
        W_NEAR_INTEGER => (-100i32..100, -2i32..3).prop_map(|(i, d)| near_integer(i, d)),
        W_SMALL => 0u32..40,
    ]
}

/// `x` scaled into `0..n` (multiply and shift: no division, no rejection loop; the bias is at
/// most n / 2^32).
fn below(x: u32, n: u32) -> u32 {
    ((u64::from(x) * u64::from(n)) >> 32) as u32
}

/// One word of [`word`]'s mixture, drawn directly: one 64-bit draw picks the class (high half)
/// and, for most classes, the value (low half). Proptest's value trees were ~50× slower per
/// word, and drawing inputs was most of `dxdiff verify`'s time.
fn draw(rng: &mut Xoshiro256PlusPlus) -> u32 {
    let r = rng.next_u64();
    let (hi, lo) = ((r >> 32) as u32, r as u32);
    let mut pick = below(hi, WEIGHT_TOTAL);
    if pick < W_EDGE {
        return EDGES[below(lo, EDGES.len() as u32) as usize];
    }
    pick -= W_EDGE;
    if pick < W_BITS {
        return lo;
    }
    pick -= W_BITS;
    if pick < W_FLOAT {
        // Uniform over [-1000, 1000) in steps of 2000 / 2^24.
        return ((lo >> 8) as f32 * (2000.0 / 16_777_216.0) - 1000.0).to_bits();
    }
    pick -= W_FLOAT;
    if pick < W_NEAR_INTEGER {
        let i = below(lo, 200) as i32 - 100;
        let d = below(rng.next_u32(), 5) as i32 - 2;
        return near_integer(i, d);
    }
    below(lo, 40)
}

/// Words per independently seeded block of [`sample`].
const BLOCK: usize = 1 << 16;

/// `n` edge-biased words, deterministic for a seed; the first words walk the edge list so every
/// edge appears in every component. Blocks of `BLOCK` (2^16) words have their own derived
/// seeds, so they are drawn on all cores and the result does not depend on the core count.
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
    // A named algorithm, so a seed draws the same words on every rand version.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(block_seed);
    let walk = EDGES.len() * EDGES.len();
    for (j, w) in block.iter_mut().enumerate() {
        let i = index * BLOCK + j;
        *w = if i < walk {
            // All pairs of edges in neighbouring words (components of one input).
            EDGES[(i / EDGES.len() + i) % EDGES.len()]
        } else {
            draw(&mut rng)
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    /// The class a word falls in, for comparing samplers: a curated edge, a small integer,
    /// an ordinary float of moderate magnitude, or anything else.
    fn class(w: u32) -> usize {
        let f = f32::from_bits(w);
        if EDGES.contains(&w) {
            0
        } else if w < 40 {
            1
        } else if f.is_finite() && f.abs() < 1000.0 && f.abs() >= 1e-30 {
            2
        } else {
            3
        }
    }

    /// The bulk sampler draws the same distribution of edge classes as the proptest strategy
    /// property tests use: class frequencies over 200,000 draws agree within 1 point.
    #[test]
    fn both_samplers_draw_the_same_mixture() {
        const N: usize = 200_000;
        let mut runner = TestRunner::deterministic();
        let strategy = word();
        let mut a = [0usize; 4];
        for _ in 0..N {
            let w = strategy.new_tree(&mut runner).expect("a value").current();
            a[class(w)] += 1;
        }
        let mut b = [0usize; 4];
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        for _ in 0..N {
            b[class(draw(&mut rng))] += 1;
        }
        for k in 0..4 {
            let (x, y) = (a[k] as f64 / N as f64, b[k] as f64 / N as f64);
            assert!(
                (x - y).abs() < 0.01,
                "class {k}: strategy {x:.4}, bulk {y:.4}"
            );
            assert!(y > 0.05, "class {k} is drawn: {y:.4}");
        }
    }

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
