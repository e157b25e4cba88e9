//! The CLI contract: exit codes, and no panic, abort or signal on any bytes.

use crate::support::*;

use std::path::PathBuf;

fn example() -> PathBuf {
    crate::support::root().join("examples/shaders/tgsm_reduce.dxbc")
}

#[test]
fn disasm_then_asm_reproduces_the_shipped_program() {
    let text = temp("cli", "rt.asm");
    let blob = temp("cli", "rt.dxbc");
    let st = dxdiff()
        .arg("disasm")
        .arg(example())
        .arg("-o")
        .arg(&text)
        .status()
        .expect("run");
    assert!(st.success());
    let st = dxdiff()
        .arg("asm")
        .arg(&text)
        .arg("-o")
        .arg(&blob)
        .status()
        .expect("run");
    assert!(st.success());
    assert_eq!(
        std::fs::read(&blob).expect("read"),
        std::fs::read(example()).expect("read")
    );
}

#[test]
fn malformed_input_exits_2_with_an_offset() {
    let bad = temp("cli", "bad.dxbc");
    std::fs::write(&bad, b"DXBC but not really").expect("write");
    let out = dxdiff().arg("info").arg(&bad).output().expect("run");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("byte"));
    let text = temp("cli", "bad.asm");
    std::fs::write(&text, "ps_5_0\nmul r0.x, r1.q\n").expect("write");
    let out = dxdiff().arg("asm").arg(&text).output().expect("run");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 2"));
}

#[test]
fn endless_input_is_refused_after_the_size_limit() {
    let zero = std::path::Path::new("/dev/zero");
    if !zero.exists() {
        return;
    }
    for cmd in ["info", "disasm", "asm"] {
        let out = dxdiff().arg(cmd).arg(zero).output().expect("run");
        assert_eq!(out.status.code(), Some(2), "dxdiff {cmd} /dev/zero");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("io.too-large") && err.contains("/dev/zero"),
            "{err}"
        );
    }
}

/// Mutated copies of a real container: every run exits 0 or 2 (a signal has no exit code).
#[test]
fn mutated_blobs_never_crash_the_cli() {
    let original = std::fs::read(example()).expect("example");
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let path = temp("cli", "mutant.dxbc");
    for case in 0..300 {
        let mut m = original.clone();
        match case % 3 {
            0 => {
                let i = next() as usize % m.len();
                m[i] ^= 1 << (next() % 8);
            }
            1 => m.truncate(next() as usize % m.len()),
            _ => {
                let i = (next() as usize % (m.len() / 4)) * 4;
                m[i..i + 4].copy_from_slice(&(next() as u32).to_le_bytes());
            }
        }
        std::fs::write(&path, &m).expect("write");
        for cmd in ["info", "disasm"] {
            let out = dxdiff().arg(cmd).arg(&path).output().expect("run");
            assert!(
                matches!(out.status.code(), Some(0 | 2)),
                "case {case}: `dxdiff {cmd}` ended with {:?}: {}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}

#[test]
fn translate_emits_wgsl_or_exits_3() {
    let out = dxdiff()
        .arg("translate")
        .arg(example())
        .arg("--profile")
        .arg("exact")
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("@compute @workgroup_size(64, 1, 1)"));
    let gs = temp("cli", "gs.asm");
    std::fs::write(
        &gs,
        "gs_4_0\ndcl_inputprimitive point\ndcl_outputtopology pointlist\ndcl_maxout 1\nemit\nret\n",
    )
    .expect("write");
    let blob = temp("cli", "gs.dxbc");
    assert!(
        dxdiff()
            .arg("asm")
            .arg(&gs)
            .arg("-o")
            .arg(&blob)
            .status()
            .expect("run")
            .success()
    );
    let out = dxdiff().arg("translate").arg(&blob).output().expect("run");
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("[fail-closed/geometry-hull-domain]"));
}
