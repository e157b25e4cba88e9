//! Corpus qualification records (`dxdiff-corpus/1`): one line per program with its status
//! (qualified, unsupported, failed), the SHA-256 of its WGSL and manifest, and, with `--verify`,
//! its verdict counts; rendered as Markdown and JUnit.
//!
//! A record is deterministic for a given translator and corpus: no timings, no absolute paths,
//! programs named relative to the folder given on the command line.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::counts::Counts;
use crate::outcome::Outcome;

/// The record's format tag; a reader refuses any other.
pub const FORMAT: &str = "dxdiff-corpus/1";

/// What became of one program.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The translator returned WGSL and a binding manifest.
    Qualified,
    /// Rejected by the translator with a catalog id: a known, documented gap.
    Unsupported,
    /// Unreadable, malformed DXBC, or a translator crash (a panic or an error without a catalog id).
    Failed,
}

impl Status {
    /// A program's status from what happened to it: compared (or translated) is qualified,
    /// a refusal under a catalog id unsupported, a failure failed; a program whose run was
    /// skipped for another reason keeps its qualification, the skip in its verdicts.
    pub fn of(outcome: &Outcome) -> Status {
        match outcome {
            Outcome::Compared { .. } => Status::Qualified,
            Outcome::Skipped(s) if s.kind == oracles::verdict::SkipKind::Rejected => {
                Status::Unsupported
            }
            Outcome::Skipped(_) => Status::Qualified,
            Outcome::Failed(_) => Status::Failed,
        }
    }

    /// The lowercase name the record and its renderings use.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Qualified => "qualified",
            Status::Unsupported => "unsupported",
            Status::Failed => "failed",
        }
    }
}

/// The differential check of one qualified program (`--verify N`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdicts {
    /// Lanes per verdict.
    pub counts: Counts,
    /// Lanes adapted per catalog id.
    #[serde(default)]
    pub adapted_by: BTreeMap<String, u64>,
    /// Why the check did not run (texture, inconclusive...), if it did not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skipped: Option<String>,
    /// The saved counterexample of its first mismatch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counterexample: Option<String>,
    /// What the program relies on that Direct3D leaves undefined (`<kind> at instruction N`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub findings: Vec<String>,
}

/// One program's line in the record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProgramRecord {
    /// The folder's name given on the command line, then the path inside it.
    pub name: String,
    /// Qualified, unsupported or failed.
    pub status: Status,
    /// Unsupported: the catalog id of the rejection.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub catalog_id: Option<String>,
    /// Unsupported or failed: why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Qualified: SHA-256 of the WGSL, lowercase hex.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wgsl_sha256: Option<String>,
    /// Qualified: SHA-256 of the binding manifest's compact JSON, lowercase hex.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub manifest_sha256: Option<String>,
    /// The catalog ids the translation relies on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub adaptations: Vec<String>,
    /// Qualified with `--verify N`: the differential check's outcome.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdicts: Option<Verdicts>,
}

impl ProgramRecord {
    /// What happened to the program ([`crate::outcome`]), as the record states it: the
    /// qualified program's verdicts (none compared without `--verify`), the refusal under its
    /// catalog id, or the failure's reason.
    pub fn outcome(&self) -> Outcome {
        let reason = self.reason.clone().unwrap_or_default();
        match self.status {
            Status::Qualified => {
                let v = self.verdicts.as_ref();
                Outcome::Compared {
                    counts: v.map(|v| v.counts.clone()).unwrap_or_default(),
                    counterexample: v
                        .and_then(|v| v.counterexample.as_ref())
                        .map(|c| format!("counterexample {c}")),
                }
            }
            Status::Unsupported => Outcome::Skipped(oracles::verdict::Skip::new(
                oracles::verdict::SkipKind::Rejected,
                format!("[{}] {reason}", self.catalog_id.as_deref().unwrap_or("")),
            )),
            Status::Failed => Outcome::Failed(reason),
        }
    }
}

/// Programs per status.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Totals {
    /// Programs qualified.
    pub qualified: u64,
    /// Programs rejected with a catalog id.
    pub unsupported: u64,
    /// Programs that failed.
    pub failed: u64,
}

impl Totals {
    /// `Q/U/F`, the seed's form.
    pub fn slashed(&self) -> String {
        format!("{}/{}/{}", self.qualified, self.unsupported, self.failed)
    }
}

/// The settings of a `--verify N` pass, kept so that verdicts are compared like with like.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VerifySettings {
    /// Input vectors per program (the `N` of `--verify N`).
    pub inputs: usize,
    /// Seed of the generated inputs.
    pub seed: u64,
    /// Name of the GPU adapter the programs ran on.
    pub adapter: String,
}

/// A whole qualification run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// The format tag, [`FORMAT`].
    pub format: String,
    /// Name of the translator qualified.
    pub translator: String,
    /// The `--verify` pass's settings, when there was one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verify: Option<VerifySettings>,
    /// Programs per status.
    pub totals: Totals,
    /// Per catalog id: programs rejected under it plus qualified programs relying on it.
    pub catalog_hits: BTreeMap<String, u64>,
    /// Per catalog id: lanes it adapted in the `--verify` pass.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub adapted_lanes: BTreeMap<String, u64>,
    /// One line per program.
    pub programs: Vec<ProgramRecord>,
    /// The shard this record was (`--shard K/N`), if it was one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<crate::part::Part>,
    /// The second compiler every qualified program's WGSL also passed (`--gate tint`): its
    /// name and adapter. A program it rejects is failed, with its message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gate: Option<String>,
}

/// Why a text is not a corpus record this version reads. Codes: `corpus-record.json`,
/// `corpus-record.format`.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The text is not JSON of this shape (`corpus-record.json`).
    #[error("{0}")]
    Json(#[from] serde_json::Error),
    /// The format tag is not [`FORMAT`] (`corpus-record.format`); holds the tag found.
    #[error("format `{0}`, expected `{FORMAT}`")]
    Format(String),
}

impl RecordError {
    /// A stable, machine-readable code for this kind of error.
    pub fn code(&self) -> &'static str {
        match self {
            RecordError::Json(_) => "corpus-record.json",
            RecordError::Format(_) => "corpus-record.format",
        }
    }
}

impl Record {
    /// Read a record written by `dxdiff corpus --out`.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        let r: Record = serde_json::from_str(text)?;
        if r.format != FORMAT {
            return Err(RecordError::Format(r.format));
        }
        Ok(r)
    }

    /// Recount totals and catalog hits from the programs.
    pub fn recount(&mut self) {
        self.totals = Totals::default();
        self.catalog_hits.clear();
        self.adapted_lanes.clear();
        for p in &self.programs {
            match p.status {
                Status::Qualified => self.totals.qualified += 1,
                Status::Unsupported => self.totals.unsupported += 1,
                Status::Failed => self.totals.failed += 1,
            }
            for id in p.catalog_id.iter().chain(&p.adaptations) {
                *self.catalog_hits.entry(id.clone()).or_default() += 1;
            }
            for (id, n) in p.verdicts.iter().flat_map(|v| &v.adapted_by) {
                *self.adapted_lanes.entry(id.clone()).or_default() += n;
            }
        }
    }
}

/// The self-contained HTML report of a corpus run: the summary, the catalog ids programs were
/// rejected by or relied on, a sortable table of programs (with `--verify`, their verdicts),
/// and the lanes each catalog entry adapted.
pub fn html(r: &Record) -> String {
    use crate::html::{Cell, Page, VERDICT_COLS, col, num, verdict_cells};
    let t = &r.totals;
    let sub = match &r.verify {
        Some(v) => format!(
            "translator {}; verified over {} inputs per program, seed {}, adapter {}",
            r.translator, v.inputs, v.seed, v.adapter
        ),
        None => format!("translator {} (qualification only)", r.translator),
    };
    let mut page = Page::new("dxdiff corpus", &sub);
    page.heading("summary", "Summary");
    page.cards(&[
        ("programs", r.programs.len().to_string(), ""),
        ("qualified", t.qualified.to_string(), ""),
        ("unsupported (fail closed)", t.unsupported.to_string(), ""),
        (
            "failed",
            t.failed.to_string(),
            if t.failed > 0 { "bad" } else { "good" },
        ),
    ]);
    let mut lanes = Counts::default();
    for v in r.programs.iter().filter_map(|p| p.verdicts.as_ref()) {
        lanes.add(&v.counts);
    }
    if r.verify.is_some() {
        page.verdicts(&lanes);
    }
    let findings: Vec<String> = r
        .programs
        .iter()
        .flat_map(|p| {
            p.verdicts
                .iter()
                .flat_map(|v| &v.findings)
                .map(|f| crate::verify::finding_line(&p.name, f))
        })
        .collect();
    if !findings.is_empty() {
        page.subheading("findings", "Programs that rely on undefined behaviour");
        page.list(&findings);
    }
    page.heading("programs", "Programs");
    let verified = r.verify.is_some();
    let mut cols = vec![col("program"), col("status"), col("reason")];
    if verified {
        cols.extend(VERDICT_COLS);
        cols.push(col("note"));
    }
    let rows: Vec<Vec<Cell>> = r
        .programs
        .iter()
        .map(|p| {
            let reason = match (&p.catalog_id, &p.reason) {
                (Some(id), Some(why)) => format!("[{id}] {why}"),
                (Some(id), None) => id.clone(),
                (None, Some(why)) => why.clone(),
                (None, None) => String::new(),
            };
            let mut row = vec![
                Cell::code(&p.name),
                Cell::text(p.status.as_str()).bad_if(p.status == Status::Failed),
                Cell::text(reason),
            ];
            if verified {
                let v = p.verdicts.clone().unwrap_or_default();
                let c = &v.counts;
                row.extend(verdict_cells(c));
                row.push(Cell::text(
                    v.counterexample.or(v.skipped).unwrap_or_default(),
                ));
            }
            row
        })
        .collect();
    page.table(&cols, &rows);
    if !r.catalog_hits.is_empty() {
        page.heading("catalog", "Programs per catalog id (rejected or relying)");
        let rows: Vec<Vec<Cell>> = r
            .catalog_hits
            .iter()
            .map(|(id, n)| vec![Cell::code(id), Cell::num(*n)])
            .collect();
        page.table(&[col("catalog id"), num("programs")], &rows);
    }
    if !r.adapted_lanes.is_empty() {
        page.heading("adapted", "Adapted lanes per catalog entry");
        let rows: Vec<Vec<Cell>> = r
            .adapted_lanes
            .iter()
            .map(|(id, n)| {
                vec![
                    Cell::code(id),
                    Cell::num(*n),
                    Cell::text(crate::verify::responsible(id)),
                ]
            })
            .collect();
        page.table(
            &[col("catalog entry"), num("adapted lanes"), col("scope")],
            &rows,
        );
    }
    page.finish()
}

/// The Markdown table: totals, rejections by catalog id, then one line per program.
pub fn markdown(r: &Record) -> String {
    let t = &r.totals;
    let mut s = format!(
        "# dxdiff corpus\n\ntranslator `{}`: {} qualified, {} unsupported, {} failed\n\n",
        r.translator, t.qualified, t.unsupported, t.failed
    );
    if !r.catalog_hits.is_empty() {
        s.push_str("| catalog id | programs (rejected or relying) |\n| --- | ---: |\n");
        for (id, n) in &r.catalog_hits {
            s.push_str(&format!("| `{id}` | {n} |\n"));
        }
        s.push('\n');
    }
    let verified = r.verify.is_some();
    s.push_str("| program | status | reason | WGSL SHA-256 |");
    if verified {
        s.push_str(" lanes | match | within | adapted | mismatch | inconclusive |");
    }
    s.push_str("\n| --- | --- | --- | --- |");
    if verified {
        s.push_str(" ---: | ---: | ---: | ---: | ---: | ---: |");
    }
    s.push('\n');
    for p in &r.programs {
        let reason = match (&p.catalog_id, &p.reason) {
            (Some(id), _) => format!("`{id}`"),
            (None, Some(why)) => one_line(why, 100),
            (None, None) => String::new(),
        };
        let sha = p
            .wgsl_sha256
            .as_deref()
            .map_or("", |h| &h[..h.len().min(12)]);
        s.push_str(&format!(
            "| {} | {} | {} | {} |",
            crate::text::cell(&p.name),
            p.status.as_str(),
            reason,
            sha
        ));
        if verified {
            match &p.verdicts {
                Some(v) => {
                    let c = &v.counts;
                    s.push_str(&format!(
                        " {} | {} | {} | {} | {} | {} |",
                        c.lanes, c.matched, c.within, c.adapted, c.mismatch, c.inconclusive
                    ));
                }
                None => s.push_str(" | | | | | |"),
            }
        }
        s.push('\n');
    }
    s
}

/// The first line of `text`, cut to `max` characters, with table pipes escaped.
fn one_line(text: &str, max: usize) -> String {
    let line = text.lines().next().unwrap_or("");
    let cut: String = line.chars().take(max).collect();
    let shortened = cut.len() < line.len();
    let cut = crate::text::cell(&cut);
    if shortened { format!("{cut}…") } else { cut }
}

/// JUnit XML: one test case per program; unsupported is skipped, failed (or a verified
/// program with a mismatch) is a failure.
pub fn junit(r: &Record) -> String {
    use crate::junit::{Case, document};
    let cases: Vec<Case> = r
        .programs
        .iter()
        .map(|p| {
            let (class, name) = p.name.split_once('/').unwrap_or(("corpus", &p.name));
            let outcome = p.outcome().junit();
            Case {
                class: class.to_string(),
                name: name.to_string(),
                outcome,
            }
        })
        .collect();
    document(&format!("dxdiff corpus {}", r.translator), &cases)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_error_codes_are_distinct_and_not_empty() {
        let json = Record::parse("{").expect_err("not JSON");
        let format = RecordError::Format("dxdiff-corpus/0".into());
        assert!(format.to_string().contains("dxdiff-corpus/0"));
        assert_ne!(json.code(), format.code());
        assert!(!json.code().is_empty() && !format.code().is_empty());
    }
}
