//! Typed UAV textures (`RWTexture1D` … `RWTexture3D`): the view a program declares, whether a
//! translation's storage texture can be that view, and the texture generated for it.
//!
//! The view's format is the application's choice and is not in the DXBC, and a WGSL storage
//! texture must name one, so the translator chooses it and its manifest states it
//! (`texture_storage_2d<rgba8unorm, write>`). The harness then creates exactly that view and
//! the reference runs with it, provided D3D could give the program such a view: its format
//! returns the declared type (FLOAT, UNORM, SNORM, UINT or SINT) and its shape is the declared
//! one (docs/harness.md, "Typed UAV textures").

use std::collections::BTreeMap;

use dxbc::{Opcode, ReturnType, TextureShape};
use oracles::interp::{Buffer, TexelFormat, TexelKind, UavTexture};
use translator::manifest::{Binding, BindingKind, Manifest};

use crate::gpu::storage::StorageTexture;

/// A typed UAV texture as a program declares it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Declared {
    /// Its dimension.
    pub shape: TextureShape,
    /// The return type of its x component (fxc declares the four alike).
    pub ret: ReturnType,
}

/// The typed UAV textures `program` declares, by `u#` register.
pub fn declared(program: &dxbc::Program) -> BTreeMap<u32, Declared> {
    program
        .instructions
        .iter()
        .filter(|i| i.opcode == Opcode::DclUavTyped)
        .filter_map(|i| {
            let shape = TextureShape::of(i.resource_dimension()?)?;
            let ret = i.declared_return_types()?[0];
            let reg = match i.operands.first()?.indices.first()? {
                dxbc::Index::Imm32(r) => *r,
                _ => return None,
            };
            Some((reg, Declared { shape, ret }))
        })
        .collect()
}

/// Whether a view of format `f` returns `ret` to a shader: a FLOAT declaration takes float
/// formats, UNORM and SNORM the normalized ones, UINT and SINT the integer ones.
pub fn format_fits(ret: ReturnType, f: TexelFormat) -> bool {
    use TexelFormat::*;
    let unorm = matches!(
        f,
        Rgba8Unorm | Rgba8UnormSrgb | Bgra8Unorm | Rgb10a2Unorm | R8Unorm | Rg8Unorm | D16Unorm
    );
    let snorm = f == Rgba8Snorm;
    match ret {
        ReturnType::Float => f.kind() == TexelKind::Float && !unorm && !snorm,
        ReturnType::Unorm => unorm,
        ReturnType::Snorm => snorm,
        ReturnType::Uint => f.kind() == TexelKind::Uint,
        ReturnType::Sint => f.kind() == TexelKind::Sint,
        _ => false,
    }
}

/// A format of each return type, for a UAV texture whose binding names none the harness can
/// use (such a binding is then unfeedable, not blamed on anyone).
fn fallback(ret: ReturnType) -> TexelFormat {
    match ret {
        ReturnType::Unorm => TexelFormat::Rgba8Unorm,
        ReturnType::Snorm => TexelFormat::Rgba8Snorm,
        ReturnType::Uint => TexelFormat::R32Uint,
        ReturnType::Sint => TexelFormat::R32Sint,
        _ => TexelFormat::R32Float,
    }
}

/// Whether a storage texture of `dimension` (one texel high when `texture1d`) addresses texels
/// as a view of `shape` does.
fn shape_fits(shape: TextureShape, texture: &StorageTexture, texture1d: bool) -> bool {
    use wgpu::TextureViewDimension as D;
    match (shape, texture.dimension) {
        (TextureShape::Line, D::D1) => true,
        (TextureShape::Line, D::D2) | (TextureShape::LineArray, D::D2Array) => texture1d,
        (TextureShape::Plain, D::D2) | (TextureShape::Array, D::D2Array) => !texture1d,
        (TextureShape::Volume, D::D3) => true,
        _ => false,
    }
}

/// Why `manifest` cannot bind the typed UAV textures `program` declares, if it cannot: a
/// storage texture of another shape, or of a format D3D could not give that declaration (a
/// `rgba8snorm` view of a UNORM UAV). Such a translation asks for a view no D3D application
/// could bind, so it is the translator's failure, found before anything runs.
pub fn contradiction(program: &dxbc::Program, manifest: &Manifest) -> Option<String> {
    for (reg, d) in declared(program) {
        let Some(b) = uav_binding(manifest, reg) else {
            continue;
        };
        let Ok(Some(t)) = StorageTexture::parse(b.layout.as_str()) else {
            continue;
        };
        if !shape_fits(d.shape, &t, b.texture1d) {
            return Some(format!(
                "u{reg} is declared a {:?} texture and bound as `{}`{}",
                d.shape,
                b.layout.as_str(),
                if b.texture1d { " one texel high" } else { "" }
            ));
        }
        if !format_fits(d.ret, t.texel) {
            return Some(format!(
                "u{reg} is declared {} and bound as `{}`, a {} view, which D3D cannot give it",
                dxbc::names::RETURN_TYPES
                    .get(d.ret.number() as usize)
                    .copied()
                    .unwrap_or("?"),
                b.layout.as_str(),
                t.texel.name()
            ));
        }
    }
    None
}

fn uav_binding(manifest: &Manifest, reg: u32) -> Option<&Binding> {
    manifest
        .bindings
        .iter()
        .find(|b| b.kind == BindingKind::Uav && b.register == reg)
}

/// The texture of a typed UAV texture declared `d` and bound by `manifest`, its texels
/// edge-biased words from `seed`: in the binding's format where it fits the declaration, and
/// one texel past each axis of the thread group (`group`), so that thread ids address it
/// whole and an address one past an edge is out of range.
pub fn texture(d: Declared, manifest: &Manifest, reg: u32, group: [u32; 3], seed: u64) -> Buffer {
    let format = uav_binding(manifest, reg)
        .and_then(|b| StorageTexture::parse(b.layout.as_str()).ok().flatten())
        .map(|t| t.texel)
        .filter(|f| format_fits(d.ret, *f) && f.encode([0; 4], &mut 0).is_some())
        .unwrap_or_else(|| fallback(d.ret));
    let [x, y, z] = group.map(|n| n.max(1));
    let (width, height, layers) = match d.shape {
        TextureShape::Line => ((x * y * z).min(4095) + 1, 1, 1),
        TextureShape::LineArray => (x + 1, 1, (y * z).min(63) + 1),
        TextureShape::Plain => (x + 1, (y * z).min(255) + 1, 1),
        _ => (x + 1, y + 1, z.min(63) + 1),
    };
    let shape = UavTexture {
        width,
        height,
        layers,
        view: d.shape,
        format,
    };
    let words = super::texels::words(format, shape.texels() as usize, seed);
    Buffer {
        size_bytes: (words.len() * 4) as u32,
        words,
        format: None,
        texture: Some(shape),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use translator::manifest::BindingLayout;

    fn manifest(layout: &str, texture1d: bool) -> Manifest {
        Manifest {
            bindings: vec![Binding {
                kind: BindingKind::Uav,
                register: 0,
                group: 0,
                binding: 0,
                layout: BindingLayout::Other(layout.into()),
                size_bytes: None,
                stride: None,
                texture1d,
            }],
            ..Manifest::default()
        }
    }

    fn program(dim: &str, ret: &str) -> dxbc::Program {
        let ty = [ret; 4].join(",");
        dxbc::assemble(&format!(
            "cs_5_0\ndcl_uav_typed_{dim} ({ty}) u0\ndcl_thread_group 4, 2, 1\nret\n"
        ))
        .expect("assembles")
        .program
    }

    /// A view of another shape or of a format that returns another type is the translator's
    /// contradiction; the view it may choose is not.
    #[test]
    fn a_view_d3d_cannot_give_is_a_contradiction() {
        let unorm = program("texture2d", "unorm");
        assert_eq!(
            contradiction(
                &unorm,
                &manifest("texture_storage_2d<rgba8unorm, write>", false)
            ),
            None
        );
        let why = contradiction(
            &unorm,
            &manifest("texture_storage_2d<rgba8snorm, write>", false),
        )
        .expect("a contradiction");
        assert!(
            why.contains("unorm") && why.contains("R8G8B8A8_SNORM"),
            "{why}"
        );
        assert!(
            contradiction(
                &unorm,
                &manifest("texture_storage_3d<rgba8unorm, write>", false)
            )
            .is_some()
        );
        let line = program("texture1darray", "float");
        assert_eq!(
            contradiction(
                &line,
                &manifest("texture_storage_2d_array<r32float, read_write>", true)
            ),
            None
        );
        assert!(
            contradiction(
                &line,
                &manifest("texture_storage_2d_array<r32float, read_write>", false)
            )
            .is_some()
        );
        assert!(
            contradiction(
                &line,
                &manifest("texture_storage_2d_array<r32uint, read_write>", true)
            )
            .is_some()
        );
    }

    /// The generated texture takes the binding's format, one texel past each axis of the
    /// group; a binding it cannot use gets the return type's own format.
    #[test]
    fn the_texture_takes_the_bindings_format_and_outgrows_the_group() {
        let p = program("texture2d", "float");
        let d = declared(&p)[&0];
        let m = manifest("texture_storage_2d<rgba16float, write>", false);
        let b = texture(d, &m, 0, [4, 2, 1], 9);
        let t = b.texture.expect("a texture");
        assert_eq!(
            (t.width, t.height, t.layers, t.format),
            (5, 3, 1, TexelFormat::Rgba16Float)
        );
        assert_eq!(b.words.len(), 15 * 2);
        let other = texture(d, &manifest("storage-u32-array", false), 0, [4, 2, 1], 9);
        assert_eq!(other.texture.map(|t| t.format), Some(TexelFormat::R32Float));
    }
}
