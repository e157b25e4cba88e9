//! Texture instructions: `ld` of a texture, the sample family (comparisons included), `lod` and
//! `resinfo`, for 1D, 2D and 3D textures, arrays and cubes. Out-of-range loads and levels
//! read D3D's values through explicit bounds tests, and a NaN coordinate or LOD reads as 0.

use dxbc::opcodes::Num;
use dxbc::{Instruction, Opcode, Operand, OperandType, ResinfoReturnType, Stage};

use super::memory::Mem;
use super::operand::{XYZW, swizzled, write_mask};
use super::{Ctx, Shape, TexelKind, View};
use crate::Rejection;
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
            _ => Err(Rejection::new(id::UNSUPPORTED, "texture access to a UAV")),
        }
    }

    /// Write a `vec4<u32>` texel through the resource's swizzle.
    fn write_texel(
        &mut self,
        inst: &Instruction,
        res: &Operand,
        texel: String,
    ) -> Result<(), Rejection> {
        let t = self.fresh();
        self.line(&format!("let {t} = {texel};"));
        let dst = &inst.operands[0];
        let values: Vec<(usize, String)> = (0..4)
            .filter(|c| write_mask(dst) & (1 << c) != 0)
            .map(|c| (c, format!("{t}.{}", XYZW[swizzled(res, c)])))
            .collect();
        self.assign(dst, &values)
    }

    /// `ld` on a 2D texture: out-of-range coordinates or mip levels read 0.
    ///
    /// A level's size comes from level 0's, halved and at least 1 (D3D's and WebGPU's mip chain),
    /// not from `textureDimensions(t, level)`: lavapipe answers that wrongly when the level
    /// differs between the invocations of a dispatch (docs/contract.md).
    pub(super) fn texture_load(&mut self, inst: &Instruction) -> Result<(), Rejection> {
        if inst.sample_offsets().is_some() {
            return Err(Rejection::new(id::TEXTURE_OFFSETS, "ld with texel offsets"));
        }
        let ops = &inst.operands;
        let (slot, kind, shape) = self.texture(&ops[2])?;
        if shape == Shape::Cube {
            // fxc refuses `Load` on a TextureCube: D3D has no rule to follow.
            return Err(Rejection::new(id::UNSUPPORTED, "ld of a TextureCube"));
        }
        let x = self.src(&ops[1], 0, Num::Uint)?;
        // A 1D address has no y: its one row is 0.
        let y = if shape.line() {
            "0u".to_string()
        } else {
            self.src(&ops[1], 1, Num::Uint)?
        };
        let mip = self.src(&ops[1], 3, Num::Uint)?;
        let (tx, ty, tm, ok) = (self.fresh(), self.fresh(), self.fresh(), self.fresh());
        self.line(&format!("let {tx} = {x};"));
        self.line(&format!("let {ty} = {y};"));
        self.line(&format!("let {tm} = {mip};"));
        // A 3D address's z is a slice, bounded by the level's depth like x and y.
        let load = if shape == Shape::Volume {
            let z = self.src(&ops[1], 2, Num::Uint)?;
            let tz = self.fresh();
            self.line(&format!("let {tz} = {z};"));
            let dims = mip_size(slot, &tm, 3);
            self.line(&format!(
                "let {ok} = {tm} < textureNumLevels(t{slot}) && all(vec3<u32>({tx}, {ty}, {tz}) < {dims});"
            ));
            format!(
                "textureLoad(t{slot}, vec3<u32>({tx}, {ty}, {tz}), min({tm}, textureNumLevels(t{slot}) - 1u))"
            )
        } else {
            self.load_2d(slot, layer_component(shape), (&tx, &ty, &tm, &ok), &ops[1])?
        };
        let texel = match kind {
            // A texture the program also compares is a `texture_depth_*`, whose load is its
            // one channel: the rest are a one-channel format's defaults (0, 0, 1), out of range
            // too, since every depth format is one channel.
            _ if self.depth_textures.contains(&slot) => {
                format!("vec4<u32>(select(0u, bitcast<u32>({load}), {ok}), 0u, 0u, 0x3f800000u)")
            }
            TexelKind::Float | TexelKind::Sint => {
                format!("select(vec4<u32>(), bitcast<vec4<u32>>({load}), {ok})")
            }
            TexelKind::Uint => format!("select(vec4<u32>(), {load}, {ok})"),
        };
        self.write_texel(inst, &ops[2], texel)
    }

    /// The bounds test (bound to `ok`) and the `textureLoad` of a 2D texture or array's texel
    /// at (`tx`, `ty`) of level `tm`, the layer from `addr`'s component `layer` for an array.
    fn load_2d(
        &mut self,
        slot: u32,
        layer: Option<usize>,
        (tx, ty, tm, ok): (&str, &str, &str, &str),
        addr: &Operand,
    ) -> Result<String, Rejection> {
        // An array's layer is the address's z (y for a 1D array); past the last layer reads 0
        // like any other out-of-range coordinate.
        let (layer_ok, layer) = if let Some(c) = layer {
            let z = self.src(addr, c, Num::Uint)?;
            let tz = self.fresh();
            self.line(&format!("let {tz} = {z};"));
            (
                format!(" && {tz} < textureNumLayers(t{slot})"),
                format!(", min({tz}, textureNumLayers(t{slot}) - 1u)"),
            )
        } else {
            (String::new(), String::new())
        };
        let dims = mip_size(slot, tm, 2);
        self.line(&format!(
            "let {ok} = {tm} < textureNumLevels(t{slot}) && {tx} < {dims}.x && {ty} < {dims}.y{layer_ok};"
        ));
        Ok(format!(
            "textureLoad(t{slot}, vec2<u32>({tx}, {ty}){layer}, min({tm}, textureNumLevels(t{slot}) - 1u))"
        ))
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
                id::UNSUPPORTED,
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
        let array = shape.array();
        let cube = shape == Shape::Cube;
        let compare = super::is_comparison(inst.opcode);
        let gather = matches!(inst.opcode, Opcode::Gather4 | Opcode::Gather4C);
        if gather && (shape == Shape::Volume || shape.line()) {
            // fxc refuses `Gather` on a Texture3D or a 1D texture: D3D has no rule to follow.
            return Err(Rejection::new(
                id::UNSUPPORTED,
                "gather4 of a Texture3D or Texture1D",
            ));
        }
        if kind != TexelKind::Float && !gather {
            return Err(Rejection::new(
                id::UNSUPPORTED,
                "sampling an integer texture",
            ));
        }
        let s = match ops[3].indices.first() {
            Some(dxbc::Index::Imm32(v)) if self.samplers.contains(v) => *v,
            _ => return Err(Rejection::new(id::UNSUPPORTED, "undeclared sampler")),
        };
        // WGSL splits what D3D leaves to the bound views: a depth texture is read by
        // comparisons only, through comparison samplers only.
        if compare != self.comparison_samplers.contains(&s) {
            return Err(Rejection::new(
                id::SAMPLER_MODES,
                "a comparison through a default sampler, or a sample through a comparison one",
            ));
        }
        if !compare && self.depth_textures.contains(&slot) {
            return Err(Rejection::new(
                id::UNSUPPORTED,
                "a texture both sampled and compared",
            ));
        }
        // A depth texture reads floats, and WGSL's gather of comparisons takes no channel (a
        // `gather4_c` through `s#.y` and so on compares one a depth texture reads as 0 or 1).
        if compare
            && (kind != TexelKind::Float
                || (inst.opcode == Opcode::Gather4C && ops[3].source_component(0) != 0))
        {
            return Err(Rejection::new(
                id::UNSUPPORTED,
                "a comparison of an integer texture, or gather4_c of a channel other than red",
            ));
        }
        if compare && !matches!(shape, Shape::Plain | Shape::Array | Shape::Cube) {
            return Err(Rejection::new(
                id::UNSUPPORTED,
                "comparison sampling of a 3D or 1D texture",
            ));
        }
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
                coords.push("0.5".to_string());
                continue;
            }
            let mut bits = self.src(&ops[1], c, Num::Float)?;
            if cube && self.exact() {
                bits = format!("{}({bits})", self.helper("d3d_ftz"));
            } else if cube {
                self.relies(id::DENORMALS);
            }
            coords.push(self.nan_as_zero(&bits));
        }
        let mut uv = format!("vec{axes}<f32>({})", coords.join(", "));
        if let Some(op) = programmable {
            if !matches!(shape, Shape::Plain | Shape::Array) || inst.sample_offsets().is_some() {
                return Err(Rejection::new(
                    id::UNSUPPORTED,
                    "gather4_po of a texture other than 2D, or with immediate offsets too",
                ));
            }
            let mut six = Vec::with_capacity(2);
            for c in 0..2 {
                let w = self.src(op, c, Num::Int)?;
                six.push(format!("(bitcast<i32>(({w}) << 26u) >> 26u)"));
            }
            let moved = self.fresh();
            self.line(&format!(
                "let {moved} = {uv} + vec2<f32>(vec2<i32>({})) / vec2<f32>(textureDimensions(t{slot}));",
                six.join(", ")
            ));
            uv = moved;
        }
        // D3D rounds a float layer to the nearest integer, ties to even, and clamps it
        // (WGSL clamps the index it is given); a NaN layer selects layer 0.
        let layer = if let Some(c) = layer_component(shape) {
            let z = self.src(&ops[1], c, Num::Uint)?;
            let tz = self.fresh();
            self.line(&format!("let {tz} = {z};"));
            let index = if crate::planted(crate::PlantedBug::ArrayLayerTruncated) {
                format!("i32(bitcast<f32>({tz}))")
            } else {
                format!("i32(round(bitcast<f32>({tz})))")
            };
            let isnan = self.helper("d3d_isnan");
            format!(", select({index}, 0, {isnan}({tz}))")
        } else {
            String::new()
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
            Some([a, _, _]) if shape.line() => format!(", vec2<i32>({a}, 0)"),
            Some([a, b, c]) if shape == Shape::Volume => format!(", vec3<i32>({a}, {b}, {c})"),
            Some([a, b, _]) => format!(", vec2<i32>({a}, {b})"),
            None => String::new(),
        };
        // Listed where the seed's rules are what the lowering follows.
        if array {
            self.relies(id::ARRAY_LAYER_ROUNDING);
        }
        if !offset.is_empty() && shape == Shape::Plain {
            self.relies(id::SAMPLE_OFFSETS_2D);
        }
        if self.stage == Stage::Vertex && matches!(inst.opcode, Opcode::SampleL | Opcode::SampleD) {
            self.relies(id::VERTEX_SAMPLING);
        }
        let call = match inst.opcode {
            Opcode::Gather4 => {
                // The sampler's swizzle picks the channel gathered.
                let c = ops[3].source_component(0);
                format!("textureGather({c}, t{slot}, s{s}, {uv}{layer}{offset})")
            }
            Opcode::Sample if self.stage == Stage::Pixel => {
                self.note_derivative();
                format!("textureSample(t{slot}, s{s}, {uv}{layer}{offset})")
            }
            // Comparisons: the reference as given (a NaN one is D3D's to leave open), each
            // scalar result read as an R32_FLOAT texel (x, 0, 0, 1).
            Opcode::SampleCLz => {
                let r = self.reference(&ops[4])?;
                format!(
                    "vec4<f32>(textureSampleCompareLevel(t{slot}, s{s}, {uv}{layer}, bitcast<f32>({r}){offset}), 0.0, 0.0, 1.0)"
                )
            }
            Opcode::SampleC if self.stage == Stage::Pixel => {
                self.note_derivative();
                let r = self.reference(&ops[4])?;
                format!(
                    "vec4<f32>(textureSampleCompare(t{slot}, s{s}, {uv}{layer}, bitcast<f32>({r}){offset}), 0.0, 0.0, 1.0)"
                )
            }
            Opcode::SampleC => {
                return Err(Rejection::new(
                    id::UNSUPPORTED,
                    "sample_c outside a pixel program",
                ));
            }
            Opcode::Gather4C => {
                let r = self.reference(&ops[4])?;
                format!(
                    "textureGatherCompare(t{slot}, s{s}, {uv}{layer}, bitcast<f32>({r}){offset})"
                )
            }
            Opcode::Sample => {
                format!("textureSampleLevel(t{slot}, s{s}, {uv}{layer}, 0.0{offset})")
            }
            Opcode::SampleB if self.stage == Stage::Pixel => {
                self.note_derivative();
                let b = self.src(&ops[4], 0, Num::Float)?;
                format!("textureSampleBias(t{slot}, s{s}, {uv}{layer}, bitcast<f32>({b}){offset})")
            }
            Opcode::SampleB => {
                return Err(Rejection::new(
                    id::UNSUPPORTED,
                    "sample_b outside a pixel program",
                ));
            }
            // Explicit gradients: the spatial xy only, also for an array; xyz for a cube (the
            // seed's rule).
            Opcode::SampleD => {
                let mut g = Vec::new();
                for op in &ops[4..6] {
                    let mut parts = Vec::with_capacity(axes);
                    for c in 0..axes {
                        // A 1D texture has no v: its gradient along v is 0.
                        parts.push(if c == 1 && shape.line() {
                            "0.0".to_string()
                        } else {
                            format!("bitcast<f32>({})", self.src(op, c, Num::Float)?)
                        });
                    }
                    g.push(format!("vec{axes}<f32>({})", parts.join(", ")));
                }
                format!(
                    "textureSampleGrad(t{slot}, s{s}, {uv}{layer}, {}, {}{offset})",
                    g[0], g[1]
                )
            }
            _ => {
                // Any LOD past the last level samples the last level (D3D's and WebGPU's clamp),
                // so a bound of 16 levels changes nothing; lavapipe samples level 0 (returns 0)
                // for an LOD of 2^31 or more (docs/translator.md).
                let l = self.src(&ops[4], 0, Num::Float)?;
                let l = self.nan_as_zero(&l);
                format!("textureSampleLevel(t{slot}, s{s}, {uv}{layer}, min({l}, 16.0){offset})")
            }
        };
        let texel = match kind {
            TexelKind::Uint => call,
            _ => format!("bitcast<vec4<u32>>({call})"),
        };
        self.write_texel(inst, &ops[2], texel)
    }

    /// A comparison's reference (its bits, `u32`): D3D flushes a denormal one to 0 first, so
    /// the exact profile flushes it; comparisons are the exact profile's only.
    fn reference(&mut self, op: &Operand) -> Result<String, Rejection> {
        let r = self.src(op, 0, Num::Float)?;
        Ok(format!("{}({r})", self.helper("d3d_ftz")))
    }

    /// A float operand of a sample (its bits, `u32`) as an `f32` with a NaN read as 0, as
    /// D3D's float-to-fixed conversion of coordinates and LOD reads it; WGSL leaves a NaN
    /// coordinate or level indeterminate (docs/translator.md).
    fn nan_as_zero(&mut self, bits: &str) -> String {
        let (b, f) = (self.fresh(), self.fresh());
        self.line(&format!("let {b} = {bits};"));
        let isnan = self.helper("d3d_isnan");
        self.line(&format!(
            "let {f} = select(bitcast<f32>({b}), 0.0, {isnan}({b}));"
        ));
        f
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
        let mip = self.src(&ops[1], 0, Num::Uint)?;
        let (tm, n, d) = (self.fresh(), self.fresh(), self.fresh());
        self.line(&format!("let {tm} = {mip};"));
        self.line(&format!("let {n} = textureNumLevels(t{slot});"));
        // z: an array's size (D3D gives it at every level in range), a 3D level's depth, 0 for
        // a plain 2D texture and a cube.
        let (xy, z) = if shape == Shape::Volume {
            self.line(&format!(
                "let {d} = select(vec3<u32>(), {}, {tm} < {n});",
                mip_size(slot, &tm, 3)
            ));
            (format!("{d}.xy"), format!("{d}.z"))
        } else {
            self.line(&format!(
                "let {d} = select(vec2<u32>(), {}, {tm} < {n});",
                mip_size(slot, &tm, 2)
            ));
            let z = if array {
                format!("select(0u, textureNumLayers(t{slot}), {tm} < {n})")
            } else {
                "0u".to_string()
            };
            // A 1D texture's next component after its width is its array size, then 0.
            if shape.line() {
                (format!("vec2<u32>({d}.x, {z})"), "0u".to_string())
            } else {
                (d, z)
            }
        };
        let v = format!("vec4<u32>({xy}, {z}, {n})");
        let texel = match inst.resinfo_return_type() {
            Some(ResinfoReturnType::Uint) => v,
            Some(ResinfoReturnType::RcpFloat) => format!(
                "bitcast<vec4<u32>>(vec4<f32>(vec3<f32>(1.0) / vec3<f32>(vec3<u32>({xy}, {z})), f32({n})))"
            ),
            _ => format!("bitcast<vec4<u32>>(vec4<f32>({v}))"),
        };
        self.write_texel(inst, &ops[2], texel)
    }

    /// `lod` (pixel programs, exact profile): WGSL has no level-of-detail query, so the LOD is
    /// computed as D3D defines it, log2 of the longer of the quad's coarse screen steps in
    /// level-0 texels (FS §7.18.11), and clamped to the texture's levels but not to the
    /// sampler's `MinLOD`/`MaxLOD`, which WGSL cannot read (`dxdiff/lod-sampler-clamp`).
    /// The result is (clamped, unclamped, 0, 0).
    pub(super) fn lod(&mut self, inst: &Instruction) -> Result<(), Rejection> {
        if !self.exact() {
            return Err(Rejection::new(
                id::UNSUPPORTED,
                "lod: the seed has no lowering (the exact profile computes it)",
            ));
        }
        if self.stage != Stage::Pixel {
            return Err(Rejection::new(
                id::UNSUPPORTED,
                "lod outside a pixel program",
            ));
        }
        let ops = &inst.operands;
        let (slot, _, shape) = self.texture(&ops[2])?;
        if shape == Shape::Cube {
            // A cube's LOD comes from the derivatives of its face coordinates, which change
            // with the face: no lowering from the direction's derivatives is faithful.
            return Err(Rejection::new(id::UNSUPPORTED, "lod of a TextureCube"));
        }
        let axes = if shape == Shape::Volume { 3 } else { 2 };
        let mut coords = Vec::with_capacity(axes);
        for c in 0..axes {
            // A 1D texture's v is constant (its row's centre): no step along it.
            coords.push(if c == 1 && shape.line() {
                "0.5".to_string()
            } else {
                format!("bitcast<f32>({})", self.src(&ops[1], c, Num::Float)?)
            });
        }
        self.note_derivative();
        let (c, size, y) = (self.fresh(), self.fresh(), self.fresh());
        self.line(&format!("let {c} = vec{axes}<f32>({});", coords.join(", ")));
        self.line(&format!(
            "let {size} = vec{axes}<f32>(textureDimensions(t{slot}));"
        ));
        self.line(&format!(
            "let {y} = log2(max(length(dpdxCoarse({c}) * {size}), length(dpdyCoarse({c}) * {size})));"
        ));
        self.relies(id::LOD_SAMPLER_CLAMP);
        let texel = format!(
            "bitcast<vec4<u32>>(vec4<f32>(clamp({y}, 0.0, f32(textureNumLevels(t{slot}) - 1u)), {y}, 0.0, 0.0))"
        );
        self.write_texel(inst, &ops[2], texel)
    }
}

/// The address component that holds a texture array's layer: z of a 2D array, y of a 1D one.
fn layer_component(shape: Shape) -> Option<usize> {
    match shape {
        Shape::Array => Some(2),
        Shape::LineArray => Some(1),
        _ => None,
    }
}

/// The size of mip level `level` (a WGSL `u32` expression, clamped to the last level) of
/// texture `t{slot}` of `n` dimensions (2, or 3 for a 3D texture), from level 0's: each
/// dimension halved per level, at least 1.
fn mip_size(slot: u32, level: &str, n: usize) -> String {
    format!(
        "max(textureDimensions(t{slot}) >> vec{n}<u32>(min({level}, textureNumLevels(t{slot}) - 1u)), vec{n}<u32>(1u))"
    )
}
