//! Typed errors for everything the crate reads. Each carries the offset where the problem was found
//! and a stable code (`code()`), so scripts and reports can match on it without parsing prose.

use thiserror::Error;

use crate::limits::Limit;

/// Where in the input a problem sits.
///
/// Byte offsets are from the start of the container; word offsets are 32-bit words from the start of
/// the token stream (the version token is word 0), which is how fxc listings and vkd3d count.
pub type Result<T> = std::result::Result<T, DxbcError>;

/// Every way reading, decoding or assembling DXBC can fail.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum DxbcError {
    // ---- container (byte offsets) ----
    #[error("byte {offset}: not a DXBC container (magic is {found:#010x})")]
    BadMagic { offset: usize, found: u32 },
    #[error("byte {offset}: input ends early: need {needed} bytes, have {available}")]
    Truncated {
        offset: usize,
        needed: usize,
        available: usize,
    },
    #[error("byte {offset}: container version {found} is not 1")]
    BadContainerVersion { offset: usize, found: u32 },
    #[error("byte {offset}: total size field says {declared} bytes but the input has {actual}")]
    SizeMismatch {
        offset: usize,
        declared: usize,
        actual: usize,
    },
    #[error(
        "byte {offset}: chunk {index} lies outside the container (offset {chunk_offset}, size {size})"
    )]
    ChunkOutOfBounds {
        offset: usize,
        index: usize,
        chunk_offset: usize,
        size: usize,
    },
    #[error("byte {offset}: chunk {tag}: {what}")]
    BadChunk {
        offset: usize,
        tag: String,
        what: String,
    },
    #[error("no {tag} chunk in the container")]
    MissingChunk { tag: String },

    // ---- token stream (word offsets) ----
    #[error("word {word}: token stream ends early: {what}")]
    TokensTruncated { word: usize, what: &'static str },
    #[error("word {word}: unknown opcode {opcode}")]
    UnknownOpcode { word: usize, opcode: u32 },
    #[error("word {word}: {what}: unknown bits {bits:#010x} set")]
    UnknownBits {
        word: usize,
        what: &'static str,
        bits: u32,
    },
    #[error("word {word}: invalid {what}: {value}")]
    InvalidField {
        word: usize,
        what: &'static str,
        value: u32,
    },
    #[error("word {word}: instruction length {length} is wrong: {what}")]
    BadLength {
        word: usize,
        length: u32,
        what: &'static str,
    },
    #[error("word {word}: length token says {declared} words but the chunk holds {actual}")]
    ProgramLength {
        word: usize,
        declared: u32,
        actual: usize,
    },

    // ---- validation after decoding (word offset and instruction index) ----
    #[error("word {word}, instruction {index}: {what} is {value}, beyond D3D11's {limit}")]
    Limit {
        word: usize,
        index: usize,
        limit: Limit,
        /// What carries the number: `r4294967295`, `dcl_temps`, `thread group x`...
        what: String,
        value: u64,
    },
    #[error("word {word}, instruction {index}: {what}")]
    Undeclared {
        word: usize,
        index: usize,
        what: String,
    },

    // ---- encoding an IR that cannot be represented ----
    #[error("instruction {index}: cannot encode: {what}")]
    Unencodable { index: usize, what: String },

    // ---- assembler (1-based line and column) ----
    #[error("line {line}, column {column}: {what}")]
    Syntax {
        line: usize,
        column: usize,
        what: String,
    },
}

impl DxbcError {
    /// A stable, machine-readable code for this kind of error.
    pub fn code(&self) -> &'static str {
        match self {
            DxbcError::BadMagic { .. } => "dxbc.bad-magic",
            DxbcError::Truncated { .. } => "dxbc.truncated",
            DxbcError::BadContainerVersion { .. } => "dxbc.container-version",
            DxbcError::SizeMismatch { .. } => "dxbc.size-mismatch",
            DxbcError::ChunkOutOfBounds { .. } => "dxbc.chunk-bounds",
            DxbcError::BadChunk { .. } => "dxbc.bad-chunk",
            DxbcError::MissingChunk { .. } => "dxbc.missing-chunk",
            DxbcError::TokensTruncated { .. } => "tpf.truncated",
            DxbcError::UnknownOpcode { .. } => "tpf.unknown-opcode",
            DxbcError::UnknownBits { .. } => "tpf.unknown-bits",
            DxbcError::InvalidField { .. } => "tpf.invalid-field",
            DxbcError::BadLength { .. } => "tpf.bad-length",
            DxbcError::ProgramLength { .. } => "tpf.program-length",
            DxbcError::Limit { .. } => "dxbc.limit",
            DxbcError::Undeclared { .. } => "dxbc.undeclared",
            DxbcError::Unencodable { .. } => "tpf.unencodable",
            DxbcError::Syntax { .. } => "asm.syntax",
        }
    }
}
