//! `dxdiff verify --corpus DIR`: programs from folders (DXBC blobs, or the program of each
//! `dxdiff-case/1` file), each over generated input vectors. A vector is a program's whole
//! input: its `v#` registers and its constant-buffer contents, so that the inputs of test
//! programs that read everything from uniforms vary too. On the GPU all vectors of a chunk go
//! into one dispatch: the wrapped kernel reads its constant buffers per invocation
//! (`wrap::wrap_with`). SRV buffers get one generated content per program.
//!
//! What the executor cannot feed yet is a counted, typed skip (see [`Skip`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use oracles::case::{BufferDesc, CaseFile, Input, Word};
use oracles::domain::Events;
use oracles::interp::{Buffer, Resources, Srv, run_invocations_on};
use translator::{Manifest, Translation};

use crate::translators::Failure;

use super::oracle::{ProgramBand, Verdict, attribute, judge_word};
use super::{Counts, Options, ProgramReport};
use crate::gpu::isolated::{IsolatedGpu, Request};
use crate::gpu::wrap::{Wrapped, push_record, wrap_with};
use crate::gpu::{ComputeInputs, Records};

/// Why a corpus program did not run: a stable kind for counting, and the detail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skip {
    pub kind: &'static str,
    pub detail: String,
}

impl Skip {
    pub fn new(kind: &'static str, detail: impl Into<String>) -> Skip {
        Skip {
            kind,
            detail: detail.into(),
        }
    }

    /// A translation that failed: `rejected` (with its catalog id) or `translator-crash`.
    pub(super) fn of_failure(f: &Failure) -> Skip {
        match f {
            Failure::Rejected {
                catalog_id, reason, ..
            } => Skip::new("rejected", format!("[{catalog_id}] {reason}")),
            Failure::Crashed { .. } => Skip::new("translator-crash", f.to_string()),
        }
    }

    /// A GPU request that failed: `device-rejected` when the device refused the translated
    /// module (the translator's failure: its WGSL passed naga but not the driver), otherwise
    /// `inconclusive` (a hang, a lost device, input the executor cannot feed).
    pub(super) fn of_gpu_error(e: &crate::gpu::GpuError) -> Skip {
        match e {
            crate::gpu::GpuError::Validation(_) => Skip::new("device-rejected", e.to_string()),
            _ => Skip::new("inconclusive", e.to_string()),
        }
    }

    /// `kind: detail`, the form reports print.
    pub fn text(&self) -> String {
        format!("{}: {}", self.kind, self.detail)
    }
}

/// Bytes of each generated SRV buffer.
const SRV_BYTES: u32 = 256;
/// Most words one GPU request carries (records and per-invocation constant buffers), which
/// bounds the worker's JSON and the binding sizes.
const WORDS_PER_REQUEST: usize = 1 << 21;
/// Instructions a vector may run on the first pass. Edge-valued loop bounds (2^31 trips) make
/// many vectors run forever; each costs only this much.
const FIRST_BUDGET: u64 = 1 << 16;
/// The budget of the second pass, for the first [`RETRIES`] vectors that ran out: enough for a
/// loop of 65,536 trips over a dozen instructions, so that long loops (the lavapipe loop
/// limit) are still reached. The rest stay inconclusive.
const CORPUS_BUDGET: u64 = 1 << 20;
const RETRIES: usize = 64;
/// Rounds of input shrinking per counterexample.
const SHRINK_ROUNDS: usize = 16;

/// Every program under `paths`: files that are DXBC containers, and the program of every
/// `dxdiff-case/1` file, as (name, blob), in path order.
pub fn collect(paths: &[PathBuf]) -> Vec<(String, Result<Vec<u8>, String>)> {
    fn walk(p: &Path, out: &mut Vec<PathBuf>) {
        if p.is_dir() {
            let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
                .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
                .unwrap_or_default();
            entries.sort();
            for e in entries {
                walk(&e, out);
            }
        } else {
            out.push(p.to_path_buf());
        }
    }
    let mut files = Vec::new();
    for p in paths {
        walk(p, &mut files);
    }
    let mut programs = Vec::new();
    for f in files {
        let name = f.display().to_string();
        let Ok(bytes) = std::fs::read(&f) else {
            programs.push((name, Err("cannot read the file".to_string())));
            continue;
        };
        if bytes.starts_with(b"DXBC") {
            programs.push((name, Ok(bytes)));
        } else if f.extension().is_some_and(|x| x == "json") {
            let blob = std::str::from_utf8(&bytes)
                .map_err(|e| e.to_string())
                .and_then(|t| CaseFile::parse(t).map_err(|e| e.to_string()))
                .and_then(|c| c.blob());
            programs.push((name, blob));
        }
    }
    programs
}

/// One input vector: `v#` registers and constant buffers by register.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Vector {
    regs: Vec<[u32; 4]>,
    cbs: BTreeMap<u32, Vec<u32>>,
}

/// A program ready to run: decoded, translated, wrapped, its fixed SRV contents chosen.
struct Ready {
    shader: dxbc::Shader,
    translation: Translation,
    wrapped: Wrapped,
    /// Constant buffers by register and their size in words.
    cbs: Vec<(u32, usize)>,
    srvs: BTreeMap<u32, Vec<u32>>,
    /// The manifest sent with each request: the constant buffers read per invocation removed.
    manifest: Manifest,
    /// For each per-invocation buffer: its constant-buffer register and words per invocation.
    lane_cbs: Vec<(u32, usize)>,
    band: ProgramBand,
}

/// Decode and translate; textures and samplers are a typed skip.
pub(super) fn decode_and_translate(
    blob: &[u8],
    opts: &Options,
) -> Result<(dxbc::Shader, Translation), Skip> {
    let shader = dxbc::Shader::parse(blob)
        .map_err(|e| Skip::new("malformed", format!("[{}] {e}", e.code())))?;
    let translation = opts
        .translator
        .translate(blob, &shader)
        .map_err(|f| Skip::of_failure(&f))?;
    if let Some(b) = translation
        .manifest
        .bindings
        .iter()
        .find(|b| b.kind == "sampler" || (b.kind == "srv" && !b.layout.starts_with("storage")))
    {
        return Err(Skip::new(
            "texture",
            format!(
                "textures and samplers are not fed to the GPU yet ({} {})",
                b.kind, b.layout
            ),
        ));
    }
    Ok((shader, translation))
}

fn prepare(blob: &[u8], opts: &Options) -> Result<Ready, Skip> {
    let (shader, translation) = decode_and_translate(blob, opts)?;
    let m = &translation.manifest;
    if m.bindings.iter().any(|b| b.kind == "uav") {
        return Err(Skip::new(
            "uav-order",
            "a pixel/vertex program that writes UAVs: results depend on invocation order",
        ));
    }
    let wrapped = wrap_with(&translation.wgsl, true).map_err(|e| Skip::new("wrap", e))?;
    let cbs: Vec<(u32, usize)> = m
        .bindings
        .iter()
        .filter(|b| b.kind == "cbuffer")
        .map(|b| (b.register, b.size_bytes.unwrap_or(16) as usize / 4))
        .collect();
    let mut lane_cbs = Vec::new();
    for u in &wrapped.lane_uniforms {
        let b = m
            .bindings
            .iter()
            .find(|b| b.kind == "cbuffer" && b.group == u.group && b.binding == u.binding)
            .ok_or_else(|| Skip::new("wrap", "a uniform the manifest does not list"))?;
        lane_cbs.push((b.register, u.stride_words as usize));
    }
    let mut manifest = m.clone();
    manifest.bindings.retain(|b| b.kind != "cbuffer");
    let srvs = m
        .bindings
        .iter()
        .filter(|b| b.kind == "srv")
        .map(|b| {
            let words = generators::values::sample(
                opts.seed ^ u64::from(b.register).wrapping_mul(0x51_7cc1),
                SRV_BYTES as usize / 4,
            );
            (b.register, words)
        })
        .collect();
    let band = ProgramBand::of(&shader.program);
    Ok(Ready {
        shader,
        translation,
        wrapped,
        cbs,
        srvs,
        manifest,
        lane_cbs,
        band,
    })
}

/// A plausible value for a system-value input (a pixel position is a pixel centre, an index is
/// small): the GPU would never produce a NaN position, and D3D defines nothing for one.
fn system_value(builtin: &str, word: u32) -> [u32; 4] {
    let small = word % 1024;
    match builtin {
        "position" => [
            (small as f32 + 0.5).to_bits(),
            (((word >> 10) % 1024) as f32 + 0.5).to_bits(),
            (((word >> 20) % 1024) as f32 / 1024.0).to_bits(),
            1.0f32.to_bits(),
        ],
        "front_facing" => [if word & 1 == 0 { 0 } else { u32::MAX }; 4],
        _ => [small; 4],
    }
}

fn vectors(r: &Ready, seed: u64, n: usize) -> Vec<Vector> {
    let inputs = &r.translation.manifest.inputs;
    let regs = inputs
        .iter()
        .filter_map(|i| i.register)
        .max()
        .map_or(0, |m| m as usize + 1);
    let cb_words: usize = r.cbs.iter().map(|(_, n)| n).sum();
    let per = regs * 4 + cb_words;
    let words = generators::values::sample(seed, n * per.max(1));
    (0..n)
        .map(|k| {
            let w = &words[k * per..(k + 1) * per];
            let mut v = Vector {
                regs: (0..regs)
                    .map(|r| [w[r * 4], w[r * 4 + 1], w[r * 4 + 2], w[r * 4 + 3]])
                    .collect(),
                cbs: BTreeMap::new(),
            };
            for i in inputs {
                if let (Some(reg), Some(b)) = (i.register, &i.builtin) {
                    let target = &mut v.regs[reg as usize];
                    let sv = system_value(b, target[0]);
                    for (c, (t, s)) in target.iter_mut().zip(sv).enumerate() {
                        if i.mask & (1 << c) != 0 {
                            *t = s;
                        }
                    }
                }
            }
            let mut at = regs * 4;
            for (reg, len) in &r.cbs {
                v.cbs.insert(*reg, w[at..at + len].to_vec());
                at += len;
            }
            v
        })
        .collect()
}

/// The interpreter's result for one vector.
#[derive(Debug, Clone, Default)]
struct Reference {
    outputs: Vec<[u32; 4]>,
    discarded: bool,
    events: Events,
    inconclusive: bool,
    error: Option<String>,
}

fn resources(r: &Ready, v: &Vector) -> Resources {
    let mut res = Resources {
        cbs: v.cbs.clone(),
        ..Resources::default()
    };
    for (reg, words) in &r.srvs {
        res.srvs.insert(
            *reg,
            Srv::Buffer(Buffer {
                words: words.clone(),
                size_bytes: SRV_BYTES,
                format: None,
            }),
        );
    }
    res
}

/// `f` over `items` on all cores, results in order; a chunk whose thread panicked gives
/// `fallback()` for each of its items.
pub(crate) fn par_map<T: Sync, R: Send>(
    items: &[T],
    f: impl Fn(&T) -> R + Sync,
    fallback: impl Fn() -> R,
) -> Vec<R> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(items.len().max(1));
    let per = items.len().div_ceil(threads).max(1);
    let f = &f;
    std::thread::scope(|s| {
        let handles: Vec<_> = items
            .chunks(per)
            .map(|chunk| {
                (
                    chunk.len(),
                    s.spawn(move || chunk.iter().map(f).collect::<Vec<_>>()),
                )
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|(n, h)| {
                h.join()
                    .unwrap_or_else(|_| (0..n).map(|_| fallback()).collect())
            })
            .collect()
    })
}

/// Run the interpreter on every vector, on all cores (each vector is its own small batch,
/// because each has its own constant buffers): everything with [`FIRST_BUDGET`], then the first
/// [`RETRIES`] vectors that ran out again with [`CORPUS_BUDGET`].
fn interpret(r: &Ready, vs: &[Vector]) -> Vec<Reference> {
    let mut refs = interpret_with(r, vs, FIRST_BUDGET);
    let again: Vec<usize> = (0..refs.len())
        .filter(|k| refs[*k].inconclusive)
        .take(RETRIES)
        .collect();
    let retry: Vec<Vector> = again.iter().map(|k| vs[*k].clone()).collect();
    for (k, re) in again
        .into_iter()
        .zip(interpret_with(r, &retry, CORPUS_BUDGET))
    {
        refs[k] = re;
    }
    refs
}

fn interpret_with(r: &Ready, vs: &[Vector], budget: u64) -> Vec<Reference> {
    let one = |v: &Vector| {
        let mut res = resources(r, v);
        match run_invocations_on(
            &r.shader.program,
            &mut res,
            std::slice::from_ref(&v.regs),
            budget,
            1,
        ) {
            Ok(b) => Reference {
                outputs: b.outputs_of(0).to_vec(),
                discarded: b.discarded.first().copied().unwrap_or(false),
                events: b.events.first().copied().unwrap_or(0),
                inconclusive: b.inconclusive.first().copied().unwrap_or(false),
                error: None,
            },
            Err(e) => Reference {
                error: Some(format!("[{}] {e}", e.code())),
                ..Reference::default()
            },
        }
    };
    par_map(vs, one, || Reference {
        error: Some("an interpreter thread panicked".into()),
        ..Reference::default()
    })
}

/// Run vectors on the GPU, chunked; each vector's output record, or why there is none.
fn on_gpu(
    gpu: &mut IsolatedGpu,
    r: &Ready,
    vs: &[Vector],
) -> Result<Vec<Vec<u32>>, crate::gpu::GpuError> {
    let w = &r.wrapped;
    let per_vector = w.in_stride as usize
        + w.out_stride as usize
        + r.lane_cbs.iter().map(|(_, n)| n).sum::<usize>();
    let chunk = (WORDS_PER_REQUEST / per_vector.max(1)).clamp(64, 65_535 * 64);
    let sources = w
        .input_sources(&r.translation.manifest.inputs)
        .map_err(crate::gpu::GpuError::Unfeedable)?;
    let mut out = Vec::with_capacity(vs.len());
    for part in vs.chunks(chunk) {
        let mut input = Vec::with_capacity(part.len() * w.in_stride as usize);
        for v in part {
            push_record(&sources, &v.regs, &mut input);
        }
        let lane_buffers = r
            .lane_cbs
            .iter()
            .map(|(reg, stride)| {
                let mut words = Vec::with_capacity(part.len() * stride);
                for v in part {
                    let cb = v.cbs.get(reg).map_or(&[][..], |c| c.as_slice());
                    let take = cb.len().min(*stride);
                    words.extend_from_slice(&cb[..take]);
                    words.resize(words.len() + stride - take, 0);
                }
                words
            })
            .collect();
        let n = part.len() as u32;
        let srvs = r
            .srvs
            .iter()
            .map(|(reg, words)| (*reg, (words.clone(), SRV_BYTES)))
            .collect();
        let result = gpu.run(&Request {
            wgsl: w.wgsl.clone(),
            entry_point: "dxdiff_kernel".into(),
            manifest: r.manifest.clone(),
            inputs: ComputeInputs {
                srvs,
                ..ComputeInputs::default()
            },
            groups: [n.div_ceil(64).max(1), 1, 1],
            records: Some(Records {
                input,
                out_words: n * w.out_stride,
                lane_buffers,
            }),
        })?;
        let records = result.records.unwrap_or_default();
        for k in 0..part.len() {
            let s = k * w.out_stride as usize;
            out.push(
                records
                    .get(s..s + w.out_stride as usize)
                    .map(<[u32]>::to_vec)
                    .unwrap_or_default(),
            );
        }
    }
    Ok(out)
}

/// The verdict on one vector: every output component judged, a discarded pixel's outputs
/// ignored (they are never written), a difference in discard judged like a word.
fn judge_vector(r: &Ready, reference: &Reference, got: &[u32], adapter: &str) -> Verdict {
    let w = &r.wrapped;
    let claimed = &r.translation.adaptations;
    let differ =
        |want: u32, have: u32| judge_word(&r.band, want, have, reference.events, claimed, adapter);
    let got_discard = got.get(w.discard_offset as usize).is_some_and(|d| *d != 0);
    if got_discard != reference.discarded {
        return attribute(reference.events, claimed, adapter);
    }
    if reference.discarded {
        return Verdict::Match;
    }
    let mut verdict = Verdict::Match;
    for slot in &w.outputs {
        let Some((reg, comps)) = slot.register(&r.translation.manifest.outputs) else {
            continue;
        };
        for (j, c) in comps.enumerate() {
            let want = reference.outputs.get(reg).map_or(0, |v| v[c]);
            let have = got.get(slot.offset as usize + j).copied().unwrap_or(0);
            verdict = verdict.worst(differ(want, have));
        }
    }
    verdict
}

/// Shrink a failing vector: zero input words, or replace them by small simple values, as
/// long as the vector still mismatches. Each round tries every single change in one dispatch,
/// then keeps all the changes that still failed if together they still fail, else the first.
fn shrink(gpu: &mut IsolatedGpu, r: &Ready, start: Vector) -> Vector {
    let simpler = |w: u32| -> Vec<u32> {
        let mut c = vec![0u32, 0x3f80_0000, 1];
        c.retain(|x| *x != w && x.count_ones() < w.count_ones().max(1) + 1 && *x < w.max(1));
        c
    };
    let mutations = |v: &Vector| -> Vec<(usize, u32)> {
        let mut out = Vec::new();
        let flat = flatten(v);
        for (i, w) in flat.iter().enumerate() {
            for s in simpler(*w) {
                out.push((i, s));
            }
        }
        out
    };
    let fails = |gpu: &mut IsolatedGpu, vs: &[Vector]| -> Vec<bool> {
        let refs = interpret(r, vs);
        match on_gpu(gpu, r, vs) {
            Ok(got) => refs
                .iter()
                .zip(&got)
                .map(|(re, g)| {
                    re.error.is_none()
                        && !re.inconclusive
                        && judge_vector(r, re, g, &gpu.description) == Verdict::Mismatch
                })
                .collect(),
            Err(_) => vec![false; vs.len()],
        }
    };
    let mut current = start;
    for _ in 0..SHRINK_ROUNDS {
        let muts = mutations(&current);
        if muts.is_empty() {
            break;
        }
        let candidates: Vec<Vector> = muts
            .iter()
            .map(|(i, s)| unflatten(&current, &[(*i, *s)]))
            .collect();
        let ok = fails(gpu, &candidates);
        let kept: Vec<(usize, u32)> = muts
            .iter()
            .zip(&ok)
            .filter(|(_, f)| **f)
            .map(|(m, _)| *m)
            .collect();
        if kept.is_empty() {
            break;
        }
        // One change per word: the first that failed.
        let mut per_word: BTreeMap<usize, u32> = BTreeMap::new();
        for (i, s) in &kept {
            per_word.entry(*i).or_insert(*s);
        }
        let all: Vec<(usize, u32)> = per_word.into_iter().collect();
        let combined = unflatten(&current, &all);
        if fails(gpu, std::slice::from_ref(&combined))
            .first()
            .copied()
            .unwrap_or(false)
        {
            current = combined;
        } else {
            current = unflatten(&current, &kept[..1]);
        }
    }
    current
}

fn flatten(v: &Vector) -> Vec<u32> {
    let mut out: Vec<u32> = v.regs.iter().flatten().copied().collect();
    for words in v.cbs.values() {
        out.extend_from_slice(words);
    }
    out
}

fn unflatten(v: &Vector, changes: &[(usize, u32)]) -> Vector {
    let mut flat = flatten(v);
    for (i, w) in changes {
        if let Some(x) = flat.get_mut(*i) {
            *x = *w;
        }
    }
    let mut out = v.clone();
    let mut at = 0;
    for reg in &mut out.regs {
        reg.copy_from_slice(&flat[at..at + 4]);
        at += 4;
    }
    for words in out.cbs.values_mut() {
        let n = words.len();
        words.copy_from_slice(&flat[at..at + n]);
        at += n;
    }
    out
}

/// Save a shrunk counterexample as a `dxdiff-case/1` file whose expectations are the
/// interpreter's results, so `dxdiff replay --executor gpu` reproduces the mismatch.
fn save(dir: &Path, name: &str, blob: &[u8], r: &Ready, v: &Vector) -> Option<String> {
    let reference = interpret(r, std::slice::from_ref(v)).pop()?;
    let mut inputs = BTreeMap::new();
    for (reg, value) in v.regs.iter().enumerate() {
        inputs.insert(format!("v{reg}"), Input::Words(Word::list(value)));
    }
    for (reg, cb) in &v.cbs {
        let used = cb.iter().rposition(|w| *w != 0).map_or(0, |p| p + 1);
        inputs.insert(format!("cb{reg}"), Input::Words(Word::list(&cb[..used])));
    }
    for (reg, srv) in &r.srvs {
        inputs.insert(
            format!("t{reg}"),
            Input::Buffer(BufferDesc {
                size_bytes: SRV_BYTES,
                words: Word::list(srv),
                format: None,
            }),
        );
    }
    let mut expect = BTreeMap::new();
    if reference.discarded {
        expect.insert(
            "discarded".to_string(),
            oracles::case::Expect::Discarded(true),
        );
    } else {
        for i in &r.translation.manifest.outputs {
            let Some(reg) = i.register else { continue };
            let value = reference
                .outputs
                .get(reg as usize)
                .copied()
                .unwrap_or([0; 4]);
            expect.insert(format!("o{reg}"), oracles::case::Expect::bits(&value));
        }
    }
    save_case(dir, name, blob, inputs, None, expect)
}

/// Write a one-run case for a corpus program as `dir/corpus-<file stem>.json`: its inputs, the
/// dispatch (compute), and the interpreter's results as expectations.
pub(super) fn save_case(
    dir: &Path,
    name: &str,
    blob: &[u8],
    inputs: BTreeMap<String, Input>,
    dispatch: Option<[u32; 3]>,
    expect: BTreeMap<String, oracles::case::Expect>,
) -> Option<String> {
    let run = oracles::case::Run {
        id: "mismatch".into(),
        inputs,
        dispatch,
        invocations: None,
        expect: Some(expect),
        flags: Vec::new(),
        upstream_flags: None,
        source: Some(format!("dxdiff verify --corpus, from {name}")),
    };
    let stem: String = Path::new(name)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "program".into())
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    super::write_case(
        dir,
        &format!("corpus-{stem}"),
        &CaseFile::single(&stem, blob, run),
    )
}

/// Verify one corpus program over `opts.corpus_cases` generated vectors.
pub fn program(
    gpu: &mut IsolatedGpu,
    name: &str,
    blob: &[u8],
    opts: &Options,
    cases_dir: &Path,
    time: &mut BTreeMap<String, f64>,
) -> ProgramReport {
    let mut report = ProgramReport {
        name: format!("corpus:{name}"),
        counts: Counts::default(),
        adapted_by: BTreeMap::new(),
        skipped: None,
        skip_kind: None,
        counterexample: None,
    };
    let t0 = std::time::Instant::now();
    if dxbc::Shader::parse(blob).is_ok_and(|s| s.program.version.stage == dxbc::Stage::Compute) {
        return super::compute::program(gpu, name, blob, opts, cases_dir, time, report);
    }
    let ready = match prepare(blob, opts) {
        Ok(r) => r,
        Err(skip) => {
            report.skip(skip);
            return report;
        }
    };
    *time.entry("translation".into()).or_default() += t0.elapsed().as_secs_f64();
    let seed = opts.seed ^ fnv(file_name(name).as_bytes());
    let t_in = std::time::Instant::now();
    let vs = vectors(&ready, seed, opts.corpus_cases);
    *time.entry("inputs".into()).or_default() += t_in.elapsed().as_secs_f64();
    let t1 = std::time::Instant::now();
    let refs = interpret(&ready, &vs);
    *time.entry("interpreter".into()).or_default() += t1.elapsed().as_secs_f64();
    // Vectors the interpreter could not finish are inconclusive; they do not go to the GPU
    // (a loop the interpreter gave up on may hang the GPU).
    let mut live = Vec::new();
    for (k, re) in refs.iter().enumerate() {
        report.counts.lanes += 1;
        if let Some(e) = &re.error {
            report.counts.inconclusive += 1;
            report
                .skipped
                .get_or_insert_with(|| format!("interpreter: {e}"));
        } else if re.inconclusive {
            report.counts.inconclusive += 1;
        } else {
            live.push(k);
        }
    }
    let live_vs: Vec<Vector> = live.iter().map(|k| vs[*k].clone()).collect();
    let t2 = std::time::Instant::now();
    let got = on_gpu(gpu, &ready, &live_vs);
    *time.entry("gpu".into()).or_default() += t2.elapsed().as_secs_f64();
    let got = match got {
        Ok(g) => g,
        Err(e) => {
            report.counts.inconclusive += live.len() as u64;
            report.skip(Skip::of_gpu_error(&e));
            return report;
        }
    };
    let t_judge = std::time::Instant::now();
    let mut first_failure = None;
    for (k, g) in live.iter().zip(&got) {
        if report.tally(judge_vector(&ready, &refs[*k], g, &gpu.description)) {
            first_failure.get_or_insert(*k);
        }
    }
    *time.entry("judging".into()).or_default() += t_judge.elapsed().as_secs_f64();
    if let Some(k) = first_failure
        && opts.counterexamples
    {
        let t3 = std::time::Instant::now();
        let small = shrink(gpu, &ready, vs[k].clone());
        report.counterexample = save(cases_dir, name, blob, &ready, &small);
        *time.entry("shrinking".into()).or_default() += t3.elapsed().as_secs_f64();
    }
    report
}

/// The file name of a program's path: its inputs depend on it and the seed, not on where the
/// folder lies, so a run reproduces from another checkout.
pub(super) fn file_name(name: &str) -> String {
    Path::new(name)
        .file_name()
        .map_or_else(|| name.to_string(), |n| n.to_string_lossy().into_owned())
}

/// A stable 64-bit hash of a name, so each program's inputs depend on the seed and the name.
pub(super) fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3)
    })
}
