//! `lod`: the level of detail a `sample` at the address would take, as (clamped, unclamped,
//! 0, 0). The unclamped LOD is the quad's, a range since devices approximate it; the clamped
//! one is what the sampler and the texture's levels make of it.

use dxbc::{Instruction, Stage};

use super::super::InterpError;
use super::super::machine::{Consumer, Machine};
use super::super::resources::{Sampler, Srv};
use super::{HUGE_LOD, clamp_lod, clamp_to_levels, lod_axes, slot};
use crate::domain::{Domain, Events, raise};
use crate::rules::transcendental::LOD_BAND;

impl Machine<'_> {
    /// `lod dest, address, t#, s#` in a pixel program (the only stage that has it).
    pub(super) fn lod_op(&mut self, inst: &Instruction, at: usize) -> Result<(), InterpError> {
        let ops = &inst.operands;
        if self.program.version.stage != Stage::Pixel {
            // fxc allows `CalculateLevelOfDetail` in pixel programs only: no rule to follow.
            return Err(InterpError::Unsupported {
                index: at,
                what: "`lod` outside a pixel program".into(),
            });
        }
        let coords = self.lane_vec(&ops[1], Consumer::Float, at)?;
        let t = slot(&ops[2], at)?;
        let sampler = self
            .res
            .samplers
            .get(&slot(&ops[3], at)?)
            .cloned()
            .unwrap_or_default();
        let mut out = vec![[0u32; 4]; self.lanes];
        // No texture bound: 0 in every component.
        let Some(Srv::Texture2d(tex)) = self.res.srvs.get(&t) else {
            return self.write_texels(&ops[0], &ops[2], &out, at);
        };
        let (axes, levels, cube) = (lod_axes(tex), tex.mips.len(), tex.cube());
        let active: Vec<usize> = self.active.lanes().collect();
        for l in active {
            let range = self.implicit_lod(&coords, l, axes);
            out[l] = lod_result(range, cube, &sampler, levels, &mut self.scratch_ev[l]);
        }
        self.write_texels(&ops[0], &ops[2], &out, at)
    }
}

/// One lane's (clamped, unclamped, 0, 0) from its implicit LOD `range` (lowest, middle,
/// highest; `None` where the quad is incomplete). The middle is the answer, the op's band
/// ([`LOD_BAND`]) around it what a device may give; the lane is open where the range reaches
/// past the band, where there is no finite LOD or it lies past ±[`HUGE_LOD`], for a cube
/// (whose face derivatives the interpreter does not model), and undefined with a point mip
/// filter (D3D's own rule for `lod`).
fn lod_result(
    range: Option<(f32, f32, f32)>,
    cube: bool,
    sampler: &Sampler,
    levels: usize,
    ev: &mut Events,
) -> [u32; 4] {
    raise(ev, Domain::QuadDerivative);
    if !sampler.linear {
        raise(ev, Domain::D3dUndefined);
    }
    let Some((lo, mid, hi)) = range else {
        raise(ev, Domain::DerivativeDivergent);
        return [0; 4];
    };
    let band = LOD_BAND as f32;
    // Past ±32 levels (steps of 2^32 texels per pixel, or of 2^-32) no texture has a level
    // to tell apart, and devices' LOD arithmetic saturates or overflows there (a decision:
    // D3D states no range for `lod`'s unclamped value).
    // Under an anisotropic filter the LOD is the footprint's minor axis's (D3D), whose shape
    // is the implementation's.
    let open = cube
        || sampler.max_anisotropy > 1
        || !mid.is_finite()
        || lo.is_nan()
        || hi.is_nan()
        || lo < mid - band
        || hi > mid + band
        || mid.abs() >= HUGE_LOD;
    if open {
        raise(ev, Domain::FilterPrecision);
    }
    let clamped = clamp_lod(mid, sampler, levels);
    if clamped != clamp_to_levels(mid, levels) {
        raise(ev, Domain::LodSamplerClamp);
    }
    [clamped.to_bits(), mid.to_bits(), 0, 0]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::domains;

    fn linear() -> Sampler {
        Sampler {
            linear: true,
            ..Sampler::default()
        }
    }

    fn entered(ev: Events) -> Vec<Domain> {
        domains(ev).collect()
    }

    #[test]
    fn the_middle_is_the_answer_clamped_to_the_levels() {
        let mut ev = 0;
        let r = lod_result(Some((0.75, 1.5, 2.0)), false, &linear(), 2, &mut ev);
        assert_eq!(r, [1.0f32.to_bits(), 1.5f32.to_bits(), 0, 0]);
        assert_eq!(entered(ev), vec![Domain::QuadDerivative]);
        // Below level 0 the clamped LOD is 0 and the unclamped one negative.
        let r = lod_result(Some((-3.0, -2.5, -2.0)), false, &linear(), 3, &mut ev);
        assert_eq!(r[..2], [0.0f32.to_bits(), (-2.5f32).to_bits()]);
    }

    #[test]
    fn a_range_past_the_band_or_no_lod_is_open() {
        for range in [
            (-1.0, 1.0, 1.5),
            (0.5, 1.0, 2.5),
            (f32::NAN, f32::NAN, f32::NAN),
            (f32::NEG_INFINITY, f32::NEG_INFINITY, f32::NEG_INFINITY),
            // A step of 2^67 texels (found on SwiftShader, whose length overflowed).
            (66.9, 67.4, 67.9),
            (-40.5, -40.0, -39.5),
        ] {
            let mut ev = 0;
            lod_result(Some(range), false, &linear(), 3, &mut ev);
            assert!(entered(ev).contains(&Domain::FilterPrecision), "{range:?}");
        }
        let mut ev = 0;
        lod_result(Some((0.5, 1.0, 1.5)), true, &linear(), 3, &mut ev);
        assert!(entered(ev).contains(&Domain::FilterPrecision), "a cube");
        // An anisotropic filter's LOD is its footprint's minor axis's: open.
        let aniso = Sampler {
            max_anisotropy: 16,
            ..linear()
        };
        let mut ev = 0;
        lod_result(Some((0.5, 1.0, 1.5)), false, &aniso, 3, &mut ev);
        assert!(
            entered(ev).contains(&Domain::FilterPrecision),
            "anisotropic"
        );
    }

    #[test]
    fn point_mips_incomplete_quads_and_sampler_clamps_enter_their_domains() {
        let mut ev = 0;
        lod_result(
            Some((0.5, 1.0, 1.5)),
            false,
            &Sampler::default(),
            3,
            &mut ev,
        );
        assert!(entered(ev).contains(&Domain::D3dUndefined));
        let mut ev = 0;
        assert_eq!(lod_result(None, false, &linear(), 3, &mut ev), [0; 4]);
        assert!(entered(ev).contains(&Domain::DerivativeDivergent));
        // MaxLOD 0.5 changes a clamped 1.0; MinLOD 0 changes nothing the levels do not.
        let clamped = Sampler {
            lod_clamp: (0.0, 0.5),
            ..linear()
        };
        let mut ev = 0;
        let r = lod_result(Some((0.5, 1.0, 1.5)), false, &clamped, 3, &mut ev);
        assert_eq!(r[0], 0.5f32.to_bits());
        assert!(entered(ev).contains(&Domain::LodSamplerClamp));
        let mut ev = 0;
        lod_result(Some((1.5, 2.0, 2.5)), false, &clamped, 1, &mut ev);
        assert!(!entered(ev).contains(&Domain::LodSamplerClamp));
    }
}
