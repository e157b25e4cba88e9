//! Typed views of the metadata chunks: signatures, RDEF, STAT and SFI0 (sections 2 and 3).
//!
//! Each type parses from a chunk's data and encodes back to the same bytes, so a container can be
//! edited through them without disturbing what it does not change.

pub mod derived;
pub mod rdef;
pub mod sfi0;
pub mod signature;
pub mod stat;

use crate::container::FourCC;
use crate::error::DxbcError;

/// A `BadChunk` error; `offset` is relative to the chunk data (the parsers never see the container).
pub(crate) fn bad(tag: FourCC, offset: usize, what: impl Into<String>) -> DxbcError {
    DxbcError::BadChunk {
        offset,
        tag: tag.to_string(),
        what: what.into(),
    }
}
