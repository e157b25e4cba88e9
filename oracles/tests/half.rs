//! The binary16 rules against an independent implementation, the `half` crate: `f16tof32` is
//! exact, so it must agree with `half` on every one of the 65,536 halves; D3D's `f32tof16`
//! rounds toward zero (and flushes denormal inputs), which `half` does not, so the interpreter
//! keeps its own rule and this test holds it to `half`'s round-to-nearest-even result: equal,
//! or one step toward zero.

use half::f16;
use oracles::domain::Events;
use oracles::rules::convert::{f16_round_nearest, f16tof32, f32tof16};

fn is_nan32(w: u32) -> bool {
    w & 0x7f80_0000 == 0x7f80_0000 && w & 0x007f_ffff != 0
}

#[test]
fn f16tof32_agrees_with_half_on_every_half() {
    for h in 0..=u16::MAX {
        let mut ev = Events::default();
        // The upper 16 bits are ignored.
        let ours = f16tof32(0xabcd_0000 | u32::from(h), &mut ev);
        let theirs = f16::from_bits(h).to_f32().to_bits();
        if f16::from_bits(h).is_nan() {
            assert!(is_nan32(ours), "{h:#06x}: {ours:#010x}");
            assert_eq!(ours >> 31, theirs >> 31, "{h:#06x}: the sign");
        } else {
            assert_eq!(ours, theirs, "{h:#06x}");
        }
    }
}

/// Every 65,521st f32 bit pattern (a prime stride, so every exponent and many mantissas), and
/// the boundaries around each half.
fn samples() -> impl Iterator<Item = u32> {
    let stride = (0..=u32::MAX).step_by(65_521);
    let around_halves = (0..=u16::MAX).flat_map(|h| {
        let x = f16::from_bits(h).to_f32().to_bits();
        [
            x.wrapping_sub(1),
            x,
            x.wrapping_add(1),
            x.wrapping_add(0x1000),
        ]
    });
    stride.chain(around_halves)
}

#[test]
fn f32tof16_rounds_nearest_even_as_half_does_and_d3d_rounds_toward_zero() {
    for x in samples() {
        let f = f32::from_bits(x);
        // D3D flushes an f32 denormal input to a signed zero first (`half` would round it to
        // the same zero: it is below half's smallest denormal).
        let flushed = if x & 0x7f80_0000 == 0 {
            x & 0x8000_0000
        } else {
            x
        };
        let nearest = u32::from(f16::from_f32(f32::from_bits(flushed)).to_bits());
        let ours_nearest = f16_round_nearest(x);
        let mut ev = Events::default();
        let d3d = f32tof16(x, &mut ev);
        if f.is_nan() {
            assert_eq!(ours_nearest & 0x7c00, 0x7c00, "{x:#010x}");
            assert_eq!(d3d & 0x7e00, 0x7e00, "{x:#010x}: a NaN");
            continue;
        }
        assert_eq!(ours_nearest, nearest, "{x:#010x}: round to nearest even");
        // Toward zero: the same half, or the one below it in magnitude (same sign), never
        // above; an overflow saturates to the largest finite half instead of infinity.
        let (sign, mag) = (nearest & 0x8000, nearest & 0x7fff);
        assert_eq!(d3d & 0x8000, sign, "{x:#010x}: the sign");
        let d = d3d & 0x7fff;
        if f.is_infinite() {
            assert_eq!(d, 0x7c00, "{x:#010x}");
        } else if mag == 0x7c00 {
            assert!(d == 0x7bff || d == 0x7c00, "{x:#010x}: {d3d:#06x}");
        } else {
            assert!(
                d == mag || d + 1 == mag,
                "{x:#010x}: D3D {d3d:#06x}, nearest {nearest:#06x}"
            );
        }
    }
}
