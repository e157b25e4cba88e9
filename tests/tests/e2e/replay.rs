//! `dxdiff replay`: the summary line, the exit code (a failure is 1, an inconclusive run is
//! not), and the peer corpus on the interpreter and the GPU.

use crate::support::*;
use oracles::fixtures::counting_case_json as counting_case;

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn a_passing_and_a_failing_run() {
    let _turn = gpu_turn();
    let blob = dxbc::assemble_container(
        "ps_5_0\ndcl_constantbuffer cb0[1], immediateIndexed\ndcl_output o0.xyzw\n\
         udiv o0.x, null, cb0[0].x, cb0[0].y\nmov o0.yzw, l(0, 0, 0, 0)\nret\n",
    )
    .expect("assembles")
    .to_bytes();
    let case = format!(
        r#"{{"format": "dxdiff-case/1", "name": "udiv", "dxbc": "{}", "runs": [
            {{"id": "by-zero", "inputs": {{"cb0": ["0x7", "0x0", "0x0", "0x0"]}},
              "expect": {{"o0": {{"words": ["0xffffffff"], "compare": "bits"}}}}}},
            {{"id": "wrong", "inputs": {{"cb0": ["0x7", "0x2", "0x0", "0x0"]}},
              "expect": {{"o0": {{"words": ["0x00000004"], "compare": "bits"}}}}}}]}}"#,
        hex(&blob)
    );
    let dir = temp("replay", "udiv");
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::write(dir.join("udiv.json"), case).expect("write");
    let out = dxdiff().arg("replay").arg(&dir).output().expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("wrong: o0[0] is 0x00000003, expected 0x00000004"),
        "{stdout}"
    );
    assert_eq!(stdout.lines().last(), Some("1 passed, 1 failed, 0 skipped"));
}

#[test]
fn peer_corpus_replays_clean() {
    let _turn = gpu_turn();
    let peer = crate::support::shared("corpus/peer");
    if !peer.is_dir() {
        eprintln!("skipped: {} not found", peer.display());
        return;
    }
    let out = dxdiff()
        .arg("replay")
        .arg(&peer)
        .arg("--executor")
        .arg("interp")
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let last = stdout.lines().last().unwrap_or("");
    assert!(last.ends_with(" passed, 0 failed, 0 skipped"), "{last}");
}

/// Ground truth on the GPU (lavapipe in CI): with the exact profile every run passes, the
/// double runs included (software doubles); with the contract profile every difference is
/// reported as adapted(id), and the double runs are skipped as refused.
#[test]
fn peer_corpus_replays_on_the_gpu() {
    let _turn = gpu_turn();
    let peer = crate::support::shared("corpus/peer");
    if !peer.is_dir() {
        eprintln!("skipped: {} not found", peer.display());
        return;
    }
    for profile in ["exact", "contract"] {
        let out = dxdiff()
            .args(["replay", "--executor", "gpu", "--profile", profile])
            .arg(&peer)
            .env("NODEVICE_SELECT", "1")
            .output()
            .expect("runs");
        if out.status.code() == Some(4) {
            eprintln!(
                "skipped: no usable GPU adapter: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            return;
        }
        let stdout = String::from_utf8_lossy(&out.stdout);
        let last = stdout.lines().last().unwrap_or("");
        assert!(
            out.status.success() && last.contains(" 0 failed"),
            "{profile}: {last}\n{stdout}"
        );
        for line in stdout.lines().filter(|l| l.starts_with("SKIP")) {
            assert!(line.contains("dxdiff/doubles"), "{profile}: {line}");
        }
        let adapted = stdout.lines().filter(|l| l.starts_with("ADAPTED")).count();
        if profile == "exact" {
            assert_eq!(adapted, 0, "{stdout}");
            assert!(last.ends_with(" passed, 0 failed, 0 skipped"), "{last}");
        } else {
            assert!(
                adapted > 0,
                "the contract profile's numeric edges show up as adapted"
            );
        }
    }
}

/// A GPU worker that dies mid-request (as a crashing driver would) costs only that run: it is
/// reported inconclusive, a fresh worker takes the next run, and the replay completes.
#[test]
fn a_crashing_gpu_worker_cannot_stop_a_replay() {
    let _turn = gpu_turn();
    let blob =
        dxbc::assemble_container("ps_5_0\ndcl_output o0.xyzw\nmov o0.xyzw, l(1, 2, 3, 4)\nret\n")
            .expect("assembles")
            .to_bytes();
    let case = format!(
        r#"{{"format": "dxdiff-case/1", "name": "mov", "dxbc": "{}", "runs": [
            {{"id": "a", "expect": {{"o0": {{"words": ["0x1"], "compare": "bits"}}}}}},
            {{"id": "b", "expect": {{"o0": {{"words": ["0x1"], "compare": "bits"}}}}}}]}}"#,
        hex(&blob)
    );
    let dir = temp("replay", "crash");
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::write(dir.join("mov.json"), case).expect("write");
    let run = |abort: bool| {
        let mut c = replay_gpu(&dir, &[], None);
        if abort {
            c.env("DXDIFF_GPU_WORKER_ABORT", "1");
        }
        c.output().expect("runs")
    };
    let healthy = run(false);
    if healthy.status.code() == Some(4) {
        eprintln!("skipped: no usable GPU adapter");
        return;
    }
    assert_eq!(
        String::from_utf8_lossy(&healthy.stdout).lines().last(),
        Some("2 passed, 0 failed, 0 skipped")
    );
    let crashed = run(true);
    let stdout = String::from_utf8_lossy(&crashed.stdout);
    // Inconclusive is no failure, but a replay that checked nothing is no pass either: exit 5.
    assert_eq!(crashed.status.code(), Some(5), "{stdout}");
    assert!(String::from_utf8_lossy(&crashed.stderr).contains("no lane was compared"));
    assert_eq!(
        stdout
            .lines()
            .filter(|l| l.starts_with("INCONCLUSIVE ") && l.contains("device lost"))
            .count(),
        2,
        "{stdout}"
    );
    assert_eq!(stdout.lines().last(), Some("0 passed, 0 failed, 2 skipped"));
    assert!(
        stdout.contains("\n2 inconclusive (counted as skipped)\n"),
        "{stdout}"
    );
}

/// A run the interpreter cannot finish within `--budget` is reported INCONCLUSIVE, counted on
/// its own, and leaves the exit code 0; a real mismatch beside it still makes it 1.
#[test]
fn an_inconclusive_run_is_no_failure() {
    let dir = temp("replay", "inconclusive");
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::write(
        dir.join("a-count.json"),
        counting_case(
            r#"{"id": "short", "inputs": {"cb0": ["0x3", "0x0", "0x0", "0x0"]},
                "expect": {"o0": {"words": ["0x3"], "compare": "bits"}}},
               {"id": "long", "inputs": {"cb0": ["0x100000", "0x0", "0x0", "0x0"]},
                "expect": {"o0": {"words": ["0x100000"], "compare": "bits"}}}"#,
        ),
    )
    .expect("write");
    let replay = || {
        dxdiff()
            .args(["replay", "--executor", "interp", "--budget", "4096"])
            .arg(&dir)
            .output()
            .expect("runs")
    };
    let out = replay();
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.lines().any(|l| l.starts_with("INCONCLUSIVE ")
            && l.ends_with("long: the interpreter's instruction budget ran out")),
        "{text}"
    );
    assert!(!text.contains("FAIL"), "{text}");
    // The contract's last line counts it among the skipped; the line before says so.
    assert_eq!(
        text.lines().rev().take(2).collect::<Vec<_>>(),
        [
            "1 passed, 0 failed, 1 skipped",
            "1 inconclusive (counted as skipped)"
        ]
    );

    std::fs::write(
        dir.join("b-wrong.json"),
        counting_case(
            r#"{"id": "wrong", "inputs": {"cb0": ["0x3", "0x0", "0x0", "0x0"]},
                "expect": {"o0": {"words": ["0x4"], "compare": "bits"}}}"#,
        ),
    )
    .expect("write");
    let out = replay();
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("wrong: o0[0] is 0x00000003, expected 0x00000004"),
        "{text}"
    );
    assert_eq!(text.lines().last(), Some("1 passed, 1 failed, 1 skipped"));
    let _ = std::fs::remove_dir_all(dir);
}
