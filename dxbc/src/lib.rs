//! DXBC: the Direct3D 10/11 shader container and its Shader Model 4.0–5.1 token stream.
//!
//! Everything in dxdiff reads programs through this crate, so it is exact (every blob re-encodes to
//! the same bytes) and total (no input panics; every failure is a typed [`DxbcError`]).

pub mod error;

pub use error::{DxbcError, Result};
pub mod decode;
pub mod encode;
pub mod ir;
pub mod opcodes;

pub use decode::{decode_program, decode_words};
pub use encode::{encode_program, encode_words};
pub use ir::*;
pub use opcodes::{Opcode, TABLE};
pub mod asm;
mod asm_decl;
pub mod disasm;
pub mod names;
pub mod numfmt;

pub use asm::assemble;
pub use disasm::{Syntax, disassemble};
