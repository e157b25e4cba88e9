//! The register files a program uses: how many `r#`, `v#` and `o#` registers, and where a pixel
//! program's special registers (`oDepth`, `oMask`, `vCoverage`) are kept among them.

use crate::limits::Limit;
use crate::{Index, Instruction, Opcode, Operand, OperandType, Program, Stage};

/// How many `r#`, `v#` and `o#` registers a program uses: the highest register any operand or
/// `dcl_indexrange` names, plus one (and at least `dcl_temps`), never more than D3D11's limits
/// ([`crate::limits`]) but for the special registers kept past them
/// ([`OperandType::SPECIAL_REGISTERS_END`]): a validated program stays below them anyway, and a
/// program built in code cannot make a consumer allocate more.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RegisterCounts {
    /// Number of `r#` temporary registers used.
    pub temps: u32,
    /// Number of `v#` input registers used (`vCoverage` counts as `v32`).
    pub inputs: u32,
    /// Number of `o#` output registers used (`oDepth` as `o32`, `oMask` as `o33`).
    pub outputs: u32,
}

impl Program {
    /// Counts the `r#`, `v#` and `o#` registers the program uses (see [`RegisterCounts`]).
    pub fn register_counts(&self) -> RegisterCounts {
        let mut t = RegisterTally::default();
        for inst in &self.instructions {
            t.add(inst);
        }
        t.counts(self.version.stage)
    }
}

/// [`RegisterCounts`] gathered one instruction at a time, for a caller that walks the program
/// anyway (the translator's declaration scan): a second walk over a large program's operands
/// cost that scan a few per cent. [`Program::register_counts`] is this over every instruction.
#[derive(Debug, Clone, Copy, Default)]
pub struct RegisterTally {
    /// The highest register + 1 of each file, before the clamp.
    seen: RegisterCounts,
    /// (inputs, outputs) counted by the special registers, applied after the clamp.
    special: (u32, u32),
}

impl RegisterTally {
    /// Count the registers `inst` names.
    pub fn add(&mut self, inst: &Instruction) {
        let first = |op: &Operand| {
            op.indices
                .first()
                .and_then(Index::immediate)
                .map(|v| u32::try_from(v).unwrap_or(u32::MAX))
        };
        if inst.opcode == Opcode::DclTemps {
            self.grow(
                OperandType::Temp,
                inst.trailing.first().copied().unwrap_or(0),
            );
        }
        for op in &inst.operands {
            match op.ty {
                OperandType::Temp | OperandType::Input | OperandType::Output => {
                    if let Some(r) = first(op) {
                        self.grow(op.ty, r.saturating_add(1));
                    }
                }
                // Special registers sit past the limits, each one register.
                ty => {
                    if let Some((file, r)) = ty.special_slot() {
                        let n = match file {
                            RegisterFile::Input => &mut self.special.0,
                            RegisterFile::Output => &mut self.special.1,
                        };
                        *n = (*n).max(r + 1);
                    }
                }
            }
        }
        if inst.opcode == Opcode::DclIndexrange
            && let (Some(op), Some(count)) = (inst.operands.first(), inst.trailing.first())
        {
            self.grow(op.ty, first(op).unwrap_or(0).saturating_add(*count));
        }
    }

    fn grow(&mut self, ty: OperandType, n: u32) {
        let c = &mut self.seen;
        match ty {
            OperandType::Temp => c.temps = c.temps.max(n),
            OperandType::Input => c.inputs = c.inputs.max(n),
            OperandType::Output => c.outputs = c.outputs.max(n),
            _ => {}
        }
    }

    /// The counts of the instructions added so far, in a program of `stage`.
    pub fn counts(&self, stage: Stage) -> RegisterCounts {
        let c = self.seen;
        RegisterCounts {
            temps: c.temps.min(Limit::TempRegisters.value()),
            inputs: c
                .inputs
                .min(Limit::InputRegisters.value())
                .max(self.special.0),
            outputs: c
                .outputs
                .min(stage.output_registers().value())
                .max(self.special.1),
        }
    }
}

impl OperandType {
    /// The register a pixel program's special register stands for in dxdiff's `v#`/`o#` files
    /// (a decision, docs/interpreter.md): past the 32 registers of either file D3D has, so that
    /// it travels with them through inputs, outputs and verdicts. `oDepth` and its conservative
    /// forms are `o32`, `oMask` is `o33`, `vCoverage` is `v32`.
    pub const fn special_register(self) -> Option<u32> {
        match self {
            OperandType::OutputDepth
            | OperandType::OutputDepthGreaterEqual
            | OperandType::OutputDepthLessEqual
            | OperandType::InputCoverageMask => Some(Self::SPECIAL_REGISTERS_START),
            OperandType::OutputCoverageMask => Some(Self::SPECIAL_REGISTERS_START + 1),
            _ => None,
        }
    }

    /// The first register [`OperandType::special_register`] gives: the numbered `v#` and
    /// `o#` end before it.
    pub const SPECIAL_REGISTERS_START: u32 = 32;

    /// One past the highest register [`OperandType::special_register`] gives: register files
    /// never need more than this (or D3D's own limit, where larger).
    pub const SPECIAL_REGISTERS_END: u32 = 34;

    /// Whether the register is read from the `v#` file ([`OperandType::special_register`]).
    pub const fn is_special_input(self) -> bool {
        matches!(self, OperandType::InputCoverageMask)
    }

    /// Where a special register is kept: its file and its register there
    /// ([`OperandType::special_register`]). The one statement of that choice that the
    /// interpreter, the translator and the harness read.
    pub const fn special_slot(self) -> Option<(RegisterFile, u32)> {
        match self.special_register() {
            Some(r) if self.is_special_input() => Some((RegisterFile::Input, r)),
            Some(r) => Some((RegisterFile::Output, r)),
            None => None,
        }
    }
}

/// The `v#` or the `o#` file, where a special register is kept
/// ([`OperandType::special_slot`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RegisterFile {
    /// `v#`.
    Input,
    /// `o#`.
    Output,
}
