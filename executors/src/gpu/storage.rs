//! Typed elements in wider slots: a typed buffer's elements (one to four 32-bit words each, by
//! format) as a translator may lay them out, in a storage texture
//! (`texture_storage_1d<rgba32uint, write>`, one texel per element) or in a storage buffer of
//! `vec4<u32>` (`storage-vec4-u32-array`, one vec4 per element). Before the dispatch each
//! element fills its slot's first lanes and the rest take D3D's defaults for a missing
//! channel (0, and 1 or 1.0 for alpha: what a typed load of the element returns); after it,
//! the element's own lanes are read back into words.
//!
//! Only texture formats of 32-bit lanes carry words unchanged; any other format, a 3D or array
//! texture, or an element count past the device's texture size is unfeedable (the harness's
//! limit, never the translator's crash).

use oracles::interp::TexelFormat;

use super::GpuError;

/// A typed element: the view's format (its channels, and whether a missing alpha is 1.0 or 1),
/// `R32_UINT` by default, as the interpreter reads it.
pub type Element = oracles::interp::Format;

/// Typed elements in slots of `lanes` words.
pub trait Slots {
    /// Elements in `size_bytes`.
    fn count(&self, size_bytes: u32) -> u32;
    /// Slots of `lanes` words: element `e`'s words, then D3D's defaults for a missing channel
    /// ([`oracles::interp::Format::expand`]); at least one slot.
    fn pack(&self, words: &[u32], elements: u32, lanes: u32) -> Vec<u32>;
    /// The words of `elements` elements read back from slots of `lanes` words (the inverse of
    /// [`pack`](Self::pack)); a channel past the slot reads 0.
    fn unpack(&self, slots: &[u32], elements: u32, lanes: u32) -> Vec<u32>;
}

impl Slots for Element {
    fn count(&self, size_bytes: u32) -> u32 {
        size_bytes / self.stride().max(4)
    }

    fn pack(&self, words: &[u32], elements: u32, lanes: u32) -> Vec<u32> {
        let ch = usize::from(self.channels.max(1));
        let lanes = lanes as usize;
        let mut out = Vec::with_capacity(elements.max(1) as usize * lanes);
        for e in 0..elements as usize {
            // Words past the end of `words` read as zero, as in the interpreter's buffers.
            let present: [u32; 4] = std::array::from_fn(|c| {
                (c < ch)
                    .then(|| words.get(e * ch + c).copied())
                    .flatten()
                    .unwrap_or(0)
            });
            out.extend_from_slice(&self.expand(&present[..ch.min(4)])[..lanes]);
        }
        out.resize(out.len().max(lanes), 0);
        out
    }

    fn unpack(&self, slots: &[u32], elements: u32, lanes: u32) -> Vec<u32> {
        let ch = u32::from(self.channels.max(1));
        (0..elements)
            .flat_map(|e| (0..ch).map(move |c| (e, c)))
            .map(|(e, c)| {
                if c < lanes {
                    slots.get((e * lanes + c) as usize).copied().unwrap_or(0)
                } else {
                    0
                }
            })
            .collect()
    }
}

/// A storage-texture binding, read from its manifest layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StorageTexture {
    /// `D1`, `D2`, `D2Array` or `D3`.
    pub dimension: wgpu::TextureViewDimension,
    /// Its texel format: a typed buffer's row needs one of 32-bit lanes
    /// ([`TexelFormat::wide`]); a UAV texture's is the view's.
    pub texel: TexelFormat,
    /// `write`, `read` or `read_write`.
    pub access: wgpu::StorageTextureAccess,
}

impl StorageTexture {
    /// The binding a layout such as `texture_storage_2d<r32float, read_write>` describes;
    /// `Ok(None)` for a layout that is no storage texture, an error for one the harness cannot
    /// feed.
    pub fn parse(layout: &str) -> Result<Option<StorageTexture>, GpuError> {
        let Some(rest) = layout.trim().strip_prefix("texture_storage_") else {
            return Ok(None);
        };
        let unfeedable = |why: &str| Err(GpuError::Unfeedable(format!("`{layout}`: {why}")));
        let Some((dim, args)) = rest.split_once('<') else {
            return unfeedable("no texel format");
        };
        let dimension = match dim.trim() {
            "1d" => wgpu::TextureViewDimension::D1,
            "2d" => wgpu::TextureViewDimension::D2,
            "2d_array" => wgpu::TextureViewDimension::D2Array,
            "3d" => wgpu::TextureViewDimension::D3,
            _ => return unfeedable("not a 1D, 2D, 2D-array or 3D storage texture"),
        };
        let args = args.trim_end().trim_end_matches('>');
        let (name, access) = args.split_once(',').unwrap_or((args, "write"));
        let Some(texel) = super::sampled::format_of_name(name.trim()) else {
            return unfeedable("a texel format dxdiff does not feed");
        };
        let access = match access.trim() {
            "write" => wgpu::StorageTextureAccess::WriteOnly,
            "read" => wgpu::StorageTextureAccess::ReadOnly,
            "read_write" => wgpu::StorageTextureAccess::ReadWrite,
            _ => return unfeedable("an unknown access mode"),
        };
        Ok(Some(StorageTexture {
            dimension,
            texel,
            access,
        }))
    }

    /// The device format.
    pub fn format(&self) -> wgpu::TextureFormat {
        super::sampled::wgpu_format(self.texel)
    }

    /// Words per texel.
    pub fn lanes(&self) -> u32 {
        self.texel.words() as u32
    }

    /// The bind-group layout entry.
    pub fn layout_ty(&self) -> wgpu::BindingType {
        wgpu::BindingType::StorageTexture {
            access: self.access,
            format: self.format(),
            view_dimension: self.dimension,
        }
    }

    /// The row of a typed buffer's `elements` elements: at least one texel, at most the
    /// device's widest texture of this dimension, in a format of 32-bit lanes that carries the
    /// words unchanged.
    pub fn width(&self, elements: u32, limits: &super::Limits) -> Result<u32, GpuError> {
        let width = elements.max(1);
        let max = match self.dimension {
            wgpu::TextureViewDimension::D1 => limits.texture_1d,
            wgpu::TextureViewDimension::D2 => limits.texture_2d,
            _ => {
                return Err(GpuError::Unfeedable(
                    "a typed buffer is fed as a 1D or 2D storage texture row only".into(),
                ));
            }
        };
        if !self.texel.wide() {
            return Err(GpuError::Unfeedable(format!(
                "a typed buffer in a {} storage texture: only formats of 32-bit lanes carry \
                 the UAV's words unchanged",
                self.format_name()
            )));
        }
        if width > max {
            return Err(GpuError::Unfeedable(format!(
                "a storage texture of {width} texels; the device allows {max}"
            )));
        }
        Ok(width)
    }

    /// The texel format's WGSL (and WebGPU) name.
    pub fn format_name(&self) -> &'static str {
        super::sampled::format_name(self.texel)
    }

    /// The WebGPU `storageTexture.access` value.
    pub fn access_name(&self) -> &'static str {
        match self.access {
            wgpu::StorageTextureAccess::ReadOnly => "read-only",
            wgpu::StorageTextureAccess::ReadWrite => "read-write",
            _ => "write-only",
        }
    }

    /// The WebGPU view dimension (`1d`, `2d`, `2d-array` or `3d`).
    pub fn dimension_name(&self) -> &'static str {
        match self.dimension {
            wgpu::TextureViewDimension::D1 => "1d",
            wgpu::TextureViewDimension::D2Array => "2d-array",
            wgpu::TextureViewDimension::D3 => "3d",
            _ => "2d",
        }
    }

    /// The texture dimension it views.
    pub fn texture_dimension(&self) -> wgpu::TextureDimension {
        match self.dimension {
            wgpu::TextureViewDimension::D1 => wgpu::TextureDimension::D1,
            wgpu::TextureViewDimension::D3 => wgpu::TextureDimension::D3,
            _ => wgpu::TextureDimension::D2,
        }
    }
}

/// How typed elements come back from wider slots: words per slot, elements, the element.
pub type Unpack = (u32, u32, Element);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_of_32_bit_lanes_are_storage_textures_and_others_are_unfeedable() {
        let t = StorageTexture::parse("texture_storage_1d<rgba32uint, read_write>")
            .expect("fed")
            .expect("a storage texture");
        assert_eq!(t.lanes(), 4);
        assert_eq!(t.access, wgpu::StorageTextureAccess::ReadWrite);
        let names = (t.format_name(), t.access_name(), t.dimension_name());
        assert_eq!(names, ("rgba32uint", "read-write", "1d"));
        let t = StorageTexture::parse("texture_storage_2d<r32float, write>")
            .expect("fed")
            .expect("a storage texture");
        assert_eq!(
            (t.lanes(), t.dimension),
            (1, wgpu::TextureViewDimension::D2)
        );
        assert_eq!(
            StorageTexture::parse("storage-u32-array").expect("ok"),
            None
        );
        for bad in [
            "texture_storage_cube<r32uint, write>",
            "texture_storage_2d<bc1-rgba-unorm, write>",
            "texture_storage_1d<r32uint, sideways>",
        ] {
            let e = StorageTexture::parse(bad).expect_err(bad);
            assert_eq!(e.code(), "gpu.unfeedable", "{bad}");
        }
        // A UAV texture's formats and shapes are storage textures; a typed buffer's row
        // takes 32-bit lanes in one row only.
        let limits = super::super::Limits {
            bind_groups: 4,
            texture_1d: 8,
            texture_2d: 8,
        };
        for (layout, dim) in [
            ("texture_storage_2d<rgba8unorm, write>", "2d"),
            ("texture_storage_3d<r32uint, write>", "3d"),
            ("texture_storage_2d_array<rgba16float, write>", "2d-array"),
        ] {
            let t = StorageTexture::parse(layout).expect(layout).expect(layout);
            assert_eq!(t.dimension_name(), dim);
            assert!(t.width(2, &limits).is_err(), "{layout}");
        }
    }

    #[test]
    fn elements_round_trip_through_slots_of_any_width_with_d3d_defaults() {
        let words: Vec<u32> = (1..=6).collect();
        let two = Element {
            channels: 2,
            float: false,
        };
        assert_eq!(two.pack(&words, 3, 4), [1, 2, 0, 1, 3, 4, 0, 1, 5, 6, 0, 1]);
        assert_eq!(two.unpack(&two.pack(&words, 3, 4), 3, 4), words);
        let float = Element {
            channels: 1,
            float: true,
        };
        assert_eq!(float.pack(&[7], 1, 4), [7, 0, 0, 0x3f80_0000]);
        // A slot narrower than the element keeps its first lanes only.
        assert_eq!(two.unpack(&[1, 3, 5], 3, 1), [1, 0, 3, 0, 5, 0]);
        assert_eq!(two.count(24), 3);
        // No element still makes one slot (a texture is at least one texel wide).
        assert_eq!(two.pack(&[], 0, 2), [0, 0]);
    }
}
