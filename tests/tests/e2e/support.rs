//! What the end-to-end tests share: the `dxdiff` binary (built from the same `harness::cli` as
//! the shipped one, as `dxdiff-e2e`), the project root, scratch folders, the shared corpora,
//! a bug planted in the built-in translator, the GPU replay every such test ends with, and a
//! lock that keeps the GPU-heavy tests from running all at once on a small machine.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Mutex, MutexGuard};

/// The CLI under test.
pub fn exe() -> &'static str {
    env!("CARGO_BIN_EXE_dxdiff-e2e")
}

/// A `dxdiff` command: Mesa's loader noise off, `$DXDIFF` naming this binary (the example
/// adapters call it), run from the project root.
pub fn dxdiff() -> Command {
    let mut c = Command::new(exe());
    c.env("NODEVICE_SELECT", "1")
        .env("DXDIFF", exe())
        .current_dir(root());
    c
}

/// The wrong lowering most tests plant: `udiv` without D3D's divide-by-zero guard.
pub const UDIV_BUG: &str = "udiv-without-zero-guard";

/// Planting a bug in the built-in translator (`DXDIFF_PLANT_BUG`), one spelling for every
/// test; `None` plants nothing, so a test can run the same command with and without.
pub trait Plant {
    fn plant(&mut self, bug: Option<&str>) -> &mut Self;
}

impl Plant for Command {
    fn plant(&mut self, bug: Option<&str>) -> &mut Self {
        if let Some(b) = bug {
            self.env("DXDIFF_PLANT_BUG", b);
        }
        self
    }
}

/// `dxdiff replay --executor gpu PATH ARGS...` with `bug` planted: how a test checks that a
/// saved case reproduces (or no longer reproduces) a divergence on the GPU.
pub fn replay_gpu(path: impl AsRef<OsStr>, args: &[&str], bug: Option<&str>) -> Command {
    replay_on("gpu", path, args, bug)
}

/// [`replay_gpu`] on `executor` (`gpu`, `chrome`, `interp`).
pub fn replay_on(
    executor: &str,
    path: impl AsRef<OsStr>,
    args: &[&str],
    bug: Option<&str>,
) -> Command {
    let mut c = dxdiff();
    c.args(["replay", "--executor", executor])
        .args(args)
        .arg(path)
        .plant(bug);
    c
}

/// The programs of the `dxdiff verify` report in `dir` with a mismatching lane, by name.
pub fn mismatching_programs(dir: &Path) -> Vec<String> {
    let report: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("report.json")).expect("report.json"),
    )
    .expect("json");
    report["programs"]
        .as_array()
        .expect("programs")
        .iter()
        .filter(|p| p["counts"]["mismatch"].as_u64().unwrap_or(0) > 0)
        .filter_map(|p| p["name"].as_str().map(str::to_string))
        .collect()
}

/// The project root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A path under `../shared`, where the shared corpora are when the clone has them.
pub fn shared(rel: &str) -> PathBuf {
    root().join("../shared").join(rel)
}

/// Whether `../shared/corpus` is beside the project; prints why a test skips when not.
pub fn shared_present() -> bool {
    let ok = shared("corpus/peer").is_dir() && shared("corpus/sdk").is_dir();
    if !ok {
        eprintln!("skipped: ../shared/corpus is not beside the project");
    }
    ok
}

/// A fresh scratch path (a folder, or a single file) for one test: removed first if an earlier
/// run left it, and removed again when the test is done with it, unless the test is failing,
/// so that what it wrote is there to read.
pub fn temp(prefix: &str, name: &str) -> Scratch {
    let d = std::env::temp_dir().join(format!("dxdiff-{prefix}-{name}-{}", std::process::id()));
    remove(&d);
    Scratch(d)
}

fn remove(p: &Path) {
    if p.is_dir() {
        let _ = std::fs::remove_dir_all(p);
    } else {
        let _ = std::fs::remove_file(p);
    }
}

/// A path [`temp`] made, removed when dropped (kept when the thread is panicking: a failed
/// assertion's evidence). Each run used to leave every scratch folder behind in the
/// system's temp folder.
#[derive(Debug)]
pub struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            remove(&self.0);
        }
    }
}

impl std::ops::Deref for Scratch {
    type Target = PathBuf;
    fn deref(&self) -> &PathBuf {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<std::ffi::OsStr> for Scratch {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.as_os_str()
    }
}

/// Assemble dxdiff assembly `text` with `dxdiff asm` into the container `dir/NAME.o` (the
/// text is an intermediate file, removed after), panicking with asm's message when it does
/// not assemble.
pub fn assemble(dir: &Path, name: &str, text: &str) -> PathBuf {
    std::fs::create_dir_all(dir).expect("scratch");
    let source = dir.join(format!("{name}.asm"));
    std::fs::write(&source, text).expect("text");
    let blob = dir.join(format!("{name}.o"));
    let out = dxdiff()
        .arg("asm")
        .arg(&source)
        .arg("-o")
        .arg(&blob)
        .output()
        .expect("asm");
    assert!(
        out.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::remove_file(source).expect("tidy");
    blob
}

/// A `cmd:` translator that answers every program with `answer` (a protocol document), kept
/// in `dir/answer.json`.
pub fn fixed_answer(dir: &Path, answer: &serde_json::Value) -> String {
    std::fs::create_dir_all(dir).expect("scratch");
    let doc = dir.join("answer.json");
    std::fs::write(&doc, answer.to_string()).expect("answer");
    format!("cmd:cat >/dev/null; cat '{}'", doc.display())
}

/// A run's `report.json` in `dir`.
pub fn report(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).expect("report"))
        .expect("json")
}

/// The three counts of `replay`'s summary line (its last): passed, failed, skipped.
pub fn replay_summary(text: &str) -> [u64; 3] {
    let last = text.lines().last().unwrap_or("");
    let counts: Vec<u64> = last
        .split(", ")
        .filter_map(|part| part.split(' ').next()?.parse().ok())
        .collect();
    counts[..]
        .try_into()
        .unwrap_or_else(|_| panic!("no summary line: {last}"))
}

/// Stdout as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// `None`, with the reason printed, when the command found no usable GPU adapter (exit 4).
pub fn with_adapter(o: Output) -> Option<Output> {
    if o.status.code() == Some(4) {
        eprintln!("skipped: no usable GPU adapter");
        return None;
    }
    Some(o)
}

static GPU: Mutex<()> = Mutex::new(());

/// Held by every test that runs long GPU work, so that on a 2-core machine they take turns
/// instead of all timing out together. A test that panicked leaves the lock usable.
pub fn gpu_turn() -> MutexGuard<'static, ()> {
    GPU.lock().unwrap_or_else(|e| e.into_inner())
}

/// One `<testcase>` of a JUnit document: its name, and `failure`, `skipped` or `passed`.
pub type JunitCase = (String, &'static str);

/// Read a JUnit document the way a CI system does: it must be well formed (every element
/// closed, in order, attributes quoted), one `<testsuite>` inside `<testsuites>` whose
/// `tests`/`failures`/`skipped` counts agree with its test cases. Panics with the reason
/// otherwise.
pub fn junit_cases(xml: &str) -> Vec<JunitCase> {
    let body = xml
        .strip_prefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>")
        .expect("an XML declaration");
    let attr = |tag: &str, key: &str| -> Option<String> {
        let at = tag.find(&format!(" {key}=\""))? + key.len() + 3;
        Some(tag[at..at + tag[at..].find('"')?].to_string())
    };
    let mut stack: Vec<String> = Vec::new();
    let mut cases: Vec<JunitCase> = Vec::new();
    let mut suite: Option<String> = None;
    let mut rest = body;
    while let Some(open) = rest.find('<') {
        assert!(
            rest[..open].trim().is_empty(),
            "text outside elements: {rest}"
        );
        let close = rest[open..].find('>').expect("a closed tag") + open;
        let tag = &rest[open + 1..close];
        rest = &rest[close + 1..];
        assert_eq!(
            tag.matches('"').count() % 2,
            0,
            "unbalanced quotes in <{tag}>"
        );
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(
                stack.pop().as_deref(),
                Some(name),
                "</{name}> closes nothing"
            );
            continue;
        }
        let empty = tag.ends_with('/');
        let name = tag.split([' ', '/']).next().unwrap_or("").to_string();
        match name.as_str() {
            "testsuites" => assert!(stack.is_empty(), "nested <testsuites>"),
            "testsuite" => {
                assert_eq!(stack.last().map(String::as_str), Some("testsuites"));
                suite = Some(tag.to_string());
            }
            "testcase" => {
                assert_eq!(stack.last().map(String::as_str), Some("testsuite"));
                cases.push((attr(tag, "name").expect("a test case name"), "passed"));
            }
            "failure" | "skipped" => {
                assert_eq!(stack.last().map(String::as_str), Some("testcase"));
                assert!(attr(tag, "message").is_some(), "<{name}> without a message");
                if let Some(c) = cases.last_mut() {
                    c.1 = if name == "failure" {
                        "failure"
                    } else {
                        "skipped"
                    };
                }
            }
            other => panic!("unexpected element <{other}>"),
        }
        if !empty {
            stack.push(name);
        }
    }
    assert!(stack.is_empty(), "unclosed elements: {stack:?}");
    let suite = suite.expect("a <testsuite>");
    let count = |kind: &str| cases.iter().filter(|c| c.1 == kind).count().to_string();
    assert_eq!(attr(&suite, "tests"), Some(cases.len().to_string()));
    assert_eq!(attr(&suite, "failures"), Some(count("failure")));
    assert_eq!(attr(&suite, "skipped"), Some(count("skipped")));
    cases
}

/// The manifest of a one-thread compute kernel `main` whose only binding is `u0`, a
/// `storage-u32-array` at group 0, binding 0: what the minimal WGSL reproducers declare.
pub fn one_uav_manifest() -> translator::Manifest {
    serde_json::from_value(serde_json::json!({
        "entry_point": "main",
        "stage": "compute",
        "workgroup_size": [1, 1, 1],
        "bindings": [{"kind": "uav", "register": 0, "group": 0, "binding": 0,
                      "layout": "storage-u32-array"}],
        "inputs": [], "outputs": []
    }))
    .expect("manifest")
}

/// `dxdiff translate --json CASE`: the built-in translator's answer in the external protocol.
pub fn translated(case: &Path) -> serde_json::Value {
    let out = dxdiff()
        .args(["translate", "--json"])
        .arg(case)
        .output()
        .expect("runs");
    serde_json::from_slice(&out.stdout).expect("json")
}

/// A process as `/proc` shows it.
#[derive(Debug)]
pub struct Proc {
    pub pid: u32,
    /// Its process group.
    pub group: u32,
    /// Its command line, arguments joined by NUL.
    pub cmdline: String,
}

/// Every living (not zombie) process.
pub fn processes() -> Vec<Proc> {
    let mut found = Vec::new();
    for e in std::fs::read_dir("/proc").expect("proc").flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        let stat = std::fs::read_to_string(e.path().join("stat")).unwrap_or_default();
        // The fields after the command's closing parenthesis: state, ppid, pgrp, ...
        let Some((_, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let mut fields = rest.split_whitespace();
        let state = fields.next().unwrap_or("Z");
        let group = fields.nth(1).and_then(|g| g.parse::<u32>().ok());
        let cmdline = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
        if let (false, Some(group)) = (state == "Z", group) {
            found.push(Proc {
                pid,
                group,
                cmdline: String::from_utf8_lossy(&cmdline).into_owned(),
            });
        }
    }
    found
}

/// A saved case replays on the GPU (exact profile) as failed while `bug` is planted, and as
/// passed once it is gone.
pub fn replays_only_while_planted(case: &Path, bug: &str) {
    replays_only_while_planted_on("gpu", case, bug);
}

/// [`replays_only_while_planted`] on `executor`.
pub fn replays_only_while_planted_on(executor: &str, case: &Path, bug: &str) {
    let replay = |plant: bool| {
        replay_on(
            executor,
            case,
            &["--profile", "exact"],
            plant.then_some(bug),
        )
        .output()
        .expect("runs")
        .status
        .code()
    };
    assert_eq!(replay(true), Some(1));
    assert_eq!(replay(false), Some(0));
}

/// One program of a `dxdiff corpus --verify` record: its name, status, lanes compared and
/// mismatching lanes.
pub type Outcome = (String, String, u64, u64);

/// Every program of the `dxdiff-corpus/1` record at `record`, as [`Outcome`]s.
pub fn record_outcomes(record: &Path) -> Vec<Outcome> {
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(record).expect("record")).expect("json");
    record["programs"]
        .as_array()
        .expect("programs")
        .iter()
        .map(|p| {
            let v = &p["verdicts"]["counts"];
            (
                p["name"].as_str().unwrap_or("").to_string(),
                p["status"].as_str().unwrap_or("").to_string(),
                v["lanes"].as_u64().unwrap_or(0),
                v["mismatch"].as_u64().unwrap_or(0),
            )
        })
        .collect()
}
