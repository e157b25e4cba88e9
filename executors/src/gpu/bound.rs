//! What a dispatch binds (a buffer, a storage texture's view, a sampled texture's view) and
//! what it reads back.

use super::storage;

/// What one binding holds for a dispatch.
#[derive(Debug)]
pub(super) enum Bound {
    Buffer(wgpu::BufferBindingType, wgpu::Buffer),
    Texture(storage::StorageTexture, wgpu::TextureView),
    /// A sampled texture: its texel type, whether bound filterable, its view dimension.
    Sampled(
        super::plan::Texel,
        bool,
        wgpu::TextureViewDimension,
        wgpu::TextureView,
    ),
    /// A multisampled 2D texture (never filterable): its texel type.
    Multisampled(super::plan::Texel, wgpu::TextureView),
    /// A sampler, and how it is bound: filtering, non-filtering or comparison.
    Sampler(wgpu::SamplerBindingType, wgpu::Sampler),
}

impl Bound {
    pub(super) fn layout_ty(&self) -> wgpu::BindingType {
        match self {
            Bound::Buffer(ty, _) => wgpu::BindingType::Buffer {
                ty: *ty,
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            Bound::Texture(t, _) => t.layout_ty(),
            Bound::Sampled(texel, filterable, dimension, _) => wgpu::BindingType::Texture {
                sample_type: texel.sample_type(*filterable),
                view_dimension: *dimension,
                multisampled: false,
            },
            Bound::Multisampled(texel, _) => wgpu::BindingType::Texture {
                sample_type: texel.sample_type(false),
                view_dimension: wgpu::TextureViewDimension::D2,
                multisampled: true,
            },
            Bound::Sampler(ty, _) => wgpu::BindingType::Sampler(*ty),
        }
    }

    pub(super) fn resource(&self) -> wgpu::BindingResource<'_> {
        match self {
            Bound::Buffer(_, b) => b.as_entire_binding(),
            Bound::Texture(_, v) | Bound::Sampled(.., v) | Bound::Multisampled(_, v) => {
                wgpu::BindingResource::TextureView(v)
            }
            Bound::Sampler(_, s) => wgpu::BindingResource::Sampler(s),
        }
    }
}

/// A binding to read back after the dispatch: a buffer's bytes as they are, or a storage
/// texture's texels of this many words each, every row, layer after layer.
#[derive(Debug)]
pub(super) enum Readback {
    Buffer(wgpu::Buffer, u64),
    Texture(wgpu::Texture, u32),
}
