//! What a translator change did (`dxdiff diff`, `dxdiff-diff/1`): two runs of `dxdiff verify`
//! on the same seed, one per build, compared program by program (or two fuzz campaigns,
//! divergence by divergence). A translator's author asks
//! which divergences the change introduced, which it fixed, which catalog entries it newly
//! relies on or no longer needs, which programs it newly refuses or crashes on, and where its
//! WGSL changed at all; only an introduced divergence or a new crash is a regression.

use std::collections::BTreeMap;

use oracles::verdict::SkipKind;
use serde::{Deserialize, Serialize};

use crate::verify::{ProgramReport, RunReport};

/// The report's format tag.
pub const FORMAT: &str = "dxdiff-diff/1";

/// One side of the comparison.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Side {
    /// The translator of that run.
    pub translator: String,
    /// Its adapter.
    pub adapter: String,
    /// Its lanes per verdict.
    pub totals: crate::counts::Counts,
}

/// A program whose mismatching lanes changed.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Change {
    /// The program.
    pub program: String,
    /// Its mismatching lanes before and after.
    pub before: u64,
    /// After.
    pub after: u64,
    /// The new run's counterexample, where it saved one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counterexample: Option<String>,
    /// Whether that counterexample passes on the baseline translator (`--confirm`): the
    /// divergence is the change's own. `None` when it was not replayed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub passes_on_baseline: Option<bool>,
    /// Why the replay on the baseline could not say.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay_error: Option<String>,
}

/// A catalog entry a program relies on in one run and not in the other.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntryChange {
    /// The program.
    pub program: String,
    /// The entry.
    pub entry: String,
    /// Lanes it adapted before.
    pub before: u64,
    /// And after.
    pub after: u64,
}

/// A program whose skip changed (refused, crashed, unfeedable, … or run).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkipChange {
    /// The program.
    pub program: String,
    /// Its skip before (`None`: it ran).
    pub before: Option<String>,
    /// After.
    pub after: Option<String>,
    /// The new skip is a translator failure (a crash, a hang, invalid WGSL): a regression.
    pub regression: bool,
}

/// The comparison.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Diff {
    /// [`FORMAT`].
    pub format: String,
    /// The seed both runs used.
    pub seed: u64,
    /// The baseline run.
    pub base: Side,
    /// The run of the change.
    pub new: Side,
    /// Programs in both runs.
    pub programs: usize,
    /// Programs that mismatch now and did not before: regressions.
    pub introduced: Vec<Change>,
    /// Programs that mismatched before and do not now.
    pub fixed: Vec<Change>,
    /// Programs that mismatch in both runs, with their lanes.
    pub still: Vec<Change>,
    /// Entries a program relies on now and did not before.
    pub newly_relied: Vec<EntryChange>,
    /// Entries a program relied on before and does not now.
    pub no_longer_relied: Vec<EntryChange>,
    /// Programs whose skip changed.
    pub skips: Vec<SkipChange>,
    /// Programs whose WGSL changed (both runs recorded its hash).
    pub wgsl_changed: Vec<String>,
    /// Programs whose lanes gave other words where the reference accepts both, or changed
    /// verdict, lane by lane ([`Diff::compare_answers`]; empty until it runs).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub answers: Vec<crate::answers::Change>,
    /// Programs whose answers could not be compared (a file missing or unreadable), with why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub answers_unread: Vec<String>,
    /// Programs in one run only (a different program set: another Shader Model, a shard).
    pub only_in_base: Vec<String>,
    /// And in the new run only.
    pub only_in_new: Vec<String>,
}

/// Why two reports cannot be compared.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DiffError {
    /// The runs used different seeds or inputs per program, so their programs saw other data.
    #[error("the runs are not comparable: {0}")]
    NotComparable(String),
}

impl DiffError {
    /// The stable code.
    pub fn code(&self) -> &'static str {
        "diff.not-comparable"
    }
}

fn skip_name(p: &ProgramReport) -> Option<String> {
    p.skipped.as_ref().map(|why| match p.skip_kind {
        Some(k) => format!("{}: {why}", k.as_str()),
        None => why.clone(),
    })
}

impl Diff {
    /// Compare `base` (the baseline build's run) with `new` (the change's), program by
    /// program. Both must have used one seed and one input count.
    pub fn of(base: &RunReport, new: &RunReport) -> Result<Diff, DiffError> {
        if base.seed != new.seed || base.inputs_per_program != new.inputs_per_program {
            return Err(DiffError::NotComparable(format!(
                "seed {} with {} inputs a program against seed {} with {}",
                base.seed, base.inputs_per_program, new.seed, new.inputs_per_program
            )));
        }
        let side = |r: &RunReport| Side {
            translator: r.profile.clone(),
            adapter: r.adapter.clone(),
            totals: r.totals.clone(),
        };
        let mut d = Diff {
            format: FORMAT.into(),
            seed: new.seed,
            base: side(base),
            new: side(new),
            ..Diff::default()
        };
        let before: BTreeMap<&str, &ProgramReport> =
            base.programs.iter().map(|p| (p.name.as_str(), p)).collect();
        let after: BTreeMap<&str, &ProgramReport> =
            new.programs.iter().map(|p| (p.name.as_str(), p)).collect();
        d.only_in_base = before
            .keys()
            .filter(|k| !after.contains_key(*k))
            .map(|k| k.to_string())
            .collect();
        for (name, n) in &after {
            let Some(b) = before.get(name) else {
                d.only_in_new.push(name.to_string());
                continue;
            };
            d.programs += 1;
            let change = Change {
                program: name.to_string(),
                before: b.tally.counts.mismatch,
                after: n.tally.counts.mismatch,
                counterexample: n.counterexample.clone(),
                ..Change::default()
            };
            match (change.before, change.after) {
                (0, 0) => {}
                (0, _) => d.introduced.push(change),
                (_, 0) => d.fixed.push(Change {
                    counterexample: b.counterexample.clone(),
                    ..change
                }),
                _ => d.still.push(change),
            }
            let entries = b.tally.adapted_by.keys().chain(n.tally.adapted_by.keys());
            let mut seen = Vec::new();
            for e in entries {
                if seen.contains(&e) {
                    continue;
                }
                seen.push(e);
                let (x, y) = (
                    b.tally.adapted_by.get(e).copied().unwrap_or(0),
                    n.tally.adapted_by.get(e).copied().unwrap_or(0),
                );
                let row = EntryChange {
                    program: name.to_string(),
                    entry: e.clone(),
                    before: x,
                    after: y,
                };
                if x == 0 && y > 0 {
                    d.newly_relied.push(row);
                } else if x > 0 && y == 0 {
                    d.no_longer_relied.push(row);
                }
            }
            let (sb, sn) = (skip_name(b), skip_name(n));
            if sb != sn {
                d.skips.push(SkipChange {
                    program: name.to_string(),
                    regression: n.skip_kind.is_some_and(SkipKind::is_translator_failure)
                        && !b.skip_kind.is_some_and(SkipKind::is_translator_failure),
                    before: sb,
                    after: sn,
                });
            }
            if let (Some(x), Some(y)) = (&b.wgsl, &n.wgsl)
                && x != y
            {
                d.wgsl_changed.push(name.to_string());
            }
        }
        Ok(d)
    }

    /// Compare the two runs' answers lane by lane ([`crate::answers`]), each read from its
    /// run's folder (`base_dir`, `new_dir`). Programs whose digests agree are not read. A run
    /// from before answers were kept has none, and nothing is compared for it.
    pub fn compare_answers(
        &mut self,
        base: &RunReport,
        base_dir: &std::path::Path,
        new: &RunReport,
        new_dir: &std::path::Path,
    ) {
        use crate::answers::{Answers, Summary, compare, read};
        let before: BTreeMap<&str, Option<&Summary>> = base
            .programs
            .iter()
            .map(|p| (p.name.as_str(), p.answers.as_ref()))
            .collect();
        for n in &new.programs {
            let Some(b) = before.get(n.name.as_str()) else {
                continue;
            };
            let (b, a) = (*b, n.answers.as_ref());
            if b.map(|x| (x.lanes, &x.digest)) == a.map(|x| (x.lanes, &x.digest)) {
                continue;
            }
            let load = |s: Option<&Summary>, dir| match s {
                None => Ok(Answers::new()),
                Some(s) => read(dir, s),
            };
            match (load(b, base_dir), load(a, new_dir)) {
                (Ok(x), Ok(y)) => self.answers.extend(compare(&n.name, &x, &y)),
                (Err(e), _) | (_, Err(e)) => {
                    self.answers_unread
                        .push(format!("{}: [{}] {e}", n.name, e.code()));
                }
            }
        }
    }

    /// Compare two fuzz campaigns of one seed and one set of knobs (`state.json`), divergence
    /// by divergence: a divergence is named by its signature less the translator's name (the
    /// shrunk program's opcodes and the catalog ids), so builds named differently line up.
    /// Campaigns of different lengths are compared too, and the report says so; for an exact
    /// answer run both with `--programs N`.
    pub fn of_fuzz(base: &crate::fuzz::State, new: &crate::fuzz::State) -> Result<Diff, DiffError> {
        if base.seed != new.seed || base.knobs != new.knobs {
            return Err(DiffError::NotComparable(format!(
                "seed {} `{}` against seed {} `{}`",
                base.seed, base.knobs, new.seed, new.knobs
            )));
        }
        let side = |s: &crate::fuzz::State| Side {
            translator: s.translator.clone(),
            adapter: String::new(),
            totals: s.stats.counts.clone(),
        };
        let key = |sig: &str| match sig.split_once(" | ") {
            Some((_, rest)) => rest.to_string(),
            None => sig.to_string(),
        };
        let mut d = Diff {
            format: FORMAT.into(),
            seed: new.seed,
            base: side(base),
            new: side(new),
            programs: new.stats.programs.min(base.stats.programs) as usize,
            ..Diff::default()
        };
        if base.stats.programs != new.stats.programs {
            d.only_in_base
                .push(format!("{} programs", base.stats.programs));
            d.only_in_new
                .push(format!("{} programs", new.stats.programs));
        }
        let before: BTreeMap<String, &crate::fuzz::Divergence> = base
            .divergences
            .iter()
            .map(|v| (key(&v.signature), v))
            .collect();
        let after: BTreeMap<String, &crate::fuzz::Divergence> = new
            .divergences
            .iter()
            .map(|v| (key(&v.signature), v))
            .collect();
        for (k, n) in &after {
            let change = Change {
                program: k.clone(),
                before: before.get(k).map_or(0, |b| b.seen.max(1)),
                after: n.seen.max(1),
                counterexample: Some(n.case.clone()),
                ..Change::default()
            };
            if before.contains_key(k) {
                d.still.push(change);
            } else {
                d.introduced.push(change);
            }
        }
        for (k, b) in &before {
            if !after.contains_key(k) {
                d.fixed.push(Change {
                    program: k.clone(),
                    before: b.seen.max(1),
                    after: 0,
                    counterexample: Some(b.case.clone()),
                    ..Change::default()
                });
            }
        }
        Ok(d)
    }

    /// Whether the change regressed: a divergence it introduced (one whose counterexample was
    /// replayed and also fails on the baseline is still one: the program passed there) or a
    /// new translator failure.
    pub fn regressed(&self) -> bool {
        !self.introduced.is_empty() || self.skips.iter().any(|s| s.regression)
    }

    /// Whether the two runs behaved alike: no verdict, entry, skip or WGSL changed.
    pub fn unchanged(&self) -> bool {
        self.introduced.is_empty()
            && self.fixed.is_empty()
            && self.newly_relied.is_empty()
            && self.no_longer_relied.is_empty()
            && self.skips.is_empty()
            && self.wgsl_changed.is_empty()
            && self.answers.is_empty()
            && self.still.iter().all(|c| c.before == c.after)
    }

    /// The closing line scripts read.
    pub fn closing_line(&self) -> String {
        format!(
            "diff: {} programs, {} introduced, {} fixed, {} still mismatching, {} entries newly relied on, {} no longer, {} skips changed, {} WGSL changed, {} answers changed",
            self.programs,
            self.introduced.len(),
            self.fixed.len(),
            self.still.len(),
            self.newly_relied.len(),
            self.no_longer_relied.len(),
            self.skips.len(),
            self.wgsl_changed.len(),
            self.answers.len()
        )
    }

    /// The Markdown rendering (`diff.md`).
    pub fn to_markdown(&self) -> String {
        use std::fmt::Write as _;
        let cell = crate::text::cell;
        let mut s = String::new();
        let _ = writeln!(s, "# What the change did\n");
        let _ = writeln!(
            s,
            "Baseline `{}` against `{}`, seed {}, on {}; {} programs in both runs.\n",
            cell(&self.base.translator),
            cell(&self.new.translator),
            self.seed,
            cell(&self.new.adapter),
            self.programs
        );
        let _ = writeln!(
            s,
            "| | baseline | change |\n| --- | ---: | ---: |\n| lanes | {} | {} |\n| mismatching lanes | {} | {} |\n| adapted lanes | {} | {} |\n",
            self.base.totals.lanes,
            self.new.totals.lanes,
            self.base.totals.mismatch,
            self.new.totals.mismatch,
            self.base.totals.adapted,
            self.new.totals.adapted
        );
        let changes = |s: &mut String, title: &str, rows: &[Change]| {
            if rows.is_empty() {
                return;
            }
            let _ = writeln!(
                s,
                "## {title}\n\n| program | mismatching lanes before | after | counterexample | passes on the baseline |\n| --- | ---: | ---: | --- | --- |"
            );
            for c in rows {
                let _ = writeln!(
                    s,
                    "| {} | {} | {} | {} | {} |",
                    cell(&c.program),
                    c.before,
                    c.after,
                    cell(c.counterexample.as_deref().unwrap_or("")),
                    match (c.passes_on_baseline, &c.replay_error) {
                        (Some(true), _) => "yes".to_string(),
                        (Some(false), _) => "no".to_string(),
                        (None, Some(e)) => cell(e),
                        (None, None) => "not replayed".to_string(),
                    }
                );
            }
            s.push('\n');
        };
        changes(&mut s, "Introduced (regressions)", &self.introduced);
        changes(&mut s, "Fixed", &self.fixed);
        changes(&mut s, "Still mismatching", &self.still);
        let entries = |s: &mut String, title: &str, rows: &[EntryChange]| {
            if rows.is_empty() {
                return;
            }
            let _ = writeln!(
                s,
                "## {title}\n\n| program | entry | lanes before | after |\n| --- | --- | ---: | ---: |"
            );
            for e in rows {
                let _ = writeln!(
                    s,
                    "| {} | `{}` | {} | {} |",
                    cell(&e.program),
                    cell(&e.entry),
                    e.before,
                    e.after
                );
            }
            s.push('\n');
        };
        entries(&mut s, "Entries newly relied on", &self.newly_relied);
        entries(
            &mut s,
            "Entries no longer relied on",
            &self.no_longer_relied,
        );
        if !self.skips.is_empty() {
            let _ = writeln!(
                s,
                "## Skips that changed\n\n| program | before | after | regression |\n| --- | --- | --- | --- |"
            );
            for k in &self.skips {
                let _ = writeln!(
                    s,
                    "| {} | {} | {} | {} |",
                    cell(&k.program),
                    cell(k.before.as_deref().unwrap_or("ran")),
                    cell(k.after.as_deref().unwrap_or("ran")),
                    if k.regression { "yes" } else { "" }
                );
            }
            s.push('\n');
        }
        if !self.wgsl_changed.is_empty() {
            let _ = writeln!(
                s,
                "## WGSL changed\n\nIn {} of the programs: {}\n",
                self.wgsl_changed.len(),
                self.wgsl_changed
                    .iter()
                    .map(|p| format!("`{}`", cell(p)))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        if !self.answers.is_empty() {
            let _ = writeln!(
                s,
                "## Answers that changed, lane by lane\n\nSilent lanes gave other words in the two runs where the reference accepts both (within a band, or adapted): the verdicts cannot show them. Lanes are the vectors' indices in the program's batch.\n\n| program | silent lanes | lanes whose verdict changed | some of them | |\n| --- | ---: | ---: | --- | --- |"
            );
            for c in &self.answers {
                let lanes: Vec<String> = c.lanes.iter().map(u32::to_string).collect();
                let _ = writeln!(
                    s,
                    "| {} | {} | {} | {} | {} |",
                    cell(&c.program),
                    c.silent,
                    c.verdicts,
                    lanes.join(", "),
                    if c.partial {
                        "more lanes differ than the runs kept: counts are of the kept ones"
                    } else {
                        ""
                    }
                );
            }
            s.push('\n');
        }
        if !self.answers_unread.is_empty() {
            let _ = writeln!(
                s,
                "## Answers not compared\n\n{}\n",
                self.answers_unread
                    .iter()
                    .map(|p| format!("- {}", cell(p)))
                    .collect::<Vec<_>>()
                    .join("\n")
            );
        }
        for (title, list) in [
            ("Only in the baseline run", &self.only_in_base),
            ("Only in the change's run", &self.only_in_new),
        ] {
            if !list.is_empty() {
                let _ = writeln!(s, "## {title}\n\n{}\n", list.join(", "));
            }
        }
        let _ = writeln!(s, "{}", self.closing_line());
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(name: &str, mismatch: u64, adapted: &[(&str, u64)], wgsl: &str) -> ProgramReport {
        let mut p = ProgramReport::new(name);
        p.tally.counts.lanes = 10;
        p.tally.counts.mismatch = mismatch;
        for (e, n) in adapted {
            p.tally.adapted_by.insert(e.to_string(), *n);
        }
        p.wgsl = Some(wgsl.into());
        p
    }

    fn run(programs: Vec<ProgramReport>) -> RunReport {
        let mut r = RunReport::new("builtin/exact".into(), 1, "llvmpipe".into(), 64);
        for p in programs {
            r.push(p);
        }
        r
    }

    #[test]
    fn a_run_against_itself_is_unchanged() {
        let r = run(vec![
            program("a", 0, &[("x", 3)], "1"),
            program("b", 2, &[], "2"),
        ]);
        let d = Diff::of(&r, &r).expect("comparable");
        assert!(d.unchanged() && !d.regressed(), "{d:?}");
        assert_eq!((d.programs, d.still.len()), (2, 1));
    }

    #[test]
    fn each_kind_of_change_is_reported() {
        let base = run(vec![
            program("intro", 0, &[], "1"),
            program("fixed", 4, &[], "2"),
            program("relies", 0, &[("old", 2)], "3"),
            program("gone", 0, &[], "4"),
        ]);
        let mut crash = program("relies", 0, &[("new", 2)], "3");
        crash.skip(&oracles::verdict::Skip::new(
            SkipKind::TranslatorCrash,
            "boom",
        ));
        let new = run(vec![
            program("intro", 3, &[], "1b"),
            program("fixed", 0, &[], "2"),
            crash,
            program("added", 0, &[], "5"),
        ]);
        let d = Diff::of(&base, &new).expect("comparable");
        assert_eq!(d.introduced.len(), 1);
        assert_eq!((d.introduced[0].before, d.introduced[0].after), (0, 3));
        assert_eq!(d.fixed[0].program, "fixed");
        assert_eq!(d.newly_relied[0].entry, "new");
        assert_eq!(d.no_longer_relied[0].entry, "old");
        assert!(d.skips[0].regression);
        assert_eq!(d.wgsl_changed, ["intro"]);
        assert_eq!(
            (d.only_in_base.clone(), d.only_in_new.clone()),
            (vec!["gone".to_string()], vec!["added".to_string()])
        );
        assert!(d.regressed());
        let md = d.to_markdown();
        assert!(
            md.contains("## Introduced (regressions)")
                && md.ends_with(&format!("{}\n", d.closing_line()))
        );
    }

    #[test]
    fn campaigns_compare_by_signature_less_the_translator() {
        let state = |translator: &str, sigs: &[&str]| {
            let mut s = crate::fuzz::State::new(translator.to_string(), 9);
            s.stats.programs = 100;
            for (i, sig) in sigs.iter().enumerate() {
                s.divergences.push(crate::fuzz::Divergence {
                    signature: format!("{translator} | {sig}"),
                    case: format!("cases/{i}.json"),
                    program: i as u64,
                    instructions: 3,
                    seen: 2,
                });
            }
            s
        };
        let base = state("cmd:old", &["mad | dxdiff/fusion", "ishr"]);
        let new = state("cmd:new", &["mad | dxdiff/fusion", "udiv"]);
        let d = Diff::of_fuzz(&base, &new).expect("comparable");
        assert_eq!(d.introduced.len(), 1);
        assert_eq!(d.introduced[0].program, "udiv");
        assert_eq!(d.fixed[0].program, "ishr");
        assert_eq!(d.still.len(), 1);
        assert!(d.regressed());
        assert!(Diff::of_fuzz(&base, &base).expect("same").unchanged());
        let mut other = base.clone();
        other.seed = 10;
        assert!(Diff::of_fuzz(&base, &other).is_err());
    }

    #[test]
    fn runs_of_other_seeds_are_not_compared() {
        let a = run(vec![]);
        let mut b = run(vec![]);
        b.seed = 2;
        assert!(Diff::of(&a, &b).is_err());
    }
}
