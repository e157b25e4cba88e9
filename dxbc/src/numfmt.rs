//! Immediate values as fxc prints them, and parsing of that text back to bits (section 6.4).
//!
//! fxc's float text is lossy, so [`exact_imm`] falls back to hex whenever the fxc spelling would
//! not parse back to the same 32 bits; that is what lets a disassembly re-assemble exactly.

/// How an operand slot interprets its 32-bit immediates (decides the printed form).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NumberType {
    /// A 32-bit float, printed as a decimal fraction.
    Float,
    /// A signed 32-bit integer: decimal up to 10000, hex above.
    Int,
    /// An unsigned 32-bit integer: decimal up to 10000, hex above, the top 15 values as negatives.
    Uint,
    /// Data moved without interpretation (`mov`, `movc`, stores, immediate constant buffers).
    Typeless,
}

/// MSVC's `%f` of the `f32` with these bits.
///
/// The old MSVC runtime first rounds the value to 17 significant digits (half up) and then rounds
/// that digit string to 6 decimals (half up again). Large values therefore print 17 significant
/// digits followed by zeros, and the double rounding is reproduced exactly. Non-finite values use
/// the MSVC spellings (`1.#INF00`, `-1.#INF00`, `1.#QNAN0`, `-1.#IND00`).
pub fn fxc_float(bits: u32) -> String {
    let v = f32::from_bits(bits);
    let neg = bits & 0x8000_0000 != 0;
    let sign = if neg { "-" } else { "" };
    if v.is_infinite() {
        return format!("{sign}1.#INF00");
    }
    if v.is_nan() {
        return if bits == 0xFFC0_0000 {
            "-1.#IND00".to_string()
        } else if bits & 0x0040_0000 == 0 {
            format!("{sign}1.#SNAN0")
        } else {
            format!("{sign}1.#QNAN0")
        };
    }
    let (digits, exp) = sig17(f64::from(v.abs()));
    // `digits` (17 of them) represent 0.d1d2…d17 × 10^(exp+1), i.e. d1 sits at 10^exp.
    // Collect the digit string for positions 10^max(exp,0) down to 10^-7 (one guard digit).
    let top = exp.max(0);
    let digit_at = |pos: i32| -> u8 {
        // pos is the power of ten; d1 is at `exp`.
        let idx = exp - pos;
        if (0..17).contains(&idx) {
            digits[idx as usize]
        } else {
            0
        }
    };
    let mut out: Vec<u8> = (-6..=top).rev().map(digit_at).collect();
    if digit_at(-7) >= 5 {
        // Half-up rounding at the sixth decimal, with carry.
        let mut i = out.len();
        loop {
            if i == 0 {
                out.insert(0, 1);
                break;
            }
            i -= 1;
            if out[i] == 9 {
                out[i] = 0;
            } else {
                out[i] += 1;
                break;
            }
        }
    }
    let split = out.len() - 6;
    let int: String = out[..split].iter().map(|d| char::from(b'0' + d)).collect();
    let frac: String = out[split..].iter().map(|d| char::from(b'0' + d)).collect();
    format!("{sign}{int}.{frac}")
}

/// The value rounded half-up to 17 significant digits: the digits and the power of ten of the
/// first one. Zero gives all-zero digits with exponent 0.
fn sig17(v: f64) -> ([u8; 17], i32) {
    let mut digits = [0u8; 17];
    if v == 0.0 {
        return (digits, 0);
    }
    // An f32 widened to f64 has an exact decimal expansion of at most ~112 significant digits,
    // so 120 digits after the point in scientific notation is exact (no rounding by `format!`).
    let text = format!("{v:.120e}");
    let (mantissa, exp_text) = text.split_once('e').unwrap_or((&text, "0"));
    let mut exp: i32 = exp_text.parse().unwrap_or(0);
    let all: Vec<u8> = mantissa
        .bytes()
        .filter(u8::is_ascii_digit)
        .map(|b| b - b'0')
        .collect();
    for (d, src) in digits.iter_mut().zip(&all) {
        *d = *src;
    }
    if all.get(17).is_some_and(|&d| d >= 5) {
        let mut i = 17;
        loop {
            if i == 0 {
                // 99…9 rounded up to 100…0: one more integer digit.
                digits = [0; 17];
                digits[0] = 1;
                exp += 1;
                break;
            }
            i -= 1;
            if digits[i] == 9 {
                digits[i] = 0;
            } else {
                digits[i] += 1;
                break;
            }
        }
    }
    (digits, exp)
}

/// The int rule: signed decimal up to 10000 (every negative included), else `0x%08x`.
fn int_rule(bits: u32) -> String {
    let v = bits as i32;
    if v <= 10000 {
        v.to_string()
    } else {
        format!("0x{bits:08x}")
    }
}

/// The uint rule: the top 15 values print signed, up to 10000 decimal, else `0x%08x`.
fn uint_rule(bits: u32) -> String {
    if bits > 0xFFFF_FFF0 {
        (bits as i32).to_string()
    } else if bits <= 10000 {
        bits.to_string()
    } else {
        format!("0x{bits:08x}")
    }
}

/// One immediate exactly as fxc prints it in a slot of type `ty` (the 6.4 table).
pub fn fxc_imm(bits: u32, ty: NumberType) -> String {
    match ty {
        NumberType::Float => fxc_float(bits),
        NumberType::Int => int_rule(bits),
        NumberType::Uint => uint_rule(bits),
        NumberType::Typeless => {
            if bits == 0 {
                "0".to_string()
            } else if bits > 0xFFF0_0000 {
                uint_rule(bits)
            } else {
                let v = bits as i32;
                if !(-0x70_0000..=0x70_0000).contains(&v) {
                    fxc_float(bits)
                } else {
                    int_rule(bits)
                }
            }
        }
    }
}

/// Like [`fxc_imm`], but prints `0x%08x` whenever fxc's text would not parse back to `bits`
/// (lossy floats, NaN payloads); non-finite floats always print as hex.
pub fn exact_imm(bits: u32, ty: NumberType) -> String {
    let text = fxc_imm(bits, ty);
    let is_float_text = text.contains(['.', '#']);
    if is_float_text && !f32::from_bits(bits).is_finite() {
        return format!("0x{bits:08x}");
    }
    if parse_imm(&text) == Some(bits) {
        text
    } else {
        format!("0x{bits:08x}")
    }
}

/// Parses one immediate as written in fxc text (or by [`exact_imm`]) to its 32 bits.
///
/// `0x…`/`-0x…` are raw bits; text containing `.`, `e`, `E` or `#` is a float, rounded directly to
/// the nearest `f32` (never via `f64`, which would double-round); anything else is a decimal
/// integer in `-2147483648..=4294967295`, stored as two's complement.
pub fn parse_imm(text: &str) -> Option<u32> {
    let t = text.trim();
    let (neg, body) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    if let Some(hex) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        if hex.is_empty() || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let v = u32::from_str_radix(hex, 16).ok()?;
        return Some(if neg { v.wrapping_neg() } else { v });
    }
    if t.contains('#') {
        return parse_msvc_special(neg, body);
    }
    if t.contains(['.', 'e', 'E']) {
        // Only digits, sign, point and exponent: rejects Rust-only spellings such as "inf".
        if !t
            .bytes()
            .all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b))
        {
            return None;
        }
        return t.parse::<f32>().ok().map(f32::to_bits);
    }
    if body.is_empty() || !body.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let magnitude: i64 = body.parse().ok()?;
    let v = if neg { -magnitude } else { magnitude };
    if (-2_147_483_648..=4_294_967_295).contains(&v) {
        // Two's complement of the low 32 bits is the documented meaning.
        Some(v as u32)
    } else {
        None
    }
}

/// `1.#INF00`, `1.#QNAN0`, `1.#IND00`, `1.#SNAN0` with any number of trailing zeros.
fn parse_msvc_special(neg: bool, body: &str) -> Option<u32> {
    let rest = body.strip_prefix("1.#")?;
    let word_len = rest.bytes().take_while(u8::is_ascii_alphabetic).count();
    let (word, zeros) = rest.split_at(word_len);
    if !zeros.bytes().all(|b| b == b'0') {
        return None;
    }
    let sign = if neg { 0x8000_0000 } else { 0 };
    let magnitude = match word.to_ascii_uppercase().as_str() {
        "INF" => 0x7F80_0000,
        "QNAN" | "IND" => 0x7FC0_0000,
        "SNAN" => 0x7F80_0001,
        _ => return None,
    };
    Some(sign | magnitude)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TYPES: [NumberType; 4] = [
        NumberType::Float,
        NumberType::Int,
        NumberType::Uint,
        NumberType::Typeless,
    ];

    #[test]
    fn float_examples() {
        assert_eq!(fxc_float(1.0f32.to_bits()), "1.000000");
        assert_eq!(fxc_float((-0.5f32).to_bits()), "-0.500000");
        assert_eq!(fxc_float(0), "0.000000");
        assert_eq!(fxc_float(0x8000_0000), "-0.000000");
        assert_eq!(fxc_float((-1e-10f32).to_bits()), "-0.000000");
        assert_eq!(fxc_float(1e-10f32.to_bits()), "0.000000");
        assert_eq!(
            fxc_float(f32::MAX.to_bits()),
            "340282346638528860000000000000000000000.000000"
        );
        assert_eq!(fxc_float((1.0f32 / 3.0).to_bits()), "0.333333");
        assert_eq!(fxc_float(0.9999999f32.to_bits()), "1.000000");
        assert_eq!(fxc_float(65504.0f32.to_bits()), "65504.000000");
        assert_eq!(fxc_float(f32::INFINITY.to_bits()), "1.#INF00");
        assert_eq!(fxc_float(f32::NEG_INFINITY.to_bits()), "-1.#INF00");
        assert_eq!(fxc_float(0x7FC0_0000), "1.#QNAN0");
        assert_eq!(fxc_float(0xFFC0_0000), "-1.#IND00");
    }

    #[test]
    fn imm_rules() {
        assert_eq!(fxc_imm(10000, NumberType::Int), "10000");
        assert_eq!(fxc_imm(10001, NumberType::Int), "0x00002711");
        assert_eq!(fxc_imm(0xFFFF_FFE8, NumberType::Int), "-24");
        assert_eq!(fxc_imm(0x8000_0000, NumberType::Int), "-2147483648");
        assert_eq!(fxc_imm(0xFFFF_FFFF, NumberType::Uint), "-1");
        assert_eq!(fxc_imm(0xFFFF_FFF0, NumberType::Uint), "0xfffffff0");
        assert_eq!(fxc_imm(0x3f80_0000, NumberType::Uint), "0x3f800000");
        assert_eq!(fxc_imm(0, NumberType::Typeless), "0");
        assert_eq!(fxc_imm(0x8000_0000, NumberType::Typeless), "-0.000000");
        assert_eq!(fxc_imm(0x8000, NumberType::Typeless), "0x00008000");
        assert_eq!(fxc_imm(0x3f80_0000, NumberType::Typeless), "1.000000");
        assert_eq!(fxc_imm(0xFFFF_FFFF, NumberType::Typeless), "-1");
        assert_eq!(fxc_imm(15, NumberType::Typeless), "15");
    }

    #[test]
    fn parse_spellings() {
        assert_eq!(parse_imm("1.#INF0000"), Some(0x7F80_0000));
        assert_eq!(parse_imm("-1.#INF00"), Some(0xFF80_0000));
        assert_eq!(parse_imm("-1.#IND0000"), Some(0xFFC0_0000));
        assert_eq!(parse_imm("1.#QNAN000"), Some(0x7FC0_0000));
        assert_eq!(parse_imm("0x3e000000"), Some(0x3E00_0000));
        assert_eq!(parse_imm("-2147483648"), Some(0x8000_0000));
        assert_eq!(parse_imm("4294967295"), Some(u32::MAX));
        assert_eq!(parse_imm("4294967296"), None);
        assert_eq!(parse_imm("-2147483649"), None);
        assert_eq!(parse_imm("1e3"), Some(1000.0f32.to_bits()));
        assert_eq!(parse_imm("inf"), None);
        assert_eq!(parse_imm(""), None);
        assert_eq!(parse_imm("-"), None);
        assert_eq!(parse_imm("0x"), None);
        assert_eq!(parse_imm("1.#"), None);
        // Rounds straight to f32: via f64 this would double-round to 1.0000001.
        assert_eq!(parse_imm("1.00000005960464477539062501"), Some(0x3F80_0001));
    }

    fn check_round_trip(bits: u32) {
        for ty in TYPES {
            let text = exact_imm(bits, ty);
            assert_eq!(
                parse_imm(&text),
                Some(bits),
                "{bits:#010x} {ty:?} -> {text}"
            );
        }
    }

    #[test]
    fn exact_round_trips_edge_cases() {
        let edges = [
            0u32,
            0x8000_0000,
            1,
            0x8000_0001,
            0x007F_FFFF,
            0x807F_FFFF,
            0x0080_0000,
            0x7F80_0000,
            0xFF80_0000,
            0x7FC0_0000,
            0xFFC0_0000,
            0x7F80_0001,
            0x7FFF_FFFF,
            0xFFFF_FFFF,
            0x7F7F_FFFF,
            0xFF7F_FFFF,
            0x4F00_0000,
            0x8000_0000,
            0x477F_E000,
            0x0070_0000,
            0x0070_0001,
            0xFFF0_0000,
            0xFFF0_0001,
            0xFFFF_FFF0,
            0xFFFF_FFF1,
            10000,
            10001,
        ];
        for bits in edges {
            check_round_trip(bits);
        }
    }

    #[test]
    fn exact_round_trips_strided_sample() {
        // ~2.1 million values spread over the whole range, plus an odd stride so all low bits vary.
        let mut n = 0u64;
        let mut bits: u32 = 0;
        loop {
            check_round_trip(bits);
            n += 1;
            match bits.checked_add(2039) {
                Some(next) => bits = next,
                None => break,
            }
        }
        assert!(n > 2_000_000);
    }
}
