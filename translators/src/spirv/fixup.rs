//! Word-level rewrites of a SPIR-V module before naga's front end reads it. Each one exists
//! because naga (30) refuses or misreads a construct that the module uses legitimately; each is
//! as small as the construct, and docs/dxbc-spirv.md lists them with why. A rewrite that
//! changes meaning is claimed by the translation that applies it (the caller's adaptations).

use super::words::{
    Inst, Malformed, Module, has_result_type, id_operands, is_id_operand, is_terminator, op, parse,
    write,
};

const MODE_LOCAL_SIZE: u32 = 17;
const MODE_LOCAL_SIZE_ID: u32 = 38;
const CAPABILITY_FLOAT64: u32 = 10;
const CAPABILITY_PHYSICAL_BUFFER: u32 = 5347;
const CAPABILITY_DRAW_PARAMETERS: u32 = 4427;
const CAPABILITY_DEMOTE: u32 = 5379;
const DECORATION_BUILTIN: u32 = 11;
const DECORATION_FLAT: u32 = 14;
const IMAGE_CONST_OFFSET: u32 = 0x8;
const MODEL_VERTEX: u32 = 0;
const MODEL_FRAGMENT: u32 = 4;
const BUILTIN_BASE_VERTEX: u32 = 4424;
const BUILTIN_BASE_INSTANCE: u32 = 4425;
const STORAGE_CLASS_PHYSICAL_BUFFER: u32 = 5349;
const DECORATION_LOCATION: u32 = 30;
const DECORATION_COMPONENT: u32 = 31;
const DECORATION_NON_READABLE: u32 = 25;
const STORAGE_CLASS_INPUT: u32 = 1;
const STORAGE_CLASS_OUTPUT: u32 = 3;
const STORAGE_CLASS_WORKGROUP: u32 = 4;
const STORAGE_CLASS_STORAGE_BUFFER: u32 = 12;
const GLSL_ROUND_EVEN: u32 = 2;
const GLSL_FIND_I_LSB: u32 = 73;
const GLSL_FIND_S_MSB: u32 = 74;
const GLSL_FIND_U_MSB: u32 = 75;

/// Why a module cannot be rewritten. Codes: `spirv.malformed`, `spirv.doubles`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FixupError {
    /// The words are not a SPIR-V module (a bad header, an instruction that overruns).
    #[error("{0}")]
    Malformed(#[from] Malformed),
    /// The module computes in double precision, which naga (30) miscompiles: a `vec2<u32>` to
    /// `f64` bitcast becomes `bitcast<vec2<f32>>`.
    #[error(
        "the module uses Float64: naga reads its vec2<u32> → f64 bitcasts as bitcasts to vec2<f32>"
    )]
    Doubles,
}

impl FixupError {
    /// A stable, machine-readable code for this kind of error.
    pub fn code(&self) -> &'static str {
        match self {
            FixupError::Malformed(_) => "spirv.malformed",
            FixupError::Doubles => "spirv.doubles",
        }
    }
}

/// A stage input or output variable moved to a fresh location, because it shares its
/// register with another (`Component` > 0) and naga drops `Component`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Relocated {
    /// An output (as opposed to an input).
    pub output: bool,
    /// The location naga sees now.
    pub location: u32,
    /// The register (the original location).
    pub register: u32,
    /// Its first component in that register.
    pub component: u8,
}

/// What the rewrites did: which varyings moved, and which rewrites applied (by name, for the
/// translation's record).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Applied {
    /// Varyings moved off their register's location.
    pub relocated: Vec<Relocated>,
    /// The names of the rewrites that changed something.
    pub rewrites: Vec<&'static str>,
}

/// Run `rewrite` on each instruction in turn. It gets the module and the instruction's index,
/// and returns the index just past what it wrote, or `None` to leave the instruction alone.
/// Whether anything was rewritten.
fn rewrite_each(
    m: &mut Module,
    mut rewrite: impl FnMut(&mut Module, usize) -> Option<usize>,
) -> bool {
    let mut changed = false;
    let mut k = 0;
    while k < m.insts.len() {
        match rewrite(m, k) {
            Some(next) => {
                changed = true;
                k = next.max(k + 1);
            }
            None => k += 1,
        }
    }
    changed
}

/// A rewrite: whether it changed the module.
type Pass = fn(&mut Module, &mut Applied) -> bool;

/// Every rewrite, in order, over `spv`; the rewritten module and what was applied.
pub fn apply(spv: &[u8]) -> Result<(Vec<u8>, Applied), FixupError> {
    let mut m = parse(spv)?;
    if m.insts
        .iter()
        .any(|i| i.op == op::CAPABILITY && i.operands.first() == Some(&CAPABILITY_FLOAT64))
    {
        return Err(FixupError::Doubles);
    }
    let mut applied = Applied::default();
    let passes: [(&'static str, Pass); 14] = [
        ("unused-capabilities", unused_capabilities),
        ("draw-parameters-zero", draw_parameters_zero),
        ("is-nan-as-bits", is_nan_as_bits),
        ("flat-integer-varyings", flat_integer_varyings),
        ("fetch-offset-added", fetch_offset_added),
        ("sample-layer-rounded", sample_layer_rounded),
        ("local-size-literal", local_size_literal),
        ("storage-buffer-readable", storage_buffer_readable),
        ("workgroup-no-initializer", workgroup_no_initializer),
        ("packed-varyings-relocated", relocate_packed_varyings),
        ("demote-as-kill", demote_as_kill),
        ("bit-search-signedness", find_msb_signedness),
        ("negate-unsigned", negate_unsigned),
        (
            "non-finite-constants-computed",
            non_finite_constants_computed,
        ),
    ];
    for (name, pass) in passes {
        if pass(&mut m, &mut applied) {
            applied.rewrites.push(name);
        }
    }
    Ok((write(&m), applied))
}

/// `PhysicalStorageBufferAddresses` is dropped when no pointer is in the `PhysicalStorageBuffer`
/// class: the module declares it for its addressing model only, and naga refuses the
/// capability. The addressing model itself naga ignores.
fn unused_capabilities(m: &mut Module, _: &mut Applied) -> bool {
    let used = m.insts.iter().any(|i| {
        (i.op == op::TYPE_POINTER && i.operands.get(1) == Some(&STORAGE_CLASS_PHYSICAL_BUFFER))
            || (i.op == op::TYPE_FORWARD_POINTER
                && i.operands.get(1) == Some(&STORAGE_CLASS_PHYSICAL_BUFFER))
    });
    if used {
        return false;
    }
    let before = m.insts.len();
    m.insts.retain(|i| {
        !(i.op == op::CAPABILITY && i.operands.first() == Some(&CAPABILITY_PHYSICAL_BUFFER))
    });
    m.insts.len() != before
}

/// Loads of `BaseVertex` and `BaseInstance` read 0: the harness runs a vertex program as one
/// draw from vertex 0 and instance 0, feeding `vertex_index` and `instance_index` as D3D's
/// `SV_VertexID` and `SV_InstanceID` (which count from the draw's base), so the base the module
/// subtracts is 0. WGSL has neither builtin; naga refuses `DrawParameters`.
fn draw_parameters_zero(m: &mut Module, _: &mut Applied) -> bool {
    let vars: std::collections::BTreeSet<u32> = m
        .insts
        .iter()
        .filter(|i| {
            i.op == op::DECORATE
                && i.operands.get(1) == Some(&DECORATION_BUILTIN)
                && matches!(
                    i.operands.get(2),
                    Some(&BUILTIN_BASE_VERTEX) | Some(&BUILTIN_BASE_INSTANCE)
                )
        })
        .map(|i| i.operands[0])
        .collect();
    if vars.is_empty() {
        return false;
    }
    // A null constant of each type loaded, declared with the types.
    let loaded: std::collections::BTreeSet<u32> = m
        .insts
        .iter()
        .filter(|i| i.op == op::LOAD && i.operands.get(2).is_some_and(|v| vars.contains(v)))
        .map(|i| i.operands[0])
        .collect();
    let mut zero = std::collections::BTreeMap::new();
    for ty in loaded {
        let id = m.fresh_id();
        zero.insert(ty, id);
        let at = m
            .insts
            .iter()
            .position(|i| i.op == op::FUNCTION)
            .unwrap_or(m.insts.len());
        m.insts.insert(
            at,
            Inst {
                op: op::CONSTANT_NULL,
                operands: vec![ty, id],
            },
        );
    }
    for i in &mut m.insts {
        if i.op == op::LOAD && i.operands.get(2).is_some_and(|v| vars.contains(v)) {
            let (ty, result) = (i.operands[0], i.operands[1]);
            *i = Inst {
                op: op::COPY_OBJECT,
                operands: vec![ty, result, zero[&ty]],
            };
        }
    }
    // The variables go, with their decorations and their places in the interface.
    m.insts.retain(|i| match i.op {
        op::VARIABLE => !i.operands.get(1).is_some_and(|v| vars.contains(v)),
        op::DECORATE | op::NAME => !i.operands.first().is_some_and(|v| vars.contains(v)),
        _ => true,
    });
    for i in &mut m.insts {
        if i.op == op::ENTRY_POINT {
            i.operands.retain(|w| !vars.contains(w));
        }
    }
    m.insts.retain(|i| {
        !(i.op == op::CAPABILITY && i.operands.first() == Some(&CAPABILITY_DRAW_PARAMETERS))
    });
    true
}

/// `OpIsNan x` → `(bitcast<u32>(x) & 0x7fffffff) > 0x7f800000`: naga reads `IsNan` but
/// cannot write it as WGSL, which has no NaN test, and a float compare (`x != x`) is one an
/// implementation may fold away, since WGSL lets it assume no NaN. The test of the bits is
/// exact under any float rules.
fn is_nan_as_bits(m: &mut Module, _: &mut Applied) -> bool {
    rewrite_each(m, |m, k| {
        let i = &m.insts[k];
        if i.op != op::IS_NAN || i.operands.len() != 3 {
            return None;
        }
        let (rt, r, x) = (i.operands[0], i.operands[1], i.operands[2]);
        let xt = m.type_of(x)?;
        let count = m.vector_count(xt);
        let uint = m.declare(op::TYPE_INT, vec![32, 0]);
        let ut = match count {
            Some(n) => m.declare(op::TYPE_VECTOR, vec![uint, n]),
            None => uint,
        };
        let magnitude = m.u32_constant(uint, 0x7fff_ffff, count, ut);
        let infinity = m.u32_constant(uint, 0x7f80_0000, count, ut);
        let (bits, masked) = (m.fresh_id(), m.fresh_id());
        let at = m.position_of(op::IS_NAN, r);
        m.insts.splice(
            at..=at,
            [
                Inst {
                    op: op::BITCAST,
                    operands: vec![ut, bits, x],
                },
                Inst {
                    op: op::BITWISE_AND,
                    operands: vec![ut, masked, bits, magnitude],
                },
                Inst {
                    op: op::U_GREATER_THAN,
                    operands: vec![rt, r, masked, infinity],
                },
            ],
        );
        Some(at + 3)
    })
}

/// `OpImageFetch` with a `ConstOffset` fetches at the coordinate plus the offset: naga reads
/// the fetch but drops its offset (WGSL's `textureLoad` takes none). The offset is added to
/// the coordinate's leading components (an array's layer takes none), as unsigned 32-bit
/// wrapping addition, which is what the offset means: out of range stays out of range.
fn fetch_offset_added(m: &mut Module, _: &mut Applied) -> bool {
    rewrite_each(m, |m, k| {
        let i = &m.insts[k];
        if i.op != op::IMAGE_FETCH || i.operands.len() < 6 {
            return None;
        }
        let mask = i.operands[4];
        if mask & IMAGE_CONST_OFFSET == 0 {
            return None;
        }
        // Operand ids follow the mask in bit order: Bias, Lod, Grad (two), then ConstOffset.
        let before =
            (mask & 1).count_ones() + (mask & 2).count_ones().min(1) + 2 * (mask & 4).count_ones();
        let at_offset = 5 + before as usize;
        let (coord, r) = (i.operands[3], i.operands[1]);
        let &offset = i.operands.get(at_offset)?;
        let (ct, ot) = (m.type_of(coord)?, m.type_of(offset)?);
        let (cn, on) = (
            m.vector_count(ct).unwrap_or(1),
            m.vector_count(ot).unwrap_or(1),
        );
        let signed = m.int_signedness(ct)?;
        let scalar = m.declare(op::TYPE_INT, vec![32, u32::from(signed)]);
        let mut defs = Vec::new();
        // The offset as the coordinate's type: cast, then padded with zeros for the layer.
        let ot_like = m.int_type_like(ot, signed);
        let cast = m.fresh_id();
        defs.push(Inst {
            op: op::BITCAST,
            operands: vec![ot_like, cast, offset],
        });
        let padded = if on < cn {
            let zero = m.u32_constant(scalar, 0, None, scalar);
            let id = m.fresh_id();
            let mut operands = vec![ct, id];
            if on == 1 {
                operands.push(cast);
            } else {
                for c in 0..on {
                    let part = m.fresh_id();
                    defs.push(Inst {
                        op: op::COMPOSITE_EXTRACT,
                        operands: vec![scalar, part, cast, c],
                    });
                    operands.push(part);
                }
            }
            operands.extend(std::iter::repeat_n(zero, (cn - on) as usize));
            defs.push(Inst {
                op: op::COMPOSITE_CONSTRUCT,
                operands,
            });
            id
        } else {
            cast
        };
        let moved = m.fresh_id();
        defs.push(Inst {
            op: op::I_ADD,
            operands: vec![ct, moved, coord, padded],
        });
        let at = m.position_of(op::IMAGE_FETCH, r);
        let fetch = &mut m.insts[at];
        fetch.operands[3] = moved;
        fetch.operands[4] &= !IMAGE_CONST_OFFSET;
        fetch.operands.remove(at_offset);
        if fetch.operands[4] == 0 {
            fetch.operands.remove(4);
        }
        let added = defs.len();
        for (n, d) in defs.into_iter().enumerate() {
            m.insts.insert(at + n, d);
        }
        Some(at + added + 1)
    })
}

/// A sample or gather from an arrayed image takes its layer as `RoundEven` of the coordinate's
/// last component: Vulkan (and D3D) round the layer to the nearest even integer, but naga reads
/// the float layer as `i32(layer)`, which truncates (1.5 reads layer 1, not 2).
fn sample_layer_rounded(m: &mut Module, _: &mut Applied) -> bool {
    let mut glsl = m.glsl_imports().first().copied();
    rewrite_each(m, |m, mut k| {
        let i = &m.insts[k];
        let sampling = matches!(i.op, 87..=94 | 96 | 97) && i.operands.len() >= 4;
        if !sampling {
            return None;
        }
        let (sampled, coord) = (i.operands[2], i.operands[3]);
        let arrayed = m
            .type_of(sampled)
            .and_then(|t| m.type_def(t).cloned())
            .filter(|t| t.op == op::TYPE_SAMPLED_IMAGE)
            .and_then(|t| m.type_def(t.operands[1]).cloned())
            .is_some_and(|image| image.operands.get(4) == Some(&1));
        let ct = m.type_of(coord).filter(|_| arrayed)?;
        let n = m.vector_count(ct)?;
        let float = m.type_def(ct).map(|t| t.operands[1])?;
        let glsl = match glsl {
            Some(g) => g,
            None => {
                let id = m.declare_glsl_import();
                k += 1;
                glsl = Some(id);
                id
            }
        };
        let (layer, rounded, moved) = (m.fresh_id(), m.fresh_id(), m.fresh_id());
        let defs = [
            Inst {
                op: op::COMPOSITE_EXTRACT,
                operands: vec![float, layer, coord, n - 1],
            },
            Inst {
                op: op::EXT_INST,
                operands: vec![float, rounded, glsl, GLSL_ROUND_EVEN, layer],
            },
            Inst {
                op: op::COMPOSITE_INSERT,
                operands: vec![ct, moved, rounded, coord, n - 1],
            },
        ];
        m.insts[k].operands[3] = moved;
        let at = k;
        for (j, d) in defs.into_iter().enumerate() {
            m.insts.insert(at + j, d);
        }
        Some(at + 4)
    })
}

/// Integer stage variables between a vertex and a pixel program get `Flat`: naga requires
/// `@interpolate(flat)` on integer vertex outputs and pixel inputs, which Vulkan does not for
/// vertex outputs. The harness reads a vertex program's outputs as they are written, so the
/// interpolation qualifier changes nothing it compares.
fn flat_integer_varyings(m: &mut Module, _: &mut Applied) -> bool {
    use std::collections::BTreeSet;
    let mut wanted = BTreeSet::new();
    for ep in m.insts.iter().filter(|i| i.op == op::ENTRY_POINT) {
        let class = match ep.operands.first() {
            Some(&MODEL_VERTEX) => STORAGE_CLASS_OUTPUT,
            Some(&MODEL_FRAGMENT) => STORAGE_CLASS_INPUT,
            _ => continue,
        };
        // The interface ids follow the name's words (a nul-terminated string).
        let name_end = ep.operands[2..]
            .iter()
            .position(|w| w.to_le_bytes().contains(&0))
            .map_or(ep.operands.len(), |p| 2 + p + 1);
        for &var in &ep.operands[name_end.min(ep.operands.len())..] {
            wanted.insert((var, class));
        }
    }
    let decorated = |m: &Module, var: u32, d: u32| {
        m.insts.iter().any(|i| {
            i.op == op::DECORATE
                && i.operands.first() == Some(&var)
                && i.operands.get(1) == Some(&d)
        })
    };
    let mut flat = Vec::new();
    for (var, class) in wanted {
        if m.storage_class(var) != Some(class)
            || !decorated(m, var, DECORATION_LOCATION)
            || decorated(m, var, DECORATION_FLAT)
        {
            continue;
        }
        let pointee = m
            .insts
            .iter()
            .find(|i| i.op == op::VARIABLE && i.operands.get(1) == Some(&var))
            .map(|i| i.operands[0])
            .and_then(|ptr| {
                m.insts
                    .iter()
                    .find(|i| i.op == op::TYPE_POINTER && i.operands.first() == Some(&ptr))
                    .and_then(|i| i.operands.get(2).copied())
            });
        if pointee.is_some_and(|t| m.int_signedness(t).is_some()) {
            flat.push(var);
        }
    }
    let Some(at) = m.insts.iter().rposition(|i| i.op == op::DECORATE) else {
        return false;
    };
    let changed = !flat.is_empty();
    for (n, var) in flat.into_iter().enumerate() {
        m.insts.insert(
            at + 1 + n,
            Inst {
                op: op::DECORATE,
                operands: vec![var, DECORATION_FLAT],
            },
        );
    }
    changed
}

/// `OpExecutionModeId LocalSizeId` (what SPIR-V 1.6 modules use) → `OpExecutionMode
/// LocalSize` with the constants' values: naga reads only the literal form. Same meaning.
fn local_size_literal(m: &mut Module, _: &mut Applied) -> bool {
    let mut changed = false;
    for k in 0..m.insts.len() {
        let i = &m.insts[k];
        if i.op != op::EXECUTION_MODE_ID || i.operands.get(1) != Some(&MODE_LOCAL_SIZE_ID) {
            continue;
        }
        let ids: Vec<u32> = i.operands[2..].to_vec();
        let Some(values) = ids
            .iter()
            .map(|id| m.constant(*id))
            .collect::<Option<Vec<u32>>>()
        else {
            continue;
        };
        let ep = m.insts[k].operands[0];
        let mut operands = vec![ep, MODE_LOCAL_SIZE];
        operands.extend(values);
        m.insts[k] = Inst {
            op: op::EXECUTION_MODE,
            operands,
        };
        changed = true;
    }
    changed
}

/// `NonReadable` on a storage *buffer* (a UAV the program only writes) is dropped: naga reads
/// it as a write-only buffer, which WGSL has no access mode for. Nothing reads the buffer
/// either way, so the meaning is the same; storage images keep it.
fn storage_buffer_readable(m: &mut Module, _: &mut Applied) -> bool {
    let buffers: std::collections::BTreeSet<u32> = m
        .insts
        .iter()
        .filter(|i| {
            i.op == op::VARIABLE && i.operands.get(2) == Some(&STORAGE_CLASS_STORAGE_BUFFER)
        })
        .filter_map(|i| i.operands.get(1).copied())
        .collect();
    let before = m.insts.len();
    m.insts.retain(|i| {
        !(i.op == op::DECORATE
            && i.operands.get(1) == Some(&DECORATION_NON_READABLE)
            && i.operands.first().is_some_and(|t| buffers.contains(t)))
    });
    m.insts.len() != before
}

/// A workgroup variable's initializer is dropped: naga refuses initializers in the workgroup
/// address space, and WGSL zero-initializes workgroup memory itself, which is what the
/// initializer (a null constant) asked for.
fn workgroup_no_initializer(m: &mut Module, _: &mut Applied) -> bool {
    let mut changed = false;
    for i in &mut m.insts {
        if i.op == op::VARIABLE
            && i.operands.get(2) == Some(&STORAGE_CLASS_WORKGROUP)
            && i.operands.len() > 3
        {
            i.operands.truncate(3);
            changed = true;
        }
    }
    changed
}

/// Stage variables that share a location, told apart by `Component`, each but the first move
/// to a fresh location past every location in use: naga drops `Component` and would see two
/// variables at one location. The manifest keeps their register and component
/// ([`Relocated`]), so the harness feeds them from the same register words.
fn relocate_packed_varyings(m: &mut Module, applied: &mut Applied) -> bool {
    use std::collections::BTreeMap;
    let mut location: BTreeMap<u32, u32> = BTreeMap::new();
    let mut component: BTreeMap<u32, u32> = BTreeMap::new();
    for i in &m.insts {
        if i.op == op::DECORATE && i.operands.len() >= 3 {
            match i.operands[1] {
                DECORATION_LOCATION => {
                    location.insert(i.operands[0], i.operands[2]);
                }
                DECORATION_COMPONENT => {
                    component.insert(i.operands[0], i.operands[2]);
                }
                _ => {}
            }
        }
    }
    let mut changed = false;
    for output in [false, true] {
        let class = if output {
            STORAGE_CLASS_OUTPUT
        } else {
            STORAGE_CLASS_INPUT
        };
        // Variables of this direction by location, component 0 first.
        let mut by_location: BTreeMap<u32, Vec<(u32, u32)>> = BTreeMap::new();
        for (&var, &loc) in &location {
            if m.storage_class(var) == Some(class) {
                let c = component.get(&var).copied().unwrap_or(0);
                by_location.entry(loc).or_default().push((c, var));
            }
        }
        let mut next = by_location.keys().next_back().map_or(0, |l| l + 1);
        for (loc, mut vars) in by_location {
            if vars.len() < 2 {
                continue;
            }
            vars.sort_unstable();
            for &(c, var) in &vars[1..] {
                for i in &mut m.insts {
                    if i.op == op::DECORATE
                        && i.operands.first() == Some(&var)
                        && i.operands.get(1) == Some(&DECORATION_LOCATION)
                    {
                        i.operands[2] = next;
                    }
                }
                applied.relocated.push(Relocated {
                    output,
                    location: next,
                    register: loc,
                    component: c as u8,
                });
                next += 1;
                changed = true;
            }
        }
    }
    changed
}

/// `OpDemoteToHelperInvocation` → `OpKill`, which ends its block: naga reads no demote. The
/// rest of the block goes (a helper invocation's stores have no effect, and its results are
/// not compared), and so do the block's entries in its successors' `OpPhi`s. D3D's `discard`
/// leaves the pixel's outputs unwritten either way; what differs is that a killed invocation
/// no longer computes values for its neighbours' derivatives.
fn demote_as_kill(m: &mut Module, _: &mut Applied) -> bool {
    let mut changed = false;
    while let Some(k) = m.insts.iter().position(|i| i.op == op::DEMOTE_TO_HELPER) {
        let Some(block) = m.insts[..k]
            .iter()
            .rposition(|i| i.op == op::LABEL)
            .map(|l| m.insts[l].operands[0])
        else {
            break;
        };
        // Up to the block's terminator; a block without one (malformed) up to the function's end.
        let end = (k..m.insts.len())
            .find(|&j| is_terminator(m.insts[j].op) || m.insts[j].op == op::FUNCTION_END)
            .map_or(k, |j| {
                if m.insts[j].op == op::FUNCTION_END {
                    j - 1
                } else {
                    j
                }
            });
        m.insts.splice(
            k..=end,
            [Inst {
                op: op::KILL,
                operands: Vec::new(),
            }],
        );
        for i in m.insts.iter_mut().filter(|i| i.op == op::PHI) {
            let mut kept = vec![i.operands[0], i.operands[1]];
            for pair in i.operands[2..].chunks(2) {
                if pair.get(1) != Some(&block) {
                    kept.extend_from_slice(pair);
                }
            }
            i.operands = kept;
        }
        changed = true;
    }
    if changed {
        m.insts.retain(|i| {
            !(i.op == op::CAPABILITY && i.operands.first() == Some(&CAPABILITY_DEMOTE))
        });
    }
    changed
}

/// Integer bit searches typed as naga reads them: naga turns `FindUMsb` and `FindSMsb` both
/// into `firstLeadingBit` of the operand's type, and types every search's result as its operand.
/// So the operand is bitcast to the signedness the search means (unsigned for `FindUMsb`,
/// signed for `FindSMsb`), and a result declared with the other signedness is bitcast to it.
/// The bits are the same either way; without it `FindUMsb` of an `int` is computed signed.
fn find_msb_signedness(m: &mut Module, _: &mut Applied) -> bool {
    let glsl = m.glsl_imports();
    rewrite_each(m, |m, k| {
        let i = &m.insts[k];
        let search = i.op == op::EXT_INST
            && i.operands.len() == 5
            && glsl.contains(&i.operands[2])
            && matches!(
                i.operands[3],
                GLSL_FIND_I_LSB | GLSL_FIND_S_MSB | GLSL_FIND_U_MSB
            );
        if !search {
            return None;
        }
        let (rt, r, which, mut x) = (i.operands[0], i.operands[1], i.operands[3], i.operands[4]);
        let mut xt = m.type_of(x)?;
        let x_signed = m.int_signedness(xt)?;
        let want = match which {
            GLSL_FIND_S_MSB => true,
            GLSL_FIND_U_MSB => false,
            _ => x_signed,
        };
        if want == x_signed && rt == xt {
            return None;
        }
        let cast_type = (want != x_signed).then(|| m.int_type_like(xt, want));
        // Declaring a type may have moved the search: find it again.
        let mut at = m.position_of(op::EXT_INST, r);
        if let Some(t) = cast_type {
            let cast = m.fresh_id();
            m.insts.insert(
                at,
                Inst {
                    op: op::BITCAST,
                    operands: vec![t, cast, x],
                },
            );
            at += 1;
            (x, xt) = (cast, t);
        }
        m.insts[at].operands[4] = x;
        if rt != xt {
            let inner = m.fresh_id();
            m.insts[at].operands[0] = xt;
            m.insts[at].operands[1] = inner;
            m.insts.insert(
                at + 1,
                Inst {
                    op: op::BITCAST,
                    operands: vec![rt, r, inner],
                },
            );
            at += 1;
        }
        Some(at + 1)
    })
}

/// `OpSNegate` of an unsigned operand → `OpISub` from zero: naga reads it as WGSL's unary
/// minus, which has no `u32` form. Two's complement gives the same bits.
fn negate_unsigned(m: &mut Module, _: &mut Applied) -> bool {
    rewrite_each(m, |m, k| {
        let i = &m.insts[k];
        if i.op != op::S_NEGATE || i.operands.len() != 3 {
            return None;
        }
        let (rt, r, x) = (i.operands[0], i.operands[1], i.operands[2]);
        let xt = m.type_of(x)?;
        if m.int_signedness(xt) != Some(false) {
            return None;
        }
        let zero = m.null_of(xt);
        let at = m.position_of(op::S_NEGATE, r);
        m.insts[at] = Inst {
            op: op::I_SUB,
            operands: vec![rt, r, zero, x],
        };
        Some(at + 1)
    })
}

/// A float constant that is a NaN or an infinity is computed in each function that reads it,
/// as a bitcast of its bits (and a constant composite holding one, as a construct): naga
/// refuses non-finite literals, as WGSL does. The bits are the same; what an implementation
/// does with them is `dxdiff/nan`'s and `dxdiff/non-finite`'s domain, as for any such value.
fn non_finite_constants_computed(m: &mut Module, _: &mut Applied) -> bool {
    use std::collections::{BTreeMap, BTreeSet};
    let floats: BTreeSet<u32> = m
        .insts
        .iter()
        .filter(|i| i.op == op::TYPE_FLOAT && i.operands.get(1) == Some(&32))
        .map(|i| i.operands[0])
        .collect();
    let nans: BTreeMap<u32, (u32, u32)> = m
        .insts
        .iter()
        .filter(|i| {
            i.op == op::CONSTANT && i.operands.len() == 3 && floats.contains(&i.operands[0])
        })
        .filter(|i| !f32::from_bits(i.operands[2]).is_finite())
        .map(|i| (i.operands[1], (i.operands[0], i.operands[2])))
        .collect();
    if nans.is_empty() {
        return false;
    }
    // Composites holding them, at any depth: (type, constituents), in declaration order, so
    // a composite comes after the composites it holds.
    let mut composites: Vec<(u32, (u32, Vec<u32>))> = Vec::new();
    for i in m
        .insts
        .iter()
        .filter(|i| i.op == op::CONSTANT_COMPOSITE && i.operands.len() >= 3)
    {
        let holds = i.operands[2..]
            .iter()
            .any(|c| nans.contains_key(c) || composites.iter().any(|(id, _)| id == c));
        if holds {
            composites.push((i.operands[1], (i.operands[0], i.operands[2..].to_vec())));
        }
    }
    let uint = m.declare(op::TYPE_INT, vec![32, 0]);
    let mut bits_const = BTreeMap::new();
    for &(_, bits) in nans.values() {
        if let std::collections::btree_map::Entry::Vacant(e) = bits_const.entry(bits) {
            let id = m.fresh_id();
            let at = m.first_function();
            m.insts.insert(
                at,
                Inst {
                    op: op::CONSTANT,
                    operands: vec![uint, id, bits],
                },
            );
            e.insert(id);
        }
    }
    let mut changed = false;
    let mut k = 0;
    while k < m.insts.len() {
        if m.insts[k].op != op::FUNCTION {
            k += 1;
            continue;
        }
        let end = (k..m.insts.len())
            .find(|&j| m.insts[j].op == op::FUNCTION_END)
            .unwrap_or(m.insts.len());
        let used: BTreeSet<u32> = m.insts[k..end]
            .iter()
            .flat_map(id_operands)
            .filter(|id| nans.contains_key(id) || composites.iter().any(|(c, _)| c == id))
            .collect();
        if used.is_empty() {
            k = end + 1;
            continue;
        }
        // Definitions go after the first block's label and variables.
        let Some(label) = (k..end).find(|&j| m.insts[j].op == op::LABEL) else {
            k = end + 1;
            continue;
        };
        let mut at = label + 1;
        while at < end && m.insts[at].op == op::VARIABLE {
            at += 1;
        }
        let mut local = BTreeMap::new();
        let mut defs = Vec::new();
        // Everything the used constants hold, down to the NaNs and infinities.
        let mut needed = used.clone();
        for (id, (_, parts)) in composites.iter().rev() {
            if needed.contains(id) {
                needed.extend(parts.iter().copied());
            }
        }
        for &id in needed.iter().filter(|id| nans.contains_key(id)) {
            let (ty, bits) = nans[&id];
            let fresh = m.fresh_id();
            local.insert(id, fresh);
            defs.push(Inst {
                op: op::BITCAST,
                operands: vec![ty, fresh, bits_const[&bits]],
            });
        }
        for (id, (ty, parts)) in composites.iter().filter(|(id, _)| needed.contains(id)) {
            let fresh = m.fresh_id();
            let mut operands = vec![*ty, fresh];
            operands.extend(parts.iter().map(|c| local.get(c).copied().unwrap_or(*c)));
            local.insert(*id, fresh);
            defs.push(Inst {
                op: op::COMPOSITE_CONSTRUCT,
                operands,
            });
        }
        for j in at..end {
            for (pos, w) in m.insts[j].operands.clone().into_iter().enumerate() {
                if is_id_operand(&m.insts[j], pos)
                    && let Some(l) = local.get(&w)
                {
                    m.insts[j].operands[pos] = *l;
                }
            }
        }
        let added = defs.len();
        for (n, d) in defs.into_iter().enumerate() {
            m.insts.insert(at + n, d);
        }
        changed = true;
        k = end + added + 1;
    }
    // naga validates every constant, read or not: the ones no longer read go (composites first,
    // then the NaNs they held). A word that merely equals an id keeps it, to be safe.
    for dead in [
        composites
            .iter()
            .rev()
            .map(|(id, _)| *id)
            .collect::<Vec<_>>(),
        nans.keys().copied().collect(),
    ] {
        for id in dead {
            let read = m.insts.iter().any(|i| {
                let def = has_result_type(i.op) && i.operands.get(1) == Some(&id);
                let named =
                    matches!(i.op, op::NAME | op::DECORATE) && i.operands.first() == Some(&id);
                !def && !named && i.operands.contains(&id)
            });
            if !read {
                m.insts.retain(|i| {
                    let def = has_result_type(i.op) && i.operands.get(1) == Some(&id);
                    let named =
                        matches!(i.op, op::NAME | op::DECORATE) && i.operands.first() == Some(&id);
                    !def && !named
                });
                changed = true;
            }
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn module(insts: &[(u16, &[u32])], bound: u32) -> Vec<u8> {
        write(&Module {
            header: [0x0723_0203, 0x0001_0600, 0, bound, 0],
            insts: insts
                .iter()
                .map(|(op, o)| Inst {
                    op: *op,
                    operands: o.to_vec(),
                })
                .collect(),
        })
    }

    #[test]
    fn local_size_ids_become_literals() {
        let spv = module(
            &[
                (op::TYPE_INT, &[1, 32, 0]),
                (op::CONSTANT, &[1, 2, 8]),
                (op::CONSTANT, &[1, 3, 4]),
                (op::CONSTANT, &[1, 4, 1]),
                (op::EXECUTION_MODE_ID, &[9, MODE_LOCAL_SIZE_ID, 2, 3, 4]),
            ],
            10,
        );
        let (out, applied) = apply(&spv).expect("rewrites");
        let m = parse(&out).expect("parses");
        assert!(m.insts.contains(&Inst {
            op: op::EXECUTION_MODE,
            operands: vec![9, MODE_LOCAL_SIZE, 8, 4, 1]
        }));
        assert_eq!(applied.rewrites, vec!["local-size-literal"]);
    }

    #[test]
    fn doubles_are_refused_and_garbage_is_an_error() {
        let spv = module(&[(op::CAPABILITY, &[CAPABILITY_FLOAT64])], 1);
        assert_eq!(apply(&spv).expect_err("doubles").code(), "spirv.doubles");
        assert_eq!(
            apply(b"garbage!").expect_err("garbage").code(),
            "spirv.malformed"
        );
        let mut overrun = module(&[(op::CAPABILITY, &[1])], 1);
        overrun.truncate(overrun.len() - 4);
        assert_eq!(
            apply(&overrun).expect_err("overrun").code(),
            "spirv.malformed"
        );
    }

    fn insts(spv: &[u8]) -> Vec<Inst> {
        parse(spv).expect("parses").insts
    }

    #[test]
    fn a_nan_constant_is_computed_where_a_function_reads_it() {
        let nan = 0xffff_ffff_u32;
        let spv = module(
            &[
                (op::TYPE_FLOAT, &[1, 32]),
                (op::CONSTANT, &[1, 2, nan]),
                (op::CONSTANT, &[1, 3, 0]),
                (op::FUNCTION, &[4, 5, 0, 6]),
                (op::LABEL, &[7]),
                (op::VARIABLE, &[8, 9, 7]),
                (op::STORE, &[9, 2]),
                (op::FUNCTION_END, &[]),
            ],
            20,
        );
        let (out, applied) = apply(&spv).expect("rewrites");
        assert_eq!(applied.rewrites, vec!["non-finite-constants-computed"]);
        let i = insts(&out);
        // The NaN constant is gone; a uint constant of its bits and a bitcast replace it.
        assert!(!i.iter().any(|x| x.op == op::CONSTANT && x.operands[1] == 2));
        let bits = i
            .iter()
            .find(|x| x.op == op::CONSTANT && x.operands[2] == nan)
            .expect("bits")
            .operands[1];
        let cast = i.iter().position(|x| x.op == op::BITCAST).expect("bitcast");
        assert_eq!(i[cast].operands[0], 1);
        assert_eq!(i[cast].operands[2], bits);
        // After the variables, before the store, which now reads it.
        let var = i.iter().position(|x| x.op == op::VARIABLE).expect("var");
        let store = i.iter().position(|x| x.op == op::STORE).expect("store");
        assert!(var < cast && cast < store);
        assert_eq!(i[store].operands, vec![9, i[cast].operands[1]]);
    }

    #[test]
    fn a_nan_inside_nested_composites_is_computed_with_them() {
        let nan = 0x7fc0_0000_u32;
        let spv = module(
            &[
                (op::TYPE_FLOAT, &[1, 32]),
                (op::TYPE_VECTOR, &[2, 1, 2]),
                (30, &[5, 2, 2]),
                (op::CONSTANT, &[1, 3, nan]),
                (op::CONSTANT_COMPOSITE, &[2, 4, 3, 3]),
                (op::CONSTANT_COMPOSITE, &[5, 6, 4, 4]),
                (op::FUNCTION, &[7, 8, 0, 10]),
                (op::LABEL, &[11]),
                (op::STORE, &[9, 6]),
                (op::FUNCTION_END, &[]),
            ],
            20,
        );
        let (out, _) = apply(&spv).expect("rewrites");
        let i = insts(&out);
        assert!(!i.iter().any(|x| x.op == op::CONSTANT_COMPOSITE));
        let built: Vec<&Inst> = i
            .iter()
            .filter(|x| x.op == op::COMPOSITE_CONSTRUCT)
            .collect();
        assert_eq!(built.len(), 2, "{i:?}");
        // The inner vector first, then the struct of it, which the store reads.
        assert_eq!(built[0].operands[0], 2);
        assert_eq!(built[1].operands[0], 5);
        assert_eq!(built[1].operands[2..], [built[0].operands[1]; 2]);
        let store = i.iter().find(|x| x.op == op::STORE).expect("store");
        assert_eq!(store.operands[1], built[1].operands[1]);
    }

    #[test]
    fn negating_an_unsigned_value_subtracts_it_from_zero() {
        let spv = module(
            &[
                (op::TYPE_INT, &[1, 32, 0]),
                (op::CONSTANT, &[1, 2, 5]),
                (op::FUNCTION, &[3, 4, 0, 5]),
                (op::LABEL, &[6]),
                (op::S_NEGATE, &[1, 7, 2]),
                (op::FUNCTION_END, &[]),
            ],
            10,
        );
        let (out, _) = apply(&spv).expect("rewrites");
        let i = insts(&out);
        let sub = i.iter().find(|x| x.op == op::I_SUB).expect("isub");
        let zero = i
            .iter()
            .find(|x| x.op == op::CONSTANT_NULL)
            .expect("null")
            .operands
            .clone();
        assert_eq!(zero[0], 1);
        assert_eq!(sub.operands, vec![1, 7, zero[1], 2]);
    }

    #[test]
    fn an_unsigned_msb_search_of_a_signed_value_is_cast_both_ways() {
        let import: Vec<u32> = std::iter::once(9)
            .chain(super::super::words::string_words("GLSL.std.450"))
            .collect();
        let spv = module(
            &[
                (op::EXT_INST_IMPORT, &import),
                (op::TYPE_INT, &[1, 32, 1]),
                (op::TYPE_INT, &[2, 32, 0]),
                (op::CONSTANT, &[1, 3, 7]),
                (op::FUNCTION, &[4, 5, 0, 6]),
                (op::LABEL, &[7]),
                // uint r = FindUMsb(int 3): naga would search it as signed.
                (op::EXT_INST, &[2, 8, 9, GLSL_FIND_U_MSB, 3]),
                (op::FUNCTION_END, &[]),
            ],
            20,
        );
        let (out, applied) = apply(&spv).expect("rewrites");
        assert!(applied.rewrites.contains(&"bit-search-signedness"));
        let i = insts(&out);
        let ext = i.iter().position(|x| x.op == op::EXT_INST).expect("search");
        let before = &i[ext - 1];
        assert_eq!(before.op, op::BITCAST);
        assert_eq!(before.operands[0], 2);
        assert_eq!(before.operands[2], 3);
        // The search is typed as its (now unsigned) operand, and r keeps its id.
        assert_eq!(i[ext].operands[0], 2);
        assert_eq!(i[ext].operands[4], before.operands[1]);
        assert!(!i.iter().any(|x| x.op == op::BITCAST && x.operands[1] == 8));
        assert_eq!(i[ext].operands[1], 8);
    }

    #[test]
    fn base_vertex_reads_zero_and_leaves_the_module() {
        let spv = module(
            &[
                (op::CAPABILITY, &[CAPABILITY_DRAW_PARAMETERS]),
                (op::ENTRY_POINT, &[0, 6, 0x6e69_616d, 0, 10, 11]),
                (op::DECORATE, &[10, DECORATION_BUILTIN, BUILTIN_BASE_VERTEX]),
                (op::TYPE_INT, &[1, 32, 1]),
                (op::TYPE_POINTER, &[2, STORAGE_CLASS_INPUT, 1]),
                (op::VARIABLE, &[2, 10, STORAGE_CLASS_INPUT]),
                (op::VARIABLE, &[2, 11, STORAGE_CLASS_INPUT]),
                (op::FUNCTION, &[3, 6, 0, 4]),
                (op::LABEL, &[5]),
                (op::LOAD, &[1, 12, 10]),
                (op::FUNCTION_END, &[]),
            ],
            20,
        );
        let (out, _) = apply(&spv).expect("rewrites");
        let i = insts(&out);
        assert!(!i.iter().any(|x| x.op == op::CAPABILITY));
        assert!(
            !i.iter()
                .any(|x| x.op == op::VARIABLE && x.operands[1] == 10)
        );
        let ep = i.iter().find(|x| x.op == op::ENTRY_POINT).expect("ep");
        assert_eq!(ep.operands, vec![0, 6, 0x6e69_616d, 0, 11]);
        let copy = i.iter().find(|x| x.op == op::COPY_OBJECT).expect("copy");
        let null = i.iter().find(|x| x.op == op::CONSTANT_NULL).expect("null");
        assert_eq!(copy.operands, vec![1, 12, null.operands[1]]);
    }

    #[test]
    fn write_only_buffers_readable_workgroups_uninitialised_demote_killed() {
        let spv = module(
            &[
                (op::CAPABILITY, &[CAPABILITY_DEMOTE]),
                (op::DECORATE, &[10, DECORATION_NON_READABLE]),
                (op::DECORATE, &[11, DECORATION_NON_READABLE]),
                (op::VARIABLE, &[2, 10, STORAGE_CLASS_STORAGE_BUFFER]),
                (op::VARIABLE, &[3, 11, 0]),
                (op::VARIABLE, &[4, 12, STORAGE_CLASS_WORKGROUP, 13]),
                (op::FUNCTION, &[5, 6, 0, 7]),
                (op::LABEL, &[8]),
                (op::DEMOTE_TO_HELPER, &[]),
                (op::STORE, &[10, 13]),
                (op::RETURN, &[]),
                (op::FUNCTION_END, &[]),
            ],
            20,
        );
        let (out, applied) = apply(&spv).expect("rewrites");
        assert_eq!(
            applied.rewrites,
            vec![
                "storage-buffer-readable",
                "workgroup-no-initializer",
                "demote-as-kill"
            ]
        );
        let i = insts(&out);
        // The buffer's decoration goes; the image's (storage class 0 here) stays.
        assert!(
            !i.iter()
                .any(|x| x.op == op::DECORATE && x.operands[0] == 10)
        );
        assert!(
            i.iter()
                .any(|x| x.op == op::DECORATE && x.operands[0] == 11)
        );
        let wg = i
            .iter()
            .find(|x| x.op == op::VARIABLE && x.operands[1] == 12)
            .expect("workgroup");
        assert_eq!(wg.operands.len(), 3);
        // The kill ends the block: the store after the demote goes with the rest.
        let kill = i.iter().position(|x| x.op == op::KILL).expect("kill");
        assert_eq!(i[kill + 1].op, op::FUNCTION_END);
        assert!(!i.iter().any(|x| x.op == op::STORE));
        assert!(!i.iter().any(|x| x.op == op::CAPABILITY));
    }

    #[test]
    fn packed_inputs_move_to_fresh_locations() {
        let spv = module(
            &[
                (op::TYPE_POINTER, &[5, STORAGE_CLASS_INPUT, 6]),
                (op::VARIABLE, &[5, 10, STORAGE_CLASS_INPUT]),
                (op::VARIABLE, &[5, 11, STORAGE_CLASS_INPUT]),
                (op::VARIABLE, &[5, 12, STORAGE_CLASS_INPUT]),
                (op::DECORATE, &[10, DECORATION_LOCATION, 1]),
                (op::DECORATE, &[11, DECORATION_LOCATION, 1]),
                (op::DECORATE, &[11, DECORATION_COMPONENT, 2]),
                (op::DECORATE, &[12, DECORATION_LOCATION, 3]),
            ],
            20,
        );
        let (out, applied) = apply(&spv).expect("rewrites");
        assert_eq!(
            applied.relocated,
            vec![Relocated {
                output: false,
                location: 4,
                register: 1,
                component: 2
            }]
        );
        let m = parse(&out).expect("parses");
        assert!(m.insts.contains(&Inst {
            op: op::DECORATE,
            operands: vec![11, DECORATION_LOCATION, 4]
        }));
    }
}
