//! `dxdiff diff BASE NEW`: what a translator change did, from two `verify` runs on one seed. A
//! planted bug, as the "new build", is reported as introduced with a counterexample that passes
//! on the old build; a build against itself reports nothing; runs of other seeds are refused.

use crate::support::*;

/// `dxdiff verify` into `dir` with `bug` planted and `args`; `None` without an adapter.
fn verify(dir: &std::path::Path, bug: Option<&str>, args: &[&str]) -> Option<()> {
    let mut c = dxdiff();
    c.args(["verify", "-q", "--cases", "256", "--out"])
        .arg(dir)
        .args(args)
        .plant(bug);
    with_adapter(c.output().expect("runs"))?;
    assert!(dir.join("report.json").is_file());
    Some(())
}

#[test]
fn a_planted_bug_is_introduced_and_its_case_passes_on_the_old_build() {
    let _turn = gpu_turn();
    let dir = temp("diff", "planted");
    let (base, new) = (dir.join("base"), dir.join("new"));
    if verify(&base, None, &[]).is_none() {
        return;
    }
    verify(&new, Some("ishr-as-ushr"), &[]).expect("an adapter, as for the baseline");
    // Each run records the catalog cells its lanes reached, and its report tables them.
    let run: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(base.join("report.json")).expect("report.json"),
    )
    .expect("json");
    let cells = run["coverage"].as_object().expect("coverage");
    assert!(
        cells.contains_key("ps mad fusion-sensitive") && cells.len() > 50,
        "{cells:?}"
    );
    let md = std::fs::read_to_string(base.join("report.md")).expect("report.md");
    assert!(
        md.contains("## Coverage of the catalog's domains") && md.contains("**never reached**")
    );
    let html = std::fs::read_to_string(base.join("report.html")).expect("report.html");
    assert!(html.contains("id=\"coverage\"") && html.contains("never reached"));
    let o = dxdiff()
        .arg("diff")
        .args([&base, &new])
        .arg("--confirm")
        .output()
        .expect("runs");
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(
        text.lines()
            .last()
            .is_some_and(|l| l.starts_with("diff: ") && l.contains(" 1 introduced, 0 fixed")),
        "{text}"
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(new.join("diff.json")).expect("diff.json"))
            .expect("json");
    assert_eq!(report["format"], "dxdiff-diff/1");
    let introduced = report["introduced"].as_array().expect("introduced");
    assert_eq!(introduced.len(), 1, "{report:#}");
    assert_eq!(introduced[0]["program"], "ishr");
    assert_eq!(introduced[0]["passes_on_baseline"], true, "{report:#}");
    assert!(new.join("diff.md").is_file());
    // The translation changed only where the bug is.
    assert_eq!(report["wgsl_changed"], serde_json::json!(["ishr"]));

    // The baseline against itself: nothing changed, exit 0; seen the other way round, the
    // bug is a fix.
    let o = dxdiff()
        .arg("diff")
        .args([&base, &base])
        .arg("--out")
        .arg(&dir)
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(
        stdout(&o).ends_with(
            " 0 introduced, 0 fixed, 0 still mismatching, 0 entries newly relied on, 0 no longer, 0 skips changed, 0 WGSL changed\n"
        ),
        "{}",
        stdout(&o)
    );
    let o = dxdiff()
        .arg("diff")
        .args([&new, &base])
        .arg("--out")
        .arg(&dir)
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(
        stdout(&o).contains(" 0 introduced, 1 fixed,"),
        "{}",
        stdout(&o)
    );

    // Another seed: not comparable.
    let other = dir.join("other");
    verify(&other, None, &["--seed", "2"]).expect("an adapter");
    let o = dxdiff()
        .arg("diff")
        .args([&base, &other])
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("diff.not-comparable"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Two fuzz campaigns of one seed: the planted bug's divergence is introduced, and its case
/// passes on the old build; a campaign against itself changes nothing.
#[test]
fn a_fuzz_campaign_of_a_planted_bug_introduces_its_divergence() {
    let _turn = gpu_turn();
    let dir = temp("diff", "fuzz");
    let (base, new) = (dir.join("base"), dir.join("new"));
    let fuzz = |out: &std::path::Path, bug: Option<&str>| {
        let mut c = dxdiff();
        c.args([
            "fuzz",
            "--profile",
            "exact",
            "--seed",
            "1",
            "--programs",
            "8",
            "--stages",
            "ps,vs",
            "--shrink-time",
            "30",
            "--out",
        ])
        .arg(out)
        .plant(bug);
        with_adapter(c.output().expect("runs"))
    };
    if fuzz(&base, None).is_none() {
        return;
    }
    let o = fuzz(&new, Some("replicate-swizzle-ignored")).expect("an adapter");
    assert!(
        stdout(&o).contains("catalog cells reached: "),
        "{}",
        stdout(&o)
    );
    let state: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(base.join("state.json")).expect("state.json"),
    )
    .expect("json");
    assert!(
        state["stats"]["coverage"]
            .as_object()
            .is_some_and(|c| !c.is_empty()),
        "{}",
        state["stats"]
    );
    let o = dxdiff()
        .arg("diff")
        .args([&base, &new])
        .args(["--confirm", "--profile", "exact"])
        .output()
        .expect("runs");
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{text}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(new.join("diff.json")).expect("diff.json"))
            .expect("json");
    let introduced = report["introduced"].as_array().expect("introduced");
    assert!(!introduced.is_empty(), "{report:#}");
    assert!(
        introduced.iter().all(|c| c["passes_on_baseline"] == true
            && !c["program"].as_str().unwrap_or("").starts_with("builtin")),
        "{report:#}"
    );
    let o = dxdiff()
        .arg("diff")
        .args([&base, &base])
        .arg("--out")
        .arg(&dir)
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    // A folder that holds neither a verify report nor a campaign: refused.
    let o = dxdiff()
        .arg("diff")
        .arg(&base)
        .arg(root().join("examples/cases"))
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(2));
}
