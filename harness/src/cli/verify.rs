//! `dxdiff verify [--profile P] [--adapter A] [--seed S] [--cases N] [--out DIR]`: the main job.
//! Prints a summary table, writes `DIR/report.json` and `DIR/report.md`, saves each mismatch
//! under `DIR/cases/`, and ends with the contract's closing line. Exit 1 on a mismatch, 4
//! without a usable adapter.

use std::path::PathBuf;
use std::process::ExitCode;

use harness::gpu::GpuError;
use harness::verify::{self, Options, rate};

use super::{CliError, CliResult, write_output};

#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// Case files (or folders of them) to run as well, interpreter against GPU.
    cases_files: Vec<PathBuf>,
    /// `builtin` (the only translator so far).
    #[arg(long, default_value = "builtin")]
    translator: String,
    /// `contract` (the default) or `exact`.
    #[arg(long, default_value = "contract")]
    profile: String,
    /// `auto` (a real GPU first, lavapipe otherwise) or a substring of the adapter's name.
    #[arg(long, default_value = "auto")]
    adapter: String,
    /// Makes the inputs reproducible.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Input vectors per program.
    #[arg(long, default_value_t = 100_000)]
    cases: usize,
    /// Where the reports and counterexamples go.
    #[arg(long, default_value = "dxdiff-report")]
    out: PathBuf,
    /// Further folders of programs with generated inputs (not supported yet).
    #[arg(long)]
    corpus: Vec<PathBuf>,
}

pub fn run(a: &VerifyArgs) -> CliResult {
    if !a.corpus.is_empty() {
        return Err(super::usage(
            "--corpus is not supported by verify yet; run its case files with dxdiff replay".into(),
        ));
    }
    let mut extra_cases = Vec::new();
    for path in &a.cases_files {
        let mut files = Vec::new();
        super::replay::collect(path, &mut files)?;
        for f in files {
            let text = std::fs::read_to_string(&f).map_err(|source| CliError::Io {
                path: f.clone(),
                source,
            })?;
            extra_cases.push((f.display().to_string(), text));
        }
    }
    let profile = super::builtin_profile(&a.translator, &a.profile)?;
    let opts = Options {
        profile,
        seed: a.seed,
        cases: a.cases.max(1),
        extra_cases,
    };
    let report = match verify::run(&opts, &a.out, &a.adapter) {
        Ok(r) => r,
        Err(GpuError::NoAdapter(why)) => {
            eprintln!("dxdiff: no usable GPU adapter: {why}");
            return Ok(ExitCode::from(4));
        }
        Err(e) => {
            eprintln!("dxdiff: {e}");
            return Ok(ExitCode::from(4));
        }
    };
    std::fs::create_dir_all(&a.out).map_err(|source| CliError::Io {
        path: a.out.clone(),
        source,
    })?;
    let json = serde_json::to_string_pretty(&report).map_err(|e| super::usage(e.to_string()))?;
    write_output(Some(&a.out.join("report.json")), json.as_bytes())?;
    let md = verify::markdown(&report);
    write_output(Some(&a.out.join("report.md")), md.as_bytes())?;
    println!("{md}");
    let t = &report.totals;
    let secs = |k: &str| report.seconds.get(k).copied().unwrap_or(0.0);
    println!(
        "throughput: interpreter {:.0} lanes/s, GPU (translated, in the worker) {:.0} lanes/s; time: translation {:.1}s, interpreter {:.1}s, GPU {:.1}s, total {:.1}s",
        rate(t.lanes, secs("interpreter")),
        rate(t.lanes, secs("gpu")),
        secs("translation"),
        secs("interpreter"),
        secs("gpu"),
        secs("total")
    );
    println!(
        "verify: {} programs, {} lanes compared: {} match, {} within tolerance, {} adapted, {} mismatch, {} inconclusive",
        report.programs.len(),
        t.lanes,
        t.matched,
        t.within,
        t.adapted,
        t.mismatch,
        t.inconclusive
    );
    Ok(if t.mismatch > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
