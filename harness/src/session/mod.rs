//! The session under every command that compares: one translator, one reference, one
//! executor, and one trip per program (decode, translate, draw inputs, run the reference, run
//! the candidate, judge every lane, shrink and save a counterexample). `verify`, `fuzz`,
//! `sweep`, `contract` and `corpus --verify` are each a thin campaign that decides *which*
//! programs and inputs; how one program is compared, timed and saved lives here once, so a new
//! campaign is one new loop over [`Session`]'s methods (docs/architecture.md).

mod cases;
mod packed;
mod trip;

pub use trip::Origin;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use reports::verify::ProgramReport;

use crate::exec::interp::Interpreter;
use crate::gpu::GpuError;
use crate::gpu::executor::GpuExecutor;
use crate::translators::Shared;

/// The settings every campaign's session shares: who is under test, what runs it, how its
/// inputs are seeded, and what a mismatch leaves behind.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The translator under test.
    pub translator: Shared,
    /// What runs the translation's kernels (`--executor`).
    pub runner: crate::runner::Runner,
    /// Makes the generated inputs reproducible.
    pub seed: u64,
    /// Input vectors per built-in single-instruction program.
    pub cases: usize,
    /// Input vectors per program ([`Session::program`]; compute: dispatches are derived from it).
    pub vectors: usize,
    /// Shrink and save a counterexample for each mismatching program (off while a fuzzer
    /// shrinks a program and only needs the verdicts).
    pub counterexamples: bool,
    /// No progress on stderr (`--quiet`).
    pub quiet: bool,
    /// Run only this shard's share of the campaign (`--shard K/N`); what a share is, the
    /// campaign decides (verify: every N-th program; fuzz: program indices; sweep: chunks).
    pub shard: Option<reports::shard::Shard>,
    /// The Shader Model dxdiff writes its built-in programs for (`--shader-model`).
    pub shader_model: dxbc::TargetModel,
}

impl Settings {
    /// Settings for `translator` on `runner`: seed 0, one vector, counterexamples saved, quiet,
    /// unsharded, Shader Model 5.0. A campaign states what it changes.
    pub fn new(translator: Shared, runner: crate::runner::Runner) -> Settings {
        Settings {
            translator,
            runner,
            seed: 0,
            cases: 1,
            vectors: 1,
            counterexamples: true,
            quiet: true,
            shard: None,
            shader_model: dxbc::TargetModel::Sm50,
        }
    }

    /// These settings for worker `shard.k` of a spread run ([`crate::spread`]): its shard, and
    /// quiet unless it is the first worker and `progress` asks it to show the run's progress.
    pub fn worker(&self, shard: reports::shard::Shard, progress: bool) -> Settings {
        Settings {
            shard: Some(shard),
            quiet: self.quiet || !progress || shard.k != 0,
            ..self.clone()
        }
    }
}

/// An open session: its settings, both executors, where counterexamples go, and where the
/// time went.
#[derive(Debug)]
pub struct Session {
    /// The settings this session runs with.
    pub opts: Settings,
    /// The candidate: the translation on the GPU, through the isolated worker.
    pub gpu: GpuExecutor,
    /// The reference: the DXBC interpreter.
    pub interp: Interpreter,
    /// Where shrunk counterexamples are saved.
    pub cases_dir: PathBuf,
    /// The run folder that keeps each program's answers (`reports::answers`): `verify`'s, whose
    /// report `dxdiff diff` reads; `None` keeps none (a fuzz campaign, a corpus record).
    pub answers_dir: Option<PathBuf>,
    /// Seconds per phase: translation, inputs, interpreter, gpu, judging, shrinking, cases.
    pub seconds: BTreeMap<String, f64>,
}

impl Session {
    /// Open the settings' runner on `adapter`; counterexamples go to `cases_dir`.
    pub fn new(opts: Settings, adapter: &str, cases_dir: &Path) -> Result<Session, GpuError> {
        Ok(Session {
            gpu: GpuExecutor {
                gpu: opts.runner.open(adapter)?,
            },
            opts,
            interp: Interpreter,
            cases_dir: cases_dir.to_path_buf(),
            answers_dir: None,
            seconds: BTreeMap::new(),
        })
    }

    /// Add the time since `since` to phase `key`.
    pub(crate) fn clock(&mut self, key: &str, since: Instant) {
        *self.seconds.entry(key.to_string()).or_default() += since.elapsed().as_secs_f64();
    }

    /// Add seconds to phase `key`.
    pub(crate) fn add_time(&mut self, key: &str, seconds: f64) {
        *self.seconds.entry(key.to_string()).or_default() += seconds;
    }
}

/// One program's report, or a `crash` skip naming the panic when dxdiff panicked on it.
pub fn guarded(name: &str, f: impl FnOnce() -> ProgramReport) -> ProgramReport {
    crate::parallel::caught(f).unwrap_or_else(|why| {
        let mut p = ProgramReport::new(name.to_string());
        p.skip(&oracles::verdict::Skip::new(
            oracles::verdict::SkipKind::Crash,
            format!("dxdiff panicked (a dxdiff bug, please report it): {why}"),
        ));
        p
    })
}
