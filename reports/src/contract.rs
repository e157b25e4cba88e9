//! The report of `dxdiff contract` (`dxdiff-contract/1`): one row per seed-contract entry of
//! the catalog, each the outcome of that entry's property: how many programs ran, their lanes,
//! the lanes the entry adapted, the rejections, and a status with its reason. Rendered as the
//! terminal table, Markdown, JUnit (one test case per entry) and the closing line.

use serde::{Deserialize, Serialize};

/// The format tag.
pub const FORMAT: &str = "dxdiff-contract/1";

/// How an entry's property came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// The property held, and it reached what the entry is about.
    Verified,
    /// The translator broke the entry: a mismatch, a lane adapted outside the entry, a
    /// rejection under another id, a program it should lower rejected, invalid WGSL.
    Violated,
    /// No program can exercise the entry here; the row's reason says why.
    NotExercisable,
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Status::Verified => "verified",
            Status::Violated => "violated",
            Status::NotExercisable => "not exercisable",
        })
    }
}

/// One entry's row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EntryRow {
    /// The catalog id.
    pub id: String,
    /// Its category (`adapted`, `bounded`, `supported`, `fail-closed`).
    pub category: String,
    /// What the property's programs exercise, in a few words.
    pub property: String,
    /// The outcome.
    pub status: Status,
    /// Programs generated for the entry.
    pub programs: u64,
    /// Lanes judged over the programs that ran.
    pub lanes: u64,
    /// Lanes this entry adapted.
    pub adapted_lanes: u64,
    /// Lanes whose reference entered the entry's domain (0 for entries without one).
    #[serde(default)]
    pub domain_lanes: u64,
    /// Programs the translator rejected.
    pub rejections: u64,
    /// Programs whose translation listed the entry among its adaptations.
    #[serde(default)]
    pub attributed: u64,
    /// The status's reason: what was checked, what broke, or why nothing can be run.
    pub reason: String,
    /// Saved counterexamples (`dxdiff-case/1`) of the violations.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cases: Vec<String>,
}

/// `DIR/contract.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ContractReport {
    /// The format tag, [`FORMAT`].
    pub format: String,
    /// The translator under test, with its profile.
    pub translator: String,
    /// What ran the translations.
    pub executor: String,
    /// The inputs' seed.
    pub seed: u64,
    /// Input vectors per program.
    pub cases: usize,
    /// Catalog entries with a seed reference: the M of the closing line.
    pub seed_entries: usize,
    /// One row per entry run, in catalog order.
    pub entries: Vec<EntryRow>,
    /// Seconds the run took.
    pub seconds: f64,
}

impl ContractReport {
    /// Rows with `status`.
    pub fn count(&self, status: Status) -> usize {
        self.entries.iter().filter(|e| e.status == status).count()
    }

    /// `contract: N verified, N violated, N not exercisable of M seed entries`.
    pub fn closing_line(&self) -> String {
        format!(
            "contract: {} verified, {} violated, {} not exercisable of {} seed entries",
            self.count(Status::Verified),
            self.count(Status::Violated),
            self.count(Status::NotExercisable),
            self.seed_entries
        )
    }
}

/// Why a text is not a contract report this version reads. Codes: `contract-report.json`,
/// `contract-report.format`.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// Not JSON of this shape (`contract-report.json`).
    #[error("{0}")]
    Json(#[from] serde_json::Error),
    /// The format tag is not [`FORMAT`] (`contract-report.format`).
    #[error("format `{0}`, expected `{FORMAT}`")]
    Format(String),
}

impl ReportError {
    /// A stable, machine-readable code for this kind of error.
    pub fn code(&self) -> &'static str {
        match self {
            ReportError::Json(_) => "contract-report.json",
            ReportError::Format(_) => "contract-report.format",
        }
    }
}

impl ContractReport {
    /// Read a `contract.json`; the error says why it is not one this version reads.
    pub fn parse(text: &str) -> Result<ContractReport, ReportError> {
        crate::parse_tagged(text, FORMAT, ReportError::Format)
    }
}

/// How good a status is, for transitions: verified above not exercisable above violated.
fn rank(s: Status) -> u8 {
    match s {
        Status::Verified => 2,
        Status::NotExercisable => 1,
        Status::Violated => 0,
    }
}

/// One entry whose status differs from a baseline's (`None`: the entry is not in that report).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The catalog id.
    pub id: String,
    /// Its status in the baseline.
    pub from: Option<Status>,
    /// Its status now.
    pub to: Option<Status>,
}

impl Change {
    /// Worse than the baseline: verified to violated or not exercisable (the proof is lost),
    /// not exercisable to violated. An entry the baseline lacks is new, not a regression (the
    /// catalog grew, or the run took other `--entry`s); one the run lacks is not compared.
    pub fn regression(&self) -> bool {
        matches!((self.from, self.to), (Some(a), Some(b)) if rank(b) < rank(a))
    }
}

/// Every entry whose status changed between a baseline report and this one, in this report's
/// order, then the baseline's entries this run did not have.
pub fn transitions(base: &ContractReport, now: &ContractReport) -> Vec<Change> {
    let before: std::collections::BTreeMap<&str, Status> = base
        .entries
        .iter()
        .map(|e| (e.id.as_str(), e.status))
        .collect();
    let mut out: Vec<Change> = now
        .entries
        .iter()
        .filter(|e| before.get(e.id.as_str()) != Some(&e.status))
        .map(|e| Change {
            id: e.id.clone(),
            from: before.get(e.id.as_str()).copied(),
            to: Some(e.status),
        })
        .collect();
    let ran: std::collections::BTreeSet<&str> = now.entries.iter().map(|e| e.id.as_str()).collect();
    out.extend(
        base.entries
            .iter()
            .filter(|e| !ran.contains(e.id.as_str()))
            .map(|e| Change {
                id: e.id.clone(),
                from: Some(e.status),
                to: None,
            }),
    );
    out
}

/// The transitions as lines (`regression adapted/x: verified -> violated`), then
/// `contract: N regressions, N improvements, N new, N not run since the baseline`.
pub fn transitions_text(changes: &[Change]) -> String {
    let name = |s: Option<Status>| s.map_or_else(|| "absent".to_string(), |s| s.to_string());
    let mut s = String::new();
    let (mut worse, mut better, mut new, mut gone) = (0, 0, 0, 0);
    for c in changes {
        let kind = match (c.from, c.to) {
            (None, _) => {
                new += 1;
                "new"
            }
            (_, None) => {
                gone += 1;
                "not run"
            }
            _ if c.regression() => {
                worse += 1;
                "regression"
            }
            _ => {
                better += 1;
                "improved"
            }
        };
        s.push_str(&format!(
            "{kind} {}: {} -> {}\n",
            crate::text::one_line(&c.id),
            name(c.from),
            name(c.to)
        ));
    }
    s.push_str(&format!(
        "contract: {worse} regressions, {better} improvements, {new} new, {gone} not run since the baseline\n"
    ));
    s
}

fn row_cells(e: &EntryRow) -> [String; 9] {
    [
        e.id.clone(),
        e.category.clone(),
        e.property.clone(),
        e.programs.to_string(),
        e.lanes.to_string(),
        e.adapted_lanes.to_string(),
        e.rejections.to_string(),
        e.status.to_string(),
        e.reason.clone(),
    ]
}

const HEADER: [&str; 9] = [
    "entry",
    "category",
    "property",
    "programs",
    "lanes",
    "adapted",
    "rejections",
    "status",
    "reason",
];

/// The terminal table: aligned columns, the reason last and unpadded.
pub fn table(r: &ContractReport) -> String {
    let rows: Vec<[String; 9]> = r.entries.iter().map(row_cells).collect();
    let mut width = HEADER.map(|h| h.chars().count());
    for row in &rows {
        for (w, c) in width.iter_mut().zip(row.iter()) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut s = String::new();
    let mut line = |cells: &[String]| {
        let mut l = String::new();
        for (i, c) in cells.iter().enumerate() {
            if i + 1 == cells.len() {
                l.push_str(c);
            } else {
                let numeric = (3..=6).contains(&i);
                let pad = width[i].saturating_sub(c.chars().count());
                if numeric {
                    l.push_str(&" ".repeat(pad));
                    l.push_str(c);
                } else {
                    l.push_str(c);
                    l.push_str(&" ".repeat(pad));
                }
                l.push_str("  ");
            }
        }
        s.push_str(l.trim_end());
        s.push('\n');
    };
    line(&HEADER.map(String::from));
    for row in &rows {
        line(row);
    }
    s
}

/// `DIR/contract.md`.
pub fn markdown(r: &ContractReport) -> String {
    let mut s = format!(
        "# dxdiff contract\n\nTranslator `{}`, executor `{}`, seed {}, {} input vectors per \
         program, {:.1} s.\n\n| {} |\n|{}\n",
        r.translator,
        r.executor,
        r.seed,
        r.cases,
        r.seconds,
        HEADER.join(" | "),
        " --- |".repeat(HEADER.len()),
    );
    for e in &r.entries {
        let mut cells = row_cells(e).map(|c| crate::text::cell(&c));
        cells[0] = format!("`{}`", cells[0]);
        s.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    let cases: Vec<&String> = r.entries.iter().flat_map(|e| &e.cases).collect();
    if !cases.is_empty() {
        s.push_str("\n## Counterexamples\n\n");
        for c in cases {
            s.push_str(&format!("- `{c}`\n"));
        }
    }
    s.push_str(&format!("\n{}\n", r.closing_line()));
    s
}

/// JUnit: one test case per entry, failed when violated, skipped when not exercisable.
pub fn junit(r: &ContractReport) -> String {
    use crate::junit::{Case, Outcome, document};
    let cases: Vec<Case> = r
        .entries
        .iter()
        .map(|e| Case {
            class: format!("contract.{}", e.category),
            name: e.id.clone(),
            outcome: match e.status {
                Status::Verified => Outcome::Passed,
                Status::Violated => Outcome::Failed(e.reason.clone()),
                Status::NotExercisable => Outcome::Skipped(e.reason.clone()),
            },
        })
        .collect();
    document(&format!("dxdiff contract ({})", r.translator), &cases)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: &str, status: Status) -> EntryRow {
        EntryRow {
            id: id.into(),
            category: "adapted".into(),
            property: "ftoi of edges".into(),
            status,
            programs: 2,
            lanes: 512,
            adapted_lanes: 7,
            domain_lanes: 9,
            rejections: 0,
            attributed: 2,
            reason: "7 lanes | adapted".into(),
            cases: vec![],
        }
    }

    fn report() -> ContractReport {
        ContractReport {
            format: FORMAT.into(),
            translator: "builtin (contract)".into(),
            executor: "llvmpipe".into(),
            seed: 1,
            cases: 256,
            seed_entries: 69,
            entries: vec![
                row("adapted/a", Status::Verified),
                row("fail-closed/b", Status::Violated),
                row("bounded/c", Status::NotExercisable),
            ],
            seconds: 1.0,
        }
    }

    #[test]
    fn closing_line_counts_each_status_against_every_seed_entry() {
        assert_eq!(
            report().closing_line(),
            "contract: 1 verified, 1 violated, 1 not exercisable of 69 seed entries"
        );
    }

    #[test]
    fn json_round_trips_with_kebab_statuses() {
        let r = report();
        let text = serde_json::to_string(&r).expect("serializes");
        assert!(text.contains("\"not-exercisable\""), "{text}");
        assert_eq!(
            serde_json::from_str::<ContractReport>(&text).expect("parses"),
            r
        );
    }

    #[test]
    fn junit_fails_violations_and_skips_the_unexercisable() {
        let x = junit(&report());
        assert!(
            x.contains("tests=\"3\" failures=\"1\" skipped=\"1\""),
            "{x}"
        );
    }

    #[test]
    fn markdown_escapes_pipes_and_ends_with_the_closing_line() {
        let md = markdown(&report());
        assert!(md.contains("7 lanes \\| adapted"), "{md}");
        assert!(md.trim_end().ends_with("of 69 seed entries"), "{md}");
        let t = table(&report());
        assert_eq!(t.lines().count(), 4, "{t}");
    }

    #[test]
    fn transitions_name_what_got_worse_and_only_that_is_a_regression() {
        let base = report();
        let mut now = report();
        now.entries[0].status = Status::NotExercisable; // verified -> not exercisable
        now.entries[1].status = Status::Verified; // violated -> verified
        now.entries.remove(2); // not run
        now.entries.push(row("adapted/new", Status::Violated)); // new
        let changes = transitions(&base, &now);
        let got: Vec<(&str, Option<Status>, Option<Status>, bool)> = changes
            .iter()
            .map(|c| (c.id.as_str(), c.from, c.to, c.regression()))
            .collect();
        use Status::*;
        assert_eq!(
            got,
            [
                ("adapted/a", Some(Verified), Some(NotExercisable), true),
                ("fail-closed/b", Some(Violated), Some(Verified), false),
                ("adapted/new", None, Some(Violated), false),
                ("bounded/c", Some(NotExercisable), None, false),
            ]
        );
        let text = transitions_text(&changes);
        assert!(
            text.contains("regression adapted/a: verified -> not exercisable"),
            "{text}"
        );
        assert!(text.ends_with(
            "contract: 1 regressions, 1 improvements, 1 new, 1 not run since the baseline\n"
        ));
        assert!(transitions(&base, &base).is_empty());
        let json = serde_json::to_string(&base).expect("json");
        assert_eq!(ContractReport::parse(&json).expect("reads"), base);
        let other = json.replace(FORMAT, "dxdiff-contract/0");
        assert!(matches!(
            ContractReport::parse(&other),
            Err(e) if e.code() == "contract-report.format"
        ));
    }
}
