//! The translator under test, as one trait with three implementations: the built-in
//! translator ([`Builtin`]), any external command that speaks the protocol of
//! docs/translators.md ([`External`], `cmd:<command line>`), and vkd3d-shader ([`Vkd3d`], run
//! behind the same protocol in a child).
//!
//! A translation either succeeds (WGSL that naga validates, a binding manifest, the catalog
//! ids relied on), is a fail-closed rejection naming a catalog id, or is a translator crash: a
//! non-zero exit, a timeout, output that is not the protocol's JSON, or WGSL that does not
//! validate. A crash is an outcome with the translator's stderr; it never stops a run.
//!
//! The translator role is a crate of its own because the compiler can hold its line: a
//! translator names the executors (Chrome's Tint gate, the WGSL enables the GPU needs) and
//! never a session, a campaign or the command line (docs/architecture.md).

#![deny(missing_docs)]

mod builtin;
pub mod dxbc_spirv;
mod external;
pub mod guard;
pub mod pipes;
mod serve;
pub mod spirv;
pub mod vkd3d;
pub mod wgsl;

use std::any::Any;
use std::sync::Arc;
use std::time::Duration;

pub use builtin::Builtin;
pub use dxbc_spirv::DxbcSpirv;
pub use external::{External, run_process};
pub use serve::Serve;
pub use vkd3d::Vkd3d;

use translator::{Profile, Translation};

/// Default time an external translator gets per program.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// A translator under test.
pub trait Translator: Send + Sync + std::fmt::Debug {
    /// How reports name it: `builtin/contract`, `cmd:<line>`, `vkd3d`.
    fn name(&self) -> String;

    /// Translate one program (`blob` is its container, `shader` the decoded form).
    fn translate(&self, blob: &[u8], shader: &dxbc::Shader) -> Result<Translation, Failure>;

    /// The parts of a translation `dxdiff bench` times separately, in order. By default one
    /// part, the whole translation.
    fn parts(&self) -> Vec<Part<'_>> {
        vec![Part {
            name: "whole",
            setup: Box::new(|blob| {
                let shader = dxbc::Shader::parse(blob).ok()?;
                Some(Box::new((blob.to_vec(), shader)) as Box<dyn Any>)
            }),
            run: Box::new(move |input| {
                if let Some((blob, shader)) = input.downcast_ref::<(Vec<u8>, dxbc::Shader)>() {
                    let _ = self.translate(blob, shader);
                }
            }),
        }]
    }
}

/// The translator under test, shared by the threads that translate.
pub type Shared = Arc<dyn Translator>;

/// One separately timed part of a translation: `setup` turns a program into the part's input
/// (not timed; `None` leaves the program out of this part), `run` is the work timed.
pub struct Part<'a> {
    /// The part's column in `dxdiff bench`'s table.
    pub name: &'static str,
    /// Prepares a program for this part, outside the timing.
    pub setup: Setup<'a>,
    /// The timed work.
    pub run: Work<'a>,
}

/// A part's untimed preparation of one program.
pub type Setup<'a> = Box<dyn Fn(&[u8]) -> Option<Box<dyn Any>> + 'a>;
/// A part's timed work on one prepared input.
pub type Work<'a> = Box<dyn Fn(&dyn Any) + 'a>;

impl std::fmt::Debug for Part<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Part").field("name", &self.name).finish()
    }
}

/// Why a program has no translation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Failure {
    /// A fail-closed refusal: the translator knows it cannot translate this program exactly.
    #[error("rejected by the translator [{catalog_id}]: {reason}")]
    Rejected {
        /// The adaptation catalog entry that says why.
        catalog_id: String,
        /// The translator's own words.
        reason: String,
        /// The index of the offending instruction, when the translator names one.
        instruction: Option<usize>,
    },
    /// A non-zero exit, a timeout, output that is not the protocol's JSON, or invalid WGSL.
    #[error("translator crash: {why}{}", if stderr.is_empty() { String::new() } else { format!(" (stderr: {})", stderr.trim()) })]
    Crashed {
        /// What went wrong.
        why: String,
        /// The tail of the translator's stderr (at most 4 KiB).
        stderr: String,
    },
}

impl Failure {
    /// A stable code for reports.
    pub fn code(&self) -> &'static str {
        match self {
            Failure::Rejected { .. } => "translator.rejected",
            Failure::Crashed { .. } => "translator.crash",
        }
    }

    /// The skip a program gets for this failure: `rejected` (with its catalog id) or
    /// `translator-crash`.
    pub fn skip(&self) -> oracles::verdict::Skip {
        use oracles::verdict::{Skip, SkipKind};
        match self {
            // The instruction index says where, as `translate` does.
            Failure::Rejected {
                catalog_id,
                reason,
                instruction,
            } => {
                let at = instruction.map_or(String::new(), |i| format!(" (instruction {i})"));
                Skip::new(SkipKind::Rejected, format!("[{catalog_id}] {reason}{at}"))
            }
            Failure::Crashed { .. } => Skip::new(SkipKind::TranslatorCrash, self.to_string()),
        }
    }
}

/// A crash with the tail of the translator's stderr.
pub(crate) fn crash(why: impl Into<String>, stderr: &[u8]) -> Failure {
    let text = String::from_utf8_lossy(stderr);
    let start = text.len().saturating_sub(pipes::STDERR_KEPT);
    let start = (start..text.len())
        .find(|i| text.is_char_boundary(*i))
        .unwrap_or(text.len());
    // What a translator says is shown on terminals and in reports: nothing in it may act
    // there (reports::text).
    Failure::Crashed {
        why: reports::text::printable(&why.into()),
        stderr: reports::text::printable(&text[start..]),
    }
}

/// The one mapping of a translator's WGSL that naga rejects: a translator crash (the policy is
/// stated at [`translator::NagaError`]).
pub(crate) fn invalid_wgsl(e: &translator::NagaError, stderr: &[u8]) -> Failure {
    crash(format!("its WGSL does not validate: {e}"), stderr)
}

/// What makes two failures one: the reason's message lines, all of them (a validation error's
/// first line names the entry point, its note says what is wrong with it), without the source
/// excerpt a WGSL error quotes or a stack trace's frames, with numbers (offsets, sizes, exit
/// statuses, line numbers) and quoted names blanked, so that one translator bug met at
/// different places is one class and two different bugs are two.
pub fn reason_class(reason: &str) -> String {
    let excerpt = |l: &str| {
        let t = l.trim_start();
        t.is_empty()
            || ['│', '┌', '└', '^'].iter().any(|c| t.starts_with(*c))
            || t.starts_with("at ")
            || t.starts_with("stack backtrace")
            || t.split_once(':')
                .is_some_and(|(n, _)| n.trim().parse::<u32>().is_ok())
            || t.split_once('│')
                .is_some_and(|(n, _)| n.trim().parse::<u32>().is_ok())
    };
    let message: Vec<&str> = reason
        .lines()
        .filter(|l| !excerpt(l))
        .map(str::trim)
        .collect();
    let mut class = String::new();
    let mut quoted = false;
    for c in message.join(" / ").chars() {
        match c {
            '`' | '"' | '\'' => {
                quoted = !quoted;
                class.push('…');
            }
            _ if quoted => {}
            '0'..='9' => {
                if !class.ends_with('#') {
                    class.push('#');
                }
            }
            c => class.push(c),
        }
    }
    class.truncate(
        class
            .char_indices()
            .nth(400)
            .map_or(class.len(), |(i, _)| i),
    );
    class.trim().to_string()
}

/// Why `--translator` (with `--profile`) names no translator. Codes: `spec.unknown-profile`,
/// `spec.empty-command`, `spec.unknown`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// `--profile` is neither `contract` nor `exact`.
    #[error("unknown profile `{0}` (contract or exact)")]
    UnknownProfile(String),
    /// `cmd:`, `serve:` or `dxbc-spirv:` with nothing after it.
    #[error("`cmd:` and `serve:` need a command line, `dxbc-spirv:` a driver")]
    EmptyCommand,
    /// Not `builtin`, `vkd3d`, `cmd:…` or `serve:…`.
    #[error(
        "unknown translator `{0}` (builtin, vkd3d, dxbc-spirv[:DRIVER], cmd:<command line> or serve:<command line>)"
    )]
    Unknown(String),
}

impl SpecError {
    /// A stable, machine-readable code for this kind of error.
    pub fn code(&self) -> &'static str {
        match self {
            SpecError::UnknownProfile(_) => "spec.unknown-profile",
            SpecError::EmptyCommand => "spec.empty-command",
            SpecError::Unknown(_) => "spec.unknown",
        }
    }
}

/// `builtin` (with `profile`), `vkd3d`, `dxbc-spirv[:DRIVER]`, `cmd:<command line>` or
/// `serve:<command line>`.
pub fn parse(spec: &str, profile: &str, timeout: Duration) -> Result<Shared, SpecError> {
    if spec == "builtin" {
        return Profile::parse(profile)
            .map(|p| Arc::new(Builtin(p)) as Shared)
            .ok_or_else(|| SpecError::UnknownProfile(profile.to_string()));
    }
    if spec == "vkd3d" {
        return Ok(Arc::new(Vkd3d { timeout }));
    }
    if spec == "dxbc-spirv" {
        return Ok(Arc::new(DxbcSpirv::new(
            DxbcSpirv::default_driver(),
            timeout,
        )));
    }
    if let Some(driver) = spec.strip_prefix("dxbc-spirv:") {
        if driver.trim().is_empty() {
            return Err(SpecError::EmptyCommand);
        }
        return Ok(Arc::new(DxbcSpirv::new(driver.into(), timeout)));
    }
    if let Some(line) = spec.strip_prefix("cmd:") {
        if line.trim().is_empty() {
            return Err(SpecError::EmptyCommand);
        }
        return Ok(Arc::new(External {
            line: line.to_string(),
            timeout,
        }));
    }
    if let Some(line) = spec.strip_prefix("serve:") {
        if line.trim().is_empty() {
            return Err(SpecError::EmptyCommand);
        }
        return Ok(Arc::new(Serve::new(line.to_string(), timeout)));
    }
    Err(SpecError::Unknown(spec.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_to_named_translators() {
        let t = parse("builtin", "exact", DEFAULT_TIMEOUT).expect("builtin");
        assert_eq!(t.name(), "builtin/exact");
        assert_eq!(
            parse("cmd:my-tool --x", "contract", DEFAULT_TIMEOUT)
                .expect("cmd")
                .name(),
            "cmd:my-tool --x"
        );
        assert_eq!(
            parse("vkd3d", "contract", DEFAULT_TIMEOUT)
                .expect("vkd3d")
                .name(),
            "vkd3d"
        );
        let codes: std::collections::BTreeSet<_> = [
            ("cmd:  ", "contract"),
            ("builtin", "loose"),
            ("nonsense", "contract"),
        ]
        .iter()
        .map(|(s, p)| parse(s, p, DEFAULT_TIMEOUT).expect_err("refused").code())
        .collect();
        assert_eq!(codes.len(), 3);
        assert!(codes.iter().all(|c| !c.is_empty()));
    }

    #[test]
    fn invalid_wgsl_is_a_crash_for_every_translator() {
        let e = translator::validate("fn (").expect_err("does not parse");
        let f = invalid_wgsl(&e, b"");
        assert_eq!(f.code(), "translator.crash");
        assert!(f.to_string().contains("its WGSL does not validate"));
    }

    #[test]
    fn failures_map_to_typed_skips() {
        use oracles::verdict::SkipKind;
        let r = Failure::Rejected {
            catalog_id: "fail-closed/subroutines".into(),
            reason: "fcall".into(),
            instruction: Some(3),
        };
        assert_eq!(r.skip().kind, SkipKind::Rejected);
        assert_eq!(
            r.skip().detail,
            "[fail-closed/subroutines] fcall (instruction 3)"
        );
        assert_eq!(crash("boom", b"").skip().kind, SkipKind::TranslatorCrash);
    }
}
