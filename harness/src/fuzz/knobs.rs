//! The generator's knobs for a campaign: what the translator accepts ([`narrow`]: every opcode
//! and feature probed once), what the Shader Model allows ([`for_model`]), and a guided
//! campaign's aim at the catalog cells not yet reached ([`guide`]). The campaign loop
//! (`super`) draws programs from what these leave.

use generators::random::{self, Knobs, RandomProgram, Stmt};

use crate::translators::{Failure, Translator};

/// Programs between two choices of a guided campaign's aim.
pub const GUIDE_EVERY: u64 = 8;
/// Opcodes a guided campaign aims at at once.
const GUIDE_OPS: usize = 3;
/// The share (percent) of instruction draws a guided campaign's aim takes.
pub(super) const GUIDE_SHARE: u32 = 30;

/// A guided campaign's next aim: the opcodes the generator may draw (`knobs`) with the most
/// catalog cells (`reports::coverage`, counted per stage of the campaign) that no program has
/// reached yet, ties broken by the opcode's name. The interpreter's domain events are the
/// coverage signal, as new edges are a coverage-guided fuzzer's. Empty when every cell of a
/// drawable opcode is reached.
pub fn guide(
    knobs: &Knobs,
    coverage: &std::collections::BTreeMap<String, u64>,
) -> Vec<dxbc::Opcode> {
    let drawn: Vec<dxbc::Opcode> = random::rows()
        .iter()
        .map(|r| r.opcode)
        .filter(|o| !knobs.excluded.contains(o))
        .collect();
    let stages: Vec<&str> = knobs.stages.iter().map(|s| s.prefix()).collect();
    let mut open: std::collections::BTreeMap<&str, usize> = Default::default();
    let cells = reports::coverage::universe();
    for (op, d) in cells {
        for s in &stages {
            if !coverage.contains_key(&format!("{s} {op} {}", d.id())) {
                *open.entry(op.as_str()).or_default() += 1;
            }
        }
    }
    let mut ranked: Vec<(usize, dxbc::Opcode)> = drawn
        .iter()
        .filter_map(|o| open.get(o.mnemonic()).map(|n| (*n, *o)))
        .collect();
    ranked.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.mnemonic().cmp(b.1.mnemonic())));
    ranked.into_iter().take(GUIDE_OPS).map(|(_, o)| o).collect()
}

/// Narrow the knobs to what the translator accepts: every opcode row is probed with its
/// single-instruction program, every feature with a small program using it. A rejection
/// removes the opcode or feature; anything else (a crash too) keeps it, so a crash stays a
/// finding. Each removal names the translator's reason (`opcode msad ([dxdiff/refused] …)`),
/// so a user can tell a stage dropped for the translator's reason from one dropped for
/// dxdiff's.
pub fn narrow(t: &dyn Translator, knobs: &Knobs) -> (Knobs, Vec<String>) {
    let mut k = knobs.clone();
    let mut removed = Vec::new();
    // The rejection's catalog id and reason, when the translator refuses the probe.
    let rejects = |blob: &[u8]| -> Option<String> {
        let shader = dxbc::Shader::parse(blob).ok()?;
        match t.translate(blob, &shader) {
            Err(f @ Failure::Rejected { .. }) => Some(f.skip().detail),
            _ => None,
        }
    };
    let rows = random::rows();
    // A double row's probe is verify's built-in program of it (no single-instruction form).
    let doubles = generators::programs::doubles();
    let double_blob = |op: dxbc::Opcode| {
        let (_, text) = doubles.iter().find(|(m, _)| *m == op.mnemonic())?;
        Some(dxbc::assemble_container(text).ok()?.to_bytes())
    };
    let blobs: Vec<(dxbc::Opcode, Option<Vec<u8>>)> = rows
        .iter()
        .map(|r| {
            let blob = generators::programs::single(r.opcode)
                .map(|s| s.blob)
                .or_else(|| double_blob(r.opcode));
            (r.opcode, blob)
        })
        .collect();
    let verdicts =
        crate::parallel::par_map(&blobs, |(_, b)| b.as_deref().and_then(rejects), || None);
    for ((op, _), rejected) in blobs.iter().zip(verdicts) {
        if let Some(why) = rejected
            && !k.excluded.contains(op)
        {
            k.excluded.push(*op);
            removed.push(format!("opcode {} ({why})", op.mnemonic()));
        }
    }
    // A move whose lanes instructions of two types wrote (an integer result beside float
    // ones, moved to the output whole): a translator that refuses it gets every move split
    // per component, and the probes below are split too.
    let mixed = RandomProgram {
        stage: dxbc::Stage::Pixel,
        temps: 1,
        threads: [1, 1, 1],
        body: vec![Stmt::Op(random::Op {
            opcode: dxbc::Opcode::Ftou,
            sat: false,
            dst: vec![Some((0, 1))],
            src: vec![random::Src {
                reg: random::Reg::Temp(0),
                swizzle: [0, 1, 2, 3],
                neg: false,
                abs: false,
            }],
        })],
        oob_indices: false,
        split_moves: false,
        shader_model: dxbc::TargetModel::Sm50,
    };
    if let Some(why) = mixed.blob().ok().as_deref().and_then(rejects) {
        removed.push(format!(
            "feature mixed-lane moves, every move now one component ({why})"
        ));
        k.split_moves = true;
    }
    let split = k.split_moves;
    // Features, each probed alone in the smallest program that has it.
    let probe = |stage: dxbc::Stage, body: Vec<Stmt>| RandomProgram {
        stage,
        temps: 1,
        threads: if stage == dxbc::Stage::Compute {
            [4, 1, 1]
        } else {
            [1, 1, 1]
        },
        body,
        oob_indices: false,
        split_moves: split,
        shader_model: dxbc::TargetModel::Sm50,
    };
    let src = |reg: random::Reg| random::Src {
        reg,
        swizzle: [0; 4],
        neg: false,
        abs: false,
    };
    let t0 = || src(random::Reg::Temp(0));
    let texture_read = |opcode: dxbc::Opcode| Stmt::TextureRead {
        opcode,
        dst: (0, 15),
        coords: t0(),
        lod: t0(),
    };
    let evaluate = |opcode: dxbc::Opcode| Stmt::Evaluate {
        opcode,
        dst: (0, 15),
        attribute: src(random::Reg::Input(0)),
        offset: src(random::Reg::Imm([1, 2, 0, 0])),
    };
    let mov = |s: random::Src| {
        Stmt::Op(random::Op {
            opcode: dxbc::Opcode::Mov,
            sat: false,
            dst: vec![Some((0, 1))],
            src: vec![s],
        })
    };
    use dxbc::Stage::{Compute, Pixel, Vertex};
    let features: Vec<(&str, RandomProgram)> = vec![
        ("stage pixel", probe(Pixel, vec![mov(t0())])),
        ("stage vertex", probe(Vertex, vec![mov(t0())])),
        ("stage compute", probe(Compute, vec![mov(t0())])),
        (
            "flow",
            probe(
                Pixel,
                vec![Stmt::Loop {
                    trips: 2,
                    body: vec![Stmt::If {
                        nonzero: true,
                        cond: t0(),
                        then: vec![Stmt::BreakC {
                            nonzero: true,
                            cond: t0(),
                        }],
                        otherwise: None,
                    }],
                }],
            ),
        ),
        (
            "switch without default",
            probe(
                Pixel,
                vec![Stmt::Switch {
                    sel: t0(),
                    cases: vec![(0, vec![mov(src(random::Reg::Input(1)))])],
                    default: None,
                }],
            ),
        ),
        (
            "switch",
            probe(
                Pixel,
                vec![Stmt::Switch {
                    sel: t0(),
                    cases: vec![(0, vec![mov(t0())])],
                    default: Some(vec![mov(t0())]),
                }],
            ),
        ),
        (
            "cb indexing",
            probe(Pixel, vec![mov(src(random::Reg::CbDyn(Box::new(t0()))))]),
        ),
        (
            "icb",
            probe(Pixel, vec![mov(src(random::Reg::IcbDyn(Box::new(t0()))))]),
        ),
        (
            "indexable temps",
            probe(
                Pixel,
                vec![
                    Stmt::IndexableStore {
                        index: t0(),
                        mask: 1,
                        value: t0(),
                    },
                    mov(src(random::Reg::IndexableDyn(Box::new(t0())))),
                ],
            ),
        ),
        (
            "discard",
            probe(
                Pixel,
                vec![Stmt::Discard {
                    nonzero: true,
                    cond: t0(),
                }],
            ),
        ),
        (
            "tgsm",
            probe(
                Compute,
                vec![Stmt::Exchange {
                    dst: (0, 1),
                    value: t0(),
                    sel: t0(),
                }],
            ),
        ),
        (
            "atomics",
            probe(
                Compute,
                vec![Stmt::Atomic {
                    opcode: dxbc::Opcode::AtomicIadd,
                    address: t0(),
                    value: t0(),
                }],
            ),
        ),
        (
            "buffers",
            probe(
                Compute,
                vec![
                    Stmt::SrvLoad {
                        dst: (0, 1),
                        index: t0(),
                        in_range: true,
                        offset: 0,
                    },
                    Stmt::UavStore {
                        in_range: true,
                        mask: 1,
                        value: t0(),
                        texture: false,
                    },
                ],
            ),
        ),
        (
            "texture ld",
            probe(Pixel, vec![texture_read(dxbc::Opcode::Ld)]),
        ),
        (
            "texture sample_l",
            probe(Pixel, vec![texture_read(dxbc::Opcode::SampleL)]),
        ),
        (
            "texture gather4",
            probe(Pixel, vec![texture_read(dxbc::Opcode::Gather4)]),
        ),
        (
            "evaluation eval_snapped",
            probe(Pixel, vec![evaluate(dxbc::Opcode::EvalSnapped)]),
        ),
        (
            "evaluation eval_sample_index",
            probe(Pixel, vec![evaluate(dxbc::Opcode::EvalSampleIndex)]),
        ),
        (
            "evaluation eval_centroid",
            probe(Pixel, vec![evaluate(dxbc::Opcode::EvalCentroid)]),
        ),
        (
            "uav textures",
            probe(
                Compute,
                vec![Stmt::UavStore {
                    in_range: true,
                    mask: 15,
                    value: t0(),
                    texture: true,
                }],
            ),
        ),
    ];
    for (name, p) in features {
        let Ok(blob) = p.blob() else { continue };
        let Some(why) = rejects(&blob) else {
            continue;
        };
        removed.push(format!("feature {name} ({why})"));
        match name {
            "stage pixel" => k.stages.retain(|s| *s != Pixel),
            "stage vertex" => k.stages.retain(|s| *s != Vertex),
            "stage compute" => k.stages.retain(|s| *s != Compute),
            "flow" | "switch" => k.depth = 0,
            "switch without default" => k.switch_defaults = true,
            "cb indexing" => k.cb_indexing = false,
            "icb" => k.icb = false,
            "indexable temps" => k.indexable_temps = false,
            "discard" => k.discard = false,
            "tgsm" => k.tgsm = false,
            "atomics" => k.atomics = false,
            "uav textures" => k.uav_textures = false,
            "texture ld" => k.excluded.push(dxbc::Opcode::Ld),
            "texture sample_l" => k.excluded.push(dxbc::Opcode::SampleL),
            "texture gather4" => k.excluded.push(dxbc::Opcode::Gather4),
            "evaluation eval_snapped" => k.excluded.push(dxbc::Opcode::EvalSnapped),
            "evaluation eval_sample_index" => k.excluded.push(dxbc::Opcode::EvalSampleIndex),
            "evaluation eval_centroid" => k.excluded.push(dxbc::Opcode::EvalCentroid),
            _ => k.buffers = false,
        }
    }
    (k, removed)
}

/// The knobs for programs of Shader Model `model`: below 5.0 no compute stage (dxdiff writes
/// no `cs_4_x`) and no opcode of a later model, each named in the narrowing.
pub(super) fn for_model(
    mut k: Knobs,
    mut narrowed: Vec<String>,
    model: dxbc::TargetModel,
) -> (Knobs, Vec<String>) {
    k.shader_model = model;
    if model == dxbc::TargetModel::Sm50 {
        return (k, narrowed);
    }
    if k.stages.contains(&dxbc::Stage::Compute) {
        k.stages.retain(|s| *s != dxbc::Stage::Compute);
        narrowed.push(format!("stage compute (--shader-model {model})"));
    }
    let later: Vec<dxbc::Opcode> = random::rows()
        .iter()
        .map(|r| r.opcode)
        .filter(|op| !model.allows_model(op.info().model) && !k.excluded.contains(op))
        .collect();
    if !later.is_empty() {
        narrowed.push(format!(
            "opcodes of a later model than {model}: {}",
            later
                .iter()
                .map(|o| o.mnemonic())
                .collect::<Vec<_>>()
                .join(" ")
        ));
        k.excluded.extend(later);
    }
    (k, narrowed)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With nothing reached, the aim is the drawable opcodes with the most catalog cells; once
    /// their cells are reached, it moves on to others; an excluded opcode is never aimed at.
    #[test]
    fn the_guide_aims_at_the_opcodes_with_the_most_cells_left() {
        let k = Knobs::default();
        let first = guide(&k, &Default::default());
        assert_eq!(first.len(), GUIDE_OPS);
        let mut coverage = std::collections::BTreeMap::new();
        for (op, d) in reports::coverage::universe() {
            if first.iter().any(|o| o.mnemonic() == op) {
                for stage in ["ps", "vs", "cs"] {
                    coverage.insert(format!("{stage} {op} {}", d.id()), 1);
                }
            }
        }
        let next = guide(&k, &coverage);
        assert!(
            next.iter().all(|o| !first.contains(o)),
            "{first:?} then {next:?}"
        );
        let narrowed = Knobs {
            excluded: next.clone(),
            ..Knobs::default()
        };
        let third = guide(&narrowed, &coverage);
        assert!(
            third
                .iter()
                .all(|o| !next.contains(o) && !first.contains(o))
        );
    }

    #[test]
    fn a_shader_model_below_five_leaves_out_compute_and_later_opcodes() {
        let (k, said) = for_model(Knobs::default(), Vec::new(), dxbc::TargetModel::Sm40);
        assert!(!k.stages.contains(&dxbc::Stage::Compute));
        assert!(k.excluded.contains(&dxbc::Opcode::Bfi), "{:?}", k.excluded);
        assert!(!k.excluded.contains(&dxbc::Opcode::Add));
        assert_eq!(said.len(), 2, "{said:?}");
        // Every program drawn then fits the model.
        for i in 0..40 {
            let (_, p) = random::nth(&k, 3, i);
            let blob = p.blob().expect("lowers");
            let shader = dxbc::Shader::parse(&blob).expect("parses");
            assert_eq!(shader.program.version.major, 4);
            assert!(
                dxbc::retarget(&blob, dxbc::TargetModel::Sm40)
                    .expect("decodes")
                    .is_some()
            );
        }
        let (k5, said5) = for_model(Knobs::default(), Vec::new(), dxbc::TargetModel::Sm50);
        assert_eq!(k5, Knobs::default());
        assert!(said5.is_empty());
    }
}
