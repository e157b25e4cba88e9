//! [`Program`] -> fxc's text syntax (dxbc-format.md §6), in two modes:
//! - [`Syntax::Exact`]: reassembles to the same bits. Immediates print as fxc would only when that
//!   text parses back to the same word, otherwise as hex; an instruction the text cannot express
//!   (an unusual encoding) prints as a `.raw` line of its words.
//! - [`Syntax::Fxc`]: fxc's own spelling, lossy `%f` immediates included.

use std::fmt::Write;

use crate::decl::{InterpolationMode, ResinfoReturnType, ResourceDimension};
use crate::encode::encode_instruction;
use crate::ir::*;
use crate::limits::Limit;
use crate::names::{self, name};
use crate::numfmt::{NumberType, exact_imm, fxc_imm};
use crate::opcodes::{Ctl, Num, Opcode};

/// Which spelling to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    /// Text that reassembles to the same bits: hex where fxc's text is lossy, `.raw` lines
    /// where text cannot express the encoding.
    Exact,
    /// fxc's own spelling, lossy float immediates included.
    Fxc,
}

/// The token stream as text: the version line, then one line per instruction (the immediate
/// constant buffer spans several), each ending in a newline.
pub fn disassemble(program: &Program, syntax: Syntax) -> String {
    let mut out = String::with_capacity(program.instructions.len() * 40 + 16);
    let _ = writeln!(out, "{}", program.version);
    let mut depth = 0usize;
    for inst in &program.instructions {
        let (before, after) = indent_change(inst.opcode);
        depth = depth.saturating_sub(before);
        let line = instruction_text(inst, program.version, syntax);
        let is_message = inst
            .custom
            .as_ref()
            .is_some_and(|c| c.class == CustomData::CLASS_MESSAGE);
        if !inst.info().is_declaration() && (inst.custom.is_none() || is_message) {
            out.push_str(indent(depth));
        }
        out.push_str(&line);
        out.push('\n');
        depth += after;
    }
    out
}

/// Two spaces per level, capped at D3D11's flow-control nesting limit: a valid program never
/// nests deeper, and an unvalidated stream nested 20,000 deep must still print in linear space
/// (uncapped, its listing grew with the square of the depth).
fn indent(depth: usize) -> &'static str {
    const LEVELS: usize = Limit::FlowControlNesting.value() as usize;
    const SPACES: &str = match std::str::from_utf8(&[b' '; 2 * LEVELS]) {
        Ok(s) => s,
        Err(_) => "",
    };
    SPACES.get(..2 * depth.min(LEVELS)).unwrap_or(SPACES)
}

/// How a flow instruction moves the indentation: (levels to drop before the line, levels to add
/// after it). fxc indents `if`/`loop`/`switch` bodies by two spaces.
fn indent_change(op: Opcode) -> (usize, usize) {
    match op {
        Opcode::If | Opcode::Loop | Opcode::Switch => (0, 1),
        Opcode::Else => (1, 1),
        Opcode::Endif | Opcode::Endloop | Opcode::Endswitch => (1, 0),
        _ => (0, 0),
    }
}

/// One instruction's text, without indentation or newline.
pub fn instruction_text(inst: &Instruction, version: Version, syntax: Syntax) -> String {
    let text = Printer { version, syntax }.instruction(inst);
    if syntax == Syntax::Exact && !crate::asm::line_reproduces(&text, version, inst) {
        return raw_line(inst);
    }
    text
}

/// The `.raw` escape: the instruction's words, for encodings fxc's text cannot express.
fn raw_line(inst: &Instruction) -> String {
    let mut words = Vec::new();
    if let Err(e) = encode_instruction(inst, &mut words) {
        return format!("// unencodable instruction: {e}");
    }
    let mut s = String::from(".raw ");
    for (i, w) in words.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        let _ = write!(s, "0x{w:08x}");
    }
    s
}

struct Printer {
    version: Version,
    syntax: Syntax,
}

const COMPONENTS: [char; 4] = ['x', 'y', 'z', 'w'];

impl Printer {
    fn imm(&self, bits: u32, num: Num) -> String {
        let ty = match num {
            Num::Float => NumberType::Float,
            Num::Int => NumberType::Int,
            Num::Uint | Num::Reg | Num::Double => NumberType::Uint,
            Num::Typeless => NumberType::Typeless,
        };
        match self.syntax {
            Syntax::Fxc => fxc_imm(bits, ty),
            Syntax::Exact => exact_imm(bits, ty),
        }
    }

    fn double(&self, bits: u64) -> String {
        let v = f64::from_bits(bits);
        let text = format!("{v:.6}");
        match self.syntax {
            Syntax::Fxc => format!("{text}l"),
            Syntax::Exact if v.is_finite() && text.parse::<f64>().ok() == Some(v) => {
                format!("{text}l")
            }
            Syntax::Exact => format!("0x{bits:016x}l"),
        }
    }

    fn instruction(&self, inst: &Instruction) -> String {
        if let Some(custom) = &inst.custom {
            return self.custom(custom).unwrap_or_else(|| raw_line(inst));
        }
        if inst.info().is_declaration() {
            return self.declaration(inst).unwrap_or_else(|| raw_line(inst));
        }
        let info = inst.info();
        let mut s = String::from(info.mnemonic);
        match inst.test {
            Some(Test::Zero) => s.push_str("_z"),
            Some(Test::NonZero) => s.push_str("_nz"),
            None => {}
        }
        let offsets = inst.sample_offsets();
        if offsets.is_some() {
            s.push_str("_aoffimmi");
        }
        let dim = inst.resource_dim();
        if dim.is_some() {
            s.push_str("_indexable");
        }
        if inst.saturate {
            s.push_str("_sat");
        }
        if inst.opcode == Opcode::Sync {
            let c = inst.sync_flags().unwrap_or(0);
            if c & 4 != 0 {
                s.push_str("_sat");
            }
            if c & 8 != 0 {
                s.push_str("_uglobal");
            } else if c & 4 != 0 {
                s.push_str("_ugroup");
            }
            if c & 2 != 0 {
                s.push_str("_g");
            }
            if c & 1 != 0 {
                s.push_str("_t");
            }
        }
        match inst.precise {
            0 => {}
            0xF => s.push_str(" [precise]"),
            m => {
                s.push_str(" [precise(");
                for (i, c) in COMPONENTS.iter().enumerate() {
                    if m & (1 << i) != 0 {
                        s.push(*c);
                    }
                }
                s.push_str(")]");
            }
        }
        if let Some([u, v, w]) = offsets {
            let _ = write!(s, "({u},{v},{w})");
        }
        if let Some((d, stride)) = dim {
            let dn = name(names::RESOURCE_DIMENSIONS, u32::from(d)).unwrap_or("unknown");
            if d == 12 {
                let _ = write!(s, "({dn}, stride={stride})");
            } else {
                let _ = write!(s, "({dn})");
            }
        }
        if let Some(types) = inst.return_types() {
            s.push('(');
            for (i, t) in types.iter().enumerate() {
                if i > 0 {
                    s.push(',');
                }
                s.push_str(name(names::RETURN_TYPES, u32::from(*t)).unwrap_or("unused"));
            }
            s.push(')');
        }
        match info.ctl {
            Ctl::ResInfo => match inst.resinfo_return_type() {
                Some(ResinfoReturnType::RcpFloat) => s.push_str("_rcpfloat"),
                Some(ResinfoReturnType::Uint) => s.push_str("_uint"),
                _ => {}
            },
            Ctl::SampleInfo if inst.is_sampleinfo_uint() => s.push_str("_uint"),
            _ => {}
        }
        if inst.opcode == Opcode::Sync {
            return s;
        }
        s.push(' ');
        for (slot, op) in inst.operands.iter().enumerate() {
            if slot > 0 {
                s.push_str(", ");
            }
            self.operand(&mut s, op, info.num(slot), slot < info.dst as usize);
        }
        if inst.opcode == Opcode::Fcall {
            let _ = write!(s, "[{}]", inst.leading.first().copied().unwrap_or(0));
        }
        // fxc's samplepos quirk: one zero DWORD after a `t#` operand. The assembler regenerates
        // it, so it is not printed; anything else trailing is left to the `.raw` fallback.
        s
    }

    fn operand(&self, s: &mut String, op: &Operand, num: Num, _is_dst: bool) {
        let (pre, post) = match op.modifier {
            Modifier::None => ("", ""),
            Modifier::Neg => ("-", ""),
            Modifier::Abs => ("|", "|"),
            Modifier::AbsNeg => ("-|", "|"),
        };
        s.push_str(pre);
        match op.ty {
            OperandType::Immediate32 => {
                s.push_str("l(");
                let sep = if num == Num::Typeless { "," } else { ", " };
                for (i, w) in op.imm.iter().enumerate() {
                    if i > 0 {
                        s.push_str(sep);
                    }
                    s.push_str(&self.imm(*w, num));
                }
                s.push(')');
            }
            OperandType::Immediate64 => {
                s.push_str("d(");
                for (i, pair) in op.imm.chunks(2).enumerate() {
                    if i > 0 {
                        s.push_str(", ");
                    }
                    let bits = u64::from(pair[0]) | u64::from(*pair.get(1).unwrap_or(&0)) << 32;
                    s.push_str(&self.double(bits));
                }
                s.push(')');
            }
            _ => {
                self.register(s, op);
                self.components(s, op.components);
            }
        }
        if op.precision != 0 {
            let _ = write!(
                s,
                " {{{}}}",
                name(names::MIN_PRECISIONS, u32::from(op.precision)).unwrap_or("")
            );
        }
        if op.nonuniform {
            s.push_str(" {nonuniform}");
        }
        s.push_str(post);
    }

    /// Register name and indices, without the component suffix.
    fn register(&self, s: &mut String, op: &Operand) {
        s.push_str(self.register_name(op.ty));
        let all_bracketed = matches!(
            op.ty,
            OperandType::ImmediateConstantBuffer | OperandType::ThisPointer
        ) || (matches!(
            op.ty,
            OperandType::Input | OperandType::InputControlPoint | OperandType::OutputControlPoint
        ) && op.indices.len() == 2);
        for (k, index) in op.indices.iter().enumerate() {
            match index {
                Index::Imm32(v) if k == 0 && !all_bracketed => {
                    let _ = write!(s, "{v}");
                }
                Index::Imm64(v) if k == 0 && !all_bracketed => {
                    let _ = write!(s, "{v}");
                }
                _ => {
                    s.push('[');
                    self.index(s, index);
                    s.push(']');
                }
            }
        }
    }

    fn register_name(&self, ty: OperandType) -> &'static str {
        // SM5.1 spells the resource-like register files in upper case.
        if self.version.is_sm51() {
            match ty {
                OperandType::ConstantBuffer => return "CB",
                OperandType::Resource => return "T",
                OperandType::Sampler => return "S",
                OperandType::UnorderedAccessView => return "U",
                _ => {}
            }
        }
        ty.name()
    }

    fn index(&self, s: &mut String, index: &Index) {
        match index {
            Index::Imm32(v) => {
                let _ = write!(s, "{v}");
            }
            Index::Imm64(v) => {
                let _ = write!(s, "{v}");
            }
            Index::Relative(rel) => {
                self.operand(s, rel, Num::Uint, false);
                s.push_str(" + 0");
            }
            Index::Imm32Relative(v, rel) => {
                self.operand(s, rel, Num::Uint, false);
                let _ = write!(s, " + {v}");
            }
            Index::Imm64Relative(b) => {
                let (v, rel) = &**b;
                self.operand(s, rel, Num::Uint, false);
                let _ = write!(s, " + {v}");
            }
        }
    }

    fn components(&self, s: &mut String, c: Components) {
        match c {
            Components::Four(Selection::Mask(m)) if m != 0 => {
                s.push('.');
                for (i, ch) in COMPONENTS.iter().enumerate() {
                    if m & (1 << i) != 0 {
                        s.push(*ch);
                    }
                }
            }
            Components::Four(Selection::Swizzle(sw)) => {
                s.push('.');
                for c in sw {
                    s.push(COMPONENTS[c as usize & 3]);
                }
            }
            Components::Four(Selection::Select1(c)) => {
                s.push('.');
                s.push(COMPONENTS[c as usize & 3]);
            }
            _ => {}
        }
    }

    /// A declaration operand: the register and its mask, but never a swizzle (fxc omits the
    /// `xyzw` of `dcl_constantbuffer`). SM5.1 ranges print as `T0[first:last]`.
    fn decl_operand(&self, op: &Operand) -> String {
        let mut s = String::new();
        if self.version.is_sm51() && op.indices.len() == 3 && is_range_file(op.ty) {
            s.push_str(self.register_name(op.ty));
            let id = op.indices[0].immediate().unwrap_or(0);
            let first = op.indices[1].immediate().unwrap_or(0);
            let _ = write!(s, "{id}[{first}:");
            match op.indices[2].immediate() {
                Some(0xFFFF_FFFF) => s.push('*'),
                Some(v) => {
                    let _ = write!(s, "{v}");
                }
                None => s.push('?'),
            }
            s.push(']');
            return s;
        }
        self.register(&mut s, op);
        if let Components::Four(Selection::Mask(_)) | Components::Four(Selection::Select1(_)) =
            op.components
        {
            self.components(&mut s, op.components);
        }
        s
    }

    /// Shader messages (`printf`/`errorf`): id, format, length, operand count and size, the
    /// operands, then the NUL-terminated text (dxbc-format.md §4.4).
    fn message(&self, c: &CustomData) -> Option<String> {
        let p = &c.payload;
        let stem = match *p.first()? {
            CustomData::MESSAGE_PRINTF => "printf",
            CustomData::MESSAGE_ERRORF => "errorf",
            _ => return None,
        };
        let (chars, count, size) = (
            *p.get(2)? as usize,
            *p.get(3)? as usize,
            *p.get(4)? as usize,
        );
        let ops_words = p.get(5..5 + size)?;
        let ops = crate::decode::decode_operands(ops_words, count).ok()?;
        let bytes: Vec<u8> = p[5 + size..].iter().flat_map(|w| w.to_le_bytes()).collect();
        let text = std::str::from_utf8(bytes.get(..chars)?).ok()?;
        if text.contains('"') {
            return None;
        }
        let mut s = format!("{stem} \"{text}\"");
        for op in &ops {
            s.push_str(", ");
            self.operand(&mut s, op, Num::Uint, false);
        }
        Some(s)
    }

    fn custom(&self, c: &CustomData) -> Option<String> {
        if c.class == CustomData::CLASS_MESSAGE {
            return self.message(c);
        }
        if c.class != CustomData::CLASS_ICB
            || c.payload.is_empty()
            || !c.payload.len().is_multiple_of(4)
        {
            return None;
        }
        let mut s = String::from("dcl_immediateConstantBuffer { ");
        for (i, row) in c.payload.chunks(4).enumerate() {
            if i > 0 {
                s.push_str(",\n                              ");
            }
            s.push_str("{ ");
            for (j, w) in row.iter().enumerate() {
                if j > 0 {
                    s.push_str(", ");
                }
                s.push_str(&self.imm(*w, Num::Typeless));
            }
            s.push('}');
        }
        s.push_str(" }");
        Some(s)
    }

    /// Declarations; `None` when the payload does not have the shape fxc's text can hold.
    fn declaration(&self, inst: &Instruction) -> Option<String> {
        let op = || inst.operands.first().map(|o| self.decl_operand(o));
        let t = &inst.trailing;
        let sm51 = self.version.is_sm51();
        let space = |i: usize| -> Option<String> {
            if sm51 {
                Some(format!(", space={}", t.get(i)?))
            } else {
                Some(String::new())
            }
        };
        let extra = |n: usize| -> bool { t.len() == n + usize::from(sm51) };
        let m = inst.info().mnemonic;
        let s = match inst.opcode {
            Opcode::DclGlobalFlags => {
                let bits = inst.global_flags().unwrap_or(0);
                let flags: Vec<&str> = (0..names::GLOBAL_FLAGS.len())
                    .filter(|i| bits & (1 << i) != 0)
                    .map(|i| names::GLOBAL_FLAGS[i])
                    .collect();
                format!("{m} {}", flags.join(" | "))
            }
            Opcode::DclConstantbuffer => {
                if !(sm51 && t.len() == 2 || !sm51 && t.is_empty()) {
                    return None;
                }
                let access = if inst.is_dynamically_indexed() {
                    "dynamicIndexed"
                } else {
                    "immediateIndexed"
                };
                let operand = inst.operands.first()?;
                let reg = if sm51 {
                    format!("{}[{}]", self.decl_operand(operand), t[0])
                } else {
                    let mut r = String::new();
                    self.register(&mut r, operand);
                    r
                };
                format!("{m} {reg}, {access}{}", space(1)?)
            }
            Opcode::DclSampler if extra(0) => {
                let mode = name(names::SAMPLER_MODES, inst.sampler_mode()?.number())?;
                format!("{m} {}, {mode}{}", op()?, space(0)?)
            }
            Opcode::DclResource | Opcode::DclUavTyped if extra(1) => {
                let dim_value = inst.resource_dimension()?;
                let dim = name(names::RESOURCE_DIMENSIONS, dim_value.number())?;
                let mut stem = if inst.opcode == Opcode::DclResource {
                    format!("dcl_resource_{dim}")
                } else {
                    format!("dcl_uav_typed_{dim}")
                };
                if inst.opcode == Opcode::DclResource {
                    let count = inst.sample_count()?;
                    if matches!(
                        dim_value,
                        ResourceDimension::Texture2dMs | ResourceDimension::Texture2dMsArray
                    ) {
                        let _ = write!(stem, "({count})");
                    } else if count != 0 {
                        return None;
                    }
                } else {
                    push_uav_flags(&mut stem, inst);
                }
                let rt = t[0];
                if rt >> 16 != 0 {
                    return None;
                }
                let types: Option<Vec<&str>> = (0..4)
                    .map(|i| name(names::RETURN_TYPES, (rt >> (4 * i)) & 0xF))
                    .collect();
                format!("{stem} ({}) {}{}", types?.join(","), op()?, space(1)?)
            }
            Opcode::DclResourceRaw if extra(0) => format!("{m} {}{}", op()?, space(0)?),
            Opcode::DclResourceStructured if extra(1) => {
                format!("{m} {}, {}{} ", op()?, t[0], space(1)?)
            }
            Opcode::DclUavRaw if extra(0) => {
                let mut stem = m.to_string();
                push_uav_flags(&mut stem, inst);
                format!("{stem} {}{}", op()?, space(0)?)
            }
            Opcode::DclUavStructured if extra(1) => {
                let mut stem = m.to_string();
                push_uav_flags(&mut stem, inst);
                format!("{stem} {}, {}{}", op()?, t[0], space(1)?)
            }
            Opcode::DclTgsmRaw if t.len() == 1 => format!("{m} {}, {}", op()?, t[0]),
            Opcode::DclTgsmStructured if t.len() == 2 => {
                format!("{m} {}, {}, {}", op()?, t[0], t[1])
            }
            Opcode::DclInput | Opcode::DclOutput | Opcode::DclStream if t.is_empty() => {
                format!("{m} {}", op()?)
            }
            Opcode::DclInputSgv
            | Opcode::DclInputSiv
            | Opcode::DclOutputSgv
            | Opcode::DclOutputSiv
                if t.len() == 1 =>
            {
                format!("{m} {}, {}", op()?, inst.system_value()?.name())
            }
            Opcode::DclInputPs if t.is_empty() => {
                format!(
                    "{m} {}{}",
                    interpolation(inst.interpolation_mode()?)?,
                    op()?
                )
            }
            Opcode::DclInputPsSgv if t.len() == 1 => {
                // fxc writes mode 1 (constant) and never prints it.
                let mode = inst.interpolation_mode()?;
                let mode_text = if mode == InterpolationMode::Constant {
                    String::new()
                } else {
                    interpolation(mode)?
                };
                format!("{m} {mode_text}{}, {}", op()?, inst.system_value()?.name())
            }
            Opcode::DclInputPsSiv if t.len() == 1 => format!(
                "{m} {}{}, {}",
                interpolation(inst.interpolation_mode()?)?,
                op()?,
                inst.system_value()?.name()
            ),
            Opcode::DclTemps
            | Opcode::DclMaxout
            | Opcode::DclGsinstances
            | Opcode::DclHsForkPhaseInstanceCount
            | Opcode::DclHsJoinPhaseInstanceCount
                if t.len() == 1 =>
            {
                format!("{m} {}", t[0])
            }
            Opcode::DclIndexableTemp if t.len() == 3 => {
                format!("{m} x{}[{}], {}", t[0], t[1], t[2])
            }
            Opcode::DclIndexrange if t.len() == 1 => format!("{m} {} {}", op()?, t[0]),
            Opcode::DclOutputtopology => {
                format!(
                    "{m} {} ",
                    name(names::OUTPUT_TOPOLOGIES, inst.output_topology()?)?
                )
            }
            Opcode::DclInputprimitive => {
                format!("{m} {} ", names::input_primitive(inst.input_primitive()?)?)
            }
            Opcode::DclInputControlPointCount | Opcode::DclOutputControlPointCount => {
                format!("{m} {}", inst.control_point_count()?)
            }
            Opcode::DclTessellatorDomain => {
                format!("{m} {}", name(names::TESS_DOMAINS, inst.tess_domain()?)?)
            }
            Opcode::DclTessellatorPartitioning => {
                format!(
                    "{m} {}",
                    name(names::TESS_PARTITIONINGS, inst.tess_partitioning()?)?
                )
            }
            Opcode::DclTessellatorOutputPrimitive => {
                format!(
                    "{m} {}",
                    name(names::TESS_OUTPUT_PRIMITIVES, inst.tess_output_primitive()?)?
                )
            }
            Opcode::DclHsMaxTessfactor if t.len() == 1 => {
                format!("{m} l({})", self.imm(t[0], Num::Float))
            }
            Opcode::DclThreadGroup if t.len() == 3 => {
                format!("{m} {}, {}, {}", t[0], t[1], t[2])
            }
            Opcode::DclFunctionBody if t.len() == 1 => format!("{m} fb{}", t[0]),
            Opcode::DclFunctionTable if t.len() >= 2 && t.len() == 2 + t[1] as usize => {
                let bodies: Vec<String> = t[2..].iter().map(|b| format!("fb{b}")).collect();
                format!("{m} ft{} = {{{}}}", t[0], bodies.join(", "))
            }
            Opcode::DclInterface if t.len() >= 3 && t.len() == 3 + (t[2] & 0xFFFF) as usize => {
                let stem = if inst.is_dynamically_indexed() {
                    "dcl_interface_dynamicindexed"
                } else {
                    m
                };
                let tables: Vec<String> = t[3..].iter().map(|b| format!("ft{b}")).collect();
                format!(
                    "{stem} fp{}[{}][{}] = {{{}}}",
                    t[0],
                    t[2] >> 16,
                    t[1],
                    tables.join(", ")
                )
            }
            _ => return None,
        };
        Some(s)
    }
}

fn is_range_file(ty: OperandType) -> bool {
    matches!(
        ty,
        OperandType::ConstantBuffer
            | OperandType::Resource
            | OperandType::Sampler
            | OperandType::UnorderedAccessView
    )
}

fn interpolation(mode: InterpolationMode) -> Option<String> {
    match mode {
        InterpolationMode::Undefined => Some(String::new()),
        m => name(names::INTERPOLATION_MODES, m.number()).map(|n| format!("{n} ")),
    }
}

fn push_uav_flags(stem: &mut String, inst: &Instruction) {
    if inst.is_globally_coherent() {
        stem.push_str("_glc");
    }
    if inst.has_order_preserving_counter() {
        stem.push_str("_opc");
    }
    if inst.is_rasterizer_ordered() {
        stem.push_str("_rov");
    }
}
