//! `dxdiff disasm FILE [-o OUT] [--fxc]`.

use std::path::PathBuf;
use std::process::ExitCode;

use super::{CliResult, read_blob, write_output};

/// The arguments of `dxdiff disasm`.
#[derive(Debug, clap::Args)]
pub struct DisasmArgs {
    /// A DXBC container or a dxdiff-case/1 file.
    file: PathBuf,
    /// Write the listing here instead of stdout.
    #[arg(short = 'o', long = "output")]
    out: Option<PathBuf>,
    /// fxc's own spelling: float immediates as lossy `%f`.
    #[arg(long)]
    fxc: bool,
}

/// Print the program's listing in the chosen syntax.
pub fn run(a: &DisasmArgs) -> CliResult {
    let blob = read_blob(&a.file)?;
    let shader = super::decode_to_show(&a.file, &blob)?;
    let syntax = if a.fxc {
        dxbc::Syntax::Fxc
    } else {
        dxbc::Syntax::Exact
    };
    write_output(a.out.as_deref(), shader.listing(syntax).as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
