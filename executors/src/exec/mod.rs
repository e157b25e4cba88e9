//! The executor role: something that runs one program over many input vectors and returns raw
//! 32-bit result words. The reference interpreter ([`interp::Interpreter`]) and the GPU
//! ([`crate::gpu::executor::GpuExecutor`]) are the two implementations; a new one (a render
//! pipeline, a browser) is one more type behind [`Executor`], and every command that compares
//! results (the harness's `driver`) runs on it unchanged.
//!
//! The data crosses the trait in flat arrays, not one allocation per vector: a default
//! `verify` run moves millions of vectors.

pub mod interp;

use std::any::Any;
use std::collections::BTreeMap;
use std::sync::Arc;

use oracles::domain::Events;
use oracles::interp::Resources;
use oracles::verdict::{Inconclusive, Skip};
use translator::Translation;

/// A program ready to be run: its container, decoded form and, for executors that run WGSL,
/// its translation.
#[derive(Debug, Clone, Copy)]
pub struct Unit<'a> {
    /// The program's name in reports and counterexamples.
    pub name: &'a str,
    /// The DXBC container.
    pub blob: &'a [u8],
    /// The parsed container.
    pub shader: &'a dxbc::Shader,
    /// The translator's output; `None` for executors that run the DXBC itself.
    pub translation: Option<&'a Translation>,
}

/// What an executor made of a [`Unit`] once, for every later run (a compiled kernel, a
/// wrapped module); opaque to everyone but that executor.
pub struct Prepared(pub Box<dyn Any + Send>);

impl std::fmt::Debug for Prepared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Prepared")
    }
}

/// Input vectors of one program, all of one shape.
///
/// A pixel or vertex vector is `invocations` invocations, each with `regs` input registers,
/// stored flat in [`Batch::regs`]; a compute vector is one dispatch of [`Batch::groups`].
/// Every vector has its resources (constant buffers, SRVs, UAVs, samplers): one shared set,
/// or one per vector.
#[derive(Debug, Clone, Default)]
pub struct Batch {
    /// How many input vectors.
    pub vectors: usize,
    /// Invocations per vector (1 for a single lane).
    pub invocations: usize,
    /// Input registers per invocation.
    pub regs: usize,
    /// `v#` registers: vector-major, then invocation, then register.
    pub inputs: Vec<[u32; 4]>,
    /// One set shared by every vector, or one per vector.
    pub resources: Vec<Arc<Resources>>,
    /// Thread groups of a compute vector's dispatch (x, y, z).
    pub groups: [u32; 3],
}

impl Batch {
    /// Pixel/vertex vectors of one invocation each, sharing `resources`.
    pub fn lanes(regs: usize, inputs: Vec<[u32; 4]>, resources: Resources) -> Batch {
        let vectors = inputs.len().checked_div(regs).unwrap_or(inputs.len());
        Batch {
            vectors,
            invocations: 1,
            regs,
            inputs,
            resources: vec![Arc::new(resources)],
            groups: [1, 1, 1],
        }
    }

    /// The input registers of invocation `i` of vector `k`.
    pub fn invocation(&self, k: usize, i: usize) -> &[[u32; 4]] {
        let at = (k * self.invocations + i) * self.regs;
        self.inputs.get(at..at + self.regs).unwrap_or(&[])
    }

    /// The resources of vector `k`.
    pub fn resources_of(&self, k: usize) -> &Arc<Resources> {
        let shared = &self.resources[0];
        if self.resources.len() == 1 {
            shared
        } else {
            self.resources.get(k).unwrap_or(shared)
        }
    }

    /// Whether every vector shares one set of resources.
    pub fn shared_resources(&self) -> bool {
        self.resources.len() <= 1
    }

    /// The quad of vector `k` (vectors `4q..4q + 3` of a batch of one invocation per vector,
    /// fewer at its end) as one vector of that many invocations, which both executors run as
    /// one quad: a program that needs quads reads its neighbours, so a vector alone is not
    /// the input that failed.
    pub fn quad(&self, k: usize) -> Batch {
        let q = k / 4 * 4;
        let members: Vec<usize> = (q..(q + 4).min(self.vectors)).collect();
        let mut b = self.select(&members);
        // Vector-major with one invocation each is the order of one vector's invocations.
        b.vectors = 1;
        b.invocations = members.len() * self.invocations;
        b.resources = vec![self.resources_of(q).clone()];
        b
    }

    /// The vectors at `keep`, in that order.
    pub fn select(&self, keep: &[usize]) -> Batch {
        let per = self.invocations * self.regs;
        let mut inputs = Vec::with_capacity(keep.len() * per);
        for &k in keep {
            inputs.extend_from_slice(self.inputs.get(k * per..(k + 1) * per).unwrap_or(&[]));
        }
        Batch {
            vectors: keep.len(),
            invocations: self.invocations,
            regs: self.regs,
            inputs,
            resources: if self.shared_resources() {
                self.resources.clone()
            } else {
                keep.iter().map(|k| self.resources_of(*k).clone()).collect()
            },
            groups: self.groups,
        }
    }
}

/// What an executor observed for a batch, in the batch's order.
#[derive(Debug, Clone, Default)]
pub struct Results {
    /// How many vectors, as in the batch.
    pub vectors: usize,
    /// Invocations per vector, as in the batch.
    pub invocations: usize,
    /// Per vector: why it has no results, when it has none.
    pub missing: Vec<Option<Inconclusive>>,
    /// Output registers per invocation.
    pub outputs_per_invocation: usize,
    /// `o#` words: vector-major, then invocation, then register.
    pub outputs: Vec<[u32; 4]>,
    /// The components of each output register this executor observed (bit c for component c).
    pub observed: Vec<u8>,
    /// Per vector and invocation: the pixel was discarded.
    pub discarded: Vec<bool>,
    /// Per vector: every UAV's words afterwards, by register (empty without UAVs).
    pub uavs: Vec<BTreeMap<u32, Vec<u32>>>,
    /// What the reference knows beyond the words; `None` for other executors.
    pub facts: Option<Facts>,
    /// Why the executor stopped before the last vector (a hang, a lost device), if it did.
    pub stopped: Option<Skip>,
}

/// The reference's knowledge about its results: the catalog domains each lane entered, which
/// words are NaNs whose payload D3D leaves free, and what the program relies on that D3D
/// leaves undefined.
#[derive(Debug, Clone, Default)]
pub struct Facts {
    /// Per vector and invocation (compute: per vector, all invocations together).
    pub events: Vec<Events>,
    /// Parallel to [`Results::outputs`] (empty: no word is free).
    pub free_nan: Vec<[bool; 4]>,
    /// Parallel to [`Results::uavs`].
    pub free_uavs: Vec<BTreeMap<u32, Vec<bool>>>,
    /// Over every vector, deduplicated.
    pub findings: Vec<oracles::interp::Finding>,
}

impl Results {
    /// Empty results for `vectors` vectors of `invocations` invocations with `outputs` output
    /// registers.
    pub fn new(vectors: usize, invocations: usize, outputs: usize) -> Results {
        Results {
            vectors,
            invocations,
            missing: vec![None; vectors],
            outputs_per_invocation: outputs,
            outputs: vec![[0; 4]; vectors * invocations * outputs],
            observed: vec![0xf; outputs],
            discarded: vec![false; vectors * invocations],
            uavs: vec![BTreeMap::new(); vectors],
            facts: None,
            stopped: None,
        }
    }

    /// The output registers of invocation `i` of vector `k`.
    pub fn outputs_of(&self, k: usize, i: usize) -> &[[u32; 4]] {
        let n = self.outputs_per_invocation;
        let at = (k * self.invocations + i) * n;
        self.outputs.get(at..at + n).unwrap_or(&[])
    }

    /// Whether invocation `i` of vector `k` was discarded.
    pub fn discarded_of(&self, k: usize, i: usize) -> bool {
        self.discarded
            .get(k * self.invocations + i)
            .copied()
            .unwrap_or(false)
    }

    /// Whether component `c` of output `reg` of invocation `i` of vector `k` is a NaN whose
    /// payload D3D leaves free (false without facts).
    pub fn free_output(&self, k: usize, i: usize, reg: usize, c: usize) -> bool {
        let Some(f) = &self.facts else { return false };
        let at = (k * self.invocations + i) * self.outputs_per_invocation + reg;
        f.free_nan.get(at).is_some_and(|w| w[c % 4])
    }

    /// Whether word `w` of UAV `slot` of vector `k` is a NaN whose payload D3D leaves free.
    pub fn free_uav(&self, k: usize, slot: u32, w: usize) -> bool {
        let Some(f) = &self.facts else { return false };
        f.free_uavs
            .get(k)
            .and_then(|m| m.get(&slot))
            .and_then(|v| v.get(w))
            .copied()
            .unwrap_or(false)
    }

    /// The events of invocation `i` of vector `k` (0 without facts).
    pub fn events_of(&self, k: usize, i: usize) -> Events {
        let Some(f) = &self.facts else { return 0 };
        if f.events.len() == self.vectors {
            f.events.get(k).copied().unwrap_or(0)
        } else {
            f.events.get(k * self.invocations + i).copied().unwrap_or(0)
        }
    }
}

/// An executor.
pub trait Executor {
    /// How reports name it: the adapter and driver, or `interpreter`.
    fn name(&self) -> String;

    /// Make a program ready, once; `Err` is why this executor cannot run it.
    fn prepare(&mut self, unit: &Unit<'_>) -> Result<Prepared, Skip>;

    /// Run a batch. `budget` bounds the instructions any invocation may execute (executors
    /// that cannot count instructions ignore it). Vectors without results are `missing`; `Err`
    /// when nothing could run.
    fn run(&mut self, prepared: &Prepared, batch: &Batch, budget: u64) -> Result<Results, Skip>;
}

/// Whether `program` needs 2×2 pixel quads: a pixel program with a derivative, with a
/// sample whose level of detail comes from derivatives, or that evaluates an attribute off
/// the pixel centre (the attribute's plane is the quad's, `dxbc::evaluation`). Its vectors
/// then run four to a quad (lanes `4q..4q + 3`) on both sides, and share their constant
/// buffers.
pub fn needs_quads(program: &dxbc::Program) -> bool {
    use dxbc::opcodes::Flags;
    program.version.stage == dxbc::Stage::Pixel
        && program.instructions.iter().any(|i| {
            let info = i.opcode.info();
            info.has(Flags::DERIVATIVE)
                || info.has(Flags::IMPLICIT_LOD)
                || dxbc::evaluation::off_centre(i.opcode)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quad_is_one_vector_of_its_four_vectors_in_pixel_order() {
        // Ten vectors of one register, each word its vector's index.
        let inputs: Vec<[u32; 4]> = (0..10).map(|k| [k; 4]).collect();
        let b = Batch::lanes(1, inputs, Resources::default());
        let q = b.quad(6);
        assert_eq!((q.vectors, q.invocations, q.regs), (1, 4, 1));
        let firsts: Vec<u32> = (0..4).map(|i| q.invocation(0, i)[0][0]).collect();
        assert_eq!(firsts, [4, 5, 6, 7]);
        // The last quad is short: vectors 8 and 9.
        let last = b.quad(9);
        assert_eq!(last.invocations, 2);
        assert_eq!(last.invocation(0, 1)[0][0], 9);
    }
}
