//! `dxdiff corpus` and `dxdiff bench`: the committed baseline reproduces byte for byte, the
//! contract → exact transition names exactly the programs whose WGSL differs, a regression
//! fails the run (and `--accept` lets it pass), and the JUnit and bench outputs hold what they
//! claim.

use crate::support::*;

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Output;

use reports::corpus::{Record, Status};

const BASELINE: &str = "docs/corpus/baseline-builtin-contract.json";
const CORPORA: [&str; 2] = ["../shared/corpus/peer", "../shared/corpus/sdk"];

fn corpus(extra: &[&str]) -> Output {
    dxdiff()
        .arg("corpus")
        .args(CORPORA)
        .args(extra)
        .output()
        .expect("runs")
}

fn section(text: &str, title: &str) -> Vec<String> {
    let mut lines = text.lines().skip_while(|l| *l != title);
    lines.next();
    lines
        .take_while(|l| l.starts_with("- "))
        .map(|l| l[2..].to_string())
        .collect()
}

#[test]
fn a_rerun_against_the_committed_baseline_moves_nowhere() {
    let _turn = gpu_turn();
    if !shared_present() {
        return;
    }
    let base = Record::parse(&std::fs::read_to_string(root().join(BASELINE)).expect("baseline"))
        .expect("a dxdiff-corpus/1 record");
    let out = temp("corpus", "rerun.json");
    let o = corpus(&[
        "--baseline",
        BASELINE,
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{text}");
    let t = base.totals.slashed();
    assert!(
        text.contains(&format!("moved from {t} to {t}")),
        "the rerun moved (re-baseline with the command in docs/corpus.md if intended):\n{text}"
    );
    let q = base.totals.qualified;
    assert!(
        text.contains(&format!("SHA-256: {q} of {q} programs")),
        "{text}"
    );
    for title in ["status changed:", "bytes changed:", "regressions:"] {
        assert!(!text.contains(title), "{title} in:\n{text}");
    }
    // The record itself is deterministic: the same bytes as the committed one.
    let again = std::fs::read_to_string(&out).expect("record");
    let committed = std::fs::read_to_string(root().join(BASELINE)).expect("baseline");
    assert_eq!(again, committed, "the record is not byte-identical");
    // The HTML page beside the record lists every program.
    let page = out.with_extension("html");
    let html = std::fs::read_to_string(&page).expect("the page beside --out");
    assert!(html.starts_with("<!DOCTYPE html>"));
    for p in &base.programs {
        let name = reports::html::escape(&p.name);
        assert!(html.contains(&format!(">{name}</td>")), "{name}");
    }
    let _ = std::fs::remove_file(page);
    assert!(
        text.trim_end().ends_with(&format!(
            "corpus: {} qualified, {} unsupported, {} failed",
            base.totals.qualified, base.totals.unsupported, base.totals.failed
        )),
        "{text}"
    );
    let _ = std::fs::remove_file(out);
}

#[test]
fn the_contract_to_exact_transition_names_exactly_the_programs_whose_wgsl_differs() {
    let _turn = gpu_turn();
    if !shared_present() {
        return;
    }
    let o = corpus(&["--profile", "exact", "--baseline", BASELINE]);
    let text = stdout(&o);
    assert_eq!(
        o.status.code(),
        Some(0),
        "no status changed, so no regression:\n{text}"
    );
    let named: BTreeSet<String> = section(&text, "bytes changed:")
        .iter()
        .map(|l| l.split(": ").next().unwrap_or("").to_string())
        .collect();
    // Independently: translate every program with both profiles and compare the bytes.
    let mut differing = BTreeSet::new();
    let roots: Vec<PathBuf> = CORPORA.iter().map(|c| root().join(c)).collect();
    for (name, blob) in harness::programs::relative(&roots) {
        let Ok(blob) = blob else {
            continue;
        };
        let a = translator::translate_blob(&blob, translator::Profile::Contract);
        let b = translator::translate_blob(&blob, translator::Profile::Exact);
        if let (Ok(a), Ok(b)) = (a, b)
            && (a.wgsl != b.wgsl || a.manifest != b.manifest)
        {
            differing.insert(name);
        }
    }
    assert!(!differing.is_empty());
    assert_eq!(named, differing);
    let q = Record::parse(&std::fs::read_to_string(root().join(BASELINE)).expect("baseline"))
        .expect("record")
        .totals
        .qualified as usize;
    assert!(
        text.contains(&format!("SHA-256: {} of {q} programs", q - differing.len())),
        "{text}"
    );
}

#[test]
fn a_regression_fails_the_run_unless_accepted() {
    let _turn = gpu_turn();
    if !shared_present() {
        return;
    }
    // A baseline in which one unsupported program was qualified: the current run has it
    // unsupported again, which is a regression.
    let mut base =
        Record::parse(&std::fs::read_to_string(root().join(BASELINE)).expect("baseline"))
            .expect("record");
    let p = base
        .programs
        .iter_mut()
        .find(|p| p.status == Status::Unsupported)
        .expect("an unsupported program");
    let name = p.name.clone();
    p.status = Status::Qualified;
    p.catalog_id = None;
    p.wgsl_sha256 = Some("0".repeat(64));
    base.recount();
    let path = temp("corpus", "regressed.json");
    std::fs::write(&path, serde_json::to_string(&base).expect("json")).expect("write");
    let arg = path.to_str().expect("utf-8");
    let o = corpus(&["--baseline", arg]);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(
        section(&text, "regressions:")
            .iter()
            .any(|l| l.starts_with(&format!("{name}: qualified → unsupported"))),
        "{text}"
    );
    let q = base.totals.qualified;
    assert!(text.contains(&format!("moved from {q}/")), "{text}");
    let accepted = corpus(&["--baseline", arg, "--accept"]);
    assert_eq!(accepted.status.code(), Some(0), "{}", stdout(&accepted));
    let _ = std::fs::remove_file(path);
}

#[test]
fn junit_lists_every_program_and_a_crashing_translator_makes_them_failed() {
    let _turn = gpu_turn();
    if !shared_present() {
        return;
    }
    let junit = temp("corpus", "junit.xml");
    let o = dxdiff()
        .args([
            "corpus",
            "../shared/corpus/peer",
            "--translator",
            "cmd:exit 3",
        ])
        .arg("--junit")
        .arg(&junit)
        .output()
        .expect("runs");
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{text}");
    let xml = std::fs::read_to_string(&junit).expect("junit");
    let parsed = junit_cases(&xml);
    let cases = parsed.len();
    let failures = parsed.iter().filter(|c| c.1 == "failure").count();
    assert!(cases > 50, "{cases} test cases");
    assert_eq!(cases, failures, "every program crashed: {xml}");
    assert!(xml.contains("exited with exit status: 3"), "{xml}");
    assert!(
        text.trim_end().ends_with(&format!(
            "corpus: 0 qualified, 0 unsupported, {cases} failed"
        )),
        "{text}"
    );
    let _ = std::fs::remove_file(junit);
}

#[test]
fn bench_puts_translators_side_by_side_on_the_same_programs() {
    let _turn = gpu_turn();
    if !shared_present() {
        return;
    }
    let adapter = "cmd:sh examples/translators/builtin.sh";
    let json = temp("corpus", "bench.json");
    let o = dxdiff()
        .args([
            "bench",
            "../shared/corpus/peer",
            "--seconds",
            "0",
            "--warm-runs",
            "3",
        ])
        .args(["--translator", "builtin", "--translator", adapter])
        .arg("--json")
        .arg(&json)
        .output()
        .expect("runs");
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{text}");
    let b: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("json")).expect("json");
    // The adapter wraps the built-in translator: both qualify the same programs.
    let q = b["qualified"].as_array().expect("qualified");
    assert_eq!(q[0][1], q[1][1], "{q:?}");
    assert_eq!(b["common"], q[0][1]);
    let parts: BTreeSet<(String, String)> = b["lines"]
        .as_array()
        .expect("lines")
        .iter()
        .map(|l| {
            (
                l["translator"].as_str().unwrap_or("").to_string(),
                l["part"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    for part in ["translation", "DXBC decoding", "naga validation", "whole"] {
        assert!(
            parts.contains(&("builtin/contract".into(), part.into())),
            "{parts:?}"
        );
    }
    for part in ["translation (per process)", "process cost"] {
        assert!(
            parts.contains(&(format!("cmd:{}", &adapter[4..]), part.into())),
            "{parts:?}"
        );
    }
    assert!(
        text.contains("| translation | typical shaders/s | mean shaders/s |"),
        "{text}"
    );
    assert!(text.contains("warm shaders/s | warm ÷ typical |"), "{text}");
    assert_eq!(b["format"], "dxdiff-bench/3");
    // Every line has both figures (with `--seconds 0`, one pass: they can differ only by the
    // median's choice, never be absent).
    for l in b["lines"].as_array().expect("lines") {
        assert!(l["typical_per_s"].as_f64().is_some_and(|x| x > 0.0), "{l}");
        assert!(l["shaders_per_s"].as_f64().is_some_and(|x| x > 0.0), "{l}");
        assert!(l["warm_per_s"].as_f64().is_some_and(|x| x > 0.0), "{l}");
    }
    assert!(text.contains("× `builtin/contract`"), "{text}");
    let _ = std::fs::remove_file(json);
}

/// `--generated N` times programs dxdiff makes, with no folder given: `verify`'s built-in
/// programs and N random ones, the random ones fixed by `--seed` and changed by another seed.
#[test]
fn bench_times_generated_programs_without_a_corpus() {
    let run = |n: &str, seed: &str| {
        let json = temp("corpus", &format!("bench-generated-{n}-{seed}.json"));
        let o = dxdiff()
            .args(["bench", "--generated", n, "--seed", seed])
            .args(["--seconds", "0", "--warm-runs", "0", "--json"])
            .arg(&json)
            .output()
            .expect("runs");
        assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
        let b: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json).expect("json")).expect("json");
        let _ = std::fs::remove_file(json);
        b
    };
    let builtin =
        generators::programs::all_single().len() + generators::programs::text_programs().len();
    let alone = run("0", "7");
    assert_eq!(alone["programs"], builtin, "{alone}");
    let a = run("4", "7");
    assert_eq!(a["programs"], builtin + 4, "{a}");
    // The contract profile fails closed on some built-in programs (its not-supported
    // entries); the random programs add to what is timed.
    let common = |b: &serde_json::Value| b["common"].as_u64().expect("common");
    assert!(common(&alone) > 0, "{alone}");
    assert!(common(&a) > common(&alone), "{a}");
    assert_eq!(
        run("4", "7")["bytes"],
        a["bytes"],
        "one seed, one set of programs"
    );
    let mut other = (8..12).map(|s| run("4", &s.to_string())["bytes"].clone());
    assert!(
        other.any(|b| b != a["bytes"]),
        "another seed draws other random programs"
    );
    // No folder and no `--generated`: nothing to time, a usage error.
    let o = dxdiff()
        .args(["bench", "--seconds", "0"])
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
}

/// `--verify N`: verdicts go into the record, and a new mismatch against a verified baseline
/// (a planted bug in the translator) is a regression whose verdicts are listed as changed.
#[test]
fn a_new_mismatch_under_verify_is_a_regression() {
    let _turn = gpu_turn();
    let dir = temp("corpus", "verify");
    let programs = dir.join("programs");
    std::fs::create_dir_all(&programs).expect("mkdir");
    let asm = "ps_5_0\ndcl_constantbuffer CB0[2], immediateIndexed\ndcl_output o0.xyzw\ndcl_temps 2\n\
               iadd r0.x, cb0[0].x, cb0[1].x\n\
               udiv r1.x, null, r0.x, cb0[1].y\n\
               mov o0.x, r1.x\nmov o0.yzw, cb0[1].yzwy\nret\n";
    let blob = dxbc::assemble_container(asm).expect("assembles").to_bytes();
    std::fs::write(programs.join("udiv_chain.dxbc"), blob).expect("write");
    let base = dir.join("base.json");
    let run = |plant: bool, extra: &[&std::ffi::OsStr]| {
        let mut c = dxdiff();
        c.arg("corpus")
            .arg(&programs)
            .args(["--profile", "exact", "--verify", "1000", "--cases-dir"])
            .arg(dir.join("cases"))
            .args(extra)
            .plant(plant.then_some(UDIV_BUG));
        c.output().expect("runs")
    };
    let clean = run(false, &["--out".as_ref(), base.as_os_str()]);
    if clean.status.code() == Some(4) {
        eprintln!("skipped: no usable GPU adapter");
        return;
    }
    assert_eq!(clean.status.code(), Some(0), "{}", stdout(&clean));
    let record = Record::parse(&std::fs::read_to_string(&base).expect("record")).expect("record");
    let v = record.programs[0].verdicts.as_ref().expect("verified");
    assert_eq!(v.counts.lanes, 1000);
    assert_eq!(v.counts.mismatch, 0);
    assert!(record.verify.is_some());
    let planted = run(true, &["--baseline".as_ref(), base.as_os_str()]);
    let text = stdout(&planted);
    assert_eq!(planted.status.code(), Some(1), "{text}");
    assert!(text.contains("moved from 1/0/0 to 1/0/0"), "{text}");
    let changed = section(
        &text,
        "verdicts changed (match/within/adapted/mismatch/inconclusive):",
    );
    assert!(
        changed
            .iter()
            .any(|l| l.starts_with("programs/udiv_chain.dxbc: ")),
        "{text}"
    );
    let regressions = section(&text, "regressions:");
    assert!(
        regressions
            .iter()
            .any(|l| l.contains("mismatching lanes (new)")),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(dir);
}
