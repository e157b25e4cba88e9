//! `dxdiff sweep` end to end on the local adapter: a range of two chunks per op is judged input
//! by input and comes out exact under the exact profile; a sweep interrupted after a chunk
//! resumes to the same totals; a folder of another sweep and an op with two sources are
//! refused.

use crate::support::*;

use std::path::Path;
use std::process::Output;

/// 2^23 inputs from 1.0: two chunks of 2^22.
const FROM: &str = "0x3f800000";
const TO: &str = "0x3fffffff";

fn sweep(dir: &Path, ops: &[&str], to: &str) -> Output {
    dxdiff()
        .arg("sweep")
        .args(ops)
        .args([
            "--from",
            FROM,
            "--to",
            to,
            "--profile",
            "exact",
            "-q",
            "--out",
        ])
        .arg(dir)
        .output()
        .expect("runs")
}

fn state(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("sweep.json")).expect("sweep.json"))
        .expect("json")
}

#[test]
fn a_sweep_judges_every_input_and_resumes_where_it_stopped() {
    let _turn = gpu_turn();
    let dir = temp("sweep", "resume");
    let Some(first) = with_adapter(sweep(&dir, &["rcp", "mov_sat:negabs"], TO)) else {
        return;
    };
    let text = stdout(&first);
    assert_eq!(first.status.code(), Some(0), "{text}");
    let last = text.lines().last().unwrap_or("");
    assert!(
        last.starts_with("sweep: 2 ops, 16777216 inputs: ") && last.ends_with(" 0 mismatch"),
        "{last}"
    );
    assert!(dir.join("report.html").is_file() && dir.join("report.md").is_file());
    let done = state(&dir);
    assert_eq!(done["ops"][1]["next"], 0x4000_0000u64);
    // Interrupted after the second op's first chunk: its state as it was then (every input of
    // an exact move matches, so the chunk's counts are known).
    let mut cut = done.clone();
    let chunk = 1u64 << 22;
    cut["ops"][1]["next"] = (0x3f80_0000u64 + chunk).into();
    for k in ["lanes", "matched"] {
        let n = cut["ops"][1]["counts"][k].as_u64().expect("count");
        cut["ops"][1]["counts"][k] = (n - chunk).into();
    }
    std::fs::write(dir.join("sweep.json"), cut.to_string()).expect("write");
    let again = sweep(&dir, &["rcp", "mov_sat:negabs"], TO);
    assert_eq!(
        stdout(&again).lines().last(),
        Some(last),
        "{}",
        stdout(&again)
    );
    assert_eq!(state(&dir)["ops"], done["ops"]);
    // Another range in the same folder is refused, naming why; so is a two-source op.
    let other = sweep(&dir, &["rcp", "mov_sat:negabs"], "0x3f8fffff");
    assert_eq!(other.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&other.stderr).contains("sweep-state.other"),
        "{}",
        String::from_utf8_lossy(&other.stderr)
    );
    let add = sweep(&temp("sweep", "add"), &["add"], TO);
    assert_eq!(add.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&add.stderr).contains("one-source"));
    let _ = std::fs::remove_dir_all(&dir);
}
