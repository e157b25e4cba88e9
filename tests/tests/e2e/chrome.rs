//! Chrome's WebGPU as a kernel runner (`--executor chrome`) and Tint as a gate. Every test
//! needs a browser; where none is installed it says so and returns.
//!
//! The first test is the evidence behind the catalog entries scoped to Chrome's SwiftShader
//! (`dxdiff/chrome-no-nan`, and `swiftshader` in `dxdiff/ftz-before-rounding`): minimal WGSL
//! kernels whose results are the latitude. When it fails on SwiftShader, the behaviour changed
//! and the entries should follow.

use std::time::{Duration, Instant};

use crate::support::*;

use harness::chrome::{Chrome, ChromeOptions};
use harness::gpu::executor::KernelRunner;
use harness::gpu::isolated::Request;
use harness::gpu::{ComputeInputs, GpuError};

/// NaN tests, exp2 of a NaN, and a product just below 2^-126 that rounds up to it; every
/// operand comes from the buffer, so nothing folds at compile time.
const LATITUDES: &str = r#"
@group(0) @binding(0) var<storage, read_write> io: array<u32>;

@compute @workgroup_size(1)
fn main() {
    let x = bitcast<f32>(io[0]);
    io[1] = u32(x != x);
    io[2] = bitcast<u32>(exp2(x));
    io[3] = bitcast<u32>(bitcast<f32>(io[4]) * bitcast<f32>(io[5]));
}
"#;

/// A loop that ends only when its buffer says so, which it never does.
const HANG: &str = r#"
@group(0) @binding(0) var<storage, read_write> io: array<u32>;

@compute @workgroup_size(1)
fn main() {
    loop {
        if (io[0] == 12345u) { break; }
        io[1] = io[1] + 1u;
    }
}
"#;

fn request(wgsl: &str, words: Vec<u32>) -> Request {
    let manifest = one_uav_manifest();
    let mut inputs = ComputeInputs::default();
    let bytes = words.len() as u32 * 4;
    inputs.uavs.insert(0, (words, bytes));
    Request {
        wgsl: wgsl.into(),
        entry_point: "main".into(),
        manifest,
        inputs,
        groups: [1, 1, 1],
        records: None,
    }
}

fn browser(timeout: Duration) -> Option<Chrome> {
    if !harness::chrome::available(None) {
        eprintln!("skipped: no browser (install chromium or set $CHROME)");
        return None;
    }
    match Chrome::new(ChromeOptions {
        timeout,
        ..ChromeOptions::default()
    }) {
        Ok(c) => Some(c),
        Err(GpuError::NoAdapter(why)) => {
            eprintln!("skipped: {why}");
            None
        }
        Err(e) => panic!("the browser: {e}"),
    }
}

#[test]
fn a_kernel_runs_in_the_browser_and_its_words_show_the_chrome_latitudes() {
    let Some(mut chrome) = browser(Duration::from_secs(30)) else {
        return;
    };
    let words = vec![0x7fc0_0000, 7, 7, 7, 0x3f7f_ffff, 0x0080_0000];
    let got = chrome.run(&request(LATITUDES, words)).expect("runs");
    let io = &got.uavs[&0];
    eprintln!("{}: {io:08x?}", chrome.description);
    // The untouched words come back as they went.
    assert_eq!(&io[4..], [0x3f7f_ffff, 0x0080_0000]);
    let applies = |id: &str| {
        oracles::catalog::catalog()
            .get(id)
            .expect("the entry exists")
            .applies(&[], &chrome.description)
    };
    assert!(applies("dxdiff/chrome-no-nan"), "scoped to every Chrome");
    if chrome.description.contains("swiftshader") {
        // The NaN test is folded away, and exp2 of a NaN is +inf.
        assert_eq!(io[1], 0);
        assert_eq!(io[2], 0x7f80_0000);
        // Tininess before rounding: 2^-126 - 2^-150 flushes where it should round to 2^-126.
        assert!(applies("dxdiff/ftz-before-rounding"));
        assert_eq!(io[3], 0);
    }
}

#[test]
fn a_hung_job_and_a_killed_browser_cost_only_their_own_jobs() {
    let Some(mut chrome) = browser(Duration::from_secs(2)) else {
        return;
    };
    let good = || request(LATITUDES, vec![0, 0, 0, 0, 0x3f80_0000, 0x4000_0000]);
    // A hang: the page gives up after its deadline and the GPU process is killed.
    let hung = chrome.run(&request(HANG, vec![0, 0]));
    assert!(
        matches!(hung, Err(GpuError::Timeout(_) | GpuError::DeviceLost(_))),
        "{hung:?}"
    );
    let after = chrome.run(&good()).expect("the next job runs");
    assert_eq!(after.uavs[&0][3], 0x4000_0000, "1 * 2");
    // The browser killed mid-job: that job is lost, the browser comes back for the next.
    let pid = chrome.browser_pid().expect("a browser");
    let killer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(700));
        let _ = std::process::Command::new("kill")
            .args(["-KILL", "--", &format!("-{pid}")])
            .status();
    });
    let long = chrome.run(&request(HANG, vec![0, 0]));
    killer.join().expect("killer");
    assert!(long.is_err(), "{long:?}");
    let started = Instant::now();
    let again = chrome
        .run(&good())
        .expect("a restarted browser runs the next job");
    assert_eq!(again.uavs[&0][3], 0x4000_0000);
    assert!(chrome.starts >= 2, "the browser was started again");
    eprintln!("restart and job: {:?}", started.elapsed());
}

/// The living processes of process group `group` whose command line contains `marker`.
fn group_members(group: u32, marker: &str) -> Vec<u32> {
    processes()
        .into_iter()
        .filter(|p| p.group == group && p.cmdline.contains(marker))
        .map(|p| p.pid)
        .collect()
}

/// A page whose renderer crashed mid-job is found by its silent heartbeat within seconds, not
/// after the job's deadline plus its grace (45 s here), and the next job runs on a new browser.
#[test]
fn a_crashed_page_costs_seconds_not_the_deadline() {
    let Some(mut chrome) = browser(Duration::from_secs(30)) else {
        return;
    };
    let good = || request(LATITUDES, vec![0, 0, 0, 0, 0x3f80_0000, 0x4000_0000]);
    chrome.run(&good()).expect("the first job runs");
    let group = chrome.browser_pid().expect("a browser");
    let renderers = group_members(group, "--type=renderer");
    assert!(!renderers.is_empty(), "the page has a renderer");
    let killer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(700));
        for pid in renderers {
            let _ = std::process::Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .status();
        }
    });
    let started = Instant::now();
    let lost = chrome.run(&request(HANG, vec![0, 0]));
    killer.join().expect("killer");
    let took = started.elapsed();
    match &lost {
        Err(GpuError::DeviceLost(why)) => assert!(why.contains("page crashed"), "{why}"),
        other => panic!("a crashed page is a lost device: {other:?}"),
    }
    assert!(took < Duration::from_secs(25), "found after {took:?}");
    let again = chrome
        .run(&good())
        .expect("a new browser runs the next job");
    assert_eq!(again.uavs[&0][3], 0x4000_0000);
}

#[test]
fn replay_runs_on_both_executors_and_compares_them() {
    if !harness::chrome::available(None) {
        eprintln!("skipped: no browser");
        return;
    }
    let _turn = gpu_turn();
    let case = root().join("examples/cases/flow.json");
    let out = dxdiff()
        .args(["replay", "--executor", "gpu,chrome"])
        .arg(&case)
        .output()
        .expect("runs");
    let Some(out) = with_adapter(out) else { return };
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("| chrome | Chrome "), "{text}");
    assert!(
        text.contains("0 runs differ between gpu and chrome"),
        "{text}"
    );
}

/// `corpus --gate tint` over `case` with a translator that answers `answer`: its stderr and the
/// record, or `None` (said why) when the browser did not start.
fn gate(
    dir: &std::path::Path,
    case: &std::path::Path,
    answer: &serde_json::Value,
) -> Option<(String, serde_json::Value)> {
    let translator = fixed_answer(dir, answer);
    let record = dir.join("record.json");
    let out = dxdiff()
        .args([
            "corpus",
            "--gate",
            "tint",
            "--translator",
            &translator,
            "--out",
        ])
        .arg(&record)
        .arg(case)
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    if out.status.code() == Some(4) {
        eprintln!("skipped: the browser did not start: {err}");
        return None;
    }
    let r = serde_json::from_str(&std::fs::read_to_string(&record).expect("record")).expect("json");
    Some((err, r))
}

/// `corpus --gate tint`: WGSL that naga accepts and Tint rejects (a barrier behind a branch
/// on a register that holds the invocation index, which naga's uniformity analysis misses)
/// is failed with Tint's message; the same module without the branch qualifies.
#[test]
fn the_tint_gate_fails_what_tint_rejects_and_keeps_what_it_accepts() {
    if !harness::chrome::available(None) {
        eprintln!("skipped: no browser");
        return;
    }
    let dir = temp("chrome", "gate");
    let case = root().join("examples/cases/compute_tgsm_barrier.json");
    let answer = translated(&case);
    let wgsl = answer["wgsl"].as_str().expect("wgsl").to_string();
    assert!(wgsl.contains("    workgroupBarrier();"), "{wgsl}");
    for (name, wgsl, status) in [
        ("uniform", wgsl.clone(), "qualified"),
        (
            "divergent",
            wgsl.replace(
                "    workgroupBarrier();",
                "    if (r0x == 0u) { workgroupBarrier(); }",
            ),
            "failed",
        ),
    ] {
        let mut a = answer.clone();
        a["wgsl"] = wgsl.into();
        let Some((err, r)) = gate(&dir.join(name), &case, &a) else {
            return;
        };
        assert!(err.contains("dxdiff: tint compiled 1 modules"), "{err}");
        assert!(
            r["gate"]
                .as_str()
                .is_some_and(|g| g.starts_with("tint (Chrome"))
        );
        let p = &r["programs"][0];
        assert_eq!(p["status"], status, "{name}: {p}");
        if status == "failed" {
            let reason = p["reason"].as_str().unwrap_or("");
            assert!(reason.contains("tint rejected"), "{reason}");
            assert!(reason.contains("uniform control flow"), "{reason}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `corpus --gate tint`: a module that enables an extension the browser's device does not grant
/// (`primitive_index`, which SwiftShader lacks) says nothing about the translator there, so the
/// gate does not compile it and the program keeps its status; where the device grants it, Tint
/// compiles it as any other.
#[test]
fn the_tint_gate_keeps_a_module_whose_extension_the_browser_lacks() {
    if !harness::chrome::available(None) {
        eprintln!("skipped: no browser");
        return;
    }
    let dir = temp("chrome", "gate-feature");
    let case = root().join("examples/cases/compute_tgsm_barrier.json");
    let mut answer = translated(&case);
    let wgsl = answer["wgsl"].as_str().expect("wgsl").to_string();
    answer["wgsl"] = format!("enable primitive_index;\n{wgsl}").into();
    answer["manifest"]["enables"] = serde_json::json!(["primitive_index"]);
    let Some((err, r)) = gate(&dir, &case, &answer) else {
        return;
    };
    assert!(
        err.contains("1 not compiled (an `enable` the browser's device does not grant)")
            || err.contains("dxdiff: tint compiled 1 modules, rejected 0"),
        "{err}"
    );
    assert_eq!(
        r["programs"][0]["status"], "qualified",
        "{}",
        r["programs"][0]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `eval_snapped` with its offsets read unsigned (`eval-offset-unsigned`) is caught in the
/// built-in `eval_snapped` program alone, on Chrome: lavapipe's derivative latitude
/// (`dxdiff/llvmpipe-derivatives`) covers every evaluation off the pixel centre, whose plane is
/// the quad's. The saved case is one quad, and replays the bug only while planted.
#[test]
fn an_unsigned_evaluation_offset_is_caught_on_chrome_saved_and_replayed() {
    if !harness::chrome::available(None) {
        eprintln!("skipped: no browser");
        return;
    }
    let dir = temp("chrome", "eval");
    let programs = dir.join("programs");
    std::fs::create_dir_all(&programs).expect("mkdir");
    for (name, text) in generators::programs::evaluations() {
        let blob = dxbc::assemble_container(&text)
            .expect("assembles")
            .to_bytes();
        std::fs::write(programs.join(format!("{name}.o")), blob).expect("write");
    }
    let bug = "eval-offset-unsigned";
    let out = dir.join("out");
    let run = dxdiff()
        .args([
            "verify",
            "--corpus-only",
            "--profile",
            "exact",
            "--executor",
            "chrome",
        ])
        .args(["--corpus-cases", "400", "--quiet", "--corpus"])
        .arg(&programs)
        .arg("--out")
        .arg(&out)
        .plant(Some(bug))
        .output()
        .expect("runs");
    if run.status.code() == Some(4) {
        eprintln!(
            "skipped: the browser did not start: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        return;
    }
    assert_eq!(
        run.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let mismatching = mismatching_programs(&out);
    assert_eq!(mismatching.len(), 1, "{mismatching:?}");
    assert!(
        mismatching[0].ends_with("eval_snapped.o"),
        "{mismatching:?}"
    );
    let case = out.join("cases").join("corpus-eval_snapped.json");
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&case).expect("case")).expect("json");
    assert_eq!(
        saved["runs"][0]["invocations"].as_array().map(Vec::len),
        Some(4),
        "a quad"
    );
    replays_only_while_planted_on("chrome", &case, bug);
    let _ = std::fs::remove_dir_all(&dir);
}
