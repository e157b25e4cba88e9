//! Output folders (`--out`): checked before any work starts, and held by one run at a time.
//!
//! Opening creates the folder, proves it writable with a probe file, and takes an exclusive
//! lock on `DIR/.dxdiff.lock` (`flock`, released when the process ends, however it ends). A
//! second run on a folder in use is refused with the holder's process id, so two campaigns
//! cannot overwrite each other's state.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use nix::fcntl::{Flock, FlockArg};

/// The lock file's name inside an output folder.
pub const LOCK: &str = ".dxdiff.lock";

/// Why an output folder cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum OutError {
    /// The folder cannot be created, checked or locked.
    #[error("{path}: cannot use as the output folder: {source}")]
    Io {
        /// The output folder.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// Another process holds the folder's lock.
    #[error(
        "{path}: another dxdiff run is using this folder ({holder}); wait for it or choose another --out"
    )]
    InUse {
        /// The output folder.
        path: PathBuf,
        /// The holder as its lock file names it (`pid N`), or `a process`.
        holder: String,
    },
}

impl OutError {
    /// The stable code reports and scripts match on.
    pub fn code(&self) -> &'static str {
        match self {
            OutError::Io { .. } => "out.io",
            OutError::InUse { .. } => "out.in-use",
        }
    }
}

/// An output folder this process holds.
#[derive(Debug)]
pub struct OutDir {
    /// The folder, as given.
    pub path: PathBuf,
    _lock: Flock<File>,
}

impl OutDir {
    /// Create (if needed), check and lock `path`.
    pub fn open(path: &Path) -> Result<OutDir, OutError> {
        let io = |source| OutError::Io {
            path: path.to_path_buf(),
            source,
        };
        std::fs::create_dir_all(path).map_err(io)?;
        if !path.is_dir() {
            return Err(io(std::io::Error::new(
                std::io::ErrorKind::NotADirectory,
                "not a folder",
            )));
        }
        let lock_path = path.join(LOCK);
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(&lock_path)
            .map_err(io)?;
        let mut lock = match Flock::lock(file, FlockArg::LockExclusiveNonblock) {
            Ok(l) => l,
            Err((_, nix::errno::Errno::EWOULDBLOCK)) => {
                let holder = std::fs::read_to_string(&lock_path)
                    .ok()
                    .map(|s| s.trim().to_string())
                    .filter(|s| !s.is_empty())
                    .unwrap_or_else(|| "a process".into());
                return Err(OutError::InUse {
                    path: path.to_path_buf(),
                    holder,
                });
            }
            Err((_, e)) => return Err(io(std::io::Error::from(e))),
        };
        lock.set_len(0).map_err(io)?;
        write!(lock, "pid {}", std::process::id()).map_err(io)?;
        lock.flush().map_err(io)?;
        Ok(OutDir {
            path: path.to_path_buf(),
            _lock: lock,
        })
    }

    /// A path inside the folder.
    pub fn join(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }
}

/// Written whole or not at all: the one rule, in `reports::folder`.
pub use reports::folder::write_atomic;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_is_held_by_one_run() {
        let dir = std::env::temp_dir().join(format!("dxdiff-outdir-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let held = OutDir::open(&dir).expect("opens");
        let second = OutDir::open(&dir).expect_err("in use");
        assert_eq!(second.code(), "out.in-use");
        assert!(second.to_string().contains("pid"), "{second}");
        drop(held);
        OutDir::open(&dir).expect("free again");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_file_is_not_a_folder() {
        let f = std::env::temp_dir().join(format!("dxdiff-outfile-{}", std::process::id()));
        std::fs::write(&f, b"x").expect("scratch");
        let e = OutDir::open(&f).expect_err("a file");
        assert_eq!(e.code(), "out.io");
        assert!(e.to_string().contains(&f.display().to_string()));
        let _ = std::fs::remove_file(&f);
    }
}
