//! What happened to one program, whatever command ran it: translated and compared (with its
//! lane counts), not compared for a reason ([`SkipKind`]: rejected under a catalog id,
//! unfeedable, inconclusive, a feature the device lacks, ...), or failed. Every per-program
//! status and rendering is derived from it: the corpus record's status
//! ([`crate::corpus::Status::of`]) and the JUnit test case ([`Outcome::junit`]) of `verify` and
//! `corpus`. A command states only its policy: `corpus`, which qualifies translators, counts a
//! translator crash as the program's failure ([`Outcome::qualifying`]); `verify`, which judges
//! semantics, counts it as a skip.
//!
//! Not folded in, because they are about something else than one program: a case file's run
//! against its own expectations (`oracles::replay::RunOutcome`), a contract entry's property
//! over many programs (`contract::Status`) and a fuzz campaign's divergences.

use oracles::verdict::{Skip, SkipKind};

use crate::counts::Counts;
use crate::junit;

/// What happened to one program.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Translated; the lanes compared (none where the command only translates, as `corpus`
    /// without `--verify`), and where a mismatch's counterexample went (or why it could not be
    /// written).
    Compared {
        /// Lanes per verdict.
        counts: Counts,
        /// `counterexample PATH`, or `counterexample not saved: …`.
        counterexample: Option<String>,
    },
    /// Not compared: the reason's kind and words.
    Skipped(Skip),
    /// Failed before any lane was compared, in words.
    Failed(String),
}

/// A reason that keeps a program from qualifying: the translator crashed, hung or wrote WGSL
/// that does not validate or that the device refuses, or the input could not be read or
/// decoded.
pub fn qualification_failure(kind: SkipKind) -> bool {
    kind.is_translator_failure() || matches!(kind, SkipKind::Malformed | SkipKind::Unreadable)
}

impl Outcome {
    /// The outcome for a command that qualifies translators: a skip whose reason keeps the
    /// program from qualifying ([`qualification_failure`]) is the program's failure.
    pub fn qualifying(self) -> Outcome {
        match self {
            Outcome::Skipped(s) if qualification_failure(s.kind) => Outcome::Failed(s.detail),
            o => o,
        }
    }

    /// The program as a JUnit test case's outcome: a mismatching lane or a failure fails it.
    pub fn junit(&self) -> junit::Outcome {
        match self {
            Outcome::Compared {
                counts,
                counterexample,
            } if counts.mismatch > 0 => junit::Outcome::Failed(format!(
                "{} of {} lanes mismatch{}",
                counts.mismatch,
                counts.lanes,
                counterexample
                    .as_ref()
                    .map(|x| format!("; {x}"))
                    .unwrap_or_default()
            )),
            Outcome::Compared { .. } => junit::Outcome::Passed,
            Outcome::Skipped(s) => junit::Outcome::Skipped(s.detail.clone()),
            Outcome::Failed(why) => junit::Outcome::Failed(why.clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compared(mismatch: u64) -> Outcome {
        Outcome::Compared {
            counts: Counts {
                lanes: 10,
                mismatch,
                ..Counts::default()
            },
            counterexample: Some("counterexample cases/x.json".into()),
        }
    }

    #[test]
    fn a_mismatch_or_a_failure_fails_and_qualifying_turns_a_crash_into_a_failure() {
        let crash = Outcome::Skipped(Skip::new(SkipKind::TranslatorCrash, "exit 3"));
        let rejected = Outcome::Skipped(Skip::new(SkipKind::Rejected, "[fail-closed/x] no"));
        let unfed = Outcome::Skipped(Skip::new(SkipKind::Unfed, "quads"));
        assert_eq!(crash.junit(), junit::Outcome::Skipped("exit 3".into()));
        assert_eq!(
            crash.clone().qualifying().junit(),
            junit::Outcome::Failed("exit 3".into())
        );
        assert_eq!(rejected.clone().qualifying(), rejected);
        assert_eq!(unfed.clone().qualifying(), unfed);
        assert_eq!(compared(0).junit(), junit::Outcome::Passed);
        assert_eq!(
            compared(2).junit(),
            junit::Outcome::Failed("2 of 10 lanes mismatch; counterexample cases/x.json".into())
        );
    }
}
