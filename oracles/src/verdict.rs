//! Verdicts: what a difference between the reference and a candidate means.
//!
//! Every place that compares results asks one [`Judge`], built once per program from the
//! program, the catalog entries the translation claims and the executor that ran it. A word is
//! judged in this order:
//!
//! 1. equal bits: [`Verdict::Match`];
//! 2. within D3D's own band for the program's ops ([`crate::rules::transcendental::error_band`],
//!    summed over the program's instructions): [`Verdict::Within`];
//! 3. a catalog entry that applies (claimed, scoped to this executor, or Direct3D's own
//!    latitude; [`crate::catalog::Entry::applies`]) and whose domain the reference entered in
//!    this lane: [`Verdict::Adapted`] naming every such entry;
//! 4. within the band widened by the `tolerance` of the applicable entries that cover the
//!    program's ops (WGSL's accuracy where a translator claims `dxdiff/builtin-accuracy`, say):
//!    [`Verdict::Adapted`] naming the entries that widened it;
//! 5. otherwise [`Verdict::Mismatch`].
//!
//! Both bands are read here and nowhere else: D3D's from
//! [`crate::rules::transcendental::error_band`], the catalog's from its `tolerance` and
//! `op_tolerance` fields.
//!
//! A lane the reference or the candidate could not finish is [`Verdict::Inconclusive`], with
//! its reason. A program that could not run at all is a [`Skip`], with a [`SkipKind`].

use std::fmt;

use dxbc::opcodes::Flags;
use dxbc::{Opcode, Program};

use crate::band::{Band, ProgramBand};
use crate::catalog::{Entry, catalog};
use crate::domain::Events;
use crate::rules::transcendental::error_band;

/// Why a lane has no verdict on its words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inconclusive {
    /// The reference ran out of its instruction budget.
    Budget,
    /// The reference could not run this lane (an unsupported or malformed instruction).
    Reference(String),
    /// The candidate produced nothing for it: a timeout, a lost device, missing results.
    Candidate(String),
}

impl fmt::Display for Inconclusive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Inconclusive::Budget => f.write_str("the interpreter's instruction budget ran out"),
            Inconclusive::Reference(why) => write!(f, "interpreter: {why}"),
            Inconclusive::Candidate(why) => write!(f, "executor: {why}"),
        }
    }
}

/// One lane's (or one word's) verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Equal bits.
    Match,
    /// Different, within D3D's own error band for the ops involved.
    Within,
    /// Different, allowed by these catalog entries (sorted ids).
    Adapted(Vec<String>),
    /// Different, and nothing allows it.
    Mismatch,
    /// Not judged.
    Inconclusive(Inconclusive),
}

impl Verdict {
    fn rank(&self) -> u8 {
        match self {
            Verdict::Match => 0,
            Verdict::Within => 1,
            Verdict::Adapted(_) => 2,
            Verdict::Inconclusive(_) => 3,
            Verdict::Mismatch => 4,
        }
    }

    /// The worse of two verdicts: a lane is as bad as its worst word. Adapted words merge
    /// their entries.
    pub fn worst(self, other: Verdict) -> Verdict {
        match (self, other) {
            (Verdict::Adapted(mut a), Verdict::Adapted(b)) => {
                a.extend(b);
                a.sort();
                a.dedup();
                Verdict::Adapted(a)
            }
            (a, b) if b.rank() > a.rank() => b,
            (a, _) => a,
        }
    }

    /// True for [`Verdict::Mismatch`].
    pub fn is_mismatch(&self) -> bool {
        *self == Verdict::Mismatch
    }
}

/// Why a program did not run: a stable kind, counted in reports, and the detail.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum SkipKind {
    /// The translator refused it (fail closed), naming a catalog id.
    Rejected,
    /// The translator crashed, hung, answered garbage or wrote WGSL that does not validate.
    TranslatorCrash,
    /// The device refused a module that naga accepted.
    DeviceRejected,
    /// The container or program is malformed.
    Malformed,
    /// The file could not be read.
    Unreadable,
    /// The program needs something the executor cannot feed yet; the detail names it (2×2
    /// pixel quads for derivatives and implicit-LOD samples, a texture dimension not bound).
    Unfed,
    /// A pixel/vertex program that writes UAVs: results depend on invocation order.
    UavOrder,
    /// The WGSL could not be wrapped into a compute kernel.
    Wrap,
    /// The module enables a WGSL extension (`Manifest::enables`) the device does not grant.
    Feature,
    /// The executor could not produce results (a hang, a lost device).
    Inconclusive,
    /// The reference interpreter could not run it.
    Interpreter,
    /// dxdiff itself panicked on it (always a dxdiff bug): caught, so the run goes on and the
    /// report is written.
    Crash,
}

impl SkipKind {
    /// Every kind, in report order.
    pub const ALL: [SkipKind; 12] = [
        SkipKind::Rejected,
        SkipKind::TranslatorCrash,
        SkipKind::DeviceRejected,
        SkipKind::Malformed,
        SkipKind::Unreadable,
        SkipKind::Unfed,
        SkipKind::UavOrder,
        SkipKind::Wrap,
        SkipKind::Feature,
        SkipKind::Inconclusive,
        SkipKind::Interpreter,
        SkipKind::Crash,
    ];

    /// The stable spelling reports use.
    pub const fn as_str(self) -> &'static str {
        match self {
            SkipKind::Rejected => "rejected",
            SkipKind::TranslatorCrash => "translator-crash",
            SkipKind::DeviceRejected => "device-rejected",
            SkipKind::Malformed => "malformed",
            SkipKind::Unreadable => "unreadable",
            SkipKind::Unfed => "unfed",
            SkipKind::UavOrder => "uav-order",
            SkipKind::Wrap => "wrap",
            SkipKind::Feature => "feature",
            SkipKind::Inconclusive => "inconclusive",
            SkipKind::Interpreter => "interpreter",
            SkipKind::Crash => "crash",
        }
    }

    /// The kind with this spelling.
    pub fn parse(s: &str) -> Option<SkipKind> {
        SkipKind::ALL.into_iter().find(|k| k.as_str() == s)
    }

    /// A failure of the translator under test (its fault), as opposed to a program the
    /// harness could not run.
    pub fn is_translator_failure(self) -> bool {
        matches!(self, SkipKind::TranslatorCrash | SkipKind::DeviceRejected)
    }
}

impl fmt::Display for SkipKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a program did not run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skip {
    /// The reason's kind.
    pub kind: SkipKind,
    /// The reason in words.
    pub detail: String,
}

impl Skip {
    /// A skip of `kind` with `detail`.
    pub fn new(kind: SkipKind, detail: impl Into<String>) -> Skip {
        Skip {
            kind,
            detail: detail.into(),
        }
    }
}

impl fmt::Display for Skip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind, self.detail)
    }
}

/// The judge of one program: its band, the entries that apply to its translation on its
/// executor.
#[derive(Debug, Clone)]
pub struct Judge {
    /// The one instruction of a single-instruction program, judged with its own band (terms
    /// included); `None` for a program of many instructions.
    single: Option<Opcode>,
    /// For a single fused instruction (mad, dp2-4) whose sources are all input registers: each
    /// source's register and swizzle, so its terms can be read from an invocation's inputs.
    term_sources: Option<Vec<(usize, [usize; 4])>>,
    /// The program's instructions (declarations and `ret` left out), once each with their count.
    ops: Vec<(Opcode, u64)>,
    /// The entries that apply: claimed, scoped to this executor, or Direct3D's own.
    entries: Vec<&'static Entry>,
    /// Those of them whose `tolerance` is wider than D3D's band for some op of the program.
    widening: Vec<&'static Entry>,
}

impl Judge {
    /// The judge of `program` translated with `claimed` entries, run on `executor` (the
    /// adapter's name).
    pub fn new(program: &Program, claimed: &[String], executor: &str) -> Judge {
        let body: Vec<&dxbc::Instruction> = program
            .instructions
            .iter()
            .filter(|i| {
                i.opcode.info().kind != dxbc::opcodes::Kind::Declaration && i.opcode != Opcode::Ret
            })
            .collect();
        let alu: Vec<Opcode> = body.iter().map(|i| i.opcode).collect();
        let single = match alu.as_slice() {
            [op] => Some(*op),
            _ => None,
        };
        let term_sources = match body.as_slice() {
            [i] if i.info().has(Flags::FUSED) => {
                let dst = i.info().dst as usize;
                i.operands
                    .get(dst..)
                    .unwrap_or(&[])
                    .iter()
                    .map(|o| {
                        let reg = match (o.ty, o.indices.as_slice()) {
                            (dxbc::OperandType::Input, [dxbc::Index::Imm32(r)]) => *r as usize,
                            _ => return None,
                        };
                        Some((reg, std::array::from_fn(|c| o.source_component(c))))
                    })
                    .collect::<Option<Vec<_>>>()
            }
            _ => None,
        };
        let mut ops: Vec<(Opcode, u64)> = Vec::new();
        for op in alu {
            match ops.iter_mut().find(|(o, _)| *o == op) {
                Some((_, n)) => *n += 1,
                None => ops.push((op, 1)),
            }
        }
        let entries = applicable(claimed, executor);
        // Entries whose tolerance is wider than D3D's own band for some op of the program.
        let widening = entries
            .iter()
            .copied()
            .filter(|e| {
                ops.iter().any(|(op, _)| {
                    e.covers(*op) && {
                        let base = error_band(*op, Events::MAX);
                        base.widest(e.tolerance_for(*op)) != base
                    }
                })
            })
            .collect();
        Judge {
            single,
            term_sources,
            ops,
            entries,
            widening,
        }
    }

    /// The `terms` argument of [`Judge::word`] for component `c` of a lane whose input
    /// registers are `inputs`: the summed magnitude of a fused op's terms (Σ|aᵢ·bᵢ| + |c|) when
    /// the program is one fused instruction over input registers, 0 for any other single
    /// instruction (whose band has no terms), `None` for a program of many instructions.
    pub fn terms(&self, inputs: &[[u32; 4]], c: usize) -> Option<f64> {
        let op = self.single?;
        let Some(srcs) = &self.term_sources else {
            return (!op.info().has(Flags::FUSED)).then_some(0.0);
        };
        let v = |s: usize, comp: usize| -> f64 {
            let Some(&(reg, swz)) = srcs.get(s) else {
                return 0.0;
            };
            let w = inputs.get(reg).map_or(0, |r| r[swz[comp % 4] % 4]);
            f64::from(f32::from_bits(w)).abs()
        };
        Some(match op {
            Opcode::Mad => v(0, c) * v(1, c) + v(2, c),
            Opcode::Dp2 => (0..2).map(|k| v(0, k) * v(1, k)).sum(),
            Opcode::Dp3 => (0..3).map(|k| v(0, k) * v(1, k)).sum(),
            _ => (0..4).map(|k| v(0, k) * v(1, k)).sum(),
        })
    }

    /// The band of `op` in a lane that entered `events`: D3D's own, widened by the applicable
    /// entries that cover the op when `widen` is set; the ids of the entries that widened it.
    fn op_band(&self, op: Opcode, events: Events, widen: bool) -> (Band, Vec<&'static str>) {
        let mut b = error_band(op, events);
        let mut by = Vec::new();
        if widen {
            for e in self.widening.iter().filter(|e| e.covers(op)) {
                let w = b.widest(e.tolerance_for(op));
                if w != b {
                    b = w;
                    by.push(e.id.as_str());
                }
            }
        }
        (b, by)
    }

    /// The program's band in a lane that entered `events` (see [`Judge::op_band`]).
    fn band(&self, events: Events, widen: bool) -> (ProgramBand, Vec<&'static str>) {
        let mut b = ProgramBand::default();
        let mut by = Vec::new();
        for (op, n) in &self.ops {
            let (one, ids) = self.op_band(*op, events, widen);
            for _ in 0..*n {
                b.add(one);
            }
            by.extend(ids);
        }
        (b, by)
    }

    /// Whether the difference is within the band, and which entries widened it to that.
    fn within(
        &self,
        reference: u32,
        got: u32,
        events: Events,
        terms: Option<f64>,
        widen: bool,
    ) -> Option<Vec<&'static str>> {
        let (ok, by) = match (self.single, terms) {
            (Some(op), Some(terms)) => {
                let (b, by) = self.op_band(op, events, widen);
                (b.allows(reference, got, terms), by)
            }
            _ => {
                let (b, by) = self.band(events, widen);
                (b.allows(reference, got), by)
            }
        };
        ok.then_some(by)
    }

    /// The verdict on one word. `terms` is the magnitude of a fused op's terms, known where
    /// the inputs of a single-instruction program are: then that op's own band applies, terms
    /// included; otherwise the program's summed band.
    pub fn word(&self, reference: u32, got: u32, events: Events, terms: Option<f64>) -> Verdict {
        if reference == got {
            return Verdict::Match;
        }
        if self.within(reference, got, events, terms, false).is_some() {
            return Verdict::Within;
        }
        match self.attribute(events) {
            Verdict::Mismatch => {}
            adapted => return adapted,
        }
        // Outside every domain, an applicable entry's tolerance may still cover the op.
        match self.within(reference, got, events, terms, true) {
            Some(mut by) if !by.is_empty() => {
                by.sort_unstable();
                by.dedup();
                Verdict::Adapted(by.into_iter().map(String::from).collect())
            }
            _ => Verdict::Mismatch,
        }
    }

    /// [`Judge::word`] for a word whose bits may be free (`free`, from the interpreter's
    /// `free_nan`): two NaNs there are a [`Verdict::Match`] (D3D frees the payload); two zeros
    /// there are adapted by the applicable entries of the `signed-zero` domain (the zero came
    /// from an op whose zero a WGSL compiler may give either sign: `interp::zero_sign`).
    pub fn word_free(
        &self,
        reference: u32,
        got: u32,
        free: bool,
        events: Events,
        terms: Option<f64>,
    ) -> Verdict {
        if nan_payload_free(reference, got, free) {
            return Verdict::Match;
        }
        let zero = |w: u32| w & 0x7fff_ffff == 0;
        if free && reference != got && zero(reference) && zero(got) {
            match self.attribute(crate::domain::Domain::SignedZero.bit()) {
                Verdict::Mismatch => {}
                adapted => return adapted,
            }
        }
        self.word(reference, got, events, terms)
    }

    /// A difference outside every band (or one that is not a word, such as whether a pixel
    /// was discarded): adapted by the applicable entries whose domain the lane entered, else a
    /// mismatch.
    pub fn attribute(&self, events: Events) -> Verdict {
        let ids: Vec<String> = self
            .entries
            .iter()
            .filter(|e| e.allows(events))
            .map(|e| e.id.clone())
            .collect();
        if ids.is_empty() {
            Verdict::Mismatch
        } else {
            Verdict::Adapted(ids)
        }
    }
}

/// Whether `got` is as right as `reference` because D3D leaves the payload free: the reference
/// word is a NaN that a payload-freeing op produced (`free`, see
/// [`crate::interp::frees_nan`]) and both words are f32 NaNs.
pub fn nan_payload_free(reference: u32, got: u32, free: bool) -> bool {
    use crate::rules::float::is_nan;
    free && is_nan(reference) && is_nan(got)
}

/// The catalog entries that apply to a translation claiming `claimed`, run on `executor`, in
/// id order.
pub fn applicable(claimed: &[String], executor: &str) -> Vec<&'static Entry> {
    let mut v: Vec<&'static Entry> = catalog()
        .entries
        .iter()
        .filter(|e| e.applies(claimed, executor))
        .collect();
    v.sort_by(|a, b| a.id.cmp(&b.id));
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Domain;

    const LAVAPIPE: &str = "llvmpipe (LLVM 15)";

    fn program(text: &str) -> Program {
        dxbc::assemble(text).expect("assembles").program
    }

    fn single(op: &str) -> Program {
        program(&format!(
            "ps_5_0\ndcl_input_ps constant v0.xyzw\ndcl_input_ps constant v1.xyzw\ndcl_output o0.xyzw\n{op} o0.xyzw, v0.xyzw, v1.xyzw\nret\n"
        ))
    }

    #[test]
    fn bands_and_attribution() {
        let one = 0x3f80_0000;
        let add = Judge::new(&single("add"), &[], LAVAPIPE);
        assert_eq!(add.word(1, 1, 0, Some(0.0)), Verdict::Match);
        assert_eq!(add.word(one, one + 1, 0, Some(0.0)), Verdict::Mismatch);
        // div allows 3 ULP (its D3D band), add none.
        let div = Judge::new(&single("div"), &[], LAVAPIPE);
        assert_eq!(div.word(one, one + 3, 0, Some(0.0)), Verdict::Within);
        assert_eq!(div.word(one, one + 4, 0, Some(0.0)), Verdict::Mismatch);
        // A difference is adapted only when the lane entered a domain of a claimed entry.
        let ftou =
            program("ps_5_0\ndcl_input_ps constant v0.x\ndcl_output o0.x\nftou o0.x, v0.x\nret\n");
        let ev = Domain::FtouOverflow.bit();
        let claimed = vec!["adapted/numeric-conversion-edges".to_string()];
        let claims = Judge::new(&ftou, &claimed, LAVAPIPE);
        assert_eq!(
            claims.word(0xffff_ffff, 0xffff_ff00, ev, Some(0.0)),
            Verdict::Adapted(claimed.clone())
        );
        assert_eq!(
            claims.word(0xffff_ffff, 0xffff_ff00, 0, Some(0.0)),
            Verdict::Mismatch
        );
        let none = Judge::new(&ftou, &[], LAVAPIPE);
        assert_eq!(
            none.word(0xffff_ffff, 0xffff_ff00, ev, Some(0.0)),
            Verdict::Mismatch
        );
        // An executor-scoped entry applies on its executor only, claimed or not.
        let tiny = Domain::TinyBeforeRounding.bit();
        let mul = single("mul");
        assert_eq!(
            Judge::new(&mul, &[], "NVIDIA H200").word(0x8080_0000, 0x8000_0000, tiny, Some(0.0)),
            Verdict::Adapted(vec!["dxdiff/ftz-before-rounding".into()])
        );
        assert_eq!(
            Judge::new(&mul, &[], LAVAPIPE).word(0x8080_0000, 0x8000_0000, tiny, Some(0.0)),
            Verdict::Mismatch
        );
        // What D3D leaves undefined is allowed for everyone.
        assert_eq!(
            Judge::new(&mul, &[], LAVAPIPE).attribute(Domain::D3dUndefined.bit()),
            Verdict::Adapted(vec!["dxdiff/d3d-undefined".into()])
        );
    }

    #[test]
    fn programs_sum_their_bands() {
        let one = 0x3f80_0000;
        let p = program(
            "ps_5_0\ndcl_input_ps constant v0.xyzw\ndcl_output o0.xyzw\ndcl_temps 1\nsqrt r0.xyzw, v0.xyzw\nsqrt o0.xyzw, r0.xyzw\nret\n",
        );
        let j = Judge::new(&p, &[], LAVAPIPE);
        assert_eq!(j.word(one, one + 2, 0, Some(0.0)), Verdict::Within);
        assert_eq!(j.word(one, one + 3, 0, Some(0.0)), Verdict::Mismatch);
        // Beyond 100π, D3D's sincos band is Any: D3D's own answer, not an adaptation.
        let s = program(
            "ps_5_0\ndcl_input_ps constant v0.x\ndcl_output o0.x\nsincos o0.x, null, v0.x\nret\n",
        );
        let j = Judge::new(&s, &[], LAVAPIPE);
        let far = Domain::SinCosOutside100Pi.bit() | Domain::SinCosOutsidePi.bit();
        assert_eq!(j.word(one, 0, far, Some(0.0)), Verdict::Within);
        assert_eq!(j.word(one, 0, 0, Some(0.0)), Verdict::Mismatch);
    }

    #[test]
    fn claimed_tolerances_widen_the_band_for_the_ops_they_cover() {
        let one = 0x3f80_0000;
        let exp =
            program("ps_5_0\ndcl_input_ps constant v0.x\ndcl_output o0.x\nexp o0.x, v0.x\nret\n");
        // 6 ULP at 1.0: outside D3D's 2^-21 relative band, inside WGSL's exp2 accuracy that
        // dxdiff/builtin-accuracy states (9 ULP).
        let acc = vec!["dxdiff/builtin-accuracy".to_string()];
        assert_eq!(
            Judge::new(&exp, &acc, LAVAPIPE).word(one, one + 6, 0, Some(0.0)),
            Verdict::Adapted(acc.clone())
        );
        assert_eq!(
            Judge::new(&exp, &[], LAVAPIPE).word(one, one + 6, 0, Some(0.0)),
            Verdict::Mismatch
        );
        assert_eq!(
            Judge::new(&exp, &acc, LAVAPIPE).word(one, one + 10, 0, Some(0.0)),
            Verdict::Mismatch
        );
        // An entry widens only the ops it covers: add is not builtin-accuracy's.
        let add = single("add");
        assert_eq!(
            Judge::new(&add, &acc, LAVAPIPE).word(one, one + 1, 0, Some(0.0)),
            Verdict::Mismatch
        );
    }

    #[test]
    fn fused_terms_come_from_the_inputs() {
        let mad = program(
            "ps_5_0\ndcl_input_ps constant v0.xyzw\ndcl_input_ps constant v1.xyzw\ndcl_input_ps constant v2.xyzw\ndcl_output o0.xyzw\nmad o0.xyzw, v0.xyzw, v1.yyyy, v2.xyzw\nret\n",
        );
        let j = Judge::new(&mad, &[], LAVAPIPE);
        let f = |x: f32| x.to_bits();
        let inputs = [
            [f(2.0), f(0.0), f(0.0), f(0.0)],
            [f(9.0), f(-3.0), f(0.0), f(0.0)],
            [f(1.0), f(0.0), f(0.0), f(0.0)],
        ];
        // |2 * -3| + |1| = 7 (v1 is read through .yyyy).
        assert_eq!(j.terms(&inputs, 0), Some(7.0));
        let sqrt =
            program("ps_5_0\ndcl_input_ps constant v0.x\ndcl_output o0.x\nsqrt o0.x, v0.x\nret\n");
        assert_eq!(
            Judge::new(&sqrt, &[], LAVAPIPE).terms(&inputs, 0),
            Some(0.0)
        );
        let two = program(
            "ps_5_0\ndcl_input_ps constant v0.x\ndcl_output o0.x\ndcl_temps 1\nsqrt r0.x, v0.x\nsqrt o0.x, r0.x\nret\n",
        );
        assert_eq!(Judge::new(&two, &[], LAVAPIPE).terms(&inputs, 0), None);
    }

    #[test]
    fn free_zero_signs_are_adapted_where_claimed() {
        let p = single("add");
        let claimed = Judge::new(&p, &["dxdiff/signed-zero".to_string()], LAVAPIPE);
        let plain = Judge::new(&p, &[], LAVAPIPE);
        let (pos, neg) = (0u32, 0x8000_0000u32);
        assert_eq!(
            claimed.word_free(pos, neg, true, 0, None),
            Verdict::Adapted(vec!["dxdiff/signed-zero".to_string()])
        );
        assert_eq!(plain.word_free(pos, neg, true, 0, None), Verdict::Mismatch);
        // Not flagged, or not two zeros: judged as any word.
        assert_eq!(
            claimed.word_free(pos, neg, false, 0, None),
            Verdict::Mismatch
        );
        assert_eq!(
            claimed.word_free(pos, 0x3f80_0000, true, 0, None),
            Verdict::Mismatch
        );
    }

    #[test]
    fn free_nan_payloads_match() {
        assert!(nan_payload_free(0x7fc0_0000, 0xffc0_0001, true));
        assert!(!nan_payload_free(0x7fc0_0000, 0xffc0_0001, false));
        assert!(
            !nan_payload_free(0x7fc0_0000, 0x7f80_0000, true),
            "inf is no NaN"
        );
        let j = Judge::new(&single("add"), &[], LAVAPIPE);
        assert_eq!(
            j.word_free(0x7fc0_0000, 0x7fc0_1234, true, 0, None),
            Verdict::Match
        );
        assert_eq!(
            j.word_free(0x7fc0_0000, 0x7fc0_1234, false, 0, None),
            j.word(0x7fc0_0000, 0x7fc0_1234, 0, None)
        );
    }

    #[test]
    fn worst_merges_entries() {
        let a = Verdict::Adapted(vec!["b".into()]);
        let b = Verdict::Adapted(vec!["a".into(), "b".into()]);
        assert_eq!(a.worst(b), Verdict::Adapted(vec!["a".into(), "b".into()]));
        assert_eq!(Verdict::Within.worst(Verdict::Mismatch), Verdict::Mismatch);
        assert_eq!(
            Verdict::Mismatch.worst(Verdict::Inconclusive(Inconclusive::Budget)),
            Verdict::Mismatch
        );
        assert_eq!(Verdict::Match.worst(Verdict::Within), Verdict::Within);
    }

    #[test]
    fn skip_kinds_round_trip() {
        for k in SkipKind::ALL {
            assert_eq!(SkipKind::parse(k.as_str()), Some(k));
            let json = serde_json::to_string(&k).expect("serializes");
            assert_eq!(json, format!("\"{}\"", k.as_str()));
        }
        assert_eq!(SkipKind::parse("nonsense"), None);
    }
}
