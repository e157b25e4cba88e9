//! Domain events: the numeric and memory input classes a D3D11 rule can enter where a
//! DXBC→WGSL translation may legitimately (or commonly) produce something else.
//!
//! Rule functions in [`crate::rules`] raise the events they know about into an [`Events`]
//! bit set passed as `ev: &mut Events`; the interpreter raises the memory ones. The
//! harness uses the set to pick a tolerance, demand a translator guard, or mark a case as
//! a don't-care (semantics doc §4, "adaptation-boundary catalogue").

/// One bit per [`Domain`] (bit index = discriminant).
pub type Events = u64;

macro_rules! domains {
    ($($(#[doc = $doc:literal])* $var:ident = $id:literal,)*) => {
        /// A domain a rule entered. The discriminant is the bit index in [`Events`]; the
        /// [`Domain::id`] string is stable and may be stored in reports.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[repr(u8)]
        pub enum Domain {
            $($(#[doc = $doc])* $var,)*
        }

        impl Domain {
            /// Every domain, in bit order.
            pub const ALL: &'static [Domain] = &[$(Domain::$var,)*];

            /// Stable kebab-case identifier.
            pub const fn id(self) -> &'static str {
                match self {
                    $(Domain::$var => $id,)*
                }
            }
        }
    };
}

domains! {
    /// An fp32 denormal input of a float math op or comparison was flushed to a zero of
    /// the same sign (FS §3.1.3.1 via semantics doc §1.1). WGSL may or may not flush.
    DenormInputFlushed = "denorm-input-flushed",
    /// A float math op produced a denormal result that was flushed to a same-signed zero
    /// (FS §3.1.3.1). WGSL may keep it.
    DenormOutputFlushed = "denorm-output-flushed",
    /// A NaN reached a float op (doc §1.1). WGSL: indeterminate (finite-math assumption).
    NanInput = "nan-input",
    /// A float op produced NaN from non-NaN inputs: inf−inf, 0·inf, 0/0, inf/inf,
    /// sqrt/rsq/log of a negative, sin/cos of inf, frc of inf (doc §1.1).
    NanProduced = "nan-produced",
    /// A float op produced ±inf from finite inputs: overflow, x/0, rcp/rsq/log of zero.
    InfProduced = "inf-produced",
    /// An infinity reached a float op (doc §1.2: WGSL indeterminate).
    InfInput = "inf-input",
    /// min/max saw a NaN operand (FS §22.10.10-11: the other operand wins; WGSL: indeterminate).
    MinMaxNan = "min-max-nan",
    /// A float op produced −0, or min/max chose between +0 and −0: WGSL may ignore the
    /// sign of zero (doc §1.2), which matters to later rcp or bit tests.
    SignedZero = "signed-zero",
    /// `div` with |divisor| outside [2^-126, 2^126] (including 0): WGSL's 2.5 ULP bound
    /// does not hold, and D3D hardware using x·(1/y) may flush 1/y (doc §2.1).
    DivisorOutOfRange = "divisor-out-of-range",
    /// ftoi/dtoi of NaN (→ 0 in D3D; WGSL indeterminate) (FS §22.13.3).
    FtoiNan = "ftoi-nan",
    /// ftoi/dtoi saturated: the truncated value is outside [−2^31, 2^31−1] or the input is
    /// ±inf (WGSL saturates f32 at 0x7FFFFF80) (FS §22.13.3).
    FtoiOverflow = "ftoi-overflow",
    /// ftou/dtou of NaN (→ 0) (FS §22.13.4).
    FtouNan = "ftou-nan",
    /// ftou/dtou of a value whose truncation is negative (x ≤ −1, including −inf) → 0.
    FtouNegative = "ftou-negative",
    /// ftou/dtou of x ≥ 2^32 (including +inf) → 0xFFFFFFFF (WGSL: 0xFFFFFF00).
    FtouOverflow = "ftou-overflow",
    /// itof/utof of an integer that is not representable in f32 (|v| > 2^24 and not a
    /// multiple of the f32 spacing): D3D recommends RNE, WGSL allows either neighbour
    /// (FS §22.13.5-6).
    IntToFloatInexact = "int-to-float-inexact",
    /// f32tof16 of a finite |x| > 65504 (D3D → ±65504; WGSL indeterminate) (FS §3.2.2).
    F16Overflow = "f16-overflow",
    /// A NaN on either side of an fp16 conversion (f32 NaN into f32tof16, half NaN into f16tof32).
    F16Nan = "f16-nan",
    /// An infinity on either side of an fp16 conversion.
    F16Inf = "f16-inf",
    /// f16tof32 of a signalling half NaN (top mantissa bit clear): D3D keeps the payload, a
    /// signalling f32 NaN; a WGSL implementation may quiet it.
    F16Snan = "f16-snan",
    /// An fp16 denormal is involved: f32tof16 of a nonzero |x| < 2^-14, or f16tof32 of a
    /// half denormal (WGSL pack/unpack may flush it) (FS §3.1.5).
    F16Denorm = "f16-denorm",
    /// f32tof16's round-toward-zero result differs from round-to-nearest-even (WGSL's
    /// pack2x16float may round either way) (FS §3.2.2).
    F16RoundTowardZero = "f16-round-toward-zero",
    /// rcp of ±0 or an fp32 denormal (→ ±inf) (FS §22.10.18).
    RcpOfZeroOrDenorm = "rcp-of-zero-or-denorm",
    /// rsq of ±0, a denormal, or a negative value (FS §22.10.19).
    RsqOfZeroOrNegative = "rsq-of-zero-or-negative",
    /// log of ±0, a denormal, or a negative value (FS §22.10.8).
    LogOfZeroOrNegative = "log-of-zero-or-negative",
    /// sqrt of a negative value (→ NaN) or of −0/−den (→ −0) (FS §22.10.21).
    SqrtOfNegative = "sqrt-of-negative",
    /// sincos of |x| > π: WGSL gives no accuracy guarantee there (doc §2.2).
    SinCosOutsidePi = "sincos-outside-pi",
    /// sincos of |x| > 100π: D3D's 0.0008 absolute accuracy stops there (FS §22.10.20), so any
    /// result is D3D's own answer. Not an adaptation: the op's band is `Any` in such a lane.
    SinCosOutside100Pi = "sincos-outside-100pi",
    /// exp of |x| > 2.5: WGSL's exp2 bound (3 + 2|x| ULP) is looser than D3D's 2^-21
    /// relative (≤ 8 ULP) from here on (doc §2.2).
    ExpLargeInput = "exp-large-input",
    /// udiv by zero (→ 0xFFFFFFFF for quotient and remainder; WGSL a/0 = a) (FS §22.12.9).
    UdivByZero = "udiv-by-zero",
    /// A shift count had bits above the low 5 (count ≥ 32) and was masked (FS §22.11.7-12).
    ShiftMasked = "shift-masked",
    /// A bfi/ubfe/ibfe width or offset was ≥ 32 and was masked to 5 bits (FS §22.11.2, 6, 11).
    BitfieldMasked = "bitfield-masked",
    /// The high word of imul/umul was written (WGSL has no mulhi; it must be emulated).
    /// Raised by the interpreter, which knows whether dest0 is null.
    ImulHighWord = "imul-high-word",
    /// A double-precision op ran (no f64 in WGSL; the whole class is a boundary, doc §2.11).
    DoubleUsed = "double-used",
    /// A read past the end of a cb/t#/u# resource where D3D defines the result (0) (doc §3.1).
    OobRead = "oob-read",
    /// A write past the end of a u# resource where D3D defines it as dropped (doc §3.1).
    OobWrite = "oob-write",
    /// An atomic past the end of a u# resource (no write; returned value undefined) (doc §3.1).
    OobAtomic = "oob-atomic",
    /// D3D itself leaves the result undefined: TGSM or indexable-temp OOB, structured
    /// byte-offset OOB, unaligned raw offsets, reads before writes, and invocations storing
    /// different values to one UAV word (doc §3.1-3.2).
    /// The case is a don't-care for the outputs it reaches.
    D3dUndefined = "d3d-undefined",
    /// An add or multiply whose exact result lies just below the smallest normal but rounds up
    /// to ±2^-126: hardware that flushes denormals by testing tininess before rounding gives ±0
    /// there, while the rounded result (what the reference flushes) is normal (FS §3.1.3.1 does
    /// not say which test to use).
    TinyBeforeRounding = "tiny-before-rounding",
    /// A loop went back to its start 65,535 times or more. D3D puts no bound on a loop;
    /// llvmpipe (lavapipe) ends every loop after 65,535 iterations.
    LongLoop = "long-loop",
    /// A mad or dot product whose exact value, rounded once, differs from the unfused
    /// evaluation the reference computes, or two of whose products share an operand that,
    /// factored out, changes their rounded sum: a fused, reordered or factored evaluation
    /// (which D3D allows, FS §3.1.3.2, and GPU compilers choose) gives another result, and
    /// later instructions can amplify the difference (cancellation, integer ops).
    FusionSensitive = "fusion-sensitive",
    /// An add (alone, or inside mad or a dot product) whose result is below 2^-10 of its larger
    /// operand: at least ten leading bits cancel, so an operand's error from an approximate op
    /// (within its D3D or WGSL band) grows by 2^10 or more relative to the result.
    Cancellation = "cancellation",
    /// A result of an approximate op (exp, log, rsq, sqrt, rcp, div, sincos), allowed to differ
    /// within its band, reached an op that is not continuous in it: integer, bit, comparison,
    /// rounding or conversion ops, a branch condition or selector, an address. There a
    /// difference inside the band becomes any difference (found by `dxdiff fuzz`).
    ApproximateAmplified = "approximate-amplified",
    /// A float add, mul, mad, div or dot product read a literal ±0 (or denormal) next to a NaN, an infinity,
    /// a −0 or a denormal: GPU compilers fold `x * 0`, `x + 0`, `0 / x` on literals, which WGSL
    /// allows (no NaN or infinity assumed, the sign of zero ignorable) and D3D does not.
    LiteralZeroFolded = "literal-zero-folded",
    /// An integer, bit, comparison or conversion op, an atomic or a `switch` read the bits of a
    /// NaN whose payload D3D leaves free (a float op made it): those bits, and so what the op
    /// makes of them, are undefined. A don't-care like [`Domain::D3dUndefined`], but about the
    /// data a lane met, not about the program (so no finding, and the fuzzer's generator may
    /// reach it).
    NanBitsRead = "nan-bits-read",
    /// f32tof16 of a finite value binary16 cannot hold exactly: the result is rounded. A GPU
    /// compiler may fold a later f16tof32 of it back into the f32 value (the H200 turns
    /// `unpack2x16float(pack2x16float(x))` into `x`), which no rounding direction explains.
    F16Inexact = "f16-inexact",
    /// A texture sample whose result D3D's precision leaves open: a linear blend of different
    /// texels at a fractional weight or level, a non-finite texel in a filter's footprint, a
    /// position within the 8-bit subtexel precision of a texel boundary (a `gather4`
    /// footprint's: of a texel centre), a point mip choice at the half-way LOD, or a position
    /// beyond the fixed-point range (FS §7.18.5, `D3D11_SUBTEXEL_FRACTIONAL_BIT_COUNT`).
    FilterPrecision = "filter-precision",
    /// A `gather4` through a linear-filtering sampler of a texture with several mip levels.
    /// D3D and WGSL gather from level 0; SwiftShader (Chrome's fallback adapter) gathers from
    /// another level in a compute kernel when the sampler filters between levels.
    GatherMipmapped = "gather-mipmapped",
    /// A `gather4` of a float texture returned a denormal texel. D3D returns the texel as it is;
    /// NVIDIA's texture unit flushes it to a zero of the same sign in a gather (and not in a
    /// point sample).
    GatherDenormal = "gather-denormal",
    /// A derivative (explicit, or a sample's implicit LOD) in a quad with a lane that is not
    /// running: beyond the batch, discarded, or on another branch. Undefined in D3D (FS §16.8).
    DerivativeDivergent = "derivative-divergent",
    /// `deriv_rtx`/`deriv_rty` where the quad's coarse and fine differences differ: D3D (and
    /// WGSL's `dpdx`/`dpdy`) leave the choice to the implementation.
    DerivativeChoice = "derivative-choice",
    /// Any derivative taken from a quad: explicit (`deriv_*`) or a pixel sample's implicit
    /// LOD. lavapipe answers some quads' derivatives wrongly (its two pixels of a row can get
    /// different x derivatives), and computes coarse derivatives as fine ones.
    QuadDerivative = "quad-derivative",
    /// A `sample_d` whose gradients give a level of detail of 32 or more (a step of 2^32 texels
    /// per pixel): every level past the last samples the last one, and lavapipe samples other
    /// levels there.
    HugeGradient = "huge-gradient",
    /// A texture read met a NaN in a 16-, 11- or 10-bit float channel. D3D widens it to an
    /// f32 NaN with the payload shifted up (a signalling NaN stays signalling); a device may
    /// quiet it or return another NaN (lavapipe sets the quiet bit).
    TexelNarrowNan = "texel-narrow-nan",
    /// An `ld` out of range of a texture whose format has no alpha: D3D returns 1 (1.0) in
    /// the missing alpha (FS §22.4.7, §19.1.3.3). The format is the application's binding,
    /// absent from the DXBC, so no translation can know to return it.
    OobFormatAlpha = "oob-format-alpha",
    /// A texture read decoded an sRGB colour channel other than 0. D3D requires the IEC
    /// 61966-2-1 curve to 0.5 ULP (`D3D10_SRGB_TO_FLOAT_TOLERANCE_IN_ULP`); texture units
    /// approximate it (llvmpipe by up to 2^18 ULP, the H200 by up to 2^16).
    SrgbRead = "srgb-read",
    /// A texture read decoded a UNORM channel (8-, 10- or 2-bit, an sRGB texel's alpha
    /// included) strictly between 0 and 1. D3D requires c / (2^n − 1) to 0.5 ULP; llvmpipe
    /// is 1 ULP off for some codes (127 of 8 bits), the H200 about half-float precise for
    /// 10-bit channels.
    UnormRead = "unorm-read",
    /// A linear-filtered `sample_l` or `sample_b` whose LOD operand is a denormal, of a texture
    /// in a format narrower than 32-bit floats. D3D flushes the LOD to 0; lavapipe returns
    /// small garbage bits in a channel (red 0x3ff for an LOD of 0x3ff on R11G11B10_FLOAT).
    DenormalLodFiltered = "denormal-lod-filtered",
    /// A linear-filtered sample of an R11G11B10_FLOAT texture: lavapipe's filter of that
    /// format returns NaN where every texel it may weigh is finite, and values off the exact
    /// blend at texel centres.
    Rg11b10Filtered = "rg11b10-filtered",
    /// A linear-filtered sample of a texture in a format narrower than 32-bit floats whose
    /// position lies within D3D's subtexel precision (1/256) of a footprint boundary (a texel
    /// centre), where the texels a shifted footprint would weigh are not all the same. D3D's
    /// weights are only that precise; lavapipe's filter of these formats weighs the texel
    /// beyond at about 2^-14 there (with immediate offsets and large coordinates), where the
    /// other devices measured weigh it 0.
    PackedWeightNearCentre = "packed-weight-near-centre",
    /// A `lod` whose clamped LOD (its x) the sampler's `MinLOD`/`MaxLOD` changes. WGSL has no
    /// query of a sampler's state or of a level of detail, so a translation computes the LOD
    /// from derivatives and clamps it to the texture's levels only.
    LodSamplerClamp = "lod-sampler-clamp",
    /// A move (`mov`, `movc`, `swapc`: a raw consumer) applied a float source modifier (`-`,
    /// `|x|`) to a denormal: D3D flips or clears the sign bit and keeps the rest (FS §22.9.1);
    /// a translation that types the lane as float negates it as WGSL float math, which may
    /// flush a subnormal.
    DenormModified = "denorm-modified",
    /// `div` by a finite |divisor| above 2^126: D3D bounds the quotient only up to 2^126 and
    /// allows x·(1/y), whose 1/y is a denormal there and flushes to 0 (FS §22.10.2), so the
    /// result is D3D's own choice (the H100 gave +0 for −211.875 / 0xff7fffff). A zero or
    /// denormal divisor is not in it: D3D's table defines x/0.
    DivisorHuge = "divisor-huge",
    /// A typed store whose conversion to the view's format D3D and a device may round apart:
    /// a float stored to a UNORM or SNORM channel whose scaled value is no integer (D3D rounds
    /// to nearest; Vulkan lets a device take either neighbouring code, and the H100 took the
    /// lower one), or a float that no half represents exactly, or a NaN, stored to a 16-bit
    /// float channel (rounding, flushing and the NaN's payload are the device's).
    TexelStoreRounding = "texel-store-rounding",
}

impl Domain {
    /// This domain's bit in [`Events`].
    pub const fn bit(self) -> u64 {
        1u64 << (self as u8)
    }

    /// The domain with this [`Domain::id`], if any.
    pub fn from_id(id: &str) -> Option<Domain> {
        Domain::ALL.iter().copied().find(|d| d.id() == id)
    }
}

/// Record that `d` was entered.
pub fn raise(ev: &mut Events, d: Domain) {
    *ev |= d.bit();
}

/// The domains recorded in `ev`, in bit order.
pub fn domains(ev: Events) -> impl Iterator<Item = Domain> {
    Domain::ALL
        .iter()
        .copied()
        .filter(move |d| ev & d.bit() != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_are_distinct_and_fit() {
        assert!(Domain::ALL.len() <= 64);
        let mut all = 0u64;
        for (i, d) in Domain::ALL.iter().enumerate() {
            assert_eq!(*d as usize, i);
            assert_eq!(all & d.bit(), 0);
            all |= d.bit();
        }
    }

    #[test]
    fn ids_are_unique_kebab_case_and_round_trip() {
        for d in Domain::ALL {
            let id = d.id();
            assert!(
                id.bytes()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-')
            );
            assert_eq!(Domain::from_id(id), Some(*d));
        }
        assert_eq!(Domain::FtoiNan.id(), "ftoi-nan");
        assert_eq!(Domain::from_id("no-such"), None);
    }

    #[test]
    fn raise_and_list() {
        let mut ev: Events = 0;
        assert_eq!(domains(ev).count(), 0);
        raise(&mut ev, Domain::UdivByZero);
        raise(&mut ev, Domain::NanInput);
        raise(&mut ev, Domain::UdivByZero);
        let got: Vec<Domain> = domains(ev).collect();
        assert_eq!(got, vec![Domain::NanInput, Domain::UdivByZero]);
    }
}
