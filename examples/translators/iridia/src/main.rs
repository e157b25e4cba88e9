//! dxdiff-iridia: an external translator for `dxdiff --translator cmd:...` (docs/translators.md)
//! around the crates.io crate `iridia-dxbc` 0.4.1, which lifts DXBC into an `iridia::Program` (a
//! naga module with its interface) that `iridia::emit::wgsl` writes as WGSL.
//!
//! A DXBC container arrives on stdin; one JSON document goes to stdout:
//! `{"status":"ok","wgsl":...,"manifest":{...},"adaptations":[...]}` or
//! `{"status":"rejected","reason":...,"instruction":N}`. A panic inside iridia, or a program that
//! iridia lifts but cannot check or write, is a non-zero exit with the message on stderr: dxdiff
//! records it as a translator crash.
//!
//! The manifest (docs/manifest.md) is read off iridia's own statements, never remapped:
//! - bindings: `Program::bindings` pairs each interface resource with its module global; the
//!   group and binding are the global's (iridia: cb# group 0, t# group 1, s# group 2, u# group 3,
//!   binding = register), the register is the resource's D3D bind point;
//! - inputs and outputs: `iridia::entry_io` is iridia's one statement of which entry argument or
//!   result member carries which signature element (its location or built-in, and its type); the
//!   element's register and lanes are its D3D provenance.

use std::io::{Read, Write};
use std::process::ExitCode;

use iridia::{
    D3dClass, IoType, Program, ProgramError, ResourceKind, ScalarType, Stage, SystemValue, Value,
};
use serde_json::{Value as Json, json};

fn main() -> ExitCode {
    let mut bytes = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut bytes) {
        eprintln!("dxdiff-iridia: cannot read the container from stdin: {e}");
        return ExitCode::from(2);
    }
    std::panic::set_hook(Box::new(|info| {
        eprintln!("dxdiff-iridia: iridia panicked: {info}");
    }));
    // A thread of its own, with a generous stack: iridia's flow structuring recurses over the
    // program, and a deep one should not overflow the main thread's 8 MiB.
    let worker = std::thread::Builder::new()
        .name("iridia".into())
        .stack_size(256 << 20)
        .spawn(move || std::panic::catch_unwind(|| answer(&bytes)));
    let result = match worker {
        Ok(handle) => handle.join(),
        Err(e) => {
            eprintln!("dxdiff-iridia: cannot start the worker thread: {e}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(Ok(Ok(doc))) => {
            let mut out = std::io::stdout().lock();
            let written = serde_json::to_writer(&mut out, &doc)
                .map_err(std::io::Error::from)
                .and_then(|()| out.write_all(b"\n"))
                .and_then(|()| out.flush());
            match written {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("dxdiff-iridia: cannot write the answer: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Ok(Ok(Err(message))) => {
            eprintln!("dxdiff-iridia: {message}");
            ExitCode::from(2)
        }
        // The hook has already printed the panic's message and location.
        Ok(Err(_)) | Err(_) => ExitCode::from(101),
    }
}

/// The protocol's answer for one container, or why there is none (a crash).
fn answer(bytes: &[u8]) -> Result<Json, String> {
    let program = match iridia_dxbc::lift(bytes) {
        Ok(p) => p,
        // iridia refuses by name, at a word of the token stream; no catalog entry describes its
        // refusals, so dxdiff files them under `dxdiff/refused` with iridia's reason.
        Err(refusal) => {
            let mut doc = json!({ "status": "rejected", "reason": refusal.to_string() });
            if let Some(i) = instruction_at(bytes, refusal.at) {
                doc["instruction"] = json!(i);
            }
            return Ok(doc);
        }
    };
    let wgsl = match iridia::emit::wgsl(&program) {
        Ok(w) => w,
        // The writer refuses a program WGSL has no form for: a hull, domain or geometry program
        // (functions, not an entry point), a vertex program that feeds a tessellator (one with
        // no position output), or a module naga's WGSL backend cannot write (a fall-through
        // switch case).
        Err(ProgramError::Unsupported { writer, detail }) => {
            return Ok(json!({
                "status": "rejected",
                "reason": format!("{writer} cannot write this program: {detail}"),
                "catalog_id": "iridia/wgsl-unsupported",
            }));
        }
        // iridia states that a lifted program validates: one that does not is its fault, and
        // reported as a crash rather than dressed up as a refusal.
        Err(e) => return Err(format!("iridia lifted a program it cannot write: {e}")),
    };
    let manifest = manifest(&program, &wgsl)?;
    Ok(json!({
        "status": "ok",
        "wgsl": wgsl,
        "manifest": manifest,
        "adaptations": adaptations(&program),
    }))
}

/// The catalog entries (`dxdiff catalog`) the translation relies on: only where iridia itself
/// says it leaves D3D's result to the implementation. Everything else iridia states it writes
/// out the D3D way (`D3dModes::ALL`: division by zero, float to integer conversion, min/max and
/// saturate with a NaN, shift counts, out-of-range reads), so it is held to D3D's results there.
fn adaptations(program: &Program) -> Vec<&'static str> {
    let mut claims = Vec::new();
    // iridia `D3dModes::flush_denormals`: "The body does not spell this out: an implementation
    // may or may not flush, and the flag records what the source expects"; `emit::wgsl`: "the
    // denormal flush is the source's expectation, which WGSL leaves to the implementation".
    if program.modes.flush_denormals {
        claims.push("dxdiff/denormals");
    }
    let noted = |text: &str| program.notes.iter().any(|n| n.contains(text));
    // iridia-dxbc's note on a program with f32tof16: "f32tof16 is written through pack2x16float:
    // its rounding is the implementation's" (D3D rounds toward zero).
    if noted("f32tof16 is written through pack2x16float") {
        claims.push("dxdiff/f16-rounding");
    }
    // iridia-dxbc's note "min-precision operands are computed at 32 bits" (iridia-interface:
    // "DXBC minimum-precision types are read as 32-bit"): the catalog's full-precision f32
    // lowering of min16float.
    if noted("min-precision operands are computed at 32 bits") {
        claims.push("adapted/min-precision-f16");
    }
    // Not claimed by default, because iridia does not say so: the WGSL latitude its lowerings
    // rely on (`a * b + c` and `dot` may be contracted, `/`, `exp2`, `log2`, `inverseSqrt`,
    // `sqrt` and `sin`/`cos` have WGSL's accuracy and domain, `fract` may round to 1.0, NaN
    // operands of float comparisons are indeterminate, `pack2x16float` of a NaN or of a value
    // past f16's range is indeterminate). With DXDIFF_IRIDIA_CLAIM_WGSL=1 the
    // adapter claims them, so a run shows what is left once that latitude is granted
    // (docs/iridia.md).
    if std::env::var_os("DXDIFF_IRIDIA_CLAIM_WGSL").is_some() {
        for id in [
            "dxdiff/fusion",
            "dxdiff/builtin-accuracy",
            "dxdiff/faithful-rounding",
            "dxdiff/nan",
            "dxdiff/non-finite",
            "dxdiff/f16-rounding",
            "bounded/f16-conversions",
        ] {
            if !claims.contains(&id) {
                claims.push(id);
            }
        }
    }
    claims
}

/// The index (in dxdiff's numbering: every declaration and instruction after the version and
/// length tokens, in stream order) of the instruction that holds token `word` of the program's
/// token stream, where iridia's refusals point. `None` for a word outside the stream.
fn instruction_at(bytes: &[u8], word: usize) -> Option<usize> {
    let words = dxbc_reader::code(bytes).ok()?;
    let end = words
        .get(1)
        .map_or(words.len(), |&n| (n as usize).min(words.len()));
    if word < 2 || word >= end {
        return None;
    }
    let (mut at, mut index) = (2usize, 0usize);
    while at < end {
        let token = words[at];
        let length = if token & 0x7ff == 0x35 {
            // customdata: the length is the next token
            *words.get(at + 1)? as usize
        } else {
            (token >> 24 & 0x7f) as usize
        };
        if length == 0 {
            return None;
        }
        if word < at + length {
            return Some(index);
        }
        at += length;
        index += 1;
    }
    None
}

/// The binding manifest (translator::manifest::Manifest's JSON).
fn manifest(program: &Program, wgsl: &str) -> Result<Json, String> {
    let module = &program.module;
    let entry = module
        .entry_points
        .iter()
        .find(|e| e.name == program.entry)
        .ok_or_else(|| format!("the module has no entry point `{}`", program.entry))?;
    let stage = match program.stage {
        Stage::Vertex => "vertex",
        Stage::Pixel => "fragment",
        Stage::Compute => "compute",
        other => return Err(format!("a {other:?} program has no WGSL stage")),
    };
    let mut m = json!({
        "stage": stage,
        "entry_point": entry.name,
        "bindings": bindings(program)?,
    });
    if program.stage == Stage::Compute {
        m["workgroup_size"] = json!(entry.workgroup_size);
    }
    let io = iridia::entry_io(&program.interface)?;
    m["inputs"] = interfaces(&io.arguments, &program.interface.inputs, false)?;
    m["outputs"] = interfaces(&io.results, &program.interface.outputs, true)?;
    let enables = enables(wgsl);
    if !enables.is_empty() {
        m["enables"] = json!(enables);
    }
    Ok(m)
}

/// The extensions the WGSL enables (`enable clip_distances;`), as its own directives say.
fn enables(wgsl: &str) -> Vec<String> {
    wgsl.lines()
        .filter_map(|l| l.trim().strip_prefix("enable "))
        .flat_map(|rest| rest.trim_end_matches(';').split(','))
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// One manifest entry per signature element the entry point carries (an element nothing reads
/// or writes and no binding exists for is not carried, so not listed).
fn interfaces(
    items: &[iridia::IoItem],
    varyings: &[iridia::Varying],
    output: bool,
) -> Result<Json, String> {
    let mut out = Vec::new();
    for item in items {
        let (wgsl_type, width) = match item.ty {
            IoType::Value(v) => (value_type(v), v.width.min(4)),
            IoType::ClipDistances(n) => (format!("array<f32, {n}>"), 1),
            other => return Err(format!("{}: {other:?} at the entry point", item.name)),
        };
        let (location, builtin) = match &item.binding {
            naga::Binding::Location { location, .. } => (Some(*location), None),
            naga::Binding::BuiltIn(b) => (None, Some(builtin(b)?)),
        };
        for &i in &item.varyings {
            let v = varyings
                .get(i)
                .ok_or_else(|| format!("{}: no varying {i}", item.name))?;
            let d3d = v.provenance.d3d;
            // oDepth and oMask have no register of their own (the signature says 0xffffffff)
            let registerless = output
                && matches!(
                    v.system,
                    Some(
                        SystemValue::Depth
                            | SystemValue::DepthGreaterEqual
                            | SystemValue::DepthLessEqual
                            | SystemValue::Coverage
                            | SystemValue::StencilRef
                    )
                );
            let register = d3d
                .map(|d| d.register)
                .filter(|&r| r != u32::MAX && !registerless);
            let mut entry = json!({
                "register": register,
                // a value with no signature element (a compute id): the lanes it has
                "mask": d3d.map_or((1u8 << width) - 1, |d| d.mask),
                "wgsl_type": wgsl_type,
                "semantic": v.label.name,
            });
            if let Some(l) = location {
                entry["location"] = json!(l);
            }
            if let Some(b) = &builtin {
                entry["builtin"] = json!(b);
            }
            out.push(entry);
        }
    }
    Ok(Json::Array(out))
}

/// A scalar or vector type as WGSL spells it.
fn value_type(v: Value) -> String {
    let scalar = match v.scalar {
        ScalarType::Bool => "bool",
        ScalarType::Sint => "i32",
        ScalarType::Uint => "u32",
        ScalarType::Float => "f32",
        ScalarType::Double => "f64",
    };
    if v.width <= 1 {
        scalar.to_string()
    } else {
        format!("vec{}<{scalar}>", v.width)
    }
}

/// A built-in as WGSL spells it (docs/manifest.md's one vocabulary).
fn builtin(b: &naga::BuiltIn) -> Result<String, String> {
    use naga::BuiltIn as B;
    Ok(match b {
        B::Position { .. } => "position",
        B::FrontFacing => "front_facing",
        B::VertexIndex => "vertex_index",
        B::InstanceIndex => "instance_index",
        B::SampleIndex => "sample_index",
        B::SampleMask => "sample_mask",
        B::PrimitiveIndex => "primitive_index",
        B::FragDepth => "frag_depth",
        B::ClipDistances => "clip_distances",
        B::GlobalInvocationId => "global_invocation_id",
        B::LocalInvocationId => "local_invocation_id",
        B::LocalInvocationIndex => "local_invocation_index",
        B::WorkGroupId => "workgroup_id",
        B::NumWorkGroups => "num_workgroups",
        B::SubgroupSize => "subgroup_size",
        B::SubgroupInvocationId => "subgroup_invocation_id",
        other => return Err(format!("a built-in WGSL has no name for: {other:?}")),
    }
    .to_string())
}

/// One manifest binding per resource of the interface, where the module declares it.
fn bindings(program: &Program) -> Result<Json, String> {
    let module = &program.module;
    let mut out = Vec::new();
    for (id, global) in &program.bindings {
        let resource = program
            .interface
            .resources
            .iter()
            .find(|r| r.id == *id)
            .ok_or_else(|| format!("no resource {id:?} for a bound global"))?;
        let name = &resource.provenance.name;
        let d3d = resource
            .provenance
            .d3d
            .ok_or_else(|| format!("{name}: no D3D bind point"))?;
        let gv = &module.global_variables[*global];
        let rb = gv
            .binding
            .as_ref()
            .ok_or_else(|| format!("{name}: its global has no binding"))?;
        let kind = match d3d.class {
            D3dClass::ConstantBuffer => "cbuffer",
            D3dClass::ShaderResource => "srv",
            D3dClass::Sampler => "sampler",
            D3dClass::UnorderedAccess => "uav",
        };
        let inner = &module.types[gv.ty].inner;
        let mut size_bytes = None;
        let layout = match (gv.space, inner) {
            (naga::AddressSpace::Uniform, naga::TypeInner::Array { size, stride, .. }) => {
                if let naga::ArraySize::Constant(n) = size {
                    size_bytes = Some(n.get() * stride);
                }
                "uniform-vec4-array".to_string()
            }
            (naga::AddressSpace::Storage { .. }, naga::TypeInner::Array { base, .. }) => {
                match &module.types[*base].inner {
                    naga::TypeInner::Scalar(_) => "storage-u32-array".to_string(),
                    naga::TypeInner::Atomic(_) => "storage-atomic-u32-array".to_string(),
                    // a typed buffer view: four 32-bit lanes per element, whatever the view's
                    // format ("converting from the view's format is the binding's")
                    naga::TypeInner::Vector { .. } => "storage-vec4-u32-array".to_string(),
                    naga::TypeInner::Struct { .. } => "storage-atomic-vec4-u32-array".to_string(),
                    other => return Err(format!("{name}: a storage array of {other:?}")),
                }
            }
            (naga::AddressSpace::Handle, naga::TypeInner::Sampler { comparison: true }) => {
                "sampler_comparison".to_string()
            }
            (naga::AddressSpace::Handle, naga::TypeInner::Sampler { comparison: false }) => {
                "sampler".to_string()
            }
            (
                naga::AddressSpace::Handle,
                naga::TypeInner::Image {
                    dim,
                    arrayed,
                    class,
                },
            ) => image_type(*dim, *arrayed, class),
            (space, other) => return Err(format!("{name}: a {other:?} in {space:?}")),
        };
        let stride = match &resource.kind {
            ResourceKind::Buffer(iridia::BufferKind::Structured { stride })
            | ResourceKind::Storage {
                target: iridia::StorageTarget::Buffer(iridia::BufferKind::Structured { stride }),
                ..
            } => Some(*stride),
            _ => None,
        };
        let mut b = json!({
            "kind": kind,
            "register": d3d.register,
            "group": rb.group,
            "binding": rb.binding,
            "layout": layout,
        });
        if let Some(s) = size_bytes {
            b["size_bytes"] = json!(s);
        }
        if let Some(s) = stride {
            b["stride"] = json!(s);
        }
        out.push(b);
    }
    Ok(Json::Array(out))
}

/// A texture or storage texture type as WGSL spells it (`texture_2d<f32>`).
fn image_type(dim: naga::ImageDimension, arrayed: bool, class: &naga::ImageClass) -> String {
    let dim = match dim {
        naga::ImageDimension::D1 => "1d",
        naga::ImageDimension::D2 => "2d",
        naga::ImageDimension::D3 => "3d",
        naga::ImageDimension::Cube => "cube",
    };
    let array = if arrayed { "_array" } else { "" };
    let scalar = |k: naga::ScalarKind| match k {
        naga::ScalarKind::Sint => "i32",
        naga::ScalarKind::Uint => "u32",
        _ => "f32",
    };
    match class {
        naga::ImageClass::Sampled { kind, multi: false } => {
            format!("texture_{dim}{array}<{}>", scalar(*kind))
        }
        naga::ImageClass::Sampled { kind, multi: true } => {
            format!("texture_multisampled_{dim}{array}<{}>", scalar(*kind))
        }
        naga::ImageClass::Depth { multi: false } => format!("texture_depth_{dim}{array}"),
        naga::ImageClass::Depth { multi: true } => format!("texture_depth_multisampled_{dim}"),
        naga::ImageClass::Storage { format, access } => {
            let format = format!("{format:?}").to_ascii_lowercase();
            let access = if access.contains(naga::StorageAccess::ATOMIC) {
                "atomic"
            } else if access.contains(naga::StorageAccess::LOAD | naga::StorageAccess::STORE) {
                "read_write"
            } else if access.contains(naga::StorageAccess::STORE) {
                "write"
            } else {
                "read"
            };
            format!("texture_storage_{dim}{array}<{format}, {access}>")
        }
        other => format!("{other:?}"),
    }
}
