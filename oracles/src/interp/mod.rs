//! The reference interpreter: runs a decoded DXBC program with Direct3D 11 semantics over a batch
//! of invocations at once (one instruction across all lanes, then the next), which is what makes
//! it fast enough to judge millions of input vectors.
//!
//! Pixel and vertex programs run one lane per invocation; compute programs run one batch per
//! thread group, so all invocations of a group advance together across `sync` barriers.

mod constants;
mod contracted;
mod contraction;
mod exec;
pub mod findings;
mod flow;
mod folding;
mod linkage;
mod machine;
pub mod mask;
mod memory;
mod nan;
mod quads;
mod race;
mod ranges;
pub mod resources;
mod taint;
mod textures;
mod tracked;
mod zero_sign;

use std::collections::BTreeMap;

use dxbc::{Opcode, OperandType, Program};

pub use findings::{Finding, FindingKind};
pub use machine::ThreadIds;
use machine::{Machine, RegFile};
use mask::Mask;
pub use nan::{frees_nan, frees_nan_inst};
pub use resources::{
    Address, Buffer, Compare, Format, Resources, Sampler, Srv, TexelFormat, TexelKind, Texture2d,
    TextureShape, UavTexture,
};

use crate::domain::Events;

/// Why a program could not be run to completion.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InterpError {
    /// A legal program uses something the interpreter does not model.
    #[error("instruction {index}: unsupported: {what}")]
    Unsupported {
        /// Index of the offending instruction.
        index: usize,
        /// What is missing, in words.
        what: String,
    },
    /// The program breaks a structural rule (e.g. `endif` without `if`).
    #[error("instruction {index}: malformed program: {what}")]
    Malformed {
        /// Index of the offending instruction.
        index: usize,
        /// What is wrong, in words.
        what: String,
    },
    /// The instruction budget ran out: the result is inconclusive, not wrong.
    #[error("instruction budget exhausted after {executed} instructions (inconclusive)")]
    BudgetExceeded {
        /// Instructions executed before stopping.
        executed: u64,
    },
}

impl InterpError {
    /// A stable code for reports.
    pub fn code(&self) -> &'static str {
        match self {
            InterpError::Unsupported { .. } => "interp.unsupported",
            InterpError::Malformed { .. } => "interp.malformed",
            InterpError::BudgetExceeded { .. } => "interp.budget",
        }
    }
}

/// How a buffer declaration views its memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViewKind {
    /// `ByteAddressBuffer`-style: addressed in bytes.
    Raw,
    /// Structured: addressed by element index and byte offset; holds the stride in bytes.
    Structured(u32),
    /// Typed: one formatted element per index.
    Typed,
}

/// Default instruction budget per batch: enough for any terminating test program, small enough
/// that a runaway loop ends in well under a second.
pub const DEFAULT_BUDGET: u64 = 1 << 22;

/// The results of a pixel/vertex run, stored flat (one allocation per field, not per lane).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BatchResult {
    /// Output registers per lane.
    pub outputs_per_lane: usize,
    /// `o#` of every lane: lane `l`'s register `r` is `outputs[l * outputs_per_lane + r]`.
    pub outputs: Vec<[u32; 4]>,
    /// Per lane: the invocation executed `discard` (pixel only).
    pub discarded: Vec<bool>,
    /// The catalog domains each lane entered.
    pub events: Vec<Events>,
    /// The instruction budget ran out before the lane finished.
    pub inconclusive: Vec<bool>,
    /// Where the program relies on undefined behaviour (at most [`findings::MAX_FINDINGS`]).
    pub findings: Vec<Finding>,
    /// Parallel to `outputs`: the word's bits are free where its value is not. A NaN that a
    /// payload-freeing op produced ([`frees_nan`]): any NaN is as right as this one. Or a
    /// zero whose sign a translation need not keep (`zero_sign`): the other zero is allowed
    /// under `dxdiff/signed-zero` ([`crate::verdict::Judge::word_free`]).
    pub free_nan: Vec<[bool; 4]>,
}

impl BatchResult {
    /// Number of lanes (invocations) in the result.
    pub fn lanes(&self) -> usize {
        self.events.len()
    }

    /// The output registers of lane `l`.
    pub fn outputs_of(&self, l: usize) -> &[[u32; 4]] {
        let n = self.outputs_per_lane;
        self.outputs.get(l * n..(l + 1) * n).unwrap_or(&[])
    }

    fn append(&mut self, other: BatchResult) {
        // A thread that got no batches returns an empty result, which says nothing about the
        // output count (found on a 16-core machine).
        if other.lanes() > 0 {
            self.outputs_per_lane = other.outputs_per_lane;
        }
        self.outputs.extend(other.outputs);
        self.discarded.extend(other.discarded);
        self.events.extend(other.events);
        self.inconclusive.extend(other.inconclusive);
        findings::merge(&mut self.findings, other.findings);
        self.free_nan.extend(other.free_nan);
    }
}

/// The result of a compute dispatch: UAV contents end up in the `Resources` passed in.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DispatchResult {
    /// Events of every invocation, OR-ed together per thread group.
    pub events: Events,
    /// Thread groups run.
    pub groups: u32,
    /// Where the program relies on undefined behaviour (at most [`findings::MAX_FINDINGS`]).
    pub findings: Vec<Finding>,
    /// Per UAV slot, parallel to that UAV's words: the word's bits are free, as in
    /// [`BatchResult::free_nan`].
    pub free_nan: BTreeMap<u32, Vec<bool>>,
}

/// Facts read from declarations once per program.
struct Layout {
    temps: usize,
    indexable: Vec<Option<(usize, usize)>>,
    inputs: usize,
    outputs: usize,
    icb: Vec<u32>,
    views: BTreeMap<(OperandType, u32), ViewKind>,
    tgsm: BTreeMap<u32, u32>,
    thread_group: [u32; 3],
    /// The temp components each instruction reads as compile-time constants.
    consts: std::sync::Arc<constants::Constants>,
    /// The `add`s that read a product a compiler may contract.
    contractions: std::sync::Arc<contraction::Contractions>,
    /// `dcl_indexrange`s of `v#` and `o#`.
    index_ranges: Vec<tracked::IndexRange>,
    /// A vertex program declares an output component that no instruction writes: D3D leaves
    /// it undefined (FS §4.4), so every invocation enters `d3d-undefined`.
    unwritten_outputs: bool,
}

fn layout(program: &Program) -> Layout {
    let mut l = Layout {
        temps: 0,
        indexable: Vec::new(),
        inputs: 0,
        outputs: 0,
        icb: Vec::new(),
        views: BTreeMap::new(),
        tgsm: BTreeMap::new(),
        thread_group: [1, 1, 1],
        consts: Default::default(),
        contractions: std::sync::Arc::new(contraction::contractions(program)),
        index_ranges: ranges::index_ranges(program),
        unwritten_outputs: unwritten_vertex_outputs(program),
    };
    let slot = |inst: &dxbc::Instruction| {
        inst.operands
            .first()
            .and_then(|o| o.indices.first())
            .and_then(dxbc::Index::immediate)
            .unwrap_or(0) as u32
    };
    for inst in &program.instructions {
        match inst.opcode {
            Opcode::DclTemps => l.temps = inst.temps_count().unwrap_or(0) as usize,
            Opcode::DclIndexableTemp => {
                if let Some((id, len, comps)) = inst.indexable_temp() {
                    let id = id as usize;
                    if l.indexable.len() <= id {
                        l.indexable.resize(id + 1, None);
                    }
                    l.indexable[id] = Some((len as usize, comps as usize));
                }
            }
            Opcode::Customdata => {
                if let Some(icb) = inst.icb() {
                    l.icb = icb.to_vec();
                }
            }
            Opcode::DclResourceStructured
            | Opcode::DclUavStructured
            | Opcode::DclTgsmStructured => {
                let ty = inst.operands.first().map_or(OperandType::Null, |o| o.ty);
                let stride = inst.structure_stride().unwrap_or(4);
                l.views
                    .insert((ty, slot(inst)), ViewKind::Structured(stride));
                if inst.opcode == Opcode::DclTgsmStructured {
                    let bytes = inst.tgsm_bytes().unwrap_or(0);
                    l.tgsm
                        .insert(slot(inst), u32::try_from(bytes).unwrap_or(u32::MAX));
                }
            }
            Opcode::DclResourceRaw | Opcode::DclUavRaw | Opcode::DclTgsmRaw => {
                let ty = inst.operands.first().map_or(OperandType::Null, |o| o.ty);
                l.views.insert((ty, slot(inst)), ViewKind::Raw);
                if inst.opcode == Opcode::DclTgsmRaw {
                    // One payload word, so the byte count fits a u32.
                    l.tgsm
                        .insert(slot(inst), inst.tgsm_bytes().map_or(0, |b| b as u32));
                }
            }
            Opcode::DclUavTyped | Opcode::DclResource => {
                let ty = inst.operands.first().map_or(OperandType::Null, |o| o.ty);
                l.views.insert((ty, slot(inst)), ViewKind::Typed);
            }
            Opcode::DclThreadGroup => {
                if let Some(group) = inst.thread_group() {
                    l.thread_group = group;
                }
            }
            _ => {}
        }
    }
    // Register files are sized by the highest register any operand names.
    let counts = program.register_counts();
    l.temps = l.temps.max(counts.temps as usize);
    l.inputs = counts.inputs as usize;
    l.outputs = counts.outputs as usize;
    l.consts = std::sync::Arc::new(constants::constant_temps(
        program,
        l.temps,
        &l.icb,
        l.thread_group,
    ));
    l
}

/// Whether a vertex program declares an `o#` component that no instruction names as a
/// destination. A relatively indexed output write (`o[r0.x + n]`) counts as writing every
/// declared output, so only a component that is plainly never written counts.
fn unwritten_vertex_outputs(program: &Program) -> bool {
    if program.version.stage != dxbc::Stage::Vertex {
        return false;
    }
    let mut declared: BTreeMap<u32, u8> = BTreeMap::new();
    let mut written: BTreeMap<u32, u8> = BTreeMap::new();
    for inst in &program.instructions {
        let is_dcl = inst.opcode.info().kind == dxbc::opcodes::Kind::Declaration;
        let dsts = if is_dcl { 1 } else { inst.info().dst as usize };
        for o in inst.operands.iter().take(dsts) {
            if o.ty != OperandType::Output {
                continue;
            }
            let mask = o.write_mask();
            match o.indices.first().and_then(dxbc::Index::immediate) {
                Some(r) if is_dcl => *declared.entry(r as u32).or_default() |= mask,
                Some(r) => *written.entry(r as u32).or_default() |= mask,
                None if !is_dcl => return false,
                None => {}
            }
        }
    }
    declared
        .iter()
        .any(|(r, m)| m & !written.get(r).copied().unwrap_or(0) != 0)
}

fn machine<'a>(
    program: &'a Program,
    l: &Layout,
    lanes: usize,
    res: &'a mut Resources,
) -> Result<Machine<'a>, InterpError> {
    // SM 5.1 operands name a range, a register in it and a row; the interpreter addresses
    // SM 4-5.0 files only, so it refuses rather than read the wrong register.
    if program.version.is_sm51() {
        return Err(InterpError::Unsupported {
            index: 0,
            what: "Shader Model 5.1 register ranges".into(),
        });
    }
    Ok(Machine {
        program,
        structure: flow::Structure::analyze(&program.instructions)?,
        lanes,
        temps: RegFile::new(l.temps, lanes),
        indexable: l
            .indexable
            .iter()
            .map(|x| x.map(|(count, _)| RegFile::new(count, lanes)))
            .collect(),
        inputs: RegFile::new(l.inputs, lanes),
        outputs: RegFile::new(l.outputs, lanes),
        ids: vec![ThreadIds::default(); lanes],
        res,
        tgsm: resources::Tgsm::default(),
        active: Mask::all(lanes),
        alive: Mask::all(lanes),
        discarded: Mask::none(lanes),
        frames: Vec::new(),
        events: vec![0; lanes],
        scratch_ev: vec![0; lanes],
        icb: l.icb.clone(),
        pool: Some(machine::Pool::new(lanes)),
        views: l.views.clone(),
        executed: 0,
        uav_stores: std::collections::HashMap::new(),
        counter_users: std::collections::BTreeMap::new(),
        taint: tracked::Taint::new(l.temps, l.outputs, lanes),
        findings: Vec::new(),
        races: tracked::Races::new(program.version.stage == dxbc::Stage::Compute),
        group: 0,
        index_ranges: l.index_ranges.clone(),
        consts: l.consts.clone(),
        contractions: l.contractions.clone(),
        free_nan: tracked::FreeNan::new(l.temps, l.outputs, lanes),
        free_sign: tracked::FreeSign::new(l.temps, l.outputs, lanes),
        nan_check: 0xf,
    })
}

/// Lanes per batch: the register files of a batch stay in cache while each instruction sweeps
/// them.
pub const BATCH_LANES: usize = 1024;

/// Run a pixel or vertex program: one lane per entry of `inputs` (each a list of `v#` registers).
///
/// Inputs are cut into batches of [`BATCH_LANES`]; batches run on all cores unless the program
/// writes UAVs (whose results would then depend on the order). The budget counts instructions
/// per batch; when a batch exhausts it, its unfinished lanes are marked inconclusive and
/// everything finished is kept.
pub fn run_invocations<L: AsRef<[[u32; 4]]> + Sync>(
    program: &Program,
    res: &mut Resources,
    inputs: &[L],
    budget: u64,
) -> Result<BatchResult, InterpError> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    run_invocations_on(program, res, inputs, budget, cores)
}

/// [`run_invocations`] on at most `threads` threads.
pub fn run_invocations_on<L: AsRef<[[u32; 4]]> + Sync>(
    program: &Program,
    res: &mut Resources,
    inputs: &[L],
    budget: u64,
    threads: usize,
) -> Result<BatchResult, InterpError> {
    match program.version.stage {
        dxbc::Stage::Pixel | dxbc::Stage::Vertex => {}
        other => {
            return Err(InterpError::Unsupported {
                index: 0,
                what: format!("{other:?} programs"),
            });
        }
    }
    let l = layout(program);
    flow::Structure::analyze(&program.instructions)?;
    let writes_uavs = program.instructions.iter().any(|i| {
        matches!(
            i.opcode,
            Opcode::DclUavTyped | Opcode::DclUavRaw | Opcode::DclUavStructured
        )
    });
    let chunks: Vec<&[L]> = inputs.chunks(BATCH_LANES).collect();
    let threads = threads.max(1).min(chunks.len());
    let mut results: Vec<Result<BatchResult, InterpError>> = Vec::with_capacity(chunks.len());
    if writes_uavs || threads <= 1 {
        results.push(run_batches(program, &l, res, &chunks, budget));
    } else {
        let shared: &Resources = res;
        let per_thread: Vec<Vec<(usize, Result<BatchResult, InterpError>)>> =
            std::thread::scope(|scope| {
                let handles: Vec<_> = (0..threads)
                    .map(|t| {
                        let chunks = &chunks;
                        let l = &l;
                        // Thread t takes a contiguous share of the batches, so results concatenate.
                        scope.spawn(move || {
                            let mut local = shared.clone();
                            let per = chunks.len().div_ceil(threads);
                            let mine = &chunks
                                [(t * per).min(chunks.len())..((t + 1) * per).min(chunks.len())];
                            vec![(t, run_batches(program, l, &mut local, mine, budget))]
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| {
                        h.join().unwrap_or_else(|_| {
                            vec![(
                                usize::MAX,
                                Err(InterpError::Malformed {
                                    index: 0,
                                    what: "an interpreter thread panicked".into(),
                                }),
                            )]
                        })
                    })
                    .collect()
            });
        let mut ordered: Vec<(usize, Result<BatchResult, InterpError>)> =
            per_thread.into_iter().flatten().collect();
        ordered.sort_by_key(|(i, _)| *i);
        results.extend(ordered.into_iter().map(|(_, r)| r));
    }
    let mut all = BatchResult::default();
    for r in results {
        all.append(r?);
    }
    Ok(all)
}

/// Batches of pixel/vertex invocations, run one after another on one machine (its register
/// files are allocated once and cleared between batches).
fn run_batches<L: AsRef<[[u32; 4]]>>(
    program: &Program,
    l: &Layout,
    res: &mut Resources,
    batches: &[&[L]],
    budget: u64,
) -> Result<BatchResult, InterpError> {
    let mut all = BatchResult::default();
    let Some(first) = batches.first() else {
        return Ok(all);
    };
    // All batches but the last have the same size and share one machine.
    let same = batches
        .iter()
        .take_while(|b| b.len() == first.len())
        .count();
    {
        let mut m = machine(program, l, first.len(), res)?;
        for (i, inputs) in batches[..same].iter().enumerate() {
            if i > 0 {
                m.reset();
            }
            all.append(run_one(&mut m, l, inputs, budget)?);
        }
    }
    for inputs in &batches[same..] {
        let mut m = machine(program, l, inputs.len(), res)?;
        all.append(run_one(&mut m, l, inputs, budget)?);
    }
    Ok(all)
}

fn run_one<L: AsRef<[[u32; 4]]>>(
    m: &mut Machine<'_>,
    l: &Layout,
    inputs: &[L],
    budget: u64,
) -> Result<BatchResult, InterpError> {
    let lanes = inputs.len();
    for (lane, regs) in inputs.iter().enumerate() {
        for (r, v) in regs.as_ref().iter().enumerate().take(l.inputs) {
            for (c, w) in v.iter().enumerate() {
                m.inputs.set(r, c, lane, *w);
            }
        }
    }
    let unfinished = match m.run(budget) {
        Ok(()) => Mask::none(lanes),
        Err(InterpError::BudgetExceeded { .. }) => m.alive.clone(),
        Err(e) => return Err(e),
    };
    if l.unwritten_outputs {
        for e in &mut m.events {
            *e |= crate::domain::Domain::D3dUndefined.bit();
        }
    }
    let mut outputs = Vec::with_capacity(lanes * l.outputs);
    let mut free_nan = Vec::with_capacity(lanes * l.outputs);
    for lane in 0..lanes {
        for r in 0..l.outputs {
            outputs.push(std::array::from_fn(|c| {
                m.outputs.get(r, c, lane).unwrap_or(0)
            }));
            free_nan.push(std::array::from_fn(|c| {
                m.free_nan.output(r, c, lane) || m.free_sign.output(r, c, lane)
            }));
        }
    }
    Ok(BatchResult {
        outputs_per_lane: l.outputs,
        outputs,
        discarded: (0..lanes).map(|i| m.discarded.get(i)).collect(),
        events: m.events.clone(),
        inconclusive: (0..lanes).map(|i| unfinished.get(i)).collect(),
        findings: std::mem::take(&mut m.findings),
        free_nan,
    })
}

/// Run a compute program over `groups` thread groups; UAVs in `res` are updated in place.
/// Groups run one after another (a serial order D3D allows); each is one batch. `budget`
/// bounds the instructions of the whole dispatch (each counted once per group).
pub fn run_dispatch(
    program: &Program,
    res: &mut Resources,
    groups: [u32; 3],
    budget: u64,
) -> Result<DispatchResult, InterpError> {
    if program.version.stage != dxbc::Stage::Compute {
        return Err(InterpError::Unsupported {
            index: 0,
            what: format!("{:?} program in a dispatch", program.version.stage),
        });
    }
    let l = layout(program);
    let [tx, ty, tz] = l.thread_group;
    let lanes = (tx as usize) * (ty as usize) * (tz as usize);
    if lanes == 0 || lanes > 1024 {
        return Err(InterpError::Malformed {
            index: 0,
            what: format!("thread group of {lanes} invocations"),
        });
    }
    // The budget covers the whole dispatch: every group executes at least its `ret`, so more
    // groups than the budget can never finish (a legal 65535^3 dispatch would otherwise run
    // for days), and each group gets what the earlier ones left.
    let total = u64::from(groups[0]) * u64::from(groups[1]) * u64::from(groups[2]);
    if total > budget {
        return Err(InterpError::BudgetExceeded { executed: budget });
    }
    let mut left = budget;
    let mut result = DispatchResult::default();
    // Plain UAV stores of the whole dispatch: groups are never ordered against each other.
    let mut uav_stores = std::collections::HashMap::new();
    // Hidden counters' users, across the groups of the dispatch likewise.
    let mut counter_users = std::collections::BTreeMap::new();
    // UAV words holding a freed NaN, carried from group to group like the UAVs themselves.
    let mut nan_words = std::collections::HashSet::new();
    // And words holding a zero of free sign.
    let mut sign_words = std::collections::HashSet::new();
    for gz in 0..groups[2] {
        for gy in 0..groups[1] {
            for gx in 0..groups[0] {
                let mut m = machine(program, &l, lanes, res)?;
                for (&slot, &bytes) in &l.tgsm {
                    m.tgsm.regions.insert(
                        slot,
                        Buffer {
                            words: vec![0; bytes.div_ceil(4) as usize],
                            size_bytes: bytes,
                            format: None,
                            texture: None,
                        },
                    );
                }
                for lane in 0..lanes {
                    let x = (lane as u32) % tx;
                    let y = (lane as u32 / tx) % ty;
                    let z = lane as u32 / (tx * ty);
                    m.ids[lane] = ThreadIds {
                        thread: [gx * tx + x, gy * ty + y, gz * tz + z],
                        group: [gx, gy, gz],
                        in_group: [x, y, z],
                        flattened: lane as u32,
                    };
                }
                m.group = result.groups;
                m.uav_stores = std::mem::take(&mut uav_stores);
                m.counter_users = std::mem::take(&mut counter_users);
                m.free_nan.on = !nan_words.is_empty();
                m.free_nan.memory = std::mem::take(&mut nan_words);
                m.free_sign.on = !sign_words.is_empty();
                m.free_sign.memory = std::mem::take(&mut sign_words);
                m.run(left).map_err(|e| match e {
                    InterpError::BudgetExceeded { .. } => {
                        InterpError::BudgetExceeded { executed: budget }
                    }
                    other => other,
                })?;
                left = left.saturating_sub(m.executed);
                uav_stores = std::mem::take(&mut m.uav_stores);
                counter_users = std::mem::take(&mut m.counter_users);
                nan_words = std::mem::take(&mut m.free_nan.memory);
                nan_words.retain(|(space, _)| matches!(space, tracked::Space::Uav(_)));
                sign_words = std::mem::take(&mut m.free_sign.memory);
                sign_words.retain(|(space, _)| matches!(space, tracked::Space::Uav(_)));
                result.events |= m.events.iter().fold(0, |a, e| a | e);
                findings::merge(&mut result.findings, std::mem::take(&mut m.findings));
                result.groups += 1;
            }
        }
    }
    for (&slot, buf) in &res.uavs {
        let mut flags = vec![false; buf.words.len()];
        for (space, word) in nan_words.iter().chain(&sign_words) {
            if *space == tracked::Space::Uav(slot)
                && let Some(f) = flags.get_mut(*word as usize)
            {
                *f = true;
            }
        }
        result.free_nan.insert(slot, flags);
    }
    Ok(result)
}
