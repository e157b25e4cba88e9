//! `dxdiff fuzz`: a campaign of random programs (generators::random) against a translator.
//! Each program runs over generated input vectors through the `verify --corpus` machinery
//! (interpreter against GPU, every lane judged against the catalog). A mismatching program is
//! shrunk (its statements, operands and constants, within a time cap), then its input vector is
//! shrunk, and the pair is saved as a `dxdiff-case/1` file: the program as DXBC with its
//! assembly text, and the inputs, never a seed. One case is kept per distinct divergence,
//! named by a signature: the translator, the opcodes of the shrunk program, and the catalog ids
//! its translation relies on.
//!
//! The campaign's state lives in `DIR/state.json` after every program, so a campaign stopped at
//! any point resumes where it was (`--out DIR` again, with the same seed and translator).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use generators::random::{self, Knobs, RandomProgram, Stmt};
use serde::{Deserialize, Serialize};

use crate::gpu::isolated::IsolatedGpu;
use crate::translators::{Failure, Translator};
use crate::verify::{Options, corpus};

/// The state file's format tag.
pub const FORMAT: &str = "dxdiff-fuzz/1";

/// Campaign settings.
#[derive(Debug, Clone)]
pub struct FuzzOptions {
    pub translator: Translator,
    pub seed: u64,
    /// Stop after this many programs (counted over resumed runs too)…
    pub programs: Option<u64>,
    /// …or after this much time in this run.
    pub time: Option<Duration>,
    pub out: PathBuf,
    /// Input vectors per program (compute: dispatches are derived from it).
    pub vectors: usize,
    /// Time cap for shrinking one divergence.
    pub shrink_time: Duration,
    /// The generator's configuration, before the translator narrows it.
    pub knobs: Knobs,
    /// Print a progress line to stderr.
    pub progress: bool,
}

/// One distinct divergence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Divergence {
    pub signature: String,
    /// The saved case, relative to the campaign folder.
    pub case: String,
    /// Program index it was first found in.
    pub program: u64,
    /// Instructions of the shrunk program (declarations and `ret` not counted).
    pub instructions: usize,
    /// Programs since that showed the same signature.
    pub seen: u64,
}

/// Counters, kept across resumed runs.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    pub programs: u64,
    pub lanes: u64,
    pub matched: u64,
    pub within: u64,
    pub adapted: u64,
    pub mismatch_lanes: u64,
    pub inconclusive: u64,
    /// Programs with at least one mismatching lane.
    pub mismatching_programs: u64,
    pub rejected: u64,
    pub crashed: u64,
    /// Programs not run for another reason (textures never appear; GPU trouble does).
    pub skipped: u64,
    /// Seconds spent, over resumed runs.
    pub seconds: f64,
    pub shrink_seconds: f64,
    /// Opcode mnemonics that appeared in generated programs the translator accepted.
    pub opcodes: BTreeSet<String>,
}

/// `DIR/state.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub format: String,
    pub translator: String,
    pub seed: u64,
    /// The next program index.
    pub next: u64,
    pub stats: Stats,
    pub divergences: Vec<Divergence>,
    /// What narrowing removed: opcodes and features the translator rejects.
    pub narrowed: Vec<String>,
}

/// Why a campaign could not run.
#[derive(Debug, thiserror::Error)]
pub enum FuzzError {
    #[error("{0}")]
    Gpu(#[from] crate::gpu::GpuError),
    #[error("{path}: {what}")]
    State { path: PathBuf, what: String },
}

/// The seed of program `index`: independent of how many programs ran before.
fn program_seed(seed: u64, index: u64) -> u64 {
    let mut x = seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    x ^= x >> 31;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^ (x >> 29)
}

/// Narrow the knobs to what the translator accepts: every opcode row is probed with its
/// single-instruction program, every feature with a small program using it. A rejection
/// removes the opcode or feature; anything else (a crash too) keeps it, so a crash stays a
/// finding.
pub fn narrow(t: &Translator, knobs: &Knobs) -> (Knobs, Vec<String>) {
    let mut k = knobs.clone();
    let mut removed = Vec::new();
    let rejects = |blob: &[u8]| -> bool {
        let Ok(shader) = dxbc::Shader::parse(blob) else {
            return false;
        };
        matches!(t.translate(blob, &shader), Err(Failure::Rejected { .. }))
    };
    let rows = random::rows();
    let blobs: Vec<(dxbc::Opcode, Option<Vec<u8>>)> = rows
        .iter()
        .map(|r| {
            (
                r.opcode,
                generators::programs::single(r.opcode).map(|s| s.blob),
            )
        })
        .collect();
    let verdicts = corpus::par_map(&blobs, |(_, b)| b.as_deref().is_some_and(rejects), || false);
    for ((op, _), rejected) in blobs.iter().zip(verdicts) {
        if rejected && !k.excluded.contains(op) {
            k.excluded.push(*op);
            removed.push(format!("opcode {}", op.mnemonic()));
        }
    }
    // Features, each probed alone in the smallest program that has it.
    let probe = |stage: dxbc::Stage, body: Vec<Stmt>| RandomProgram {
        stage,
        temps: 1,
        threads: if stage == dxbc::Stage::Compute {
            [4, 1, 1]
        } else {
            [1, 1, 1]
        },
        body,
        oob_indices: false,
    };
    let src = |reg: random::Reg| random::Src {
        reg,
        swizzle: [0; 4],
        neg: false,
        abs: false,
    };
    let t0 = || src(random::Reg::Temp(0));
    let mov = |s: random::Src| {
        Stmt::Op(random::Op {
            opcode: dxbc::Opcode::Mov,
            sat: false,
            dst: vec![Some((0, 1))],
            src: vec![s],
        })
    };
    use dxbc::Stage::{Compute, Pixel, Vertex};
    let features: Vec<(&str, RandomProgram)> = vec![
        ("stage pixel", probe(Pixel, vec![mov(t0())])),
        ("stage vertex", probe(Vertex, vec![mov(t0())])),
        ("stage compute", probe(Compute, vec![mov(t0())])),
        (
            "flow",
            probe(
                Pixel,
                vec![Stmt::Loop {
                    trips: 2,
                    body: vec![Stmt::If {
                        nonzero: true,
                        cond: t0(),
                        then: vec![Stmt::BreakC {
                            nonzero: true,
                            cond: t0(),
                        }],
                        otherwise: None,
                    }],
                }],
            ),
        ),
        (
            "switch",
            probe(
                Pixel,
                vec![Stmt::Switch {
                    sel: t0(),
                    cases: vec![(0, vec![mov(t0())])],
                    default: Some(vec![mov(t0())]),
                }],
            ),
        ),
        (
            "cb indexing",
            probe(Pixel, vec![mov(src(random::Reg::CbDyn(Box::new(t0()))))]),
        ),
        (
            "icb",
            probe(Pixel, vec![mov(src(random::Reg::IcbDyn(Box::new(t0()))))]),
        ),
        (
            "indexable temps",
            probe(
                Pixel,
                vec![
                    Stmt::IndexableStore {
                        index: t0(),
                        mask: 1,
                        value: t0(),
                    },
                    mov(src(random::Reg::IndexableDyn(Box::new(t0())))),
                ],
            ),
        ),
        (
            "discard",
            probe(
                Pixel,
                vec![Stmt::Discard {
                    nonzero: true,
                    cond: t0(),
                }],
            ),
        ),
        (
            "tgsm",
            probe(
                Compute,
                vec![Stmt::Exchange {
                    dst: (0, 1),
                    value: t0(),
                    sel: t0(),
                }],
            ),
        ),
        (
            "atomics",
            probe(
                Compute,
                vec![Stmt::Atomic {
                    opcode: dxbc::Opcode::AtomicIadd,
                    address: t0(),
                    value: t0(),
                }],
            ),
        ),
        (
            "buffers",
            probe(
                Compute,
                vec![
                    Stmt::SrvLoad {
                        dst: (0, 1),
                        index: t0(),
                        in_range: true,
                        offset: 0,
                    },
                    Stmt::UavStore {
                        in_range: true,
                        mask: 1,
                        value: t0(),
                    },
                ],
            ),
        ),
    ];
    for (name, p) in features {
        let Ok(blob) = p.blob() else { continue };
        if !rejects(&blob) {
            continue;
        }
        removed.push(format!("feature {name}"));
        match name {
            "stage pixel" => k.stages.retain(|s| *s != Pixel),
            "stage vertex" => k.stages.retain(|s| *s != Vertex),
            "stage compute" => k.stages.retain(|s| *s != Compute),
            "flow" | "switch" => k.depth = 0,
            "cb indexing" => k.cb_indexing = false,
            "icb" => k.icb = false,
            "indexable temps" => k.indexable_temps = false,
            "discard" => k.discard = false,
            "tgsm" => k.tgsm = false,
            "atomics" => k.atomics = false,
            _ => k.buffers = false,
        }
    }
    (k, removed)
}

fn run_one(
    gpu: &mut IsolatedGpu,
    opts: &Options,
    name: &str,
    blob: &[u8],
    cases: &Path,
) -> crate::verify::ProgramReport {
    corpus::program(gpu, name, blob, opts, cases, &mut BTreeMap::new())
}

/// Shrink a mismatching program: greedy, first simpler candidate that still mismatches wins,
/// until none does or the time cap is reached.
fn shrink(
    gpu: &mut IsolatedGpu,
    opts: &Options,
    name: &str,
    start: RandomProgram,
    cap: Duration,
) -> RandomProgram {
    let started = Instant::now();
    let mut current = start;
    let scratch = std::env::temp_dir();
    'outer: while started.elapsed() < cap {
        for cand in current.shrink_candidates() {
            if started.elapsed() >= cap {
                break 'outer;
            }
            let Ok(blob) = cand.blob() else { continue };
            let o = run_one(gpu, opts, name, &blob, &scratch);
            if o.counts.mismatch > 0 {
                current = cand;
                continue 'outer;
            }
        }
        break;
    }
    current
}

/// A divergence's signature: translator, the shrunk program's opcodes, the catalog ids its
/// translation relies on.
fn signature(t: &Translator, p: &RandomProgram, blob: &[u8]) -> String {
    let ids = dxbc::Shader::parse(blob)
        .ok()
        .and_then(|s| t.translate(blob, &s).ok())
        .map(|tr| tr.adaptations)
        .unwrap_or_default();
    format!(
        "{} | {} | {}",
        t.name(),
        p.body_opcodes().join(" "),
        ids.join(" ")
    )
}

/// A file-name form of a signature.
fn slug(sig: &str, index: u64) -> String {
    let ops = sig.split(" | ").nth(1).unwrap_or("");
    let mut s: String = ops
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    s.truncate(60);
    format!("fuzz-{index}-{s}")
}

fn load_state(path: &Path, o: &FuzzOptions) -> Result<Option<State>, FuzzError> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Ok(None);
    };
    let err = |what: String| FuzzError::State {
        path: path.to_path_buf(),
        what,
    };
    let s: State = serde_json::from_str(&text).map_err(|e| err(e.to_string()))?;
    if s.format != FORMAT {
        return Err(err(format!("format `{}`, expected `{FORMAT}`", s.format)));
    }
    if s.seed != o.seed || s.translator != o.translator.name() {
        return Err(err(format!(
            "a campaign with seed {} and translator `{}` is there; resume with those, or use another --out",
            s.seed, s.translator
        )));
    }
    Ok(Some(s))
}

fn save_state(path: &Path, s: &State) {
    if let Ok(text) = serde_json::to_string_pretty(s) {
        let tmp = path.with_extension("json.tmp");
        if std::fs::write(&tmp, text).is_ok() {
            let _ = std::fs::rename(tmp, path);
        }
    }
}

/// Run (or resume) a campaign.
pub fn run(o: &FuzzOptions, adapter: &str) -> Result<State, FuzzError> {
    let cases = o.out.join("cases");
    let _ = std::fs::create_dir_all(&cases);
    let state_path = o.out.join("state.json");
    let mut gpu = IsolatedGpu::new(adapter)?;
    let (knobs, narrowed) = narrow(&o.translator, &o.knobs);
    let mut st = load_state(&state_path, o)?.unwrap_or(State {
        format: FORMAT.to_string(),
        translator: o.translator.name(),
        seed: o.seed,
        next: 0,
        stats: Stats::default(),
        divergences: Vec::new(),
        narrowed: narrowed.clone(),
    });
    st.narrowed = narrowed;
    let opts = Options {
        translator: o.translator.clone(),
        seed: o.seed,
        cases: 1,
        extra_cases: Vec::new(),
        corpus: Vec::new(),
        corpus_cases: o.vectors.max(1),
        skip_builtin: true,
        counterexamples: false,
    };
    let started = Instant::now();
    let base_seconds = st.stats.seconds;
    let scratch = std::env::temp_dir().join(format!("dxdiff-fuzz-{}", std::process::id()));
    loop {
        if o.programs.is_some_and(|n| st.next >= n)
            || o.time.is_some_and(|t| started.elapsed() >= t)
        {
            break;
        }
        let index = st.next;
        let p = random::generate(&knobs, program_seed(o.seed, index));
        let name = format!("fuzz-{}-{index}.dxbc", o.seed);
        st.next += 1;
        st.stats.programs += 1;
        let Ok(blob) = p.blob() else {
            // The generator's own failure: counted, never a translator's.
            st.stats.skipped += 1;
            continue;
        };
        let out = run_one(&mut gpu, &opts, &name, &blob, &scratch);
        let c = &out.counts;
        st.stats.lanes += c.lanes;
        st.stats.matched += c.matched;
        st.stats.within += c.within;
        st.stats.adapted += c.adapted;
        st.stats.mismatch_lanes += c.mismatch;
        st.stats.inconclusive += c.inconclusive;
        match out.skip_kind {
            Some("rejected") => st.stats.rejected += 1,
            Some("translator-crash" | "device-rejected") => {
                st.stats.crashed += 1;
                record(
                    &mut st,
                    &cases,
                    index,
                    format!(
                        "{} | crash: {} | ",
                        o.translator.name(),
                        out.skip_kind.unwrap_or("")
                    ),
                    &p,
                    &blob,
                    None,
                );
            }
            Some(_) => st.stats.skipped += 1,
            None => {
                for op in random::opcodes(&blob) {
                    st.stats.opcodes.insert(op.mnemonic().to_string());
                }
            }
        }
        if c.mismatch > 0 {
            st.stats.mismatching_programs += 1;
            let t0 = Instant::now();
            let small = shrink(&mut gpu, &opts, &name, p.clone(), o.shrink_time);
            let small_blob = small.blob().unwrap_or_else(|_| blob.clone());
            let sig = signature(&o.translator, &small, &small_blob);
            if let Some(d) = st.divergences.iter_mut().find(|d| d.signature == sig) {
                d.seen += 1;
            } else {
                // Shrink the inputs and save the case.
                let save_opts = Options {
                    counterexamples: true,
                    ..opts.clone()
                };
                let saved = run_one(&mut gpu, &save_opts, &name, &small_blob, &scratch);
                record(
                    &mut st,
                    &cases,
                    index,
                    sig,
                    &small,
                    &small_blob,
                    saved.counterexample.map(PathBuf::from),
                );
            }
            st.stats.shrink_seconds += t0.elapsed().as_secs_f64();
        }
        st.stats.seconds = base_seconds + started.elapsed().as_secs_f64();
        save_state(&state_path, &st);
        if o.progress {
            eprint!("\r{}", progress(&st));
        }
    }
    if o.progress {
        eprintln!();
    }
    st.stats.seconds = base_seconds + started.elapsed().as_secs_f64();
    save_state(&state_path, &st);
    let _ = std::fs::remove_dir_all(&scratch);
    Ok(st)
}

/// Keep a new divergence: its case (the saved counterexample with the program's assembly
/// added, or for a crash the program alone) under `cases/`.
fn record(
    st: &mut State,
    cases: &Path,
    index: u64,
    sig: String,
    p: &RandomProgram,
    blob: &[u8],
    counterexample: Option<PathBuf>,
) {
    if let Some(d) = st.divergences.iter_mut().find(|d| d.signature == sig) {
        d.seen += 1;
        return;
    }
    let file = format!("{}.json", slug(&sig, index));
    let mut case = counterexample
        .and_then(|c| std::fs::read_to_string(c).ok())
        .and_then(|t| oracles::case::CaseFile::parse(&t).ok())
        .unwrap_or_else(|| {
            oracles::case::CaseFile::single(
                &file,
                blob,
                oracles::case::Run {
                    id: "program".into(),
                    inputs: BTreeMap::new(),
                    dispatch: None,
                    invocations: None,
                    expect: None,
                    flags: Vec::new(),
                    upstream_flags: None,
                    source: None,
                },
            )
        });
    case.name = file.trim_end_matches(".json").to_string();
    case.source_text = Some(p.asm());
    case.source_text_kind = Some("asm".into());
    for r in &mut case.runs {
        r.source = Some(format!("dxdiff fuzz: {sig}"));
    }
    let _ = crate::verify::write_case(cases, file.trim_end_matches(".json"), &case);
    st.divergences.push(Divergence {
        signature: sig,
        case: format!("cases/{file}"),
        program: index,
        instructions: random::code(blob).len(),
        seen: 1,
    });
}

/// The progress line.
pub fn progress(st: &State) -> String {
    let s = &st.stats;
    let secs = s.seconds.max(1e-9);
    format!(
        "fuzz: {} programs ({:.1}/s), {} lanes ({:.0}/s), {} rejected ({:.0}%), {} crashed, {} distinct mismatches",
        s.programs,
        s.programs as f64 / secs,
        s.lanes,
        s.lanes as f64 / secs,
        s.rejected,
        100.0 * s.rejected as f64 / (s.programs.max(1)) as f64,
        s.crashed,
        st.divergences.len()
    )
}
