//! SFI0: the shader's required optional features, one 64-bit mask (section 3.8).

use super::bad;
use crate::byteio::bytes_at;
use crate::container::FourCC;
use crate::error::Result;

/// The SFI0 feature mask (`D3D_SHADER_REQUIRES_*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Sfi0 {
    /// The feature bits, `D3D_SHADER_REQUIRES_*` (the associated constants name them).
    pub flags: u64,
}

impl Sfi0 {
    /// Uses double-precision arithmetic.
    pub const DOUBLES: u64 = 0x1;
    /// Forces early depth/stencil testing (`[earlydepthstencil]`).
    pub const EARLY_DEPTH_STENCIL: u64 = 0x2;
    /// Uses UAVs outside the pixel and compute stages.
    pub const UAVS_AT_EVERY_STAGE: u64 = 0x4;
    /// Binds more than 8 UAVs (up to 64, D3D11.1).
    pub const UAVS_64: u64 = 0x8;
    /// Uses min-precision types (`min16float` and friends).
    pub const MINIMUM_PRECISION: u64 = 0x10;
    /// Uses the D3D11.1 double extensions (`ddiv`, `drcp`, `dfma`, double conversions).
    pub const DOUBLE_EXTENSIONS_11_1: u64 = 0x20;
    /// Uses the D3D11.1 shader extensions (`msad`, `sad4`...).
    pub const SHADER_EXTENSIONS_11_1: u64 = 0x40;
    /// Uses comparison filtering on feature level 9 hardware.
    pub const LEVEL_9_COMPARISON_FILTERING: u64 = 0x80;
    /// Uses tiled-resource feedback (D3D11.2).
    pub const TILED_RESOURCES: u64 = 0x100;
    /// Writes `SV_StencilRef` from a pixel shader.
    pub const STENCIL_REF: u64 = 0x200;
    /// Reads `SV_InnerCoverage`.
    pub const INNER_COVERAGE: u64 = 0x400;
    /// Loads from typed UAVs in formats beyond the basic 32-bit set.
    pub const TYPED_UAV_LOAD_ADDITIONAL_FORMATS: u64 = 0x800;
    /// Uses rasterizer-ordered views.
    pub const ROVS: u64 = 0x1000;
    /// Writes the viewport or render-target array index from a stage other than geometry.
    pub const VP_AND_RT_ARRAY_INDEX_FROM_ANY_SHADER: u64 = 0x2000;

    /// Every named flag with its identifier.
    pub const NAMED: [(u64, &'static str); 14] = [
        (Self::DOUBLES, "DOUBLES"),
        (Self::EARLY_DEPTH_STENCIL, "EARLY_DEPTH_STENCIL"),
        (Self::UAVS_AT_EVERY_STAGE, "UAVS_AT_EVERY_STAGE"),
        (Self::UAVS_64, "64_UAVS"),
        (Self::MINIMUM_PRECISION, "MINIMUM_PRECISION"),
        (Self::DOUBLE_EXTENSIONS_11_1, "11_1_DOUBLE_EXTENSIONS"),
        (Self::SHADER_EXTENSIONS_11_1, "11_1_SHADER_EXTENSIONS"),
        (
            Self::LEVEL_9_COMPARISON_FILTERING,
            "LEVEL_9_COMPARISON_FILTERING",
        ),
        (Self::TILED_RESOURCES, "TILED_RESOURCES"),
        (Self::STENCIL_REF, "STENCIL_REF"),
        (Self::INNER_COVERAGE, "INNER_COVERAGE"),
        (
            Self::TYPED_UAV_LOAD_ADDITIONAL_FORMATS,
            "TYPED_UAV_LOAD_ADDITIONAL_FORMATS",
        ),
        (Self::ROVS, "ROVS"),
        (
            Self::VP_AND_RT_ARRAY_INDEX_FROM_ANY_SHADER,
            "VIEWPORT_AND_RT_ARRAY_INDEX_FROM_ANY_SHADER",
        ),
    ];

    /// Decodes the chunk data, which must be exactly 8 bytes.
    pub fn parse(data: &[u8]) -> Result<Sfi0> {
        match bytes_at::<8>(data, 0) {
            Some(b) if data.len() == 8 => Ok(Sfi0 {
                flags: u64::from_le_bytes(b),
            }),
            _ => Err(bad(
                FourCC::SFI0,
                0,
                format!("size is {}, not 8", data.len()),
            )),
        }
    }

    /// Encodes the chunk data.
    pub fn encode(&self) -> Vec<u8> {
        self.flags.to_le_bytes().to_vec()
    }

    /// Names of the set flags in bit order; unknown bits appear as `0x…` hex.
    pub fn names(&self) -> Vec<String> {
        (0..64)
            .map(|b| 1u64 << b)
            .filter(|bit| self.flags & bit != 0)
            .map(|bit| {
                Self::NAMED
                    .iter()
                    .find(|(v, _)| *v == bit)
                    .map_or_else(|| format!("{bit:#x}"), |(_, n)| (*n).to_string())
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_names_errors() {
        let s = Sfi0::parse(&[0x21, 0, 0, 0, 0, 0, 0, 0x80]).expect("8 bytes");
        assert_eq!(
            s.names(),
            ["DOUBLES", "11_1_DOUBLE_EXTENSIONS", "0x8000000000000000"]
        );
        assert_eq!(s.encode(), [0x21, 0, 0, 0, 0, 0, 0, 0x80]);
        assert!(Sfi0::parse(&[0; 4]).is_err());
        assert!(Sfi0::parse(&[0; 12]).is_err());
    }
}
