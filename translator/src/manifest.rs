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

/// Why a manifest cannot be fed: a field outside Direct3D 11's limits. The harness sizes
/// buffers and bind groups from a manifest, and an external translator's manifest is input
/// like any other, so it is checked before anything is allocated from it. Code:
/// `manifest.limit` (the only kind, already named in the message).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("[manifest.limit] {field}: {value} is outside {limit} ({source_name})")]
pub struct ManifestError {
    /// The JSON path of the field (`bindings[2].size_bytes`).
    pub field: String,
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
            let slots = match b.kind.as_str() {
                "cbuffer" => Limit::ConstantBuffers,
                "srv" => Limit::ShaderResources,
                "uav" => Limit::UnorderedAccessViews,
                "sampler" => Limit::Samplers,
                _ => continue,
            };
            let reg = u64::from(b.register);
            over(format!("bindings[{i}].register"), reg + 1, 1, slots)?;
            if b.kind == "cbuffer"
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
            kind: "cbuffer".into(),
            register,
            group: 0,
            binding: 0,
            layout: "uniform-vec4-array".into(),
            size_bytes: Some(size_bytes),
            stride: None,
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
        m.bindings[0] = cbuffer(14, 16);
        assert_eq!(m.check().expect_err("cb14").field, "bindings[0].register");
        m.bindings.clear();
        m.workgroup_size = Some([1024, 1024, 1]);
        assert_eq!(m.check().expect_err("1M threads").field, "workgroup_size");
        m.workgroup_size = Some([0, 1, 1]);
        assert_eq!(m.check().expect_err("empty").field, "workgroup_size[0]");
    }
}
