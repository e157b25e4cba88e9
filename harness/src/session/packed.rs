//! Four inputs to a lane (`sweep`): each component of a lane is an independent run of a
//! per-component op. A lane whose words all match needs nothing more. A lane that differs is
//! judged one component at a time against a reference run of that component's input alone,
//! as a one-input lane: the interpreter records catalog domains per lane, and a NaN or a
//! denormal in one component must not excuse a difference in another.

use oracles::interp::DEFAULT_BUDGET;
use oracles::verdict::{Inconclusive, Judge, Verdict};
use reports::counts::Distance;

use crate::driver::{Difference, Differential, Place, component_differences, judge_component};
use crate::exec::{Batch, Executor, Results, Unit};

/// The reference's runs of the differing components' inputs, one lane each.
#[derive(Debug)]
pub(super) struct Solo {
    /// How many components of the packed batch are inputs (the last lane may be padded).
    pub(super) inputs: usize,
    batch: Batch,
    results: Result<Results, String>,
    /// Per vector: the components that have a solo lane (bit c), and the first of its lanes.
    mask: Vec<u8>,
    first: Vec<usize>,
    /// Per solo lane: the vector's index in the candidate's results.
    got: Vec<Option<usize>>,
}

/// How many of vector `k`'s components are inputs, when the batch holds `inputs` of them.
pub(super) fn valid(inputs: usize, k: usize) -> usize {
    inputs.saturating_sub(4 * k).min(4)
}

/// True when vector `k`'s verdict is settled for every component at once: all its words
/// matched, or it never ran.
pub(super) fn whole(v: &Verdict) -> bool {
    matches!(v, Verdict::Match | Verdict::Inconclusive(_))
}

impl Solo {
    /// Run the reference over the input of every component of `d` whose words differ.
    pub(super) fn run(
        reference: &mut dyn Executor,
        unit: &Unit<'_>,
        batch: &Batch,
        d: &Differential,
        inputs: usize,
    ) -> Solo {
        let (mut mask, mut first, mut got) = (vec![0u8; d.verdicts.len()], Vec::new(), Vec::new());
        debug_assert_eq!(batch.invocations, 1, "packed lanes are one invocation each");
        let mut lanes = Vec::new();
        for (k, v) in d.verdicts.iter().enumerate() {
            first.push(got.len());
            if whole(v) {
                continue;
            }
            let gk = d.candidate_index(k);
            let mut differs = 0u8;
            for x in d.differences(k) {
                differs |= match x.place {
                    Place::Output { comp, .. } => 1 << comp,
                    _ => 0xf,
                };
            }
            for c in (0..valid(inputs, k)).filter(|c| differs & (1 << c) != 0) {
                mask[k] |= 1 << c;
                got.push(gk);
                lanes.extend(batch.invocation(k, 0).iter().map(|r| [r[c]; 4]));
            }
        }
        let resources = (*batch.resources[0]).clone();
        let solo = Batch::lanes(batch.regs, lanes, resources);
        let results = if got.is_empty() {
            Err("no lane differs".into())
        } else {
            reference
                .prepare(unit)
                .and_then(|p| reference.run(&p, &solo, DEFAULT_BUDGET))
                .map_err(|s| s.detail)
        };
        Solo {
            inputs,
            batch: solo,
            results,
            mask,
            first,
            got,
        }
    }

    /// The solo lane of component `c` of vector `k`: its lanes follow the vector's `first`, one
    /// per component with a bit in its `mask`. `None` when the component has none (it matched).
    fn slot(&self, k: usize, c: usize) -> Option<usize> {
        let m = self.mask.get(k).copied().unwrap_or(0);
        (m & (1 << c) != 0).then(|| self.first[k] + (m & ((1 << c) - 1)).count_ones() as usize)
    }

    /// The solo run of component `c` of vector `k`, for its counterexample: the solo batch, the
    /// lane's index in it, the reference's results, and the words of component `c` that
    /// differ. `None` when the component has no solo run.
    pub(super) fn lane(
        &self,
        d: &Differential,
        k: usize,
        c: usize,
    ) -> Option<(&Batch, usize, &Results, Vec<Difference>)> {
        let j = self.slot(k, c)?;
        let gk = self.got.get(j).copied().flatten()?;
        let r = self.results.as_ref().ok()?;
        Some((
            &self.batch,
            j,
            r,
            component_differences(r, j, &d.candidate, gk, c),
        ))
    }

    /// Component `c` of differing vector `k`: its verdict and widest distance (a component
    /// whose words all match has no solo run and matches).
    pub(super) fn judge(
        &self,
        judge: &Judge,
        d: &Differential,
        k: usize,
        c: usize,
    ) -> (Verdict, Option<Distance>) {
        let inconclusive = |why: &str| {
            (
                Verdict::Inconclusive(Inconclusive::Reference(why.into())),
                None,
            )
        };
        let Some(j) = self.slot(k, c) else {
            return (Verdict::Match, None);
        };
        let Some(gk) = self.got.get(j).copied().flatten() else {
            return inconclusive("the vector did not reach the candidate");
        };
        match &self.results {
            Err(why) => inconclusive(why),
            Ok(r) => match r.missing.get(j) {
                Some(None) => judge_component(judge, &self.batch, r, j, &d.candidate, gk, c),
                Some(Some(why)) => (Verdict::Inconclusive(why.clone()), None),
                None => inconclusive("the solo run has no result"),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::testing::{Tamper, unit_of};
    use crate::driver::{Policy, differential, judge_vector};
    use crate::exec::interp::Interpreter;
    use oracles::interp::Resources;

    /// A lane packs a NaN input beside an ordinary one. Judged as one lane, a wrong result in
    /// the ordinary component would borrow the NaN's catalog domain and pass as adapted;
    /// judged alone, it is the mismatch it is, and the other components still count as theirs.
    #[test]
    fn a_component_is_judged_on_its_own_input_alone() {
        let text =
            "ps_5_0\ndcl_input_ps linear v0.xyzw\ndcl_output o0.xyzw\nrcp o0.xyzw, v0.xyzw\nret\n";
        let (blob, shader) = unit_of(text);
        let claims: Vec<String> = translator::Profile::Contract
            .claims()
            .iter()
            .map(|s| s.to_string())
            .collect();
        let judge = Judge::new(&shader.program, &claims, "test");
        let unit = Unit {
            name: "rcp",
            blob: &blob,
            shader: &shader,
            translation: None,
        };
        let two = 2f32.to_bits();
        let lane = [0x7fc0_0000, two, 4f32.to_bits(), 8f32.to_bits()];
        let batch = Batch::lanes(1, vec![lane], Resources::default());
        let mut wrong = Tamper {
            flip: Some((0, 1, 0.25f32.to_bits())),
        };
        let d = differential(
            &unit,
            &batch,
            &mut Interpreter,
            &mut wrong,
            &judge,
            Policy::once(1 << 16),
        )
        .expect("runs");
        let whole = judge_vector(&judge, &batch, 0, &d.reference, 0, &d.candidate, 0);
        assert!(
            matches!(whole, Verdict::Adapted(_)),
            "the lane as a whole borrows the NaN's domain: {whole:?}"
        );
        let solo = Solo::run(&mut Interpreter, &unit, &batch, &d, 4);
        let verdicts: Vec<Verdict> = (0..4).map(|c| solo.judge(&judge, &d, 0, c).0).collect();
        assert_eq!(
            verdicts,
            vec![
                Verdict::Match,
                Verdict::Mismatch,
                Verdict::Match,
                Verdict::Match
            ]
        );
        // Only the differing component ran again.
        assert_eq!(solo.batch.vectors, 1);
        assert_eq!(solo.batch.invocation(0, 0), &[[two; 4]]);
        // The counterexample is that input alone, with its one differing word.
        let (b, j, _, words) = solo.lane(&d, 0, 1).expect("a solo lane");
        assert_eq!(b.invocation(j, 0), &[[two; 4]]);
        assert_eq!(words.len(), 1);
        assert_eq!(
            (words[0].want, words[0].have),
            (0.5f32.to_bits(), 0.25f32.to_bits())
        );
        assert!(
            solo.lane(&d, 0, 0).is_none(),
            "a matching component has no solo lane"
        );
    }
}
