//! Building programs in code, for generators and tests: operand constructors with chainable
//! selectors and modifiers, and a [`ProgramBuilder`] whose `emit` checks operand counts against
//! the opcode table so a built program always encodes.

use crate::chunks::signature::Signature;
use crate::container::Container;
use crate::error::{DxbcError, Result};
use crate::ir::*;
use crate::opcodes::{Ctl, Opcode};

/// `r#` with all four components (a destination mask or source swizzle can be chained on).
pub fn temp(i: u32) -> Operand {
    Operand::reg(
        OperandType::Temp,
        Components::Four(Selection::Mask(0xF)),
        &[i],
    )
}

/// `v#`.
pub fn input(i: u32) -> Operand {
    Operand::reg(
        OperandType::Input,
        Components::Four(Selection::Mask(0xF)),
        &[i],
    )
}

/// `o#`.
pub fn output(i: u32) -> Operand {
    Operand::reg(
        OperandType::Output,
        Components::Four(Selection::Mask(0xF)),
        &[i],
    )
}

/// `cb<slot>[<reg>]`.
pub fn cb(slot: u32, reg: u32) -> Operand {
    Operand::reg(
        OperandType::ConstantBuffer,
        Components::Four(Selection::Swizzle([0, 1, 2, 3])),
        &[slot, reg],
    )
}

/// `icb[<reg>]`.
pub fn icb(reg: u32) -> Operand {
    Operand::reg(
        OperandType::ImmediateConstantBuffer,
        Components::Four(Selection::Swizzle([0, 1, 2, 3])),
        &[reg],
    )
}

/// A register file without components (`u#`, `t#`, `s#`, `g#` as memory objects).
pub fn object(ty: OperandType, i: u32) -> Operand {
    Operand::reg(ty, Components::Zero, &[i])
}

/// A scalar special register such as `vThreadIDInGroupFlattened` or `oDepth`.
pub fn special(ty: OperandType, components: Components) -> Operand {
    Operand::reg(ty, components, &[])
}

/// `l(a, b, c, d)` from raw words.
pub fn imm4(words: [u32; 4]) -> Operand {
    Operand::imm32(&words)
}

/// `l(v)` from a raw word.
pub fn imm1(word: u32) -> Operand {
    Operand::imm32(&[word])
}

/// `l(a, b, c, d)` from floats (bit patterns kept exactly, NaN payloads included).
pub fn imm_f32(values: [f32; 4]) -> Operand {
    imm4(values.map(f32::to_bits))
}

impl Operand {
    /// Destination write mask (x = bit 0).
    pub fn mask(mut self, mask: u8) -> Operand {
        self.components = Components::Four(Selection::Mask(mask & 0xF));
        self
    }

    /// Source swizzle, e.g. `swizzle([0, 0, 1, 3])` for `.xxyw`.
    pub fn swizzle(mut self, s: [u8; 4]) -> Operand {
        self.components = Components::Four(Selection::Swizzle(s.map(|c| c & 3)));
        self
    }

    /// Single-component source (`.x`).
    pub fn select(mut self, c: u8) -> Operand {
        self.components = Components::Four(Selection::Select1(c & 3));
        self
    }

    /// This operand with its sign flipped (`-x`), composing with an existing modifier.
    pub fn negated(mut self) -> Operand {
        self.modifier = match self.modifier {
            Modifier::None => Modifier::Neg,
            Modifier::Abs => Modifier::AbsNeg,
            Modifier::Neg => Modifier::None,
            Modifier::AbsNeg => Modifier::Abs,
        };
        self
    }

    /// This operand as an absolute value (`|x|`), keeping any negation outside it.
    pub fn absolute(mut self) -> Operand {
        self.modifier = match self.modifier {
            Modifier::None | Modifier::Abs => Modifier::Abs,
            Modifier::Neg | Modifier::AbsNeg => Modifier::AbsNeg,
        };
        self
    }

    /// Replace index `dim` by `base + register` (relative addressing, e.g. `cb0[r1.x + 2]`).
    pub fn relative(mut self, dim: usize, register: Operand, base: u32) -> Operand {
        let index = if base == 0 {
            Index::Relative(Box::new(register))
        } else {
            Index::Imm32Relative(base, Box::new(register))
        };
        if let Some(slot) = self.indices.get_mut(dim) {
            *slot = index;
        }
        self
    }
}

impl Instruction {
    /// An instruction with operands (destinations first).
    pub fn with(opcode: Opcode, operands: Vec<Operand>) -> Instruction {
        let mut inst = Instruction::new(opcode);
        inst.operands = operands;
        if opcode.info().ctl == Ctl::Test {
            inst.test = Some(Test::NonZero);
        }
        inst
    }

    /// This instruction with `_sat` set (clamp the result to 0..=1).
    pub fn saturated(mut self) -> Instruction {
        self.saturate = true;
        self
    }

    /// This conditional instruction with `_z` instead of the default `_nz`.
    pub fn test_zero(mut self) -> Instruction {
        self.test = Some(Test::Zero);
        self
    }
}

/// Accumulates instructions, checking each against the opcode table.
#[derive(Debug, Clone)]
pub struct ProgramBuilder {
    program: Program,
}

impl ProgramBuilder {
    /// An empty program for `stage` at shader model `major.minor`.
    pub fn new(stage: Stage, major: u8, minor: u8) -> ProgramBuilder {
        ProgramBuilder {
            program: Program {
                version: Version::new(stage, major, minor),
                instructions: Vec::new(),
            },
        }
    }

    /// Append an instruction; its operand count must match the table.
    pub fn emit(&mut self, inst: Instruction) -> Result<&mut ProgramBuilder> {
        let info = inst.info();
        if inst.custom.is_none() && inst.operands.len() != info.operand_count() {
            return Err(DxbcError::Unencodable {
                index: self.program.instructions.len(),
                what: format!(
                    "{} takes {} operands, got {}",
                    info.mnemonic,
                    info.operand_count(),
                    inst.operands.len()
                ),
            });
        }
        self.program.instructions.push(inst);
        Ok(self)
    }

    /// `opcode dst, src...` in one call.
    pub fn op(&mut self, opcode: Opcode, operands: Vec<Operand>) -> Result<&mut ProgramBuilder> {
        self.emit(Instruction::with(opcode, operands))
    }

    /// A declaration whose payload is raw DWORDs after an optional operand, with control bits.
    pub fn dcl(
        &mut self,
        opcode: Opcode,
        controls: u32,
        operand: Option<Operand>,
        payload: &[u32],
    ) -> Result<&mut ProgramBuilder> {
        let mut inst = Instruction::new(opcode);
        inst.controls = controls;
        inst.operands.extend(operand);
        inst.trailing.extend_from_slice(payload);
        self.emit(inst)
    }

    /// `dcl_temps count`: declare `count` `r#` registers.
    pub fn dcl_temps(&mut self, count: u32) -> Result<&mut ProgramBuilder> {
        self.dcl(Opcode::DclTemps, 0, None, &[count])
    }

    /// `dcl_constantbuffer cb<slot>[<size>], immediateIndexed|dynamicIndexed`.
    pub fn dcl_constant_buffer(
        &mut self,
        slot: u32,
        size: u32,
        dynamic: bool,
    ) -> Result<&mut ProgramBuilder> {
        let op = Operand::reg(
            OperandType::ConstantBuffer,
            Components::Four(Selection::Swizzle([0, 1, 2, 3])),
            &[slot, size],
        );
        self.dcl(
            Opcode::DclConstantbuffer,
            u32::from(dynamic) << 11,
            Some(op),
            &[],
        )
    }

    /// `dcl_input v<reg>.<mask>`.
    pub fn dcl_input(&mut self, reg: u32, mask: u8) -> Result<&mut ProgramBuilder> {
        self.dcl(Opcode::DclInput, 0, Some(input(reg).mask(mask)), &[])
    }

    /// `dcl_output o<reg>.<mask>`.
    pub fn dcl_output(&mut self, reg: u32, mask: u8) -> Result<&mut ProgramBuilder> {
        self.dcl(Opcode::DclOutput, 0, Some(output(reg).mask(mask)), &[])
    }

    /// `dcl_thread_group x, y, z`: the compute thread group size.
    pub fn dcl_thread_group(&mut self, x: u32, y: u32, z: u32) -> Result<&mut ProgramBuilder> {
        self.dcl(Opcode::DclThreadGroup, 0, None, &[x, y, z])
    }

    /// The immediate constant buffer, as vec4 rows of raw words.
    pub fn icb(&mut self, rows: &[[u32; 4]]) -> Result<&mut ProgramBuilder> {
        let mut inst = Instruction::new(Opcode::Customdata);
        inst.custom = Some(CustomData {
            class: CustomData::CLASS_ICB,
            payload: rows.iter().flatten().copied().collect(),
        });
        self.emit(inst)
    }

    /// The program built so far (a copy; the builder can keep going).
    pub fn build(&self) -> Program {
        self.program.clone()
    }

    /// A container holding the given signatures and the program, with a fresh checksum.
    pub fn container(&self, signatures: &[Signature]) -> Result<Container> {
        crate::shader::build_container(signatures, &self.program)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::disasm::{Syntax, disassemble};

    #[test]
    fn built_program_encodes_decodes_and_prints() -> Result<()> {
        let mut b = ProgramBuilder::new(Stage::Pixel, 5, 0);
        b.dcl_constant_buffer(0, 2, false)?
            .dcl_output(0, 0xF)?
            .dcl_temps(1)?
            .op(
                Opcode::Mad,
                vec![
                    temp(0).mask(0b0011),
                    cb(0, 0).swizzle([0, 1, 0, 0]).negated(),
                    cb(0, 1).select(2).absolute(),
                    imm_f32([0.5, 1.0, f32::NAN, -0.0]),
                ],
            )?
            .emit(
                Instruction::with(Opcode::Mov, vec![output(0), temp(0).swizzle([0, 1, 1, 1])])
                    .saturated(),
            )?
            .op(Opcode::Ret, vec![])?;
        let program = b.build();
        let words = crate::encode::encode_words(&program)?;
        assert_eq!(crate::decode::decode_words(&words)?, program);
        let text = disassemble(&program, Syntax::Exact);
        assert_eq!(
            text,
            "ps_5_0\n\
             dcl_constantbuffer cb0[2], immediateIndexed\n\
             dcl_output o0.xyzw\n\
             dcl_temps 1\n\
             mad r0.xy, -cb0[0].xyxx, |cb0[1].z|, l(0.500000, 1.000000, 0x7fc00000, -0.000000)\n\
             mov_sat o0.xyzw, r0.xyyy\n\
             ret \n"
        );
        assert_eq!(crate::asm::assemble(&text)?.program, program);
        let container = b.container(&[])?;
        let bytes = container.to_bytes();
        Container::parse(&bytes)?;
        assert!(crate::checksum_matches(&bytes));
        Ok(())
    }

    #[test]
    fn wrong_operand_count_is_an_error() {
        let mut b = ProgramBuilder::new(Stage::Compute, 5, 0);
        assert!(b.op(Opcode::Add, vec![temp(0)]).is_err());
    }
}
