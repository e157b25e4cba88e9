//! Shards' folders put back together: reading them, copying their cases, and merging fuzz and
//! sweep folders into one. What `merge` and the commands that spread over workers (`fuzz`,
//! `sweep`) share, so that none of them calls another. A shard is untrusted (a CI artifact):
//! every path it names is confined to the shard folders.

use std::path::{Path, PathBuf};

use super::CliError;

/// Create `dir` (and its parents) for the merged files.
pub(super) fn folder(dir: &Path) -> Result<(), CliError> {
    std::fs::create_dir_all(dir).map_err(|source| CliError::Io {
        path: dir.to_path_buf(),
        source,
    })
}

/// Every part's `file` (the part itself when empty), read and parsed.
pub(super) fn read_parts<T, E: std::fmt::Display>(
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
            super::read_parsed(&path, &parse)
        })
        .collect()
}

/// Copy a shard's case file to `to`.
pub(super) fn copy(from: &Path, to: &Path) -> Result<(), CliError> {
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
pub(super) fn moved(case: &str, cases: &Path, shards: &[PathBuf]) -> Result<String, CliError> {
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

/// A campaign folder's `report.html`, each saved case read through the bounded reader and only
/// from inside the folder (a state's case paths are untrusted too).
pub(super) fn write_fuzz_report(out: &Path, st: &reports::fuzz::State) -> Result<(), CliError> {
    let case_text = |rel: &str| {
        crate::files::inside(out, rel)
            .and_then(|p| crate::files::read_text(&p))
            .ok()
    };
    Ok(reports::fuzz::write_report(out, st, &case_text)?)
}

/// Merge fuzz campaign folders into `out`: its `state.json`, the kept divergences' cases and
/// `report.html`, as an unsharded campaign writes them.
pub(super) fn fuzz_folders(
    shards: &[std::path::PathBuf],
    out: &std::path::Path,
) -> Result<reports::fuzz::State, super::CliError> {
    let parts = read_parts(shards, "state.json", reports::fuzz::State::parse)?;
    let merged = reports::shard::merge_fuzz(parts).map_err(|e| super::usage(e.to_string()))?;
    folder(&out.join("cases"))?;
    // Each kept divergence's case, from the shard that found it first.
    for d in &merged.divergences {
        // A state names its cases relative to its folder; a path that leaves it is refused.
        let inside = |base: &std::path::Path| {
            crate::files::inside(base, &d.case).map_err(|e| super::CliError::Input {
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
            return Err(super::usage(format!("{}: in none of the shards", d.case)));
        };
        copy(&from, &inside(out)?)?;
    }
    let json = serde_json::to_string_pretty(&merged).map_err(|e| super::usage(e.to_string()))?;
    super::write_output(Some(&out.join("state.json")), json.as_bytes())?;
    write_fuzz_report(out, &merged)?;
    Ok(merged)
}

/// Merge sweep folders into `out`: its `sweep.json`, the cases and the reports, as an
/// unsharded sweep writes them; `adapter` is what the reports name as the device. The merged
/// state and its Markdown report.
pub(super) fn sweep_folders(
    shards: &[std::path::PathBuf],
    out: &std::path::Path,
    adapter: &str,
) -> Result<(reports::sweep::State, String), super::CliError> {
    let parts = read_parts(shards, "sweep.json", reports::sweep::State::parse)?;
    let mut merged = reports::shard::merge_sweep(parts).map_err(|e| super::usage(e.to_string()))?;
    let cases = out.join("cases");
    folder(&cases)?;
    for op in &mut merged.ops {
        for c in &mut op.cases {
            *c = moved(c, &cases, shards)?;
        }
    }
    let json = serde_json::to_string_pretty(&merged).map_err(|e| super::usage(e.to_string()))?;
    super::write_output(Some(&out.join("sweep.json")), json.as_bytes())?;
    let md = reports::sweep::write_folder(out, &merged, adapter)?;
    Ok((merged, md))
}
