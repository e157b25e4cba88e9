//! Compute programs from `--corpus`: a vector is one dispatch of one thread group with its own
//! generated constant buffers, SRV buffers and initial UAV contents (every thread of the group
//! reads different words, so a dispatch of T threads covers T thread inputs). The UAV words
//! after the dispatch are compared, word by word, with the interpreter's.
//!
//! Each dispatch is its own GPU request (the pipeline is cached), so the number of dispatches
//! is capped at [`MAX_DISPATCHES`]: a program gets `max(corpus_cases / threads, 16)` of them up
//! to the cap. Counterexamples are saved as they are (not shrunk yet).

use std::collections::BTreeMap;
use std::path::Path;

use oracles::case::{BufferDesc, Input, Word};
use oracles::interp::{Buffer, Resources, Srv, run_dispatch};
use translator::Translation;

use super::corpus::{Skip, decode_and_translate, file_name, fnv, par_map, save_case};
use super::oracle::{ProgramBand, Verdict, judge_word};
use super::{Options, ProgramReport};
use crate::gpu::ComputeInputs;
use crate::gpu::isolated::{IsolatedGpu, Request};

/// Most dispatches per compute program.
pub const MAX_DISPATCHES: usize = 256;
/// Lane-instructions (instructions × threads of the group) a dispatch may run in the
/// interpreter on the first pass; the first [`RETRIES`] dispatches that run out get [`BUDGET`].
/// Edge-valued loop bounds make many dispatches run forever, and each costs only the first
/// budget.
const FIRST_BUDGET: u64 = 1 << 22;
const BUDGET: u64 = 1 << 26;
const RETRIES: usize = 4;
/// The largest generated buffer.
const MAX_BYTES: u32 = 1 << 14;

/// One dispatch's inputs: words and view size in bytes, by register.
#[derive(Debug, Clone)]
struct Dispatch {
    cbs: BTreeMap<u32, Vec<u32>>,
    srvs: BTreeMap<u32, (Vec<u32>, u32)>,
    uavs: BTreeMap<u32, (Vec<u32>, u32)>,
}

/// The generated size of a buffer binding: two elements per thread, at least 256 bytes.
fn buffer_bytes(b: &translator::manifest::Binding, threads: u32) -> u32 {
    let element = b.stride.unwrap_or(16).max(4);
    (threads.saturating_mul(2).saturating_mul(element))
        .clamp(256, MAX_BYTES)
        .next_multiple_of(4)
}

fn dispatches(t: &Translation, threads: u32, seed: u64, n: usize) -> Vec<Dispatch> {
    let m = &t.manifest;
    let mut sizes = Vec::new();
    for b in &m.bindings {
        let bytes = match b.kind.as_str() {
            "cbuffer" => b.size_bytes.unwrap_or(16),
            _ => buffer_bytes(b, threads),
        };
        sizes.push((b.kind.clone(), b.register, bytes));
    }
    let per: usize = sizes.iter().map(|(_, _, b)| *b as usize / 4).sum();
    let words = generators::values::sample(seed, n * per.max(1));
    (0..n)
        .map(|k| {
            let mut at = k * per;
            let mut d = Dispatch {
                cbs: BTreeMap::new(),
                srvs: BTreeMap::new(),
                uavs: BTreeMap::new(),
            };
            for (kind, reg, bytes) in &sizes {
                let w = words[at..at + *bytes as usize / 4].to_vec();
                at += *bytes as usize / 4;
                match kind.as_str() {
                    "cbuffer" => {
                        d.cbs.insert(*reg, w);
                    }
                    "srv" => {
                        d.srvs.insert(*reg, (w, *bytes));
                    }
                    _ => {
                        d.uavs.insert(*reg, (w, *bytes));
                    }
                }
            }
            d
        })
        .collect()
}

fn resources(d: &Dispatch) -> Resources {
    let buffer = |(words, size): &(Vec<u32>, u32)| Buffer {
        words: words.clone(),
        size_bytes: *size,
        format: None,
    };
    Resources {
        cbs: d.cbs.clone(),
        srvs: d
            .srvs
            .iter()
            .map(|(r, b)| (*r, Srv::Buffer(buffer(b))))
            .collect(),
        uavs: d.uavs.iter().map(|(r, b)| (*r, buffer(b))).collect(),
        ..Resources::default()
    }
}

/// The interpreter's UAV words and events of a dispatch, or why it has none.
type Reference = Result<(BTreeMap<u32, Vec<u32>>, oracles::domain::Events), String>;

fn interpret(program: &dxbc::Program, ds: &[Dispatch], threads: u64) -> Vec<Reference> {
    let mut refs = interpret_with(program, ds, FIRST_BUDGET, threads);
    let again: Vec<usize> = (0..refs.len())
        .filter(|k| {
            refs[*k]
                .as_ref()
                .is_err_and(|e| e.contains("interp.budget"))
        })
        .take(RETRIES)
        .collect();
    let retry: Vec<Dispatch> = again.iter().map(|k| ds[*k].clone()).collect();
    for (k, r) in again
        .into_iter()
        .zip(interpret_with(program, &retry, BUDGET, threads))
    {
        refs[k] = r;
    }
    refs
}

fn interpret_with(
    program: &dxbc::Program,
    ds: &[Dispatch],
    budget: u64,
    threads: u64,
) -> Vec<Reference> {
    let one = |d: &Dispatch| -> Reference {
        let mut res = resources(d);
        let r = run_dispatch(
            program,
            &mut res,
            [1, 1, 1],
            (budget / threads).max(1 << 10),
        )
        .map_err(|e| format!("[{}] {e}", e.code()))?;
        Ok((
            res.uavs.into_iter().map(|(k, b)| (k, b.words)).collect(),
            r.events,
        ))
    };
    par_map(ds, one, || Err("an interpreter thread panicked".into()))
}

/// Save a mismatching dispatch as a case, with the interpreter's UAV words as expectations.
fn save(
    dir: &Path,
    name: &str,
    blob: &[u8],
    d: &Dispatch,
    want: &BTreeMap<u32, Vec<u32>>,
) -> Option<String> {
    let mut inputs = BTreeMap::new();
    for (reg, cb) in &d.cbs {
        inputs.insert(format!("cb{reg}"), Input::Words(Word::list(cb)));
    }
    for (prefix, map) in [("t", &d.srvs), ("u", &d.uavs)] {
        for (reg, (w, size)) in map {
            inputs.insert(
                format!("{prefix}{reg}"),
                Input::Buffer(BufferDesc {
                    size_bytes: *size,
                    words: Word::list(w),
                    format: None,
                }),
            );
        }
    }
    let expect = want
        .iter()
        .map(|(reg, w)| (format!("u{reg}"), oracles::case::Expect::bits(w)))
        .collect();
    save_case(dir, name, blob, inputs, Some([1, 1, 1]), expect)
}

/// Verify one compute program; `report` arrives named and empty.
pub fn program(
    gpu: &mut IsolatedGpu,
    name: &str,
    blob: &[u8],
    opts: &Options,
    cases_dir: &Path,
    time: &mut BTreeMap<String, f64>,
    mut report: ProgramReport,
) -> ProgramReport {
    let mut clock = |key: &str, since: std::time::Instant| {
        *time.entry(key.to_string()).or_default() += since.elapsed().as_secs_f64()
    };
    let t0 = std::time::Instant::now();
    let (shader, t) = match decode_and_translate(blob, opts) {
        Ok(x) => x,
        Err(skip) => {
            report.skip(skip);
            return report;
        }
    };
    clock("translation", t0);
    let [x, y, z] = t.manifest.workgroup_size.unwrap_or([1, 1, 1]);
    let threads = (x * y * z).max(1);
    let n = (opts.corpus_cases.div_ceil(threads as usize)).clamp(16, MAX_DISPATCHES);
    let t_in = std::time::Instant::now();
    let ds = dispatches(&t, threads, opts.seed ^ fnv(file_name(name).as_bytes()), n);
    clock("inputs", t_in);
    let t1 = std::time::Instant::now();
    let refs = interpret(&shader.program, &ds, u64::from(threads));
    clock("interpreter", t1);
    let band = ProgramBand::of(&shader.program);
    let mut first_failure = None;
    let t2 = std::time::Instant::now();
    for (k, (d, re)) in ds.iter().zip(&refs).enumerate() {
        report.counts.lanes += 1;
        let (want, events) = match re {
            Ok(r) => r,
            Err(e) => {
                report.counts.inconclusive += 1;
                report
                    .skipped
                    .get_or_insert_with(|| format!("interpreter: {e}"));
                continue;
            }
        };
        let got = gpu.run(&Request {
            wgsl: t.wgsl.clone(),
            entry_point: t.manifest.entry_point.clone(),
            manifest: t.manifest.clone(),
            inputs: ComputeInputs {
                cbs: d.cbs.clone(),
                srvs: d.srvs.clone(),
                uavs: d.uavs.clone(),
            },
            groups: [1, 1, 1],
            records: None,
        });
        let got = match got {
            Ok(g) => g.uavs,
            Err(e) => {
                // A dispatch that hangs or kills the device would do so again: the rest of
                // the program's dispatches are inconclusive too.
                let rest = (ds.len() - k) as u64;
                report.counts.lanes += rest - 1;
                report.counts.inconclusive += rest;
                report.skip(Skip::of_gpu_error(&e));
                clock("gpu", t2);
                return report;
            }
        };
        let mut verdict = Verdict::Match;
        for (reg, w) in want {
            let have = got.get(reg).map_or(&[][..], |v| v.as_slice());
            for (i, word) in w.iter().enumerate() {
                let h = have.get(i).copied().unwrap_or(0);
                let v = judge_word(&band, *word, h, *events, &t.adaptations, &gpu.description);
                verdict = verdict.worst(v);
            }
        }
        if report.tally(verdict) {
            first_failure.get_or_insert(k);
        }
    }
    clock("gpu", t2);
    if let Some(k) = first_failure
        && opts.counterexamples
        && let Ok((want, _)) = &refs[k]
    {
        report.counterexample = save(cases_dir, name, blob, &ds[k], want);
    }
    report
}
