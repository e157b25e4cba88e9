//! fxc's text syntax -> [`Program`]. Reads dxdiff's own exact text and fxc's listings (`/Fc`),
//! which only differ in that fxc prints some float immediates lossily. Lines starting with `//`
//! are comments, except that fxc's signature tables in them rebuild the signature chunks.

use crate::decode::decode_one_instruction;
use crate::error::{DxbcError, Result};
use crate::ir::*;
use crate::names;
use crate::numfmt::parse_imm;
use crate::opcodes::{Ctl, Num, Opcode, TABLE};
use std::collections::HashMap;
use std::sync::LazyLock;

/// The result of assembling a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assembled {
    pub program: Program,
    /// Comment lines, for the caller to rebuild signatures from (fxc's listing header).
    pub comments: String,
}

/// Assemble a whole text: an optional comment header, the version line, then instructions.
pub fn assemble(text: &str) -> Result<Assembled> {
    let mut comments = String::new();
    let mut version: Option<Version> = None;
    let mut instructions = Vec::new();
    // (first line, joined text, brace depth so far): depth is kept incrementally so that an
    // unclosed `{` followed by many lines stays linear.
    let mut pending: Option<(usize, String, i64)> = None;
    for (n, raw) in text.lines().enumerate() {
        let line_no = n + 1;
        let trimmed = raw.trim();
        if let Some(rest) = trimmed.strip_prefix("//") {
            comments.push_str(rest);
            comments.push('\n');
            continue;
        }
        let line = strip_line_prefix(trimmed);
        if line.is_empty() {
            continue;
        }
        // The immediate constant buffer spans lines until its braces balance.
        let (start, joined, depth) = match pending.take() {
            Some((start, mut acc, depth)) => {
                acc.push(' ');
                acc.push_str(line);
                (start, acc, depth + brace_depth(line))
            }
            None => (line_no, line.to_string(), brace_depth(line)),
        };
        if depth > 0 {
            pending = Some((start, joined, depth));
            continue;
        }
        match version {
            None => {
                version = Some(parse_version(&joined).ok_or_else(|| DxbcError::Syntax {
                    line: start,
                    column: 1,
                    what: format!("expected a version line such as ps_5_0, found `{joined}`"),
                })?);
            }
            Some(v) => {
                let inst = parse_line(&joined, v).map_err(|e| e.at_line(start))?;
                instructions.push(inst);
            }
        }
    }
    if let Some((start, _, _)) = pending {
        return Err(DxbcError::Syntax {
            line: start,
            column: 1,
            what: "unclosed `{`".into(),
        });
    }
    let version = version.ok_or(DxbcError::Syntax {
        line: 1,
        column: 1,
        what: "no version line".into(),
    })?;
    Ok(Assembled {
        program: Program {
            version,
            instructions,
        },
        comments,
    })
}

/// Whether `text` assembles back to exactly `inst` (the disassembler's exactness check).
pub(crate) fn line_reproduces(text: &str, version: Version, inst: &Instruction) -> bool {
    matches!(parse_line(text, version), Ok(parsed) if parsed == *inst)
}

/// A parse error before its line number is known.
///
/// Errors found deep inside a line (an operand's suffix, an index) point at the text they are
/// about by its address (`at`), which [`parse_line`] turns into a column of the whole line, so
/// the sub-parsers need not thread offsets through.
#[derive(Debug)]
pub struct LineError {
    column: usize,
    at: Option<usize>,
    what: String,
}

impl LineError {
    fn at_line(self, line: usize) -> DxbcError {
        DxbcError::Syntax {
            line,
            column: self.column,
            what: self.what,
        }
    }

    /// Resolves `at` to a 1-based column of `line` when it points into it.
    fn in_line(mut self, line: &str) -> LineError {
        let base = line.as_ptr() as usize;
        if let Some(at) = self.at.take()
            && (base..=base + line.len()).contains(&at)
        {
            self.column = at - base + 1;
        }
        self
    }
}

/// An error about `part`, a slice of the line being parsed.
pub(crate) fn error_at(part: &str, what: impl Into<String>) -> LineError {
    LineError {
        column: 1,
        at: Some(part.as_ptr() as usize),
        what: what.into(),
    }
}

pub(crate) type P<T> = std::result::Result<T, LineError>;

pub(crate) fn syntax(what: &str) -> LineError {
    LineError {
        column: 1,
        at: None,
        what: what.to_string(),
    }
}

pub(crate) fn split_top_pub(s: &str) -> Vec<&str> {
    split_top(s)
}

fn err<T>(what: impl Into<String>) -> P<T> {
    Err(LineError {
        column: 1,
        at: None,
        what: what.into(),
    })
}

/// fxc `/Ni` and `/No` listings prefix lines with `12:` or `0x00000090:`.
fn strip_line_prefix(line: &str) -> &str {
    if let Some(colon) = line.find(':') {
        let head = &line[..colon];
        let is_num = !head.is_empty() && head.bytes().all(|b| b.is_ascii_digit());
        // Bytes, not `str` slices: `head` may start with a multi-byte character.
        let is_hex = head.len() > 2
            && head.as_bytes()[..2].eq_ignore_ascii_case(b"0x")
            && head.as_bytes()[2..].iter().all(u8::is_ascii_hexdigit);
        if is_num || is_hex {
            return line[colon + 1..].trim();
        }
    }
    line
}

fn brace_depth(s: &str) -> i64 {
    s.bytes().fold(0, |d, b| match b {
        b'{' => d + 1,
        b'}' => d - 1,
        _ => d,
    })
}

fn parse_version(s: &str) -> Option<Version> {
    let mut parts = s.split('_');
    let stage = Stage::from_prefix(parts.next()?)?;
    let major: u8 = parts.next()?.parse().ok()?;
    let minor: u8 = parts.next()?.parse().ok()?;
    if parts.next().is_some() || !(4..=5).contains(&major) || minor > 1 {
        return None;
    }
    Some(Version::new(stage, major, minor))
}

static MNEMONICS: LazyLock<HashMap<String, Opcode>> = LazyLock::new(|| {
    let mut m: HashMap<String, Opcode> = TABLE
        .iter()
        .map(|i| (i.mnemonic.to_ascii_lowercase(), i.opcode))
        .collect();
    for (alias, op) in [
        ("ld_ms", Opcode::Ldms),
        ("ld2dms", Opcode::Ldms),
        ("sample_info", Opcode::Sampleinfo),
        ("sample_pos", Opcode::Samplepos),
        ("dsx", Opcode::DerivRtx),
        ("dsy", Opcode::DerivRty),
        ("emitthencut", Opcode::EmitThenCut),
        ("dcl_maxoutputvertexcount", Opcode::DclMaxout),
        ("dcl_gs_instances", Opcode::DclGsinstances),
    ] {
        m.insert(alias.to_string(), op);
    }
    m
});

/// Split at top-level commas (not inside (), [] or {}).
fn split_top(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b',' if depth == 0 => {
                out.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    let last = s[start..].trim();
    if !last.is_empty() || !out.is_empty() {
        out.push(last);
    }
    out
}

/// The head of an instruction line: mnemonic identifier, `[precise...]`, parenthesised groups and
/// a trailing `_uint`/`_rcpfloat`; returns (identifier parts, paren groups, precise, rest).
struct Head<'a> {
    ident: String,
    groups: Vec<&'a str>,
    precise: Option<u8>,
    rest: &'a str,
}

fn split_head(line: &str) -> P<Head<'_>> {
    let b = line.as_bytes();
    let mut i = 0;
    let mut ident = String::new();
    let mut groups = Vec::new();
    let mut precise = None;
    loop {
        let start = i;
        while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
            i += 1;
        }
        ident.push_str(&line[start..i]);
        let mut progressed = i > start;
        // ` [precise]` / ` [precise(xy)]`
        let ws_end = i + line[i..].len() - line[i..].trim_start().len();
        if line[ws_end..].starts_with("[precise") {
            let close = line[ws_end..].find(']').ok_or(LineError {
                column: ws_end + 1,
                at: None,
                what: "unclosed [precise".into(),
            })? + ws_end;
            let inner = &line[ws_end + 1..close];
            precise = Some(match inner.strip_prefix("precise") {
                Some("") => 0xF,
                Some(rest) => {
                    let comps = rest
                        .strip_prefix('(')
                        .and_then(|r| r.strip_suffix(')'))
                        .ok_or_else(|| error_at(rest, "expected [precise(mask)]"))?;
                    write_mask(comps)?
                }
                None => return err("bad [precise]"),
            });
            i = close + 1;
            progressed = true;
        }
        while i < b.len() && b[i] == b'(' {
            let close = line[i..].find(')').ok_or(LineError {
                column: i + 1,
                at: None,
                what: "unclosed `(`".into(),
            })? + i;
            groups.push(&line[i + 1..close]);
            i = close + 1;
            progressed = true;
        }
        if !progressed || i >= b.len() || !(b[i] == b'_' || b[i].is_ascii_alphanumeric()) {
            break;
        }
    }
    Ok(Head {
        ident,
        groups,
        precise,
        rest: line[i..].trim(),
    })
}

/// A write mask (destinations, declarations, `[precise(...)]`): distinct components in the
/// order x, y, z, w. fxc never writes anything else, and `.xxyz` or `.yx` would otherwise
/// assemble silently as some other mask.
fn write_mask(letters: &str) -> P<u8> {
    let mut mask = 0u8;
    let mut last: Option<u8> = None;
    for (k, c) in letters.char_indices() {
        let at = || &letters[k..];
        let i = match c.to_ascii_lowercase() {
            'x' => 0,
            'y' => 1,
            'z' => 2,
            'w' => 3,
            _ => {
                return Err(error_at(
                    at(),
                    format!("`{c}` is not a mask component (x, y, z, w)"),
                ));
            }
        };
        if last.is_some_and(|l| l >= i) {
            return Err(error_at(
                at(),
                format!(
                    "mask `.{letters}`: components must be distinct and in the order x, y, z, w"
                ),
            ));
        }
        last = Some(i);
        mask |= 1 << i;
    }
    if mask == 0 {
        return Err(error_at(letters, "empty mask"));
    }
    Ok(mask)
}

/// A source swizzle or select: 1-4 letters, all from `xyzw` or all from `rgba`.
fn swizzle_letters(letters: &str) -> P<Vec<u8>> {
    let set = |c: char| match c.to_ascii_lowercase() {
        'x' | 'y' | 'z' | 'w' => Some(0),
        'r' | 'g' | 'b' | 'a' => Some(1),
        _ => None,
    };
    let first_set = letters.chars().next().and_then(set);
    let mut out = Vec::with_capacity(4);
    for (k, c) in letters.char_indices() {
        if out.len() == 4 || set(c).is_none() || set(c) != first_set {
            return Err(error_at(
                &letters[k..],
                format!("bad swizzle `.{letters}` (1-4 of xyzw, or of rgba)"),
            ));
        }
        out.extend(component_index(c));
    }
    Ok(out)
}

fn component_index(c: char) -> Option<u8> {
    match c.to_ascii_lowercase() {
        'x' | 'r' => Some(0),
        'y' | 'g' => Some(1),
        'z' | 'b' => Some(2),
        'w' | 'a' => Some(3),
        _ => None,
    }
}

/// Suffixes an instruction stem may carry, in any order after the stem.
#[derive(Default)]
struct Suffixes {
    test: Option<Test>,
    aoffimmi: bool,
    indexable: bool,
    saturate: bool,
    sync: u32,
    uint: bool,
    rcpfloat: bool,
}

/// Each suffix at most once, and `_z`/`_nz` not both: a repeated or contradictory suffix is a
/// typo, not a request.
fn parse_suffixes(mut rest: &str, opcode: Opcode) -> Option<Suffixes> {
    let mut s = Suffixes::default();
    let mut seen: Vec<&str> = Vec::new();
    while !rest.is_empty() {
        let r = rest.strip_prefix('_')?;
        let end = r.find('_').unwrap_or(r.len());
        let word = &r[..end];
        let family = match word {
            "nz" => "z",
            "ugroup" => "sat",
            w => w,
        };
        if seen.contains(&family) {
            return None;
        }
        seen.push(family);
        match word {
            "z" => s.test = Some(Test::Zero),
            "nz" => s.test = Some(Test::NonZero),
            "aoffimmi" => s.aoffimmi = true,
            "indexable" => s.indexable = true,
            "sat" if opcode == Opcode::Sync => s.sync |= 4,
            "sat" => s.saturate = true,
            "t" if opcode == Opcode::Sync => s.sync |= 1,
            "g" if opcode == Opcode::Sync => s.sync |= 2,
            "ugroup" if opcode == Opcode::Sync => s.sync |= 4,
            "uglobal" if opcode == Opcode::Sync => s.sync |= 8,
            "uint" => s.uint = true,
            "rcpfloat" => s.rcpfloat = true,
            _ => return None,
        }
        rest = &r[end..];
    }
    Some(s)
}

/// Find the longest known stem at an underscore boundary whose remainder is valid suffixes.
fn split_mnemonic(ident: &str) -> Option<(Opcode, Suffixes)> {
    let lower = ident.to_ascii_lowercase();
    let mut cut = lower.len();
    loop {
        if let Some(&op) = MNEMONICS.get(&lower[..cut])
            && let Some(s) = parse_suffixes(&lower[cut..], op)
        {
            return Some((op, s));
        }
        cut = lower[..cut].rfind('_')?;
    }
}

/// Parse one instruction or declaration line.
pub fn parse_line(line: &str, version: Version) -> P<Instruction> {
    parse_line_at(line, version).map_err(|e| e.in_line(line))
}

fn parse_line_at(line: &str, version: Version) -> P<Instruction> {
    if let Some(rest) = line.strip_prefix(".raw") {
        let words = rest
            .split(',')
            .map(|w| parse_u32(w.trim()))
            .collect::<Option<Vec<u32>>>()
            .ok_or(LineError {
                column: 6,
                at: None,
                what: "`.raw` needs comma-separated words".into(),
            })?;
        return decode_one_instruction(&words).map_err(|e| LineError {
            column: 6,
            at: None,
            what: e.to_string(),
        });
    }
    if line
        .to_ascii_lowercase()
        .starts_with("dcl_immediateconstantbuffer")
    {
        return parse_icb(line);
    }
    let lower = line.to_ascii_lowercase();
    if lower.starts_with("printf ") || lower.starts_with("errorf ") {
        return parse_message(line, version);
    }
    let head = split_head(line)?;
    if head.ident.to_ascii_lowercase().starts_with("dcl_") {
        return crate::asm_decl::parse_declaration(&head.ident, &head.groups, head.rest, version);
    }
    let (opcode, sfx) = split_mnemonic(&head.ident).ok_or(LineError {
        column: 1,
        at: None,
        what: format!("unknown instruction `{}`", head.ident),
    })?;
    let info = opcode.info();
    if info.is_declaration() {
        return err(format!("`{}` is a declaration", head.ident));
    }
    if (sfx.saturate || head.precise.is_some()) && !info.ctl.has_value_bits() {
        return err(format!("`{}` takes no _sat or [precise]", info.mnemonic));
    }
    let mut inst = Instruction::new(opcode);
    inst.saturate = sfx.saturate;
    inst.precise = head.precise.unwrap_or(0);
    if info.ctl == Ctl::Test {
        inst.test = Some(sfx.test.ok_or(LineError {
            column: 1,
            at: None,
            what: format!("`{}` needs _z or _nz", info.mnemonic),
        })?);
    } else if sfx.test.is_some() {
        return err(format!("`{}` takes no _z/_nz", info.mnemonic));
    }
    inst.controls |= sfx.sync << 11;
    match info.ctl {
        Ctl::ResInfo => inst.controls |= (u32::from(sfx.rcpfloat) | u32::from(sfx.uint) << 1) << 11,
        Ctl::SampleInfo => inst.controls |= u32::from(sfx.uint) << 11,
        _ if sfx.uint || sfx.rcpfloat => return err("_uint/_rcpfloat on the wrong instruction"),
        _ => {}
    }
    let mut groups = head.groups.iter();
    if sfx.aoffimmi {
        let g = groups.next().ok_or(LineError {
            column: 1,
            at: None,
            what: "_aoffimmi needs (u,v,w)".into(),
        })?;
        let v: Vec<i8> = g
            .split(',')
            .map(|x| x.trim().parse::<i8>())
            .collect::<std::result::Result<_, _>>()
            .map_err(|_| LineError {
                column: 1,
                at: None,
                what: format!("bad offsets ({g})"),
            })?;
        if v.len() != 3 || v.iter().any(|o| !(-8..=7).contains(o)) {
            return Err(error_at(g, "_aoffimmi needs three offsets in -8..=7"));
        }
        inst.extended.push(ExtendedOpcode::SampleControls {
            offsets: [v[0], v[1], v[2]],
        });
    }
    if sfx.indexable {
        let g = groups.next().ok_or(LineError {
            column: 1,
            at: None,
            what: "_indexable needs (dimension)".into(),
        })?;
        let mut parts = g.split(',');
        let dim = names::value(
            names::RESOURCE_DIMENSIONS,
            parts.next().unwrap_or("").trim(),
        )
        .ok_or(LineError {
            column: 1,
            at: None,
            what: format!("bad resource dimension ({g})"),
        })?;
        let stride = match parts.next() {
            Some(p) => p
                .trim()
                .strip_prefix("stride=")
                .and_then(|v| v.trim().parse::<u16>().ok())
                .ok_or(LineError {
                    column: 1,
                    at: None,
                    what: format!("bad stride ({g})"),
                })?,
            None => 0,
        };
        inst.extended.push(ExtendedOpcode::ResourceDim {
            dim: dim as u8,
            stride,
        });
        if let Some(g) = groups.next() {
            inst.extended.push(ExtendedOpcode::ReturnType {
                types: parse_return_types(g)?,
            });
        }
    }
    if groups.next().is_some() {
        return err("unexpected parenthesised group");
    }
    let mut texts = split_top(head.rest);
    if opcode == Opcode::Fcall {
        // `fcall fp3[r0.x + 0][0]`: the last bracket is the raw call-site DWORD.
        let t = texts.first().copied().unwrap_or("");
        let open = t.rfind('[').ok_or(LineError {
            column: 1,
            at: None,
            what: "fcall needs fp#[...][call site]".into(),
        })?;
        let site = parse_u32(t[open + 1..].trim_end_matches(']').trim()).ok_or(LineError {
            column: 1,
            at: None,
            what: "bad fcall call site".into(),
        })?;
        inst.leading.push(site);
        texts = vec![&t[..open]];
    }
    if texts.len() != info.operand_count() {
        return err(format!(
            "`{}` takes {} operands, found {}",
            info.mnemonic,
            info.operand_count(),
            texts.len()
        ));
    }
    for (slot, text) in texts.iter().enumerate() {
        let role = if slot < info.dst as usize {
            Role::Dst
        } else {
            Role::Src
        };
        inst.operands
            .push(parse_operand(text, info.num(slot), role, version)?);
    }
    // fxc appends one zero DWORD to `samplepos` when its resource is a `t#` register.
    if opcode == Opcode::Samplepos
        && inst
            .operands
            .get(1)
            .is_some_and(|o| o.ty == OperandType::Resource)
    {
        inst.trailing.push(0);
    }
    Ok(inst)
}

fn parse_message(line: &str, version: Version) -> P<Instruction> {
    let id = if line[..6].eq_ignore_ascii_case("printf") {
        crate::disasm::MESSAGE_PRINTF
    } else {
        crate::disasm::MESSAGE_ERRORF
    };
    let rest = line[6..].trim();
    let body = rest
        .strip_prefix('"')
        .ok_or_else(|| syntax("expected a quoted message"))?;
    let close = body
        .find('"')
        .ok_or_else(|| syntax("unclosed message string"))?;
    let text = &body[..close];
    let after = body[close + 1..].trim();
    let mut op_words = Vec::new();
    let mut count = 0u32;
    if let Some(ops) = after.strip_prefix(',') {
        for t in split_top(ops) {
            let op = parse_operand(t, Num::Uint, Role::Src, version)?;
            crate::encode::encode_operand(&op, &mut op_words, 0).map_err(|e| syntax(&e))?;
            count += 1;
        }
    } else if !after.is_empty() {
        return err("unexpected text after the message");
    }
    let mut bytes = text.as_bytes().to_vec();
    bytes.push(0);
    while bytes.len() % 4 != 0 {
        bytes.push(0);
    }
    // Format 1 marks printf-style text; fxc writes it whenever the text has a `%` argument.
    let format = u32::from(text.contains('%'));
    let mut payload = vec![id, format, text.len() as u32, count, op_words.len() as u32];
    payload.extend(op_words);
    payload.extend(
        bytes
            .chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
    );
    let mut inst = Instruction::new(Opcode::Customdata);
    inst.custom = Some(CustomData {
        class: CustomData::CLASS_MESSAGE,
        payload,
    });
    Ok(inst)
}

pub(crate) fn parse_return_types(g: &str) -> P<[u8; 4]> {
    let v: Option<Vec<u8>> = g
        .split(',')
        .map(|t| {
            names::value(names::RETURN_TYPES, t.trim().trim_matches(['<', '>'])).map(|v| v as u8)
        })
        .collect();
    match v {
        Some(v) if v.len() == 4 => Ok([v[0], v[1], v[2], v[3]]),
        _ => err(format!("bad return types ({g})")),
    }
}

fn parse_icb(line: &str) -> P<Instruction> {
    let open = line.find('{').ok_or(LineError {
        column: 1,
        at: None,
        what: "dcl_immediateConstantBuffer needs { ... }".into(),
    })?;
    let body = line[open + 1..].trim().strip_suffix('}').ok_or(LineError {
        column: 1,
        at: None,
        what: "unclosed immediate constant buffer".into(),
    })?;
    let mut payload = Vec::new();
    for row in split_top(body) {
        let inner = row
            .trim()
            .strip_prefix('{')
            .and_then(|r| r.strip_suffix('}'))
            .ok_or(LineError {
                column: 1,
                at: None,
                what: format!("bad row `{row}`"),
            })?;
        let values: Vec<&str> = inner.split(',').collect();
        if values.len() != 4 {
            return Err(error_at(
                row,
                "an immediate constant buffer row has four values",
            ));
        }
        for v in values {
            payload
                .push(parse_imm(v.trim()).ok_or_else(|| error_at(v, format!("bad value `{v}`")))?);
        }
    }
    let mut inst = Instruction::new(Opcode::Customdata);
    inst.custom = Some(CustomData {
        class: CustomData::CLASS_ICB,
        payload,
    });
    Ok(inst)
}

pub(crate) fn parse_u32(s: &str) -> Option<u32> {
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u32::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    }
}

/// Where an operand sits, which decides what a one-letter suffix means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    Dst,
    Src,
    /// Declaration operands print masks.
    Decl,
}

/// The component count of an operand printed without a suffix (fxc omits it for 0- and
/// 1-component operands). Measured on fxc's output: scalar system-value inputs are declared with
/// 0 components but read with 1, while `vCoverage` and the depth outputs have 1 in both.
fn bare_components(ty: OperandType, role: Role) -> Components {
    use OperandType::*;
    match ty {
        InputPrimitiveId
        | OutputControlPointId
        | InputForkInstanceId
        | InputJoinInstanceId
        | InputThreadIdInGroupFlattened
        | InputGsInstanceId
            if role == Role::Decl =>
        {
            Components::Zero
        }
        InputPrimitiveId
        | OutputDepth
        | OutputCoverageMask
        | OutputDepthGreaterEqual
        | OutputDepthLessEqual
        | OutputStencilRef
        | InputCoverageMask
        | InputThreadIdInGroupFlattened
        | OutputControlPointId
        | InputForkInstanceId
        | InputJoinInstanceId
        | InputGsInstanceId
        | CycleCounter
        | InnerCoverage => Components::One,
        _ => Components::Zero,
    }
}

pub(crate) fn parse_operand(text: &str, num: Num, role: Role, version: Version) -> P<Operand> {
    let mut s = text.trim();
    let mut modifier = Modifier::None;
    if let Some(r) = s.strip_prefix('-') {
        modifier = Modifier::Neg;
        s = r.trim_start();
    }
    if let Some(r) = s.strip_prefix('|') {
        s = r.strip_suffix('|').ok_or(LineError {
            column: 1,
            at: None,
            what: format!("unclosed |...| in `{text}`"),
        })?;
        modifier = if modifier == Modifier::Neg {
            Modifier::AbsNeg
        } else {
            Modifier::Abs
        };
    }
    let mut precision = 0u8;
    let mut nonuniform = false;
    let mut tags = 0;
    while let Some(open) = s.rfind('{') {
        // fxc writes at most a precision and `nonuniform`; more is not an operand (and would
        // make this loop quadratic in the line).
        tags += 1;
        if tags > 2 {
            return Err(error_at(
                &s[open..],
                "more than two {...} tags on an operand",
            ));
        }
        let tag = s[open + 1..].trim_end().trim_end_matches('}').trim();
        let own = tag.split(" as ").next().unwrap_or("").trim();
        if own.eq_ignore_ascii_case("nonuniform") {
            nonuniform = true;
        } else if own != "def32" {
            precision = names::value(names::MIN_PRECISIONS, own).ok_or(LineError {
                column: 1,
                at: None,
                what: format!("unknown precision `{own}`"),
            })? as u8;
        }
        s = s[..open].trim_end();
    }
    let mut op = if let Some(body) = s.strip_prefix("l(").or_else(|| s.strip_prefix("L(")) {
        let body = body.strip_suffix(')').ok_or(LineError {
            column: 1,
            at: None,
            what: format!("unclosed l( in `{text}`"),
        })?;
        let vals = body
            .split(',')
            .map(|v| parse_imm(v.trim()))
            .collect::<Option<Vec<u32>>>()
            .ok_or(LineError {
                column: 1,
                at: None,
                what: format!("bad immediate `{s}`"),
            })?;
        if vals.len() != 1 && vals.len() != 4 {
            return err("l(...) takes 1 or 4 values");
        }
        Operand::imm32(&vals)
    } else if let Some(body) = s.strip_prefix("d(").or_else(|| s.strip_prefix("D(")) {
        let body = body.strip_suffix(')').ok_or(LineError {
            column: 1,
            at: None,
            what: format!("unclosed d( in `{text}`"),
        })?;
        let mut words = Vec::new();
        for v in body.split(',') {
            let v = v.trim().trim_end_matches(['l', 'L']);
            let bits = match v.strip_prefix("0x") {
                Some(h) => u64::from_str_radix(h, 16).ok(),
                None => v.parse::<f64>().ok().map(f64::to_bits),
            }
            .ok_or(LineError {
                column: 1,
                at: None,
                what: format!("bad double `{v}`"),
            })?;
            words.extend([bits as u32, (bits >> 32) as u32]);
        }
        let mut op = Operand::imm32(&[0]);
        op.ty = OperandType::Immediate64;
        op.components = match words.len() {
            2 => Components::One,
            4 => Components::Four(Selection::Mask(0)),
            _ => return err("d(...) takes 1 or 2 values"),
        };
        op.imm = words;
        op
    } else {
        parse_register(s, role, version, 0)?
    };
    let _ = num;
    op.modifier = modifier;
    op.precision = precision;
    op.nonuniform = nonuniform;
    Ok(op)
}

/// A relative index holds a register that may itself be indexed; the encoder allows four levels.
const MAX_INDEX_NESTING: u32 = 4;

fn parse_register(s: &str, role: Role, version: Version, depth: u32) -> P<Operand> {
    if depth > MAX_INDEX_NESTING {
        return Err(error_at(s, "relative indices nested more than four deep"));
    }
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() && b[i].is_ascii_alphabetic() {
        i += 1;
    }
    let name = &s[..i];
    let ty = OperandType::from_name(name).ok_or(LineError {
        column: 1,
        at: None,
        what: format!("unknown register `{s}`"),
    })?;
    let mut indices = Vec::new();
    let digits_start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    if i > digits_start {
        indices.push(number_index(&s[digits_start..i])?);
    }
    while i < b.len() && b[i] == b'[' {
        let mut open = 0;
        let mut close = None;
        for (j, &c) in b.iter().enumerate().skip(i) {
            match c {
                b'[' => open += 1,
                b']' => {
                    open -= 1;
                    if open == 0 {
                        close = Some(j);
                        break;
                    }
                }
                _ => {}
            }
        }
        let close = close.ok_or(LineError {
            column: i + 1,
            at: None,
            what: format!("unclosed [ in `{s}`"),
        })?;
        let inner = s[i + 1..close].trim();
        if let Some((first, last)) = inner.split_once(':') {
            indices.push(number_index(first.trim())?);
            indices.push(if last.trim() == "*" {
                Index::Imm32(u32::MAX)
            } else {
                number_index(last.trim())?
            });
        } else {
            indices.push(parse_index(inner, version, depth)?);
        }
        i = close + 1;
    }
    if indices.is_empty() && !ty.is_special() {
        return Err(error_at(s, format!("`{name}` needs a register number")));
    }
    let components = match s[i..].strip_prefix('.') {
        None if !s[i..].is_empty() => {
            return Err(error_at(
                &s[i..],
                format!("unexpected `{}` in `{s}`", &s[i..]),
            ));
        }
        None => bare_components(ty, role),
        Some(letters) => match role {
            Role::Dst | Role::Decl => Components::Four(Selection::Mask(write_mask(letters)?)),
            Role::Src => {
                let comps = swizzle_letters(letters)?;
                match comps[..] {
                    [c] => Components::Four(Selection::Select1(c)),
                    [.., last] => {
                        let get = |k: usize| comps.get(k).copied().unwrap_or(last);
                        Components::Four(Selection::Swizzle([get(0), get(1), get(2), get(3)]))
                    }
                    [] => return Err(error_at(letters, "empty swizzle")),
                }
            }
        },
    };
    Ok(Operand {
        ty,
        components,
        indices,
        modifier: Modifier::None,
        precision: 0,
        nonuniform: false,
        extended: ExtendedOperand::None,
        imm: Vec::new(),
    })
}

fn number_index(s: &str) -> P<Index> {
    let v: u64 = s.parse().map_err(|_| LineError {
        column: 1,
        at: None,
        what: format!("bad index `{s}`"),
    })?;
    Ok(match u32::try_from(v) {
        Ok(v) => Index::Imm32(v),
        Err(_) => Index::Imm64(v),
    })
}

fn parse_index(inner: &str, version: Version, depth: u32) -> P<Index> {
    if inner.bytes().all(|b| b.is_ascii_digit()) && !inner.is_empty() {
        return number_index(inner);
    }
    let (reg, offset) = match inner.rsplit_once('+') {
        Some((r, o)) => (r.trim(), Some(o.trim())),
        None => (inner, None),
    };
    let rel = Box::new(parse_register(reg, Role::Src, version, depth + 1)?);
    Ok(match offset {
        None | Some("0") => Index::Relative(rel),
        Some(o) => match number_index(o)? {
            Index::Imm32(v) => Index::Imm32Relative(v, rel),
            Index::Imm64(v) => Index::Imm64Relative(v, rel),
            _ => return err("bad relative offset"),
        },
    })
}
