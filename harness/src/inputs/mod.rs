//! Input vectors for the programs dxdiff runs, as [`Batch`]es: edge-biased words from
//! `generators::values` for generated and corpus programs, and the inputs a case file's run
//! states.
//!
//! A pixel or vertex vector is the program's whole input: its `v#` registers and its
//! constant-buffer contents, because most test programs read their inputs from uniforms.
//! System values get plausible values (a pixel position is a pixel centre, an index is small,
//! `SV_IsFrontFace` is 0 or ~0). SRV buffers get one generated content per program. A compute
//! vector is one dispatch with its own constant buffers, SRV buffers and initial UAV contents.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use oracles::interp::{Buffer, Resources, Srv};
use translator::Translation;
use translator::manifest::BindingKind;

use crate::exec::Batch;

pub mod linkage;
pub mod texels;
pub mod views;

/// Bytes of each generated SRV buffer of a pixel or vertex program.
pub const SRV_BYTES: u32 = 256;
/// The largest generated buffer of a compute program.
const MAX_BYTES: u32 = 1 << 14;

/// A stable 64-bit hash of a name, so each program's inputs depend on the seed and the name.
pub fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// The file name of a program's path: its inputs depend on it and the seed, not on where the
/// folder lies, so a run reproduces from another checkout.
pub fn file_name(name: &str) -> String {
    std::path::Path::new(name)
        .file_name()
        .map_or_else(|| name.to_string(), |n| n.to_string_lossy().into_owned())
}

/// The seed of a named program's inputs.
pub fn program_seed(seed: u64, name: &str) -> u64 {
    seed ^ fnv(file_name(name).as_bytes())
}

/// `n` vectors of a single-instruction program reading `sources` input registers.
pub fn single_op(seed: u64, op: dxbc::Opcode, sources: usize, n: usize) -> Batch {
    let words = generators::values::sample(
        seed ^ (op as u64).wrapping_mul(0x9e37_79b9),
        n * sources * 4,
    );
    let inputs = words
        .chunks_exact(4)
        .map(|w| [w[0], w[1], w[2], w[3]])
        .collect();
    Batch::lanes(sources, inputs, Resources::default())
}

/// A plausible value for a system-value input (a pixel position is a pixel centre, an index is
/// small): the GPU would never produce a NaN position, and D3D defines nothing for one.
///
/// In a quad (`quad`: the pixel's index in it, 0 to 3, and `word` the quad's first vector's),
/// the four positions are the four pixel centres of one 2×2 quad at an even pixel, with one
/// depth: what a rasterizer gives a quad of a screen-aligned primitive, so that a derivative of
/// `SV_Position` is 1 along its axis and 0 across, as on a device.
fn system_value(builtin: &str, word: u32, quad: Option<usize>) -> [u32; 4] {
    let small = word % 1024;
    match (builtin, quad) {
        ("position", Some(i)) => [
            ((small & !1) as f32 + (i & 1) as f32 + 0.5).to_bits(),
            ((((word >> 10) % 1024) & !1) as f32 + (i >> 1) as f32 + 0.5).to_bits(),
            (((word >> 20) % 1024) as f32 / 1024.0).to_bits(),
            1.0f32.to_bits(),
        ],
        ("position", None) => [
            (small as f32 + 0.5).to_bits(),
            (((word >> 10) % 1024) as f32 + 0.5).to_bits(),
            (((word >> 20) % 1024) as f32 / 1024.0).to_bits(),
            1.0f32.to_bits(),
        ],
        ("front_facing", _) => [if word & 1 == 0 { 0 } else { u32::MAX }; 4],
        // A sample of the pipeline's multisampled target, and a mask of any of its samples.
        ("sample_index", _) => [word % dxbc::evaluation::TARGET_SAMPLES; 4],
        ("sample_mask", _) => [word & ((1 << dxbc::evaluation::TARGET_SAMPLES) - 1); 4],
        _ => [small; 4],
    }
}

/// Pixel `pixel` (x = bit 0, y = bit 1) of an attribute's plane over a quad, drawn from the
/// quad's first word: (n + m·x + p·y) / 16 · 2^e with n in [−1024, 1023], slopes m and p in
/// [−64, 63] and e in [−20, 20]. Every evaluation of it at a sixteenth-pixel offset is then
/// exact in any order (under 16 significant bits), so D3D's value is one word
/// (`rules::interpolation`). Always a plane: a rasterizer gives nothing else, and four values
/// on none would be D3D's undefined case, which generated inputs never reach (the
/// interpreter's tests hold that rule).
fn attribute_plane(word: u32, pixel: usize) -> u32 {
    let h = fnv(&word.to_le_bytes());
    let n = (h >> 4 & 0x7ff) as i32 - 1024;
    let m = (h >> 15 & 0x7f) as i32 - 64;
    let p = (h >> 22 & 0x7f) as i32 - 64;
    let e = (h >> 29) % 41;
    let scale = 2f32.powi(e as i32 - 20) / 16.0;
    let (x, y) = ((pixel & 1) as i32, (pixel >> 1 & 1) as i32);
    ((n + m * x + p * y) as f32 * scale).to_bits()
}

/// Doubles at the edges of D3D's double rules: signed zeros, ±1, infinities, a quiet and a
/// signalling NaN, the smallest and largest denormals, the smallest normal, the largest finite,
/// 2^52 (where fractions end), the ends of the i32 and u32 ranges that `dtoi`/`dtou` saturate
/// at, and the f32 range's ends that `dtof` rounds and flushes at.
const DOUBLE_EDGES: [u64; 24] = [
    0,
    0x8000_0000_0000_0000,
    0x3ff0_0000_0000_0000,
    0xbff0_0000_0000_0000,
    0x7ff0_0000_0000_0000,
    0xfff0_0000_0000_0000,
    0x7ff8_0000_0000_0000,
    0x7ff0_0000_0000_0001,
    0x0000_0000_0000_0001,
    0x000f_ffff_ffff_ffff,
    0x0010_0000_0000_0000,
    0x7fef_ffff_ffff_ffff,
    0x3fe0_0000_0000_0000,
    0x4330_0000_0000_0000,
    0x41df_ffff_ffc0_0000,
    0xc1e0_0000_0000_0000,
    0x41ef_ffff_ffe0_0000,
    0x47ef_ffff_e000_0000,
    0x36a0_0000_0000_0000,
    0x3810_0000_0000_0000,
    0x380f_ffff_ffff_ffff,
    0x3ff0_0000_0000_0001,
    0x3fd5_5555_5555_5555,
    0xc000_0000_0000_0000,
];

/// A register of a program with doubles: each of its two doubles (`.xy`, `.zw`) becomes one of
/// [`DOUBLE_EDGES`] a third of the time, drawn from `seed`; the rest keep their random words
/// (random doubles of every exponent).
fn double_edges(reg: &mut [u32; 4], seed: u64) {
    for half in 0..2 {
        let h = fnv(&[seed.to_le_bytes(), (half as u64).to_le_bytes()].concat());
        if h.is_multiple_of(3) {
            let d = DOUBLE_EDGES[((h >> 8) % DOUBLE_EDGES.len() as u64) as usize];
            reg[2 * half] = d as u32;
            reg[2 * half + 1] = (d >> 32) as u32;
        }
    }
}

/// The size of a generated 2D texture: odd sizes, so that halving rounds, and three mip
/// levels (5×3, 2×1, 1×1), so that `ld` past a level's edge and past the last level are both
/// reached by edge-valued coordinates.
const TEXTURE: (u32, u32, usize) = (5, 3, 3);

/// The layers of a generated 2D texture array: three, so that a layer coordinate at the .5
/// ties (0.5, 1.5, 2.5) and past the last layer (clamped) are all reached.
const LAYERS: u32 = 3;

/// The cubes of a generated cube array: three, so that a cube index at the .5 ties (0.5, 1.5,
/// 2.5) and past the last cube (clamped) are all reached, as for an array's layers.
const CUBES: u32 = 3;

/// The face size and levels of a generated cube: square faces of an odd size (5, 2, 1), so that
/// halving rounds, with texels whose centres lie well inside a face as well as at its edges.
const CUBE: (u32, usize) = (5, 3);

/// A generated 2D texture, array, cube or 3D texture for a `texture_2d<T>`,
/// `texture_2d_array<T>`, `texture_cube<T>` or `texture_3d<T>` binding (one texel high for a
/// binding of a 1D texture): a format that reads as `T` ([`texels::format`]) and texel words
/// biased to its edges, reached by D3D's `ld` through the format's conversions.
fn texture(b: &translator::manifest::Binding, seed: u64) -> Option<Srv> {
    use oracles::interp::TextureShape;
    let texel = crate::gpu::plan::Texel::of(&b.layout)?;
    let array = crate::gpu::plan::Texel::is_array(&b.layout);
    let multisampled = crate::gpu::plan::Texel::is_multisampled(&b.layout);
    let view = if multisampled {
        TextureShape::Multisampled
    } else if crate::gpu::plan::Texel::is_cube(&b.layout) && array {
        TextureShape::CubeArray
    } else if crate::gpu::plan::Texel::is_cube(&b.layout) {
        TextureShape::Cube
    } else if crate::gpu::plan::Texel::is_volume(&b.layout) {
        TextureShape::Volume
    } else if b.texture1d {
        if array {
            TextureShape::LineArray
        } else {
            TextureShape::Line
        }
    } else if array {
        TextureShape::Array
    } else {
        TextureShape::Plain
    };
    // A depth texture (read by comparison) is a one-level D16_UNORM shadow map.
    let depth = texel == crate::gpu::plan::Texel::Depth;
    let format = if depth {
        oracles::interp::TexelFormat::D16Unorm
    } else if multisampled {
        // The formats a draw writes exactly, one per texel type (`sampled::fill_wgsl`).
        match texel.kind() {
            oracles::interp::TexelKind::Float => oracles::interp::TexelFormat::R32Float,
            oracles::interp::TexelKind::Uint => oracles::interp::TexelFormat::Rgba16Uint,
            oracles::interp::TexelKind::Sint => oracles::interp::TexelFormat::Rgba16Sint,
        }
    } else {
        texels::format(texel.kind(), seed)
    };
    let (layers, (w, h, levels)) = match view {
        TextureShape::Cube if depth => (6, (CUBE.0, CUBE.0, 1)),
        TextureShape::CubeArray if depth => (6 * CUBES, (CUBE.0, CUBE.0, 1)),
        _ if depth => (
            if view == TextureShape::Array {
                LAYERS
            } else {
                1
            },
            (TEXTURE.0, TEXTURE.1, 1),
        ),
        TextureShape::Plain => (1, TEXTURE),
        // A 1D texture: the width and levels of a 2D one, one texel high.
        TextureShape::Line => (1, (TEXTURE.0, 1, TEXTURE.2)),
        TextureShape::LineArray => (LAYERS, (TEXTURE.0, 1, TEXTURE.2)),
        // A 3D texture's depth: the layers of an array, halving per level (3, 1, 1).
        TextureShape::Array | TextureShape::Volume => (LAYERS, TEXTURE),
        TextureShape::Cube => (6, (CUBE.0, CUBE.0, CUBE.1)),
        TextureShape::CubeArray => (6 * CUBES, (CUBE.0, CUBE.0, CUBE.1)),
        // Four samples (WebGPU's only count) of one level.
        TextureShape::Multisampled => (4, (TEXTURE.0, TEXTURE.1, 1)),
    };
    let mips = (0..levels)
        .map(|m| {
            let slices = if view == TextureShape::Volume {
                (layers >> m).max(1)
            } else {
                layers
            };
            let n = ((w >> m).max(1) * (h >> m).max(1) * slices) as usize;
            let mut words = texels::words(format, n, seed ^ ((m as u64) << 56));
            if multisampled && format == oracles::interp::TexelFormat::R32Float {
                // A draw's float output may quiet a NaN or flush a denormal on its way to the
                // sample: those texels are 0 here, so the sample holds what the words say.
                for w in &mut words {
                    let f = f32::from_bits(*w);
                    if f.is_nan() || f.is_subnormal() {
                        *w = 0;
                    }
                }
            }
            words
        })
        .collect();
    Some(Srv::Texture2d(oracles::interp::Texture2d {
        width: w,
        height: h,
        layers,
        view,
        mips,
        format,
    }))
}

/// The sampler states of a program, one per `s#` binding, drawn from `seed`: point or linear,
/// per axis wrap, clamp or mirror, the address modes every WebGPU device has, and half the
/// time a `MinLOD`/`MaxLOD` range over the generated textures' three levels, its ends on
/// whole and half levels (a point mip filter's ties). (Border and mirror-once have no WebGPU
/// equivalent, so no translator to WGSL can honour them; nor has a LOD bias.)
///
/// A sampler in `linear` (read by `lod`) filters linearly: D3D leaves `lod` undefined through
/// a point mip filter, so such a draw would compare nothing.
fn samplers(
    t: &Translation,
    seed: u64,
    linear: &BTreeSet<u32>,
) -> BTreeMap<u32, oracles::interp::Sampler> {
    use oracles::interp::Address;
    const MODES: [Address; 3] = [Address::Wrap, Address::Clamp, Address::Mirror];
    t.manifest
        .bindings
        .iter()
        .filter(|b| b.kind == BindingKind::Sampler)
        .map(|b| {
            let r = fnv(&(seed ^ u64::from(b.register)).to_le_bytes());
            // A `sampler_comparison` binding gets a comparison function, each of D3D's eight.
            let comparison = b.layout == translator::manifest::BindingLayout::SamplerComparison;
            let linear = r & 1 == 1 || linear.contains(&b.register);
            let sampler = oracles::interp::Sampler {
                linear,
                address: std::array::from_fn(|k| MODES[((r >> (1 + 2 * k)) % 3) as usize]),
                border: [0; 4],
                lod_clamp: lod_clamp(r >> 8),
                compare: comparison
                    .then(|| oracles::interp::Compare::ALL[((r >> 40) % 8) as usize]),
                // No anisotropic filter is drawn: lavapipe runs anisotropic samples past the
                // 20 s GPU timeout and compares cubes otherwise through one (docs/harness.md,
                // "Anisotropic filtering"); case files carry one.
                max_anisotropy: 1,
            };
            (b.register, sampler)
        })
        .collect()
}

/// The `s#` registers a program's `lod` instructions read.
fn lod_samplers(program: &dxbc::Program) -> BTreeSet<u32> {
    program
        .instructions
        .iter()
        .filter(|i| i.opcode == dxbc::Opcode::Lod)
        .filter_map(|i| match i.operands.get(3)?.indices.first()? {
            dxbc::Index::Imm32(r) => Some(*r),
            _ => None,
        })
        .collect()
}

/// A sampler's `MinLOD`/`MaxLOD` from 56 random bits: none half the time, else both ends
/// from 0, 0.5, ..., 2.5, the larger one the maximum.
fn lod_clamp(r: u64) -> (f32, f32) {
    if r & 1 == 0 {
        return oracles::interp::Sampler::NO_LOD_CLAMP;
    }
    let end = |k: u64| (k % 6) as f32 * 0.5;
    let (a, b) = (end(r >> 1), end(r >> 4));
    (a.min(b), a.max(b))
}

fn stage_srvs(t: &Translation, seed: u64) -> BTreeMap<u32, Srv> {
    t.manifest
        .bindings
        .iter()
        .filter(|b| b.kind == BindingKind::Srv)
        .map(|b| {
            if let Some(tex) = texture(b, seed ^ u64::from(b.register)) {
                return (b.register, tex);
            }
            let words = generators::values::sample(
                seed ^ u64::from(b.register).wrapping_mul(0x51_7cc1),
                SRV_BYTES as usize / 4,
            );
            (
                b.register,
                Srv::Buffer(Buffer {
                    words,
                    size_bytes: SRV_BYTES,
                    format: None,
                    texture: None,
                }),
            )
        })
        .collect()
}

/// `n` vectors of a pixel or vertex program: `v#` registers and constant buffers drawn per
/// vector from `seed` (the run's seed with the program's name mixed in, [`program_seed`]),
/// SRV buffers per program from `run_seed`.
///
/// A `program` that needs pixel quads ([`crate::exec::needs_quads`]) gives every vector the
/// first vector's constant buffers, so that the vectors of a quad run together; the samplers
/// its `lod` instructions read filter linearly ([`lod_samplers`]).
pub fn stage(
    t: &Translation,
    program: &dxbc::Program,
    run_seed: u64,
    seed: u64,
    n: usize,
) -> Batch {
    let quads = crate::exec::needs_quads(program);
    let doubles = program
        .instructions
        .iter()
        .any(|i| i.info().kind == dxbc::opcodes::Kind::Double);
    let m = &t.manifest;
    let regs = m
        .inputs
        .iter()
        .filter_map(|i| crate::gpu::wrap::interface_register(i, false))
        .max()
        .map_or(0, |r| r as usize + 1);
    let cbs: Vec<(u32, usize)> = m
        .bindings
        .iter()
        .filter(|b| b.kind == BindingKind::Cbuffer)
        .map(|b| (b.register, b.size_bytes.unwrap_or(16) as usize / 4))
        .collect();
    let cb_words: usize = cbs.iter().map(|(_, n)| n).sum();
    let per = regs * 4 + cb_words;
    let words = generators::values::sample(seed, n * per.max(1));
    let classes = dxbc::Linkage::of(&program.instructions);
    let planes = dxbc::evaluation::planes(&program.instructions);
    // UAVs are the vector's own (the executor runs each vector alone, `gpu::executor`).
    let writes_uavs = m.bindings.iter().any(|b| b.kind == BindingKind::Uav);
    let srvs = stage_srvs(t, run_seed);
    let samplers = samplers(t, seed, &lod_samplers(program));
    let mut inputs = Vec::with_capacity(n * regs);
    let mut resources = Vec::with_capacity(n);
    for k in 0..n {
        let w = &words[k * per..(k + 1) * per];
        let start = inputs.len();
        inputs.extend((0..regs).map(|r| [w[r * 4], w[r * 4 + 1], w[r * 4 + 2], w[r * 4 + 3]]));
        if doubles {
            for (r, reg) in inputs[start..].iter_mut().enumerate() {
                double_edges(reg, seed ^ ((k as u64) << 20) ^ r as u64);
            }
        }
        for i in &m.inputs {
            if let (Some(reg), Some(b)) =
                (crate::gpu::wrap::interface_register(i, false), &i.builtin)
                && let Some(target) = inputs.get_mut(start + reg as usize)
            {
                // A quad's pixels take their position from its first vector's word.
                let (word, quad) = if quads {
                    (words[k / 4 * 4 * per + reg as usize * 4], Some(k % 4))
                } else {
                    (target[0], None)
                };
                let sv = system_value(b, word, quad);
                for (c, (t, s)) in target.iter_mut().zip(sv).enumerate() {
                    if i.mask & (1 << c) != 0 {
                        *t = s;
                    }
                }
            }
        }
        if quads {
            // The attributes the program evaluates off centre lie on a plane over the quad.
            for (reg, mask) in &planes {
                let first = k / 4 * 4 * per + *reg as usize * 4;
                if let Some(target) = inputs.get_mut(start + *reg as usize) {
                    for c in (0..4).filter(|c| mask & (1 << c) != 0) {
                        target[c] = attribute_plane(words[first + c], k % 4);
                    }
                }
            }
        }
        // One set of resources for every vector where nothing in it is drawn per vector (no
        // constant buffers) or where a quad needs it (a quad program): the interpreter then
        // runs the vectors as one batch over all cores instead of one machine each.
        if (quads || cbs.is_empty() && classes.interfaces.is_empty() && !writes_uavs) && k > 0 {
            continue;
        }
        let mut res = Resources {
            srvs: srvs.clone(),
            samplers: samplers.clone(),
            ..Resources::default()
        };
        let mut at = regs * 4;
        for (reg, len) in &cbs {
            res.cbs.insert(*reg, w[at..at + len].to_vec());
            at += len;
        }
        if writes_uavs {
            uav_contents(m, program, [1, 1, 1], seed ^ (k as u64) << 40, &mut res);
        }
        bound_state(program, &classes, seed, k, &mut res);
        resources.push(Arc::new(res));
    }
    if resources.is_empty() {
        resources.push(Arc::new(Resources::default()));
    }
    Batch {
        vectors: n,
        invocations: 1,
        regs,
        inputs,
        resources,
        groups: [1, 1, 1],
    }
}

/// The pipeline state vector `k` binds beside its buffers, the same for every stage: the class
/// instances of a program with interfaces and the initial counts of its hidden counters.
fn bound_state(
    program: &dxbc::Program,
    classes: &dxbc::Linkage,
    seed: u64,
    k: usize,
    res: &mut Resources,
) {
    if let Some(w) = linkage::instances(program, classes, seed ^ (k as u64) << 24) {
        res.cbs.insert(dxbc::CLASS_INSTANCE_CB, w);
    }
    counters(program, seed ^ (k as u64) << 40, res);
}

/// The initial counts of the hidden counters `program` uses (`imm_atomic_alloc`/`consume`):
/// an application's initial count, drawn small (a few allocations from 0) or at the top of
/// the range, where a consume wraps.
fn counters(program: &dxbc::Program, seed: u64, res: &mut Resources) {
    for slot in program.instructions.iter().filter_map(|i| i.counter_uav()) {
        let w = generators::values::sample(seed ^ u64::from(slot).wrapping_mul(0x9e37), 1)[0];
        let count = if w.is_multiple_of(8) {
            u32::MAX - w % 4
        } else {
            w % 17
        };
        res.counters.entry(slot).or_insert(count);
    }
}

/// Fresh contents for every UAV a translation binds, as a compute dispatch's (typed UAV
/// textures in their declared shape; buffers of [`buffer_bytes`] for a `group`'s threads).
fn uav_contents(
    m: &translator::manifest::Manifest,
    program: &dxbc::Program,
    group: [u32; 3],
    seed: u64,
    res: &mut Resources,
) {
    let textures = views::declared(program);
    let threads = group.iter().product::<u32>().max(1);
    for b in m.bindings.iter().filter(|b| b.kind == BindingKind::Uav) {
        let s = seed ^ u64::from(b.register).wrapping_mul(0x2545_f491);
        let uav = match textures.get(&b.register) {
            Some(d) => views::texture(*d, m, b.register, group, s),
            None => {
                let bytes = buffer_bytes(b, threads);
                Buffer {
                    words: generators::values::sample(s, bytes as usize / 4),
                    size_bytes: bytes,
                    format: None,
                    texture: None,
                }
            }
        };
        res.uavs.insert(b.register, uav);
    }
}

/// The generated size of a compute program's buffer binding: two elements per thread, at
/// least 256 bytes.
fn buffer_bytes(b: &translator::manifest::Binding, threads: u32) -> u32 {
    let element = b.stride.unwrap_or(16).max(4);
    (threads.saturating_mul(2).saturating_mul(element))
        .clamp(256, MAX_BYTES)
        .next_multiple_of(4)
}

/// `n` dispatches of one thread group of a compute program, each with its own constant
/// buffers, SRV buffers and initial UAV contents (every thread of the group reads different
/// words, so a dispatch of T threads covers T thread inputs).
pub fn compute(
    t: &Translation,
    program: &dxbc::Program,
    threads: u32,
    seed: u64,
    n: usize,
) -> Batch {
    let m = &t.manifest;
    let uav_textures = views::declared(program);
    let group = m.workgroup_size.unwrap_or([1, 1, 1]);
    let textures: Vec<(u32, Srv)> = m
        .bindings
        .iter()
        .filter(|b| b.kind == BindingKind::Srv)
        .filter_map(|b| Some((b.register, texture(b, seed ^ u64::from(b.register))?)))
        .collect();
    let samplers = samplers(t, seed, &BTreeSet::new());
    let sizes: Vec<(&BindingKind, u32, u32)> = m
        .bindings
        .iter()
        .filter(|b| {
            // Textures (sampled, and typed UAV textures) are made above, not as words, and
            // samplers hold none (a sampler taken for a buffer was a UAV the program lacks:
            // found by `dxdiff fuzz` once random programs sampled textures).
            match b.kind {
                BindingKind::Srv => !textures.iter().any(|(r, _)| *r == b.register),
                BindingKind::Uav => !uav_textures.contains_key(&b.register),
                BindingKind::Cbuffer => true,
                _ => false,
            }
        })
        .map(|b| {
            let bytes = match b.kind {
                BindingKind::Cbuffer => b.size_bytes.unwrap_or(16),
                _ => buffer_bytes(b, threads),
            };
            (&b.kind, b.register, bytes)
        })
        .collect();
    let per: usize = sizes.iter().map(|(_, _, b)| *b as usize / 4).sum();
    let words = generators::values::sample(seed, n * per.max(1));
    let buffer = |words: Vec<u32>, size_bytes: u32| Buffer {
        words,
        size_bytes,
        format: None,
        texture: None,
    };
    let classes = dxbc::Linkage::of(&program.instructions);
    let resources: Vec<Arc<Resources>> = (0..n)
        .map(|k| {
            let mut at = k * per;
            let mut res = Resources::default();
            res.srvs.extend(textures.iter().cloned());
            res.samplers = samplers.clone();
            for (reg, d) in &uav_textures {
                let s = seed ^ u64::from(*reg).wrapping_mul(0x2545_f491) ^ (k as u64) << 32;
                let tex = views::texture(*d, m, *reg, group, s);
                res.uavs.insert(*reg, tex);
            }
            for (kind, reg, bytes) in &sizes {
                let w = words[at..at + *bytes as usize / 4].to_vec();
                at += *bytes as usize / 4;
                match kind {
                    BindingKind::Cbuffer => {
                        res.cbs.insert(*reg, w);
                    }
                    BindingKind::Srv => {
                        res.srvs.insert(*reg, Srv::Buffer(buffer(w, *bytes)));
                    }
                    _ => {
                        res.uavs.insert(*reg, buffer(w, *bytes));
                    }
                }
            }
            bound_state(program, &classes, seed, k, &mut res);
            Arc::new(res)
        })
        .collect();
    Batch {
        vectors: n,
        invocations: 1,
        regs: 0,
        inputs: Vec::new(),
        resources: if resources.is_empty() {
            vec![Arc::new(Resources::default())]
        } else {
            resources
        },
        groups: [1, 1, 1],
    }
}

/// Why a case file's run cannot be fed. Code: `case.inputs` (the only kind; the binding code
/// in `oracles::replay` reports its reasons as text).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CaseInputError {
    /// The run's inputs cannot be bound; `oracles::replay::resources`'s reason.
    #[error("{0}")]
    Inputs(String),
}

impl CaseInputError {
    /// A stable, machine-readable code for this kind of error.
    pub fn code(&self) -> &'static str {
        match self {
            CaseInputError::Inputs(_) => "case.inputs",
        }
    }
}

/// A case file's run as one vector: its resources, its invocations' `v#` registers, its
/// dispatch. `Err` says why the run's inputs cannot be bound.
pub fn case_batch(run: &oracles::case::Run) -> Result<Batch, CaseInputError> {
    let (res, invocations) = oracles::replay::resources(run).map_err(CaseInputError::Inputs)?;
    let regs = invocations.iter().map(Vec::len).max().unwrap_or(0);
    let mut inputs = Vec::with_capacity(invocations.len() * regs);
    for inv in &invocations {
        inputs.extend(inv.iter().copied());
        inputs.extend(std::iter::repeat_n([0; 4], regs - inv.len()));
    }
    Ok(Batch {
        vectors: 1,
        invocations: invocations.len().max(1),
        regs,
        inputs,
        resources: vec![Arc::new(res)],
        groups: run.dispatch.unwrap_or([1, 1, 1]),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_op_vectors_have_their_sources() {
        let b = single_op(1, dxbc::Opcode::Add, 2, 10);
        assert_eq!((b.vectors, b.regs, b.inputs.len()), (10, 2, 20));
        assert_eq!(b.invocation(3, 0).len(), 2);
        assert!(b.shared_resources());
        // The same seed gives the same words.
        assert_eq!(single_op(1, dxbc::Opcode::Add, 2, 10).inputs, b.inputs);
    }

    #[test]
    fn a_quads_positions_are_its_four_pixel_centres() {
        let word = 0x1234_5677;
        let px: Vec<[f32; 4]> = (0..4)
            .map(|i| system_value("position", word, Some(i)).map(f32::from_bits))
            .collect();
        // x steps by 1 across the quad's columns, y by 1 down its rows, from an even pixel.
        assert_eq!(px[1][0] - px[0][0], 1.0);
        assert_eq!(px[2][1] - px[0][1], 1.0);
        assert_eq!((px[3][0], px[3][1]), (px[1][0], px[2][1]));
        assert_eq!((px[0][0] - 0.5) % 2.0, 0.0);
        assert!(px.iter().all(|p| p[2] == px[0][2] && p[3] == 1.0));
    }

    #[test]
    fn case_input_error_has_a_code() {
        assert!(!CaseInputError::Inputs("x".into()).code().is_empty());
    }

    #[test]
    fn inputs_depend_on_the_file_name_only() {
        assert_eq!(program_seed(5, "a/b/x.o"), program_seed(5, "c/x.o"));
        assert_ne!(program_seed(5, "a/x.o"), program_seed(5, "a/y.o"));
    }
}
