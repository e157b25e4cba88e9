//! A corpus record against its baseline: the seed's `moved from Q/U/F to Q'/U'/F'`, the
//! programs whose status, bytes or verdicts changed, the catalog ids whose hit counts moved,
//! and which of those changes are regressions.
//!
//! A regression is a program qualified in the baseline that is now unsupported or failed, or a
//! qualified program with mismatching lanes whose baseline had none (or was not verified).
//! Programs that appear or disappear are listed, never regressions: the corpus changed.

use std::collections::{BTreeMap, BTreeSet};

use crate::corpus::{ProgramRecord, Record, Status, Totals};

/// One program whose status changed; `None` where it is absent from that side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusChange {
    /// The program's name, as in the records.
    pub name: String,
    /// Its status in the baseline.
    pub from: Option<Status>,
    /// Its status now.
    pub to: Option<Status>,
    /// The reason on the new side.
    pub reason: Option<String>,
}

/// The comparison of two records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transition {
    /// The baseline's totals.
    pub from: Totals,
    /// The new record's totals.
    pub to: Totals,
    /// Programs whose status changed, appeared or disappeared.
    pub status_changed: Vec<StatusChange>,
    /// Qualified on both sides; WGSL or manifest bytes differ: (name, what changed).
    pub bytes_changed: Vec<(String, &'static str)>,
    /// Qualified on both sides with identical WGSL and manifest bytes.
    pub bytes_identical: usize,
    /// Verified on both sides (or newly), with different verdict counts: (name, from, to) as
    /// `match/within/adapted/mismatch/inconclusive`.
    pub verdicts_changed: Vec<(String, String, String)>,
    /// Catalog ids whose program hits or adapted lanes moved: (id, what, from, to).
    pub catalog_moved: Vec<(String, &'static str, u64, u64)>,
    /// Human-readable regressions; non-empty means the run should fail.
    pub regressions: Vec<String>,
}

fn verdict_text(p: &ProgramRecord) -> Option<String> {
    p.verdicts.as_ref().map(|v| {
        let c = &v.counts;
        format!(
            "{}/{}/{}/{}/{}",
            c.matched, c.within, c.adapted, c.mismatch, c.inconclusive
        )
    })
}

fn mismatches(p: &ProgramRecord) -> u64 {
    p.verdicts.as_ref().map_or(0, |v| v.counts.mismatch)
}

/// Compare `now` with `baseline`.
pub fn compare(baseline: &Record, now: &Record) -> Transition {
    let old: BTreeMap<&str, &ProgramRecord> = baseline
        .programs
        .iter()
        .map(|p| (p.name.as_str(), p))
        .collect();
    let new: BTreeMap<&str, &ProgramRecord> =
        now.programs.iter().map(|p| (p.name.as_str(), p)).collect();
    let names: BTreeSet<&str> = old.keys().chain(new.keys()).copied().collect();
    let mut t = Transition {
        from: baseline.totals,
        to: now.totals,
        status_changed: Vec::new(),
        bytes_changed: Vec::new(),
        bytes_identical: 0,
        verdicts_changed: Vec::new(),
        catalog_moved: Vec::new(),
        regressions: Vec::new(),
    };
    for name in names {
        let (a, b) = (old.get(name).copied(), new.get(name).copied());
        let (sa, sb) = (a.map(|p| p.status), b.map(|p| p.status));
        if sa != sb {
            t.status_changed.push(StatusChange {
                name: name.to_string(),
                from: sa,
                to: sb,
                reason: b.and_then(|p| p.catalog_id.clone().or_else(|| p.reason.clone())),
            });
            if sa == Some(Status::Qualified) && sb.is_some() {
                t.regressions.push(format!(
                    "{name}: qualified → {}",
                    sb.map_or("absent", Status::as_str)
                ));
            }
        }
        let (Some(a), Some(b)) = (a, b) else {
            continue;
        };
        if a.status == Status::Qualified && b.status == Status::Qualified {
            let wgsl = a.wgsl_sha256 != b.wgsl_sha256;
            let manifest = a.manifest_sha256 != b.manifest_sha256;
            match (wgsl, manifest) {
                (false, false) => t.bytes_identical += 1,
                (true, false) => t.bytes_changed.push((name.to_string(), "WGSL")),
                (false, true) => t.bytes_changed.push((name.to_string(), "manifest")),
                (true, true) => t
                    .bytes_changed
                    .push((name.to_string(), "WGSL and manifest")),
            }
        }
        let (va, vb) = (verdict_text(a), verdict_text(b));
        if vb.is_some() && va != vb {
            t.verdicts_changed.push((
                name.to_string(),
                va.unwrap_or_else(|| "not verified".into()),
                vb.clone().unwrap_or_default(),
            ));
        }
        if mismatches(b) > 0 && mismatches(a) == 0 {
            t.regressions
                .push(format!("{name}: {} mismatching lanes (new)", mismatches(b)));
        }
    }
    for (what, x, y) in [
        ("programs", &baseline.catalog_hits, &now.catalog_hits),
        ("adapted lanes", &baseline.adapted_lanes, &now.adapted_lanes),
    ] {
        let ids: BTreeSet<&String> = x.keys().chain(y.keys()).collect();
        for id in ids {
            let (n, m) = (
                x.get(id).copied().unwrap_or(0),
                y.get(id).copied().unwrap_or(0),
            );
            // Adapted lanes are compared only where both runs verified.
            if n != m && (what == "programs" || (baseline.verify.is_some() && now.verify.is_some()))
            {
                t.catalog_moved.push((id.clone(), what, n, m));
            }
        }
    }
    t
}

impl Transition {
    /// The seed's line.
    pub fn moved_line(&self) -> String {
        format!(
            "moved from {} to {}",
            self.from.slashed(),
            self.to.slashed()
        )
    }

    /// The whole comparison as text (Markdown lists).
    pub fn text(&self) -> String {
        let mut s = format!("{}\n", self.moved_line());
        let kept = self.bytes_identical;
        let both = kept + self.bytes_changed.len();
        s.push_str(&format!(
            "SHA-256: {kept} of {both} programs qualified on both sides kept identical WGSL and manifest bytes\n"
        ));
        let status = |x: Option<Status>| x.map_or("absent", Status::as_str);
        if !self.status_changed.is_empty() {
            s.push_str("\nstatus changed:\n");
            for c in &self.status_changed {
                s.push_str(&format!(
                    "- {}: {} → {}{}\n",
                    c.name,
                    status(c.from),
                    status(c.to),
                    c.reason
                        .as_ref()
                        .map(|r| format!(" ({})", r.lines().next().unwrap_or("")))
                        .unwrap_or_default()
                ));
            }
        }
        if !self.bytes_changed.is_empty() {
            s.push_str("\nbytes changed:\n");
            for (n, what) in &self.bytes_changed {
                s.push_str(&format!("- {n}: {what}\n"));
            }
        }
        if !self.verdicts_changed.is_empty() {
            s.push_str("\nverdicts changed (match/within/adapted/mismatch/inconclusive):\n");
            for (n, a, b) in &self.verdicts_changed {
                s.push_str(&format!("- {n}: {a} → {b}\n"));
            }
        }
        if !self.catalog_moved.is_empty() {
            s.push_str("\ncatalog hits moved:\n");
            for (id, what, a, b) in &self.catalog_moved {
                s.push_str(&format!("- `{id}` {what}: {a} → {b}\n"));
            }
        }
        if !self.regressions.is_empty() {
            s.push_str("\nregressions:\n");
            for r in &self.regressions {
                s.push_str(&format!("- {r}\n"));
            }
        }
        s
    }
}
