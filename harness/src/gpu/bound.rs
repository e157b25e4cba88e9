//! What a dispatch binds (a buffer, or a storage texture's view) and what it reads back.

use super::storage;

/// What one binding holds for a dispatch.
#[derive(Debug)]
pub(super) enum Bound {
    Buffer(wgpu::BufferBindingType, wgpu::Buffer),
    Texture(storage::StorageTexture, wgpu::TextureView),
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
        }
    }

    pub(super) fn resource(&self) -> wgpu::BindingResource<'_> {
        match self {
            Bound::Buffer(_, b) => b.as_entire_binding(),
            Bound::Texture(_, v) => wgpu::BindingResource::TextureView(v),
        }
    }
}

/// A UAV to read back after the dispatch: a buffer's bytes as they are, or a storage
/// texture's texels with the element count and words per element to unpack.
#[derive(Debug)]
pub(super) enum Readback {
    Buffer(wgpu::Buffer, u64),
    Texture {
        texture: wgpu::Texture,
        layout: storage::StorageTexture,
        elements: u32,
        channels: u32,
    },
}

/// How a storage texture's readback becomes words: its layout, elements and words per element.
pub(super) type Unpack = (storage::StorageTexture, u32, u32);
