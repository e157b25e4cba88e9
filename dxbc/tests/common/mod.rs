//! Corpus access for the integration tests. The corpora live in `../shared` beside the project;
//! a clone without them skips these tests with a printed reason.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

pub fn shared() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    if p.is_dir() {
        Some(p)
    } else {
        eprintln!(
            "skipped: {} not found (the shared corpora are not beside this clone)",
            p.display()
        );
        None
    }
}

fn walk(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, ext, out);
        } else if p.extension().is_some_and(|x| x == ext) {
            out.push(p);
        }
    }
}

pub fn files(sub: &str, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Some(root) = shared() {
        walk(&root.join(sub), ext, &mut out);
    }
    out.sort();
    out
}

pub fn unhex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex"))
        .collect()
}

/// Every corpus blob: (name, container bytes). Peer case files hold hex; SDK blobs are raw `.o`.
pub fn blobs() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for p in files("peer", "json") {
        let text = std::fs::read_to_string(&p).expect("read case");
        let v: serde_json::Value = serde_json::from_str(&text).expect("case json");
        let hex = v["dxbc"].as_str().expect("dxbc field");
        out.push((p.display().to_string(), unhex(hex)));
    }
    for p in files("sdk", "o") {
        out.push((
            p.display().to_string(),
            std::fs::read(&p).expect("read blob"),
        ));
    }
    out
}

/// The listing beside an SDK blob.
pub fn listing_for(blob: &Path) -> Option<String> {
    std::fs::read_to_string(blob.with_extension("asm")).ok()
}

/// Every blob, or `None` (with the reason printed) when the corpus is absent.
pub fn all_blobs() -> Option<Vec<(String, Vec<u8>)>> {
    shared()?;
    Some(blobs())
}

/// Every SDK listing text: (path, text).
pub fn sdk_listings() -> Option<Vec<(String, String)>> {
    shared()?;
    Some(
        files("sdk", "asm")
            .into_iter()
            .map(|p| {
                let text = std::fs::read_to_string(&p).expect("readable listing");
                (p.display().to_string(), text)
            })
            .collect(),
    )
}

/// Every SDK listing with its blob: (path, listing text, blob bytes).
pub fn sdk_pairs() -> Option<Vec<(String, String, Vec<u8>)>> {
    shared()?;
    Some(
        files("sdk", "o")
            .into_iter()
            .filter_map(|p| {
                let text = listing_for(&p)?;
                Some((p.display().to_string(), text, std::fs::read(&p).ok()?))
            })
            .collect(),
    )
}
