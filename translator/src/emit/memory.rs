//! Resources: binding declarations with guarded accessors, and the lowering of buffer, TGSM,
//! atomic and texture instructions. Every accessor checks bounds explicitly so the results are
//! D3D's (reads 0, writes and atomics dropped) whatever the runtime's own checks do.

use std::fmt::Write;

use dxbc::opcodes::Num;
use dxbc::{Instruction, Opcode, Operand, OperandType, ResinfoReturnType, Stage};

use super::operand::{XYZW, swizzled, write_mask};
use super::{Ctx, Shape, TexelKind, View, binding};
use crate::Rejection;
use crate::manifest::{Binding, BindingKind as Kind, BindingLayout as Layout};
use crate::names as id;

/// Which memory an operand names, and its WGSL variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mem {
    Srv(u32),
    Uav(u32),
    Tgsm(u32),
}

impl Mem {
    fn name(self) -> String {
        match self {
            Mem::Srv(s) => format!("t{s}"),
            Mem::Uav(s) => format!("u{s}"),
            Mem::Tgsm(s) => format!("g{s}"),
        }
    }
}

/// Declare every binding and its accessors; fill the manifest's binding list.
pub fn declare(c: &mut Ctx<'_>, out: &mut String, bindings: &mut Vec<Binding>) {
    let mut next = 0u32;
    let mut take = || {
        next += 1;
        next - 1
    };
    for (&slot, &size) in &c.cbs {
        let b = take();
        let _ = writeln!(
            out,
            "struct Cb{slot} {{\n    v: array<vec4<u32>, {size}>,\n}}"
        );
        let _ = writeln!(
            out,
            "@group(0) @binding({b}) var<uniform> cb{slot}: Cb{slot};"
        );
        // Reads past the declared size give 0 (FS §7.5).
        let guard = if crate::planted(crate::PlantedBug::CbIndexUnguarded) {
            "true".to_string()
        } else {
            format!("i < {size}u")
        };
        let _ = writeln!(
            out,
            "fn cb{slot}_at(i: u32) -> vec4<u32> {{\n    if ({guard}) {{\n        return cb{slot}.v[i];\n    }}\n    return vec4<u32>();\n}}"
        );
        let mut rec = binding(Kind::Cbuffer, slot, b, Layout::UniformVec4Array);
        rec.size_bytes = Some(size * 16);
        bindings.push(rec);
    }
    if let Some(icb) = &c.icb {
        let rows: Vec<String> = icb
            .chunks(4)
            .map(|r| {
                let w: Vec<String> = (0..4)
                    .map(|i| format!("0x{:08x}u", r.get(i).copied().unwrap_or(0)))
                    .collect();
                format!("    vec4<u32>({})", w.join(", "))
            })
            .collect();
        let n = rows.len().max(1);
        let _ = writeln!(
            out,
            "const icb: array<vec4<u32>, {n}> = array<vec4<u32>, {n}>(\n{}\n);",
            rows.join(",\n")
        );
        let _ = writeln!(
            out,
            "fn icb_at(i: u32) -> vec4<u32> {{\n    var t = icb;\n    if (i < {n}u) {{\n        return t[i];\n    }}\n    return vec4<u32>();\n}}"
        );
    }
    let srvs: Vec<(u32, View)> = c.srvs.iter().map(|(k, v)| (*k, *v)).collect();
    for (slot, view) in srvs {
        let b = take();
        match view {
            View::Texture(kind, shape) => {
                let layout = kind.texture_layout(shape);
                let _ = writeln!(out, "@group(0) @binding({b}) var t{slot}: {layout};");
                bindings.push(binding(Kind::Srv, slot, b, layout));
            }
            _ => {
                let _ = writeln!(
                    out,
                    "@group(0) @binding({b}) var<storage, read> t{slot}: array<u32>;"
                );
                accessors(
                    out,
                    &format!("t{slot}"),
                    &format!("arrayLength(&t{slot})"),
                    false,
                    false,
                );
                let mut rec = binding(Kind::Srv, slot, b, Layout::StorageU32Array);
                if let View::Structured(stride) = view {
                    rec.stride = Some(stride);
                }
                bindings.push(rec);
            }
        }
    }
    for &slot in &c.samplers {
        let b = take();
        let _ = writeln!(out, "@group(0) @binding({b}) var s{slot}: sampler;");
        bindings.push(binding(Kind::Sampler, slot, b, Layout::Sampler));
    }
    let uavs: Vec<(u32, View)> = c.uavs.iter().map(|(k, v)| (*k, *v)).collect();
    for (slot, view) in uavs {
        let b = take();
        let atomic = c.atomic_uavs.contains(&slot);
        let ty = if atomic {
            "array<atomic<u32>>"
        } else {
            "array<u32>"
        };
        let _ = writeln!(
            out,
            "@group(0) @binding({b}) var<storage, read_write> u{slot}: {ty};"
        );
        accessors(
            out,
            &format!("u{slot}"),
            &format!("arrayLength(&u{slot})"),
            true,
            atomic,
        );
        let mut rec = binding(
            Kind::Uav,
            slot,
            b,
            if atomic {
                Layout::StorageAtomicU32Array
            } else {
                Layout::StorageU32Array
            },
        );
        if let View::Structured(stride) = view {
            rec.stride = Some(stride);
        }
        bindings.push(rec);
    }
    let tgsm: Vec<(u32, u32)> = c.tgsm.iter().map(|(k, (w, _))| (*k, *w)).collect();
    for (slot, words) in tgsm {
        let atomic = c.atomic_tgsm.contains(&slot);
        let ty = if atomic { "atomic<u32>" } else { "u32" };
        let _ = writeln!(
            out,
            "var<workgroup> g{slot}: array<{ty}, {}>;",
            words.max(1)
        );
        accessors(
            out,
            &format!("g{slot}"),
            &format!("{}u", words.max(1)),
            true,
            atomic,
        );
    }
}

/// `NAME_load(word)` and `NAME_store(word, value)`, guarded by the word count.
fn accessors(out: &mut String, name: &str, len: &str, writable: bool, atomic: bool) {
    let read = if atomic {
        format!("atomicLoad(&{name}[w])")
    } else {
        format!("{name}[w]")
    };
    let _ = writeln!(
        out,
        "fn {name}_load(w: u32) -> u32 {{\n    if (w < {len}) {{\n        return {read};\n    }}\n    return 0u;\n}}"
    );
    if writable {
        let write = if atomic {
            format!("atomicStore(&{name}[w], value)")
        } else {
            format!("{name}[w] = value")
        };
        let _ = writeln!(
            out,
            "fn {name}_store(w: u32, value: u32) {{\n    if (w < {len}) {{\n        {write};\n    }}\n}}"
        );
    }
}

impl Ctx<'_> {
    fn mem(&self, op: &Operand) -> Result<Mem, Rejection> {
        let slot = match op.indices.first() {
            Some(dxbc::Index::Imm32(v)) => *v,
            _ => {
                return Err(Rejection::new(
                    id::UNSUPPORTED,
                    "dynamically indexed resource",
                ));
            }
        };
        match op.ty {
            OperandType::Resource if self.srvs.contains_key(&slot) => Ok(Mem::Srv(slot)),
            OperandType::UnorderedAccessView if self.uavs.contains_key(&slot) => Ok(Mem::Uav(slot)),
            OperandType::ThreadGroupSharedMemory if self.tgsm.contains_key(&slot) => {
                Ok(Mem::Tgsm(slot))
            }
            other => Err(Rejection::new(
                id::UNSUPPORTED,
                format!("undeclared {other:?} {slot}"),
            )),
        }
    }

    fn view(&self, m: Mem) -> View {
        match m {
            Mem::Srv(s) => self.srvs.get(&s).copied().unwrap_or(View::Raw),
            Mem::Uav(s) => self.uavs.get(&s).copied().unwrap_or(View::Raw),
            Mem::Tgsm(s) => match self.tgsm.get(&s) {
                Some((_, Some(stride))) => View::Structured(*stride),
                _ => View::Raw,
            },
        }
    }

    /// Words in a buffer, as a `u32` expression.
    fn words(&self, m: Mem) -> String {
        match m {
            Mem::Tgsm(s) => format!("{}u", self.tgsm.get(&s).map_or(1, |t| t.0.max(1))),
            _ => format!("arrayLength(&{})", m.name()),
        }
    }

    /// Bind the first word of an access (`let` name) and a condition that the structured index
    /// is in range (structured accesses past the element count are dropped whole).
    fn address(&mut self, m: Mem, a0: String, a1: Option<String>) -> (String, String) {
        let w = self.fresh();
        match (self.view(m), a1) {
            (View::Structured(stride), Some(off)) => {
                let count = format!("(({} * 4u) / {stride}u)", self.words(m));
                self.line(&format!("let {w} = ({a0} * {stride}u + {off}) >> 2u;"));
                (w, format!("{a0} < {count}"))
            }
            _ => {
                self.line(&format!("let {w} = {a0} >> 2u;"));
                (w, "true".into())
            }
        }
    }

    /// Refuse a structured access whose immediate byte offset is not a whole word, or whose
    /// `words` (indices relative to the offset) run past the structure: D3D leaves the load
    /// undefined and the store makes the whole view undefined (FS §22.4.12-13), which no
    /// WGSL lowering can reproduce.
    fn check_offset(
        &self,
        m: Mem,
        offset: &Operand,
        words: impl Iterator<Item = usize>,
    ) -> Result<(), Rejection> {
        let View::Structured(stride) = self.view(m) else {
            return Ok(());
        };
        let (OperandType::Immediate32, Some(&off)) = (offset.ty, offset.imm.first()) else {
            return Ok(());
        };
        let end = 4 * (words.max().unwrap_or(0) as u64 + 1);
        if off % 4 != 0 || u64::from(off) + end > u64::from(stride) {
            return Err(Rejection::new(
                id::UNSUPPORTED,
                format!("structured byte offset {off} overruns its {stride}-byte structure"),
            ));
        }
        Ok(())
    }

    pub fn memory(&mut self, inst: &Instruction) -> Result<(), Rejection> {
        use Opcode::*;
        let ops = &inst.operands;
        match inst.opcode {
            LdRaw | LdStructured => {
                let structured = inst.opcode == LdStructured;
                let res = &ops[if structured { 3 } else { 2 }];
                let m = self.mem(res)?;
                if structured {
                    let mask = write_mask(&ops[0]);
                    let words = (0..4).filter(|c| mask & (1 << c) != 0);
                    self.check_offset(m, &ops[2], words.map(|c| swizzled(res, c)))?;
                }
                let a0 = self.src(&ops[1], 0, Num::Uint)?;
                let a1 = if structured {
                    Some(self.src(&ops[2], 0, Num::Uint)?)
                } else {
                    None
                };
                let (w, ok) = self.address(m, a0, a1);
                let name = m.name();
                let dst = &ops[0];
                let values: Vec<(usize, String)> = (0..4)
                    .filter(|c| write_mask(dst) & (1 << c) != 0)
                    .map(|c| {
                        (
                            c,
                            format!("select(0u, {name}_load({w} + {}u), {ok})", swizzled(res, c)),
                        )
                    })
                    .collect();
                self.assign(dst, &values)
            }
            StoreRaw | StoreStructured => {
                let structured = inst.opcode == StoreStructured;
                let m = self.mem(&ops[0])?;
                if matches!(m, Mem::Srv(_)) {
                    return Err(Rejection::new(id::UNSUPPORTED, "store to an SRV"));
                }
                if structured {
                    let mask = write_mask(&ops[0]);
                    self.check_offset(m, &ops[2], (0..4).filter(|c| mask & (1 << c) != 0))?;
                }
                let a0 = self.src(&ops[1], 0, Num::Uint)?;
                let a1 = if structured {
                    Some(self.src(&ops[2], 0, Num::Uint)?)
                } else {
                    None
                };
                let value = &ops[if structured { 3 } else { 2 }];
                let mut vals = Vec::new();
                for c in 0..4 {
                    if write_mask(&ops[0]) & (1 << c) != 0 {
                        let v = self.src(value, c, Num::Typeless)?;
                        let t = self.fresh();
                        self.line(&format!("let {t} = {v};"));
                        vals.push((c, t));
                    }
                }
                let (w, ok) = self.address(m, a0, a1);
                let name = m.name();
                self.line(&format!("if ({ok}) {{"));
                for (c, t) in vals {
                    self.line(&format!("    {name}_store({w} + {c}u, {t});"));
                }
                self.line("}");
                Ok(())
            }
            Bufinfo => {
                let m = self.mem(&ops[1])?;
                let e = match self.view(m) {
                    View::Structured(stride) => format!("(({} * 4u) / {stride}u)", self.words(m)),
                    View::TypedBuffer => self.words(m),
                    _ => format!("({} * 4u)", self.words(m)),
                };
                let dst = &ops[0];
                let values: Vec<(usize, String)> = (0..4)
                    .filter(|c| write_mask(dst) & (1 << c) != 0)
                    .map(|c| (c, e.clone()))
                    .collect();
                self.assign(dst, &values)
            }
            LdUavTyped | StoreUavTyped | Ld
                if !matches!(self.view_of(inst)?, View::Texture(..)) =>
            {
                self.typed(inst)
            }
            Ld => self.texture_load(inst),
            Sample | SampleL | SampleB | SampleD | Gather4 => self.sample(inst),
            Resinfo => self.resinfo(inst),
            op if op.info().kind == dxbc::opcodes::Kind::Atomic => self.atomic(inst),
            other => Err(Rejection::new(
                id::UNSUPPORTED,
                format!("`{}` is not lowered", other.mnemonic()),
            )),
        }
    }

    fn view_of(&self, inst: &Instruction) -> Result<View, Rejection> {
        let res = match inst.opcode {
            Opcode::StoreUavTyped => &inst.operands[0],
            _ => &inst.operands[2],
        };
        Ok(self.view(self.mem(res)?))
    }

    /// Typed buffers hold one 32-bit word per element here.
    fn typed(&mut self, inst: &Instruction) -> Result<(), Rejection> {
        let ops = &inst.operands;
        if inst.opcode == Opcode::StoreUavTyped {
            let m = self.mem(&ops[0])?;
            let e = self.src(&ops[1], 0, Num::Uint)?;
            let v = self.src(&ops[2], 0, Num::Typeless)?;
            self.line(&format!("{}_store({e}, {v});", m.name()));
            return Ok(());
        }
        let m = self.mem(&ops[2])?;
        let e = self.src(&ops[1], 0, Num::Uint)?;
        let t = self.fresh();
        self.line(&format!(
            "let {t} = vec4<u32>({}_load({e}), 0u, 0u, 1u);",
            m.name()
        ));
        let dst = &ops[0];
        let values: Vec<(usize, String)> = (0..4)
            .filter(|c| write_mask(dst) & (1 << c) != 0)
            .map(|c| (c, format!("{t}.{}", XYZW[swizzled(&ops[2], c)])))
            .collect();
        self.assign(dst, &values)
    }

    /// The `t#` of a texture access: its slot, texel kind, and shape.
    fn texture(&self, op: &Operand) -> Result<(u32, TexelKind, Shape), Rejection> {
        match self.mem(op)? {
            Mem::Srv(s) => match self.srvs.get(&s) {
                Some(View::Texture(k, shape)) => Ok((s, *k, *shape)),
                _ => Err(Rejection::new(
                    id::UNKNOWN_TEXTURE_DIMENSION,
                    "not a 2D texture, 2D texture array or cube",
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
    fn texture_load(&mut self, inst: &Instruction) -> Result<(), Rejection> {
        if inst.sample_offsets().is_some() {
            return Err(Rejection::new(id::TEXTURE_OFFSETS, "ld with texel offsets"));
        }
        let ops = &inst.operands;
        let (slot, kind, shape) = self.texture(&ops[2])?;
        if shape == Shape::Cube {
            // fxc refuses `Load` on a TextureCube: D3D has no rule to follow.
            return Err(Rejection::new(id::UNSUPPORTED, "ld of a TextureCube"));
        }
        let array = shape == Shape::Array;
        let x = self.src(&ops[1], 0, Num::Uint)?;
        let y = self.src(&ops[1], 1, Num::Uint)?;
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
            self.load_2d(slot, array, (&tx, &ty, &tm, &ok), &ops[1])?
        };
        let texel = match kind {
            TexelKind::Float | TexelKind::Sint => {
                format!("select(vec4<u32>(), bitcast<vec4<u32>>({load}), {ok})")
            }
            TexelKind::Uint => format!("select(vec4<u32>(), {load}, {ok})"),
        };
        self.write_texel(inst, &ops[2], texel)
    }

    /// The bounds test (bound to `ok`) and the `textureLoad` of a 2D texture or array's texel
    /// at (`tx`, `ty`) of level `tm`, the layer from `addr`'s z for an array.
    fn load_2d(
        &mut self,
        slot: u32,
        array: bool,
        (tx, ty, tm, ok): (&str, &str, &str, &str),
        addr: &Operand,
    ) -> Result<String, Rejection> {
        // An array's layer is the address's z; past the last layer reads 0 like any other
        // out-of-range coordinate.
        let (layer_ok, layer) = if array {
            let z = self.src(addr, 2, Num::Uint)?;
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

    /// `sample`, `sample_l`, `sample_b` and `gather4` of a 2D texture or array, with
    /// immediate offsets on 2D textures only (the seed's bounded 2D family).
    fn sample(&mut self, inst: &Instruction) -> Result<(), Rejection> {
        let ops = &inst.operands;
        let (slot, kind, shape) = self.texture(&ops[2])?;
        let array = shape == Shape::Array;
        let cube = shape == Shape::Cube;
        let gather = inst.opcode == Opcode::Gather4;
        if gather && shape == Shape::Volume {
            // fxc refuses `Gather` on a Texture3D: D3D has no rule to follow.
            return Err(Rejection::new(id::UNSUPPORTED, "gather4 of a Texture3D"));
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
        // A cube's address is a direction: three coordinates, each NaN read as 0 like a 2D
        // coordinate (D3D leaves a direction with a NaN without a face; dxdiff's oracle leaves
        // it open). D3D flushes a denormal component first, and it matters for a cube: the face
        // coordinates divide by the major axis. The exact profile flushes it; the contract
        // profile leaves it to the device (`dxdiff/denormals`).
        let axes = if cube || shape == Shape::Volume { 3 } else { 2 };
        let mut coords = Vec::with_capacity(axes);
        for c in 0..axes {
            let mut bits = self.src(&ops[1], c, Num::Float)?;
            if cube && self.exact() {
                bits = format!("{}({bits})", self.helper("d3d_ftz"));
            } else if cube {
                self.relies(id::DENORMALS);
            }
            coords.push(self.nan_as_zero(&bits));
        }
        let uv = format!("vec{axes}<f32>({})", coords.join(", "));
        // D3D rounds a float layer to the nearest integer, ties to even, and clamps it
        // (WGSL clamps the index it is given); a NaN layer selects layer 0.
        let layer = if array {
            let z = self.src(&ops[1], 2, Num::Uint)?;
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
        let offset = match inst.sample_offsets() {
            Some(_) if cube || shape == Shape::Volume => {
                return Err(Rejection::new(
                    id::TEXTURE_OFFSETS,
                    "immediate offsets outside the 2D family (a cube or 3D texture)",
                ));
            }
            Some(_) if array => {
                return Err(Rejection::new(
                    id::TEXTURE_OFFSETS,
                    "immediate offsets on a 2D texture array",
                ));
            }
            Some([a, b, _]) => format!(", vec2<i32>({a}, {b})"),
            None => String::new(),
        };
        // Listed where the seed's rules are what the lowering follows.
        if array {
            self.relies(id::ARRAY_LAYER_ROUNDING);
        }
        if !offset.is_empty() {
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
                        parts.push(format!("bitcast<f32>({})", self.src(op, c, Num::Float)?));
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
    fn resinfo(&mut self, inst: &Instruction) -> Result<(), Rejection> {
        let ops = &inst.operands;
        let (slot, _, shape) = self.texture(&ops[2])?;
        let array = shape == Shape::Array;
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
            (d, z)
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

    /// Atomics, with D3D's drop on out-of-range addresses. Signed min/max and compare-exchange
    /// use a compare-exchange loop (the weak form may fail spuriously, so it retries).
    fn atomic(&mut self, inst: &Instruction) -> Result<(), Rejection> {
        use Opcode::*;
        let ops = &inst.operands;
        let imm = inst.info().dst == 2;
        if matches!(inst.opcode, ImmAtomicAlloc | ImmAtomicConsume) {
            return Err(Rejection::new(id::UNSUPPORTED, "append/consume counters"));
        }
        let (mem_op, rest) = if imm {
            (&ops[1], &ops[2..])
        } else {
            (&ops[0], &ops[1..])
        };
        let m = self.mem(mem_op)?;
        let structured = matches!(self.view(m), View::Structured(_));
        let a0 = self.src(&rest[0], 0, Num::Uint)?;
        let a1 = if structured {
            Some(self.src(&rest[0], 1, Num::Uint)?)
        } else {
            None
        };
        let v0 = self.src(&rest[1], 0, Num::Uint)?;
        let v1 = if rest.len() > 2 {
            Some(self.src(&rest[2], 0, Num::Uint)?)
        } else {
            None
        };
        let (tv0, tv1) = (self.fresh(), self.fresh());
        self.line(&format!("let {tv0} = {v0};"));
        self.line(&format!(
            "let {tv1} = {};",
            v1.unwrap_or_else(|| "0u".into())
        ));
        let (w, ok) = self.address(m, a0, a1);
        let old = self.fresh();
        let name = m.name();
        let p = format!("&{name}[{w}]");
        self.line(&format!("var {old} = 0u;"));
        self.line(&format!("if ({ok} && {w} < {}) {{", self.words(m)));
        let body = match inst.opcode {
            AtomicAnd | ImmAtomicAnd => format!("{old} = atomicAnd({p}, {tv0});"),
            AtomicOr | ImmAtomicOr => format!("{old} = atomicOr({p}, {tv0});"),
            AtomicXor | ImmAtomicXor => format!("{old} = atomicXor({p}, {tv0});"),
            AtomicIadd | ImmAtomicIadd => format!("{old} = atomicAdd({p}, {tv0});"),
            AtomicUmax | ImmAtomicUmax => format!("{old} = atomicMax({p}, {tv0});"),
            AtomicUmin | ImmAtomicUmin => format!("{old} = atomicMin({p}, {tv0});"),
            ImmAtomicExch => format!("{old} = atomicExchange({p}, {tv0});"),
            AtomicImax | ImmAtomicImax | AtomicImin | ImmAtomicImin => {
                let f = if matches!(inst.opcode, AtomicImax | ImmAtomicImax) {
                    "max"
                } else {
                    "min"
                };
                format!(
                    "{old} = atomicLoad({p});\n    loop {{\n        let n = bitcast<u32>({f}(bitcast<i32>({old}), bitcast<i32>({tv0})));\n        let r = atomicCompareExchangeWeak({p}, {old}, n);\n        if (r.exchanged) {{ break; }}\n        {old} = r.old_value;\n    }}"
                )
            }
            AtomicCmpStore | ImmAtomicCmpExch => format!(
                "loop {{\n        let r = atomicCompareExchangeWeak({p}, {tv0}, {tv1});\n        if (r.exchanged || r.old_value != {tv0}) {{\n            {old} = r.old_value;\n            break;\n        }}\n    }}"
            ),
            other => {
                return Err(Rejection::new(
                    id::UNSUPPORTED,
                    format!("`{}` is not lowered", other.mnemonic()),
                ));
            }
        };
        self.line(&format!("    {body}"));
        self.line("}");
        if imm {
            let dst = &ops[0];
            let values: Vec<(usize, String)> = (0..4)
                .filter(|c| write_mask(dst) & (1 << c) != 0)
                .map(|c| (c, old.clone()))
                .collect();
            self.assign(dst, &values)?;
        }
        Ok(())
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
