//! The differential driver: one program, one batch of input vectors, a reference and a
//! candidate executor, one judge. Every command that compares results (`verify`, `corpus
//! --verify`, `fuzz`, the shrinkers) calls [`differential`]; the budget-and-retry rule, which
//! vectors reach the candidate and how a vector is judged live here and nowhere else.
//!
//! 1. Both executors prepare the program (the candidate first: a program it cannot run costs
//!    no interpretation).
//! 2. The reference runs every vector with the first budget; the first few that run out run
//!    again with a larger one ([`Policy`]). Vectors it still cannot finish are inconclusive
//!    and never reach the candidate (a loop the reference gave up on may hang a GPU).
//! 3. The candidate runs the rest. A candidate that fails (a hang, a lost device, a module the
//!    device refuses) leaves those vectors inconclusive, and the reason is the run's `stopped`.
//! 4. Every vector gets one verdict, the worst over its words ([`judge_vector`]).

use std::time::Instant;

use oracles::verdict::{Inconclusive, Judge, Skip, Verdict};
use reports::counts::Distance;

use crate::exec::{Batch, Executor, Results, Unit};

/// The reference's budgets: every vector gets `first` instructions per invocation; the first
/// `retries` vectors that run out get `retry`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy {
    /// Instructions per invocation on the first pass, for every vector.
    pub first: u64,
    /// The larger budget of the second pass.
    pub retry: u64,
    /// How many exhausted vectors get the second pass; the rest stay inconclusive.
    pub retries: usize,
}

impl Policy {
    /// One budget for everything, no second pass.
    pub const fn once(budget: u64) -> Policy {
        Policy {
            first: budget,
            retry: budget,
            retries: 0,
        }
    }
}

/// Where a differential run spent its time, in seconds.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Timing {
    /// Running the reference executor (both passes).
    pub reference: f64,
    /// Running the candidate executor.
    pub candidate: f64,
    /// Comparing the two results into verdicts.
    pub judging: f64,
}

/// A program's differential run.
#[derive(Debug, Clone)]
pub struct Differential {
    /// One verdict per vector of the batch.
    pub verdicts: Vec<Verdict>,
    /// The reference's results for every vector.
    pub reference: Results,
    /// The candidate's results for the vectors the reference finished (`live`).
    pub candidate: Results,
    /// The vectors that reached the candidate, in order.
    pub live: Vec<usize>,
    /// Why the candidate stopped early, if it did.
    pub stopped: Option<Skip>,
    /// Where the run spent its time.
    pub timing: Timing,
}

impl Differential {
    /// The index of the first mismatching vector.
    pub fn first_mismatch(&self) -> Option<usize> {
        self.verdicts.iter().position(Verdict::is_mismatch)
    }

    /// Vector `k`'s index in the candidate's results, when it reached the candidate.
    pub fn candidate_index(&self, k: usize) -> Option<usize> {
        self.live.binary_search(&k).ok()
    }

    /// The words vector `k` differs in.
    pub fn differences(&self, k: usize) -> Vec<Difference> {
        self.candidate_index(k)
            .map(|gk| differences(&self.reference, k, &self.candidate, gk))
            .unwrap_or_default()
    }

    /// The widest difference of vector `k`, for the report's histogram.
    pub fn distance(&self, k: usize) -> Option<Distance> {
        self.candidate_index(k)
            .and_then(|gk| distance(&self.reference, k, &self.candidate, gk))
    }
}

/// Copy vector `from` of `src` into vector `to` of `dst` (the same program's results).
fn replace(dst: &mut Results, to: usize, src: &Results, from: usize) {
    let inv = dst.invocations;
    let n = dst.outputs_per_invocation.min(src.outputs_per_invocation);
    for i in 0..inv {
        for r in 0..n {
            let (d, s) = (
                (to * inv + i) * dst.outputs_per_invocation + r,
                (from * inv + i) * src.outputs_per_invocation + r,
            );
            if let (Some(x), Some(y)) = (dst.outputs.get_mut(d), src.outputs.get(s)) {
                *x = *y;
            }
            if let (Some(df), Some(sf)) = (dst.facts.as_mut(), src.facts.as_ref())
                && let (Some(x), Some(y)) = (df.free_nan.get_mut(d), sf.free_nan.get(s))
            {
                *x = *y;
            }
        }
        if let (Some(x), Some(y)) = (
            dst.discarded.get_mut(to * inv + i),
            src.discarded.get(from * inv + i),
        ) {
            *x = *y;
        }
    }
    if let (Some(x), Some(y)) = (dst.uavs.get_mut(to), src.uavs.get(from)) {
        x.clone_from(y);
    }
    if let (Some(x), Some(y)) = (dst.missing.get_mut(to), src.missing.get(from)) {
        x.clone_from(y);
    }
    if let (Some(df), Some(sf)) = (dst.facts.as_mut(), src.facts.as_ref()) {
        if let (Some(x), Some(y)) = (df.free_uavs.get_mut(to), sf.free_uavs.get(from)) {
            x.clone_from(y);
        }
        oracles::interp::findings::merge(&mut df.findings, sf.findings.clone());
        let per = if df.events.len() == dst.vectors {
            1
        } else {
            inv
        };
        for i in 0..per {
            if let (Some(x), Some(y)) = (
                df.events.get_mut(to * per + i),
                sf.events.get(from * per + i),
            ) {
                *x = *y;
            }
        }
    }
}

/// The reference's results for `batch`, with the budget-and-retry rule applied.
pub fn reference_run(
    exec: &mut dyn Executor,
    prepared: &crate::exec::Prepared,
    batch: &Batch,
    policy: Policy,
) -> Result<Results, Skip> {
    let mut r = exec.run(prepared, batch, policy.first)?;
    let again: Vec<usize> = (0..batch.vectors)
        .filter(|k| r.missing.get(*k) == Some(&Some(Inconclusive::Budget)))
        .take(policy.retries)
        .collect();
    if !again.is_empty() && policy.retry > policy.first {
        let more = exec.run(prepared, &batch.select(&again), policy.retry)?;
        for (j, &k) in again.iter().enumerate() {
            replace(&mut r, k, &more, j);
        }
    }
    Ok(r)
}

/// Where a differing word is: an output component of one invocation, a UAV word, or a pixel
/// that one side discarded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// Component `comp` of output register `reg` of invocation `invocation`.
    Output {
        /// The invocation within the vector.
        invocation: usize,
        /// The `o#` register.
        reg: usize,
        /// The component, 0..4.
        comp: usize,
    },
    /// Word `word` of UAV `slot`.
    Uav {
        /// The `u#` register.
        slot: u32,
        /// The word index.
        word: usize,
    },
    /// Invocation `invocation` was discarded on one side only.
    Discard {
        /// The invocation within the vector.
        invocation: usize,
    },
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Place::Output {
                invocation,
                reg,
                comp,
            } => {
                let c = ["x", "y", "z", "w"][*comp & 3];
                if *invocation == 0 {
                    write!(f, "o{reg}.{c}")
                } else {
                    write!(f, "invocation {invocation} o{reg}.{c}")
                }
            }
            Place::Uav { slot, word } => write!(f, "u{slot}[{word}]"),
            Place::Discard { invocation } => write!(f, "invocation {invocation} discarded"),
        }
    }
}

/// One word the two sides disagree on: where, the reference's and the candidate's bits (a
/// discard counts as 1 where the side discarded).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Difference {
    /// Where the word is.
    pub place: Place,
    /// The reference's word.
    pub want: u32,
    /// The candidate's word.
    pub have: u32,
}

/// Every word of vector `rk` of `reference` that differs from vector `gk` of `got`: every
/// observed output component of every invocation (a pixel discarded by both is not compared,
/// as its outputs are never written; one discarded by one side only is one difference), and
/// every UAV word. The judge and the report's distances and counterexamples read the same list.
pub fn differences(reference: &Results, rk: usize, got: &Results, gk: usize) -> Vec<Difference> {
    let mut out = Vec::new();
    for i in 0..reference.invocations {
        let (rd, gd) = (reference.discarded_of(rk, i), got.discarded_of(gk, i));
        if rd != gd {
            out.push(Difference {
                place: Place::Discard { invocation: i },
                want: u32::from(rd),
                have: u32::from(gd),
            });
            continue;
        }
        if rd {
            continue;
        }
        let (want, have) = (reference.outputs_of(rk, i), got.outputs_of(gk, i));
        if want == have {
            continue;
        }
        for (reg, mask) in got.observed.iter().enumerate() {
            for c in (0..4).filter(|c| mask & (1 << c) != 0) {
                let w = want.get(reg).map_or(0, |x| x[c]);
                let h = have.get(reg).map_or(0, |x| x[c]);
                if w != h {
                    out.push(Difference {
                        place: Place::Output {
                            invocation: i,
                            reg,
                            comp: c,
                        },
                        want: w,
                        have: h,
                    });
                }
            }
        }
    }
    if let (Some(want), Some(have)) = (reference.uavs.get(rk), got.uavs.get(gk)) {
        for (slot, words) in want {
            let have = have.get(slot).map_or(&[][..], |x| x.as_slice());
            for (i, w) in words.iter().enumerate() {
                let h = have.get(i).copied().unwrap_or(0);
                if *w != h {
                    out.push(Difference {
                        place: Place::Uav {
                            slot: *slot,
                            word: i,
                        },
                        want: *w,
                        have: h,
                    });
                }
            }
        }
    }
    out
}

/// The verdict on vector `k` of `batch`: the worst verdict over its [`differences`]. `rk` and
/// `gk` index the vector in the reference's and the candidate's results.
pub fn judge_vector(
    judge: &Judge,
    batch: &Batch,
    k: usize,
    reference: &Results,
    rk: usize,
    got: &Results,
    gk: usize,
) -> Verdict {
    judge_words(
        judge,
        batch,
        k,
        reference,
        rk,
        &differences(reference, rk, got, gk),
    )
}

/// The worst verdict over `diffs`, words of vector `k` of `batch` (`rk` in the reference's
/// results): the one place a difference is judged, for a whole vector or part of one.
pub fn judge_words(
    judge: &Judge,
    batch: &Batch,
    k: usize,
    reference: &Results,
    rk: usize,
    diffs: &[Difference],
) -> Verdict {
    let mut v = Verdict::Match;
    for d in diffs {
        v = v.worst(match d.place {
            Place::Discard { invocation } => judge.attribute(reference.events_of(rk, invocation)),
            Place::Output {
                invocation,
                reg,
                comp,
            } => judge.word_free(
                d.want,
                d.have,
                reference.free_output(rk, invocation, reg, comp),
                reference.events_of(rk, invocation),
                judge.terms(batch.invocation(k, invocation), comp),
            ),
            Place::Uav { slot, word } => judge.word_free(
                d.want,
                d.have,
                reference.free_uav(rk, slot, word),
                reference.events_of(rk, 0),
                None,
            ),
        });
    }
    v
}

/// The verdict and widest distance of component `c` of candidate vector `gk`, judged against
/// vector `j` of `solo`: the reference run of that component's input alone (its vector `j` in
/// `solo_batch`), so the judge reads the catalog domains of that input and no other. For
/// batches whose lanes carry an independent input in each component (`sweep`); a discard or
/// a UAV word belongs to every component.
pub fn judge_component(
    judge: &Judge,
    solo_batch: &Batch,
    solo: &Results,
    j: usize,
    got: &Results,
    gk: usize,
    c: usize,
) -> (Verdict, Option<Distance>) {
    let mine = component_differences(solo, j, got, gk, c);
    (
        judge_words(judge, solo_batch, j, solo, j, &mine),
        widest(&mine),
    )
}

/// The words of component `c` of candidate vector `gk` that differ from vector `j` of `solo`
/// (with any discard or UAV word, which belong to every component).
pub fn component_differences(
    solo: &Results,
    j: usize,
    got: &Results,
    gk: usize,
    c: usize,
) -> Vec<Difference> {
    differences(solo, j, got, gk)
        .into_iter()
        .filter(|d| !matches!(d.place, Place::Output { comp, .. } if comp != c))
        .collect()
}

/// The widest distance among vector `rk`'s differences (`None` when none differs).
pub fn distance(reference: &Results, rk: usize, got: &Results, gk: usize) -> Option<Distance> {
    widest(&differences(reference, rk, got, gk))
}

/// The widest distance among `diffs`: a discard has no ULP distance.
fn widest(diffs: &[Difference]) -> Option<Distance> {
    diffs
        .iter()
        .map(|d| match d.place {
            Place::Discard { .. } => Distance::Other,
            _ => Distance::of(d.want, d.have),
        })
        .max()
}

/// Run `batch` of `unit` on both executors and judge every vector.
pub fn differential(
    unit: &Unit<'_>,
    batch: &Batch,
    reference: &mut dyn Executor,
    candidate: &mut dyn Executor,
    judge: &Judge,
    policy: Policy,
) -> Result<Differential, Skip> {
    let mut timing = Timing::default();
    let cand = candidate.prepare(unit)?;
    let refp = reference.prepare(unit)?;
    let t0 = Instant::now();
    let r = reference_run(reference, &refp, batch, policy)?;
    timing.reference = t0.elapsed().as_secs_f64();
    let live: Vec<usize> = (0..batch.vectors)
        .filter(|k| r.missing.get(*k).is_some_and(Option::is_none))
        .collect();
    let t1 = Instant::now();
    // A candidate that fails outright leaves every vector it had inconclusive, with the
    // reason, so the vectors are still counted.
    let got = if live.is_empty() {
        Results::new(0, batch.invocations, 0)
    } else {
        // Every vector live (the common case): the batch itself, not a copy of it.
        let selected;
        let to_run = if live.len() == batch.vectors {
            batch
        } else {
            selected = batch.select(&live);
            &selected
        };
        candidate.run(&cand, to_run, 0).unwrap_or_else(|skip| {
            let mut r = Results::new(live.len(), batch.invocations, 0);
            r.missing = vec![Some(Inconclusive::Candidate(skip.detail.clone())); live.len()];
            r.stopped = Some(skip);
            r
        })
    };
    timing.candidate = t1.elapsed().as_secs_f64();
    let t2 = Instant::now();
    let mut verdicts = Vec::with_capacity(batch.vectors);
    let mut j = 0;
    for k in 0..batch.vectors {
        if let Some(Some(why)) = r.missing.get(k) {
            verdicts.push(Verdict::Inconclusive(why.clone()));
            continue;
        }
        let gk = j;
        j += 1;
        verdicts.push(match got.missing.get(gk) {
            Some(Some(why)) => Verdict::Inconclusive(why.clone()),
            None => Verdict::Inconclusive(Inconclusive::Candidate("no result".into())),
            Some(None) => judge_vector(judge, batch, k, &r, k, &got, gk),
        });
    }
    timing.judging = t2.elapsed().as_secs_f64();
    Ok(Differential {
        verdicts,
        stopped: got.stopped.clone(),
        reference: r,
        candidate: got,
        live,
        timing,
    })
}

/// Test doubles for the driver and its callers.
#[cfg(test)]
pub(crate) mod testing {
    use super::*;
    use crate::exec::interp::Interpreter;
    use crate::exec::{Prepared, Results};

    /// A candidate that returns the reference's results with one word changed: component
    /// `comp` of vector `vector`'s first output set to `word`.
    pub(crate) struct Tamper {
        pub(crate) flip: Option<(usize, usize, u32)>,
    }

    impl Executor for Tamper {
        fn name(&self) -> String {
            "tamper".into()
        }
        fn prepare(&mut self, unit: &Unit<'_>) -> Result<Prepared, Skip> {
            Interpreter.prepare(unit)
        }
        fn run(&mut self, p: &Prepared, batch: &Batch, _budget: u64) -> Result<Results, Skip> {
            // A candidate does not count instructions: it gets all it needs.
            let mut r = Interpreter.run(p, batch, 1 << 20)?;
            r.facts = None;
            if let Some((k, comp, word)) = self.flip
                && let Some(o) = r.outputs.get_mut(k * r.outputs_per_invocation)
            {
                o[comp] = word;
            }
            Ok(r)
        }
    }

    /// A program's container and parsed shader from assembly text.
    pub(crate) fn unit_of(text: &str) -> (Vec<u8>, dxbc::Shader) {
        let c = dxbc::assemble_container(text).expect("assembles");
        let blob = c.to_bytes();
        let shader = dxbc::Shader::parse(&blob).expect("parses");
        (blob, shader)
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{Tamper, unit_of};
    use super::*;
    use crate::exec::interp::Interpreter;
    use oracles::interp::Resources;

    #[test]
    fn verdicts_come_from_one_judge() {
        let (blob, shader) = unit_of(
            "ps_5_0\ndcl_input_ps constant v0.x\ndcl_output o0.x\nadd o0.x, v0.x, l(1.0)\nret\n",
        );
        let unit = Unit {
            name: "add",
            blob: &blob,
            shader: &shader,
            translation: None,
        };
        let one = 1f32.to_bits();
        let batch = Batch::lanes(1, vec![[one, 0, 0, 0], [0, 0, 0, 0]], Resources::default());
        let judge = Judge::new(&shader.program, &[], "test");
        let same = differential(
            &unit,
            &batch,
            &mut Interpreter,
            &mut Tamper { flip: None },
            &judge,
            Policy::once(1 << 16),
        )
        .expect("runs");
        assert_eq!(same.verdicts, vec![Verdict::Match, Verdict::Match]);
        let off = differential(
            &unit,
            &batch,
            &mut Interpreter,
            &mut Tamper {
                flip: Some((1, 0, 0x3f80_0001)),
            },
            &judge,
            Policy::once(1 << 16),
        )
        .expect("runs");
        assert_eq!(off.verdicts, vec![Verdict::Match, Verdict::Mismatch]);
        assert_eq!(off.first_mismatch(), Some(1));
    }

    #[test]
    fn a_vector_the_reference_cannot_finish_is_inconclusive_and_never_runs() {
        let (blob, shader) = unit_of(
            "ps_5_0\ndcl_input_ps constant v0.x\ndcl_output o0.x\ndcl_temps 1\nmov r0.x, l(0)\nloop\nieq r0.y, r0.x, v0.x\nbreakc_nz r0.y\niadd r0.x, r0.x, l(1)\nendloop\nmov o0.x, r0.x\nret\n",
        );
        let unit = Unit {
            name: "loop",
            blob: &blob,
            shader: &shader,
            translation: None,
        };
        // 3 trips, then 1,000,000 trips: the second runs out of a small budget even on retry.
        let batch = Batch::lanes(
            1,
            vec![[3, 0, 0, 0], [1_000_000, 0, 0, 0]],
            Resources::default(),
        );
        let judge = Judge::new(&shader.program, &[], "test");
        let d = differential(
            &unit,
            &batch,
            &mut Interpreter,
            &mut Tamper { flip: None },
            &judge,
            Policy {
                first: 64,
                retry: 1 << 10,
                retries: 1,
            },
        )
        .expect("runs");
        assert_eq!(d.verdicts[0], Verdict::Match);
        assert_eq!(d.verdicts[1], Verdict::Inconclusive(Inconclusive::Budget));
        assert_eq!(d.live, vec![0]);
    }
}
