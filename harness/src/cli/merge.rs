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

/// Every part's `file` (the part itself when empty), read and parsed.
fn read_parts<T, E: std::fmt::Display>(
    parts: &[PathBuf],
    file: &str,
    parse: impl Fn(&str) -> Result<T, E>,
) -> Result<Vec<T>, CliError> {
    parts
        .iter()
        .map(|p| {
            let path = if file.is_empty() {
                p.clone()
            } else {
                p.join(file)
            };
            let text = crate::files::read_text(&path).map_err(|e| CliError::Input {
                path: path.clone(),
                what: format!("[{}] {e}", e.code()),
            })?;
            parse(&text).map_err(|e| CliError::Input {
                path,
                what: e.to_string(),
            })
        })
        .collect()
}

/// Copy a shard's case file to `to`.
fn copy(from: &Path, to: &Path) -> Result<(), CliError> {
    if let Some(parent) = to.parent() {
        folder(parent)?;
    }
    std::fs::copy(from, to)
        .map(drop)
        .map_err(|source| CliError::Io {
            path: from.to_path_buf(),
            source,
        })
}

/// A counterexample path of a shard's report, its file copied into `cases` under its own name:
/// the path the merged report names. A shard is untrusted (a CI artifact): the path must lead
/// to a file inside one of the `shards` (resolved, links included), or the merge is refused.
fn moved(case: &str, cases: &Path, shards: &[PathBuf]) -> Result<String, CliError> {
    let from = PathBuf::from(case);
    let Some(name) = from.file_name() else {
        return Ok(case.to_string());
    };
    if !shards.iter().any(|s| crate::files::within(s, &from)) {
        return Err(CliError::Input {
            path: from.clone(),
            what: "[file.escapes] a shard names a case outside every shard folder".into(),
        });
    }
    let to = cases.join(name);
    copy(&from, &to)?;
    Ok(to.display().to_string())
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
    folder(&a.out)?;
    super::verify::write_reports(&a.out, &merged)?;
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
    let merged = fuzz_folders(&a.parts, &a.out)?;
    println!("{}", merged.closing_line());
    exit(!merged.divergences.is_empty())
}

/// Merge fuzz campaign folders into `out`: its `state.json`, the kept divergences' cases and
/// `report.html`, as an unsharded campaign writes them.
pub(super) fn fuzz_folders(
    shards: &[PathBuf],
    out: &Path,
) -> Result<reports::fuzz::State, CliError> {
    let parts = read_parts(shards, "state.json", reports::fuzz::State::parse)?;
    let merged = reports::shard::merge_fuzz(parts).map_err(|e| usage(e.to_string()))?;
    folder(&out.join("cases"))?;
    // Each kept divergence's case, from the shard that found it first.
    for d in &merged.divergences {
        // A state names its cases relative to its folder; a path that leaves it is refused.
        let inside = |base: &Path| {
            crate::files::inside(base, &d.case).map_err(|e| CliError::Input {
                path: base.join("state.json"),
                what: format!("[{}] {e}", e.code()),
            })
        };
        let mut from = None;
        for p in shards {
            let f = inside(p)?;
            if f.is_file() {
                from = Some(f);
                break;
            }
        }
        let Some(from) = from else {
            return Err(usage(format!("{}: in none of the shards", d.case)));
        };
        copy(&from, &inside(out)?)?;
    }
    let json = serde_json::to_string_pretty(&merged).map_err(|e| usage(e.to_string()))?;
    write_output(Some(&out.join("state.json")), json.as_bytes())?;
    super::fuzz::write_html(out, &merged)?;
    Ok(merged)
}

fn sweep(a: &MergeArgs) -> CliResult {
    let (merged, _) = sweep_folders(&a.parts, &a.out, "merged shards")?;
    println!("{}", merged.closing_line());
    exit(merged.totals().mismatch > 0)
}

/// Merge sweep folders into `out`: its `sweep.json`, the cases and the reports, as an
/// unsharded sweep writes them; `adapter` is what the reports name as the device. The merged
/// state and its Markdown report.
pub(super) fn sweep_folders(
    shards: &[PathBuf],
    out: &Path,
    adapter: &str,
) -> Result<(reports::sweep::State, String), CliError> {
    let parts = read_parts(shards, "sweep.json", reports::sweep::State::parse)?;
    let mut merged = reports::shard::merge_sweep(parts).map_err(|e| usage(e.to_string()))?;
    let cases = out.join("cases");
    folder(&cases)?;
    for op in &mut merged.ops {
        for c in &mut op.cases {
            *c = moved(c, &cases, shards)?;
        }
    }
    let json = serde_json::to_string_pretty(&merged).map_err(|e| usage(e.to_string()))?;
    write_output(Some(&out.join("sweep.json")), json.as_bytes())?;
    let md = super::sweep::write_reports(out, &merged, adapter)?;
    Ok((merged, md))
}
