//! One program through the differential driver: a generated single-instruction program over
//! many lanes, or a corpus program over generated vectors (pixel and vertex: registers and
//! constant buffers per vector; compute: one dispatch per vector). Mismatches are shrunk
//! (pixel and vertex) and saved.

use std::time::Instant;

use generators::programs::SingleOp;
use oracles::interp::DEFAULT_BUDGET;
use oracles::verdict::{Inconclusive, Judge, Skip, SkipKind, Verdict};
use reports::verify::{Counterexample, ProgramReport, WordDiff};
use translator::Translation;
use translator::manifest::BindingKind;

use super::Session;
use super::packed::{self, Solo};
use crate::driver::{Differential, Policy, differential};
use crate::exec::{Batch, Executor, Unit};
use crate::{counterexample, inputs, shrink};

/// Budgets of a pixel or vertex vector: edge-valued loop bounds (2^31 trips) make many vectors
/// run forever, and each costs only the first budget; the first 64 that run out get enough for
/// a loop of 65,536 trips over a dozen instructions, so that long loops (the lavapipe loop
/// limit) are still reached. The rest stay inconclusive.
const STAGE: Policy = Policy {
    first: 1 << 16,
    retry: 1 << 20,
    retries: 64,
};
/// Lane-instructions (instructions × threads of the group) a compute dispatch may run on the
/// first pass, and for the first four that run out.
const COMPUTE_FIRST: u64 = 1 << 22;
const COMPUTE_RETRY: u64 = 1 << 26;
/// Most dispatches per compute program.
const MAX_DISPATCHES: usize = 256;

/// A counterexample as the HTML report shows it: the program and the words that differ.
pub(super) fn detail(
    shader: &dxbc::Shader,
    t: &Translation,
    differences: Vec<crate::driver::Difference>,
) -> Counterexample {
    Counterexample {
        disassembly: dxbc::disasm::disassemble(&shader.program, dxbc::disasm::Syntax::Fxc),
        wgsl: t.wgsl.clone(),
        words: differences
            .into_iter()
            .map(|x| WordDiff {
                place: x.place.to_string(),
                expected: x.want,
                got: x.have,
            })
            .collect(),
    }
}

/// How a batch's lanes are counted.
#[derive(Debug, Clone, Copy)]
pub enum Lanes<'a> {
    /// One verdict per vector.
    Vectors,
    /// Each output component is its own input (`sweep`), judged alone ([`packed`]); only
    /// the first `solo.inputs` components of the batch count (the last lane may be padded).
    Components {
        /// The judge of the run.
        judge: &'a Judge,
        /// The reference's runs of the differing components.
        solo: &'a Solo,
    },
    /// One verdict per vector, the worst of its components', each differing component judged
    /// on its own input's run ([`packed`]): for a program of one [per-component]
    /// instruction, where the interpreter's lane-wide domains would let a NaN in `.y` excuse
    /// a wrong `.x` (carbon's `frc` of a tiny negative hid that way).
    ///
    /// [per-component]: dxbc::Instruction::per_component
    Split {
        /// The judge of the run.
        judge: &'a Judge,
        /// The reference's runs of the differing components.
        solo: &'a Solo,
    },
}

/// Whether a verdict says the words differed (so a distance is counted for it).
fn differs(v: &Verdict) -> bool {
    matches!(v, Verdict::Within | Verdict::Adapted(_) | Verdict::Mismatch)
}

/// Count `n` lanes of the vector and component `at` with verdict `v` (and `dist`, the widest
/// distance of one lane that differs); `first` keeps the first mismatching `at` (component 0
/// when vectors are counted whole).
fn count(
    report: &mut ProgramReport,
    first: &mut Option<(usize, usize)>,
    at: (usize, usize),
    v: &Verdict,
    dist: Option<reports::counts::Distance>,
    n: u64,
) {
    if report.tally.add_n(v, n) {
        first.get_or_insert(at);
    }
    if differs(v)
        && let Some(dist) = dist
    {
        report.tally.add_distance(dist);
    }
    if let Verdict::Inconclusive(Inconclusive::Reference(why)) = v
        && report.skipped.is_none()
    {
        report.skip(&Skip::new(SkipKind::Interpreter, why.clone()));
    }
}

/// The first invocation of vector 0 whose difference is a mismatch (0 when none is): the one a
/// quad's counterexample names in its `expect_invocation`.
fn mismatching_invocation(judge: &Judge, batch: &Batch, d: &Differential) -> usize {
    use crate::driver::{Place, judge_words};
    d.differences(0)
        .iter()
        .find(|x| {
            judge_words(judge, batch, 0, &d.reference, 0, std::slice::from_ref(x)).is_mismatch()
        })
        .map_or(0, |x| match x.place {
            Place::Output { invocation, .. } | Place::Discard { invocation } => invocation,
            Place::Uav { .. } => 0,
        })
}

/// Count a differential run into a report: every vector's verdict (or each of its components',
/// see [`Lanes`]), why the candidate stopped (if it did), and an interpreter that could not run
/// a vector.
fn tally(report: &mut ProgramReport, d: &Differential, lanes: Lanes<'_>) -> Option<(usize, usize)> {
    let mut first = None;
    for (k, v) in d.verdicts.iter().enumerate() {
        match lanes {
            Lanes::Vectors => {
                let dist = if differs(v) { d.distance(k) } else { None };
                count(report, &mut first, (k, 0), v, dist, 1);
            }
            Lanes::Components { judge, solo } => {
                let n = packed::valid(solo.inputs, k);
                if packed::whole(v) {
                    // Nothing differed: the same verdict for each of its inputs.
                    count(report, &mut first, (k, 0), v, None, n as u64);
                    continue;
                }
                for c in 0..n {
                    let (v, dist) = solo.judge(judge, d, k, c);
                    count(report, &mut first, (k, c), &v, dist, 1);
                }
            }
            Lanes::Split { judge, solo } => {
                if packed::whole(v) {
                    count(report, &mut first, (k, 0), v, None, 1);
                    continue;
                }
                let (mut worst, mut widest, mut at) = (Verdict::Match, None, 0);
                for c in 0..4 {
                    let (v, dist) = solo.judge(judge, d, k, c);
                    if v.is_mismatch() && !worst.is_mismatch() {
                        at = c;
                    }
                    worst = worst.worst(v);
                    widest = widest.max(dist);
                }
                count(report, &mut first, (k, at), &worst, widest, 1);
            }
        }
    }
    if let Some(s) = &d.stopped {
        report.skip(s);
    }
    if let Some(f) = &d.reference.facts {
        for finding in &f.findings {
            let line = finding.to_string();
            if !report.findings.contains(&line) {
                report.findings.push(line);
            }
        }
    }
    first
}

/// The lanes of `d` whose words differ from the reference's, each with its verdict and a hash
/// of the device's words (outputs, discards and UAVs), for `dxdiff diff`'s lane-by-lane
/// comparison ([`reports::answers`]).
fn answers_of(d: &Differential) -> reports::answers::Answers {
    use reports::answers::Kind;
    let mut out = reports::answers::Answers::new();
    let c = &d.candidate;
    for (k, v) in d.verdicts.iter().enumerate() {
        let kind = match v {
            Verdict::Match => continue,
            Verdict::Within => Kind::Within,
            Verdict::Adapted(_) => Kind::Adapted,
            Verdict::Mismatch => Kind::Mismatch,
            Verdict::Inconclusive(_) => Kind::Inconclusive,
        };
        let hash = d.candidate_index(k).map_or(0, |g| {
            let invocations = (0..c.invocations).flat_map(|i| {
                let outputs = c.outputs_of(g, i).iter().flatten().copied();
                outputs.chain(std::iter::once(u32::from(c.discarded_of(g, i))))
            });
            let uavs = c.uavs.get(g).into_iter().flat_map(|m| m.values().flatten());
            reports::answers::hash_words(invocations.chain(uavs.copied()))
        });
        out.push(k as u32, kind, hash);
    }
    out
}

/// Which command runs a translated program: it names the report (`corpus:NAME`,
/// `contract:NAME`), the counterexample's file and the command its `source` cites.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// `dxdiff verify --corpus`.
    Corpus,
    /// `dxdiff contract`.
    Contract,
    /// A built-in program of `dxdiff verify` (one per sampling and derivative opcode), named
    /// like the single-instruction programs.
    Builtin,
}

impl Origin {
    fn prefix(self) -> &'static str {
        match self {
            Origin::Corpus => "corpus",
            Origin::Contract => "contract",
            Origin::Builtin => "single",
        }
    }

    fn command(self) -> &'static str {
        match self {
            Origin::Corpus => "verify --corpus",
            Origin::Contract => "contract",
            Origin::Builtin => "verify",
        }
    }
}

impl Session {
    /// Decode and translate, with the time counted.
    fn translate(&mut self, blob: &[u8]) -> Result<(dxbc::Shader, Translation), Skip> {
        let t0 = Instant::now();
        let shader = dxbc::Shader::parse(blob)
            .map_err(|e| Skip::new(SkipKind::Malformed, format!("[{}] {e}", e.code())))?;
        let t = self
            .opts
            .translator
            .translate(blob, &shader)
            .and_then(
                |t| match inputs::views::contradiction(&shader.program, &t.manifest) {
                    // A view no D3D application could bind for this program: the translator's
                    // failure, as a manifest that contradicts its WGSL is.
                    Some(why) => Err(translators::Failure::Crashed {
                        why: format!("its manifest contradicts the program: {why}"),
                        stderr: String::new(),
                    }),
                    None => Ok(t),
                },
            )
            .map_err(|f| f.skip());
        self.clock("translation", t0);
        Ok((shader, t?))
    }

    /// Run a batch through the driver, with the time counted by phase.
    pub(super) fn differential(
        &mut self,
        unit: &Unit<'_>,
        batch: &Batch,
        judge: &Judge,
        policy: Policy,
    ) -> Result<Differential, Skip> {
        let d = differential(unit, batch, &mut self.interp, &mut self.gpu, judge, policy)?;
        self.add_time("interpreter", d.timing.reference);
        self.add_time("gpu", d.timing.candidate);
        self.add_time("judging", d.timing.judging);
        Ok(d)
    }

    /// Verify one single-instruction program over `cases` lanes.
    pub fn single(&mut self, op: &SingleOp) -> ProgramReport {
        self.single_named(op.opcode.mnemonic(), op)
    }

    /// [`Session::single`], reported as `name` (a program that writes one destination of
    /// two: `imul-d1`).
    pub fn single_named(&mut self, name: &str, op: &SingleOp) -> ProgramReport {
        let t_in = Instant::now();
        let batch = inputs::single_op(self.opts.seed, op.opcode, op.sources, self.opts.cases);
        self.clock("inputs", t_in);
        self.single_over(name, op, &batch, None)
    }

    /// Verify one single-instruction program over the given vectors, reported as `name` (the
    /// stem of its counterexample, if one is saved). With `packed`, each lane's components are
    /// independent inputs, the first `packed` of them counted one by one ([`Lanes::Components`]).
    pub fn single_over(
        &mut self,
        name: &str,
        op: &SingleOp,
        batch: &Batch,
        packed: Option<usize>,
    ) -> ProgramReport {
        let mut report = ProgramReport::new(name);
        let (shader, t) = match self.translate(&op.blob) {
            Ok(x) => x,
            Err(skip) => {
                report.skip(&skip);
                return report;
            }
        };
        report.wgsl = Some(wgsl_hash(&t.wgsl));
        let unit = Unit {
            name,
            blob: &op.blob,
            shader: &shader,
            translation: Some(&t),
        };
        let judge = Judge::new(&shader.program, &t.adaptations, &self.gpu.name());
        let d = match self.differential(&unit, batch, &judge, Policy::once(DEFAULT_BUDGET)) {
            Ok(d) => d,
            Err(skip) => {
                report.skip(&skip);
                return report;
            }
        };
        coverage(&mut report, &shader.program, &d);
        // A lane of one per-component instruction holds four independent inputs: a differing
        // component is judged on its own (see `Lanes::Split`).
        let split = packed.is_none() && batch.invocations == 1 && {
            let mut body = shader.program.instructions.iter().filter(|i| {
                i.info().kind != dxbc::opcodes::Kind::Declaration && i.opcode != dxbc::Opcode::Ret
            });
            matches!((body.next(), body.next()), (Some(i), None) if i.per_component())
        };
        let solo = match packed {
            Some(n) => Some(Solo::run(&mut self.interp, &unit, batch, &d, n)),
            None if split => Some(Solo::run(
                &mut self.interp,
                &unit,
                batch,
                &d,
                4 * batch.vectors,
            )),
            None => None,
        };
        let lanes = match (&solo, packed) {
            (Some(solo), Some(_)) => Lanes::Components {
                judge: &judge,
                solo,
            },
            (Some(solo), None) => Lanes::Split {
                judge: &judge,
                solo,
            },
            (None, _) => Lanes::Vectors,
        };
        self.keep_answers(&d, &mut report);
        if let Some((k, c)) = tally(&mut report, &d, lanes)
            && self.opts.counterexamples
        {
            let outputs: Vec<usize> = (0..d.reference.outputs_per_invocation).collect();
            // A packed lane's case is its mismatching input alone, so that it replays as it
            // was judged (see `packed`).
            let (cb, ck, cr, words) = match solo.as_ref().and_then(|s| s.lane(&d, k, c)) {
                Some((b, j, r, words)) => (b, j, r, words),
                None => (batch, k, &d.reference, d.differences(k)),
            };
            let mut case =
                counterexample::case_of(name, &op.blob, cb, (ck, 0), cr, &outputs, "dxdiff verify");
            case.claims = t.adaptations.clone();
            self.save(name, &case, &mut report);
            report.detail = Some(detail(&shader, &t, words));
        }
        report
    }

    /// Keep the program's answers that differ from the reference in the run's folder
    /// ([`Session::answers_dir`]), named in its report. A file that cannot be written leaves
    /// the summary without it.
    fn keep_answers(&self, d: &Differential, report: &mut ProgramReport) {
        let Some(run) = &self.answers_dir else {
            return;
        };
        let answers = answers_of(d);
        if answers.total == 0 {
            return;
        }
        let file = match reports::answers::write(run, &report.name, &answers) {
            Ok(rel) => Some(rel),
            Err(e) => {
                eprintln!(
                    "dxdiff: cannot keep a program's answers: [{}] {e}",
                    e.code()
                );
                None
            }
        };
        report.answers = Some(answers.summary(file));
    }

    /// Write a counterexample into the program's report: its path, or why it could not be
    /// written (with the error's code), so a full disk shows in report.json, not only on stderr.
    pub(crate) fn save(
        &self,
        stem: &str,
        case: &oracles::case::CaseFile,
        report: &mut reports::verify::ProgramReport,
    ) {
        match reports::cases::write_case(&self.cases_dir, stem, case) {
            Ok(p) => report.counterexample = Some(p.display().to_string()),
            Err(e) => {
                eprintln!("dxdiff: cannot save a counterexample: {e}");
                report.counterexample_error = Some(format!("[{}] {e}", e.code()));
            }
        }
    }

    /// Verify one program over the settings' `vectors` generated vectors.
    pub fn program(&mut self, name: &str, blob: &[u8]) -> ProgramReport {
        self.program_as(Origin::Corpus, name, blob)
    }

    /// [`Session::program`], its report named for `origin`.
    pub fn program_as(&mut self, origin: Origin, name: &str, blob: &[u8]) -> ProgramReport {
        match self.translate(blob) {
            Ok((shader, t)) => self.translated(origin, name, blob, &shader, &t, &mut Vec::new()),
            Err(skip) => {
                let mut report = ProgramReport::new(format!("{}:{name}", origin.prefix()));
                report.skip(&skip);
                report
            }
        }
    }

    /// [`Session::program`] for a program already translated; the reference's domain events
    /// of every vector (compute: every dispatch) are appended to `events`, for a caller that
    /// asks which lanes entered a catalog entry's domain (`dxdiff contract`). `origin` names
    /// the report and the counterexample.
    pub fn translated(
        &mut self,
        origin: Origin,
        name: &str,
        blob: &[u8],
        shader: &dxbc::Shader,
        t: &Translation,
        events: &mut Vec<oracles::domain::Events>,
    ) -> ProgramReport {
        let kind = origin.prefix();
        let mut report = ProgramReport::new(format!("{kind}:{name}"));
        report.wgsl = Some(wgsl_hash(&t.wgsl));
        let unit = Unit {
            name,
            blob,
            shader,
            translation: Some(t),
        };
        let compute = shader.program.version.stage == dxbc::Stage::Compute;
        let uavs = t
            .manifest
            .bindings
            .iter()
            .any(|b| b.kind == BindingKind::Uav);
        // A pixel or vertex program with UAVs runs one vector per dispatch, with its own UAVs
        // (`inputs::stage`): one invocation, so no order. Over quads, four pixels would share
        // them in an order D3D leaves open.
        if !compute && uavs && crate::exec::needs_quads(&shader.program) {
            report.skip(&Skip::new(
                SkipKind::UavOrder,
                "a pixel program over quads that writes UAVs: its four pixels' accesses have \
                 no order",
            ));
            return report;
        }
        let judge = Judge::new(&shader.program, &t.adaptations, &self.gpu.name());
        let seed = inputs::program_seed(self.opts.seed, name);
        let t_in = Instant::now();
        let (batch, policy) = if compute {
            let [x, y, z] = t.manifest.workgroup_size.unwrap_or([1, 1, 1]);
            let threads = (x * y * z).max(1);
            let n = self
                .opts
                .vectors
                .div_ceil(threads as usize)
                .clamp(16, MAX_DISPATCHES);
            let per = |b: u64| (b / u64::from(threads)).max(1 << 10);
            (
                inputs::compute(t, &shader.program, threads, seed, n),
                Policy {
                    first: per(COMPUTE_FIRST),
                    retry: per(COMPUTE_RETRY),
                    retries: 4,
                },
            )
        } else {
            // One dispatch per vector with UAVs: as many as a compute program gets.
            let n = if uavs {
                self.opts.vectors.clamp(16, MAX_DISPATCHES)
            } else {
                self.opts.vectors
            };
            (
                inputs::stage(t, &shader.program, self.opts.seed, seed, n),
                STAGE,
            )
        };
        self.clock("inputs", t_in);
        let d = match self.differential(&unit, &batch, &judge, policy) {
            Ok(d) => d,
            Err(skip) => {
                report.skip(&skip);
                return report;
            }
        };
        coverage(&mut report, &shader.program, &d);
        if let Some(f) = &d.reference.facts {
            events.extend_from_slice(&f.events);
        }
        self.keep_answers(&d, &mut report);
        let Some((k, _)) = tally(&mut report, &d, Lanes::Vectors) else {
            return report;
        };
        if !self.opts.counterexamples {
            return report;
        }
        let t3 = Instant::now();
        // A program drawn over quads is replayed as the failing vector's whole quad: its lanes
        // read each other's values, so the vector alone is another input.
        let quads = crate::exec::needs_quads(&shader.program) && batch.invocations == 1;
        let one = if quads {
            batch.quad(k)
        } else {
            batch.select(&[k])
        };
        let small = if compute {
            one
        } else {
            shrink::shrink(&unit, one, &mut self.interp, &mut self.gpu, &judge, policy)
        };
        // The shrunk vector's own results are its expectations.
        if let Ok(again) = differential(
            &unit,
            &small,
            &mut self.interp,
            &mut self.gpu,
            &judge,
            policy,
        ) {
            let outputs: Vec<usize> = again
                .candidate
                .observed
                .iter()
                .enumerate()
                .filter(|(_, m)| **m != 0)
                .map(|(r, _)| r)
                .collect();
            let stem: String = std::path::Path::new(name)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "program".into());
            let mut case = counterexample::case_of(
                &reports::cases::file_stem(&stem),
                blob,
                &small,
                (0, mismatching_invocation(&judge, &small, &again)),
                &again.reference,
                &outputs,
                &format!("dxdiff {}, from {name}", origin.command()),
            );
            case.claims = t.adaptations.clone();
            self.save(&format!("{kind}-{stem}"), &case, &mut report);
            report.detail = Some(detail(shader, t, again.differences(0)));
        }
        self.clock("shrinking", t3);
        report
    }
}

/// The hash a program's report keeps of its WGSL ([`ProgramReport::wgsl`]).
fn wgsl_hash(wgsl: &str) -> String {
    format!("{:016x}", inputs::fnv(wgsl.as_bytes()))
}

/// Record in a program's report its opcodes and the catalog cells its lanes reached
/// (`reports::coverage`), from the reference's domain events of every vector.
fn coverage(report: &mut ProgramReport, program: &dxbc::Program, d: &crate::driver::Differential) {
    let mut ops: Vec<&str> = program
        .instructions
        .iter()
        .filter(|i| i.info().kind.is_alu() || i.info().kind == dxbc::opcodes::Kind::Resource)
        .map(|i| i.opcode.mnemonic())
        .collect();
    ops.sort_unstable();
    ops.dedup();
    let events = d
        .reference
        .facts
        .as_ref()
        .map_or(0, |f| f.events.iter().fold(0, |a, e| a | e));
    let stage = program.version.stage.prefix();
    report.reached = reports::coverage::reached(stage, &ops, events);
    report.ops = ops.iter().map(|s| s.to_string()).collect();
}
