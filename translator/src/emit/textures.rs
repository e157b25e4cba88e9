//! Texture instructions: `ld` of a texture, the sample family (comparisons included), `lod` and
//! `resinfo`, for 1D, 2D and 3D textures, arrays and cubes. Out-of-range loads and levels
//! read D3D's values through explicit bounds tests, and a NaN coordinate or LOD reads as 0.

use dxbc::opcodes::Num;
use dxbc::{Instruction, Opcode, Operand, OperandType, ResinfoReturnType, Stage};
use naga::{
    BinaryOperator as B, Expression, ImageQuery, MathFunction as M, SampleLevel, ScalarKind as Sk,
};

use super::Rejection;
use super::build::{self, H};
use super::memory::Mem;
use super::operand::{swizzled, write_mask};
use super::{Ctx, Shape, TexelKind, View};
use crate::names as id;

impl Ctx<'_> {
    /// The `t#` of a texture access: its slot, texel kind, and shape.
    fn texture(&self, op: &Operand) -> Result<(u32, TexelKind, Shape), Rejection> {
        match self.mem(op)? {
            Mem::Srv(s) => match self.srvs.get(&s) {
                Some(View::Texture(k, shape)) => Ok((s, *k, *shape)),
                _ => Err(Rejection::new(
                    id::UNKNOWN_TEXTURE_DIMENSION,
                    "not a 1D, 2D or 3D texture, texture array or cube",
                )),
            },
            _ => Err(Rejection::new(id::NOT_LOWERED, "texture access to a UAV")),
        }
    }

    /// The expression of texture `t{slot}`.
    fn tex(&mut self, slot: u32) -> Result<H, Rejection> {
        let g = *self.g.textures.get(&slot).ok_or_else(|| {
            Rejection::new(id::NOT_LOWERED, format!("t{slot} has no texture binding"))
        })?;
        Ok(self.global(g))
    }

    pub(super) fn query(&mut self, image: H, query: ImageQuery) -> H {
        self.b.expr(Expression::ImageQuery { image, query })
    }

    /// Write a `vec4<u32>` texel through the resource's swizzle.
    pub(super) fn write_texel(
        &mut self,
        inst: &Instruction,
        res: &Operand,
        texel: H,
    ) -> Result<(), Rejection> {
        let dst = &inst.operands[0];
        let mut values = Vec::with_capacity(4);
        for c in (0..4).filter(|c| write_mask(dst) & (1 << c) != 0) {
            values.push((c, self.b.at(texel, swizzled(res, c) as u32)));
        }
        self.assign(dst, &values)
    }

    /// `textureNumLevels(t) - 1u`.
    fn last_level(&mut self, t: H) -> H {
        let n = self.query(t, ImageQuery::NumLevels);
        let one = self.b.u(1);
        self.b.bin(B::Subtract, n, one)
    }

    /// The size of mip level `level` (clamped to the last level) of texture `t` of `n`
    /// dimensions (2, or 3 for a 3D texture), from level 0's: each dimension halved per level,
    /// at least 1.
    ///
    /// Not `textureDimensions(t, level)`: lavapipe answers that wrongly when the level differs
    /// between the invocations of a dispatch (docs/contract.md).
    fn mip_size(&mut self, t: H, level: H, n: usize) -> H {
        let dims = self.query(t, ImageQuery::Size { level: None });
        let last = self.last_level(t);
        let l = self.b.math(M::Min, &[level, last]);
        let shift = self.splat(n, l);
        let halved = self.b.bin(B::ShiftRight, dims, shift);
        let one = self.b.u(1);
        let ones = self.splat(n, one);
        self.b.math(M::Max, &[halved, ones])
    }

    /// `ld` on a texture: out-of-range coordinates or mip levels read 0. An immediate offset
    /// (`ld_aoffimmi`, exact profile) moves the texel address before that test, wrapping as an
    /// unsigned add does, so an address moved below 0 is out of range: u on every shape, v
    /// on 2D ones, w on a 3D one, never an array's layer (the `ld` page).
    pub(super) fn texture_load(&mut self, inst: &Instruction) -> Result<(), Rejection> {
        let offsets = inst.sample_offsets();
        if offsets.is_some() && !self.exact() {
            return Err(Rejection::new(
                id::TEXTURE_OFFSETS,
                "ld with texel offsets: the seed bounds offsets to 2D samples",
            ));
        }
        let [du, dv, dw] = offsets.unwrap_or([0; 3]);
        let ops = &inst.operands;
        let (slot, kind, shape) = self.texture(&ops[2])?;
        if shape == Shape::Multisampled {
            // A multisampled texture is read by `ldms` only.
            return Err(Rejection::new(id::NOT_LOWERED, "ld of a Texture2DMS"));
        }
        if shape.cube() {
            // fxc refuses `Load` on a TextureCube: D3D has no rule to follow.
            return Err(Rejection::new(id::NOT_LOWERED, "ld of a TextureCube"));
        }
        let t = self.tex(slot)?;
        let x = self.src(&ops[1], 0, Num::Uint)?;
        let x = self.moved(x, du);
        // A 1D address has no y: its one row is 0.
        let y = if shape.line() {
            self.b.u(0)
        } else {
            let y = self.src(&ops[1], 1, Num::Uint)?;
            self.moved(y, dv)
        };
        let mip = self.src(&ops[1], 3, Num::Uint)?;
        let levels = self.query(t, ImageQuery::NumLevels);
        let level_ok = self.b.bin(B::Less, mip, levels);
        let last = self.last_level(t);
        let level = self.b.math(M::Min, &[mip, last]);
        // A 3D address's z is a slice, bounded by the level's depth like x and y.
        let (coordinate, ok, array_index) = if shape == Shape::Volume {
            let z = self.src(&ops[1], 2, Num::Uint)?;
            let z = if crate::planted(crate::PlantedBug::LdVolumeOffsetDropped) {
                z
            } else {
                self.moved(z, dw)
            };
            let dims = self.mip_size(t, mip, 3);
            let at = self.compose(build::U32, vec![x, y, z]);
            let inside = self.b.bin(B::Less, at, dims);
            let all = self.b.expr(Expression::Relational {
                fun: naga::RelationalFunction::All,
                argument: inside,
            });
            (at, self.b.bin(B::LogicalAnd, level_ok, all), None)
        } else {
            let dims = self.mip_size(t, mip, 2);
            let (w, h) = (self.b.at(dims, 0), self.b.at(dims, 1));
            let in_x = self.b.bin(B::Less, x, w);
            let in_y = self.b.bin(B::Less, y, h);
            let mut ok = self.b.bin(B::LogicalAnd, level_ok, in_x);
            ok = self.b.bin(B::LogicalAnd, ok, in_y);
            // An array's layer is the address's z (y for a 1D array); past the last layer
            // reads 0 like any other out-of-range coordinate.
            let layer = match layer_component(shape) {
                Some(c) => {
                    let z = self.src(&ops[1], c, Num::Uint)?;
                    let layers = self.query(t, ImageQuery::NumLayers);
                    let in_z = self.b.bin(B::Less, z, layers);
                    ok = self.b.bin(B::LogicalAnd, ok, in_z);
                    let one = self.b.u(1);
                    let top = self.b.bin(B::Subtract, layers, one);
                    Some(self.b.math(M::Min, &[z, top]))
                }
                None => None,
            };
            (self.compose(build::U32, vec![x, y]), ok, layer)
        };
        let load = self.b.expr(Expression::ImageLoad {
            image: t,
            coordinate,
            array_index,
            sample: None,
            level: Some(level),
        });
        let zero4 = self.zero_vec4();
        let texel = match kind {
            // A texture the program also compares is a `texture_depth_*`, whose load is its
            // one channel: the rest are a one-channel format's defaults (0, 0, 1), out of range
            // too, since every depth format is one channel.
            _ if self.depth_textures.contains(&slot) => {
                let bits = self.b.bitcast(Sk::Uint, load);
                let z = self.b.u(0);
                let r = self.b.select(z, bits, ok);
                let one = self.b.u(0x3f80_0000);
                self.compose4([r, z, z, one])
            }
            TexelKind::Float | TexelKind::Sint => {
                let bits = self.b.bitcast(Sk::Uint, load);
                self.b.select(zero4, bits, ok)
            }
            TexelKind::Uint => self.b.select(zero4, load, ok),
        };
        self.write_texel(inst, &ops[2], texel)
    }

    /// `ldms dst, addr, t#, sample` of a `Texture2DMS` (exact profile): the texel of that
    /// sample at (x, y), out of the texture or past its samples D3D's 0 (as `ld` gives it).
    pub(super) fn ms_load(&mut self, inst: &Instruction) -> Result<(), Rejection> {
        let ops = &inst.operands;
        let (slot, kind, shape) = self.texture(&ops[2])?;
        if shape != Shape::Multisampled {
            return Err(Rejection::new(
                id::NOT_LOWERED,
                "ldms of a texture that is not multisampled",
            ));
        }
        let t = self.tex(slot)?;
        let x = self.src(&ops[1], 0, Num::Uint)?;
        let y = self.src(&ops[1], 1, Num::Uint)?;
        let sample = if crate::planted(crate::PlantedBug::SampleIndexDropped) {
            self.b.u(0)
        } else {
            self.src(&ops[3], 0, Num::Uint)?
        };
        let at = self.compose(build::U32, vec![x, y]);
        let dims = self.query(t, ImageQuery::Size { level: None });
        let inside = self.b.bin(B::Less, at, dims);
        let all = self.b.expr(Expression::Relational {
            fun: naga::RelationalFunction::All,
            argument: inside,
        });
        let samples = self.query(t, ImageQuery::NumSamples);
        let in_s = self.b.bin(B::Less, sample, samples);
        let ok = self.b.bin(B::LogicalAnd, all, in_s);
        // The load reads clamped coordinates and sample, so it never leaves the texture; the
        // select discards it outside.
        let one = self.b.u(1);
        let ones = self.splat(2, one);
        let top = self.b.bin(B::Subtract, dims, ones);
        let clamped = self.b.math(M::Min, &[at, top]);
        let last = self.b.bin(B::Subtract, samples, one);
        let s = self.b.math(M::Min, &[sample, last]);
        let load = self.b.expr(Expression::ImageLoad {
            image: t,
            coordinate: clamped,
            array_index: None,
            sample: Some(s),
            level: None,
        });
        let zero4 = self.zero_vec4();
        let bits = match kind {
            TexelKind::Uint => load,
            TexelKind::Float | TexelKind::Sint => self.b.bitcast(Sk::Uint, load),
        };
        let texel = self.b.select(zero4, bits, ok);
        self.write_texel(inst, &ops[2], texel)
    }

    /// `sampleinfo` of a `Texture2DMS` (exact profile): its sample count in x, as an integer
    /// (`_uint`) or a float; 0 in the rest.
    pub(super) fn sampleinfo(&mut self, inst: &Instruction) -> Result<(), Rejection> {
        let ops = &inst.operands;
        let t = self.ms_texture(inst, &ops[1])?;
        let n = self.query(t, ImageQuery::NumSamples);
        let v = if inst.is_sampleinfo_uint() {
            n
        } else {
            let f = self.b.convert(Sk::Float, n);
            self.b.bitcast(Sk::Uint, f)
        };
        let z = self.b.u(0);
        let texel = self.compose4([v, z, z, z]);
        self.write_texel(inst, &ops[1], texel)
    }

    /// `samplepos` of a `Texture2DMS` (exact profile): sample `index`'s position relative to the
    /// pixel's centre in D3D's standard 4-sample pattern, which WebGPU's 4-sample textures use
    /// (WGSL has no query of it); (0, 0) past the samples.
    pub(super) fn samplepos(&mut self, inst: &Instruction) -> Result<(), Rejection> {
        let ops = &inst.operands;
        let t = self.ms_texture(inst, &ops[1])?;
        let n = self.query(t, ImageQuery::NumSamples);
        let index = self.src(&ops[2], 0, Num::Uint)?;
        let inside = self.b.bin(B::Less, index, n);
        let zero = self.b.u(0);
        let xy = self.pattern_position(4, index, |b, v| b.u(v.to_bits()));
        let x = self.b.select(zero, xy[0], inside);
        let y = self.b.select(zero, xy[1], inside);
        let texel = self.compose4([x, y, zero, zero]);
        self.write_texel(inst, &ops[1], texel)
    }

    /// Sample `index`'s position in D3D's standard `count`-sample pattern, relative to the
    /// pixel's centre in pixels, each coordinate written by `literal` (as a float, or as its
    /// bits); `literal(0)` past the samples.
    pub(super) fn pattern_position(
        &mut self,
        count: u32,
        index: H,
        literal: fn(&mut build::Body, f32) -> H,
    ) -> [H; 2] {
        let zero = literal(&mut self.b, 0.0);
        let mut xy = [zero, zero];
        for (k, pos) in dxbc::standard_sample_positions(count)
            .iter()
            .enumerate()
            .rev()
        {
            let is_k = {
                let k = self.b.u(k as u32);
                self.b.bin(B::Equal, index, k)
            };
            for c in 0..2 {
                let v = literal(&mut self.b, f32::from(pos[c]) / 16.0);
                xy[c] = self.b.select(xy[c], v, is_k);
            }
        }
        xy
    }

    /// The `Texture2DMS` a `sampleinfo` or `samplepos` reads; the rasterizer's count (the
    /// pipeline's) and other textures are refused.
    fn ms_texture(&mut self, inst: &Instruction, op: &Operand) -> Result<H, Rejection> {
        if op.ty != OperandType::Resource {
            return Err(Rejection::new(
                id::NOT_LOWERED,
                format!("`{}` of the rasterizer", inst.opcode.mnemonic()),
            ));
        }
        let (slot, _, shape) = self.texture(op)?;
        if shape != Shape::Multisampled {
            return Err(Rejection::new(
                id::NOT_LOWERED,
                format!(
                    "`{}` of a texture that is not multisampled",
                    inst.opcode.mnemonic()
                ),
            ));
        }
        self.tex(slot)
    }

    /// An unsigned texel address moved by an immediate offset, wrapping.
    fn moved(&mut self, at: H, offset: i8) -> H {
        if offset == 0 {
            return at;
        }
        let by = self.b.u(i32::from(offset) as u32);
        self.b.bin(B::Add, at, by)
    }

    /// `gather4_po` and `gather4_po_c` (exact profile): `gather4` and `gather4_c` with the
    /// texel offsets of a register. WGSL's gather takes constant offsets only, so the offset
    /// (the low six bits of x and y, signed, [−32, 31]) moves the coordinate by that many level-0
    /// texels; a gather reads level 0, and the address mode applies after the move as after
    /// D3D's offset. The move is exact but for the coordinate's rounding, which stays within
    /// D3D's 1/256 subtexel precision over the texel range the oracle holds exact.
    pub(super) fn gather_po(&mut self, inst: &Instruction) -> Result<(), Rejection> {
        if !self.exact() {
            return Err(Rejection::new(
                id::TEXTURE_OFFSETS,
                "programmable offsets (gather4_po): the seed bounds offsets to immediates",
            ));
        }
        let Some((plain, offset)) = inst.without_programmable_offset() else {
            return Err(Rejection::new(
                id::NOT_LOWERED,
                "gather4_po without its operands",
            ));
        };
        self.sample_with(&plain, Some(&offset))
    }

    /// The sample family and gathers (comparisons included) of every texture shape, with
    /// immediate offsets on 2D textures (the seed's bounded 2D family) and, in the exact
    /// profile, on 1D, array and 3D textures too.
    pub(super) fn sample(&mut self, inst: &Instruction) -> Result<(), Rejection> {
        self.sample_with(inst, None)
    }

    /// [`Ctx::sample`]; a gather with `programmable` offsets ([`Ctx::gather_po`]).
    fn sample_with(
        &mut self,
        inst: &Instruction,
        programmable: Option<&Operand>,
    ) -> Result<(), Rejection> {
        let ops = &inst.operands;
        let (slot, kind, shape) = self.texture(&ops[2])?;
        if shape == Shape::Multisampled {
            // D3D samples no multisampled texture (fxc refuses `Sample` on a Texture2DMS).
            return Err(Rejection::new(id::NOT_LOWERED, "sampling a Texture2DMS"));
        }
        let array = shape.array();
        let cube = shape.cube();
        let compare = super::is_comparison(inst.opcode);
        let gather = matches!(inst.opcode, Opcode::Gather4 | Opcode::Gather4C);
        if gather && (shape == Shape::Volume || shape.line()) {
            // fxc refuses `Gather` on a Texture3D or a 1D texture: D3D has no rule to follow.
            return Err(Rejection::new(
                id::NOT_LOWERED,
                "gather4 of a Texture3D or Texture1D",
            ));
        }
        if kind != TexelKind::Float && !gather {
            return Err(Rejection::new(
                id::NOT_LOWERED,
                "sampling an integer texture",
            ));
        }
        let s = match ops[3].indices.first() {
            Some(dxbc::Index::Imm32(v)) if self.samplers.contains(v) => *v,
            _ => return Err(Rejection::new(id::NOT_LOWERED, "undeclared sampler")),
        };
        // WGSL splits what D3D leaves to the bound views: a depth texture is read by
        // comparisons only, through comparison samplers only.
        if compare != self.comparison_samplers.contains(&s) {
            return Err(Rejection::new(
                id::SAMPLER_MODES,
                "a comparison through a default sampler, or a sample through a comparison one",
            ));
        }
        // A texture the program also compares is a `texture_depth_*`: its one channel can be
        // gathered (`textureGather` of a depth texture, through a sampler bound non-filtering,
        // `scan::depth_gathers`), and nothing else reads it through a sampler.
        if !compare
            && self.depth_textures.contains(&slot)
            && !(inst.opcode == Opcode::Gather4 && ops[3].source_component(0) == 0)
        {
            return Err(Rejection::new(
                id::NOT_LOWERED,
                "a texture both compared and sampled other than by a gather of its red channel",
            ));
        }
        // A depth texture reads floats, and WGSL's gather of comparisons takes no channel (a
        // `gather4_c` through `s#.y` and so on compares one a depth texture reads as 0 or 1).
        if compare
            && (kind != TexelKind::Float
                || (inst.opcode == Opcode::Gather4C && ops[3].source_component(0) != 0))
        {
            return Err(Rejection::new(
                id::NOT_LOWERED,
                "a comparison of an integer texture, or gather4_c of a channel other than red",
            ));
        }
        if compare
            && !matches!(
                shape,
                Shape::Plain | Shape::Array | Shape::Cube | Shape::CubeArray
            )
        {
            return Err(Rejection::new(
                id::NOT_LOWERED,
                "comparison sampling of a 3D or 1D texture",
            ));
        }
        let image = self.tex(slot)?;
        let sg = *self
            .g
            .samplers
            .get(&s)
            .ok_or_else(|| Rejection::new(id::NOT_LOWERED, "undeclared sampler"))?;
        let sampler = self.global(sg);
        // A cube's address is a direction: three coordinates, each NaN read as 0 like a 2D
        // coordinate (D3D leaves a direction with a NaN without a face; dxdiff's oracle leaves
        // it open). D3D flushes a denormal component first, and it matters for a cube: the face
        // coordinates divide by the major axis. The exact profile flushes it; the contract
        // profile leaves it to the device (`dxdiff/denormals`).
        let axes = if cube || shape == Shape::Volume { 3 } else { 2 };
        let mut coords = Vec::with_capacity(axes);
        for c in 0..axes {
            // A 1D texture's one row is one texel high: v at its centre reads it alone, at
            // every level, under every filter and address mode.
            if c == 1 && shape.line() {
                coords.push(self.b.fl(0.5));
                continue;
            }
            let mut bits = self.src(&ops[1], c, Num::Float)?;
            if cube && self.exact() {
                bits = self.helper("d3d_ftz", vec![bits]);
            } else if cube {
                self.relies(id::DENORMALS);
            }
            coords.push(self.nan_as_zero(bits));
        }
        let mut uv = self.compose(build::F32, coords);
        if let Some(op) = programmable {
            if !matches!(shape, Shape::Plain | Shape::Array) || inst.sample_offsets().is_some() {
                return Err(Rejection::new(
                    id::NOT_LOWERED,
                    "gather4_po of a texture other than 2D, or with immediate offsets too",
                ));
            }
            let mut six = Vec::with_capacity(2);
            for c in 0..2 {
                let w = self.src(op, c, Num::Int)?;
                let k = self.b.u(26);
                let up = self.b.bin(B::ShiftLeft, w, k);
                let signed = self.b.bitcast(Sk::Sint, up);
                six.push(self.b.bin(B::ShiftRight, signed, k));
            }
            let texels = self.compose(build::I32, six);
            let texels = self.b.convert(Sk::Float, texels);
            let dims = self.query(image, ImageQuery::Size { level: None });
            let dims = self.b.convert(Sk::Float, dims);
            let step = self.b.bin(B::Divide, texels, dims);
            uv = self.b.bin(B::Add, uv, step);
        }
        // D3D rounds a float layer to the nearest integer, ties to even, and clamps it
        // (WGSL clamps the index it is given); a NaN layer selects layer 0.
        let array_index = match layer_component(shape) {
            Some(c) => {
                let z = self.src(&ops[1], c, Num::Uint)?;
                let f = self.b.bitcast(Sk::Float, z);
                let index = if crate::planted(crate::PlantedBug::ArrayLayerTruncated) {
                    self.b.convert(Sk::Sint, f)
                } else {
                    let r = self.b.math(M::Round, &[f]);
                    self.b.convert(Sk::Sint, r)
                };
                let nan = self.helper("d3d_isnan", vec![z]);
                let zero = self.b.i(0);
                if shape == Shape::CubeArray && crate::planted(crate::PlantedBug::CubeIndexDropped)
                {
                    Some(zero)
                } else {
                    Some(self.b.select(index, zero, nan))
                }
            }
            None => None,
        };
        // The seed bounds immediate offsets to plain 2D textures; WGSL takes them on arrays
        // (not along the layer, as D3D) and 3D textures too, so the exact profile lowers
        // those. A cube has none in either.
        let offset = match inst.sample_offsets() {
            Some(_) if cube => {
                return Err(Rejection::new(
                    id::TEXTURE_OFFSETS,
                    "immediate offsets on a cube",
                ));
            }
            Some(_) if (array || shape == Shape::Volume) && !self.exact() => {
                return Err(Rejection::new(
                    id::TEXTURE_OFFSETS,
                    "immediate offsets outside the 2D family (an array or 3D texture)",
                ));
            }
            // A 1D texture takes u's offset alone (D3D ignores v's and w's).
            Some([a, _, _]) if shape.line() => Some(vec![i32::from(a), 0]),
            Some([a, b, c]) if shape == Shape::Volume => {
                Some(vec![i32::from(a), i32::from(b), i32::from(c)])
            }
            Some([a, b, _]) => Some(vec![i32::from(a), i32::from(b)]),
            None => None,
        };
        // Listed where the seed's rules are what the lowering follows.
        if array {
            self.relies(id::ARRAY_LAYER_ROUNDING);
        }
        if offset.is_some() && shape == Shape::Plain {
            self.relies(id::SAMPLE_OFFSETS_2D);
        }
        if self.stage == Stage::Vertex && matches!(inst.opcode, Opcode::SampleL | Opcode::SampleD) {
            self.relies(id::VERTEX_SAMPLING);
        }
        // A constant offset: literals composed, which WGSL requires to be a const-expression.
        let offset = offset.map(|o| {
            let parts: Vec<H> = o.into_iter().map(|v| self.b.i(v)).collect();
            self.compose(build::I32, parts)
        });
        let sample = |c: &mut Self,
                      gather: Option<naga::SwizzleComponent>,
                      level: SampleLevel,
                      depth_ref: Option<H>| {
            c.b.expr(Expression::ImageSample {
                image,
                sampler,
                gather,
                coordinate: uv,
                array_index,
                offset,
                level,
                depth_ref,
                clamp_to_edge: false,
            })
        };
        // A comparison's scalar result read as an R32_FLOAT texel (x, 0, 0, 1).
        let r32 = |c: &mut Self, x: H| {
            let (z, one) = (c.b.fl(0.0), c.b.fl(1.0));
            c.compose(build::F32, vec![x, z, z, one])
        };
        let call = match inst.opcode {
            Opcode::Gather4 => {
                // The sampler's swizzle picks the channel gathered.
                let c = naga::SwizzleComponent::XYZW[ops[3].source_component(0) & 3];
                sample(self, Some(c), SampleLevel::Zero, None)
            }
            Opcode::Sample if self.stage == Stage::Pixel => {
                self.note_derivative();
                sample(self, None, SampleLevel::Auto, None)
            }
            // Comparisons: the reference as given (a NaN one is D3D's to leave open).
            Opcode::SampleCLz => {
                let r = self.reference(&ops[4])?;
                let x = sample(self, None, SampleLevel::Zero, Some(r));
                r32(self, x)
            }
            Opcode::SampleC if self.stage == Stage::Pixel => {
                self.note_derivative();
                let r = self.reference(&ops[4])?;
                let x = sample(self, None, SampleLevel::Auto, Some(r));
                r32(self, x)
            }
            Opcode::SampleC => {
                return Err(Rejection::new(
                    id::NOT_LOWERED,
                    "sample_c outside a pixel program",
                ));
            }
            Opcode::Gather4C => {
                let r = self.reference(&ops[4])?;
                sample(
                    self,
                    Some(naga::SwizzleComponent::X),
                    SampleLevel::Zero,
                    Some(r),
                )
            }
            Opcode::Sample => sample(self, None, SampleLevel::Zero, None),
            Opcode::SampleB if self.stage == Stage::Pixel => {
                self.note_derivative();
                let b = self.src(&ops[4], 0, Num::Float)?;
                let b = self.b.bitcast(Sk::Float, b);
                sample(self, None, SampleLevel::Bias(b), None)
            }
            Opcode::SampleB => {
                return Err(Rejection::new(
                    id::NOT_LOWERED,
                    "sample_b outside a pixel program",
                ));
            }
            // Explicit gradients: the spatial xy only, also for an array; xyz for a cube (the
            // seed's rule).
            Opcode::SampleD => {
                let mut g = Vec::with_capacity(2);
                for op in &ops[4..6] {
                    let mut parts = Vec::with_capacity(axes);
                    for c in 0..axes {
                        // A 1D texture has no v: its gradient along v is 0.
                        parts.push(if c == 1 && shape.line() {
                            self.b.fl(0.0)
                        } else {
                            let w = self.src(op, c, Num::Float)?;
                            self.b.bitcast(Sk::Float, w)
                        });
                    }
                    g.push(self.compose(build::F32, parts));
                }
                sample(self, None, SampleLevel::Gradient { x: g[0], y: g[1] }, None)
            }
            _ => {
                // Any LOD past the last level samples the last level (D3D's and WebGPU's clamp),
                // so a bound of 16 levels changes nothing; lavapipe samples level 0 (returns 0)
                // for an LOD of 2^31 or more (docs/translator.md).
                let l = self.src(&ops[4], 0, Num::Float)?;
                let l = self.nan_as_zero(l);
                let cap = self.b.fl(16.0);
                let l = self.b.math(M::Min, &[l, cap]);
                sample(self, None, SampleLevel::Exact(l), None)
            }
        };
        let texel = match kind {
            TexelKind::Uint => call,
            _ => self.b.bitcast(Sk::Uint, call),
        };
        self.write_texel(inst, &ops[2], texel)
    }

    /// A comparison's reference (`f32`): D3D flushes a denormal one to 0 first, so the exact
    /// profile flushes it; comparisons are the exact profile's only.
    fn reference(&mut self, op: &Operand) -> Result<H, Rejection> {
        let r = self.src(op, 0, Num::Float)?;
        let r = self.helper("d3d_ftz", vec![r]);
        Ok(self.b.bitcast(Sk::Float, r))
    }

    /// A float operand of a sample (its bits, `u32`) as an `f32` with a NaN read as 0, as
    /// D3D's float-to-fixed conversion of coordinates and LOD reads it; WGSL leaves a NaN
    /// coordinate or level indeterminate (docs/translator.md).
    fn nan_as_zero(&mut self, bits: H) -> H {
        let nan = self.helper("d3d_isnan", vec![bits]);
        let f = self.b.bitcast(Sk::Float, bits);
        let z = self.b.fl(0.0);
        self.b.select(f, z, nan)
    }

    /// `resinfo`: width, height, 0, level count; a mip past the last level gives 0 sizes.
    pub(super) fn resinfo(&mut self, inst: &Instruction) -> Result<(), Rejection> {
        let ops = &inst.operands;
        let (slot, _, shape) = self.texture(&ops[2])?;
        let array = shape.array();
        // The seed fails closed on a mip level from a register; lavapipe answers
        // `textureDimensions` wrongly when the level differs between invocations of a dispatch
        // (docs/contract.md), so no lowering of it can be trusted.
        if ops[1].ty != OperandType::Immediate32 {
            return Err(Rejection::new(
                id::RESINFO_DYNAMIC_MIP,
                "resinfo with a mip level from a register",
            ));
        }
        let t = self.tex(slot)?;
        let mip = self.src(&ops[1], 0, Num::Uint)?;
        if shape == Shape::Multisampled {
            // One level (WGSL has no level query of a multisampled texture): its size at
            // level 0, zeros past it; z 0.
            let one = self.b.u(1);
            let zero = self.b.u(0);
            let in_range = self.b.bin(B::Less, mip, one);
            let size = self.query(t, ImageQuery::Size { level: None });
            let none = self.splat(2, zero);
            let d = self.b.select(none, size, in_range);
            let (x, y) = (self.b.at(d, 0), self.b.at(d, 1));
            let texel = self.resinfo_value(inst, [x, y, zero, one]);
            return self.write_texel(inst, &ops[2], texel);
        }
        let n = self.query(t, ImageQuery::NumLevels);
        let in_range = self.b.bin(B::Less, mip, n);
        let zero = self.b.u(0);
        // z: an array's size (D3D gives it at every level in range), a 3D level's depth, 0 for
        // a plain 2D texture and a cube.
        let (x, y, z) = if shape == Shape::Volume {
            let size = self.mip_size(t, mip, 3);
            let none = self.splat(3, zero);
            let d = self.b.select(none, size, in_range);
            (self.b.at(d, 0), self.b.at(d, 1), self.b.at(d, 2))
        } else {
            let size = self.mip_size(t, mip, 2);
            let none = self.splat(2, zero);
            let d = self.b.select(none, size, in_range);
            let z = if array {
                let layers = self.query(t, ImageQuery::NumLayers);
                self.b.select(zero, layers, in_range)
            } else {
                zero
            };
            let (w, h) = (self.b.at(d, 0), self.b.at(d, 1));
            // A 1D texture's next component after its width is its array size, then 0.
            if shape.line() {
                (w, z, zero)
            } else {
                (w, h, z)
            }
        };
        let texel = self.resinfo_value(inst, [x, y, z, n]);
        self.write_texel(inst, &ops[2], texel)
    }

    /// `resinfo`'s result (`vec4<u32>`) from the sizes x, y, z and the level count `n` (all
    /// `u32`), by its return type: the numbers as floats, as `_uint` integers, or under
    /// `_rcpFloat` the sizes' reciprocals (1/0 is infinity) and the level count as a float.
    pub(super) fn resinfo_value(&mut self, inst: &Instruction, [x, y, z, n]: [H; 4]) -> H {
        match inst.resinfo_return_type() {
            Some(ResinfoReturnType::Uint) => self.compose4([x, y, z, n]),
            Some(ResinfoReturnType::RcpFloat) => {
                let xyz = self.compose(build::U32, vec![x, y, z]);
                let xyz = self.b.convert(Sk::Float, xyz);
                let one = self.b.fl(1.0);
                let ones = self.splat(3, one);
                let rcp = self.b.bin(B::Divide, ones, xyz);
                let nf = self.b.convert(Sk::Float, n);
                let (rx, ry, rz) = (self.b.at(rcp, 0), self.b.at(rcp, 1), self.b.at(rcp, 2));
                let v = self.compose(build::F32, vec![rx, ry, rz, nf]);
                self.b.bitcast(Sk::Uint, v)
            }
            _ => {
                let v = self.compose4([x, y, z, n]);
                let v = self.b.convert(Sk::Float, v);
                self.b.bitcast(Sk::Uint, v)
            }
        }
    }

    /// `lod` (pixel programs, exact profile): WGSL has no level-of-detail query, so the LOD is
    /// computed as D3D defines it, log2 of the longer of the quad's coarse screen steps in
    /// level-0 texels (FS §7.18.11), and clamped to the texture's levels but not to the
    /// sampler's `MinLOD`/`MaxLOD`, which WGSL cannot read (`dxdiff/lod-sampler-clamp`).
    /// The result is (clamped, unclamped, 0, 0).
    pub(super) fn lod(&mut self, inst: &Instruction) -> Result<(), Rejection> {
        use naga::{DerivativeAxis as Axis, DerivativeControl as Ctl};
        if !self.exact() {
            return Err(Rejection::new(
                id::NOT_LOWERED,
                "lod: the seed has no lowering (the exact profile computes it)",
            ));
        }
        if self.stage != Stage::Pixel {
            return Err(Rejection::new(
                id::NOT_LOWERED,
                "lod outside a pixel program",
            ));
        }
        let ops = &inst.operands;
        let (slot, _, shape) = self.texture(&ops[2])?;
        if shape == Shape::Multisampled {
            return Err(Rejection::new(id::NOT_LOWERED, "lod of a Texture2DMS"));
        }
        if shape.cube() {
            // A cube's LOD comes from the derivatives of its face coordinates, which change
            // with the face: no lowering from the direction's derivatives is faithful.
            return Err(Rejection::new(id::NOT_LOWERED, "lod of a TextureCube"));
        }
        let t = self.tex(slot)?;
        let axes = if shape == Shape::Volume { 3 } else { 2 };
        let mut coords = Vec::with_capacity(axes);
        for c in 0..axes {
            // A 1D texture's v is constant (its row's centre): no step along it.
            coords.push(if c == 1 && shape.line() {
                self.b.fl(0.5)
            } else {
                let w = self.src(&ops[1], c, Num::Float)?;
                self.b.bitcast(Sk::Float, w)
            });
        }
        self.note_derivative();
        let c = self.compose(build::F32, coords);
        let dims = self.query(t, ImageQuery::Size { level: None });
        let size = self.b.convert(Sk::Float, dims);
        let step = |s: &mut Self, axis| {
            let d = s.b.expr(Expression::Derivative {
                axis,
                ctrl: Ctl::Coarse,
                expr: c,
            });
            let texels = s.b.bin(B::Multiply, d, size);
            s.b.math(M::Length, &[texels])
        };
        let (dx, dy) = (step(self, Axis::X), step(self, Axis::Y));
        let longer = self.b.math(M::Max, &[dx, dy]);
        let y = self.b.math(M::Log2, &[longer]);
        self.relies(id::LOD_SAMPLER_CLAMP);
        let zero = self.b.fl(0.0);
        let last = self.last_level(t);
        let last = self.b.convert(Sk::Float, last);
        let clamped = self.b.math(M::Clamp, &[y, zero, last]);
        let v = self.compose(build::F32, vec![clamped, y, zero, zero]);
        let texel = self.b.bitcast(Sk::Uint, v);
        self.write_texel(inst, &ops[2], texel)
    }
}

/// The address component that holds a texture array's layer: z of a 2D array, y of a 1D one,
/// w of a cube array (the cube's index, rounded as a layer).
pub(super) fn layer_component(shape: Shape) -> Option<usize> {
    match shape {
        Shape::Array => Some(2),
        Shape::LineArray => Some(1),
        Shape::CubeArray => Some(3),
        _ => None,
    }
}
