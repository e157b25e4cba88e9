//! Shards and merging: `verify`, `fuzz` and `corpus` run in 3 shards (`--shard K/3`), merged
//! with `dxdiff merge`, equal the unsharded run: the verify report in every program's counts
//! (and its saved counterexample), the fuzz campaign's counters and divergences, the corpus
//! record byte for byte. An incomplete set of shards is refused.

use crate::support::*;

use std::path::{Path, PathBuf};
use std::process::Output;

/// What must not depend on sharding: per program, everything but where its case file lives.
fn outcome(r: &serde_json::Value) -> Vec<serde_json::Value> {
    r["programs"]
        .as_array()
        .expect("programs")
        .iter()
        .map(|p| {
            let mut p = p.clone();
            p.as_object_mut().expect("object").remove("counterexample");
            p
        })
        .collect()
}

/// Run `n` shards, part `k` as `run(base/s{k}{ext}, Some("k/n"))`, each exiting with one of
/// `codes`, then `dxdiff merge` them into `base/merged{ext}`: that path and the merge's output.
fn shards_merged(
    base: &Path,
    n: u32,
    ext: &str,
    codes: &[i32],
    run: impl Fn(&Path, Option<&str>) -> Output,
) -> (PathBuf, Output) {
    let mut merge = dxdiff();
    merge.arg("merge");
    for k in 0..n {
        let part = base.join(format!("s{k}{ext}"));
        let o = run(&part, Some(&format!("{k}/{n}")));
        assert!(
            o.status.code().is_some_and(|c| codes.contains(&c)),
            "{}",
            stdout(&o)
        );
        merge.arg(&part);
    }
    let merged = base.join(format!("merged{ext}"));
    let o = merge.arg("--out").arg(&merged).output().expect("merge");
    (merged, o)
}

#[test]
fn verify_in_three_shards_merges_into_the_unsharded_run() {
    let _turn = gpu_turn();
    let base = temp("shard", "verify");
    let run = |dir: &Path, shard: Option<&str>| {
        let mut c = dxdiff();
        c.args(["verify", "-q", "--cases", "300", "--seed", "2", "--out"])
            .arg(dir)
            .plant(Some(UDIV_BUG));
        if let Some(s) = shard {
            c.args(["--shard", s]);
        }
        c.output().expect("runs")
    };
    let Some(whole) = with_adapter(run(&base.join("whole"), None)) else {
        return;
    };
    assert_eq!(whole.status.code(), Some(1), "{}", stdout(&whole));
    let (merged, o) = shards_merged(&base, 3, "", &[0, 1], run);
    assert_eq!(
        o.status.code(),
        Some(1),
        "the planted mismatch: {}",
        stdout(&o)
    );
    let (a, b) = (report(&base.join("whole")), report(&merged));
    assert_eq!(outcome(&a), outcome(&b));
    for k in ["totals", "adapted_by", "skips", "profile", "seed"] {
        assert_eq!(a[k], b[k], "{k}");
    }
    // The counterexample moved into the merged folder, the same case as the unsharded run's.
    let case = |dir: &Path| std::fs::read(dir.join("cases").join("udiv.json")).expect("case");
    assert_eq!(case(&base.join("whole")), case(&merged));
    assert!(merged.join("report.html").is_file());
    // Two of three shards are refused, naming the missing one.
    let o = dxdiff()
        .arg("merge")
        .arg(base.join("s0"))
        .arg(base.join("s2"))
        .arg("--out")
        .arg(base.join("partial"))
        .output()
        .expect("merge");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("missing shards: 1/3"));
    let _ = std::fs::remove_dir_all(&base);
}

#[test]
fn corpus_in_three_shards_merges_into_the_same_bytes() {
    let base = temp("shard", "corpus");
    std::fs::create_dir_all(&base).expect("scratch");
    let run = |out: &Path, shard: Option<&str>| {
        let mut c = dxdiff();
        c.args(["corpus", "examples/cases", "docs/vkd3d", "--out"])
            .arg(out);
        if let Some(s) = shard {
            c.args(["--shard", s]);
        }
        let o = c.output().expect("runs");
        assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
        o
    };
    run(&base.join("whole.json"), None);
    let (merged, o) = shards_merged(&base, 3, ".json", &[0], run);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let bytes = |p: &Path| std::fs::read(p).expect("record");
    assert_eq!(bytes(&base.join("whole.json")), bytes(&merged));
    let _ = std::fs::remove_dir_all(&base);
}

#[test]
fn fuzz_in_three_shards_merges_into_the_unsharded_campaign() {
    let _turn = gpu_turn();
    let base = temp("shard", "fuzz");
    let run = |dir: &Path, shard: Option<&str>| {
        let mut c = dxdiff();
        c.args([
            "fuzz",
            "-q",
            "--profile",
            "exact",
            "--seed",
            "1",
            "--programs",
            "8",
        ])
        .args([
            "--stages",
            "ps,vs",
            "--vectors",
            "64",
            "--shrink-time",
            "30",
            "--out",
        ])
        .arg(dir)
        .plant(Some("replicate-swizzle-ignored"));
        if let Some(s) = shard {
            c.args(["--shard", s]);
        }
        c.output().expect("runs")
    };
    let Some(whole) = with_adapter(run(&base.join("whole"), None)) else {
        return;
    };
    assert_eq!(
        whole.status.code(),
        Some(1),
        "the planted bug: {}",
        stdout(&whole)
    );
    let (merged, o) = shards_merged(&base, 3, "", &[0, 1], run);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let state = |dir: &Path| -> serde_json::Value {
        let mut v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("state.json")).expect("state"))
                .expect("json");
        for k in ["seconds", "shrink_seconds"] {
            v["stats"].as_object_mut().expect("stats").remove(k);
        }
        v
    };
    let (a, b) = (state(&base.join("whole")), state(&merged));
    assert_eq!(a, b);
    assert!(!a["divergences"].as_array().expect("list").is_empty());
    for d in a["divergences"].as_array().expect("list") {
        let case = d["case"].as_str().expect("case");
        assert!(merged.join(case).is_file(), "{case}");
    }
    let _ = std::fs::remove_dir_all(&base);
}

#[test]
fn a_sweep_in_two_shards_merges_into_the_unsharded_sweep() {
    let _turn = gpu_turn();
    let base = temp("shard", "sweep");
    let run = |dir: &Path, shard: Option<&str>| {
        let mut c = dxdiff();
        c.args(["sweep", "rsq", "mov_sat:negabs", "--from", "0x3f800000"])
            .args(["--to", "0x3fffffff", "--profile", "exact", "-q", "--out"])
            .arg(dir);
        if let Some(s) = shard {
            c.args(["--shard", s]);
        }
        c.output().expect("runs")
    };
    let Some(whole) = with_adapter(run(&base.join("whole"), None)) else {
        return;
    };
    assert_eq!(whole.status.code(), Some(0), "{}", stdout(&whole));
    let (merged, o) = shards_merged(&base, 2, "", &[0], run);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert_eq!(stdout(&o).lines().last(), stdout(&whole).lines().last());
    let ops = |dir: &Path| -> serde_json::Value {
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("sweep.json")).expect("state"))
                .expect("json");
        v["ops"].clone()
    };
    assert_eq!(ops(&base.join("whole")), ops(&merged));
    let _ = std::fs::remove_dir_all(&base);
}

/// `--adapter all` runs one shard per device and merges them: on a host with one device
/// (lavapipe here) the report is the named adapter's run's; `#0` names the first device, and
/// `--shard` with `all` is refused.
#[test]
fn adapter_all_spreads_shards_over_the_devices_and_merges_them() {
    let _turn = gpu_turn();
    let base = temp("shard", "all");
    let run = |dir: &Path, adapter: &str| {
        dxdiff()
            .args([
                "verify",
                "-q",
                "--cases",
                "200",
                "--seed",
                "4",
                "--adapter",
                adapter,
            ])
            .arg("--out")
            .arg(dir)
            .output()
            .expect("runs")
    };
    let Some(one) = with_adapter(run(&base.join("one"), "auto")) else {
        return;
    };
    assert_eq!(one.status.code(), Some(0), "{}", stdout(&one));
    let all = run(&base.join("all"), "all");
    assert_eq!(all.status.code(), Some(0), "{}", stdout(&all));
    let (a, b) = (report(&base.join("one")), report(&base.join("all")));
    assert_eq!(outcome(&a), outcome(&b));
    assert_eq!(a["totals"], b["totals"]);
    assert!(b.get("shard").is_none());
    // Three workers on the one device: three shards, the same report.
    let jobs = dxdiff()
        .args([
            "verify", "-q", "--cases", "200", "--seed", "4", "--jobs", "3",
        ])
        .arg("--out")
        .arg(base.join("jobs"))
        .output()
        .expect("runs");
    assert_eq!(jobs.status.code(), Some(0), "{}", stdout(&jobs));
    let c = report(&base.join("jobs"));
    assert_eq!(outcome(&a), outcome(&c));
    assert_eq!(a["totals"], c["totals"]);
    let first = run(&base.join("first"), "#0");
    assert_eq!(first.status.code(), Some(0), "{}", stdout(&first));
    let none = run(&base.join("none"), "#99");
    assert_eq!(none.status.code(), Some(4));
    let both = dxdiff()
        .args([
            "verify",
            "-q",
            "--cases",
            "10",
            "--adapter",
            "all",
            "--shard",
            "0/2",
        ])
        .arg("--out")
        .arg(base.join("both"))
        .output()
        .expect("runs");
    assert_eq!(both.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&both.stderr).contains("make their own shards"));
    let _ = std::fs::remove_dir_all(&base);
}

/// `fuzz`, `sweep` and `corpus --verify` spread over workers (`--adapter all`, `--jobs 2`)
/// report what the one-worker run reports: the campaign and sweep folders hold the merged state
/// beside their shard folders
/// (`shards/K-of-N`), and the corpus record is the same bytes. A folder left by a run on
/// another number of devices is refused, naming it.
#[test]
fn fuzz_sweep_and_corpus_spread_over_every_device_report_the_one_device_run() {
    let _turn = gpu_turn();
    let base = temp("shard", "all-commands");
    let fuzz = |dir: &Path, adapter: &str| {
        dxdiff()
            .args(["fuzz", "-q", "--seed", "3", "--programs", "6", "--stages"])
            .args(["ps,vs", "--vectors", "32", "--adapter", adapter, "--out"])
            .arg(dir)
            .output()
            .expect("runs")
    };
    let Some(one) = with_adapter(fuzz(&base.join("fuzz-one"), "auto")) else {
        return;
    };
    assert_eq!(one.status.code(), Some(0), "{}", stdout(&one));
    let all = dxdiff()
        .args(["fuzz", "-q", "--seed", "3", "--programs", "6", "--stages"])
        .args([
            "ps,vs",
            "--vectors",
            "32",
            "--adapter",
            "all",
            "--jobs",
            "2",
            "--out",
        ])
        .arg(base.join("fuzz-all"))
        .output()
        .expect("runs");
    assert_eq!(all.status.code(), Some(0), "{}", stdout(&all));
    assert_eq!(stdout(&one).lines().last(), stdout(&all).lines().last());
    let json = |p: &Path| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(p).expect("read")).expect("json")
    };
    let state = |dir: &Path| {
        let mut v = json(&dir.join("state.json"));
        for k in ["seconds", "shrink_seconds"] {
            v["stats"].as_object_mut().expect("stats").remove(k);
        }
        v
    };
    assert_eq!(state(&base.join("fuzz-one")), state(&base.join("fuzz-all")));
    assert!(base.join("fuzz-all/shards/1-of-2/state.json").is_file());
    assert!(base.join("fuzz-all/report.html").is_file());

    let sweep = |dir: &Path, adapter: &str| {
        dxdiff()
            .args([
                "sweep",
                "frc",
                "--from",
                "0xbf000000",
                "--to",
                "0xbf03ffff",
                "-q",
            ])
            .args(["--adapter", adapter, "--out"])
            .arg(dir)
            .output()
            .expect("runs")
    };
    let one = sweep(&base.join("sweep-one"), "auto");
    let all = sweep(&base.join("sweep-all"), "all");
    assert_eq!(all.status.code(), one.status.code(), "{}", stdout(&all));
    assert_eq!(stdout(&one).lines().last(), stdout(&all).lines().last());
    let ops = |dir: &Path| json(&dir.join("sweep.json"))["ops"].clone();
    assert_eq!(ops(&base.join("sweep-one")), ops(&base.join("sweep-all")));

    let corpus = |out: &Path, adapter: &str| {
        let o = dxdiff()
            .args([
                "corpus",
                "examples/cases",
                "--verify",
                "8",
                "-q",
                "--adapter",
            ])
            .arg(adapter)
            .arg("--cases-dir")
            .arg(base.join("corpus-cases"))
            .arg("--out")
            .arg(out)
            .output()
            .expect("runs");
        assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    };
    corpus(&base.join("corpus-one.json"), "auto");
    corpus(&base.join("corpus-all.json"), "all");
    let bytes = |p: &Path| std::fs::read(p).expect("record");
    assert_eq!(
        bytes(&base.join("corpus-one.json")),
        bytes(&base.join("corpus-all.json"))
    );

    // Shards of another partition in the folder: refused before any work.
    std::fs::create_dir_all(base.join("fuzz-other/shards/0-of-5")).expect("plant");
    let other = fuzz(&base.join("fuzz-other"), "all");
    assert_eq!(other.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&other.stderr).contains("0-of-5"));
    let _ = std::fs::remove_dir_all(&base);
}
