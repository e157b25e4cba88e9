//! `dxdiff contract [--translator T] [--profile P] [--cases N] [--seed S] [--out DIR]
//! [--entry ID]... [--adapter A]`: one property per seed-contract entry, checked on the GPU.
//! Prints the table, writes `DIR/contract.json` (`dxdiff-contract/1`), `DIR/contract.md` and
//! the shrunk violations under `DIR/cases/`, and ends with the closing line. Exit 1 on a
//! violation, 4 without a usable adapter.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::contract::{self, Options};

use super::{CliError, CliResult};

/// The arguments of `dxdiff contract`.
#[derive(Debug, clap::Args)]
pub struct ContractArgs {
    #[command(flatten)]
    translator: super::TranslatorArgs,
    #[command(flatten)]
    model: super::ModelArgs,
    /// `auto` (a real GPU first, lavapipe otherwise), a substring of the adapter's name, or
    /// `#k` (the k-th GPU).
    #[arg(long, default_value = "auto")]
    adapter: String,
    #[command(flatten)]
    executor: super::ExecutorArgs,
    /// Makes the inputs reproducible.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Input vectors per program (1 to 100,000).
    #[arg(long, default_value_t = 4096, value_parser = super::bounded(1, 100_000))]
    cases: usize,
    /// Random programs over an entry's own ops, for the entries whose ops are what they are
    /// about (0 to 64; drawn from `--seed` like the inputs).
    #[arg(long, default_value_t = 4, value_parser = super::bounded(0, 64))]
    random: usize,
    /// Run only this entry (repeatable): a catalog id with a seed reference.
    #[arg(long = "entry")]
    entries: Vec<String>,
    /// A `contract.json` of an earlier run: each entry's transition since it is printed (and
    /// written to `contract.md`), and the exit is 1 only on a regression (an entry worse than
    /// there: verified to violated or not exercisable, not exercisable to violated), so a
    /// translator with a known violation can keep a green check.
    #[arg(long)]
    baseline: Option<PathBuf>,
    /// Where the reports and counterexamples go.
    #[arg(long, default_value = "dxdiff-contract")]
    out: PathBuf,
    /// Also write JUnit XML here: one test case per entry (failed when violated, skipped when
    /// not exercisable).
    #[arg(long)]
    junit: Option<PathBuf>,
    /// No progress on stderr.
    #[arg(long, short)]
    quiet: bool,
}

/// Run the properties and write the reports.
pub fn run(a: &ContractArgs) -> CliResult {
    let unknown = contract::unknown_entries(&a.entries);
    if !unknown.is_empty() {
        return Err(super::usage(format!(
            "--entry {}: not a seed-contract entry of the catalog (`dxdiff catalog` lists them)",
            unknown.join(", ")
        )));
    }
    let out = crate::outdir::OutDir::open(&a.out).map_err(|e| CliError::Input {
        path: a.out.clone(),
        what: format!("[{}] {e}", e.code()),
    })?;
    let opts = Options {
        session: crate::session::Settings {
            seed: a.seed,
            cases: a.cases,
            vectors: a.cases,
            quiet: a.quiet,
            shader_model: a.model.shader_model,
            ..crate::session::Settings::new(a.translator.build()?, a.executor.runner())
        },
        entries: a.entries.clone(),
        exact: a.translator.translator == "builtin" && a.translator.profile == "exact",
        random: a.random,
    };
    // The baseline is read before the run, so that a bad one costs nothing.
    let baseline = match &a.baseline {
        Some(p) => Some(super::read_parsed(p, |t| {
            reports::contract::ContractReport::parse(t).map_err(|e| format!("[{}] {e}", e.code()))
        })?),
        None => None,
    };
    let report = match contract::run(&opts, &out.path, &a.adapter) {
        Ok(r) => r,
        Err(e) => return Ok(super::no_device(&e)),
    };
    let json = serde_json::to_string_pretty(&report).map_err(|e| super::usage(e.to_string()))?;
    let mut writes = super::Writes::default();
    writes.write(Some(&out.path.join("contract.json")), json.as_bytes());
    let changes = baseline
        .as_ref()
        .map(|b| reports::contract::transitions(b, &report));
    let mut md = reports::contract::markdown(&report);
    if let Some(c) = &changes {
        md.push_str("\n## Since the baseline\n\n```\n");
        md.push_str(&reports::contract::transitions_text(c));
        md.push_str("```\n");
    }
    writes.write(Some(&out.path.join("contract.md")), md.as_bytes());
    if let Some(junit) = &a.junit {
        writes.write(Some(junit), reports::contract::junit(&report).as_bytes());
    }
    print!("{}", reports::contract::table(&report));
    // The transitions before the closing line, which stays the last (docs/case-format.md).
    if let Some(c) = &changes {
        print!("{}", reports::contract::transitions_text(c));
    }
    println!("{}", report.closing_line());
    writes.finish()?;
    let failed = match &changes {
        // Against a baseline only what got worse fails the run.
        Some(c) => c.iter().any(reports::contract::Change::regression),
        None => report.count(reports::contract::Status::Violated) > 0,
    };
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
