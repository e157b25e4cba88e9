//! Reading the folders of a run's shards and copying their cases: what `merge`, and the
//! commands that spread over workers (`fuzz`, `sweep`), share. A shard is untrusted (a CI
//! artifact): every path it names is confined to the shard folders.

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
