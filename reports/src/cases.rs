//! Writing `dxdiff-case/1` files: every counterexample, divergence and shrunk case goes
//! through here, and a failure to write is an error the caller must report.

use std::path::{Path, PathBuf};

use oracles::case::CaseFile;

/// Why a case file could not be written. Codes: `case-write.io`, `case-write.json`.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// Creating the folder or writing the file failed (`case-write.io`).
    #[error("{path}: {source}")]
    Io {
        /// The file that could not be written.
        path: PathBuf,
        /// The IO error.
        source: std::io::Error,
    },
    /// The case could not be serialized to JSON (`case-write.json`).
    #[error("{path}: cannot serialize the case: {source}")]
    Json {
        /// The file that was to be written.
        path: PathBuf,
        /// The serializer's error.
        source: serde_json::Error,
    },
}

impl WriteError {
    /// A stable, machine-readable code for this kind of error.
    pub fn code(&self) -> &'static str {
        match self {
            WriteError::Io { .. } => "case-write.io",
            WriteError::Json { .. } => "case-write.json",
        }
    }

    /// The path that could not be written.
    pub fn path(&self) -> &Path {
        match self {
            WriteError::Io { path, .. } | WriteError::Json { path, .. } => path,
        }
    }
}

/// A file name from any text: ASCII letters, digits, `-` and `_` kept, the rest `_`, at most
/// 80 characters.
pub fn file_stem(text: &str) -> String {
    let mut s: String = text
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    s.truncate(80);
    if s.is_empty() { "case".into() } else { s }
}

/// Write `dir/<stem>.json` (creating `dir`), pretty-printed; the path written.
pub fn write_case(dir: &Path, stem: &str, case: &CaseFile) -> Result<PathBuf, WriteError> {
    let path = dir.join(format!("{}.json", file_stem(stem)));
    let text = serde_json::to_string_pretty(case).map_err(|source| WriteError::Json {
        path: path.clone(),
        source,
    })?;
    // Written whole or not at all: a full disk never leaves half a case.
    std::fs::create_dir_all(dir)
        .and_then(|()| crate::folder::write_atomic(&path, text.as_bytes()))
        .map_err(|source| WriteError::Io {
            path: path.clone(),
            source,
        })?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_error_codes_are_distinct_and_not_empty() {
        let path = PathBuf::from("x.json");
        let io = WriteError::Io {
            path: path.clone(),
            source: std::io::Error::other("disk full"),
        };
        let json = WriteError::Json {
            path,
            source: serde_json::from_str::<u32>("x").expect_err("not JSON"),
        };
        assert_ne!(io.code(), json.code());
        assert!(!io.code().is_empty() && !json.code().is_empty());
    }

    #[test]
    fn stems_are_safe_file_names() {
        assert_eq!(file_stem("a b/c:d"), "a_b_c_d");
        assert_eq!(file_stem(""), "case");
        assert_eq!(file_stem(&"x".repeat(200)).len(), 80);
    }

    #[test]
    fn write_errors_name_the_path() {
        let run = oracles::case::Run::new("r");
        let case = CaseFile::single("t", b"DXBC", run);
        // A file where the folder should be.
        let dir = std::env::temp_dir().join(format!("reports-case-{}", std::process::id()));
        std::fs::write(&dir, b"not a folder").expect("scratch file");
        let e = write_case(&dir, "x", &case).expect_err("cannot write under a file");
        assert!(e.to_string().contains(&dir.display().to_string()), "{e}");
        let _ = std::fs::remove_file(&dir);
        let ok_dir = std::env::temp_dir().join(format!("reports-case-ok-{}", std::process::id()));
        let p = write_case(&ok_dir, "a b", &case).expect("writes");
        assert!(p.ends_with("a_b.json"));
        let _ = std::fs::remove_dir_all(&ok_dir);
    }
}
