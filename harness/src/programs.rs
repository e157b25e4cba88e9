//! Programs from folders: every DXBC container and the program of every `dxdiff-case/1` file
//! under the paths given, read once, in path order.

use std::path::{Path, PathBuf};

use oracles::case::CaseFile;

/// A program: its name, and its container or why it could not be read.
pub type Program = (String, Result<Vec<u8>, String>);

/// Every program under `paths`, named by its path as given.
pub fn collect(paths: &[PathBuf]) -> Vec<Program> {
    /// Each folder is walked once, however many links lead to it (`ln -s . loop` would
    /// otherwise count every program again at each level).
    fn walk(p: &Path, out: &mut Vec<PathBuf>, seen: &mut std::collections::BTreeSet<PathBuf>) {
        if p.is_dir() {
            let real = p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
            if !seen.insert(real) {
                return;
            }
            let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
                .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
                .unwrap_or_default();
            entries.sort();
            for e in entries {
                walk(&e, out, seen);
            }
        } else {
            out.push(p.to_path_buf());
        }
    }
    let mut files = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for p in paths {
        walk(p, &mut files, &mut seen);
    }
    let mut programs = Vec::new();
    for f in files {
        let name = f.display().to_string();
        let bytes = match crate::files::read(&f) {
            Ok(b) => b,
            // A FIFO or a device is no program (reading one would hang the run).
            Err(crate::files::FileError::NotRegular { .. }) => continue,
            Err(e) => {
                programs.push((name, Err(format!("[{}] {e}", e.code()))));
                continue;
            }
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

/// Programs made here rather than read, named under `generated/`: the single-instruction
/// programs `dxdiff verify` runs built in (one per ALU opcode, one per sampling and derivative
/// opcode), then `n` random programs of `dxdiff fuzz`'s generator with its default knobs
/// (pixel, vertex and compute; flow, memory, indexing), program i from (`seed`, i) as a fuzz
/// campaign draws it. A bench over them needs no corpus, and they are what the profile-guided
/// build trains on (docs/corpus.md), so that its profile never saw the programs it is
/// measured on.
pub fn generated(n: usize, seed: u64) -> Vec<Program> {
    let mut out: Vec<Program> = generators::programs::all_single()
        .into_iter()
        .map(|p| {
            let name = format!("generated/single/{}", p.opcode.mnemonic());
            (name, Ok(p.blob))
        })
        .collect();
    for (mnemonic, blob) in sampling() {
        out.push((format!("generated/sampling/{mnemonic}"), blob));
    }
    let knobs = generators::random::Knobs::default();
    for i in 0..n as u64 {
        let (name, p) = generators::random::nth(&knobs, seed, i);
        let blob = p
            .blob()
            .map_err(|e| format!("the generator failed (a dxdiff bug): {e}"));
        out.push((format!("generated/{name}"), blob));
    }
    out
}

/// `verify`'s built-in program of each sampling and derivative opcode, of each typed UAV
/// texture shape and of each double opcode, assembled from its fxc text: (mnemonic, container, or why it does not assemble).
pub fn sampling() -> Vec<(&'static str, Result<Vec<u8>, String>)> {
    generators::programs::text_programs()
        .into_iter()
        .map(|(mnemonic, text)| {
            let blob = dxbc::assemble_container(&text)
                .map(|c| c.to_bytes())
                .map_err(|e| format!("the built-in program does not assemble (a dxdiff bug): {e}"));
            (mnemonic, blob)
        })
        .collect()
}
