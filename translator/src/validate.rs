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
/// Codes: `naga.parse`, `naga.invalid`, `naga.write`.
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
}

impl NagaError {
    /// A stable, machine-readable code for this kind of error.
    pub fn code(&self) -> &'static str {
        match self {
            NagaError::Parse { .. } => "naga.parse",
            NagaError::Invalid { .. } => "naga.invalid",
            NagaError::Write { .. } => "naga.write",
        }
    }

    /// Where in the source naga points, if it does.
    pub fn offset(&self) -> Option<usize> {
        match self {
            NagaError::Parse { offset, .. } | NagaError::Invalid { offset, .. } => *offset,
            NagaError::Write { .. } => None,
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
    let module = naga::front::wgsl::parse_str(wgsl).map_err(|e| NagaError::parse(&e, wgsl))?;
    Validator::new(ValidationFlags::all(), granted(enables))
        .validate(&module)
        .map_err(|e| NagaError::invalid(&e, wgsl))?;
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
}
