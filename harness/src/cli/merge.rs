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

/// Create `dir` (and its parents) for the merged files.
fn folder(dir: &Path) -> Result<(), CliError> {
    std::fs::create_dir_all(dir).map_err(|source| CliError::Io {
        path: dir.to_path_buf(),
        source,
    })
}

fn read(path: &Path) -> Result<String, CliError> {
    std::fs::read_to_string(path).map_err(|source| CliError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Merge the shards' reports and write them where an unsharded run would.
pub fn run(a: &MergeArgs) -> CliResult {
    if a.parts.iter().all(|p| p.join("sweep.json").is_file()) {
        return sweep(a);
    }
    if a.parts.iter().all(|p| p.join("state.json").is_file()) {
        return fuzz(a);
    }
    if a.parts.iter().all(|p| p.join("report.json").is_file()) {
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
    let mut parts = Vec::new();
    for p in &a.parts {
        let path = p.join("report.json");
        let r: RunReport = serde_json::from_str(&read(&path)?).map_err(|e| CliError::Input {
            path: path.clone(),
            what: e.to_string(),
        })?;
        parts.push(r);
    }
    let mut merged = reports::shard::merge_verify(parts).map_err(|e| usage(e.to_string()))?;
    folder(&a.out)?;
    // Counterexamples move into the merged folder, under the names they had.
    let cases = a.out.join("cases");
    for p in &mut merged.programs {
        let Some(from) = p.counterexample.clone() else {
            continue;
        };
        let from = PathBuf::from(from);
        let Some(name) = from.file_name() else {
            continue;
        };
        folder(&cases)?;
        let to = cases.join(name);
        write_output(Some(&to), read(&from)?.as_bytes())?;
        p.counterexample = Some(to.display().to_string());
    }
    let json = serde_json::to_string_pretty(&merged).map_err(|e| usage(e.to_string()))?;
    write_output(Some(&a.out.join("report.json")), json.as_bytes())?;
    let md = reports::verify::markdown(&merged);
    write_output(Some(&a.out.join("report.md")), md.as_bytes())?;
    write_output(
        Some(&a.out.join("report.html")),
        reports::verify::html(&merged).as_bytes(),
    )?;
    print!("{}", reports::verify::summary(&merged, 0));
    Ok(if merged.totals.mismatch > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn corpus(a: &MergeArgs) -> CliResult {
    let mut parts = Vec::new();
    for p in &a.parts {
        parts.push(Record::parse(&read(p)?).map_err(|e| CliError::Input {
            path: p.clone(),
            what: e.to_string(),
        })?);
    }
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
    let mut parts = Vec::new();
    for p in &a.parts {
        let path = p.join("state.json");
        parts.push(
            reports::fuzz::State::parse(&read(&path)?).map_err(|e| CliError::Input {
                path: path.clone(),
                what: e.to_string(),
            })?,
        );
    }
    let merged = reports::shard::merge_fuzz(parts).map_err(|e| usage(e.to_string()))?;
    folder(&a.out.join("cases"))?;
    // Each kept divergence's case, from the shard that found it first.
    for d in &merged.divergences {
        let Some(from) = a
            .parts
            .iter()
            .map(|p| p.join(&d.case))
            .find(|f| f.is_file())
        else {
            return Err(usage(format!("{}: in none of the shards", d.case)));
        };
        let to = a.out.join(&d.case);
        if let Some(parent) = to.parent() {
            folder(parent)?;
        }
        write_output(Some(&to), read(&from)?.as_bytes())?;
    }
    let json = serde_json::to_string_pretty(&merged).map_err(|e| usage(e.to_string()))?;
    write_output(Some(&a.out.join("state.json")), json.as_bytes())?;
    let case_text = |rel: &str| std::fs::read_to_string(a.out.join(rel)).ok();
    write_output(
        Some(&a.out.join("report.html")),
        reports::fuzz::html(&merged, &case_text).as_bytes(),
    )?;
    println!("{}", merged.closing_line());
    Ok(if merged.divergences.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn sweep(a: &MergeArgs) -> CliResult {
    let mut parts = Vec::new();
    for p in &a.parts {
        let path = p.join("sweep.json");
        parts.push(
            reports::sweep::State::parse(&read(&path)?).map_err(|e| CliError::Input {
                path: path.clone(),
                what: e.to_string(),
            })?,
        );
    }
    let mut merged = reports::shard::merge_sweep(parts).map_err(|e| usage(e.to_string()))?;
    let cases = a.out.join("cases");
    folder(&cases)?;
    for op in &mut merged.ops {
        for c in &mut op.cases {
            let from = PathBuf::from(&*c);
            let Some(name) = from.file_name() else {
                continue;
            };
            let to = cases.join(name);
            write_output(Some(&to), read(&from)?.as_bytes())?;
            *c = to.display().to_string();
        }
    }
    let json = serde_json::to_string_pretty(&merged).map_err(|e| usage(e.to_string()))?;
    write_output(Some(&a.out.join("sweep.json")), json.as_bytes())?;
    let md = reports::sweep::markdown(&merged);
    write_output(Some(&a.out.join("report.md")), md.as_bytes())?;
    write_output(
        Some(&a.out.join("report.html")),
        reports::sweep::html(&merged, "merged shards").as_bytes(),
    )?;
    println!("{}", merged.closing_line());
    Ok(if merged.totals().mismatch > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
