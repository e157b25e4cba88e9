//! `dxdiff replay PATH... [--executor interp|gpu|chrome[,...]]`: run case files (or folders of
//! them) and check their expectations; with several executors, every run on each and a table
//! comparing them. One line per run that did not plainly pass, then `N passed, N failed, N
//! skipped` last: the line docs/case-format.md promises scripts. An inconclusive run (the
//! reference or the executor could not finish it) says nothing about the translation, so it is
//! counted among the skipped there, and a line `N inconclusive (counted as skipped)` just before
//! says how many. Only failures (and malformed files) make the exit code non-zero.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use reports::text::one_line;

use oracles::replay::{RunOutcome, replay_interp_with_findings};

use super::{CliError, CliResult};

/// Which executor runs the translated program (`--executor`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Executor {
    /// The reference interpreter.
    Interp,
    /// The translator's WGSL on a GPU through wgpu (lavapipe without one).
    Gpu,
    /// The translator's WGSL on Chrome's WebGPU (Dawn and Tint), in a headless browser.
    Chrome,
}

impl Executor {
    fn name(self) -> &'static str {
        match self {
            Executor::Interp => "interp",
            Executor::Gpu => "gpu",
            Executor::Chrome => "chrome",
        }
    }
}

/// The arguments of `dxdiff replay`.
#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    /// Case files, or folders searched for `*.json`.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// One executor, or several (`gpu,chrome`): each run goes to every one of them, and a
    /// table compares them.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "interp")]
    executor: Vec<Executor>,
    /// Instruction budget per batch; a run that exhausts it is inconclusive.
    #[arg(long, default_value_t = oracles::interp::DEFAULT_BUDGET)]
    budget: u64,
    #[command(flatten)]
    translator: super::TranslatorArgs,
    /// `auto` (a real GPU first, lavapipe otherwise) or a substring of the adapter's name.
    #[arg(long, default_value = "auto")]
    adapter: String,
    #[command(flatten)]
    chrome: super::ChromeArgs,
}

/// One executor's outcomes.
#[derive(Debug, Default)]
struct Tally {
    passed: usize,
    adapted: usize,
    failed: usize,
    inconclusive: usize,
    skipped: usize,
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
    let mut kinds = a.executor.clone();
    kinds.dedup();
    let several = kinds.len() > 1;
    // Each executor: its kind, and the GPU behind it (none for the interpreter).
    let mut executors = Vec::new();
    for kind in &kinds {
        let runner = match kind {
            Executor::Interp => None,
            Executor::Gpu => Some(crate::runner::Runner::Wgpu),
            Executor::Chrome => Some(crate::runner::Runner::Chrome(a.chrome.options())),
        };
        let gpu = match runner.map(|r| r.open(&a.adapter)) {
            None => None,
            Some(Ok(g)) => {
                eprintln!("dxdiff: {} adapter {}", kind.name(), g.description());
                Some(crate::gpu::executor::GpuExecutor { gpu: g })
            }
            Some(Err(e)) => {
                eprintln!("dxdiff: {e}");
                return Ok(ExitCode::from(4));
            }
        };
        executors.push((*kind, gpu, Tally::default()));
    }
    let mut files = Vec::new();
    for p in &a.paths {
        collect(p, &mut files)?;
    }
    let mut malformed = 0usize;
    // Runs whose outcome class differs between executors: (file, run, class per executor).
    let mut differ: Vec<(String, String, Vec<&'static str>)> = Vec::new();
    for file in &files {
        let case = match super::read_case(file) {
            Ok(c) => c,
            Err(e) => {
                println!("FAIL {e}");
                malformed += 1;
                continue;
            }
        };
        let mut classes: std::collections::BTreeMap<String, Vec<&'static str>> = Default::default();
        for (kind, gpu, tally) in &mut executors {
            let tag = if several {
                format!("[{}] ", kind.name())
            } else {
                String::new()
            };
            let (outcomes, findings) = match gpu {
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
                    "{tag}{}",
                    reports::verify::finding_line(&file.display().to_string(), f)
                );
            }
            for (id, outcome) in outcomes {
                // A case file's run id and a translator's reason are outside text: each result
                // stays one line that nothing in it can forge or recolour.
                let id = one_line(&id);
                let class = match outcome {
                    RunOutcome::Passed => {
                        tally.passed += 1;
                        "passed"
                    }
                    RunOutcome::Adapted(ids) => {
                        let list: Vec<String> =
                            ids.iter().map(|i| format!("adapted({i})")).collect();
                        println!("{tag}ADAPTED {} {id}: {}", file.display(), list.join(", "));
                        tally.passed += 1;
                        tally.adapted += 1;
                        "adapted"
                    }
                    RunOutcome::Failed(why) => {
                        println!(
                            "{tag}FAIL {} {id}: {}",
                            file.display(),
                            one_line(&why.to_string())
                        );
                        tally.failed += 1;
                        "failed"
                    }
                    RunOutcome::Inconclusive(why) => {
                        println!(
                            "{tag}INCONCLUSIVE {} {id}: {}",
                            file.display(),
                            one_line(&why.to_string())
                        );
                        tally.inconclusive += 1;
                        "inconclusive"
                    }
                    RunOutcome::Skipped(why) => {
                        println!(
                            "{tag}SKIP {} {id}: {}",
                            file.display(),
                            one_line(&why.to_string())
                        );
                        tally.skipped += 1;
                        "skipped"
                    }
                };
                classes.entry(id).or_default().push(class);
            }
        }
        for (id, c) in classes {
            if c.windows(2).any(|w| w[0] != w[1]) {
                differ.push((file.display().to_string(), id, c));
            }
        }
    }
    if several {
        print_comparison(&executors, &differ);
    }
    let total = executors.iter().fold(Tally::default(), |mut t, (_, _, x)| {
        t.passed += x.passed;
        t.failed += x.failed;
        t.inconclusive += x.inconclusive;
        t.skipped += x.skipped;
        t
    });
    // A malformed file is a failure of the run, whichever executor would have run it.
    let (passed, failed, inconclusive) =
        (total.passed, total.failed + malformed, total.inconclusive);
    let skipped = total.skipped;
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
    } else if passed == 0 {
        super::nothing_compared("no case file was found in what was given")
    } else {
        ExitCode::SUCCESS
    })
}

/// The executors side by side: a Markdown table of their tallies, then every run whose
/// outcome differs between them.
fn print_comparison(
    executors: &[(Executor, Option<crate::gpu::executor::GpuExecutor>, Tally)],
    differ: &[(String, String, Vec<&'static str>)],
) {
    use crate::exec::Executor as _;
    println!();
    println!("| executor | adapter | passed | of them adapted | failed | inconclusive | skipped |");
    println!("| --- | --- | ---: | ---: | ---: | ---: | ---: |");
    for (kind, gpu, t) in executors {
        let adapter = gpu.as_ref().map_or("interpreter".into(), |g| g.name());
        println!(
            "| {} | {adapter} | {} | {} | {} | {} | {} |",
            kind.name(),
            t.passed,
            t.adapted,
            t.failed,
            t.inconclusive,
            t.skipped
        );
    }
    println!();
    let names: Vec<&str> = executors.iter().map(|(k, ..)| k.name()).collect();
    println!(
        "{} runs differ between {}",
        differ.len(),
        names.join(" and ")
    );
    for (file, id, classes) in differ {
        let pairs: Vec<String> = names
            .iter()
            .zip(classes)
            .map(|(n, c)| format!("{n} {c}"))
            .collect();
        println!("DIFFER {file} {id}: {}", pairs.join(", "));
    }
    println!();
}
