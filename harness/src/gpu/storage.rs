//! UAVs a translator declares as storage textures (`texture_storage_1d<rgba32uint, write>`):
//! the harness's UAVs are element arrays of 32-bit words (typed buffers), so such a UAV is bound
//! as a one-row texture with one texel per element, filled from the words before the dispatch
//! and read back into words after it.
//!
//! Only formats whose texels are 32-bit lanes carry words unchanged; any other format, a 3D
//! or array texture, or an element count past the device's texture size is unfeedable (the
//! harness's limit, never the translator's crash).

use super::GpuError;

/// A storage-texture binding, read from its manifest layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StorageTexture {
    /// `D1`, or `D2` with one row.
    pub dimension: wgpu::TextureViewDimension,
    /// A format of 32-bit lanes.
    pub format: wgpu::TextureFormat,
    /// `write`, `read` or `read_write`.
    pub access: wgpu::StorageTextureAccess,
}

/// Words per texel of the formats that carry words unchanged, by WGSL name.
fn format(name: &str) -> Option<(wgpu::TextureFormat, u32)> {
    use wgpu::TextureFormat as F;
    Some(match name {
        "r32uint" => (F::R32Uint, 1),
        "r32sint" => (F::R32Sint, 1),
        "r32float" => (F::R32Float, 1),
        "rg32uint" => (F::Rg32Uint, 2),
        "rg32sint" => (F::Rg32Sint, 2),
        "rg32float" => (F::Rg32Float, 2),
        "rgba32uint" => (F::Rgba32Uint, 4),
        "rgba32sint" => (F::Rgba32Sint, 4),
        "rgba32float" => (F::Rgba32Float, 4),
        _ => return None,
    })
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
            _ => return unfeedable("only 1D and 2D storage textures are fed"),
        };
        let args = args.trim_end().trim_end_matches('>');
        let (name, access) = args.split_once(',').unwrap_or((args, "write"));
        let Some((format, _)) = format(name.trim()) else {
            return unfeedable("only formats of 32-bit lanes carry the UAV's words unchanged");
        };
        let access = match access.trim() {
            "write" => wgpu::StorageTextureAccess::WriteOnly,
            "read" => wgpu::StorageTextureAccess::ReadOnly,
            "read_write" => wgpu::StorageTextureAccess::ReadWrite,
            _ => return unfeedable("an unknown access mode"),
        };
        Ok(Some(StorageTexture {
            dimension,
            format,
            access,
        }))
    }

    /// Words per texel.
    pub fn lanes(&self) -> u32 {
        self.format.block_copy_size(None).unwrap_or(4) / 4
    }

    /// The bind-group layout entry.
    pub fn layout_ty(&self) -> wgpu::BindingType {
        wgpu::BindingType::StorageTexture {
            access: self.access,
            format: self.format,
            view_dimension: self.dimension,
        }
    }

    /// The texture's size for `elements` elements: one row, at least one texel.
    pub fn extent(&self, elements: u32, device: &wgpu::Device) -> Result<wgpu::Extent3d, GpuError> {
        let width = elements.max(1);
        let limits = device.limits();
        let max = match self.dimension {
            wgpu::TextureViewDimension::D1 => limits.max_texture_dimension_1d,
            _ => limits.max_texture_dimension_2d,
        };
        if width > max {
            return Err(GpuError::Unfeedable(format!(
                "a storage texture of {width} texels; the device allows {max}"
            )));
        }
        Ok(wgpu::Extent3d {
            width,
            height: 1,
            depth_or_array_layers: 1,
        })
    }

    /// The texels' bytes: element `e`'s `channels` words in its texel's first lanes, the rest
    /// zero.
    pub fn texels(&self, words: &[u32], elements: u32, channels: u32) -> Vec<u8> {
        let lanes = self.lanes();
        let mut out = Vec::with_capacity((elements.max(1) * lanes * 4) as usize);
        for e in 0..elements.max(1) {
            for lane in 0..lanes {
                let w = if lane < channels && e < elements {
                    words
                        .get((e * channels + lane) as usize)
                        .copied()
                        .unwrap_or(0)
                } else {
                    0
                };
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        out
    }

    /// The words of `elements` elements read back from the texels' bytes (the inverse of
    /// [`texels`](Self::texels)).
    pub fn words(&self, bytes: &[u8], elements: u32, channels: u32) -> Vec<u32> {
        let lanes = self.lanes() as usize;
        let texel = |e: usize, lane: usize| -> u32 {
            let at = (e * lanes + lane) * 4;
            bytes
                .get(at..at + 4)
                .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        };
        (0..elements as usize)
            .flat_map(|e| (0..channels as usize).map(move |lane| (e, lane)))
            .map(|(e, lane)| if lane < lanes { texel(e, lane) } else { 0 })
            .collect()
    }
}

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
            "texture_storage_2d<rgba8unorm, write>",
            "texture_storage_3d<r32uint, write>",
            "texture_storage_2d_array<r32uint, write>",
            "texture_storage_1d<r32uint, sideways>",
        ] {
            let e = StorageTexture::parse(bad).expect_err(bad);
            assert_eq!(e.code(), "gpu.unfeedable", "{bad}");
        }
    }

    #[test]
    fn words_round_trip_through_texels_of_any_width() {
        let words: Vec<u32> = (1..=6).collect();
        for (layout, channels) in [
            ("texture_storage_1d<rgba32uint, write>", 2),
            ("texture_storage_1d<r32uint, write>", 1),
            ("texture_storage_1d<rg32float, write>", 2),
        ] {
            let t = StorageTexture::parse(layout).expect("ok").expect("texture");
            let elements = words.len() as u32 / channels;
            let bytes = t.texels(&words, elements, channels);
            assert_eq!(bytes.len() as u32, elements * t.lanes() * 4);
            let back = t.words(&bytes, elements, channels);
            let kept = (elements * channels.min(t.lanes())) as usize;
            assert_eq!(&back[..kept], &words[..kept], "{layout}");
        }
    }
}
