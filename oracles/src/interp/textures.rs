//! Typed loads and stores, texture loads, sampling and `resinfo`. Each lane's access applies
//! D3D's bounds rules: out-of-range coordinates or mip levels read 0 in the present channels
//! and the format's defaults elsewhere (FS §22.4.6-9, §19.1.3.3), and dropped stores.

use dxbc::{Instruction, Opcode, Operand, OperandType, ResinfoReturnType};

use super::InterpError;
use super::machine::{Consumer, Machine, source_component, write_mask};
use super::resources::{Address, Format, Sampler, Srv, Texture2d};
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
        use Opcode::*;
        let ops = &inst.operands;
        let lanes = self.lanes;
        let active: Vec<usize> = self.active.lanes().collect();
        let offsets = inst.sample_offsets().unwrap_or([0; 3]);
        match inst.opcode {
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
                        Some(Srv::Texture2d(t)) => {
                            let x = addr[0][l].wrapping_add(offsets[0] as u32);
                            let y = addr[1][l].wrapping_add(offsets[1] as u32);
                            texel_load(t, x, y, addr[3][l], ev)
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
                    if let Some(b) = self.res.uavs.get(&s) {
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
            Sample | SampleL | SampleB => {
                let coords = self.lane_vec(&ops[1], Consumer::Float, at)?;
                let t = slot(&ops[2], at)?;
                let smp = slot(&ops[3], at)?;
                let lod = if inst.opcode == Sample {
                    vec![0u32; lanes]
                } else {
                    let mut v = vec![0u32; lanes];
                    self.read(&ops[4], 0, Consumer::Float, at, &mut v)?;
                    v
                };
                let sampler = self.res.samplers.get(&smp).cloned().unwrap_or_default();
                let mut texels = vec![[0u32; 4]; lanes];
                if let Some(Srv::Texture2d(tex)) = self.res.srvs.get(&t) {
                    for &l in &active {
                        // Implicit-LOD sampling has no neighbouring invocations to take
                        // derivatives from, so its level of detail is 0 (plus the bias).
                        let level = f32::from_bits(fl::ftz(lod[l]));
                        let (u, v) = (
                            f32::from_bits(fl::ftz(coords[0][l])),
                            f32::from_bits(fl::ftz(coords[1][l])),
                        );
                        texels[l] = sample(tex, &sampler, u, v, level, offsets);
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
                for &l in &active {
                    let (levels, w, h) = match self.res.srvs.get(&s) {
                        Some(Srv::Texture2d(t)) if ops[2].ty == OperandType::Resource => {
                            (t.mips.len() as u32, t.width, t.height)
                        }
                        _ => (0, 0, 0),
                    };
                    let dims = if mip[l] < levels {
                        [(w >> mip[l]).max(1), (h >> mip[l]).max(1), 0]
                    } else {
                        [0, 0, 0]
                    };
                    let v = [dims[0], dims[1], dims[2], levels];
                    out[l] = match ret {
                        Some(ResinfoReturnType::Uint) => v,
                        // _rcpFloat: the reciprocal of the dimensions; the level count stays a float.
                        Some(ResinfoReturnType::RcpFloat) => {
                            let mut ev = 0;
                            let r = |x: u32, ev: &mut Events| {
                                crate::rules::transcendental::rcp((x as f32).to_bits(), ev)
                            };
                            [
                                r(v[0], &mut ev),
                                r(v[1], &mut ev),
                                r(v[2], &mut ev),
                                (v[3] as f32).to_bits(),
                            ]
                        }
                        _ => v.map(|x| (x as f32).to_bits()),
                    };
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

/// `ld` of one texel of a 2D texture: out-of-range coordinates or mip give the OOB value.
fn texel_load(t: &Texture2d, x: u32, y: u32, mip: u32, ev: &mut Events) -> [u32; 4] {
    let Some(level) = t.mips.get(mip as usize) else {
        raise(ev, Domain::OobRead);
        return t.oob;
    };
    let (w, h) = ((t.width >> mip).max(1), (t.height >> mip).max(1));
    if x >= w || y >= h {
        raise(ev, Domain::OobRead);
        return t.oob;
    }
    level.get((y * w + x) as usize).copied().unwrap_or(t.oob)
}

/// Apply an address mode to an integer texel coordinate; `None` means the border colour.
fn address(i: i64, size: u32, mode: Address) -> Option<u32> {
    let n = i64::from(size.max(1));
    Some(match mode {
        Address::Wrap => i.rem_euclid(n) as u32,
        Address::Clamp => i.clamp(0, n - 1) as u32,
        Address::Mirror => {
            let p = i.rem_euclid(2 * n);
            (if p < n { p } else { 2 * n - 1 - p }) as u32
        }
        Address::Border => {
            if (0..n).contains(&i) {
                i as u32
            } else {
                return None;
            }
        }
    })
}

fn fetch(t: &Texture2d, s: &Sampler, level: usize, x: i64, y: i64) -> [f64; 4] {
    let (w, h) = ((t.width >> level).max(1), (t.height >> level).max(1));
    let texel = match (address(x, w, s.address[0]), address(y, h, s.address[1])) {
        (Some(x), Some(y)) => t.mips[level]
            .get((y * w + x) as usize)
            .copied()
            .unwrap_or([0; 4]),
        _ => s.border,
    };
    texel.map(|b| f64::from(f32::from_bits(b)))
}

/// Filter one mip level at normalised (u, v): point takes the texel under the sample, linear
/// blends the four around it with weights from the sample's position (computed exactly).
fn sample_level(
    t: &Texture2d,
    s: &Sampler,
    level: usize,
    u: f32,
    v: f32,
    off: [i8; 3],
) -> [f64; 4] {
    let (w, h) = (
        f64::from((t.width >> level).max(1)),
        f64::from((t.height >> level).max(1)),
    );
    let (x, y) = (f64::from(u) * w, f64::from(v) * h);
    let (ox, oy) = (i64::from(off[0]), i64::from(off[1]));
    if !s.linear {
        return fetch(t, s, level, x.floor() as i64 + ox, y.floor() as i64 + oy);
    }
    let (x, y) = (x - 0.5, y - 0.5);
    let (x0, y0) = (x.floor(), y.floor());
    let (fx, fy) = (x - x0, y - y0);
    let (x0, y0) = (x0 as i64 + ox, y0 as i64 + oy);
    let t00 = fetch(t, s, level, x0, y0);
    let t10 = fetch(t, s, level, x0 + 1, y0);
    let t01 = fetch(t, s, level, x0, y0 + 1);
    let t11 = fetch(t, s, level, x0 + 1, y0 + 1);
    std::array::from_fn(|c| {
        let top = t00[c] * (1.0 - fx) + t10[c] * fx;
        let bottom = t01[c] * (1.0 - fx) + t11[c] * fx;
        top * (1.0 - fy) + bottom * fy
    })
}

/// Sample a 2D texture at a level of detail: the mip filter follows the sampler's filter.
fn sample(t: &Texture2d, s: &Sampler, u: f32, v: f32, lod: f32, off: [i8; 3]) -> [u32; 4] {
    if t.mips.is_empty() || !t.float || u.is_nan() || v.is_nan() {
        return [0; 4];
    }
    let last = (t.mips.len() - 1) as f32;
    let lod = if lod.is_nan() {
        0.0
    } else {
        lod.clamp(0.0, last)
    };
    let texel = if s.linear && lod.fract() != 0.0 {
        let (lo, hi) = (lod.floor() as usize, lod.ceil() as usize);
        let f = f64::from(lod.fract());
        let (a, b) = (
            sample_level(t, s, lo, u, v, off),
            sample_level(t, s, hi, u, v, off),
        );
        std::array::from_fn(|c| a[c] * (1.0 - f) + b[c] * f)
    } else {
        sample_level(t, s, lod.round() as usize, u, v, off)
    };
    texel.map(|c| (c as f32).to_bits())
}
