//! vkd3d-shader, Wine's DXBC translator, loaded at run time from `libvkd3d-shader.so.1` (Debian's
//! `libvkd3d-shader1`), so dxdiff builds and runs where it is absent. Only DXBC → SPIR-V
//! compilation is used.
//!
//! vkd3d-shader 1.2 aborts the process on an assertion for some real blobs, so callers that
//! must survive every input run it in a child process (`vkd3d-compiler`); the in-process entry
//! point is for measuring throughput over blobs already known to compile.
#![allow(unsafe_code)]

use std::ffi::{c_char, c_int, c_uint, c_void};

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

const STRUCTURE_TYPE_COMPILE_INFO: c_uint = 0;
const SOURCE_DXBC_TPF: c_uint = 1;
const TARGET_SPIRV_BINARY: c_uint = 1;
const LOG_NONE: c_uint = 0;

type CompileFn = unsafe extern "C" fn(*const CompileInfo, *mut Code, *mut *mut c_char) -> c_int;
type FreeCodeFn = unsafe extern "C" fn(*mut Code);

/// The loaded library.
#[derive(Debug)]
pub struct Vkd3d {
    compile: CompileFn,
    free_code: FreeCodeFn,
    _lib: libloading::Library,
}

impl Vkd3d {
    /// Load `libvkd3d-shader.so.1`; the error says why it is unavailable.
    pub fn load() -> Result<Vkd3d, String> {
        // SAFETY: loading a shared library runs its initialisers; libvkd3d-shader has none with
        // preconditions.
        let lib = unsafe { libloading::Library::new("libvkd3d-shader.so.1") }
            .map_err(|e| format!("libvkd3d-shader.so.1 is not installed ({e})"))?;
        // SAFETY: the symbols have exactly these C signatures in vkd3d_shader.h (API 1.2+).
        let (compile, free_code) = unsafe {
            let c = *lib
                .get::<CompileFn>(b"vkd3d_shader_compile\0")
                .map_err(|e| e.to_string())?;
            let f = *lib
                .get::<FreeCodeFn>(b"vkd3d_shader_free_shader_code\0")
                .map_err(|e| e.to_string())?;
            (c, f)
        };
        Ok(Vkd3d {
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
            options: std::ptr::null(),
            option_count: 0,
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
