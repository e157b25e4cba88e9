//! The pieces of fxc's text that instruction lines ([`crate::asm`]) and declaration lines
//! (`asm_decl`) share: the line-error type, operand syntax (registers, indices, masks, swizzles,
//! immediates), top-level comma splitting, numbers and return types. Both parsers depend on this
//! module and not on each other.

use crate::error::DxbcError;
use crate::ir::*;
use crate::names;
use crate::numfmt::parse_imm;
use crate::opcodes::Num;

/// A parse error before its line number is known.
///
/// Errors found deep inside a line (an operand's suffix, an index) point at the text they are
/// about by its address (`at`), which [`crate::asm::parse_line`] turns into a column of the whole line, so
/// the sub-parsers need not thread offsets through.
#[derive(Debug)]
pub struct LineError {
    pub(crate) column: usize,
    pub(crate) at: Option<usize>,
    pub(crate) what: String,
}

impl LineError {
    pub(crate) fn at_line(self, line: usize) -> DxbcError {
        DxbcError::Syntax {
            line,
            column: self.column,
            what: self.what,
        }
    }

    /// Resolves `at` to a 1-based column of `line` when it points into it.
    pub(crate) fn in_line(mut self, line: &str) -> LineError {
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

pub(crate) fn err<T>(what: impl Into<String>) -> P<T> {
    Err(LineError {
        column: 1,
        at: None,
        what: what.into(),
    })
}

/// Split at top-level commas (not inside (), [] or {}).
pub(crate) fn split_top(s: &str) -> Vec<&str> {
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

/// A write mask (destinations, declarations, `[precise(...)]`): distinct components in the
/// order x, y, z, w. fxc never writes anything else, and `.xxyz` or `.yx` would otherwise
/// assemble silently as some other mask.
pub(crate) fn write_mask(letters: &str) -> P<u8> {
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
        op.imm = words.into();
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
        indices: indices.into(),
        modifier: Modifier::None,
        precision: 0,
        nonuniform: false,
        extended: ExtendedOperand::None,
        imm: crate::ir::ImmWords::new(),
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
            Index::Imm64(v) => Index::Imm64Relative(Box::new((v, *rel))),
            _ => return err("bad relative offset"),
        },
    })
}
