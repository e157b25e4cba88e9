//! The built-in DXBC → WGSL translator, dxdiff's default system under test.
//!
//! [`translate`] takes a shader decoded by the `dxbc` crate and returns a [`Translation`]: the
//! WGSL module, its binding [`Manifest`], and the catalog ids it relied on. The crate depends
//! only on `dxbc`, `naga` and serde; the `oracles` crate (reference interpreter, catalog) is a
//! dev-dependency of the tests and examples alone. Catalog ids are plain strings kept in one
//! private module, and a test checks each one exists in `oracles::catalog`.
//!
//! - **Profiles.** [`Profile::Contract`] follows the seed contract's lowering rules, their
//!   documented adaptations included; [`Profile::Exact`] emits D3D-exact polyfills wherever
//!   WGSL allows them. [`Profile::claims`] lists the catalog entries each profile may rely on;
//!   [`Translation::adaptations`] lists the ones one translation used.
//! - **Lowering.** A private `emit` module scans the declarations and builds a `naga::Module`
//!   directly ([`lower`]): bindings, typeless `vec4<u32>` registers, the body function `run`,
//!   the stage entry point, and the manifest; its submodules lower ALU operations, structured
//!   control flow, resources and memory, stage I/O and operands. The D3D-exact helper
//!   functions are WGSL files of their own under `emit/polyfills/`, parsed once per process
//!   and copied into each module that calls them. Pixel, vertex and compute programs are
//!   lowered; geometry, hull and domain programs are rejected.
//! - **Manifest.** [`manifest`] is the schema the harness feeds a program from, shared with
//!   external translators (docs/manifest.md); [`Manifest::check`] holds it to D3D11's limits.
//! - **Validation and writing.** [`finish`] passes every module through naga's validator with
//!   the capabilities a wgpu Vulkan device grants ([`validate_module`]), then writes it with
//!   naga's WGSL back end ([`write`]): the text is never parsed again, so what naga judged is
//!   what was written (docs/translator.md, "Lowering to naga IR"). [`translate`] is both steps;
//!   a module naga refuses becomes a rejection. [`NagaError`] documents the one policy for
//!   modules and WGSL that naga rejects, wherever dxdiff runs it.
//! - **Rejections.** The translator fails closed: what it cannot lower faithfully is a
//!   [`Rejection`] with a catalog id, the reason, and the instruction to blame where there is
//!   one. [`translate_blob`] adds malformed containers, as [`TranslateError`].
//! - **Planted bugs.** [`PlantedBug`] lists wrong lowerings a test can switch on to prove the
//!   harness and the fuzzer catch them.

#![deny(missing_docs)]

pub mod compat;
mod emit;
pub use emit::Emitted;
pub mod manifest;
mod names;
mod validate;

use std::fmt;

use dxbc::Shader;
use serde::{Deserialize, Serialize};

pub use manifest::Manifest;
pub use validate::{
    MAX_FUNCTIONS, MAX_INVOCATION_BYTES, MAX_WORKGROUP_BYTES, Memory, NagaError, enable_capability,
    memory, validate, validate_enabling, validate_lowering, validate_module,
};

/// Wrong lowerings a test can plant (through `DXDIFF_PLANT_BUG=<name>`) to prove the harness
/// and the fuzzer catch them. Never set in normal use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlantedBug {
    /// `udiv` without its divide-by-zero guard.
    UdivWithoutZeroGuard,
    /// `ne` through WGSL `!=`, an ordered compare: false where an operand is NaN.
    NeOrdered,
    /// `ishr` lowered as a logical shift.
    IshrAsUshr,
    /// A replicated source swizzle (`.yyyy`) read as the identity (`.xyzw`).
    ReplicateSwizzleIgnored,
    /// A dynamically indexed constant-buffer read without its bounds check (D3D reads 0 past
    /// the declared size).
    CbIndexUnguarded,
    /// The exact profile's `ftoi` with its NaN case taken by the plain WGSL conversion
    /// (D3D gives 0; WGSL's `i32()` of a NaN is indeterminate).
    FtoiWithoutNanSelect,
    /// A 2D-array sample's layer truncated (`i32(layer)`) instead of rounded to nearest even.
    ArrayLayerTruncated,
    /// `deriv_rtx_coarse`/`deriv_rty_coarse` lowered as the fine derivatives.
    CoarseAsFine,
    /// A 3D `ld_aoffimmi`'s w offset dropped (the slice left where it was), as a reading of
    /// the `ld` page that stops at 2D would.
    LdVolumeOffsetDropped,
    /// A typed UAV texture array's layer read as 0 (the address's layer component dropped).
    UavLayerDropped,
    /// A UNORM typed UAV texture declared `rgba8snorm`: a view D3D cannot give the program.
    UavUnormAsSnorm,
    /// `dfma` as `dmul` then `dadd`: a double rounded once too often.
    DfmaRoundedTwice,
    /// A cube array sampled at its first cube whatever w selects.
    CubeIndexDropped,
    /// `ldms` reading sample 0 whatever its sample index.
    SampleIndexDropped,
    /// `fcall` running the first table's body whatever table the slot binds.
    FcallFirstTable,
    /// Clip distances written to `clip_distances` in reverse component order.
    ClipDistancesReversed,
    /// An append/consume counter that never moves: `imm_atomic_alloc` and `consume` return
    /// its value and leave it.
    CounterNeverMoves,
    /// `eval_snapped`'s offsets read as unsigned 4-bit values (0 to 15 sixteenths) instead of
    /// signed ones.
    EvalOffsetUnsigned,
}

impl PlantedBug {
    /// Every bug that can be planted, for tests that try each.
    pub const ALL: [PlantedBug; 18] = [
        PlantedBug::UdivWithoutZeroGuard,
        PlantedBug::NeOrdered,
        PlantedBug::IshrAsUshr,
        PlantedBug::ReplicateSwizzleIgnored,
        PlantedBug::CbIndexUnguarded,
        PlantedBug::FtoiWithoutNanSelect,
        PlantedBug::ArrayLayerTruncated,
        PlantedBug::CoarseAsFine,
        PlantedBug::LdVolumeOffsetDropped,
        PlantedBug::UavLayerDropped,
        PlantedBug::UavUnormAsSnorm,
        PlantedBug::DfmaRoundedTwice,
        PlantedBug::CubeIndexDropped,
        PlantedBug::SampleIndexDropped,
        PlantedBug::FcallFirstTable,
        PlantedBug::ClipDistancesReversed,
        PlantedBug::CounterNeverMoves,
        PlantedBug::EvalOffsetUnsigned,
    ];

    /// The value of `DXDIFF_PLANT_BUG` that plants it.
    pub fn name(self) -> &'static str {
        match self {
            PlantedBug::UdivWithoutZeroGuard => "udiv-without-zero-guard",
            PlantedBug::NeOrdered => "ne-ordered",
            PlantedBug::IshrAsUshr => "ishr-as-ushr",
            PlantedBug::ReplicateSwizzleIgnored => "replicate-swizzle-ignored",
            PlantedBug::CbIndexUnguarded => "cb-index-unguarded",
            PlantedBug::FtoiWithoutNanSelect => "ftoi-without-nan-select",
            PlantedBug::ArrayLayerTruncated => "array-layer-truncated",
            PlantedBug::CoarseAsFine => "coarse-as-fine",
            PlantedBug::LdVolumeOffsetDropped => "ld-volume-offset-dropped",
            PlantedBug::UavLayerDropped => "uav-layer-dropped",
            PlantedBug::UavUnormAsSnorm => "uav-unorm-as-snorm",
            PlantedBug::DfmaRoundedTwice => "dfma-rounded-twice",
            PlantedBug::CubeIndexDropped => "cube-index-dropped",
            PlantedBug::SampleIndexDropped => "sample-index-dropped",
            PlantedBug::FcallFirstTable => "fcall-first-table",
            PlantedBug::ClipDistancesReversed => "clip-distances-reversed",
            PlantedBug::CounterNeverMoves => "counter-never-moves",
            PlantedBug::EvalOffsetUnsigned => "eval-offset-unsigned",
        }
    }
}

/// Whether a test planted this bug.
pub(crate) fn planted(bug: PlantedBug) -> bool {
    // Read once: the check sits on the hot path (every swizzled source component), and an
    // environment lookup per call took a lock and a scan.
    static PLANTED: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    PLANTED
        .get_or_init(|| std::env::var("DXDIFF_PLANT_BUG").ok())
        .as_deref()
        == Some(bug.name())
}

/// Which lowering the translator applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Profile {
    /// The seed contract's documented lowering, its adaptations included.
    #[default]
    Contract,
    /// D3D-exact polyfills wherever WGSL allows them.
    Exact,
}

impl Profile {
    /// The profile named `contract` or `exact`; `None` for any other name.
    pub fn parse(s: &str) -> Option<Profile> {
        match s {
            "contract" => Some(Profile::Contract),
            "exact" => Some(Profile::Exact),
            _ => None,
        }
    }

    /// The catalog entries a translation with this profile may rely on (the oracle accepts a
    /// difference only under one of these). Individual translations list the subset they used.
    pub fn claims(self) -> &'static [&'static str] {
        match self {
            Profile::Contract => emit::CONTRACT_CLAIMS,
            Profile::Exact => emit::EXACT_CLAIMS,
        }
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Profile::Contract => "contract",
            Profile::Exact => "exact",
        })
    }
}

/// A translated program.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Translation {
    /// The emitted WGSL module.
    pub wgsl: String,
    /// Where each DXBC register and resource sits in that module, for the harness to feed it.
    pub manifest: Manifest,
    /// The catalog ids this translation relied on, sorted.
    pub adaptations: Vec<String>,
    /// Why the wgpu executor cannot run this valid module: naga cannot read a construct the
    /// spec allows, which Tint accepts. `None` for every module naga reads.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub naga_unreadable: Option<String>,
}

/// A fail-closed answer: the program is outside what the translator lowers faithfully.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("rejected{}: {reason} [{catalog_id}]", instruction.map(|i| format!(" at instruction {i}")).unwrap_or_default())]
pub struct Rejection {
    /// Why the program is rejected (possibly several lines).
    pub reason: String,
    /// Index into the program's instructions, when one instruction is to blame.
    pub instruction: Option<usize>,
    /// That instruction's mnemonic.
    pub opcode: Option<String>,
    /// The catalog entry the rejection falls under.
    pub catalog_id: String,
}

impl Rejection {
    pub(crate) fn new(catalog_id: &str, reason: impl Into<String>) -> Rejection {
        Rejection {
            reason: reason.into(),
            instruction: None,
            opcode: None,
            catalog_id: catalog_id.to_string(),
        }
    }
}

/// Translate a decoded shader (its signatures give the stage I/O types): [`lower`] it to naga
/// IR, then [`finish`] it (naga validates the module and writes its WGSL). A module naga
/// refuses is a rejection here; the harness, which can report it, calls it a crash.
pub fn translate(shader: &Shader, profile: Profile) -> Result<Translation, Rejection> {
    finish(lower(shader, profile)?).map_err(|e| {
        Rejection::new(
            names::NOT_LOWERED,
            format!("naga rejects the emitted module: {e}"),
        )
    })
}

/// Lower a program to naga IR, neither validated nor written: the translator's own part of
/// [`translate`], as `dxdiff bench` times it beside vkd3d-shader's DXBC → SPIR-V.
pub fn lower(shader: &Shader, profile: Profile) -> Result<Emitted, Rejection> {
    emit::emit(&shader.program, &shader.signatures, profile).map_err(emit::Rejection::open)
}

/// Validate a lowered module with naga (granting the capabilities its manifest enables) and
/// write it as WGSL with naga's back end, after the header naga's IR does not carry. The WGSL
/// is never parsed again here: the module it is written from is what naga judged.
pub fn finish(mut e: Emitted) -> Result<Translation, NagaError> {
    let info = validate::validate_module(&e.module, &e.manifest.enables)?;
    let wgsl = write(&e, &info)?;
    Ok(Translation {
        wgsl,
        manifest: std::mem::take(&mut e.manifest),
        adaptations: e.adaptations.iter().map(|s| s.to_string()).collect(),
        naga_unreadable: None,
    })
}

/// The WGSL of a validated module: its header, then naga's writing of the IR, written after
/// it into the same string (not written apart and copied behind it).
pub fn write(e: &Emitted, info: &naga::valid::ModuleInfo) -> Result<String, NagaError> {
    let mut w =
        naga::back::wgsl::Writer::new(e.header.clone(), naga::back::wgsl::WriterFlags::empty());
    w.write(&e.module, info).map_err(|err| NagaError::Write {
        message: err.to_string(),
    })?;
    Ok(w.finish())
}

/// Translate a container's bytes.
pub fn translate_blob(blob: &[u8], profile: Profile) -> Result<Translation, TranslateError> {
    let shader = Shader::parse(blob).map_err(TranslateError::Malformed)?;
    translate(&shader, profile).map_err(TranslateError::Rejected)
}

/// Why a blob produced no WGSL. Codes: `translate.malformed`, `translate.rejected`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TranslateError {
    /// The container does not decode as DXBC (`translate.malformed`).
    #[error("malformed DXBC: [{code}] {0}", code = .0.code())]
    Malformed(dxbc::DxbcError),
    /// The translator rejected the program (`translate.rejected`).
    #[error("{0}")]
    Rejected(Rejection),
}

impl TranslateError {
    /// A stable, machine-readable code for this kind of error.
    pub fn code(&self) -> &'static str {
        match self {
            TranslateError::Malformed(_) => "translate.malformed",
            TranslateError::Rejected(_) => "translate.rejected",
        }
    }
}

#[cfg(test)]
mod error_tests {
    use super::*;

    #[test]
    fn translate_error_codes_are_distinct_and_not_empty() {
        let all = [
            TranslateError::Malformed(dxbc::DxbcError::MissingChunk { tag: "SHEX".into() }),
            TranslateError::Rejected(Rejection::new(names::NOT_LOWERED, "x".to_string())),
        ];
        assert_ne!(all[0].code(), all[1].code());
        assert!(all.iter().all(|e| !e.code().is_empty()));
    }
}
