//! [`Program`] -> token stream. The exact inverse of `decode`: every field of the IR maps to the
//! bits it came from. An IR value that no encoding can hold is an `Unencodable` error.

use crate::error::{DxbcError, Result};
use crate::ir::*;
use crate::opcodes::{Ctl, Opcode, PRECISE_SHIFT, SATURATE_BIT, TEST_NZ_BIT};

/// Encode a program to words (version token first).
pub fn encode_words(program: &Program) -> Result<Vec<u32>> {
    let mut out = Vec::with_capacity(2 + program.instructions.len() * 6);
    out.push(version_token(program.version));
    out.push(0);
    for (index, inst) in program.instructions.iter().enumerate() {
        encode_instruction(inst, &mut out)
            .map_err(|what| DxbcError::Unencodable { index, what })?;
    }
    let length = u32::try_from(out.len()).map_err(|_| DxbcError::Unencodable {
        index: program.instructions.len(),
        what: "program longer than 2^32 words".into(),
    })?;
    out[1] = length;
    Ok(out)
}

/// Encode a program to the bytes of a `SHDR`/`SHEX` chunk.
pub fn encode_program(program: &Program) -> Result<Vec<u8>> {
    Ok(encode_words(program)?
        .into_iter()
        .flat_map(u32::to_le_bytes)
        .collect())
}

/// The version token (word 0): program type in bits 16..=31, major in 4..=7, minor in 0..=3.
pub fn version_token(v: Version) -> u32 {
    ((v.stage as u32) << 16) | (u32::from(v.major & 0xF) << 4) | u32::from(v.minor & 0xF)
}

type Enc<T> = std::result::Result<T, String>;

/// Encode one instruction, appending to `out`.
pub fn encode_instruction(inst: &Instruction, out: &mut Vec<u32>) -> Enc<()> {
    let start = out.len();
    if inst.opcode == Opcode::Customdata {
        let custom = inst
            .custom
            .as_ref()
            .ok_or("custom-data opcode without a payload")?;
        if custom.class >= 1 << 21 {
            return Err(format!("custom-data class {} too large", custom.class));
        }
        out.push(Opcode::Customdata as u32 | (custom.class << 11));
        let len = u32::try_from(custom.payload.len() + 2).map_err(|_| "custom data too long")?;
        out.push(len);
        out.extend_from_slice(&custom.payload);
        return Ok(());
    }
    if inst.custom.is_some() {
        return Err("custom data on an opcode other than customdata".into());
    }
    let info = inst.info();
    let ctl = info.ctl;
    let mut token = inst.opcode as u32;
    if inst.controls & !ctl.allowed_mask() != 0
        || (ctl.has_value_bits() && inst.controls & (SATURATE_BIT | (0xF << PRECISE_SHIFT)) != 0)
        || (ctl == Ctl::Test && inst.controls & TEST_NZ_BIT != 0)
    {
        return Err(format!(
            "control bits {:#x} not valid for {}",
            inst.controls, info.mnemonic
        ));
    }
    token |= inst.controls;
    if inst.saturate || inst.precise != 0 {
        if !ctl.has_value_bits() {
            return Err(format!("{} takes no _sat or precise", info.mnemonic));
        }
        if inst.precise > 0xF {
            return Err("precise mask wider than 4 bits".into());
        }
        token |=
            (u32::from(inst.saturate) * SATURATE_BIT) | (u32::from(inst.precise) << PRECISE_SHIFT);
    }
    match (ctl == Ctl::Test, inst.test) {
        (true, Some(Test::NonZero)) => token |= TEST_NZ_BIT,
        (true, Some(Test::Zero)) => {}
        (true, None) => return Err(format!("{} needs a _z or _nz test", info.mnemonic)),
        (false, Some(_)) => return Err(format!("{} takes no test", info.mnemonic)),
        (false, None) => {}
    }
    out.push(token);
    let long = inst.length_form != LengthForm::Short;
    if long {
        if !info.may_have_long_length() {
            return Err(format!("{} has no long-length form", info.mnemonic));
        }
        if !inst.extended.is_empty() {
            return Err("extended opcode tokens with a long length".into());
        }
        out.push(0);
    } else if !inst.extended.is_empty() && info.may_have_long_length() {
        return Err(format!(
            "{} cannot carry extended opcode tokens",
            info.mnemonic
        ));
    }
    let count = inst.extended.len();
    for (i, ext) in inst.extended.iter().enumerate() {
        let more = if i + 1 < count { 1 << 31 } else { 0 };
        out.push(encode_extended_opcode(ext)? | more);
    }
    if inst.leading.len() != info.leading_dwords() {
        return Err(format!(
            "{} needs {} leading DWORDs",
            info.mnemonic,
            info.leading_dwords()
        ));
    }
    out.extend_from_slice(&inst.leading);
    if inst.operands.len() != info.operand_count() {
        return Err(format!(
            "{} takes {} operands, got {}",
            info.mnemonic,
            info.operand_count(),
            inst.operands.len()
        ));
    }
    for op in &inst.operands {
        encode_operand(op, out, 0)?;
    }
    out.extend_from_slice(&inst.trailing);
    let length = out.len() - start;
    match inst.length_form {
        LengthForm::Short => {
            if length > 127 {
                return Err(format!(
                    "instruction of {length} words needs a long-length form"
                ));
            }
            out[start] |= (length as u32) << 24 | if count > 0 { 1 << 31 } else { 0 };
        }
        LengthForm::Bit31 => {
            out[start] |= 1 << 31;
            out[start + 1] = length as u32;
        }
        LengthForm::Zero => out[start + 1] = length as u32,
    }
    Ok(())
}

fn encode_extended_opcode(ext: &ExtendedOpcode) -> Enc<u32> {
    Ok(match *ext {
        ExtendedOpcode::Empty => 0,
        ExtendedOpcode::SampleControls { offsets } => {
            let mut t = 1;
            for (i, &o) in offsets.iter().enumerate() {
                if !(-8..=7).contains(&o) {
                    return Err(format!("texel offset {o} outside -8..=7"));
                }
                t |= ((o as u32) & 0xF) << (9 + 4 * i);
            }
            t
        }
        ExtendedOpcode::ResourceDim { dim, stride } => {
            if dim > 0x1F || stride > 0xFFF {
                return Err("resource dimension or stride out of range".into());
            }
            2 | u32::from(dim) << 6 | u32::from(stride) << 11
        }
        ExtendedOpcode::ReturnType { types } => {
            let mut t = 3;
            for (i, &ty) in types.iter().enumerate() {
                if ty > 0xF {
                    return Err("return type out of range".into());
                }
                t |= u32::from(ty) << (6 + 4 * i);
            }
            t
        }
    })
}

/// Encode one operand, appending to `out`.
pub fn encode_operand(op: &Operand, out: &mut Vec<u32>, depth: u32) -> Enc<()> {
    if depth > 4 {
        return Err("relative addressing nested too deeply".into());
    }
    let mut t = match op.components {
        Components::Zero => 0,
        Components::One => 1,
        Components::N => 3,
        Components::Four(sel) => {
            2 | match sel {
                Selection::Mask(m) => {
                    if m > 0xF {
                        return Err("write mask wider than 4 bits".into());
                    }
                    u32::from(m) << 4
                }
                Selection::Swizzle(s) => {
                    if s.iter().any(|&c| c > 3) {
                        return Err("swizzle component above w".into());
                    }
                    1 << 2
                        | u32::from(s[0]) << 4
                        | u32::from(s[1]) << 6
                        | u32::from(s[2]) << 8
                        | u32::from(s[3]) << 10
                }
                Selection::Select1(c) => {
                    if c > 3 {
                        return Err("selected component above w".into());
                    }
                    2 << 2 | u32::from(c) << 4
                }
            }
        }
    };
    t |= (op.ty as u32) << 12;
    if op.indices.len() > 3 {
        return Err("more than 3 index dimensions".into());
    }
    t |= (op.indices.len() as u32) << 20;
    for (k, index) in op.indices.iter().enumerate() {
        t |= index.representation() << (22 + 3 * k);
    }
    let ext = if op.has_modifier_payload() {
        if op.extended == ExtendedOperand::Empty {
            return Err("an empty extended operand token cannot carry a modifier".into());
        }
        let modifier = match op.modifier {
            Modifier::None => 0,
            Modifier::Neg => 1,
            Modifier::Abs => 2,
            Modifier::AbsNeg => 3,
        };
        if !matches!(op.precision, 0 | 1 | 2 | 4 | 5) {
            return Err(format!("min precision {} is not defined", op.precision));
        }
        Some(1 | modifier << 6 | u32::from(op.precision) << 14 | u32::from(op.nonuniform) << 17)
    } else {
        match op.extended {
            ExtendedOperand::None => None,
            ExtendedOperand::Empty => Some(0),
            ExtendedOperand::Modifier => Some(1),
        }
    };
    if ext.is_some() {
        t |= 1 << 31;
    }
    out.push(t);
    out.extend(ext);
    if op.is_immediate() {
        let want = match (op.ty, op.components) {
            (OperandType::Immediate32, Components::One) => 1,
            (OperandType::Immediate64, Components::One) => 2,
            (_, Components::Four(Selection::Mask(0))) => 4,
            _ => return Err("immediate with an invalid component form".into()),
        };
        if op.imm.len() != want || !op.indices.is_empty() {
            return Err(format!("immediate needs {want} values and no indices"));
        }
        out.extend_from_slice(&op.imm);
    } else if !op.imm.is_empty() {
        return Err("immediate values on a register operand".into());
    }
    for index in &op.indices {
        match index {
            Index::Imm32(v) => out.push(*v),
            Index::Imm64(v) => out.extend([(*v >> 32) as u32, *v as u32]),
            Index::Relative(rel) => encode_operand(rel, out, depth + 1)?,
            Index::Imm32Relative(v, rel) => {
                out.push(*v);
                encode_operand(rel, out, depth + 1)?;
            }
            Index::Imm64Relative(b) => {
                let (v, rel) = &**b;
                out.extend([(*v >> 32) as u32, *v as u32]);
                encode_operand(rel, out, depth + 1)?;
            }
        }
    }
    Ok(())
}
