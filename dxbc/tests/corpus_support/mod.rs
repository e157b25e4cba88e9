//! Loading the shared corpus (`../shared/corpus` from the workspace root). Read in place, never
//! copied into the repository.

#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};

/// The corpus root, or `None` (with a printed reason) when it is not available.
pub fn corpus_root() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    if root.is_dir() {
        Some(root)
    } else {
        println!("skipping: corpus folder {} not found", root.display());
        None
    }
}

fn walk(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, ext, out);
        } else if path.extension().is_some_and(|e| e == ext) {
            out.push(path);
        }
    }
}

fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    walk(dir, ext, &mut out);
    out.sort();
    out
}

fn unhex(s: &str) -> Vec<u8> {
    let digit = |b: u8| match b {
        b'0'..=b'9' => b - b'0',
        b'a'..=b'f' => b - b'a' + 10,
        b'A'..=b'F' => b - b'A' + 10,
        _ => panic!("bad hex digit {b}"),
    };
    s.as_bytes()
        .chunks(2)
        .map(|p| digit(p[0]) << 4 | digit(p[1]))
        .collect()
}

/// Every container: peer case files (`dxbc` hex field) then SDK `.o` files, named by relative path.
pub fn all_blobs() -> Option<Vec<(String, Vec<u8>)>> {
    let root = corpus_root()?;
    let mut out = Vec::new();
    for path in files(&root.join("peer"), "json") {
        let text = fs::read_to_string(&path).expect("readable case file");
        let json: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
        let hex = json["dxbc"].as_str().expect("case has a dxbc field");
        out.push((rel(&root, &path), unhex(hex)));
    }
    for path in files(&root.join("sdk"), "o") {
        out.push((rel(&root, &path), fs::read(&path).expect("readable blob")));
    }
    Some(out)
}

/// Every SDK listing with its blob: (name, listing text, blob bytes).
pub fn sdk_pairs() -> Option<Vec<(String, String, Vec<u8>)>> {
    let root = corpus_root()?;
    let mut out = Vec::new();
    for path in files(&root.join("sdk"), "asm") {
        let blob = path.with_extension("o");
        if let (Ok(text), Ok(bytes)) = (fs::read_to_string(&path), fs::read(&blob)) {
            out.push((rel(&root, &path), text, bytes));
        }
    }
    Some(out)
}

/// Every SDK listing text.
pub fn sdk_listings() -> Option<Vec<(String, String)>> {
    let root = corpus_root()?;
    Some(
        files(&root.join("sdk"), "asm")
            .into_iter()
            .map(|p| {
                (
                    rel(&root, &p),
                    fs::read_to_string(&p).expect("readable listing"),
                )
            })
            .collect(),
    )
}

fn rel(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}
