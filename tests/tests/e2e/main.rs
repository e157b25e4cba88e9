//! dxdiff end to end: one test binary over the CLI (see the `dxdiff-tests` crate docs).

mod support;

mod carbon;
mod catalog;
mod chrome;
mod cli;
mod contract;
mod corpus;
mod deploy;
mod diff;
mod doubles;
mod dxbc_spirv;
mod external;
mod fairness;
mod fuzz;
mod generated;
mod gpu_compute;
mod hostile;
mod html;
mod iridia;
mod lavapipe_loop_limit;
mod manifest;
mod node;
mod replay;
mod shard;
mod sweep;
mod uav_textures;
mod verify;
