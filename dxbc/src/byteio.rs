//! Bounds-checked little-endian reads shared by the container and chunk parsers.
//!
//! Every offset in a DXBC blob comes from the blob itself, so every read goes through these
//! helpers: they return `None` instead of panicking and use checked arithmetic for `offset + len`.

/// Reads `N` bytes at `offset`, or `None` when they are not all inside `data`.
pub(crate) fn bytes_at<const N: usize>(data: &[u8], offset: usize) -> Option<[u8; N]> {
    let end = offset.checked_add(N)?;
    let slice = data.get(offset..end)?;
    let mut out = [0u8; N];
    out.copy_from_slice(slice);
    Some(out)
}

/// Reads a little-endian `u32` at `offset`.
pub(crate) fn u32_at(data: &[u8], offset: usize) -> Option<u32> {
    bytes_at::<4>(data, offset).map(u32::from_le_bytes)
}

/// Converts a `u32` count or offset from the blob to `usize` (lossless on 32/64-bit targets).
pub(crate) fn usize_of(v: u32) -> usize {
    usize::try_from(v).unwrap_or(usize::MAX)
}

/// Appends a little-endian `u32`.
pub(crate) fn put_u32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// Converts a length or offset that the writer produced to the `u32` the format stores.
/// Values that do not fit saturate (they cannot occur for blobs below 4 GiB).
pub(crate) fn u32_of(v: usize) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}
