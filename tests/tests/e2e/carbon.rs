//! The seed's own translator, `@carbonenginejs/format-webgpu`, through its adapter
//! (examples/translators/carbon/translate.mjs): refusals carry the page's fail-closed ids and
//! dxdiff's instruction numbering; the persistent protocol gives the one-shot run's report; and
//! every bug case in examples/translators/carbon/cases fails through carbon (a mismatch, or the
//! translator's crash) and passes with the built-in exact profile. Skipped, with the reason,
//! where `node` or the packages (`../shared/systems/carbonenginejs`, or `$DXDIFF_CARBON`) are
//! absent.

use crate::support::*;

use std::process::Command;

const ADAPTER: &str = "node examples/translators/carbon/translate.mjs";

/// Whether node and the carbon packages are here; says why not.
fn carbon_here() -> bool {
    let node = Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !node {
        eprintln!("skipped: node is not on PATH");
        return false;
    }
    let packages = std::env::var_os("DXDIFF_CARBON")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| shared("systems/carbonenginejs"));
    if !packages
        .join("node_modules/@carbonenginejs/format-webgpu/src/index.js")
        .is_file()
    {
        eprintln!(
            "skipped: the carbonenginejs packages are not at {} (set DXDIFF_CARBON)",
            packages.display()
        );
        return false;
    }
    true
}

fn serve() -> String {
    format!("serve:{ADAPTER} --serve")
}

/// The protocol's answer for one program, through `dxdiff translate --json`.
fn answer(dir: &std::path::Path, name: &str, text: &str) -> serde_json::Value {
    let blob = assemble(dir, name, text);
    let out = dxdiff()
        .args(["translate", "--json", "--translator", &serve()])
        .arg(&blob)
        .output()
        .expect("runs");
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

#[test]
fn carbon_refusals_name_the_page_and_dxdiffs_instruction() {
    if !carbon_here() {
        return;
    }
    let dir = temp("carbon", "answers");
    let head = "ps_5_0\ndcl_globalFlags refactoringAllowed\ndcl_input_ps linear v0.xyzw\ndcl_input_ps linear v1.xyzw\ndcl_input_ps linear v2.xyzw\ndcl_output o0.xyzw\n";
    // An opcode the page does not list: refused under no id of the page's (dxdiff files it
    // under the neutral one), at dxdiff's index (carbon counts executable instructions only:
    // its own number is 0).
    let bfi = answer(
        &dir,
        "bfi",
        &format!("{head}bfi o0.xyzw, v0.xyzw, v1.xyzw, v2.xyzw, v2.xyzw\nret\n"),
    );
    assert_eq!(bfi["status"], "rejected", "{bfi}");
    assert_eq!(bfi["instruction"], 5, "{bfi}");
    assert_eq!(bfi["catalog_id"], "dxdiff/refused", "{bfi}");
    // A documented refusal: the page's id.
    let flat = answer(
        &dir,
        "flat",
        "ps_5_0\ndcl_globalFlags refactoringAllowed\ndcl_input_ps constant v0.xyzw\ndcl_output o0.xyzw\nmov o0.xyzw, v0.xyzw\nret\n",
    );
    assert_eq!(
        flat["catalog_id"], "fail-closed/interpolation-modes",
        "{flat}"
    );
    let high = answer(
        &dir,
        "imul",
        "ps_5_0\ndcl_globalFlags refactoringAllowed\ndcl_input_ps linear v0.xyzw\ndcl_input_ps linear v1.xyzw\ndcl_output o0.xyzw\nimul o0.xyzw, null, v0.xyzw, v1.xyzw\nret\n",
    );
    assert_eq!(high["catalog_id"], "fail-closed/imul-high-half", "{high}");
    // What it lowers: WGSL, a manifest from its own binding plan, the page's claims.
    let add = answer(
        &dir,
        "add",
        &format!("{head}add o0.xyzw, v0.xyzw, v1.xyzw\nret\n"),
    );
    assert_eq!(add["status"], "ok", "{add}");
    assert_eq!(add["manifest"]["stage"], "fragment");
    assert_eq!(add["manifest"]["inputs"][1]["location"], 1, "{add}");
    let claims: Vec<&str> = add["adaptations"]
        .as_array()
        .expect("claims")
        .iter()
        .filter_map(|c| c.as_str())
        .collect();
    assert!(claims.contains(&"dxdiff/denormals"), "{claims:?}");
    assert!(!claims.contains(&"adapted/rcp-division"), "{claims:?}");
}

/// `verify` over the bug cases and the node example's cases, once one-shot (`cmd:`) and once
/// persistent (`serve:`): the same report.
#[test]
fn carbon_persistent_and_one_shot_give_one_report() {
    if !carbon_here() {
        return;
    }
    let _turn = gpu_turn();
    let run = |translator: &str, name: &str| {
        let dir = temp("carbon", name);
        let out = dxdiff()
            .args(["verify", "-q", "--corpus-only", "--corpus-cases", "500"])
            .args(["--corpus", "examples/translators/carbon/cases"])
            .args(["--corpus", "examples/translators/node/cases"])
            .args(["--translator", translator])
            .arg("--out")
            .arg(&dir)
            .output()
            .expect("runs");
        with_adapter(out).map(|_| report(&dir))
    };
    let Some(once) = run(&format!("cmd:{ADAPTER}"), "cmd") else {
        return;
    };
    let Some(kept) = run(&serve(), "serve") else {
        return;
    };
    assert_eq!(once["totals"], kept["totals"]);
    assert_eq!(once["skips"], kept["skips"]);
    assert!(
        kept["totals"]["mismatch"].as_u64().unwrap_or(0) > 0,
        "the bug cases mismatch"
    );
    assert!(
        kept["skips"]["translator-crash"].as_u64().unwrap_or(0) > 0,
        "the crash cases crash: {}",
        kept["skips"]
    );
}

/// Every classified carbon bug replays: through carbon a mismatch or the translator's crash,
/// through the built-in exact profile a pass.
#[test]
fn carbon_bug_cases_fail_through_carbon_and_pass_exact() {
    if !carbon_here() {
        return;
    }
    let _turn = gpu_turn();
    let dir = root().join("examples/translators/carbon/cases");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).expect("cases").flatten() {
        let case = e.path();
        n += 1;
        let carbon = replay_gpu(&case, &["--translator", &serve()], None)
            .output()
            .expect("runs");
        let Some(carbon) = with_adapter(carbon) else {
            return;
        };
        let text = stdout(&carbon);
        let crashed = text.contains("translator crash");
        assert!(
            carbon.status.code() == Some(1) || crashed,
            "{}: {text}",
            case.display()
        );
        let exact = replay_gpu(&case, &["--profile", "exact"], None)
            .output()
            .expect("runs");
        assert_eq!(
            exact.status.code(),
            Some(0),
            "{}: {}",
            case.display(),
            stdout(&exact)
        );
    }
    assert!(n >= 6, "{n} cases");
}
