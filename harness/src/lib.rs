//! The harness side of dxdiff: translator adapters (the built-in one, and vkd3d-shader loaded
//! at run time) and, in later issues, the GPU executor. The `dxdiff` binary is `main.rs`.

pub mod bench;
pub mod fuzz;
pub mod gpu;
pub mod qualify;
pub mod transition;
pub mod translators;
pub mod verify;
pub mod vkd3d;
