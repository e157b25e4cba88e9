//! `dxdiff contract`: one property per seed-contract entry of the catalog, checked on the GPU.
//!
//! Each entry's property ([`properties`]) is a family of programs about exactly that entry.
//! Every program is assembled, translated, and, where the translator takes it, run on the
//! interpreter and the GPU over generated edge-biased inputs through the differential driver,
//! as `verify --corpus` runs a program; mismatches are shrunk and saved. The entry's row is then
//! judged by its category ([`judge`]). The run is the translator's conformance map against
//! the contract; docs/contract.md gives the rules.

pub mod judge;
pub mod properties;

use std::path::Path;
use std::time::Instant;

use oracles::catalog::{Entry, catalog};
use reports::contract::{ContractReport, EntryRow, FORMAT, Status};

use crate::exec::Executor;
use crate::gpu::GpuError;
use crate::progress::Progress;
use crate::session::{self, Session, Settings};
use crate::translators::Failure;
use judge::{Outcome, Ran, Role};
use properties::{Plan, Property};

/// Run settings.
#[derive(Debug, Clone)]
pub struct Options {
    /// The translator, seed, inputs per program (`vectors`), executor and quietness.
    pub session: Settings,
    /// Only these entries (`--entry`), in catalog order; empty: every seed entry.
    pub entries: Vec<String>,
    /// Whether the translator was asked for the exact profile.
    pub exact: bool,
    /// Random programs per entry whose property takes them ([`properties::random_family`]).
    pub random: usize,
}

/// An `--entry` that names no seed entry of the catalog.
pub fn unknown_entries(ids: &[String]) -> Vec<String> {
    ids.iter()
        .filter(|id| properties::of(id).is_none())
        .cloned()
        .collect()
}

/// The seed entries to run, in catalog order.
fn selected(opts: &Options) -> Vec<(&'static Entry, &'static Property)> {
    catalog()
        .entries
        .iter()
        .filter(|e| opts.entries.is_empty() || opts.entries.contains(&e.id))
        .filter_map(|e| properties::of(&e.id).map(|p| (e, p)))
        .collect()
}

/// Run every selected entry's property on `adapter`; counterexamples go to `out_dir/cases`.
pub fn run(opts: &Options, out_dir: &Path, adapter: &str) -> Result<ContractReport, GpuError> {
    let started = Instant::now();
    let mut v = Session::new(opts.session.clone(), adapter, &out_dir.join("cases"))?;
    let work = selected(opts);
    let mut report = ContractReport {
        format: FORMAT.into(),
        translator: opts.session.translator.name(),
        executor: v.gpu.name(),
        seed: opts.session.seed,
        cases: opts.session.vectors,
        seed_entries: catalog()
            .entries
            .iter()
            .filter(|e| e.seed_ref.is_some())
            .count(),
        entries: Vec::new(),
        seconds: 0.0,
    };
    let mut bar = Progress::new("entries", Some(work.len() as u64), opts.session.quiet);
    let mut crashes = Crashes::new();
    for (i, (entry, property)) in work.iter().enumerate() {
        bar.set(i as u64, &entry.id);
        let row =
            crate::parallel::caught(|| entry_row(&mut v, entry, property, opts, &mut crashes))
                .unwrap_or_else(|why| panicked(entry, property, &why));
        report.entries.push(row);
    }
    bar.set(work.len() as u64, "");
    bar.finish();
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

/// The row of an entry whose property made dxdiff panic: violated, naming the panic, so the
/// run goes on.
fn panicked(entry: &Entry, property: &Property, why: &str) -> EntryRow {
    let why = format!("dxdiff panicked (a dxdiff bug, please report it): {why}");
    judge::row(entry, property.what, Status::Violated, why)
}

/// The crash cases saved so far in a run, by the crash's class (its whole reason, numbers and
/// names blanked: `translators::reason_class`): one case per distinct crash.
type Crashes = std::collections::BTreeMap<String, String>;

/// Run one entry's programs and judge them.
fn entry_row(
    v: &mut Session,
    entry: &Entry,
    property: &Property,
    opts: &Options,
    crashes: &mut Crashes,
) -> EntryRow {
    let exact = opts.exact;
    let programs: Vec<(Role, &str)> = match property.plan {
        Plan::Unreachable(why) => {
            return judge::row(entry, property.what, Status::NotExercisable, why.into());
        }
        Plan::Run(t) => t.iter().map(|t| (Role::Inside, *t)).collect(),
        Plan::Reject(t) => t.iter().map(|t| (Role::Feature, *t)).collect(),
        Plan::Bound { inside, outside } => inside
            .iter()
            .map(|t| (Role::Inside, *t))
            .chain(outside.iter().map(|t| (Role::Outside, *t)))
            .collect(),
    };
    let mut outcomes = Vec::new();
    let stem = entry.id.replace('/', "-");
    for (role, template) in programs {
        for text in properties::expand(template) {
            let name = format!("{stem}-{}", outcomes.len());
            let o = match assembled(&text) {
                Ok(blob) => {
                    let blob = at_model(&blob, opts.session.shader_model);
                    outcome(v, entry, &name, &blob, crashes)
                }
                Err(broken) => broken,
            };
            outcomes.push((role, o));
        }
    }
    if property.random {
        // The seed picks the programs as well as the inputs; each entry draws its own.
        let seed = opts.session.seed ^ crate::inputs::program_seed(0, &entry.id);
        for blob in properties::random_family(&entry.ops, seed, opts.random) {
            let blob = at_model(&blob, opts.session.shader_model);
            let name = format!("{stem}-{}", outcomes.len());
            outcomes.push((Role::Inside, outcome(v, entry, &name, &blob, crashes)));
        }
    }
    judge::judge(entry, property.what, &outcomes, exact)
}

/// A property's program written for the run's Shader Model where its features allow; as it is
/// (5.0 or 5.1) where the entry is about what a later model has.
fn at_model(blob: &[u8], model: dxbc::TargetModel) -> Vec<u8> {
    match dxbc::retarget(blob, model) {
        Ok(Some(b)) => b,
        _ => blob.to_vec(),
    }
}

/// A template's program as a container, or the violation that it does not assemble.
fn assembled(text: &str) -> Result<Vec<u8>, Outcome> {
    dxbc::assemble_container(text)
        .map(|c| c.to_bytes())
        .map_err(|e| {
            Outcome::broken(format!(
                "the property's program does not assemble (a dxdiff bug): [{}] {e}",
                e.code()
            ))
        })
}

/// Translate and run one program.
fn outcome(
    v: &mut Session,
    entry: &Entry,
    name: &str,
    blob: &[u8],
    crashes: &mut Crashes,
) -> Outcome {
    let shader = match dxbc::Shader::parse(blob) {
        Ok(s) => s,
        Err(e) => {
            return Outcome::broken(format!(
                "the property's program does not decode (a dxdiff bug): [{}] {e}",
                e.code()
            ));
        }
    };
    let t = match v.opts.translator.translate(blob, &shader) {
        Ok(t) => t,
        Err(Failure::Rejected {
            catalog_id,
            reason,
            instruction,
        }) => {
            return Outcome::Rejected {
                id: catalog_id,
                instruction,
                reason,
            };
        }
        Err(f @ Failure::Crashed { .. }) => {
            let why = f.to_string();
            let case = crash_case(v, entry, name, blob, &shader, &why, crashes);
            return Outcome::Broken { why, case };
        }
    };
    let mut events = Vec::new();
    let report = session::guarded(name, || {
        v.translated(
            session::Origin::Contract,
            name,
            blob,
            &shader,
            &t,
            &mut events,
        )
    });
    let c = report.counts();
    let adapted = report.tally.adapted_by.get(&entry.id).copied().unwrap_or(0);
    Outcome::Ran(Ran {
        lanes: c.judged(),
        mismatch: c.mismatch,
        adapted,
        adapted_other: report.tally.adapted_by.values().sum::<u64>() - adapted,
        domain: if entry.domain.is_empty() {
            0
        } else {
            events.iter().filter(|e| entry.allows(**e)).count() as u64
        },
        attributed: t.adaptations.contains(&entry.id),
        structured: entry
            .structure
            .as_deref()
            .and_then(dxbc::structure::Structure::from_id)
            .is_some_and(|s| s.present(&shader.program)),
        skipped: report.skipped.clone(),
        case: report.counterexample.clone(),
    })
}

/// The case of a translator crash, saved once per distinct crash of the run: the program alone
/// (no inputs, no expectations: translating it is the failure), its disassembly, and the whole
/// reason in its run's `source`. Its path, or `None` when it could not be written.
fn crash_case(
    v: &Session,
    entry: &Entry,
    name: &str,
    blob: &[u8],
    shader: &dxbc::Shader,
    why: &str,
    crashes: &mut Crashes,
) -> Option<String> {
    let class = crate::translators::reason_class(why);
    if let Some(path) = crashes.get(&class) {
        return Some(path.clone());
    }
    let mut case = oracles::case::CaseFile::single(
        name,
        blob,
        oracles::case::Run {
            source: Some(format!("dxdiff contract, {}: {why}", entry.id)),
            ..oracles::case::Run::new("translator-crash")
        },
    );
    case.source_text = Some(dxbc::disasm::disassemble(
        &shader.program,
        dxbc::disasm::Syntax::Fxc,
    ));
    case.source_text_kind = Some("asm".into());
    let path = reports::cases::write_case(&v.cases_dir, &format!("crash-{name}"), &case)
        .ok()?
        .display()
        .to_string();
    crashes.insert(class, path.clone());
    Some(path)
}
