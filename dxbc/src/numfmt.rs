//! TEMPORARY stand-in until the numfmt module lands from the container branch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumberType {
    Float,
    Int,
    Uint,
    Typeless,
}
pub fn fxc_float(bits: u32) -> String {
    format!("{:.6}", f32::from_bits(bits))
}
pub fn fxc_imm(bits: u32, ty: NumberType) -> String {
    match ty {
        NumberType::Float => fxc_float(bits),
        _ => {
            if bits <= 10000 {
                bits.to_string()
            } else {
                format!("0x{bits:08x}")
            }
        }
    }
}
pub fn exact_imm(bits: u32, ty: NumberType) -> String {
    let s = fxc_imm(bits, ty);
    if parse_imm(&s) == Some(bits) { s } else { format!("0x{bits:08x}") }
}
pub fn parse_imm(text: &str) -> Option<u32> {
    if let Some(h) = text.strip_prefix("0x") {
        return u32::from_str_radix(h, 16).ok();
    }
    if text.contains('.') {
        return text.parse::<f32>().ok().map(f32::to_bits);
    }
    text.parse::<i64>().ok().map(|v| v as u32)
}
