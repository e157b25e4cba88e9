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
//!
//! And the declarations' shapes a consumer builds an interface from: `dcl_input*` names an
//! input register and `dcl_output*` an output one, a compute program has no `v#`/`o#` at all,
//! a special register (`oDepth`, `vThreadID`) carries no index, and a structure stride is not 0.

/// x# arrays by id (few programs declare any): FxHash, as SipHash cost more than the lookups.
type Fx = std::hash::BuildHasherDefault<rustc_hash::FxHasher>;
type HashMap<K, V> = std::collections::HashMap<K, V, Fx>;

use crate::encode::encode_instruction;
use crate::error::{DxbcError, Result};
use crate::ir::*;
use crate::limits::Limit;
use crate::opcodes::Opcode;

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
        let (dsts, srcs) = inst
            .operands
            .split_at(usize::from(info.dst).min(inst.operands.len()));
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

/// Temps and indexable temps in effect in one hull-shader phase (or the whole program).
#[derive(Debug, Clone, Default)]
struct Scope {
    temps: Option<u32>,
    /// x# -> (elements, components).
    indexable: HashMap<u32, (u32, u32)>,
    indexable_elements: u64,
}

/// Everything declared, collected in one pass over the declarations (which also checks their
/// numbers against the limits).
#[derive(Debug, Default)]
struct Declarations {
    /// Scope 0 is the program (or a hull shader's declarations before its first phase); each
    /// phase starts from a copy of it.
    scopes: smallvec::SmallVec<[Scope; 1]>,
    inputs: Slots,
    outputs: Slots,
    /// Slot -> declared rows (0 = not stated), in declaration order: a few per program.
    constant_buffers: smallvec::SmallVec<[(u64, u64); 4]>,
    resources: Slots,
    samplers: Slots,
    uavs: Slots,
    tgsm: Slots,
    icb_rows: Option<u64>,
}

/// A set of declared register numbers. Every slot the limits allow (`v#`, `o#`, `t#`, `s#`,
/// `u#`: below 128) is a bit; a number past them (a `g#` id) goes to a tree, which allocates
/// only then. Hash sets cost each program an allocation, a hash per lookup and a free: about
/// 3 % of translating it (docs/corpus.md).
#[derive(Debug, Default, Clone)]
struct Slots {
    low: u128,
    high: std::collections::BTreeSet<u64>,
}

impl Slots {
    fn insert(&mut self, r: u64) {
        if r < 128 {
            self.low |= 1 << r;
        } else {
            self.high.insert(r);
        }
    }

    fn contains(&self, r: u64) -> bool {
        if r < 128 {
            self.low >> r & 1 == 1
        } else {
            self.high.contains(&r)
        }
    }

    fn extend(&mut self, rs: std::ops::Range<u64>) {
        for r in rs {
            self.insert(r);
        }
    }
}

/// Whether `row` is inside a constant buffer declared with `rows` rows (0: a size not stated,
/// so only the limit applies).
fn within_rows(rows: u64, row: u64) -> bool {
    rows == 0 || row < rows
}

impl Declarations {
    /// The rows `cb#slot` was declared with (0 when not stated); `None` when undeclared.
    fn cb_rows(&self, slot: u64) -> Option<u64> {
        self.constant_buffers
            .iter()
            .find(|(s, _)| *s == slot)
            .map(|(_, rows)| *rows)
    }

    /// Whether `v#r` (`ty` `Input`) or `o#r` may be used: vertex and pixel programs must
    /// declare it, a compute program has none, other stages are not held to their
    /// declarations.
    fn io_declared(&self, ty: OperandType, stage: Stage, r: u64) -> bool {
        let set = if ty == OperandType::Input {
            &self.inputs
        } else {
            &self.outputs
        };
        match stage {
            Stage::Vertex | Stage::Pixel => set.contains(r),
            Stage::Compute => false,
            _ => true,
        }
    }

    fn collect(program: &Program) -> Result<Declarations> {
        let mut d = Declarations {
            scopes: smallvec::smallvec![Scope::default()],
            ..Declarations::default()
        };
        let mut check = Checker { program, index: 0 };
        let sm51 = program.version.is_sm51();
        let mut tgsm_bytes = 0u64;
        for (index, inst) in program.instructions.iter().enumerate() {
            check.index = index;
            if is_phase_start(inst.opcode) {
                let base = d.scopes.first().cloned().unwrap_or_default();
                d.scopes.push(base);
            }
            let Some(scope) = d.scopes.last_mut() else {
                continue;
            };
            if let Some(rows) = inst.icb().map(|w| (w.len() as u64).div_ceil(4)) {
                check.limit(
                    Limit::ImmediateConstantBufferRows,
                    "immediate constant buffer rows",
                    rows,
                    true,
                )?;
                d.icb_rows = Some(rows);
            }
            if !inst.info().is_declaration() {
                continue;
            }
            let first = inst
                .declared_operand()
                .and_then(|o| o.indices.first())
                .and_then(Index::immediate);
            match inst.opcode {
                Opcode::DclTemps => {
                    let n = inst
                        .temps_count()
                        .ok_or_else(|| check.shape("dcl_temps needs one payload word"))?;
                    let total = u64::from(n) + scope.indexable_elements;
                    check.limit(
                        Limit::TempRegisters,
                        "dcl_temps plus x# elements",
                        total,
                        true,
                    )?;
                    scope.temps = Some(n);
                }
                Opcode::DclIndexableTemp => {
                    let (id, len, comps) = inst.indexable_temp().ok_or_else(|| {
                        check.shape("dcl_indexableTemp needs three payload words")
                    })?;
                    check.limit_of(
                        Limit::IndexableTempArrays,
                        &|| format!("x{id}"),
                        u64::from(id),
                        false,
                    )?;
                    if len == 0 || !(1..=4).contains(&comps) {
                        return Err(check.invalid(
                            "dcl_indexableTemp length or components",
                            if len == 0 { len } else { comps },
                        ));
                    }
                    let old = scope
                        .indexable
                        .insert(id, (len, comps))
                        .map_or(0, |(l, _)| l);
                    scope.indexable_elements =
                        scope.indexable_elements - u64::from(old) + u64::from(len);
                    let total = scope.indexable_elements + u64::from(scope.temps.unwrap_or(0));
                    check.limit_of(
                        Limit::TempRegisters,
                        &|| format!("dcl_temps plus x# elements (x{id}[{len}])"),
                        total,
                        true,
                    )?;
                }
                Opcode::DclThreadGroup => {
                    let [x, y, z] = inst
                        .thread_group()
                        .ok_or_else(|| check.shape("dcl_thread_group needs three payload words"))?;
                    if x == 0 || y == 0 || z == 0 {
                        return Err(check.invalid("thread-group size of 0", 0));
                    }
                    let count = u64::from(x) * u64::from(y) * u64::from(z);
                    if program.version.major < 5 {
                        let cs4 = Limit::Cs4xThreadGroupInvocations;
                        check.limit(cs4, "cs_4_x thread group x", u64::from(x), true)?;
                        check.limit(cs4, "cs_4_x thread group y", u64::from(y), true)?;
                        check.limit(cs4, "cs_4_x thread group invocations", count, true)?;
                    }
                    check.limit(Limit::ThreadGroupX, "thread group x", u64::from(x), true)?;
                    check.limit(Limit::ThreadGroupY, "thread group y", u64::from(y), true)?;
                    check.limit(Limit::ThreadGroupZ, "thread group z", u64::from(z), true)?;
                    check.limit(
                        Limit::ThreadGroupInvocations,
                        "thread group x*y*z",
                        count,
                        true,
                    )?;
                }
                Opcode::DclTgsmRaw | Opcode::DclTgsmStructured => {
                    let bytes = inst.tgsm_bytes().ok_or_else(|| {
                        check.shape("dcl_tgsm_raw needs one payload word, dcl_tgsm_structured two")
                    })?;
                    tgsm_bytes += bytes;
                    check.limit(
                        Limit::GroupSharedBytes,
                        "g# bytes declared so far",
                        tgsm_bytes,
                        true,
                    )?;
                    d.tgsm.insert(first.unwrap_or(0));
                }
                Opcode::DclMaxout => {
                    let n = inst
                        .max_output_vertices()
                        .ok_or_else(|| check.shape("dcl_maxout needs one payload word"))?;
                    check.limit(Limit::GsMaxOutputVertices, "dcl_maxout", u64::from(n), true)?;
                }
                Opcode::DclGsinstances => {
                    let n = inst
                        .gs_instances()
                        .ok_or_else(|| check.shape("dcl_gsinstances needs one payload word"))?;
                    check.limit(Limit::GsInstances, "dcl_gsinstances", u64::from(n), true)?;
                }
                Opcode::DclInputControlPointCount | Opcode::DclOutputControlPointCount => {
                    let n = inst.control_point_count().unwrap_or(0);
                    check.limit(
                        Limit::ControlPoints,
                        "control point count",
                        u64::from(n),
                        true,
                    )?;
                }
                _ => {}
            }
            if let Some(stride) = inst.structure_stride() {
                // A structure of no bytes: an index into it has no element to name, and a
                // consumer divides by the stride (`bufinfo`).
                if stride == 0 {
                    return Err(check.invalid("structure stride of 0", 0));
                }
                check.limit(
                    Limit::StructureStrideBytes,
                    "structure stride",
                    u64::from(stride),
                    true,
                )?;
            }
            let Some(op) = inst.declared_operand() else {
                continue;
            };
            if let Some(what) = interface_mismatch(inst.opcode, op.ty, program.version.stage) {
                return Err(check.invalid(what, op.ty as u32));
            }
            match inst.opcode {
                Opcode::DclConstantbuffer => {
                    let rows = inst.constant_buffer_rows(sm51).unwrap_or(0);
                    check.limit(
                        Limit::ConstantBufferRows,
                        "dcl_constantbuffer rows",
                        rows,
                        true,
                    )?;
                    if !sm51 {
                        let slot = first.unwrap_or(0);
                        check.limit_of(
                            Limit::ConstantBuffers,
                            &|| format!("cb{slot}"),
                            slot,
                            false,
                        )?;
                        match d.constant_buffers.iter_mut().find(|(s, _)| *s == slot) {
                            Some(cb) => cb.1 = rows,
                            None => d.constant_buffers.push((slot, rows)),
                        }
                    }
                }
                Opcode::DclIndexrange => {
                    let count = u64::from(inst.index_range_count().unwrap_or(0));
                    let reg = op.indices.last().and_then(Index::immediate).unwrap_or(0);
                    let end = reg.saturating_add(count);
                    if let Some(limit) = register_limit(op.ty, program.version.stage) {
                        check.limit(limit, "dcl_indexrange end", end, true)?;
                    }
                    let set = match op.ty {
                        OperandType::Input => Some(&mut d.inputs),
                        OperandType::Output => Some(&mut d.outputs),
                        _ => None,
                    };
                    if let Some(set) = set {
                        set.extend(reg..end);
                    }
                }
                _ => {
                    check.declared(op)?;
                    let set = match op.ty {
                        OperandType::Input if op.indices.len() == 1 => Some(&mut d.inputs),
                        OperandType::Output => Some(&mut d.outputs),
                        OperandType::Resource if !sm51 => Some(&mut d.resources),
                        OperandType::Sampler if !sm51 => Some(&mut d.samplers),
                        OperandType::UnorderedAccessView if !sm51 => Some(&mut d.uavs),
                        _ => None,
                    };
                    if let (Some(set), Some(reg)) = (set, first) {
                        set.insert(reg);
                    }
                }
            }
        }
        Ok(d)
    }
}

/// Why a compute program's `v#` or `o#` is refused: its only inputs are the thread-id
/// registers, and it has no outputs.
/// Output registers are write-only (the SM4/SM5 register tables give `o#`, `oDepth` and
/// `oMask` access "W"); fxc never reads one back, and a consumer has no value to give.
const OUTPUT_READ: &str = "output register read as a source (operand type)";

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
