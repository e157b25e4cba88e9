//! The binding manifest: which WGSL group/binding, location or builtin stands for each DXBC
//! constant buffer, SRV, UAV, sampler, input and output register. The harness feeds a program
//! from it, and external translators emit the same schema (see docs/manifest.md).

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Manifest {
    /// `vertex`, `fragment` or `compute`.
    pub stage: String,
    pub entry_point: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workgroup_size: Option<[u32; 3]>,
    pub bindings: Vec<Binding>,
    pub inputs: Vec<Interface>,
    pub outputs: Vec<Interface>,
}

/// A resource binding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Binding {
    /// `cbuffer`, `srv`, `uav` or `sampler`.
    pub kind: String,
    /// The DXBC register number (`cb2` → 2).
    pub register: u32,
    pub group: u32,
    pub binding: u32,
    /// How the resource is laid out: `uniform-vec4-array`, `storage-u32-array`,
    /// `storage-atomic-u32-array`, `texture_2d<f32>`, `sampler`...
    pub layout: String,
    /// Byte size a buffer binding must have (constant buffers: the declared size).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size_bytes: Option<u32>,
    /// Structure stride of a structured view.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stride: Option<u32>,
}

/// A stage input or output register.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Interface {
    /// `v#` or `o#` register number; `None` for registers without one (`oDepth`).
    pub register: Option<u32>,
    /// Components of the register it covers (x = 1).
    pub mask: u8,
    /// `@location(n)`, or a builtin name (`position`, `front_facing`, `vertex_index`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub builtin: Option<String>,
    /// The WGSL type at the interface: `vec4<f32>`, `vec4<u32>`, `vec4<i32>`, `u32`, `bool`...
    pub wgsl_type: String,
    /// The D3D semantic it came from.
    pub semantic: String,
}
