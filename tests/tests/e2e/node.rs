//! The example JavaScript translator (examples/translators/node/translate.js, run by `node`):
//! through `verify` it qualifies its subset (the single-instruction programs of its ops and its
//! own case files) with lanes compared and no mismatch, and refuses every other program by name
//! under `dxdiff/refused`, never crashing; a wrong lowering planted in it
//! (`DXDIFF_NODE_PLANT=add-as-sub`) is caught, saved, and replays as a failure only with the
//! plant; a malformed container is a non-zero exit with the reason on stderr. Skipped, with the
//! reason, where `node` is not on PATH.

use crate::support::*;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

const SCRIPT: &str = "examples/translators/node/translate.js";

/// The ops the example lowers; each has a single-instruction program in `verify`.
const SUBSET: [&str; 13] = [
    "add", "and", "iadd", "ishl", "mad", "max", "min", "mov", "mul", "not", "or", "ushr", "xor",
];

fn has_node() -> bool {
    let ok = Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("skipped: node is not on PATH");
    }
    ok
}

fn translator(plant: Option<&str>) -> String {
    match plant {
        Some(p) => format!("cmd:DXDIFF_NODE_PLANT={p} node {SCRIPT}"),
        None => format!("cmd:node {SCRIPT}"),
    }
}

/// `verify` over the built-in programs (200 inputs each) and the example's case files (2,000
/// inputs each) through the node translator; `None` when there is no usable adapter.
fn verify(plant: Option<&str>, dir: &Path) -> Option<Output> {
    let out = dxdiff()
        .args(["verify", "-q", "--cases", "200", "--seed", "4"])
        .args([
            "--corpus",
            "examples/translators/node/cases",
            "--corpus-cases",
            "2000",
        ])
        .args(["--translator", &translator(plant)])
        .arg("--out")
        .arg(dir)
        .output()
        .expect("runs");
    with_adapter(out)
}

fn names(r: &serde_json::Value, ran: bool) -> Vec<String> {
    r["programs"]
        .as_array()
        .expect("programs")
        .iter()
        .filter(|p| p["skipped"].is_null() == ran)
        .map(|p| p["name"].as_str().unwrap_or("").to_string())
        .collect()
}

#[test]
fn the_node_example_qualifies_its_subset_and_refuses_the_rest() {
    if !has_node() {
        return;
    }
    let _turn = gpu_turn();
    let dir = temp("node", "verify");
    let Some(out) = verify(None, &dir) else {
        return;
    };
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}\n{}",
        stdout(&out),
        String::from_utf8_lossy(&out.stderr)
    );
    let r = report(&dir);
    assert!(r["skips"]["translator-crash"].is_null(), "{}", r["skips"]);
    assert_eq!(r["totals"]["mismatch"], 0, "{}", r["totals"]);
    assert_eq!(r["totals"]["inconclusive"], 0, "{}", r["totals"]);
    assert!(
        r["totals"]["lanes"].as_u64().unwrap_or(0) > 0,
        "{}",
        r["totals"]
    );
    let ran = names(&r, true);
    for op in SUBSET {
        assert!(ran.iter().any(|n| n == op), "{op} did not run: {ran:?}");
    }
    for case in ["float_mix.json", "int_mix.json"] {
        assert!(ran.iter().any(|n| n.ends_with(case)), "{case}: {ran:?}");
    }
    assert_eq!(ran.len(), SUBSET.len() + 2, "{ran:?}");
    // Every other program is refused by name, filed under the neutral id.
    let refused = names(&r, false);
    assert!(!refused.is_empty());
    assert_eq!(
        r["skips"]["rejected"].as_u64(),
        Some(refused.len() as u64),
        "{}",
        r["skips"]
    );
    for p in r["programs"].as_array().expect("programs") {
        if let Some(why) = p["skipped"].as_str() {
            assert!(
                why.contains("dxdiff/refused") && why.contains("not lowered by this example"),
                "{}: {why}",
                p["name"]
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_wrong_lowering_planted_in_the_node_example_is_caught() {
    if !has_node() {
        return;
    }
    let _turn = gpu_turn();
    let plant = Some("add-as-sub");
    let dir = temp("node", "plant");
    let Some(out) = verify(plant, &dir) else {
        return;
    };
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let r = report(&dir);
    assert!(r["skips"]["translator-crash"].is_null(), "{}", r["skips"]);
    assert!(
        r["totals"]["mismatch"].as_u64().unwrap_or(0) > 0,
        "{}",
        r["totals"]
    );
    let programs = r["programs"].as_array().expect("programs");
    let add = programs
        .iter()
        .find(|p| p["name"] == "add")
        .expect("the add program");
    assert!(add["counts"]["mismatch"].as_u64().unwrap_or(0) > 0, "{add}");
    // Only programs with an add instruction go wrong (mad calls the helper, not the plant).
    for p in programs {
        if p["counts"]["mismatch"].as_u64().unwrap_or(0) > 0 {
            let name = p["name"].as_str().unwrap_or("");
            assert!(
                name == "add" || name.ends_with("float_mix.json"),
                "{name} mismatched"
            );
        }
    }
    // The saved counterexample fails with the plant and passes without it.
    let case = dir.join("cases/add.json");
    assert!(case.is_file(), "no counterexample saved");
    let with = replay_gpu(&case, &["--translator", &translator(plant)], None)
        .output()
        .expect("runs");
    assert_eq!(with.status.code(), Some(1), "{}", stdout(&with));
    let without = replay_gpu(&case, &["--translator", &translator(None)], None)
        .output()
        .expect("runs");
    assert_eq!(without.status.code(), Some(0), "{}", stdout(&without));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_node_example_exits_non_zero_on_a_malformed_container() {
    if !has_node() {
        return;
    }
    let good = std::fs::read(root().join("examples/cases/flow.json")).expect("case");
    let good: serde_json::Value = serde_json::from_slice(&good).expect("json");
    let hex = good["dxbc"].as_str().expect("dxbc");
    let blob: Vec<u8> = (0..hex.len() / 2)
        .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).expect("hex"))
        .collect();
    let mut truncated = blob.clone();
    truncated.truncate(blob.len() - 20);
    let mut long = blob.clone();
    // The program's length token (the SHEX data's second DWORD) past its chunk.
    let at = blob.windows(4).position(|w| w == b"SHEX").expect("SHEX") + 12;
    long[at..at + 4].copy_from_slice(&0x00ff_ffffu32.to_le_bytes());
    for (name, input) in [
        ("empty", Vec::new()),
        ("no magic", b"DXBX".repeat(16)),
        ("truncated", truncated),
        ("program past its chunk", long),
    ] {
        let mut child = Command::new("node")
            .arg(root().join(SCRIPT))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("node starts");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(&input)
            .expect("writes");
        let out = child.wait_with_output().expect("runs");
        assert_eq!(out.status.code(), Some(1), "{name}: {}", stdout(&out));
        assert!(out.stdout.is_empty(), "{name}: {}", stdout(&out));
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("malformed input"),
            "{name}"
        );
    }
}
