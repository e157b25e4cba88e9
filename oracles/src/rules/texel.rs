//! Texture formats and D3D's rules for reading a stored texel into a shader's four channels
//! (FS §3.2.3 "data conversion", §19.1.3.3 missing channels).
//!
//! A texture is kept as the words it has in memory, in its own format, so that the interpreter
//! and a device read the same bytes: the GPU executor uploads them as a texture of that format,
//! and the interpreter decodes a texel only when it reads one ([`TexelFormat::decode`]).

use super::bits::SIGN;
use super::convert::f16tof32;
use crate::domain::{Domain, Events, raise};

/// One table of the formats: each variant beside its DXGI name, from which the enum, its
/// [`TexelFormat::ALL`] and its [`TexelFormat::name`] are made.
macro_rules! texel_formats {
    ($($(#[$doc:meta])* $var:ident = $name:literal,)*) => {
        /// A texture format, named by DXGI. Texels of 4, 8 or 16 bytes are one or more whole
        /// words; a texel of 1 or 2 bytes is held in the low bits of a word of its own, and the
        /// upload packs them (see [`TexelFormat::bytes`]).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
        pub enum TexelFormat {
            $(
                #[doc = concat!("`", $name, "`.")]
                $(#[$doc])*
                $var,
            )*
        }

        impl TexelFormat {
            /// Every format, in the order generators draw from.
            pub const ALL: &'static [TexelFormat] = &[$(TexelFormat::$var,)*];

            /// The DXGI name without its `DXGI_FORMAT_` prefix, as case files write it.
            pub fn name(self) -> &'static str {
                match self {
                    $(TexelFormat::$var => $name,)*
                }
            }
        }
    };
}

texel_formats! {
    Rgba32Float = "R32G32B32A32_FLOAT",
    Rgba32Uint = "R32G32B32A32_UINT",
    Rgba32Sint = "R32G32B32A32_SINT",
    Rg32Float = "R32G32_FLOAT",
    Rg32Uint = "R32G32_UINT",
    Rg32Sint = "R32G32_SINT",
    R32Float = "R32_FLOAT",
    R32Uint = "R32_UINT",
    R32Sint = "R32_SINT",
    Rgba8Unorm = "R8G8B8A8_UNORM",
    Rgba8UnormSrgb = "R8G8B8A8_UNORM_SRGB",
    /// Blue in the low byte.
    Bgra8Unorm = "B8G8R8A8_UNORM",
    Rgba8Uint = "R8G8B8A8_UINT",
    Rgba8Sint = "R8G8B8A8_SINT",
    Rgb10a2Unorm = "R10G10B10A2_UNORM",
    /// Unsigned 11-, 11- and 10-bit floats.
    Rg11b10Float = "R11G11B10_FLOAT",
    Rg16Float = "R16G16_FLOAT",
    Rgba16Float = "R16G16B16A16_FLOAT",
    /// One 8-bit UNORM channel.
    R8Unorm = "R8_UNORM",
    /// Two 8-bit UNORM channels.
    Rg8Unorm = "R8G8_UNORM",
    /// One half-float channel.
    R16Float = "R16_FLOAT",
    /// One 8-bit unsigned integer channel.
    R8Uint = "R8_UINT",
    /// One 16-bit signed integer channel.
    R16Sint = "R16_SINT",
    /// A 16-bit UNORM depth format, read through its `R16_UNORM` view: the one depth format a
    /// WebGPU texture can be filled with by a copy (`depth16unorm`; `depth32float` takes no
    /// copies from a buffer). Held one texel per word, in its low 16 bits.
    D16Unorm = "D16_UNORM",
    /// Four 8-bit SNORM channels: a storage-texture format (`rgba8snorm`).
    Rgba8Snorm = "R8G8B8A8_SNORM",
    /// Four 16-bit unsigned integer channels (`rgba16uint`).
    Rgba16Uint = "R16G16B16A16_UINT",
    /// Four 16-bit signed integer channels (`rgba16sint`).
    Rgba16Sint = "R16G16B16A16_SINT",
}

/// What a shader reads from a format: floats, or unsigned or signed integers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TexelKind {
    /// UNORM, SRGB and FLOAT formats.
    Float,
    /// UINT formats.
    Uint,
    /// SINT formats.
    Sint,
}

use TexelFormat::*;

impl TexelFormat {
    /// The format of a DXGI name (with or without the `DXGI_FORMAT_` prefix).
    pub fn parse(name: &str) -> Option<TexelFormat> {
        let name = name.strip_prefix("DXGI_FORMAT_").unwrap_or(name);
        TexelFormat::ALL.iter().copied().find(|f| f.name() == name)
    }

    /// Words a texel takes in memory.
    pub fn words(self) -> usize {
        match self {
            Rgba32Float | Rgba32Uint | Rgba32Sint => 4,
            Rg32Float | Rg32Uint | Rg32Sint | Rgba16Float | Rgba16Uint | Rgba16Sint => 2,
            _ => 1,
        }
    }

    /// What a shader reads from it.
    pub fn kind(self) -> TexelKind {
        match self {
            Rgba32Uint | Rg32Uint | R32Uint | Rgba8Uint | R8Uint | Rgba16Uint => TexelKind::Uint,
            Rgba32Sint | Rg32Sint | R32Sint | Rgba8Sint | R16Sint | Rgba16Sint => TexelKind::Sint,
            _ => TexelKind::Float,
        }
    }

    /// Bytes a texel takes on a device: [`TexelFormat::words`] × 4, except the narrow
    /// formats' 1 or 2 (the upload packs their words' low bits).
    pub fn bytes(self) -> usize {
        match self {
            R8Unorm | R8Uint => 1,
            Rg8Unorm | R16Float | R16Sint | D16Unorm => 2,
            _ => 4 * self.words(),
        }
    }

    /// The bits of a texel's word that are the texel: all of them, or a narrow format's low
    /// 8 or 16 (held one to a word, the rest not the texture's).
    pub fn word_mask(self) -> u32 {
        match self.bytes() {
            b @ (1 | 2) => (1u32 << (8 * b)) - 1,
            _ => u32::MAX,
        }
    }

    /// Whether it is a depth format: bound as a `texture_depth_*`, read by comparison.
    pub fn depth(self) -> bool {
        self == D16Unorm
    }

    /// Whether its channels are 32-bit floats, which reach the shader as stored.
    pub fn float32(self) -> bool {
        matches!(self, Rgba32Float | Rg32Float | R32Float)
    }

    /// Whether its channels are 32 bits each, kept as a shader holds them (a store copies the
    /// words and a load returns them).
    pub fn wide(self) -> bool {
        matches!(
            self,
            Rgba32Float
                | Rgba32Uint
                | Rgba32Sint
                | Rg32Float
                | Rg32Uint
                | Rg32Sint
                | R32Float
                | R32Uint
                | R32Sint
        )
    }

    /// Whether every WebGPU device filters it (32-bit floats need `float32-filterable`).
    pub fn always_filterable(self) -> bool {
        self.kind() == TexelKind::Float && !self.float32()
    }

    /// Whether the format has an alpha channel (an out-of-range `ld` then returns 0 in it).
    pub fn has_alpha(self) -> bool {
        !matches!(
            self,
            Rg32Float
                | Rg32Uint
                | Rg32Sint
                | R32Float
                | R32Uint
                | R32Sint
                | Rg11b10Float
                | Rg16Float
                | R8Unorm
                | Rg8Unorm
                | R16Float
                | R8Uint
                | R16Sint
                | D16Unorm
        )
    }

    /// Enter the domains where a device may read a decoded texel of this format otherwise
    /// than D3D: an sRGB colour channel other than 0 ([`Domain::SrgbRead`]), a UNORM channel
    /// between 0 and 1 ([`Domain::UnormRead`]) and a NaN from a narrow float
    /// channel ([`Domain::TexelNarrowNan`]).
    pub fn enter(self, texel: &[u32; 4], ev: &mut Events) {
        if self == Rgba8UnormSrgb && texel[..3].iter().any(|c| *c != 0) {
            raise(ev, Domain::SrgbRead);
        }
        let between = |c: &u32| *c != 0 && *c != 0x3f80_0000;
        let unorm = match self {
            Rgba8Unorm | Bgra8Unorm | Rgb10a2Unorm | D16Unorm => &texel[..],
            R8Unorm => &texel[..1],
            Rg8Unorm => &texel[..2],
            Rgba8UnormSrgb => &texel[3..],
            _ => &[],
        };
        // An SNORM channel is exact at 0 and ±1 only.
        let snorm = self == Rgba8Snorm && texel.iter().any(|c| between(&(c & !SIGN)));
        if unorm.iter().any(between) || snorm {
            raise(ev, Domain::UnormRead);
        }
        let narrow = matches!(self, Rg11b10Float | Rg16Float | Rgba16Float | R16Float);
        if narrow && texel.iter().any(|c| f32::from_bits(*c).is_nan()) {
            raise(ev, Domain::TexelNarrowNan);
        }
    }

    /// The four channels a shader reads from a stored texel (`words` holds at least
    /// [`TexelFormat::words`] words), each by its D3D conversion rule, with D3D's defaults
    /// for missing channels: 0 for colour, 1 (1.0 in a float format) for alpha.
    pub fn decode(self, words: &[u32]) -> [u32; 4] {
        let w = |i: usize| words.get(i).copied().unwrap_or(0);
        let byte = |i: u32| (w(0) >> (8 * i)) & 0xff;
        let one = 0x3f80_0000;
        match self {
            Rgba32Float | Rgba32Uint | Rgba32Sint => [w(0), w(1), w(2), w(3)],
            Rg32Float => [w(0), w(1), 0, one],
            Rg32Uint | Rg32Sint => [w(0), w(1), 0, 1],
            R32Float => [w(0), 0, 0, one],
            R32Uint | R32Sint => [w(0), 0, 0, 1],
            Rgba8Unorm => std::array::from_fn(|c| unorm_to_float(byte(c as u32), 8)),
            Rgba8UnormSrgb => std::array::from_fn(|c| match c {
                3 => unorm_to_float(byte(3), 8),
                _ => srgb_to_float(byte(c as u32)),
            }),
            Bgra8Unorm => [2, 1, 0, 3].map(|b| unorm_to_float(byte(b), 8)),
            Rgba8Uint => std::array::from_fn(|c| byte(c as u32)),
            Rgba8Sint => std::array::from_fn(|c| byte(c as u32) as u8 as i8 as i32 as u32),
            Rgb10a2Unorm => [0, 10, 20, 30].map(|s| {
                let bits = if s == 30 { 2 } else { 10 };
                unorm_to_float((w(0) >> s) & ((1 << bits) - 1), bits)
            }),
            Rg11b10Float => [
                small_float_to_float(w(0) & 0x7ff, 6),
                small_float_to_float((w(0) >> 11) & 0x7ff, 6),
                small_float_to_float(w(0) >> 22, 5),
                one,
            ],
            Rg16Float => [half(w(0)), half(w(0) >> 16), 0, one],
            Rgba16Float => [half(w(0)), half(w(0) >> 16), half(w(1)), half(w(1) >> 16)],
            D16Unorm => [unorm_to_float(w(0) & 0xffff, 16), 0, 0, one],
            R8Unorm => [unorm_to_float(byte(0), 8), 0, 0, one],
            Rg8Unorm => [
                unorm_to_float(byte(0), 8),
                unorm_to_float(byte(1), 8),
                0,
                one,
            ],
            R16Float => [half(w(0)), 0, 0, one],
            R8Uint => [byte(0), 0, 0, 1],
            R16Sint => [(w(0) & 0xffff) as u16 as i16 as i32 as u32, 0, 0, 1],
            Rgba8Snorm => std::array::from_fn(|c| snorm_to_float(byte(c as u32), 8)),
            Rgba16Uint => [w(0) & 0xffff, w(0) >> 16, w(1) & 0xffff, w(1) >> 16],
            Rgba16Sint => {
                [w(0), w(0) >> 16, w(1), w(1) >> 16].map(|h| h as u16 as i16 as i32 as u32)
            }
        }
    }

    /// The words a typed store of `texel` (a shader's four channels: float bits for UNORM,
    /// SNORM and float formats, integers otherwise) leaves in memory, each channel by D3D's
    /// conversion rule (FS §3.2.3); channels the format lacks are dropped. `None` for a format
    /// with no store rule here (sRGB, the packed floats, depth): no storage texture has them.
    pub fn encode(self, texel: [u32; 4], ev: &mut Events) -> Option<[u32; 4]> {
        let [r, g, b, a] = texel;
        let unorm = |v: u32, bits: u32, ev: &mut Events| float_to_unorm(v, bits, ev);
        let bytes = |c: [u32; 4]| c[0] | (c[1] << 8) | (c[2] << 16) | (c[3] << 24);
        let halves = |lo: u32, hi: u32| (lo & 0xffff) | (hi << 16);
        Some(match self {
            Rgba32Float | Rgba32Uint | Rgba32Sint => texel,
            Rg32Float | Rg32Uint | Rg32Sint => [r, g, 0, 0],
            R32Float | R32Uint | R32Sint => [r, 0, 0, 0],
            Rgba8Unorm => [bytes(texel.map(|c| unorm(c, 8, ev))), 0, 0, 0],
            Bgra8Unorm => [bytes([b, g, r, a].map(|c| unorm(c, 8, ev))), 0, 0, 0],
            R8Unorm => [unorm(r, 8, ev), 0, 0, 0],
            Rg8Unorm => [unorm(r, 8, ev) | (unorm(g, 8, ev) << 8), 0, 0, 0],
            Rgb10a2Unorm => {
                let [r, g, b] = [r, g, b].map(|c| unorm(c, 10, ev));
                [r | (g << 10) | (b << 20) | (unorm(a, 2, ev) << 30), 0, 0, 0]
            }
            Rgba8Snorm => [bytes(texel.map(|c| float_to_snorm(c, 8, ev))), 0, 0, 0],
            Rgba8Uint => [bytes(texel.map(|c| uint_saturate(c, 8))), 0, 0, 0],
            R8Uint => [uint_saturate(r, 8), 0, 0, 0],
            Rgba16Uint => {
                let [r, g, b, a] = texel.map(|c| uint_saturate(c, 16));
                [halves(r, g), halves(b, a), 0, 0]
            }
            Rgba8Sint => [bytes(texel.map(|c| sint_saturate(c, 8))), 0, 0, 0],
            R16Sint => [sint_saturate(r, 16), 0, 0, 0],
            Rgba16Sint => {
                let [r, g, b, a] = texel.map(|c| sint_saturate(c, 16));
                [halves(r, g), halves(b, a), 0, 0]
            }
            R16Float => [float_to_half(r, ev), 0, 0, 0],
            Rg16Float => [halves(float_to_half(r, ev), float_to_half(g, ev)), 0, 0, 0],
            Rgba16Float => {
                let [r, g, b, a] = texel.map(|c| float_to_half(c, ev));
                [halves(r, g), halves(b, a), 0, 0]
            }
            Rgba8UnormSrgb | Rg11b10Float | D16Unorm => return None,
        })
    }

    /// What an out-of-range `ld` returns: 0 in the channels the format has, the defaults in
    /// the others (FS §22.4.7); a zero texel decodes to exactly that in every format here.
    pub fn out_of_range(self) -> [u32; 4] {
        self.decode(&[0; 4])
    }
}

/// UNORM to float: `c / (2^bits - 1)`, correctly rounded (FS §3.2.3.3: exact to 0.5 ULP). One
/// division of two exactly representable values rounds once, so it is the exact quotient
/// rounded.
pub fn unorm_to_float(c: u32, bits: u32) -> u32 {
    (c as f32 / ((1u32 << bits) - 1) as f32).to_bits()
}

/// SNORM to float: `c / (2^(bits-1) - 1)` correctly rounded, with both −2^(bits−1) and
/// −2^(bits−1)+1 reading −1.0 (FS §3.2.3.4). `c` is the code in its low `bits` bits.
pub fn snorm_to_float(c: u32, bits: u32) -> u32 {
    let shift = 32 - bits;
    let v = ((c << shift) as i32) >> shift;
    let max = ((1i32 << (bits - 1)) - 1) as f32;
    (v as f32 / max).max(-1.0).to_bits()
}

/// D3D's rounding of a scaled value to a code: `t + 0.5` truncated (`t` ≥ 0; f64 holds an
/// f32 times a small integer exactly).
fn half_up(t: f64) -> f64 {
    (t + 0.5).floor()
}

/// Float to an `bits`-bit UNORM code (FS §3.2.3.5): NaN → 0, clamped to [0, 1], then
/// `c·(2^n−1) + 0.5` truncated. Vulkan lets a device take either neighbouring code of a
/// product that is no integer (it only recommends the nearest; the H100 took the lower one),
/// so [`Domain::TexelStoreRounding`] is raised there; D3D's own 0.6-ULP tolerance lies inside
/// that domain.
pub fn float_to_unorm(bits_in: u32, bits: u32, ev: &mut Events) -> u32 {
    let x = f32::from_bits(bits_in);
    if x.is_nan() {
        return 0;
    }
    let max = f64::from((1u32 << bits) - 1);
    let t = f64::from(x).clamp(0.0, 1.0) * max;
    if t != t.floor() {
        raise(ev, Domain::TexelStoreRounding);
    }
    half_up(t) as u32
}

/// Float to an `bits`-bit SNORM code in the low bits (FS §3.2.3.6): NaN → 0, clamped to
/// [−1, 1], then `c·(2^(n−1)−1)` rounded half away from zero; the same domain as
/// [`float_to_unorm`].
pub fn float_to_snorm(bits_in: u32, bits: u32, ev: &mut Events) -> u32 {
    let x = f32::from_bits(bits_in);
    if x.is_nan() {
        return 0;
    }
    let max = f64::from((1u32 << (bits - 1)) - 1);
    let t = f64::from(x).clamp(-1.0, 1.0) * max;
    if t != t.floor() {
        raise(ev, Domain::TexelStoreRounding);
    }
    let c = if t >= 0.0 { half_up(t) } else { -half_up(-t) };
    (c as i32 as u32) & ((1u32 << bits) - 1)
}

/// An unsigned integer stored to a narrower unsigned channel: clamped to its largest value
/// (FS §3.2.3.7: integer conversions to fewer bits saturate).
pub fn uint_saturate(v: u32, bits: u32) -> u32 {
    v.min((1u32 << bits) - 1)
}

/// A signed integer stored to a narrower signed channel: clamped to its range, kept in the
/// low `bits` bits (FS §3.2.3.7).
pub fn sint_saturate(v: u32, bits: u32) -> u32 {
    let lo = -(1i32 << (bits - 1));
    let hi = (1i32 << (bits - 1)) - 1;
    ((v as i32).clamp(lo, hi) as u32) & ((1u32 << bits) - 1)
}

/// Float to a half channel (FS §3.2.2: round to nearest even, overflow to ±inf, a NaN stays a
/// NaN, an f32 denormal may flush). [`Domain::TexelStoreRounding`] where the value is no half
/// exactly (a device may round it otherwise, or flush the denormal) or is a NaN (its payload
/// is free).
pub fn float_to_half(v: u32, ev: &mut Events) -> u32 {
    let h = super::convert::f16_round_nearest(v);
    if f32::from_bits(v).is_nan() || f16tof32(h, &mut 0) != v {
        raise(ev, Domain::TexelStoreRounding);
    }
    h
}

/// sRGB 8-bit to linear float: the IEC 61966-2-1 curve, correctly rounded
/// (`D3D10_SRGB_TO_FLOAT_TOLERANCE_IN_ULP` = 0.5). Evaluated in f64, whose error is far below
/// half an f32 ULP.
pub fn srgb_to_float(c: u32) -> u32 {
    let s = f64::from(c & 0xff) / 255.0;
    let linear = if s <= 0.04045 {
        s / 12.92
    } else {
        ((s + 0.055) / 1.055).powf(2.4)
    };
    (linear as f32).to_bits()
}

/// A half (the low 16 bits) to float, exactly, by the rule of `f16tof32` (FS §3.2.3.1: a
/// lower-range float widens exactly, denormals kept).
fn half(h: u32) -> u32 {
    f16tof32(h & 0xffff, &mut 0)
}

/// An unsigned small float (R11G11B10's channels: 5 exponent bits with bias 15 and `man`
/// mantissa bits, no sign) to float, exactly: denormals kept, exponent 31 is infinity or NaN.
pub fn small_float_to_float(v: u32, man: u32) -> u32 {
    let exp = v >> man;
    let m = v & ((1 << man) - 1);
    match exp {
        0 => (m as f32 * (2f32).powi(-14 - man as i32)).to_bits(),
        31 if m == 0 => 0x7f80_0000,
        31 => 0x7f80_0000 | (m << (23 - man)),
        _ => ((exp + 127 - 15) << 23) | (m << (23 - man)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for &f in TexelFormat::ALL {
            assert_eq!(TexelFormat::parse(f.name()), Some(f));
            assert_eq!(
                TexelFormat::parse(&format!("DXGI_FORMAT_{}", f.name())),
                Some(f)
            );
        }
        assert_eq!(TexelFormat::parse("BC1_UNORM"), None);
    }

    #[test]
    fn unorm_is_the_exact_quotient() {
        assert_eq!(unorm_to_float(0, 8), 0);
        assert_eq!(unorm_to_float(255, 8), 0x3f80_0000);
        assert_eq!(unorm_to_float(1023, 10), 0x3f80_0000);
        assert_eq!(f32::from_bits(unorm_to_float(1, 2)), 1.0 / 3.0);
        // Every 8-bit value: the f64 quotient rounded to f32 is the same word.
        for c in 0..256u32 {
            assert_eq!(unorm_to_float(c, 8), ((c as f64 / 255.0) as f32).to_bits());
        }
    }

    #[test]
    fn srgb_follows_the_curve() {
        assert_eq!(srgb_to_float(0), 0);
        assert_eq!(srgb_to_float(255), 0x3f80_0000);
        // 10/255 is on the linear segment; 128/255 on the power curve (0.21586...).
        assert_eq!(
            f32::from_bits(srgb_to_float(10)),
            (10.0 / 255.0 / 12.92) as f32
        );
        assert!((f32::from_bits(srgb_to_float(128)) - 0.215_861).abs() < 1e-6);
        // Monotonic over all 256 codes.
        for c in 1..256 {
            assert!(
                f32::from_bits(srgb_to_float(c)) > f32::from_bits(srgb_to_float(c - 1)),
                "{c}"
            );
        }
    }

    #[test]
    fn channels_and_defaults() {
        let one = 0x3f80_0000;
        assert_eq!(Rgba8Unorm.decode(&[0xff00_00ff]), [one, 0, 0, one]);
        assert_eq!(Bgra8Unorm.decode(&[0xff00_00ff]), [0, 0, one, one]);
        assert_eq!(
            Rgba8Sint.decode(&[0x807f_01ff]),
            [u32::MAX, 1, 127, (-128i32) as u32]
        );
        assert_eq!(R32Float.decode(&[0x4000_0000]), [0x4000_0000, 0, 0, one]);
        assert_eq!(Rg32Uint.decode(&[7, 9]), [7, 9, 0, 1]);
        assert_eq!(Rgb10a2Unorm.decode(&[0xc000_03ff]), [one, 0, 0, one]);
        // 1.0 and 2.0 as halves; -0 and +inf in the second word.
        assert_eq!(
            Rgba16Float.decode(&[0x4000_3c00, 0x7c00_8000]),
            [one, 0x4000_0000, 0x8000_0000, 0x7f80_0000]
        );
        assert_eq!(R32Uint.out_of_range(), [0, 0, 0, 1]);
        assert_eq!(Rgba8Unorm.out_of_range(), [0; 4]);
        assert_eq!(Rg16Float.out_of_range(), [0, 0, 0, one]);
        // D16: the low half only, c / 65535.
        assert_eq!(D16Unorm.decode(&[0xdead_ffff]), [one, 0, 0, one]);
        assert_eq!(
            D16Unorm.decode(&[0x8000]),
            [(32768.0f32 / 65535.0).to_bits(), 0, 0, one]
        );
    }

    /// Stores convert by D3D's rules, and the domain is entered only where a device may round
    /// otherwise.
    #[test]
    fn stores_convert_and_mark_where_devices_may_round_otherwise() {
        let f = |x: f32| x.to_bits();
        let mut ev = 0;
        // 0.5·255 + 0.5 = 128 exactly: D3D's code; a device may take 127.
        assert_eq!(float_to_unorm(f(0.5), 8, &mut ev), 128);
        assert_ne!(ev & Domain::TexelStoreRounding.bit(), 0);
        let mut ev = 0;
        assert_eq!(float_to_unorm(f(0.25), 8, &mut ev), 64);
        assert_ne!(ev, 0);
        let mut ev = 0;
        assert_eq!(float_to_unorm(f(1.0), 8, &mut ev), 255);
        assert_eq!(float_to_unorm(f(0.2), 2, &mut ev), 1);
        assert_ne!(ev, 0);
        let mut ev = 0;
        assert_eq!(float_to_unorm(0x7fc0_0000, 8, &mut ev), 0);
        assert_eq!(float_to_unorm(f(-3.0), 8, &mut ev), 0);
        assert_eq!(float_to_unorm(f(f32::INFINITY), 10, &mut ev), 1023);
        assert_eq!(ev, 0);
        assert_eq!(float_to_snorm(f(-1.0), 8, &mut ev), 0x81);
        assert_eq!(float_to_snorm(f(-5.0), 8, &mut ev), 0x81);
        assert_eq!(float_to_snorm(f(1.0), 8, &mut ev), 0x7f);
        assert_eq!(float_to_snorm(0xffc0_0000, 8, &mut ev), 0);
        assert_eq!(uint_saturate(300, 8), 255);
        assert_eq!(sint_saturate((-300i32) as u32, 8), 0x80);
        assert_eq!(sint_saturate(5, 16), 5);
        assert_eq!(ev, 0);
        // A half holds 1.0 exactly; not 1/3, nor a NaN's payload.
        assert_eq!(float_to_half(f(1.0), &mut ev), 0x3c00);
        assert_eq!(ev, 0);
        float_to_half(f(1.0 / 3.0), &mut ev);
        assert_ne!(ev, 0);
        // Encoding then decoding gives back what a load reads.
        let texel = [f(0.0), f(1.0), f(-1.0), f(0.5)];
        let words = Rgba16Float.encode(texel, &mut 0).expect("a store rule");
        assert_eq!(Rgba16Float.decode(&words), texel);
        let words = Rgba16Sint
            .encode([1, u32::MAX, 0x8000_0000, 70000], &mut 0)
            .expect("rule");
        assert_eq!(
            Rgba16Sint.decode(&words),
            [1, u32::MAX, (-32768i32) as u32, 32767]
        );
        assert_eq!(Rgba8Snorm.decode(&[0x0000_8081]), [f(-1.0), f(-1.0), 0, 0]);
        assert_eq!(Rg11b10Float.encode([0; 4], &mut 0), None);
    }

    #[test]
    fn small_floats() {
        // 11-bit: exponent 15 is 2^0, so 15 << 6 is 1.0; the largest finite is 65024.
        assert_eq!(small_float_to_float(15 << 6, 6), 0x3f80_0000);
        assert_eq!(f32::from_bits(small_float_to_float(0x7bf, 6)), 65024.0);
        assert_eq!(f32::from_bits(small_float_to_float(0x3df, 5)), 64512.0);
        // Denormals: the smallest is 2^-20 (11-bit) and 2^-19 (10-bit).
        assert_eq!(f32::from_bits(small_float_to_float(1, 6)), 2f32.powi(-20));
        assert_eq!(f32::from_bits(small_float_to_float(1, 5)), 2f32.powi(-19));
        assert_eq!(small_float_to_float(31 << 6, 6), 0x7f80_0000);
        assert!(f32::from_bits(small_float_to_float((31 << 6) | 1, 6)).is_nan());
        let t = Rg11b10Float.decode(&[(15 << 6) | ((16 << 6) << 11) | ((14 << 5) << 22)]);
        assert_eq!(t.map(f32::from_bits), [1.0, 2.0, 0.5, 1.0]);
    }
}
