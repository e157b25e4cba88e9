//! DXBC: the Direct3D 10/11 shader container and its Shader Model 4.0–5.1 token stream.
//!
//! Everything in dxdiff reads programs through this crate, so it is exact (every blob re-encodes to
//! the same bytes) and total (no input panics; every failure is a typed [`DxbcError`]).
//!
//! Layers, bottom up: [`container`] (chunks and checksum), [`chunks`] (RDEF, signatures, STAT,
//! SFI0), the token stream ([`opcodes`] table, [`ir`], [`decode`], [`encode`]), fxc's text
//! ([`disasm`], [`asm`], [`numfmt`], [`names`]) and [`shader`], which ties a container to its
//! decoded program.

#![deny(missing_docs)]

pub mod asm;
mod asm_decl;
mod asm_text;
pub mod builder;
mod byteio;
pub mod checksum;
pub mod chunks;
pub mod container;
pub mod decl;
pub mod decode;
pub mod disasm;
pub mod encode;
pub mod error;
pub mod evaluation;
pub mod input;
pub mod ir;
pub mod limits;
pub mod linkage;
pub mod names;
pub mod numfmt;
pub mod opcodes;
pub mod registers;
pub mod shader;
mod spare;
pub mod structure;
pub mod validate;
pub mod version;

pub use asm::assemble;
pub use checksum::{checksum_matches, dxbc_checksum};
pub use container::{Chunk, Container, FourCC};
pub use decl::{
    DoubleSlot, InterpolationMode, ResinfoReturnType, ResourceDimension, ReturnType, SamplerMode,
    SystemValue, SystemValueName, TextureShape, standard_sample_positions,
};
pub use decode::{decode_program, decode_words};
pub use disasm::{Syntax, disassemble};
pub use encode::{encode_program, encode_words};
pub use error::{DxbcError, Result};
pub use input::{MAX_INPUT_BYTES, ReadError, read_file, read_text};
pub use ir::*;
pub use limits::{DISPATCH_GROUPS_PER_DIMENSION, Limit};
pub use linkage::{CLASS_INSTANCE_CB, Linkage};
pub use opcodes::{Opcode, TABLE};
pub use registers::RegisterCounts;
pub use shader::{Shader, TargetModel, assemble_container, build_container, retarget};
