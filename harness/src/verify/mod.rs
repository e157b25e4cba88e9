//! `dxdiff verify`: single-instruction programs for every ALU opcode over many edge-biased
//! input vectors, the project's own case files, and corpus programs (`--corpus`) over
//! generated inputs; each runs on the reference interpreter and, through the translator, on
//! the GPU, through the differential driver ([`crate::driver`]). Every lane gets a verdict;
//! a mismatch is shrunk and saved as a `dxdiff-case/1` file that `dxdiff replay` reproduces.

use std::path::{Path, PathBuf};
use std::time::Instant;

use reports::verify::{ProgramReport, RunReport};

use crate::exec::Executor;
use crate::gpu::GpuError;
use crate::progress::Progress;
use crate::session::{Origin, Session, Settings, guarded};

/// What `verify` runs beyond the session's settings: which programs.
#[derive(Debug, Clone)]
pub struct Options {
    /// The session's settings; its shard is the K-th of every N programs in the run's order
    /// (built-in programs, embedded cases, case files, corpus programs).
    pub session: Settings,
    /// Case files given on the command line, read and parsed, run after the embedded ones.
    pub extra_cases: Vec<(String, oracles::case::CaseFile)>,
    /// Folders (or files) of further programs, each run over the session's `vectors`.
    pub corpus: Vec<PathBuf>,
    /// Leave out the built-in single-instruction programs and embedded cases (`--corpus-only`).
    pub skip_builtin: bool,
}

/// (name, JSON) of every embedded case.
pub const EMBEDDED: &[(&str, &str)] = &[
    ("flow", include_str!("../../../examples/cases/flow.json")),
    (
        "compute_tgsm_barrier",
        include_str!("../../../examples/cases/compute_tgsm_barrier.json"),
    ),
    (
        "compute_atomics",
        include_str!("../../../examples/cases/compute_atomics.json"),
    ),
    (
        "buffers_out_of_bounds",
        include_str!("../../../examples/cases/buffers_out_of_bounds.json"),
    ),
    (
        "constants_and_indexing",
        include_str!("../../../examples/cases/constants_and_indexing.json"),
    ),
];

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
    if opts.session.shard.is_some() {
        return Err(GpuError::Device(crate::spread::NO_SHARD.into()));
    }
    let started = Instant::now();
    let parts = crate::spread::spread(workers, opts.session.quiet, |shard, adapter| {
        // The first worker shows the progress: its position is in the run's own order (it
        // takes every N-th program, and the workers keep pace), and it ends on the run's total.
        let o = Options {
            session: opts.session.worker(shard, true),
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
    let s = &opts.session;
    let mut v = Session::new(s.clone(), adapter, &out_dir.join("cases"))?;
    v.answers_dir = Some(out_dir.to_path_buf());
    let mut report = RunReport::new(s.translator.name(), s.seed, v.gpu.name(), s.cases);
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
    let shard = s.shard;
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
    let mut bar = Progress::new("opcodes", Some(programs.len() as u64), s.quiet);
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
            let blob = match blob.map(|b| dxbc::retarget(&b, s.shader_model)) {
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
                Ok(b) => guarded(&name, || v.program_as(Origin::Builtin, mnemonic, &b)),
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
    if !left_out.is_empty() && !s.quiet {
        eprintln!(
            "dxdiff: --shader-model {}: {} built-in programs need a later model and were left out: {}",
            s.shader_model,
            left_out.len(),
            left_out.join(", ")
        );
    }
    // The project's own case files, then those given on the command line.
    let t0 = Instant::now();
    if !opts.skip_builtin {
        for (name, json) in EMBEDDED {
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
    let mut bar = Progress::new("corpus", Some(corpus.len() as u64), s.quiet);
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
    match dxbc::retarget(&op.blob, opts.session.shader_model) {
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
