//! The validation pass that runs after token decoding ([`crate::Shader::parse`] runs it): every
//! number a program carries that something downstream could size an allocation or a loop by is
//! checked against Direct3D 11's limits ([`crate::limits`]), and every statically indexed
//! register against its declaration.
//!
//! After this pass no register file, array, shared-memory block or constant table that a
//! consumer builds from the program's declarations or register numbers can exceed a
//! [`crate::limits::TABLE`] row. What is checked where the index is static (an immediate):
//! - `r#` below `dcl_temps`, `x#[n]` inside its `dcl_indexableTemp` (per hull-shader phase);
//! - `v#`/`o#` below the stage's register limit, and in vertex and pixel shaders declared;
//! - `cb#[n]` in a declared slot and, when the declaration states a size, below it (relative
//!   indices are not checked: D3D reads 0 beyond the buffer at run time); `icb[n]` inside the
//!   immediate constant buffer;
//! - `t#`, `s#`, `u#` and `g#` declared. SM5.1 binds ranges in register spaces, so there only the
//!   sizes are checked, not slots.
//! - a `t#`, `s#` or `cb#` chosen at run time (`t[r0.x + 1]`) only in a program with
//!   interfaces (SM5.0 class linkage: the instance data names which of the declared registers a
//!   class uses), and only where one of that kind is declared; elsewhere in SM5.0 a register
//!   number is static (SM5.1 indexes ranges instead). Which rule comes from where:
//!   docs/dxbc.md, "Validation".
//!
//! And the declarations' shapes a consumer builds an interface from: `dcl_input*` names an
//! input register and `dcl_output*` an output one, a compute program has no `v#`/`o#` at all,
//! a special register (`oDepth`, `vThreadID`) carries no index, and a structure stride is not 0.

use crate::encode::encode_instruction;
use crate::error::{DxbcError, Result};
use crate::ir::*;
use crate::limits::Limit;
use crate::opcodes::Opcode;

mod declarations;

use declarations::{Declarations, Scope, within_rows};

/// Validates a decoded program (see the module docs).
pub fn validate(program: &Program) -> Result<()> {
    let decls = Declarations::collect(program)?;
    let mut check = Checker { program, index: 0 };
    let mut depth = 0u32;
    let mut phase = 0usize;
    // Made once: `unwrap_or` would build (and drop) one for every instruction.
    let no_scope = Scope::default();
    for (index, inst) in program.instructions.iter().enumerate() {
        check.index = index;
        if is_phase_start(inst.opcode) {
            phase += 1;
        }
        match inst.opcode {
            Opcode::If | Opcode::Loop | Opcode::Switch => {
                depth += 1;
                check.limit(
                    Limit::FlowControlNesting,
                    "flow-control nesting",
                    u64::from(depth),
                    true,
                )?;
            }
            Opcode::Endif | Opcode::Endloop | Opcode::Endswitch => depth = depth.saturating_sub(1),
            _ => {}
        }
        let info = inst.info();
        if info.is_declaration() || inst.opcode == Opcode::Customdata {
            continue;
        }
        let scope = decls.scopes.get(phase).or(decls.scopes.first());
        let scope = scope.unwrap_or(&no_scope);
        let (dsts, srcs) = inst.split_operands();
        for op in dsts {
            check.operand(op, scope, &decls, false)?;
        }
        for op in srcs {
            check.operand(op, scope, &decls, true)?;
        }
    }
    Ok(())
}

fn is_phase_start(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::HsControlPointPhase | Opcode::HsForkPhase | Opcode::HsJoinPhase
    )
}

/// Output registers are write-only (the SM4/SM5 register tables give `o#`, `oDepth` and
/// `oMask` access "W"); fxc never reads one back, and a consumer has no value to give.
const OUTPUT_READ: &str = "output register read as a source (operand type)";

/// Why a compute program's `v#` or `o#` is refused: its only inputs are the thread-id
/// registers, and it has no outputs.
const NO_COMPUTE_IO: &str = "v#/o# register in a compute program (operand type)";

/// What is wrong with a stage-interface declaration's register, if anything: `dcl_input*`
/// declares an input register and `dcl_output*` an output one, and a compute
/// program has neither `v#` nor `o#`. A declaration of the wrong direction would otherwise
/// reach a translator as an input it must copy from an output register, or the reverse.
fn interface_mismatch(opcode: Opcode, ty: OperandType, stage: Stage) -> Option<&'static str> {
    if opcode.declares_input() && !ty.is_input_register() {
        return Some("register of an input declaration (operand type)");
    }
    if opcode.declares_output() && !ty.is_output_register() {
        return Some("register of an output declaration (operand type)");
    }
    let io = matches!(ty, OperandType::Input | OperandType::Output);
    (io && stage == Stage::Compute).then_some(NO_COMPUTE_IO)
}

/// The register limit of a one-dimensional register file, for a stage.
fn register_limit(ty: OperandType, stage: Stage) -> Option<Limit> {
    Some(match ty {
        OperandType::Temp => Limit::TempRegisters,
        OperandType::IndexableTemp => Limit::IndexableTempArrays,
        OperandType::Input | OperandType::InputPatchConstant => Limit::InputRegisters,
        OperandType::Output => stage.output_registers(),
        OperandType::ConstantBuffer => Limit::ConstantBuffers,
        OperandType::Resource => Limit::ShaderResources,
        OperandType::Sampler => Limit::Samplers,
        OperandType::UnorderedAccessView => Limit::UnorderedAccessViews,
        OperandType::Stream => Limit::Streams,
        _ => return None,
    })
}

/// Where the pass is, for error messages.
struct Checker<'a> {
    program: &'a Program,
    index: usize,
}

impl Checker<'_> {
    /// Word offset of the current instruction, recomputed from the encoding (only on the error
    /// path, so a valid program pays nothing for it).
    fn word(&self) -> usize {
        let mut scratch = Vec::new();
        for inst in self.program.instructions.iter().take(self.index) {
            let _ = encode_instruction(inst, &mut scratch);
        }
        2 + scratch.len()
    }

    /// `value` against `limit`: a count may equal the limit, an index must stay below it.
    fn limit(&self, limit: Limit, what: &str, value: u64, count: bool) -> Result<()> {
        self.limit_of(limit, &|| what.to_string(), value, count)
    }

    /// [`Self::limit`] with the register's name spelled only when the limit is exceeded: the
    /// check runs for every operand of every accepted program.
    fn limit_of(
        &self,
        limit: Limit,
        what: &dyn Fn() -> String,
        value: u64,
        count: bool,
    ) -> Result<()> {
        let max = u64::from(limit.value());
        let over = if count { value > max } else { value >= max };
        if over {
            return Err(DxbcError::Limit {
                word: self.word(),
                index: self.index,
                limit,
                what: what(),
                value,
            });
        }
        Ok(())
    }

    fn undeclared(&self, what: String) -> DxbcError {
        DxbcError::Undeclared {
            word: self.word(),
            index: self.index,
            what,
        }
    }

    fn invalid(&self, what: &'static str, value: u32) -> DxbcError {
        DxbcError::InvalidField {
            word: self.word(),
            what,
            value,
        }
    }

    /// A declaration whose payload does not have its opcode's shape.
    fn shape(&self, what: &'static str) -> DxbcError {
        let len = self
            .program
            .instructions
            .get(self.index)
            .map_or(0, |i| i.trailing.len());
        DxbcError::BadLength {
            word: self.word(),
            length: u32::try_from(len).unwrap_or(u32::MAX),
            what,
        }
    }

    /// A declaration's operand: its immediate indices against the register limits. The first
    /// index of a two-dimensional input (`v[3][0]`, `vicp[32][0]`) is an array length.
    fn declared(&self, op: &Operand) -> Result<()> {
        self.no_index_on_special(op)?;
        let stage = self.program.version.stage;
        if self.program.version.is_sm51()
            && matches!(
                op.ty,
                OperandType::ConstantBuffer
                    | OperandType::Resource
                    | OperandType::Sampler
                    | OperandType::UnorderedAccessView
            )
        {
            return Ok(());
        }
        let two_d = op.indices.len() == 2;
        for (k, index) in op.indices.iter().enumerate() {
            let Some(v) = index.immediate() else { continue };
            let is_count = two_d && k == 0;
            let limit = match op.ty {
                OperandType::Input
                | OperandType::InputControlPoint
                | OperandType::OutputControlPoint
                    if is_count =>
                {
                    Some(if op.ty == OperandType::Input {
                        Limit::InputRegisters
                    } else {
                        Limit::ControlPoints
                    })
                }
                OperandType::InputControlPoint | OperandType::OutputControlPoint => {
                    Some(Limit::InputRegisters)
                }
                OperandType::ThreadGroupSharedMemory => None,
                ty => register_limit(ty, stage),
            };
            if let Some(limit) = limit {
                self.limit_of(limit, &|| register_text(op), v, is_count)?;
            }
        }
        Ok(())
    }

    /// Whether `op` passes every check of [`Checker::operand`], decided by the one comparison
    /// that settles the operands most instructions have: an immediate, `r#`, `cb#[n]`, `v#`
    /// and `o#` with immediate indices. `false` is no verdict: the full checks then run, and
    /// they alone word an error. The walk over each operand was most of validating a program.
    fn plainly_valid(&self, op: &Operand, scope: &Scope, d: &Declarations, source: bool) -> bool {
        let version = self.program.version;
        match (op.ty, op.indices.as_slice()) {
            (OperandType::Immediate32 | OperandType::Immediate64 | OperandType::Null, []) => true,
            // `dcl_temps` is checked against the limit, so below it is below the limit too.
            (OperandType::Temp, [Index::Imm32(r)]) => *r < scope.temps.unwrap_or(0),
            (OperandType::ConstantBuffer, [Index::Imm32(slot), Index::Imm32(row)])
                if !version.is_sm51() =>
            {
                let row = u64::from(*row);
                row < u64::from(Limit::ConstantBufferRows.value())
                    && d.cb_rows(u64::from(*slot))
                        .is_some_and(|rows| within_rows(rows, row))
            }
            // An output read as a source takes the full checks, which refuse it.
            (OperandType::Input | OperandType::Output, [Index::Imm32(r)])
                if !(source && op.ty == OperandType::Output) =>
            {
                register_limit(op.ty, version.stage).is_some_and(|l| *r < l.value())
                    && d.io_declared(op.ty, version.stage, u64::from(*r))
            }
            _ => false,
        }
    }

    /// A code operand and the operands in its relative indices.
    fn operand(&self, op: &Operand, scope: &Scope, d: &Declarations, source: bool) -> Result<()> {
        if self.plainly_valid(op, scope, d, source) {
            return Ok(());
        }
        self.checked(op, scope, d, source)
    }

    /// A register named without an index (`oDepth`, `vThreadID`) that carries one, as in a
    /// mutant's `cb1[oDepth1.x + 1]`: no consumer knows how to read it.
    fn no_index_on_special(&self, op: &Operand) -> Result<()> {
        if op.ty.is_special() && !op.indices.is_empty() {
            return Err(self.invalid(
                "index dimension of a register named without an index",
                u32::try_from(op.indices.len()).unwrap_or(u32::MAX),
            ));
        }
        Ok(())
    }

    /// A register chosen at run time in SM5.0 (`t[r0.x + 1]`): D3D allows one only for class
    /// linkage (a program with `dcl_interface`), where the instance data picks among the
    /// registers fxc declared for the classes; there it must reach a register file with at
    /// least one declaration (`any`), and what it reaches is checked when it runs.
    fn class_linkage(
        &self,
        op: &Operand,
        d: &Declarations,
        any: bool,
        name: &dyn Fn() -> String,
    ) -> Result<()> {
        if !d.interfaces {
            return Err(self.undeclared(format!(
                "{} is chosen at run time, which SM 5.0 allows only in a program with interfaces",
                name()
            )));
        }
        if !any {
            return Err(self.undeclared(format!(
                "{} is chosen at run time, and no {} register is declared",
                name(),
                op.ty.name()
            )));
        }
        Ok(())
    }

    /// [`Checker::operand`]'s full checks.
    fn checked(&self, op: &Operand, scope: &Scope, d: &Declarations, source: bool) -> Result<()> {
        // A relative index is read.
        for index in &op.indices {
            if let Some(rel) = index.relative() {
                self.operand(rel, scope, d, true)?;
            }
        }
        let sm51 = self.program.version.is_sm51();
        let stage = self.program.version.stage;
        // An index is static when it has no register part.
        let stat = |k: usize| {
            op.indices
                .get(k)
                .filter(|i| i.relative().is_none())
                .and_then(Index::immediate)
        };
        let name = || register_text(op);
        match op.ty {
            OperandType::Temp => {
                let r = stat(0).unwrap_or(0);
                self.limit_of(Limit::TempRegisters, &name, r, false)?;
                if r >= u64::from(scope.temps.unwrap_or(0)) {
                    return Err(self.undeclared(format!(
                        "{} is not declared (dcl_temps {})",
                        name(),
                        scope.temps.unwrap_or(0)
                    )));
                }
            }
            OperandType::IndexableTemp => {
                let id = stat(0).unwrap_or(0);
                self.limit_of(Limit::IndexableTempArrays, &name, id, false)?;
                let Some((len, _)) = u32::try_from(id).ok().and_then(|i| scope.indexable.get(&i))
                else {
                    return Err(self.undeclared(format!("x{id} is not declared")));
                };
                if let Some(e) = stat(1)
                    && e >= u64::from(*len)
                {
                    return Err(self.undeclared(format!("{} is outside x{id}[{len}]", name())));
                }
            }
            OperandType::Input | OperandType::Output => {
                if stage == Stage::Compute {
                    return Err(self.invalid(NO_COMPUTE_IO, op.ty as u32));
                }
                let limit = register_limit(op.ty, stage).unwrap_or(Limit::InputRegisters);
                let two_d = op.indices.len() == 2;
                if two_d
                    && op.ty == OperandType::Input
                    && let Some(vertex) = stat(0)
                {
                    self.limit_of(Limit::InputRegisters, &name, vertex, false)?;
                }
                let reg = stat(op.indices.len().saturating_sub(1));
                if let Some(r) = reg {
                    self.limit_of(limit, &name, r, false)?;
                    if !d.io_declared(op.ty, stage, r) {
                        let kind = if op.ty == OperandType::Input {
                            "input"
                        } else {
                            "output"
                        };
                        return Err(self.undeclared(format!("{kind} {} is not declared", name())));
                    }
                }
            }
            OperandType::InputControlPoint | OperandType::OutputControlPoint => {
                if let Some(cp) = stat(0) {
                    self.limit_of(Limit::ControlPoints, &name, cp, false)?;
                }
                if let Some(r) = stat(1) {
                    self.limit_of(Limit::InputRegisters, &name, r, false)?;
                }
            }
            OperandType::InputPatchConstant => {
                if let Some(r) = stat(0) {
                    self.limit_of(Limit::InputRegisters, &name, r, false)?;
                }
            }
            OperandType::ConstantBuffer if !sm51 && stat(0).is_none() => {
                self.class_linkage(op, d, !d.constant_buffers_empty(), &name)?;
            }
            OperandType::ConstantBuffer if !sm51 => {
                let slot = stat(0).unwrap_or(0);
                self.limit_of(Limit::ConstantBuffers, &name, slot, false)?;
                let Some(rows) = d.cb_rows(slot) else {
                    return Err(self.undeclared(format!("cb{slot} is not declared")));
                };
                if let Some(row) = stat(1) {
                    self.limit_of(Limit::ConstantBufferRows, &name, row, false)?;
                    if !within_rows(rows, row) {
                        return Err(self.undeclared(format!(
                            "{} is outside cb{slot}'s {rows} declared rows",
                            name()
                        )));
                    }
                }
            }
            OperandType::ImmediateConstantBuffer => {
                if let Some(row) = stat(0) {
                    let rows = d.icb_rows.unwrap_or(0);
                    if row >= rows {
                        return Err(self.undeclared(format!(
                            "{} is outside the immediate constant buffer's {rows} rows",
                            name()
                        )));
                    }
                }
            }
            OperandType::Resource | OperandType::Sampler if !sm51 && stat(0).is_none() => {
                let set = if op.ty == OperandType::Resource {
                    &d.resources
                } else {
                    &d.samplers
                };
                self.class_linkage(op, d, !set.is_empty(), &name)?;
            }
            OperandType::Resource | OperandType::Sampler | OperandType::UnorderedAccessView
                if !sm51 =>
            {
                let slot = stat(0).unwrap_or(0);
                let (limit, set) = match op.ty {
                    OperandType::Resource => (Limit::ShaderResources, &d.resources),
                    OperandType::Sampler => (Limit::Samplers, &d.samplers),
                    _ => (Limit::UnorderedAccessViews, &d.uavs),
                };
                self.limit_of(limit, &name, slot, false)?;
                if !set.contains(slot) {
                    return Err(self.undeclared(format!("{} is not declared", name())));
                }
            }
            OperandType::ThreadGroupSharedMemory => {
                let slot = stat(0).unwrap_or(0);
                if !d.tgsm.contains(slot) {
                    return Err(self.undeclared(format!("{} is not declared", name())));
                }
            }
            OperandType::Stream => {
                self.limit_of(Limit::Streams, &name, stat(0).unwrap_or(0), false)?;
            }
            _ => self.no_index_on_special(op)?,
        }
        if source && op.ty.is_output_register() {
            return Err(self.invalid(OUTPUT_READ, op.ty as u32));
        }
        Ok(())
    }
}

/// A short spelling of a register for messages: `r4294967295`, `cb0[7]`, `x0[r?]`.
fn register_text(op: &Operand) -> String {
    let mut s = op.ty.name().to_string();
    for (k, index) in op.indices.iter().enumerate() {
        let text = match (index.immediate(), index.relative()) {
            (Some(v), None) => v.to_string(),
            (Some(v), Some(_)) => format!("r+{v}"),
            _ => "r".to_string(),
        };
        if k == 0 && index.relative().is_none() {
            s.push_str(&text);
        } else {
            s.push('[');
            s.push_str(&text);
            s.push(']');
        }
    }
    s
}

impl Program {
    /// Checks the program against D3D11's limits and its own declarations
    /// ([`crate::validate`]); [`crate::Shader::parse`] runs this after decoding.
    pub fn validate(&self) -> Result<()> {
        validate(self)
    }
}

#[cfg(test)]
mod tests {
    use super::{Checker, Declarations, Scope};
    use crate::ir::{Components, Operand, OperandType, Selection};

    /// Whatever the one-comparison path accepts, the full checks accept too, over operands on
    /// both sides of every declared bound and of the limits, in a vertex and a compute program
    /// (which has no `v#`/`o#`); and it does accept some, so it is exercised.
    #[test]
    fn the_plain_path_accepts_only_what_the_full_checks_accept() {
        let mut taken = 0;
        for model in ["vs_5_0", "cs_5_0"] {
            let io = if model == "vs_5_0" {
                "dcl_input v1.xyzw\ndcl_output o0.xyzw\n"
            } else {
                ""
            };
            let text = format!(
                "{model}\ndcl_constantbuffer cb0[4], immediateIndexed\n\
                 dcl_constantbuffer cb2[0], immediateIndexed\n{io}dcl_temps 3\nret\n"
            );
            let program = crate::assemble(&text).expect("assembles").program;
            let decls = Declarations::collect(&program).expect("declarations");
            let check = Checker {
                program: &program,
                index: 0,
            };
            let scope = decls.scopes.first().cloned().unwrap_or_default();
            let four = Components::Four(Selection::Swizzle([0, 1, 2, 3]));
            let near = [0, 1, 2, 3, 4, 5, 31, 32, 33, 4095, 4096, 4097, u32::MAX];
            let mut operands = Vec::new();
            for &a in &near {
                for ty in [OperandType::Temp, OperandType::Input, OperandType::Output] {
                    operands.push(Operand::reg(ty, four, &[a]));
                }
                for &b in &near {
                    operands.push(Operand::reg(OperandType::ConstantBuffer, four, &[a, b]));
                }
            }
            operands.push(Operand::reg(OperandType::Immediate32, Components::One, &[]));
            for op in &operands {
                for s in [&scope, &Scope::default()] {
                    for source in [false, true] {
                        if check.plainly_valid(op, s, &decls, source) {
                            taken += 1;
                            assert!(
                                check.checked(op, s, &decls, source).is_ok(),
                                "{model}: {op:?}, source {source}"
                            );
                        }
                    }
                }
            }
        }
        assert!(taken > 20, "the plain path took only {taken} operands");
    }
}
