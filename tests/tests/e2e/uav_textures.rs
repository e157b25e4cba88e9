//! Typed UAV textures end to end: `verify`'s built-in programs of each shape run on lavapipe
//! and in Chrome through the exact profile with 0 mismatch, and the two planted bugs (a
//! layer dropped from the address, a UNORM view declared SNORM) are caught.

use std::path::{Path, PathBuf};

use crate::support::*;

/// The built-in typed UAV texture programs, assembled into `dir/programs`.
fn programs(dir: &Path) -> PathBuf {
    let folder = dir.join("programs");
    for (name, text) in generators::programs::uav_textures() {
        assemble(&folder, name, &text);
    }
    folder
}

/// `corpus --verify` over them in the exact profile, with `bug` planted and extra `args`.
fn verify(dir: &Path, folder: &Path, bug: Option<&str>, args: &[&str]) -> std::process::Output {
    dxdiff()
        .arg("corpus")
        .arg(folder)
        .args([
            "--profile",
            "exact",
            "--verify",
            "64",
            "--quiet",
            "--cases-dir",
        ])
        .arg(dir.join("cases"))
        .arg("--out")
        .arg(dir.join("record.json"))
        .args(args)
        .plant(bug)
        .output()
        .expect("runs")
}

#[test]
fn every_shape_matches_on_the_gpu_and_planted_bugs_are_caught() {
    let _turn = gpu_turn();
    let dir = temp("uav-textures", "gpu");
    let folder = programs(&dir);
    let clean = verify(&dir, &folder, None, &[]);
    if clean.status.code() == Some(4) {
        eprintln!("skipped: no usable GPU adapter");
        return;
    }
    assert_eq!(clean.status.code(), Some(0), "{}", stdout(&clean));
    let all = record_outcomes(&dir.join("record.json"));
    assert_eq!(all.len(), generators::programs::uav_textures().len());
    for (name, status, lanes, mismatch) in &all {
        assert_eq!(status, "qualified", "{name}");
        assert!(
            *lanes > 0 && *mismatch == 0,
            "{name}: {lanes} lanes, {mismatch} mismatch"
        );
    }
    // A dropped layer: every array program mismatches, its case replays the bug only while
    // it is planted.
    let bug = "uav-layer-dropped";
    let planted = verify(&dir, &folder, Some(bug), &[]);
    assert_eq!(planted.status.code(), Some(1), "{}", stdout(&planted));
    let mut caught: Vec<String> = record_outcomes(&dir.join("record.json"))
        .into_iter()
        .filter(|(_, _, _, m)| *m > 0)
        .map(|(n, ..)| n)
        .collect();
    caught.sort();
    assert_eq!(
        caught,
        [
            "programs/ld_uav_typed_1darray.o",
            "programs/store_uav_typed_1darray.o",
            "programs/store_uav_typed_2darray.o"
        ]
    );
    let case = dir
        .join("cases")
        .join("corpus-store_uav_typed_2darray.json");
    assert!(case.is_file());
    replays_only_while_planted(&case, bug);
    // A UNORM view declared SNORM: no D3D application could bind it, so the translation
    // fails before anything runs (a failed program in the record).
    let planted = verify(&dir, &folder, Some("uav-unorm-as-snorm"), &[]);
    let failed: Vec<String> = record_outcomes(&dir.join("record.json"))
        .into_iter()
        .filter(|(_, s, ..)| s == "failed")
        .map(|(n, ..)| n)
        .collect();
    assert_eq!(failed, ["programs/store_uav_typed_2d_unorm.o"]);
    assert!(stdout(&planted).contains("contradicts the program"));
}

/// The same plan fed to Chrome's WebGPU (SwiftShader): every shape matches.
#[test]
fn every_shape_matches_in_chrome() {
    if !harness::chrome::available(None) {
        eprintln!("skipped: no browser (install chromium or set $CHROME)");
        return;
    }
    let dir = temp("uav-textures", "chrome");
    let folder = programs(&dir);
    let out = verify(&dir, &folder, None, &["--executor", "chrome"]);
    if out.status.code() == Some(4) {
        eprintln!("skipped: no usable WebGPU adapter");
        return;
    }
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    for (name, status, lanes, mismatch) in record_outcomes(&dir.join("record.json")) {
        assert_eq!(status, "qualified", "{name}");
        assert!(
            lanes > 0 && mismatch == 0,
            "{name}: {lanes} lanes, {mismatch} mismatch"
        );
    }
}
