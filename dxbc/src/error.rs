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
    /// The first four bytes are not the `DXBC` magic.
    BadMagic {
        /// Byte offset of the magic (0 for a whole container).
        offset: usize,
        /// The four bytes found there, read as a little-endian word.
        found: u32,
    },
    #[error("byte {offset}: input ends early: need {needed} bytes, have {available}")]
    /// A header, table or chunk runs past the end of the input.
    Truncated {
        /// Byte offset where the short read started.
        offset: usize,
        /// Bytes the read needed from `offset`.
        needed: usize,
        /// Bytes actually left from `offset`.
        available: usize,
    },
    #[error("byte {offset}: container version {found} is not 1")]
    /// The container header's version word is not 1, the only version fxc writes.
    BadContainerVersion {
        /// Byte offset of the version word.
        offset: usize,
        /// The version number found.
        found: u32,
    },
    #[error("byte {offset}: total size field says {declared} bytes but the input has {actual}")]
    /// The header's total-size field disagrees with the input's length.
    SizeMismatch {
        /// Byte offset of the total-size field.
        offset: usize,
        /// Size in bytes the header claims.
        declared: usize,
        /// Size in bytes of the input given.
        actual: usize,
    },
    #[error(
        "byte {offset}: chunk {index} lies outside the container (offset {chunk_offset}, size {size})"
    )]
    /// A chunk-offset table entry, or the chunk's own size, points outside the container.
    ChunkOutOfBounds {
        /// Byte offset of the offending chunk-offset table entry.
        offset: usize,
        /// 0-based index of the chunk in the offset table.
        index: usize,
        /// Byte offset of the chunk header the entry points to.
        chunk_offset: usize,
        /// Chunk data size in bytes, as its header declares.
        size: usize,
    },
    #[error("byte {offset}: chunk {tag}: {what}")]
    /// A chunk's contents are malformed (bad string offset, table overrun...).
    BadChunk {
        /// Byte offset of the problem within the container.
        offset: usize,
        /// The chunk's FourCC, such as `RDEF`.
        tag: String,
        /// What is wrong, in a phrase.
        what: String,
    },
    #[error("no {tag} chunk in the container")]
    /// A chunk the operation needs (typically `SHDR`/`SHEX`) is absent.
    MissingChunk {
        /// The FourCC that was looked for.
        tag: String,
    },

    // ---- token stream (word offsets) ----
    #[error("word {word}: token stream ends early: {what}")]
    /// The token stream ends inside an instruction or operand.
    TokensTruncated {
        /// Word offset where more tokens were expected.
        word: usize,
        /// What was being read when the words ran out.
        what: &'static str,
    },
    #[error("word {word}: unknown opcode {opcode}")]
    /// An opcode token's low 11 bits name no SM4.0–5.0 opcode.
    UnknownOpcode {
        /// Word offset of the opcode token.
        word: usize,
        /// The opcode number found.
        opcode: u32,
    },
    #[error("word {word}: {what}: unknown bits {bits:#010x} set")]
    /// A token sets bits the format reserves (must be zero), so it would not round-trip.
    UnknownBits {
        /// Word offset of the token.
        word: usize,
        /// Which token or field the bits are in.
        what: &'static str,
        /// The reserved bits that were set, in place within the token.
        bits: u32,
    },
    #[error("word {word}: invalid {what}: {value}")]
    /// A token field holds a value the format does not define.
    InvalidField {
        /// Word offset of the token.
        word: usize,
        /// The field's name.
        what: &'static str,
        /// The undefined value, shifted down to the field's bit 0.
        value: u32,
    },
    #[error("word {word}: instruction length {length} is wrong: {what}")]
    /// An instruction's length field (in words) does not match what its operands occupy.
    BadLength {
        /// Word offset of the token whose length field is wrong.
        word: usize,
        /// The length in words, as encoded, as encoded.
        length: u32,
        /// Why the length is wrong.
        what: &'static str,
    },
    #[error("word {word}: length token says {declared} words but the chunk holds {actual}")]
    /// The program's length token (word 1) disagrees with the chunk's size.
    ProgramLength {
        /// Word offset of the length token.
        word: usize,
        /// Program length in words the token declares.
        declared: u32,
        /// Program length in words the chunk holds.
        actual: usize,
    },

    // ---- validation after decoding (word offset and instruction index) ----
    #[error("word {word}, instruction {index}: {what} is {value}, beyond D3D11's {limit}")]
    /// A register index, count or size exceeds a D3D11 limit.
    Limit {
        /// Word offset of the instruction's opcode token.
        word: usize,
        /// 0-based index of the instruction in the program.
        index: usize,
        /// The limit exceeded.
        limit: Limit,
        /// What carries the number: `r4294967295`, `dcl_temps`, `thread group x`...
        what: String,
        /// The out-of-range number.
        value: u64,
    },
    #[error("word {word}, instruction {index}: {what}")]
    /// An instruction uses a register or resource with no matching `dcl_*`.
    Undeclared {
        /// Word offset of the instruction's opcode token.
        word: usize,
        /// 0-based index of the instruction in the program.
        index: usize,
        /// The undeclared operand, in a phrase.
        what: String,
    },

    // ---- encoding an IR that cannot be represented ----
    #[error("instruction {index}: cannot encode: {what}")]
    /// The IR holds something the token format has no encoding for.
    Unencodable {
        /// 0-based index of the instruction in the program.
        index: usize,
        /// What cannot be encoded.
        what: String,
    },

    // ---- assembler (1-based line and column) ----
    #[error("line {line}, column {column}: {what}")]
    /// The assembler could not parse its input.
    Syntax {
        /// 1-based source line.
        line: usize,
        /// 1-based column (in characters) within the line.
        column: usize,
        /// What was expected or found.
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
