//! Writing a run's folder: each report kind writes its own files through here
//! ([`crate::verify::write_folder`], [`crate::sweep::write_folder`],
//! [`crate::fuzz::write_report`]), whole or not at all, so a command and `dxdiff merge` write
//! the same folder the same way and neither calls the other.

use std::path::{Path, PathBuf};

/// A file of a report folder that could not be written. Code: `report.write`.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {source}")]
pub struct FolderError {
    /// The file.
    pub path: PathBuf,
    /// The IO error.
    pub source: std::io::Error,
}

impl FolderError {
    /// A stable, machine-readable code.
    pub fn code(&self) -> &'static str {
        "report.write"
    }
}

/// Write `bytes` to `path` whole: a temporary file beside it, then a rename, so a reader (or a
/// resumed run after a kill) never sees half a file, and a full disk leaves the old one.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = path.with_extension(format!(
        "{}.tmp",
        path.extension().and_then(|e| e.to_str()).unwrap_or("")
    ));
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path)
}

/// [`write_atomic`] with the path in the error.
pub(crate) fn write(path: &Path, bytes: &[u8]) -> Result<(), FolderError> {
    write_atomic(path, bytes).map_err(|source| FolderError {
        path: path.to_path_buf(),
        source,
    })
}

/// A model as pretty JSON (a serializer error, which the models cannot raise, as an IO one).
pub(crate) fn json<T: serde::Serialize>(path: &Path, value: &T) -> Result<String, FolderError> {
    serde_json::to_string_pretty(value).map_err(|e| FolderError {
        path: path.to_path_buf(),
        source: std::io::Error::other(e.to_string()),
    })
}
