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

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use generators::random::{self, Knobs, RandomProgram};

use oracles::verdict::SkipKind;
use reports::fuzz::{Divergence, State};
use reports::verify::ProgramReport;

use crate::outdir::{OutDir, write_atomic};
use crate::session::{Session, Settings};
use crate::translators::Translator;

mod knobs;

pub use knobs::{GUIDE_EVERY, guide, narrow};
use knobs::{GUIDE_SHARE, for_model};

/// Campaign settings.
#[derive(Debug, Clone)]
pub struct FuzzOptions {
    /// The session's settings: translator, executor, seed (program i is generated from
    /// (seed, i), so a campaign is reproducible and resumable), input vectors per program
    /// (compute: dispatches are derived from it), quietness, the shard (program indices K
    /// modulo N) and the Shader Model (below 5.0 the knobs leave out compute and the opcodes
    /// of later models, and each program is written for it).
    pub session: Settings,
    /// Stop after this many programs (counted over resumed runs too)…
    pub programs: Option<u64>,
    /// …or after this much time in this run.
    pub time: Option<Duration>,
    /// The campaign folder: `state.json` and `cases/`.
    pub out: PathBuf,
    /// Time cap for shrinking one divergence.
    pub shrink_time: Duration,
    /// The generator's configuration, before the translator narrows it.
    pub knobs: Knobs,
    /// Steer generation toward the catalog cells not yet reached (`--guided`, [`guide`]).
    pub guided: bool,
}

/// Why a campaign could not run or keep its results. Codes: the GPU's and the output
/// folder's own (`gpu.*`, `out.*`), `fuzz.state`, `fuzz.write`.
#[derive(Debug, thiserror::Error)]
pub enum FuzzError {
    /// No usable GPU adapter, or the worker failed.
    #[error("{0}")]
    Gpu(#[from] crate::gpu::GpuError),
    /// The saved campaign state cannot be read, or belongs to another seed or translator.
    #[error("{path}: {what}")]
    State {
        /// The `state.json` file.
        path: PathBuf,
        /// What is wrong with it.
        what: String,
    },
    /// The campaign folder cannot be used.
    #[error(transparent)]
    Out(#[from] crate::outdir::OutError),
    /// A state file or counterexample could not be written.
    #[error("{path}: cannot write: {source}")]
    Write {
        /// The file being written.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The translator rejects every stage the generator can write, so no program could be
    /// compared: the campaign stops before it starts instead of reporting 0 mismatches.
    #[error(
        "the translator rejects every stage the generator writes ({}): no program could be compared",
        narrowed.join(", ")
    )]
    NothingToGenerate {
        /// What the support probe removed.
        narrowed: Vec<String>,
    },
}

impl FuzzError {
    /// A stable, machine-readable code for this kind of error.
    pub fn code(&self) -> &'static str {
        match self {
            FuzzError::Gpu(e) => e.code(),
            FuzzError::State { .. } => "fuzz.state",
            FuzzError::Out(e) => e.code(),
            FuzzError::Write { .. } => "fuzz.write",
            FuzzError::NothingToGenerate { .. } => "fuzz.nothing",
        }
    }
}

/// Input vectors a shrinking candidate runs over when the program still fails over them: the
/// first of the campaign's vectors (the inputs are drawn word by word from the seed, so these
/// are the same vectors), a sixteenth of the default 256.
const SHRINK_VECTORS: usize = 16;

/// Shrink a mismatching program: greedy, first simpler candidate that still mismatches wins,
/// until none does or the time cap is reached. `v` saves no counterexamples meanwhile.
///
/// Three savings (docs/fuzz.md, "Shrinking"): shrinking stops once the program is a
/// divergence the campaign already has (`known`: its signature, which the shrunk program of a
/// repeat would reach anyway, or one smaller); when the program still fails over its first
/// [`SHRINK_VECTORS`] vectors, every candidate runs over those alone (each candidate then
/// costs its fixed part, translation and pipeline, and little more); and a candidate already
/// tried (the same container bytes, which the greedy search meets again after each step) is
/// not run again.
fn shrink(
    v: &mut Session,
    name: &str,
    start: RandomProgram,
    cap: Duration,
    still: impl Fn(&ProgramReport) -> bool,
    known: impl Fn(&RandomProgram, &[u8]) -> bool,
) -> RandomProgram {
    let started = Instant::now();
    let full = v.opts.vectors;
    let mut current_blob = start.blob().ok();
    if full > SHRINK_VECTORS
        && let Some(blob) = &current_blob
    {
        v.opts.vectors = SHRINK_VECTORS;
        if !still(&v.program(name, blob)) {
            v.opts.vectors = full;
        }
    }
    let mut tried: std::collections::HashSet<u64> = std::collections::HashSet::new();
    let mut current = start;
    'outer: while started.elapsed() < cap {
        if current_blob.as_deref().is_some_and(|b| known(&current, b)) {
            break;
        }
        for cand in current.shrink_candidates() {
            if started.elapsed() >= cap {
                break 'outer;
            }
            let Ok(blob) = cand.blob() else { continue };
            if !tried.insert(crate::inputs::fnv(&blob)) {
                continue;
            }
            let o = v.program(name, &blob);
            if still(&o) {
                current = cand;
                current_blob = Some(blob);
                continue 'outer;
            }
        }
        break;
    }
    v.opts.vectors = full;
    current
}

/// What makes two crashes one divergence: the class of the whole reason
/// ([`crate::translators::reason_class`]).
fn crash_class(out: &ProgramReport) -> Option<String> {
    let kind = out.skip_kind?;
    if !(kind.is_translator_failure() || kind == SkipKind::Crash) {
        return None;
    }
    Some(format!(
        "crash: {}",
        crate::translators::reason_class(out.skipped.as_deref().unwrap_or(""))
    ))
}

/// A divergence's signature: translator, the shrunk program's opcodes, the catalog ids its
/// translation relies on.
fn signature(t: &dyn Translator, p: &RandomProgram, blob: &[u8]) -> String {
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

/// Every setting beside seed and translator that decides what program `i` is and how it is
/// judged, as the state records it ([`State::knobs`]).
fn settings(o: &FuzzOptions) -> String {
    let k = &o.knobs;
    let stages: Vec<&str> = k.stages.iter().map(|s| s.prefix()).collect();
    let executor = match &o.session.runner {
        crate::runner::Runner::Wgpu => "gpu",
        crate::runner::Runner::Chrome(_) => "chrome",
    };
    let mut s = format!(
        "vectors={} model={} executor={executor} stages={} statements={} depth={} temps={} oob-indices={}",
        o.session.vectors,
        o.session.shader_model,
        stages.join(","),
        k.statements,
        k.depth,
        k.temps,
        k.oob_indices
    );
    // Only an aimed or guided campaign says so: earlier campaigns resume as they were.
    if !k.aimed.is_empty() {
        let ops: Vec<&str> = k.aimed.iter().map(|o| o.mnemonic()).collect();
        s.push_str(&format!(" aim={}", ops.join(",")));
    }
    if o.guided {
        s.push_str(" guided");
    }
    s
}

fn load_state(path: &Path, o: &FuzzOptions) -> Result<Option<State>, FuzzError> {
    let text = match crate::files::read_text(path) {
        Ok(t) => t,
        Err(crate::files::FileError::Io { source, .. })
            if source.kind() == std::io::ErrorKind::NotFound =>
        {
            return Ok(None);
        }
        Err(e) => {
            return Err(FuzzError::State {
                path: path.to_path_buf(),
                what: format!("[{}] {e}", e.code()),
            });
        }
    };
    let err = |what: String| FuzzError::State {
        path: path.to_path_buf(),
        what,
    };
    let s = State::parse(&text).map_err(|e| err(e.to_string()))?;
    let had = s.shard.as_ref().map(|p| p.shard);
    if had != o.session.shard {
        return Err(err(format!(
            "a campaign of shard {} is there; resume with that, or use another --out",
            had.map_or_else(|| "none".into(), |k| k.to_string())
        )));
    }
    // The dxdiff that resumes is the one that ran the shard from now on.
    let mut s = s;
    s.shard = o.session.shard.map(crate::part);
    if s.seed != o.session.seed || s.translator != o.session.translator.name() {
        return Err(err(format!(
            "a campaign with seed {} and translator `{}` is there; resume with those, or use another --out",
            s.seed, s.translator
        )));
    }
    let knobs = settings(o);
    if !s.knobs.is_empty() && s.knobs != knobs {
        return Err(err(format!(
            "a campaign run with `{}` is there, and this one asks for `{knobs}`; resume with those settings, or use another --out",
            s.knobs
        )));
    }
    s.knobs = knobs;
    s.check()
        .map_err(|e| err(format!("an inconsistent state ({e}): edited or corrupt")))?;
    Ok(Some(s))
}

fn save_state(path: &Path, s: &State) -> Result<(), FuzzError> {
    let write = |source| FuzzError::Write {
        path: path.to_path_buf(),
        source,
    };
    let text =
        serde_json::to_string_pretty(s).map_err(|e| write(std::io::Error::other(e.to_string())))?;
    write_atomic(path, text.as_bytes()).map_err(write)
}

/// Run (or resume) a campaign.
pub fn run(o: &FuzzOptions, adapter: &str) -> Result<State, FuzzError> {
    // The folder is checked and held before any work, so nothing measured is lost to it.
    let out = OutDir::open(&o.out)?;
    let cases = out.join("cases");
    std::fs::create_dir_all(&cases).map_err(|source| FuzzError::Write {
        path: cases.clone(),
        source,
    })?;
    let state_path = out.join("state.json");
    let mut st = load_state(&state_path, o)?.unwrap_or_else(|| State {
        shard: o.session.shard.map(crate::part),
        knobs: settings(o),
        ..State::new(o.session.translator.name(), o.session.seed)
    });
    let (knobs, narrowed) = narrow(o.session.translator.as_ref(), &o.knobs);
    let (knobs, narrowed) = for_model(knobs, narrowed, o.session.shader_model);
    if knobs.stages.is_empty() {
        return Err(FuzzError::NothingToGenerate { narrowed });
    }
    st.narrowed = narrowed;
    let scratch = std::env::temp_dir().join(format!("dxdiff-fuzz-{}", std::process::id()));
    // The campaign's session judges and keeps quiet; divergences are shrunk here, as programs.
    let opts = Settings {
        counterexamples: false,
        shard: None,
        quiet: true,
        ..o.session.clone()
    };
    let mut v = Session::new(opts, adapter, &scratch)?;
    let mut bar = crate::progress::Progress::new("fuzz", o.programs, o.session.quiet);
    let started = Instant::now();
    let base_seconds = st.stats.seconds;
    loop {
        if o.programs.is_some_and(|n| st.next >= n)
            || o.time.is_some_and(|t| started.elapsed() >= t)
        {
            break;
        }
        let index = st.next;
        // Another shard's program, or one a merged shard already ran: its index is passed
        // over, not run or counted.
        if o.session.shard.is_some_and(|s| !s.owns(index as usize)) || st.ran_ahead(index) {
            st.next += 1;
            let next = st.next;
            st.ahead.retain(|a| a.until > next);
            continue;
        }
        // A guided campaign chooses its aim every GUIDE_EVERY programs from the coverage so
        // far, and keeps it in the state, so a resumed campaign draws what it would have.
        if o.guided && index % GUIDE_EVERY == 0 {
            st.aim = guide(&knobs, &st.stats.coverage)
                .iter()
                .map(|o| o.mnemonic().to_string())
                .collect();
        }
        let aimed_knobs;
        let knobs_now = if o.guided {
            aimed_knobs = Knobs {
                aimed_share: GUIDE_SHARE,
                aimed: st
                    .aim
                    .iter()
                    .filter_map(|m| dxbc::Opcode::from_mnemonic(m))
                    .collect(),
                ..knobs.clone()
            };
            &aimed_knobs
        } else {
            &knobs
        };
        let (name, p) = random::nth(knobs_now, o.session.seed, index);
        st.next += 1;
        st.stats.programs += 1;
        let Ok(blob) = p.blob() else {
            // The generator's own failure: counted, never a translator's.
            st.stats.skipped += 1;
            continue;
        };
        let out = crate::session::guarded(&name, || v.program(&name, &blob));
        account(&mut st, &out, &blob);
        // Bounded: one line is already a generator bug to fix.
        for f in out
            .findings
            .iter()
            .take(100usize.saturating_sub(st.findings.len()))
        {
            st.findings.push(format!("program {index}: {f}"));
        }
        // A translator failure, or a panic of dxdiff itself: either way the program is shrunk
        // while it still fails the same way, and saved under a signature of its own.
        // A crash already signed is counted, not shrunk again: its class names the bug.
        let known = crash_class(&out).and_then(|class| {
            let tail = format!(" | {class}");
            st.divergences
                .iter_mut()
                .find(|d| d.signature.ends_with(&tail))
        });
        if let Some(d) = known {
            d.seen += 1;
        } else if let Some(class) = crash_class(&out) {
            let t0 = Instant::now();
            let small = shrink(
                &mut v,
                &name,
                p.clone(),
                o.shrink_time,
                |r| crash_class(r).as_ref() == Some(&class),
                |_, _| false,
            );
            let small_blob = small.blob().unwrap_or_else(|_| blob.clone());
            let sig = format!(
                "{} | {} | {class}",
                o.session.translator.name(),
                small.body_opcodes().join(" ")
            );
            record(&mut st, &cases, index, sig, &small, &small_blob, None)?;
            st.stats.shrink_seconds += t0.elapsed().as_secs_f64();
        }
        if out.counts().mismatch > 0 {
            st.stats.mismatching_programs += 1;
            let t0 = Instant::now();
            let translator = o.session.translator.clone();
            let known: Vec<String> = st.divergences.iter().map(|d| d.signature.clone()).collect();
            // The opcodes first: a signature costs a translation.
            let is_known = |c: &RandomProgram, b: &[u8]| {
                let ops = format!(" | {} | ", c.body_opcodes().join(" "));
                known.iter().any(|k| k.contains(&ops))
                    && known.contains(&signature(translator.as_ref(), c, b))
            };
            let small = shrink(
                &mut v,
                &name,
                p.clone(),
                o.shrink_time,
                |r| r.counts().mismatch > 0,
                is_known,
            );
            let small_blob = small.blob().unwrap_or_else(|_| blob.clone());
            let sig = signature(o.session.translator.as_ref(), &small, &small_blob);
            if let Some(d) = st.divergences.iter_mut().find(|d| d.signature == sig) {
                d.seen += 1;
            } else {
                // Shrink the inputs and save the case.
                v.opts.counterexamples = true;
                let saved = v.program(&name, &small_blob);
                v.opts.counterexamples = false;
                record(
                    &mut st,
                    &cases,
                    index,
                    sig,
                    &small,
                    &small_blob,
                    saved.counterexample.map(PathBuf::from),
                )?;
            }
            st.stats.shrink_seconds += t0.elapsed().as_secs_f64();
        }
        st.stats.seconds = base_seconds + started.elapsed().as_secs_f64();
        save_state(&state_path, &st)?;
        bar.set(st.next, &st.progress());
    }
    bar.finish();
    st.stats.seconds = base_seconds + started.elapsed().as_secs_f64();
    save_state(&state_path, &st)?;
    let _ = std::fs::remove_dir_all(&scratch);
    Ok(st)
}

/// Count one program's outcome into the campaign's statistics.
fn account(st: &mut State, out: &ProgramReport, blob: &[u8]) {
    st.stats.counts.add(out.counts());
    for c in &out.reached {
        *st.stats.coverage.entry(c.clone()).or_default() += 1;
    }
    match out.skip_kind {
        Some(SkipKind::Rejected) => {
            st.stats.rejected += 1;
            st.stats.refused(out.skipped.as_deref().unwrap_or(""));
        }
        Some(k) if k.is_translator_failure() => st.stats.crashed += 1,
        Some(_) => st.stats.skipped += 1,
        None => {
            for op in random::opcodes(blob) {
                st.stats.opcodes.insert(op.mnemonic().to_string());
            }
        }
    }
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
) -> Result<(), FuzzError> {
    if let Some(d) = st.divergences.iter_mut().find(|d| d.signature == sig) {
        d.seen += 1;
        return Ok(());
    }
    let file = format!("{}.json", slug(&sig, index));
    let mut case = counterexample
        .and_then(|c| crate::files::read_text(&c).ok())
        .and_then(|t| oracles::case::CaseFile::parse(&t).ok())
        .unwrap_or_else(|| {
            oracles::case::CaseFile::single(&file, blob, oracles::case::Run::new("program"))
        });
    case.name = file.trim_end_matches(".json").to_string();
    case.source_text = Some(p.asm());
    case.source_text_kind = Some("asm".into());
    for r in &mut case.runs {
        r.source = Some(format!("dxdiff fuzz: {sig}"));
    }
    let written = reports::cases::write_case(cases, file.trim_end_matches(".json"), &case)
        .map_err(|e| FuzzError::Write {
            path: e.path().to_path_buf(),
            source: std::io::Error::other(e.to_string()),
        })?;
    st.divergences.push(Divergence {
        signature: sig,
        case: format!(
            "cases/{}",
            written
                .file_name()
                .map_or(file.clone(), |f| f.to_string_lossy().into_owned())
        ),
        program: index,
        instructions: random::code(blob).len(),
        seen: 1,
    });
    Ok(())
}

#[cfg(test)]
mod error_tests {
    use super::*;

    #[test]
    fn fuzz_error_codes_are_distinct_and_not_empty() {
        let path = PathBuf::from("x");
        let all = [
            FuzzError::Gpu(crate::gpu::GpuError::Device("d".into())),
            FuzzError::State {
                path: path.clone(),
                what: "w".into(),
            },
            FuzzError::Out(crate::outdir::OutError::InUse {
                path: path.clone(),
                holder: "1".into(),
            }),
            FuzzError::Write {
                path,
                source: std::io::Error::other("e"),
            },
        ];
        let codes: std::collections::BTreeSet<_> = all.iter().map(FuzzError::code).collect();
        assert_eq!(codes.len(), all.len());
        assert!(codes.iter().all(|c| !c.is_empty()));
    }

    #[test]
    fn crash_classes_keep_every_message_line_and_drop_excerpts_and_frames() {
        let position = "translator crash: its WGSL does not validate: error: Entry point main at Vertex is invalid\n = Vertex shaders must return a `@builtin(position)` output value\n\n\ntint rejected the WGSL naga accepted: 16:1: a vertex shader must include the 'position' builtin";
        let cast = "translator crash: its WGSL does not validate: error: Entry point main at Vertex is invalid\n = Input value at location 0 has an invalid type\n   ┌─ wgsl:12:5\n   │\n12 │     output.o = x;\n   │     ^^^ here";
        use crate::translators::reason_class;
        let (a, b) = (reason_class(position), reason_class(cast));
        assert_ne!(a, b, "two bugs behind one first line are two divergences");
        assert!(a.contains("Vertex shaders must return a …"), "{a}");
        assert!(!b.contains("wgsl:"), "{b}");
        assert!(!b.contains("output.o"), "{b}");
        // Numbers and quoted names are blanked: one bug met at two places is one class.
        let at = |n: u32| {
            reason_class(&format!(
                "exited with exit status: 1 (stderr: TypeError: x is undefined\n    at f (file:///a.js:{n}:7))"
            ))
        };
        assert_eq!(at(10), at(99));
    }
}
