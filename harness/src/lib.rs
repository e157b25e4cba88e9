//! The harness side of dxdiff: translator adapters (the built-in one, and vkd3d-shader loaded
//! at run time) and, in later issues, the GPU executor. The `dxdiff` binary is `main.rs`.

pub mod bench;
pub mod cli;
pub mod counterexample;
pub mod driver;
pub mod exec;
pub mod fuzz;
pub mod gpu;
pub mod inputs;
pub mod outdir;
pub mod parallel;
pub mod programs;
pub mod qualify;
pub mod replay;
pub mod shrink;
pub mod translators;
pub mod verify;
