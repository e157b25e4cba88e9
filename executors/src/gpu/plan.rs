//! What one dispatch binds, decided before any device object exists: every binding's group,
//! slot kind and initial words, and which of them come back afterwards. wgpu
//! ([`super::Gpu::run_kernel`]) and the browser ([`crate::chrome`]) both execute the same plan,
//! so a difference between them is a difference of the implementations, never of the feeding.

use translator::Manifest;
use translator::manifest::{BindingKind, BindingLayout};

use super::storage::{Slots, StorageTexture, Unpack};
use super::{BindingClass, ComputeInputs, GpuError, Records};

pub use super::Limits;

/// How a binding is declared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// `var<uniform>`.
    Uniform,
    /// `var<storage>`, read-only or read-write.
    Storage {
        /// `read` rather than `read_write`.
        read_only: bool,
    },
    /// A sampler.
    Sampler(super::SamplerState),
    /// A sampled 2D texture or array (`texture_2d<T>`, `texture_2d_array<T>`), its words in
    /// the shape's format.
    Sampled {
        /// Its size and mips.
        shape: super::TextureShape,
        /// Its texel type.
        texel: Texel,
    },
    /// A storage texture: a typed buffer's one row of `width` texels, or a UAV texture.
    Texture {
        /// Its declaration.
        texture: StorageTexture,
        /// Texels in a row.
        width: u32,
        /// Rows (1 for a row or a 1D texture).
        height: u32,
        /// Array layers or 3D slices (1 otherwise).
        layers: u32,
    },
}

/// The texel type of a sampled texture: the `T` of `texture_2d<T>`. The texture's own format
/// (in its [`super::TextureShape`]) must read as that type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Texel {
    /// `f32`: UNORM, sRGB and float formats.
    Float,
    /// `u32`: UINT formats.
    Uint,
    /// `i32`: SINT formats.
    Sint,
    /// A `texture_depth_*`: a depth format, read by comparison.
    Depth,
}

impl Texel {
    /// The texel type of a manifest layout, for the sampled 2D textures, arrays, cubes and 3D
    /// textures dxdiff binds.
    pub fn of(layout: &BindingLayout) -> Option<Texel> {
        use BindingLayout as L;
        match layout {
            L::TextureMultisampled2dF32
            | L::Texture2dF32
            | L::Texture2dArrayF32
            | L::TextureCubeF32
            | L::TextureCubeArrayF32
            | L::Texture3dF32 => Some(Texel::Float),
            L::TextureMultisampled2dU32
            | L::Texture2dU32
            | L::Texture2dArrayU32
            | L::TextureCubeU32
            | L::TextureCubeArrayU32
            | L::Texture3dU32 => Some(Texel::Uint),
            L::TextureMultisampled2dI32
            | L::Texture2dI32
            | L::Texture2dArrayI32
            | L::TextureCubeI32
            | L::TextureCubeArrayI32
            | L::Texture3dI32 => Some(Texel::Sint),
            L::TextureDepth2d
            | L::TextureDepth2dArray
            | L::TextureDepthCube
            | L::TextureDepthCubeArray => Some(Texel::Depth),
            _ => None,
        }
    }

    /// Whether a manifest layout is a multisampled texture.
    pub fn is_multisampled(layout: &BindingLayout) -> bool {
        use BindingLayout as L;
        matches!(
            layout,
            L::TextureMultisampled2dF32 | L::TextureMultisampled2dU32 | L::TextureMultisampled2dI32
        )
    }

    /// Whether a manifest layout is a 3D texture.
    pub fn is_volume(layout: &BindingLayout) -> bool {
        use BindingLayout as L;
        matches!(layout, L::Texture3dF32 | L::Texture3dU32 | L::Texture3dI32)
    }

    /// Whether a manifest layout is a cube texture.
    pub fn is_cube(layout: &BindingLayout) -> bool {
        use BindingLayout as L;
        matches!(
            layout,
            L::TextureCubeF32
                | L::TextureCubeU32
                | L::TextureCubeI32
                | L::TextureDepthCube
                | L::TextureCubeArrayF32
                | L::TextureCubeArrayU32
                | L::TextureCubeArrayI32
                | L::TextureDepthCubeArray
        )
    }

    /// Whether a manifest layout is a texture array (a cube array too).
    pub fn is_array(layout: &BindingLayout) -> bool {
        matches!(
            layout,
            BindingLayout::Texture2dArrayF32
                | BindingLayout::Texture2dArrayU32
                | BindingLayout::Texture2dArrayI32
                | BindingLayout::TextureDepth2dArray
                | BindingLayout::TextureCubeArrayF32
                | BindingLayout::TextureCubeArrayU32
                | BindingLayout::TextureCubeArrayI32
                | BindingLayout::TextureDepthCubeArray
        )
    }

    /// What a format must read as to be bound here.
    pub fn kind(self) -> oracles::interp::TexelKind {
        match self {
            Texel::Float | Texel::Depth => oracles::interp::TexelKind::Float,
            Texel::Uint => oracles::interp::TexelKind::Uint,
            Texel::Sint => oracles::interp::TexelKind::Sint,
        }
    }

    /// How a bind group layout declares it: filterable where the format is (32-bit floats only
    /// where the device has `float32-filterable`).
    pub fn sample_type(self, filterable: bool) -> wgpu::TextureSampleType {
        match self {
            Texel::Float => wgpu::TextureSampleType::Float { filterable },
            Texel::Uint => wgpu::TextureSampleType::Uint,
            Texel::Sint => wgpu::TextureSampleType::Sint,
            Texel::Depth => wgpu::TextureSampleType::Depth,
        }
    }
}

/// What a binding's words become after the dispatch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Back {
    /// The UAV at this register: its words, unpacked from wider slots when typed.
    Uav(u32, Option<Unpack>),
    /// The output records of a wrapped pixel or vertex kernel.
    Records,
}

/// One binding of the dispatch.
#[derive(Debug, Clone, PartialEq)]
pub struct Planned {
    /// `@group`.
    pub group: u32,
    /// `@binding`.
    pub binding: u32,
    /// How it is declared.
    pub slot: Slot,
    /// Initial words; the rest of [`Planned::words_len`] is zero.
    pub words: Vec<u32>,
    /// The resource's length in words (at least one).
    pub words_len: usize,
    /// Whether and how it is read back.
    pub back: Option<Back>,
}

impl Planned {
    /// The initial contents as words, zero-filled to the full length (what a browser job
    /// carries).
    pub fn full_words(&self) -> Vec<u32> {
        let mut w = self.words.clone();
        w.resize(self.words_len, 0);
        w
    }

    /// The initial contents as bytes, zero-filled to the full length.
    pub fn bytes(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(self.words_len * 4);
        for w in self.words.iter().take(self.words_len) {
            v.extend_from_slice(&w.to_le_bytes());
        }
        v.resize(self.words_len * 4, 0);
        v
    }
}

/// Every binding of one dispatch, and how many bind groups its pipeline has (groups nothing
/// is bound in get empty layouts).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Plan {
    /// The translator's resources where its manifest declares them, then the harness's
    /// records in the group the wrapper chose.
    pub bindings: Vec<Planned>,
    /// Groups 0..group_count.
    pub group_count: u32,
}

impl Plan {
    /// The UAV words and output records from the words read back, in the order of the
    /// bindings that have a [`Back`].
    pub fn unpack(
        &self,
        read: Vec<Vec<u32>>,
    ) -> (std::collections::BTreeMap<u32, Vec<u32>>, Option<Vec<u32>>) {
        let mut uavs = std::collections::BTreeMap::new();
        let mut records = None;
        let backs = self.bindings.iter().filter_map(|b| b.back);
        for (back, words) in backs.zip(read) {
            match back {
                Back::Uav(register, None) => {
                    uavs.insert(register, words);
                }
                Back::Uav(register, Some((lanes, elements, element))) => {
                    uavs.insert(register, element.unpack(&words, elements, lanes));
                }
                Back::Records => records = Some(words),
            }
        }
        (uavs, records)
    }
}

/// The slot of a typed UAV texture `shape` (its words `words` long) bound where `b` declares
/// the storage texture `texture`: the view's dimension, format and the texture must agree,
/// or the device and the interpreter would address or convert different texels.
fn uav_texture(
    b: &translator::manifest::Binding,
    texture: StorageTexture,
    shape: &super::TextureShape,
    words: usize,
) -> Result<Slot, GpuError> {
    use wgpu::TextureViewDimension as D;
    let fits = match texture.dimension {
        D::D1 => shape.line && !shape.array,
        D::D2 => !shape.array && !shape.volume && (shape.line == b.texture1d),
        D::D2Array => shape.array && (shape.line == b.texture1d),
        D::D3 => shape.volume,
        _ => false,
    };
    let unfeedable = |why: String| Err(GpuError::Unfeedable(format!("u{}: {why}", b.register)));
    if !fits || shape.cube || (shape.line && shape.height != 1) {
        return unfeedable(format!(
            "declared `{}` and its texture is a {}{} view",
            b.layout.as_str(),
            if shape.line { "1D " } else { "" },
            shape.view_dimension_name()
        ));
    }
    if texture.texel != shape.format {
        return unfeedable(format!(
            "declared `{}` and its texture is {}",
            b.layout.as_str(),
            shape.format.name()
        ));
    }
    if words as u64 != shape.words() {
        return unfeedable(format!(
            "its texture has {words} words where its shape takes {}",
            shape.words()
        ));
    }
    Ok(Slot::Texture {
        texture,
        width: shape.width,
        height: shape.height,
        layers: shape.layers.max(1),
    })
}

/// The plan for `manifest`'s bindings fed from `inputs`, plus `records`; an error when the
/// harness cannot feed a binding or the device's limits do not allow it.
pub fn plan(
    manifest: &Manifest,
    inputs: &ComputeInputs,
    records: Option<&Records>,
    limits: &Limits,
) -> Result<Plan, GpuError> {
    let element = |class, register| {
        inputs
            .elements
            .get(&(class, register))
            .copied()
            .unwrap_or_default()
    };
    let mut bindings = Vec::new();
    for b in &manifest.bindings {
        let at = |slot, words: Vec<u32>, words_len: usize, back| Planned {
            group: b.group,
            binding: b.binding,
            slot,
            words,
            words_len: words_len.max(1),
            back,
        };
        let uav = b.kind == BindingKind::Uav;
        if uav && let Some(texture) = StorageTexture::parse(b.layout.as_str())? {
            if let Some(shape) = inputs.uav_textures.get(&b.register) {
                let words = inputs.uavs.get(&b.register).cloned().unwrap_or_default().0;
                bindings.push(at(
                    uav_texture(b, texture, shape, words.len())?,
                    words,
                    shape.words() as usize,
                    Some(Back::Uav(b.register, None)),
                ));
                continue;
            }
            let (words, size) = inputs.uavs.get(&b.register).cloned().unwrap_or_default();
            let e = element(BindingClass::Uav, b.register);
            let elements = e.count(size);
            let width = texture.width(elements, limits)?;
            let lanes = texture.lanes();
            let packed = e.pack(&words, elements, lanes);
            let len = (width * lanes) as usize;
            let back = Back::Uav(b.register, Some((lanes, elements, e)));
            bindings.push(at(
                Slot::Texture {
                    texture,
                    width,
                    height: 1,
                    layers: 1,
                },
                packed,
                len,
                Some(back),
            ));
            continue;
        }
        if uav && inputs.uav_textures.contains_key(&b.register) {
            return Err(GpuError::Unfeedable(format!(
                "u{} is a texture and its binding is `{}`, no storage texture",
                b.register,
                b.layout.as_str()
            )));
        }
        let storage = Slot::Storage { read_only: !uav };
        let planned = match &b.kind {
            // One atomic word, at the view's initial count; not read back (the reference's
            // final count has no place in the results).
            BindingKind::UavCounter => {
                let count = inputs.counters.get(&b.register).copied().unwrap_or(0);
                at(Slot::Storage { read_only: false }, vec![count], 1, None)
            }
            BindingKind::Cbuffer => {
                let words = inputs.cbs.get(&b.register).cloned().unwrap_or_default();
                let len = b.size_bytes.unwrap_or(16) as usize / 4;
                at(Slot::Uniform, words, len, None)
            }
            BindingKind::Srv | BindingKind::Uav
                if b.layout == BindingLayout::StorageVec4U32Array =>
            {
                let (class, (words, size)) = if uav {
                    let w = inputs.uavs.get(&b.register).cloned();
                    (BindingClass::Uav, w.unwrap_or_default())
                } else {
                    let w = inputs.srvs.get(&b.register).cloned();
                    (BindingClass::Srv, w.unwrap_or_default())
                };
                let e = element(class, b.register);
                let n = e.count(size);
                let words = e.pack(&words, n, 4);
                let len = words.len();
                let back = uav.then_some(Back::Uav(b.register, Some((4, n, e))));
                at(storage, words, len, back)
            }
            BindingKind::Srv | BindingKind::Uav if b.layout.is_storage() => {
                let held = if uav { &inputs.uavs } else { &inputs.srvs };
                let (words, size) = held.get(&b.register).cloned().unwrap_or_default();
                let back = uav.then_some(Back::Uav(b.register, None));
                at(storage, words, size as usize / 4, back)
            }
            BindingKind::Srv if let Some(texel) = Texel::of(&b.layout) => {
                let Some((shape, words)) = inputs.textures.get(&b.register).cloned() else {
                    return Err(GpuError::Unfeedable(format!(
                        "t{} is a texture and the vector has none for it",
                        b.register
                    )));
                };
                if shape.format.kind() != texel.kind()
                    || shape.format.depth() != (texel == Texel::Depth)
                {
                    return Err(GpuError::Unfeedable(format!(
                        "t{} is declared `{}` and its texture is {}, which reads as another type",
                        b.register,
                        b.layout.as_str(),
                        shape.format.name()
                    )));
                }
                // The view the shader declares and the texture's shape must agree, and the
                // words must fill every level: a device refuses anything else at bind time.
                let view = (
                    Texel::is_array(&b.layout),
                    Texel::is_cube(&b.layout),
                    Texel::is_volume(&b.layout),
                );
                // A 1D texture's binding reads the row at v = 0.5 and its layer from y: only a
                // 1D texture (one texel high) fits it, and a 1D texture fits only it, or the
                // device and the interpreter address different texels.
                if view != (shape.array, shape.cube, shape.volume)
                    || Texel::is_multisampled(&b.layout) != shape.multisampled
                    || b.texture1d != shape.line
                    || (shape.line && shape.height != 1)
                {
                    return Err(GpuError::Unfeedable(format!(
                        "t{} is declared `{}` and its texture is a {} view",
                        b.register,
                        b.layout.as_str(),
                        shape.view_dimension_name()
                    )));
                }
                // WebGPU's multisampled textures have 4 samples, filled by a draw that writes
                // only formats whose texels a fragment output carries exactly.
                if shape.multisampled
                    && (shape.layers != 4
                        || super::sampled::fill_wgsl(shape.format, 1, 1).is_none())
                {
                    return Err(GpuError::Unfeedable(format!(
                        "t{}: a multisampled {} texture of {} samples (fed: 4 samples of \
                         R32_FLOAT, R16G16B16A16_UINT or R16G16B16A16_SINT)",
                        b.register,
                        shape.format.name(),
                        shape.layers
                    )));
                }
                if words.len() as u64 != shape.words() {
                    return Err(GpuError::Unfeedable(format!(
                        "t{}'s texture has {} words where its shape takes {}",
                        b.register,
                        words.len(),
                        shape.words()
                    )));
                }
                // 1- and 2-byte texels are held one to a word: the device takes them packed.
                let bytes = shape.format.bytes();
                let words = if bytes < 4 {
                    let (bits, per) = (8 * bytes as u32, 4 / bytes);
                    let mask = shape.format.word_mask();
                    words
                        .chunks(per)
                        .map(|p| {
                            p.iter()
                                .zip(0..)
                                .fold(0, |acc, (w, i)| acc | ((w & mask) << (bits * i)))
                        })
                        .collect()
                } else {
                    words
                };
                let len = words.len();
                at(Slot::Sampled { shape, texel }, words, len, None)
            }
            BindingKind::Sampler => {
                let Some(state) = inputs.samplers.get(&b.register).copied() else {
                    return Err(GpuError::Unfeedable(format!(
                        "s{} is a sampler and the vector has no state for it",
                        b.register
                    )));
                };
                // WebGPU has no border colour and no mirror-once (wgpu's clamp-to-border is
                // a native feature that browsers lack): no WGSL translation can honour them.
                if let Some(a) = state.address.iter().find(|a| {
                    matches!(
                        a,
                        oracles::interp::Address::Border | oracles::interp::Address::MirrorOnce
                    )
                }) {
                    return Err(GpuError::Unfeedable(format!(
                        "s{}: address mode {} has no WebGPU equivalent",
                        b.register,
                        a.name()
                    )));
                }
                let state = if b.layout == BindingLayout::SamplerNonFiltering {
                    state.non_filtering()
                } else {
                    state
                };
                at(Slot::Sampler(state), Vec::new(), 0, None)
            }
            other => {
                return Err(GpuError::Unfeedable(format!(
                    "{other} bindings ({}) are not fed yet",
                    b.layout
                )));
            }
        };
        bindings.push(planned);
    }
    if let Some(r) = records {
        let at = |binding, slot, words: Vec<u32>, words_len: usize, back| Planned {
            group: r.group,
            binding,
            slot,
            words,
            words_len: words_len.max(1),
            back,
        };
        let read = Slot::Storage { read_only: true };
        let write = Slot::Storage { read_only: false };
        let n = r.input.len();
        bindings.push(at(0, read, r.input.clone(), n, None));
        let out = r.out_words as usize;
        bindings.push(at(1, write, Vec::new(), out, Some(Back::Records)));
        for (i, w) in r.lane_buffers.iter().enumerate() {
            bindings.push(at(2 + i as u32, read, w.clone(), w.len(), None));
        }
    }
    let group_count = bindings
        .iter()
        .map(|b| b.group.saturating_add(1))
        .max()
        .unwrap_or(0);
    if group_count > limits.bind_groups {
        return Err(GpuError::Unfeedable(format!(
            "the module needs {group_count} bind groups (its own and the harness's records), \
             the device allows {}",
            limits.bind_groups
        )));
    }
    Ok(Plan {
        bindings,
        group_count,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use translator::manifest::Binding;

    fn binding(kind: BindingKind, register: u32, group: u32, layout: BindingLayout) -> Binding {
        Binding {
            kind,
            register,
            group,
            binding: register,
            layout,
            size_bytes: Some(16),
            stride: None,
            texture1d: false,
        }
    }

    const LIMITS: Limits = Limits {
        bind_groups: 4,
        texture_1d: 8,
        texture_2d: 8,
    };

    #[test]
    fn buffers_textures_and_records_are_planned_in_order_and_read_back() {
        let m = Manifest {
            bindings: vec![
                binding(BindingKind::Cbuffer, 0, 0, BindingLayout::UniformVec4Array),
                binding(BindingKind::Uav, 1, 0, BindingLayout::StorageU32Array),
                binding(
                    BindingKind::Uav,
                    2,
                    2,
                    BindingLayout::Other("texture_storage_1d<rg32uint, write>".into()),
                ),
            ],
            ..Manifest::default()
        };
        let mut inputs = ComputeInputs::default();
        inputs.cbs.insert(0, vec![7]);
        inputs.uavs.insert(1, (vec![1, 2], 12));
        inputs.uavs.insert(2, (vec![5, 6, 7], 12));
        let records = Records {
            group: 3,
            input: vec![9; 4],
            out_words: 8,
            lane_buffers: vec![],
            grid: None,
        };
        let p = plan(&m, &inputs, Some(&records), &LIMITS).expect("planned");
        assert_eq!(p.group_count, 4);
        assert_eq!(p.bindings[0].bytes().len(), 16);
        assert_eq!(p.bindings[1].bytes(), [1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0]);
        let Slot::Texture { width, .. } = p.bindings[2].slot else {
            panic!("a texture")
        };
        // Three one-word elements, one rg32uint texel each.
        assert_eq!((width, p.bindings[2].words_len), (3, 6));
        let (uavs, out) = p.unpack(vec![vec![3, 4, 5], vec![1, 0, 2, 0, 3, 0], vec![8; 8]]);
        assert_eq!(uavs[&1], [3, 4, 5]);
        assert_eq!(uavs[&2], [1, 2, 3]);
        assert_eq!(out, Some(vec![8; 8]));
        let tight = Limits {
            bind_groups: 3,
            ..LIMITS
        };
        let e = plan(&m, &inputs, Some(&records), &tight).expect_err("4 groups");
        assert_eq!(e.code(), "gpu.unfeedable");
        let narrow = Limits {
            texture_1d: 2,
            ..LIMITS
        };
        assert!(plan(&m, &inputs, None, &narrow).is_err());
    }

    /// 1- and 2-byte texels, held one to a word, reach the device packed, and a 1D texture's
    /// binding takes a texture one texel high only.
    #[test]
    fn narrow_texels_are_packed_for_the_device() {
        use crate::gpu::sampled::TextureShape;
        use oracles::interp::TexelFormat;
        for (format, want) in [
            (TexelFormat::R8Unorm, vec![0x0403_0201, 0x05]),
            (TexelFormat::R16Float, vec![0x0002_0001, 0x0004_0003, 0x05]),
            (TexelFormat::R32Float, vec![1, 2, 3, 4, 5]),
        ] {
            let mut t0 = binding(BindingKind::Srv, 0, 0, BindingLayout::Texture2dF32);
            let m = Manifest {
                bindings: vec![t0.clone()],
                ..Manifest::default()
            };
            let shape = TextureShape {
                format,
                width: 5,
                height: 1,
                mips: 1,
                layers: 1,
                array: false,
                cube: false,
                volume: false,
                line: false,
                multisampled: false,
            };
            let mut inputs = ComputeInputs::default();
            inputs.textures.insert(0, (shape, vec![1, 2, 3, 4, 5]));
            let p = plan(&m, &inputs, None, &LIMITS).expect("planned");
            let bytes = p.bindings[0].bytes();
            let words: Vec<u32> = bytes
                .chunks(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
            assert_eq!(words, want, "{}", format.name());
            assert_eq!(shape.bytes(), 5 * format.bytes());
            // A 2D texture does not fit a 1D texture's binding; a 1D texture fits it, and only
            // it; two rows are no 1D texture.
            t0.texture1d = true;
            let m1 = Manifest {
                bindings: vec![t0],
                ..Manifest::default()
            };
            assert!(plan(&m1, &inputs, None, &LIMITS).is_err());
            let line = TextureShape {
                line: true,
                ..shape
            };
            inputs.textures.insert(0, (line, vec![1, 2, 3, 4, 5]));
            assert!(plan(&m1, &inputs, None, &LIMITS).is_ok());
            assert!(plan(&m, &inputs, None, &LIMITS).is_err());
            let tall = TextureShape { height: 2, ..line };
            inputs.textures.insert(0, (tall, vec![0; 10]));
            assert!(plan(&m1, &inputs, None, &LIMITS).is_err());
        }
    }
}
