//! A program's answers lane by lane: for every lane whose words differ from the reference's
//! (within a tolerance, adapted, mismatching or inconclusive), its verdict and a hash of the
//! device's words. `dxdiff diff` compares two runs' answers, so that a change which gives other
//! words where the reference accepts both (two adapted answers, two answers within a band) is
//! still shown, lane by lane.
//!
//! Decisions (docs/diff.md, "Answers"):
//! - a lane that matches the reference is not kept: its words are the reference's, the same in
//!   both runs of one seed;
//! - a program keeps at most [`MAX_LANES`] lanes in its file (9 bytes each), and a digest and a
//!   count of all of them in its report, so a change past the first lanes still shows, as a
//!   count without lane numbers;
//! - the file sits in the run's folder, `answers/<stem>.bin`, named in the report relative to
//!   the folder, so a run folder can move.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// Lanes a program's file keeps.
pub const MAX_LANES: usize = 4096;

/// The folder of a run that holds the answer files.
pub const FOLDER: &str = "answers";

/// The first bytes of an answer file.
const MAGIC: &[u8] = b"dxdiff-answers/1\n";

/// A lane's verdict, as an answer file stores it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Within the op's tolerance.
    Within = 1,
    /// Allowed by a catalog entry.
    Adapted = 2,
    /// A mismatch.
    Mismatch = 3,
    /// Inconclusive (no result to compare).
    Inconclusive = 4,
}

impl Kind {
    fn from_byte(b: u8) -> Option<Kind> {
        Some(match b {
            1 => Kind::Within,
            2 => Kind::Adapted,
            3 => Kind::Mismatch,
            4 => Kind::Inconclusive,
            _ => return None,
        })
    }

    /// Whether the reference accepts the lane's words.
    pub fn accepted(self) -> bool {
        matches!(self, Kind::Within | Kind::Adapted)
    }
}

/// One lane's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Answer {
    /// The lane (the vector's index in the program's batch).
    pub lane: u32,
    /// Its verdict.
    pub kind: Kind,
    /// A hash of the device's words for it.
    pub hash: u32,
}

/// A program's answers: the first [`MAX_LANES`] lanes that differ from the reference, and a
/// count and digest of all of them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Answers {
    /// The lanes kept, in lane order.
    pub lanes: Vec<Answer>,
    /// Every lane that differs, kept or not.
    pub total: u64,
    /// FNV-1a over every such lane's number, verdict and hash.
    pub digest: u64,
}

/// 64-bit FNV-1a, continued from `h` over `bytes`: the one hash of this module (a lane's
/// words, the digest of a program's lanes, a file name).
fn fnv(h: u64, bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(h, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3))
}

/// Where [`fnv`] starts.
const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// A lane's hash: [`fnv`] of its words, folded to 32 bits.
pub fn hash_words(words: impl IntoIterator<Item = u32>) -> u32 {
    let h = words
        .into_iter()
        .fold(FNV_START, |h, w| fnv(h, &w.to_le_bytes()));
    (h ^ h >> 32) as u32
}

impl Answers {
    /// No lanes yet.
    pub fn new() -> Answers {
        Answers {
            digest: FNV_START,
            ..Answers::default()
        }
    }

    /// Add lane `lane` (in increasing order).
    pub fn push(&mut self, lane: u32, kind: Kind, hash: u32) {
        self.total += 1;
        let mut rec = [0u8; 9];
        rec[..4].copy_from_slice(&lane.to_le_bytes());
        rec[4] = kind as u8;
        rec[5..].copy_from_slice(&hash.to_le_bytes());
        self.digest = fnv(self.digest, &rec);
        if self.lanes.len() < MAX_LANES {
            self.lanes.push(Answer { lane, kind, hash });
        }
    }

    /// Whether every lane that differs is kept.
    pub fn complete(&self) -> bool {
        self.total == self.lanes.len() as u64
    }

    /// The file's bytes: the magic, the total, the digest, the kept lanes' count, then 9 bytes
    /// a lane (number, verdict, hash; little-endian).
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(MAGIC.len() + 20 + 9 * self.lanes.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&self.total.to_le_bytes());
        out.extend_from_slice(&self.digest.to_le_bytes());
        out.extend_from_slice(&(self.lanes.len() as u32).to_le_bytes());
        for a in &self.lanes {
            out.extend_from_slice(&a.lane.to_le_bytes());
            out.push(a.kind as u8);
            out.extend_from_slice(&a.hash.to_le_bytes());
        }
        out
    }

    /// Read [`Answers::encode`]'s bytes.
    pub fn decode(bytes: &[u8]) -> Result<Answers, AnswersError> {
        let bad = |what: &str| AnswersError::Format(what.to_string());
        let rest = bytes.strip_prefix(MAGIC).ok_or_else(|| bad("no magic"))?;
        let u64_at = |at: usize| -> Option<u64> {
            Some(u64::from_le_bytes(rest.get(at..at + 8)?.try_into().ok()?))
        };
        let u32_at = |at: usize| -> Option<u32> {
            Some(u32::from_le_bytes(rest.get(at..at + 4)?.try_into().ok()?))
        };
        let total = u64_at(0).ok_or_else(|| bad("short header"))?;
        let digest = u64_at(8).ok_or_else(|| bad("short header"))?;
        let n = u32_at(16).ok_or_else(|| bad("short header"))? as usize;
        if n > MAX_LANES || rest.len() != 20 + 9 * n || n as u64 > total {
            return Err(bad("lane count and length disagree"));
        }
        let mut lanes = Vec::with_capacity(n);
        for k in 0..n {
            let at = 20 + 9 * k;
            let lane = u32_at(at).ok_or_else(|| bad("short lane"))?;
            let kind = Kind::from_byte(rest[at + 4]).ok_or_else(|| bad("unknown verdict"))?;
            let hash = u32_at(at + 5).ok_or_else(|| bad("short lane"))?;
            if lanes.last().is_some_and(|p: &Answer| p.lane >= lane) {
                return Err(bad("lanes out of order"));
            }
            lanes.push(Answer { lane, kind, hash });
        }
        Ok(Answers {
            lanes,
            total,
            digest,
        })
    }

    /// What a program's report keeps of them: the file (relative to the run's folder), the
    /// count and the digest.
    pub fn summary(&self, file: Option<String>) -> Summary {
        Summary {
            file,
            lanes: self.total,
            digest: format!("{:016x}", self.digest),
        }
    }
}

/// A program's answers as its report names them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    /// The answer file, relative to the run's folder; `None` where it could not be written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// Lanes whose words differ from the reference's.
    pub lanes: u64,
    /// [`Answers::digest`] in hex.
    pub digest: String,
}

/// Why answers could not be read or written. Codes: `answers.io`, `answers.format`.
#[derive(Debug, thiserror::Error)]
pub enum AnswersError {
    /// Reading or writing the file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The IO error.
        source: std::io::Error,
    },
    /// The bytes are not an answer file.
    #[error("not an answer file: {0}")]
    Format(String),
}

impl AnswersError {
    /// The stable code.
    pub fn code(&self) -> &'static str {
        match self {
            AnswersError::Io { .. } => "answers.io",
            AnswersError::Format(_) => "answers.format",
        }
    }
}

/// The file a program named `program` keeps its answers in, relative to the run's folder: its
/// name as a file stem, with a hash of the whole name so that two programs never share one.
pub fn relative_path(program: &str) -> String {
    let h = fnv(FNV_START, program.as_bytes()) as u32;
    format!("{FOLDER}/{}-{h:08x}.bin", crate::cases::file_stem(program))
}

/// Write `program`'s answers into the run folder `dir`; the relative path written.
pub fn write(dir: &Path, program: &str, answers: &Answers) -> Result<String, AnswersError> {
    let rel = relative_path(program);
    let path = dir.join(&rel);
    std::fs::create_dir_all(dir.join(FOLDER))
        .and_then(|()| crate::folder::write_atomic(&path, &answers.encode()))
        .map_err(|source| AnswersError::Io { path, source })?;
    Ok(rel)
}

/// Whether a report's answer file `rel` names a file inside the run's folder: a report is
/// untrusted input, and a path that climbs out or starts at the root is refused.
pub fn inside(rel: &str) -> bool {
    let p = Path::new(rel);
    !p.is_absolute()
        && p.components()
            .all(|c| matches!(c, std::path::Component::Normal(_)))
}

/// Read the answers a report names, from the run folder `dir`.
pub fn read(dir: &Path, summary: &Summary) -> Result<Answers, AnswersError> {
    let Some(rel) = &summary.file else {
        return Err(AnswersError::Format(
            "the run could not write the file".into(),
        ));
    };
    if !inside(rel) {
        return Err(AnswersError::Format(format!("{rel} is outside the run")));
    }
    let path = dir.join(rel);
    let bytes = std::fs::read(&path).map_err(|source| AnswersError::Io { path, source })?;
    Answers::decode(&bytes)
}

/// How one program's answers changed between two runs.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Change {
    /// The program.
    pub program: String,
    /// Lanes whose words changed where the reference accepts both (within a band or adapted in
    /// both runs): what the verdicts cannot show.
    pub silent: u64,
    /// Lanes whose verdict changed (a match on one side counts too).
    pub verdicts: u64,
    /// Up to 8 of those lanes, silent ones first.
    pub lanes: Vec<u32>,
    /// The lanes kept did not cover every differing lane of a run: the counts are of the kept
    /// lanes, and the digests differ.
    pub partial: bool,
}

/// Compare two runs' answers of `program`; `None` where nothing changed.
pub fn compare(program: &str, base: &Answers, new: &Answers) -> Option<Change> {
    if base.digest == new.digest && base.total == new.total {
        return None;
    }
    let index = |a: &Answers| -> BTreeMap<u32, (Kind, u32)> {
        a.lanes.iter().map(|x| (x.lane, (x.kind, x.hash))).collect()
    };
    let (b, n) = (index(base), index(new));
    // Past the last lane both files kept, a lane's absence says nothing.
    let horizon = |a: &Answers| {
        if a.complete() {
            u32::MAX
        } else {
            a.lanes.last().map_or(0, |x| x.lane)
        }
    };
    let seen = horizon(base).min(horizon(new));
    let mut silent_lanes = Vec::new();
    let mut verdict_lanes = Vec::new();
    let lanes: std::collections::BTreeSet<u32> = b.keys().chain(n.keys()).copied().collect();
    for lane in lanes.into_iter().filter(|l| *l <= seen) {
        match (b.get(&lane), n.get(&lane)) {
            (Some((kb, hb)), Some((kn, hn))) if kb == kn => {
                // Two mismatches with other words show in the verdicts' counts already.
                if hb != hn && kb.accepted() {
                    silent_lanes.push(lane);
                }
            }
            _ => verdict_lanes.push(lane),
        }
    }
    let partial = !(base.complete() && new.complete());
    if silent_lanes.is_empty() && verdict_lanes.is_empty() && !partial {
        return None;
    }
    let mut shown: Vec<u32> = silent_lanes.iter().chain(&verdict_lanes).copied().collect();
    shown.truncate(8);
    Some(Change {
        program: program.to_string(),
        silent: silent_lanes.len() as u64,
        verdicts: verdict_lanes.len() as u64,
        lanes: shown,
        partial,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answers(lanes: &[(u32, Kind, u32)]) -> Answers {
        let mut a = Answers::new();
        for (l, k, h) in lanes {
            a.push(*l, *k, *h);
        }
        a
    }

    #[test]
    fn a_file_reads_back_as_written_and_garbage_is_refused() {
        let a = answers(&[(3, Kind::Adapted, 7), (9, Kind::Mismatch, 1)]);
        assert_eq!(Answers::decode(&a.encode()).expect("reads"), a);
        let mut bytes = a.encode();
        bytes.pop();
        assert_eq!(
            Answers::decode(&bytes).expect_err("short").code(),
            "answers.format"
        );
        assert!(Answers::decode(b"nonsense").is_err());
        let mut swapped = answers(&[(9, Kind::Adapted, 7)]).encode();
        swapped.extend_from_slice(&[3, 0, 0, 0, 2, 0, 0, 0, 0]);
        assert!(Answers::decode(&swapped).is_err(), "a lane count that lies");
    }

    #[test]
    fn other_words_where_the_reference_accepts_both_are_silent_changes() {
        let base = answers(&[
            (1, Kind::Adapted, 5),
            (2, Kind::Within, 6),
            (4, Kind::Adapted, 1),
        ]);
        let new = answers(&[
            (1, Kind::Adapted, 9),
            (2, Kind::Within, 6),
            (5, Kind::Mismatch, 2),
        ]);
        let c = compare("p", &base, &new).expect("changed");
        assert_eq!((c.silent, c.verdicts), (1, 2));
        assert_eq!(c.lanes, [1, 4, 5]);
        assert!(!c.partial);
        assert_eq!(compare("p", &base, &base.clone()), None);
    }

    #[test]
    fn lanes_past_what_a_file_kept_are_not_compared() {
        let mut base = Answers::new();
        let mut new = Answers::new();
        for l in 0..(MAX_LANES as u32 + 10) {
            base.push(l, Kind::Adapted, 1);
            new.push(
                l,
                Kind::Adapted,
                if l == MAX_LANES as u32 + 5 { 2 } else { 1 },
            );
        }
        let c = compare("p", &base, &new).expect("the digests differ");
        assert!(c.partial);
        assert_eq!((c.silent, c.verdicts), (0, 0));
    }

    #[test]
    fn relative_paths_stay_in_the_folder_and_tell_names_apart() {
        let a = relative_path("corpus:/a/b.o");
        let b = relative_path("corpus:/a_b.o");
        assert_ne!(a, b);
        assert!(a.starts_with("answers/") && !a.contains(".."));
        let s = Summary {
            file: Some("../x.bin".into()),
            lanes: 1,
            digest: String::new(),
        };
        assert!(read(Path::new("/tmp"), &s).is_err());
    }
}
