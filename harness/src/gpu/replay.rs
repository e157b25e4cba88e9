//! Case files on the GPU: translate with the built-in translator, bind the run's inputs per the
//! manifest, dispatch, and check the expectations with the same rules as the interpreter path.
//! A translator rejection is a skip naming its catalog id; a GPU failure is a failed run that
//! says it was inconclusive.

use crate::translators::{Failure, Translator};
use oracles::case::CaseFile;
use oracles::interp::Srv;
use oracles::replay::{InvocationInputs, Observed, RunOutcome, check, resources};

use super::ComputeInputs;
use super::isolated::{IsolatedGpu as Gpu, Request};

/// A run's inputs as the GPU takes them: buffers by register (the interpreter's binding of the
/// same inputs, so both sides read them one way), and the `v#` registers of each invocation.
fn run_inputs(run: &oracles::case::Run) -> Result<(ComputeInputs, InvocationInputs), String> {
    let (res, invocations) = resources(run)?;
    if !res.samplers.is_empty() {
        return Err("samplers are not fed to the GPU yet".into());
    }
    let mut inputs = ComputeInputs {
        cbs: res.cbs,
        ..ComputeInputs::default()
    };
    for (slot, srv) in res.srvs {
        match srv {
            Srv::Buffer(b) => {
                inputs.srvs.insert(slot, (b.words, b.size_bytes));
            }
            Srv::Texture2d(_) => return Err("textures are not fed to the GPU yet".into()),
        }
    }
    for (slot, b) in res.uavs {
        inputs.uavs.insert(slot, (b.words, b.size_bytes));
    }
    Ok((inputs, invocations))
}

/// A case made ready for the GPU: its shader, the translation, and the compute wrapper of a
/// pixel or vertex program.
#[derive(Debug)]
pub struct Prepared {
    pub shader: dxbc::Shader,
    pub translation: translator::Translation,
    wrapped: Option<super::wrap::Wrapped>,
}

/// Decode, translate and wrap; `Err` is the outcome every run of the case gets.
pub fn prepare(case: &CaseFile, translator: &Translator) -> Result<Prepared, RunOutcome> {
    let blob = case.blob().map_err(RunOutcome::Failed)?;
    let shader = dxbc::Shader::parse(&blob)
        .map_err(|e| RunOutcome::Failed(format!("[{}] {e}", e.code())))?;
    let translation = translator.translate(&blob, &shader).map_err(|f| match f {
        Failure::Rejected { .. } => RunOutcome::Skipped(f.to_string()),
        Failure::Crashed { .. } => RunOutcome::Skipped(f.to_string()),
    })?;
    let wrapped =
        if shader.program.version.stage == dxbc::Stage::Compute {
            None
        } else {
            Some(super::wrap::wrap(&translation.wgsl).map_err(|why| {
                RunOutcome::Skipped(format!("cannot run as a compute kernel: {why}"))
            })?)
        };
    Ok(Prepared {
        shader,
        translation,
        wrapped,
    })
}

/// Run one run on the GPU; `Err` says why it produced nothing (a skip, or inconclusive).
pub fn observe_gpu(
    gpu: &mut Gpu,
    p: &Prepared,
    run: &oracles::case::Run,
) -> Result<Observed, RunOutcome> {
    if run.flags.iter().any(|f| f == "requires_double") {
        return Err(RunOutcome::Skipped("requires_double".into()));
    }
    let t = &p.translation;
    if let Some(w) = &p.wrapped {
        return stage_run(gpu, &t.manifest, w, run);
    }
    let (inputs, _) = run_inputs(run).map_err(RunOutcome::Skipped)?;
    match gpu.run(&Request {
        wgsl: t.wgsl.clone(),
        entry_point: t.manifest.entry_point.clone(),
        manifest: t.manifest.clone(),
        inputs,
        groups: run.dispatch.unwrap_or([1, 1, 1]),
        records: None,
    }) {
        Ok(out) => Ok(Observed {
            uavs: out.uavs,
            ..Observed::default()
        }),
        Err(e) => Err(RunOutcome::Failed(format!("inconclusive: {e}"))),
    }
}

/// Replay every run of a case on the GPU.
pub fn replay_gpu(
    case: &CaseFile,
    gpu: &mut Gpu,
    translator: &Translator,
) -> Vec<(String, RunOutcome)> {
    let p = match prepare(case, translator) {
        Ok(p) => p,
        Err(outcome) => {
            return case
                .runs
                .iter()
                .map(|r| (r.id.clone(), outcome.clone()))
                .collect();
        }
    };
    case.runs
        .iter()
        .map(|run| {
            let outcome = match observe_gpu(gpu, &p, run) {
                Ok(obs) => attribute(
                    check(run, &obs),
                    &p.shader,
                    run,
                    &p.translation,
                    &gpu.description,
                ),
                Err(outcome) => outcome,
            };
            (run.id.clone(), outcome)
        })
        .collect()
}

/// One pixel/vertex run: one record per invocation (`invocations`, or the run's own `v#`).
fn stage_run(
    gpu: &mut Gpu,
    manifest: &translator::Manifest,
    w: &super::wrap::Wrapped,
    run: &oracles::case::Run,
) -> Result<Observed, RunOutcome> {
    let (inputs, invocations) = run_inputs(run).map_err(RunOutcome::Skipped)?;
    let sources = w
        .input_sources(&manifest.inputs)
        .map_err(RunOutcome::Skipped)?;
    let mut records = Vec::new();
    for regs in &invocations {
        super::wrap::push_record(&sources, regs, &mut records);
    }
    let n = invocations.len() as u32;
    let groups = [n.div_ceil(64).max(1), 1, 1];
    let request = Request {
        wgsl: w.wgsl.clone(),
        entry_point: "dxdiff_kernel".into(),
        manifest: manifest.clone(),
        inputs,
        groups,
        records: Some(super::Records {
            input: records,
            out_words: n * w.out_stride,
            lane_buffers: Vec::new(),
        }),
    };
    match gpu.run(&request) {
        Ok(super::KernelOutput {
            uavs,
            records: Some(out),
            ..
        }) => {
            let mut obs = Observed {
                uavs,
                ..Observed::default()
            };
            // The first invocation's outputs, as the interpreter path reports them.
            for slot in &w.outputs {
                if let Some((r, comps)) = slot.register(&manifest.outputs) {
                    if obs.outputs.len() <= r {
                        obs.outputs.resize(r + 1, [0; 4]);
                    }
                    for (j, c) in comps.enumerate() {
                        obs.outputs[r][c] =
                            out.get((slot.offset as usize) + j).copied().unwrap_or(0);
                    }
                }
            }
            obs.discarded = out.get(w.discard_offset as usize).is_some_and(|d| *d != 0);
            Ok(obs)
        }
        Ok(_) => Err(RunOutcome::Failed(
            "inconclusive: no records came back".into(),
        )),
        Err(e) => Err(RunOutcome::Failed(format!("inconclusive: {e}"))),
    }
}

/// A failed comparison becomes `Adapted` when the interpreter, on the same run, entered a domain
/// of a catalog entry the translation relied on (the oracle's rule, per run: a pixel or vertex
/// run is one invocation).
fn attribute(
    outcome: RunOutcome,
    shader: &dxbc::Shader,
    run: &oracles::case::Run,
    t: &translator::Translation,
    adapter: &str,
) -> RunOutcome {
    let RunOutcome::Failed(why) = outcome else {
        return outcome;
    };
    if why.starts_with("inconclusive") {
        return RunOutcome::Failed(why);
    }
    let Ok(obs) = oracles::replay::observe(&shader.program, run, oracles::interp::DEFAULT_BUDGET)
    else {
        return RunOutcome::Failed(why);
    };
    let ids = crate::verify::oracle::allowing(obs.events, &t.adaptations, adapter);
    if ids.is_empty() {
        RunOutcome::Failed(why)
    } else {
        RunOutcome::Adapted(ids)
    }
}
