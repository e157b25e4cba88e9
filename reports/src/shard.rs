//! Shards of a run and merging what they report. `--shard K/N` (0 <= K < N) gives a run the
//! units whose index in the run's own deterministic order is K modulo N: the same seed and the
//! same N give the same partition on any machine, and the shards together are the unsharded
//! run. [`merge_verify`] and [`merge_corpus`] put the reports back together so that they equal
//! the unsharded run's (the corpus record byte for byte, the verify report in every count).

use std::collections::BTreeSet;

use crate::corpus::Record;
use crate::fuzz::State as FuzzState;
use crate::sweep::State as SweepState;
use crate::verify::RunReport;

pub use crate::part::{Part, Shard};

/// Why shards cannot be merged. Code: `merge.shards`.
#[derive(Debug, thiserror::Error)]
#[error("[merge.shards] {0}")]
pub struct MergeError(pub String);

/// The shards named, checked to be one whole partition: every part sharded, the same N, each
/// K once, none missing.
fn check_partition(shards: &[Option<Shard>]) -> Result<(), MergeError> {
    let mut seen = BTreeSet::new();
    let mut n = None;
    for (i, s) in shards.iter().enumerate() {
        let s = s.ok_or_else(|| MergeError(format!("part {} was not run with --shard", i + 1)))?;
        if *n.get_or_insert(s.n) != s.n {
            return Err(MergeError(format!(
                "shards of {} and of {} parts",
                n.unwrap_or(0),
                s.n
            )));
        }
        if !seen.insert(s.k) {
            return Err(MergeError(format!("shard {s} is given twice")));
        }
    }
    let n = n.ok_or_else(|| MergeError("nothing to merge".into()))?;
    let missing: Vec<String> = (0..n)
        .filter(|k| !seen.contains(k))
        .map(|k| format!("{k}/{n}"))
        .collect();
    if !missing.is_empty() {
        return Err(MergeError(format!(
            "missing shards: {}",
            missing.join(", ")
        )));
    }
    Ok(())
}

/// What every mergeable report says of itself: its shard, format and translator.
trait Sharded {
    fn part(&self) -> Option<&Part>;
    fn format(&self) -> &str;
    fn translator(&self) -> &str;
}

macro_rules! sharded {
    ($t:ty, $translator:ident) => {
        impl Sharded for $t {
            fn part(&self) -> Option<&Part> {
                self.shard.as_ref()
            }
            fn format(&self) -> &str {
                &self.format
            }
            fn translator(&self) -> &str {
                &self.$translator
            }
        }
    };
}
sharded!(RunReport, profile);
sharded!(Record, translator);
sharded!(FuzzState, translator);
sharded!(SweepState, translator);

/// The checks every merge makes: one whole partition, one dxdiff build, one format, one
/// translator; then `key` the same in every part.
fn mergeable<T: Sharded, K: PartialEq + std::fmt::Debug>(
    parts: &[T],
    what: &str,
    key: impl Fn(&T) -> K,
) -> Result<(), MergeError> {
    check_partition(
        &parts
            .iter()
            .map(|p| p.part().map(|s| s.shard))
            .collect::<Vec<_>>(),
    )?;
    let by = |f: &dyn Fn(&T) -> String| parts.iter().map(f).collect::<Vec<_>>();
    same(
        "dxdiff versions",
        &by(&|p| p.part().map(|s| s.version.clone()).unwrap_or_default()),
    )?;
    same("formats", &by(&|p| p.format().to_string()))?;
    same("translators", &by(&|p| p.translator().to_string()))?;
    same(what, &parts.iter().map(key).collect::<Vec<_>>())
}

/// The same value in every part, or the reason they differ.
fn same<T: PartialEq + std::fmt::Debug>(what: &str, values: &[T]) -> Result<(), MergeError> {
    match values.iter().find(|v| *v != &values[0]) {
        Some(v) => Err(MergeError(format!(
            "shards run with different {what}: {:?} and {v:?}",
            values[0]
        ))),
        None => Ok(()),
    }
}

/// Verify reports of the shards of one run, as the unsharded run's report: programs in the
/// run's order, totals and per-entry counts recounted, phase times summed, adapters named.
pub fn merge_verify(parts: Vec<RunReport>) -> Result<RunReport, MergeError> {
    mergeable(&parts, "seeds and inputs per program", |p| {
        (p.seed, p.inputs_per_program)
    })?;
    let adapters: BTreeSet<&str> = parts.iter().map(|p| p.adapter.as_str()).collect();
    let first = &parts[0];
    let mut merged = RunReport::new(
        first.profile.clone(),
        first.seed,
        adapters.into_iter().collect::<Vec<_>>().join(", "),
        first.inputs_per_program,
    );
    let mut programs = Vec::new();
    for p in &parts {
        for (k, v) in &p.seconds {
            *merged.seconds.entry(k.clone()).or_default() += v;
        }
        for (k, v) in &p.gpu_phases {
            *merged.gpu_phases.entry(k.clone()).or_default() += v;
        }
        for prog in &p.programs {
            let index = prog
                .index
                .ok_or_else(|| MergeError(format!("{}: no index in the run", prog.name)))?;
            programs.push((index, prog.clone()));
        }
    }
    programs.sort_by_key(|(i, _)| *i);
    for (_, mut p) in programs {
        p.index = None;
        merged.push(p);
    }
    Ok(merged)
}

/// Corpus records of the shards of one run, as the unsharded run's record (byte-identical
/// once serialized): programs in name order, totals recounted.
pub fn merge_corpus(parts: Vec<Record>) -> Result<Record, MergeError> {
    mergeable(&parts, "--verify settings", |p| p.verify.clone())?;
    let mut merged = parts[0].clone();
    merged.shard = None;
    merged.programs = parts.into_iter().flat_map(|p| p.programs).collect();
    merged.programs.sort_by(|a, b| a.name.cmp(&b.name));
    merged.recount();
    Ok(merged)
}

/// Fuzz campaign states of the shards of one campaign, as the unsharded campaign's state:
/// counters summed (seconds too), opcodes united, divergences deduplicated by signature (the
/// first program's case kept, sightings summed), findings in program order, and the next
/// program the lowest any shard would run.
pub fn merge_fuzz(parts: Vec<FuzzState>) -> Result<FuzzState, MergeError> {
    mergeable(&parts, "seeds, settings and narrowing", |p| {
        (p.seed, p.knobs.clone(), p.narrowed.clone())
    })?;
    for p in &parts {
        let shard = p.shard.as_ref().map(|s| s.shard.to_string());
        p.check().map_err(|e| {
            MergeError(format!(
                "shard {}: an inconsistent state ({e})",
                shard.unwrap_or_default()
            ))
        })?;
    }
    let mut merged = FuzzState::new(parts[0].translator.clone(), parts[0].seed);
    merged.narrowed = parts[0].narrowed.clone();
    merged.knobs = parts[0].knobs.clone();
    merged.next = parts.iter().map(|p| p.next).min().unwrap_or(0);
    // What the longer shards ran past the shortest: a resume of the merged campaign passes
    // over those indices instead of running and counting them again.
    merged.ahead = parts
        .iter()
        .filter(|p| p.next > merged.next)
        .filter_map(|p| {
            let s = p.shard.as_ref()?.shard;
            Some(crate::fuzz::Ahead {
                k: u64::from(s.k),
                n: u64::from(s.n),
                until: p.next,
            })
        })
        .collect();
    let overflow = || MergeError("the shards' counters add up to more than 2^64".into());
    let add = |a: &mut u64, b: u64| -> Result<(), MergeError> {
        *a = a.checked_add(b).ok_or_else(overflow)?;
        Ok(())
    };
    let mut divergences: Vec<crate::fuzz::Divergence> = Vec::new();
    let mut findings = Vec::new();
    for p in parts {
        let (m, s) = (&mut merged.stats, &p.stats);
        add(&mut m.programs, s.programs)?;
        for (a, b) in [
            (&mut m.counts.lanes, s.counts.lanes),
            (&mut m.counts.matched, s.counts.matched),
            (&mut m.counts.within, s.counts.within),
            (&mut m.counts.adapted, s.counts.adapted),
            (&mut m.counts.mismatch, s.counts.mismatch),
            (&mut m.counts.inconclusive, s.counts.inconclusive),
            (&mut m.mismatching_programs, s.mismatching_programs),
            (&mut m.rejected, s.rejected),
            (&mut m.crashed, s.crashed),
            (&mut m.skipped, s.skipped),
        ] {
            add(a, b)?;
        }
        m.seconds += s.seconds;
        m.shrink_seconds += s.shrink_seconds;
        m.opcodes.extend(s.opcodes.iter().cloned());
        for (reason, n) in &s.refusals {
            add(m.refusals.entry(reason.clone()).or_default(), *n)?;
        }
        for (cell, n) in &s.coverage {
            add(m.coverage.entry(cell.clone()).or_default(), *n)?;
        }
        findings.extend(p.findings);
        for d in p.divergences {
            match divergences.iter_mut().find(|x| x.signature == d.signature) {
                Some(x) => {
                    add(&mut x.seen, d.seen)?;
                    if d.program < x.program {
                        let seen = x.seen;
                        *x = crate::fuzz::Divergence { seen, ..d };
                    }
                }
                None => divergences.push(d),
            }
        }
    }
    divergences.sort_by_key(|d| d.program);
    merged.divergences = divergences;
    // `program N: finding` lines, in program order.
    let key = |f: &String| {
        f.strip_prefix("program ")
            .and_then(|r| r.split(':').next())
            .and_then(|n| n.parse::<u64>().ok())
            .unwrap_or(u64::MAX)
    };
    findings.sort_by_key(key);
    merged.findings = findings;
    merged
        .check()
        .map_err(|e| MergeError(format!("the merged state would be inconsistent: {e}")))?;
    Ok(merged)
}

/// Sweep states of the shards of one sweep, as the unsharded sweep's state: per op, counts,
/// adapted lanes and distances summed, progress the least any shard made, cases in input
/// order (four per op, as a sweep keeps).
pub fn merge_sweep(parts: Vec<SweepState>) -> Result<SweepState, MergeError> {
    mergeable(&parts, "ranges, ops and chunks", |p| {
        let ops: Vec<String> = p.ops.iter().map(|o| o.op.clone()).collect();
        (p.from, p.to, ops, p.chunk)
    })?;
    let mut merged = parts[0].clone();
    merged.shard = None;
    merged.seconds = parts.iter().map(|p| p.seconds).sum();
    for (k, op) in merged.ops.iter_mut().enumerate() {
        *op = crate::sweep::OpState {
            op: op.op.clone(),
            next: parts.iter().map(|p| p.ops[k].next).min().unwrap_or(op.next),
            ..Default::default()
        };
        for p in &parts {
            let o = &p.ops[k];
            op.tally.merge(&o.tally);
            op.cases.extend(o.cases.iter().cloned());
            if op.skipped.is_none() {
                op.skipped.clone_from(&o.skipped);
            }
        }
        op.cases.sort();
        op.cases.truncate(4);
    }
    Ok(merged)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::ProgramReport;
    use oracles::verdict::Verdict;

    fn part(k: u32, n: u32, names: &[(u64, &str)]) -> RunReport {
        let mut r = RunReport::new("builtin/exact".into(), 1, format!("gpu{k}"), 10);
        r.shard = Some(Part {
            shard: Shard { k, n },
            version: "0.1.0 (commit x)".into(),
        });
        r.seconds.insert("total".into(), 1.0);
        for (i, name) in names {
            let mut p = ProgramReport::new(*name);
            p.index = Some(*i);
            p.tally(&Verdict::Match);
            r.push(p);
        }
        r
    }

    #[test]
    fn shards_parse_partition_and_merge_in_order() {
        assert_eq!("1/3".parse::<Shard>(), Ok(Shard { k: 1, n: 3 }));
        for bad in ["3/3", "1", "a/2", "0/0"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        let s = Shard { k: 1, n: 3 };
        assert_eq!(
            (0..7).filter(|i| s.owns(*i)).collect::<Vec<_>>(),
            vec![1, 4]
        );
        let merged = merge_verify(vec![
            part(1, 2, &[(1, "b"), (3, "d")]),
            part(0, 2, &[(0, "a"), (2, "c")]),
        ])
        .expect("merges");
        let names: Vec<&str> = merged.programs.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["a", "b", "c", "d"]);
        assert_eq!(merged.totals.matched, 4);
        assert_eq!(merged.seconds["total"], 2.0);
        assert_eq!(merged.adapter, "gpu0, gpu1");
        assert!(merged.shard.is_none() && merged.programs.iter().all(|p| p.index.is_none()));
        // Refusals: a missing shard, one given twice, another seed, an unsharded part.
        let e = |parts| merge_verify(parts).expect_err("refused").to_string();
        assert!(e(vec![part(0, 3, &[]), part(1, 3, &[])]).contains("missing shards: 2/3"));
        assert!(e(vec![part(0, 2, &[]), part(0, 2, &[])]).contains("given twice"));
        let mut other = part(1, 2, &[]);
        other.seed = 2;
        assert!(e(vec![part(0, 2, &[]), other]).contains("different seeds"));
        let mut other = part(1, 2, &[]);
        other.profile = "vkd3d".into();
        assert!(e(vec![part(0, 2, &[]), other]).contains("different translators"));
        let mut newer = part(1, 2, &[]);
        if let Some(p) = newer.shard.as_mut() {
            p.version = "0.2.0 (commit y)".into();
        }
        assert!(e(vec![part(0, 2, &[]), newer]).contains("different dxdiff versions"));
        let mut whole = part(1, 2, &[]);
        whole.shard = None;
        assert!(e(vec![part(0, 2, &[]), whole]).contains("not run with --shard"));
    }
}
