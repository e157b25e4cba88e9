//! `dxdiff verify`: single-instruction programs for every ALU opcode, each over many
//! edge-biased input vectors, run on the reference interpreter and, through the translator, on
//! the GPU; every lane gets a verdict (`oracle`). Mismatches are saved as `dxdiff-case/1` files
//! (the program and the first failing input) that `dxdiff replay` reproduces.

mod cases;
mod compute;
pub mod corpus;
pub mod oracle;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

use crate::translators::Translator;
use dxbc::opcodes::Num;
use generators::programs::SingleOp;
use oracles::case::{CaseFile, Input, Word};
use oracles::interp::{DEFAULT_BUDGET, Resources, run_invocations};
use serde::Serialize;

use crate::gpu::isolated::{IsolatedGpu, Request};
use crate::gpu::wrap::{self, push_record, wrap};
use crate::gpu::{ComputeInputs, GpuError};
use oracle::{Verdict, judge};

/// Input vectors per GPU request.
const CHUNK_LANES: usize = 1 << 18;

/// Verdict counts.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Counts {
    pub lanes: u64,
    pub matched: u64,
    pub within: u64,
    pub adapted: u64,
    pub mismatch: u64,
    pub inconclusive: u64,
}

impl Counts {
    pub fn add(&mut self, o: &Counts) {
        self.lanes += o.lanes;
        self.matched += o.matched;
        self.within += o.within;
        self.adapted += o.adapted;
        self.mismatch += o.mismatch;
        self.inconclusive += o.inconclusive;
    }
}

/// One program's outcome.
#[derive(Debug, Clone, Serialize)]
pub struct ProgramReport {
    pub name: String,
    pub counts: Counts,
    /// Lanes adapted per catalog id.
    pub adapted_by: BTreeMap<String, u64>,
    /// Why the program did not run, if it did not.
    pub skipped: Option<String>,
    /// That reason's stable kind (`rejected`, `translator-crash`, `texture`...), counted in
    /// the report's `skips`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skip_kind: Option<&'static str>,
    /// The saved counterexample, if any lane mismatched.
    pub counterexample: Option<String>,
}

impl ProgramReport {
    /// Record why the program did not run: its text and its kind.
    pub fn skip(&mut self, skip: corpus::Skip) {
        self.skipped = Some(skip.text());
        self.skip_kind = Some(skip.kind);
    }

    /// Count one lane's verdict; true when it is a mismatch.
    pub fn tally(&mut self, verdict: Verdict) -> bool {
        match verdict {
            Verdict::Match => self.counts.matched += 1,
            Verdict::Within => self.counts.within += 1,
            Verdict::Adapted(ids) => {
                self.counts.adapted += 1;
                for id in ids {
                    *self.adapted_by.entry(id).or_default() += 1;
                }
            }
            Verdict::Mismatch => {
                self.counts.mismatch += 1;
                return true;
            }
        }
        false
    }
}

/// The whole run.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub format: &'static str,
    pub profile: String,
    pub seed: u64,
    pub adapter: String,
    pub inputs_per_program: usize,
    pub programs: Vec<ProgramReport>,
    pub totals: Counts,
    pub adapted_by: BTreeMap<String, u64>,
    /// Seconds spent in translation (with naga validation), the interpreter, and the GPU worker.
    pub seconds: BTreeMap<String, f64>,
    /// Seconds of the GPU worker's requests by phase (pipeline, upload, dispatch, readback,
    /// transfer).
    pub gpu_phases: BTreeMap<String, f64>,
    /// Programs that did not run, counted by kind.
    pub skips: BTreeMap<String, u64>,
}

/// Run settings.
#[derive(Debug, Clone)]
pub struct Options {
    pub translator: Translator,
    pub seed: u64,
    pub cases: usize,
    /// Case files given on the command line, as (name, JSON), run after the embedded ones.
    pub extra_cases: Vec<(String, String)>,
    /// Folders (or files) of further programs, each run over `corpus_cases` generated vectors.
    pub corpus: Vec<std::path::PathBuf>,
    pub corpus_cases: usize,
    /// Leave out the built-in single-instruction programs and embedded cases (`--only`).
    pub skip_builtin: bool,
    /// Shrink and save a counterexample for each mismatching corpus program (off while a
    /// fuzzer shrinks a program and only needs the verdicts).
    pub counterexamples: bool,
}

fn lane_inputs(seed: u64, op: &SingleOp, n: usize) -> Vec<Vec<[u32; 4]>> {
    let words = generators::values::sample(
        seed ^ (op.opcode as u64).wrapping_mul(0x9e37_79b9),
        n * op.sources * 4,
    );
    (0..n)
        .map(|l| {
            (0..op.sources)
                .map(|r| {
                    let b = (l * op.sources + r) * 4;
                    [words[b], words[b + 1], words[b + 2], words[b + 3]]
                })
                .collect()
        })
        .collect()
}

/// Magnitude of a fused op's terms in one component, for its error band.
fn terms(op: dxbc::Opcode, v: &[[u32; 4]], c: usize) -> f64 {
    let f = |w: u32| f64::from(f32::from_bits(w)).abs();
    match op {
        dxbc::Opcode::Mad => f(v[0][c]) * f(v[1][c]) + f(v[2][c]),
        dxbc::Opcode::Dp2 | dxbc::Opcode::Dp3 | dxbc::Opcode::Dp4 => {
            let n = match op {
                dxbc::Opcode::Dp2 => 2,
                dxbc::Opcode::Dp3 => 3,
                _ => 4,
            };
            (0..n).map(|k| f(v[0][k]) * f(v[1][k])).sum()
        }
        _ => 0.0,
    }
}

/// Save the failing input as a replayable case: the program, the inputs of that lane, and the
/// interpreter's outputs as the expectation.
fn save_counterexample(
    dir: &Path,
    op: &SingleOp,
    inputs: &[[u32; 4]],
    expected: &[[u32; 4]],
) -> Option<String> {
    let name = op.opcode.mnemonic();
    let run = oracles::case::Run {
        id: "mismatch".into(),
        inputs: inputs
            .iter()
            .enumerate()
            .map(|(r, v)| (format!("v{r}"), Input::Words(Word::list(v))))
            .collect(),
        dispatch: None,
        invocations: None,
        expect: Some(
            expected
                .iter()
                .enumerate()
                .map(|(r, v)| (format!("o{r}"), oracles::case::Expect::bits(v)))
                .collect(),
        ),
        flags: Vec::new(),
        upstream_flags: None,
        source: None,
    };
    write_case(dir, name, &CaseFile::single(name, &op.blob, run))
}

/// Write `dir/<file>.json`; the path written, or `None` when it could not be.
pub(crate) fn write_case(dir: &Path, file: &str, case: &CaseFile) -> Option<String> {
    std::fs::create_dir_all(dir).ok()?;
    let path = dir.join(format!("{file}.json"));
    std::fs::write(&path, serde_json::to_string_pretty(case).ok()?).ok()?;
    Some(path.display().to_string())
}

/// Verify one single-instruction program.
fn program(
    gpu: &mut IsolatedGpu,
    op: &SingleOp,
    opts: &Options,
    cases_dir: &Path,
    time: &mut BTreeMap<String, f64>,
) -> ProgramReport {
    let mut report = ProgramReport {
        name: op.opcode.mnemonic().to_string(),
        counts: Counts::default(),
        adapted_by: BTreeMap::new(),
        skipped: None,
        skip_kind: None,
        counterexample: None,
    };
    let mut clock = |key: &str, since: Instant| {
        *time.entry(key.to_string()).or_default() += since.elapsed().as_secs_f64()
    };
    let t0 = Instant::now();
    let shader = match dxbc::Shader::parse(&op.blob) {
        Ok(s) => s,
        Err(e) => {
            report.skipped = Some(format!("generated program does not decode: {e}"));
            return report;
        }
    };
    let t = match opts.translator.translate(&op.blob, &shader) {
        Ok(t) => t,
        Err(f) => {
            report.skip(corpus::Skip::of_failure(&f));
            return report;
        }
    };
    let wrapped = match wrap(&t.wgsl) {
        Ok(w) => w,
        Err(e) => {
            report.skipped = Some(format!("cannot wrap: {e}"));
            return report;
        }
    };
    clock("translation", t0);
    let t_in = Instant::now();
    let lanes = lane_inputs(opts.seed, op, opts.cases);
    clock("inputs", t_in);
    let t1 = Instant::now();
    let reference = run_invocations(
        &shader.program,
        &mut Resources::default(),
        &lanes,
        DEFAULT_BUDGET,
    );
    clock("interpreter", t1);
    let reference = match reference {
        Ok(r) => r,
        Err(e) => {
            report.skipped = Some(format!("interpreter: {e}"));
            return report;
        }
    };
    let sources = match wrapped.input_sources(&t.manifest.inputs) {
        Ok(s) => s,
        Err(why) => {
            report.skipped = Some(format!("cannot feed: {why}"));
            return report;
        }
    };
    let mut records = Vec::with_capacity(lanes.len() * wrapped.in_stride as usize);
    for regs in &lanes {
        push_record(&sources, regs, &mut records);
    }
    let n = lanes.len() as u32;
    let t2 = Instant::now();
    // Chunks stay within the workgroup-count limit (65,535 × 64 lanes) and keep each
    // request's buffers small.
    let in_stride = wrapped.in_stride as usize;
    let mut out = Vec::with_capacity(lanes.len() * wrapped.out_stride as usize);
    let mut failure = None;
    for part in records.chunks(CHUNK_LANES * in_stride) {
        let m = (part.len() / in_stride.max(1)) as u32;
        match gpu.run(&Request {
            wgsl: wrapped.wgsl.clone(),
            entry_point: "dxdiff_kernel".into(),
            manifest: t.manifest.clone(),
            inputs: ComputeInputs::default(),
            groups: [m.div_ceil(64).max(1), 1, 1],
            records: Some(crate::gpu::Records {
                input: part.to_vec(),
                out_words: m * wrapped.out_stride,
                lane_buffers: Vec::new(),
            }),
        }) {
            Ok(crate::gpu::KernelOutput {
                records: Some(words),
                ..
            }) => out.extend(words),
            Ok(_) => failure = Some("no records came back".to_string()),
            Err(e) => failure = Some(e.to_string()),
        }
        if failure.is_some() {
            break;
        }
    }
    clock("gpu", t2);
    if let Some(why) = failure {
        report.counts.lanes = u64::from(n);
        report.counts.inconclusive = u64::from(n);
        report.skipped = Some(format!("inconclusive: {why}"));
        return report;
    }
    let t_judge = Instant::now();
    let float_result = op.opcode.info().num(0) == Num::Float;
    // Each output slot's record offset and the register components it holds.
    let targets: Vec<(usize, wrap::Source)> = wrapped
        .outputs
        .iter()
        .filter_map(|slot| Some((slot.offset as usize, slot.register(&t.manifest.outputs)?)))
        .collect();
    for (l, regs) in lanes.iter().enumerate() {
        let want = reference.outputs_of(l);
        let mut verdict = Verdict::Match;
        for (offset, (r, comps)) in &targets {
            for (j, c) in comps.clone().enumerate() {
                let got = out
                    .get(l * wrapped.out_stride as usize + offset + j)
                    .copied()
                    .unwrap_or(0);
                let reference_word = want.get(*r).map_or(0, |v| v[c]);
                let v = judge(
                    op.opcode,
                    float_result,
                    reference_word,
                    got,
                    terms(op.opcode, regs, c),
                    reference.events[l],
                    &t.adaptations,
                    &gpu.description,
                );
                verdict = verdict.worst(v);
            }
        }
        report.counts.lanes += 1;
        if report.tally(verdict) && report.counterexample.is_none() {
            report.counterexample = save_counterexample(cases_dir, op, regs, want);
        }
    }
    clock("judging", t_judge);
    report
}

/// Run every single-instruction program.
pub fn run(opts: &Options, out_dir: &Path, adapter: &str) -> Result<Report, GpuError> {
    let mut gpu = IsolatedGpu::new(adapter)?;
    let programs = generators::programs::all_single();
    let mut report = Report {
        format: "dxdiff-report/1",
        profile: opts.translator.name(),
        seed: opts.seed,
        adapter: gpu.description.clone(),
        inputs_per_program: opts.cases,
        programs: Vec::new(),
        totals: Counts::default(),
        adapted_by: BTreeMap::new(),
        seconds: BTreeMap::new(),
        gpu_phases: BTreeMap::new(),
        skips: BTreeMap::new(),
    };
    let cases_dir = out_dir.join("cases");
    let started = Instant::now();
    let programs = if opts.skip_builtin {
        Vec::new()
    } else {
        programs
    };
    let total = programs.len();
    for (i, op) in programs.iter().enumerate() {
        eprint!(
            "\r[{:>3}/{total}] {:<20} {:>6.1}s",
            i + 1,
            op.opcode.mnemonic(),
            started.elapsed().as_secs_f64()
        );
        let _ = std::io::stderr().flush();
        let p = program(&mut gpu, op, opts, &cases_dir, &mut report.seconds);
        if let Some(k) = p.skip_kind {
            *report.skips.entry(k.to_string()).or_default() += 1;
        }
        report.totals.add(&p.counts);
        for (id, n) in &p.adapted_by {
            *report.adapted_by.entry(id.clone()).or_default() += n;
        }
        report.programs.push(p);
    }
    if total > 0 {
        eprintln!();
    }
    // The project's own case files: control flow, compute and buffers.
    let t0 = Instant::now();
    let mut all_cases: Vec<(String, String)> = if opts.skip_builtin {
        Vec::new()
    } else {
        cases::EMBEDDED
            .iter()
            .map(|(n, j)| (n.to_string(), j.to_string()))
            .collect()
    };
    all_cases.extend(opts.extra_cases.iter().cloned());
    for p in cases::verify_cases(&mut gpu, &opts.translator, &cases_dir, &all_cases) {
        report.totals.add(&p.counts);
        for (id, n) in &p.adapted_by {
            *report.adapted_by.entry(id.clone()).or_default() += n;
        }
        report.programs.push(p);
    }
    *report.seconds.entry("cases".into()).or_default() += t0.elapsed().as_secs_f64();
    // Further programs with generated inputs.
    let corpus = corpus::collect(&opts.corpus);
    let total = corpus.len();
    for (i, (name, blob)) in corpus.iter().enumerate() {
        eprint!(
            "\r[{:>4}/{total}] corpus {:<50.50} {:>6.1}s",
            i + 1,
            name,
            started.elapsed().as_secs_f64()
        );
        let _ = std::io::stderr().flush();
        let p = match blob {
            Ok(b) => corpus::program(&mut gpu, name, b, opts, &cases_dir, &mut report.seconds),
            Err(e) => {
                let mut p = ProgramReport {
                    name: format!("corpus:{name}"),
                    counts: Counts::default(),
                    adapted_by: BTreeMap::new(),
                    skipped: None,
                    skip_kind: None,
                    counterexample: None,
                };
                p.skip(corpus::Skip::new("unreadable", e.clone()));
                p
            }
        };
        if let Some(k) = p.skip_kind {
            *report.skips.entry(k.to_string()).or_default() += 1;
        }
        report.totals.add(&p.counts);
        for (id, n) in &p.adapted_by {
            *report.adapted_by.entry(id.clone()).or_default() += n;
        }
        report.programs.push(p);
    }
    if total > 0 {
        eprintln!();
    }
    for (k, v) in gpu.phases.named() {
        report.gpu_phases.insert(k.to_string(), v);
    }
    report
        .seconds
        .insert("total".into(), started.elapsed().as_secs_f64());
    Ok(report)
}

/// The Markdown report.
pub fn markdown(r: &Report) -> String {
    let mut s = format!(
        "# dxdiff verify\n\nprofile `{}`, seed {}, {} inputs per program, adapter {}\n\n| program | lanes | match | within tolerance | adapted | mismatch | inconclusive | note |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n",
        r.profile, r.seed, r.inputs_per_program, r.adapter
    );
    for p in &r.programs {
        let c = &p.counts;
        let note = p
            .skipped
            .clone()
            .or_else(|| {
                p.counterexample
                    .clone()
                    .map(|c| format!("counterexample {c}"))
            })
            .unwrap_or_default();
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} |\n",
            p.name, c.lanes, c.matched, c.within, c.adapted, c.mismatch, c.inconclusive, note
        ));
    }
    s.push_str("\n| catalog entry | adapted lanes |\n| --- | ---: |\n");
    for (id, n) in &r.adapted_by {
        s.push_str(&format!("| `{id}` | {n} |\n"));
    }
    if !r.skips.is_empty() {
        s.push_str("\n| programs skipped, by reason | programs |\n| --- | ---: |\n");
        for (k, n) in &r.skips {
            s.push_str(&format!("| {k} | {n} |\n"));
        }
    }
    s.push_str("\n| phase | seconds |\n| --- | ---: |\n");
    for (k, v) in &r.seconds {
        s.push_str(&format!("| {k} | {v:.2} |\n"));
    }
    s.push_str("\n| GPU request phase | seconds |\n| --- | ---: |\n");
    for (k, v) in &r.gpu_phases {
        s.push_str(&format!("| {k} | {v:.2} |\n"));
    }
    s
}

/// Lanes per second of a phase.
pub fn rate(lanes: u64, seconds: f64) -> f64 {
    if seconds > 0.0 {
        lanes as f64 / seconds
    } else {
        0.0
    }
}
