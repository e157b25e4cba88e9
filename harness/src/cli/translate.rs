//! `dxdiff translate FILE [-o OUT.wgsl] [--manifest OUT.json] [--profile contract|exact]`:
//! WGSL on stdout (or `-o`); exit 3 when the translator fails closed, with the reason, the
//! instruction index and the catalog id.

use std::path::PathBuf;
use std::process::ExitCode;

use translator::{TranslateError, translate_blob};

use super::{CliResult, dxbc_err, read_blob, write_output};

#[derive(Debug, clap::Args)]
pub struct TranslateArgs {
    /// A DXBC container or a dxdiff-case/1 file.
    file: PathBuf,
    /// Write the WGSL here instead of stdout.
    #[arg(short = 'o', long = "output")]
    out: Option<PathBuf>,
    /// Write the binding manifest (JSON) here.
    #[arg(long)]
    manifest: Option<PathBuf>,
    /// `builtin` (the default); other translators arrive with the harness.
    #[arg(long, default_value = "builtin")]
    translator: String,
    /// `contract` (the seed's lowering, the default) or `exact` (D3D-exact polyfills).
    #[arg(long, default_value = "contract")]
    profile: String,
}

pub fn run(a: &TranslateArgs) -> CliResult {
    let profile = super::builtin_profile(&a.translator, &a.profile)?;
    let blob = read_blob(&a.file)?;
    match translate_blob(&blob, profile) {
        Ok(t) => {
            write_output(a.out.as_deref(), t.wgsl.as_bytes())?;
            if let Some(m) = &a.manifest {
                let json = serde_json::to_string_pretty(&t.manifest)
                    .map_err(|e| super::usage(e.to_string()))?;
                write_output(Some(m), json.as_bytes())?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(TranslateError::Malformed(e)) => Err(dxbc_err(&a.file)(e)),
        Err(TranslateError::Rejected(r)) => {
            let at = match (r.instruction, &r.opcode) {
                (Some(i), Some(op)) => format!(" at instruction {i} (`{op}`)"),
                _ => String::new(),
            };
            eprintln!(
                "dxdiff: {}: rejected{at}: {} [{}]",
                a.file.display(),
                r.reason,
                r.catalog_id
            );
            Ok(ExitCode::from(3))
        }
    }
}
