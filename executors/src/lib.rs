//! What runs programs over input vectors, on the CPU or a GPU: the executor role of dxdiff,
//! below the harness's sessions and commands (docs/architecture.md).
//!
//! - [`exec`]: the `Executor` trait and the flat batches and results that cross it, and the
//!   reference interpreter as one executor.
//! - [`gpu`]: wgpu and naga in an isolated worker process (`dxdiff gpu-worker`): a hung
//!   dispatch or a driver crash ends the worker, not the run. Pixel and vertex programs are
//!   wrapped into compute kernels by rewriting naga IR ([`gpu::wrap`]); every dispatch is
//!   planned once ([`gpu::plan`]) for whichever runner runs it.
//! - [`chrome`]: Chrome's Dawn and Tint in a headless browser, a sibling of the wgpu worker
//!   under the one [`gpu::executor::KernelRunner`] trait.
//! - [`runner`]: the choice between the two (`--executor`), above both, so neither needs the
//!   other.
//! - [`lifetime`]: what must not outlive dxdiff (a browser's process group and profile), and
//!   [`parallel`]: the worker pool every executor's batches run on.
//!
//! The crate knows nothing of translators, campaigns or reports: the compiler holds that line.

#![deny(missing_docs)]

pub mod chrome;
pub mod exec;
pub mod gpu;
pub mod lifetime;
pub mod parallel;
pub mod runner;
