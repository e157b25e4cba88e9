//! Snapshot tests: one small program per lowering rule under `tests/in`, named for its catalog
//! id (`adapted.rcp-division.asm` is `adapted/rcp-division`), and its WGSL per profile under
//! `tests/out`, reviewed through git diff. `DXDIFF_BLESS=1` rewrites the expected files.

use std::path::Path;

use translator::{Profile, translate};

fn render(asm: &str, profile: Profile) -> String {
    let container = dxbc::assemble_container(asm).expect("snapshot program assembles");
    let shader = dxbc::Shader::parse(&container.to_bytes()).expect("reparses");
    match translate(&shader, profile) {
        Ok(t) => {
            let manifest = serde_json::to_string_pretty(&t.manifest).expect("manifest serialises");
            format!(
                "// adaptations: {}\n{}\n/* manifest\n{manifest}\n*/\n",
                t.adaptations.join(", "),
                t.wgsl
            )
        }
        Err(r) => format!("rejected: {r}\n"),
    }
}

#[test]
fn snapshots_match() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let bless = std::env::var_os("DXDIFF_BLESS").is_some();
    let mut inputs: Vec<_> = std::fs::read_dir(dir.join("in"))
        .expect("tests/in")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "asm"))
        .collect();
    inputs.sort();
    assert!(!inputs.is_empty());
    let mut stale = Vec::new();
    for input in &inputs {
        let asm = std::fs::read_to_string(input).expect("readable");
        let stem = input
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("utf-8 name");
        // The file name is the catalog id the program exercises.
        let id = stem.replacen('.', "/", 1);
        assert!(
            oracles::catalog::catalog().get(&id).is_some(),
            "{stem}: no catalog entry `{id}`"
        );
        for profile in [Profile::Contract, Profile::Exact] {
            let got = render(&asm, profile);
            assert_eq!(
                got,
                render(&asm, profile),
                "{stem}: output is not deterministic"
            );
            let out = dir.join("out").join(format!("{stem}.{profile}.wgsl"));
            if bless {
                std::fs::write(&out, &got).expect("write snapshot");
            } else if std::fs::read_to_string(&out).ok().as_deref() != Some(got.as_str()) {
                stale.push(out.display().to_string());
            }
        }
    }
    assert!(
        stale.is_empty(),
        "snapshots differ (rerun with DXDIFF_BLESS=1 and review the diff):\n{}",
        stale.join("\n")
    );
}
