//! Resources: binding declarations with guarded accessors, and the lowering of buffer, TGSM,
//! atomic and texture instructions. Every accessor checks bounds explicitly so the results are
//! D3D's (reads 0, writes and atomics dropped) whatever the runtime's own checks do.

use std::fmt::Write;

use dxbc::opcodes::Num;
use dxbc::{Instruction, Opcode, Operand, OperandType};

use super::operand::{XYZW, swizzled, write_mask};
use super::{Ctx, Shape, View, binding};
use crate::Rejection;
use crate::manifest::{Binding, BindingKind as Kind, BindingLayout as Layout};
use crate::names as id;

/// Which memory an operand names, and its WGSL variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Mem {
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
                let layout = match shape {
                    _ if !c.depth_textures.contains(&slot) => kind.texture_layout(shape),
                    Shape::Array => Layout::TextureDepth2dArray,
                    Shape::Cube => Layout::TextureDepthCube,
                    // `sample()` refuses a comparison of a 3D or 1D texture before this.
                    _ => Layout::TextureDepth2d,
                };
                let _ = writeln!(out, "@group(0) @binding({b}) var t{slot}: {layout};");
                let mut rec = binding(Kind::Srv, slot, b, layout);
                rec.texture1d = shape.line();
                bindings.push(rec);
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
        let layout = if c.comparison_samplers.contains(&slot) {
            Layout::SamplerComparison
        } else {
            Layout::Sampler
        };
        let _ = writeln!(out, "@group(0) @binding({b}) var s{slot}: {layout};");
        bindings.push(binding(Kind::Sampler, slot, b, layout));
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
    pub(super) fn mem(&self, op: &Operand) -> Result<Mem, Rejection> {
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
            Sample | SampleL | SampleB | SampleD | Gather4 | SampleC | SampleCLz | Gather4C => {
                self.sample(inst)
            }
            Gather4Po | Gather4PoC => self.gather_po(inst),
            Resinfo => self.resinfo(inst),
            Lod => self.lod(inst),
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
