//! `dxdiff verify` end to end on the local adapter (lavapipe in CI): the catalog does its job
//! (the contract profile's numeric edges are adapted, the exact profile needs none of them, no
//! mismatch either way), and a planted translator bug is caught, saved and replayable.

use crate::support::*;

use std::path::Path;
use std::process::Output;

/// Run verify; `None` when there is no usable adapter (exit 4).
fn verify(profile: &str, dir: &Path, plant: bool) -> Option<(Output, serde_json::Value)> {
    let mut c = dxdiff();
    c.args([
        "verify",
        "--cases",
        "2000",
        "--seed",
        "3",
        "--profile",
        profile,
        "--out",
    ])
    .arg(dir)
    .plant(plant.then_some(UDIV_BUG));
    let out = with_adapter(c.output().expect("runs"))?;
    let report: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("report.json")).expect("report.json"),
    )
    .expect("json");
    assert!(dir.join("report.md").is_file());
    Some((out, report))
}

/// The report's entry for the program `name`.
fn program<'a>(report: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    report["programs"]
        .as_array()
        .expect("programs")
        .iter()
        .find(|p| p["name"] == name)
        .unwrap_or_else(|| panic!("no program {name}"))
}

fn adapted(report: &serde_json::Value, id: &str) -> u64 {
    report["adapted_by"][id].as_u64().unwrap_or(0)
}

const NUMERIC_EDGES: [&str; 3] = [
    "adapted/numeric-conversion-edges",
    "bounded/f16-conversions",
    "adapted/rcp-division",
];

#[test]
fn contract_edges_are_adapted_and_exact_needs_none() {
    let _turn = gpu_turn();
    let Some((out, contract)) = verify("contract", &temp("verify", "contract"), false) else {
        return;
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().last().unwrap_or("");
    assert!(
        last.starts_with("verify: ") && last.ends_with(" 0 mismatch, 0 inconclusive"),
        "{last}"
    );
    assert_eq!(out.status.code(), Some(0));
    for id in NUMERIC_EDGES {
        assert!(adapted(&contract, id) > 0, "contract: no hits on {id}");
    }
    let Some((out, exact)) = verify("exact", &temp("verify", "exact"), false) else {
        return;
    };
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    for id in NUMERIC_EDGES {
        assert_eq!(adapted(&exact, id), 0, "exact relies on {id}");
    }
    // The sampling and derivative programs compare lanes over generated textures and
    // samplers; those that take derivatives are drawn over quads in a render pipeline.
    for report in [&contract, &exact] {
        for name in [
            "sample",
            "sample_l",
            "sample_b",
            "sample_d",
            "gather4",
            "ld",
            "resinfo",
            "deriv_rtx_coarse",
            "deriv_rtx_fine",
            "deriv_rty_coarse",
            "deriv_rty_fine",
        ] {
            let p = program(report, &format!("single:{name}"));
            assert!(p["counts"]["lanes"].as_u64() > Some(0), "{p:#}");
            assert_eq!(p["counts"]["mismatch"], 0, "{p:#}");
        }
        // The quads are real: most fine derivative lanes match bit for bit, although lavapipe's
        // derivative lanes are all allowed to differ (`dxdiff/llvmpipe-derivatives`). Vectors
        // out of quad order would match in a few lanes only.
        for name in ["deriv_rtx_fine", "deriv_rty_fine"] {
            let p = program(report, &format!("single:{name}"));
            let (matched, lanes) = (
                p["counts"]["matched"].as_u64().unwrap_or(0),
                p["counts"]["lanes"].as_u64().unwrap_or(0),
            );
            assert!(2 * matched > lanes, "{p:#}");
        }
    }
    // The exact profile alone runs comparisons, `lod` and 1D textures. `lod` is held to its band: at least
    // a third of its lanes match or lie within it on lavapipe, where every derivative lane is
    // also allowed to differ.
    for name in [
        "sample_c",
        "sample_c_lz",
        "gather4_c",
        "gather4_po",
        "gather4_po_c",
        "sample_c_cube",
        "gather4_c_cube",
        "ld_depth",
        "lod",
        "sample_l_1d",
        "sample_1d",
        "ld_1darray",
        "resinfo_1d",
        "store_uav_typed_2d",
        "store_uav_typed_3d",
        "ld_uav_typed_2d",
        "resinfo_uav",
        "dadd",
        "dfma",
        "ddiv",
        "dtof",
        "itod",
        "sample_cubearray",
        "sample_l_cubearray",
        "gather4_cubearray",
        "sample_c_cubearray",
        "gather4_c_cubearray",
        "resinfo_cubearray",
        "ldms",
        "sampleinfo",
        "samplepos",
    ] {
        let p = program(&exact, &format!("single:{name}"));
        assert!(p["counts"]["lanes"].as_u64() > Some(0), "{p:#}");
        assert_eq!(p["counts"]["mismatch"], 0, "{p:#}");
    }
    let lod = &program(&exact, "single:lod")["counts"];
    let held = lod["matched"].as_u64().unwrap_or(0) + lod["within"].as_u64().unwrap_or(0);
    assert!(3 * held > lod["lanes"].as_u64().unwrap_or(0), "{lod:#}");
}

#[test]
fn a_planted_udiv_bug_is_caught_saved_and_replayed() {
    let _turn = gpu_turn();
    let dir = temp("verify", "planted");
    let Some((out, report)) = verify("exact", &dir, true) else {
        return;
    };
    assert_eq!(out.status.code(), Some(1));
    let udiv = program(&report, "udiv");
    assert!(udiv["counts"]["mismatch"].as_u64().unwrap_or(0) > 0);
    let case = dir.join("cases").join("udiv.json");
    assert!(case.is_file());
    // `udiv` works component by component: the case is the failing component's input alone,
    // broadcast to the lane, as it was judged (a NaN beside it must not excuse it).
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&case).expect("case")).expect("json");
    for reg in ["v0", "v1"] {
        let words = doc["runs"][0]["inputs"][reg].as_array().expect(reg);
        assert!(words.iter().all(|w| *w == words[0]), "{reg}: {words:?}");
    }
    // The saved case reproduces the bug on the GPU, and passes once the bug is gone.
    replays_only_while_planted(&case, UDIV_BUG);
}

/// `verify --profile exact --cases 500 --seed SEED` with `bug` planted: the built-in programs
/// with mismatching lanes, and the run's folder (its cases beside); `None` without a GPU.
fn planted_verify(name: &str, bug: &str, seed: &str) -> Option<(Scratch, Vec<String>)> {
    let dir = temp("verify", name);
    let out = dxdiff()
        .args([
            "verify",
            "--cases",
            "500",
            "--seed",
            seed,
            "--profile",
            "exact",
        ])
        .args(["--quiet", "--out"])
        .arg(&dir)
        .plant(Some(bug))
        .output()
        .expect("runs");
    let out = with_adapter(out)?;
    assert_eq!(out.status.code(), Some(1));
    let mismatching = mismatching_programs(&dir);
    Some((dir, mismatching))
}

/// The case `verify` saved for `program` (`single:NAME`) replays the bug only while planted.
fn saved_case_replays(dir: &Path, program: &str, bug: &str) {
    let case = dir
        .join("cases")
        .join(format!("{}.json", program.replace(':', "-")));
    assert!(case.is_file(), "{}", case.display());
    replays_only_while_planted(&case, bug);
}

/// A 3D `ld_aoffimmi` whose w offset the translation drops is caught by the built-in
/// `ld_aoffimmi_3d` program, saved, and its case replays the bug on the GPU only while it is
/// planted.
#[test]
fn a_dropped_ld_offset_is_caught_saved_and_replayed() {
    let _turn = gpu_turn();
    let bug = "ld-volume-offset-dropped";
    let Some((dir, mismatching)) = planted_verify("ld-offset", bug, "3") else {
        return;
    };
    assert_eq!(mismatching, ["single:ld_aoffimmi_3d"]);
    saved_case_replays(&dir, &mismatching[0], bug);
}

/// A cube array sampled at its first cube whatever w selects is caught by the built-in
/// cube-array programs and by no other, saved, and its case replays the bug on the GPU only
/// while it is planted.
#[test]
fn a_dropped_cube_index_is_caught_saved_and_replayed() {
    let _turn = gpu_turn();
    let bug = "cube-index-dropped";
    let Some((dir, mismatching)) = planted_verify("cube-index", bug, "3") else {
        return;
    };
    // Which cube-array programs see it depends on the formats the seed draws (a color
    // program's lanes are often within an sRGB or UNORM read's latitude); only they do.
    assert!(!mismatching.is_empty());
    assert!(
        mismatching.iter().all(|n| n.ends_with("_cubearray")),
        "{mismatching:?}"
    );
    saved_case_replays(&dir, &mismatching[0], bug);
}

/// `ldms` that reads sample 0 whatever its index (a dropped sample index) is caught by the
/// built-in `ldms` program alone, saved, and replays only while planted.
#[test]
fn a_dropped_sample_index_is_caught_saved_and_replayed() {
    let _turn = gpu_turn();
    let bug = "sample-index-dropped";
    let Some((dir, mismatching)) = planted_verify("sample-index", bug, "1") else {
        return;
    };
    assert_eq!(mismatching, ["single:ldms"]);
    saved_case_replays(&dir, &mismatching[0], bug);
}

/// An `fcall` that runs the first table's body whatever table its slot binds is caught by
/// the two built-in `fcall` programs alone (the class-instance buffer binds a table per slot
/// per vector), saved, and replays only while planted.
#[test]
fn an_fcall_ignoring_its_bound_table_is_caught_saved_and_replayed() {
    let _turn = gpu_turn();
    let bug = "fcall-first-table";
    let Some((dir, mismatching)) = planted_verify("fcall-table", bug, "1") else {
        return;
    };
    assert_eq!(mismatching, ["single:fcall", "single:fcall_dynamic"]);
    saved_case_replays(&dir, &mismatching[0], bug);
}

/// Clip distances written in reverse order are caught by the two built-in clip-distance
/// programs alone, saved, and replay only while planted.
#[test]
fn reversed_clip_distances_are_caught_saved_and_replayed() {
    let _turn = gpu_turn();
    let bug = "clip-distances-reversed";
    let Some((dir, mismatching)) = planted_verify("clip-distances", bug, "1") else {
        return;
    };
    assert_eq!(
        mismatching,
        [
            "single:clip_distance",
            "single:clip_distance4",
            "single:clip_distance6"
        ]
    );
    saved_case_replays(&dir, &mismatching[0], bug);
}

/// An append/consume counter that never moves is caught by the two built-in counter programs
/// alone (each counts alone, so every count is defined), saved, and replays only while
/// planted.
#[test]
fn a_counter_that_never_moves_is_caught_saved_and_replayed() {
    let _turn = gpu_turn();
    let bug = "counter-never-moves";
    let Some((dir, mismatching)) = planted_verify("counter", bug, "1") else {
        return;
    };
    assert_eq!(mismatching, ["single:counter_ps", "single:counter_cs"]);
    saved_case_replays(&dir, &mismatching[0], bug);
}

/// Without `NODEVICE_SELECT` and `XDG_RUNTIME_DIR` (a CI container), a run's stderr carries no
/// loader noise: the GPU worker turns Mesa's device-select layer off.
#[test]
fn no_loader_noise_without_nodevice_select() {
    let _turn = gpu_turn();
    let dir = temp("verify", "quiet");
    let out = dxdiff()
        .env_remove("NODEVICE_SELECT")
        .env_remove("XDG_RUNTIME_DIR")
        .args(["verify", "--cases", "10", "--out"])
        .arg(&dir)
        .output()
        .expect("runs");
    let Some(out) = with_adapter(out) else {
        return;
    };
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("XDG_RUNTIME_DIR"), "{err}");
    assert_eq!(out.status.code(), Some(0), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}

/// Progress goes to stderr as plain lines when stderr is not a terminal (no `\r` redraws in a
/// CI log), ending with the count of what ran; `--quiet` prints none.
#[test]
fn progress_is_plain_lines_in_a_log_and_quiet_is_quiet() {
    let _turn = gpu_turn();
    let dir = temp("verify", "progress");
    let run = |quiet: bool| {
        let mut c = dxdiff();
        c.args(["verify", "--cases", "10", "--out"]).arg(&dir);
        if quiet {
            c.arg("--quiet");
        }
        with_adapter(c.output().expect("runs"))
    };
    let Some(loud) = run(false) else {
        return;
    };
    let err = String::from_utf8_lossy(&loud.stderr);
    assert!(!err.contains('\r'), "{err}");
    let total = generators::programs::all_single().len();
    assert!(
        err.lines()
            .any(|l| l.starts_with(&format!("opcodes: {total}/{total} ("))),
        "{err}"
    );
    let quiet = run(true).expect("ran once");
    let err = String::from_utf8_lossy(&quiet.stderr);
    assert!(!err.contains("opcodes:"), "{err}");
    assert_eq!(stdout(&quiet).lines().last(), stdout(&loud).lines().last());
    let _ = std::fs::remove_dir_all(dir);
}

/// `--junit`: one test case per program, failed exactly where report.json counts a mismatch.
#[test]
fn junit_has_a_case_per_program_and_fails_the_mismatching_ones() {
    let _turn = gpu_turn();
    let dir = temp("verify", "junit");
    let junit = dir.with_extension("xml");
    let mut c = dxdiff();
    c.args([
        "verify",
        "--cases",
        "500",
        "--seed",
        "3",
        "--profile",
        "exact",
    ])
    .arg("--out")
    .arg(&dir)
    .arg("--junit")
    .arg(&junit)
    .plant(Some(UDIV_BUG));
    let Some(out) = with_adapter(c.output().expect("runs")) else {
        return;
    };
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("report.json")).expect("report.json"),
    )
    .expect("json");
    let programs = report["programs"].as_array().expect("programs");
    let cases = junit_cases(&std::fs::read_to_string(&junit).expect("junit"));
    assert_eq!(cases.len(), programs.len());
    for p in programs {
        let name = p["name"].as_str().expect("name");
        // `case:flow` is test case `flow` of class `case`.
        let short = name.split_once(':').map_or(name, |(_, n)| n);
        let case = cases.iter().find(|c| c.0 == short).expect(name);
        let mismatch = p["counts"]["mismatch"].as_u64().unwrap_or(0) > 0;
        assert_eq!(case.1 == "failure", mismatch, "{name}");
    }
    assert!(cases.iter().any(|c| c.0 == "udiv" && c.1 == "failure"));
    let _ = std::fs::remove_file(junit);
}

/// A counterexample that cannot be written (here `cases` is a file) still counts as a mismatch,
/// and report.json says why it is missing, with the write error's code.
#[test]
fn an_unwritable_counterexample_is_reported_not_lost() {
    let _turn = gpu_turn();
    let dir = temp("verify", "unwritable");
    std::fs::create_dir_all(&dir).expect("scratch");
    std::fs::write(dir.join("cases"), b"a file where the folder would go").expect("scratch");
    let Some((out, report)) = verify("exact", &dir, true) else {
        return;
    };
    assert_eq!(out.status.code(), Some(1));
    let udiv = program(&report, "udiv");
    assert!(udiv["counts"]["mismatch"].as_u64().unwrap_or(0) > 0);
    assert!(udiv["counterexample"].is_null());
    let why = udiv["counterexample_error"].as_str().expect("a reason");
    assert!(why.starts_with("[case-write.io]"), "{why}");
}

/// Case files given on the command line run after the generated programs and the embedded cases.
#[test]
fn case_files_on_the_command_line_are_run() {
    let _turn = gpu_turn();
    let dir = temp("verify", "cases");
    let case = crate::support::root().join("examples/cases/constants_and_indexing.json");
    let out = dxdiff()
        .args(["verify", "--cases", "100", "--profile", "exact", "--out"])
        .arg(&dir)
        .arg(&case)
        .output()
        .expect("runs");
    if out.status.code() == Some(4) {
        eprintln!("skipped: no usable GPU adapter");
        return;
    }
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).expect("report"))
            .expect("json");
    let names: Vec<&str> = report["programs"]
        .as_array()
        .expect("programs")
        .iter()
        .filter_map(|p| p["name"].as_str())
        .collect();
    assert!(
        names
            .iter()
            .any(|n| n.ends_with("constants_and_indexing.json")),
        "{names:?}"
    );
}

/// `--corpus`: every peer program runs over generated inputs (constant buffers vary per
/// invocation; a compute program gets one dispatch per vector), what cannot run is a counted,
/// typed skip, and nothing mismatches; in the exact profile the programs with doubles run too.
#[test]
fn corpus_programs_run_over_generated_inputs() {
    let _turn = gpu_turn();
    let peer = crate::support::shared("corpus/peer");
    if !peer.is_dir() {
        eprintln!("skipped: no ../shared/corpus/peer");
        return;
    }
    for profile in ["exact", "contract"] {
        let dir = temp("verify", &format!("corpus-{profile}"));
        let out = dxdiff()
            .args([
                "verify",
                "--corpus-only",
                "--corpus-cases",
                "300",
                "--seed",
                "5",
            ])
            .args(["--profile", profile, "--corpus"])
            .arg(&peer)
            .arg("--out")
            .arg(&dir)
            .output()
            .expect("runs");
        if out.status.code() == Some(4) {
            eprintln!("skipped: no usable GPU adapter");
            return;
        }
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{profile}: {stdout}");
        let report = report(&dir);
        let programs = report["programs"].as_array().expect("programs");
        assert_eq!(programs.len(), 73, "{profile}");
        // The contract profile rejects the 17 programs with doubles, with their catalog id;
        // the exact profile computes them. Nothing else is skipped.
        let (rejected, ran_all) = if profile == "exact" {
            (0, 72)
        } else {
            (17, 55)
        };
        let skips = report["skips"].as_object().map_or(0, |m| m.len());
        if rejected > 0 {
            assert_eq!(report["skips"]["rejected"], rejected, "{profile}: {stdout}");
            assert_eq!(skips, 1);
        } else {
            assert_eq!(skips, 0, "{profile}: {stdout}");
        }
        let ran = programs
            .iter()
            .filter(|p| p["counts"]["lanes"].as_u64() == Some(300))
            .count();
        assert_eq!(ran, ran_all, "{profile}");
        // The compute program runs one dispatch per vector (at least 16).
        let cs = programs
            .iter()
            .find(|p| p["name"].as_str().is_some_and(|n| n.contains("cs_atomic")))
            .expect("the compute program");
        assert!(cs["counts"]["matched"].as_u64().unwrap_or(0) >= 16, "{cs}");
        assert_eq!(report["totals"]["mismatch"], 0, "{profile}: {stdout}");
        assert!(report["totals"]["matched"].as_u64().unwrap_or(0) > 10_000);
        assert!(report["gpu_phases"]["dispatch"].as_f64().unwrap_or(0.0) > 0.0);
    }
}

/// A planted bug in a multi-instruction corpus program is caught; its failing input vector is
/// shrunk (every word that does not matter becomes 0) and saved as a case that replays.
#[test]
fn a_planted_bug_in_a_corpus_program_is_shrunk_and_saved() {
    let _turn = gpu_turn();
    let dir = temp("verify", "corpus-planted");
    let programs = dir.join("programs");
    std::fs::create_dir_all(&programs).expect("mkdir");
    let asm = "ps_5_0\ndcl_constantbuffer CB0[2], immediateIndexed\ndcl_output o0.xyzw\ndcl_temps 2\n\
               iadd r0.x, cb0[0].x, cb0[1].x\n\
               udiv r1.x, null, r0.x, cb0[1].y\n\
               mov o0.x, r1.x\nmov o0.yzw, cb0[1].yzwy\nret\n";
    let blob = dxbc::assemble_container(asm).expect("assembles").to_bytes();
    std::fs::write(programs.join("udiv_chain.dxbc"), blob).expect("write");
    let run = |plant: bool| {
        let mut c = dxdiff();
        c.args([
            "verify",
            "--corpus-only",
            "--corpus-cases",
            "2000",
            "--profile",
            "exact",
        ])
        .arg("--corpus")
        .arg(&programs)
        .arg("--out")
        .arg(&dir)
        .plant(plant.then_some(UDIV_BUG));
        c.output().expect("runs")
    };
    let out = run(true);
    if out.status.code() == Some(4) {
        eprintln!("skipped: no usable GPU adapter");
        return;
    }
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let case = dir.join("cases").join("corpus-udiv_chain.json");
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&case).expect("saved case")).expect("json");
    // Shrunk: only the words the divisor needs survive; the rest became 0 and are trimmed.
    let cb0 = saved["runs"][0]["inputs"]["cb0"].as_array().expect("cb0");
    let nonzero = cb0.iter().filter(|w| *w != "0x00000000").count();
    assert!(nonzero <= 2, "{cb0:?}");
    replays_only_while_planted(&case, UDIV_BUG);
    assert_eq!(run(false).status.code(), Some(0));
}
