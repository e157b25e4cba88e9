//! `dxdiff sweep`: every 32-bit input of one-source ops in a range, interpreter against GPU,
//! every input judged. Inputs stream in chunks of [`CHUNK`] (four inputs per lane, one per
//! component, each judged on its own component), so memory stays bounded at any range; the
//! state (`DIR/sweep.json`, `reports::sweep`) is written after every chunk, so an interrupted
//! sweep resumes where it stopped. The first mismatching chunks of each op save a case.

use std::path::{Path, PathBuf};
use std::time::Instant;

use generators::programs::SingleOp;
use oracles::interp::Resources;
use reports::sweep::State;

use crate::exec::{Batch, Executor};
use crate::outdir::{OutDir, write_atomic};
use crate::session::{Session, Settings};

pub use reports::sweep::CHUNK;
/// Cases saved per op at most.
const CASES_PER_OP: usize = 4;

/// What to sweep.
#[derive(Debug, Clone)]
pub struct SweepOptions {
    /// The session's settings: translator, executor, quietness and the shard (the chunks K
    /// modulo N of each op). The seed is unused: a sweep's inputs are every word of its range.
    pub session: Settings,
    /// The ops as given (`rcp`, `mov_sat`, `mov:neg`; see [`program`]).
    pub ops: Vec<String>,
    /// The first input.
    pub from: u32,
    /// The last input (inclusive).
    pub to: u32,
    /// The sweep folder.
    pub out: PathBuf,
}

/// Why a sweep could not run. Codes: `sweep.op`, `sweep.range`, `sweep.state`, `sweep.write`,
/// and the GPU's and the folder's own.
#[derive(Debug, thiserror::Error)]
pub enum SweepError {
    /// An op that is not a one-source ALU op, or a modifier that is not one.
    #[error("{0}")]
    Op(String),
    /// `--from` above `--to`.
    #[error("--from {from:#010x} is above --to {to:#010x}")]
    Range {
        /// The first input.
        from: u32,
        /// The last input.
        to: u32,
    },
    /// The saved state cannot be read, or belongs to another sweep.
    #[error("{path}: [{}] {source}", source.code())]
    State {
        /// `sweep.json`.
        path: PathBuf,
        /// What is wrong with it.
        source: reports::sweep::StateError,
    },
    /// The saved state is there but cannot be read (not UTF-8, not a regular file, too large):
    /// refused, not overwritten.
    #[error("{path}: {what}")]
    Unreadable {
        /// `sweep.json`.
        path: PathBuf,
        /// Why.
        what: String,
    },
    /// A state file or case could not be written.
    #[error("{path}: cannot write: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// No usable GPU adapter, or the worker failed.
    #[error("{0}")]
    Gpu(#[from] crate::gpu::GpuError),
    /// The folder cannot be used.
    #[error(transparent)]
    Out(#[from] crate::outdir::OutError),
}

impl SweepError {
    /// The stable code.
    pub fn code(&self) -> &'static str {
        match self {
            SweepError::Op(_) => "sweep.op",
            SweepError::Unreadable { .. } => "sweep.unreadable",
            SweepError::Range { .. } => "sweep.range",
            SweepError::State { .. } => "sweep.state",
            SweepError::Write { .. } => "sweep.write",
            SweepError::Gpu(e) => e.code(),
            SweepError::Out(e) => e.code(),
        }
    }
}

/// The program of an op as `sweep` names it: a one-source ALU mnemonic, `_sat` for the
/// saturating form, and `:neg`, `:abs` or `:negabs` for a source modifier (`mov_sat:negabs` is
/// `mov_sat o0, -|v0|`).
pub fn program(spec: &str) -> Result<SingleOp, SweepError> {
    let (head, modifier) = match spec.split_once(':') {
        None => (spec, dxbc::Modifier::None),
        Some((h, "neg")) => (h, dxbc::Modifier::Neg),
        Some((h, "abs")) => (h, dxbc::Modifier::Abs),
        Some((h, "negabs")) => (h, dxbc::Modifier::AbsNeg),
        Some((_, m)) => {
            return Err(SweepError::Op(format!(
                "{spec}: the modifier `{m}` is not neg, abs or negabs"
            )));
        }
    };
    let (name, saturate) = match head.strip_suffix("_sat") {
        Some(n) => (n, true),
        None => (head, false),
    };
    let op = dxbc::Opcode::from_mnemonic(name)
        .ok_or_else(|| SweepError::Op(format!("{spec}: no opcode `{name}`")))?;
    let p = generators::programs::single_with(op, modifier, saturate)
        .filter(|p| p.sources == 1)
        .ok_or_else(|| {
            SweepError::Op(format!(
                "{spec}: sweep takes one-source ALU ops (rcp, frc, ftoi, countbits, mov, ...)"
            ))
        })?;
    Ok(p)
}

/// The chunk of inputs `start..start + n`, four to a lane in component order. The ops are
/// per component, so each component is an independent run of the op; the last lane repeats
/// its last input where `n` is not a multiple of four (those components are not counted).
fn chunk(start: u64, n: u64) -> Batch {
    let last = start + n.max(1) - 1;
    let inputs = (0..n.div_ceil(4))
        .map(|l| std::array::from_fn(|c| (start + 4 * l + c as u64).min(last) as u32))
        .collect();
    Batch::lanes(1, inputs, Resources::default())
}

fn save(path: &Path, st: &State) -> Result<(), SweepError> {
    let text = serde_json::to_string_pretty(st).unwrap_or_default();
    write_atomic(path, text.as_bytes()).map_err(|source| SweepError::Write {
        path: path.to_path_buf(),
        source,
    })
}

/// Run (or resume) a sweep; the state when it is done, and the adapter it ran on.
pub fn run(o: &SweepOptions, adapter: &str) -> Result<(State, String), SweepError> {
    if o.from > o.to {
        return Err(SweepError::Range {
            from: o.from,
            to: o.to,
        });
    }
    let programs = o
        .ops
        .iter()
        .map(|s| program(s))
        .collect::<Result<Vec<_>, _>>()?;
    // The folder is checked and held before any work, so nothing measured is lost to it.
    let out = OutDir::open(&o.out)?;
    let path = out.join("sweep.json");
    let fresh = State {
        shard: o.session.shard.map(crate::part),
        ..State::new(o.session.translator.name(), o.from, o.to, &o.ops)
    };
    // A state that cannot be read (not UTF-8, a FIFO, too large) is refused, never
    // overwritten: only a missing one starts afresh.
    let mut st = match crate::files::read_text(&path) {
        Ok(text) => State::parse(&text)
            .and_then(|saved| fresh.resume(saved))
            .map_err(|source| SweepError::State {
                path: path.clone(),
                source,
            })?,
        Err(crate::files::FileError::Io { source, .. })
            if source.kind() == std::io::ErrorKind::NotFound =>
        {
            fresh
        }
        Err(e) => {
            return Err(SweepError::Unreadable {
                path: path.clone(),
                what: format!("[{}] {e}", e.code()),
            });
        }
    };
    // Every chunk's counterexample is saved; the sweep's own progress is the only output.
    let opts = Settings {
        counterexamples: true,
        shard: None,
        quiet: true,
        ..o.session.clone()
    };
    let mut v = Session::new(opts, adapter, &out.join("cases"))?;
    let end = u64::from(o.to) + 1;
    let total: u64 = (end - u64::from(o.from)) * st.ops.len() as u64;
    let done = |st: &State| {
        st.ops
            .iter()
            .map(|s| s.next - u64::from(o.from))
            .sum::<u64>()
    };
    let mut bar = crate::progress::Progress::new("sweep", Some(total), o.session.quiet);
    let started = Instant::now();
    let base = st.seconds;
    for (k, p) in programs.iter().enumerate() {
        while st.ops[k].next < end {
            let start = st.ops[k].next;
            let n = CHUNK.min(end - start);
            // Another shard's chunk: passed over, not run or counted.
            let index = (start - u64::from(o.from)) / CHUNK;
            if o.session.shard.is_some_and(|s| !s.owns(index as usize)) {
                st.ops[k].next = start + n;
                continue;
            }
            let name = format!("{}-{start:08x}", st.ops[k].op.replace(':', "-"));
            let batch = chunk(start, n);
            let r = crate::session::guarded(&name, || {
                v.single_over(&name, p, &batch, Some(n as usize))
            });
            let op = &mut st.ops[k];
            op.tally.merge(&r.tally);
            if let Some(why) = &r.skipped
                && r.tally.counts.lanes == 0
            {
                // A program the translator rejects (or a worker that cannot run it) stops the
                // op: the reason is the op's outcome.
                op.skipped = Some(why.clone());
                op.next = end;
            } else {
                op.next = start + n;
            }
            if let Some(c) = r.counterexample
                && op.cases.len() < CASES_PER_OP
            {
                op.cases.push(c);
            }
            st.seconds = base + started.elapsed().as_secs_f64();
            save(&path, &st)?;
            let c = st.totals();
            bar.set(
                done(&st),
                &format!("{} match, {} mismatch", c.matched, c.mismatch),
            );
        }
    }
    bar.finish();
    // The last chunks may have been another shard's: the state says the ops are done.
    save(&path, &st)?;
    Ok((st, v.gpu.name()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ops_are_one_source_alu_ops_with_a_modifier_and_sat() {
        let p = program("mov_sat:negabs").expect("a move");
        let shader = dxbc::Shader::parse(&p.blob).expect("parses");
        let text = dxbc::disassemble(&shader.program, dxbc::Syntax::Fxc);
        assert!(text.contains("mov_sat o0.xyzw, -|v0.xyzw|"), "{text}");
        assert!(program("rcp").is_ok() && program("countbits").is_ok());
        assert_eq!(program("add").expect_err("two sources").code(), "sweep.op");
        assert_eq!(program("nope").expect_err("unknown").code(), "sweep.op");
        assert_eq!(program("mov:sat").expect_err("modifier").code(), "sweep.op");
        let b = chunk(0xffff_fffa, 6);
        assert_eq!(b.vectors, 2);
        assert_eq!(
            b.invocation(0, 0),
            &[[0xffff_fffa, 0xffff_fffb, 0xffff_fffc, 0xffff_fffd]]
        );
        assert_eq!(
            b.invocation(1, 0),
            &[[0xffff_fffe, u32::MAX, u32::MAX, u32::MAX]]
        );
    }
}
