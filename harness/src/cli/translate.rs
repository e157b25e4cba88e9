//! `dxdiff translate FILE [-o OUT.wgsl] [--manifest OUT.json] [--translator T] [--profile P]`:
//! WGSL on stdout (or `-o`); exit 3 when the translator fails closed, with the reason, the
//! instruction index and the catalog id; exit 2 when an external translator crashes.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::translators::Failure;

use super::{CliResult, dxbc_err, read_blob, write_output};

/// The arguments of `dxdiff translate`.
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
    /// Print the external-translator protocol's JSON answer (docs/translators.md) instead
    /// of WGSL: what a `cmd:` translator must print, and how to wrap this one.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    translator: super::TranslatorArgs,
}

/// Translate one program and write the WGSL (or the protocol's JSON answer).
pub fn run(a: &TranslateArgs) -> CliResult {
    let translator = a.translator.build()?;
    let blob = read_blob(&a.file)?;
    let shader = dxbc::Shader::parse(&blob).map_err(dxbc_err(&a.file))?;
    let result = translator.translate(&blob, &shader);
    if a.json {
        let answer = match &result {
            Ok(t) => serde_json::json!({
                "status": "ok", "wgsl": t.wgsl, "manifest": t.manifest, "adaptations": t.adaptations
            }),
            Err(Failure::Rejected {
                catalog_id,
                reason,
                instruction,
            }) => serde_json::json!({
                "status": "rejected", "reason": reason, "catalog_id": catalog_id,
                "instruction": instruction
            }),
            Err(crash @ Failure::Crashed { .. }) => {
                eprintln!("dxdiff: {}: {crash}", a.file.display());
                return Ok(ExitCode::from(2));
            }
        };
        let text = serde_json::to_string(&answer).map_err(|e| super::usage(e.to_string()))?;
        write_output(a.out.as_deref(), text.as_bytes())?;
        return Ok(ExitCode::SUCCESS);
    }
    match result {
        Ok(t) => {
            write_output(a.out.as_deref(), t.wgsl.as_bytes())?;
            if let Some(m) = &a.manifest {
                let json = serde_json::to_string_pretty(&t.manifest)
                    .map_err(|e| super::usage(e.to_string()))?;
                write_output(Some(m), json.as_bytes())?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(Failure::Rejected {
            catalog_id,
            reason,
            instruction,
        }) => {
            let op = instruction.and_then(|i| shader.program.instructions.get(i));
            let at = match (instruction, op) {
                (Some(i), Some(op)) => format!(" at instruction {i} (`{}`)", op.opcode.mnemonic()),
                (Some(i), None) => format!(" at instruction {i}"),
                _ => String::new(),
            };
            eprintln!(
                "dxdiff: {}: rejected{at}: {reason} [{catalog_id}]",
                a.file.display(),
            );
            Ok(ExitCode::from(3))
        }
        Err(crash @ Failure::Crashed { .. }) => {
            eprintln!("dxdiff: {}: {crash}", a.file.display());
            Ok(ExitCode::from(2))
        }
    }
}
