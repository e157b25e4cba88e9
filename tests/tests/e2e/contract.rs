//! `dxdiff contract` end to end on the local adapter: the built-in translator keeps every
//! exercisable seed entry it is given, in both profiles; planted contract violations turn
//! their entry `violated`, with a shrunk case that `replay --executor gpu` reproduces; a bad
//! `--entry` is a usage error.

use crate::support::*;

use std::path::Path;

/// Run `dxdiff contract` with `args`, `bug` planted; the report, or `None` without an adapter.
fn contract(dir: &Path, args: &[&str], bug: Option<&str>) -> Option<(i32, serde_json::Value)> {
    let mut c = dxdiff();
    c.args(["contract", "-q", "--cases", "96", "--out"])
        .arg(dir)
        .args(args)
        .plant(bug);
    let out = with_adapter(c.output().expect("runs"))?;
    let text = stdout(&out);
    let last = text.lines().last().unwrap_or_default();
    assert!(last.starts_with("contract: "), "{text}");
    assert!(last.ends_with(" seed entries"), "{text}");
    let json = std::fs::read_to_string(dir.join("contract.json")).expect("contract.json");
    assert!(dir.join("contract.md").is_file());
    let report: serde_json::Value = serde_json::from_str(&json).expect("json");
    assert_eq!(report["format"], "dxdiff-contract/1");
    Some((out.status.code().unwrap_or(-1), report))
}

fn row<'a>(report: &'a serde_json::Value, id: &str) -> &'a serde_json::Value {
    report["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .find(|e| e["id"] == id)
        .unwrap_or_else(|| panic!("no row {id}"))
}

/// Entries of every kind of judgment: adapted with a domain, structural, bounded with an
/// outside, fail-closed refused and fail-closed supported beyond the contract; and textures
/// bound on the GPU: `ld` of a 2D texture, samples of a 2D array through a sampler, `gather4`.
const SAMPLE: [&str; 10] = [
    "adapted/numeric-conversion-edges",
    "adapted/hoisted-vars",
    "adapted/saturate-movers",
    "bounded/switch-merges",
    "bounded/udiv",
    "bounded/ld",
    "fail-closed/system-crash",
    "fail-closed/imul-high-half",
    "supported/array-layer-rounding",
    "bounded/gather4",
];

#[test]
fn the_builtin_translator_keeps_the_contract_in_both_profiles() {
    let _turn = gpu_turn();
    for profile in ["contract", "exact"] {
        let dir = temp("contract", profile);
        let mut args = vec!["--profile", profile, "--junit"];
        let junit = dir.join("junit.xml");
        let junit_arg = junit.display().to_string();
        args.push(&junit_arg);
        for e in SAMPLE {
            args.extend(["--entry", e]);
        }
        let Some((code, report)) = contract(&dir, &args, None) else {
            return;
        };
        assert_eq!(code, 0, "{report:#}");
        let entries = report["entries"].as_array().expect("entries");
        assert_eq!(entries.len(), SAMPLE.len());
        for e in entries {
            assert_eq!(e["status"], "verified", "{profile}: {e:#}");
        }
        let conv = row(&report, "adapted/numeric-conversion-edges");
        assert!(conv["domain_lanes"].as_u64() > Some(0), "{conv:#}");
        match profile {
            "contract" => assert!(conv["adapted_lanes"].as_u64() > Some(0), "{conv:#}"),
            _ => assert_eq!(conv["adapted_lanes"], 0, "{conv:#}"),
        }
        let crash = row(&report, "fail-closed/system-crash");
        assert_eq!(crash["rejections"], crash["programs"], "{crash:#}");
        for textured in [
            "bounded/ld",
            "supported/array-layer-rounding",
            "bounded/gather4",
        ] {
            let r = row(&report, textured);
            assert!(r["lanes"].as_u64() > Some(0), "textures ran: {r:#}");
        }
        let switch = row(&report, "bounded/switch-merges");
        assert_eq!(
            switch["rejections"], 1,
            "the fall-through program: {switch:#}"
        );
        let cases = junit_cases(&std::fs::read_to_string(&junit).expect("junit"));
        assert_eq!(cases.len(), SAMPLE.len());
        assert!(
            cases.iter().all(|(_, outcome)| *outcome == "passed"),
            "{cases:?}"
        );
    }
}

#[test]
fn planted_violations_turn_their_entry_violated_with_a_replayable_case() {
    let _turn = gpu_turn();
    let planted = [
        (UDIV_BUG, "bounded/udiv", "contract"),
        (
            "ftoi-without-nan-select",
            "adapted/numeric-conversion-edges",
            "exact",
        ),
        (
            "array-layer-truncated",
            "supported/array-layer-rounding",
            "contract",
        ),
    ];
    for (bug, entry, profile) in planted {
        let dir = temp("contract", bug);
        let args = ["--entry", entry, "--profile", profile];
        let Some((code, report)) = contract(&dir, &args, Some(bug)) else {
            return;
        };
        assert_eq!(code, 1, "{report:#}");
        let r = row(&report, entry);
        assert_eq!(r["status"], "violated", "{r:#}");
        assert!(
            r["reason"]
                .as_str()
                .unwrap_or_default()
                .contains("mismatched")
        );
        let case = r["cases"][0].as_str().expect("a saved case");
        let again = replay_gpu(case, &["--profile", profile], Some(bug))
            .output()
            .expect("replay runs");
        assert_eq!(again.status.code(), Some(1), "{}", stdout(&again));
        let fixed = replay_gpu(case, &["--profile", profile], None)
            .output()
            .expect("replay runs");
        assert_eq!(fixed.status.code(), Some(0), "{}", stdout(&fixed));
    }
}

#[test]
fn an_unknown_entry_is_a_usage_error() {
    let out = dxdiff()
        .args([
            "contract",
            "--entry",
            "adapted/no-such-entry",
            "--entry",
            "dxdiff/nan",
        ])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("adapted/no-such-entry, dxdiff/nan"), "{err}");
}

/// `cmd:`: the example adapter wraps the built-in translator behind the external protocol, so
/// its rows are the built-in translator's, adaptation claims and refusal ids included.
#[test]
fn an_external_translator_gets_the_built_in_rows() {
    let _turn = gpu_turn();
    let dir = temp("contract", "cmd");
    let mut args = vec!["--translator", "cmd:sh examples/translators/builtin.sh"];
    for e in SAMPLE {
        args.extend(["--entry", e]);
    }
    let Some((code, report)) = contract(&dir, &args, None) else {
        return;
    };
    assert_eq!(code, 0, "{report:#}");
    for e in report["entries"].as_array().expect("entries") {
        assert_eq!(e["status"], "verified", "{e:#}");
    }
    let hoisted = row(&report, "adapted/hoisted-vars");
    assert_eq!(hoisted["attributed"], hoisted["programs"], "{hoisted:#}");
}

/// `--baseline`: a known violation keeps the run green, a regression against the baseline fails
/// it, and each transition is printed and written to contract.md.
#[test]
fn a_baseline_fails_only_on_a_regression() {
    let _turn = gpu_turn();
    let dir = temp("contract", "baseline");
    let args = ["--entry", "bounded/udiv", "--entry", "adapted/rcp-division"];
    // The planted bug's own run is the baseline: udiv violated there already.
    let Some((code, broken)) = contract(&dir.join("known"), &args, Some(UDIV_BUG)) else {
        return;
    };
    assert_eq!(code, 1, "a violation without a baseline fails");
    assert_eq!(row(&broken, "bounded/udiv")["status"], "violated");
    let known = dir.join("known/contract.json");
    let with = |base: &Path| {
        let mut a: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        a.extend(["--baseline".into(), base.display().to_string()]);
        a
    };
    let known_args = with(&known);
    let known_args: Vec<&str> = known_args.iter().map(String::as_str).collect();
    let (code, _) = contract(&dir.join("again"), &known_args, Some(UDIV_BUG)).expect("ran");
    assert_eq!(
        code, 0,
        "the same violation as the baseline's is not a regression"
    );
    // A clean run as the baseline: the planted bug is a regression.
    let (code, _) = contract(&dir.join("clean"), &args, None).expect("ran");
    assert_eq!(code, 0);
    let clean_args = with(&dir.join("clean/contract.json"));
    let clean_args: Vec<&str> = clean_args.iter().map(String::as_str).collect();
    let out = dir.join("regressed");
    let (code, _) = contract(&out, &clean_args, Some(UDIV_BUG)).expect("ran");
    assert_eq!(code, 1, "verified -> violated is a regression");
    let md = std::fs::read_to_string(out.join("contract.md")).expect("contract.md");
    assert!(
        md.contains("regression bounded/udiv: verified -> violated"),
        "{md}"
    );
    // A baseline that is not a contract report is refused before the run.
    let bad_args = with(&dir.join("clean/contract.md"));
    let bad_args: Vec<&str> = bad_args.iter().map(String::as_str).collect();
    let o = dxdiff()
        .args(["contract", "-q", "--out"])
        .arg(dir.join("bad"))
        .args(&bad_args)
        .output()
        .expect("runs");
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
