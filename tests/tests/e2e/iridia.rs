//! The external-translator adapter for the crates.io crate `iridia-dxbc` 0.4.1
//! (examples/translators/iridia): built with cargo (skipped, with the reason, when it cannot be
//! built, e.g. without network for crates.io), one program piped through it by hand, and the
//! peer corpus replayed through it on the GPU. Its answers are always well-formed protocol
//! JSON with a manifest dxdiff reads; what iridia refuses or gets wrong is iridia's.

use crate::support::*;

use std::collections::BTreeSet;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::OnceLock;

/// The adapter's binary, built once per test run; `None`, with the reason printed, when it
/// does not build. Its own target folder (`target/iridia`), since it is not a member of the
/// workspace. No build lock is taken here: the test itself runs under whatever lock the caller
/// holds, and cargo locks its target folder.
fn adapter() -> Option<PathBuf> {
    static BUILT: OnceLock<Option<PathBuf>> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            let target = root().join("target/iridia");
            let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
            let out = Command::new(cargo)
                .args([
                    "build",
                    "--release",
                    "--ignore-rust-version",
                    "--manifest-path",
                ])
                .arg(root().join("examples/translators/iridia/Cargo.toml"))
                .env("CARGO_TARGET_DIR", &target)
                .current_dir(root())
                .output();
            match out {
                Ok(o) if o.status.success() => Some(target.join("release/dxdiff-iridia")),
                Ok(o) => {
                    let err = String::from_utf8_lossy(&o.stderr);
                    let tail: Vec<&str> = err.lines().rev().take(8).collect();
                    eprintln!(
                        "skipped: the iridia adapter does not build (crates.io unreachable?):\n{}",
                        tail.into_iter().rev().collect::<Vec<_>>().join("\n")
                    );
                    None
                }
                Err(e) => {
                    eprintln!("skipped: cannot run cargo to build the iridia adapter: {e}");
                    None
                }
            }
        })
        .clone()
}

/// A small program of the peer corpus: `bfi` (a pixel program reading `cb0[0]`, writing
/// `SV_Target0` as `uint4`), its container's bytes.
fn small_blob() -> Option<Vec<u8>> {
    let peer = shared("corpus/peer");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&peer)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("bfi-") && n.ends_with(".json"))
        })
        .collect();
    names.sort();
    let case: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(names.first()?).ok()?).ok()?;
    let hex = case["dxbc"].as_str()?;
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
        .collect()
}

#[test]
fn iridia_answers_one_program_with_a_manifest_dxdiff_reads() {
    let Some(blob) = small_blob() else {
        eprintln!("skipped: no bfi-*.json in ../shared/corpus/peer");
        return;
    };
    let Some(exe) = adapter() else {
        return;
    };
    let mut child = Command::new(&exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the adapter starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(&blob)
        .expect("writes the container");
    let out = child.wait_with_output().expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let answer: serde_json::Value = serde_json::from_str(&text).expect("one JSON document");
    assert_eq!(answer["status"], "ok", "{answer}");
    let wgsl = answer["wgsl"].as_str().expect("wgsl");
    translator::validate(wgsl).expect("iridia's WGSL validates as dxdiff validates it");
    let manifest: translator::Manifest =
        serde_json::from_value(answer["manifest"].clone()).expect("a manifest dxdiff reads");
    manifest.check().expect("within D3D11's limits");
    assert_eq!(
        (manifest.stage.as_ref(), manifest.entry_point.as_ref()),
        ("fragment", "main")
    );
    // cb0 where iridia declares it: group 0, binding = register, its declared 16 bytes
    let [cb] = manifest.bindings.as_slice() else {
        panic!("one binding: {manifest:?}");
    };
    assert_eq!(cb.kind, translator::manifest::BindingKind::Cbuffer);
    assert_eq!((cb.register, cb.group, cb.binding), (0, 0, 0));
    assert_eq!(
        cb.layout,
        translator::manifest::BindingLayout::UniformVec4Array
    );
    assert_eq!(cb.size_bytes, Some(16));
    assert!(manifest.inputs.is_empty(), "{manifest:?}");
    let [target] = manifest.outputs.as_slice() else {
        panic!("one output: {manifest:?}");
    };
    assert_eq!(
        (target.register, target.mask, target.location),
        (Some(0), 15, Some(0))
    );
    assert_eq!(target.builtin, None);
    assert_eq!(target.wgsl_type, "vec4<u32>");
    assert!(target.semantic.eq_ignore_ascii_case("SV_Target"));
    // no `enable` in this WGSL, so no `enables`
    assert!(answer["manifest"].get("enables").is_none(), "{answer}");
    assert_eq!(
        answer["adaptations"],
        serde_json::json!(["dxdiff/denormals"])
    );
}

/// Crash reasons that would be the adapter's fault: its output or manifest is not what the
/// protocol asks for, or dxdiff cannot place an interface value through it.
const ADAPTER_FAULTS: &[&str] = &[
    "not the protocol's JSON",
    "manifest cannot be fed",
    "not a catalog id",
    "no register for input",
];

/// Measured on lavapipe (Mesa 22.3.6) with iridia-dxbc 0.4.1: 55 of the 73 programs qualify
/// (17 use doubles, one a fall-through `switch` naga's WGSL writer cannot express), 360 runs
/// pass, 3 fail (`ne` with a NaN operand: iridia writes a plain `!=`), 63 are skipped. The
/// bounds leave room for harness changes.
const MIN_QUALIFIED: usize = 40;
const MIN_PASSED: u64 = 180;

#[test]
fn the_peer_corpus_replays_through_iridia() {
    let peer = shared("corpus/peer");
    if !peer.is_dir() {
        eprintln!("skipped: {} not found", peer.display());
        return;
    }
    let Some(exe) = adapter() else {
        return;
    };
    let _turn = gpu_turn();
    let translator = format!("cmd:'{}'", exe.display());
    let out = replay_gpu(&peer, &["--translator", &translator], None)
        .output()
        .expect("runs");
    let Some(out) = with_adapter(out) else {
        return;
    };
    let text = stdout(&out);
    // It completes: 0 when every run passed, 1 when one failed (iridia's result).
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "exit {:?}: {text}{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    let [passed, _failed, _skipped] = replay_summary(&text);
    let last = text.lines().last().unwrap_or("");
    assert!(passed >= MIN_PASSED, "{passed} passed: {text}");
    // A program qualified unless it was rejected or crashed the translator (replay prints no
    // line for a passing run, so the programs are counted from the folder).
    let programs = std::fs::read_dir(&peer)
        .expect("the peer folder")
        .filter_map(|e| e.ok())
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .count();
    let mut refused = BTreeSet::new();
    for line in text.lines() {
        let mut words = line.splitn(3, ' ');
        let (Some(kind), Some(path)) = (words.next(), words.next()) else {
            continue;
        };
        if kind != "SKIP" {
            continue;
        }
        let rest = words.next().unwrap_or("");
        if rest.contains(": rejected: ") || rest.contains("translator crash") {
            refused.insert(path.to_string());
        }
        if rest.contains("translator crash") {
            eprintln!("iridia crashed: {line}");
            assert!(
                !ADAPTER_FAULTS.iter().any(|f| rest.contains(f)),
                "the adapter's answer is malformed: {line}"
            );
        }
    }
    let qualified = programs.saturating_sub(refused.len());
    eprintln!("iridia: {qualified} of {programs} programs qualified; {last}");
    assert!(
        qualified >= MIN_QUALIFIED,
        "{qualified} of {programs} programs qualified: {text}"
    );
}

/// The iridia bugs docs/iridia.md classifies, one minimal case each
/// (examples/translators/iridia/cases/): each still fails or crashes through iridia, and each
/// passes with the built-in exact translator, so the case states D3D's result, not dxdiff's.
#[test]
fn each_iridia_bug_case_fails_through_iridia_and_passes_with_the_builtin() {
    let cases = root().join("examples/translators/iridia/cases");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&cases)
        .expect("the cases folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= 5, "{files:?}");
    let _turn = gpu_turn();
    let builtin = replay_gpu(&cases, &["--profile", "exact"], None)
        .output()
        .expect("runs");
    let Some(builtin) = with_adapter(builtin) else {
        return;
    };
    let text = stdout(&builtin);
    assert_eq!(builtin.status.code(), Some(0), "{text}");
    let Some(exe) = adapter() else {
        return;
    };
    let translator = format!("cmd:'{}'", exe.display());
    for file in &files {
        let out = replay_gpu(file, &["--translator", &translator], None)
            .output()
            .expect("runs");
        let text = stdout(&out);
        let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("");
        // A wrong result fails (exit 1); a crash is skipped with its reason (exit 5).
        match out.status.code() {
            Some(1) => assert!(text.contains("FAIL"), "{name}: {text}"),
            Some(5) => assert!(text.contains("translator crash"), "{name}: {text}"),
            other => panic!("{name}: exit {other:?}, iridia no longer shows the bug: {text}"),
        }
    }
}
