//! Generated texture contents: a format for each sampled texture binding, and texel words
//! biased to each format's edges (NaN, ±inf, denormals and −0 in float channels; 0 and the
//! maximum in UNORM and integer channels), so that every conversion rule of
//! [`oracles::rules::texel`] is reached.

use oracles::interp::{TexelFormat, TexelKind};

use super::fnv;

/// The formats a generated texture of each kind is drawn from. rgba32 carries any word to the
/// shader unchanged, so it keeps a larger share; the others exercise D3D's conversions.
fn candidates(kind: TexelKind) -> &'static [TexelFormat] {
    use TexelFormat::*;
    match kind {
        TexelKind::Float => &[
            Rgba32Float,
            Rgba32Float,
            Rgba32Float,
            Rg32Float,
            R32Float,
            Rgba8Unorm,
            Rgba8UnormSrgb,
            Bgra8Unorm,
            Rgb10a2Unorm,
            Rg11b10Float,
            Rg16Float,
            Rgba16Float,
            R8Unorm,
            Rg8Unorm,
            R16Float,
        ],
        TexelKind::Uint => &[Rgba32Uint, Rgba32Uint, Rg32Uint, R32Uint, Rgba8Uint, R8Uint],
        TexelKind::Sint => &[
            Rgba32Sint, Rgba32Sint, Rg32Sint, R32Sint, Rgba8Sint, R16Sint,
        ],
    }
}

/// The format of a generated texture that shaders read as `kind`, drawn from `seed`.
pub fn format(kind: TexelKind, seed: u64) -> TexelFormat {
    let c = candidates(kind);
    c[(fnv(&seed.to_le_bytes()) % c.len() as u64) as usize]
}

/// A packed channel: where it sits in its word, how wide it is, and its edge values.
struct Field {
    shift: u32,
    bits: u32,
    edges: &'static [u32],
}

const BYTE_EDGES: &[u32] = &[0x00, 0xff, 0x80, 0x7f, 0x01, 0xfe];
const TEN_EDGES: &[u32] = &[0, 0x3ff, 0x200, 0x1ff, 1];
const TWO_EDGES: &[u32] = &[0, 3];
/// 16-bit signed integers: 0, ±1, the extremes.
const I16_EDGES: &[u32] = &[0, 1, 0xffff, 0x7fff, 0x8000];
/// 16-bit UNORM depth: 0, 1.0, the codes either side of 0.5, the smallest and largest steps.
const D16_EDGES: &[u32] = &[0, 0xffff, 0x8000, 0x7fff, 1, 0xfffe];
/// 11-bit unsigned floats: 0, infinity, a NaN, the largest finite, the smallest denormal, 1.0.
const F11_EDGES: &[u32] = &[0, 0x7c0, 0x7c1, 0x7bf, 0x001, 0x3c0];
/// 10-bit unsigned floats, the same values.
const F10_EDGES: &[u32] = &[0, 0x3e0, 0x3e1, 0x3df, 0x001, 0x1e0];
/// Halves: ±0, ±inf, a quiet and a signalling NaN, the smallest denormals, the largest
/// denormal, 65504, ±1.
const HALF_EDGES: &[u32] = &[
    0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0x0001, 0x8001, 0x03ff, 0x7bff, 0x3c00, 0xbc00,
];

/// The packed channels of one word of a format; empty for 32-bit channels, whose words come
/// edge-biased already.
fn fields(format: TexelFormat) -> Vec<Field> {
    use TexelFormat::*;
    let f = |shift, bits, edges| Field { shift, bits, edges };
    match format {
        Rgba8Unorm | Rgba8UnormSrgb | Bgra8Unorm | Rgba8Uint | Rgba8Sint => {
            (0..4).map(|c| f(8 * c, 8, BYTE_EDGES)).collect()
        }
        Rgb10a2Unorm => vec![
            f(0, 10, TEN_EDGES),
            f(10, 10, TEN_EDGES),
            f(20, 10, TEN_EDGES),
            f(30, 2, TWO_EDGES),
        ],
        Rg11b10Float => vec![
            f(0, 11, F11_EDGES),
            f(11, 11, F11_EDGES),
            f(22, 10, F10_EDGES),
        ],
        Rg16Float | Rgba16Float => vec![f(0, 16, HALF_EDGES), f(16, 16, HALF_EDGES)],
        D16Unorm => vec![f(0, 16, D16_EDGES)],
        R8Unorm | R8Uint => vec![f(0, 8, BYTE_EDGES)],
        Rg8Unorm => vec![f(0, 8, BYTE_EDGES), f(8, 8, BYTE_EDGES)],
        R16Float => vec![f(0, 16, HALF_EDGES)],
        R16Sint => vec![f(0, 16, I16_EDGES)],
        _ => Vec::new(),
    }
}

/// `texels` texels of `format`, deterministic for `seed`: random bits with each packed
/// channel set to one of its edge values a third of the time.
pub fn words(format: TexelFormat, texels: usize, seed: u64) -> Vec<u32> {
    let mut words = generators::values::sample(seed, texels * format.words());
    // A 1- or 2-byte texel is held in the low bits of its word: the rest is not the
    // texture's.
    let mask = format.word_mask();
    for w in &mut words {
        *w &= mask;
    }
    let fields = fields(format);
    for (i, w) in words.iter_mut().enumerate() {
        for (k, field) in fields.iter().enumerate() {
            let h = fnv(&[
                seed.to_le_bytes(),
                (i as u64).to_le_bytes(),
                (k as u64).to_le_bytes(),
            ]
            .concat());
            if h.is_multiple_of(3) {
                let edge = field.edges[((h >> 8) % field.edges.len() as u64) as usize];
                let mask = ((1u32 << field.bits) - 1) << field.shift;
                *w = (*w & !mask) | ((edge << field.shift) & mask);
            }
        }
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_read_as_the_binding_type() {
        for kind in [TexelKind::Float, TexelKind::Uint, TexelKind::Sint] {
            for seed in 0..64 {
                assert_eq!(format(kind, seed).kind(), kind);
            }
        }
        // Every candidate is drawn by some seed.
        for kind in [TexelKind::Float, TexelKind::Uint, TexelKind::Sint] {
            for f in candidates(kind) {
                assert!((0..512).any(|s| format(kind, s) == *f), "{}", f.name());
            }
        }
    }

    /// Each packed channel reaches each of its edges, and random values besides.
    #[test]
    fn packed_channels_reach_their_edges() {
        for &f in TexelFormat::ALL {
            let w = words(f, 512, 3);
            assert_eq!(w.len(), 512 * f.words());
            assert_eq!(w, words(f, 512, 3));
            for field in fields(f) {
                let mask = (1u64 << field.bits) as u32 - 1;
                let values: Vec<u32> = w.iter().map(|w| (w >> field.shift) & mask).collect();
                for e in field.edges {
                    assert!(values.contains(e), "{} edge {e:#x}", f.name());
                }
                assert!(values.iter().any(|v| !field.edges.contains(v)));
            }
        }
    }
}
