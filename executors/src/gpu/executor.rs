//! The GPU as an [`Executor`]: the translator's WGSL run through wgpu in the isolated worker.
//!
//! Compute programs run as they are, one request per vector (one dispatch). Pixel and vertex
//! programs are wrapped into compute kernels once ([`super::wrap`]); their vectors go in
//! chunks, one record per invocation, and constant buffers are read per invocation, so every
//! vector may have its own.

use oracles::interp::{Resources, Srv, TextureShape};
use oracles::verdict::{Inconclusive, Skip, SkipKind};
use translator::manifest::BindingKind;
use translator::{Manifest, Translation};

use super::isolated::{IsolatedGpu, Request};
use super::wrap::{self, Source, Wrapped};
use super::{BindingClass, ComputeInputs, GpuError, Records};
use super::{KernelOutput, Phases};
use crate::exec::{Batch, Executor, Prepared, Results, Unit};

/// Most words one GPU request carries (records and per-invocation constant buffers), which
/// bounds the worker's messages and the binding sizes.
const WORDS_PER_REQUEST: usize = 1 << 21;
/// Invocations per workgroup of a wrapped kernel.
const WORKGROUP: usize = 64;
/// Most workgroups in one dimension of a dispatch.
const MAX_GROUPS: usize = 65_535;

/// Compute vectors handed to the runner at once: a browser pulls them as one batch.
const REQUESTS_AT_ONCE: usize = 16;

/// Something that runs compute kernels as [`super::plan`] feeds them: the isolated wgpu
/// worker, or a browser's WebGPU ([`crate::chrome::Chrome`]). Everything above it (wrapping
/// pixel and vertex programs, chunking vectors, reading records) is the executor's and shared.
pub trait KernelRunner: std::fmt::Debug + Send {
    /// The adapter, as reports name it.
    fn description(&self) -> String;

    /// Run one kernel.
    fn run(&mut self, request: &Request) -> Result<KernelOutput, GpuError>;

    /// Run kernels in order. The answer stops after the first error that ends the device (a
    /// hang, a loss): what follows would meet it again. A runner that can take a batch in one
    /// exchange overrides this.
    fn run_all(&mut self, requests: &[Request]) -> Vec<Result<KernelOutput, GpuError>> {
        let mut out = Vec::with_capacity(requests.len());
        for r in requests {
            let got = self.run(r);
            let stop = got.as_ref().is_err_and(ends_device);
            out.push(got);
            if stop {
                break;
            }
        }
        out
    }

    /// Where the time of every request so far went.
    fn phases(&self) -> Phases;

    /// Whether the runner reads WGSL with naga (wgpu does; a browser reads it with Tint), so
    /// it needs the constructs naga lacks lowered, and cannot run what naga cannot read.
    fn reads_with_naga(&self) -> bool {
        true
    }
}

/// Whether an error leaves the device unusable for the next request of the same program.
pub fn ends_device(e: &GpuError) -> bool {
    matches!(
        e,
        GpuError::Timeout(_) | GpuError::DeviceLost(_) | GpuError::Device(_)
    )
}

impl KernelRunner for IsolatedGpu {
    fn description(&self) -> String {
        self.description.clone()
    }

    fn run(&mut self, request: &Request) -> Result<KernelOutput, GpuError> {
        IsolatedGpu::run(self, request)
    }

    fn phases(&self) -> Phases {
        self.phases
    }
}

/// A GPU (through wgpu's worker, or a browser) as the candidate executor.
#[derive(Debug)]
pub struct GpuExecutor {
    /// What runs the kernels.
    pub gpu: Box<dyn KernelRunner>,
}

/// How a GPU error ends a program: the device refusing a module naga accepted is the
/// translator's failure; anything else (a hang, a lost device) is inconclusive.
pub fn skip_of(e: &GpuError) -> Skip {
    match e {
        GpuError::Validation(_) => Skip::new(SkipKind::DeviceRejected, e.to_string()),
        GpuError::Feature(_) => Skip::new(SkipKind::Feature, e.to_string()),
        _ => Skip::new(SkipKind::Inconclusive, e.to_string()),
    }
}

/// A wrapped pixel or vertex kernel with its record layout resolved.
#[derive(Debug)]
struct Stage {
    wrapped: Wrapped,
    /// A compute kernel, or a fragment kernel drawn over quads (a pixel program that takes
    /// derivatives).
    kernel: wrap::Kernel,
    sources: Vec<Source>,
    /// Per-invocation constant buffers: register and words per invocation.
    lane_cbs: Vec<(u32, usize)>,
    /// Output slots: record offset, register, components.
    outputs: Vec<(usize, usize, std::ops::Range<usize>)>,
    registers: usize,
    observed: Vec<u8>,
}

#[derive(Debug)]
struct Ready {
    translation: Translation,
    /// The WGSL the runner gets: the translation's, with what naga cannot read lowered for a
    /// runner that reads with naga ([`translator::compat`]).
    wgsl: String,
    /// The manifest sent with each request (per-invocation constant buffers removed).
    manifest: Manifest,
    stage: Option<Stage>,
}

/// The resources of a vector as the worker binds them (constant buffers only when they are
/// not read per invocation).
fn compute_inputs(res: &Resources, with_cbs: bool) -> Result<ComputeInputs, Skip> {
    let mut inputs = ComputeInputs::default();
    if with_cbs {
        inputs.cbs = res.cbs.clone();
    }
    inputs.counters = res.counters.clone();
    for (slot, smp) in &res.samplers {
        inputs.samplers.insert(*slot, super::SamplerState::of(smp));
    }
    for (slot, srv) in &res.srvs {
        match srv {
            Srv::Buffer(b) => {
                inputs.srvs.insert(*slot, (b.words.clone(), b.size_bytes));
                if let Some(f) = b.format {
                    inputs.elements.insert((BindingClass::Srv, *slot), f);
                }
            }
            Srv::Texture2d(t) => {
                let shape = super::TextureShape {
                    format: t.format,
                    width: t.width,
                    height: t.height,
                    mips: t.mips.len() as u32,
                    layers: t.layer_count(),
                    array: t.array(),
                    cube: t.cube(),
                    volume: t.volume(),
                    line: t.line(),
                    multisampled: t.multisampled(),
                };
                let words = t.mips.iter().flatten().copied().collect();
                inputs.textures.insert(*slot, (shape, words));
            }
        }
    }
    for (slot, b) in &res.uavs {
        inputs.uavs.insert(*slot, (b.words.clone(), b.size_bytes));
        if let Some(t) = b.texture {
            let shape = super::TextureShape {
                format: t.format,
                width: t.width,
                height: t.height,
                mips: 1,
                layers: t.layers.max(1),
                array: matches!(t.view, TextureShape::Array | TextureShape::LineArray),
                cube: false,
                volume: t.view == TextureShape::Volume,
                line: matches!(t.view, TextureShape::Line | TextureShape::LineArray),
                multisampled: false,
            };
            inputs.uav_textures.insert(*slot, shape);
        }
        if let Some(f) = b.format {
            inputs.elements.insert((BindingClass::Uav, *slot), f);
        }
    }
    Ok(inputs)
}

fn prepare_stage(
    t: &Translation,
    wgsl: &str,
    kernel: wrap::Kernel,
) -> Result<(Stage, Manifest), Skip> {
    let m = &t.manifest;
    let per_lane = m.bindings.iter().any(|b| b.kind == BindingKind::Cbuffer);
    let wrapped = wrap::wrap_as(wgsl, per_lane, kernel).map_err(|e| {
        let what = match kernel {
            wrap::Kernel::Compute => "a compute kernel",
            wrap::Kernel::Quads => "a fragment kernel over quads",
        };
        Skip::new(SkipKind::Wrap, format!("cannot run as {what}: {e}"))
    })?;
    let mut lane_cbs = Vec::new();
    for u in &wrapped.lane_uniforms {
        let b = m
            .bindings
            .iter()
            .find(|b| {
                b.kind == BindingKind::Cbuffer && b.group == u.group && b.binding == u.binding
            })
            .ok_or_else(|| Skip::new(SkipKind::Wrap, "a uniform the manifest does not list"))?;
        lane_cbs.push((b.register, u.stride_words as usize));
    }
    let mut manifest = m.clone();
    if per_lane {
        manifest.bindings.retain(|b| b.kind != BindingKind::Cbuffer);
    }
    let sources = wrapped
        .input_sources(&m.inputs)
        .map_err(|why| Skip::new(SkipKind::Wrap, format!("cannot feed: {why}")))?;
    let outputs: Vec<(usize, usize, std::ops::Range<usize>)> = wrapped
        .outputs
        .iter()
        .flat_map(|slot| {
            slot.targets(&m.outputs)
                .into_iter()
                .map(|(at, (r, comps))| ((slot.offset + at) as usize, r, comps))
        })
        .collect();
    let registers = outputs.iter().map(|(_, r, _)| r + 1).max().unwrap_or(0);
    let mut observed = vec![0u8; registers];
    for (_, r, comps) in &outputs {
        for c in comps.clone() {
            observed[*r] |= 1 << c;
        }
    }
    Ok((
        Stage {
            wrapped,
            kernel,
            sources,
            lane_cbs,
            outputs,
            registers,
            observed,
        },
        manifest,
    ))
}

impl GpuExecutor {
    fn run_compute(&mut self, r: &Ready, batch: &Batch) -> Result<Results, Skip> {
        let t = &r.translation;
        let mut out = Results::new(batch.vectors, 1, 0);
        let keys: Vec<usize> = (0..batch.vectors).collect();
        for part in keys.chunks(REQUESTS_AT_ONCE) {
            let requests = part
                .iter()
                .map(|&k| {
                    Ok(Request {
                        wgsl: r.wgsl.clone(),
                        entry_point: t.manifest.entry_point.to_string(),
                        manifest: r.manifest.clone(),
                        inputs: compute_inputs(batch.resources_of(k), true)?,
                        groups: batch.groups,
                        records: None,
                    })
                })
                .collect::<Result<Vec<_>, Skip>>()?;
            let answers = self.gpu.run_all(&requests);
            let answered = answers.len();
            let mut stopped = None;
            for (&k, got) in part.iter().zip(answers) {
                match got {
                    Ok(g) => out.uavs[k] = g.uavs,
                    Err(e) if k == 0 => return Err(skip_of(&e)),
                    Err(e) if ends_device(&e) => {
                        stopped = Some((k, e));
                        break;
                    }
                    Err(e) => out.missing[k] = Some(Inconclusive::Candidate(e.to_string())),
                }
            }
            if stopped.is_none() && answered < part.len() {
                let e = GpuError::DeviceLost("the runner answered fewer kernels than asked".into());
                stopped = Some((part[answered], e));
            }
            if let Some((k, e)) = stopped {
                // A dispatch that hangs or kills the device would do so again: the rest
                // of the vectors are inconclusive too.
                for m in &mut out.missing[k..] {
                    *m = Some(Inconclusive::Candidate(e.to_string()));
                }
                out.stopped = Some(skip_of(&e));
                break;
            }
        }
        Ok(out)
    }

    fn run_stage(&mut self, r: &Ready, s: &Stage, batch: &Batch) -> Result<Results, Skip> {
        let w = &s.wrapped;
        let inv = batch.invocations.max(1);
        let lane_words: usize = s.lane_cbs.iter().map(|(_, n)| n).sum();
        let per_vector = inv * (w.in_stride as usize + w.out_stride as usize + lane_words);
        let mut chunk =
            (WORDS_PER_REQUEST / per_vector.max(1)).clamp(1, (MAX_GROUPS * WORKGROUP / inv).max(1));
        if s.kernel == wrap::Kernel::Quads {
            // Whole quads per request, as the interpreter groups lanes.
            chunk = (chunk / 4 * 4).max(4);
        }
        // A program that writes UAVs runs one vector per request, with that vector's own
        // UAVs: its invocations alone share them, as in the reference, and no other vector's
        // stores land in them (D3D orders no pixels' or vertices' accesses).
        if r.manifest
            .bindings
            .iter()
            .any(|b| b.kind == BindingKind::Uav)
        {
            chunk = 1;
        }
        let mut out = Results::new(batch.vectors, inv, s.registers);
        out.observed = s.observed.clone();
        let keys: Vec<usize> = (0..batch.vectors).collect();
        for (c, part) in keys.chunks(chunk).enumerate() {
            let first = part[0];
            let mut input = Vec::with_capacity(part.len() * inv * w.in_stride as usize);
            for &k in part {
                for i in 0..inv {
                    wrap::push_record(&s.sources, batch.invocation(k, i), &mut input);
                }
            }
            let lane_buffers = s
                .lane_cbs
                .iter()
                .map(|(reg, stride)| {
                    let mut words = Vec::with_capacity(part.len() * inv * stride);
                    for &k in part {
                        let cb = batch.resources_of(k).cbs.get(reg);
                        let cb = cb.map_or(&[][..], |c| c.as_slice());
                        let take = cb.len().min(*stride);
                        for _ in 0..inv {
                            words.extend_from_slice(&cb[..take]);
                            words.resize(words.len() + stride - take, 0);
                        }
                    }
                    words
                })
                .collect();
            let n = part.len() * inv;
            let got = self.gpu.run(&Request {
                wgsl: w.wgsl.clone(),
                entry_point: s.kernel.entry_point().into(),
                manifest: r.manifest.clone(),
                inputs: compute_inputs(batch.resources_of(first), s.lane_cbs.is_empty())?,
                groups: [n.div_ceil(WORKGROUP).max(1) as u32, 1, 1],
                records: Some(Records {
                    group: w.records_group,
                    input,
                    out_words: (n as u32) * w.out_stride,
                    lane_buffers,
                    grid: (s.kernel == wrap::Kernel::Quads).then(|| wrap::Kernel::grid(n)),
                }),
            });
            let got = match got {
                Ok(g) => g,
                Err(e) if c == 0 => return Err(skip_of(&e)),
                Err(e) => {
                    for m in &mut out.missing[first..] {
                        *m = Some(Inconclusive::Candidate(e.to_string()));
                    }
                    out.stopped = Some(skip_of(&e));
                    break;
                }
            };
            let Some(records) = got.records else {
                return Err(Skip::new(SkipKind::Inconclusive, "no records came back"));
            };
            let stride = w.out_stride as usize;
            for (j, &k) in part.iter().enumerate() {
                out.uavs[k] = got.uavs.clone();
                for i in 0..inv {
                    let rec = (j * inv + i) * stride;
                    let d = k * inv + i;
                    out.discarded[d] = records
                        .get(rec + w.discard_offset as usize)
                        .is_some_and(|x| *x != 0);
                    for (offset, reg, comps) in &s.outputs {
                        for (m, comp) in comps.clone().enumerate() {
                            out.outputs[d * s.registers + reg][comp] =
                                records.get(rec + offset + m).copied().unwrap_or(0);
                        }
                    }
                }
            }
        }
        Ok(out)
    }
}

impl Executor for GpuExecutor {
    fn name(&self) -> String {
        self.gpu.description()
    }

    fn prepare(&mut self, unit: &Unit<'_>) -> Result<Prepared, Skip> {
        let Some(t) = unit.translation else {
            return Err(Skip::new(
                SkipKind::Wrap,
                "the GPU runs a translation; there is none",
            ));
        };
        // 2D textures, arrays, cubes and 3D textures are bound in their formats, and samplers;
        // 1D textures are not yet.
        if let Some(b) = t.manifest.bindings.iter().find(|b| {
            b.kind == BindingKind::Srv
                && !b.layout.is_storage()
                && super::plan::Texel::of(&b.layout).is_none()
        }) {
            return Err(Skip::new(
                SkipKind::Unfed,
                format!(
                    "a `{}` {} binding: 1D textures are not bound on the GPU yet",
                    b.layout, b.kind
                ),
            ));
        }
        let compute = unit.shader.program.version.stage == dxbc::Stage::Compute;
        // Valid WGSL that naga cannot read runs only where nothing reads it with naga: a
        // compute module in a browser. Pixel and vertex modules are wrapped through naga.
        if let Some(why) = &t.naga_unreadable
            && (self.gpu.reads_with_naga() || !compute)
        {
            let route = if compute {
                "run it with --executor chrome"
            } else {
                "the pixel/vertex wrapper reads it with naga"
            };
            return Err(Skip::new(SkipKind::Feature, format!("{why} ({route})")));
        }
        let wgsl = if self.gpu.reads_with_naga() || !compute {
            translator::compat::for_naga(&t.wgsl).0.into_owned()
        } else {
            t.wgsl.clone()
        };
        let ready = if compute {
            Ready {
                translation: t.clone(),
                wgsl,
                manifest: t.manifest.clone(),
                stage: None,
            }
        } else {
            // A pixel program that takes derivatives is drawn over quads.
            let program = &unit.shader.program;
            let kernel = if crate::exec::needs_quads(program) {
                wrap::Kernel::Quads
            } else {
                wrap::Kernel::Compute
            };
            let (stage, manifest) = prepare_stage(t, &wgsl, kernel)?;
            Ready {
                translation: t.clone(),
                wgsl,
                manifest,
                stage: Some(stage),
            }
        };
        Ok(Prepared(Box::new(ready)))
    }

    fn run(&mut self, prepared: &Prepared, batch: &Batch, _budget: u64) -> Result<Results, Skip> {
        let Some(r) = prepared.0.downcast_ref::<Ready>() else {
            return Err(Skip::new(
                SkipKind::Inconclusive,
                "not prepared by the GPU executor",
            ));
        };
        if batch.vectors == 0 {
            return Ok(Results::new(0, batch.invocations, 0));
        }
        match &r.stage {
            None => self.run_compute(r, batch),
            Some(s) => self.run_stage(r, s, batch),
        }
    }
}
