//! The binding manifest: which WGSL group/binding, location or builtin stands for each DXBC
//! constant buffer, SRV, UAV, sampler, input and output register. The harness feeds a program
//! from it, and external translators emit the same schema (see docs/manifest.md).

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

/// How to feed one translated program: its stage, entry point, bindings and stage I/O.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Manifest {
    /// `vertex`, `fragment` or `compute`. (A `Cow`, as the interface texts are: the built-in
    /// lowering's are static.)
    pub stage: Cow<'static, str>,
    /// Name of the WGSL entry point (`main` for the built-in translator).
    pub entry_point: Cow<'static, str>,
    /// Compute programs: `@workgroup_size` as (x, y, z), from `dcl_thread_group`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workgroup_size: Option<[u32; 3]>,
    /// Resources the program declares.
    pub bindings: Vec<Binding>,
    /// Stage inputs: declared `v#` registers and system values.
    pub inputs: Vec<Interface>,
    /// Stage outputs: declared `o#` registers and system values.
    pub outputs: Vec<Interface>,
    /// WGSL `enable` extensions the module needs (`f16`, `clip_distances`,
    /// `dual_source_blending`, `primitive_index`): validation grants their naga capabilities,
    /// and a device without the matching feature skips the program (`feature`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub enables: Vec<String>,
}

/// What a binding stands for. The JSON spelling is the lowercase name; any other string (an
/// external translator's manifest) is kept as `Other`, so reading never fails on it and
/// writing gives it back unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BindingKind {
    /// A constant buffer, `cb#`.
    Cbuffer,
    /// A shader resource view, `t#`.
    Srv,
    /// An unordered access view, `u#`.
    Uav,
    /// A sampler, `s#`.
    Sampler,
    /// The hidden counter of UAV `u#` (`imm_atomic_alloc`/`consume`): one atomic word,
    /// `storage-atomic-u32-array`, that starts at the view's initial count.
    #[serde(rename = "uav-counter")]
    UavCounter,
    /// Any other spelling, kept as read.
    #[serde(untagged)]
    Other(String),
}

impl BindingKind {
    /// The JSON spelling.
    pub fn as_str(&self) -> &str {
        match self {
            BindingKind::Cbuffer => "cbuffer",
            BindingKind::Srv => "srv",
            BindingKind::Uav => "uav",
            BindingKind::Sampler => "sampler",
            BindingKind::UavCounter => "uav-counter",
            BindingKind::Other(s) => s,
        }
    }
}

impl std::fmt::Display for BindingKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How a binding's resource is laid out in WGSL. Strings other than these are kept as
/// `Other`, as with [`BindingKind`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum BindingLayout {
    /// `array<vec4<u32>, N>` in a uniform buffer.
    #[serde(rename = "uniform-vec4-array")]
    UniformVec4Array,
    /// `array<u32>` in a storage buffer.
    #[serde(rename = "storage-u32-array")]
    StorageU32Array,
    /// `array<atomic<u32>>` in a storage buffer.
    #[serde(rename = "storage-atomic-u32-array")]
    StorageAtomicU32Array,
    /// `array<vec4<u32>>` in a storage buffer: a typed buffer with each element in a vec4,
    /// its missing channels filled as a D3D typed load fills them.
    #[serde(rename = "storage-vec4-u32-array")]
    StorageVec4U32Array,
    /// A `texture_2d<f32>`: a `t#` with float texels.
    #[serde(rename = "texture_2d<f32>")]
    Texture2dF32,
    /// A `texture_2d<u32>`: a `t#` with unsigned integer texels.
    #[serde(rename = "texture_2d<u32>")]
    Texture2dU32,
    /// A `texture_2d<i32>`: a `t#` with signed integer texels.
    #[serde(rename = "texture_2d<i32>")]
    Texture2dI32,
    /// A `texture_2d_array<f32>`: a `Texture2DArray` `t#` with float texels.
    #[serde(rename = "texture_2d_array<f32>")]
    Texture2dArrayF32,
    /// A `texture_2d_array<u32>`.
    #[serde(rename = "texture_2d_array<u32>")]
    Texture2dArrayU32,
    /// A `texture_2d_array<i32>`.
    #[serde(rename = "texture_2d_array<i32>")]
    Texture2dArrayI32,
    /// A `texture_cube<f32>`: a `TextureCube` `t#` with float texels.
    #[serde(rename = "texture_cube<f32>")]
    TextureCubeF32,
    /// A `texture_cube<u32>`.
    #[serde(rename = "texture_cube<u32>")]
    TextureCubeU32,
    /// A `texture_cube<i32>`.
    #[serde(rename = "texture_cube<i32>")]
    TextureCubeI32,
    /// A `texture_cube_array<f32>`: a `TextureCubeArray` `t#` with float texels.
    #[serde(rename = "texture_cube_array<f32>")]
    TextureCubeArrayF32,
    /// A `texture_cube_array<u32>`.
    #[serde(rename = "texture_cube_array<u32>")]
    TextureCubeArrayU32,
    /// A `texture_cube_array<i32>`.
    #[serde(rename = "texture_cube_array<i32>")]
    TextureCubeArrayI32,
    /// A `texture_3d<f32>`: a `Texture3D` `t#` with float texels.
    #[serde(rename = "texture_3d<f32>")]
    Texture3dF32,
    /// A `texture_3d<u32>`.
    #[serde(rename = "texture_3d<u32>")]
    Texture3dU32,
    /// A `texture_3d<i32>`.
    #[serde(rename = "texture_3d<i32>")]
    Texture3dI32,
    /// A `texture_multisampled_2d<f32>`: a `Texture2DMS` `t#` with float texels.
    #[serde(rename = "texture_multisampled_2d<f32>")]
    TextureMultisampled2dF32,
    /// A `texture_multisampled_2d<u32>`.
    #[serde(rename = "texture_multisampled_2d<u32>")]
    TextureMultisampled2dU32,
    /// A `texture_multisampled_2d<i32>`.
    #[serde(rename = "texture_multisampled_2d<i32>")]
    TextureMultisampled2dI32,
    /// A `texture_depth_2d`: a `t#` the program reads by comparison; bound as a
    /// `depth16unorm` texture.
    #[serde(rename = "texture_depth_2d")]
    TextureDepth2d,
    /// A `texture_depth_2d_array`.
    #[serde(rename = "texture_depth_2d_array")]
    TextureDepth2dArray,
    /// A `texture_depth_cube`: a `TextureCube` the program reads by comparison.
    #[serde(rename = "texture_depth_cube")]
    TextureDepthCube,
    /// A `texture_depth_cube_array`: a `TextureCubeArray` the program reads by comparison.
    #[serde(rename = "texture_depth_cube_array")]
    TextureDepthCubeArray,
    /// A texture of unstated type (vkd3d's manifests).
    #[serde(rename = "texture")]
    Texture,
    /// A `sampler`.
    #[serde(rename = "sampler")]
    Sampler,
    /// A `sampler_comparison`: a `mode_comparison` `s#`.
    #[serde(rename = "sampler_comparison")]
    SamplerComparison,
    /// A `sampler` bound as non-filtering: the program only gathers through it, and it meets a
    /// depth texture, which WebGPU lets meet no filtering sampler. A gather reads the same
    /// texels under any filter, so the executor binds it with point filtering.
    #[serde(rename = "sampler-non-filtering")]
    SamplerNonFiltering,
    /// Any other spelling, kept as read.
    #[serde(untagged)]
    Other(String),
}

impl BindingLayout {
    /// The JSON spelling.
    pub fn as_str(&self) -> &str {
        match self {
            BindingLayout::UniformVec4Array => "uniform-vec4-array",
            BindingLayout::StorageU32Array => "storage-u32-array",
            BindingLayout::StorageAtomicU32Array => "storage-atomic-u32-array",
            BindingLayout::StorageVec4U32Array => "storage-vec4-u32-array",
            BindingLayout::Texture2dF32 => "texture_2d<f32>",
            BindingLayout::Texture2dU32 => "texture_2d<u32>",
            BindingLayout::Texture2dI32 => "texture_2d<i32>",
            BindingLayout::Texture2dArrayF32 => "texture_2d_array<f32>",
            BindingLayout::Texture2dArrayU32 => "texture_2d_array<u32>",
            BindingLayout::Texture2dArrayI32 => "texture_2d_array<i32>",
            BindingLayout::TextureCubeF32 => "texture_cube<f32>",
            BindingLayout::TextureCubeU32 => "texture_cube<u32>",
            BindingLayout::TextureCubeI32 => "texture_cube<i32>",
            BindingLayout::TextureCubeArrayF32 => "texture_cube_array<f32>",
            BindingLayout::TextureCubeArrayU32 => "texture_cube_array<u32>",
            BindingLayout::TextureCubeArrayI32 => "texture_cube_array<i32>",
            BindingLayout::Texture3dF32 => "texture_3d<f32>",
            BindingLayout::Texture3dU32 => "texture_3d<u32>",
            BindingLayout::Texture3dI32 => "texture_3d<i32>",
            BindingLayout::TextureMultisampled2dF32 => "texture_multisampled_2d<f32>",
            BindingLayout::TextureMultisampled2dU32 => "texture_multisampled_2d<u32>",
            BindingLayout::TextureMultisampled2dI32 => "texture_multisampled_2d<i32>",
            BindingLayout::TextureDepth2d => "texture_depth_2d",
            BindingLayout::TextureDepth2dArray => "texture_depth_2d_array",
            BindingLayout::TextureDepthCube => "texture_depth_cube",
            BindingLayout::TextureDepthCubeArray => "texture_depth_cube_array",
            BindingLayout::Texture => "texture",
            BindingLayout::Sampler => "sampler",
            BindingLayout::SamplerComparison => "sampler_comparison",
            BindingLayout::SamplerNonFiltering => "sampler-non-filtering",
            BindingLayout::Other(s) => s,
        }
    }

    /// A storage texture's layout, the WGSL type as WGSL spells it:
    /// `texture_storage_{dim}<{format}, {access}>`, one space after the comma
    /// (`texture_storage_2d<rgba8unorm, write>`, `texture_storage_2d_array<r32uint,
    /// read_write>`, `texture_storage_3d<rgba32float, write>`). The built-in translator binds a
    /// typed UAV texture (`RWTexture1D` … `RWTexture3D`) so, choosing the format the program
    /// does not carry; the harness creates a view of exactly that format
    /// ([`BindingLayout::storage_texture_parts`] reads it back).
    pub fn storage_texture(dim: &str, format: &str, access: &str) -> BindingLayout {
        BindingLayout::Other(format!("texture_storage_{dim}<{format}, {access}>"))
    }

    /// The (dim, format, access) of a storage texture's layout, as
    /// [`BindingLayout::storage_texture`] writes it (`("2d_array", "r32uint", "read_write")`);
    /// `None` for any other layout. Spaces around the format and access are tolerated.
    pub fn storage_texture_parts(&self) -> Option<(&str, &str, &str)> {
        let rest = self.as_str().strip_prefix("texture_storage_")?;
        let (dim, rest) = rest.split_once('<')?;
        let (format, access) = rest.strip_suffix('>')?.split_once(',')?;
        let (format, access) = (format.trim(), access.trim());
        (!dim.is_empty() && !format.is_empty() && !access.is_empty())
            .then_some((dim, format, access))
    }

    /// Whether the resource is a storage buffer (fed as words), as opposed to a texture or
    /// sampler. An unknown layout counts by its spelling's `storage` prefix.
    pub fn is_storage(&self) -> bool {
        match self {
            BindingLayout::StorageU32Array
            | BindingLayout::StorageAtomicU32Array
            | BindingLayout::StorageVec4U32Array => true,
            BindingLayout::Other(s) => s.starts_with("storage"),
            _ => false,
        }
    }
}

impl std::fmt::Display for BindingLayout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A resource binding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Binding {
    /// Which kind of DXBC register it stands for.
    pub kind: BindingKind,
    /// The DXBC register number (`cb2` → 2).
    pub register: u32,
    /// The WGSL `@group`.
    pub group: u32,
    /// The WGSL `@binding`.
    pub binding: u32,
    /// How the resource is declared in WGSL, and so how it is fed.
    pub layout: BindingLayout,
    /// Byte size a buffer binding must have (constant buffers: the declared size).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size_bytes: Option<u32>,
    /// Structure stride of a structured view.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stride: Option<u32>,
    /// A `Texture1D` (or `Texture1DArray`) bound as a `texture_2d<T>` (`texture_2d_array<T>`)
    /// one texel high: the harness feeds it such a texture, addressed by u alone. WGSL's
    /// `texture_1d` has a single level and takes neither `textureSampleLevel` nor
    /// `textureSampleGrad`. A typed UAV `RWTexture1D` (`RWTexture1DArray`) is likewise a
    /// `texture_storage_2d` (`texture_storage_2d_array`) one texel high: WGSL has no 1D storage
    /// array.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub texture1d: bool,
}

/// A builtin as WGSL spells it (`@builtin(sample_index)`), the one vocabulary of manifests
/// (docs/manifest.md): a translator's manifest names its builtins as its WGSL does, whatever
/// naga calls them. A builtin WGSL has no name for gets naga's name in snake case.
pub fn wgsl_builtin(b: &naga::BuiltIn) -> std::borrow::Cow<'static, str> {
    use naga::BuiltIn;
    let name = match b {
        BuiltIn::Position { .. } => "position",
        BuiltIn::FrontFacing => "front_facing",
        BuiltIn::VertexIndex => "vertex_index",
        BuiltIn::InstanceIndex => "instance_index",
        BuiltIn::SampleIndex => "sample_index",
        BuiltIn::SampleMask => "sample_mask",
        BuiltIn::PrimitiveIndex => "primitive_index",
        BuiltIn::FragDepth => "frag_depth",
        BuiltIn::ClipDistances => "clip_distances",
        BuiltIn::GlobalInvocationId => "global_invocation_id",
        BuiltIn::LocalInvocationId => "local_invocation_id",
        BuiltIn::LocalInvocationIndex => "local_invocation_index",
        BuiltIn::WorkGroupId => "workgroup_id",
        BuiltIn::NumWorkGroups => "num_workgroups",
        BuiltIn::SubgroupSize => "subgroup_size",
        BuiltIn::SubgroupInvocationId => "subgroup_invocation_id",
        other => {
            let debug = format!("{other:?}");
            let bare = debug.split([' ', '{']).next().unwrap_or_default();
            let mut out = String::new();
            for (i, c) in bare.chars().enumerate() {
                if c.is_ascii_uppercase() {
                    if i > 0 {
                        out.push('_');
                    }
                    out.push(c.to_ascii_lowercase());
                } else {
                    out.push(c);
                }
            }
            return out.into();
        }
    };
    name.into()
}

/// A pixel program's special registers, which have no `v#`/`o#` number, as a manifest names
/// them: the register, its WGSL builtin and type, and its D3D semantic. One table for the
/// built-in translator's lowering and for the harness's reading of any manifest (the first row
/// of a builtin is the one it reads back). WGSL has no conservative depth: `oDepthGE` and
/// `oDepthLE` are plain depth outputs, which keep the value and lose only the promise.
pub const SPECIAL_BUILTINS: &[(dxbc::OperandType, naga::BuiltIn, &str, &str)] = &[
    (
        dxbc::OperandType::InputCoverageMask,
        naga::BuiltIn::SampleMask,
        "u32",
        "SV_Coverage",
    ),
    (
        dxbc::OperandType::OutputDepth,
        naga::BuiltIn::FragDepth,
        "f32",
        "SV_Depth",
    ),
    (
        dxbc::OperandType::OutputDepthGreaterEqual,
        naga::BuiltIn::FragDepth,
        "f32",
        "SV_DepthGreaterEqual",
    ),
    (
        dxbc::OperandType::OutputDepthLessEqual,
        naga::BuiltIn::FragDepth,
        "f32",
        "SV_DepthLessEqual",
    ),
    (
        dxbc::OperandType::OutputCoverageMask,
        naga::BuiltIn::SampleMask,
        "u32",
        "SV_Coverage",
    ),
];

/// A stage input or output register. The texts are `Cow`s: the built-in lowering names its
/// builtins, types and system-value semantics from static tables, and a program has a few of
/// each, so borrowing them saves allocations every translation pays (docs/corpus.md).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Interface {
    /// `v#` or `o#` register number; `None` for registers without one (`oDepth`).
    pub register: Option<u32>,
    /// Components of the register it covers (x = 1).
    pub mask: u8,
    /// `@location(n)`; `None` for a builtin.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<u32>,
    /// The WGSL builtin (`position`, `front_facing`, `vertex_index`, ...), when not a location.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub builtin: Option<Cow<'static, str>>,
    /// The WGSL type at the interface: `vec4<f32>`, `vec4<u32>`, `vec4<i32>`, `u32`, `bool`...
    pub wgsl_type: Cow<'static, str>,
    /// The D3D semantic it came from.
    pub semantic: Cow<'static, str>,
}

/// Why a manifest cannot be fed: a field outside Direct3D 11's limits. The harness sizes
/// buffers and bind groups from a manifest, and an external translator's manifest is input
/// like any other, so it is checked before anything is allocated from it. Code:
/// `manifest.limit` (the only kind, already named in the message).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("[manifest.limit] {field}: {value} is outside {limit} ({source_name})")]
pub struct ManifestError {
    /// The JSON path of the field (`bindings[2].size_bytes`).
    pub field: String,
    /// The value found.
    pub value: u64,
    /// What the field may hold.
    pub limit: String,
    /// The D3D11 constant the limit comes from.
    pub source_name: &'static str,
}

/// Bindings and interfaces a manifest may list at most: every D3D11 slot once, plus builtins.
const MAX_BINDINGS: usize = 256;
const MAX_INTERFACES: usize = 64;

impl ManifestError {
    /// A stable, machine-readable code for this kind of error.
    pub fn code(&self) -> &'static str {
        "manifest.limit"
    }
}

impl Manifest {
    /// What in this manifest contradicts the module it describes, if anything: no entry point
    /// of its name and stage, a binding the module does not declare at its group and binding,
    /// or a resource the module declares that no binding names. A harness fed by such a
    /// manifest would bind the wrong resource or none (a run of silent zeros), so it is the
    /// translator's failure, found before anything runs.
    pub fn contradicts(&self, module: &naga::Module) -> Option<String> {
        let stage = match self.stage.as_ref() {
            "vertex" => naga::ShaderStage::Vertex,
            "fragment" => naga::ShaderStage::Fragment,
            "compute" => naga::ShaderStage::Compute,
            other => {
                return Some(format!(
                    "stage `{other}` is not vertex, fragment or compute"
                ));
            }
        };
        if !module
            .entry_points
            .iter()
            .any(|e| e.name == self.entry_point && e.stage == stage)
        {
            return Some(format!(
                "the module has no {} entry point `{}`",
                self.stage, self.entry_point
            ));
        }
        let declared: Vec<(u32, u32)> = module
            .global_variables
            .iter()
            .filter_map(|(_, g)| g.binding.as_ref().map(|b| (b.group, b.binding)))
            .collect();
        if let Some(b) = self
            .bindings
            .iter()
            .find(|b| !declared.contains(&(b.group, b.binding)))
        {
            return Some(format!(
                "{} {} is at @group({}) @binding({}), which the module does not declare",
                b.kind.as_str(),
                b.register,
                b.group,
                b.binding
            ));
        }
        if let Some((g, b)) = declared.iter().find(|(g, b)| {
            !self
                .bindings
                .iter()
                .any(|m| m.group == *g && m.binding == *b)
        }) {
            return Some(format!(
                "the module declares @group({g}) @binding({b}), which no manifest binding names"
            ));
        }
        None
    }

    /// Check every number the harness allocates or indexes by against D3D11's limits
    /// (`dxbc::limits`).
    pub fn check(&self) -> Result<(), ManifestError> {
        use dxbc::limits::Limit;
        let over =
            |field: String, value: u64, lo: u64, limit: Limit| -> Result<(), ManifestError> {
                let hi = u64::from(limit.value());
                if (lo..=hi).contains(&value) {
                    Ok(())
                } else {
                    Err(ManifestError {
                        field,
                        value,
                        limit: format!("{lo}..={hi}"),
                        source_name: limit.info().source,
                    })
                }
            };
        if let Some([x, y, z]) = self.workgroup_size {
            over("workgroup_size[0]".into(), x.into(), 1, Limit::ThreadGroupX)?;
            over("workgroup_size[1]".into(), y.into(), 1, Limit::ThreadGroupY)?;
            over("workgroup_size[2]".into(), z.into(), 1, Limit::ThreadGroupZ)?;
            let n = u64::from(x) * u64::from(y) * u64::from(z);
            over("workgroup_size".into(), n, 1, Limit::ThreadGroupInvocations)?;
        }
        let count = |field: &str, n: usize, max: usize| -> Result<(), ManifestError> {
            if n <= max {
                Ok(())
            } else {
                Err(ManifestError {
                    field: field.into(),
                    value: n as u64,
                    limit: format!("0..={max} entries"),
                    source_name: "every D3D11 slot once",
                })
            }
        };
        count("bindings", self.bindings.len(), MAX_BINDINGS)?;
        count("inputs", self.inputs.len(), MAX_INTERFACES)?;
        count("outputs", self.outputs.len(), MAX_INTERFACES)?;
        for (i, b) in self.bindings.iter().enumerate() {
            let slots = match b.kind {
                BindingKind::Cbuffer => Limit::ConstantBuffers,
                BindingKind::Srv => Limit::ShaderResources,
                BindingKind::Uav | BindingKind::UavCounter => Limit::UnorderedAccessViews,
                BindingKind::Sampler => Limit::Samplers,
                BindingKind::Other(_) => continue,
            };
            let reg = u64::from(b.register);
            // Constant buffer 14 is the class-instance buffer (`dxbc::CLASS_INSTANCE_CB`).
            let instances = b.kind == BindingKind::Cbuffer && b.register == dxbc::CLASS_INSTANCE_CB;
            if !instances {
                over(format!("bindings[{i}].register"), reg + 1, 1, slots)?;
            }
            if b.kind == BindingKind::Cbuffer
                && let Some(size) = b.size_bytes
            {
                let rows = u64::from(size).div_ceil(16);
                over(
                    format!("bindings[{i}].size_bytes / 16"),
                    rows,
                    0,
                    Limit::ConstantBufferRows,
                )?;
            }
            if let Some(stride) = b.stride {
                over(
                    format!("bindings[{i}].stride"),
                    stride.into(),
                    0,
                    Limit::StructureStrideBytes,
                )?;
            }
        }
        for (name, list) in [("inputs", &self.inputs), ("outputs", &self.outputs)] {
            for (i, r) in list.iter().enumerate() {
                if let Some(reg) = r.register {
                    let field = format!("{name}[{i}].register");
                    over(field, u64::from(reg) + 1, 1, Limit::InputRegisters)?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifest_error_code_is_the_one_in_its_message() {
        let e = ManifestError {
            field: "bindings".into(),
            value: 300,
            limit: "0..=256 entries".into(),
            source_name: "every D3D11 slot once",
        };
        assert!(!e.code().is_empty());
        assert!(e.to_string().starts_with(&format!("[{}]", e.code())));
    }

    fn cbuffer(register: u32, size_bytes: u32) -> Binding {
        Binding {
            kind: BindingKind::Cbuffer,
            register,
            group: 0,
            binding: 0,
            layout: BindingLayout::UniformVec4Array,
            size_bytes: Some(size_bytes),
            stride: None,
            texture1d: false,
        }
    }

    #[test]
    fn limits_name_the_field() {
        let mut m = Manifest {
            workgroup_size: Some([64, 1, 1]),
            bindings: vec![cbuffer(13, 65_536)],
            ..Manifest::default()
        };
        assert_eq!(m.check(), Ok(()));
        m.bindings[0].size_bytes = Some(u32::MAX);
        let e = m.check().expect_err("4 GiB constant buffer");
        assert_eq!(e.field, "bindings[0].size_bytes / 16");
        assert!(
            e.to_string()
                .contains("D3D11_REQ_CONSTANT_BUFFER_ELEMENT_COUNT"),
            "{e}"
        );
        // Slot 14 is the class-instance buffer; the ones past it name no slot.
        m.bindings[0] = cbuffer(14, 16);
        assert_eq!(m.check(), Ok(()));
        m.bindings[0] = cbuffer(15, 16);
        assert_eq!(m.check().expect_err("cb15").field, "bindings[0].register");
        m.bindings.clear();
        m.workgroup_size = Some([1024, 1024, 1]);
        assert_eq!(m.check().expect_err("1M threads").field, "workgroup_size");
        m.workgroup_size = Some([0, 1, 1]);
        assert_eq!(m.check().expect_err("empty").field, "workgroup_size[0]");
    }

    #[test]
    fn kinds_and_layouts_keep_their_json_spelling() {
        let known = [
            ("cbuffer", "uniform-vec4-array"),
            ("srv", "storage-u32-array"),
            ("uav", "storage-atomic-u32-array"),
            ("srv", "texture_2d<f32>"),
            ("srv", "texture_2d<u32>"),
            ("srv", "texture_2d<i32>"),
            ("srv", "texture_2d_array<f32>"),
            ("srv", "texture_2d_array<u32>"),
            ("srv", "texture_2d_array<i32>"),
            ("srv", "texture_cube<f32>"),
            ("srv", "texture_cube<u32>"),
            ("srv", "texture_cube<i32>"),
            ("srv", "texture_3d<f32>"),
            ("srv", "texture_3d<u32>"),
            ("srv", "texture_3d<i32>"),
            ("srv", "texture_depth_2d"),
            ("srv", "texture_depth_2d_array"),
            ("srv", "texture"),
            ("sampler", "sampler_comparison"),
            ("sampler", "sampler"),
        ];
        for (kind, layout) in known {
            let json = format!(
                r#"{{"kind":"{kind}","register":1,"group":0,"binding":2,"layout":"{layout}"}}"#
            );
            let b: Binding = serde_json::from_str(&json).expect("known binding");
            assert!(!matches!(b.kind, BindingKind::Other(_)), "{kind}");
            assert!(!matches!(b.layout, BindingLayout::Other(_)), "{layout}");
            assert_eq!((b.kind.as_str(), b.layout.as_str()), (kind, layout));
            assert_eq!(serde_json::to_string(&b).expect("serialize"), json);
        }
        // An external translator's own words survive a round trip.
        let json =
            r#"{"kind":"tbuffer","register":0,"group":1,"binding":0,"layout":"storage-f32"}"#;
        let b: Binding = serde_json::from_str(json).expect("unknown strings");
        assert_eq!(b.kind, BindingKind::Other("tbuffer".into()));
        assert!(b.layout.is_storage());
        assert_eq!(serde_json::to_string(&b).expect("serialize"), json);
    }

    #[test]
    fn storage_texture_layouts_are_wgsl_types_and_read_back() {
        let l = BindingLayout::storage_texture("2d_array", "r32uint", "read_write");
        assert_eq!(l.as_str(), "texture_storage_2d_array<r32uint, read_write>");
        assert_eq!(
            l.storage_texture_parts(),
            Some(("2d_array", "r32uint", "read_write"))
        );
        assert!(!l.is_storage());
        let json = r#"{"kind":"uav","register":0,"group":0,"binding":1,"layout":"texture_storage_2d<rgba8unorm, write>"}"#;
        let b: Binding = serde_json::from_str(json).expect("storage texture binding");
        assert_eq!(
            b.layout,
            BindingLayout::storage_texture("2d", "rgba8unorm", "write")
        );
        assert_eq!(serde_json::to_string(&b).expect("serialize"), json);
        for other in [
            "texture_2d<f32>",
            "storage-u32-array",
            "texture_storage_3d<r32float>",
        ] {
            let l: BindingLayout = serde_json::from_str(&format!("\"{other}\"")).expect("layout");
            assert_eq!(l.storage_texture_parts(), None, "{other}");
        }
    }
}
