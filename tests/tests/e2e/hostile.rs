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
