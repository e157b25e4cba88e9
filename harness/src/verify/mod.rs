//! `dxdiff verify`: single-instruction programs for every ALU opcode over many edge-biased
//! input vectors, the project's own case files, and corpus programs (`--corpus`) over
//! generated inputs; each runs on the reference interpreter and, through the translator, on
//! the GPU, through the differential driver ([`crate::driver`]). Every lane gets a verdict;
//! a mismatch is shrunk and saved as a `dxdiff-case/1` file that `dxdiff replay` reproduces.

pub mod cases;
mod packed;
mod program;

pub use program::Origin;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use reports::verify::{ProgramReport, RunReport};

use crate::exec::Executor;
use crate::exec::interp::Interpreter;
use crate::gpu::GpuError;
use crate::gpu::executor::GpuExecutor;
use crate::progress::Progress;
use crate::translators::Shared;

/// Run settings.
#[derive(Debug, Clone)]
pub struct Options {
    /// The translator under test.
    pub translator: Shared,
    /// Makes the generated inputs reproducible.
    pub seed: u64,
    /// Input vectors per built-in program.
    pub cases: usize,
    /// Case files given on the command line, read and parsed, run after the embedded ones.
    pub extra_cases: Vec<(String, oracles::case::CaseFile)>,
    /// Folders (or files) of further programs, each run over `corpus_cases` generated vectors.
    pub corpus: Vec<PathBuf>,
    /// Input vectors per corpus program.
    pub corpus_cases: usize,
    /// Leave out the built-in single-instruction programs and embedded cases (`--corpus-only`).
    pub skip_builtin: bool,
    /// Shrink and save a counterexample for each mismatching program (off while a fuzzer
    /// shrinks a program and only needs the verdicts).
    pub counterexamples: bool,
    /// No progress on stderr (`--quiet`).
    pub quiet: bool,
    /// Run only this shard's programs (`--shard K/N`): the K-th of every N in the run's order
    /// (built-in programs, embedded cases, case files, corpus programs).
    pub shard: Option<reports::shard::Shard>,
    /// What runs the translation's kernels (`--executor`).
    pub runner: crate::runner::Runner,
    /// The Shader Model dxdiff writes its built-in pixel and vertex programs for
    /// (`--shader-model`): each is rewritten for it where its features allow
    /// ([`dxbc::retarget`]) and left out where they do not.
    pub shader_model: dxbc::TargetModel,
}

/// A verification session: the options, both executors, where counterexamples go, and where
/// the time went.
#[derive(Debug)]
pub struct Verifier {
    /// The settings this session runs with.
    pub opts: Options,
    /// The candidate: the translation on the GPU, through the isolated worker.
    pub gpu: GpuExecutor,
    /// The reference: the DXBC interpreter.
    pub interp: Interpreter,
    /// Where shrunk counterexamples are saved.
    pub cases_dir: PathBuf,
    /// Seconds per phase: translation, inputs, interpreter, gpu, judging, shrinking, cases.
    pub seconds: BTreeMap<String, f64>,
}

impl Verifier {
    /// Open the options' runner on `adapter`; counterexamples go to `cases_dir`.
    pub fn new(opts: Options, adapter: &str, cases_dir: &Path) -> Result<Verifier, GpuError> {
        Ok(Verifier {
            gpu: GpuExecutor {
                gpu: opts.runner.open(adapter)?,
            },
            opts,
            interp: Interpreter,
            cases_dir: cases_dir.to_path_buf(),
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

/// Run every single-instruction program, the case files and the corpus programs; with
/// `adapter` `all` or `jobs` above 1, spread over several workers ([`run_spread`]).
pub fn run(
    opts: &Options,
    out_dir: &Path,
    adapter: &str,
    jobs: usize,
) -> Result<RunReport, GpuError> {
    let workers = crate::spread::workers(adapter, jobs)?;
    if workers.is_empty() {
        return run_on(opts, out_dir, adapter);
    }
    run_spread(opts, out_dir, &workers)
}

/// `--adapter all` or `--jobs J`: worker `k` runs shard `k/N` of the run on its adapter
/// ([`crate::spread`]), and the shards are merged as `dxdiff merge` merges them, so the report
/// is the one-worker run's.
pub fn run_spread(
    opts: &Options,
    out_dir: &Path,
    workers: &[String],
) -> Result<RunReport, GpuError> {
    if opts.shard.is_some() {
        return Err(GpuError::Device(crate::spread::NO_SHARD.into()));
    }
    let started = Instant::now();
    let parts = crate::spread::spread(workers, opts.quiet, |shard, adapter| {
        // The first worker shows the progress: its position is in the run's own order (it
        // takes every N-th program, and the workers keep pace), and it ends on the run's total.
        let o = Options {
            shard: Some(shard),
            quiet: opts.quiet || shard.k != 0,
            ..opts.clone()
        };
        run_on(&o, out_dir, adapter)
    })?;
    let mut merged =
        reports::shard::merge_verify(parts).map_err(|e| GpuError::Device(e.to_string()))?;
    // The workers ran side by side: the run took the wall time, not the sum.
    merged
        .seconds
        .insert("total".into(), started.elapsed().as_secs_f64());
    Ok(merged)
}

/// [`run`] on one adapter.
fn run_on(opts: &Options, out_dir: &Path, adapter: &str) -> Result<RunReport, GpuError> {
    let mut v = Verifier::new(opts.clone(), adapter, &out_dir.join("cases"))?;
    let mut report = RunReport::new(opts.translator.name(), opts.seed, v.gpu.name(), opts.cases);
    let started = Instant::now();
    let mut left_out = Vec::new();
    let programs: Vec<generators::programs::SingleOp> = if opts.skip_builtin {
        Vec::new()
    } else {
        generators::programs::all_single()
            .into_iter()
            .filter_map(|op| {
                let name = op.opcode.mnemonic().to_string();
                at_model(opts, op, &name, &mut left_out)
            })
            .collect()
    };
    // Every unit of the run in its order; a shard runs the units it owns and records their
    // place, which merging sorts by.
    let shard = opts.shard;
    report.shard = shard.map(crate::part);
    let mut next = 0u64;
    let mut mine = || {
        let i = next;
        next += 1;
        shard.is_none_or(|s| s.owns(i as usize)).then_some(i)
    };
    let push = |report: &mut RunReport, index: u64, mut p: ProgramReport| {
        p.index = shard.map(|_| index);
        report.push(p);
    };
    let mut bar = Progress::new("opcodes", Some(programs.len() as u64), opts.quiet);
    for (i, op) in programs.iter().enumerate() {
        let Some(index) = mine() else { continue };
        bar.set(i as u64, op.opcode.mnemonic());
        let name = format!("single:{}", op.opcode.mnemonic());
        push(&mut report, index, guarded(&name, || v.single(op)));
    }
    bar.set(programs.len() as u64, "");
    bar.finish();
    // Each half of a two-destination opcode alone, the other `null`, as fxc writes most.
    if !opts.skip_builtin {
        for (name, op) in generators::programs::single_halves() {
            let Some(op) = at_model(opts, op, &name, &mut left_out) else {
                continue;
            };
            let Some(index) = mine() else { continue };
            push(
                &mut report,
                index,
                guarded(&format!("single:{name}"), || v.single_named(&name, &op)),
            );
        }
    }
    // One program per sampling and derivative opcode, over generated textures and samplers.
    if !opts.skip_builtin {
        for (mnemonic, blob) in crate::programs::sampling() {
            let blob = match blob.map(|b| dxbc::retarget(&b, opts.shader_model)) {
                Ok(Ok(Some(b))) => Ok(b),
                Ok(Ok(None)) => {
                    left_out.push(mnemonic.to_string());
                    continue;
                }
                Ok(Err(e)) => Err(format!("the built-in program does not decode: {e}")),
                Err(why) => Err(why),
            };
            let Some(index) = mine() else { continue };
            let name = format!("single:{mnemonic}");
            let p = match blob {
                Ok(b) => guarded(&name, || {
                    v.program_as(program::Origin::Builtin, mnemonic, &b)
                }),
                Err(why) => {
                    let mut p = ProgramReport::new(name);
                    p.skip(&oracles::verdict::Skip::new(
                        oracles::verdict::SkipKind::Malformed,
                        why,
                    ));
                    p
                }
            };
            push(&mut report, index, p);
        }
    }
    if !left_out.is_empty() && !opts.quiet {
        eprintln!(
            "dxdiff: --shader-model {}: {} built-in programs need a later model and were left out: {}",
            opts.shader_model,
            left_out.len(),
            left_out.join(", ")
        );
    }
    // The project's own case files, then those given on the command line.
    let t0 = Instant::now();
    if !opts.skip_builtin {
        for (name, json) in cases::EMBEDDED {
            let Some(index) = mine() else { continue };
            push(
                &mut report,
                index,
                guarded(&format!("case:{name}"), || v.case(name, json)),
            );
        }
    }
    for (name, case) in &opts.extra_cases {
        let Some(index) = mine() else { continue };
        let p = guarded(&format!("case:{name}"), || v.case_file(name, case));
        push(&mut report, index, p);
    }
    v.clock("cases", t0);
    // Further programs with generated inputs.
    let corpus = crate::programs::collect(&opts.corpus);
    let mut bar = Progress::new("corpus", Some(corpus.len() as u64), opts.quiet);
    for (i, (name, blob)) in corpus.iter().enumerate() {
        let Some(index) = mine() else { continue };
        bar.set(i as u64, name);
        let p = match blob {
            Ok(b) => guarded(&format!("corpus:{name}"), || v.program(name, b)),
            Err(e) => {
                let mut p = ProgramReport::new(format!("corpus:{name}"));
                p.skip(&oracles::verdict::Skip::new(
                    oracles::verdict::SkipKind::Unreadable,
                    e.clone(),
                ));
                p
            }
        };
        push(&mut report, index, p);
    }
    bar.set(corpus.len() as u64, "");
    bar.finish();
    for (k, s) in v.gpu.gpu.phases().named() {
        report.gpu_phases.insert(k.to_string(), s);
    }
    report.seconds = v.seconds;
    report
        .seconds
        .insert("total".into(), started.elapsed().as_secs_f64());
    Ok(report)
}

/// A single-instruction program written for the run's Shader Model, or `None` (its name in
/// `left_out`) where it needs a later one.
fn at_model(
    opts: &Options,
    mut op: generators::programs::SingleOp,
    name: &str,
    left_out: &mut Vec<String>,
) -> Option<generators::programs::SingleOp> {
    match dxbc::retarget(&op.blob, opts.shader_model) {
        Ok(Some(blob)) => {
            op.blob = blob;
            Some(op)
        }
        _ => {
            left_out.push(name.to_string());
            None
        }
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
