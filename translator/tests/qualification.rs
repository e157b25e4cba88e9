//! Qualification over the shared corpora: every blob either translates to WGSL that naga
//! accepts, or is rejected with a reason and a catalog id. Never a panic.

use std::collections::BTreeMap;
use std::path::Path;

use translator::{Profile, TranslateError, translate_blob};

fn blobs() -> Vec<(String, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    let mut out = Vec::new();
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "o") {
                out.push((p.display().to_string(), std::fs::read(&p).expect("blob")));
            } else if p.extension().is_some_and(|x| x == "json") {
                let v: serde_json::Value =
                    serde_json::from_str(&std::fs::read_to_string(&p).expect("case"))
                        .expect("json");
                let hex = v["dxbc"].as_str().expect("dxbc");
                let bytes = (0..hex.len() / 2)
                    .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).expect("hex"))
                    .collect();
                out.push((p.display().to_string(), bytes));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn corpus_qualification() {
    let all = blobs();
    if all.is_empty() {
        eprintln!("skipped: no corpus beside the project");
        return;
    }
    for profile in [Profile::Contract, Profile::Exact] {
        let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
        let mut emitted = 0;
        for (name, blob) in &all {
            match translate_blob(blob, profile) {
                Ok(_) => emitted += 1,
                Err(TranslateError::Rejected(r)) => {
                    if r.reason.starts_with("naga") {
                        eprintln!("{name}: {}", r.reason);
                    }
                    *reasons
                        .entry(format!(
                            "{} {}",
                            r.catalog_id,
                            r.reason.lines().next().unwrap_or("")
                        ))
                        .or_default() += 1;
                }
                Err(e) => panic!("{name}: {e}"),
            }
        }
        eprintln!("{profile}: {emitted}/{} emitted", all.len());
        for (r, n) in &reasons {
            eprintln!("  {n:4} {r}");
        }
    }
}
