//! The project's own case files, embedded so that `dxdiff verify` needs nothing outside the
//! binary: control flow, compute with TGSM, barriers and atomics, buffers out of bounds, and
//! constant/immediate/indexable addressing. They carry no expectations: the interpreter's results
//! are the reference, and each run is compared with the GPU's.

use std::collections::BTreeMap;
use std::path::Path;

use crate::translators::Translator;
use oracles::case::CaseFile;
use oracles::replay::{Observed, RunOutcome};

use super::oracle::allowing;
use super::{Counts, ProgramReport};
use crate::gpu::isolated::IsolatedGpu;
use crate::gpu::replay::{observe_gpu, prepare};

/// (name, JSON) of every embedded case.
pub const EMBEDDED: &[(&str, &str)] = &[
    ("flow", include_str!("../../../examples/cases/flow.json")),
    (
        "compute_tgsm_barrier",
        include_str!("../../../examples/cases/compute_tgsm_barrier.json"),
    ),
    (
        "compute_atomics",
        include_str!("../../../examples/cases/compute_atomics.json"),
    ),
    (
        "buffers_out_of_bounds",
        include_str!("../../../examples/cases/buffers_out_of_bounds.json"),
    ),
    (
        "constants_and_indexing",
        include_str!("../../../examples/cases/constants_and_indexing.json"),
    ),
];

/// The words two observations disagree on, as (what, index, reference, got).
fn differences(reference: &Observed, got: &Observed) -> Vec<(String, usize, u32, u32)> {
    let mut out = Vec::new();
    for (r, want) in reference.outputs.iter().enumerate() {
        let have = got.outputs.get(r).copied().unwrap_or([0; 4]);
        for c in 0..4 {
            if want[c] != have[c] {
                out.push((format!("o{r}"), c, want[c], have[c]));
            }
        }
    }
    for (slot, want) in &reference.uavs {
        let have = got.uavs.get(slot).cloned().unwrap_or_default();
        for (i, w) in want.iter().enumerate() {
            let h = have.get(i).copied().unwrap_or(0);
            if *w != h {
                out.push((format!("u{slot}"), i, *w, h));
            }
        }
    }
    if reference.discarded != got.discarded {
        out.push((
            "discarded".into(),
            0,
            u32::from(reference.discarded),
            u32::from(got.discarded),
        ));
    }
    out
}

/// Save a run that mismatched, with the interpreter's results as its expectation.
fn save(
    dir: &Path,
    case: &CaseFile,
    run: &oracles::case::Run,
    reference: &Observed,
) -> Option<String> {
    let mut run = run.clone();
    let mut expect = BTreeMap::new();
    for (r, v) in reference.outputs.iter().enumerate() {
        expect.insert(format!("o{r}"), oracles::case::Expect::bits(v));
    }
    for (slot, v) in &reference.uavs {
        expect.insert(format!("u{slot}"), oracles::case::Expect::bits(v));
    }
    run.expect = Some(expect);
    let mut saved = case.clone();
    saved.runs = vec![run.clone()];
    super::write_case(dir, &format!("{}-{}", case.name, run.id), &saved)
}

/// Run cases, given as (name, JSON), interpreter against GPU.
pub fn verify_cases(
    gpu: &mut IsolatedGpu,
    translator: &Translator,
    cases_dir: &Path,
    cases: &[(String, String)],
) -> Vec<ProgramReport> {
    let mut reports = Vec::new();
    for (name, json) in cases {
        let mut report = ProgramReport {
            name: format!("case:{name}"),
            counts: Counts::default(),
            adapted_by: BTreeMap::new(),
            skipped: None,
            skip_kind: None,
            counterexample: None,
        };
        let case = match CaseFile::parse(json) {
            Ok(c) => c,
            Err(e) => {
                report.skipped = Some(format!("embedded case does not parse: {e}"));
                reports.push(report);
                continue;
            }
        };
        let prepared = match prepare(&case, translator) {
            Ok(p) => p,
            Err(outcome) => {
                report.skipped = Some(format!("{outcome:?}"));
                reports.push(report);
                continue;
            }
        };
        for run in &case.runs {
            report.counts.lanes += 1;
            let reference = match oracles::replay::observe(
                &prepared.shader.program,
                run,
                oracles::interp::DEFAULT_BUDGET,
            ) {
                Ok(r) => r,
                Err(e) => {
                    report.counts.inconclusive += 1;
                    report.skipped = Some(format!("interpreter: {e:?}"));
                    continue;
                }
            };
            let got = match observe_gpu(gpu, &prepared, run) {
                Ok(g) => g,
                Err(RunOutcome::Skipped(why) | RunOutcome::Failed(why)) => {
                    report.counts.inconclusive += 1;
                    report.skipped = Some(why);
                    continue;
                }
                Err(_) => {
                    report.counts.inconclusive += 1;
                    continue;
                }
            };
            if differences(&reference, &got).is_empty() {
                report.counts.matched += 1;
                continue;
            }
            let ids = allowing(
                reference.events,
                &prepared.translation.adaptations,
                &gpu.description,
            );
            if ids.is_empty() {
                report.counts.mismatch += 1;
                if report.counterexample.is_none() {
                    report.counterexample = save(cases_dir, &case, run, &reference);
                }
            } else {
                report.counts.adapted += 1;
                for id in ids {
                    *report.adapted_by.entry(id).or_default() += 1;
                }
            }
        }
        reports.push(report);
    }
    reports
}
