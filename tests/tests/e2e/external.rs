//! `--translator cmd:<command line>`: the example adapter (examples/translators/builtin.sh)
//! gives exactly the built-in translator's results, and a translator that crashes, hangs or
//! prints garbage is recorded as a translator crash while the run completes.

use crate::support::*;

use std::path::Path;
use std::process::{Command, Output};

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
    // The same programs skipped, for the same reasons (the translator's refusals of the
    // comparison-sampler and `lod` programs): the adapter adds none.
    let skips = |r: &serde_json::Value| -> Vec<(String, String)> {
        r["programs"]
            .as_array()
            .expect("programs")
            .iter()
            .filter(|p| !p["skipped"].is_null())
            .map(|p| (p["name"].to_string(), p["skipped"].to_string()))
            .collect()
    };
    assert_eq!(skips(&ra), skips(&rb));
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
    // The fuzzer's vkd3d divergences (docs/fuzz.md): the three lowering bugs fail with vkd3d;
    // the device's factored `dp2` (`x*y + x*y` as `x*(y + y)`) is adapted by `dxdiff/fusion`.
    let fuzzed = |translator: &str| replay_in("docs/vkd3d-fuzz", translator);
    let v = fuzzed("vkd3d");
    let text = String::from_utf8_lossy(&v.stdout);
    assert!(text.ends_with("1 passed, 3 failed, 0 skipped\n"), "{text}");
    assert!(
        text.lines().any(|l| l.starts_with("ADAPTED ")
            && l.contains("fuzz-2681-dp2.json")
            && l.contains("adapted(dxdiff/fusion)")),
        "{text}"
    );
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
    let said = String::from_utf8_lossy(&fuzz.stderr);
    assert!(said.contains("rejects every stage"), "{said}");
    // Each probe it dropped names the translator's own reason.
    assert!(
        said.contains("feature stage pixel ([dxdiff/refused] not my format (instruction 0))"),
        "{said}"
    );
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

/// A case whose program stores `(3i, i)` into element `i` of a typed UAV of `R32G32_UINT`
/// elements, for 32 threads, expecting exactly that (`verify` draws its own inputs for it:
/// a UAV of `R32_UINT` elements).
fn typed_uav_case(dir: &Path) -> std::path::PathBuf {
    let blob = assemble(
        dir,
        "typed",
        "cs_5_0\ndcl_uav_typed_buffer (uint,uint,uint,uint) u0\ndcl_input vThreadIDInGroupFlattened\n\
         dcl_temps 1\ndcl_thread_group 32, 1, 1\nimul null, r0.x, vThreadIDInGroupFlattened.x, l(3)\n\
         mov r0.y, vThreadIDInGroupFlattened.x\n\
         store_uav_typed u0.xyzw, vThreadIDInGroupFlattened.xxxx, r0.xyxx\nret\n",
    );
    let hex: String = std::fs::read(&blob)
        .expect("blob")
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let expect: Vec<String> = (0..32u32)
        .flat_map(|i| [3 * i, i])
        .map(|w| format!("0x{w:08x}"))
        .collect();
    let case = serde_json::json!({
        "format": "dxdiff-case/1", "name": "typed-uav", "dxbc": hex,
        "runs": [{ "id": "one", "dispatch": [1, 1, 1],
            "inputs": { "u0": { "size_bytes": 256, "words": [], "format": "R32G32_UINT" } },
            "expect": { "u0": { "words": expect, "compare": "bits" } } }],
    });
    let path = dir.join("typed.json");
    std::fs::write(&path, case.to_string()).expect("case");
    path
}

/// A translator that lowers the typed UAV to `texture_storage_1d<FORMAT, write>` and stores
/// `value` (WGSL of `i`) at texel `i`.
fn storage_texture_translator(dir: &Path, name: &str, format: &str, value: &str) -> String {
    let wgsl = format!(
        "@group(0) @binding(0) var u0: texture_storage_1d<{format}, write>;\n\
         @compute @workgroup_size(32, 1, 1)\n\
         fn main(@builtin(local_invocation_index) i: u32) {{\n    textureStore(u0, i32(i), {value});\n}}\n"
    );
    let answer = serde_json::json!({
        "status": "ok", "wgsl": wgsl, "adaptations": [],
        "manifest": { "stage": "compute", "entry_point": "main", "workgroup_size": [32, 1, 1],
            "bindings": [{ "kind": "uav", "register": 0, "group": 0, "binding": 0,
                "layout": format!("texture_storage_1d<{format}, write>") }],
            "inputs": [{ "builtin": "local_invocation_index", "mask": 1, "register": null,
                "semantic": "SV_GroupIndex", "wgsl_type": "u32" }],
            "outputs": [] },
    });
    fixed_answer(&dir.join(format!("{name}-translator")), &answer)
}

/// A UAV that a translator's WGSL declares as a storage texture is bound as one texture row,
/// one texel per element, filled from the UAV's words and read back into them: a right
/// lowering matches (in `verify`, and in `replay` with two-word elements), a wrong one
/// mismatches. A format whose texels are not 32-bit lanes is the harness's limit
/// (unfeedable, nothing compared, exit 5), never a translator crash.
#[test]
fn a_storage_texture_uav_is_fed_as_a_texture() {
    let _turn = gpu_turn();
    let dir = temp("cmd", "storage-texture");
    std::fs::create_dir_all(&dir).expect("scratch");
    let case = typed_uav_case(&dir);
    let case = case.to_str().expect("utf-8 path");
    let run = |name: &str, format: &str, value: &str| {
        let translator = storage_texture_translator(&dir, name, format, value);
        let out = verify(
            &translator,
            &dir.join(name),
            &["--corpus-only", "--corpus", case],
        )?;
        Some((out.status.code(), report(&dir.join(name))))
    };
    let Some((code, r)) = run("right", "rgba32uint", "vec4<u32>(3u * i, i, 0u, 0u)") else {
        return;
    };
    assert_eq!(code, Some(0), "{}", r["totals"]);
    let lanes = r["totals"]["lanes"].as_u64().unwrap_or(0);
    assert!(
        lanes > 0 && r["totals"]["matched"] == lanes,
        "{}",
        r["totals"]
    );
    let (code, r) = run("wrong", "rg32uint", "vec4<u32>(3u * i + 1u, i, 0u, 0u)").expect("adapter");
    assert_eq!(code, Some(1), "{}", r["totals"]);
    assert!(
        r["totals"]["mismatch"].as_u64().unwrap_or(0) > 0,
        "{}",
        r["totals"]
    );
    // Two words per element: the texel's second lane is the element's second word.
    for (name, format, value, passes) in [
        ("two", "rg32uint", "vec4<u32>(3u * i, i, 0u, 0u)", true),
        (
            "two-wrong",
            "rgba32uint",
            "vec4<u32>(3u * i, i + 1u, 0u, 0u)",
            false,
        ),
    ] {
        let translator = storage_texture_translator(&dir, name, format, value);
        let out = replay_gpu(case, &["--translator", &translator], None)
            .output()
            .expect("runs");
        let text = stdout(&out);
        let want = if passes {
            "1 passed, 0 failed"
        } else {
            "0 passed, 1 failed"
        };
        assert!(text.contains(want), "{name}: {text}");
    }
    let (code, r) = run("unorm", "rgba8unorm", "vec4<f32>(1.0)").expect("adapter");
    assert_eq!(code, Some(5), "{}", r["totals"]);
    assert!(r["skips"]["translator-crash"].is_null(), "{}", r["skips"]);
    let why = r["programs"][0]["skipped"].as_str().unwrap_or("");
    assert!(
        why.contains("cannot be fed") && why.contains("rgba8unorm"),
        "{why}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A persistent translator (`serve:`) that fails the protocol is a crash of each program it
/// fails, and the run goes on with a fresh process: one that dies, one that hangs, one that
/// answers garbage, and one that answers another request's id.
#[test]
fn persistent_translators_that_die_hang_or_lie_are_crashes_of_one_program_each() {
    let _turn = gpu_turn();
    let cases = root().join("examples/cases");
    let cases = cases.to_str().expect("utf-8 path");
    for (name, translator, why) in [
        (
            "die",
            "serve:echo boom >&2; exit 3",
            "exited with exit status: 3",
        ),
        ("hang", "serve:sleep 30", "no answer within"),
        (
            "garbage",
            "serve:while read -r l; do echo garbage; done",
            "not the protocol's JSON",
        ),
        (
            "wrong-id",
            r#"serve:while read -r l; do echo '{"id":999999,"status":"rejected","reason":"x"}'; done"#,
            "answered request 999999",
        ),
    ] {
        let dir = temp("serve", name);
        let Some(out) = verify(translator, &dir, &["--corpus-only", "--corpus", cases]) else {
            return;
        };
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(5), "{name}: {stdout}");
        let r = report(&dir);
        assert_eq!(r["skips"]["translator-crash"], 5, "{name}: {stdout}");
        for p in r["programs"].as_array().expect("programs") {
            let skipped = p["skipped"].as_str().unwrap_or("");
            assert!(skipped.contains(why), "{name}: {skipped}");
        }
        if name == "die" {
            let first = r["programs"][0]["skipped"].as_str().unwrap_or("");
            assert!(first.contains("boom"), "{first}");
        }
    }
}

/// A persistent translator that quits after each answer is restarted for the next program, and
/// no program is blamed for it: every program gets the answer it was given (a refusal here).
#[test]
fn a_persistent_translator_that_quits_between_programs_is_restarted_unblamed() {
    let _turn = gpu_turn();
    let cases = root().join("examples/cases");
    let cases = cases.to_str().expect("utf-8 path");
    let once = r#"serve:read -r l; id=$(printf '%s' "$l" | sed 's/^{"id":\([0-9]*\).*/\1/'); printf '{"id":%s,"status":"rejected","reason":"one and done"}\n' "$id""#;
    let dir = temp("serve", "once");
    let Some(out) = verify(once, &dir, &["--corpus-only", "--corpus", cases]) else {
        return;
    };
    let r = report(&dir);
    assert_eq!(
        r["skips"]["rejected"],
        5,
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(r["skips"]["translator-crash"].is_null(), "{}", r["skips"]);
}

/// The persistent form of a translator gives the one-shot form's report, lane for lane: the
/// node example, both ways, over the built-in programs.
#[test]
fn persistent_and_one_shot_runs_of_one_translator_agree() {
    let has_node = std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_node {
        eprintln!("skipped: node is not on PATH");
        return;
    }
    let _turn = gpu_turn();
    let script = "examples/translators/node/translate.js";
    let (a, b) = (temp("serve", "node-cmd"), temp("serve", "node-serve"));
    let Some(_) = verify(&format!("cmd:node {script}"), &a, &[]) else {
        return;
    };
    let Some(_) = verify(&format!("serve:node {script} --serve"), &b, &[]) else {
        return;
    };
    let (ra, rb) = (report(&a), report(&b));
    assert_eq!(ra["totals"], rb["totals"]);
    assert_eq!(ra["skips"], rb["skips"]);
    assert!(ra["totals"]["lanes"].as_u64().unwrap_or(0) > 0);
}
