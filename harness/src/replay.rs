//! Case files on an executor that runs translations (`dxdiff replay --executor gpu`): each run
//! is one vector; its results are checked against the run's expectations with the rules of the
//! case format. A run that differs is `adapted` only when the interpreter, on the same run,
//! entered a domain of a catalog entry that applies to the translation ([`Judge::attribute`]).
//! A translator rejection is a skip naming its catalog id; a run the interpreter or the
//! executor could not finish is inconclusive, which is no failure.
//!
//! How this relates to the differential driver ([`crate::driver`]): the reference side is the
//! driver's own [`reference_run`] (the interpreter as an executor, with the budget-and-retry
//! [`Policy`]), and, as in the driver, a run the reference could not finish never reaches the
//! executor (a loop the interpreter gave up on may hang a GPU). The criterion is not the
//! driver's [`crate::driver::judge_vector`] but the run's own `expect` (bits or ULPs, as the
//! file says): case files carry what the right answer is, often from real drivers, and judging
//! them by the interpreter's bands instead would change which runs pass. The [`Judge`] built as
//! the driver builds it decides only whether a failed expectation is adapted.

use oracles::case::CaseFile;
use oracles::interp::Finding;
use oracles::interp::findings::merge;
use oracles::replay::{Observed, RunOutcome, RunSkip, attribute, check, with_free_signs};
use oracles::verdict::{Inconclusive, Judge};

use crate::driver::{Policy, reference_run};
use crate::exec::interp::Interpreter;
use crate::exec::{Executor, Prepared, Results, Unit};
use crate::inputs;
use crate::translators::Translator;

/// What `expect` addresses, from the executor's results of a one-vector run (`got`): invocation
/// `i`'s outputs (the first, or the run's `expect_invocation`), whether it was discarded, and
/// the UAVs; which words have free bits (a NaN whose payload D3D leaves free, a zero whose sign
/// a translation need not keep) comes from the interpreter's results of the same run
/// (`reference`).
fn observed(got: &Results, reference: &Results, i: usize) -> Observed {
    let free_outputs = (0..reference.outputs_per_invocation)
        .map(|reg| std::array::from_fn(|c| reference.free_output(0, i, reg, c)))
        .collect();
    let free_uavs = reference
        .facts
        .as_ref()
        .and_then(|f| f.free_uavs.first().cloned())
        .unwrap_or_default();
    Observed {
        outputs: got.outputs_of(0, i).to_vec(),
        discarded: got.discarded_of(0, i),
        uavs: got.uavs.first().cloned().unwrap_or_default(),
        free_outputs,
        free_uavs,
        ..Observed::default()
    }
}

/// The events the interpreter recorded anywhere in a one-vector run.
fn run_events(reference: &Results) -> oracles::domain::Events {
    (0..reference.invocations.max(1)).fold(0, |a, i| a | reference.events_of(0, i))
}

/// Replay every run of a case, the interpreter's budget set by `policy`; also what the program
/// relies on that D3D leaves undefined, from the interpreter's runs of the same inputs.
pub fn replay(
    case: &CaseFile,
    exec: &mut dyn Executor,
    translator: &dyn Translator,
    policy: Policy,
) -> (Vec<(String, RunOutcome)>, Vec<Finding>) {
    let mut findings = Vec::new();
    let every = |o: RunOutcome| -> Vec<(String, RunOutcome)> {
        case.runs
            .iter()
            .map(|r| (r.id.clone(), o.clone()))
            .collect()
    };
    let blob = match case.blob() {
        Ok(b) => b,
        Err(e) => return (every(RunOutcome::Failed(e)), findings),
    };
    let shader = match dxbc::Shader::parse(&blob) {
        Ok(s) => s,
        Err(e) => {
            let failed = RunOutcome::Failed(format!("[{}] {e}", e.code()));
            return (every(failed), findings);
        }
    };
    let t = match translator.translate(&blob, &shader) {
        Ok(t) => t,
        Err(f) => return (every(RunOutcome::Skipped(f.skip().into())), findings),
    };
    let unit = Unit {
        name: &case.name,
        blob: &blob,
        shader: &shader,
        translation: Some(&t),
    };
    // The candidate first, as in the driver: a program it cannot run costs no interpretation.
    let prepared = match exec.prepare(&unit) {
        Ok(p) => p,
        Err(skip) => return (every(RunOutcome::Skipped(skip.into())), findings),
    };
    let ref_prepared = match Interpreter.prepare(&unit) {
        Ok(p) => p,
        Err(skip) => {
            let why = Inconclusive::Reference(skip.to_string());
            return (every(RunOutcome::Inconclusive(why)), findings);
        }
    };
    let judge = Judge::new(&shader.program, &t.adaptations, &exec.name());
    let mut sides = Sides {
        exec,
        prepared: &prepared,
        ref_prepared: &ref_prepared,
        judge: &judge,
        policy,
    };
    let outcomes = case
        .runs
        .iter()
        .map(|run| (run.id.clone(), sides.run(run, &mut findings)))
        .collect();
    (outcomes, findings)
}

/// Both sides of one case, prepared once for all its runs.
struct Sides<'a> {
    exec: &'a mut dyn Executor,
    prepared: &'a Prepared,
    ref_prepared: &'a Prepared,
    judge: &'a Judge,
    policy: Policy,
}

impl Sides<'_> {
    /// One run: the interpreter first (a run it cannot finish never reaches the executor),
    /// then the executor, then the run's expectations.
    fn run(&mut self, run: &oracles::case::Run, findings: &mut Vec<Finding>) -> RunOutcome {
        // `requires_double` says a D3D device needs doubles; a translation that computes them
        // in software needs nothing of the device, and one that cannot refuses the program.
        let batch = match inputs::case_batch(run) {
            Ok(b) => b,
            Err(why) => return RunOutcome::Skipped(RunSkip::unkinded(why.to_string())),
        };
        let r = match reference_run(&mut Interpreter, self.ref_prepared, &batch, self.policy) {
            Ok(r) => r,
            Err(skip) => return RunOutcome::Inconclusive(Inconclusive::Reference(skip.detail)),
        };
        if let Some(Some(why)) = r.missing.first() {
            return RunOutcome::Inconclusive(why.clone());
        }
        if let Some(f) = &r.facts {
            merge(findings, f.findings.clone());
        }
        let g = match self.exec.run(self.prepared, &batch, 0) {
            Ok(g) => g,
            Err(skip) => return RunOutcome::Inconclusive(Inconclusive::Candidate(skip.detail)),
        };
        if let Some(Some(why)) = g.missing.first() {
            return RunOutcome::Inconclusive(why.clone());
        }
        let i = run.expect_invocation.unwrap_or(0);
        let obs = observed(&g, &r, i);
        let outcome = check(run, &obs);
        let events = with_free_signs(&outcome, run, &obs, run_events(&r));
        attribute(outcome, events, self.judge)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::Batch;
    use crate::translators::Builtin;
    use oracles::verdict::{Skip, SkipKind};

    /// A candidate that answers as the interpreter does (or fails outright), counting its runs.
    struct Candidate {
        runs: usize,
        fail: bool,
    }

    impl Executor for Candidate {
        fn name(&self) -> String {
            "candidate".into()
        }
        fn prepare(&mut self, unit: &Unit<'_>) -> Result<Prepared, Skip> {
            Interpreter.prepare(unit)
        }
        fn run(&mut self, p: &Prepared, batch: &Batch, _budget: u64) -> Result<Results, Skip> {
            self.runs += 1;
            if self.fail {
                return Err(Skip::new(SkipKind::Inconclusive, "device lost"));
            }
            let mut r = Interpreter.run(p, batch, 1 << 24)?;
            r.facts = None;
            Ok(r)
        }
    }

    use oracles::fixtures::counting_case;

    const RUNS: &str = r#"
        {"id": "short", "inputs": {"cb0": ["0x3", "0x0", "0x0", "0x0"]},
         "expect": {"o0": {"words": ["0x3"], "compare": "bits"}}},
        {"id": "wrong", "inputs": {"cb0": ["0x3", "0x0", "0x0", "0x0"]},
         "expect": {"o0": {"words": ["0x4"], "compare": "bits"}}},
        {"id": "long", "inputs": {"cb0": ["0x100000", "0x0", "0x0", "0x0"]},
         "expect": {"o0": {"words": ["0x100000"], "compare": "bits"}}},
        {"id": "doubles", "flags": ["requires_double"]}"#;

    #[test]
    fn expectations_judge_and_the_reference_budget_gates_the_candidate() {
        let case = counting_case(RUNS);
        let mut cand = Candidate {
            runs: 0,
            fail: false,
        };
        let (outcomes, _) = replay(
            &case,
            &mut cand,
            &Builtin(translator::Profile::Exact),
            Policy::once(1 << 12),
        );
        let by_id = |id: &str| &outcomes.iter().find(|(i, _)| i == id).expect("run").1;
        assert_eq!(by_id("short"), &RunOutcome::Passed);
        assert!(by_id("wrong").is_failure(), "{:?}", by_id("wrong"));
        assert_eq!(
            by_id("long"),
            &RunOutcome::Inconclusive(Inconclusive::Budget)
        );
        // A run that needs a device with doubles is run: the translation answers for them.
        assert!(
            !matches!(by_id("doubles"), RunOutcome::Skipped(_)),
            "{:?}",
            by_id("doubles")
        );
        // The run the interpreter gave up on never reached the candidate.
        assert_eq!(cand.runs, 3);
    }

    #[test]
    fn a_candidate_that_fails_leaves_its_runs_inconclusive() {
        let case = counting_case(RUNS);
        let mut cand = Candidate {
            runs: 0,
            fail: true,
        };
        let (outcomes, _) = replay(
            &case,
            &mut cand,
            &Builtin(translator::Profile::Exact),
            Policy::once(1 << 12),
        );
        for (id, o) in &outcomes[..2] {
            assert!(
                matches!(o, RunOutcome::Inconclusive(Inconclusive::Candidate(why)) if why.contains("device lost")),
                "{id}: {o:?}"
            );
        }
    }
}
