//! Case files on an executor that runs translations (`dxdiff replay --executor gpu`): each run
//! is one vector; its results are checked against the run's expectations with the rules of the
//! case format. A run that differs is `adapted` only when the interpreter, on the same run,
//! entered a domain of a catalog entry that applies to the translation ([`Judge::attribute`]).
//! A translator rejection is a skip naming its catalog id; an executor failure is a failed run
//! that says it was inconclusive.

use oracles::case::CaseFile;
use oracles::interp::findings::merge;
use oracles::interp::{DEFAULT_BUDGET, Finding};
use oracles::replay::{Observed, RunOutcome, attribute, check};
use oracles::verdict::Judge;

use crate::exec::{Executor, Results, Unit};
use crate::inputs;
use crate::translators::Translator;

/// What `expect` addresses, from the executor's results of a one-vector run: the first
/// invocation's outputs, whether it was discarded, and the UAVs; which words are NaNs whose
/// payload D3D leaves free comes from the interpreter's run of the same inputs (`reference`).
fn observed(r: &Results, reference: Option<&Observed>) -> Observed {
    Observed {
        outputs: r.outputs_of(0, 0).to_vec(),
        discarded: r.discarded_of(0, 0),
        uavs: r.uavs.first().cloned().unwrap_or_default(),
        free_outputs: reference
            .map(|o| o.free_outputs.clone())
            .unwrap_or_default(),
        free_uavs: reference.map(|o| o.free_uavs.clone()).unwrap_or_default(),
        ..Observed::default()
    }
}

/// Replay every run of a case; also what the program relies on that D3D leaves undefined, from
/// the interpreter's runs of the same inputs.
pub fn replay(
    case: &CaseFile,
    exec: &mut dyn Executor,
    translator: &dyn Translator,
) -> (Vec<(String, RunOutcome)>, Vec<Finding>) {
    let mut findings = Vec::new();
    let outcomes = replay_runs(case, exec, translator, &mut findings);
    (outcomes, findings)
}

fn replay_runs(
    case: &CaseFile,
    exec: &mut dyn Executor,
    translator: &dyn Translator,
    findings: &mut Vec<Finding>,
) -> Vec<(String, RunOutcome)> {
    let every = |o: RunOutcome| -> Vec<(String, RunOutcome)> {
        case.runs
            .iter()
            .map(|r| (r.id.clone(), o.clone()))
            .collect()
    };
    let blob = match case.blob() {
        Ok(b) => b,
        Err(e) => return every(RunOutcome::Failed(e)),
    };
    let shader = match dxbc::Shader::parse(&blob) {
        Ok(s) => s,
        Err(e) => return every(RunOutcome::Failed(format!("[{}] {e}", e.code()))),
    };
    let t = match translator.translate(&blob, &shader) {
        Ok(t) => t,
        Err(f) => return every(RunOutcome::Skipped(f.to_string())),
    };
    let unit = Unit {
        name: &case.name,
        blob: &blob,
        shader: &shader,
        translation: Some(&t),
    };
    let prepared = match exec.prepare(&unit) {
        Ok(p) => p,
        Err(skip) => return every(RunOutcome::Skipped(skip.to_string())),
    };
    let judge = Judge::new(&shader.program, &t.adaptations, &exec.name());
    case.runs
        .iter()
        .map(|run| {
            let outcome = if run.flags.iter().any(|f| f == "requires_double") {
                RunOutcome::Skipped("requires_double".into())
            } else {
                let reference = oracles::replay::observe(&shader.program, run, DEFAULT_BUDGET).ok();
                if let Some(o) = &reference {
                    merge(findings, o.findings.clone());
                }
                match inputs::case_run(run) {
                    Err(why) => RunOutcome::Skipped(why),
                    Ok(batch) => match exec.run(&prepared, &batch, 0) {
                        Err(skip) => RunOutcome::Failed(format!("inconclusive: {skip}")),
                        Ok(r) => match r.missing.first() {
                            Some(Some(why)) => RunOutcome::Failed(format!("inconclusive: {why}")),
                            _ => {
                                let outcome = check(run, &observed(&r, reference.as_ref()));
                                match &reference {
                                    Some(obs) => attribute(outcome, obs.events, &judge),
                                    None => outcome,
                                }
                            }
                        },
                    },
                }
            };
            (run.id.clone(), outcome)
        })
        .collect()
}
