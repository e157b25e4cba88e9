//! Typed loads and stores, texture loads, sampling and `resinfo`. Each lane's access applies
//! D3D's bounds rules: out-of-range coordinates or mip levels read 0 in the present channels
//! and the format's defaults elsewhere (FS §22.4.6-9, §19.1.3.3), and dropped stores.

use dxbc::{Instruction, Opcode, Operand, OperandType, ResinfoReturnType};

use super::InterpError;
use super::machine::{Consumer, Machine, source_component, write_mask};
use super::resources::{Format, Srv, Texture2d, TextureShape, UavTexture};
use super::tracked::{Access, Space};
use crate::domain::{Domain, Events, raise};
use crate::rules::float as fl;

fn slot(op: &Operand, at: usize) -> Result<u32, InterpError> {
    match op.indices.first() {
        Some(dxbc::Index::Imm32(v)) => Ok(*v),
        _ => Err(InterpError::Unsupported {
            index: at,
            what: "dynamically indexed resource".into(),
        }),
    }
}

impl Machine<'_> {
    fn lane_vec(
        &mut self,
        op: &Operand,
        consumer: Consumer,
        at: usize,
    ) -> Result<[Vec<u32>; 4], InterpError> {
        let mut out: [Vec<u32>; 4] = std::array::from_fn(|_| vec![0u32; self.lanes]);
        for (c, o) in out.iter_mut().enumerate() {
            self.read(op, c, consumer, at, o)?;
        }
        Ok(out)
    }

    /// Write per-lane texels to `dst`, each component picked through the resource's swizzle.
    fn write_texels(
        &mut self,
        dst: &Operand,
        res: &Operand,
        texels: &[[u32; 4]],
        at: usize,
    ) -> Result<(), InterpError> {
        let mask = write_mask(dst);
        for c in 0..4 {
            if mask & (1 << c) == 0 {
                continue;
            }
            let from = source_component(res, c);
            let vals: Vec<u32> = texels.iter().map(|t| t[from]).collect();
            self.write(dst, c, &vals, at)?;
        }
        Ok(())
    }

    pub fn texture_op(&mut self, inst: &Instruction, at: usize) -> Result<(), InterpError> {
        self.texture_op_offset(inst, at, None)
    }

    /// `gather4_po` and `gather4_po_c`: `gather4` and `gather4_c` with per-lane texel offsets
    /// from a register, each the low 6 bits of its component as a signed value in [−32, 31]
    /// (of x and y; the rest are ignored), on 2D textures and arrays only.
    fn gather_po(&mut self, inst: &Instruction, at: usize) -> Result<(), InterpError> {
        let Some((plain, offset)) = inst.without_programmable_offset() else {
            return Err(InterpError::Unsupported {
                index: at,
                what: "a gather4_po without its operands".into(),
            });
        };
        if let Some(Srv::Texture2d(t)) = self.res.srvs.get(&slot(&plain.operands[2], at)?)
            && !matches!(t.view, TextureShape::Plain | TextureShape::Array)
        {
            return Err(InterpError::Unsupported {
                index: at,
                what: format!("`{}` of a texture other than 2D", inst.opcode.mnemonic()),
            });
        }
        let words = self.lane_vec(&offset, Consumer::Int, at)?;
        let six = |w: u32| (((w << 26) as i32) >> 26) as i8;
        let per_lane: Vec<[i8; 3]> = (0..self.lanes)
            .map(|l| [six(words[0][l]), six(words[1][l]), 0])
            .collect();
        self.texture_op_offset(&plain, at, Some(&per_lane))
    }

    /// [`Machine::texture_op`], with `programmable` per-lane offsets in place of the
    /// immediate ones where given.
    fn texture_op_offset(
        &mut self,
        inst: &Instruction,
        at: usize,
        programmable: Option<&[[i8; 3]]>,
    ) -> Result<(), InterpError> {
        use Opcode::*;
        let ops = &inst.operands;
        let lanes = self.lanes;
        let active: Vec<usize> = self.active.lanes().collect();
        let offsets = inst.sample_offsets().unwrap_or([0; 3]);
        match inst.opcode {
            Gather4Po | Gather4PoC => self.gather_po(inst, at),
            Ld => {
                let addr = self.lane_vec(&ops[1], Consumer::Int, at)?;
                let s = slot(&ops[2], at)?;
                let mut texels = vec![[0u32; 4]; lanes];
                for &l in &active {
                    let ev = &mut self.scratch_ev[l];
                    texels[l] = match self.res.srvs.get(&s) {
                        Some(Srv::Buffer(b)) => {
                            let f = b.format.unwrap_or_default();
                            typed_load(&b.words, b.size_bytes, f, addr[0][l], ev)
                        }
                        // D3D has no `ld` of a cube (fxc refuses it): no rule to follow.
                        Some(Srv::Texture2d(t)) if t.cube() => {
                            return Err(InterpError::Unsupported {
                                index: at,
                                what: "`ld` of a TextureCube".into(),
                            });
                        }
                        Some(Srv::Texture2d(t)) => {
                            let [x, y, layer, mip] =
                                ld_address(t, [0, 1, 2, 3].map(|c| addr[c][l]), offsets);
                            texel_load(t, x, y, layer, mip, ev)
                        }
                        None => [0; 4],
                    };
                }
                self.write_texels(&ops[0], &ops[2], &texels, at)
            }
            LdUavTyped => {
                let addr = self.lane_vec(&ops[1], Consumer::Int, at)?;
                let s = slot(&ops[2], at)?;
                let mut texels = vec![[0u32; 4]; lanes];
                for &l in &active {
                    let mut ev = 0;
                    if let Some(t) = self.res.uavs.get(&s).and_then(|b| b.texture) {
                        let a = [0, 1, 2, 3].map(|c| addr[c][l]);
                        texels[l] = self.uav_texel_load(s, t, a, l, at, &mut ev);
                    } else if let Some(b) = self.res.uavs.get(&s) {
                        let f = b.format.unwrap_or_default();
                        texels[l] = typed_load(&b.words, b.size_bytes, f, addr[0][l], &mut ev);
                        // One word per element stands for the element in race tracking.
                        let byte = u64::from(addr[0][l]) * u64::from(f.stride());
                        self.race_access(Space::Uav(s), byte, l, Access::Read, at);
                    }
                    self.scratch_ev[l] |= ev;
                }
                self.write_texels(&ops[0], &ops[2], &texels, at)
            }
            StoreUavTyped => {
                let s = slot(&ops[0], at)?;
                let addr = self.lane_vec(&ops[1], Consumer::Int, at)?;
                let value = self.lane_vec(&ops[2], Consumer::Raw, at)?;
                if let Some(t) = self.res.uavs.get(&s).and_then(|b| b.texture) {
                    return self.uav_texel_stores(s, t, &ops[2], &addr, &value, &active, at);
                }
                for &l in &active {
                    let mut ev = 0;
                    let mut tracked = None;
                    match self.res.uavs.get_mut(&s) {
                        Some(b) => {
                            let f = b.format.unwrap_or_default();
                            let byte = u64::from(addr[0][l]) * u64::from(f.stride());
                            if byte + u64::from(f.stride()) <= u64::from(b.size_bytes) {
                                tracked = Some(byte);
                                for (ch, v) in value.iter().take(f.channels as usize).enumerate() {
                                    let w = (byte / 4) as usize + ch;
                                    if b.words.len() <= w {
                                        b.words.resize(w + 1, 0);
                                    }
                                    b.words[w] = v[l];
                                }
                            } else {
                                raise(&mut ev, Domain::OobWrite);
                            }
                        }
                        None => raise(&mut ev, Domain::OobWrite),
                    }
                    if let Some(byte) = tracked {
                        let first = value[0][l];
                        self.race_access(Space::Uav(s), byte, l, Access::Write(first), at);
                        let channels = self
                            .res
                            .uavs
                            .get(&s)
                            .map_or(0, |b| b.format.unwrap_or_default().channels as usize);
                        for (ch, v) in value.iter().take(channels).enumerate() {
                            self.nan_store(
                                Space::Uav(s),
                                byte + 4 * ch as u64,
                                &ops[2],
                                ch,
                                l,
                                v[l],
                            );
                        }
                    }
                    self.scratch_ev[l] |= ev;
                }
                Ok(())
            }
            Ldms => {
                let addr = self.lane_vec(&ops[1], Consumer::Int, at)?;
                let s = slot(&ops[2], at)?;
                let mut sample = vec![0u32; lanes];
                self.read(&ops[3], 0, Consumer::Int, at, &mut sample)?;
                let mut texels = vec![[0u32; 4]; lanes];
                for &l in &active {
                    let ev = &mut self.scratch_ev[l];
                    texels[l] = match self.res.srvs.get(&s) {
                        Some(Srv::Texture2d(t)) if t.multisampled() => {
                            ms_load(t, addr[0][l], addr[1][l], sample[l], ev)
                        }
                        Some(_) => {
                            return Err(InterpError::Unsupported {
                                index: at,
                                what: "`ldms` of a texture that is not multisampled".into(),
                            });
                        }
                        None => [0; 4],
                    };
                }
                self.write_texels(&ops[0], &ops[2], &texels, at)
            }
            Sampleinfo | Samplepos => {
                if ops[1].ty != OperandType::Resource {
                    // The rasterizer's sample count is the pipeline's, which a compute run
                    // of the program does not have.
                    return Err(InterpError::Unsupported {
                        index: at,
                        what: format!("`{}` of the rasterizer", inst.opcode.mnemonic()),
                    });
                }
                let s = slot(&ops[1], at)?;
                let count = match self.res.srvs.get(&s) {
                    Some(Srv::Texture2d(t)) if t.multisampled() => t.layer_count(),
                    Some(_) => {
                        return Err(InterpError::Unsupported {
                            index: at,
                            what: format!(
                                "`{}` of a texture that is not multisampled",
                                inst.opcode.mnemonic()
                            ),
                        });
                    }
                    None => 0,
                };
                let mut index = vec![0u32; lanes];
                if inst.opcode == Samplepos {
                    self.read(&ops[2], 0, Consumer::Int, at, &mut index)?;
                }
                let mut out = vec![[0u32; 4]; lanes];
                for &l in &active {
                    out[l] = if inst.opcode == Samplepos {
                        let [x, y] = sample_position(count, index[l]);
                        [x.to_bits(), y.to_bits(), 0, 0]
                    } else if inst.is_sampleinfo_uint() {
                        [count, 0, 0, 0]
                    } else {
                        [(count as f32).to_bits(), 0, 0, 0]
                    };
                }
                self.write_texels(&ops[0], &ops[1], &out, at)
            }
            SampleC | SampleCLz | Gather4C => self.compare_op(inst, at, programmable),
            Lod => self.lod_op(inst, at),
            Sample | SampleL | SampleB | SampleD | Gather4 => {
                let coords = self.lane_vec(&ops[1], Consumer::Float, at)?;
                let t = slot(&ops[2], at)?;
                let smp = slot(&ops[3], at)?;
                // Outside pixel programs implicit-LOD sampling has no quad to take derivatives
                // from, so its level of detail is 0 (plus the bias for `sample_b`).
                let mut lod = vec![0u32; lanes];
                if matches!(inst.opcode, SampleL | SampleB) {
                    self.read(&ops[4], 0, Consumer::Float, at, &mut lod)?;
                }
                let sampler = self.res.samplers.get(&smp).cloned().unwrap_or_default();
                if let (Gather4, Some(Srv::Texture2d(tex))) = (inst.opcode, self.res.srvs.get(&t))
                    && (tex.volume() || tex.line())
                {
                    // fxc refuses `Gather` on a Texture3D or a 1D texture: D3D has no rule to
                    // follow.
                    return Err(InterpError::Unsupported {
                        index: at,
                        what: "`gather4` of a Texture3D or Texture1D".into(),
                    });
                }
                // gather4 returns one channel of four texels: the sampler's swizzle picks it.
                let channel = source_component(&ops[3], 0);
                let mut texels = vec![[0u32; 4]; lanes];
                // In a pixel program `sample` and `sample_b` take their LOD from the quad: a
                // range, since devices approximate it; the lane is exact only where every LOD
                // in the range gives the same texel.
                let gradients = if inst.opcode == SampleD {
                    Some((
                        self.lane_vec(&ops[4], Consumer::Float, at)?,
                        self.lane_vec(&ops[5], Consumer::Float, at)?,
                    ))
                } else {
                    None
                };
                let quad_lods: Vec<Option<Option<(f32, f32, f32)>>> = match (
                    self.program.version.stage,
                    inst.opcode,
                    self.res.srvs.get(&t),
                ) {
                    // A cube's LOD comes from the derivatives of its face coordinates, which the
                    // interpreter does not model: any level, so the lane is exact only where
                    // every level gives the same texel.
                    (stage, Sample | SampleB | SampleD, Some(Srv::Texture2d(tex)))
                        if tex.cube()
                            && (inst.opcode == SampleD || stage == dxbc::Stage::Pixel) =>
                    {
                        vec![Some(Some(ANY_LOD)); lanes]
                    }
                    (dxbc::Stage::Pixel, Sample | SampleB, Some(Srv::Texture2d(tex))) => (0..lanes)
                        .map(|l| Some(self.implicit_lod(&coords, l, lod_axes(tex))))
                        .collect(),
                    // `sample_d`: the LOD of the given gradients, in any stage.
                    (_, SampleD, Some(Srv::Texture2d(tex))) => match &gradients {
                        Some((ddx, ddy)) => {
                            let size = lod_axes(tex);
                            let g = |v: &[Vec<u32>; 4], l: usize| -> [f64; 3] {
                                std::array::from_fn(|c| match size[c] {
                                    0 => 0.0,
                                    n => f64::from(f32::from_bits(fl::ftz(v[c][l]))) * f64::from(n),
                                })
                            };
                            (0..lanes)
                                .map(|l| {
                                    let steps = (g(ddx, l), g(ddy, l));
                                    Some(Some(super::quads::lod_range(&[steps])))
                                })
                                .collect()
                        }
                        None => vec![None; lanes],
                    },
                    _ => vec![None; lanes],
                };
                if let Some(Srv::Texture2d(tex)) = self.res.srvs.get(&t) {
                    // A denormal LOD operand of a linear sample, where lavapipe misreads it.
                    let lod_operand_filtered = matches!(inst.opcode, SampleL | SampleB)
                        && sampler.linear
                        && !tex.format.float32();
                    for &l in &active {
                        let ev = &mut self.scratch_ev[l];
                        let f = |w: u32| f32::from_bits(fl::ftz(w));
                        let offsets = programmable.map_or(offsets, |p| p[l]);
                        let pos = position(tex, [0, 1, 2, 3].map(|c| coords[c][l]), offsets, ev);
                        if lod_operand_filtered && f32::from_bits(lod[l]).is_subnormal() {
                            raise(ev, Domain::DenormalLodFiltered);
                        }
                        // `sample_b`'s bias adds to the quad's LOD (0 where there is no quad).
                        let bias = if inst.opcode == SampleB {
                            f(lod[l])
                        } else {
                            0.0
                        };
                        texels[l] = match quad_lods[l] {
                            _ if inst.opcode == Gather4 => gather(tex, &sampler, &pos, channel, ev),
                            Some(Some((lo, mid, hi))) => {
                                // An anisotropic footprint along the derivatives is the
                                // implementation's (D3D states no shape or sample count).
                                if sampler.max_anisotropy > 1 {
                                    raise(ev, Domain::FilterPrecision);
                                }
                                if inst.opcode != SampleD {
                                    raise(ev, Domain::QuadDerivative);
                                } else if !tex.cube() && (hi.is_nan() || hi >= HUGE_LOD) {
                                    raise(ev, Domain::HugeGradient);
                                }
                                let got = sample(tex, &sampler, &pos, mid + bias, ev);
                                let mut scratch = 0;
                                let others = lod_probes(lo + bias, hi + bias, tex.mips.len());
                                if others
                                    .iter()
                                    .any(|x| sample(tex, &sampler, &pos, *x, &mut scratch) != got)
                                    || mid.is_nan()
                                {
                                    raise(ev, Domain::FilterPrecision);
                                }
                                got
                            }
                            Some(None) => {
                                raise(ev, Domain::DerivativeDivergent);
                                sample(tex, &sampler, &pos, bias, ev)
                            }
                            None => sample(tex, &sampler, &pos, f(lod[l]), ev),
                        };
                    }
                }
                self.write_texels(&ops[0], &ops[2], &texels, at)
            }
            Resinfo => {
                let mut mip = vec![0u32; lanes];
                self.read(&ops[1], 0, Consumer::Int, at, &mut mip)?;
                let s = slot(&ops[2], at)?;
                let ret = inst.resinfo_return_type();
                let mut out = vec![[0u32; 4]; lanes];
                let uav = match self.res.uavs.get(&s) {
                    Some(b) if ops[2].ty == OperandType::UnorderedAccessView => b.texture,
                    _ => None,
                };
                for &l in &active {
                    if ops[2].ty == OperandType::UnorderedAccessView {
                        // A UAV views one level: 1 level, and level 0's size (FS §22.4.14).
                        let dims = match uav {
                            Some(t) if mip[l] == 0 => t.dimensions(),
                            _ => [0; 3],
                        };
                        let levels = u32::from(uav.is_some());
                        out[l] = resinfo_value(ret, [dims[0], dims[1], dims[2], levels]);
                        continue;
                    }
                    let tex = match self.res.srvs.get(&s) {
                        Some(Srv::Texture2d(t)) if ops[2].ty == OperandType::Resource => Some(t),
                        _ => None,
                    };
                    let levels = tex.map_or(0, |t| t.mips.len() as u32);
                    // z is the array size of an array view, 0 for a plain 2D texture.
                    let dims = match tex {
                        Some(t) if mip[l] < levels => {
                            let (w, h) = t.level_size(mip[l] as usize);
                            // The next component after the texture's own axes is an array's
                            // size (y of a 1D array, z of a 2D one) or a 3D level's depth; the
                            // rest are 0 (a cube is a 2D texture here).
                            let z = if t.cube() && t.array() {
                                // A cube array's z is the number of cubes where devices give
                                // it (WebGPU's `textureNumLayers`); D3D leaves it undefined.
                                let mask = write_mask(&ops[0]);
                                if (0..4).any(|c| {
                                    mask & (1 << c) != 0 && source_component(&ops[2], c) == 2
                                }) {
                                    raise(&mut self.scratch_ev[l], Domain::D3dUndefined);
                                }
                                t.layer_count() / 6
                            } else if t.array() || t.volume() {
                                t.level_layers(mip[l] as usize)
                            } else {
                                0
                            };
                            if t.line() { [w, z, 0] } else { [w, h, z] }
                        }
                        _ => [0, 0, 0],
                    };
                    out[l] = resinfo_value(ret, [dims[0], dims[1], dims[2], levels]);
                }
                self.write_texels(&ops[0], &ops[2], &out, at)
            }
            _ => Err(InterpError::Unsupported {
                index: at,
                what: format!("instruction `{}`", inst.opcode.mnemonic()),
            }),
        }
    }
}

/// `resinfo`'s four integers (three dimensions, the level count) as its return type gives
/// them: unsigned, floats, or `_rcpFloat`'s reciprocal dimensions beside a float level count.
fn resinfo_value(ret: Option<ResinfoReturnType>, v: [u32; 4]) -> [u32; 4] {
    match ret {
        Some(ResinfoReturnType::Uint) => v,
        Some(ResinfoReturnType::RcpFloat) => {
            let r = |x: u32| crate::rules::transcendental::rcp((x as f32).to_bits(), &mut 0);
            [r(v[0]), r(v[1]), r(v[2]), (v[3] as f32).to_bits()]
        }
        _ => v.map(|x| (x as f32).to_bits()),
    }
}

impl Machine<'_> {
    /// `ld_uav_typed` of a texture UAV for lane `l`: the texel at `addr` decoded by its
    /// format, or 0 with the format's defaults out of range (FS §22.4.8).
    fn uav_texel_load(
        &mut self,
        s: u32,
        t: UavTexture,
        addr: [u32; 4],
        l: usize,
        at: usize,
        ev: &mut Events,
    ) -> [u32; 4] {
        let n = t.format.words();
        let Some(i) = t.index(addr) else {
            raise(ev, Domain::OobRead);
            return t.format.out_of_range();
        };
        let Some(b) = self.res.uavs.get(&s) else {
            return t.format.out_of_range();
        };
        let start = (i as usize) * n;
        let mut stored = [0u32; 4];
        for (k, w) in stored.iter_mut().take(n).enumerate() {
            *w = b.words.get(start + k).copied().unwrap_or(0);
        }
        let texel = t.format.decode(&stored);
        t.format.enter(&texel, ev);
        self.race_access(Space::Uav(s), 4 * start as u64, l, Access::Read, at);
        texel
    }

    /// `store_uav_typed` to a texture UAV: each active lane's texel converted to the format
    /// (FS §3.2.3), written where it is in range and dropped elsewhere (FS §22.4.9).
    #[allow(clippy::too_many_arguments)]
    fn uav_texel_stores(
        &mut self,
        s: u32,
        t: UavTexture,
        src: &Operand,
        addr: &[Vec<u32>; 4],
        value: &[Vec<u32>; 4],
        active: &[usize],
        at: usize,
    ) -> Result<(), InterpError> {
        let n = t.format.words();
        for &l in active {
            let mut ev = 0;
            let texel = [0, 1, 2, 3].map(|c| value[c][l]);
            let Some(words) = t.format.encode(texel, &mut ev) else {
                return Err(InterpError::Unsupported {
                    index: at,
                    what: format!("a typed store to a {} UAV", t.format.name()),
                });
            };
            match t.index([0, 1, 2, 3].map(|c| addr[c][l])) {
                Some(i) => {
                    let start = (i as usize) * n;
                    if let Some(b) = self.res.uavs.get_mut(&s) {
                        if b.words.len() < start + n {
                            b.words.resize(start + n, 0);
                        }
                        b.words[start..start + n].copy_from_slice(&words[..n]);
                    }
                    let byte = 4 * start as u64;
                    self.race_access(Space::Uav(s), byte, l, Access::Write(words[0]), at);
                    for (k, channel) in value.iter().enumerate().take(n) {
                        // A 32-bit channel keeps the register's bits, NaN payload and all; a
                        // packed word is the conversion's, never a free NaN.
                        let v = if t.format.wide() { channel[l] } else { 0 };
                        self.nan_store(Space::Uav(s), byte + 4 * k as u64, src, k, l, v);
                    }
                }
                None => raise(&mut ev, Domain::OobWrite),
            }
            self.scratch_ev[l] |= ev;
        }
        Ok(())
    }
}

/// `ldms` of sample `sample` at (x, y): the texel decoded by its format; out of the texture
/// 0 with the format's defaults (FS §22.4.7); a sample index past the texture's samples reads
/// the same here, and D3D leaves it undefined.
fn ms_load(t: &Texture2d, x: u32, y: u32, sample: u32, ev: &mut Events) -> [u32; 4] {
    if sample >= t.layer_count() {
        raise(ev, Domain::D3dUndefined);
        return t.oob();
    }
    match t.texel(0, sample, x, y) {
        Some(texel) => {
            t.format.enter(&texel, ev);
            texel
        }
        None => out_of_range_load(t, ev),
    }
}

/// What a load out of `t`'s range reads (0 in the format's channels, the defaults elsewhere,
/// FS §22.4.7), the lane entering `oob-read`, and `oob-format-alpha` where the format has no
/// alpha (a translation cannot know to return its 1).
fn out_of_range_load(t: &Texture2d, ev: &mut Events) -> [u32; 4] {
    raise(ev, Domain::OobRead);
    if !t.format.has_alpha() {
        raise(ev, Domain::OobFormatAlpha);
    }
    t.oob()
}

/// `samplepos`: where sample `index` of a `count`-sample texture lies, relative to the pixel's
/// centre, in D3D's standard patterns (D3D11_STANDARD_MULTISAMPLE_PATTERN, in sixteenths of a
/// pixel; WebGPU's 4-sample positions are the same); (0, 0) for an index past the samples (FS
/// §22.4.17).
pub fn sample_position(count: u32, index: u32) -> [f32; 2] {
    match dxbc::standard_sample_positions(count).get(index as usize) {
        Some([x, y]) => [f32::from(*x) / 16.0, f32::from(*y) / 16.0],
        None => [0.0, 0.0],
    }
}

/// The texel counts of level 0 along the axes an LOD's steps are measured on: width, height
/// (0 for a 1D texture, whose second coordinate is no axis), and a 3D texture's depth (0 for
/// the others, whose third coordinate is no axis).
fn lod_axes(t: &Texture2d) -> [u32; 3] {
    let (w, h) = t.level_size(0);
    let h = if t.line() { 0 } else { h };
    [w, h, if t.volume() { t.level_layers(0) } else { 0 }]
}

/// A typed buffer element: out of range reads 0 with the format's defaults (FS §22.4.6).
fn typed_load(
    words: &[u32],
    size_bytes: u32,
    f: Format,
    element: u32,
    ev: &mut Events,
) -> [u32; 4] {
    let byte = u64::from(element) * u64::from(f.stride());
    if byte + u64::from(f.stride()) > u64::from(size_bytes) {
        raise(ev, Domain::OobRead);
        return f.expand(&[]);
    }
    let w = (byte / 4) as usize;
    let present: Vec<u32> = (0..f.channels as usize)
        .map(|c| words.get(w + c).copied().unwrap_or(0))
        .collect();
    f.expand(&present)
}

/// The texel `ld` reads from `t` at the integer address `addr` moved by its immediate
/// offsets: x, y, the layer (or a 3D texture's depth slice) and the mip level. The `ld` page:
/// the offsets are added in texel space, wrapping as unsigned integers (so a move below 0 is
/// out of range); v is ignored on 1D textures, w on 2D ones, and no offset moves an array's
/// layer (z of a 2D array, y of a 1D one). A 3D texture's w moves its slice.
pub(crate) fn ld_address(t: &Texture2d, addr: [u32; 4], offsets: [i8; 3]) -> [u32; 4] {
    let moved = |c: usize| addr[c].wrapping_add(offsets[c] as u32);
    let x = moved(0);
    // A 1D address has no y: its one row is 0.
    let y = if t.line() { 0 } else { moved(1) };
    let layer = match t.layer_component() {
        Some(c) => addr[c],
        None if t.volume() => moved(2),
        None => 0,
    };
    [x, y, layer, addr[3]]
}

/// `ld` of one texel of a 2D texture or array: out-of-range coordinates, layer or mip give
/// the OOB value (FS §22.4.7).
fn texel_load(t: &Texture2d, x: u32, y: u32, layer: u32, mip: u32, ev: &mut Events) -> [u32; 4] {
    match t.texel(mip as usize, layer, x, y) {
        Some(texel) => {
            t.format.enter(&texel, ev);
            texel
        }
        None => out_of_range_load(t, ev),
    }
}

mod compare;
mod cube;
mod filter;
use filter::*;
mod lod;
mod volume;

#[cfg(test)]
mod tests;
