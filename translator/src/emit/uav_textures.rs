//! Typed UAV textures (`RWTexture1D` … `RWTexture3D`, exact profile): `ld_uav_typed`,
//! `store_uav_typed` and `resinfo` of a `texture_storage_*` binding. Every access tests its
//! coordinates explicitly, so the results are D3D's whatever the device does out of range: a
//! load there reads the format's defaults (0, 0, 0, 1), a store there writes nothing.

use dxbc::opcodes::Num;
use dxbc::{Instruction, Operand, OperandType};
use naga::{BinaryOperator as B, Expression, ImageQuery, MathFunction as M, ScalarKind as Sk};

use super::Rejection;
use super::build::{self, H};
use super::memory::Mem;
use super::textures::layer_component;
use super::{Ctx, Shape, UavKind, View};
use crate::names as id;

/// A typed UAV texture address, resolved against the texture's size.
struct Address {
    /// The coordinates as given (`vec2<u32>`, or `vec3<u32>` for a 3D texture; a 1D
    /// texture's y is 0).
    at: H,
    /// The layer of an array (1D or 2D), as given.
    layer: Option<H>,
    /// Whether every coordinate (and the layer) is inside the texture.
    inside: H,
    /// The coordinates and layer clamped into the texture, for a load whose result is
    /// discarded when `inside` is false.
    clamped: (H, Option<H>),
}

impl Ctx<'_> {
    /// The `u#` of an access if it is a typed UAV texture: its slot, return type and shape.
    pub(super) fn uav_texture(&self, op: &Operand) -> Option<(u32, UavKind, Shape)> {
        if op.ty != OperandType::UnorderedAccessView {
            return None;
        }
        match self.mem(op).ok()? {
            Mem::Uav(s) => match self.uavs.get(&s) {
                Some(View::UavTexture(kind, shape)) => Some((s, *kind, *shape)),
                _ => None,
            },
            _ => None,
        }
    }

    /// The expression of storage texture `u{slot}`.
    fn storage_texture(&mut self, slot: u32) -> Result<H, Rejection> {
        let g = *self.g.uav_textures.get(&slot).ok_or_else(|| {
            Rejection::new(
                id::NOT_LOWERED,
                format!("u{slot} has no storage texture binding"),
            )
        })?;
        Ok(self.global(g))
    }

    /// `vec4<T>(v)`.
    fn splat4(&mut self, value: H) -> H {
        self.b.expr(Expression::Splat {
            size: naga::VectorSize::Quad,
            value,
        })
    }

    /// The unsigned address `addr` of texture `t`: x; x and the layer (a 1D array, in y); x, y;
    /// x, y and the layer (a 2D array, in z); x, y, z (a 3D texture). A 1D texture is a 2D
    /// one one texel high, its row 0.
    fn uav_address(&mut self, t: H, shape: Shape, addr: &Operand) -> Result<Address, Rejection> {
        let x = self.src(addr, 0, Num::Uint)?;
        let one = self.b.u(1);
        if shape == Shape::Volume {
            let y = self.src(addr, 1, Num::Uint)?;
            let z = self.src(addr, 2, Num::Uint)?;
            let at = self.compose(build::U32, vec![x, y, z]);
            let dims = self.query(t, ImageQuery::Size { level: None });
            let less = self.b.bin(B::Less, at, dims);
            let inside = self.b.expr(Expression::Relational {
                fun: naga::RelationalFunction::All,
                argument: less,
            });
            let ones = self.splat(3, one);
            let top = self.b.bin(B::Subtract, dims, ones);
            let clamped = self.b.math(M::Min, &[at, top]);
            return Ok(Address {
                at,
                layer: None,
                inside,
                clamped: (clamped, None),
            });
        }
        let y = if shape.line() {
            self.b.u(0)
        } else {
            self.src(addr, 1, Num::Uint)?
        };
        let at = self.compose(build::U32, vec![x, y]);
        let dims = self.query(t, ImageQuery::Size { level: None });
        let less = self.b.bin(B::Less, at, dims);
        let mut inside = self.b.expr(Expression::Relational {
            fun: naga::RelationalFunction::All,
            argument: less,
        });
        let ones = self.splat(2, one);
        let top = self.b.bin(B::Subtract, dims, ones);
        let clamped = self.b.math(M::Min, &[at, top]);
        let (layer, clamped_layer) = match layer_component(shape) {
            Some(c) => {
                let z = if crate::planted(crate::PlantedBug::UavLayerDropped) {
                    self.b.u(0)
                } else {
                    self.src(addr, c, Num::Uint)?
                };
                let layers = self.query(t, ImageQuery::NumLayers);
                let in_z = self.b.bin(B::Less, z, layers);
                inside = self.b.bin(B::LogicalAnd, inside, in_z);
                let last = self.b.bin(B::Subtract, layers, one);
                (Some(z), Some(self.b.math(M::Min, &[z, last])))
            }
            None => (None, None),
        };
        Ok(Address {
            at,
            layer,
            inside,
            clamped: (clamped, clamped_layer),
        })
    }

    /// `ld_uav_typed dst, addr, u#` of a texture (declared `read_write`, r32): the texel
    /// `(r, 0, 0, 1)` as WGSL loads it, or out of range `(0, 0, 0, 1)` with 1 as `1.0` for
    /// float texels and as the integer 1 for integer ones, through the resource's swizzle. The
    /// load reads clamped coordinates, so it never leaves the texture; its result is then
    /// discarded.
    pub(super) fn uav_texture_load(&mut self, inst: &Instruction) -> Result<(), Rejection> {
        let ops = &inst.operands;
        let Some((slot, kind, shape)) = self.uav_texture(&ops[2]) else {
            return Err(Rejection::new(id::NOT_LOWERED, "not a typed UAV texture"));
        };
        if !self.loaded_uavs.contains(&slot) {
            // The scan marks every loaded texture `read_write`; this is a lowering fault.
            return Err(Rejection::new(
                id::NOT_LOWERED,
                format!("u{slot} is loaded but declared write-only"),
            ));
        }
        let t = self.storage_texture(slot)?;
        let a = self.uav_address(t, shape, &ops[1])?;
        let load = self.b.expr(Expression::ImageLoad {
            image: t,
            coordinate: a.clamped.0,
            array_index: a.clamped.1,
            sample: None,
            level: None,
        });
        let (bits, one) = match kind.scalar() {
            Sk::Uint => (load, self.b.u(1)),
            Sk::Sint => (self.b.bitcast(Sk::Uint, load), self.b.u(1)),
            _ => (self.b.bitcast(Sk::Uint, load), self.b.u(0x3f80_0000)),
        };
        let z = self.b.u(0);
        let outside = self.compose4([z, z, z, one]);
        let texel = self.b.select(outside, bits, a.inside);
        self.write_texel(inst, &ops[2], texel)
    }

    /// `store_uav_typed u#, addr, value` of a texture: all four components (the format drops
    /// those it lacks), stored only inside the texture. Float texels are the value's bits; a
    /// `unorm` (`snorm`) one is NaN → 0 (a bit test: fast math cannot fold it), then clamped to
    /// [0, 1] ([−1, 1]), as D3D converts a float to a normalized format; integer texels are
    /// the words.
    pub(super) fn uav_texture_store(&mut self, inst: &Instruction) -> Result<(), Rejection> {
        let ops = &inst.operands;
        let Some((slot, kind, shape)) = self.uav_texture(&ops[0]) else {
            return Err(Rejection::new(id::NOT_LOWERED, "not a typed UAV texture"));
        };
        let t = self.storage_texture(slot)?;
        let a = self.uav_address(t, shape, &ops[1])?;
        // An immediate NaN or infinity read as a float is bound to a `var` first: WGSL refuses
        // a constant `bitcast<f32>` of one (see [`Ctx::opaque_non_finite`]).
        let was = self.opaque_non_finite;
        self.opaque_non_finite = kind.scalar() == Sk::Float;
        let mut words = Vec::with_capacity(4);
        for c in 0..4 {
            match self.src(&ops[2], c, Num::Typeless) {
                Ok(w) => words.push(w),
                Err(e) => {
                    self.opaque_non_finite = was;
                    return Err(e);
                }
            }
        }
        self.opaque_non_finite = was;
        let bits = self.compose(build::U32, words);
        let value = match kind {
            UavKind::Uint => bits,
            UavKind::Sint => self.b.bitcast(Sk::Sint, bits),
            UavKind::Float => self.b.bitcast(Sk::Float, bits),
            UavKind::Unorm | UavKind::Snorm => {
                let magnitude = self.b.u(0x7fff_ffff);
                let magnitude = self.splat4(magnitude);
                let inf = self.b.u(0x7f80_0000);
                let inf = self.splat4(inf);
                let abs = self.b.bin(B::And, bits, magnitude);
                let nan = self.b.bin(B::Greater, abs, inf);
                let f = self.b.bitcast(Sk::Float, bits);
                let zero = self.b.fl(0.0);
                let zero = self.splat4(zero);
                let f = self.b.select(f, zero, nan);
                let lo = self.b.fl(if kind == UavKind::Unorm { 0.0 } else { -1.0 });
                let lo = self.splat4(lo);
                let hi = self.b.fl(1.0);
                let hi = self.splat4(hi);
                self.b.math(M::Clamp, &[f, lo, hi])
            }
        };
        let (coordinate, array_index) = (a.at, a.layer);
        self.b.when(a.inside, |b| {
            b.stmt(naga::Statement::ImageStore {
                image: t,
                coordinate,
                array_index,
                value,
            });
        });
        Ok(())
    }

    /// `resinfo dst, mip, u#` of a texture: at level 0 the width, then the height (a 1D texture
    /// has none), then an array's layers or a 3D texture's depth, 0 past the axes, in the order
    /// of a texture's `resinfo`; at any other level 0 sizes. A UAV views one level, so the level
    /// count is 1. No level is queried (the mip only selects), so a mip from a register is
    /// lowered too.
    pub(super) fn uav_texture_resinfo(&mut self, inst: &Instruction) -> Result<(), Rejection> {
        let ops = &inst.operands;
        let Some((slot, _, shape)) = self.uav_texture(&ops[2]) else {
            return Err(Rejection::new(id::NOT_LOWERED, "not a typed UAV texture"));
        };
        let t = self.storage_texture(slot)?;
        let mip = self.src(&ops[1], 0, Num::Uint)?;
        let zero = self.b.u(0);
        let level0 = self.b.bin(B::Equal, mip, zero);
        let dims = self.query(t, ImageQuery::Size { level: None });
        let (x, y, z) = if shape == Shape::Volume {
            let none = self.splat(3, zero);
            let d = self.b.select(none, dims, level0);
            (self.b.at(d, 0), self.b.at(d, 1), self.b.at(d, 2))
        } else {
            let none = self.splat(2, zero);
            let d = self.b.select(none, dims, level0);
            let layers = if shape.array() {
                let n = self.query(t, ImageQuery::NumLayers);
                self.b.select(zero, n, level0)
            } else {
                zero
            };
            let (w, h) = (self.b.at(d, 0), self.b.at(d, 1));
            if shape.line() {
                (w, layers, zero)
            } else {
                (w, h, layers)
            }
        };
        let levels = self.b.u(1);
        let texel = self.resinfo_value(inst, [x, y, z, levels]);
        self.write_texel(inst, &ops[2], texel)
    }
}
