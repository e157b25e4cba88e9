//! The GPU worker pipe's framing. Every message, both ways, is one frame: the magic `DXDW`,
//! a JSON header (its length as u32 LE, then its bytes), then the number of word arrays (u32
//! LE) and each array as its length in words (u32 LE) and its words (LE). Control data travels
//! as JSON and bulk words as raw bytes: JSON text of millions of words was most of a request's
//! time (52 % of a default `verify` on lavapipe). A frame that does not start with the magic,
//! or breaks a limit, is an error, so a stray write to the worker's stdout cannot be misread.

use std::io::{self, Read, Write};

/// The first bytes of every frame.
pub const MAGIC: [u8; 4] = *b"DXDW";
/// Largest JSON header (a WGSL module with its manifest).
const MAX_HEADER: u32 = 256 << 20;
/// Most word arrays in one frame.
const MAX_ARRAYS: u32 = 1 << 16;
/// Most words in one frame, over all its arrays (4 GiB).
const MAX_WORDS: u64 = 1 << 30;

/// One message: its JSON header and its word arrays.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Frame {
    /// The JSON header's bytes.
    pub header: Vec<u8>,
    /// The word arrays, in the order the header's type defines.
    pub words: Vec<Vec<u32>>,
}

/// Why a frame could not be read. Codes: `wire.io`, `wire.magic`, `wire.limit`.
#[derive(Debug, thiserror::Error)]
pub enum WireError {
    /// The pipe failed or closed mid-frame.
    #[error("the worker pipe: {0}")]
    Io(#[from] io::Error),
    /// The bytes are not a frame.
    #[error("not a frame (magic {0:02x?})")]
    Magic([u8; 4]),
    /// A length beyond the frame limits.
    #[error("a frame beyond the limits: {0}")]
    Limit(String),
}

impl WireError {
    /// The stable code.
    pub fn code(&self) -> &'static str {
        match self {
            WireError::Io(_) => "wire.io",
            WireError::Magic(_) => "wire.magic",
            WireError::Limit(_) => "wire.limit",
        }
    }
}

/// Write one frame and flush it.
pub fn write_frame(w: &mut impl Write, header: &[u8], words: &[&[u32]]) -> io::Result<()> {
    let len = |n: usize| {
        u32::try_from(n).map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "too long"))
    };
    let mut out = io::BufWriter::with_capacity(1 << 16, w);
    out.write_all(&MAGIC)?;
    out.write_all(&len(header.len())?.to_le_bytes())?;
    out.write_all(header)?;
    out.write_all(&len(words.len())?.to_le_bytes())?;
    let mut bytes = Vec::new();
    for a in words {
        out.write_all(&len(a.len())?.to_le_bytes())?;
        bytes.clear();
        bytes.reserve(a.len() * 4);
        for w in *a {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
        out.write_all(&bytes)?;
    }
    out.flush()
}

fn read_u32(r: &mut impl Read) -> io::Result<u32> {
    let mut b = [0u8; 4];
    r.read_exact(&mut b)?;
    Ok(u32::from_le_bytes(b))
}

/// Read one frame.
pub fn read_frame(r: &mut impl Read) -> Result<Frame, WireError> {
    let mut magic = [0u8; 4];
    r.read_exact(&mut magic)?;
    if magic != MAGIC {
        return Err(WireError::Magic(magic));
    }
    let n = read_u32(r)?;
    if n > MAX_HEADER {
        return Err(WireError::Limit(format!("a header of {n} bytes")));
    }
    let mut header = vec![0u8; n as usize];
    r.read_exact(&mut header)?;
    let arrays = read_u32(r)?;
    if arrays > MAX_ARRAYS {
        return Err(WireError::Limit(format!("{arrays} word arrays")));
    }
    let mut total = 0u64;
    let mut words = Vec::with_capacity(arrays as usize);
    let mut bytes = Vec::new();
    for _ in 0..arrays {
        let len = read_u32(r)?;
        total += u64::from(len);
        if total > MAX_WORDS {
            return Err(WireError::Limit(format!("more than {MAX_WORDS} words")));
        }
        bytes.resize(len as usize * 4, 0);
        r.read_exact(&mut bytes)?;
        words.push(
            bytes
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect(),
        );
    }
    Ok(Frame { header, words })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_round_trip_and_bad_bytes_are_errors() {
        let mut buf = Vec::new();
        let a = [1u32, 0xffff_ffff, 0x7fc0_0000];
        write_frame(&mut buf, b"{\"k\":1}", &[&a, &[]]).expect("writes");
        write_frame(&mut buf, b"{}", &[]).expect("writes");
        let mut r = buf.as_slice();
        let f = read_frame(&mut r).expect("reads");
        assert_eq!(f.header, b"{\"k\":1}");
        assert_eq!(f.words, vec![a.to_vec(), vec![]]);
        assert_eq!(read_frame(&mut r).expect("reads").header, b"{}");
        // The pipe closed: an I/O error, not a panic.
        assert_eq!(read_frame(&mut r).expect_err("empty").code(), "wire.io");
        // A stray line where a frame should be.
        let mut stray: &[u8] = b"warning: something\n";
        assert_eq!(
            read_frame(&mut stray).expect_err("stray").code(),
            "wire.magic"
        );
        // A length beyond the limits is refused before anything is allocated.
        let mut huge = MAGIC.to_vec();
        huge.extend_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(
            read_frame(&mut huge.as_slice()).expect_err("huge").code(),
            "wire.limit"
        );
        // Truncated mid-array.
        let mut cut = Vec::new();
        write_frame(&mut cut, b"{}", &[&a]).expect("writes");
        cut.truncate(cut.len() - 2);
        assert_eq!(
            read_frame(&mut cut.as_slice()).expect_err("cut").code(),
            "wire.io"
        );
    }
}
