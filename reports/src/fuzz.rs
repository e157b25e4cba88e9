//! The state of a `dxdiff fuzz` campaign (`dxdiff-fuzz/2`, `DIR/state.json`): what ran, what it
//! found, and each distinct divergence with its saved case. Written after every program, so a
//! campaign resumes where it stopped.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::counts::Counts;

/// The state file's format tag. Version 2 keeps the lane counts as [`Counts`] (version 1 had
/// its own fields); a version-1 state is refused with that reason.
pub const FORMAT: &str = "dxdiff-fuzz/2";

/// One distinct divergence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Divergence {
    /// What names it: `translator | opcodes of the shrunk program | catalog ids`.
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
    /// Programs generated and run.
    pub programs: u64,
    /// Lanes by verdict.
    #[serde(flatten)]
    pub counts: Counts,
    /// Programs with at least one mismatching lane.
    pub mismatching_programs: u64,
    /// Programs the translator rejected with a catalog id.
    pub rejected: u64,
    /// Programs where the translator crashed or the device rejected its output.
    pub crashed: u64,
    /// Programs not run for another reason (GPU trouble, a program the generator could not
    /// build).
    pub skipped: u64,
    /// Seconds spent, over resumed runs.
    pub seconds: f64,
    /// Seconds of that spent shrinking divergences.
    pub shrink_seconds: f64,
    /// Opcode mnemonics that appeared in generated programs the translator accepted.
    pub opcodes: BTreeSet<String>,
    /// Programs the translator refused, by reason (its catalog id and words, numbers written
    /// `#` so that one reason at different instructions counts once): what a campaign that
    /// compares little is up against.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub refusals: BTreeMap<String, u64>,
    /// Programs per catalog cell reached (`stage op domain`, [`crate::coverage`]).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub coverage: BTreeMap<String, u64>,
}

/// Distinct refusal reasons kept; the rest are counted under [`OTHER_REFUSALS`].
pub const MAX_REFUSAL_REASONS: usize = 64;
/// Where refusals beyond [`MAX_REFUSAL_REASONS`] distinct reasons are counted.
pub const OTHER_REFUSALS: &str = "(other reasons)";

impl Stats {
    /// Count one refusal under its reason.
    pub fn refused(&mut self, detail: &str) {
        let mut key = String::with_capacity(detail.len().min(200));
        let mut digits = false;
        for c in detail.chars().take(200) {
            if c.is_ascii_digit() {
                if !digits {
                    key.push('#');
                }
                digits = true;
            } else {
                digits = false;
                key.push(c);
            }
        }
        if !self.refusals.contains_key(&key) && self.refusals.len() >= MAX_REFUSAL_REASONS {
            key = OTHER_REFUSALS.to_string();
        }
        *self.refusals.entry(key).or_default() += 1;
    }

    /// The most frequent refusal reasons, most first.
    pub fn top_refusals(&self, n: usize) -> Vec<(&str, u64)> {
        let mut all: Vec<(&str, u64)> = self
            .refusals
            .iter()
            .map(|(k, v)| (k.as_str(), *v))
            .collect();
        all.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        all.truncate(n);
        all
    }
}

/// `DIR/state.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The format tag, [`FORMAT`].
    pub format: String,
    /// Name of the translator under test.
    pub translator: String,
    /// The campaign's seed: the same seed generates the same programs.
    pub seed: u64,
    /// The next program index.
    pub next: u64,
    /// Counters over the whole campaign.
    pub stats: Stats,
    /// Distinct divergences, in the order first found.
    pub divergences: Vec<Divergence>,
    /// Generated programs that rely on what Direct3D leaves undefined, as `program N: finding`
    /// (the generator must never write one; a line here is a generator bug).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub findings: Vec<String>,
    /// What narrowing removed: opcodes and features the translator rejects.
    pub narrowed: Vec<String>,
    /// The shard this campaign is (`--shard K/N`: program indices K modulo N), if it is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<crate::part::Part>,
    /// Every setting beside the seed and the translator that decides what program `i` is and
    /// how it is judged (`vectors=16 model=5.0 executor=gpu stages=ps,vs,cs ...`): a campaign
    /// resumes, and shards merge, only under the same. Empty in a state written before it was
    /// recorded; the first resume records it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub knobs: String,
    /// Program indices at or past `next` that already ran: what the shards of a merged campaign
    /// ran beyond the shortest one. A resume passes over them, so none is run or counted twice.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ahead: Vec<Ahead>,
    /// A guided campaign's current aim (`--guided`): the opcodes it draws most until it
    /// chooses again.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aim: Vec<String>,
}

/// The indices `i` with `i % n == k` and `i < until` (at or past the state's `next`) that ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ahead {
    /// The residue.
    pub k: u64,
    /// The stride (the shard count).
    pub n: u64,
    /// The first index not run.
    pub until: u64,
}

impl Ahead {
    /// Whether program `index` is one of these.
    pub fn covers(&self, index: u64) -> bool {
        self.n > 0 && index % self.n == self.k && index < self.until
    }

    /// How many of these indices lie at or past `from`.
    pub fn count_from(&self, from: u64) -> u64 {
        if self.n == 0 || self.until <= from {
            return 0;
        }
        let first = from + (self.k + self.n - from % self.n) % self.n;
        if first >= self.until {
            0
        } else {
            (self.until - 1 - first) / self.n + 1
        }
    }
}

/// Why a text is not a fuzz state file this version reads. Codes: `fuzz-state.json`,
/// `fuzz-state.format`.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    /// The text is not JSON of this shape (`fuzz-state.json`).
    #[error("{0}")]
    Json(#[from] serde_json::Error),
    /// The format tag is not [`FORMAT`] (`fuzz-state.format`); holds the tag found.
    #[error("format `{0}`, expected `{FORMAT}`")]
    Format(String),
}

impl StateError {
    /// A stable, machine-readable code for this kind of error.
    pub fn code(&self) -> &'static str {
        match self {
            StateError::Json(_) => "fuzz-state.json",
            StateError::Format(_) => "fuzz-state.format",
        }
    }
}

impl State {
    /// A fresh campaign's state.
    pub fn new(translator: String, seed: u64) -> State {
        State {
            format: FORMAT.into(),
            translator,
            seed,
            next: 0,
            stats: Stats::default(),
            divergences: Vec::new(),
            findings: Vec::new(),
            narrowed: Vec::new(),
            shard: None,
            knobs: String::new(),
            ahead: Vec::new(),
            aim: Vec::new(),
        }
    }

    /// Whether program `index` already ran in a merged shard ([`State::ahead`]).
    pub fn ran_ahead(&self, index: u64) -> bool {
        self.ahead.iter().any(|a| a.covers(index))
    }

    /// The counters agree with each other and with the indices the campaign passed: programs
    /// at most the indices it could have run, each outcome at most the programs, lanes the sum
    /// of their verdicts, each divergence found at an index that ran. A state that fails this
    /// was edited or is corrupt; resuming or merging it would carry a wrong count on.
    pub fn check(&self) -> Result<(), String> {
        let s = &self.stats;
        let c = &s.counts;
        let mut ran = self.next;
        for a in &self.ahead {
            if a.n == 0 || a.k >= a.n {
                return Err(format!("ahead {}/{}: not a shard", a.k, a.n));
            }
            ran = ran
                .checked_add(a.count_from(self.next))
                .ok_or("ahead: too many indices")?;
        }
        if s.programs > ran {
            return Err(format!(
                "{} programs counted, but only {ran} program indices were passed",
                s.programs
            ));
        }
        let sum = |xs: &[u64]| xs.iter().try_fold(0u64, |t, x| t.checked_add(*x));
        if sum(&[s.rejected, s.crashed, s.skipped]).is_none_or(|n| n > s.programs) {
            return Err(format!(
                "{} rejected, {} crashed and {} skipped of {} programs",
                s.rejected, s.crashed, s.skipped, s.programs
            ));
        }
        if s.mismatching_programs > s.programs {
            return Err(format!(
                "{} mismatching programs of {}",
                s.mismatching_programs, s.programs
            ));
        }
        let verdicts = sum(&[c.matched, c.within, c.adapted, c.mismatch, c.inconclusive]);
        if verdicts != Some(c.lanes) {
            return Err(format!(
                "{} lanes, but the verdicts add up to {}",
                c.lanes,
                verdicts.map_or_else(|| "more than 2^64".into(), |v| v.to_string())
            ));
        }
        for d in &self.divergences {
            if d.seen == 0
                || d.seen > s.programs
                || !(d.program < self.next || self.ran_ahead(d.program))
            {
                return Err(format!(
                    "divergence `{}`: found at program {}, seen {} times, of {} programs",
                    d.signature, d.program, d.seen, s.programs
                ));
            }
        }
        if !(s.seconds.is_finite() && s.seconds >= 0.0 && s.shrink_seconds.is_finite()) {
            return Err(format!("{} seconds", s.seconds));
        }
        Ok(())
    }

    /// Read a state file; the error says why it is not one this version reads.
    pub fn parse(text: &str) -> Result<State, StateError> {
        crate::parse_tagged(text, FORMAT, StateError::Format)
    }

    /// The progress message, beside the program count and rate that the progress bar (or
    /// its plain line) shows.
    pub fn progress(&self) -> String {
        let s = &self.stats;
        let secs = s.seconds.max(1e-9);
        format!(
            "{} lanes ({:.0}/s), {} rejected ({:.0}%), {} crashed, {} distinct mismatches",
            s.counts.lanes,
            s.counts.lanes as f64 / secs,
            s.rejected,
            100.0 * s.rejected as f64 / (s.programs.max(1)) as f64,
            s.crashed,
            self.divergences.len()
        )
    }

    /// The last line of a campaign.
    pub fn closing_line(&self) -> String {
        format!(
            "fuzz: {} programs, {} lanes compared, {} distinct mismatches",
            self.stats.programs,
            self.stats.counts.lanes,
            self.divergences.len()
        )
    }
}

/// Write a campaign folder's `report.html` in `out`; `case_text` reads a saved case by its path
/// relative to the folder (the caller's bounded, confined reader). `fuzz` and `merge` both
/// write the report through this.
pub fn write_report(
    out: &std::path::Path,
    st: &State,
    case_text: &dyn Fn(&str) -> Option<String>,
) -> Result<(), crate::folder::FolderError> {
    crate::folder::write(&out.join("report.html"), html(st, case_text).as_bytes())
}

/// The self-contained HTML report of a campaign: the summary, the distinct divergences
/// (sortable), and each one's shrunk program, as `case_text` returns the saved case's text for
/// its path (relative to the campaign folder).
pub fn html(st: &State, case_text: &dyn Fn(&str) -> Option<String>) -> String {
    use crate::html::{Cell, Page, anchor, col, num};
    let s = &st.stats;
    let mut page = Page::new(
        &format!("dxdiff fuzz: {}", st.translator),
        &format!("seed {}, {} programs", st.seed, s.programs),
    );
    page.heading("summary", "Summary");
    let secs = s.seconds.max(1e-9);
    page.cards(&[
        ("programs", s.programs.to_string(), ""),
        (
            "programs per second",
            format!("{:.2}", s.programs as f64 / secs),
            "",
        ),
        (
            "distinct mismatches",
            st.divergences.len().to_string(),
            if st.divergences.is_empty() {
                "good"
            } else {
                "bad"
            },
        ),
        (
            "programs with a mismatch",
            s.mismatching_programs.to_string(),
            "",
        ),
        ("rejected", s.rejected.to_string(), ""),
        (
            "translator crashes",
            s.crashed.to_string(),
            if s.crashed > 0 { "bad" } else { "" },
        ),
        ("opcodes covered", s.opcodes.len().to_string(), ""),
    ]);
    page.verdicts(&s.counts);
    page.para(&st.closing_line());
    if !st.narrowed.is_empty() {
        page.para(&format!(
            "narrowed (the translator rejects): {}",
            st.narrowed.join(", ")
        ));
    }
    if !st.findings.is_empty() {
        page.subheading(
            "findings",
            "Generated programs that rely on undefined behaviour (a generator bug)",
        );
        page.list(&st.findings);
    }
    let ops: Vec<String> = s.opcodes.iter().cloned().collect();
    if !ops.is_empty() {
        crate::coverage::html(&mut page, &s.coverage, &ops);
    }
    page.heading("divergences", "Distinct divergences");
    let rows: Vec<Vec<Cell>> = st
        .divergences
        .iter()
        .map(|d| {
            vec![
                Cell::code(&d.signature).link(format!("#{}", anchor("case", &d.case))),
                Cell::num(d.instructions as u64),
                Cell::num(d.program),
                Cell::num(d.seen),
                Cell::code(&d.case),
            ]
        })
        .collect();
    page.table(
        &[
            col("signature"),
            num("instructions"),
            num("first program"),
            num("seen"),
            col("case"),
        ],
        &rows,
    );
    for d in &st.divergences {
        page.subheading(&anchor("case", &d.case), &d.signature);
        page.para(&format!(
            "reproduce with: dxdiff replay --executor gpu {}",
            d.case
        ));
        match case_text(&d.case) {
            Some(text) => page.text_block(
                "the shrunk program and its expectations (dxdiff-case/1)",
                &text,
                true,
            ),
            None => page.para("the case file could not be read"),
        }
    }
    page.finish()
}

/// What `dxdiff fuzz` prints when a campaign ends, its closing line last: the translator and
/// seed, program and lane counts with rates, opcode coverage against `rows` (the generators'
/// instruction rows, by mnemonic), every divergence and every finding.
pub fn summary(st: &State, rows: &[&str]) -> String {
    let s = &st.stats;
    let secs = s.seconds.max(1e-9);
    let mut out = format!("translator: {}, seed {}\n", st.translator, st.seed);
    if !st.narrowed.is_empty() {
        out += &format!(
            "narrowed (the translator rejects): {}\n",
            st.narrowed.join(", ")
        );
    }
    out += &format!(
        "programs: {} in {:.1} s ({:.2} programs/s); rejected {} ({:.1}%), translator crashes {}, skipped {}\n",
        s.programs,
        s.seconds,
        s.programs as f64 / secs,
        s.rejected,
        100.0 * s.rejected as f64 / s.programs.max(1) as f64,
        s.crashed,
        s.skipped
    );
    for (reason, n) in s.top_refusals(5) {
        out += &format!("  refused {n}×: {reason}\n");
    }
    let c = &s.counts;
    out += &format!(
        "lanes: {} ({:.0} lanes/s): {} match, {} within tolerance, {} adapted, {} mismatch, {} inconclusive; {} programs with a mismatch; shrinking {:.1} s\n",
        c.lanes,
        c.lanes as f64 / secs,
        c.matched,
        c.within,
        c.adapted,
        c.mismatch,
        c.inconclusive,
        s.mismatching_programs,
        s.shrink_seconds
    );
    let uncovered: Vec<&str> = rows
        .iter()
        .copied()
        .filter(|m| !s.opcodes.contains(*m))
        .collect();
    out += &format!(
        "opcodes covered: {} ({} of the {} instruction rows){}\n",
        s.opcodes.len(),
        rows.len() - uncovered.len(),
        rows.len(),
        if uncovered.is_empty() {
            String::new()
        } else {
            format!("; not yet: {}", uncovered.join(" "))
        }
    );
    // The catalog's (opcode, domain) cells of the opcodes the campaign ran, and how many it
    // reached in some stage (`crate::coverage`; stats.coverage has them per stage).
    let ops: Vec<String> = s.opcodes.iter().cloned().collect();
    let (cells, _) = crate::coverage::rows(&s.coverage, &ops);
    if !cells.is_empty() {
        out += &format!(
            "catalog cells reached: {} of the {} (opcode, domain) cells of the opcodes run\n",
            cells.iter().filter(|c| c.reached()).count(),
            cells.len()
        );
    }
    for d in &st.divergences {
        out += &format!(
            "divergence: {} ({} instructions, program {}, seen {}×): {}\n",
            d.signature, d.instructions, d.program, d.seen, d.case
        );
    }
    for f in &st.findings {
        out += &format!("program relies on undefined behaviour: {f}\n");
    }
    out + &st.closing_line() + "\n"
}

/// JUnit XML: one test case per distinct divergence (a failure), or one passing case when the
/// campaign found none.
pub fn junit(st: &State) -> String {
    use crate::junit::{Case, Outcome, document};
    let mut cases: Vec<Case> = st
        .divergences
        .iter()
        .map(|d| Case {
            class: "fuzz".into(),
            name: d.signature.clone(),
            outcome: Outcome::Failed(format!(
                "program {} ({} instructions, seen {}×): {}",
                d.program, d.instructions, d.seen, d.case
            )),
        })
        .collect();
    if cases.is_empty() {
        cases.push(Case {
            class: "fuzz".into(),
            name: format!("{} programs", st.stats.programs),
            outcome: if st.stats.counts.lanes == 0 {
                Outcome::Skipped("no lane was compared".into())
            } else {
                Outcome::Passed
            },
        });
    }
    document(
        &format!("dxdiff fuzz {} seed {}", st.translator, st.seed),
        &cases,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_counts_coverage_and_ends_with_the_closing_line() {
        let mut st = State::new("builtin/exact".into(), 7);
        st.stats.programs = 4;
        st.stats.seconds = 2.0;
        st.stats.opcodes.insert("add".into());
        st.findings
            .push("program 3: tgsm-race at instruction 2".into());
        let text = summary(&st, &["add", "mul"]);
        assert!(
            text.starts_with("translator: builtin/exact, seed 7\n"),
            "{text}"
        );
        assert!(text.contains("(2.00 programs/s)"), "{text}");
        assert!(
            text.contains("opcodes covered: 1 (1 of the 2 instruction rows); not yet: mul\n"),
            "{text}"
        );
        assert!(text.contains("program relies on undefined behaviour: program 3"));
        assert_eq!(text.lines().last(), Some(st.closing_line().as_str()));
    }

    #[test]
    fn the_html_page_links_each_divergence_to_its_case() {
        let mut st = State::new("cmd:<x>".into(), 7);
        st.stats.programs = 2;
        st.divergences.push(Divergence {
            signature: "cmd:<x> | udiv | ".into(),
            case: "cases/fuzz-1-udiv.json".into(),
            program: 1,
            instructions: 3,
            seen: 2,
        });
        let html = html(&st, &|rel| {
            (rel == "cases/fuzz-1-udiv.json").then(|| "{\"source_text\": \"udiv r0 <\"}".into())
        });
        assert!(
            html.contains("<a href=\"#case-cases-fuzz-1-udiv-json\">cmd:&lt;x&gt; | udiv | </a>")
        );
        assert!(html.contains("id=\"case-cases-fuzz-1-udiv-json\""));
        assert!(html.contains("udiv r0 &lt;"));
        assert!(html.contains("<b>1</b><span>distinct mismatches</span>"));
        // A case that cannot be read is said, not skipped silently.
        assert!(super::html(&st, &|_| None).contains("the case file could not be read"));
    }

    #[test]
    fn the_html_page_has_the_coverage_table_of_the_opcodes_run() {
        let mut st = State::new("builtin/exact".into(), 7);
        assert!(!html(&st, &|_| None).contains("Coverage of the catalog"));
        st.stats.opcodes.insert("mad".into());
        st.stats
            .coverage
            .insert("ps mad fusion-sensitive".into(), 3);
        let page = html(&st, &|_| None);
        assert!(page.contains("Coverage of the catalog"), "{page}");
        assert!(page.contains("fusion-sensitive"), "{page}");
        // The summary counts the same cells as the table.
        let text = summary(&st, &["mad"]);
        let (rows, _) = crate::coverage::rows(&st.stats.coverage, &["mad".to_string()]);
        assert!(
            text.contains(&format!("catalog cells reached: 1 of the {} ", rows.len())),
            "{text}"
        );
    }

    #[test]
    fn state_error_codes_are_distinct_and_not_empty() {
        let json = State::parse("{").expect_err("not JSON");
        let format = State::parse(r#"{"format":"x"}"#).expect_err("other format");
        assert!(matches!(format, StateError::Format(_)));
        assert_ne!(json.code(), format.code());
        assert!(!json.code().is_empty() && !format.code().is_empty());
    }

    #[test]
    fn states_round_trip_and_refuse_other_versions() {
        let mut s = State::new("builtin/exact".into(), 7);
        s.stats.programs = 3;
        s.stats.counts.lanes = 30;
        let text = serde_json::to_string(&s).expect("serializes");
        assert_eq!(State::parse(&text).expect("parses"), s);
        let old = text.replace(FORMAT, "dxdiff-fuzz/1");
        assert!(
            State::parse(&old)
                .expect_err("refused")
                .to_string()
                .contains("dxdiff-fuzz/1")
        );
        assert_eq!(
            s.closing_line(),
            "fuzz: 3 programs, 30 lanes compared, 0 distinct mismatches"
        );
        assert!(junit(&s).contains("tests=\"1\" failures=\"0\""));
    }

    #[test]
    fn indices_ahead_are_counted_and_a_state_is_checked_against_them() {
        let a = Ahead {
            k: 1,
            n: 2,
            until: 10,
        };
        assert_eq!(a.count_from(6), 2, "7 and 9");
        assert_eq!(a.count_from(0), 5);
        assert_eq!(a.count_from(10), 0);
        assert!(a.covers(9) && !a.covers(8) && !a.covers(11));
        let mut s = State::new("t".into(), 1);
        s.next = 4;
        s.stats.programs = 5;
        assert!(s.check().is_err(), "5 programs from 4 indices");
        s.ahead.push(a);
        assert_eq!(s.check(), Ok(()), "5, 7 and 9 ran ahead");
        s.stats.counts.lanes = 1;
        assert!(s.check().is_err(), "a lane without a verdict");
        s.stats.counts.matched = 1;
        s.stats.rejected = u64::MAX;
        s.stats.crashed = 2;
        assert!(s.check().is_err(), "outcomes that wrap");
    }
}
