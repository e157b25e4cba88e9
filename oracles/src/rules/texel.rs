//! Texture formats and D3D's rules for reading a stored texel into a shader's four channels
//! (FS §3.2.3 "data conversion", §19.1.3.3 missing channels).
//!
//! A texture is kept as the words it has in memory, in its own format, so that the interpreter
//! and a device read the same bytes: the GPU executor uploads them as a texture of that format,
//! and the interpreter decodes a texel only when it reads one ([`TexelFormat::decode`]).

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
            Rg32Float | Rg32Uint | Rg32Sint | Rgba16Float => 2,
            _ => 1,
        }
    }

    /// What a shader reads from it.
    pub fn kind(self) -> TexelKind {
        match self {
            Rgba32Uint | Rg32Uint | R32Uint | Rgba8Uint | R8Uint => TexelKind::Uint,
            Rgba32Sint | Rg32Sint | R32Sint | Rgba8Sint | R16Sint => TexelKind::Sint,
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
        if unorm.iter().any(between) {
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
        }
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
