//! The harness side of dxdiff: everything that runs programs and compares what comes out. The
//! `dxdiff` binary (`main.rs`) is [`cli::main`].
//!
//! **Roles are traits.** The translator under test is a [`translators::Translator`]: the
//! built-in one in process ([`translators::Builtin`]), any command speaking the protocol of
//! docs/translators.md ([`translators::External`], `cmd:<command line>`, run under a subreaper
//! guard, `dxdiff translator-guard`, so that no translator can hang dxdiff), or vkd3d-shader
//! ([`translators::Vkd3d`], `dxdiff vkd3d-adapter` behind that same protocol in a child). A
//! translation is WGSL that naga validates, a fail-closed rejection naming a catalog id, or a
//! crash, which is an outcome, never the end of a run. Whatever runs a program over input
//! vectors is an [`exec::Executor`]: the reference interpreter ([`exec::interp::Interpreter`])
//! and the GPU ([`gpu::executor::GpuExecutor`]); data crosses the trait as flat [`exec::Batch`]
//! and [`exec::Results`] arrays.
//!
//! **One differential driver.** Every comparison (`verify`, `corpus --verify`, `fuzz`, both
//! shrinkers) goes through [`driver::differential`]: a reference and a candidate executor, one
//! batch, one verdict per vector from one judge. The reference side is [`driver::reference_run`]:
//! every vector gets the first budget, the first few that run out get a larger one
//! ([`driver::Policy`]), and a vector still unfinished is inconclusive and never reaches the
//! candidate, since a loop the interpreter gave up on may hang a GPU. `replay` uses the same
//! `reference_run` but judges by the case file's own expectations.
//!
//! **Around it.** [`inputs`] builds the batches: edge-biased words for generated and corpus
//! programs, or the inputs a case file states. [`shrink`] shrinks a mismatching vector's `v#`
//! and constant-buffer words while it still mismatches (a fuzzed program itself is shrunk in
//! [`fuzz`]), and [`counterexample`] turns that vector into a `dxdiff-case/1` file whose
//! expectations are the reference's results, so that `dxdiff replay --executor gpu` reproduces it.
//!
//! **The GPU executor.** wgpu runs in an isolated worker process (`dxdiff gpu-worker`, one JSON
//! line per request, [`gpu::isolated`]): a hung dispatch or a driver crash ends the worker, not
//! the run, and the next request starts a fresh one. Compute programs run as they are; pixel and
//! vertex programs are wrapped into compute kernels ([`gpu::wrap`]): the stage entry point is
//! rewritten in naga IR into a plain function, and a compute entry point reads each invocation's
//! inputs from word records and writes its outputs (and discard flag) back.
//!
//! **Commands.** [`cli`] has one module per subcommand (`info`, `disasm`, `asm`, `translate`,
//! `verify`, `replay`, `catalog`, `corpus`, `bench`, `fuzz`) plus the hidden child processes
//! above; [`verify`], [`qualify`], [`bench`], [`fuzz`] and [`replay`] do their work. What they
//! report (run reports, corpus records, fuzz state, bench figures, case files) is modelled and
//! rendered in the `reports` crate; the harness fills the models in.

#![deny(missing_docs)]

/// `dxdiff --version`'s answer: the package version and the commit it was built from. Shards
/// record it, and shards of different builds are not merged.
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("DXDIFF_COMMIT"),
    ")"
);

/// A shard as this build records it in its report.
pub fn part(shard: reports::shard::Shard) -> reports::shard::Part {
    reports::shard::Part {
        shard,
        version: VERSION.into(),
    }
}

/// The executors (the interpreter, wgpu's worker, Chrome, the runner that picks one) are their
/// own crate; they keep their paths here.
pub use executors::{chrome, exec, gpu, lifetime, parallel, runner};

/// The translator role (built-in, `cmd:`, `serve:`, vkd3d) is its own crate; it keeps its path
/// here.
pub use translators;

pub mod bench;
pub mod cli;
pub mod contract;
pub mod counterexample;
pub mod driver;
pub mod files;
pub mod fuzz;
pub mod inputs;
pub mod outdir;
pub mod programs;
pub mod progress;
pub mod qualify;
pub mod replay;
pub mod session;
pub mod shrink;
pub mod spread;
pub mod sweep;
pub mod verify;
