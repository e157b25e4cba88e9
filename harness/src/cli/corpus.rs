//! `dxdiff corpus PATH... [--out FILE] [--html FILE] [--baseline FILE] [--verify N] [--junit FILE]`: corpus
//! qualification (crate::qualify), optionally with a differential check of every qualified
//! program, and the transition against a baseline record (crate::transition). Prints the
//! Markdown table, the transition, and last `corpus: N qualified, N unsupported, N failed`.
//! Exit 1 on a regression against the baseline (unless `--accept`), or, without a baseline,
//! when `--verify` finds a mismatch.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::exec::Executor;
use crate::qualify;
use crate::session::{Session, Settings};
use reports::corpus::{Record, Status, Verdicts, VerifySettings};

use super::CliResult;

/// The arguments of `dxdiff corpus`.
#[derive(Debug, clap::Args)]
pub struct CorpusArgs {
    /// Folders (or files) of programs: DXBC containers and `dxdiff-case/1` files.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    #[command(flatten)]
    translator: super::TranslatorArgs,
    /// Write the versioned JSON record here.
    #[arg(long)]
    out: Option<PathBuf>,
    /// A record from an earlier run: print the transition, exit 1 on a regression.
    #[arg(long)]
    baseline: Option<PathBuf>,
    /// A second compiler every qualified program's WGSL must pass: `tint` (Chrome's, through
    /// the browser `--chrome` names). A module naga accepts and it rejects is failed.
    #[arg(long, value_enum)]
    gate: Option<Gate>,
    /// Also run every qualified program over N generated input vectors on the GPU.
    #[arg(long)]
    verify: Option<usize>,
    /// Write JUnit XML here.
    #[arg(long)]
    junit: Option<PathBuf>,
    /// Write the Markdown table here as well as printing it.
    #[arg(long)]
    markdown: Option<PathBuf>,
    /// Write the self-contained HTML report here (default: beside `--out`, as `.html`).
    #[arg(long)]
    html: Option<PathBuf>,
    /// The changes against the baseline are intended: report regressions, exit 0.
    #[arg(long)]
    accept: bool,
    #[command(flatten)]
    place: super::PlacementArgs,
    /// Makes the `--verify` inputs reproducible.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where `--verify` saves counterexamples.
    #[arg(long, default_value = "dxdiff-corpus-cases")]
    cases_dir: PathBuf,
    /// No progress on stderr.
    #[arg(long, short)]
    quiet: bool,
}

/// A second compiler for `--gate`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Gate {
    /// Chrome's Tint, through `createShaderModule` and `getCompilationInfo`.
    Tint,
}

/// Qualify the corpus, optionally verify it, compare with the baseline and write the records.
pub fn run(a: &CorpusArgs) -> CliResult {
    for p in &a.paths {
        if !p.exists() {
            return Err(super::usage(format!(
                "{}: no such file or folder",
                p.display()
            )));
        }
    }
    let baseline = match &a.baseline {
        Some(path) => {
            if a.out.as_ref().is_some_and(|o| same_file(o, path)) {
                return Err(super::usage(format!(
                    "--out {} is the --baseline: the record would replace the baseline it is compared with",
                    path.display()
                )));
            }
            Some(super::read_parsed(path, Record::parse)?)
        }
        None => None,
    };
    let translator = a.translator.build()?;
    let mut list = crate::programs::relative(&a.paths);
    if let Some(shard) = a.place.shard {
        // The K-th of every N programs in name order: the same partition on any machine.
        list = list
            .into_iter()
            .enumerate()
            .filter(|(i, _)| shard.owns(*i))
            .map(|(_, p)| p)
            .collect();
    }
    let mut record = qualify::qualify(&list, translator.as_ref());
    record.shard = a.place.shard.map(crate::part);
    if a.gate == Some(Gate::Tint) {
        let opts = a.place.executor.chrome.options();
        match crate::qualify::tint(&mut record, &list, translator.as_ref(), opts) {
            Ok(g) => eprintln!(
                "dxdiff: tint compiled {} modules, rejected {}{}{}",
                g.compiled,
                g.rejected,
                if g.lost > 0 {
                    format!(", {} lost to the browser", g.lost)
                } else {
                    String::new()
                },
                if g.unavailable > 0 {
                    format!(
                        ", {} not compiled (an `enable` the browser's device does not grant)",
                        g.unavailable
                    )
                } else {
                    String::new()
                }
            ),
            Err(e) => {
                eprintln!("dxdiff: the tint gate: {e}");
                return Ok(ExitCode::from(4));
            }
        }
    }
    if let Some(n) = a.verify
        && let Err(code) = verify(&mut record, &list, a, n.max(1), translator)
    {
        return Ok(code);
    }
    let mut writes = super::Writes::default();
    if let Some(out) = &a.out {
        let json =
            serde_json::to_string_pretty(&record).map_err(|e| super::usage(e.to_string()))?;
        writes.write(Some(out), format!("{json}\n").as_bytes());
    }
    if let Some(junit) = &a.junit {
        writes.write(Some(junit), reports::corpus::junit(&record).as_bytes());
    }
    let html = a.html.clone().or_else(|| {
        a.out
            .as_ref()
            .filter(|o| o.extension().is_none_or(|e| e != "html"))
            .map(|o| o.with_extension("html"))
    });
    if let Some(h) = &html {
        writes.write(Some(h), reports::corpus::html(&record).as_bytes());
    }
    let md = reports::corpus::markdown(&record);
    if let Some(m) = &a.markdown {
        writes.write(Some(m), md.as_bytes());
    }
    println!("{md}");
    for p in &record.programs {
        for f in p.verdicts.iter().flat_map(|v| &v.findings) {
            println!("{}", reports::verify::finding_line(&p.name, f));
        }
    }
    let failed = if let Some(b) = &baseline {
        let t = reports::transition::compare(b, &record);
        println!("{}", t.text());
        if !t.regressions.is_empty() && a.accept {
            println!("{} regressions accepted (--accept)", t.regressions.len());
        }
        !t.regressions.is_empty() && !a.accept
    } else {
        record
            .programs
            .iter()
            .any(|p| p.verdicts.as_ref().is_some_and(|v| v.counts.mismatch > 0))
    };
    let t = &record.totals;
    println!(
        "corpus: {} qualified, {} unsupported, {} failed",
        t.qualified, t.unsupported, t.failed
    );
    let compared: u64 = record
        .programs
        .iter()
        .filter_map(|p| p.verdicts.as_ref())
        .map(|v| v.counts.judged())
        .sum();
    writes.finish()?;
    Ok(if failed {
        ExitCode::from(1)
    } else if a.verify.is_some() && compared == 0 {
        super::nothing_compared(&format!(
            "--verify ran no program: {} qualified, {} unsupported, {} failed",
            t.qualified, t.unsupported, t.failed
        ))
    } else {
        ExitCode::SUCCESS
    })
}

/// The differential pass over qualified programs. A program the device refuses becomes
/// failed; one the GPU cannot run keeps its status with the skip in its verdicts. With
/// `--adapter all` or `--jobs J` each worker verifies its share of the programs (the `k`-th of
/// every `N` in record order, [`crate::spread`]); the record is the one-worker run's.
fn verify(
    record: &mut Record,
    list: &[crate::programs::Program],
    a: &CorpusArgs,
    n: usize,
    translator: crate::translators::Shared,
) -> Result<(), ExitCode> {
    let opts = Settings {
        seed: a.seed,
        vectors: n,
        quiet: a.quiet,
        ..Settings::new(translator, a.place.executor.runner())
    };
    let blobs: std::collections::BTreeMap<&str, &[u8]> = list
        .iter()
        .filter_map(|(n, b)| Some((n.as_str(), b.as_deref().ok()?)))
        .collect();
    let todo: Vec<(usize, &str, &[u8])> = record
        .programs
        .iter()
        .enumerate()
        .filter(|(_, p)| p.status == Status::Qualified)
        .filter_map(|(i, p)| Some((i, p.name.as_str(), *blobs.get(p.name.as_str())?)))
        .collect();
    let run = a.place.workers().and_then(|workers| {
        if workers.is_empty() {
            return verify_share(&opts, &a.place.adapter, &a.cases_dir, &todo);
        }
        let shares = crate::spread::spread(&workers, a.quiet, |shard, adapter| {
            let mine: Vec<_> = todo
                .iter()
                .enumerate()
                .filter(|(j, _)| shard.owns(*j))
                .map(|(_, t)| *t)
                .collect();
            // Each share runs in record order; the shard is the filter above, not the session's.
            let quiet = Settings {
                quiet: true,
                ..opts.clone()
            };
            verify_share(&quiet, adapter, &a.cases_dir, &mine)
        })?;
        let names: std::collections::BTreeSet<String> =
            shares.iter().map(|(name, _)| name.clone()).collect();
        let name = names.into_iter().collect::<Vec<_>>().join(", ");
        Ok((name, shares.into_iter().flat_map(|(_, r)| r).collect()))
    });
    let (adapter, reports) = run.map_err(|e| {
        eprintln!("dxdiff: {e}");
        ExitCode::from(4)
    })?;
    for (i, rep) in reports {
        let p = &mut record.programs[i];
        // The status follows what happened in the run: a translator that crashes on the
        // program, or a module the device refuses, fails it.
        let outcome = rep.outcome().qualifying();
        if let reports::outcome::Outcome::Failed(why) = &outcome {
            p.reason = Some(why.clone());
        }
        p.status = Status::of(&outcome);
        p.verdicts = Some(Verdicts {
            counts: rep.tally.counts,
            adapted_by: rep.tally.adapted_by,
            skipped: rep.skipped,
            counterexample: rep.counterexample,
            findings: rep.findings,
        });
    }
    record.verify = Some(VerifySettings {
        inputs: n,
        seed: a.seed,
        adapter,
    });
    record.recount();
    Ok(())
}

/// Verify `programs` (record index, name, blob) on one adapter: its name and each program's
/// report.
fn verify_share(
    opts: &Settings,
    adapter: &str,
    cases_dir: &std::path::Path,
    programs: &[(usize, &str, &[u8])],
) -> Result<(String, Vec<(usize, reports::verify::ProgramReport)>), crate::gpu::GpuError> {
    let mut v = Session::new(opts.clone(), adapter, cases_dir)?;
    let mut bar = crate::progress::Progress::new("verify", Some(programs.len() as u64), opts.quiet);
    let mut out = Vec::with_capacity(programs.len());
    for (k, &(i, name, blob)) in programs.iter().enumerate() {
        bar.set(k as u64, name);
        let label = format!("corpus:{name}");
        out.push((i, crate::session::guarded(&label, || v.program(name, blob))));
    }
    bar.set(programs.len() as u64, "");
    bar.finish();
    Ok((v.gpu.name(), out))
}

/// Whether two paths name one file (an existing one, links resolved; equal spellings
/// otherwise).
fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}
