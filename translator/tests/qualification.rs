//! Qualification over the shared corpora: every blob either translates to WGSL that naga
//! accepts (its module, and the text written from it, parsed again), or is rejected with a
//! reason and a catalog id. Never a panic.

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
        // (programs, emitted) for peer blobs without doubles and for SDK ps/vs/cs blobs.
        let (mut peer, mut sdk) = ((0usize, 0usize), (0usize, 0usize));
        let mut naga_failures = Vec::new();
        for (name, blob) in &all {
            let stage = dxbc::Shader::parse(blob)
                .map(|s| s.program.version.stage)
                .ok();
            let graphics_or_compute = matches!(
                stage,
                Some(dxbc::Stage::Pixel | dxbc::Stage::Vertex | dxbc::Stage::Compute)
            );
            let result = translate_blob(blob, profile);
            // naga validated the module the WGSL was written from; the text itself must also
            // parse and validate, or naga's writer and front end disagree (nothing in the
            // translator parses it, but the harness and a GPU driver will).
            if let Ok(t) = &result
                && let Err(e) = translator::validate_enabling(&t.wgsl, &t.manifest.enables)
            {
                naga_failures.push(format!("{name}: the written WGSL: {e}"));
            }
            let double = matches!(&result, Err(TranslateError::Rejected(r)) if r.catalog_id == "dxdiff/doubles");
            let ok = result.is_ok();
            match result {
                Ok(_) => {}
                Err(TranslateError::Rejected(r)) => {
                    if r.reason.starts_with("naga") {
                        naga_failures.push(format!("{name}: {}", r.reason));
                    }
                    let key = format!("{} {}", r.catalog_id, r.reason.lines().next().unwrap_or(""));
                    *reasons.entry(key).or_default() += 1;
                }
                Err(e) => panic!("{name}: {e}"),
            }
            if name.contains("/peer/") && !double {
                peer.0 += 1;
                peer.1 += usize::from(ok);
            }
            if name.contains("/sdk/") && graphics_or_compute {
                sdk.0 += 1;
                sdk.1 += usize::from(ok);
            }
        }
        eprintln!(
            "{profile}: peer without doubles {}/{}, SDK ps/vs/cs {}/{}",
            peer.1, peer.0, sdk.1, sdk.0
        );
        for (r, n) in &reasons {
            eprintln!("  {n:4} {r}");
        }
        assert!(
            naga_failures.is_empty(),
            "emitted WGSL that naga rejects:\n{}",
            naga_failures.join("\n")
        );
        assert!(
            peer.1 * 100 >= peer.0 * 95,
            "{profile}: peer qualification below 95%"
        );
        assert!(
            sdk.1 * 100 >= sdk.0 * 80,
            "{profile}: SDK qualification below 80%"
        );
    }
}
