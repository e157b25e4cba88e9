//! Counterexamples as `dxdiff-case/1` files: one vector of a program, with the reference's
//! results as its expectations, so that `dxdiff replay --executor gpu` reproduces the
//! mismatch.

use std::collections::BTreeMap;

use oracles::case::{
    BufferDesc, CaseFile, Expect, Input, Run, SamplerDesc, TextureDesc, Word, register_key,
};
use oracles::interp::{Sampler, Srv};

use crate::exec::{Batch, Results};

/// Words of `words` up to the last nonzero one.
fn trimmed(words: &[u32]) -> &[u32] {
    let used = words.iter().rposition(|w| *w != 0).map_or(0, |p| p + 1);
    &words[..used]
}

/// Vector `k` of a generated `batch` as a one-run case (generated buffers are untyped, so no
/// `format` is written; a case file's own run is saved from the file instead): `v#`, `cb#`
/// (trailing zero words trimmed), `t#` and `u#` inputs, the dispatch of a compute program, and
/// as expectations the reference's results for the same vector: invocation `observe`'s output
/// registers in `outputs` (or `discarded`), and every UAV. A vector of several invocations (a
/// quad) is written as the run's `invocations`, and `observe` as its `expect_invocation`.
pub fn case_of(
    name: &str,
    blob: &[u8],
    batch: &Batch,
    (k, observe): (usize, usize),
    reference: &Results,
    outputs: &[usize],
    source: &str,
) -> CaseFile {
    let rk = k;
    let res = batch.resources_of(k);
    let mut inputs = BTreeMap::new();
    let mut invocations = None;
    if batch.invocations == 1 {
        for (reg, v) in batch.invocation(k, 0).iter().enumerate() {
            inputs.insert(register_key("v", reg as u32), Input::Words(Word::list(v)));
        }
    } else if batch.regs > 0 {
        invocations = Some(
            (0..batch.invocations)
                .map(|i| {
                    batch
                        .invocation(k, i)
                        .iter()
                        .enumerate()
                        .map(|(reg, v)| (register_key("v", reg as u32), Word::list(v)))
                        .collect()
                })
                .collect(),
        );
    }
    for (reg, cb) in &res.cbs {
        inputs.insert(format!("cb{reg}"), Input::Words(Word::list(trimmed(cb))));
    }
    for (reg, srv) in &res.srvs {
        let input = match srv {
            Srv::Buffer(b) => Input::Buffer(BufferDesc {
                size_bytes: b.size_bytes,
                words: Word::list(&b.words),
                format: None,
                counter: None,
            }),
            Srv::Texture2d(t) => Input::Texture {
                texture2d: TextureDesc {
                    width: t.width,
                    height: t.height,
                    format: t.format.name().into(),
                    mips: t.mips.iter().map(|m| Word::list(m)).collect(),
                    // A cube array's `layers` counts cubes.
                    layers: t.array().then_some(if t.cube() {
                        t.layer_count() / 6
                    } else {
                        t.layer_count()
                    }),
                    cube: t.cube(),
                    depth: t.volume().then_some(t.layer_count()),
                    texture1d: t.line(),
                    samples: t.multisampled().then_some(t.layer_count()),
                },
            },
        };
        inputs.insert(format!("t{reg}"), input);
    }
    for (reg, s) in &res.samplers {
        inputs.insert(
            format!("s{reg}"),
            Input::Sampler(SamplerDesc {
                compare: s.compare.map(|c| c.name().to_string()),
                filter: match (s.linear, s.max_anisotropy > 1) {
                    (true, true) => "anisotropic",
                    (true, false) => "linear",
                    _ => "point",
                }
                .into(),
                max_anisotropy: (s.max_anisotropy > 1).then_some(s.max_anisotropy),
                address: s.address.iter().map(|a| a.name().to_string()).collect(),
                border: Word::list(&s.border),
                min_lod: (s.lod_clamp.0 != Sampler::NO_LOD_CLAMP.0).then_some(s.lod_clamp.0),
                max_lod: (s.lod_clamp.1 != Sampler::NO_LOD_CLAMP.1).then_some(s.lod_clamp.1),
            }),
        );
    }
    for (reg, b) in &res.uavs {
        let input = match b.texture {
            Some(t) => Input::Texture {
                texture2d: TextureDesc {
                    width: t.width,
                    height: t.height,
                    format: t.format.name().into(),
                    mips: vec![Word::list(&b.words)],
                    layers: t.view.array().then_some(t.layers.max(1)),
                    cube: false,
                    depth: (t.view == oracles::interp::TextureShape::Volume)
                        .then_some(t.layers.max(1)),
                    texture1d: t.view.line(),
                    samples: None,
                },
            },
            None => Input::Buffer(BufferDesc {
                size_bytes: b.size_bytes,
                words: Word::list(&b.words),
                format: None,
                counter: res.counters.get(reg).map(|c| Word(*c)),
            }),
        };
        inputs.insert(format!("u{reg}"), input);
    }
    let mut expect = BTreeMap::new();
    if reference.discarded_of(rk, observe) {
        expect.insert("discarded".to_string(), Expect::Discarded(true));
    } else {
        let o = reference.outputs_of(rk, observe);
        for &reg in outputs {
            let v = o.get(reg).copied().unwrap_or([0; 4]);
            expect.insert(register_key("o", reg as u32), Expect::bits(&v));
        }
    }
    if let Some(uavs) = reference.uavs.get(rk) {
        for (reg, words) in uavs {
            expect.insert(format!("u{reg}"), Expect::bits(words));
        }
    }
    let compute = batch.regs == 0 && batch.invocations == 1 && !res.uavs.is_empty();
    let run = Run {
        inputs,
        dispatch: compute.then_some(batch.groups),
        expect_invocation: (invocations.is_some() && observe > 0).then_some(observe),
        invocations,
        expect: Some(expect),
        source: Some(source.to_string()),
        ..Run::new("mismatch")
    };
    CaseFile::single(name, blob, run)
}
