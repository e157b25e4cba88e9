//! DXBC: the Direct3D 10/11 shader container and its Shader Model 4.0–5.1 token stream.
//!
//! Everything in dxdiff reads programs through this crate, so it is exact (every blob re-encodes to
//! the same bytes) and total (no input panics; every failure is a typed [`DxbcError`]).

mod byteio;
pub mod checksum;
pub mod chunks;
pub mod container;
pub mod error;
pub mod numfmt;

pub use checksum::dxbc_checksum;
pub use container::{Chunk, Container, FourCC};
pub use error::{DxbcError, Result};
