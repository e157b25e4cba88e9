//! `dxdiff corpus`: corpus qualification. Every program is translated once and classified as
//! *qualified* (WGSL emitted and validated), *unsupported* (a fail-closed rejection naming a
//! catalog id) or *failed* (a crash, a hang, WGSL that naga or the device rejects, or a blob
//! the dxbc crate cannot decode). The record holds the SHA-256 of each program's WGSL and
//! manifest, so that two records say exactly which programs' bytes changed (`transition`).
//!
//! A record is deterministic for a given translator and corpus: no timings, no absolute paths,
//! programs named relative to the folder given on the command line.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::translators::{Failure, Translator};
use crate::verify::Counts;

/// The record's format tag; a reader refuses any other.
pub const FORMAT: &str = "dxdiff-corpus/1";

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Qualified,
    Unsupported,
    Failed,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Qualified => "qualified",
            Status::Unsupported => "unsupported",
            Status::Failed => "failed",
        }
    }
}

/// The differential check of one qualified program (`--verify N`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdicts {
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
}

/// One program's line in the record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProgramRecord {
    /// The folder's name given on the command line, then the path inside it.
    pub name: String,
    pub status: Status,
    /// Unsupported: the catalog id of the rejection.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub catalog_id: Option<String>,
    /// Unsupported or failed: why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wgsl_sha256: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub manifest_sha256: Option<String>,
    /// The catalog ids the translation relies on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub adaptations: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdicts: Option<Verdicts>,
}

/// Programs per status.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Totals {
    pub qualified: u64,
    pub unsupported: u64,
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
    pub inputs: usize,
    pub seed: u64,
    pub adapter: String,
}

/// A whole qualification run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub format: String,
    pub translator: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verify: Option<VerifySettings>,
    pub totals: Totals,
    /// Per catalog id: programs rejected under it plus qualified programs relying on it.
    pub catalog_hits: BTreeMap<String, u64>,
    /// Per catalog id: lanes it adapted in the `--verify` pass.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub adapted_lanes: BTreeMap<String, u64>,
    pub programs: Vec<ProgramRecord>,
}

impl Record {
    /// Read a record written by `dxdiff corpus --out`.
    pub fn parse(text: &str) -> Result<Record, String> {
        let r: Record = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if r.format != FORMAT {
            return Err(format!("format `{}`, expected `{FORMAT}`", r.format));
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

/// Hex SHA-256.
pub fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A program: its name, and its container or why it could not be read.
pub type Program = (String, Result<Vec<u8>, String>);

/// Every program under `roots` (DXBC containers and the programs of `dxdiff-case/1` files, read
/// once), named `<root's last component>/<path inside the root>`, in name order.
pub fn programs(roots: &[PathBuf]) -> Vec<Program> {
    let mut out = Vec::new();
    for root in roots {
        let base = root.file_name().map_or_else(
            || root.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        for (path, blob) in crate::verify::corpus::collect(std::slice::from_ref(root)) {
            let path = PathBuf::from(path);
            let rel = path.strip_prefix(root).unwrap_or(&path);
            let name = if rel.as_os_str().is_empty() {
                base.clone()
            } else {
                format!("{base}/{}", rel.display())
            };
            out.push((name, blob));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Classify one program.
pub fn classify(name: &str, blob: Result<&[u8], &str>, translator: &Translator) -> ProgramRecord {
    let mut rec = ProgramRecord {
        name: name.to_string(),
        status: Status::Failed,
        catalog_id: None,
        reason: None,
        wgsl_sha256: None,
        manifest_sha256: None,
        adaptations: Vec::new(),
        verdicts: None,
    };
    let blob = match blob {
        Ok(b) => b,
        Err(e) => {
            rec.reason = Some(format!("unreadable: {e}"));
            return rec;
        }
    };
    let shader = match dxbc::Shader::parse(blob) {
        Ok(s) => s,
        Err(e) => {
            rec.reason = Some(format!("malformed DXBC: [{}] {e}", e.code()));
            return rec;
        }
    };
    match translator.translate(blob, &shader) {
        Ok(t) => {
            rec.status = Status::Qualified;
            rec.wgsl_sha256 = Some(sha256(t.wgsl.as_bytes()));
            let manifest = serde_json::to_vec(&t.manifest).unwrap_or_default();
            rec.manifest_sha256 = Some(sha256(&manifest));
            rec.adaptations = t.adaptations;
        }
        Err(Failure::Rejected {
            catalog_id, reason, ..
        }) => {
            rec.status = Status::Unsupported;
            rec.catalog_id = Some(catalog_id);
            rec.reason = Some(reason);
        }
        Err(f @ Failure::Crashed { .. }) => rec.reason = Some(f.to_string()),
    }
    rec
}

/// Qualify every program (no GPU), in parallel over the machine's cores.
pub fn qualify(list: &[Program], translator: &Translator) -> Record {
    let programs = crate::verify::corpus::par_map(
        list,
        |(name, blob)| {
            // A panicking translator is that program's failure, not the run's end.
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                classify(name, blob.as_deref().map_err(String::as_str), translator)
            }))
            .unwrap_or_else(|_| {
                let mut r = classify(name, Err("the translator panicked"), translator);
                r.reason = Some("translator crash: it panicked".into());
                r
            })
        },
        || classify("?", Err("lost to a panic"), translator),
    );
    let mut r = Record {
        format: FORMAT.to_string(),
        translator: translator.name(),
        verify: None,
        totals: Totals::default(),
        catalog_hits: BTreeMap::new(),
        adapted_lanes: BTreeMap::new(),
        programs,
    };
    r.recount();
    r
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
            p.name,
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
    let cut = cut.replace('|', "\\|");
    if cut.len() < line.len() {
        format!("{cut}…")
    } else {
        cut
    }
}

/// JUnit XML: one test case per program; unsupported is skipped, failed (or a verified
/// program with a mismatch) is a failure.
pub fn junit(r: &Record) -> String {
    let mismatching =
        |p: &ProgramRecord| p.verdicts.as_ref().is_some_and(|v| v.counts.mismatch > 0);
    let failures = r
        .programs
        .iter()
        .filter(|p| p.status == Status::Failed || mismatching(p))
        .count();
    let mut s = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n<testsuite name=\"dxdiff corpus {}\" tests=\"{}\" failures=\"{failures}\" skipped=\"{}\" errors=\"0\">\n",
        xml(&r.translator),
        r.programs.len(),
        r.totals.unsupported
    );
    for p in &r.programs {
        let (class, name) = p.name.split_once('/').unwrap_or(("corpus", &p.name));
        s.push_str(&format!(
            "  <testcase classname=\"{}\" name=\"{}\"",
            xml(class),
            xml(name)
        ));
        let reason = p.reason.as_deref().unwrap_or("");
        match p.status {
            Status::Qualified if mismatching(p) => {
                let c = p.verdicts.as_ref().map(|v| v.counts.mismatch).unwrap_or(0);
                s.push_str(&format!(
                    "><failure message=\"{c} mismatching lanes\"/></testcase>\n"
                ));
            }
            Status::Qualified => s.push_str("/>\n"),
            Status::Unsupported => s.push_str(&format!(
                "><skipped message=\"[{}] {}\"/></testcase>\n",
                xml(p.catalog_id.as_deref().unwrap_or("")),
                xml(reason)
            )),
            Status::Failed => s.push_str(&format!(
                "><failure message=\"{}\"/></testcase>\n",
                xml(reason)
            )),
        }
    }
    s.push_str("</testsuite>\n</testsuites>\n");
    s
}

/// Escape text for an XML attribute; control characters XML 1.0 forbids are dropped.
fn xml(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            '\n' => s.push_str("&#10;"),
            '\t' | '\r' => s.push(' '),
            c if (c as u32) < 0x20 => {}
            c => s.push(c),
        }
    }
    s
}
