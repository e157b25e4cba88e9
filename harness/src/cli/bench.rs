//! `dxdiff bench [--translator T]... PATH...`: translation throughput per translator over the
//! programs they all qualify, side by side, from one run (crate::bench).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use super::{CliResult, write_output};

/// The most programs `--generated` makes: a million is about 1.5 GB of containers.
const MAX_GENERATED: usize = 1_000_000;

/// The arguments of `dxdiff bench`.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// Folders (or files) of programs.
    #[arg(required_unless_present = "generated")]
    paths: Vec<PathBuf>,
    /// Also time programs made here: `verify`'s built-in single-instruction programs and N
    /// random ones of `fuzz`'s generator (0 adds the built-in ones alone).
    #[arg(long, value_name = "N")]
    generated: Option<usize>,
    /// Seed of the random programs of `--generated` (program i from (seed, i), as in `fuzz`).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// `builtin`, `vkd3d`, `dxbc-spirv[:DRIVER]`, `cmd:<command line>` or `serve:<command line>`;
    /// repeat to compare (default: builtin).
    #[arg(long = "translator")]
    translators: Vec<String>,
    /// Profile of the built-in translator.
    #[arg(long, default_value = "contract")]
    profile: String,
    /// Seconds an external translator gets per program (1 to 86,400).
    #[arg(long, default_value_t = 30, value_parser = super::bounded_u64(1, 86_400))]
    translator_timeout: u64,
    /// Least seconds of measurement per line.
    #[arg(long, default_value_t = 2.0)]
    seconds: f64,
    /// Back-to-back runs of each program for the warm figure (its median); no more than the
    /// line's passes, at least 3; 0 skips it.
    #[arg(long, default_value_t = 9)]
    warm_runs: usize,
    /// Write the figures as JSON here.
    #[arg(long)]
    json: Option<PathBuf>,
}

/// Measure every translator over the same programs; print the table, optionally the JSON.
pub fn run(a: &BenchArgs) -> CliResult {
    let names = if a.translators.is_empty() {
        vec!["builtin".to_string()]
    } else {
        a.translators.clone()
    };
    let timeout = Duration::from_secs(a.translator_timeout.max(1));
    let mut translators = Vec::new();
    for n in &names {
        translators.push(
            crate::translators::parse(n, &a.profile, timeout)
                .map_err(|e| super::usage(e.to_string()))?,
        );
    }
    for p in &a.paths {
        if !p.exists() {
            return Err(super::usage(format!(
                "{}: no such file or folder",
                p.display()
            )));
        }
    }
    let min = Duration::try_from_secs_f64(a.seconds.clamp(0.0, 3600.0)).unwrap_or_default();
    let mut programs = crate::programs::relative(&a.paths);
    if let Some(n) = a.generated {
        // Every program is held in memory for the whole run (about 1.5 KB each).
        if n > MAX_GENERATED {
            return Err(super::usage(format!(
                "--generated {n}: at most {MAX_GENERATED} programs"
            )));
        }
        programs.extend(crate::programs::generated(n, a.seed));
    }
    let b = crate::bench::run(programs, &translators, min, a.warm_runs.min(1000));
    if let Some(j) = &a.json {
        let text = serde_json::to_string_pretty(&b).map_err(|e| super::usage(e.to_string()))?;
        write_output(Some(j), text.as_bytes())?;
    }
    println!("{}", reports::bench::markdown(&b));
    Ok(ExitCode::SUCCESS)
}
