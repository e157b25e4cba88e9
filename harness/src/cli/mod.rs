//! One module per subcommand, plus the input and error plumbing they share.

pub mod asm;
pub mod bench;
pub mod catalog;
pub mod corpus;
pub mod disasm;
pub mod fuzz;
pub mod info;
pub mod replay;
pub mod translate;
pub mod verify;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Why a command failed, and which exit code that means (docs/case-format.md's contract).
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: [{}] {source}", source.code())]
    Dxbc {
        path: PathBuf,
        source: dxbc::DxbcError,
    },
    #[error("{path}: {what}")]
    Input { path: PathBuf, what: String },
}

impl CliError {
    pub fn exit_code(&self) -> ExitCode {
        ExitCode::from(2)
    }
}

pub type CliResult = Result<ExitCode, CliError>;

/// A usage error (exit 2).
pub fn usage(what: String) -> CliError {
    CliError::Input {
        path: PathBuf::from("<arguments>"),
        what,
    }
}

/// The options that choose the translator under test.
#[derive(Debug, Clone, clap::Args)]
pub struct TranslatorArgs {
    /// `builtin`, or `cmd:<command line>` (an external translator: DXBC on stdin, JSON on
    /// stdout; docs/translators.md).
    #[arg(long, default_value = "builtin")]
    pub translator: String,
    /// `contract` (the seed's lowering, the default) or `exact` (D3D-exact polyfills), for the
    /// built-in translator.
    #[arg(long, default_value = "contract")]
    pub profile: String,
    /// Seconds an external translator gets per program.
    #[arg(long, default_value_t = 30)]
    pub translator_timeout: u64,
}

impl TranslatorArgs {
    pub fn build(&self) -> Result<harness::translators::Translator, CliError> {
        harness::translators::Translator::parse(
            &self.translator,
            &self.profile,
            std::time::Duration::from_secs(self.translator_timeout.max(1)),
        )
        .map_err(usage)
    }
}

pub fn dxbc_err(path: &Path) -> impl Fn(dxbc::DxbcError) -> CliError + '_ {
    move |source| CliError::Dxbc {
        path: path.to_path_buf(),
        source,
    }
}

/// An input that could not be read (bounded: `dxbc::MAX_INPUT_BYTES`).
pub fn read_err(e: dxbc::ReadError) -> CliError {
    match e {
        dxbc::ReadError::Io { path, source } => CliError::Io { path, source },
        other => CliError::Input {
            path: other.path().to_path_buf(),
            what: format!("[{}] {other}", other.code()),
        },
    }
}

/// Read a program: a raw DXBC container, or a `dxdiff-case/1` JSON file (its `dxbc` field).
pub fn read_blob(path: &Path) -> Result<Vec<u8>, CliError> {
    let bytes = dxbc::read_file(path).map_err(read_err)?;
    if bytes.first().is_some_and(|b| *b == b'{') {
        let input = |what: String| CliError::Input {
            path: path.to_path_buf(),
            what,
        };
        let text = std::str::from_utf8(&bytes).map_err(|e| input(format!("not UTF-8: {e}")))?;
        let case = oracles::case::CaseFile::parse(text)
            .map_err(|e| input(format!("not a case file: {e}")))?;
        return case.blob().map_err(input);
    }
    Ok(bytes)
}

/// Write to `-o OUT`, or stdout.
pub fn write_output(out: Option<&Path>, bytes: &[u8]) -> Result<(), CliError> {
    use std::io::Write;
    match out {
        Some(p) => std::fs::write(p, bytes).map_err(|source| CliError::Io {
            path: p.to_path_buf(),
            source,
        }),
        None => std::io::stdout()
            .write_all(bytes)
            .map_err(|source| CliError::Io {
                path: PathBuf::from("<stdout>"),
                source,
            }),
    }
}
