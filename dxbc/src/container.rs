//! The DXBC container: a header, an offset table and a list of tagged chunks (section 1).
//!
//! Parsing never trusts the offset table; writing always packs chunks back to back like fxc so that
//! an unmodified container re-serialises byte for byte.

use std::fmt;

use crate::byteio::{put_u32, u32_at, u32_of, usize_of};
use crate::checksum::dxbc_checksum;
use crate::error::{DxbcError, Result};

/// The `DXBC` magic as a little-endian DWORD.
const MAGIC: u32 = 0x4342_5844;
/// Size of the fixed header before the chunk offset table.
const HEADER_LEN: usize = 32;

/// A four-character chunk tag such as `SHEX`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FourCC(pub [u8; 4]);

impl FourCC {
    /// Resource definitions: constant buffers, variables, types and bindings.
    pub const RDEF: FourCC = FourCC(*b"RDEF");
    /// Input signature (24-byte elements).
    pub const ISGN: FourCC = FourCC(*b"ISGN");
    /// Output signature (24-byte elements).
    pub const OSGN: FourCC = FourCC(*b"OSGN");
    /// SM5 output signature with a stream index per element (geometry shaders).
    pub const OSG5: FourCC = FourCC(*b"OSG5");
    /// Patch-constant signature of a hull or domain shader.
    pub const PCSG: FourCC = FourCC(*b"PCSG");
    /// Input signature, v1 layout with stream and min-precision fields.
    pub const ISG1: FourCC = FourCC(*b"ISG1");
    /// Output signature, v1 layout with stream and min-precision fields.
    pub const OSG1: FourCC = FourCC(*b"OSG1");
    /// Patch-constant signature, v1 layout with stream and min-precision fields.
    pub const PSG1: FourCC = FourCC(*b"PSG1");
    /// A token stream, conventionally SM4.x (readers accept either tag for any version).
    pub const SHDR: FourCC = FourCC(*b"SHDR");
    /// A token stream, conventionally SM5.x (fxc also writes it for some 4.x programs).
    pub const SHEX: FourCC = FourCC(*b"SHEX");
    /// fxc's instruction statistics.
    pub const STAT: FourCC = FourCC(*b"STAT");
    /// Required optional features (a 64-bit mask).
    pub const SFI0: FourCC = FourCC(*b"SFI0");
    /// Interface and class-instance data for SM5 dynamic linkage (layout uncertain, kept as bytes).
    pub const IFCE: FourCC = FourCC(*b"IFCE");
}

impl fmt::Display for FourCC {
    /// Prints the tag as ASCII; bytes outside printable ASCII print as `\xNN` so that a corrupt tag
    /// stays readable and unambiguous in error messages.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for &b in &self.0 {
            if b.is_ascii_graphic() || b == b' ' {
                write!(f, "{}", char::from(b))?;
            } else {
                write!(f, "\\x{b:02x}")?;
            }
        }
        Ok(())
    }
}

/// One chunk: its tag and its data (without the 8-byte chunk header). Data may have any length.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    /// The chunk's four-character tag.
    pub tag: FourCC,
    /// The chunk's data bytes, after the 8-byte tag-and-size header.
    pub data: Vec<u8>,
}

/// A chunk where it sits in a blob: its tag and its data, borrowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkRef<'a> {
    /// The chunk's four-character tag.
    pub tag: FourCC,
    /// The chunk's data bytes, after the 8-byte tag-and-size header.
    pub data: &'a [u8],
}

/// A container's chunks as [`Container::borrow`] finds them in the blob, in the order of the
/// chunk-offset table, with the stored checksum.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Borrowed<'a> {
    /// Every chunk; fxc writes five or six.
    pub chunks: smallvec::SmallVec<[ChunkRef<'a>; 8]>,
    /// The checksum the blob stores (not checked, as for [`Container::parse`]).
    pub stored_checksum: [u32; 4],
}

impl<'a> Borrowed<'a> {
    /// The token-stream chunk (`SHEX` or `SHDR`), the first if there are several.
    pub fn code_chunk(&self) -> Option<ChunkRef<'a>> {
        self.chunks.iter().copied().find(|c| is_code(c.tag))
    }
}

/// Whether a chunk holds the token stream.
fn is_code(tag: FourCC) -> bool {
    tag == FourCC::SHEX || tag == FourCC::SHDR
}

/// A parsed container: its chunks in file order, plus what the stored checksum said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Container {
    /// Every chunk, in the order of the chunk-offset table.
    pub chunks: Vec<Chunk>,
    /// The checksum found in the input, if this container was parsed (None when built in memory).
    /// Whether it matches the bytes is [`crate::checksum_matches`]'s to say, asked of the blob:
    /// parsing does not compute it (see there).
    pub stored_checksum: Option<[u32; 4]>,
}

impl Container {
    /// A container built from chunks, without a stored checksum (it is computed when written).
    pub fn new(chunks: Vec<Chunk>) -> Container {
        Container {
            chunks,
            stored_checksum: None,
        }
    }

    /// Parses a whole blob. Checks magic, version 1, the total-size field against the input length,
    /// the offset table and every chunk's bounds. The stored checksum is kept, not checked
    /// ([`crate::checksum_matches`]).
    pub fn parse(bytes: &[u8]) -> Result<Container> {
        let b = Container::borrow(bytes)?;
        Ok(Container {
            chunks: b
                .chunks
                .iter()
                .map(|c| Chunk {
                    tag: c.tag,
                    data: c.data.to_vec(),
                })
                .collect(),
            stored_checksum: Some(b.stored_checksum),
        })
    }

    /// [`Container::parse`]'s checks and chunks without copying any chunk: what decoding a
    /// program needs, once per program in `corpus`, `bench` and `fuzz` (the copies were a
    /// twelfth of the allocations of decoding and lowering one). Inlined, so the chunk list
    /// (inline, a fifth of a KiB) is built where the caller keeps it, not copied there.
    #[inline(always)]
    pub fn borrow(bytes: &[u8]) -> Result<Borrowed<'_>> {
        let truncated = |offset: usize, needed: usize| DxbcError::Truncated {
            offset,
            needed,
            available: bytes.len(),
        };
        let magic = u32_at(bytes, 0).ok_or_else(|| truncated(0, 4))?;
        if magic != MAGIC {
            return Err(DxbcError::BadMagic {
                offset: 0,
                found: magic,
            });
        }
        if bytes.len() < HEADER_LEN {
            return Err(truncated(0, HEADER_LEN));
        }
        let mut stored = [0u32; 4];
        for (i, word) in stored.iter_mut().enumerate() {
            *word = u32_at(bytes, 4 + 4 * i).ok_or_else(|| truncated(4, 16))?;
        }
        let version = u32_at(bytes, 20).ok_or_else(|| truncated(20, 4))?;
        if version != 1 {
            return Err(DxbcError::BadContainerVersion {
                offset: 20,
                found: version,
            });
        }
        let declared = usize_of(u32_at(bytes, 24).ok_or_else(|| truncated(24, 4))?);
        if declared != bytes.len() {
            return Err(DxbcError::SizeMismatch {
                offset: 24,
                declared,
                actual: bytes.len(),
            });
        }
        let count = usize_of(u32_at(bytes, 28).ok_or_else(|| truncated(28, 4))?);
        // Check the table fits before allocating anything sized by `count`.
        let table_end = count
            .checked_mul(4)
            .and_then(|n| n.checked_add(HEADER_LEN))
            .ok_or_else(|| truncated(HEADER_LEN, usize::MAX))?;
        if table_end > bytes.len() {
            return Err(truncated(HEADER_LEN, table_end));
        }
        // `new` and `reserve` (nothing to reserve for up to eight chunks): `with_capacity`
        // returned the inline list by copy.
        let mut chunks = smallvec::SmallVec::new();
        chunks.reserve(count);
        for index in 0..count {
            let entry = HEADER_LEN + 4 * index;
            let chunk_offset = usize_of(u32_at(bytes, entry).ok_or_else(|| truncated(entry, 4))?);
            let out_of_bounds = |size: usize| DxbcError::ChunkOutOfBounds {
                offset: entry,
                index,
                chunk_offset,
                size,
            };
            let data_start = chunk_offset
                .checked_add(8)
                .ok_or_else(|| out_of_bounds(0))?;
            if data_start > bytes.len() {
                return Err(out_of_bounds(0));
            }
            let mut tag = [0u8; 4];
            tag.copy_from_slice(&bytes[chunk_offset..chunk_offset + 4]);
            let size = usize_of(u32_at(bytes, chunk_offset + 4).ok_or_else(|| out_of_bounds(0))?);
            let data = data_start
                .checked_add(size)
                .and_then(|end| bytes.get(data_start..end))
                .ok_or_else(|| out_of_bounds(size))?;
            chunks.push(ChunkRef {
                tag: FourCC(tag),
                data,
            });
        }
        Ok(Borrowed {
            chunks,
            stored_checksum: stored,
        })
    }

    /// Serialises with a freshly computed checksum.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = self.layout();
        let sum = dxbc_checksum(&out);
        write_checksum(&mut out, sum);
        out
    }

    /// Serialises keeping the stored checksum when there is one (so an unmodified parsed container
    /// reproduces its input exactly, even a wrong checksum); otherwise computes a fresh one.
    pub fn to_bytes_exact(&self) -> Vec<u8> {
        match self.stored_checksum {
            Some(sum) => {
                let mut out = self.layout();
                write_checksum(&mut out, sum);
                out
            }
            None => self.to_bytes(),
        }
    }

    /// The blob with a zero checksum: header, offset table, then chunks back to back.
    fn layout(&self) -> Vec<u8> {
        let table_end = HEADER_LEN + 4 * self.chunks.len();
        let total = table_end + self.chunks.iter().map(|c| 8 + c.data.len()).sum::<usize>();
        let mut out = Vec::with_capacity(total);
        put_u32(&mut out, MAGIC);
        out.extend_from_slice(&[0u8; 16]);
        put_u32(&mut out, 1);
        put_u32(&mut out, u32_of(total));
        put_u32(&mut out, u32_of(self.chunks.len()));
        let mut offset = table_end;
        for chunk in &self.chunks {
            put_u32(&mut out, u32_of(offset));
            offset += 8 + chunk.data.len();
        }
        for chunk in &self.chunks {
            out.extend_from_slice(&chunk.tag.0);
            put_u32(&mut out, u32_of(chunk.data.len()));
            out.extend_from_slice(&chunk.data);
        }
        out
    }

    /// The first chunk with this tag.
    pub fn chunk(&self, tag: FourCC) -> Option<&Chunk> {
        self.chunks.iter().find(|c| c.tag == tag)
    }

    /// The first chunk with this tag, mutably.
    pub fn chunk_mut(&mut self, tag: FourCC) -> Option<&mut Chunk> {
        self.chunks.iter_mut().find(|c| c.tag == tag)
    }

    /// The token-stream chunk: `SHEX` or `SHDR`, whichever comes first (either tag may hold any
    /// shader model, section 1.3).
    pub fn code_chunk(&self) -> Option<&Chunk> {
        self.chunks.iter().find(|c| is_code(c.tag))
    }

    /// The token-stream chunk, mutably.
    pub fn code_chunk_mut(&mut self) -> Option<&mut Chunk> {
        self.chunks.iter_mut().find(|c| is_code(c.tag))
    }
}

fn write_checksum(out: &mut [u8], sum: [u32; 4]) {
    for (i, word) in sum.iter().enumerate() {
        out[4 + 4 * i..8 + 4 * i].copy_from_slice(&word.to_le_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<u8> {
        Container::new(vec![
            Chunk {
                tag: FourCC::ISGN,
                data: vec![0, 0, 0, 0, 8, 0, 0, 0],
            },
            Chunk {
                tag: FourCC(*b"ODD\x01"),
                data: vec![1, 2, 3],
            },
        ])
        .to_bytes()
    }

    #[test]
    fn round_trip_and_checksum() {
        let blob = sample();
        let c = Container::parse(&blob).expect("valid");
        assert!(crate::checksum_matches(&blob));
        assert_eq!(c.to_bytes_exact(), blob);
        assert_eq!(c.to_bytes(), blob);
        assert_eq!(c.chunks[1].tag.to_string(), "ODD\\x01");
    }

    /// Borrowing finds the chunks parsing copies, and refuses what parsing refuses with the same
    /// error: parsing is borrowing, then copying.
    #[test]
    fn borrowed_chunks_are_the_parsed_ones() {
        let blob = sample();
        let owned = Container::parse(&blob).expect("valid");
        let borrowed = Container::borrow(&blob).expect("valid");
        assert_eq!(Some(borrowed.stored_checksum), owned.stored_checksum);
        assert_eq!(borrowed.chunks.len(), owned.chunks.len());
        for (b, o) in borrowed.chunks.iter().zip(&owned.chunks) {
            assert_eq!((b.tag, b.data), (o.tag, o.data.as_slice()));
        }
        assert_eq!(borrowed.code_chunk(), None);
        for cut in [0, 4, 31, blob.len() - 1] {
            assert_eq!(
                Container::borrow(&blob[..cut]).err(),
                Container::parse(&blob[..cut]).err(),
                "cut at {cut}"
            );
        }
    }

    /// A changed byte anywhere past the checksum field, or in it, is a wrong checksum, which
    /// parsing keeps and does not reject; a blob too short to hold one has no right one.
    #[test]
    fn a_wrong_checksum_is_found_on_demand_not_rejected() {
        let blob = sample();
        for at in [4, 19, 20, blob.len() - 1] {
            let mut edited = blob.clone();
            edited[at] ^= 0x10;
            assert!(!crate::checksum_matches(&edited), "byte {at}");
            // Byte 20 is the container version, which parsing does check.
            if at != 20 {
                assert!(Container::parse(&edited).is_ok(), "byte {at}");
            }
        }
        assert!(!crate::checksum_matches(&blob[..19]));
    }

    #[test]
    fn every_truncation_and_corruption_is_an_error() {
        let blob = sample();
        for len in 0..blob.len() {
            assert!(Container::parse(&blob[..len]).is_err(), "len {len}");
        }
        for i in 0..blob.len() {
            for v in [0u8, 0x7f, 0xff] {
                let mut b = blob.clone();
                b[i] = v;
                let _ = Container::parse(&b);
            }
        }
        let mut huge = blob.clone();
        huge[28..32].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(Container::parse(&huge).is_err());
        let mut far = blob;
        far[32..36].copy_from_slice(&0xFFFF_FFFCu32.to_le_bytes());
        assert!(matches!(
            Container::parse(&far),
            Err(DxbcError::ChunkOutOfBounds { .. })
        ));
    }
}
