//! fxc's text syntax -> [`Program`]. Reads dxdiff's own exact text and fxc's listings (`/Fc`),
//! which only differ in that fxc prints some float immediates lossily. Lines starting with `//`
//! are comments, except that fxc's signature tables in them rebuild the signature chunks.

pub use crate::asm_text::LineError;
use crate::asm_text::{
    P, Role, err, error_at, parse_operand, parse_return_types, parse_u32, split_top, syntax,
    write_mask,
};
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
    /// The assembled token-stream program.
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
        CustomData::MESSAGE_PRINTF
    } else {
        CustomData::MESSAGE_ERRORF
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
