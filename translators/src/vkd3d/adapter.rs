//! `--translator vkd3d`: DXBC → SPIR-V with `vkd3d-compiler`, SPIR-V → WGSL with naga's
//! SPIR-V front end, and a binding manifest derived from vkd3d's default descriptor mapping.
//! `dxdiff vkd3d-adapter` runs this behind the external-translator protocol, in a child
//! process, because both vkd3d-shader 1.2 and naga's SPIR-V reader abort or panic on some real
//! programs; a crash there is a translator crash, never dxdiff's.

use std::io::Write;
use std::process::{Command, Stdio};

use translator::manifest::BindingKind;
use translator::{Manifest, Translation};

use super::Vkd3dError;
use crate::spirv;
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

fn translate(blob: &[u8]) -> Result<Translation, Vkd3dError> {
    let shader = dxbc::Shader::parse(blob).map_err(Vkd3dError::Dxbc)?;
    let spv = spirv(blob)?;
    // The same rewrites for naga as on dxbc-spirv's route: they fix naga, not vkd3d, so
    // vkd3d is not blamed for naga's misreadings (docs/dxbc-spirv.md lists them).
    let (spv, applied) = spirv::fixup::apply(&spv).map_err(Vkd3dError::Fixup)?;
    let mut module = read_spirv(&spv)?;
    let manifest = rebind_moved(&mut module, &shader, &applied.relocated)?;
    spirv::finish(&module, manifest, CLAIMS).map_err(Vkd3dError::from)
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
    spirv::read(spv).map_err(Vkd3dError::from)
}

/// Give each resource its own binding and derive the manifest from vkd3d's mapping and the
/// program's signatures. vkd3d's default mapping puts every resource in set 0 at its register
/// number, so cb0 and t0 collide; each gets its own binding, and the manifest keeps the
/// register.
pub fn rebind(module: &mut naga::Module, shader: &dxbc::Shader) -> Result<Manifest, Vkd3dError> {
    rebind_moved(module, shader, &[])
}

/// [`rebind`], with the varyings a fix-up relocated.
fn rebind_moved(
    module: &mut naga::Module,
    shader: &dxbc::Shader,
    moved: &[spirv::fixup::Relocated],
) -> Result<Manifest, Vkd3dError> {
    let resolve = |g: &naga::GlobalVariable, kind: BindingKind| {
        let b = g.binding?;
        let register = register_of(g.name.as_deref(), &kind).unwrap_or(b.binding);
        Some((kind, register))
    };
    spirv::rebind(module, shader, &resolve, moved).map_err(Vkd3dError::from)
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
        BindingKind::UavCounter | BindingKind::Other(_) => return None,
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
    spirv::validate(module).map_err(Vkd3dError::from)
}

/// naga's WGSL writer.
pub fn write_wgsl(
    module: &naga::Module,
    info: &naga::valid::ModuleInfo,
) -> Result<String, Vkd3dError> {
    spirv::write(module, info).map_err(Vkd3dError::from)
}
