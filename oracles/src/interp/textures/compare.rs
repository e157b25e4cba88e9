//! Comparison sampling (`sample_c`, `sample_c_lz`, `gather4_c`): each texel a filter weighs is
//! compared with the shader's reference by the sampler's function first, giving 1.0 or 0.0, and
//! those results are filtered like texels (percentage-closer filtering, FS §7.18.7).
//!
//! The interpreter builds the texture of comparison results and samples it by the ordinary
//! rules. Where D3D leaves a texel's comparison open, it builds two, one with the open texels
//! failing and one with them passing: the lane is exact where both give the same answer, and
//! enters `filter-precision` where they do not.

use dxbc::{Instruction, Opcode};

use super::InterpError;
use super::filter::{ANY_LOD, gather, lod_probes, position, sample};
use crate::domain::{Domain, raise};
use crate::interp::machine::{Consumer, Machine};
use crate::interp::resources::{Compare, Srv, TexelFormat, Texture2d};
use crate::rules::float as fl;

/// The comparison of `reference` with every texel of `t` by `f`, as two R32_FLOAT textures of
/// 1.0 (passes) and 0.0 (fails): the first takes an open comparison as failing, the second as
/// passing.
///
/// A comparison is open where a device may compare otherwise than in f32: for a UNORM format,
/// where the reference clamped to [0, 1] (Vulkan clamps it; D3D's text does not say) or
/// converted to the format's codes (a device may compare in fixed point) compares otherwise;
/// and against a NaN reference, which D3D gives no rule for.
fn results(t: &Texture2d, f: Compare, reference: f32) -> (Texture2d, Texture2d) {
    let unorm = t.format == TexelFormat::D16Unorm;
    let words = t.format.words();
    // The references a device may compare with instead: for a UNORM format the reference
    // clamped to [0, 1] and converted to the format's codes, rounded either way or to nearest
    // (the H200 passed `equal` for 2^-126 against a 0 texel: it compares codes).
    let alternatives: Vec<f32> = if unorm {
        let c = f64::from(reference.clamp(0.0, 1.0)) * 65535.0;
        [c.floor(), c.round(), c.ceil()]
            .iter()
            .map(|code| (code / 65535.0) as f32)
            .chain([reference.clamp(0.0, 1.0)])
            .collect()
    } else {
        Vec::new()
    };
    let pass = |texel: f32, r: f32| f.passes(r, texel);
    let map = |open_passes: bool| -> Vec<Vec<u32>> {
        t.mips
            .iter()
            .map(|level| {
                level
                    .chunks(words)
                    .map(|w| {
                        let texel = f32::from_bits(t.format.decode(w)[0]);
                        let exact = pass(texel, reference);
                        // A NaN reference compares by no rule D3D states (lavapipe passes
                        // `greater` with it): open wherever the function looks at it.
                        let open = (reference.is_nan()
                            && !matches!(f, Compare::Never | Compare::Always))
                            || alternatives.iter().any(|r| pass(texel, *r) != exact);
                        let passes = if open { open_passes } else { exact };
                        if passes { 0x3f80_0000 } else { 0 }
                    })
                    .collect()
            })
            .collect()
    };
    let derived = |mips| Texture2d {
        width: t.width,
        height: t.height,
        layers: t.layers,
        view: t.view,
        mips,
        format: TexelFormat::R32Float,
    };
    (derived(map(false)), derived(map(true)))
}

impl Machine<'_> {
    /// `sample_c`, `sample_c_lz` and `gather4_c` of a 2D texture, array or cube.
    /// `programmable`: per-lane texel offsets (`gather4_po_c`'s), in place of the immediate
    /// ones.
    pub(super) fn compare_op(
        &mut self,
        inst: &Instruction,
        at: usize,
        programmable: Option<&[[i8; 3]]>,
    ) -> Result<(), InterpError> {
        let ops = &inst.operands;
        let lanes = self.lanes;
        let coords = self.lane_vec(&ops[1], Consumer::Float, at)?;
        let (t, smp) = (super::slot(&ops[2], at)?, super::slot(&ops[3], at)?);
        let mut reference = vec![0u32; lanes];
        self.read(&ops[4], 0, Consumer::Float, at, &mut reference)?;
        let sampler = self.res.samplers.get(&smp).cloned().unwrap_or_default();
        let offsets = inst.sample_offsets().unwrap_or([0; 3]);
        let active: Vec<usize> = self.active.lanes().collect();
        let mut texels = vec![[0u32; 4]; lanes];
        if let Some(Srv::Texture2d(tex)) = self.res.srvs.get(&t) {
            if tex.volume() || tex.line() {
                return Err(InterpError::Unsupported {
                    index: at,
                    what: "comparison sampling of a 3D or 1D texture".into(),
                });
            }
            // A sampler without a function is D3D's error; the interpreter reads it as `never`
            // would not tell a translator anything, so it refuses the run.
            // `gather4_c` through `s#.y` (GatherCmpGreen and so on) compares a channel a
            // depth texture reads as 0 or 1: no translation to WGSL can choose it.
            if inst.opcode == Opcode::Gather4C && super::source_component(&ops[3], 0) != 0 {
                return Err(InterpError::Unsupported {
                    index: at,
                    what: "`gather4_c` of a channel other than red".into(),
                });
            }
            let Some(f) = sampler.compare else {
                return Err(InterpError::Unsupported {
                    index: at,
                    what: "a comparison through a sampler without a comparison function".into(),
                });
            };
            // The textures of comparison results, once per distinct reference: building them
            // reads every texel, and a batch's lanes share few references.
            let mut built: std::collections::HashMap<u32, (Texture2d, Texture2d)> =
                std::collections::HashMap::new();
            for &l in &active {
                let ev = &mut self.scratch_ev[l];
                let f32_of = |w: u32| f32::from_bits(fl::ftz(w));
                let r = f32_of(reference[l]);
                if r.is_nan() {
                    raise(ev, Domain::NanInput);
                }
                // D3D flushes a denormal reference to 0 first; a device that keeps it passes
                // `greater` for 2^-149 against a 0 texel (lavapipe).
                if f32::from_bits(reference[l]).is_subnormal() {
                    raise(ev, Domain::DenormInputFlushed);
                }
                let offsets = programmable.map_or(offsets, |p| p[l]);
                let pos = position(tex, [0, 1, 2, 3].map(|c| coords[c][l]), offsets, ev);
                let (lo, hi) = &*built
                    .entry(r.to_bits())
                    .or_insert_with(|| results(tex, f, r));
                let (a, b) = match inst.opcode {
                    // The comparisons of the footprint's texels: channel 0 of the results.
                    Opcode::Gather4C => (
                        gather(lo, &sampler, &pos, 0, ev),
                        gather(hi, &sampler, &pos, 0, ev),
                    ),
                    Opcode::SampleCLz => (
                        sample(lo, &sampler, &pos, 0.0, ev),
                        sample(hi, &sampler, &pos, 0.0, ev),
                    ),
                    // `sample_c`'s LOD comes from the quad; the interpreter takes any level,
                    // so the lane is exact where every level agrees (a shadow map has one).
                    _ => {
                        let got = sample(lo, &sampler, &pos, ANY_LOD.1, ev);
                        let mut scratch = 0;
                        let levels = tex.mips.len();
                        // Both textures at every level: an open texel of another level passes
                        // in the second only.
                        let differs = lod_probes(ANY_LOD.0, ANY_LOD.2, levels).iter().any(|x| {
                            [lo, hi]
                                .iter()
                                .any(|t| sample(t, &sampler, &pos, *x, &mut scratch) != got)
                        });
                        // An anisotropic footprint is the implementation's, as for `sample`.
                        if differs || sampler.max_anisotropy > 1 {
                            raise(ev, Domain::FilterPrecision);
                        }
                        (got, sample(hi, &sampler, &pos, ANY_LOD.1, ev))
                    }
                };
                if a != b {
                    raise(ev, Domain::FilterPrecision);
                }
                texels[l] = a;
            }
        }
        self.write_texels(&ops[0], &ops[2], &texels, at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interp::resources::TextureShape;

    fn depth(codes: &[u32]) -> Texture2d {
        Texture2d {
            width: codes.len() as u32,
            height: 1,
            layers: 1,
            view: TextureShape::Plain,
            mips: vec![codes.to_vec()],
            format: TexelFormat::D16Unorm,
        }
    }

    #[test]
    fn each_texel_compares_and_the_open_ones_differ() {
        let t = depth(&[0, 32768, 65535]);
        let one = 0x3f80_0000;
        // 0.25 <= texel: fails against 0, passes against ~0.5 and 1.
        let (lo, hi) = results(&t, Compare::LessEqual, 0.25);
        assert_eq!(
            (lo.mips[0].clone(), hi.mips[0].clone()),
            (vec![0, one, one], vec![0, one, one])
        );
        // A reference of exactly 32768/65535 equals the middle texel's code: open for `less`.
        let (lo, hi) = results(&t, Compare::Less, 32768.0 / 65535.0);
        assert_eq!(lo.mips[0], vec![0, 0, one]);
        assert_eq!(hi.mips[0], vec![0, one, one]);
        // 1.5 >= 1.0 either way; 1.5 <= 1.0 fails but its clamp (1.0) passes: open.
        let (lo, hi) = results(&t, Compare::LessEqual, 1.5);
        assert_eq!((lo.mips[0][2], hi.mips[0][2]), (0, one));
        let (lo, hi) = results(&t, Compare::GreaterEqual, 1.5);
        assert_eq!(lo.mips[0], hi.mips[0]);
        // 2^-126 is no 0.0, but its code is 0: `equal` is open against a 0 texel.
        let (lo, hi) = results(&t, Compare::Equal, f32::from_bits(0x0080_0000));
        assert_eq!((lo.mips[0][0], hi.mips[0][0]), (0, one));
        // A NaN reference leaves every comparison open but never's and always'.
        let (lo, hi) = results(&t, Compare::Greater, f32::NAN);
        assert_eq!(
            (lo.mips[0].clone(), hi.mips[0].clone()),
            (vec![0; 3], vec![one; 3])
        );
        let (lo, hi) = results(&t, Compare::Always, f32::NAN);
        assert_eq!(lo.mips[0], hi.mips[0]);
    }
}
