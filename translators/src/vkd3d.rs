//! vkd3d-shader, Wine's DXBC translator, loaded at run time from `libvkd3d-shader.so.1` (Debian's
//! `libvkd3d-shader1`), so dxdiff builds and runs where it is absent. Only DXBC → SPIR-V
//! compilation is used.
//!
//! vkd3d-shader 1.2 aborts the process on an assertion for some real blobs, so callers that
//! must survive every input run it in a child process (`vkd3d-compiler`); the in-process entry
//! point is for measuring throughput over blobs already known to compile.
#![allow(unsafe_code)]

/// The SPIR-V → WGSL adapter that `dxdiff vkd3d-adapter` runs in a child.
pub mod adapter;

use std::any::Any;
use std::ffi::{c_char, c_int, c_uint, c_void};
use std::time::Duration;

use translator::Translation;

use super::{Failure, Part, Translator, crash, external};

/// Why vkd3d's route to WGSL produced nothing. naga's failures on that route carry a
/// [`translator::NagaError`] and become the route's rejection (the policy is stated there).
/// Codes: `vkd3d.library`, `vkd3d.symbol`, `vkd3d.dxbc`, `vkd3d.no-compiler`, `vkd3d.io`,
/// `vkd3d.compile`, `vkd3d.fixup`, `vkd3d.naga-read`, `vkd3d.no-entry-point`, `vkd3d.layout`,
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
    /// A SPIR-V rewrite for naga refused the module (doubles, malformed words).
    #[error("[{code}] {0}", code = .0.code())]
    Fixup(crate::spirv::fixup::FixupError),
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

/// naga's share of the route, under vkd3d's codes.
impl From<crate::spirv::RouteError> for Vkd3dError {
    fn from(e: crate::spirv::RouteError) -> Self {
        use crate::spirv::RouteError;
        match e {
            RouteError::NagaRead(e) => Vkd3dError::NagaRead(e),
            RouteError::NoEntryPoint => Vkd3dError::NoEntryPoint,
            RouteError::Layout(e) => Vkd3dError::Layout(e),
            RouteError::Unbound { .. } | RouteError::NoWgslForm(_) => {
                Vkd3dError::Layout(e.to_string())
            }
            RouteError::NagaInvalid(e) => Vkd3dError::NagaInvalid(e),
            RouteError::NagaWrite(e) => Vkd3dError::NagaWrite(e),
        }
    }
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
            Vkd3dError::Fixup(_) => "vkd3d.fixup",
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
