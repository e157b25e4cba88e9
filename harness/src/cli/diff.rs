//! `dxdiff diff BASE NEW`: what a translator change did, from two `dxdiff verify` runs on one
//! seed (the baseline build's and the change's), or two fuzz campaigns of one seed. Per program: the divergences the change
//! introduced and fixed, the catalog entries it newly relies on or no longer needs, the skips
//! that changed (a new crash is a regression; a new fail-closed refusal is not), and where the
//! WGSL changed. `--confirm` replays each introduced divergence's counterexample on the
//! baseline translator, so the report says whether the minimal case passes there.
//!
//! Decision (docs/diff.md): two runs compared, rather than two translators in one run. A
//! change is a different build, often a different checkout or binary, and its baseline run is
//! an artifact an author keeps; the runs can be made on different days or in different CI jobs,
//! as long as they share the seed and the inputs per program.
//!
//! Writes `diff.json` and `diff.md` to `--out` (default: NEW's folder); prints the Markdown
//! and ends with the closing line `diff: …`. Exit 1 only on a regression, 2 when the runs
//! cannot be read or compared, 4 without an adapter for `--confirm`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use oracles::replay::RunOutcome;
use reports::diff::{Change, Diff};
use reports::verify::RunReport;

use super::{CliError, CliResult};

/// The arguments of `dxdiff diff`.
#[derive(Debug, clap::Args)]
pub struct DiffArgs {
    /// The baseline build's `dxdiff verify` output folder (or its `report.json`), or its fuzz
    /// campaign folder (or `state.json`).
    base: PathBuf,
    /// The change's run, on the same seed.
    new: PathBuf,
    /// Replay each introduced divergence's counterexample on the baseline translator (given
    /// with `--translator`/`--profile`, as for the baseline run), to show that it passes there.
    #[arg(long)]
    confirm: bool,
    #[command(flatten)]
    translator: super::TranslatorArgs,
    /// `auto` (a real GPU first, lavapipe otherwise) or a substring of the adapter's name.
    #[arg(long, default_value = "auto")]
    adapter: String,
    /// Where `diff.json` and `diff.md` go (default: NEW's folder).
    #[arg(long)]
    out: Option<PathBuf>,
}

/// One run: a `verify` report or a fuzz campaign's state.
enum RunFile {
    Verify(RunReport),
    Fuzz(reports::fuzz::State),
}

/// A run's folder and what it holds: `report.json` (verify) or `state.json` (fuzz), or the
/// file itself.
fn read_run(p: &Path) -> Result<(PathBuf, RunFile), CliError> {
    let (dir, file) = if p.is_dir() {
        let verify = p.join("report.json");
        let file = if verify.is_file() {
            verify
        } else {
            p.join("state.json")
        };
        (p.to_path_buf(), file)
    } else {
        let dir = p.parent().map_or_else(PathBuf::new, Path::to_path_buf);
        (dir, p.to_path_buf())
    };
    let run = super::read_parsed(&file, |text| {
        let v: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        match v.get("format").and_then(|f| f.as_str()) {
            Some(reports::verify::FORMAT) => serde_json::from_value(v)
                .map(RunFile::Verify)
                .map_err(|e| e.to_string()),
            Some(reports::fuzz::FORMAT) => serde_json::from_value(v)
                .map(RunFile::Fuzz)
                .map_err(|e| e.to_string()),
            other => Err(format!(
                "neither a `dxdiff verify` report nor a fuzz campaign's state (format {other:?})"
            )),
        }
    })?;
    Ok((dir, run))
}

/// The counterexample a report names, as a path from here: as written, or under the run's
/// `cases/` folder when the run was made from another directory.
fn counterexample_path(dir: &Path, named: &str) -> PathBuf {
    let p = PathBuf::from(named);
    if p.is_file() {
        return p;
    }
    match p.file_name() {
        Some(f) => dir.join("cases").join(f),
        None => p,
    }
}

/// Replay one introduced divergence's counterexample on the baseline translator.
fn confirm(
    c: &mut Change,
    dir: &Path,
    gpu: &mut crate::gpu::executor::GpuExecutor,
    translator: &dyn crate::translators::Translator,
) {
    let Some(named) = &c.counterexample else {
        c.replay_error = Some("no counterexample was saved".into());
        return;
    };
    let path = counterexample_path(dir, named);
    let case = match super::read_case(&path) {
        Ok(case) => case,
        Err(e) => {
            c.replay_error = Some(e.to_string());
            return;
        }
    };
    let (outcomes, _) = crate::replay::replay(
        &case,
        gpu,
        translator,
        crate::driver::Policy::once(oracles::interp::DEFAULT_BUDGET),
    );
    if outcomes
        .iter()
        .any(|(_, o)| matches!(o, RunOutcome::Inconclusive(_) | RunOutcome::Skipped(_)))
    {
        c.replay_error = Some("the baseline could not run it".into());
        return;
    }
    c.passes_on_baseline = Some(outcomes.iter().all(|(_, o)| !o.is_failure()));
}

/// Compare the two runs, write the report, print it.
pub fn run(a: &DiffArgs) -> CliResult {
    let (base_dir, base) = read_run(&a.base)?;
    let (new_dir, new) = read_run(&a.new)?;
    let diff = match (&base, &new) {
        (RunFile::Verify(b), RunFile::Verify(n)) => Diff::of(b, n),
        (RunFile::Fuzz(b), RunFile::Fuzz(n)) => Diff::of_fuzz(b, n),
        _ => Err(reports::diff::DiffError::NotComparable(
            "one is a verify run, the other a fuzz campaign".into(),
        )),
    };
    let mut diff = diff.map_err(|e| CliError::Input {
        path: a.new.clone(),
        what: format!("[{}] {e}", e.code()),
    })?;
    if let (RunFile::Verify(b), RunFile::Verify(n)) = (&base, &new) {
        diff.compare_answers(b, &base_dir, n, &new_dir);
    }
    if a.confirm && !diff.introduced.is_empty() {
        let translator = a.translator.build()?;
        let mut gpu = match crate::runner::Runner::Wgpu.open(&a.adapter) {
            Ok(g) => crate::gpu::executor::GpuExecutor { gpu: g },
            Err(e) => {
                eprintln!("dxdiff: {e}");
                return Ok(ExitCode::from(4));
            }
        };
        for c in &mut diff.introduced {
            confirm(c, &new_dir, &mut gpu, translator.as_ref());
        }
    }
    let out = a.out.clone().unwrap_or(new_dir);
    let json = serde_json::to_string_pretty(&diff).map_err(|e| CliError::Input {
        path: out.clone(),
        what: e.to_string(),
    })?;
    let markdown = diff.to_markdown();
    for (name, bytes) in [
        ("diff.json", json.as_bytes()),
        ("diff.md", markdown.as_bytes()),
    ] {
        let p = out.join(name);
        crate::outdir::write_atomic(&p, bytes)
            .map_err(|source| CliError::Io { path: p, source })?;
    }
    print!("{markdown}");
    Ok(ExitCode::from(u8::from(diff.regressed())))
}
