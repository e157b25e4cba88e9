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
    // Lane by lane: the lanes the bug broke changed verdict, and are named.
    let answers = report["answers"].as_array().expect("answers");
    let ishr = answers
        .iter()
        .find(|c| c["program"] == "ishr")
        .expect("ishr's answers changed");
    assert!(ishr["verdicts"].as_u64().unwrap_or(0) > 0, "{ishr}");
    assert!(!ishr["lanes"].as_array().expect("lanes").is_empty());
    silent_answers_show(&dir, &base);

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
            " 0 introduced, 0 fixed, 0 still mismatching, 0 entries newly relied on, 0 no longer, 0 skips changed, 0 WGSL changed, 0 answers changed\n"
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

/// A run whose answer file gives one adapted lane other words than `base` gave is a silent
/// change: the verdicts agree, the diff names the lane, and it is no regression.
fn silent_answers_show(dir: &std::path::Path, base: &std::path::Path) {
    use reports::answers::Answers;
    let copy = dir.join("silent");
    std::fs::create_dir_all(copy.join("answers")).expect("mkdir");
    let mut run: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(base.join("report.json")).expect("report.json"),
    )
    .expect("json");
    for f in std::fs::read_dir(base.join("answers")).expect("answers kept") {
        let f = f.expect("entry").path();
        std::fs::copy(&f, copy.join("answers").join(f.file_name().expect("name"))).expect("copy");
    }
    // The first program with an adapted lane: give that lane other words.
    let programs = run["programs"].as_array_mut().expect("programs");
    let (name, lane) = programs
        .iter_mut()
        .find_map(|p| {
            let rel = p["answers"]["file"].as_str()?.to_string();
            let path = copy.join(&rel);
            let a = Answers::decode(&std::fs::read(&path).ok()?).ok()?;
            let at = a
                .lanes
                .iter()
                .position(|x| x.kind == reports::answers::Kind::Adapted)?;
            let mut changed = Answers::new();
            for (k, x) in a.lanes.iter().enumerate() {
                changed.push(x.lane, x.kind, if k == at { !x.hash } else { x.hash });
            }
            if !a.complete() {
                return None;
            }
            std::fs::write(&path, changed.encode()).expect("write");
            p["answers"]["digest"] = format!("{:016x}", changed.digest).into();
            Some((p["name"].as_str()?.to_string(), a.lanes[at].lane))
        })
        .expect("a program with adapted lanes");
    std::fs::write(
        copy.join("report.json"),
        serde_json::to_string(&run).expect("json"),
    )
    .expect("write");
    let o = dxdiff()
        .arg("diff")
        .args([base, &copy])
        .output()
        .expect("runs");
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{text}");
    assert!(
        text.contains(" 0 introduced,") && text.ends_with(" 1 answers changed\n"),
        "{text}"
    );
    let d: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(copy.join("diff.json")).expect("diff"))
            .expect("json");
    let c = &d["answers"][0];
    assert_eq!(c["program"], name.as_str());
    assert_eq!(
        (c["silent"].as_u64(), c["verdicts"].as_u64()),
        (Some(1), Some(0))
    );
    assert_eq!(c["lanes"], serde_json::json!([lane]));
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
