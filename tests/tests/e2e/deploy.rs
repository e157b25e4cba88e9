//! The `deploy/` recipes, checked with what runs here: `shellcheck` on the shell scripts, the
//! YAML of the Kubernetes Jobs and the GitHub Actions workflow parsed (by Python's yaml) and
//! held to the shard commands they must run (the N of `--shard K/N` is the number of
//! completions, array tasks or matrix entries), and `deploy/run-shards.sh` run locally: its
//! merged corpus record is the unsharded run's, byte for byte, and its merged verify folder is
//! complete.

use crate::support::*;

use std::path::Path;
use std::process::Command;

/// Every document of a YAML file as JSON, through Python's yaml (`None` when there is no
/// Python with yaml here).
fn yaml(path: &Path) -> Option<Vec<serde_json::Value>> {
    let o = Command::new("python3")
        .args([
            "-c",
            "import json, sys, yaml; print(json.dumps(list(yaml.safe_load_all(open(sys.argv[1])))))",
        ])
        .arg(path)
        .output()
        .ok()?;
    if !o.status.success() {
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("No module named"), "{}: {err}", path.display());
        eprintln!("skipped: python3 has no yaml module");
        return None;
    }
    Some(serde_json::from_slice(&o.stdout).expect("json"))
}

#[test]
fn shell_scripts_pass_shellcheck() {
    let scripts = [
        root().join("deploy/run-shards.sh"),
        root().join("deploy/slurm/dxdiff-array.sbatch"),
        root().join("deploy/sweep-campaign.sh"),
        root().join("deploy/pgo/build.sh"),
        root().join("deploy/pgo/rustc"),
        root().join("deploy/ci/dxdiff-check.sh"),
    ];
    let Ok(o) = Command::new("shellcheck").args(&scripts).output() else {
        eprintln!("skipped: no shellcheck (.ci/run installs it)");
        return;
    };
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
    let sbatch = std::fs::read_to_string(&scripts[1]).expect("sbatch");
    assert!(sbatch.contains("#SBATCH --array=0-99"));
    assert!(sbatch.contains("--shard \"$k/$n\"") && sbatch.contains("SLURM_ARRAY_TASK_COUNT"));
}

/// The profile-guided build's rustc wrapper gives its flags to the crates the profile is about
/// (the decoder, the translator, naga and the binary) and to no other, and leaves a build
/// without flags as it was.
#[test]
fn the_profile_guided_build_instruments_only_the_translation_crates() {
    let wrapped = |crate_name: &str, flags: &str| {
        let o = Command::new(root().join("deploy/pgo/rustc"))
            .args(["echo", "--crate-name", crate_name, "--edition=2024"])
            .env("DXDIFF_PGO_FLAGS", flags)
            .output()
            .expect("runs the wrapper");
        assert!(o.status.success());
        String::from_utf8_lossy(&o.stdout).trim().to_string()
    };
    let flags = "-Cprofile-use=/p/dxdiff.profdata -Cllvm-args=-x";
    for c in ["dxbc", "translator", "naga", "dxdiff"] {
        assert_eq!(
            wrapped(c, flags),
            format!("--crate-name {c} --edition=2024 {flags}")
        );
    }
    for c in ["oracles", "harness", "wgpu", "naga_oil", "translator_extra"] {
        assert_eq!(
            wrapped(c, flags),
            format!("--crate-name {c} --edition=2024")
        );
    }
    assert_eq!(
        wrapped("translator", ""),
        "--crate-name translator --edition=2024"
    );
    let script = std::fs::read_to_string(root().join("deploy/pgo/build.sh")).expect("script");
    assert!(
        script.contains("--generated"),
        "trains on generated programs"
    );
    assert!(!script.contains("shared/corpus"), "never on a corpus");
    // The CPU level goes to the profile's use only: the training binary runs on the build
    // host, whatever it is.
    let generate = script
        .lines()
        .find(|l| l.contains("build \"-Cprofile-generate"))
        .expect("the instrumented build");
    let apply = script
        .lines()
        .find(|l| l.contains("build \"-Cprofile-use"))
        .expect("the profile-guided build");
    assert!(!generate.contains("target-cpu"), "{generate}");
    assert!(apply.contains("-Ctarget-cpu=$cpu"), "{apply}");
    let containerfile =
        std::fs::read_to_string(root().join("deploy/Containerfile")).expect("Containerfile");
    assert!(
        containerfile.contains("deploy/pgo/build.sh"),
        "the image ships the PGO build"
    );
}

#[test]
fn kubernetes_and_actions_recipes_run_every_shard() {
    let Some(job) = yaml(&root().join("deploy/k8s/indexed-job.yaml")) else {
        return;
    };
    let spec = &job[0]["spec"];
    assert_eq!(job[0]["apiVersion"], "batch/v1");
    assert_eq!(spec["completionMode"], "Indexed");
    let n = spec["completions"].as_u64().expect("completions");
    assert_eq!(spec["parallelism"], n);
    let c = &spec["template"]["spec"]["containers"][0];
    let args = c["args"][0].as_str().expect("args");
    assert!(
        args.contains(&format!("--shard \"${{JOB_COMPLETION_INDEX}}/{n}\"")),
        "{args}"
    );
    assert_eq!(c["resources"]["limits"]["nvidia.com/gpu"], 1);
    let merge = yaml(&root().join("deploy/k8s/merge-job.yaml")).expect("yaml");
    let m = merge[0]["spec"]["template"]["spec"]["containers"][0]["args"][0]
        .as_str()
        .expect("args");
    assert!(m.starts_with("dxdiff merge /results/fuzz/shard-*"), "{m}");
    let wf = yaml(&root().join("deploy/github/dxdiff-matrix.yml")).expect("yaml");
    let shards = wf[0]["jobs"]["shard"]["strategy"]["matrix"]["shard"]
        .as_array()
        .expect("matrix")
        .len();
    let steps = wf[0]["jobs"]["shard"]["steps"].to_string();
    assert!(
        steps.contains(&format!("--shard ${{{{ matrix.shard }}}}/{shards}")),
        "{steps}"
    );
    let merge_steps = wf[0]["jobs"]["merge"]["steps"].to_string();
    let all: Vec<String> = (0..shards).map(|k| format!("shard-{k}")).collect();
    assert!(merge_steps.contains(&format!("dxdiff merge {} --out merged", all.join(" "))));
}

#[test]
fn the_local_shard_script_merges_like_the_unsharded_run() {
    let base = temp("deploy", "run-shards");
    std::fs::create_dir_all(&base).expect("scratch");
    let script = root().join("deploy/run-shards.sh");
    let run = |args: &[&str]| {
        let o = Command::new("sh")
            .arg(&script)
            .args(args)
            .env("DXDIFF", exe())
            .env("NODEVICE_SELECT", "1")
            .current_dir(root())
            .output()
            .expect("sh runs");
        (
            o.status.code(),
            stdout(&o) + &String::from_utf8_lossy(&o.stderr),
        )
    };
    let out = base.join("corpus");
    let (code, text) = run(&[
        "3",
        out.to_str().expect("utf-8"),
        "corpus",
        "examples/cases",
    ]);
    assert_eq!(code, Some(0), "{text}");
    let whole = dxdiff()
        .args(["corpus", "examples/cases", "--out"])
        .arg(base.join("whole.json"))
        .output()
        .expect("corpus");
    assert_eq!(whole.status.code(), Some(0));
    let bytes = |p: &Path| std::fs::read(p).expect("record");
    assert_eq!(
        bytes(&base.join("whole.json")),
        bytes(&out.join("merged.json"))
    );
    let _turn = gpu_turn();
    let out = base.join("verify");
    let (code, text) = run(&["2", out.to_str().expect("utf-8"), "verify", "--cases", "50"]);
    if code == Some(4) {
        eprintln!("skipped: no usable GPU adapter");
        return;
    }
    assert_eq!(code, Some(0), "{text}");
    assert!(out.join("merged/report.json").is_file() && out.join("merged/report.html").is_file());
    let _ = std::fs::remove_dir_all(&base);
}

/// The CI kit for a translator's repository (`deploy/ci/dxdiff-check.sh`, docs/ci.md), run as an
/// author's CI would, with the node example as the author's translator: `update` writes the
/// baseline (the verify run's and, with `DXDIFF_CONTRACT=1`, the contract's); `check` passes on
/// the same build and fails on a planted regression; without a translator it is a setup error. The workflow that wraps it parses and runs it.
#[test]
fn the_ci_kit_fails_only_on_a_regression() {
    let workflow = root().join("deploy/github/dxdiff-translator.yml");
    if let Some(docs) = yaml(&workflow) {
        let text = serde_json::to_string(&docs).expect("json");
        assert!(text.contains("dxdiff-check.sh") && text.contains("DXDIFF_TRANSLATOR"));
    }
    let ok = Command::new("node").arg("--version").output();
    if !ok.is_ok_and(|o| o.status.success()) {
        eprintln!("skipped: node is not on PATH");
        return;
    }
    let _turn = gpu_turn();
    let dir = temp("ci", "kit");
    let script = root().join("deploy/ci/dxdiff-check.sh");
    let run = |mode: &str, plant: Option<&str>| {
        let translator = match plant {
            Some(p) => {
                format!("cmd:DXDIFF_NODE_PLANT={p} node examples/translators/node/translate.js")
            }
            None => "cmd:node examples/translators/node/translate.js".to_string(),
        };
        Command::new("sh")
            .arg(&script)
            .arg(mode)
            .current_dir(root())
            .env("DXDIFF", exe())
            .env("DXDIFF_TRANSLATOR", translator)
            .env("DXDIFF_BASELINE", dir.join("baseline"))
            .env("DXDIFF_OUT", dir.join("out"))
            .env("DXDIFF_CASES", "64")
            .env("DXDIFF_SEED", "4")
            .env("DXDIFF_BUILD", "node --version")
            .env("DXDIFF_CONTRACT", "1")
            .env(
                "DXDIFF_CONTRACT_ARGS",
                "--entry adapted/typeless-registers --cases 64",
            )
            .output()
            .expect("sh runs")
    };
    let o = run("update", None);
    if String::from_utf8_lossy(&o.stderr).contains("exited 4") {
        eprintln!("skipped: no usable GPU adapter");
        return;
    }
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(dir.join("baseline/report.json").is_file());
    assert!(dir.join("baseline/contract/contract.json").is_file());
    let o = run("check", None);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}{}",
        stdout(&o),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(stdout(&o).contains(" 0 introduced,"), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("contract: 0 regressions,"),
        "{}",
        stdout(&o)
    );
    let o = run("check", Some("add-as-sub"));
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("## Introduced (regressions)"),
        "{}",
        stdout(&o)
    );
    // The contract's entry the planted bug breaks (verified in the baseline) is a regression.
    assert!(
        stdout(&o).contains("contract: 1 regressions,"),
        "{}",
        stdout(&o)
    );
    let o = Command::new("sh")
        .arg(&script)
        .env_remove("DXDIFF_TRANSLATOR")
        .output()
        .expect("sh runs");
    assert_eq!(o.status.code(), Some(2));
}
