//! The state and report of `dxdiff sweep` (`dxdiff-sweep/1`): every 32-bit input of one-source
//! ops in a range, per op the next input to run, the verdict counts, the lanes each catalog
//! entry adapted, the distance histogram and the saved cases. The state is the report: a sweep
//! resumes from it, and renders it as Markdown, HTML and its closing line.

use serde::{Deserialize, Serialize};

use crate::counts::{Counts, Tally};
use crate::verify::{ProgramReport, RunReport};

/// The format tag.
pub const FORMAT: &str = "dxdiff-sweep/1";

/// Inputs per chunk: one dispatch of a quarter as many lanes (four inputs a lane), one state
/// write, and the unit `--shard` deals out.
pub const CHUNK: u64 = 1 << 22;

/// The chunk of states written before the chunk was recorded (one input a lane, 2^20).
fn chunk_before_it_was_recorded() -> u64 {
    1 << 20
}

/// One op's progress and outcome.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct OpState {
    /// The op as given: `rcp`, `mov_sat`, `mov:negabs`.
    pub op: String,
    /// The next input to run (`to + 1` once the op is done).
    pub next: u64,
    /// Inputs per verdict (each input judged on its own), adapted inputs per entry, distances.
    #[serde(flatten)]
    pub tally: Tally,
    /// The cases saved for its first mismatching chunks.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cases: Vec<String>,
    /// Why the op did not run, if it did not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skipped: Option<String>,
}

/// `DIR/sweep.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The format tag, [`FORMAT`].
    pub format: String,
    /// The translator under test.
    pub translator: String,
    /// The first input of the range.
    pub from: u32,
    /// The last input of the range (inclusive).
    pub to: u32,
    /// The ops, in the order given.
    pub ops: Vec<OpState>,
    /// Seconds spent, over resumed runs.
    pub seconds: f64,
    /// The shard this sweep is (`--shard K/N`: chunks K modulo N of each op), if it is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<crate::part::Part>,
    /// Inputs per chunk ([`CHUNK`] when written): a shard owns chunks by index, so a state
    /// resumes only with the chunk it was cut into.
    #[serde(default = "chunk_before_it_was_recorded")]
    pub chunk: u64,
}

/// Why a text is not a sweep state this version reads, or belongs to another sweep. Codes:
/// `sweep-state.json`, `sweep-state.format`, `sweep-state.other`.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    /// Not JSON of this shape.
    #[error("not a sweep state: {0}")]
    Json(#[from] serde_json::Error),
    /// Another format or version.
    #[error("format {0}, this dxdiff reads {FORMAT}")]
    Format(String),
    /// A state of another sweep (translator, range or ops).
    #[error("the folder holds another sweep: {0}")]
    Other(String),
}

impl StateError {
    /// The stable code.
    pub fn code(&self) -> &'static str {
        match self {
            StateError::Json(_) => "sweep-state.json",
            StateError::Format(_) => "sweep-state.format",
            StateError::Other(_) => "sweep-state.other",
        }
    }
}

impl State {
    /// A fresh sweep of `ops` over `from..=to`.
    pub fn new(translator: String, from: u32, to: u32, ops: &[String]) -> State {
        State {
            format: FORMAT.into(),
            translator,
            from,
            to,
            ops: ops
                .iter()
                .map(|op| OpState {
                    op: op.clone(),
                    next: u64::from(from),
                    ..OpState::default()
                })
                .collect(),
            seconds: 0.0,
            shard: None,
            chunk: CHUNK,
        }
    }

    /// Read a saved state.
    pub fn parse(text: &str) -> Result<State, StateError> {
        crate::parse_tagged(text, FORMAT, StateError::Format)
    }

    /// `saved`, if it is this sweep (same translator, range, ops and shard), to resume from.
    pub fn resume(self, saved: State) -> Result<State, StateError> {
        let ops = |s: &State| s.ops.iter().map(|o| o.op.clone()).collect::<Vec<_>>();
        let shard = |s: &State| s.shard.as_ref().map(|p| p.shard);
        if shard(&saved) != shard(&self) {
            return Err(StateError::Other(format!(
                "shard {:?}, not {:?}",
                shard(&saved),
                shard(&self)
            )));
        }
        // The dxdiff that resumes is the one that ran the shard from now on.
        let mut saved = saved;
        saved.shard = self.shard.clone();
        if saved.chunk != self.chunk {
            return Err(StateError::Other(format!(
                "chunks of {} inputs, not {} (written by another dxdiff)",
                saved.chunk, self.chunk
            )));
        }
        if saved.translator != self.translator {
            return Err(StateError::Other(format!(
                "translator {}, not {}",
                saved.translator, self.translator
            )));
        }
        if (saved.from, saved.to) != (self.from, self.to) || ops(&saved) != ops(&self) {
            return Err(StateError::Other(format!(
                "{} over {:#010x}..={:#010x}, not {} over {:#010x}..={:#010x}",
                ops(&saved).join(" "),
                saved.from,
                saved.to,
                ops(&self).join(" "),
                self.from,
                self.to
            )));
        }
        Ok(saved)
    }

    /// Verdict counts over every op.
    pub fn totals(&self) -> Counts {
        let mut c = Counts::default();
        for o in &self.ops {
            c.add(&o.tally.counts);
        }
        c
    }

    /// The last line: `sweep: N ops, N inputs: N match, N within tolerance, N adapted, N
    /// mismatch` (inconclusive inputs, if any, are named before it).
    pub fn closing_line(&self) -> String {
        let t = self.totals();
        format!(
            "sweep: {} ops, {} inputs: {} match, {} within tolerance, {} adapted, {} mismatch",
            self.ops.len(),
            t.lanes,
            t.matched,
            t.within,
            t.adapted,
            t.mismatch
        )
    }

    /// The sweep as a run report, one program per op, for the verify report's renderings.
    pub fn as_report(&self, adapter: &str) -> RunReport {
        let mut r = RunReport::new(self.translator.clone(), 0, adapter.into(), 0);
        r.seconds.insert("total".into(), self.seconds);
        for o in &self.ops {
            let mut p = ProgramReport::new(&o.op);
            p.tally = o.tally.clone();
            p.skipped = o.skipped.clone();
            p.counterexample = o.cases.first().cloned();
            r.push(p);
        }
        r
    }
}

/// The self-contained HTML page: the verify page's shape, one program per op (its verdicts,
/// adapted lanes per entry, and the histogram of how far its differing inputs were).
pub fn html(st: &State, adapter: &str) -> String {
    crate::verify::html_titled(
        &st.as_report(adapter),
        &format!("dxdiff sweep: {}", st.translator),
        &format!(
            "inputs {:#010x}..={:#010x}, one input per lane, adapter {adapter}",
            st.from, st.to
        ),
    )
}

/// Write a sweep folder's reports (`report.md`, `report.html`) in `out`, naming `adapter` as
/// the device; the Markdown. `sweep` and `merge` both write the folder through this.
pub fn write_folder(
    out: &std::path::Path,
    st: &State,
    adapter: &str,
) -> Result<String, crate::folder::FolderError> {
    let md = markdown(st);
    crate::folder::write(&out.join("report.md"), md.as_bytes())?;
    crate::folder::write(&out.join("report.html"), html(st, adapter).as_bytes())?;
    Ok(md)
}

/// The Markdown table: one row per op, with its progress and counts.
pub fn markdown(st: &State) -> String {
    let mut s = format!(
        "# dxdiff sweep\n\ntranslator `{}`, inputs {:#010x}..={:#010x}\n\n| op | inputs | match | within tolerance | adapted | mismatch | inconclusive | done | cases |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |\n",
        st.translator, st.from, st.to
    );
    let span = u64::from(st.to) - u64::from(st.from) + 1;
    for o in &st.ops {
        let c = &o.tally.counts;
        let done = o.next.saturating_sub(u64::from(st.from));
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {:.1}% | {} |\n",
            o.op,
            c.lanes,
            c.matched,
            c.within,
            c.adapted,
            c.mismatch,
            c.inconclusive,
            100.0 * done as f64 / span as f64,
            crate::text::cell(&o.skipped.clone().unwrap_or_else(|| o.cases.join(", ")))
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use oracles::verdict::Verdict;

    #[test]
    fn states_resume_only_the_same_sweep_and_render() {
        let ops = vec!["rcp".to_string(), "mov:neg".to_string()];
        let mut st = State::new("builtin/exact".into(), 0x3f80_0000, 0x3f80_00ff, &ops);
        st.ops[0].next = 0x3f80_0100;
        st.ops[0].tally.add(&Verdict::Match);
        st.ops[0].tally.add(&Verdict::Mismatch);
        let text = serde_json::to_string(&st).expect("serializes");
        let back = State::parse(&text).expect("parses");
        assert_eq!(back, st);
        let fresh = State::new("builtin/exact".into(), 0x3f80_0000, 0x3f80_00ff, &ops);
        assert_eq!(fresh.clone().resume(back.clone()).expect("same"), st);
        let other = State::new("builtin/exact".into(), 0, 0xff, &ops);
        assert_eq!(
            other.resume(back.clone()).expect_err("range").code(),
            "sweep-state.other"
        );
        let mut old = back.clone();
        old.chunk = 1 << 20;
        assert_eq!(
            fresh.clone().resume(old).expect_err("chunk").code(),
            "sweep-state.other"
        );
        let text = text.replace(&format!(",\"chunk\":{CHUNK}"), "");
        assert_eq!(State::parse(&text).expect("parses").chunk, 1 << 20);
        let other = State::new("vkd3d".into(), 0x3f80_0000, 0x3f80_00ff, &ops);
        assert_eq!(
            other.resume(back).expect_err("translator").code(),
            "sweep-state.other"
        );
        assert_eq!(
            State::parse(r#"{"format":"dxdiff-sweep/0"}"#)
                .expect_err("old")
                .code(),
            "sweep-state.format"
        );
        assert_eq!(
            st.closing_line(),
            "sweep: 2 ops, 2 inputs: 1 match, 0 within tolerance, 0 adapted, 1 mismatch"
        );
        let md = markdown(&st);
        assert!(
            md.contains("| rcp | 2 | 1 | 0 | 0 | 1 | 0 | 100.0% |"),
            "{md}"
        );
        assert!(
            md.contains("| mov:neg | 0 | 0 | 0 | 0 | 0 | 0 | 0.0% |"),
            "{md}"
        );
        let r = st.as_report("llvmpipe");
        assert_eq!(r.totals.mismatch, 1);
        assert_eq!(r.programs.len(), 2);
    }
}
