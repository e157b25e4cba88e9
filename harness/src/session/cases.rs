//! Case files in `verify`: the project's own (embedded, so that `dxdiff verify` needs nothing
//! outside the binary: control flow, compute with TGSM, barriers and atomics, buffers out of
//! bounds, constant/immediate/indexable addressing) and those given on the command line. Each
//! run is one vector through the differential driver; its expectations, if any, are not
//! used: the interpreter is the reference.

use std::collections::BTreeMap;

use oracles::case::{CaseFile, Expect};
use oracles::interp::DEFAULT_BUDGET;
use oracles::verdict::{Inconclusive, Judge, Skip, SkipKind, Verdict};
use reports::verify::ProgramReport;

use super::Session;
use crate::driver::{Differential, Policy};
use crate::exec::{Executor, Unit};
use crate::inputs;

/// A mismatching run saved with the interpreter's results as its expectations.
fn saved(case: &CaseFile, run: &oracles::case::Run, d: &Differential) -> CaseFile {
    let mut run = run.clone();
    let mut expect = BTreeMap::new();
    for (r, v) in d.reference.outputs_of(0, 0).iter().enumerate() {
        expect.insert(oracles::case::register_key("o", r as u32), Expect::bits(v));
    }
    if let Some(uavs) = d.reference.uavs.first() {
        for (slot, v) in uavs {
            expect.insert(format!("u{slot}"), Expect::bits(v));
        }
    }
    run.expect = Some(expect);
    let mut out = case.clone();
    out.runs = vec![run];
    out
}

impl Session {
    /// Run every run of a case file (given as its JSON), interpreter against GPU.
    pub fn case(&mut self, name: &str, json: &str) -> ProgramReport {
        match CaseFile::parse(json) {
            Ok(case) => self.case_file(name, &case),
            Err(e) => {
                let mut report = ProgramReport::new(format!("case:{name}"));
                report.skip(&Skip::new(
                    SkipKind::Malformed,
                    format!("the case file: {e}"),
                ));
                report
            }
        }
    }

    /// Run every run of a parsed case file, interpreter against GPU.
    pub fn case_file(&mut self, name: &str, case: &CaseFile) -> ProgramReport {
        let mut report = ProgramReport::new(format!("case:{name}"));
        let blob = match case.blob() {
            Ok(b) => b,
            Err(e) => {
                report.skip(&Skip::new(SkipKind::Malformed, e));
                return report;
            }
        };
        let shader = match dxbc::Shader::parse(&blob) {
            Ok(s) => s,
            Err(e) => {
                report.skip(&Skip::new(
                    SkipKind::Malformed,
                    format!("[{}] {e}", e.code()),
                ));
                return report;
            }
        };
        let t = match self.opts.translator.translate(&blob, &shader) {
            Ok(t) => t,
            Err(f) => {
                report.skip(&f.skip());
                return report;
            }
        };
        let unit = Unit {
            name,
            blob: &blob,
            shader: &shader,
            translation: Some(&t),
        };
        let judge = Judge::new(&shader.program, &t.adaptations, &self.gpu.name());
        for run in &case.runs {
            let verdict = self.case_run(case, run, &unit, &judge, &mut report);
            if let Verdict::Inconclusive(why) = &verdict
                && report.skipped.is_none()
            {
                report.skipped = Some(why.to_string());
            }
            report.tally(&verdict);
        }
        report
    }

    /// One run of a case file through the driver: its verdict, and its counterexample saved
    /// into `report` when it is the case's first mismatch.
    fn case_run(
        &mut self,
        case: &CaseFile,
        run: &oracles::case::Run,
        unit: &Unit<'_>,
        judge: &Judge,
        report: &mut ProgramReport,
    ) -> Verdict {
        let inconclusive = |why: String| Verdict::Inconclusive(Inconclusive::Candidate(why));
        let batch = match inputs::case_batch(run) {
            Ok(b) => b,
            Err(why) => return inconclusive(why.to_string()),
        };
        let d = match self.differential(unit, &batch, judge, Policy::once(DEFAULT_BUDGET)) {
            Ok(d) => d,
            Err(skip) => {
                report.skip(&skip);
                return inconclusive(skip.detail);
            }
        };
        let v = d
            .verdicts
            .first()
            .cloned()
            .unwrap_or_else(|| inconclusive("no result".into()));
        if matches!(v, Verdict::Within | Verdict::Adapted(_) | Verdict::Mismatch)
            && let Some(dist) = d.distance(0)
        {
            report.tally.add_distance(dist);
        }
        if v.is_mismatch() && report.counterexample.is_none() {
            let out = saved(case, run, &d);
            self.save(&format!("{}-{}", case.name, run.id), &out, report);
            if let Some(t) = unit.translation {
                report.detail = Some(super::trip::detail(unit.shader, t, d.differences(0)));
            }
        }
        v
    }
}
