//! naga validation of emitted WGSL, with the capabilities a wgpu Vulkan device grants without
//! optional features: naga's defaults plus `SHADER_FLOAT16_IN_FLOAT32` (the `pack2x16float`
//! family), which wgpu enables on every Vulkan adapter. A program that needs more is rejected.

use naga::valid::{Capabilities, ValidationFlags, Validator};

/// What the validator is allowed to assume.
pub fn capabilities() -> Capabilities {
    Capabilities::default() | Capabilities::SHADER_FLOAT16_IN_FLOAT32
}

/// The naga capability a WGSL `enable` extension needs, by its WGSL name (naga's own table);
/// `None` for a name naga does not implement.
pub fn enable_capability(name: &str) -> Option<Capabilities> {
    use naga::front::wgsl::{EnableExtension, ImplementedEnableExtension};
    ImplementedEnableExtension::all()
        .iter()
        .find(|e| EnableExtension::Implemented(**e).to_ident() == name)
        .map(|e| e.capability())
}

/// [`capabilities`] and those of the `enable` extensions a manifest declares.
fn granted(enables: &[String]) -> Capabilities {
    enables
        .iter()
        .filter_map(|e| enable_capability(e))
        .fold(capabilities(), |a, c| a | c)
}

/// naga refused a module: its text does not parse, it does not validate, or it cannot be
/// written back as WGSL. Every place dxdiff runs naga reports through this one type, so the
/// message is naga's own and the byte offset is kept where naga gives one.
///
/// **WGSL that naga rejects follows one policy**, decided by whose output naga judged:
/// - a translator's WGSL (the built-in one, a `cmd:` translator, vkd3d through its adapter) is
///   a *translator crash* (`translator.crash`, skip `translator-crash`): a translator that
///   emits invalid WGSL has a bug, and the device never sees the module
///   (`harness::translators::invalid_wgsl` is the one mapping);
/// - naga failing inside the vkd3d adapter's own SPIR-V → WGSL route is that route's
///   rejection `dxdiff/refused` (it cannot lower the program; docs/vkd3d.md counts them);
/// - dxdiff's own rewrite of valid WGSL (the compute wrapper of pixel and vertex programs)
///   failing naga is a `wrap` skip: dxdiff's limitation, never blamed on the translator;
/// - [`crate::translate`], the library call with no crash outcome, rejects under the same
///   `dxdiff/not-lowered`.
///
/// Codes: `naga.parse`, `naga.invalid`, `naga.write`, `naga.too-large`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NagaError {
    /// The front end (WGSL or SPIR-V) refused the input.
    #[error("{message}")]
    Parse {
        /// naga's message, rendered against the source.
        message: String,
        /// Byte offset into the source, where naga points at one.
        offset: Option<usize>,
    },
    /// The validator refused the module.
    #[error("{message}")]
    Invalid {
        /// naga's message, rendered against the source.
        message: String,
        /// Byte offset into the source, where naga points at one.
        offset: Option<usize>,
    },
    /// The WGSL writer cannot express the module.
    #[error("{message}")]
    Write {
        /// naga's message.
        message: String,
    },
    /// The module asks for more than any translation of a Direct3D program needs, and reading
    /// or running it would cost more than a run can give ([`MAX_FUNCTIONS`],
    /// [`MAX_INVOCATION_BYTES`], [`MAX_WORKGROUP_BYTES`]).
    #[error("{message}")]
    TooLarge {
        /// What it asks for, and the bound.
        message: String,
    },
}

/// Most `fn` declarations a module may have before naga reads it. naga's WGSL front end
/// compacts a module in time quadratic in its functions (200,000 empty ones: over three
/// minutes, outside any translator's timeout); 16,384 cost about a second. A translation needs
/// one per subroutine body, label and helper, and fxc writes a few dozen at most.
pub const MAX_FUNCTIONS: usize = 16_384;

/// Most bytes of `private` and `function` memory one invocation may ask for: 1 MiB, four times
/// all a Direct3D 11 program can index (4,096 temps, 4,096 indexable-temp registers and 4,096
/// immediate-constant registers, 16 bytes each). No WebGPU limit bounds it, and a device
/// backs it per invocation: a 1 GiB `var<private>` took a lavapipe worker to 8 GB.
pub const MAX_INVOCATION_BYTES: u64 = 1 << 20;

/// Most bytes of `workgroup` memory a module may declare: 64 KiB, twice Direct3D 11's 32 KiB
/// of groupshared memory, and at or above what any WebGPU device offers
/// (`maxComputeWorkgroupStorageSize`: 16 KiB by default, 32 KiB on most, 48 KiB on NVIDIA).
/// A 64 MiB `var<workgroup>` took a lavapipe worker to gigabytes before anything refused it.
pub const MAX_WORKGROUP_BYTES: u64 = 1 << 16;

/// The `fn` declarations of `wgsl`, counted on its text (a comment may add to the count, which
/// only matters past [`MAX_FUNCTIONS`]).
fn functions_declared(wgsl: &str) -> usize {
    let b = wgsl.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    (0..b.len().saturating_sub(2))
        .filter(|&i| {
            b[i] == b'f'
                && b[i + 1] == b'n'
                && b[i + 2].is_ascii_whitespace()
                && (i == 0 || !ident(b[i - 1]))
        })
        .count()
}

/// The memory a module asks for, in bytes: what [`MAX_INVOCATION_BYTES`] and
/// [`MAX_WORKGROUP_BYTES`] bound, and what an executor checks against its device.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Memory {
    /// `private` and `function` memory one invocation may hold at once: every private global,
    /// and every function's locals as if all were live.
    pub invocation: u64,
    /// `workgroup` memory.
    pub workgroup: u64,
}

/// The [`Memory`] of `module`, with its types laid out once.
pub fn memory(module: &naga::Module) -> Result<Memory, String> {
    let mut layouter = naga::proc::Layouter::default();
    layouter
        .update(module.to_ctx())
        .map_err(|e| format!("its types cannot be laid out: {e}"))?;
    let size = |ty: naga::Handle<naga::Type>| u64::from(layouter[ty].size);
    let globals = |space: naga::AddressSpace| -> u64 {
        module
            .global_variables
            .iter()
            .filter(|(_, g)| g.space == space)
            .map(|(_, g)| size(g.ty))
            .sum()
    };
    let locals =
        |f: &naga::Function| -> u64 { f.local_variables.iter().map(|(_, v)| size(v.ty)).sum() };
    let functions: u64 = module.functions.iter().map(|(_, f)| locals(f)).sum::<u64>()
        + module
            .entry_points
            .iter()
            .map(|e| locals(&e.function))
            .sum::<u64>();
    Ok(Memory {
        invocation: globals(naga::AddressSpace::Private) + functions,
        workgroup: globals(naga::AddressSpace::WorkGroup),
    })
}

impl NagaError {
    /// A stable, machine-readable code for this kind of error.
    pub fn code(&self) -> &'static str {
        match self {
            NagaError::Parse { .. } => "naga.parse",
            NagaError::Invalid { .. } => "naga.invalid",
            NagaError::Write { .. } => "naga.write",
            NagaError::TooLarge { .. } => "naga.too-large",
        }
    }

    /// Where in the source naga points, if it does.
    pub fn offset(&self) -> Option<usize> {
        match self {
            NagaError::Parse { offset, .. } | NagaError::Invalid { offset, .. } => *offset,
            NagaError::Write { .. } | NagaError::TooLarge { .. } => None,
        }
    }

    /// A WGSL parse error, rendered against `source` as naga renders it.
    pub fn parse(e: &naga::front::wgsl::ParseError, source: &str) -> NagaError {
        NagaError::Parse {
            message: e.emit_to_string(source),
            offset: e.location(source).map(|l| l.offset as usize),
        }
    }

    /// A validation error, rendered against `source` as naga renders it.
    pub fn invalid(e: &naga::WithSpan<naga::valid::ValidationError>, source: &str) -> NagaError {
        NagaError::Invalid {
            message: e.emit_to_string(source),
            offset: e.location(source).map(|l| l.offset as usize),
        }
    }
}

/// Parse and validate; the error names what naga objected to.
pub fn validate(wgsl: &str) -> Result<naga::Module, NagaError> {
    validate_enabling(wgsl, &[])
}

/// [`validate`], granting also the capabilities of the `enable` extensions a manifest
/// declares (`Manifest::enables`). An extension the WGSL uses without declaring it is still
/// refused: the manifest is how the harness learns what a module needs. A name naga does not
/// know grants nothing (the WGSL's own `enable` then fails to parse, with naga's message).
pub fn validate_enabling(wgsl: &str, enables: &[String]) -> Result<naga::Module, NagaError> {
    let functions = functions_declared(wgsl);
    if functions > MAX_FUNCTIONS {
        return Err(NagaError::TooLarge {
            message: format!(
                "it declares {functions} functions, more than the {MAX_FUNCTIONS} a translation needs (not read: naga's time grows with their square)"
            ),
        });
    }
    let module = naga::front::wgsl::parse_str(wgsl).map_err(|e| NagaError::parse(&e, wgsl))?;
    Validator::new(ValidationFlags::all(), granted(enables))
        .validate(&module)
        .map_err(|e| NagaError::invalid(&e, wgsl))?;
    let Memory {
        invocation: bytes,
        workgroup: shared,
    } = memory(&module).map_err(|message| NagaError::TooLarge { message })?;
    if bytes > MAX_INVOCATION_BYTES {
        return Err(NagaError::TooLarge {
            message: format!(
                "one invocation asks for {bytes} bytes of private and function memory, more than the {MAX_INVOCATION_BYTES} a translation needs"
            ),
        });
    }
    if shared > MAX_WORKGROUP_BYTES {
        return Err(NagaError::TooLarge {
            message: format!(
                "it declares {shared} bytes of workgroup memory, more than the {MAX_WORKGROUP_BYTES} a translation needs"
            ),
        });
    }
    Ok(module)
}

/// [`validate_enabling`] of the WGSL as the spec reads it: a module naga refuses is validated
/// again after [`crate::compat::for_naga`] lowers the spec constructs naga lacks, and is valid
/// when that passes. Returns what was lowered. The error is naga's on the lowered text when
/// something was lowered (what is left once naga can read the module), else on the text as
/// written.
pub fn validate_lowering(
    wgsl: &str,
    enables: &[String],
) -> Result<Vec<crate::compat::Lowered>, NagaError> {
    let first = match validate_enabling(wgsl, enables) {
        Ok(_) => return Ok(Vec::new()),
        // No lowering makes a module smaller.
        Err(e @ NagaError::TooLarge { .. }) => return Err(e),
        Err(e) => e,
    };
    let (text, lowered) = crate::compat::for_naga(wgsl);
    if lowered.is_empty() {
        return Err(first);
    }
    validate_enabling(&text, enables)?;
    Ok(lowered)
}

/// Validate a module built in memory, granting the capabilities of the `enable` extensions
/// a manifest declares, as [`validate_enabling`] does for text.
pub fn validate_module(
    module: &naga::Module,
    enables: &[String],
) -> Result<naga::valid::ModuleInfo, NagaError> {
    Validator::new(ValidationFlags::all(), granted(enables))
        .validate(module)
        .map_err(|e| NagaError::Invalid {
            message: e.emit_to_string(""),
            offset: None,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_distinct_and_not_empty() {
        let all = [
            NagaError::Parse {
                message: "m".into(),
                offset: None,
            },
            NagaError::Invalid {
                message: "m".into(),
                offset: Some(1),
            },
            NagaError::Write {
                message: "m".into(),
            },
        ];
        let codes: std::collections::BTreeSet<_> = all.iter().map(NagaError::code).collect();
        assert_eq!(codes.len(), all.len());
        assert!(codes.iter().all(|c| !c.is_empty()));
    }

    #[test]
    fn rejections_keep_the_message_and_offset() {
        let e = validate("fn f() { let x: u32 = ; }").expect_err("does not parse");
        assert_eq!(e.code(), "naga.parse");
        assert!(e.offset().is_some());
        // f64 needs a capability a Vulkan device does not grant by default.
        let e = validate("fn f() -> f64 { return 1.0lf; }").expect_err("does not validate");
        assert_eq!(e.code(), "naga.invalid");
        assert!(!e.to_string().is_empty());
    }

    #[test]
    fn declared_enables_grant_their_capability_and_only_theirs() {
        let src = "enable primitive_index;\n@fragment fn main(@builtin(primitive_index) p: u32) -> @location(0) vec4<u32> { return vec4<u32>(p); }";
        let e = validate(src).expect_err("undeclared");
        assert_eq!(e.code(), "naga.invalid");
        validate_enabling(src, &["primitive_index".into()]).expect("declared");
        let e = validate_enabling(src, &["f16".into()]).expect_err("another one");
        assert_eq!(e.code(), "naga.invalid");
        assert!(enable_capability("clip_distances").is_some());
        assert!(enable_capability("no_such_thing").is_none());
    }

    /// Each bound refuses a module just past it, quickly, and takes one just inside it.
    #[test]
    fn modules_past_what_a_translation_needs_are_refused_before_they_cost() {
        let kernel = |decl: &str, body: &str| {
            format!(
                "{decl}\n@group(0) @binding(0) var<storage, read_write> o: array<u32>;\n@compute @workgroup_size(1) fn main(@builtin(local_invocation_index) i: u32) {{ {body} }}\n"
            )
        };
        let too_large = |wgsl: &str| match validate(wgsl) {
            Err(e @ NagaError::TooLarge { .. }) => e.to_string(),
            other => panic!("not refused as too large: {other:?}"),
        };
        // Workgroup memory: 64 KiB is the bound.
        let wg = |n: u64| {
            kernel(
                &format!("var<workgroup> w: array<u32, {n}>;"),
                "w[i] = 1u; o[0] = w[0];",
            )
        };
        assert!(validate(&wg(MAX_WORKGROUP_BYTES / 4)).is_ok());
        assert!(too_large(&wg(MAX_WORKGROUP_BYTES / 4 + 1)).contains("workgroup memory"));
        // Private and function memory per invocation: 1 MiB together.
        let half = MAX_INVOCATION_BYTES / 8;
        let pv = |local: u64| {
            kernel(
                &format!("var<private> p: array<u32, {half}>;"),
                &format!("var l: array<u32, {local}>; p[i] = 1u; l[i] = p[0]; o[0] = l[0];"),
            )
        };
        assert!(validate(&pv(half)).is_ok());
        assert!(too_large(&pv(half + 1)).contains("private and function memory"));
        // Functions: counted before naga reads the text.
        let many = |n: usize| {
            let fns: String = (0..n).map(|k| format!("fn f{k}() {{}}\n")).collect();
            fns + &kernel("", "o[0] = 1u;")
        };
        assert!(validate(&many(MAX_FUNCTIONS - 1)).is_ok());
        let started = std::time::Instant::now();
        assert!(too_large(&many(200_000)).contains("200001 functions"));
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
        assert_eq!(
            NagaError::TooLarge {
                message: String::new()
            }
            .code(),
            "naga.too-large"
        );
    }
}
