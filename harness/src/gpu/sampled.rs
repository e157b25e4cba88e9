//! Sampled textures and samplers as a dispatch binds them: a texture's shape and a sampler's
//! state (what `ComputeInputs` carries), and the wgpu sampler of a state.

use super::GpuError;

/// A sampled 2D texture's (or array's) size, layers and mip count.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TextureShape {
    /// Width of mip 0 in texels.
    pub width: u32,
    /// Height of mip 0 in texels.
    pub height: u32,
    /// Mip levels.
    pub mips: u32,
    /// Array layers (1 for a plain 2D texture).
    #[serde(default = "one")]
    pub layers: u32,
    /// Bound as a `texture_2d_array` view.
    #[serde(default)]
    pub array: bool,
}

fn one() -> u32 {
    1
}

/// A sampler's state as a device takes it: one filter for min, mag and mip, and an address
/// mode per axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SamplerState {
    /// Linear filtering (min, mag and mip); point otherwise.
    pub linear: bool,
    /// u, v, w address modes.
    pub address: [oracles::interp::Address; 3],
}

impl SamplerState {
    /// The state of the interpreter's sampler.
    pub fn of(s: &oracles::interp::Sampler) -> SamplerState {
        SamplerState {
            linear: s.linear,
            address: s.address,
        }
    }
}

/// The wgpu sampler of a state. WebGPU has no mirror-once and no border colour without a
/// native feature, so those are unfeedable.
pub(super) fn sampler_descriptor(
    s: SamplerState,
) -> Result<wgpu::SamplerDescriptor<'static>, GpuError> {
    use oracles::interp::Address;
    let mode = |a: Address| match a {
        Address::Wrap => Ok(wgpu::AddressMode::Repeat),
        Address::Clamp => Ok(wgpu::AddressMode::ClampToEdge),
        Address::Mirror => Ok(wgpu::AddressMode::MirrorRepeat),
        Address::Border | Address::MirrorOnce => Err(GpuError::Unfeedable(format!(
            "address mode {} has no WebGPU equivalent",
            a.name()
        ))),
    };
    let filter = if s.linear {
        wgpu::FilterMode::Linear
    } else {
        wgpu::FilterMode::Nearest
    };
    Ok(wgpu::SamplerDescriptor {
        label: Some("sampler"),
        address_mode_u: mode(s.address[0])?,
        address_mode_v: mode(s.address[1])?,
        address_mode_w: mode(s.address[2])?,
        mag_filter: filter,
        min_filter: filter,
        mipmap_filter: if s.linear {
            wgpu::MipmapFilterMode::Linear
        } else {
            wgpu::MipmapFilterMode::Nearest
        },
        ..Default::default()
    })
}

impl TextureShape {
    /// The view a shader sees: `texture_2d` or `texture_2d_array`.
    pub fn view_dimension(&self) -> wgpu::TextureViewDimension {
        if self.array {
            wgpu::TextureViewDimension::D2Array
        } else {
            wgpu::TextureViewDimension::D2
        }
    }
}
