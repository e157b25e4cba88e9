//! Input, output and patch-constant signatures (section 2), and fxc's listing tables of them.
//!
//! The encoder rebuilds fxc's string pool: names in element order, each distinct name stored once,
//! padded with `0xAB`. Every corpus chunk uses exactly that layout, so encoding is byte-exact; decoded
//! name offsets are still kept so that a chunk from another writer re-encodes unchanged too.

use std::collections::HashMap;
use std::fmt::Write as _;

use super::bad;
use crate::byteio::{cstr_into, latin1_bytes, pad_ab, put_u32, u32_at, u32_of, usize_of};
use crate::container::FourCC;
use crate::error::{DxbcError, Result};

/// One signature element (one row of fxc's table). The default is a blank row: no name, every
/// field 0.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SignatureElement {
    /// Geometry-shader output stream (OSG5 and v1 chunks; 0 elsewhere).
    pub stream: u32,
    /// Semantic name as written in the source, e.g. `TEXCOORD` or `SV_Position`.
    pub semantic_name: String,
    /// Semantic index, the `3` of `TEXCOORD3`.
    pub semantic_index: u32,
    /// `D3D_NAME` value (section 2.2); pixel-shader outputs such as `SV_Target` store 0.
    pub system_value: u32,
    /// `D3D_REGISTER_COMPONENT_TYPE`: 1 uint, 2 int, 3 float.
    pub component_type: u32,
    /// Register number, or `0xFFFFFFFF` for elements in special registers (`oDepth`…).
    pub register: u32,
    /// Components the element occupies in its register, x = bit 0.
    pub mask: u8,
    /// Inputs: components read. Outputs: components never written (complement over all four).
    pub rw_mask: u8,
    /// The two bytes after the masks (always zero from fxc), kept for exactness.
    pub reserved: u16,
    /// `D3D_MIN_PRECISION` (v1 chunks only; 0 elsewhere).
    pub min_precision: u32,
    /// The name offset found when decoding; `None` for elements built in memory.
    pub name_offset: Option<u32>,
}

/// A whole signature chunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signature {
    /// The chunk tag: ISGN, OSGN, OSG5, PCSG, ISG1, OSG1 or PSG1.
    pub kind: FourCC,
    /// The elements in chunk order.
    pub elements: Vec<SignatureElement>,
}

/// Record size and whether the record starts with a stream index, per tag.
fn layout(kind: FourCC) -> Option<(usize, bool)> {
    match kind {
        FourCC::ISGN | FourCC::OSGN | FourCC::PCSG => Some((24, false)),
        FourCC::OSG5 => Some((28, true)),
        FourCC::ISG1 | FourCC::OSG1 | FourCC::PSG1 => Some((32, true)),
        _ => None,
    }
}

/// Which listing section a signature belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Section {
    Input,
    Output,
    Patch,
}

fn section_of(kind: FourCC) -> Section {
    match kind {
        FourCC::ISGN | FourCC::ISG1 => Section::Input,
        FourCC::PCSG | FourCC::PSG1 => Section::Patch,
        _ => Section::Output,
    }
}

/// Where fxc puts a signature chunk among the others: inputs, then outputs, then patch constants.
pub(crate) fn section_rank(kind: FourCC) -> u8 {
    match section_of(kind) {
        Section::Input => 0,
        Section::Output => 1,
        Section::Patch => 2,
    }
}

impl Signature {
    /// Whether `tag` is one of the seven signature chunk tags.
    pub fn is_signature_tag(tag: FourCC) -> bool {
        layout(tag).is_some()
    }

    /// Decodes a signature chunk's data. Offsets are followed, never trusted.
    pub fn parse(kind: FourCC, data: &[u8]) -> Result<Signature> {
        let mut s = Signature {
            kind,
            elements: Vec::new(),
        };
        s.parse_into(kind, data)?;
        Ok(s)
    }

    /// [`Signature::parse`] over this signature, reusing its element list and their names'
    /// storage: `Shader::parse` decodes into a dropped shader's signatures (`spare`), so
    /// decoding program after program allocates no names. On an error this signature is left
    /// partly overwritten, to be overwritten again or dropped.
    pub(crate) fn parse_into(&mut self, kind: FourCC, data: &[u8]) -> Result<()> {
        let (size, has_stream) =
            layout(kind).ok_or_else(|| bad(kind, 0, "not a signature chunk tag"))?;
        let count = usize_of(u32_at(data, 0).ok_or_else(|| bad(kind, 0, "no element count"))?);
        let array = usize_of(u32_at(data, 4).ok_or_else(|| bad(kind, 4, "no element offset"))?);
        // Check the records fit before allocating anything sized by `count`.
        count
            .checked_mul(size)
            .and_then(|n| n.checked_add(array))
            .filter(|&end| end <= data.len())
            .ok_or_else(|| bad(kind, 0, format!("{count} elements do not fit in the chunk")))?;
        self.kind = kind;
        let elements = &mut self.elements;
        elements.truncate(count);
        elements.reserve_exact(count - elements.len());
        for i in 0..count {
            let base = array + i * size;
            let field = |k: usize| u32_at(data, base + 4 * k).unwrap_or(0);
            let (stream, rest) = if has_stream { (field(0), 1) } else { (0, 0) };
            let name_offset = field(rest);
            if i == elements.len() {
                elements.push(SignatureElement::default());
            }
            let e = &mut elements[i];
            cstr_into(data, usize_of(name_offset), &mut e.semantic_name).ok_or_else(|| {
                bad(
                    kind,
                    base,
                    format!("element {i}: bad name offset {name_offset}"),
                )
            })?;
            let masks = field(rest + 5);
            e.stream = stream;
            e.semantic_index = field(rest + 1);
            e.system_value = field(rest + 2);
            e.component_type = field(rest + 3);
            e.register = field(rest + 4);
            e.mask = masks.to_le_bytes()[0];
            e.rw_mask = masks.to_le_bytes()[1];
            e.reserved = (masks >> 16) as u16;
            e.min_precision = if size == 32 { field(7) } else { 0 };
            e.name_offset = Some(name_offset);
        }
        Ok(())
    }

    /// Encodes the chunk data. Uses the decoded name offsets when every element has one and they
    /// describe a consistent pool; otherwise fxc's canonical pool (see the module docs).
    pub fn encode(&self) -> Vec<u8> {
        let (size, has_stream) = layout(self.kind).unwrap_or((24, false));
        let pool_start = 8 + self.elements.len() * size;
        let (offsets, pool) = self
            .placed_pool(pool_start)
            .unwrap_or_else(|| canonical_pool(&self.elements, pool_start));
        let mut out = Vec::with_capacity(pool_start + pool.len() + 3);
        put_u32(&mut out, u32_of(self.elements.len()));
        put_u32(&mut out, 8);
        for (e, name_offset) in self.elements.iter().zip(offsets) {
            if has_stream {
                put_u32(&mut out, e.stream);
            }
            put_u32(&mut out, name_offset);
            put_u32(&mut out, e.semantic_index);
            put_u32(&mut out, e.system_value);
            put_u32(&mut out, e.component_type);
            put_u32(&mut out, e.register);
            let masks = u32::from(e.mask) | u32::from(e.rw_mask) << 8 | u32::from(e.reserved) << 16;
            put_u32(&mut out, masks);
            if size == 32 {
                put_u32(&mut out, e.min_precision);
            }
        }
        out.extend_from_slice(&pool);
        pad_ab(&mut out);
        out
    }

    /// The pool laid out at the decoded offsets, if all elements have one, each lies in the pool
    /// area, and overlapping names agree byte for byte. Gaps are zero-filled.
    fn placed_pool(&self, pool_start: usize) -> Option<(Vec<u32>, Vec<u8>)> {
        let offsets: Vec<u32> = self
            .elements
            .iter()
            .map(|e| e.name_offset)
            .collect::<Option<_>>()?;
        if offsets.is_empty() {
            return None;
        }
        let mut pool: Vec<Option<u8>> = Vec::new();
        for (e, &off) in self.elements.iter().zip(&offsets) {
            let at = usize_of(off).checked_sub(pool_start)?;
            let mut bytes = latin1_bytes(&e.semantic_name);
            bytes.push(0);
            let end = at.checked_add(bytes.len())?;
            if end > pool.len() {
                // Never let a hostile offset allocate more than a small multiple of the names.
                if end > 1 << 20 {
                    return None;
                }
                pool.resize(end, None);
            }
            for (slot, b) in pool[at..end].iter_mut().zip(bytes) {
                match slot {
                    Some(existing) if *existing != b => return None,
                    _ => *slot = Some(b),
                }
            }
        }
        Some((offsets, pool.into_iter().map(|b| b.unwrap_or(0)).collect()))
    }
}

/// fxc's pool: names in element order, exact duplicates stored once.
fn canonical_pool(elements: &[SignatureElement], pool_start: usize) -> (Vec<u32>, Vec<u8>) {
    let mut pool = Vec::new();
    let mut seen: HashMap<&str, u32> = HashMap::new();
    let offsets = elements
        .iter()
        .map(|e| {
            *seen.entry(e.semantic_name.as_str()).or_insert_with(|| {
                let off = u32_of(pool_start + pool.len());
                pool.extend_from_slice(&latin1_bytes(&e.semantic_name));
                pool.push(0);
                off
            })
        })
        .collect();
    (offsets, pool)
}

// ---------------------------------------------------------------------------------------------
// fxc listing tables

/// `D3D_NAME` values and their SysValue column spellings.
const SYSTEM_VALUES: [(u32, &str); 16] = [
    (1, "POS"),
    (2, "CLIPDST"),
    (3, "CULLDST"),
    (4, "RTINDEX"),
    (5, "VPINDEX"),
    (6, "VERTID"),
    (7, "PRIMID"),
    (8, "INSTID"),
    (9, "FFACE"),
    (10, "SAMPLE"),
    (11, "QUADEDGE"),
    (12, "QUADINT"),
    (13, "TRIEDGE"),
    (14, "TRIINT"),
    (15, "LINEDET"),
    (16, "LINEDEN"),
];

/// Pixel outputs stored as system value 0 but listed by what their name means.
const NAMED_ZERO: [(&str, &str, &str); 6] = [
    ("SV_TARGET", "TARGET", ""),
    ("SV_DEPTH", "DEPTH", "oDepth"),
    ("SV_DEPTHGREATEREQUAL", "DEPTHGE", "oDepthGE"),
    ("SV_DEPTHLESSEQUAL", "DEPTHLE", "oDepthLE"),
    ("SV_COVERAGE", "COVERAGE", "oMask"),
    ("SV_STENCILREF", "STENCILREF", "oStencilRef"),
];

fn sysvalue_text(e: &SignatureElement) -> String {
    if e.system_value == 0 {
        let upper = e.semantic_name.to_ascii_uppercase();
        return NAMED_ZERO
            .iter()
            .find(|(n, _, _)| *n == upper)
            .map_or("NONE", |(_, s, _)| s)
            .to_string();
    }
    SYSTEM_VALUES
        .iter()
        .find(|(v, _)| *v == e.system_value)
        .map_or_else(|| e.system_value.to_string(), |(_, s)| s.to_string())
}

fn register_text(e: &SignatureElement) -> String {
    if e.register != u32::MAX {
        return e.register.to_string();
    }
    let upper = e.semantic_name.to_ascii_uppercase();
    NAMED_ZERO
        .iter()
        .find(|(n, _, r)| *n == upper && !r.is_empty())
        .map_or("N/A", |(_, _, r)| r)
        .to_string()
}

fn format_text(component_type: u32) -> String {
    match component_type {
        1 => "uint".to_string(),
        2 => "int".to_string(),
        3 => "float".to_string(),
        0 => "unknown".to_string(),
        other => other.to_string(),
    }
}

/// A mask as fxc's positional 4-character column (`xy  `, ` y  `).
fn positional(mask: u8) -> String {
    "xyzw"
        .chars()
        .enumerate()
        .map(|(i, c)| if mask & (1 << i) != 0 { c } else { ' ' })
        .collect()
}

const TABLE_HEADER: &str = "// Name                 Index   Mask Register SysValue  Format   Used\n\
// -------------------- ----- ------ -------- -------- ------- ------\n";

impl Signature {
    /// Whether the Used column shows written components (`mask & !rw_mask`) rather than the read
    /// components (`rw_mask`). Output chunks are outputs; a patch-constant chunk is an output of a
    /// hull shader, which shows as rw bits outside `mask` (fxc's never-written complement).
    pub fn is_output(&self) -> bool {
        match section_of(self.kind) {
            Section::Input => false,
            Section::Output => true,
            Section::Patch => self.elements.iter().any(|e| e.rw_mask & !e.mask & 0xF != 0),
        }
    }

    /// fxc's listing table for this chunk, from the `// Input signature:` line through the rows and
    /// the closing `//` (an empty table prints `// no Input` and no closing line, like fxc).
    /// For patch-constant chunks the direction comes from [`Signature::is_output`].
    pub fn to_fxc_comment(&self) -> String {
        self.to_fxc_comment_as(self.is_output())
    }

    /// As [`Signature::to_fxc_comment`], with the Used-column direction given explicitly.
    pub fn to_fxc_comment_as(&self, output: bool) -> String {
        let title = match section_of(self.kind) {
            Section::Input => "Input",
            Section::Output => "Output",
            Section::Patch => "Patch Constant",
        };
        let mut s = format!("// {title} signature:\n//\n{TABLE_HEADER}");
        if self.elements.is_empty() {
            let _ = writeln!(s, "// no {title}");
            return s;
        }
        for e in &self.elements {
            // A name is arbitrary bytes: a line break in it would end the comment and put the
            // rest of the row into the listing's code, so control characters print as `\xNN`.
            let mut name = String::new();
            if e.stream != 0 {
                let _ = write!(name, "m{}:", e.stream);
            }
            for c in e.semantic_name.chars() {
                if c.is_ascii_control() {
                    let _ = write!(name, "\\x{:02x}", u32::from(c));
                } else {
                    name.push(c);
                }
            }
            let used_bits = if output {
                e.mask & !e.rw_mask & 0xF
            } else {
                e.rw_mask & 0xF
            };
            let (mask, used) = if e.register == u32::MAX {
                let yes = if used_bits != 0 { "YES" } else { "NO" };
                ("   N/A".to_string(), format!("{yes:>6}"))
            } else {
                (
                    format!("  {}", positional(e.mask)),
                    format!("  {}", positional(used_bits)),
                )
            };
            let _ = writeln!(
                s,
                "// {name:<20} {:>5} {mask} {:>8} {:>8} {:>7} {used}",
                e.semantic_index,
                register_text(e),
                sysvalue_text(e),
                format_text(e.component_type),
            );
        }
        s.push_str("//\n");
        s
    }
}

/// The shader stage named by a listing's version line (`ps_5_0`…), if any.
fn listing_stage(text: &str) -> Option<(String, u32)> {
    text.lines().map(str::trim).find_map(|l| {
        let (stage, rest) = l.split_once('_')?;
        let major = rest.split('_').next()?.parse::<u32>().ok()?;
        let known = ["vs", "ps", "gs", "hs", "ds", "cs"].contains(&stage);
        (known && !l.starts_with("//")).then(|| (stage.to_string(), major))
    })
}

/// Rebuilds the signature chunks from fxc's listing tables (section 3.6), in listing order.
///
/// Takes the stage from the listing's version line (`hs_*` makes the patch-constant table an
/// output, `ds_*` an input; `gs_5_*` outputs are `OSG5`). What the tables cannot carry: the
/// min-precision field (0), the reserved mask bytes (0), name offsets (fxc's pool is used), and for
/// `N/A` rows the mask (taken as `x`). Output rw-masks are rebuilt as `0xF & !used`.
pub fn parse_fxc_signature_comments(text: &str) -> Result<Vec<Signature>> {
    let stage = listing_stage(text);
    let stage_name = stage.as_ref().map(|(s, _)| s.as_str());
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim_end();
        let section = match line {
            "// Input signature:" => Section::Input,
            "// Output signature:" => Section::Output,
            "// Patch Constant signature:" => Section::Patch,
            _ => {
                i += 1;
                continue;
            }
        };
        let kind = match section {
            Section::Input => FourCC::ISGN,
            Section::Output if stage == Some(("gs".to_string(), 5)) => FourCC::OSG5,
            Section::Output => FourCC::OSGN,
            Section::Patch => FourCC::PCSG,
        };
        let output = match section {
            Section::Input => false,
            Section::Output => true,
            Section::Patch => stage_name != Some("ds"),
        };
        // Title, "//", header, dashes, then rows up to a line that is not a row.
        i += 4;
        let mut elements = Vec::new();
        while i < lines.len() {
            let row = lines[i];
            let Some(body) = row.strip_prefix("// ") else {
                break;
            };
            if body.starts_with("no ") {
                i += 1;
                break;
            }
            elements.push(parse_row(body, output, i + 1)?);
            i += 1;
        }
        out.push(Signature { kind, elements });
    }
    Ok(out)
}

fn parse_row(body: &str, output: bool, line: usize) -> Result<SignatureElement> {
    let err = |column: usize, what: String| DxbcError::Syntax { line, column, what };
    let name_field = body.split(' ').next().unwrap_or("");
    if name_field.is_empty() {
        return Err(err(4, "signature row without a name".to_string()));
    }
    let (stream, name) = match name_field.split_once(':') {
        Some((m, n)) if m.starts_with('m') => (
            m[1..]
                .parse::<u32>()
                .map_err(|_| err(4, format!("bad stream {m:?}")))?,
            n,
        ),
        _ => (0, name_field),
    };
    // Everything after the name is fixed-width; long names just push it right.
    let start = name_field.len().max(20);
    let mut rest: String = body.get(start..).unwrap_or("").to_string();
    while rest.len() < 46 {
        rest.push(' ');
    }
    let col = |a: usize, b: usize| rest.get(a..b).unwrap_or("").trim().to_string();
    let column_of = |a: usize| 4 + start + a;
    let index_text = col(0, 6);
    let mask_text = rest.get(7..13).unwrap_or("").to_string();
    let reg_text = col(13, 22);
    let sv_text = col(22, 31);
    let fmt_text = col(31, 39);
    let used_text = rest.get(41..).unwrap_or("").to_string();

    let semantic_index = index_text
        .parse()
        .map_err(|_| err(column_of(0), format!("bad index {index_text:?}")))?;
    let letters = |t: &str| -> std::result::Result<u8, String> {
        let mut m = 0u8;
        for c in t.chars() {
            m |= match c {
                'x' => 1,
                'y' => 2,
                'z' => 4,
                'w' => 8,
                ' ' => 0,
                _ => return Err(format!("bad mask {t:?}")),
            };
        }
        Ok(m)
    };
    let special = mask_text.trim() == "N/A";
    let mask = if special {
        1
    } else {
        letters(&mask_text).map_err(|w| err(column_of(7), w))?
    };
    let used = if special {
        match used_text.trim() {
            "YES" => 1,
            "NO" | "" => 0,
            t => return Err(err(column_of(41), format!("bad used {t:?}"))),
        }
    } else {
        letters(used_text.trim_end()).map_err(|w| err(column_of(41), w))?
    };
    let register = reg_text.parse::<u32>().unwrap_or(u32::MAX);
    let system_value = if let Ok(v) = sv_text.parse::<u32>() {
        v
    } else if let Some((v, _)) = SYSTEM_VALUES.iter().find(|(_, s)| *s == sv_text) {
        *v
    } else if sv_text == "NONE" || NAMED_ZERO.iter().any(|(_, s, _)| *s == sv_text) {
        0
    } else {
        return Err(err(
            column_of(22),
            format!("unknown system value {sv_text:?}"),
        ));
    };
    let component_type = match fmt_text.as_str() {
        "uint" => 1,
        "int" => 2,
        "float" => 3,
        "unknown" => 0,
        t => t
            .parse()
            .map_err(|_| err(column_of(31), format!("unknown format {t:?}")))?,
    };
    let rw_mask = if output { 0xF & !used } else { used };
    Ok(SignatureElement {
        stream,
        semantic_name: name.to_string(),
        semantic_index,
        system_value,
        component_type,
        register,
        mask,
        rw_mask,
        reserved: 0,
        min_precision: 0,
        name_offset: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn element(name: &str, register: u32) -> SignatureElement {
        SignatureElement {
            stream: 0,
            semantic_name: name.to_string(),
            semantic_index: 0,
            system_value: 0,
            component_type: 3,
            register,
            mask: 0xF,
            rw_mask: 0xF,
            reserved: 0,
            min_precision: 0,
            name_offset: None,
        }
    }

    #[test]
    fn fresh_signature_uses_shared_pool_and_round_trips() {
        for kind in [FourCC::ISGN, FourCC::OSG5, FourCC::OSG1] {
            let sig = Signature {
                kind,
                elements: vec![
                    element("TEXCOORD", 0),
                    element("COLOR", 1),
                    element("TEXCOORD", 2),
                ],
            };
            let bytes = sig.encode();
            assert_eq!(bytes.len() % 4, 0);
            let back = Signature::parse(kind, &bytes).expect("own encoding parses");
            assert_eq!(back.elements[0].name_offset, back.elements[2].name_offset);
            assert_eq!(back.encode(), bytes);
        }
    }

    #[test]
    fn malformed_chunks_are_errors() {
        let sig = Signature {
            kind: FourCC::ISGN,
            elements: vec![element("A", 0)],
        };
        let bytes = sig.encode();
        for len in 0..bytes.len() - 4 {
            assert!(
                Signature::parse(FourCC::ISGN, &bytes[..len]).is_err(),
                "len {len}"
            );
        }
        let mut huge = bytes.clone();
        huge[0..4].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(Signature::parse(FourCC::ISGN, &huge).is_err());
        let mut far = bytes.clone();
        far[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(Signature::parse(FourCC::ISGN, &far).is_err());
        let mut name = bytes;
        name[8..12].copy_from_slice(&0xFFFF_FFF0u32.to_le_bytes());
        assert!(Signature::parse(FourCC::ISGN, &name).is_err());
        // A hostile name offset still encodes (it falls back to the canonical pool).
        let mut e = element("A", 0);
        e.name_offset = Some(u32::MAX);
        let _ = Signature {
            kind: FourCC::ISGN,
            elements: vec![e],
        }
        .encode();
    }
}
