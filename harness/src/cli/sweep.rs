//! `dxdiff sweep OP... [--from X] [--to Y] [--translator T] [--profile P] [--out DIR]
//! [--adapter A]`: every 32-bit input of one-source ops in a range (crate::sweep). Prints a
//! table per op; writes `DIR/sweep.json` (resumable), `DIR/report.md`, `DIR/report.html` and the
//! first mismatches as cases in `DIR/cases`; the last line is `sweep: N ops, N inputs: N match,
//! N within tolerance, N adapted, N mismatch`. Exit 1 on a mismatch, 4 without a usable adapter.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::session::Settings;
use crate::sweep::{SweepError, SweepOptions};

use super::{CliResult, usage};

/// The arguments of `dxdiff sweep`.
#[derive(Debug, clap::Args)]
pub struct SweepArgs {
    /// One-source ALU ops: a mnemonic (`rcp`, `frc`, `ftoi`, `countbits`, `mov`, ...), `_sat`
    /// for the saturating form, `:neg`, `:abs` or `:negabs` for a source modifier
    /// (`mov_sat:negabs`).
    #[arg(required = true)]
    ops: Vec<String>,
    /// The first input (decimal or 0x-hex).
    #[arg(long, default_value = "0", value_parser = word)]
    from: u32,
    /// The last input, inclusive (decimal or 0x-hex).
    #[arg(long, default_value = "0xffffffff", value_parser = word)]
    to: u32,
    #[command(flatten)]
    translator: super::TranslatorArgs,
    /// The sweep folder: `sweep.json` (resumable), the reports and `cases/`.
    #[arg(long, default_value = "dxdiff-sweep")]
    out: PathBuf,
    #[command(flatten)]
    place: super::PlacementArgs,
    /// No progress on stderr.
    #[arg(long, short)]
    quiet: bool,
}

/// A 32-bit word in decimal or `0x` hex.
fn word(s: &str) -> Result<u32, String> {
    let parsed = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u32::from_str_radix(&h.replace('_', ""), 16),
        None => s.replace('_', "").parse(),
    };
    parsed.map_err(|e| format!("`{s}` is not a 32-bit word: {e}"))
}

/// A sweep that could not run: exit 4 without a usable device, a usage error otherwise.
fn failed(e: SweepError) -> CliResult {
    match e {
        SweepError::Gpu(e) => {
            eprintln!("dxdiff: {e}");
            Ok(ExitCode::from(4))
        }
        e => Err(usage(format!("[{}] {e}", e.code()))),
    }
}

/// `--adapter all` or `--jobs J`: shard `k/N` of the sweep (its chunks `k` modulo `N`) on
/// worker `k`, each in its own folder under `OUT/shards/` (resumable as any sweep folder),
/// merged into `OUT` as `dxdiff merge` merges sweep folders. The state and the Markdown report.
fn spread(
    o: &SweepOptions,
    workers: &[String],
) -> Result<Result<(reports::sweep::State, String), SweepError>, super::CliError> {
    use crate::spread::Stopped;
    let run =
        crate::spread::over_folders(&o.out, workers, o.session.quiet, |shard, dir, adapter| {
            let mine = SweepOptions {
                session: o.session.worker(shard, false),
                out: dir.to_path_buf(),
                ..o.clone()
            };
            crate::sweep::run(&mine, adapter).map(|(_, adapter)| adapter)
        });
    match run {
        Ok((dirs, adapters, _held)) => {
            let names: std::collections::BTreeSet<String> = adapters.into_iter().collect();
            let adapter = format!(
                "{} workers: {}",
                workers.len(),
                names.into_iter().collect::<Vec<_>>().join(", ")
            );
            super::parts::sweep_folders(&dirs, &o.out, &adapter).map(Ok)
        }
        Err(Stopped::Folders(why)) => Err(usage(why)),
        Err(Stopped::Run(e)) => Ok(Err(e)),
    }
}

/// Run (or resume) the sweep and print its reports.
pub fn run(a: &SweepArgs) -> CliResult {
    let o = SweepOptions {
        session: Settings {
            quiet: a.quiet,
            shard: a.place.shard,
            ..Settings::new(a.translator.build()?, a.place.executor.runner())
        },
        ops: a.ops.clone(),
        from: a.from,
        to: a.to,
        out: a.out.clone(),
    };
    let workers = match a.place.workers() {
        Ok(w) => w,
        Err(e) => return failed(e.into()),
    };
    let (st, md) = if workers.is_empty() {
        match crate::sweep::run(&o, &a.place.adapter) {
            Ok((st, adapter)) => {
                let md = reports::sweep::write_folder(&a.out, &st, &adapter)?;
                (st, md)
            }
            Err(e) => return failed(e),
        }
    } else {
        a.place.shard()?;
        match spread(&o, &workers)? {
            Ok(x) => x,
            Err(e) => return failed(e),
        }
    };
    println!("{md}");
    let t = st.totals();
    if t.inconclusive > 0 {
        println!("{} inputs inconclusive", t.inconclusive);
    }
    println!("{}", st.closing_line());
    Ok(if t.mismatch > 0 {
        ExitCode::from(1)
    } else if t.judged() == 0 {
        super::nothing_compared("every op was rejected by the translator, skipped, or inconclusive")
    } else {
        ExitCode::SUCCESS
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_decimal_or_hex() {
        assert_eq!(word("0x3f80_0000"), Ok(0x3f80_0000));
        assert_eq!(word("4294967295"), Ok(u32::MAX));
        assert!(word("0x1_0000_0000").is_err());
        assert!(word("-1").is_err());
    }
}
