//! The reference interpreter as an [`Executor`]: Direct3D 11's results, with the catalog
//! domains every lane entered as [`Facts`].
//!
//! Vectors that share their resources run as one batch of lanes on all cores; vectors with
//! resources of their own (a constant buffer per vector, a UAV whose contents the run changes)
//! each run alone, the vectors spread over the cores.

use std::collections::BTreeMap;

use oracles::interp::{Finding, InterpError, Resources, run_dispatch, run_invocations_on};
use oracles::verdict::{Inconclusive, Skip, SkipKind};

use super::{Batch, Executor, Facts, Prepared, Results, Unit};
use crate::parallel::par_map;

/// The reference interpreter.
#[derive(Debug, Clone, Copy, Default)]
pub struct Interpreter;

fn missing(e: &InterpError) -> Inconclusive {
    match e {
        InterpError::BudgetExceeded { .. } => Inconclusive::Budget,
        other => Inconclusive::Reference(format!("[{}] {other}", other.code())),
    }
}

/// One vector's result.
#[derive(Debug, Clone, Default)]
struct One {
    outputs_per_lane: usize,
    outputs: Vec<[u32; 4]>,
    discarded: Vec<bool>,
    events: Vec<u64>,
    uavs: BTreeMap<u32, Vec<u32>>,
    free_nan: Vec<[bool; 4]>,
    free_uavs: BTreeMap<u32, Vec<bool>>,
    findings: Vec<Finding>,
    missing: Option<Inconclusive>,
}

impl Interpreter {
    fn stage(program: &dxbc::Program, batch: &Batch, k: usize, budget: u64, threads: usize) -> One {
        let mut res: Resources = (**batch.resources_of(k)).clone();
        let lanes: Vec<Vec<[u32; 4]>> = (0..batch.invocations)
            .map(|i| batch.invocation(k, i).to_vec())
            .collect();
        match run_invocations_on(program, &mut res, &lanes, budget, threads) {
            Ok(b) => One {
                missing: b
                    .inconclusive
                    .iter()
                    .any(|x| *x)
                    .then_some(Inconclusive::Budget),
                outputs_per_lane: b.outputs_per_lane,
                outputs: b.outputs,
                discarded: b.discarded,
                events: b.events,
                uavs: res.uavs.into_iter().map(|(r, b)| (r, b.words)).collect(),
                free_nan: b.free_nan,
                findings: b.findings,
                ..One::default()
            },
            Err(e) => One {
                missing: Some(missing(&e)),
                ..One::default()
            },
        }
    }

    fn compute(program: &dxbc::Program, batch: &Batch, k: usize, budget: u64) -> One {
        let mut res: Resources = (**batch.resources_of(k)).clone();
        match run_dispatch(program, &mut res, batch.groups, budget) {
            Ok(d) => One {
                events: vec![d.events],
                uavs: res.uavs.into_iter().map(|(r, b)| (r, b.words)).collect(),
                free_uavs: d.free_nan,
                findings: d.findings,
                ..One::default()
            },
            Err(e) => One {
                missing: Some(missing(&e)),
                ..One::default()
            },
        }
    }
}

impl Executor for Interpreter {
    fn name(&self) -> String {
        "interpreter".into()
    }

    fn prepare(&mut self, unit: &Unit<'_>) -> Result<Prepared, Skip> {
        Ok(Prepared(Box::new(unit.shader.program.clone())))
    }

    fn run(&mut self, prepared: &Prepared, batch: &Batch, budget: u64) -> Result<Results, Skip> {
        let Some(program) = prepared.0.downcast_ref::<dxbc::Program>() else {
            return Err(Skip::new(
                SkipKind::Interpreter,
                "not prepared by the interpreter",
            ));
        };
        let compute = program.version.stage == dxbc::Stage::Compute;
        let has_uavs = batch.resources.iter().any(|r| !r.uavs.is_empty());
        // Lanes that share everything run as one batch over all cores.
        if !compute && batch.shared_resources() && !has_uavs && batch.invocations == 1 {
            // Slices of the batch: no copy per lane.
            let lanes: Vec<&[[u32; 4]]> =
                (0..batch.vectors).map(|k| batch.invocation(k, 0)).collect();
            let mut res: Resources = (*batch.resources[0]).clone();
            let b = run_invocations_on(
                program,
                &mut res,
                &lanes,
                budget,
                crate::parallel::threads(),
            )
            .map_err(|e| Skip::new(SkipKind::Interpreter, missing(&e).to_string()))?;
            let mut r = Results::new(batch.vectors, 1, b.outputs_per_lane);
            r.outputs = b.outputs;
            r.discarded = b.discarded;
            r.missing = b
                .inconclusive
                .iter()
                .map(|x| x.then_some(Inconclusive::Budget))
                .collect();
            r.facts = Some(Facts {
                events: b.events,
                free_nan: b.free_nan,
                free_uavs: Vec::new(),
                findings: b.findings,
            });
            return Ok(r);
        }
        let vectors: Vec<usize> = (0..batch.vectors).collect();
        let ones = par_map(
            &vectors,
            |k| {
                if compute {
                    Interpreter::compute(program, batch, *k, budget)
                } else {
                    Interpreter::stage(program, batch, *k, budget, 1)
                }
            },
            || One {
                missing: Some(Inconclusive::Reference(
                    "an interpreter thread panicked".into(),
                )),
                ..One::default()
            },
        );
        let outputs = ones.iter().map(|o| o.outputs_per_lane).max().unwrap_or(0);
        let mut r = Results::new(batch.vectors, batch.invocations, outputs);
        let mut events = Vec::with_capacity(batch.vectors * batch.invocations);
        let mut free_nan = vec![[false; 4]; r.outputs.len()];
        let mut free_uavs = Vec::with_capacity(batch.vectors);
        let mut findings = Vec::new();
        for (k, one) in ones.into_iter().enumerate() {
            r.missing[k] = one.missing.clone();
            r.uavs[k] = one.uavs;
            free_uavs.push(one.free_uavs);
            oracles::interp::findings::merge(&mut findings, one.findings);
            if compute {
                events.push(one.events.first().copied().unwrap_or(0));
                continue;
            }
            for i in 0..batch.invocations {
                events.push(one.events.get(i).copied().unwrap_or(0));
                let d = k * batch.invocations + i;
                r.discarded[d] = one.discarded.get(i).copied().unwrap_or(false);
                let n = one.outputs_per_lane;
                for reg in 0..n.min(outputs) {
                    r.outputs[d * outputs + reg] =
                        one.outputs.get(i * n + reg).copied().unwrap_or([0; 4]);
                    free_nan[d * outputs + reg] =
                        one.free_nan.get(i * n + reg).copied().unwrap_or_default();
                }
            }
        }
        r.facts = Some(Facts {
            events,
            free_nan,
            free_uavs,
            findings,
        });
        Ok(r)
    }
}
