//! The scan: one walk over the program before any lowering, reading its declarations into the
//! context and refusing what fails closed (SM5.1 ranges, subroutines, doubles, samplers and
//! views WGSL cannot hold).

use dxbc::structure::Structure;
use dxbc::{
    Instruction, Opcode, OperandType, Program, ResourceDimension as Dim, ReturnType, SamplerMode,
    Stage,
};

use super::rejection::dimension_refused;
use super::{
    Ctx, Rejection, Shape, TexelKind, UavKind, View, is_comparison, resource_operand,
    sampler_operand,
};
use crate::Profile;
use crate::names as id;

fn first_index(inst: &Instruction) -> u32 {
    inst.operands
        .first()
        .and_then(|o| o.indices.first())
        .and_then(dxbc::Index::immediate)
        .unwrap_or(0) as u32
}

/// SM5.1 resource ranges, which WebGPU's fixed bindings cannot hold: a range of more than one
/// register, or a register chosen at run time, fails closed under the seed's entry (constant
/// buffers: `fail-closed/dynamic-cb-selection`; textures, samplers, UAVs: a declared range
/// `fail-closed/bindless-ranges`, a handle chosen at run time in a one-register range
/// `fail-closed/relative-resource-identities`).
fn sm51_ranges(program: &Program) -> Result<(), Rejection> {
    let entry = |ty: OperandType| match ty {
        OperandType::ConstantBuffer => Some(id::DYNAMIC_CB_SELECTION),
        OperandType::Resource | OperandType::Sampler | OperandType::UnorderedAccessView => {
            Some(id::BINDLESS_RANGES)
        }
        _ => None,
    };
    for (i, inst) in program.instructions.iter().enumerate() {
        let dcl = inst.opcode.info().is_declaration();
        for op in &inst.operands {
            let Some(entry) = entry(op.ty) else { continue };
            let why = if dcl {
                match (op.indices.get(1), op.indices.get(2)) {
                    (Some(lo), Some(hi)) if lo.immediate() != hi.immediate() => {
                        format!("a range of {} registers", op.ty.name())
                    }
                    _ => continue,
                }
            } else if op.indices.iter().take(2).any(|x| x.immediate().is_none()) {
                format!("a {} register chosen at run time", op.ty.name())
            } else {
                continue;
            };
            // Past the declarations every range is one register (a wider one was refused
            // there): a texture, sampler or UAV handle chosen at run time is a relative
            // identity, which the seed refuses in its own words.
            let entry = if !dcl && entry == id::BINDLESS_RANGES {
                id::RELATIVE_RESOURCE_IDENTITIES
            } else {
                entry
            };
            return Err(Rejection::new(entry, why).at(i, inst.opcode));
        }
    }
    Ok(())
}

/// Read the declarations and registers used into `c`.
pub(super) fn scan(c: &mut Ctx<'_>) -> Result<(), Rejection> {
    let (program, profile, stage) = (c.program, c.profile, c.stage);
    if program.version.is_sm51() {
        sm51_ranges(program)?;
    }
    let mut refactoring_allowed = false;
    // Facts other walks would find, gathered in this one (each walk cost a few per cent).
    let mut tally = dxbc::registers::RegisterTally::default();
    let mut cross_scope = Structure::CrossScopeRead.finder();
    let mut packed = Structure::PackedVarying.finder();
    let mut precise = false;
    for (i, inst) in program.instructions.iter().enumerate() {
        tally.add(inst);
        precise |= inst.precise != 0;
        if is_comparison(inst.opcode)
            && let Some(t) = resource_operand(inst).and_then(|o| o.indices.first()?.immediate())
        {
            c.depth_textures.insert(t as u32);
        }
        if let Some(f) = &mut cross_scope {
            f.step(inst);
        }
        if let Some(f) = &mut packed {
            f.step(inst);
        }
        let fail = |r: Rejection| r.at(i, inst.opcode);
        match inst.opcode {
            Opcode::DclGlobalFlags => refactoring_allowed = inst.is_refactoring_allowed(),
            Opcode::DclTemps => c.temps = c.temps.max(inst.temps_count().unwrap_or(0)),
            Opcode::DclIndexableTemp => {
                if let Some((id, len, _)) = inst.indexable_temp() {
                    c.indexable.insert(id, len);
                }
            }
            Opcode::DclConstantbuffer => {
                if program.version.is_sm51() {
                    return Err(fail(Rejection::new(
                        id::NOT_LOWERED,
                        "SM5.1 register ranges",
                    )));
                }
                let size = inst
                    .operands
                    .first()
                    .and_then(|o| o.indices.get(1))
                    .and_then(dxbc::Index::immediate);
                c.cbs
                    .insert(first_index(inst), size.unwrap_or(0).clamp(1, 4096) as u32);
            }
            Opcode::DclSampler => {
                // The seed fails closed on every mode but the default; WGSL has comparison
                // samplers, so the exact profile lowers those.
                match inst.sampler_mode() {
                    Some(SamplerMode::Default) => {}
                    Some(SamplerMode::Comparison) if profile == Profile::Exact => {
                        c.comparison_samplers.insert(first_index(inst));
                    }
                    _ => {
                        return Err(fail(Rejection::new(
                            id::SAMPLER_MODES,
                            "comparison and mono samplers",
                        )));
                    }
                }
                c.samplers.insert(first_index(inst));
            }
            Opcode::DclResource => {
                let view = match inst.resource_dimension().unwrap_or(Dim::Unknown) {
                    Dim::Buffer => {
                        // The declaration gives a component class, not the view's format.
                        if stage != Stage::Compute {
                            return Err(fail(Rejection::new(
                                id::TYPED_BUFFER_SRV_FORMAT,
                                "a typed Buffer SRV's view format is not in the program",
                            )));
                        }
                        View::TypedBuffer
                    }
                    // WGSL's `texture_1d` has one level and no explicit-LOD sampling, so the
                    // exact profile binds a 1D texture as a 2D one, one texel high; the seed
                    // knows no 1D lowering, so the contract profile fails closed on it.
                    d @ (Dim::Texture1d | Dim::Texture1dArray) if profile != Profile::Exact => {
                        return Err(fail(dimension_refused(
                            id::UNKNOWN_TEXTURE_DIMENSION,
                            d,
                            " (the exact profile lowers it)",
                        )));
                    }
                    // The seed fails closed on cube arrays; the exact profile binds them as
                    // `texture_cube_array<T>`.
                    d @ Dim::TextureCubeArray if profile != Profile::Exact => {
                        return Err(fail(dimension_refused(
                            id::UNKNOWN_TEXTURE_DIMENSION,
                            d,
                            " (the exact profile lowers it)",
                        )));
                    }
                    d @ (Dim::Texture2d
                    | Dim::Texture2dArray
                    | Dim::TextureCube
                    | Dim::TextureCubeArray
                    | Dim::Texture3d
                    | Dim::Texture1d
                    | Dim::Texture1dArray) => {
                        let kind = texel_kind(
                            inst.declared_return_types()
                                .map_or(ReturnType::Other(0), |[x, ..]| x),
                        )
                        .map_err(fail)?;
                        let shape = Shape::of(d).unwrap_or(Shape::Volume);
                        View::Texture(kind, shape)
                    }
                    // The seed fails closed on multisampled textures; the other
                    // dimensions are lowerable but not lowered here yet.
                    // A 4-sample (or unstated) `Texture2DMS`: the exact profile binds it as a
                    // `texture_multisampled_2d<T>`; the seed fails closed on it.
                    d @ Dim::Texture2dMs
                        if profile == Profile::Exact
                            && matches!(inst.sample_count(), Some(0 | 4) | None) =>
                    {
                        let kind = texel_kind(
                            inst.declared_return_types()
                                .map_or(ReturnType::Other(0), |[x, ..]| x),
                        )
                        .map_err(fail)?;
                        let _ = d;
                        View::Texture(kind, Shape::Multisampled)
                    }
                    Dim::Texture2dMsArray if profile == Profile::Exact => {
                        return Err(fail(Rejection::new(
                            id::UNKNOWN_TEXTURE_DIMENSION,
                            "a Texture2DMSArray: WebGPU has no multisampled texture arrays, so \
                             no WGSL program can read this view",
                        )));
                    }
                    d @ (Dim::Texture2dMs | Dim::Texture2dMsArray) => {
                        // WebGPU's multisampled textures have 4 samples (GPUTextureDescriptor's
                        // sampleCount is 1 or 4): a view of another count has no WGSL form.
                        let note = match inst.sample_count() {
                            Some(n) if n != 0 && n != 4 => format!(
                                " of {n} samples: WebGPU's multisampled textures have 4, so no \
                                 WGSL program can read this view"
                            ),
                            _ => String::new(),
                        };
                        return Err(fail(dimension_refused(
                            id::UNKNOWN_TEXTURE_DIMENSION,
                            d,
                            &note,
                        )));
                    }
                    d => {
                        return Err(fail(dimension_refused(id::NOT_LOWERED, d, "")));
                    }
                };
                c.srvs.insert(first_index(inst), view);
            }
            Opcode::DclResourceRaw => {
                c.srvs.insert(first_index(inst), View::Raw);
            }
            Opcode::DclResourceStructured => {
                c.srvs.insert(
                    first_index(inst),
                    View::Structured(inst.structure_stride().unwrap_or(4)),
                );
            }
            Opcode::DclUavRaw => {
                c.uavs.insert(first_index(inst), View::Raw);
            }
            Opcode::DclUavStructured => {
                if inst.has_order_preserving_counter() && profile != Profile::Exact {
                    return Err(fail(Rejection::new(
                        id::NOT_LOWERED,
                        "UAVs with hidden counters",
                    )));
                }
                c.uavs.insert(
                    first_index(inst),
                    View::Structured(inst.structure_stride().unwrap_or(4)),
                );
            }
            Opcode::DclUavTyped => {
                let view = match inst.resource_dimension().unwrap_or(Dim::Unknown) {
                    Dim::Buffer => View::TypedBuffer,
                    // `RWTexture1D` … `RWTexture3D` are storage textures in the exact profile;
                    // the seed fails closed on every UAV shape but a buffer.
                    d @ (Dim::Texture1d
                    | Dim::Texture1dArray
                    | Dim::Texture2d
                    | Dim::Texture2dArray
                    | Dim::Texture3d) => {
                        if profile != Profile::Exact {
                            return Err(fail(dimension_refused(
                                id::UNKNOWN_TEXTURE_DIMENSION,
                                d,
                                " of a typed UAV texture (the exact profile lowers it)",
                            )));
                        }
                        let kind = uav_kind(inst.declared_return_types()).map_err(fail)?;
                        View::UavTexture(kind, Shape::of(d).unwrap_or(Shape::Plain))
                    }
                    d => {
                        return Err(fail(dimension_refused(
                            id::UNKNOWN_TEXTURE_DIMENSION,
                            d,
                            " of a typed UAV texture",
                        )));
                    }
                };
                c.uavs.insert(first_index(inst), view);
            }
            // A loaded typed UAV texture is declared `read_write` with an r32 format, which has
            // no normalized member: the scan decides the declaration, so it refuses here.
            Opcode::LdUavTyped => {
                if let Some(res) = inst.operands.get(2)
                    && res.ty == OperandType::UnorderedAccessView
                    && let Some(slot) = res.indices.first().and_then(dxbc::Index::immediate)
                    && let Some(View::UavTexture(kind, _)) = c.uavs.get(&(slot as u32)).copied()
                {
                    if kind.format(true).is_none() {
                        return Err(fail(Rejection::new(
                            id::NOT_LOWERED,
                            "ld_uav_typed of a unorm or snorm UAV texture: WebGPU's read-write \
                             storage textures are r32 formats only, and D3D 11.0 loads typed \
                             UAVs of R32 formats only",
                        )));
                    }
                    c.loaded_uavs.insert(slot as u32);
                }
            }
            Opcode::DclTgsmRaw => {
                // One payload word, so the byte count fits a u32.
                let bytes = inst.tgsm_bytes().map_or(4, |b| b as u32);
                c.tgsm.insert(first_index(inst), (bytes.div_ceil(4), None));
            }
            Opcode::DclTgsmStructured => {
                if let (Some(bytes), Some(stride)) = (inst.tgsm_bytes(), inst.structure_stride()) {
                    let words = bytes.div_ceil(4);
                    c.tgsm
                        .insert(first_index(inst), (words.min(8192) as u32, Some(stride)));
                }
            }
            Opcode::DclThreadGroup => {
                if let Some(group) = inst.thread_group() {
                    c.workgroup = group;
                }
            }
            Opcode::Customdata => {
                if let Some(icb) = inst.icb() {
                    c.icb = Some(icb.to_vec());
                }
            }
            // The exact profile lowers bodies as functions and `fcall` as a switch
            // (`subroutines`); the seed fails closed on them.
            Opcode::DclFunctionBody
            | Opcode::DclFunctionTable
            | Opcode::DclInterface
            | Opcode::Label
            | Opcode::Call
            | Opcode::Callc
            | Opcode::Fcall
                if profile != Profile::Exact =>
            {
                return Err(fail(Rejection::new(
                    id::SUBROUTINES,
                    "subroutines and interfaces",
                )));
            }
            // The exact profile computes doubles in software on `u32` pairs (emit/double.rs);
            // the seed has no double lowering.
            op if op.info().kind == dxbc::opcodes::Kind::Double && profile != Profile::Exact => {
                return Err(fail(Rejection::new(
                    id::DOUBLES,
                    "double precision has no WGSL type",
                )));
            }
            op if op.declares_input() || op.declares_output() => {
                c.io_declarations.push(i as u32);
            }
            _ => {}
        }
        // One walk over the operands for the three checks, applied in this order.
        let (mut double, mut other_precision, mut half) = (false, false, false);
        for o in &inst.operands {
            double |= o.ty == OperandType::Immediate64;
            half |= o.is_min16_float();
            other_precision |= o.precision != 0 && !o.is_min16_float();
        }
        if double && profile != Profile::Exact {
            return Err(fail(Rejection::new(id::DOUBLES, "double immediates")));
        }
        // `min10float`, `min16int` and `min16uint` promise at least that precision, and D3D
        // lets a device compute them at full precision (FS §4.4): the exact profile does, so
        // its results are the reference's. The seed fails closed on them.
        if other_precision && profile != Profile::Exact {
            return Err(fail(Rejection::new(
                id::MIN_PRECISION_KINDS,
                "minimum precision other than float16",
            )));
        }
        if half {
            c.relies(id::MIN_PRECISION_F16);
        }
        let info = inst.info();
        if !info.is_declaration()
            && inst
                .split_operands()
                .0
                .iter()
                .any(|o| o.ty == OperandType::Input)
        {
            c.inputs_written = true;
        }
        if let Some(slot) = inst.counter_uav().filter(|_| profile == Profile::Exact) {
            c.counter_uavs.insert(slot);
            continue;
        }
        if inst.info().kind == dxbc::opcodes::Kind::Atomic {
            let mem = &inst.operands[if inst.info().dst == 2 { 1 } else { 0 }];
            let slot = mem
                .indices
                .first()
                .and_then(dxbc::Index::immediate)
                .unwrap_or(0) as u32;
            match mem.ty {
                OperandType::UnorderedAccessView => {
                    if let Some(View::UavTexture(..)) = c.uavs.get(&slot) {
                        return Err(fail(Rejection::new(
                            id::NOT_LOWERED,
                            "atomics on a typed UAV texture: WGSL has no atomic storage textures",
                        )));
                    }
                    c.atomic_uavs.insert(slot);
                }
                OperandType::ThreadGroupSharedMemory => {
                    c.atomic_tgsm.insert(slot);
                }
                _ => {}
            }
        }
    }
    let counts = tally.counts(stage);
    c.temps = c.temps.max(counts.temps);
    c.inputs = counts.inputs;
    c.outputs = counts.outputs;
    // The seed adapts per-op `precise` and global non-refactorability the same way: ordinary
    // math and an invariant position.
    if !refactoring_allowed || precise {
        c.relies(id::PRECISE);
    }
    c.relies(id::TYPELESS_REGISTERS);
    // Registers are function-top `var`s, so a value written in a nested scope and read after
    // it is read from a hoisted variable; a register's packed varyings share one interface
    // field (WGSL allows one per location).
    if cross_scope.is_some_and(|f| f.found()) {
        c.relies(id::HOISTED_VARS);
    }
    if packed.is_some_and(|f| f.found()) {
        c.relies(id::PACKED_VARYINGS);
    }
    if profile == Profile::Exact {
        depth_gathers(c)?;
        c.linkage = dxbc::Linkage::of(&program.instructions);
        let slots = c.linkage.slot_count();
        if slots > dxbc::linkage::MAX_SLOTS {
            return Err(Rejection::new(
                id::NOT_LOWERED,
                format!(
                    "{slots} interface slots, past D3D11's {}",
                    dxbc::linkage::MAX_SLOTS
                ),
            ));
        }
        if slots > 0 {
            // The class-instance buffer: a "this" row and a table row per slot.
            c.cbs.insert(
                dxbc::CLASS_INSTANCE_CB,
                dxbc::linkage::instance_row(slots).0,
            );
        }
    }
    Ok(())
}

fn texel_kind(x: ReturnType) -> Result<TexelKind, Rejection> {
    match x {
        ReturnType::Unorm | ReturnType::Snorm | ReturnType::Float => Ok(TexelKind::Float),
        ReturnType::Uint => Ok(TexelKind::Uint),
        ReturnType::Sint => Ok(TexelKind::Sint),
        other => Err(Rejection::new(
            id::NOT_LOWERED,
            format!("texture return type {}", other.number()),
        )),
    }
}

/// A typed UAV texture's return type, the same for all four components (a declaration whose
/// components differ has no one WGSL storage format).
fn uav_kind(types: Option<[ReturnType; 4]>) -> Result<UavKind, Rejection> {
    let Some([x, rest @ ..]) = types else {
        return Err(Rejection::new(
            id::NOT_LOWERED,
            "a typed UAV texture without a return type",
        ));
    };
    if rest.iter().any(|r| *r != x) {
        return Err(Rejection::new(
            id::NOT_LOWERED,
            "a typed UAV texture whose components' return types differ: no one WGSL storage \
             format holds them",
        ));
    }
    match x {
        ReturnType::Float => Ok(UavKind::Float),
        ReturnType::Unorm => Ok(UavKind::Unorm),
        ReturnType::Snorm => Ok(UavKind::Snorm),
        ReturnType::Uint => Ok(UavKind::Uint),
        ReturnType::Sint => Ok(UavKind::Sint),
        other => Err(Rejection::new(
            id::NOT_LOWERED,
            format!("typed UAV texture return type {}", other.number()),
        )),
    }
}

/// The plain samplers that meet a depth texture (one a comparison reads): a `gather4` of its
/// red channel, which WGSL's `textureGather` of a `texture_depth_*` gives. WebGPU lets a depth
/// binding meet non-filtering and comparison samplers only, so such a sampler is bound
/// non-filtering, and it may then only gather (a gather reads the same texels under any
/// filter); a sampler that also filters is refused.
fn depth_gathers(c: &mut Ctx<'_>) -> Result<(), Rejection> {
    let sampler_of = |inst: &Instruction| -> Option<u32> {
        let op = sampler_operand(inst)?;
        op.indices.first()?.immediate().map(|s| s as u32)
    };
    for inst in &c.program.instructions {
        let Some(t) = resource_operand(inst).and_then(|o| o.indices.first()?.immediate()) else {
            continue;
        };
        if !is_comparison(inst.opcode)
            && c.depth_textures.contains(&(t as u32))
            && let Some(s) = sampler_of(inst)
        {
            c.non_filtering_samplers.insert(s);
        }
    }
    for inst in &c.program.instructions {
        if let Some(s) = sampler_of(inst)
            && c.non_filtering_samplers.contains(&s)
            && !matches!(inst.opcode, Opcode::Gather4 | Opcode::Gather4Po)
        {
            return Err(Rejection::new(
                id::NOT_LOWERED,
                format!(
                    "s{s} both filters (`{}`) and meets a depth texture: WebGPU lets a depth \
                     texture meet no filtering sampler",
                    inst.opcode.mnemonic()
                ),
            ));
        }
    }
    Ok(())
}
