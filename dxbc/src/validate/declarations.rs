//! What a program declares, collected in one pass over its declarations, which also checks
//! their numbers against the limits and their shapes; the operand checks look registers up
//! here.

use crate::error::Result;
use crate::ir::*;
use crate::limits::Limit;
use crate::opcodes::Opcode;

use super::{Checker, interface_mismatch, is_phase_start, register_limit};

/// x# arrays by id (few programs declare any): FxHash, as SipHash cost more than the lookups.
type Fx = std::hash::BuildHasherDefault<rustc_hash::FxHasher>;
type HashMap<K, V> = std::collections::HashMap<K, V, Fx>;

/// Temps and indexable temps in effect in one hull-shader phase (or the whole program).
#[derive(Debug, Clone, Default)]
pub(super) struct Scope {
    pub(super) temps: Option<u32>,
    /// x# -> (elements, components).
    pub(super) indexable: HashMap<u32, (u32, u32)>,
    indexable_elements: u64,
}

/// Everything declared, collected in one pass over the declarations (which also checks their
/// numbers against the limits).
#[derive(Debug, Default)]
pub(super) struct Declarations {
    /// Scope 0 is the program (or a hull shader's declarations before its first phase); each
    /// phase starts from a copy of it.
    pub(super) scopes: smallvec::SmallVec<[Scope; 1]>,
    inputs: Slots,
    outputs: Slots,
    /// Slot -> declared rows (0 = not stated), in declaration order: a few per program.
    constant_buffers: smallvec::SmallVec<[(u64, u64); 4]>,
    pub(super) resources: Slots,
    pub(super) samplers: Slots,
    pub(super) uavs: Slots,
    pub(super) tgsm: Slots,
    pub(super) icb_rows: Option<u64>,
    /// The program declares interfaces (`dcl_interface`): SM5.0 class linkage, where `t#`,
    /// `s#` and `cb#` may be indexed at run time from the instance data.
    pub(super) interfaces: bool,
}

/// A set of declared register numbers. Every slot the limits allow (`v#`, `o#`, `t#`, `s#`,
/// `u#`: below 128) is a bit; a number past them (a `g#` id) goes to a tree, which allocates
/// only then. Hash sets cost each program an allocation, a hash per lookup and a free: about
/// 3 % of translating it (docs/corpus.md).
#[derive(Debug, Default, Clone)]
pub(super) struct Slots {
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

    pub(super) fn is_empty(&self) -> bool {
        self.low == 0 && self.high.is_empty()
    }

    pub(super) fn contains(&self, r: u64) -> bool {
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
pub(super) fn within_rows(rows: u64, row: u64) -> bool {
    rows == 0 || row < rows
}

impl Declarations {
    /// Whether no constant buffer is declared.
    pub(super) fn constant_buffers_empty(&self) -> bool {
        self.constant_buffers.is_empty()
    }

    /// The rows `cb#slot` was declared with (0 when not stated); `None` when undeclared.
    pub(super) fn cb_rows(&self, slot: u64) -> Option<u64> {
        self.constant_buffers
            .iter()
            .find(|(s, _)| *s == slot)
            .map(|(_, rows)| *rows)
    }

    /// Whether `v#r` (`ty` `Input`) or `o#r` may be used: vertex and pixel programs must
    /// declare it, a compute program has none, other stages are not held to their
    /// declarations.
    pub(super) fn io_declared(&self, ty: OperandType, stage: Stage, r: u64) -> bool {
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

    pub(super) fn collect(program: &Program) -> Result<Declarations> {
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
                Opcode::DclInterface => d.interfaces = true,
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
