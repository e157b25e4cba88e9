//! `dxdiff replay PATH... [--executor interp|gpu]`: run case files (or folders of them) and check
//! their expectations. One line per run that did not plainly pass, then `N passed, N failed, N
//! skipped` last: the line docs/case-format.md promises scripts. An inconclusive run (the
//! reference or the executor could not finish it) says nothing about the translation, so it is
//! counted among the skipped there, and a line `N inconclusive (counted as skipped)` just before
//! says how many. Only failures (and malformed files) make the exit code non-zero.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use oracles::replay::{RunOutcome, replay_interp_with_findings};

use super::{CliError, CliResult};

/// Which executor runs the translated program (`--executor`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Executor {
    /// The reference interpreter.
    Interp,
    /// The translator's WGSL on a GPU through wgpu (lavapipe without one).
    Gpu,
}

/// The arguments of `dxdiff replay`.
#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    /// Case files, or folders searched for `*.json`.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    #[arg(long, value_enum, default_value = "interp")]
    executor: Executor,
    /// Instruction budget per batch; a run that exhausts it is inconclusive.
    #[arg(long, default_value_t = oracles::interp::DEFAULT_BUDGET)]
    budget: u64,
    #[command(flatten)]
    translator: super::TranslatorArgs,
    /// `auto` (a real GPU first, lavapipe otherwise) or a substring of the adapter's name.
    #[arg(long, default_value = "auto")]
    adapter: String,
}

/// Append `path` to `out`, or, for a folder, every `*.json` file under it in sorted order.
pub fn collect(path: &Path, out: &mut Vec<PathBuf>) -> Result<(), CliError> {
    let io = |source| CliError::Io {
        path: path.to_path_buf(),
        source,
    };
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
            .map_err(io)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() || p.extension().is_some_and(|x| x == "json") {
                collect(&p, out)?;
            }
        }
    } else {
        out.push(path.to_path_buf());
    }
    Ok(())
}

/// Replay every case file found and print the tally.
pub fn run(a: &ReplayArgs) -> CliResult {
    let translator = a.translator.build()?;
    let mut gpu = match a.executor {
        Executor::Interp => None,
        Executor::Gpu => match crate::gpu::isolated::IsolatedGpu::new(&a.adapter) {
            Ok(g) => {
                eprintln!("dxdiff: adapter {}", g.description);
                Some(crate::gpu::executor::GpuExecutor { gpu: g })
            }
            Err(e) => {
                eprintln!("dxdiff: {e}");
                return Ok(ExitCode::from(4));
            }
        },
    };
    let mut files = Vec::new();
    for p in &a.paths {
        collect(p, &mut files)?;
    }
    let (mut passed, mut failed, mut inconclusive, mut skipped) = (0usize, 0usize, 0usize, 0usize);
    let mut malformed = 0usize;
    for file in &files {
        let case = match super::read_case(file) {
            Ok(c) => c,
            Err(e) => {
                println!("FAIL {e}");
                failed += 1;
                malformed += 1;
                continue;
            }
        };
        let (outcomes, findings) = match &mut gpu {
            Some(g) => crate::replay::replay(
                &case,
                g,
                translator.as_ref(),
                crate::driver::Policy::once(a.budget),
            ),
            None => replay_interp_with_findings(&case, a.budget),
        };
        for f in &findings {
            println!(
                "{}",
                reports::verify::finding_line(&file.display().to_string(), f)
            );
        }
        for (id, outcome) in outcomes {
            match outcome {
                RunOutcome::Passed => passed += 1,
                RunOutcome::Adapted(ids) => {
                    let list: Vec<String> = ids.iter().map(|i| format!("adapted({i})")).collect();
                    println!("ADAPTED {} {id}: {}", file.display(), list.join(", "));
                    passed += 1;
                }
                RunOutcome::Failed(why) => {
                    println!("FAIL {} {id}: {why}", file.display());
                    failed += 1;
                }
                RunOutcome::Inconclusive(why) => {
                    println!("INCONCLUSIVE {} {id}: {why}", file.display());
                    inconclusive += 1;
                }
                RunOutcome::Skipped(why) => {
                    println!("SKIP {} {id}: {why}", file.display());
                    skipped += 1;
                }
            }
        }
    }
    if inconclusive > 0 {
        println!("{inconclusive} inconclusive (counted as skipped)");
    }
    println!(
        "{passed} passed, {failed} failed, {} skipped",
        skipped + inconclusive
    );
    // Malformed input is exit 2 (docs/case-format.md) even when other runs failed too: the run
    // did not cover what it was given.
    Ok(if malformed > 0 {
        ExitCode::from(2)
    } else if failed > 0 {
        ExitCode::from(1)
    } else if passed == 0 && skipped + inconclusive > 0 {
        super::nothing_compared("every run was skipped or inconclusive (the lines above say why)")
    } else {
        ExitCode::SUCCESS
    })
}
