//! Bounded reading of the files dxdiff is given: a container, a case file or assembly text is
//! read up to [`MAX_INPUT_BYTES`] and no further, so `/dev/zero`, a FIFO that never closes or a
//! multi-gigabyte file is a typed error naming the path instead of unbounded memory.

use std::io::Read;
use std::path::{Path, PathBuf};

use thiserror::Error;

/// The most bytes dxdiff reads from one input: 64 MiB. fxc's containers are at most a few
/// megabytes (the largest corpus blob is under 100 KB) and the container's size field is 32-bit;
/// 64 MiB leaves room for hex-encoded case files and long generated listings while keeping a
/// hostile input's cost bounded.
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

/// Why an input could not be read.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ReadError {
    #[error("{}: {source}", path.display())]
    /// Opening or reading the file failed.
    Io {
        /// The file that could not be read.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    #[error("{}: more than {limit} bytes (inputs are read up to {limit} bytes)", path.display())]
    /// The file is larger than the read limit ([`MAX_INPUT_BYTES`]).
    TooLarge {
        /// The oversized file.
        path: PathBuf,
        /// The limit in bytes that it exceeds.
        limit: u64,
    },
}

impl ReadError {
    /// A stable, machine-readable code for this kind of error.
    pub fn code(&self) -> &'static str {
        match self {
            ReadError::Io { .. } => "io.read",
            ReadError::TooLarge { .. } => "io.too-large",
        }
    }

    /// The file the error is about.
    pub fn path(&self) -> &Path {
        match self {
            ReadError::Io { path, .. } | ReadError::TooLarge { path, .. } => path,
        }
    }
}

/// Reads `path` whole, up to [`MAX_INPUT_BYTES`].
pub fn read_file(path: &Path) -> Result<Vec<u8>, ReadError> {
    read_file_limited(path, MAX_INPUT_BYTES)
}

/// Reads `path` whole, up to `limit` bytes: one byte more is [`ReadError::TooLarge`]. Never
/// trusts the file's reported size (`/dev/zero` reports 0). A pipe or device named here is
/// read too (`translate /dev/stdin`): the user chose it; folder walks skip them instead.
pub fn read_file_limited(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let io = |source| ReadError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let hint = file.metadata().map_or(0, |m| m.len()).min(limit);
    let mut bytes = Vec::with_capacity(usize::try_from(hint).unwrap_or(0));
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge {
            path: path.to_path_buf(),
            limit,
        });
    }
    Ok(bytes)
}

/// Reads `path` as UTF-8 text, up to [`MAX_INPUT_BYTES`]; invalid UTF-8 is an `InvalidData` I/O
/// error naming the byte offset.
pub fn read_text(path: &Path) -> Result<String, ReadError> {
    let bytes = read_file(path)?;
    String::from_utf8(bytes).map_err(|e| ReadError::Io {
        path: path.to_path_buf(),
        source: std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to()),
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endless_input_stops_at_the_limit() {
        let zero = Path::new("/dev/zero");
        if !zero.exists() {
            return;
        }
        match read_file(zero) {
            Err(e @ ReadError::TooLarge { .. }) => {
                assert_eq!(e.path(), zero);
                assert_eq!(e.code(), "io.too-large");
                assert!(e.to_string().starts_with("/dev/zero: more than"), "{e}");
            }
            other => panic!("expected TooLarge, got {other:?}"),
        }
    }

    #[test]
    fn limit_is_exact_and_errors_name_the_path() {
        let dir = std::env::temp_dir().join(format!("dxbc-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let file = dir.join("ten");
        std::fs::write(&file, [7u8; 10]).expect("write");
        assert_eq!(read_file_limited(&file, 10).expect("fits").len(), 10);
        assert!(matches!(
            read_file_limited(&file, 9),
            Err(ReadError::TooLarge { limit: 9, .. })
        ));
        std::fs::write(&file, [0xFFu8, 0xFE]).expect("write");
        let e = read_text(&file).expect_err("not UTF-8");
        assert!(e.to_string().contains("byte 0"), "{e}");
        let missing = dir.join("missing");
        let e = read_file(&missing).expect_err("missing");
        assert_eq!(e.code(), "io.read");
        assert!(e.to_string().starts_with(&missing.display().to_string()));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
