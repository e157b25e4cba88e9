//! `dxdiff dxbc-spirv-adapter --driver PATH`: a `serve:` translator. It starts the driver once,
//! and for each request sends the container, applies the SPIR-V fix-ups, reads the module with
//! naga, derives the manifest from the bindings the driver reported, and answers with WGSL.
//! When the driver dies the adapter exits, so the serving side blames that program as a crash
//! and the next program starts both afresh.

use std::any::Any;
use std::io::{BufRead, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Mutex;

use translator::Translation;
use translator::manifest::BindingKind;

use super::DxbcSpirvError;
use crate::Part;
use crate::spirv::{self, fixup};
use catalog::ids as id;

/// What dxbc-spirv's route to WGSL is known to adapt: latitude that WGSL or Vulkan grant any
/// implementation (docs/dxbc-spirv.md gives the lanes that made each one necessary). The
/// driver asks for no float-control modes (naga reads none), so denormals are the device's;
/// dxbc-spirv leaves `f32tof16`'s rounding to the device, as its source says, and its NaN and
/// infinity to `packHalf2x16`, which WGSL's `pack2x16float` leaves indeterminate; and it leaves
/// out-of-bounds buffer accesses to Vulkan's robustness, which WGSL replaces with its own weaker
/// rule (an access past the end may touch any word of the binding).
pub const CLAIMS: &[&str] = &[
    id::BUILTIN_ACCURACY,
    id::CANCELLATION,
    id::DENORMALS,
    id::F16_CONVERSIONS,
    id::F16_ROUNDING,
    id::FUSION,
    id::MIN_MAX_NAN,
    id::NAN,
    id::NON_FINITE,
    id::OOB,
    id::SIGNED_ZERO,
    id::SINCOS_RANGE,
];

/// One descriptor the library mapped: (kind, space, register) → (set, binding).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mapped {
    /// 0 constant buffer, 1 shader resource, 2 unordered access, 3 sampler, 4 UAV counter.
    pub kind: u32,
    /// The register space (0 below Shader Model 5.1).
    pub space: u32,
    /// The register number.
    pub register: u32,
    /// The descriptor set.
    pub set: u32,
    /// The binding.
    pub binding: u32,
}

/// The driver's answer for one container.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Compiled {
    /// The module and the descriptors it binds.
    Spirv {
        /// Every descriptor the library mapped.
        mapped: Vec<Mapped>,
        /// The SPIR-V module.
        spirv: Vec<u8>,
    },
    /// The library's log, when it cannot compile the program.
    Refused(String),
}

/// A running driver.
#[derive(Debug)]
pub struct Driver {
    child: Child,
    stdin: ChildStdin,
    stdout: ChildStdout,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn driver_error(e: impl std::fmt::Display) -> DxbcSpirvError {
    DxbcSpirvError::Driver(e.to_string())
}

impl Driver {
    /// Start the driver at `path`; its stderr is the adapter's.
    pub fn start(path: &Path) -> Result<Driver, DxbcSpirvError> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| driver_error(format!("cannot start {}: {e}", path.display())))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err(driver_error("the driver has no pipes"));
        };
        Ok(Driver {
            child,
            stdin,
            stdout,
        })
    }

    fn read_u32(&mut self) -> Result<u32, DxbcSpirvError> {
        let mut b = [0u8; 4];
        self.stdout
            .read_exact(&mut b)
            .map_err(|e| driver_error(format!("it ended mid-answer ({e})")))?;
        Ok(u32::from_le_bytes(b))
    }

    fn read_bytes(&mut self) -> Result<Vec<u8>, DxbcSpirvError> {
        let len = self.read_u32()? as usize;
        if len > 256 << 20 {
            return Err(driver_error(format!("an answer of {len} bytes")));
        }
        let mut v = vec![0u8; len];
        self.stdout
            .read_exact(&mut v)
            .map_err(|e| driver_error(format!("it ended mid-answer ({e})")))?;
        Ok(v)
    }

    /// One container through the library.
    pub fn compile(&mut self, blob: &[u8]) -> Result<Compiled, DxbcSpirvError> {
        let len = u32::try_from(blob.len()).map_err(driver_error)?;
        self.stdin
            .write_all(&len.to_le_bytes())
            .and_then(|()| self.stdin.write_all(blob))
            .and_then(|()| self.stdin.flush())
            .map_err(|e| driver_error(format!("it stopped reading ({e})")))?;
        match self.read_u32()? {
            0 => {
                let count = self.read_u32()?;
                if count > 4096 {
                    return Err(driver_error(format!("{count} descriptors")));
                }
                let mut mapped = Vec::with_capacity(count as usize);
                for _ in 0..count {
                    mapped.push(Mapped {
                        kind: self.read_u32()?,
                        space: self.read_u32()?,
                        register: self.read_u32()?,
                        set: self.read_u32()?,
                        binding: self.read_u32()?,
                    });
                }
                let spirv = self.read_bytes()?;
                let _log = self.read_bytes()?;
                Ok(Compiled::Spirv { mapped, spirv })
            }
            1 => Ok(Compiled::Refused(
                String::from_utf8_lossy(&self.read_bytes()?)
                    .trim()
                    .to_string(),
            )),
            other => Err(driver_error(format!("status {other}"))),
        }
    }
}

/// The manifest's kind for a descriptor kind the driver reports; `None` for a UAV counter.
fn binding_kind(kind: u32) -> Option<BindingKind> {
    Some(match kind {
        0 => BindingKind::Cbuffer,
        1 => BindingKind::Srv,
        2 => BindingKind::Uav,
        3 => BindingKind::Sampler,
        _ => return None,
    })
}

/// The route after the driver: fix-ups, naga, the manifest from the driver's bindings.
pub fn lower(blob: &[u8], mapped: &[Mapped], spv: &[u8]) -> Result<Translation, DxbcSpirvError> {
    let shader = dxbc::Shader::parse(blob).map_err(DxbcSpirvError::Dxbc)?;
    if mapped.iter().any(|m| binding_kind(m.kind).is_none()) {
        return Err(DxbcSpirvError::Counters);
    }
    let (spv, applied) = fixup::apply(spv).map_err(DxbcSpirvError::Fixup)?;
    let mut module = spirv::read(&spv).map_err(DxbcSpirvError::Route)?;
    let resolve = |g: &naga::GlobalVariable, _: BindingKind| {
        let b = g.binding?;
        mapped
            .iter()
            .find(|m| m.set == b.group && m.binding == b.binding)
            .and_then(|m| Some((binding_kind(m.kind)?, m.register)))
    };
    let manifest = spirv::rebind(&mut module, &shader, &resolve, &applied.relocated)
        .map_err(DxbcSpirvError::Route)?;
    spirv::finish(&module, manifest, CLAIMS).map_err(DxbcSpirvError::Route)
}

/// One program, start to end.
pub fn translate(driver: &mut Driver, blob: &[u8]) -> Result<Translation, DxbcSpirvError> {
    match driver.compile(blob)? {
        Compiled::Refused(log) => Err(DxbcSpirvError::Compile(log)),
        Compiled::Spirv { mapped, spirv } => lower(blob, &mapped, &spirv),
    }
}

/// The catalog id a refusal is filed under: doubles under `dxdiff/doubles`, the rest under the
/// neutral `dxdiff/refused`.
fn refusal_id(e: &DxbcSpirvError) -> &'static str {
    match e {
        DxbcSpirvError::Fixup(fixup::FixupError::Doubles) => id::DOUBLES,
        _ => crate::external::REFUSED,
    }
}

/// The `serve:` answer for one request; `Err` when the driver failed, which ends the adapter.
pub fn answer(driver: &mut Driver, blob: &[u8]) -> Result<serde_json::Value, DxbcSpirvError> {
    match translate(driver, blob) {
        Ok(t) => Ok(serde_json::json!({
            "status": "ok", "wgsl": t.wgsl, "manifest": t.manifest, "adaptations": t.adaptations
        })),
        Err(e @ DxbcSpirvError::Driver(_)) => Err(e),
        Err(e) => Ok(serde_json::json!({
            "status": "rejected", "reason": e.to_string(), "catalog_id": refusal_id(&e)
        })),
    }
}

/// `dxdiff dxbc-spirv-adapter`: serve requests on stdin until it closes. The exit status is 0
/// at the end of input, 1 when the driver failed (said on stderr), 2 for a request that is not
/// the protocol's.
pub fn serve(driver: &Path) -> i32 {
    let mut running = match Driver::start(driver) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("dxbc-spirv-adapter: {e}");
            return 1;
        }
    };
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return 2 };
        #[derive(serde::Deserialize)]
        struct Request {
            id: u64,
            dxbc: String,
        }
        let Ok(req) = serde_json::from_str::<Request>(&line) else {
            eprintln!("dxbc-spirv-adapter: a request that is not the protocol's JSON");
            return 2;
        };
        let Ok(blob) = oracles::case::decode_hex(req.dxbc.trim()) else {
            eprintln!("dxbc-spirv-adapter: a request whose container is not hex");
            return 2;
        };
        let mut answer = match answer(&mut running, &blob) {
            Ok(a) => a,
            Err(e) => {
                eprintln!("dxbc-spirv-adapter: {e}");
                return 1;
            }
        };
        answer["id"] = req.id.into();
        if writeln!(out, "{answer}")
            .and_then(|()| out.flush())
            .is_err()
        {
            return 0;
        }
    }
    0
}

/// `dxdiff bench`'s parts, in process with one driver: the library's compilation, the
/// fix-ups, naga's share, and the whole route.
pub fn parts(path: &Path) -> Vec<Part<'static>> {
    let Ok(driver) = Driver::start(path) else {
        return Vec::new();
    };
    let driver = std::sync::Arc::new(Mutex::new(driver));
    let compile = move |d: &Mutex<Driver>, b: &[u8]| -> Option<(Vec<Mapped>, Vec<u8>)> {
        match d.lock().ok()?.compile(b).ok()? {
            Compiled::Spirv { mapped, spirv } => Some((mapped, spirv)),
            Compiled::Refused(_) => None,
        }
    };
    let blob = |b: &[u8]| Some(Box::new(b.to_vec()) as Box<dyn Any>);
    let (d1, d2, d3, d4) = (driver.clone(), driver.clone(), driver.clone(), driver);
    vec![
        Part {
            name: "translation",
            setup: Box::new(blob),
            run: Box::new(move |i| {
                if let Some(b) = i.downcast_ref::<Vec<u8>>()
                    && let Ok(mut d) = d1.lock()
                {
                    let _ = d.compile(b);
                }
            }),
        },
        Part {
            name: "SPIR-V fix-ups",
            setup: Box::new(move |b| Some(Box::new(compile(&d2, b)?.1) as Box<dyn Any>)),
            run: Box::new(|i| {
                if let Some(spv) = i.downcast_ref::<Vec<u8>>() {
                    let _ = fixup::apply(spv);
                }
            }),
        },
        Part {
            name: "naga (read, validate, write)",
            setup: Box::new(move |b| {
                let (mapped, spv) = compile(&d3, b)?;
                Some(Box::new((b.to_vec(), mapped, spv)) as Box<dyn Any>)
            }),
            run: Box::new(|i| {
                if let Some((b, mapped, spv)) = i.downcast_ref::<(Vec<u8>, Vec<Mapped>, Vec<u8>)>()
                {
                    let _ = lower(b, mapped, spv);
                }
            }),
        },
        Part {
            name: "whole",
            setup: Box::new(blob),
            run: Box::new(move |i| {
                if let Some(b) = i.downcast_ref::<Vec<u8>>()
                    && let Ok(mut d) = d4.lock()
                {
                    let _ = translate(&mut d, b);
                }
            }),
        },
    ]
}
