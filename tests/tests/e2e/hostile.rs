//! Hostile input at the CLI (docs/reliability.md): every class gets a clear error and the exit
//! code docs/case-format.md gives, before any work where it can be known up front, and the
//! rest of a run goes on.

use crate::support::*;

use std::path::Path;
use std::process::Output;

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn write(path: &Path, bytes: &[u8]) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("scratch");
    std::fs::write(path, bytes).expect("write");
}

/// A case file the project ships: every run passes on the interpreter.
fn good_case() -> Vec<u8> {
    std::fs::read(root().join("examples/cases/flow.json")).expect("the shipped case")
}

#[test]
fn numbers_on_the_command_line_are_bounded_before_anything_runs() {
    for args in [
        &["fuzz", "--temps", "0"][..],
        &["fuzz", "--temps", "99"],
        &["fuzz", "--vectors", "0"],
        &["fuzz", "--vectors", "99999999999"],
        &["fuzz", "--time", "1e300h"],
        &["fuzz", "--statements", "1000000"],
        &["verify", "--cases", "0"],
        &["verify", "--cases", "18446744073709551615"],
        &["verify", "--corpus-cases", "100000000"],
        &["verify", "--jobs", "0"],
        &["fuzz", "--jobs", "65"],
        &["corpus", "examples/cases", "--jobs", "100000"],
        &["verify", "--translator-timeout", "0"],
        &["fuzz", "--translator-timeout", "18446744073709551615"],
        &["verify", "--chrome-timeout", "86401"],
    ] {
        let o = dxdiff().args(args).output().expect("runs");
        assert_eq!(o.status.code(), Some(2), "dxdiff {args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    }
}

#[test]
fn an_unusable_out_folder_is_refused_before_the_run() {
    let file = temp("hostile", "out-file");
    write(&file, b"not a folder");
    let started = std::time::Instant::now();
    let o = dxdiff()
        .args(["verify", "--cases", "1", "--out"])
        .arg(&file)
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("out.io"), "{}", stderr(&o));
    assert!(stderr(&o).contains(&file.display().to_string()));
    // Refused up front: no GPU worker was started, no program was run.
    assert!(!stdout(&o).contains("verify:"), "{}", stdout(&o));
    assert!(started.elapsed().as_secs() < 30);
    let _ = std::fs::remove_file(&file);
}

#[test]
fn a_malformed_case_file_is_exit_2_and_the_others_still_run() {
    let dir = temp("hostile", "cases");
    write(&dir.join("a-good.json"), &good_case());
    write(
        &dir.join("b-bad.json"),
        br#"{"format": "dxdiff-case/1", "name": 7}"#,
    );
    write(&dir.join("c-latin1.json"), b"{\"name\": \"caf\xe9\"}");
    let o = dxdiff().arg("replay").arg(&dir).output().expect("runs");
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(2), "{text}");
    assert!(text.contains("b-bad.json"), "{text}");
    assert!(text.contains("line 1"), "names the line: {text}");
    assert!(text.contains("byte 13"), "names the byte: {text}");
    assert!(
        text.trim_end().ends_with(" passed, 2 failed, 0 skipped"),
        "{text}"
    );
    assert!(
        !text.trim_end().ends_with("\n0 passed, 2 failed, 0 skipped"),
        "{text}"
    );

    let Some(o) = with_adapter(
        dxdiff()
            .args(["verify", "--corpus-only", "--out"])
            .arg(dir.join("report"))
            .arg(&dir)
            .output()
            .expect("runs"),
    ) else {
        return;
    };
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(2), "{text}\n{}", stderr(&o));
    assert!(stderr(&o).contains("b-bad.json"), "{}", stderr(&o));
    assert!(text.contains("malformed case files left out: 2"), "{text}");
    assert!(
        text.contains("verify: 1 programs"),
        "the good case ran: {text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_external_manifest_outside_d3d_limits_is_a_translator_crash() {
    let dir = temp("hostile", "manifest");
    let asm = dir.join("cb.asm");
    write(
        &asm,
        b"ps_5_0\ndcl_constantbuffer cb0[1], immediateIndexed\ndcl_output o0.xyzw\nmov o0.xyzw, cb0[0].xyzw\nret\n",
    );
    let blob = dir.join("cb.dxbc");
    assert!(
        dxdiff()
            .arg("asm")
            .arg(&asm)
            .arg("-o")
            .arg(&blob)
            .status()
            .expect("asm")
            .success()
    );
    let cmd = format!(
        "cmd:sh -c '\"{}\" translate --json /dev/stdin | sed \"s/\\\"size_bytes\\\": *[0-9]*/\\\"size_bytes\\\":4294967295/\"'",
        exe()
    );
    let o = dxdiff()
        .args(["translate", "--translator", &cmd])
        .arg(&blob)
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("manifest.limit"), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("bindings[0].size_bytes"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `sh -c` with Direct3D-sized resources: 2 GiB of data (heap and private mappings, which is
/// what every allocation sized from the input would take; address space is left alone because
/// lavapipe reserves it for its JIT) and 120 s of wall time through `timeout`.
fn bounded(args: &[&str]) -> Output {
    let mut c = std::process::Command::new("sh");
    c.arg("-c")
        .arg("ulimit -d 2097152 && exec timeout -s KILL 120 \"$@\"")
        .arg("sh")
        .arg(exe())
        .args(args)
        .env("NODEVICE_SELECT", "1")
        .env("DXDIFF", exe())
        .current_dir(root());
    c.output().expect("runs")
}

/// `verify --corpus-only` over `corpus` with `translator`, under [`bounded`]'s limits;
/// `cases`: `--corpus-cases`, or the default.
fn verify_corpus(corpus: &Path, cases: Option<&str>, translator: &str, out: &Path) -> Output {
    let (corpus, out) = (
        corpus.to_str().expect("utf-8"),
        out.to_str().expect("utf-8"),
    );
    let mut args = vec!["verify", "--corpus-only", "--corpus", corpus];
    if let Some(n) = cases {
        args.extend(["--corpus-cases", n]);
    }
    args.extend(["--translator", translator, "--out", out]);
    bounded(&args)
}

/// Every hostile shape the probe of issue 14 found, as a file, with the commands that read
/// it: each must finish under the limits with a documented exit code (docs/case-format.md:
/// 0 clean, 1 a mismatch or failed expectation, 2 malformed input, 3 rejected by `translate`, 4
/// no GPU adapter) and no
/// panic.
#[test]
fn every_hostile_input_runs_under_2_gib_and_a_time_limit() {
    let _turn = gpu_turn();
    let dir = temp("hostile", "bounded");
    let blobs = dir.join("blobs");
    let mut programs: Vec<(&str, String)> = [
        ("temps", "ps_5_0\ndcl_temps 4294967295\nret\n"),
        ("indexable", "ps_5_0\ndcl_indexableTemp x0[4294967295], 4\nret\n"),
        ("input", "ps_5_0\ndcl_input_ps linear v4000000000.x\nret\n"),
        ("output", "ps_5_0\ndcl_output o2147483648.xyzw\nret\n"),
        (
            "temp-index",
            "ps_5_0\ndcl_output o0.xyzw\nmov r4294967295.x, l(1)\nret\n",
        ),
        ("debug-break", "ps_5_0\ndcl_output o0.xyzw\ndebug_break\nret\n"),
        ("abort", "ps_5_0\ndcl_output o0.xyzw\nabort\nret\n"),
        (
            "cb",
            "ps_5_0\ndcl_constantbuffer cb0[1], immediateIndexed\ndcl_output o0.xyzw\nmov o0.xyzw, cb0[0].xyzw\nret\n",
        ),
        (
            "big-x",
            "ps_5_0\ndcl_output o0.xyzw\ndcl_indexableTemp x0[100000000], 4\nret\n",
        ),
    ]
    .into_iter()
    .map(|(n, t)| (n, t.to_string()))
    .collect();
    programs.push((
        "nested-loops",
        format!(
            "ps_5_0\ndcl_output o0.xyzw\n{}{}ret\n",
            "loop\n".repeat(20_000),
            "endloop\n".repeat(20_000)
        ),
    ));
    let mut produced = 0;
    for (name, text) in &programs {
        let asm = dir.join(format!("{name}.asm"));
        write(&asm, text.as_bytes());
        let blob = blobs.join(format!("{name}.o"));
        std::fs::create_dir_all(&blobs).expect("scratch");
        let (a, b) = (asm.to_str().expect("utf-8"), blob.to_str().expect("utf-8"));
        let o = bounded(&["asm", a, "-o", b]);
        assert!(
            matches!(o.status.code(), Some(0 | 2)),
            "asm {name}: {:?} {}",
            o.status,
            stderr(&o)
        );
        if !blob.exists() {
            continue;
        }
        produced += 1;
        for cmd in ["info", "disasm", "translate"] {
            let o = bounded(&[cmd, b]);
            // 3: `translate` refused it (fail closed).
            assert!(
                matches!(o.status.code(), Some(0 | 2 | 3)),
                "{cmd} {name}: {:?} {}",
                o.status,
                stderr(&o)
            );
            assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
        }
    }
    assert!(produced >= 5, "the assembler writes what decode refuses");
    // Case files: an input register no program declares, a buffer of 4 GiB.
    let good: serde_json::Value = serde_json::from_slice(&good_case()).expect("json");
    let mut far = good.clone();
    far["runs"][0]["inputs"]["v4294967295"] = serde_json::json!(["0x1", "0x2", "0x3", "0x4"]);
    let buffers = std::fs::read(root().join("examples/cases/buffers_out_of_bounds.json"))
        .expect("the shipped case");
    let mut huge: serde_json::Value = serde_json::from_slice(&buffers).expect("json");
    huge["runs"][0]["inputs"]["t0"]["size_bytes"] = serde_json::json!(4_294_967_295u64);
    // A legal dispatch of 65535^3 groups (from a vkd3d test): the interpreter's budget covers
    // the whole dispatch, so it is inconclusive at once.
    let atomics = std::fs::read(root().join("examples/cases/compute_atomics.json"))
        .expect("the shipped case");
    let mut dispatch: serde_json::Value = serde_json::from_slice(&atomics).expect("json");
    for run in dispatch["runs"].as_array_mut().expect("runs") {
        run["dispatch"] = serde_json::json!([65535, 65535, 65535]);
    }
    for (name, case) in [
        ("far-input", far),
        ("huge-buffer", huge),
        ("huge-dispatch", dispatch),
    ] {
        let path = dir.join(format!("{name}.json"));
        write(&path, case.to_string().as_bytes());
        let p = path.to_str().expect("utf-8");
        let out = dir.join(format!("out-{name}"));
        let out = out.to_str().expect("utf-8");
        for args in [
            &["replay", "--executor", "interp", p][..],
            &["verify", p, "--out", out],
        ] {
            let o = bounded(args);
            // 5: nothing was compared (the huge dispatch is inconclusive at once).
            assert!(
                matches!(o.status.code(), Some(0 | 1 | 2 | 4 | 5)),
                "{args:?}: {:?} {}",
                o.status,
                stderr(&o)
            );
            assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
        }
    }
    // The whole corpus of hostile blobs in one run, and a translator whose manifest asks for a
    // 4 GiB constant buffer.
    let cmd = format!(
        "cmd:sh -c '\"{}\" translate --json /dev/stdin | sed \"s/\\\"size_bytes\\\": *[0-9]*/\\\"size_bytes\\\":4294967295/\"'",
        exe()
    );
    let b = blobs.to_str().expect("utf-8");
    for translator in ["builtin", cmd.as_str()] {
        let out = dir.join("out-corpus");
        let o = verify_corpus(Path::new(b), Some("50"), translator, &out);
        assert!(
            matches!(o.status.code(), Some(0 | 1 | 4 | 5)),
            "verify --corpus with {translator}: {:?} {}",
            o.status,
            stderr(&o)
        );
        assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// What held before and must keep holding: an external translator that floods 200 MB, answers
/// invalid UTF-8, kills itself or nests JSON 100,000 deep is a translator crash, under the
/// same 2 GiB and time limits, and `translate` exits 2 naming it.
#[test]
fn hostile_external_translators_are_crashes_not_dxdiff_failures() {
    let dir = temp("hostile", "external");
    let asm = dir.join("p.asm");
    write(
        &asm,
        b"ps_5_0\ndcl_input_ps constant v0.x\ndcl_output o0.x\nmov o0.x, v0.x\nret\n",
    );
    let blob = dir.join("p.o");
    let (a, b) = (asm.to_str().expect("utf-8"), blob.to_str().expect("utf-8"));
    assert!(bounded(&["asm", a, "-o", b]).status.success());
    for (name, cmd) in [
        ("flood", "cmd:head -c 200000000 /dev/zero | tr '\\000' a"),
        ("utf-8", "cmd:printf '\\377\\376{'"),
        ("self-kill", "cmd:kill -9 $$"),
        ("nested", "cmd:head -c 100000 /dev/zero | tr '\\000' '['"),
    ] {
        let o = bounded(&[
            "translate",
            "--translator",
            cmd,
            "--translator-timeout",
            "60",
            b,
        ]);
        assert_eq!(
            o.status.code(),
            Some(2),
            "{name}: {:?} {}",
            o.status,
            stderr(&o)
        );
        assert!(!stderr(&o).contains("panicked"), "{name}: {}", stderr(&o));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `dxdiff --version` names the version and the commit it was built from.
#[test]
fn version_names_the_commit() {
    let out = dxdiff().arg("--version").output().expect("runs");
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0));
    let head = std::process::Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .current_dir(root())
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    let line = text.trim_end();
    assert!(
        line.starts_with(&format!("dxdiff {} (commit ", env!("CARGO_PKG_VERSION"))),
        "{line}"
    );
    // The build names a commit: this checkout's, or `unknown` outside one.
    let commit = line
        .rsplit("(commit ")
        .next()
        .unwrap_or("")
        .trim_end_matches(')');
    assert!(
        commit == "unknown" || commit.len() == 12 && commit.chars().all(|c| c.is_ascii_hexdigit()),
        "{line}"
    );
    if let Some(head) = head {
        assert_eq!(commit, head, "{line}");
    }
}

/// `translate --json` of `blob` by the built-in translator, edited by `edit`, as a fixed
/// external translator's answer.
fn edited_answer(dir: &Path, blob: &Path, edit: impl Fn(&mut serde_json::Value)) -> String {
    let o = dxdiff()
        .args(["translate", "--json"])
        .arg(blob)
        .output()
        .expect("runs");
    assert!(o.status.success(), "{}", stderr(&o));
    let mut answer: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    edit(&mut answer);
    fixed_answer(dir, &answer)
}

#[test]
fn a_manifest_that_contradicts_its_wgsl_is_a_translator_crash() {
    let dir = temp("hostile", "contradicts");
    let blob = assemble(
        &dir,
        "cb",
        "ps_5_0\ndcl_constantbuffer cb0[1], immediateIndexed\ndcl_output o0.xyzw\nmov o0.xyzw, cb0[0].xyzw\nret\n",
    );
    // The answer as it is: accepted (the control).
    let same = edited_answer(&dir.join("same"), &blob, |_| {});
    let o = dxdiff()
        .args(["translate", "--translator", &same])
        .arg(&blob)
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for (name, what, edit) in [
        (
            "entry",
            "no fragment entry point `elsewhere`",
            (|a: &mut serde_json::Value| a["manifest"]["entry_point"] = "elsewhere".into())
                as fn(&mut serde_json::Value),
        ),
        ("binding", "which the module does not declare", |a| {
            a["manifest"]["bindings"][0]["binding"] = 7.into()
        }),
        ("unnamed", "which no manifest binding names", |a| {
            a["manifest"]["bindings"] = serde_json::json!([])
        }),
    ] {
        let cmd = edited_answer(&dir.join(name), &blob, edit);
        let o = dxdiff()
            .args(["translate", "--translator", &cmd])
            .arg(&blob)
            .output()
            .expect("runs");
        assert_eq!(o.status.code(), Some(2), "{name}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("its manifest contradicts its WGSL") && stderr(&o).contains(what),
            "{name}: {}",
            stderr(&o)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A shard is a CI artifact, so untrusted: a state that names a case outside its folder, an
/// `--out` that is one of the shards, or a state file that is a FIFO is refused with exit 2,
/// and nothing outside `--out` is read or written.
#[test]
fn merge_and_resume_refuse_what_a_hostile_shard_names() {
    let _turn = gpu_turn();
    let base = temp("hostile", "shards");
    let shard = base.join("a");
    let o = dxdiff()
        .args(["fuzz", "-q", "--profile", "exact", "--seed", "1"])
        .args(["--programs", "8", "--stages", "ps", "--vectors", "64"])
        .args(["--shrink-time", "30", "--shard", "0/1", "--out"])
        .arg(&shard)
        .plant(Some("replicate-swizzle-ignored"))
        .output()
        .expect("runs");
    let Some(o) = with_adapter(o) else {
        return;
    };
    assert_eq!(o.status.code(), Some(1), "the planted bug: {}", stdout(&o));
    let merge = |out: &Path| {
        dxdiff()
            .arg("merge")
            .arg(&shard)
            .arg("--out")
            .arg(out)
            .output()
            .expect("runs")
    };
    // The merge of the untouched shard works (the control).
    let o = merge(&base.join("merged"));
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    // `--out` is the shard, or inside it.
    for out in [shard.clone(), shard.join("again")] {
        let o = merge(&out);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains("one of the shards"), "{}", stderr(&o));
    }
    // A divergence whose case leaves the shard: `..` and an absolute path.
    let state_path = shard.join("state.json");
    let state = std::fs::read_to_string(&state_path).expect("state");
    let secret = base.join("secret.json");
    write(&secret, b"{\"not\": \"a case\"}");
    for named in ["../secret.json", secret.to_str().expect("utf-8")] {
        let mut v: serde_json::Value = serde_json::from_str(&state).expect("json");
        v["divergences"][0]["case"] = named.into();
        write(&state_path, v.to_string().as_bytes());
        let out = base.join("escaped");
        let o = merge(&out);
        assert_eq!(o.status.code(), Some(2), "{named}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("file.escapes"),
            "{named}: {}",
            stderr(&o)
        );
        assert!(!out.join("secret.json").exists());
    }
    // A state file that is a FIFO: refused at once, never read (reading would hang).
    std::fs::remove_file(&state_path).expect("tidy");
    let made = std::process::Command::new("mkfifo")
        .arg(&state_path)
        .status()
        .expect("mkfifo");
    assert!(made.success());
    let started = std::time::Instant::now();
    let o = dxdiff()
        .args(["fuzz", "-q", "--programs", "1", "--shard", "0/1", "--out"])
        .arg(&shard)
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
    assert!(started.elapsed().as_secs() < 60);
    let _ = std::fs::remove_dir_all(&base);
}

/// `corpus --baseline R --out R` would replace the record it compares with: refused.
#[test]
fn a_record_is_never_its_own_baseline() {
    let dir = temp("hostile", "baseline");
    std::fs::create_dir_all(&dir).expect("scratch");
    let record = dir.join("record.json");
    let o = dxdiff()
        .args(["corpus", "examples/cases", "--out"])
        .arg(&record)
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let before = std::fs::read(&record).expect("record");
    let o = dxdiff()
        .args(["corpus", "examples/cases", "--baseline"])
        .arg(&record)
        .arg("--out")
        .arg(dir.join(".").join("record.json"))
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("is the --baseline"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&record).expect("record"), before);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A corpus folder with a link to itself and a FIFO: each program is counted once and the FIFO
/// is no program (reading it would hang the run).
#[test]
fn a_corpus_with_a_link_loop_and_a_fifo_counts_each_program_once() {
    let dir = temp("hostile", "loop");
    let corpus = dir.join("corpus");
    std::fs::create_dir_all(&corpus).expect("scratch");
    assemble(
        &corpus,
        "one",
        "ps_5_0\ndcl_input_ps constant v0.x\ndcl_output o0.x\nmov o0.x, v0.x\nret\n",
    );
    std::os::unix::fs::symlink(".", corpus.join("loop")).expect("link");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(corpus.join("pipe.o"))
            .status()
            .expect("mkfifo")
            .success()
    );
    let record = dir.join("record.json");
    let o = dxdiff()
        .arg("corpus")
        .arg(&corpus)
        .arg("--out")
        .arg(&record)
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(&record).expect("record");
    assert_eq!(text.matches("one.o").count(), 1, "{text}");
    assert!(!text.contains("pipe.o"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Output that cannot be written (a full device, a closed pipe) is exit 2 with one line, not
/// a panic with a backtrace.
#[test]
fn output_that_cannot_be_written_is_exit_2_not_a_panic() {
    let dir = temp("hostile", "full");
    let blob = assemble(
        &dir,
        "p",
        "ps_5_0\ndcl_input_ps constant v0.x\ndcl_output o0.x\nmov o0.x, v0.x\nret\n",
    );
    for args in [&["catalog"][..], &["info"], &["disasm"]] {
        let full = std::fs::File::create("/dev/full").expect("/dev/full");
        let mut c = dxdiff();
        c.args(args);
        if args[0] != "catalog" {
            c.arg(&blob);
        }
        let o = c.stdout(full).output().expect("runs");
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(
            e.contains("cannot write the output") || e.contains("<stdout>"),
            "{args:?}: {e}"
        );
        assert!(!e.contains("panicked"), "{args:?}: {e}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The living processes whose command line contains `marker`.
fn living(marker: &str) -> Vec<u32> {
    processes()
        .into_iter()
        .filter(|p| p.cmdline.contains(marker))
        .map(|p| p.pid)
        .collect()
}

/// Wait up to `limit` for `done`.
fn wait_for(limit: std::time::Duration, done: impl Fn() -> bool) -> bool {
    let start = std::time::Instant::now();
    while start.elapsed() < limit {
        if done() {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    done()
}

/// The profile folders dxdiff's browsers have under `tmp`.
fn profiles(tmp: &Path) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(tmp)
        .map(|d| {
            d.flatten()
                .map(|e| e.path())
                .filter(|p| {
                    p.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.starts_with("dxdiff-chrome-"))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// SIGINT, SIGTERM or SIGKILL during a `--executor chrome` run leaves no browser process; the
/// two that can be caught also remove the profile, and the one that cannot leaves a folder
/// that the next start removes. A browser that exits at once is said to have exited, not to
/// have been waited for.
#[test]
fn a_stopped_chrome_run_leaves_no_browser_behind() {
    if !harness::chrome::available(None) {
        eprintln!("skipped: no browser");
        return;
    }
    let dir = temp("hostile", "chrome-signals");
    let case = root().join("examples/cases/flow.json");
    let bogus = std::time::Instant::now();
    let o = dxdiff()
        .args(["replay", "--executor", "chrome", "--chrome", "/bin/false"])
        .arg(&case)
        .output()
        .expect("runs");
    let text = stderr(&o) + &stdout(&o);
    assert!(text.contains("exited (exit status 1)"), "{text}");
    assert!(!text.contains("within 90s"), "{text}");
    assert!(bogus.elapsed() < std::time::Duration::from_secs(60));
    for signal in ["INT", "TERM", "KILL"] {
        let tmp = dir.join(signal);
        std::fs::create_dir_all(&tmp).expect("scratch");
        let marker = tmp.to_str().expect("utf-8").to_string();
        let mut run = dxdiff()
            .args(["verify", "--executor", "chrome", "--out"])
            .arg(dir.join(format!("out-{signal}")))
            .env("TMPDIR", &tmp)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("starts");
        let up = wait_for(std::time::Duration::from_secs(60), || {
            living(&marker).len() >= 3
        });
        if !up {
            let _ = run.kill();
            let _ = run.wait();
            eprintln!("skipped: the browser did not come up");
            return;
        }
        let _ = std::process::Command::new("kill")
            .args([format!("-{signal}"), run.id().to_string()])
            .status();
        let status = run.wait().expect("ends");
        use std::os::unix::process::ExitStatusExt;
        let number = match signal {
            "INT" => 2,
            "TERM" => 15,
            _ => 9,
        };
        assert_eq!(status.signal(), Some(number), "{signal}: {status:?}");
        assert!(
            wait_for(std::time::Duration::from_secs(10), || living(&marker)
                .is_empty()),
            "{signal}: left {:?}",
            living(&marker)
        );
        if signal == "KILL" {
            assert!(!profiles(&tmp).is_empty(), "SIGKILL cannot remove them");
            // The next start removes the folder of the dxdiff that is gone.
            let o = dxdiff()
                .args(["replay", "--executor", "chrome"])
                .arg(&case)
                .env("TMPDIR", &tmp)
                .output()
                .expect("runs");
            assert!(o.status.code().is_some(), "{}", stderr(&o));
        }
        assert!(profiles(&tmp).is_empty(), "{signal}: {:?}", profiles(&tmp));
    }
}

/// A translator that stops or kills its own guard (`kill -STOP $PPID`, `kill -9 $PPID`) is a
/// crash, and none of the processes it started outlives the run.
#[test]
fn a_translator_that_attacks_its_guard_leaves_nothing_running() {
    let dir = temp("hostile", "guard");
    let asm = dir.join("p.asm");
    write(
        &asm,
        b"ps_5_0\ndcl_input_ps constant v0.x\ndcl_output o0.x\nmov o0.x, v0.x\nret\n",
    );
    let blob = dir.join("p.o");
    let (a, b) = (asm.to_str().expect("utf-8"), blob.to_str().expect("utf-8"));
    assert!(bounded(&["asm", a, "-o", b]).status.success());
    for (name, cmd, marker) in [
        (
            "stop",
            "cmd:sleep 876541 & kill -STOP $PPID; sleep 876542",
            "sleep 87654",
        ),
        (
            "kill",
            "cmd:sleep 876543 & kill -9 $PPID; sleep 876544",
            "sleep 87654",
        ),
        (
            "serve-stop",
            "serve:sleep 876545 & kill -STOP $PPID; sleep 876546",
            "sleep 87654",
        ),
    ] {
        let o = bounded(&[
            "translate",
            "--translator",
            cmd,
            "--translator-timeout",
            "2",
            b,
        ]);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("translator crash"),
            "{name}: {}",
            stderr(&o)
        );
        assert!(
            wait_for(std::time::Duration::from_secs(5), || living(marker)
                .is_empty()),
            "{name}: left {:?}",
            living(marker)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A campaign's state is one campaign: shards of different lengths merge into a state that a
/// resume continues without running or counting a program twice; shards or resumes with other
/// settings are refused; edited counters are refused instead of carried on (or wrapped); and a
/// campaign or replay that compared nothing is exit 5, not a pass.
#[test]
fn campaign_state_is_consistent_across_shards_resumes_and_edits() {
    let _turn = gpu_turn();
    let dir = temp("hostile", "state");
    let fuzz = |out: &Path, extra: &[&str]| {
        let mut c = dxdiff();
        c.args(["fuzz", "-q", "--seed", "5", "--stages", "ps", "--out"])
            .arg(out)
            .args(extra);
        c.output().expect("runs")
    };
    let (a, b) = (dir.join("a"), dir.join("b"));
    let Some(o) = with_adapter(fuzz(
        &a,
        &["--shard", "0/2", "--programs", "6", "--vectors", "4"],
    )) else {
        return;
    };
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
    let o = fuzz(
        &b,
        &["--shard", "1/2", "--programs", "10", "--vectors", "4"],
    );
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
    let merged = dir.join("merged");
    let o = dxdiff()
        .args(["merge", "--out"])
        .arg(&merged)
        .args([&a, &b])
        .output()
        .expect("runs");
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
    let state = |d: &Path| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(d.join("state.json")).expect("state"))
            .expect("json")
    };
    let m = state(&merged);
    assert_eq!(m["stats"]["programs"], 8, "3 + 5 programs");
    assert_eq!(m["next"], 6);
    // Resumed to 10: programs 6 and 8 run; 7 and 9 ran in shard 1 and are passed over.
    let o = fuzz(&merged, &["--programs", "10", "--vectors", "4"]);
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
    let m = state(&merged);
    assert_eq!(m["stats"]["programs"], 10, "{m}");
    assert_eq!(m["next"], 10);
    // Other settings: a resume and a merge are refused, naming them.
    let o = fuzz(&a, &["--shard", "0/2", "--programs", "8", "--vectors", "8"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("vectors=4"), "{}", stderr(&o));
    let c = dir.join("c");
    let o = fuzz(&c, &["--shard", "1/2", "--programs", "4", "--vectors", "8"]);
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
    let o = dxdiff()
        .args(["merge", "--out"])
        .arg(dir.join("mixed"))
        .args([&a, &c])
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("settings"), "{}", stderr(&o));
    // Edited counters: refused on resume and on merge, never wrapped.
    let mut edited = state(&a);
    edited["stats"]["programs"] = serde_json::json!(u64::MAX);
    write(&a.join("state.json"), edited.to_string().as_bytes());
    let o = fuzz(&a, &["--shard", "0/2", "--programs", "8", "--vectors", "4"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("inconsistent"), "{}", stderr(&o));
    let o = dxdiff()
        .args(["merge", "--out"])
        .arg(dir.join("wrapped"))
        .args([&a, &b])
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // Nothing compared is exit 5.
    let o = fuzz(&dir.join("none"), &["--programs", "0"]);
    assert_eq!(o.status.code(), Some(5), "{}", stderr(&o));
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).expect("scratch");
    let o = dxdiff().arg("replay").arg(&empty).output().expect("runs");
    assert_eq!(o.status.code(), Some(5), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `DIR/corpus/p.o`, assembled from `asm`: a corpus of one program, and the program.
fn corpus_of_one(dir: &Path, asm: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let corpus = dir.join("corpus");
    std::fs::create_dir_all(&corpus).expect("scratch");
    let text = dir.join("p.asm");
    write(&text, asm.as_bytes());
    let blob = corpus.join("p.o");
    let (a, b) = (text.to_str().expect("utf-8"), blob.to_str().expect("utf-8"));
    assert!(bounded(&["asm", a, "-o", b]).status.success());
    (corpus, blob)
}

/// What a translator says (a refusal's reason, a crash's stderr) reaches stdout and report.md
/// without a terminal escape acting or a newline forging a table row.
#[test]
fn translator_text_cannot_act_on_a_terminal_or_forge_a_report_row() {
    let _turn = gpu_turn();
    let dir = temp("hostile", "text");
    let (corpus, _) = corpus_of_one(
        &dir,
        "ps_5_0\ndcl_input_ps linear v0.x\ndcl_output o0.x\nmov o0.x, v0.x\nret\n",
    );
    let forged = "| forged | 999 | 999 |";
    for translator in [
        format!(
            "cmd:printf '{{\"status\":\"rejected\",\"reason\":\"red \\\\u001b[31mX\\\\n{forged}\"}}'"
        ),
        format!("cmd:printf 'red \\033[31mX\\n{forged}\\n' >&2; exit 3"),
    ] {
        let out = dir.join("out");
        let _ = std::fs::remove_dir_all(&out);
        let o = verify_corpus(&corpus, None, &translator, &out);
        assert!(
            matches!(o.status.code(), Some(0 | 1 | 4 | 5)),
            "{}",
            stderr(&o)
        );
        let md = std::fs::read_to_string(out.join("report.md")).unwrap_or_default();
        for (what, text) in [("stdout", stdout(&o)), ("report.md", md)] {
            assert!(!text.contains('\u{1b}'), "{translator}: {what}: {text}");
            assert!(
                !text.lines().any(|l| l.starts_with("| forged")),
                "{translator}: {what}: {text}"
            );
            assert!(
                text.contains("\\x1b[31mX"),
                "{translator}: {what} shows it: {text}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// WGSL that validates but asks for what no translation needs (64 MiB of workgroup memory, a
/// 1 GiB private array, 200,000 functions) is a translator crash within seconds and 2 GiB, and
/// workgroup memory over the device's own limit is refused before the driver builds it.
#[test]
fn a_module_that_asks_too_much_is_refused_before_it_costs() {
    let _turn = gpu_turn();
    let dir = temp("hostile", "too-much");
    let (corpus, blob) = corpus_of_one(
        &dir,
        "cs_5_0\ndcl_uav_raw u0\ndcl_thread_group 1, 1, 1\nstore_raw u0.x, l(0), l(1)\nret\n",
    );
    let answer = bounded(&["translate", "--json", blob.to_str().expect("utf-8")]);
    assert!(answer.status.success(), "{}", stderr(&answer));
    let answer: serde_json::Value = serde_json::from_slice(&answer.stdout).expect("json");
    let wgsl = answer["wgsl"].as_str().expect("wgsl").to_string();
    // Each variant uses what it declares, so no compiler drops it.
    let with = |decl: &str, use_it: &str| {
        wgsl.replacen("@compute", &format!("{decl}\n@compute"), 1)
            .replacen("    run();\n", &format!("    {use_it}\n    run();\n"), 1)
    };
    let fns: String = (0..200_000).map(|k| format!("fn f{k}() {{}}\n")).collect();
    let cases = [
        (
            "workgroup",
            with(
                "var<workgroup> big: array<u32, 16777216>;",
                "big[lix] = 1u; u0_[1] = big[0];",
            ),
            "bytes of workgroup memory, more than the 65536",
        ),
        (
            "private",
            with(
                "var<private> huge: array<u32, 268435456>;",
                "huge[lix] = 2u; u0_[1] = huge[0];",
            ),
            "private and function memory",
        ),
        ("functions", fns + &wgsl, "200003 functions"),
        (
            "device",
            with(
                "var<workgroup> mid: array<u32, 12288>;",
                "mid[lix] = 1u; u0_[1] = mid[0];",
            ),
            "maxComputeWorkgroupStorageSize",
        ),
    ];
    for (name, text, expect) in cases {
        let mut v = answer.clone();
        v["wgsl"] = serde_json::Value::String(text);
        let file = dir.join(format!("{name}.json"));
        write(&file, v.to_string().as_bytes());
        let out = dir.join(format!("out-{name}"));
        let started = std::time::Instant::now();
        let o = verify_corpus(
            &corpus,
            Some("1"),
            &format!("cmd:cat '{}'", file.display()),
            &out,
        );
        let Some(o) = with_adapter(o) else { return };
        assert!(
            matches!(o.status.code(), Some(1 | 5)),
            "{name}: {}",
            stderr(&o)
        );
        let md = std::fs::read_to_string(out.join("report.md")).unwrap_or_default();
        // A device whose limit is at least 48 KiB runs the last one; lavapipe's is 32 KiB.
        if name == "device" && !md.contains("llvmpipe") {
            continue;
        }
        assert!(md.contains(expect), "{name}: {md}");
        assert!(
            started.elapsed() < std::time::Duration::from_secs(60),
            "{name}: {:?}",
            started.elapsed()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// An output that cannot be written (here a folder in the way of `report.html` or the
/// Markdown page) costs that file only: the other outputs, `--junit` included, are written,
/// the summary is printed, and the exit is 2.
#[test]
fn an_output_that_fails_costs_only_itself() {
    let _turn = gpu_turn();
    let dir = temp("hostile", "one-output");
    let out = dir.join("fuzz");
    std::fs::create_dir_all(out.join("report.html")).expect("a folder in the way");
    let junit = dir.join("fuzz.xml");
    let o = dxdiff()
        .args([
            "fuzz",
            "-q",
            "--seed",
            "2",
            "--programs",
            "2",
            "--stages",
            "ps",
            "--vectors",
            "4",
        ])
        .arg("--out")
        .arg(&out)
        .arg("--junit")
        .arg(&junit)
        .output()
        .expect("runs");
    let Some(o) = with_adapter(o) else { return };
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stdout(&o).contains("fuzz: 2 programs"), "{}", stdout(&o));
    assert!(junit.is_file(), "the JUnit file is written");
    assert!(out.join("state.json").is_file());
    let corpus = root().join("examples/cases");
    let md = dir.join("corpus.md");
    std::fs::create_dir_all(&md).expect("a folder in the way");
    let (record, junit) = (dir.join("corpus.json"), dir.join("corpus.xml"));
    let o = dxdiff()
        .arg("corpus")
        .arg(&corpus)
        .arg("--out")
        .arg(&record)
        .arg("--markdown")
        .arg(&md)
        .arg("--junit")
        .arg(&junit)
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stdout(&o).contains("corpus: "), "{}", stdout(&o));
    assert!(record.is_file() && junit.is_file());
    let _ = std::fs::remove_dir_all(&dir);
}
