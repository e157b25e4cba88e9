//! `dxdiff merge PATH... --out PATH`: the reports of a run's shards (`--shard K/N`) put back
//! together (reports::shard). Verify folders (`report.json` and `cases/`) merge into a verify
//! folder that every later command reads as an unsharded run's; corpus records (`--out` of
//! `dxdiff corpus`) merge into the record the unsharded run writes, byte for byte. Shards of
//! different runs (seed, translator, settings, format), a shard given twice or one missing are
//! refused with the reason. Fuzz campaign folders (`state.json`, `cases/`) merge into one
//! campaign folder, divergences deduplicated by signature; sweep folders (`sweep.json`) into
//! one sweep folder.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use reports::corpus::Record;
use reports::verify::RunReport;

use super::parts::{folder, moved, read_parts};
use super::{CliError, CliResult, usage, write_output};

/// The arguments of `dxdiff merge`.
#[derive(Debug, clap::Args)]
pub struct MergeArgs {
    /// The shards: verify folders, or corpus record files.
    #[arg(required = true)]
    parts: Vec<PathBuf>,
    /// The merged verify folder, or the merged corpus record file.
    #[arg(long)]
    out: PathBuf,
}

/// Refuse an `--out` that is one of the parts, or inside one: the merge would write over
/// what it reads.
fn not_a_part(out: &Path, parts: &[PathBuf]) -> Result<(), CliError> {
    let hit = parts.iter().any(|p| {
        crate::files::within(p, out)
            || matches!((out.canonicalize(), p.canonicalize()), (Ok(a), Ok(b)) if a == b)
    });
    if hit {
        return Err(usage(format!(
            "--out {} is one of the shards (or inside one): the merge would overwrite what it reads",
            out.display()
        )));
    }
    Ok(())
}

/// The merge's exit: 1 when the merged run holds a mismatch, as the run itself would.
fn exit(mismatch: bool) -> CliResult {
    Ok(if mismatch {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Merge the shards' reports and write them where an unsharded run would.
pub fn run(a: &MergeArgs) -> CliResult {
    not_a_part(&a.out, &a.parts)?;
    let all = |file: &str| a.parts.iter().all(|p| p.join(file).is_file());
    if all("sweep.json") {
        return sweep(a);
    }
    if all("state.json") {
        return fuzz(a);
    }
    if all("report.json") {
        return verify(a);
    }
    if a.parts.iter().all(|p| p.is_file()) {
        return corpus(a);
    }
    Err(usage(
        "merge takes verify folders (report.json), fuzz folders (state.json), sweep folders (sweep.json) or corpus record files, all of one kind"
            .into(),
    ))
}

fn verify(a: &MergeArgs) -> CliResult {
    let parts = read_parts(&a.parts, "report.json", |t| {
        serde_json::from_str::<RunReport>(t)
    })?;
    let mut merged = reports::shard::merge_verify(parts).map_err(|e| usage(e.to_string()))?;
    // Counterexamples move into the merged folder, under the names they had.
    let cases = a.out.join("cases");
    for p in &mut merged.programs {
        if let Some(c) = &p.counterexample {
            p.counterexample = Some(moved(c, &cases, &a.parts)?);
        }
    }
    // Answer files too, under the names the reports give them (relative to each folder).
    for p in &mut merged.programs {
        let Some(summary) = &mut p.answers else {
            continue;
        };
        let from = summary.file.as_deref().and_then(|rel| {
            reports::answers::inside(rel)
                .then(|| a.parts.iter().map(|d| d.join(rel)).find(|f| f.is_file()))
                .flatten()
                .map(|f| (f, a.out.join(rel)))
        });
        match from {
            Some((from, to)) => {
                std::fs::create_dir_all(a.out.join(reports::answers::FOLDER))
                    .and_then(|()| std::fs::copy(&from, &to).map(|_| ()))
                    .map_err(|source| CliError::Io { path: to, source })?;
            }
            None => summary.file = None,
        }
    }
    folder(&a.out)?;
    reports::verify::write_folder(&a.out, &merged)?;
    print!("{}", reports::verify::summary(&merged, 0));
    exit(merged.totals.mismatch > 0)
}

fn corpus(a: &MergeArgs) -> CliResult {
    let parts = read_parts(&a.parts, "", Record::parse)?;
    let merged = reports::shard::merge_corpus(parts).map_err(|e| usage(e.to_string()))?;
    let json = serde_json::to_string_pretty(&merged).map_err(|e| usage(e.to_string()))?;
    write_output(Some(&a.out), format!("{json}\n").as_bytes())?;
    write_output(
        Some(&a.out.with_extension("html")),
        reports::corpus::html(&merged).as_bytes(),
    )?;
    let t = &merged.totals;
    println!(
        "corpus: {} qualified, {} unsupported, {} failed",
        t.qualified, t.unsupported, t.failed
    );
    Ok(ExitCode::SUCCESS)
}

fn fuzz(a: &MergeArgs) -> CliResult {
    let merged = super::parts::fuzz_folders(&a.parts, &a.out)?;
    println!("{}", merged.closing_line());
    exit(!merged.divergences.is_empty())
}

fn sweep(a: &MergeArgs) -> CliResult {
    let (merged, _) = super::parts::sweep_folders(&a.parts, &a.out, "merged shards")?;
    println!("{}", merged.closing_line());
    exit(merged.totals().mismatch > 0)
}
