//! A SPIR-V module as words: parsed into instructions, written back, and the lookups a
//! rewrite needs (a value's type, a type's declaration, a constant, where a function starts).
//! What the rewrites do is [`super::fixup`]'s.

/// The words are not a SPIR-V module. Code: `spirv.malformed` (as [`super::fixup::FixupError`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the SPIR-V is malformed at word {word}: {why}")]
pub struct Malformed {
    /// The word offset.
    pub word: usize,
    /// What is wrong there.
    pub why: &'static str,
}

/// The extended instruction set the rewrites call (`RoundEven`) and read (the bit searches).
const GLSL_STD_450: &str = "GLSL.std.450";

/// SPIR-V opcodes the rewrites read (SPIR-V 1.6 unified spec).
pub(super) mod op {
    pub const EXECUTION_MODE: u16 = 16;
    pub const CAPABILITY: u16 = 17;
    pub const TYPE_INT: u16 = 21;
    pub const TYPE_POINTER: u16 = 32;
    pub const TYPE_FORWARD_POINTER: u16 = 39;
    pub const ENTRY_POINT: u16 = 15;
    pub const CONSTANT_NULL: u16 = 46;
    pub const FUNCTION: u16 = 54;
    pub const LOAD: u16 = 61;
    pub const COPY_OBJECT: u16 = 83;
    pub const IS_NAN: u16 = 156;
    pub const U_GREATER_THAN: u16 = 172;
    pub const I_ADD: u16 = 128;
    pub const IMAGE_FETCH: u16 = 95;
    pub const MEMORY_MODEL: u16 = 14;
    pub const TYPE_SAMPLED_IMAGE: u16 = 27;
    pub const BITWISE_AND: u16 = 199;
    pub const CONSTANT: u16 = 43;
    pub const VARIABLE: u16 = 59;
    pub const DECORATE: u16 = 71;
    pub const NAME: u16 = 5;
    pub const EXT_INST_IMPORT: u16 = 11;
    pub const EXT_INST: u16 = 12;
    pub const TYPE_VECTOR: u16 = 23;
    pub const TYPE_FLOAT: u16 = 22;
    pub const CONSTANT_COMPOSITE: u16 = 44;
    pub const FUNCTION_END: u16 = 56;
    pub const STORE: u16 = 62;
    pub const VECTOR_SHUFFLE: u16 = 79;
    pub const COMPOSITE_CONSTRUCT: u16 = 80;
    pub const COMPOSITE_EXTRACT: u16 = 81;
    pub const COMPOSITE_INSERT: u16 = 82;
    pub const PHI: u16 = 245;
    pub const BRANCH_CONDITIONAL: u16 = 250;
    pub const RETURN_VALUE: u16 = 254;
    pub const BITCAST: u16 = 124;
    pub const S_NEGATE: u16 = 126;
    pub const I_SUB: u16 = 130;
    pub const KILL: u16 = 252;
    pub const LABEL: u16 = 248;
    pub const RETURN: u16 = 253;
    pub const EXECUTION_MODE_ID: u16 = 331;
    pub const DEMOTE_TO_HELPER: u16 = 5380;
}

/// One instruction: its opcode and operand words (without the leading word).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Inst {
    pub(super) op: u16,
    pub(super) operands: Vec<u32>,
}

pub(super) struct Module {
    pub(super) header: [u32; 5],
    pub(super) insts: Vec<Inst>,
}

fn words(bytes: &[u8]) -> Result<Vec<u32>, Malformed> {
    if !bytes.len().is_multiple_of(4) {
        return Err(Malformed {
            word: bytes.len() / 4,
            why: "its length is not a whole number of words",
        });
    }
    Ok(bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

pub(super) fn parse(bytes: &[u8]) -> Result<Module, Malformed> {
    let w = words(bytes)?;
    if w.len() < 5 || w[0] != 0x0723_0203 {
        return Err(Malformed {
            word: 0,
            why: "no SPIR-V header",
        });
    }
    let header = [w[0], w[1], w[2], w[3], w[4]];
    let mut insts = Vec::new();
    let mut at = 5;
    while at < w.len() {
        let count = (w[at] >> 16) as usize;
        if count == 0 || at + count > w.len() {
            return Err(Malformed {
                word: at,
                why: "an instruction's word count overruns the module",
            });
        }
        insts.push(Inst {
            op: (w[at] & 0xffff) as u16,
            operands: w[at + 1..at + count].to_vec(),
        });
        at += count;
    }
    Ok(Module { header, insts })
}

pub(super) fn write(m: &Module) -> Vec<u8> {
    let mut out = Vec::new();
    for w in m.header {
        out.extend_from_slice(&w.to_le_bytes());
    }
    for i in &m.insts {
        let first = ((i.operands.len() as u32 + 1) << 16) | u32::from(i.op);
        out.extend_from_slice(&first.to_le_bytes());
        for w in &i.operands {
            out.extend_from_slice(&w.to_le_bytes());
        }
    }
    out
}

impl Module {
    pub(super) fn fresh_id(&mut self) -> u32 {
        let id = self.header[3];
        self.header[3] += 1;
        id
    }

    /// The value of a 32-bit `OpConstant` with result `id`.
    pub(super) fn constant(&self, id: u32) -> Option<u32> {
        self.insts
            .iter()
            .find(|i| i.op == op::CONSTANT && i.operands.get(1) == Some(&id))
            .and_then(|i| i.operands.get(2).copied())
    }

    /// The storage class of variable `id`.
    pub(super) fn storage_class(&self, id: u32) -> Option<u32> {
        self.insts
            .iter()
            .find(|i| i.op == op::VARIABLE && i.operands.get(1) == Some(&id))
            .and_then(|i| i.operands.get(2).copied())
    }

    /// The declared type of value `id` (a constant, a parameter or an instruction's result).
    pub(super) fn type_of(&self, id: u32) -> Option<u32> {
        self.insts
            .iter()
            .find(|i| has_result_type(i.op) && i.operands.get(1) == Some(&id))
            .map(|i| i.operands[0])
    }

    /// The instruction that declares type `ty`.
    pub(super) fn type_def(&self, ty: u32) -> Option<&Inst> {
        self.insts
            .iter()
            .find(|i| is_type(i.op) && i.operands.first() == Some(&ty))
    }

    /// The component count of vector type `ty`; `None` for a scalar.
    pub(super) fn vector_count(&self, ty: u32) -> Option<u32> {
        self.insts
            .iter()
            .find(|i| i.op == op::TYPE_VECTOR && i.operands.first() == Some(&ty))
            .and_then(|i| i.operands.get(2).copied())
    }

    /// A `uint` constant of `value`, or with `count` a splat of it of vector type `vt`,
    /// declared before the functions when missing.
    pub(super) fn u32_constant(
        &mut self,
        uint: u32,
        value: u32,
        count: Option<u32>,
        vt: u32,
    ) -> u32 {
        let scalar = match self.insts.iter().find(|i| {
            i.op == op::CONSTANT
                && i.operands.first() == Some(&uint)
                && i.operands.get(2) == Some(&value)
                && i.operands.len() == 3
        }) {
            Some(i) => i.operands[1],
            None => {
                let id = self.fresh_id();
                let at = self.first_function();
                self.insts.insert(
                    at,
                    Inst {
                        op: op::CONSTANT,
                        operands: vec![uint, id, value],
                    },
                );
                id
            }
        };
        let Some(n) = count else {
            return scalar;
        };
        let id = self.fresh_id();
        let mut operands = vec![vt, id];
        operands.extend(std::iter::repeat_n(scalar, n as usize));
        let at = self.first_function();
        self.insts.insert(
            at,
            Inst {
                op: op::CONSTANT_COMPOSITE,
                operands,
            },
        );
        id
    }

    /// Whether integer (or integer vector) type `ty` is signed; `None` for other types.
    pub(super) fn int_signedness(&self, ty: u32) -> Option<bool> {
        let def = self
            .insts
            .iter()
            .find(|i| i.operands.first() == Some(&ty) && is_type(i.op))?;
        match def.op {
            op::TYPE_INT => Some(def.operands.get(2) == Some(&1)),
            op::TYPE_VECTOR => self.int_signedness(*def.operands.get(1)?),
            _ => None,
        }
    }

    /// The 32-bit integer type (or vector of it, as `like` is) with signedness `signed`,
    /// declared after the last type it needs when the module has none.
    pub(super) fn int_type_like(&mut self, like: u32, signed: bool) -> u32 {
        let count = self
            .insts
            .iter()
            .find(|i| i.op == op::TYPE_VECTOR && i.operands.first() == Some(&like))
            .map(|i| i.operands[2]);
        let scalar = self.declare(op::TYPE_INT, vec![32, u32::from(signed)]);
        match count {
            None => scalar,
            Some(n) => self.declare(op::TYPE_VECTOR, vec![scalar, n]),
        }
    }

    /// The id of a type `op` with `rest` as operands, declared (after the last type or
    /// constant) when missing.
    pub(super) fn declare(&mut self, opcode: u16, rest: Vec<u32>) -> u32 {
        if let Some(i) = self
            .insts
            .iter()
            .find(|i| i.op == opcode && i.operands.get(1..) == Some(&rest[..]))
        {
            return i.operands[0];
        }
        let id = self.fresh_id();
        let mut operands = vec![id];
        operands.extend(rest);
        let at = self.first_function();
        self.insts.insert(
            at,
            Inst {
                op: opcode,
                operands,
            },
        );
        id
    }

    /// A null constant of type `ty`, declared before the functions when missing.
    pub(super) fn null_of(&mut self, ty: u32) -> u32 {
        if let Some(i) = self
            .insts
            .iter()
            .find(|i| i.op == op::CONSTANT_NULL && i.operands.first() == Some(&ty))
        {
            return i.operands[1];
        }
        let id = self.fresh_id();
        let at = self.first_function();
        self.insts.insert(
            at,
            Inst {
                op: op::CONSTANT_NULL,
                operands: vec![ty, id],
            },
        );
        id
    }

    /// The index of the `opcode` instruction whose result is `result`: found again after a
    /// declaration was inserted ahead of it.
    pub(super) fn position_of(&self, opcode: u16, result: u32) -> usize {
        self.insts
            .iter()
            .position(|i| i.op == opcode && i.operands.get(1) == Some(&result))
            .unwrap_or(0)
    }

    /// The ids of the module's `GLSL.std.450` imports.
    pub(super) fn glsl_imports(&self) -> Vec<u32> {
        self.insts
            .iter()
            .filter(|i| i.op == op::EXT_INST_IMPORT)
            .filter(|i| words_string(&i.operands[1..]) == GLSL_STD_450)
            .map(|i| i.operands[0])
            .collect()
    }

    /// A new `GLSL.std.450` import, before the memory model (ahead of every function); its id.
    pub(super) fn declare_glsl_import(&mut self) -> u32 {
        let id = self.fresh_id();
        let at = self
            .insts
            .iter()
            .position(|i| i.op == op::MEMORY_MODEL)
            .unwrap_or(0);
        let mut operands = vec![id];
        operands.extend(string_words(GLSL_STD_450));
        self.insts.insert(
            at,
            Inst {
                op: op::EXT_INST_IMPORT,
                operands,
            },
        );
        id
    }

    /// Where the first function starts (where declarations end).
    pub(super) fn first_function(&self) -> usize {
        self.insts
            .iter()
            .position(|i| i.op == op::FUNCTION)
            .unwrap_or(self.insts.len())
    }
}

/// Whether an instruction's first two operands are a result type and a result id: the
/// instructions a value the rewrites look up can come from.
pub(super) fn has_result_type(opcode: u16) -> bool {
    matches!(opcode, op::EXT_INST | 43..=46 | 50..=52 | 55 | 57 | 59 | 61 | 65..=67 | 77..=84 | 86..=107
        | 109..=205 | 227..=242 | 245)
}

/// Whether `opcode` declares a type.
pub(super) fn is_type(opcode: u16) -> bool {
    (19..=39).contains(&opcode)
}

/// Whether `opcode` ends a block.
pub(super) fn is_terminator(opcode: u16) -> bool {
    matches!(opcode, 249..=252 | op::RETURN | 254 | 255 | 4416)
}

/// Whether operand `pos` of `inst` (an instruction inside a function) is an id another value
/// could be, as opposed to a result type, a result id, or a literal.
pub(super) fn is_id_operand(inst: &Inst, pos: usize) -> bool {
    match inst.op {
        op::STORE => pos < 2,
        op::RETURN_VALUE => pos == 0,
        op::LOAD => pos == 2,
        op::EXT_INST => pos >= 4,
        op::COMPOSITE_EXTRACT => pos == 2,
        op::COMPOSITE_INSERT | op::VECTOR_SHUFFLE => pos == 2 || pos == 3,
        op::PHI => pos >= 2 && pos.is_multiple_of(2),
        op::BRANCH_CONDITIONAL => pos == 0,
        // Image instructions carry an operand mask after the image and coordinate (and the
        // depth reference for the Dref forms).
        87 | 88 | 91 | 92 | 95 | 98 => pos >= 2 && pos != 4,
        89 | 90 | 93 | 94 | 96 | 97 => pos >= 2 && pos != 5,
        o if has_result_type(o) => pos >= 2,
        _ => false,
    }
}

/// The ids an instruction inside a function reads.
pub(super) fn id_operands(inst: &Inst) -> Vec<u32> {
    (0..inst.operands.len())
        .filter(|&p| is_id_operand(inst, p))
        .map(|p| inst.operands[p])
        .collect()
}

/// A string operand's text (nul-terminated, little-endian bytes in words).
pub(super) fn words_string(w: &[u32]) -> String {
    let bytes: Vec<u8> = w.iter().flat_map(|w| w.to_le_bytes()).collect();
    let end = bytes.iter().position(|b| *b == 0).unwrap_or(bytes.len());
    String::from_utf8_lossy(&bytes[..end]).into_owned()
}

/// A string operand's words (nul-terminated, padded to a whole word): `words_string`'s inverse.
pub(super) fn string_words(text: &str) -> Vec<u32> {
    let mut bytes = text.as_bytes().to_vec();
    bytes.push(0);
    bytes.resize(bytes.len().div_ceil(4) * 4, 0);
    bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}
