//! Doubles in the exact profile, end to end: `verify`'s built-in program of every double
//! opcode matches the reference bit for bit on lavapipe over edge doubles, and a `dfma`
//! rounded twice (a planted `dmul` then `dadd`) is caught, saved, and replays only while
//! planted.

use std::path::{Path, PathBuf};

use crate::support::*;

/// The built-in double programs, assembled into `dir/programs`.
fn programs(dir: &Path) -> PathBuf {
    let folder = dir.join("programs");
    for (name, text) in generators::programs::doubles() {
        assemble(&folder, name, &text);
    }
    folder
}

#[test]
fn every_double_opcode_matches_and_a_second_rounding_is_caught() {
    let _turn = gpu_turn();
    let dir = temp("doubles", "gpu");
    let folder = programs(&dir);
    let record = dir.join("record.json");
    let run = |bug: Option<&str>| {
        dxdiff()
            .arg("corpus")
            .arg(&folder)
            .args([
                "--profile",
                "exact",
                "--verify",
                "500",
                "--quiet",
                "--cases-dir",
            ])
            .arg(dir.join("cases"))
            .arg("--out")
            .arg(&record)
            .plant(bug)
            .output()
            .expect("runs")
    };
    let clean = run(None);
    if clean.status.code() == Some(4) {
        eprintln!("skipped: no usable GPU adapter");
        return;
    }
    assert_eq!(clean.status.code(), Some(0), "{}", stdout(&clean));
    let all = record_outcomes(&record);
    assert_eq!(all.len(), generators::programs::doubles().len());
    for (name, _, lanes, mismatch) in &all {
        assert!(
            *lanes == 500 && *mismatch == 0,
            "{name}: {lanes} lanes, {mismatch} mismatch"
        );
    }
    let bug = "dfma-rounded-twice";
    let planted = run(Some(bug));
    assert_eq!(planted.status.code(), Some(1), "{}", stdout(&planted));
    let caught: Vec<String> = record_outcomes(&record)
        .into_iter()
        .filter(|(.., m)| *m > 0)
        .map(|(n, ..)| n)
        .collect();
    assert_eq!(caught, ["programs/dfma.o"]);
    replays_only_while_planted(&dir.join("cases").join("corpus-dfma.json"), bug);
}
