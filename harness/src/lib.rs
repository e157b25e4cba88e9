//! placeholder

#![deny(missing_docs)]

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
