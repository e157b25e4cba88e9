//! `--translator cmd:<command line>`: the example adapter (examples/translators/builtin.sh)
//! gives exactly the built-in translator's results, and a translator that crashes, hangs or
//! prints garbage is recorded as a translator crash while the run completes.

use crate::support::*;

use std::path::Path;
use std::process::{Command, Output};

fn report(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).expect("report"))
        .expect("json")
}

/// `None` when there is no usable adapter.
fn verify(translator: &str, dir: &Path, extra: &[&str]) -> Option<Output> {
    let out = dxdiff()
        .args([
            "verify",
            "--cases",
            "300",
            "--seed",
            "4",
            "--profile",
            "exact",
        ])
        .args(["--translator", translator, "--translator-timeout", "2"])
        .args(extra)
        .arg("--out")
        .arg(dir)
        .current_dir(root())
        .output()
        .expect("runs");
    if out.status.code() == Some(4) {
        eprintln!("skipped: no usable GPU adapter");
        return None;
    }
    Some(out)
}

#[test]
fn the_example_adapter_gives_the_builtin_results() {
    let _turn = gpu_turn();
    let adapter = "cmd:DXDIFF_PROFILE=exact sh examples/translators/builtin.sh";
    let (a, b) = (temp("cmd", "adapter"), temp("cmd", "builtin"));
    let Some(out) = verify(adapter, &a, &[]) else {
        return;
    };
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    verify("builtin", &b, &[]).expect("adapter");
    let (ra, rb) = (report(&a), report(&b));
    assert_eq!(ra["totals"], rb["totals"]);
    assert_eq!(ra["adapted_by"], rb["adapted_by"]);
    assert!(ra["totals"]["lanes"].as_u64().unwrap_or(0) > 20_000);
    assert!(
        ra["programs"]
            .as_array()
            .expect("programs")
            .iter()
            .all(|p| p["skipped"].is_null())
    );
}

#[test]
fn crashing_hanging_and_garbage_translators_are_recorded() {
    let _turn = gpu_turn();
    let cases = root().join("examples/cases");
    let cases = cases.to_str().expect("utf-8 path");
    for (name, translator, why) in [
        ("crash", "cmd:echo boom >&2; exit 3", "exited with"),
        ("hang", "cmd:sleep 30", "no answer within"),
        ("garbage", "cmd:echo garbage", "not the protocol's JSON"),
    ] {
        let dir = temp("cmd", name);
        let Some(out) = verify(translator, &dir, &["--corpus-only", "--corpus", cases]) else {
            return;
        };
        let stdout = String::from_utf8_lossy(&out.stdout);
        // Every program crashed the translator: nothing was compared, which is no pass.
        assert_eq!(out.status.code(), Some(5), "{name}: {stdout}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("no lane was compared"),
            "{name}"
        );
        assert!(
            stdout
                .lines()
                .last()
                .unwrap_or("")
                .starts_with("verify: 5 programs")
        );
        let r = report(&dir);
        assert_eq!(r["skips"]["translator-crash"], 5, "{name}: {stdout}");
        for p in r["programs"].as_array().expect("programs") {
            let skipped = p["skipped"].as_str().unwrap_or("");
            assert!(skipped.contains(why), "{name}: {skipped}");
        }
        if name == "crash" {
            assert!(
                r["programs"][0]["skipped"]
                    .as_str()
                    .unwrap_or("")
                    .contains("boom")
            );
        }
        // replay skips every run with the reason; translate exits 2.
        let replay = replay_gpu(
            cases,
            &["--translator", translator, "--translator-timeout", "2"],
            None,
        )
        .output()
        .expect("runs");
        let text = String::from_utf8_lossy(&replay.stdout);
        assert_eq!(replay.status.code(), Some(5), "{name}: {text}");
        assert!(
            text.lines().last().unwrap_or("").ends_with(" skipped"),
            "{text}"
        );
        assert!(text.contains("translator crash"), "{text}");
        let translate = dxdiff()
            .args([
                "translate",
                "--translator",
                translator,
                "--translator-timeout",
                "2",
            ])
            .arg(root().join("examples/cases/flow.json"))
            .output()
            .expect("runs");
        assert_eq!(translate.status.code(), Some(2), "{name}");
    }
}

/// `--translator vkd3d`: the divergences found on the corpora, minimized in docs/vkd3d/. Five
/// still fail with vkd3d; two fall under the WGSL latitude vkd3d's profile claims, and are
/// reported as adapted under exactly those entries. All pass with the built-in exact profile.
#[test]
fn vkd3d_reproduces_its_documented_divergences() {
    let _turn = gpu_turn();
    let has_vkd3d = Command::new("vkd3d-compiler")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_vkd3d {
        eprintln!("skipped: vkd3d-compiler is not installed (apt-get install vkd3d-compiler)");
        return;
    }
    let replay_in = |folder: &str, translator: &str| {
        replay_gpu(
            root().join(folder),
            &["--profile", "exact", "--translator", translator],
            None,
        )
        .output()
        .expect("runs")
    };
    let replay = |translator: &str| replay_in("docs/vkd3d", translator);
    let vkd3d = replay("vkd3d");
    if vkd3d.status.code() == Some(4) {
        eprintln!("skipped: no usable GPU adapter");
        return;
    }
    let text = String::from_utf8_lossy(&vkd3d.stdout);
    assert_eq!(vkd3d.status.code(), Some(1), "{text}");
    assert!(text.ends_with("3 passed, 4 failed, 0 skipped\n"), "{text}");
    for failing in [
        "frc_rounds_to_one",
        "ftoi_overflow",
        "ftou_overflow",
        "imul_high_word",
    ] {
        assert!(
            text.lines()
                .any(|l| l.starts_with("FAIL ") && l.contains(&format!("{failing}.json"))),
            "{failing}: {text}"
        );
    }
    // A width conversion leaves a NaN's payload free (docs/interpreter.md), so the signalling
    // NaN the device quiets passes outright, with no entry credited.
    assert!(
        !text
            .lines()
            .any(|l| l.contains("f16tof32_nan_payload.json")),
        "{text}"
    );
    for (adapted, id) in [
        ("f32tof16_rounding", "dxdiff/f16-rounding"),
        ("ne_nan", "dxdiff/nan"),
    ] {
        assert!(
            text.lines().any(|l| l.starts_with("ADAPTED ")
                && l.contains(&format!("{adapted}.json"))
                && l.contains(&format!("adapted({id})"))),
            "{adapted}: {text}"
        );
    }
    // The fuzzer's vkd3d divergences (docs/fuzz.md): all four fail with vkd3d.
    let fuzzed = |translator: &str| replay_in("docs/vkd3d-fuzz", translator);
    let v = fuzzed("vkd3d");
    let text = String::from_utf8_lossy(&v.stdout);
    assert!(text.ends_with("0 passed, 4 failed, 0 skipped\n"), "{text}");
    let b = fuzzed("builtin");
    let text = String::from_utf8_lossy(&b.stdout);
    assert!(text.ends_with("4 passed, 0 failed, 0 skipped\n"), "{text}");
    let builtin = replay("builtin");
    assert_eq!(
        builtin.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&builtin.stdout)
    );
}

/// A translator that refuses every program (a third party whose decoder reads another token
/// format did exactly this): no command may read that as a pass. `verify`, `corpus --verify`,
/// `sweep` and `replay` compare nothing and exit 5 with a warning; `fuzz` stops before its first
/// program, naming what the support probe removed.
#[test]
fn a_translator_that_refuses_everything_is_no_pass() {
    let _turn = gpu_turn();
    // A rejection that names no catalog id: filed under the neutral `dxdiff/refused`.
    let refuse = r#"cmd:echo '{"status":"rejected","reason":"not my format","instruction":0}'"#;
    let cases = root().join("examples/cases");
    let cases = cases.to_str().expect("utf-8 path");
    let dir = temp("cmd", "refuse");
    let Some(out) = verify(
        refuse,
        &dir.join("verify"),
        &["--corpus-only", "--corpus", cases],
    ) else {
        return;
    };
    let warned = |o: &std::process::Output| {
        String::from_utf8_lossy(&o.stderr).contains("no lane was compared")
    };
    assert_eq!(out.status.code(), Some(5), "{}", stdout(&out));
    assert!(warned(&out));
    let r = report(&dir.join("verify"));
    for p in r["programs"].as_array().expect("programs") {
        let skipped = p["skipped"].as_str().unwrap_or("");
        assert!(skipped.contains("dxdiff/refused"), "{skipped}");
    }
    let fuzz = dxdiff()
        .args([
            "fuzz",
            "-q",
            "--programs",
            "5",
            "--translator",
            refuse,
            "--out",
        ])
        .arg(dir.join("fuzz"))
        .output()
        .expect("runs");
    assert_eq!(fuzz.status.code(), Some(5), "{}", stdout(&fuzz));
    assert!(String::from_utf8_lossy(&fuzz.stderr).contains("rejects every stage"));
    let sweep = dxdiff()
        .args([
            "sweep",
            "rcp",
            "--from",
            "0",
            "--to",
            "15",
            "-q",
            "--translator",
            refuse,
        ])
        .arg("--out")
        .arg(dir.join("sweep"))
        .output()
        .expect("runs");
    assert_eq!(sweep.status.code(), Some(5), "{}", stdout(&sweep));
    assert!(warned(&sweep));
    let corpus = dxdiff()
        .args([
            "corpus",
            cases,
            "--verify",
            "4",
            "-q",
            "--translator",
            refuse,
        ])
        .arg("--cases-dir")
        .arg(dir.join("corpus-cases"))
        .output()
        .expect("runs");
    assert_eq!(corpus.status.code(), Some(5), "{}", stdout(&corpus));
    assert!(warned(&corpus));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A UAV that a translator's WGSL declares as a storage texture cannot be fed as a buffer: the
/// program is skipped as unfeedable (the harness's limit), not recorded as a translator crash
/// (binding a buffer there made the device reject the pipeline). Every lane inconclusive:
/// nothing was compared, exit 5.
#[test]
fn a_storage_texture_uav_is_unfeedable_not_a_crash() {
    let _turn = gpu_turn();
    let dir = temp("cmd", "storage-texture");
    std::fs::create_dir_all(&dir).expect("scratch");
    let script = dir.join("translator.sh");
    std::fs::write(
        &script,
        r#"cat >/dev/null
cat <<'JSON'
{"status":"ok","wgsl":"@group(0) @binding(0) var u0: texture_storage_2d<r32uint, write>;\n@compute @workgroup_size(32, 1, 1)\nfn main(@builtin(local_invocation_index) i: u32) {\n    textureStore(u0, vec2<i32>(i32(i), 0), vec4<u32>(i, 0u, 0u, 0u));\n}\n","manifest":{"bindings":[{"binding":0,"group":0,"kind":"uav","layout":"texture_storage_2d<r32uint, write>","register":0}],"entry_point":"main","inputs":[{"builtin":"local_invocation_index","mask":1,"register":null,"semantic":"SV_GroupIndex","wgsl_type":"u32"}],"outputs":[],"stage":"compute","workgroup_size":[32,1,1]}}
JSON
"#,
    )
    .expect("script");
    let translator = format!("cmd:sh {}", script.display());
    let case = root().join("examples/cases/compute_atomics.json");
    let case = case.to_str().expect("utf-8 path");
    let Some(out) = verify(
        &translator,
        &dir.join("out"),
        &["--corpus-only", "--corpus", case],
    ) else {
        return;
    };
    assert_eq!(out.status.code(), Some(5), "{}", stdout(&out));
    let r = report(&dir.join("out"));
    assert!(r["skips"]["translator-crash"].is_null(), "{}", r["skips"]);
    let p = &r["programs"][0];
    let why = p["skipped"].as_str().unwrap_or("");
    assert!(
        why.contains("cannot be fed") && why.contains("texture_storage_2d"),
        "{why}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
