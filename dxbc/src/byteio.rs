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

/// Reads a little-endian `u16` at `offset`.
pub(crate) fn u16_at(data: &[u8], offset: usize) -> Option<u16> {
    bytes_at::<2>(data, offset).map(u16::from_le_bytes)
}

/// Reads the NUL-terminated string that starts at `offset` (bytes taken as Latin-1 so that any
/// input decodes and re-encodes losslessly for ASCII; non-ASCII bytes are rare in practice).
pub(crate) fn cstr_at(data: &[u8], offset: usize) -> Option<String> {
    let mut out = String::new();
    cstr_into(data, offset, &mut out)?;
    Some(out)
}

/// [`cstr_at`] written into `out` (emptied first), so a kept string's storage is reused; `None`
/// (and `out` left as it was) when no string starts there.
pub(crate) fn cstr_into(data: &[u8], offset: usize, out: &mut String) -> Option<()> {
    let rest = data.get(offset..)?;
    let len = rest.iter().position(|&b| b == 0)?;
    let bytes = &rest[..len];
    // Most programs repeat the names the last one had in the same places (`TEXCOORD`,
    // `SV_Position`): an ASCII name equal to the kept one is already there.
    if out.as_bytes() == bytes && bytes.is_ascii() {
        return Some(());
    }
    out.clear();
    // ASCII, as every name fxc writes, is its own Latin-1 and UTF-8: copied whole, not a
    // character at a time.
    match std::str::from_utf8(bytes) {
        Ok(ascii) if ascii.is_ascii() => out.push_str(ascii),
        _ => out.extend(bytes.iter().map(|&b| char::from(b))),
    }
    Some(())
}

/// Encodes a string read by [`cstr_at`] back to bytes (chars above U+00FF become `?`, which a
/// decoded string never contains).
pub(crate) fn latin1_bytes(s: &str) -> Vec<u8> {
    s.chars()
        .map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?'))
        .collect()
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

/// Pads `out` to a multiple of 4 bytes with fxc's `0xAB` filler.
pub(crate) fn pad_ab(out: &mut Vec<u8>) {
    while !out.len().is_multiple_of(4) {
        out.push(0xAB);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A name reads up to its NUL, ASCII or not: every byte is one Latin-1 character, and
    /// writing the string back gives the bytes read.
    #[test]
    fn names_read_as_latin1_up_to_their_nul() {
        let data = b"xx\x00SV_Position\x00caf\xe9\x00open";
        assert_eq!(cstr_at(data, 3).as_deref(), Some("SV_Position"));
        let accented = cstr_at(data, 15).expect("terminated");
        assert_eq!(accented, "caf\u{e9}");
        assert_eq!(latin1_bytes(&accented), b"caf\xe9");
        assert_eq!(cstr_at(data, 2).as_deref(), Some(""));
        assert_eq!(cstr_at(data, 20), None, "no NUL after it");
        assert_eq!(cstr_at(data, 99), None, "past the end");
    }

    /// Read into a kept name, the result is the name read alone, whatever was kept: an equal
    /// ASCII name is left in place, and a kept Latin-1 name whose UTF-8 bytes are the bytes
    /// read now is not taken for them (each byte is one character).
    #[test]
    fn names_read_into_kept_storage_are_read_alone() {
        let data = b"caf\xe9\x00caf\xc3\xa9\x00TEXCOORD\x00";
        let mut kept = String::new();
        for (offset, want) in [
            (0, "caf\u{e9}"),
            (5, "caf\u{c3}\u{a9}"),
            (11, "TEXCOORD"),
            (11, "TEXCOORD"),
            (0, "caf\u{e9}"),
        ] {
            assert_eq!(cstr_into(data, offset, &mut kept), Some(()));
            assert_eq!(kept, want, "at {offset}");
            assert_eq!(Some(kept.clone()), cstr_at(data, offset));
        }
        assert_eq!(cstr_into(data, 99, &mut kept), None);
        assert_eq!(kept, "caf\u{e9}", "left as it was");
    }
}
