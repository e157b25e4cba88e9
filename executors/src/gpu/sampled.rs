//! Sampled textures and samplers as a dispatch binds them: a texture's shape and a sampler's
//! state (what `ComputeInputs` carries), and the wgpu sampler of a state.

use oracles::interp::TexelFormat;

use super::GpuError;

/// A sampled 2D texture's (or array's, or cube's) size, layers, mip count and format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TextureShape {
    /// The format it is created in: its words are uploaded as they are.
    pub format: TexelFormat,
    /// Width of mip 0 in texels.
    pub width: u32,
    /// Height of mip 0 in texels.
    pub height: u32,
    /// Mip levels.
    pub mips: u32,
    /// Array layers (1 for a plain 2D texture, 6 for a cube).
    #[serde(default = "one")]
    pub layers: u32,
    /// Bound as a `texture_2d_array` view.
    #[serde(default)]
    pub array: bool,
    /// Bound as a `texture_cube` view (its six layers the faces).
    #[serde(default)]
    pub cube: bool,
    /// A 3D texture (`texture_3d`): `layers` is its depth, halving per level.
    #[serde(default)]
    pub volume: bool,
    /// A 1D texture (or 1D array) the interpreter addresses by u alone: a 2D texture one texel
    /// high to the device, bound only where the manifest says `texture1d`.
    #[serde(default)]
    pub line: bool,
    /// A `Texture2DMS` (`texture_multisampled_2d`): one level, `layers` its samples, filled
    /// through a render pass ([`TextureShape::fill_wgsl`]) since no copy reaches a sample.
    #[serde(default)]
    pub multisampled: bool,
}

/// A full-screen draw that writes each sample of a multisampled `format` texture from
/// `texels` (its words, each sample's plane in turn, row-major): the fragment stage runs per
/// sample (it reads `sample_index`) and writes the texel as the format's shader type, so a
/// format whose channels the fragment output carries exactly (32-bit floats, 16-bit integers)
/// is stored bit for bit. `None` for a format it does not fill.
pub fn fill_wgsl(format: TexelFormat, width: u32, height: u32) -> Option<String> {
    let (ty, value) = match format {
        TexelFormat::R32Float => ("f32", "vec4<f32>(bitcast<f32>(texels[at]), 0.0, 0.0, 1.0)"),
        TexelFormat::Rgba16Uint => (
            "u32",
            "vec4<u32>(texels[at] & 0xffffu, texels[at] >> 16u, texels[at + 1u] & 0xffffu, texels[at + 1u] >> 16u)",
        ),
        TexelFormat::Rgba16Sint => (
            "i32",
            "bitcast<vec4<i32>>(vec4<u32>(texels[at] << 16u, texels[at], texels[at + 1u] << 16u, texels[at + 1u])) >> vec4<u32>(16u)",
        ),
        _ => return None,
    };
    let words = format.words();
    Some(format!(
        "@group(0) @binding(0) var<storage, read> texels: array<u32>;\n\
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {{\n\
    return vec4<f32>(f32((i << 1u) & 2u) * 2.0 - 1.0, f32(i & 2u) * 2.0 - 1.0, 0.0, 1.0);\n\
}}\n\
@fragment fn fs(@builtin(position) p: vec4<f32>, @builtin(sample_index) s: u32) -> @location(0) vec4<{ty}> {{\n\
    let at = ((s * {height}u + u32(p.y)) * {width}u + u32(p.x)) * {words}u;\n\
    return {value};\n\
}}\n"
    ))
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
    /// `MinLOD` and `MaxLOD` as f32 bits (bits, so that the state stays `Eq`).
    pub lod_clamp: [u32; 2],
    /// A comparison sampler's function.
    #[serde(default)]
    pub compare: Option<oracles::interp::Compare>,
    /// `MaxAnisotropy` (1: none), WebGPU's `maxAnisotropy`.
    #[serde(default = "one_u8")]
    pub max_anisotropy: u8,
    /// Bound as a non-filtering sampler (`sampler-non-filtering`: the program only gathers
    /// through it, from a depth texture among others), with point filtering.
    #[serde(default)]
    pub non_filtering: bool,
}

fn one_u8() -> u8 {
    1
}

impl SamplerState {
    /// The state of the interpreter's sampler.
    pub fn of(s: &oracles::interp::Sampler) -> SamplerState {
        SamplerState {
            linear: s.linear,
            address: s.address,
            lod_clamp: [s.lod_clamp.0.to_bits(), s.lod_clamp.1.to_bits()],
            compare: s.compare,
            max_anisotropy: s.max_anisotropy,
            non_filtering: false,
        }
    }

    /// The state bound as a non-filtering sampler: point filtering and no anisotropy. Only a
    /// program that gathers through it alone asks for this, and a gather reads the same
    /// texels (level 0's, the footprint's four) under any filter.
    pub fn non_filtering(self) -> SamplerState {
        SamplerState {
            linear: false,
            max_anisotropy: 1,
            non_filtering: true,
            ..self
        }
    }

    /// Its comparison function as WebGPU names it (`less-equal`), for a browser.
    pub fn compare_name(&self) -> Option<String> {
        self.compare.map(|c| c.name().replace('_', "-"))
    }

    /// Its `maxAnisotropy` as WebGPU takes it: only with every filter linear, as D3D's
    /// anisotropic filter is; 1 otherwise.
    pub fn webgpu_anisotropy(&self) -> u16 {
        if self.linear {
            u16::from(self.max_anisotropy.max(1))
        } else {
            1
        }
    }

    /// Its `MinLOD`/`MaxLOD` as WebGPU's `lodMinClamp`/`lodMaxClamp`, which lie in [0, 32]:
    /// D3D's unbounded defaults clamp the same once the texture's own levels (at most 15 here)
    /// apply.
    pub fn webgpu_lod_clamp(&self) -> [f32; 2] {
        self.lod_clamp.map(|b| f32::from_bits(b).clamp(0.0, 32.0))
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
    let [min_lod, max_lod] = s.webgpu_lod_clamp();
    if max_lod < min_lod {
        return Err(GpuError::Unfeedable(format!(
            "a sampler's LOD range {min_lod}..={max_lod} is empty"
        )));
    }
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
        lod_min_clamp: min_lod,
        lod_max_clamp: max_lod,
        anisotropy_clamp: s.webgpu_anisotropy(),
        compare: s.compare.map(|c| {
            use oracles::interp::Compare as C;
            match c {
                C::Never => wgpu::CompareFunction::Never,
                C::Less => wgpu::CompareFunction::Less,
                C::Equal => wgpu::CompareFunction::Equal,
                C::LessEqual => wgpu::CompareFunction::LessEqual,
                C::Greater => wgpu::CompareFunction::Greater,
                C::NotEqual => wgpu::CompareFunction::NotEqual,
                C::GreaterEqual => wgpu::CompareFunction::GreaterEqual,
                C::Always => wgpu::CompareFunction::Always,
            }
        }),
        ..Default::default()
    })
}

impl TextureShape {
    /// The view a shader sees: `texture_2d`, `texture_2d_array`, `texture_cube`,
    /// `texture_cube_array` or `texture_3d`.
    pub fn view_dimension(&self) -> wgpu::TextureViewDimension {
        if self.multisampled {
            wgpu::TextureViewDimension::D2
        } else if self.cube && self.array {
            wgpu::TextureViewDimension::CubeArray
        } else if self.cube {
            wgpu::TextureViewDimension::Cube
        } else if self.volume {
            wgpu::TextureViewDimension::D3
        } else if self.array {
            wgpu::TextureViewDimension::D2Array
        } else {
            wgpu::TextureViewDimension::D2
        }
    }

    /// The bytes every level takes on a device: [`TextureShape::words`] in bytes, or for a
    /// narrow format (1- or 2-byte texels, held one to a word) its bytes per texel.
    pub fn bytes(&self) -> usize {
        (self.words() as usize / self.format.words()) * self.format.bytes()
    }

    /// The words every level takes, each level's width, height and layers (a 3D texture's
    /// depth halving like them) times the format's words per texel.
    pub fn words(&self) -> u64 {
        (0..self.mips.min(32))
            .map(|m| {
                let layers = if self.volume {
                    (self.layers >> m).max(1)
                } else {
                    self.layers.max(1)
                };
                u64::from((self.width >> m).max(1))
                    * u64::from((self.height >> m).max(1))
                    * u64::from(layers)
                    * self.format.words() as u64
            })
            .sum()
    }

    /// The same view as WebGPU names it, for a browser.
    pub fn view_dimension_name(&self) -> &'static str {
        match self.view_dimension() {
            wgpu::TextureViewDimension::Cube => "cube",
            wgpu::TextureViewDimension::CubeArray => "cube-array",
            wgpu::TextureViewDimension::D3 => "3d",
            wgpu::TextureViewDimension::D2Array => "2d-array",
            _ => "2d",
        }
    }
}

/// The WebGPU format a texture format is created in (the same layout, byte for byte) and its
/// WebGPU name, as a browser takes it: one table for both.
fn webgpu(f: TexelFormat) -> (wgpu::TextureFormat, &'static str) {
    use wgpu::TextureFormat as W;
    match f {
        TexelFormat::Rgba32Float => (W::Rgba32Float, "rgba32float"),
        TexelFormat::Rgba32Uint => (W::Rgba32Uint, "rgba32uint"),
        TexelFormat::Rgba32Sint => (W::Rgba32Sint, "rgba32sint"),
        TexelFormat::Rg32Float => (W::Rg32Float, "rg32float"),
        TexelFormat::Rg32Uint => (W::Rg32Uint, "rg32uint"),
        TexelFormat::Rg32Sint => (W::Rg32Sint, "rg32sint"),
        TexelFormat::R32Float => (W::R32Float, "r32float"),
        TexelFormat::R32Uint => (W::R32Uint, "r32uint"),
        TexelFormat::R32Sint => (W::R32Sint, "r32sint"),
        TexelFormat::Rgba8Unorm => (W::Rgba8Unorm, "rgba8unorm"),
        TexelFormat::Rgba8UnormSrgb => (W::Rgba8UnormSrgb, "rgba8unorm-srgb"),
        TexelFormat::Bgra8Unorm => (W::Bgra8Unorm, "bgra8unorm"),
        TexelFormat::Rgba8Uint => (W::Rgba8Uint, "rgba8uint"),
        TexelFormat::Rgba8Sint => (W::Rgba8Sint, "rgba8sint"),
        TexelFormat::Rgb10a2Unorm => (W::Rgb10a2Unorm, "rgb10a2unorm"),
        TexelFormat::Rg11b10Float => (W::Rg11b10Ufloat, "rg11b10ufloat"),
        TexelFormat::Rg16Float => (W::Rg16Float, "rg16float"),
        TexelFormat::Rgba16Float => (W::Rgba16Float, "rgba16float"),
        TexelFormat::R8Unorm => (W::R8Unorm, "r8unorm"),
        TexelFormat::Rg8Unorm => (W::Rg8Unorm, "rg8unorm"),
        TexelFormat::R16Float => (W::R16Float, "r16float"),
        TexelFormat::R8Uint => (W::R8Uint, "r8uint"),
        TexelFormat::R16Sint => (W::R16Sint, "r16sint"),
        TexelFormat::D16Unorm => (W::Depth16Unorm, "depth16unorm"),
        TexelFormat::Rgba8Snorm => (W::Rgba8Snorm, "rgba8snorm"),
        TexelFormat::Rgba16Uint => (W::Rgba16Uint, "rgba16uint"),
        TexelFormat::Rgba16Sint => (W::Rgba16Sint, "rgba16sint"),
    }
}

/// The texture format WebGPU (and WGSL) names `name`, if dxdiff knows it.
pub fn format_of_name(name: &str) -> Option<TexelFormat> {
    TexelFormat::ALL
        .iter()
        .copied()
        .find(|f| format_name(*f) == name)
}

/// The WebGPU format a texture format is created in: the same layout, byte for byte.
pub fn wgpu_format(f: TexelFormat) -> wgpu::TextureFormat {
    webgpu(f).0
}

/// WebGPU's name for a texture format, as a browser takes it.
pub fn format_name(f: TexelFormat) -> &'static str {
    webgpu(f).1
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each format is created in a WebGPU format of the same texel size and channel kind, so
    /// the words the interpreter decodes are the bytes the device reads.
    #[test]
    fn formats_keep_their_layout() {
        for &f in TexelFormat::ALL {
            let w = wgpu_format(f);
            // A depth format's copies take its depth aspect.
            let aspect = f.depth().then_some(wgpu::TextureAspect::DepthOnly);
            assert_eq!(
                w.block_copy_size(aspect),
                Some(f.bytes() as u32),
                "{}",
                f.name()
            );
            if f.depth() {
                assert!(w.is_depth_stencil_format(), "{}", f.name());
                continue;
            }
            let kind = match w.sample_type(None, None) {
                Some(wgpu::TextureSampleType::Float { .. }) => oracles::interp::TexelKind::Float,
                Some(wgpu::TextureSampleType::Uint) => oracles::interp::TexelKind::Uint,
                Some(wgpu::TextureSampleType::Sint) => oracles::interp::TexelKind::Sint,
                other => panic!("{}: {other:?}", f.name()),
            };
            assert_eq!(kind, f.kind(), "{}", f.name());
            let filterable = w
                .guaranteed_format_features(wgpu::Features::empty())
                .flags
                .contains(wgpu::TextureFormatFeatureFlags::FILTERABLE);
            assert_eq!(filterable, f.always_filterable(), "{}", f.name());
        }
    }
}
