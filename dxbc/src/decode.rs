//! Token stream -> [`Program`]. Strict: every bit is either understood and kept, or an error that
//! names its word offset. The decoder always advances by the declared instruction length.

use crate::error::{DxbcError, Result};
use crate::ir::*;
use crate::opcodes::{Ctl, Opcode, PRECISE_MASK, PRECISE_SHIFT, SATURATE_BIT, TEST_NZ_BIT};

/// Relative addresses nest (an index register indexed by another...). Real programs use one level;
/// the cap keeps hostile input from recursing deeply.
const MAX_OPERAND_NESTING: u32 = 4;

/// Decode the data of a `SHDR`/`SHEX` chunk.
pub fn decode_program(bytes: &[u8]) -> Result<Program> {
    if !bytes.len().is_multiple_of(4) {
        return Err(DxbcError::TokensTruncated {
            word: bytes.len() / 4,
            what: "chunk size is not a multiple of 4",
        });
    }
    let mut words = crate::spare::words();
    words.extend(
        bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
    );
    let program = decode_words(&words);
    crate::spare::give_words(words);
    program
}

/// Decode a token stream given as words (version token first).
pub fn decode_words(words: &[u32]) -> Result<Program> {
    let version_token = *words.first().ok_or(DxbcError::TokensTruncated {
        word: 0,
        what: "no version token",
    })?;
    let version = decode_version(version_token)?;
    let length = *words.get(1).ok_or(DxbcError::TokensTruncated {
        word: 1,
        what: "no length token",
    })?;
    if length as usize != words.len() {
        return Err(DxbcError::ProgramLength {
            word: 1,
            declared: length,
            actual: words.len(),
        });
    }
    let mut lists = crate::spare::take();
    // fxc's instructions average over four words; one allocation covers most programs.
    let mut instructions = lists.instructions(words.len() / 4);
    let mut reader = Reader {
        words,
        pos: 2,
        spare: Some(lists),
    };
    let decoded = decode_all(&mut reader, &mut instructions);
    let Some(mut lists) = reader.spare.take() else {
        return decoded.map(|used| {
            instructions.truncate(used);
            Program {
                version,
                instructions,
            }
        });
    };
    let program = match decoded {
        Ok(used) => {
            lists.keep_from(&mut instructions, used);
            Ok(Program {
                version,
                instructions,
            })
        }
        Err(e) => {
            lists.keep(instructions);
            Err(e)
        }
    };
    crate::spare::put(lists);
    program
}

/// Decode every instruction into `instructions`, overwriting the used ones it holds (a spare
/// list) before adding more; how many the program has.
fn decode_all(reader: &mut Reader<'_>, instructions: &mut Vec<Instruction>) -> Result<usize> {
    let mut used = 0;
    while reader.pos < reader.words.len() {
        // Decoded where it will lie: an instruction is large, and moving a finished one in
        // cost a copy per instruction.
        if used == instructions.len() {
            // Made where it lies (a pushed instruction was built aside and copied in).
            instructions.resize_with(used + 1, || Instruction::new(Opcode::Nop));
            if let Some(lists) = reader.spare.as_mut() {
                lists.give_operands(&mut instructions[used]);
            }
        }
        let inst = &mut instructions[used];
        inst.clear();
        decode_instruction_into(reader, inst)?;
        used += 1;
    }
    Ok(used)
}

/// Decode exactly one instruction from `words` (the assembler's `.raw` lines).
pub fn decode_one_instruction(words: &[u32]) -> Result<Instruction> {
    let mut reader = Reader {
        words,
        pos: 0,
        spare: None,
    };
    let inst = decode_instruction(&mut reader)?;
    if reader.pos != words.len() {
        return Err(DxbcError::BadLength {
            word: 0,
            length: reader.pos as u32,
            what: "words left over after one instruction",
        });
    }
    Ok(inst)
}

/// Decode `count` operands that fill `words` exactly (shader-message operands).
pub(crate) fn decode_operands(words: &[u32], count: usize) -> Result<Vec<Operand>> {
    let mut reader = Reader {
        words,
        pos: 0,
        spare: None,
    };
    let ops = (0..count)
        .map(|_| decode_operand(&mut reader, words.len(), 0))
        .collect::<Result<Vec<_>>>()?;
    if reader.pos != words.len() {
        return Err(DxbcError::BadLength {
            word: reader.pos,
            length: words.len() as u32,
            what: "message operands do not fill their size",
        });
    }
    Ok(ops)
}

pub(crate) fn decode_version(token: u32) -> Result<Version> {
    if token & 0xFF00 != 0 {
        return Err(DxbcError::UnknownBits {
            word: 0,
            what: "version token",
            bits: token & 0xFF00,
        });
    }
    let stage = Stage::from_number(token >> 16).ok_or(DxbcError::InvalidField {
        word: 0,
        what: "program type",
        value: token >> 16,
    })?;
    let major = ((token >> 4) & 0xF) as u8;
    let minor = (token & 0xF) as u8;
    if !(4..=5).contains(&major) || minor > 1 {
        return Err(DxbcError::InvalidField {
            word: 0,
            what: "shader model",
            value: token & 0xFF,
        });
    }
    Ok(Version {
        stage,
        major,
        minor,
    })
}

struct Reader<'a> {
    words: &'a [u32],
    pos: usize,
    /// Operand lists of dropped programs, when decoding a whole program.
    spare: Option<crate::spare::Lists>,
}

impl Reader<'_> {
    /// Next word, which must lie before `end` (the end of the current instruction).
    fn next(&mut self, end: usize, what: &'static str) -> Result<u32> {
        if self.pos >= end {
            return Err(DxbcError::TokensTruncated {
                word: self.pos,
                what,
            });
        }
        let w = self.words[self.pos];
        self.pos += 1;
        Ok(w)
    }
}

fn decode_instruction(r: &mut Reader<'_>) -> Result<Instruction> {
    let mut inst = Instruction::new(Opcode::Nop);
    decode_instruction_into(r, &mut inst)?;
    Ok(inst)
}

/// Decode one instruction into `inst`, a blank one (`Instruction::new`, or a used one after
/// [`Instruction::clear`]).
fn decode_instruction_into(r: &mut Reader<'_>, inst: &mut Instruction) -> Result<()> {
    let start = r.pos;
    let all = r.words.len();
    let token = r.next(all, "opcode token")?;
    let number = token & 0x7FF;
    // Lazily: an error value built eagerly is dropped on the success path, a call to its drop
    // glue per token (0.6 % of decoding and lowering the corpus); clippy counts only the build.
    #[allow(clippy::unnecessary_lazy_evaluations)]
    let opcode = Opcode::from_number(number).ok_or_else(|| DxbcError::UnknownOpcode {
        word: start,
        opcode: number,
    })?;
    if opcode == Opcode::Customdata {
        *inst = decode_custom_data(r, start, token)?;
        return Ok(());
    }
    let info = opcode.info();
    let mut length = (token >> 24) & 0x7F;
    let bit31 = token >> 31 == 1;
    let mut length_form = LengthForm::Short;
    if info.may_have_long_length() && (bit31 || length == 0) {
        if bit31 && length != 0 {
            return Err(DxbcError::InvalidField {
                word: start,
                what: "7-bit length beside a long-length DWORD",
                value: length,
            });
        }
        length_form = if bit31 {
            LengthForm::Bit31
        } else {
            LengthForm::Zero
        };
        length = r.next(all, "long instruction length")?;
    }
    // Lazily, as the opcode's error above.
    #[allow(clippy::unnecessary_lazy_evaluations)]
    let end = start
        .checked_add(length as usize)
        .filter(|&e| e <= all && length >= 1)
        .ok_or_else(|| DxbcError::BadLength {
            word: start,
            length,
            what: "runs past the end of the program or is zero",
        })?;
    if r.pos > end {
        return Err(DxbcError::BadLength {
            word: start,
            length,
            what: "shorter than its own header",
        });
    }

    let controls = token & 0x00FF_F800;
    let ctl = info.ctl;
    let unknown = controls & !ctl.allowed_mask();
    if unknown != 0 {
        return Err(DxbcError::UnknownBits {
            word: start,
            what: "opcode controls",
            bits: unknown,
        });
    }
    inst.opcode = opcode;
    inst.length_form = length_form;
    let mut rest = controls;
    if ctl.has_value_bits() {
        inst.saturate = controls & SATURATE_BIT != 0;
        inst.precise = ((controls & PRECISE_MASK) >> PRECISE_SHIFT) as u8;
        rest &= !(SATURATE_BIT | PRECISE_MASK);
    }
    if ctl == Ctl::Test {
        inst.test = Some(if controls & TEST_NZ_BIT != 0 {
            Test::NonZero
        } else {
            Test::Zero
        });
        rest &= !TEST_NZ_BIT;
    }
    inst.controls = rest;

    if bit31 && length_form == LengthForm::Short {
        loop {
            let word = r.pos;
            let t = r.next(end, "extended opcode token")?;
            inst.extended.push(decode_extended_opcode(t, word)?);
            if t >> 31 == 0 {
                break;
            }
        }
    }
    for _ in 0..info.leading_dwords() {
        let w = r.next(end, "leading DWORD")?;
        inst.leading.push(w);
    }
    // Blank operands made in place, then decoded where they lie: an operand is large, and
    // building one elsewhere to move it in cost a copy per operand.
    let n = info.operand_count();
    inst.operands.reserve_exact(n);
    inst.operands.resize_with(n, Operand::blank);
    for op in inst.operands.iter_mut() {
        decode_operand_into(r, end, 0, op)?;
    }
    inst.trailing.extend_from_slice(&r.words[r.pos..end]);
    r.pos = end;
    Ok(())
}

fn decode_custom_data(r: &mut Reader<'_>, start: usize, token: u32) -> Result<Instruction> {
    let all = r.words.len();
    let length = r.next(all, "custom-data length")?;
    let end = start
        .checked_add(length as usize)
        .filter(|&e| e <= all && length >= 2)
        .ok_or(DxbcError::BadLength {
            word: start,
            length,
            what: "custom-data block runs past the end or is shorter than 2",
        })?;
    let mut inst = Instruction::new(Opcode::Customdata);
    inst.custom = Some(CustomData {
        class: token >> 11,
        payload: r.words[r.pos..end].to_vec(),
    });
    r.pos = end;
    Ok(inst)
}

fn check_zero(bits: u32, word: usize, what: &'static str) -> Result<()> {
    if bits != 0 {
        return Err(DxbcError::UnknownBits { word, what, bits });
    }
    Ok(())
}

fn decode_extended_opcode(t: u32, word: usize) -> Result<ExtendedOpcode> {
    let payload = t & 0x7FFF_FFFF;
    match t & 0x3F {
        0 => {
            check_zero(payload & !0x3F, word, "empty extended opcode token")?;
            Ok(ExtendedOpcode::Empty)
        }
        1 => {
            check_zero(payload & !0x001F_FE3F, word, "sample-controls token")?;
            let nibble = |shift: u32| (((t >> shift) & 0xF) as i8) << 4 >> 4;
            Ok(ExtendedOpcode::SampleControls {
                offsets: [nibble(9), nibble(13), nibble(17)],
            })
        }
        2 => {
            check_zero(payload & !0x007F_FFFF, word, "resource-dimension token")?;
            Ok(ExtendedOpcode::ResourceDim {
                dim: ((t >> 6) & 0x1F) as u8,
                stride: ((t >> 11) & 0xFFF) as u16,
            })
        }
        3 => {
            check_zero(payload & !0x003F_FFFF, word, "return-type token")?;
            let nib = |i: u32| ((t >> (6 + 4 * i)) & 0xF) as u8;
            Ok(ExtendedOpcode::ReturnType {
                types: [nib(0), nib(1), nib(2), nib(3)],
            })
        }
        other => Err(DxbcError::InvalidField {
            word,
            what: "extended opcode type",
            value: other,
        }),
    }
}

fn decode_operand(r: &mut Reader<'_>, end: usize, depth: u32) -> Result<Operand> {
    let mut op = Operand::blank();
    decode_operand_into(r, end, depth, &mut op)?;
    Ok(op)
}

/// Decode one operand into `op`, a blank already in its final place: an operand is large
/// (its indices and immediates are inline), and moving it costs more than decoding it.
fn decode_operand_into(r: &mut Reader<'_>, end: usize, depth: u32, op: &mut Operand) -> Result<()> {
    let word = r.pos;
    if depth > MAX_OPERAND_NESTING {
        return Err(DxbcError::InvalidField {
            word,
            what: "relative-address nesting depth",
            value: depth,
        });
    }
    let t = r.next(end, "operand token")?;
    let selection_bits = t & 0xFFC;
    let components = match t & 3 {
        0 => {
            check_zero(selection_bits, word, "selection of a 0-component operand")?;
            Components::Zero
        }
        1 => {
            check_zero(selection_bits, word, "selection of a 1-component operand")?;
            Components::One
        }
        2 => {
            let sel = (t >> 4) & 0xFF;
            Components::Four(match (t >> 2) & 3 {
                0 => {
                    check_zero(t & 0xF00, word, "bits above a write mask")?;
                    Selection::Mask(sel as u8)
                }
                1 => Selection::Swizzle([
                    (sel & 3) as u8,
                    ((sel >> 2) & 3) as u8,
                    ((sel >> 4) & 3) as u8,
                    ((sel >> 6) & 3) as u8,
                ]),
                2 => {
                    check_zero(t & 0xFC0, word, "bits above a select-1 component")?;
                    Selection::Select1((sel & 3) as u8)
                }
                mode => {
                    return Err(DxbcError::InvalidField {
                        word,
                        what: "selection mode",
                        value: mode,
                    });
                }
            })
        }
        _ => {
            check_zero(selection_bits, word, "selection of an N-component operand")?;
            Components::N
        }
    };
    let type_number = (t >> 12) & 0xFF;
    // Lazily, as the opcode's error above.
    #[allow(clippy::unnecessary_lazy_evaluations)]
    let ty = OperandType::from_number(type_number).ok_or_else(|| DxbcError::InvalidField {
        word,
        what: "operand type",
        value: type_number,
    })?;
    let dims = ((t >> 20) & 3) as usize;
    let reps = [(t >> 22) & 7, (t >> 25) & 7, (t >> 28) & 7];
    for rep in &reps[dims.min(3)..] {
        check_zero(
            *rep,
            word,
            "index representation beyond the index dimension",
        )?;
    }
    op.ty = ty;
    op.components = components;
    if t >> 31 == 1 {
        let ext_word = r.pos;
        let e = r.next(end, "extended operand token")?;
        decode_extended_operand(e, ext_word, op)?;
    }
    if op.is_immediate() {
        if dims != 0 {
            return Err(DxbcError::InvalidField {
                word,
                what: "index dimension of an immediate",
                value: dims as u32,
            });
        }
        let count = match (ty, components) {
            (OperandType::Immediate32, Components::One) => 1,
            (OperandType::Immediate64, Components::One) => 2,
            (_, Components::Four(Selection::Mask(0))) => 4,
            _ => {
                return Err(DxbcError::InvalidField {
                    word,
                    what: "component form of an immediate",
                    value: t & 0xFFF,
                });
            }
        };
        for _ in 0..count {
            op.imm.push(r.next(end, "immediate value")?);
        }
    }
    for &rep in &reps[..dims] {
        let index = match rep {
            0 => Index::Imm32(r.next(end, "index")?),
            1 => Index::Imm64(read_u64(r, end)?),
            2 => Index::Relative(Box::new(decode_operand(r, end, depth + 1)?)),
            3 => {
                let base = r.next(end, "index")?;
                Index::Imm32Relative(base, Box::new(decode_operand(r, end, depth + 1)?))
            }
            4 => {
                let base = read_u64(r, end)?;
                Index::Imm64Relative(Box::new((base, decode_operand(r, end, depth + 1)?)))
            }
            other => {
                return Err(DxbcError::InvalidField {
                    word,
                    what: "index representation",
                    value: other,
                });
            }
        };
        op.indices.push(index);
    }
    Ok(())
}

/// 64-bit indices are stored high word first.
fn read_u64(r: &mut Reader<'_>, end: usize) -> Result<u64> {
    let hi = r.next(end, "64-bit index")?;
    let lo = r.next(end, "64-bit index")?;
    Ok((u64::from(hi) << 32) | u64::from(lo))
}

fn decode_extended_operand(e: u32, word: usize, op: &mut Operand) -> Result<()> {
    if e >> 31 == 1 {
        return Err(DxbcError::UnknownBits {
            word,
            what: "chained extended operand token",
            bits: 1 << 31,
        });
    }
    match e & 0x3F {
        0 => {
            op.extended = ExtendedOperand::Empty;
            check_zero(e & !0x3F, word, "empty extended operand token")
        }
        1 => {
            // A modifier token is implied by its payload; remember it only when it is empty.
            if e & !0x3F == 0 {
                op.extended = ExtendedOperand::Modifier;
            }
            check_zero(e & 0x7FFC_0000, word, "extended operand token")?;
            op.modifier = match (e >> 6) & 0xFF {
                0 => Modifier::None,
                1 => Modifier::Neg,
                2 => Modifier::Abs,
                3 => Modifier::AbsNeg,
                other => {
                    return Err(DxbcError::InvalidField {
                        word,
                        what: "operand modifier",
                        value: other,
                    });
                }
            };
            let precision = (e >> 14) & 7;
            if !matches!(precision, 0 | 1 | 2 | 4 | 5) {
                return Err(DxbcError::InvalidField {
                    word,
                    what: "min precision",
                    value: precision,
                });
            }
            op.precision = precision as u8;
            op.nonuniform = (e >> 17) & 1 == 1;
            Ok(())
        }
        other => Err(DxbcError::InvalidField {
            word,
            what: "extended operand type",
            value: other,
        }),
    }
}
