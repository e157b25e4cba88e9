//! `dxdiff verify [--profile P] [--adapter A] [--seed S] [--cases N] [--out DIR]`: the main job.
//! Prints a summary table, writes `DIR/report.json`, `DIR/report.md` and `DIR/report.html`, saves each mismatch
//! under `DIR/cases/`, and ends with the contract's closing line. Exit 1 on a mismatch, 4
//! without a usable adapter.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::session::Settings;
use crate::verify::{self, Options};

use super::{CliError, CliResult};

/// The arguments of `dxdiff verify`.
#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// Case files (or folders of them) to run as well, interpreter against GPU.
    cases_files: Vec<PathBuf>,
    #[command(flatten)]
    translator: super::TranslatorArgs,
    #[command(flatten)]
    model: super::ModelArgs,
    #[command(flatten)]
    pub(super) place: super::PlacementArgs,
    /// Makes the inputs reproducible.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Input vectors per program (1 to 10,000,000: every vector is held in memory).
    #[arg(long, default_value_t = 100_000, value_parser = super::bounded(1, 10_000_000))]
    cases: usize,
    /// Where the reports and counterexamples go.
    #[arg(long, default_value = "dxdiff-report")]
    out: PathBuf,
    /// Further folders (or files) of programs: DXBC blobs, or case files whose program is
    /// run over generated inputs.
    #[arg(long)]
    corpus: Vec<PathBuf>,
    /// Input vectors per corpus program (1 to 1,000,000).
    #[arg(long, default_value_t = 10_000, value_parser = super::bounded(1, 1_000_000))]
    corpus_cases: usize,
    /// Run only the corpus programs and the case files given, not the built-in
    /// single-instruction programs and embedded cases.
    #[arg(long)]
    corpus_only: bool,
    /// Also write JUnit XML here: one test case per program (failed on a mismatch, skipped
    /// when it did not run).
    #[arg(long)]
    junit: Option<PathBuf>,
    /// No progress on stderr.
    #[arg(long, short)]
    quiet: bool,
}

/// Run the verification and write its reports and counterexamples.
pub fn run(a: &VerifyArgs) -> CliResult {
    // The output folder first: a run that cannot write its report must not start.
    let out = crate::outdir::OutDir::open(&a.out).map_err(|e| CliError::Input {
        path: a.out.clone(),
        what: format!("[{}] {e}", e.code()),
    })?;
    for c in &a.corpus {
        if !c.exists() {
            return Err(super::usage(format!(
                "--corpus {}: no such file or folder",
                c.display()
            )));
        }
    }
    // Case files given on the command line are read before the run; a malformed one is
    // reported and left out, the others run, and the exit code is 2 (docs/harness.md).
    let mut extra_cases = Vec::new();
    let mut malformed = 0usize;
    for path in &a.cases_files {
        let mut files = Vec::new();
        super::replay::collect(path, &mut files)?;
        for f in files {
            match super::read_case(&f) {
                Ok(case) => extra_cases.push((f.display().to_string(), case)),
                Err(e) => {
                    eprintln!("dxdiff: {e} (left out of the run)");
                    malformed += 1;
                }
            }
        }
    }
    let shard = a.place.shard()?;
    let opts = Options {
        session: Settings {
            seed: a.seed,
            cases: a.cases,
            vectors: a.corpus_cases,
            shard,
            quiet: a.quiet,
            shader_model: a.model.shader_model,
            ..Settings::new(a.translator.build()?, a.place.executor.runner())
        },
        extra_cases,
        corpus: a.corpus.clone(),
        skip_builtin: a.corpus_only,
    };
    let report = match verify::run(&opts, &a.out, &a.place.adapter, a.place.jobs(true)) {
        Ok(r) => r,
        Err(e) => return Ok(super::no_device(&e)),
    };
    // Every output is attempted, and the summary printed, even where one write fails (a full
    // disk): what was measured reaches wherever it still can; the first error is the exit.
    let mut writes = super::Writes::default();
    let md = match reports::verify::write_folder(&out.path, &report) {
        Ok(md) => md,
        Err(e) => {
            writes.keep(Err(e.into()));
            reports::verify::markdown(&report)
        }
    };
    if let Some(junit) = &a.junit {
        writes.write(Some(junit), reports::verify::junit(&report).as_bytes());
    }
    println!("{md}");
    let t = &report.totals;
    print!("{}", reports::verify::summary(&report, malformed));
    writes.finish()?;
    Ok(if malformed > 0 {
        ExitCode::from(2)
    } else if t.mismatch > 0 {
        ExitCode::from(1)
    } else if t.judged() == 0 {
        super::nothing_compared(
            "every program was skipped, rejected by the translator, or inconclusive (the skips above say why)",
        )
    } else {
        ExitCode::SUCCESS
    })
}
