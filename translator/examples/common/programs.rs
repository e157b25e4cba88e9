//! Programs under folders, for the examples and the bench: DXBC containers (`.o`, `.dxbc`)
//! and `dxdiff-case/1` files (`.json`), found recursively in name order.

use std::path::{Path, PathBuf};

/// Every program file under `p` (or `p` itself), in name order.
pub fn collect(p: &Path, out: &mut Vec<PathBuf>) {
    if p.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
            .map(|rd| rd.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        entries.sort();
        for e in entries {
            collect(&e, out);
        }
    } else if p
        .extension()
        .is_some_and(|x| x == "o" || x == "dxbc" || x == "json")
    {
        out.push(p.to_path_buf());
    }
}

/// The DXBC container of a program file: the file itself, or a case file's blob.
pub fn blob(p: &Path) -> Option<Vec<u8>> {
    let bytes = std::fs::read(p).ok()?;
    if p.extension().is_some_and(|x| x == "json") {
        let case = oracles::case::CaseFile::parse(std::str::from_utf8(&bytes).ok()?).ok()?;
        return case.blob().ok();
    }
    Some(bytes)
}
