//! The judgment of one entry's property from what happened to each of its programs, by the
//! entry's category. Pure: the runner ([`super::run`]) fills in the outcomes.

use catalog::ids as id;
use oracles::catalog::{Category, Entry};
use reports::contract::{EntryRow, Status};

/// Where a program sits against a bounded entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Inside the entry (or the only kind of program the plan has).
    Inside,
    /// Just outside a bound: it must be refused under a fail-closed id, or run and match.
    Outside,
    /// A fail-closed feature: refused under the entry's id, or run and match.
    Feature,
}

/// What happened to one program.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The translator refused it.
    Rejected {
        /// Under this catalog id.
        id: String,
        /// Naming this instruction, if it named one.
        instruction: Option<usize>,
        /// In its words.
        reason: String,
    },
    /// The translator crashed or wrote WGSL that does not validate (its whole reason, and the
    /// case saved for it); or the program did not assemble (a dxdiff bug, said so).
    Broken {
        /// What went wrong, whole.
        why: String,
        /// The saved case of a translator crash.
        case: Option<String>,
    },
    /// It ran on both sides.
    Ran(Ran),
}

impl Outcome {
    /// A broken program with no case (one that did not assemble or decode).
    pub fn broken(why: String) -> Outcome {
        Outcome::Broken { why, case: None }
    }
}

/// A program that ran.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ran {
    /// Lanes judged.
    pub lanes: u64,
    /// Lanes that mismatched.
    pub mismatch: u64,
    /// Lanes this entry adapted.
    pub adapted: u64,
    /// Lanes other entries adapted (a lane adapted by several counts once per entry).
    pub adapted_other: u64,
    /// Lanes whose reference entered the entry's domain.
    pub domain: u64,
    /// Whether the translation listed the entry.
    pub attributed: bool,
    /// Whether the program has the entry's structure (a structural entry's marker).
    pub structured: bool,
    /// Why it did not run (fully), if it did not.
    pub skipped: Option<String>,
    /// Its saved counterexample.
    pub case: Option<String>,
}

/// Whether a rejection id is a fail-closed one: the seed's `fail-closed/*`, or a generic one.
pub fn fail_closed_id(id: &str) -> bool {
    id.starts_with("fail-closed/") || generic_id(id)
}

/// Whether a refusal id is one of the page's documented refusals: a seed `fail-closed/*`
/// entry of the catalog. A refusal under it is the page's own behaviour wherever it happens.
pub fn documented_id(id: &str) -> bool {
    id.starts_with("fail-closed/")
        && oracles::catalog::catalog()
            .get(id)
            .is_some_and(|e| e.seed_ref.is_some())
}

/// dxdiff's own ids for a refusal the translator does not attribute to a seed entry:
/// `dxdiff/not-lowered` (the built-in translator) and `dxdiff/refused` (external translators,
/// vkd3d-shader), which cannot know the seed's ids.
pub fn generic_id(id: &str) -> bool {
    id == id::NOT_LOWERED || id == id::REFUSED
}

/// A translator's words made fit for one table cell: the first line, at most 160 characters
/// (a crash's stderr can carry a whole backtrace; the saved report keeps the row short too).
fn brief(text: &str) -> String {
    let line = text.lines().next().unwrap_or_default().trim();
    match line.char_indices().nth(160) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line.to_string(),
    }
}

/// The row of `entry`, whose property is `what`, with `status` and `reason` and nothing
/// counted yet.
pub fn row(entry: &Entry, what: &str, status: Status, reason: String) -> EntryRow {
    EntryRow {
        id: entry.id.clone(),
        category: entry.category.to_string(),
        property: what.to_string(),
        status,
        programs: 0,
        lanes: 0,
        adapted_lanes: 0,
        domain_lanes: 0,
        rejections: 0,
        attributed: 0,
        reason,
        cases: Vec::new(),
    }
}

/// `row` marked not exercisable, for `reason`.
fn not_exercisable(mut row: EntryRow, reason: String) -> EntryRow {
    row.status = Status::NotExercisable;
    row.reason = reason;
    row
}

/// The row of `entry` from its programs' outcomes, `exact` when the translation was asked
/// for the exact profile (where no adapted entry may be needed).
pub fn judge(entry: &Entry, what: &str, programs: &[(Role, Outcome)], exact: bool) -> EntryRow {
    let mut row = row(entry, what, Status::Verified, String::new());
    row.programs = programs.len() as u64;
    let mut violations: Vec<String> = Vec::new();
    let mut skips: Vec<String> = Vec::new();
    let (mut ran, mut beyond, mut refused_right, mut named, mut other_adapted) = (0, 0, 0, 0, 0);
    let (mut mismatched, mut mismatching, mut generic) = (0u64, 0usize, 0usize);
    let mut structured = 0usize;
    let (mut refused_documented, mut documented_ids) = (0usize, Vec::<String>::new());
    let mut crash_classes: Vec<String> = Vec::new();
    for (role, outcome) in programs {
        match outcome {
            Outcome::Broken { why, case } => {
                // Distinct crashes by their whole reason; the row keeps one line of each.
                let class = crate::translators::reason_class(why);
                if !crash_classes.contains(&class) {
                    crash_classes.push(class);
                    violations.push(brief(why));
                }
                if let Some(c) = case
                    && !row.cases.contains(c)
                {
                    row.cases.push(c.clone());
                }
            }
            Outcome::Rejected {
                id,
                instruction,
                reason,
            } => {
                row.rejections += 1;
                named += usize::from(instruction.is_some());
                // A feature refused under a generic id still fails closed, unattributed.
                let right = match role {
                    Role::Inside => false,
                    Role::Outside => fail_closed_id(id),
                    Role::Feature => *id == entry.id || generic_id(id),
                };
                generic += usize::from(*role == Role::Feature && generic_id(id));
                // A refusal under another seed fail-closed id is the page's own documented
                // behaviour: the program also carries that entry's feature. Never a violation;
                // it only leaves the program without lanes.
                let documented = !right && documented_id(id);
                if right {
                    refused_right += 1;
                } else if documented {
                    if !documented_ids.contains(id) {
                        documented_ids.push(id.clone());
                    }
                    refused_documented += 1;
                } else {
                    let want = match role {
                        Role::Inside => "a program the contract lowers".to_string(),
                        Role::Outside => "outside the bound, but not under a fail-closed id".into(),
                        Role::Feature => format!("under [{id}], not [{}]", entry.id),
                    };
                    violations.push(format!("rejected {want}: [{id}] {}", brief(reason)));
                }
            }
            Outcome::Ran(r) => {
                row.lanes += r.lanes;
                row.adapted_lanes += r.adapted;
                row.domain_lanes += r.domain;
                row.attributed += u64::from(r.attributed);
                other_adapted += r.adapted_other;
                if let Some(c) = &r.case {
                    row.cases.push(c.clone());
                }
                if r.mismatch > 0 {
                    mismatched += r.mismatch;
                    mismatching += 1;
                }
                if exact && r.adapted > 0 && entry.category == Category::Adapted {
                    violations.push(format!(
                        "the exact profile relied on it for {} lanes",
                        r.adapted
                    ));
                }
                if r.lanes == 0 {
                    skips.push(brief(r.skipped.as_deref().unwrap_or("no lane ran")));
                    continue;
                }
                match role {
                    Role::Inside => {
                        ran += 1;
                        structured += usize::from(r.structured);
                    }
                    Role::Outside | Role::Feature => beyond += 1,
                }
            }
        }
    }
    if mismatched > 0 {
        violations.insert(
            0,
            format!(
                "{mismatched} lanes mismatched in {mismatching} of {} programs",
                programs.len()
            ),
        );
    }
    if !violations.is_empty() {
        violations.dedup();
        row.status = Status::Violated;
        row.reason = violations.join("; ");
        return row;
    }
    let inside = programs.iter().filter(|(r, _)| *r == Role::Inside).count();
    let has_domain = !entry.domain.is_empty();
    let documented_text = format!(
        "{refused_documented} refused as the page documents ({})",
        documented_ids
            .iter()
            .map(|i| format!("[{i}]"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let first_skip = skips.first().map_or(
        if refused_documented > 0 {
            documented_text.as_str()
        } else {
            "none was generated"
        },
        String::as_str,
    );
    if inside > 0 && ran == 0 {
        let why = format!("no program inside the entry ran: {first_skip}");
        return not_exercisable(row, why);
    }
    if inside == 0 && refused_right == 0 && beyond == 0 {
        let why = format!("no program was refused or ran: {first_skip}");
        return not_exercisable(row, why);
    }
    let mut said: Vec<String> = Vec::new();
    if ran > 0 {
        said.push(format!("{ran} programs inside ran with 0 mismatches"));
        if has_domain && !exact {
            if row.domain_lanes == 0 && entry.category == Category::Adapted {
                let why = format!(
                    "the programs ran, but no generated lane entered the domain ({})",
                    entry.domain.join(", ")
                );
                return not_exercisable(row, why);
            }
            said.push(format!(
                "{} lanes entered the domain, {} adapted by it",
                row.domain_lanes, row.adapted_lanes
            ));
        }
        if other_adapted > 0 {
            said.push(format!(
                "{other_adapted} lane-verdicts adapted by other entries"
            ));
        }
        if let Some(s) = &entry.structure {
            if structured == 0 {
                let why = format!("the programs ran, but none has the structure `{s}`");
                return not_exercisable(row, why);
            }
            said.push(format!("{structured} of {ran} have the structure `{s}`"));
        }
        if entry.domain.is_empty() && entry.category != Category::FailClosed {
            said.push(format!(
                "{} of {ran} translations list it",
                row.attributed.min(ran as u64)
            ));
        }
    }
    if refused_right > 0 {
        let feature = programs.iter().any(|(r, _)| *r == Role::Feature);
        let under = if !feature {
            "under a fail-closed id".to_string()
        } else if generic == refused_right {
            format!("under a generic id, not [{}]", entry.id)
        } else if generic > 0 {
            format!("under it ({generic} of them under a generic id)")
        } else {
            "under it".to_string()
        };
        said.push(format!(
            "{refused_right} refused {under}, {named} naming the instruction"
        ));
    }
    if beyond > 0 {
        said.push(format!(
            "supported beyond the contract: {beyond} programs ran and matched"
        ));
    }
    if refused_documented > 0 {
        said.push(documented_text);
    }
    if !skips.is_empty() {
        said.push(format!("{} did not run: {}", skips.len(), skips[0]));
    }
    row.reason = said.join("; ");
    row
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: &str) -> &'static Entry {
        oracles::catalog::catalog().get(id).expect("catalog entry")
    }

    fn ran(lanes: u64, mismatch: u64, adapted: u64, domain: u64) -> Outcome {
        Outcome::Ran(Ran {
            lanes,
            mismatch,
            adapted,
            domain,
            ..Ran::default()
        })
    }

    fn rejected(id: &str) -> Outcome {
        Outcome::Rejected {
            id: id.into(),
            instruction: Some(3),
            reason: "no".into(),
        }
    }

    const CONV: &str = "adapted/numeric-conversion-edges";

    #[test]
    fn an_adapted_entry_is_verified_only_where_lanes_entered_its_domain() {
        let e = entry(CONV);
        let ok = judge(e, "p", &[(Role::Inside, ran(256, 0, 9, 12))], false);
        assert_eq!(ok.status, Status::Verified, "{}", ok.reason);
        assert!(ok.reason.contains("12 lanes entered the domain, 9 adapted"));
        let unreached = judge(e, "p", &[(Role::Inside, ran(256, 0, 0, 0))], false);
        assert_eq!(unreached.status, Status::NotExercisable);
        let bad = judge(e, "p", &[(Role::Inside, ran(256, 2, 9, 12))], false);
        assert_eq!(bad.status, Status::Violated);
        assert_eq!(bad.reason, "2 lanes mismatched in 1 of 1 programs");
        let refused = judge(
            e,
            "p",
            &[(Role::Inside, rejected("dxdiff/not-lowered"))],
            false,
        );
        assert_eq!(refused.status, Status::Violated);
    }

    #[test]
    fn a_refusal_the_page_documents_is_never_a_violation() {
        let e = entry(CONV);
        // An inside program refused under another documented id: the program carries that
        // feature too. Alone, the row cannot be exercised; beside a program that ran, verified.
        let alone = judge(
            e,
            "p",
            &[(Role::Inside, rejected("fail-closed/general-compute"))],
            false,
        );
        assert_eq!(alone.status, Status::NotExercisable, "{}", alone.reason);
        assert!(
            alone
                .reason
                .contains("1 refused as the page documents ([fail-closed/general-compute])"),
            "{}",
            alone.reason
        );
        let beside = judge(
            e,
            "p",
            &[
                (Role::Inside, ran(256, 0, 9, 12)),
                (Role::Inside, rejected("fail-closed/interpolation-modes")),
            ],
            false,
        );
        assert_eq!(beside.status, Status::Verified, "{}", beside.reason);
        // A feature refused under another documented entry's id is the page's own answer too.
        let f = entry("fail-closed/system-crash");
        let other = judge(
            f,
            "p",
            &[(Role::Feature, rejected("fail-closed/general-compute"))],
            false,
        );
        assert_ne!(other.status, Status::Violated, "{}", other.reason);
        // An id that is no seed entry is not documented.
        let unknown = judge(
            e,
            "p",
            &[(Role::Inside, rejected("fail-closed/nonsense"))],
            false,
        );
        assert_eq!(unknown.status, Status::Violated);
    }

    #[test]
    fn a_structural_entry_needs_a_program_with_its_structure() {
        let e = entry("adapted/hoisted-vars");
        let with = Outcome::Ran(Ran {
            lanes: 64,
            structured: true,
            attributed: true,
            ..Ran::default()
        });
        let row = judge(e, "p", &[(Role::Inside, with)], false);
        assert_eq!(row.status, Status::Verified, "{}", row.reason);
        assert!(
            row.reason
                .contains("1 of 1 have the structure `cross-scope-read`")
        );
        assert!(
            row.reason.contains("1 of 1 translations list it"),
            "{}",
            row.reason
        );
        let without = judge(e, "p", &[(Role::Inside, ran(64, 0, 0, 0))], false);
        assert_eq!(without.status, Status::NotExercisable);
    }

    #[test]
    fn a_crash_is_one_short_line() {
        let e = entry(CONV);
        let long = format!("crash: {}\nstack backtrace:\n 0: x", "y".repeat(400));
        let row = judge(e, "p", &[(Role::Inside, Outcome::broken(long))], false);
        assert_eq!(row.status, Status::Violated);
        assert!(!row.reason.contains('\n'), "{}", row.reason);
        assert!(row.reason.chars().count() <= 161, "{}", row.reason);
    }

    #[test]
    fn the_exact_profile_needs_no_adapted_entry() {
        let e = entry(CONV);
        let ok = judge(e, "p", &[(Role::Inside, ran(256, 0, 0, 12))], true);
        assert_eq!(ok.status, Status::Verified, "{}", ok.reason);
        let bad = judge(e, "p", &[(Role::Inside, ran(256, 0, 3, 12))], true);
        assert_eq!(bad.status, Status::Violated);
    }

    #[test]
    fn a_fail_closed_feature_is_refused_under_its_own_id_or_runs_and_matches() {
        let e = entry("fail-closed/subroutines");
        let ok = judge(
            e,
            "p",
            &[(Role::Feature, rejected("fail-closed/subroutines"))],
            false,
        );
        assert_eq!(ok.status, Status::Verified);
        assert!(
            ok.reason.contains("1 naming the instruction"),
            "{}",
            ok.reason
        );
        // Under another documented entry's id: the page's own refusal, which leaves the row
        // without a program that shows this entry's.
        let other = judge(
            e,
            "p",
            &[(Role::Feature, rejected("fail-closed/sampler-modes"))],
            false,
        );
        assert_eq!(other.status, Status::NotExercisable, "{}", other.reason);
        let generic = judge(
            e,
            "p",
            &[(Role::Feature, rejected("dxdiff/refused"))],
            false,
        );
        assert_eq!(generic.status, Status::Verified);
        assert!(
            generic
                .reason
                .contains("1 refused under a generic id, not [fail-closed/subroutines]"),
            "{}",
            generic.reason
        );
        let beyond = judge(e, "p", &[(Role::Feature, ran(64, 0, 0, 0))], false);
        assert_eq!(beyond.status, Status::Verified);
        assert!(beyond.reason.contains("supported beyond the contract"));
        let crash = judge(
            e,
            "p",
            &[(Role::Feature, Outcome::broken("crash".into()))],
            false,
        );
        assert_eq!(crash.status, Status::Violated);
    }

    #[test]
    fn a_bound_needs_its_inside_to_run_and_its_outside_refused_or_matching() {
        let e = entry("bounded/compute-skinning");
        let rows = [
            (Role::Inside, ran(64, 0, 0, 0)),
            (Role::Outside, rejected("fail-closed/general-compute")),
        ];
        assert_eq!(judge(e, "p", &rows, false).status, Status::Verified);
        let rows = [
            (Role::Inside, ran(64, 0, 0, 0)),
            (Role::Outside, rejected("adapted/precise")),
        ];
        assert_eq!(judge(e, "p", &rows, false).status, Status::Violated);
        let skipped = Outcome::Ran(Ran {
            skipped: Some("texture: no textures".into()),
            ..Ran::default()
        });
        let row = judge(e, "p", &[(Role::Inside, skipped)], false);
        assert_eq!(row.status, Status::NotExercisable);
        assert!(row.reason.contains("texture"), "{}", row.reason);
    }
}
