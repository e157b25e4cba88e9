//! `dxdiff asm FILE [-o OUT]`: text -> container with a fresh checksum.

use std::path::PathBuf;
use std::process::ExitCode;

use super::{CliResult, dxbc_err, read_err, write_output};

/// The arguments of `dxdiff asm`.
#[derive(Debug, clap::Args)]
pub struct AsmArgs {
    /// dxdiff's assembly text or an fxc listing.
    file: PathBuf,
    /// Write the container here instead of stdout.
    #[arg(short = 'o', long = "output")]
    out: Option<PathBuf>,
}

/// Assemble the text and write the container.
pub fn run(a: &AsmArgs) -> CliResult {
    let text = dxbc::read_text(&a.file).map_err(read_err)?;
    let container = dxbc::assemble_container(&text).map_err(dxbc_err(&a.file))?;
    write_output(a.out.as_deref(), &container.to_bytes())?;
    Ok(ExitCode::SUCCESS)
}
