//! What an fp32 register's bits are (NaN, infinity, denormal, normal) and how a float math
//! op reads them (FS §3.1.3.1). A leaf below every float rule: [`super::float`] and
//! [`super::fusion`] both read inputs through it.

use crate::domain::{Domain, Events, raise};

/// The NaN every float rule returns (D3D leaves the payload undefined, FS §3.1.3.1).
pub const QNAN: u32 = 0x7FC0_0000;
/// Sign bit of an fp32 value.
pub const SIGN: u32 = 0x8000_0000;
/// +1.0f.
pub const ONE: u32 = 0x3F80_0000;

/// `true` for any NaN bit pattern (quiet or signalling, either sign), tested on the bits.
pub const fn is_nan(x: u32) -> bool {
    x & !SIGN > 0x7F80_0000
}

/// `true` for ±inf.
pub const fn is_inf(x: u32) -> bool {
    x & !SIGN == 0x7F80_0000
}

/// `true` for a nonzero fp32 denormal of either sign.
pub const fn is_denorm(x: u32) -> bool {
    x & 0x7F80_0000 == 0 && x & !SIGN != 0
}

/// Flush a denormal to the zero of the same sign; every other value passes unchanged
/// (FS §3.1.3.1, doc §2 convention `ftz`). No event: this is the shared helper.
pub const fn ftz(x: u32) -> u32 {
    if x & 0x7F80_0000 == 0 { x & SIGN } else { x }
}

/// A normal, finite, non-zero value: exponent field 1..=254. On such inputs, with such a
/// result, D3D's float rules reduce to the host's IEEE round-to-nearest-even operation, which
/// is what lets the interpreter take a batch-wide fast path (see `interp::exec`).
#[inline]
pub const fn is_normal(x: u32) -> bool {
    ((x >> 23) & 0xFF).wrapping_sub(1) < 254
}

/// Read a float math-op input: [`ftz`], raising `DenormInputFlushed` for a denormal,
/// `NanInput` for a NaN and `InfInput` for ±inf (FS §3.1.3.1).
pub fn flush_in(x: u32, ev: &mut Events) -> u32 {
    if is_denorm(x) {
        raise(ev, Domain::DenormInputFlushed);
    } else if is_nan(x) {
        raise(ev, Domain::NanInput);
    } else if is_inf(x) {
        raise(ev, Domain::InfInput);
    }
    ftz(x)
}
