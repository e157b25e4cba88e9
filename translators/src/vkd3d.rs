//! vkd3d-shader, Wine's DXBC translator, loaded at run time from `libvkd3d-shader.so.1` (Debian's
//! `libvkd3d-shader1`), so dxdiff builds and runs where it is absent. Only DXBC → SPIR-V
//! compilation is used.
//!
//! vkd3d-shader 1.2 aborts the process on an assertion for some real blobs, so callers that
//! must survive every input run it in a child process (`vkd3d-compiler`); the in-process entry
//! point is for measuring throughput over blobs already known to compile.
#![allow(unsafe_code)]

use std::any::Any;
use std::ffi::{c_char, c_int, c_uint, c_void};
use std::time::Duration;

use translator::Translation;

use super::{Failure, Part, Translator, crash, external};

/// Why vkd3d's route to WGSL produced nothing. naga's failures on that route carry a
/// [`translator::NagaError`] and become the route's rejection (the policy is stated there).
/// Codes: `vkd3d.library`, `vkd3d.symbol`, `vkd3d.dxbc`, `vkd3d.no-compiler`, `vkd3d.io`,
/// `vkd3d.compile`, `vkd3d.naga-read`, `vkd3d.no-entry-point`, `vkd3d.layout`,
/// `vkd3d.naga-invalid`, `vkd3d.naga-write`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Vkd3dError {
    /// `libvkd3d-shader.so.1` cannot be loaded.
    #[error("libvkd3d-shader.so.1 is not installed ({0})")]
    Library(String),
    /// The library lacks a function dxdiff calls.
    #[error("{0}")]
    Symbol(String),
    /// The program does not parse as DXBC.
    #[error("[{code}] {0}", code = .0.code())]
    Dxbc(dxbc::DxbcError),
    /// The `vkd3d-compiler` child cannot be started.
    #[error("vkd3d-compiler is not available: {0}")]
    NoCompiler(String),
    /// Talking to the `vkd3d-compiler` child failed.
    #[error("{0}")]
    Io(String),
    /// `vkd3d-compiler` exited unsuccessfully (an error, or an aborting assertion).
    #[error("vkd3d-shader cannot compile it ({status}): {stderr}")]
    Compile {
        /// The child's exit status.
        status: String,
        /// Its stderr, trimmed.
        stderr: String,
    },
    /// naga's SPIR-V front end cannot read vkd3d's output.
    #[error("naga cannot read vkd3d's SPIR-V: {0}")]
    NagaRead(translator::NagaError),
    /// The SPIR-V module has no entry point.
    #[error("vkd3d's SPIR-V has no entry point")]
    NoEntryPoint,
    /// naga cannot lay out the module's types while rebinding its resources.
    #[error("{0}")]
    Layout(String),
    /// The module read from vkd3d's SPIR-V does not validate in naga.
    #[error("naga rejects vkd3d's module: {0}")]
    NagaInvalid(translator::NagaError),
    /// naga cannot write the module as WGSL.
    #[error("naga cannot write WGSL for it: {0}")]
    NagaWrite(translator::NagaError),
}

impl Vkd3dError {
    /// A stable, machine-readable code for this kind of error.
    pub fn code(&self) -> &'static str {
        match self {
            Vkd3dError::Library(_) => "vkd3d.library",
            Vkd3dError::Symbol(_) => "vkd3d.symbol",
            Vkd3dError::Dxbc(_) => "vkd3d.dxbc",
            Vkd3dError::NoCompiler(_) => "vkd3d.no-compiler",
            Vkd3dError::Io(_) => "vkd3d.io",
            Vkd3dError::Compile { .. } => "vkd3d.compile",
            Vkd3dError::NagaRead(_) => "vkd3d.naga-read",
            Vkd3dError::NoEntryPoint => "vkd3d.no-entry-point",
            Vkd3dError::Layout(_) => "vkd3d.layout",
            Vkd3dError::NagaInvalid(_) => "vkd3d.naga-invalid",
            Vkd3dError::NagaWrite(_) => "vkd3d.naga-write",
        }
    }
}

/// `--translator vkd3d`: vkd3d-shader's route to WGSL ([`adapter`]), run by `dxdiff
/// vkd3d-adapter` behind the external protocol, in a guarded child.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vkd3d {
    /// How long the guarded child gets per program before it counts as a crash.
    pub timeout: Duration,
}

impl Translator for Vkd3d {
    fn name(&self) -> String {
        "vkd3d".into()
    }

    fn translate(&self, blob: &[u8], _shader: &dxbc::Shader) -> Result<Translation, Failure> {
        let exe =
            std::env::current_exe().map_err(|e| crash(format!("cannot find dxdiff: {e}"), &[]))?;
        let quoted = exe.display().to_string().replace('\'', "'\\''");
        let (stdout, stderr) =
            external::run_process(&format!("'{quoted}' vkd3d-adapter"), self.timeout, blob)?;
        external::answer(&stdout, &stderr)
    }

    /// In process, over programs already known to compile: DXBC → SPIR-V through
    /// libvkd3d-shader, then naga's share of the route to WGSL (SPIR-V reading, validation,
    /// WGSL writing), and the whole route. Without the library there are no parts.
    fn parts(&self) -> Vec<Part<'_>> {
        let Ok(lib) = Library::load() else {
            return Vec::new();
        };
        let lib = std::sync::Arc::new(lib);
        let blob = |b: &[u8]| Some(Box::new(b.to_vec()) as Box<dyn Any>);
        let (l1, l2, l3, l4, l5) = (lib.clone(), lib.clone(), lib.clone(), lib.clone(), lib);
        vec![
            Part {
                name: "translation",
                setup: Box::new(blob),
                run: Box::new(move |i| {
                    if let Some(b) = i.downcast_ref::<Vec<u8>>() {
                        let _ = l1.compile_to_spirv(b);
                    }
                }),
            },
            Part {
                name: "naga SPIR-V reading",
                setup: Box::new(move |b| {
                    Some(Box::new(l2.compile_to_spirv(b).ok()?) as Box<dyn Any>)
                }),
                run: Box::new(|i| {
                    if let Some(spv) = i.downcast_ref::<Vec<u8>>() {
                        let _ = adapter::read_spirv(spv);
                    }
                }),
            },
            Part {
                name: "naga validation",
                setup: Box::new(move |b| {
                    let s = dxbc::Shader::parse(b).ok()?;
                    let mut m = adapter::read_spirv(&l3.compile_to_spirv(b).ok()?).ok()?;
                    adapter::rebind(&mut m, &s).ok()?;
                    Some(Box::new(m) as Box<dyn Any>)
                }),
                run: Box::new(|i| {
                    if let Some(m) = i.downcast_ref::<naga::Module>() {
                        let _ = adapter::validate_module(m);
                    }
                }),
            },
            Part {
                name: "WGSL writing",
                setup: Box::new(move |b| {
                    let s = dxbc::Shader::parse(b).ok()?;
                    let mut m = adapter::read_spirv(&l4.compile_to_spirv(b).ok()?).ok()?;
                    adapter::rebind(&mut m, &s).ok()?;
                    let info = adapter::validate_module(&m).ok()?;
                    Some(Box::new((m, info)) as Box<dyn Any>)
                }),
                run: Box::new(|i| {
                    if let Some((m, info)) =
                        i.downcast_ref::<(naga::Module, naga::valid::ModuleInfo)>()
                    {
                        let _ = adapter::write_wgsl(m, info);
                    }
                }),
            },
            Part {
                name: "whole",
                setup: Box::new(blob),
                run: Box::new(move |i| {
                    let Some(b) = i.downcast_ref::<Vec<u8>>() else {
                        return;
                    };
                    let Ok(s) = dxbc::Shader::parse(b) else {
                        return;
                    };
                    let Ok(spv) = l5.compile_to_spirv(b) else {
                        return;
                    };
                    let Ok(mut m) = adapter::read_spirv(&spv) else {
                        return;
                    };
                    if adapter::rebind(&mut m, &s).is_ok()
                        && let Ok(info) = adapter::validate_module(&m)
                    {
                        let _ = adapter::write_wgsl(&m, &info);
                    }
                }),
            },
        ]
    }
}

/// `struct vkd3d_shader_code`.
#[repr(C)]
struct Code {
    code: *const c_void,
    size: usize,
}

/// `struct vkd3d_shader_compile_info` (vkd3d_shader.h, API 1.2).
#[repr(C)]
struct CompileInfo {
    ty: c_uint,
    next: *const c_void,
    source: Code,
    source_type: c_uint,
    target_type: c_uint,
    options: *const c_void,
    option_count: c_uint,
    log_level: c_uint,
    source_name: *const c_char,
}

/// `struct vkd3d_shader_compile_option`.
#[repr(C)]
struct CompileOption {
    name: c_uint,
    value: c_uint,
}

/// Buffer UAVs as storage buffers (`VKD3D_SHADER_COMPILE_OPTION_BUFFER_UAV` =
/// `..._STORAGE_BUFFER`), as the adapter asks `vkd3d-compiler` with `--buffer-uav`: WGSL has
/// no storage texel buffers, so the in-process figures describe the same SPIR-V.
const OPTIONS: [CompileOption; 1] = [CompileOption { name: 2, value: 1 }];

const STRUCTURE_TYPE_COMPILE_INFO: c_uint = 0;
const SOURCE_DXBC_TPF: c_uint = 1;
const TARGET_SPIRV_BINARY: c_uint = 1;
const LOG_NONE: c_uint = 0;

type CompileFn = unsafe extern "C" fn(*const CompileInfo, *mut Code, *mut *mut c_char) -> c_int;
type FreeCodeFn = unsafe extern "C" fn(*mut Code);

/// The loaded library.
#[derive(Debug)]
pub struct Library {
    compile: CompileFn,
    free_code: FreeCodeFn,
    _lib: libloading::Library,
}

impl Library {
    /// Load `libvkd3d-shader.so.1`; the error says why it is unavailable.
    pub fn load() -> Result<Library, Vkd3dError> {
        // SAFETY: loading a shared library runs its initialisers; libvkd3d-shader has none with
        // preconditions.
        let lib = unsafe { libloading::Library::new("libvkd3d-shader.so.1") }
            .map_err(|e| Vkd3dError::Library(e.to_string()))?;
        // SAFETY: the symbols have exactly these C signatures in vkd3d_shader.h (API 1.2+).
        let (compile, free_code) = unsafe {
            let c = *lib
                .get::<CompileFn>(b"vkd3d_shader_compile\0")
                .map_err(|e| Vkd3dError::Symbol(e.to_string()))?;
            let f = *lib
                .get::<FreeCodeFn>(b"vkd3d_shader_free_shader_code\0")
                .map_err(|e| Vkd3dError::Symbol(e.to_string()))?;
            (c, f)
        };
        Ok(Library {
            compile,
            free_code,
            _lib: lib,
        })
    }

    /// Compile DXBC to SPIR-V in this process. Returns the SPIR-V size, or vkd3d's error code.
    pub fn compile_to_spirv(&self, dxbc: &[u8]) -> Result<Vec<u8>, i32> {
        let info = CompileInfo {
            ty: STRUCTURE_TYPE_COMPILE_INFO,
            next: std::ptr::null(),
            source: Code {
                code: dxbc.as_ptr().cast(),
                size: dxbc.len(),
            },
            source_type: SOURCE_DXBC_TPF,
            target_type: TARGET_SPIRV_BINARY,
            options: OPTIONS.as_ptr().cast(),
            option_count: OPTIONS.len() as c_uint,
            log_level: LOG_NONE,
            source_name: std::ptr::null(),
        };
        let mut out = Code {
            code: std::ptr::null(),
            size: 0,
        };
        // SAFETY: `info` points at `dxbc`, which outlives the call; `out` is a valid out-param;
        // a null messages pointer asks for no messages.
        let rc = unsafe { (self.compile)(&info, &mut out, std::ptr::null_mut()) };
        if rc < 0 {
            return Err(rc);
        }
        let spirv = if out.code.is_null() {
            Vec::new()
        } else {
            // SAFETY: on success vkd3d returns `size` readable bytes at `code`, freed below.
            unsafe { std::slice::from_raw_parts(out.code.cast::<u8>(), out.size).to_vec() }
        };
        // SAFETY: `out` came from vkd3d_shader_compile.
        unsafe { (self.free_code)(&mut out) };
        Ok(spirv)
    }
}

/// Whether `vkd3d-compiler` turns this blob into SPIR-V, run as a child process so that an
/// assertion in vkd3d-shader ends only the child. `None` when the tool is not installed.
pub fn compiles_in_child(dxbc: &[u8]) -> Option<bool> {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new("vkd3d-compiler")
        .args(["-x", "dxbc-tpf", "-b", "spirv-binary", "-o", "/dev/null"])
        .env("VKD3D_SHADER_DEBUG", "none")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(dxbc);
    }
    Some(child.wait().ok()?.success())
}

/// `--translator vkd3d`: DXBC → SPIR-V with `vkd3d-compiler`, SPIR-V → WGSL with naga's
/// SPIR-V front end, and a binding manifest derived from vkd3d's default descriptor mapping.
/// `dxdiff vkd3d-adapter` runs this behind the external-translator protocol, in a child
/// process, because both vkd3d-shader 1.2 and naga's SPIR-V reader abort or panic on some real
/// programs; a crash there is a translator crash, never dxdiff's.
pub mod adapter {
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
    pub fn rebind(
        module: &mut naga::Module,
        shader: &dxbc::Shader,
    ) -> Result<Manifest, Vkd3dError> {
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
                    TypeInner::Sampler { .. } => {
                        (BindingKind::Sampler, BindingLayout::Sampler, None)
                    }
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
        naga::back::wgsl::write_string(module, info, naga::back::wgsl::WriterFlags::empty())
            .map_err(|e| {
                Vkd3dError::NagaWrite(NagaError::Write {
                    message: e.to_string(),
                })
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vkd3d_error_codes_are_distinct_and_not_empty() {
        let naga = || translator::NagaError::Write {
            message: "m".into(),
        };
        let all = [
            Vkd3dError::Library("l".into()),
            Vkd3dError::Symbol("s".into()),
            Vkd3dError::Dxbc(dxbc::DxbcError::MissingChunk { tag: "SHEX".into() }),
            Vkd3dError::NoCompiler("n".into()),
            Vkd3dError::Io("i".into()),
            Vkd3dError::Compile {
                status: "exit status: 1".into(),
                stderr: String::new(),
            },
            Vkd3dError::NagaRead(naga()),
            Vkd3dError::NoEntryPoint,
            Vkd3dError::Layout("l".into()),
            Vkd3dError::NagaInvalid(naga()),
            Vkd3dError::NagaWrite(naga()),
        ];
        let codes: std::collections::BTreeSet<_> = all.iter().map(Vkd3dError::code).collect();
        assert_eq!(codes.len(), all.len());
        assert!(codes.iter().all(|c| !c.is_empty()));
    }
}
