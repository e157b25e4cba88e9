//! Program findings: facts about the program, not the translator. A finding says the program
//! relies on behaviour Direct3D leaves undefined (a data race, a dynamic index outside its
//! range), so no translator can be judged wrong for what the affected lanes produce; those
//! lanes also carry `d3d-undefined`. Findings are kept short (at most [`MAX_FINDINGS`] per run,
//! one per kind and instruction) because a racing loop would otherwise repeat one fact.

use std::fmt;

/// At most this many findings per run: enough to name every distinct site of a test program,
/// few enough for a report line.
pub const MAX_FINDINGS: usize = 16;

/// What a finding is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FindingKind {
    /// Two invocations of a group access one TGSM word between barriers, at least one with a
    /// plain store (or a plain access next to another's atomic).
    TgsmRace,
    /// The same for a UAV word, within one group or across groups.
    UavRace,
    /// A dynamic index into `v#`/`o#` outside its `dcl_indexrange` (or the declared registers).
    IndexOutOfRange,
}

impl FindingKind {
    /// The stable id reports use.
    pub const fn as_str(self) -> &'static str {
        match self {
            FindingKind::TgsmRace => "tgsm-race",
            FindingKind::UavRace => "uav-race",
            FindingKind::IndexOutOfRange => "index-out-of-range",
        }
    }
}

impl fmt::Display for FindingKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One place where the program relies on undefined behaviour.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// Which undefined behaviour.
    pub kind: FindingKind,
    /// Index of the instruction where it was detected.
    pub instruction: usize,
    /// What and where: the register or memory word and the invocations involved.
    pub detail: String,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at instruction {} ({})",
            self.kind, self.instruction, self.detail
        )
    }
}

/// Add a finding unless one of the same kind at the same instruction is already there or the
/// list is full; `detail` is only built when the finding is kept.
pub fn record(
    list: &mut Vec<Finding>,
    kind: FindingKind,
    instruction: usize,
    detail: impl FnOnce() -> String,
) {
    if list.len() >= MAX_FINDINGS
        || list
            .iter()
            .any(|f| f.kind == kind && f.instruction == instruction)
    {
        return;
    }
    list.push(Finding {
        kind,
        instruction,
        detail: detail(),
    });
}

/// Merge `more` into `list` with the same rules as [`record`].
pub fn merge(list: &mut Vec<Finding>, more: Vec<Finding>) {
    for f in more {
        let Finding {
            kind,
            instruction,
            detail,
        } = f;
        record(list, kind, instruction, || detail);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dedupes_and_caps() {
        let mut v = Vec::new();
        record(&mut v, FindingKind::TgsmRace, 3, || "a".into());
        record(&mut v, FindingKind::TgsmRace, 3, || "b".into());
        record(&mut v, FindingKind::UavRace, 3, || "c".into());
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].to_string(), "tgsm-race at instruction 3 (a)");
        for i in 0..40 {
            record(&mut v, FindingKind::IndexOutOfRange, i, String::new);
        }
        assert_eq!(v.len(), MAX_FINDINGS);
    }
}
