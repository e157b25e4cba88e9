//! `--translator vkd3d`: DXBC → SPIR-V with `vkd3d-compiler`, SPIR-V → WGSL with naga's
//! SPIR-V front end, and a binding manifest derived from vkd3d's default descriptor mapping.
//! `dxdiff vkd3d-adapter` runs this behind the external-translator protocol, in a child
//! process, because both vkd3d-shader 1.2 and naga's SPIR-V reader abort or panic on some real
//! programs; a crash there is a translator crash, never dxdiff's.

use std::io::Write;
use std::process::{Command, Stdio};

use naga::{AddressSpace, Binding, BuiltIn, ShaderStage, TypeInner};
use translator::manifest::{Binding as Bound, BindingKind, BindingLayout, Interface};
use translator::{Manifest, NagaError, Translation};

use super::Vkd3dError;
use catalog::ids as id;

/// The protocol's answer for one program.
pub fn answer(blob: &[u8]) -> serde_json::Value {
    match translate(blob) {
        Ok(t) => serde_json::json!({
            "status": "ok", "wgsl": t.wgsl, "manifest": t.manifest, "adaptations": t.adaptations
        }),
        Err(reason) => serde_json::json!({
            "status": "rejected", "reason": reason.to_string(), "catalog_id": crate::external::REFUSED
        }),
    }
}

/// SPIR-V from `vkd3d-compiler` (buffer UAVs as storage buffers, which WGSL can express).
fn spirv(blob: &[u8]) -> Result<Vec<u8>, Vkd3dError> {
    let mut child = Command::new("vkd3d-compiler")
        .args([
            "-x",
            "dxbc-tpf",
            "-b",
            "spirv-binary",
            "--buffer-uav=storage-buffer",
        ])
        .args(["-o", "-"])
        .env("VKD3D_SHADER_DEBUG", "none")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| Vkd3dError::NoCompiler(e.to_string()))?;
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(blob);
    }
    let out = child
        .wait_with_output()
        .map_err(|e| Vkd3dError::Io(e.to_string()))?;
    if !out.status.success() {
        return Err(Vkd3dError::Compile {
            status: out.status.to_string(),
            stderr: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        });
    }
    Ok(out.stdout)
}

fn stage_name(s: ShaderStage) -> &'static str {
    match s {
        ShaderStage::Vertex => "vertex",
        ShaderStage::Fragment => "fragment",
        _ => "compute",
    }
}

fn type_name(module: &naga::Module, ty: naga::Handle<naga::Type>) -> String {
    let scalar = |s: naga::Scalar| match s.kind {
        naga::ScalarKind::Float => "f32",
        naga::ScalarKind::Sint => "i32",
        naga::ScalarKind::Uint => "u32",
        _ => "bool",
    };
    match module.types[ty].inner {
        TypeInner::Scalar(s) => scalar(s).to_string(),
        TypeInner::Vector { size, scalar: s } => format!("vec{}<{}>", size as u32, scalar(s)),
        ref other => format!("{other:?}"),
    }
}

fn builtin_name(b: BuiltIn) -> Option<(&'static str, u32)> {
    // (WGSL name, D3D_NAME of the system value)
    Some(match b {
        BuiltIn::Position { .. } => ("position", 1),
        BuiltIn::VertexIndex => ("vertex_index", 6),
        BuiltIn::InstanceIndex => ("instance_index", 8),
        BuiltIn::FrontFacing => ("front_facing", 9),
        _ => return None,
    })
}

/// The interface entry for one argument or result member, matched to the signature.
fn interface(
    module: &naga::Module,
    binding: &Binding,
    ty: naga::Handle<naga::Type>,
    signature: Option<&dxbc::chunks::signature::Signature>,
    pixel_output: bool,
) -> Option<Interface> {
    let elements = signature.map_or(&[][..], |s| s.elements.as_slice());
    let (register, location, builtin, sv) = match binding {
        Binding::Location { location, .. } => (*location, Some(*location), None, None),
        Binding::BuiltIn(b) => {
            let (name, sv) = builtin_name(*b)?;
            let reg = elements
                .iter()
                .find(|e| e.system_value == sv)
                .map(|e| e.register)?;
            (reg, None, Some(name.to_string()), Some(sv))
        }
    };
    let matching: Vec<_> = elements
        .iter()
        .filter(|e| {
            e.register == register
                && match sv {
                    Some(v) => e.system_value == v,
                    None => pixel_output || e.system_value == 0 || e.system_value > 0,
                }
        })
        .collect();
    let mask = matching.iter().fold(0u8, |m, e| m | e.mask);
    Some(Interface {
        register: Some(register),
        mask: if mask == 0 { 0xf } else { mask },
        location,
        builtin: builtin.map(Into::into),
        wgsl_type: type_name(module, ty).into(),
        semantic: matching
            .first()
            .map(|e| e.semantic_name.clone().into())
            .unwrap_or_default(),
    })
}

fn translate(blob: &[u8]) -> Result<Translation, Vkd3dError> {
    let shader = dxbc::Shader::parse(blob).map_err(Vkd3dError::Dxbc)?;
    let spv = spirv(blob)?;
    let mut module = read_spirv(&spv)?;
    let mut manifest = rebind(&mut module, &shader)?;
    let info = validate_module(&module)?;
    let wgsl = write_wgsl(&module, &info)?;
    // naga's writer puts the extensions the module uses first; the manifest declares them.
    manifest.enables = executors::gpu::directive_enables(&wgsl);
    Ok(Translation {
        wgsl,
        manifest,
        adaptations: CLAIMS.iter().map(|c| c.to_string()).collect(),
        naga_unreadable: None,
    })
}

/// What vkd3d's route to WGSL is known to adapt: each entry is here because a
/// differential run found lanes where vkd3d's result differs from D3D's inside that entry's
/// domain (docs/vkd3d.md lists the counts; entries without such lanes were left out). All
/// are latitude that WGSL or Vulkan grant any implementation: denormals kept, NaN and
/// infinity not honoured, signed zero lost, builtin accuracy, FMA contraction, f16
/// rounding by the device.
pub const CLAIMS: &[&str] = &[
    id::BUILTIN_ACCURACY,
    id::CANCELLATION,
    id::DENORMALS,
    id::F16_ROUNDING,
    id::FUSION,
    id::MIN_MAX_NAN,
    id::NAN,
    id::NON_FINITE,
    id::SIGNED_ZERO,
    id::SINCOS_RANGE,
];

/// naga's SPIR-V front end over vkd3d's output.
pub fn read_spirv(spv: &[u8]) -> Result<naga::Module, Vkd3dError> {
    // naga flips a vertex position's y by default (GL → Vulkan); vkd3d's SPIR-V is already
    // in Vulkan's convention, and D3D's result is what the oracle compares.
    let options = naga::front::spv::Options {
        adjust_coordinate_space: false,
        ..Default::default()
    };
    naga::front::spv::parse_u8_slice(spv, &options).map_err(|e| {
        Vkd3dError::NagaRead(NagaError::Parse {
            message: e.to_string(),
            offset: None,
        })
    })
}

/// Give each resource its own binding and derive the manifest from vkd3d's mapping and the
/// program's signatures.
pub fn rebind(module: &mut naga::Module, shader: &dxbc::Shader) -> Result<Manifest, Vkd3dError> {
    let ep = module
        .entry_points
        .first()
        .cloned()
        .ok_or(Vkd3dError::NoEntryPoint)?;
    let mut layouter = naga::proc::Layouter::default();
    layouter
        .update(module.to_ctx())
        .map_err(|e| Vkd3dError::Layout(e.to_string()))?;
    // vkd3d's default mapping puts every resource in set 0 at its register number, so cb0
    // and t0 collide; each gets its own binding here, and the manifest keeps the register.
    let mut bindings = Vec::new();
    let handles: Vec<_> = module.global_variables.iter().map(|(h, _)| h).collect();
    for h in handles {
        let g = &module.global_variables[h];
        let Some(b) = g.binding else { continue };
        let (kind, layout, size) = match g.space {
            AddressSpace::Uniform => (
                BindingKind::Cbuffer,
                BindingLayout::UniformVec4Array,
                Some(layouter[g.ty].size),
            ),
            AddressSpace::Storage { access } => (
                if access.contains(naga::StorageAccess::STORE) {
                    BindingKind::Uav
                } else {
                    BindingKind::Srv
                },
                BindingLayout::StorageU32Array,
                None,
            ),
            AddressSpace::Handle => match module.types[g.ty].inner {
                TypeInner::Sampler { .. } => (BindingKind::Sampler, BindingLayout::Sampler, None),
                _ => (BindingKind::Srv, BindingLayout::Texture, None),
            },
            _ => continue,
        };
        let new = bindings.len() as u32;
        let register = register_of(g.name.as_deref(), &kind).unwrap_or(b.binding);
        bindings.push(Bound {
            kind,
            register,
            group: 0,
            binding: new,
            layout,
            size_bytes: size,
            stride: None,
            texture1d: false,
        });
        module.global_variables[h].binding = Some(naga::ResourceBinding {
            group: 0,
            binding: new,
        });
    }
    let sig = |tags: &[dxbc::FourCC]| shader.signatures.iter().find(|s| tags.contains(&s.kind));
    let isgn = sig(&[dxbc::FourCC::ISGN, dxbc::FourCC::ISG1]);
    let osgn = sig(&[dxbc::FourCC::OSGN, dxbc::FourCC::OSG5, dxbc::FourCC::OSG1]);
    let pixel = ep.stage == ShaderStage::Fragment;
    let mut inputs = Vec::new();
    if ep.stage != ShaderStage::Compute {
        for a in &ep.function.arguments {
            if let Some(b) = &a.binding
                && let Some(i) = interface(module, b, a.ty, isgn, false)
            {
                inputs.push(i);
            }
        }
    }
    let mut outputs = Vec::new();
    if let Some(r) = &ep.function.result {
        match (&module.types[r.ty].inner, &r.binding) {
            (TypeInner::Struct { members, .. }, _) => {
                for m in members {
                    if let Some(b) = &m.binding
                        && let Some(i) = interface(module, b, m.ty, osgn, pixel)
                    {
                        outputs.push(i);
                    }
                }
            }
            (_, Some(b)) => {
                if let Some(i) = interface(module, b, r.ty, osgn, pixel) {
                    outputs.push(i);
                }
            }
            _ => {}
        }
    }
    Ok(Manifest {
        stage: stage_name(ep.stage).into(),
        entry_point: ep.name.clone().into(),
        workgroup_size: (ep.stage == ShaderStage::Compute).then_some(ep.workgroup_size),
        bindings,
        inputs,
        outputs,
        enables: Vec::new(),
    })
}

/// The DXBC register of a resource, from the debug name vkd3d gives its variable
/// (`cb1_0`, `t3`, `s0`, `u2`: the register file's letter and number). vkd3d 1.2 numbers
/// bindings in declaration order, not by register, so the binding number is only a
/// fallback (for a module without names).
fn register_of(name: Option<&str>, kind: &BindingKind) -> Option<u32> {
    let prefix = match kind {
        BindingKind::Cbuffer => "cb",
        BindingKind::Srv => "t",
        BindingKind::Uav => "u",
        BindingKind::Sampler => "s",
        BindingKind::Other(_) => return None,
    };
    let digits: String = name?
        .strip_prefix(prefix)?
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// naga's validator over the module read from SPIR-V.
pub fn validate_module(module: &naga::Module) -> Result<naga::valid::ModuleInfo, Vkd3dError> {
    naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    )
    .validate(module)
    .map_err(|e| {
        // The module came from SPIR-V: there is no source text for an offset into.
        Vkd3dError::NagaInvalid(NagaError::Invalid {
            message: e.to_string(),
            offset: None,
        })
    })
}

/// naga's WGSL writer.
pub fn write_wgsl(
    module: &naga::Module,
    info: &naga::valid::ModuleInfo,
) -> Result<String, Vkd3dError> {
    naga::back::wgsl::write_string(module, info, naga::back::wgsl::WriterFlags::empty()).map_err(
        |e| {
            Vkd3dError::NagaWrite(NagaError::Write {
                message: e.to_string(),
            })
        },
    )
}
