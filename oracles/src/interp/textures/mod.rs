//! Typed loads and stores, texture loads, sampling and `resinfo`. Each lane's access applies
//! D3D's bounds rules: out-of-range coordinates or mip levels read 0 in the present channels
//! and the format's defaults elsewhere (FS §22.4.6-9, §19.1.3.3), and dropped stores.

use dxbc::{Instruction, Opcode, Operand, OperandType, ResinfoReturnType};

use super::InterpError;
use super::machine::{Consumer, Machine, source_component, write_mask};
use super::resources::{Address, Format, Sampler, Srv, TexelFormat, Texture2d};
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
                        // D3D has no `ld` of a cube (fxc refuses it): no rule to follow.
                        Some(Srv::Texture2d(t)) if t.cube() => {
                            return Err(InterpError::Unsupported {
                                index: at,
                                what: "`ld` of a TextureCube".into(),
                            });
                        }
                        Some(Srv::Texture2d(t)) => {
                            let x = addr[0][l].wrapping_add(offsets[0] as u32);
                            let y = addr[1][l].wrapping_add(offsets[1] as u32);
                            // A plain 2D address has no layer: its z is ignored.
                            // A 3D address's z is its depth slice.
                            let layer = if t.array() || t.volume() {
                                addr[2][l]
                            } else {
                                0
                            };
                            texel_load(t, x, y, layer, addr[3][l], ev)
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
                    && tex.volume()
                {
                    // fxc refuses `Gather` on a Texture3D: D3D has no rule to follow.
                    return Err(InterpError::Unsupported {
                        index: at,
                        what: "`gather4` of a Texture3D".into(),
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
                    // A cube's LOD comes from the derivatives of its face coordinates, and a 3D
                    // texture's from three axes, which the interpreter does not model: any
                    // level, so the lane is exact only where every level gives the same texel.
                    (stage, Sample | SampleB | SampleD, Some(Srv::Texture2d(tex)))
                        if (tex.cube() || tex.volume())
                            && (inst.opcode == SampleD || stage == dxbc::Stage::Pixel) =>
                    {
                        vec![Some(Some(ANY_LOD)); lanes]
                    }
                    (dxbc::Stage::Pixel, Sample | SampleB, Some(Srv::Texture2d(tex))) => (0..lanes)
                        .map(|l| Some(self.implicit_lod(&coords, l, tex.level_size(0))))
                        .collect(),
                    // `sample_d`: the LOD of the given gradients, in any stage.
                    (_, SampleD, Some(Srv::Texture2d(tex))) => match &gradients {
                        Some((ddx, ddy)) => {
                            let (w, h) = tex.level_size(0);
                            let g = |v: &[Vec<u32>; 4], c: usize, l: usize, size: u32| {
                                f64::from(f32::from_bits(fl::ftz(v[c][l]))) * f64::from(size)
                            };
                            (0..lanes)
                                .map(|l| {
                                    let sx = (g(ddx, 0, l, w), g(ddx, 1, l, h));
                                    let sy = (g(ddy, 0, l, w), g(ddy, 1, l, h));
                                    Some(Some(super::quads::lod_range(&[(sx, sy)])))
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
                        let pos = if tex.cube() {
                            cube_coords([0, 1, 2].map(|c| coords[c][l]), ev)
                        } else {
                            Coords {
                                u: f64::from(f(coords[0][l])),
                                v: f64::from(f(coords[1][l])),
                                w: if tex.volume() {
                                    f64::from(f(coords[2][l]))
                                } else {
                                    0.0
                                },
                                layer: if tex.array() {
                                    array_layer(f(coords[2][l]), tex.layer_count(), ev)
                                } else {
                                    0
                                },
                                offsets,
                            }
                        };
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
                                if inst.opcode != SampleD {
                                    raise(ev, Domain::QuadDerivative);
                                } else if !(tex.cube() || tex.volume())
                                    && (hi.is_nan() || hi >= HUGE_LOD)
                                {
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
                for &l in &active {
                    let tex = match self.res.srvs.get(&s) {
                        Some(Srv::Texture2d(t)) if ops[2].ty == OperandType::Resource => Some(t),
                        _ => None,
                    };
                    let levels = tex.map_or(0, |t| t.mips.len() as u32);
                    // z is the array size of an array view, 0 for a plain 2D texture.
                    let dims = match tex {
                        Some(t) if mip[l] < levels => {
                            let (w, h) = t.level_size(mip[l] as usize);
                            // z is an array's size or a 3D level's depth; 0 for a cube as for a
                            // plain 2D texture.
                            let z = if t.array() || t.volume() {
                                t.level_layers(mip[l] as usize)
                            } else {
                                0
                            };
                            [w, h, z]
                        }
                        _ => [0, 0, 0],
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

/// `ld` of one texel of a 2D texture or array: out-of-range coordinates, layer or mip give
/// the OOB value (FS §22.4.7).
fn texel_load(t: &Texture2d, x: u32, y: u32, layer: u32, mip: u32, ev: &mut Events) -> [u32; 4] {
    match t.texel(mip as usize, layer, x, y) {
        Some(texel) => {
            t.format.enter(&texel, ev);
            texel
        }
        None => {
            raise(ev, Domain::OobRead);
            if !t.format.has_alpha() {
                raise(ev, Domain::OobFormatAlpha);
            }
            t.oob()
        }
    }
}

/// D3D's texture-coordinate precision: 8 bits of subtexel fraction
/// (`D3D11_SUBTEXEL_FRACTIONAL_BIT_COUNT`) and 8 bits of LOD fraction
/// (`D3D11_MIP_LOD_FRACTIONAL_BIT_COUNT`). A sample whose position lies closer than this to
/// where the choice of texel, footprint or level changes may go either way on a conformant
/// device, and a blend weight is only this precise.
const FRACTION: f64 = 1.0 / 256.0;

/// Texel-space positions beyond this magnitude leave the fixed-point range in which D3D's
/// subtexel precision is required (a decision: 2^15, twice the largest 2D dimension).
const TEXEL_RANGE: f64 = 32768.0;

/// A level of detail this large (2^32 texels per pixel) is past every texture's last level; a
/// `sample_d` reaching it enters [`Domain::HugeGradient`].
const HUGE_LOD: f32 = 32.0;

/// An LOD range that spans every level: what the interpreter allows where it does not model
/// the LOD (a cube's), with level 0 taken as the middle.
const ANY_LOD: (f32, f32, f32) = (f32::NEG_INFINITY, 0.0, f32::INFINITY);

/// The LODs a range `lo..=hi` must agree at, besides its middle, for the lane to be exact: its
/// ends and every whole level between them (two ends can agree where a level between them
/// does not).
fn lod_probes(lo: f32, hi: f32, levels: usize) -> Vec<f32> {
    let mut probes = vec![lo, hi];
    let last = levels.saturating_sub(1) as f32;
    let (a, b) = (lo.max(0.0).ceil(), hi.min(last));
    let mut k = a;
    while k < b {
        probes.push(k);
        k += 1.0;
    }
    probes
}

/// Where one sample is taken: normalised (u, v), and w for a 3D texture, the layer (or cube
/// face) already selected, and the immediate texel offsets. f64, so a cube's face coordinates
/// lose nothing.
struct Coords {
    u: f64,
    v: f64,
    w: f64,
    layer: u32,
    offsets: [i8; 3],
}

/// A cube sample's position from the direction's bits: the face it selects and (u, v) on it.
/// A direction that selects no face (zero, NaN or infinite), or whose major axis lies outside
/// the range a device's own arithmetic covers ([`cube::in_range`]), may read any texel: the
/// lane is open. D3D flushes a denormal component first; a device that keeps it divides by it or
/// into it (a major axis of 2^-126 and a minor one just below it lands on the face's edge
/// rather than its centre), so a denormal enters the flush domain.
fn cube_coords(bits: [u32; 3], ev: &mut Events) -> Coords {
    let dir = bits.map(|b| f32::from_bits(fl::ftz(b)));
    if dir.iter().any(|c| c.is_nan()) {
        raise(ev, Domain::NanInput);
    }
    if bits.iter().any(|b| f32::from_bits(*b).is_subnormal()) {
        raise(ev, Domain::DenormInputFlushed);
    }
    if !cube::in_range(dir) {
        raise(ev, Domain::FilterPrecision);
    }
    let (layer, u, v) = cube::face(dir).unwrap_or_else(|| {
        raise(ev, Domain::FilterPrecision);
        (0, 0.5, 0.5)
    });
    Coords {
        u,
        v,
        w: 0.0,
        layer,
        offsets: [0; 3],
    }
}

/// The position with a NaN coordinate read as 0, as D3D's float-to-fixed conversion reads it
/// (FS §3.2.3: float-to-fixed conversions take NaN to 0); WGSL leaves it indeterminate.
fn not_nan(at: &Coords, ev: &mut Events) -> Coords {
    let fix = |c: f64, ev: &mut Events| {
        if c.is_nan() {
            raise(ev, Domain::NanInput);
            0.0
        } else {
            c
        }
    };
    Coords {
        u: fix(at.u, ev),
        v: fix(at.v, ev),
        w: fix(at.w, ev),
        layer: at.layer,
        offsets: at.offsets,
    }
}

/// D3D's array-layer selection: the float layer rounded to the nearest integer, ties to even,
/// then clamped to the layers (FS §7.18.2; seed: 2D-array sample layers). A NaN layer
/// selects layer 0.
pub fn array_layer(z: f32, layers: u32, ev: &mut Events) -> u32 {
    if z.is_nan() {
        raise(ev, Domain::NanInput);
        return 0;
    }
    let r = f64::from(z.round_ties_even());
    r.clamp(0.0, f64::from(layers.max(1) - 1)) as u32
}

/// The address modes a sample of `t` applies: a cube ignores the sampler's (it clamps within a
/// face, and filters across edges, which [`cube::crosses_edge`] leaves open).
fn modes(t: &Texture2d, s: &Sampler) -> [Address; 3] {
    if t.cube() {
        [Address::Clamp; 3]
    } else {
        s.address
    }
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
        Address::MirrorOnce => {
            let m = if i < 0 { -1 - i } else { i };
            m.min(n - 1) as u32
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

/// The texel at integer (x, y) of a level, after the sampler's address modes.
fn fetch(t: &Texture2d, s: &Sampler, level: usize, layer: u32, x: i64, y: i64) -> [u32; 4] {
    let (w, h) = t.level_size(level);
    let m = modes(t, s);
    match (address(x, w, m[0]), address(y, h, m[1])) {
        (Some(x), Some(y)) => t.texel(level, layer, x, y).unwrap_or([0; 4]),
        _ => s.border,
    }
}

/// One axis of a sample in a level of `size` texels: the texel-space position of normalised
/// `coord`, and whether it lies outside the range D3D's precision covers (then any texel may
/// be chosen).
fn axis(coord: f64, size: u32, ev: &mut Events) -> f64 {
    let x = coord * f64::from(size);
    if !x.is_finite() || x.abs() > TEXEL_RANGE {
        raise(ev, Domain::FilterPrecision);
    }
    x
}

/// The texel on the other side of the boundary `x` lies within D3D's subtexel precision of,
/// if it does: the floor may go either way there. A position exactly on a boundary is a tie
/// too: a device that mirrors normalised coordinates (lavapipe) maps it to the mirrored
/// boundary, where the floor takes the other texel.
fn across(x: f64) -> Option<i64> {
    let k = x.round();
    let d = (x - k).abs();
    (d < FRACTION).then(|| floor_i64(if x >= k { k - 0.5 } else { k + 0.5 }))
}

fn floor_i64(x: f64) -> i64 {
    if x.is_finite() {
        x.floor().clamp(-TEXEL_RANGE * 4.0, TEXEL_RANGE * 4.0) as i64
    } else {
        0
    }
}

/// Filter one mip level: point takes the texel under the sample; linear blends the four
/// around it with weights from the sample's position, computed exactly. Where D3D's precision
/// leaves the result open (a blend of different texels at a fractional weight, a non-finite
/// texel in the footprint, a position at a texel boundary) the lane enters
/// [`Domain::FilterPrecision`].
fn sample_level(
    t: &Texture2d,
    s: &Sampler,
    level: usize,
    at: &Coords,
    ev: &mut Events,
) -> [f64; 4] {
    if t.volume() {
        return volume::sample_level(t, s, level, at, ev);
    }
    let get = |x: i64, y: i64| fetch(t, s, level, at.layer, x, y);
    if t.cube() {
        let (w, h) = t.level_size(level);
        let edge = |c: f64, n: u32| cube::crosses_edge(c * f64::from(n), n, s.linear, FRACTION);
        if edge(at.u, w) || edge(at.v, h) {
            raise(ev, Domain::FilterPrecision);
        }
    }
    let as_f64 = |t: [u32; 4]| t.map(|b| f64::from(f32::from_bits(b)));
    if !s.linear {
        let (w, h) = t.level_size(level);
        let (x, y) = (axis(at.u, w, ev), axis(at.v, h, ev));
        let (ox, oy) = (i64::from(at.offsets[0]), i64::from(at.offsets[1]));
        let (ix, iy) = (floor_i64(x), floor_i64(y));
        let texel = get(ix + ox, iy + oy);
        // Across a boundary closer than the subtexel precision, the neighbour is an answer too.
        let xs = [Some(ix), across(x)];
        let ys = [Some(iy), across(y)];
        let mut open = false;
        for &cx in xs.iter().flatten() {
            for &cy in ys.iter().flatten() {
                let other = get(cx + ox, cy + oy);
                t.format.enter(&other, ev);
                open |= other != texel;
            }
        }
        if open {
            raise(ev, Domain::FilterPrecision);
        }
        return as_f64(texel);
    }
    let (x0, y0, fx, fy) = bilinear(t, level, at, ev);
    let quad = [
        get(x0, y0),
        get(x0 + 1, y0),
        get(x0, y0 + 1),
        get(x0 + 1, y0 + 1),
    ];
    for q in &quad {
        t.format.enter(q, ev);
    }
    let all_same = quad.iter().all(|q| *q == quad[0]);
    let plain = blend_plain(t, s, level, at);
    if !plain || (!all_same && (fx != 0.0 || fy != 0.0)) {
        raise(ev, Domain::FilterPrecision);
    }
    if !t.format.float32() && weighs_beyond(&get, (x0, y0), (fx, fy)) {
        raise(ev, Domain::PackedWeightNearCentre);
    }
    if all_same {
        return as_f64(quad[0]);
    }
    let [t00, t10, t01, t11] = quad.map(as_f64);
    std::array::from_fn(|c| {
        let top = t00[c] * (1.0 - fx) + t10[c] * fx;
        let bottom = t01[c] * (1.0 - fx) + t11[c] * fx;
        top * (1.0 - fy) + bottom * fy
    })
}

/// Whether a linear blend in `level` at `at` gives the exact value of its weighted texels
/// whatever a device does with the texels it weights 0. A blend computes a·w + b·(1 − w) even
/// where a weight is 0: a non-finite neighbour poisons it, a −0 becomes +0 (even where every
/// texel is the same: a unit that blends as a + w·(b − a) adds +0 to it, as lavapipe does at a
/// 1×1 level), and a filter unit may flush a denormal. At a clamped edge a device may
/// clamp the position first and blend the edge texel with its inward neighbour at weight 0
/// (lavapipe does), so that neighbour counts too.
fn blend_plain(t: &Texture2d, s: &Sampler, level: usize, at: &Coords) -> bool {
    let (w, h) = t.level_size(level);
    let (x0, y0, ..) = bilinear(t, level, at, &mut 0);
    let m = modes(t, s);
    let xs = touched(x0, w, m[0]);
    let ys = touched(y0, h, m[1]);
    xs.iter().all(|&tx| {
        ys.iter().all(|&ty| {
            fetch(t, s, level, at.layer, tx, ty).iter().all(|w| {
                let f = f32::from_bits(*w);
                f.is_finite() && !f.is_subnormal() && *w != 0x8000_0000
            })
        })
    })
}

/// Whether a bilinear footprint at (`x0`, `y0`) with fractions (`fx`, `fy`) lies within the
/// subtexel precision of a footprint boundary along an axis, where the footprint shifted by
/// one texel along it (a weight within 1/256 of 0 given to the texel beyond) would weigh a
/// texel that differs from the others.
fn weighs_beyond(
    get: &dyn Fn(i64, i64) -> [u32; 4],
    (x0, y0): (i64, i64),
    (fx, fy): (f64, f64),
) -> bool {
    let beyond = |i0: i64, f: f64| -> Vec<i64> {
        let mut v = vec![i0, i0 + 1];
        if f < FRACTION {
            v.push(i0 - 1);
        }
        if f > 1.0 - FRACTION {
            v.push(i0 + 2);
        }
        v
    };
    let (xs, ys) = (beyond(x0, fx), beyond(y0, fy));
    if xs.len() == 2 && ys.len() == 2 {
        return false;
    }
    let first = get(x0, y0);
    xs.iter().any(|&x| ys.iter().any(|&y| get(x, y) != first))
}

/// The footprint of a bilinear blend (or a gather) in `level`: the top-left texel, offsets
/// included, and the weights' fractions along x and y.
fn bilinear(t: &Texture2d, level: usize, at: &Coords, ev: &mut Events) -> (i64, i64, f64, f64) {
    let (w, h) = t.level_size(level);
    let (x, y) = (axis(at.u, w, ev) - 0.5, axis(at.v, h, ev) - 0.5);
    (
        floor_i64(x) + i64::from(at.offsets[0]),
        floor_i64(y) + i64::from(at.offsets[1]),
        x - x.floor(),
        y - y.floor(),
    )
}

/// The texel columns (or rows) a linear blend starting at `i0` may read in a level of `n`:
/// `i0` and `i0 + 1`, and under clamp addressing past an edge the two texels inside it.
fn touched(i0: i64, n: u32, mode: Address) -> Vec<i64> {
    let n = i64::from(n);
    let mut v = vec![i0, i0 + 1];
    if mode == Address::Clamp && i0 < 0 {
        v.extend([0, 1]);
    }
    if mode == Address::Clamp && i0 + 1 >= n {
        v.extend([n - 2, n - 1]);
    }
    v
}

/// `sample_l` (and the compute-stage forms of `sample` and `sample_b`) of a 2D texture or
/// array at a level of detail: clamped to the texture's levels, the mip filter following the
/// sampler's filter (FS §7.18.10-11).
fn sample(t: &Texture2d, s: &Sampler, at: &Coords, lod: f32, ev: &mut Events) -> [u32; 4] {
    if t.mips.is_empty() || !t.float() {
        return [0; 4];
    }
    let at = &not_nan(at, ev);
    if s.linear && t.format == TexelFormat::Rg11b10Float {
        raise(ev, Domain::Rg11b10Filtered);
    }
    let last = (t.mips.len() - 1) as f32;
    // A NaN LOD reads as 0; then the sampler's MinLOD/MaxLOD, then the texture's levels
    // (FS §7.18.11).
    let lod = if lod.is_nan() {
        raise(ev, Domain::NanInput);
        0.0
    } else {
        lod
    };
    let (min_lod, max_lod) = s.lod_clamp;
    let lod = lod.max(min_lod).min(max_lod).clamp(0.0, last);
    let frac = f64::from(lod.fract());
    let texel = if s.linear && frac != 0.0 {
        let (lo, hi) = (lod.floor() as usize, lod.ceil() as usize);
        let (a, b) = (
            sample_level(t, s, lo, at, ev),
            sample_level(t, s, hi, at, ev),
        );
        if a != b {
            raise(ev, Domain::FilterPrecision);
        }
        std::array::from_fn(|c| a[c] * (1.0 - frac) + b[c] * frac)
    } else if s.linear {
        // A whole LOD under linear mip filtering: a device may still blend the next level at
        // weight 0 (lavapipe does whenever another invocation of the same SIMD batch needs the
        // blend), with the same hazards as a spatial blend; a −0 result becomes +0 there.
        let lo = lod as usize;
        let texel = sample_level(t, s, lo, at, ev);
        let plain = |level| {
            if t.volume() {
                volume::blend_plain(t, s, level, at)
            } else {
                blend_plain(t, s, level, at)
            }
        };
        if lo + 1 < t.mips.len()
            && (!plain(lo + 1) || texel.iter().any(|c| *c == 0.0 && c.is_sign_negative()))
        {
            raise(ev, Domain::FilterPrecision);
        }
        texel
    } else {
        // Point mip filtering takes the nearest level; a LOD within the LOD precision of the
        // half-way point may take either.
        if (frac - 0.5).abs() < FRACTION {
            raise(ev, Domain::FilterPrecision);
        }
        sample_level(t, s, lod.round() as usize, at, ev)
    };
    texel.map(|c| (c as f32).to_bits())
}

/// `gather4`: one channel of the four texels a bilinear sample of level 0 would blend, in
/// D3D's order (x: bottom-left (u0, v1), y: (u1, v1), z: (u1, v0), w: top-left (u0, v0))
/// (FS §22.4.4). A position within the subtexel precision of a texel centre may take the
/// neighbouring footprint.
fn gather(t: &Texture2d, s: &Sampler, at: &Coords, channel: usize, ev: &mut Events) -> [u32; 4] {
    if t.mips.is_empty() {
        return [0; 4];
    }
    let at = &not_nan(at, ev);
    if s.linear && t.mips.len() > 1 {
        raise(ev, Domain::GatherMipmapped);
    }
    let (x0, y0, fx, fy) = bilinear(t, 0, at, ev);
    let edge = |d: f64| !(FRACTION..=1.0 - FRACTION).contains(&d);
    if edge(fx) || edge(fy) {
        raise(ev, Domain::FilterPrecision);
    }
    let (w, h) = t.level_size(0);
    if t.cube()
        && (cube::crosses_edge(at.u * f64::from(w), w, true, FRACTION)
            || cube::crosses_edge(at.v * f64::from(h), h, true, FRACTION))
    {
        raise(ev, Domain::FilterPrecision);
    }
    let footprint = [(x0, y0 + 1), (x0 + 1, y0 + 1), (x0 + 1, y0), (x0, y0)]
        .map(|(x, y)| fetch(t, s, 0, at.layer, x, y));
    for texel in &footprint {
        t.format.enter(texel, ev);
    }
    let texels = footprint.map(|texel| texel[channel & 3]);
    if t.float() && texels.iter().any(|w| f32::from_bits(*w).is_subnormal()) {
        raise(ev, Domain::GatherDenormal);
    }
    texels
}

mod cube;
mod volume;

#[cfg(test)]
mod tests;
