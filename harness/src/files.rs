//! Files dxdiff is handed, read and named safely. A state file, a record, a case or a corpus
//! folder may come from a shard another machine wrote (CI artifacts, docs/scale.md): it is
//! untrusted input. So every file is read through [`read`], which takes regular files only (a
//! FIFO would hang the run, `/dev/zero` would never end) and at most [`MAX_FILE`] bytes; and
//! every path a file names is taken through [`inside`], which keeps it inside the folder it
//! belongs to (no absolute path, no `..`, no link out).

use std::io::Read;
use std::path::{Component, Path, PathBuf};

/// The most bytes dxdiff reads from one file: the container limit (docs/reliability.md).
pub const MAX_FILE: u64 = dxbc::MAX_INPUT_BYTES;

/// Why a file is not read, or a path not followed. Codes: `file.not-regular`,
/// `file.too-large`, `file.escapes`, `file.io`.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// A FIFO, a device, a folder: nothing a run can read to its end.
    #[error("{path}: not a regular file")]
    NotRegular {
        /// The path.
        path: PathBuf,
    },
    /// Over [`MAX_FILE`] bytes.
    #[error("{path}: larger than {limit} bytes")]
    TooLarge {
        /// The path.
        path: PathBuf,
        /// The limit.
        limit: u64,
    },
    /// A path a file names that leaves the folder it must stay in.
    #[error("`{named}` leaves {base} (an absolute path, `..`, or a link out)")]
    Escapes {
        /// The path as the file names it.
        named: String,
        /// The folder it must stay in.
        base: PathBuf,
    },
    /// The operating system's error.
    #[error("{path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
}

impl FileError {
    /// A stable, machine-readable code for this kind of error.
    pub fn code(&self) -> &'static str {
        match self {
            FileError::NotRegular { .. } => "file.not-regular",
            FileError::TooLarge { .. } => "file.too-large",
            FileError::Escapes { .. } => "file.escapes",
            FileError::Io { .. } => "file.io",
        }
    }
}

/// `path`'s bytes: a regular file (links followed) of at most [`MAX_FILE`] bytes.
pub fn read(path: &Path) -> Result<Vec<u8>, FileError> {
    let io = |source| FileError::Io {
        path: path.to_path_buf(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(FileError::NotRegular {
            path: path.to_path_buf(),
        });
    }
    let file = std::fs::File::open(path).map_err(io)?;
    let mut bytes = Vec::with_capacity(meta.len().min(MAX_FILE) as usize);
    file.take(MAX_FILE + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > MAX_FILE {
        return Err(FileError::TooLarge {
            path: path.to_path_buf(),
            limit: MAX_FILE,
        });
    }
    Ok(bytes)
}

/// [`read`] as UTF-8 text.
pub fn read_text(path: &Path) -> Result<String, FileError> {
    String::from_utf8(read(path)?).map_err(|e| FileError::Io {
        path: path.to_path_buf(),
        source: std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to()),
        ),
    })
}

/// `named`, a path a file gives relative to `base`, joined to it, when it stays inside:
/// relative, without `..`, and (where it exists) not through a link that leads out.
pub fn inside(base: &Path, named: &str) -> Result<PathBuf, FileError> {
    let escapes = || FileError::Escapes {
        named: named.to_string(),
        base: base.to_path_buf(),
    };
    let rel = Path::new(named);
    if named.is_empty()
        || rel
            .components()
            .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return Err(escapes());
    }
    let joined = base.join(rel);
    within(base, &joined).then_some(joined).ok_or_else(escapes)
}

/// Whether `path`, once links are resolved, lies inside `base` (a path that does not exist yet
/// is judged by its nearest existing parent).
pub fn within(base: &Path, path: &Path) -> bool {
    let Ok(root) = base.canonicalize() else {
        return false;
    };
    let mut probe = path.to_path_buf();
    let mut rest = Vec::new();
    loop {
        if let Ok(real) = probe.canonicalize() {
            let full = rest.iter().rev().fold(real, |p: PathBuf, c| p.join(c));
            return full.starts_with(&root);
        }
        match (probe.file_name().map(|n| n.to_os_string()), probe.parent()) {
            (Some(name), Some(parent)) => {
                rest.push(name);
                probe = parent.to_path_buf();
            }
            _ => return false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("dxdiff-files-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("scratch");
        d
    }

    #[test]
    fn only_regular_files_of_bounded_size_are_read() {
        let d = scratch("read");
        let f = d.join("state.json");
        std::fs::write(&f, b"{}").expect("write");
        assert_eq!(read(&f).expect("reads"), b"{}");
        assert_eq!(read(&d).expect_err("a folder").code(), "file.not-regular");
        assert_eq!(
            read(Path::new("/dev/zero")).expect_err("a device").code(),
            "file.not-regular"
        );
        let fifo = d.join("fifo");
        if nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).is_ok() {
            // Opening a FIFO with no writer would block: it must be refused first.
            assert_eq!(read(&fifo).expect_err("a FIFO").code(), "file.not-regular");
        }
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn named_paths_stay_in_their_folder() {
        let d = scratch("inside");
        std::fs::create_dir_all(d.join("cases")).expect("cases");
        assert!(inside(&d, "cases/a.json").is_ok());
        for bad in ["/etc/passwd", "../x", "cases/../../x", ""] {
            assert_eq!(
                inside(&d, bad).expect_err(bad).code(),
                "file.escapes",
                "{bad}"
            );
        }
        // A link inside the folder that points out of it is out.
        let out = scratch("outside");
        std::os::unix::fs::symlink(&out, d.join("cases/link")).expect("symlink");
        assert_eq!(
            inside(&d, "cases/link/x.json").expect_err("link").code(),
            "file.escapes"
        );
        let _ = std::fs::remove_dir_all(&d);
        let _ = std::fs::remove_dir_all(&out);
    }
}
