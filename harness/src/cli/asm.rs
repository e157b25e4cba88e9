//! `dxdiff asm FILE [-o OUT]`: text -> container with a fresh checksum.

use std::path::PathBuf;
use std::process::ExitCode;

use super::{CliError, CliResult, dxbc_err, write_output};

#[derive(Debug, clap::Args)]
pub struct AsmArgs {
    /// dxdiff's assembly text or an fxc listing.
    file: PathBuf,
    /// Write the container here instead of stdout.
    #[arg(short = 'o', long = "output")]
    out: Option<PathBuf>,
}

pub fn run(a: &AsmArgs) -> CliResult {
    let bytes = std::fs::read(&a.file).map_err(|source| CliError::Io {
        path: a.file.clone(),
        source,
    })?;
    let text = String::from_utf8(bytes).map_err(|e| CliError::Input {
        path: a.file.clone(),
        what: format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to()),
    })?;
    let container = dxbc::assemble_container(&text).map_err(dxbc_err(&a.file))?;
    write_output(a.out.as_deref(), &container.to_bytes())?;
    Ok(ExitCode::SUCCESS)
}
