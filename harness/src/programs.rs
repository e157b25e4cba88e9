//! Programs from folders: every DXBC container and the program of every `dxdiff-case/1` file
//! under the paths given, read once, in path order.

use std::path::{Path, PathBuf};

use oracles::case::CaseFile;

/// A program: its name, and its container or why it could not be read.
pub type Program = (String, Result<Vec<u8>, String>);

/// Every program under `paths`, named by its path as given.
pub fn collect(paths: &[PathBuf]) -> Vec<Program> {
    fn walk(p: &Path, out: &mut Vec<PathBuf>) {
        if p.is_dir() {
            let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
                .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
                .unwrap_or_default();
            entries.sort();
            for e in entries {
                walk(&e, out);
            }
        } else {
            out.push(p.to_path_buf());
        }
    }
    let mut files = Vec::new();
    for p in paths {
        walk(p, &mut files);
    }
    let mut programs = Vec::new();
    for f in files {
        let name = f.display().to_string();
        let Ok(bytes) = std::fs::read(&f) else {
            programs.push((name, Err("cannot read the file".to_string())));
            continue;
        };
        if bytes.starts_with(b"DXBC") {
            programs.push((name, Ok(bytes)));
        } else if f.extension().is_some_and(|x| x == "json") {
            let blob = std::str::from_utf8(&bytes)
                .map_err(|e| e.to_string())
                .and_then(|t| CaseFile::parse(t).map_err(|e| e.to_string()))
                .and_then(|c| c.blob());
            programs.push((name, blob));
        }
    }
    programs
}

/// Every program under `roots`, named `<root's last component>/<path inside the root>` (the
/// form corpus records use, so a record does not depend on where the folder lies), in name
/// order.
pub fn relative(roots: &[PathBuf]) -> Vec<Program> {
    let mut out = Vec::new();
    for root in roots {
        let base = root.file_name().map_or_else(
            || root.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        for (path, blob) in collect(std::slice::from_ref(root)) {
            let path = PathBuf::from(path);
            let rel = path.strip_prefix(root).unwrap_or(&path);
            let name = if rel.as_os_str().is_empty() {
                base.clone()
            } else {
                format!("{base}/{}", rel.display())
            };
            out.push((name, blob));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}
