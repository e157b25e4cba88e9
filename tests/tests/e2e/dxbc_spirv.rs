//! dxbc-spirv (DXVK's DXBC compiler) through `--translator dxbc-spirv`: the library and our
//! driver built once with meson (skipped, with the reason, where meson, ninja or
//! `../shared/systems/dxbc-spirv` is absent), the peer corpus replayed on the GPU, the whole
//! corpus qualified with every refusal named, packed varyings run end to end, and each
//! dxbc-spirv bug case of docs/dxbc-spirv.md shown failing through it and passing with the
//! built-in exact translator.

use crate::support::*;

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// The driver, built once per test run into `target/dxbc-spirv` (a second run rebuilds
/// nothing). `flock` keeps two test processes from building into it at once.
fn driver() -> Option<PathBuf> {
    static BUILT: OnceLock<Option<PathBuf>> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            let source = shared("systems/dxbc-spirv");
            if !source.join("meson.build").is_file() {
                eprintln!("skipped: {} not found", source.display());
                return None;
            }
            for tool in ["meson", "ninja", "g++", "flock", "nice"] {
                let found = Command::new("sh")
                    .args(["-c", &format!("command -v {tool}")])
                    .output()
                    .is_ok_and(|o| o.status.success());
                if !found {
                    eprintln!("skipped: `{tool}` is not installed (Debian: meson ninja-build g++)");
                    return None;
                }
            }
            let out_dir = root().join("target/dxbc-spirv");
            let _ = std::fs::create_dir_all(&out_dir);
            // Niced: the other end-to-end tests run GPU work with timeouts meanwhile.
            let out = Command::new("nice")
                .args(["-n", "10", "flock"])
                .arg(out_dir.join("build.lock"))
                .arg(root().join("examples/translators/dxbc-spirv/build.sh"))
                .arg(&source)
                .arg(&out_dir)
                .output();
            match out {
                Ok(o) if o.status.success() => Some(out_dir.join("dxbc-spirv-driver")),
                Ok(o) => panic!(
                    "the dxbc-spirv driver does not build:\n{}",
                    String::from_utf8_lossy(&o.stderr)
                ),
                Err(e) => panic!("cannot run build.sh: {e}"),
            }
        })
        .clone()
}

fn spec(driver: &std::path::Path) -> String {
    format!("dxbc-spirv:{}", driver.display())
}

/// What dxbc-spirv's route refuses in the peer corpus, and why (docs/dxbc-spirv.md): doubles,
/// which naga reads wrongly, and a `switch` whose case falls through, which naga cannot write
/// as WGSL. Every other run passes: 368 of 426 when this was written.
#[test]
fn the_peer_corpus_replays_through_dxbc_spirv() {
    if !shared_present() {
        return;
    }
    let Some(driver) = driver() else {
        return;
    };
    let _turn = gpu_turn();
    let out = replay_gpu(
        shared("corpus/peer"),
        &["--translator", &spec(&driver)],
        None,
    )
    .output()
    .expect("runs");
    let Some(out) = with_adapter(out) else {
        return;
    };
    let text = stdout(&out);
    let [passed, failed, skipped] = replay_summary(&text);
    assert_eq!(failed, 0, "{text}");
    assert!(passed >= 360, "{passed} passed: {text}");
    for line in text.lines().filter(|l| l.starts_with("SKIP")) {
        assert!(
            line.contains("[spirv.doubles]") || line.contains("fall-through switch case"),
            "a refusal docs/dxbc-spirv.md does not name: {line}"
        );
    }
    assert!(skipped <= 60, "{skipped} skipped: {text}");
}

/// Over the whole shared corpus, every program either qualifies or is refused with a coded
/// reason: the library's own, a fix-up's, or naga's (no crash, no bare failure).
#[test]
fn the_corpus_qualifies_with_every_refusal_named() {
    if !shared_present() {
        return;
    }
    let Some(driver) = driver() else {
        return;
    };
    let dir = temp("dxbc-spirv-corpus", "");
    std::fs::create_dir_all(&*dir).expect("dir");
    let record = dir.join("record.json");
    let out = dxdiff()
        .args(["corpus", "--translator", &spec(&driver), "--out"])
        .arg(&record)
        .arg(shared("corpus"))
        .output()
        .expect("runs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        String::from_utf8_lossy(&out.stderr)
    );
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&record).expect("record")).expect("json");
    let totals = &record["totals"];
    assert_eq!(totals["failed"], 0, "{totals}");
    assert!(totals["qualified"].as_u64().unwrap_or(0) >= 135, "{totals}");
    for p in record["programs"].as_array().expect("programs") {
        if p["status"] == "qualified" {
            continue;
        }
        let reason = p["reason"].as_str().unwrap_or("");
        assert!(
            reason.starts_with("[spirv.") || reason.starts_with("dxbc-spirv cannot compile it"),
            "{}: {reason}",
            p["name"]
        );
    }
}

/// A vertex program with two outputs packed in one register (`o1.xy`, `o1.zw`) and
/// `SV_VertexID` (which dxbc-spirv reads as `VertexIndex - BaseVertex`): the packed varying
/// moves to a fresh location and the base vertex reads 0, and every lane matches D3D.
#[test]
fn packed_outputs_and_the_vertex_id_run_end_to_end() {
    let program = shared("corpus/sdk/Sdk/Direct3D11/VarianceShadows11/2DQuadShaders_VS.o");
    if !program.is_file() {
        eprintln!("skipped: {} not found", program.display());
        return;
    }
    let Some(driver) = driver() else {
        return;
    };
    let _turn = gpu_turn();
    let dir = temp("dxbc-spirv-packed", "");
    let out = dxdiff()
        .args([
            "verify",
            "--corpus-only",
            "--corpus-cases",
            "300",
            "--seed",
            "3",
        ])
        .args(["--translator", &spec(&driver), "--corpus"])
        .arg(&program)
        .arg("--out")
        .arg(&*dir)
        .output()
        .expect("runs");
    let Some(out) = with_adapter(out) else {
        return;
    };
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    let totals = &report(&dir)["totals"];
    assert_eq!(totals["mismatch"], 0, "{text}");
    assert!(totals["matched"].as_u64().unwrap_or(0) > 0, "{text}");
}

/// Each dxbc-spirv bug of docs/dxbc-spirv.md, as a minimal case
/// (examples/translators/dxbc-spirv/cases/): it still fails through dxbc-spirv, and passes
/// with the built-in exact translator, so the case states D3D's result, not dxdiff's.
#[test]
fn each_dxbc_spirv_bug_case_fails_through_it_and_passes_with_the_builtin() {
    let cases = root().join("examples/translators/dxbc-spirv/cases");
    let _turn = gpu_turn();
    let builtin = replay_gpu(&cases, &["--profile", "exact"], None)
        .output()
        .expect("runs");
    let Some(builtin) = with_adapter(builtin) else {
        return;
    };
    assert_eq!(builtin.status.code(), Some(0), "{}", stdout(&builtin));
    let Some(driver) = driver() else {
        return;
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(&cases)
        .expect("the cases folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    for file in &files {
        let out = replay_gpu(file, &["--translator", &spec(&driver)], None)
            .output()
            .expect("runs");
        let text = stdout(&out);
        // A wrong result fails (exit 1); a crash is skipped with its reason (exit 5).
        match out.status.code() {
            Some(1) => assert!(text.contains("FAIL"), "{text}"),
            Some(5) => assert!(text.contains("translator crash"), "{text}"),
            other => panic!(
                "{}: exit {other:?}, dxbc-spirv no longer shows the bug: {text}",
                file.display()
            ),
        }
    }
}

/// A driver that is missing, or that dies without answering, is the translator's crash: the
/// program is skipped with the reason and the run goes on (no build needed).
#[test]
fn a_missing_or_dead_driver_is_a_crash_and_the_run_goes_on() {
    let dir = temp("dxbc-spirv-dead", "");
    std::fs::create_dir_all(&*dir).expect("dir");
    let program = assemble(
        &dir,
        "mov",
        "ps_5_0\ndcl_constantbuffer CB0[1], immediateIndexed\ndcl_output o0.xyzw\nmov o0, cb0[0]\nret\n",
    );
    for (driver, why) in [
        ("/nonexistent/dxbc-spirv-driver", "no dxbc-spirv driver at"),
        ("/bin/false", "translator crash"),
    ] {
        let record = dir.join("record.json");
        let out = dxdiff()
            .args(["corpus", "--translator", &format!("dxbc-spirv:{driver}")])
            .arg("--out")
            .arg(&record)
            .arg(&program)
            .output()
            .expect("runs");
        let text = format!("{}{}", stdout(&out), String::from_utf8_lossy(&out.stderr));
        assert!(matches!(out.status.code(), Some(0 | 1)), "{text}");
        let record = std::fs::read_to_string(&record).expect("record");
        assert!(record.contains(why), "{driver}: {record}");
    }
}

/// The cases under `cases/route/` hold what dxdiff's SPIR-V fix-ups repair (a dropped fetch
/// offset, a truncated array layer, a NaN test folded away): each passes through dxbc-spirv.
/// Those under `cases/naga/` hold naga's own bugs on this route: each still fails through it.
/// Both pass with the built-in exact translator, so they state D3D's result.
#[test]
fn route_fixes_hold_and_naga_bugs_are_still_there() {
    let cases = root().join("examples/translators/dxbc-spirv/cases");
    let _turn = gpu_turn();
    for folder in ["route", "naga"] {
        let out = replay_gpu(cases.join(folder), &["--profile", "exact"], None)
            .output()
            .expect("runs");
        let Some(out) = with_adapter(out) else {
            return;
        };
        assert_eq!(out.status.code(), Some(0), "{folder}: {}", stdout(&out));
    }
    let Some(driver) = driver() else {
        return;
    };
    let route = replay_gpu(cases.join("route"), &["--translator", &spec(&driver)], None)
        .output()
        .expect("runs");
    assert_eq!(route.status.code(), Some(0), "{}", stdout(&route));
    let naga = replay_gpu(cases.join("naga"), &["--translator", &spec(&driver)], None)
        .output()
        .expect("runs");
    assert_eq!(
        naga.status.code(),
        Some(1),
        "naga's bug is gone: {}",
        stdout(&naga)
    );
}
