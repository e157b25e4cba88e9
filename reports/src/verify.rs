//! The report of `dxdiff verify` (`dxdiff-report/1`): one line per program with its verdict
//! counts, the lanes each catalog entry adapted, the programs skipped by kind, where the time
//! went; rendered as JSON, Markdown and the closing line scripts read.

use std::collections::BTreeMap;

use oracles::verdict::{Skip, SkipKind, Verdict};
use serde::{Deserialize, Serialize};

use crate::counts::{Counts, Tally};

/// The report's format tag.
pub const FORMAT: &str = "dxdiff-report/1";

/// One program's outcome.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ProgramReport {
    /// The program's name (built-in program, corpus path or case id).
    pub name: String,
    /// Its lanes per verdict and the lanes each catalog entry adapted.
    #[serde(flatten)]
    pub tally: Tally,
    /// Why the program did not (fully) run, if it did not.
    pub skipped: Option<String>,
    /// That reason's kind, counted in the report's `skips`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skip_kind: Option<SkipKind>,
    /// The saved counterexample, if any lane mismatched.
    pub counterexample: Option<String>,
    /// Why a mismatch's counterexample could not be written (the mismatch still counts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counterexample_error: Option<String>,
    /// What the program relies on that Direct3D leaves undefined (`<kind> at instruction N`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub findings: Vec<String>,
    /// The counterexample as the HTML report shows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<Counterexample>,
    /// Its place in the run's order, in a sharded run (what merging sorts by).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<u64>,
    /// A 64-bit FNV-1a hash of the WGSL the translator wrote (hex), so that two runs tell
    /// whether a change touched the program's translation (`dxdiff diff`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wgsl: Option<String>,
    /// The catalog cells its lanes reached (`stage op domain`, [`crate::coverage`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reached: Vec<String>,
    /// The opcodes it has (mnemonics), for the coverage table's rows.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ops: Vec<String>,
    /// Its lanes whose words differ from the reference's, kept in the run's folder
    /// ([`crate::answers`]), for `dxdiff diff` to compare lane by lane.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answers: Option<crate::answers::Summary>,
}

/// A counterexample for people: the program's text, its translation, and the words that
/// differ, side by side.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Counterexample {
    /// The program's disassembly.
    pub disassembly: String,
    /// The WGSL the translator wrote.
    pub wgsl: String,
    /// Every word of the saved vector that differs.
    pub words: Vec<WordDiff>,
}

/// One differing word of a counterexample.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WordDiff {
    /// Where it is: `o0.y`, `u0[12]`, `invocation 3 o1.x`.
    pub place: String,
    /// The reference's (Direct3D's) word.
    pub expected: u32,
    /// The translation's word on the GPU.
    pub got: u32,
}

impl ProgramReport {
    /// An empty report for the program `name`.
    pub fn new(name: impl Into<String>) -> ProgramReport {
        ProgramReport {
            name: name.into(),
            ..ProgramReport::default()
        }
    }

    /// Record why the program did not run: its text and its kind.
    pub fn skip(&mut self, skip: &Skip) {
        self.skipped = Some(skip.to_string());
        self.skip_kind = Some(skip.kind);
    }

    /// What happened to the program ([`crate::outcome`]): compared when any lane was judged or
    /// nothing stopped it, otherwise skipped with its reason.
    pub fn outcome(&self) -> crate::outcome::Outcome {
        use crate::outcome::Outcome;
        let c = &self.tally.counts;
        match &self.skipped {
            Some(why) if c.lanes == 0 && c.mismatch == 0 => Outcome::Skipped(Skip::new(
                self.skip_kind.unwrap_or(SkipKind::Inconclusive),
                why.clone(),
            )),
            _ => Outcome::Compared {
                counts: c.clone(),
                counterexample: self
                    .counterexample
                    .as_ref()
                    .map(|x| format!("counterexample {x}"))
                    .or_else(|| {
                        self.counterexample_error
                            .as_ref()
                            .map(|e| format!("counterexample not saved: {e}"))
                    }),
            },
        }
    }

    /// Count one lane's verdict; true when it is a mismatch.
    pub fn tally(&mut self, verdict: &Verdict) -> bool {
        self.tally.add(verdict)
    }

    /// The verdict counts.
    pub fn counts(&self) -> &Counts {
        &self.tally.counts
    }
}

/// The whole run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunReport {
    /// The format tag, [`FORMAT`].
    pub format: String,
    /// The translator under test (`builtin/contract`, `cmd:…`, `vkd3d`).
    pub profile: String,
    /// Seed of the generated inputs (`--seed`).
    pub seed: u64,
    /// Name of the GPU adapter the programs ran on.
    pub adapter: String,
    /// Input vectors per built-in program (`--cases`).
    pub inputs_per_program: usize,
    /// One entry per program run or skipped.
    pub programs: Vec<ProgramReport>,
    /// Lanes per verdict over all programs.
    pub totals: Counts,
    /// Lanes adapted per catalog id over all programs.
    pub adapted_by: BTreeMap<String, u64>,
    /// Seconds spent in each phase of the run.
    pub seconds: BTreeMap<String, f64>,
    /// Seconds of the GPU worker's requests by phase.
    pub gpu_phases: BTreeMap<String, f64>,
    /// Programs that did not run, counted by kind.
    pub skips: BTreeMap<String, u64>,
    /// The shard this run was (`--shard K/N`), if it was one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<crate::part::Part>,
    /// Programs per catalog cell reached (`stage op domain`, [`crate::coverage`]).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub coverage: BTreeMap<String, u64>,
}

impl RunReport {
    /// An empty report of a run.
    pub fn new(profile: String, seed: u64, adapter: String, inputs: usize) -> RunReport {
        RunReport {
            format: FORMAT.into(),
            profile,
            seed,
            adapter,
            inputs_per_program: inputs,
            ..RunReport::default()
        }
    }

    /// Add a program's outcome to the totals, the per-entry counts and the skips.
    pub fn push(&mut self, p: ProgramReport) {
        if let Some(k) = p.skip_kind {
            *self.skips.entry(k.as_str().to_string()).or_default() += 1;
        }
        self.totals.add(&p.tally.counts);
        for (id, n) in &p.tally.adapted_by {
            *self.adapted_by.entry(id.clone()).or_default() += n;
        }
        for c in &p.reached {
            *self.coverage.entry(c.clone()).or_default() += 1;
        }
        self.programs.push(p);
    }

    /// The last line of the run: `verify: N programs, N lanes compared: …`.
    pub fn closing_line(&self) -> String {
        let t = &self.totals;
        format!(
            "verify: {} programs, {} lanes compared: {} match, {} within tolerance, {} adapted, {} mismatch, {} inconclusive",
            self.programs.len(),
            t.lanes,
            t.matched,
            t.within,
            t.adapted,
            t.mismatch,
            t.inconclusive
        )
    }

    /// Every finding of every program, as [`finding_line`]s.
    pub fn findings(&self) -> Vec<String> {
        self.programs
            .iter()
            .flat_map(|p| p.findings.iter().map(move |f| finding_line(&p.name, f)))
            .collect()
    }
}

/// The line every command prints for a program that relies on what Direct3D leaves undefined
/// (`verify`, `corpus --verify`, `fuzz`, `replay`), one spelling for scripts to match.
pub fn finding_line(program: &str, finding: impl std::fmt::Display) -> String {
    format!("{program}: program relies on undefined behaviour: {finding}")
}

/// The scope of a catalog entry as a report column: who is responsible for the difference.
pub fn responsible(id: &str) -> &'static str {
    use oracles::catalog::{Scope, catalog};
    match catalog().get(id).map(|e| e.scope) {
        Some(Scope::Executor) => "executor latitude",
        Some(Scope::D3d) => "D3D latitude",
        _ => "translator adaptation",
    }
}

/// Lanes per second, 0 for no time.
pub fn rate(lanes: u64, seconds: f64) -> f64 {
    if seconds > 0.0 {
        lanes as f64 / seconds
    } else {
        0.0
    }
}

/// What `dxdiff verify` prints after the Markdown table, its closing line last: throughput of
/// the interpreter and the GPU, where the wall time went (the run's phases, the GPU's request
/// phases), skipped programs by kind, findings, and `malformed` case files left out.
pub fn summary(report: &RunReport, malformed: usize) -> String {
    let t = &report.totals;
    let secs = |k: &str| report.seconds.get(k).copied().unwrap_or(0.0);
    let mut out = format!(
        "throughput: interpreter {:.0} lanes/s, GPU (translated, in the worker) {:.0} lanes/s; time: translation {:.1}s, interpreter {:.1}s, GPU {:.1}s, total {:.1}s\n",
        rate(t.lanes, secs("interpreter")),
        rate(t.lanes, secs("gpu")),
        secs("translation"),
        secs("interpreter"),
        secs("gpu"),
        secs("total")
    );
    let total = secs("total");
    if total > 0.0 {
        let share = |v: f64| 100.0 * v / total;
        let mut line = String::from("time share:");
        for k in [
            "inputs",
            "translation",
            "interpreter",
            "judging",
            "shrinking",
            "cases",
        ] {
            if secs(k) > 0.0 {
                line.push_str(&format!(" {k} {:.0}%,", share(secs(k))));
            }
        }
        for (k, v) in &report.gpu_phases {
            line.push_str(&format!(" GPU {k} {:.0}%,", share(*v)));
        }
        out += line.trim_end_matches(',');
        out.push('\n');
    }
    if !report.skips.is_empty() {
        let list: Vec<String> = report
            .skips
            .iter()
            .map(|(k, n)| format!("{n} {k}"))
            .collect();
        out += &format!("skipped programs: {}\n", list.join(", "));
    }
    for f in report.findings() {
        out += &format!("{f}\n");
    }
    if malformed > 0 {
        out += &format!("malformed case files left out: {malformed}\n");
    }
    out + &report.closing_line() + "\n"
}

/// The Markdown report.
pub fn markdown(r: &RunReport) -> String {
    use crate::text::cell;
    let mut s = format!(
        "# dxdiff verify\n\nprofile `{}`, seed {}, {} inputs per program, adapter {}\n\n| program | lanes | match | within tolerance | adapted | mismatch | inconclusive | note |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n",
        r.profile, r.seed, r.inputs_per_program, r.adapter
    );
    for p in &r.programs {
        let c = &p.tally.counts;
        let note = p
            .skipped
            .clone()
            .or_else(|| {
                p.counterexample
                    .clone()
                    .map(|c| format!("counterexample {c}"))
            })
            .or_else(|| {
                p.counterexample_error
                    .as_ref()
                    .map(|e| format!("counterexample not saved: {e}"))
            })
            .unwrap_or_default();
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} |\n",
            cell(&p.name),
            c.lanes,
            c.matched,
            c.within,
            c.adapted,
            c.mismatch,
            c.inconclusive,
            cell(&note)
        ));
    }
    s.push_str("\n| catalog entry | adapted lanes | scope |\n| --- | ---: | --- |\n");
    for (id, n) in &r.adapted_by {
        s.push_str(&format!("| `{id}` | {n} | {} |\n", responsible(id)));
    }
    let findings = r.findings();
    if !findings.is_empty() {
        s.push_str("\n## Programs that rely on undefined behaviour\n\n");
        for f in findings {
            s.push_str(&format!("- {}\n", crate::text::one_line(&f)));
        }
    }
    if !r.skips.is_empty() {
        s.push_str("\n| programs skipped, by reason | programs |\n| --- | ---: |\n");
        for (k, n) in &r.skips {
            s.push_str(&format!("| {} | {n} |\n", cell(k)));
        }
    }
    let mut ops: Vec<String> = r.programs.iter().flat_map(|p| p.ops.clone()).collect();
    ops.sort();
    ops.dedup();
    if !ops.is_empty() {
        s.push_str(&crate::coverage::markdown(&r.coverage, &ops));
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

/// Write a verify folder's reports (`report.json`, `report.md`, `report.html`) in `out`; the
/// Markdown. `verify` and `merge` both write the folder through this.
pub fn write_folder(
    out: &std::path::Path,
    r: &RunReport,
) -> Result<String, crate::folder::FolderError> {
    let path = out.join("report.json");
    crate::folder::write(&path, crate::folder::json(&path, r)?.as_bytes())?;
    let md = markdown(r);
    crate::folder::write(&out.join("report.md"), md.as_bytes())?;
    crate::folder::write(&out.join("report.html"), html(r).as_bytes())?;
    Ok(md)
}

/// The self-contained HTML report: the summary, a sortable table of programs, the lanes each
/// catalog entry adapted, the distance (ULP) histogram of each program's differing lanes, and
/// each counterexample with its disassembly, its WGSL and the differing words side by side.
pub fn html(r: &RunReport) -> String {
    html_titled(
        r,
        &format!("dxdiff verify: {}", r.profile),
        &format!(
            "seed {}, {} inputs per program, adapter {}",
            r.seed, r.inputs_per_program, r.adapter
        ),
    )
}

/// [`html`] under another title and subtitle: the page of any run that is a [`RunReport`]
/// (`dxdiff sweep` renders its ops as programs).
pub fn html_titled(r: &RunReport, title: &str, subtitle: &str) -> String {
    use crate::html::{Cell, Page, VERDICT_COLS, anchor, col, num, verdict_cells, word};
    let mut page = Page::new(title, subtitle);
    page.heading("summary", "Summary");
    let total = r.seconds.get("total").copied().unwrap_or(0.0);
    page.cards(&[
        ("programs", r.programs.len().to_string(), ""),
        (
            "programs with a mismatch",
            r.programs
                .iter()
                .filter(|p| p.tally.counts.mismatch > 0)
                .count()
                .to_string(),
            "",
        ),
        ("seconds", format!("{total:.1}"), ""),
        (
            "lanes per second",
            format!("{:.0}", rate(r.totals.lanes, total)),
            "",
        ),
    ]);
    page.verdicts(&r.totals);
    page.para(&r.closing_line());
    let findings = r.findings();
    if !findings.is_empty() {
        page.subheading("findings", "Programs that rely on undefined behaviour");
        page.list(&findings);
    }
    if !r.skips.is_empty() {
        let skips: Vec<String> = r.skips.iter().map(|(k, n)| format!("{k}: {n}")).collect();
        page.subheading("skips", "Programs skipped, by reason");
        page.list(&skips);
    }
    page.heading("programs", "Programs");
    let rows: Vec<Vec<Cell>> = r
        .programs
        .iter()
        .map(|p| {
            let c = &p.tally.counts;
            let note = if p.detail.is_some() {
                Cell::text(
                    p.counterexample
                        .clone()
                        .unwrap_or_else(|| "counterexample".into()),
                )
                .link(format!("#{}", anchor("cx", &p.name)))
            } else {
                Cell::text(
                    p.skipped
                        .clone()
                        .or_else(|| p.counterexample.clone())
                        .or_else(|| p.counterexample_error.clone())
                        .unwrap_or_default(),
                )
            };
            let mut row = vec![Cell::code(&p.name)];
            row.extend(verdict_cells(c));
            row.push(note);
            row
        })
        .collect();
    let mut cols = vec![col("program")];
    cols.extend(VERDICT_COLS);
    cols.push(col("note"));
    page.table(&cols, &rows);
    page.heading("adapted", "Adapted lanes per catalog entry");
    let rows: Vec<Vec<Cell>> = r
        .adapted_by
        .iter()
        .map(|(id, n)| {
            let what = oracles::catalog::catalog()
                .get(id)
                .map(|e| e.domain_text.clone())
                .unwrap_or_default();
            vec![
                Cell::code(id),
                Cell::num(*n),
                Cell::text(responsible(id)),
                Cell::text(what),
            ]
        })
        .collect();
    page.table(
        &[
            col("catalog entry"),
            num("adapted lanes"),
            col("scope"),
            col("what it allows"),
        ],
        &rows,
    );
    let mut ops: Vec<String> = r.programs.iter().flat_map(|p| p.ops.clone()).collect();
    ops.sort();
    ops.dedup();
    if !ops.is_empty() {
        crate::coverage::html(&mut page, &r.coverage, &ops);
    }
    page.heading("distances", "How far the differing lanes were (ULP)");
    page.para(
        "Per program (a built-in program is one op), the lanes judged within tolerance, adapted or mismatching, by the widest ULP distance of their differing words; bar heights on a log scale, hover for counts.",
    );
    for p in r.programs.iter().filter(|p| !p.tally.distance.is_empty()) {
        page.distance_histogram(&p.name, &p.tally.distance);
    }
    let with_detail: Vec<&ProgramReport> =
        r.programs.iter().filter(|p| p.detail.is_some()).collect();
    if !with_detail.is_empty() {
        page.heading("counterexamples", "Counterexamples");
    }
    for p in with_detail {
        let Some(d) = &p.detail else { continue };
        page.subheading(&anchor("cx", &p.name), &p.name);
        if let Some(path) = &p.counterexample {
            page.para(&format!(
                "saved as {path}; reproduce with: dxdiff replay --executor gpu {path}"
            ));
        }
        let rows: Vec<Vec<Cell>> = d
            .words
            .iter()
            .map(|w| {
                vec![
                    Cell::code(&w.place),
                    Cell::code(word(w.expected)),
                    Cell::code(word(w.got)).bad_if(true),
                    {
                        let i = crate::counts::Distance::of(w.expected, w.got).index();
                        Cell::ranked(crate::counts::Distance::label(i), i as f64)
                    },
                ]
            })
            .collect();
        page.table(
            &[
                col("word"),
                col("expected (D3D)"),
                col("got (GPU)"),
                num("ULP distance"),
            ],
            &rows,
        );
        page.pair(("disassembly", &d.disassembly), ("WGSL", &d.wgsl));
    }
    page.heading("time", "Where the time went");
    let rows: Vec<Vec<Cell>> = r
        .seconds
        .iter()
        .map(|(k, v)| vec![Cell::text(k), Cell::ranked(format!("{v:.2}"), *v)])
        .chain(r.gpu_phases.iter().map(|(k, v)| {
            vec![
                Cell::text(format!("GPU {k}")),
                Cell::ranked(format!("{v:.2}"), *v),
            ]
        }))
        .collect();
    page.table(&[col("phase"), num("seconds")], &rows);
    page.finish()
}

/// JUnit XML: one test case per program; a mismatch is a failure, a skip is skipped.
pub fn junit(r: &RunReport) -> String {
    use crate::junit::{Case, document};
    let cases: Vec<Case> = r
        .programs
        .iter()
        .map(|p| {
            let outcome = p.outcome().junit();
            let (class, name) = p.name.split_once(':').unwrap_or(("verify", &p.name));
            Case {
                class: class.to_string(),
                name: name.to_string(),
                outcome,
            }
        })
        .collect();
    document(&format!("dxdiff verify {}", r.profile), &cases)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_ends_with_the_closing_line() {
        let mut r = RunReport::new("builtin/exact".into(), 1, "llvmpipe".into(), 10);
        r.seconds.insert("total".into(), 2.0);
        r.gpu_phases.insert("dispatch".into(), 1.0);
        r.skips.insert("texture".into(), 3);
        let text = summary(&r, 2);
        assert!(text.contains("time share: GPU dispatch 50%\n"), "{text}");
        assert!(text.contains("skipped programs: 3 texture\n"), "{text}");
        assert!(
            text.contains("malformed case files left out: 2\n"),
            "{text}"
        );
        assert_eq!(text.lines().last(), Some(r.closing_line().as_str()));
        assert_eq!(rate(10, 0.0), 0.0);
    }

    #[test]
    fn reports_add_up_and_name_their_scopes() {
        let mut r = RunReport::new("builtin/exact".into(), 1, "llvmpipe".into(), 10);
        let mut a = ProgramReport::new("add");
        a.tally(&Verdict::Match);
        a.tally(&Verdict::Adapted(vec!["dxdiff/literal-folding".into()]));
        let mut b = ProgramReport::new("corpus:x.o");
        b.skip(&Skip::new(
            SkipKind::Rejected,
            "[fail-closed/subroutines] fcall",
        ));
        b.findings.push("tgsm-race at instruction 7".into());
        r.push(a);
        r.push(b);
        assert_eq!(r.totals.lanes, 2);
        assert_eq!(r.skips["rejected"], 1);
        assert_eq!(
            r.closing_line(),
            "verify: 2 programs, 2 lanes compared: 1 match, 0 within tolerance, 1 adapted, 0 mismatch, 0 inconclusive"
        );
        let md = markdown(&r);
        assert!(md.contains("program relies on undefined behaviour: tgsm-race at instruction 7"));
        assert_eq!(responsible("dxdiff/d3d-undefined"), "D3D latitude");
        assert_eq!(
            responsible("dxdiff/ftz-before-rounding"),
            "executor latitude"
        );
        assert_eq!(responsible("dxdiff/nan"), "translator adaptation");
        // The JSON keeps the flat shape scripts read.
        let json = serde_json::to_value(&r).expect("serializes");
        assert_eq!(json["programs"][0]["counts"]["matched"], 1);
        assert_eq!(json["programs"][1]["skip_kind"], "rejected");
        let back: RunReport = serde_json::from_value(json).expect("parses");
        assert_eq!(back, r);
        let x = junit(&r);
        assert!(
            x.contains("tests=\"2\"") && x.contains("skipped=\"1\""),
            "{x}"
        );
    }
}
