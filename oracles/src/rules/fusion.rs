//! Which evaluations of a sum of products D3D and the GPU compilers may choose, and whether
//! one of them rounds differently from the reference's unfused, serial one (the
//! `fusion-sensitive` domain, adapted by `dxdiff/fusion`).

use super::bits::flush_in;
use crate::domain::{Domain, Events, raise};

/// Raise `FusionSensitive` when another evaluation of a sum of products, which D3D allows
/// (FS §3.1.3.2) and GPU compilers choose, rounds differently from the unfused result `r`:
/// - evaluated once exactly (in f64, inputs flushed) and rounded;
/// - summed left to right or right to left, each step fused (`fma(x, y, acc)`) or not;
/// - as a pairwise tree (`(p0 + p1) + (p2 + p3)`, each pair unfused or fused);
/// - with an operand that several products share factored out (`a*b + a*c` as `a*(b + c)`,
///   `l*x + l*x + l*x` as `l*(x + x + x)`), which may also overflow where the products do not.
///
/// lavapipe, SwiftShader and the H200 each chose one of these (found by `dxdiff fuzz`).
pub(crate) fn fusion_check(terms: &[(u32, u32)], r: u32, ev: &mut Events) {
    if fusion_sensitive(terms, f32::from_bits(r)) {
        raise(ev, Domain::FusionSensitive);
    }
}

/// Whether an evaluation of [`fusion_check`]'s list differs from `unfused`.
fn fusion_sensitive(terms: &[(u32, u32)], unfused: f32) -> bool {
    if !unfused.is_finite() || terms.len() > 4 {
        return false;
    }
    // At most four products (dp4): no allocation, this runs for every lane of every dot.
    let mut scratch = 0;
    let mut held = [(0.0f32, 0.0f32); 4];
    for (h, (x, y)) in held.iter_mut().zip(terms) {
        *h = (
            f32::from_bits(flush_in(*x, &mut scratch)),
            f32::from_bits(flush_in(*y, &mut scratch)),
        );
    }
    let t = &held[..terms.len()];
    let differs = |v: f32| v.to_bits() != unfused.to_bits() && !(v == 0.0 && unfused == 0.0);
    // One pass: the exact sum, the products' magnitudes, and whether an operand is large
    // enough (2^126 or more) for a sum of two operands (a factored form) to overflow.
    let (mut exact, mut magnitude, mut large) = (0.0f64, 0.0f64, false);
    for (x, y) in t {
        let product = f64::from(*x) * f64::from(*y);
        exact += product;
        magnitude += product.abs();
        large |= x.abs() >= 8.5e37 || y.abs() >= 8.5e37;
    }
    let rounded = exact as f32;
    if rounded.is_finite() && differs(rounded) {
        return true;
    }
    // Every evaluation below rounds at most 2n - 1 times (n products, n - 1 sums), each by at
    // most half an ULP of a value no larger than the sum of the products' magnitudes (plus a
    // flushed denormal each): when the whole interval that leaves around the exact sum rounds
    // to `unfused`, none of them can differ. Most lanes stop here, which keeps the check cheap.
    let n = t.len() as f64;
    let slack =
        magnitude * (n + 1.0) * f64::from(f32::EPSILON) + 2.0 * n * f64::from(f32::MIN_POSITIVE);
    if !large
        && magnitude.is_finite()
        && ((exact - slack) as f32).to_bits() == unfused.to_bits()
        && ((exact + slack) as f32).to_bits() == unfused.to_bits()
    {
        return false;
    }
    // The shortcut leans on the exactly rounded sum having been compared: not when it overflows.
    if !large && rounded.is_finite() && two_with_one_exact(t, differs) {
        return false;
    }
    other_orders_differ(t, differs)
}

/// Whether every evaluation of a sum of two products, one of them exact in f32, rounds alike:
/// `mad` (its second product is `c · 1`) and many `dp2` lanes. With two products the order
/// of the one addition does not matter, and fusing the exact product is the same as adding
/// it, so the evaluations are the unfused sum and the one fused with the inexact product,
/// which is the exactly rounded sum the caller has already compared. Only a shared operand
/// (a factored form) adds another, so a pair that shares one is left to the full search. The
/// answer is the one [`other_orders_differ`] would give (a test holds them together); this
/// takes the search off most lanes of every `mad`.
fn two_with_one_exact(t: &[(f32, f32)], differs: impl Fn(f32) -> bool) -> bool {
    let [(a, b), (c, d)] = t else {
        return false;
    };
    let exact = |x: f32, y: f32| f64::from(x * y) == f64::from(x) * f64::from(y);
    let shared = [a, b]
        .iter()
        .any(|s| s.to_bits() == c.to_bits() || s.to_bits() == d.to_bits());
    (exact(*a, *b) || exact(*c, *d)) && !shared && !differs(a * b + c * d)
}

/// The slow half of [`fusion_sensitive`], for the rare lane near a rounding boundary: kept out
/// of line so that the common case stays small.
#[cold]
#[inline(never)]
fn other_orders_differ(t: &[(f32, f32)], differs: impl Fn(f32) -> bool) -> bool {
    let n = t.len();
    // Serial sums, left to right or right to left, where each step either adds the rounded
    // product or fuses it (`fma(x, y, acc)`): every contraction a compiler may choose.
    let fma = |x: f32, y: f32, acc: f32| (f64::from(x) * f64::from(y) + f64::from(acc)) as f32;
    let p = |i: usize| t[i].0 * t[i].1;
    for reversed in [false, true] {
        let at = |k: usize| if reversed { n - 1 - k } else { k };
        for fused in 0..(1u32 << (n - 1)) {
            let mut acc = p(at(0));
            for k in 1..n {
                let (x, y) = t[at(k)];
                acc = if fused & (1 << (k - 1)) != 0 {
                    fma(x, y, acc)
                } else {
                    acc + x * y
                };
            }
            if differs(acc) {
                return true;
            }
        }
    }
    if t.len() == 4 {
        let unfused_pairs = (p(0) + p(1)) + (p(2) + p(3));
        let fused_pairs = fma(t[1].0, t[1].1, p(0)) + fma(t[3].0, t[3].1, p(2));
        if differs(unfused_pairs) || differs(fused_pairs) {
            return true;
        }
    }
    // A shared operand factored out of the products that hold it.
    for s in t.iter().flat_map(|(x, y)| [*x, *y]) {
        let partners = t.iter().filter_map(|(x, y)| {
            if x.to_bits() == s.to_bits() {
                Some(*y)
            } else if y.to_bits() == s.to_bits() {
                Some(*x)
            } else {
                None
            }
        });
        if partners.clone().count() < 2 {
            continue;
        }
        let apart = partners.clone().fold(0.0f32, |acc, p| acc + s * p);
        let factored = s * partners.fold(0.0f32, |acc, p| acc + p);
        if apart.is_finite() && factored.to_bits() != apart.to_bits() {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::super::float::{dp2, dp3, dp4};
    use super::{other_orders_differ, two_with_one_exact};
    use crate::domain::Domain as D;

    /// The shortcut for two products answers as the full search does: over a million pairs
    /// (close exponents, both signs, `mad`'s `c · 1`, small integers whose products are exact,
    /// shared operands), whenever it says "all alike" the search finds no evaluation that
    /// differs, and it takes most `mad` lanes.
    #[test]
    fn the_two_product_shortcut_agrees_with_the_full_search() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let (mut taken, mut mads) = (0, 0);
        for i in 0..1_000_000 {
            let mut f = || {
                let r = next();
                match r % 8 {
                    0 => ((r >> 8) % 64) as f32 - 32.0,
                    _ => f32::from_bits(
                        (((r >> 63) as u32) << 31)
                            | ((120 + (r >> 3) % 16) as u32) << 23
                            | ((r >> 20) as u32 & 0x7f_ffff),
                    ),
                }
            };
            let mut t = [(f(), f()), (f(), f())];
            if i % 2 == 0 {
                t[1].1 = 1.0;
            }
            if i % 7 == 0 {
                t[1].0 = t[0].1;
            }
            let unfused = t[0].0 * t[0].1 + t[1].0 * t[1].1;
            let differs =
                |v: f32| v.to_bits() != unfused.to_bits() && !(v == 0.0 && unfused == 0.0);
            let exact =
                f64::from(t[0].0) * f64::from(t[0].1) + f64::from(t[1].0) * f64::from(t[1].1);
            let rounded = exact as f32;
            if rounded.is_finite() && differs(rounded) {
                continue;
            }
            if rounded.is_finite() && two_with_one_exact(&t, differs) {
                taken += 1;
                mads += usize::from(i % 2 == 0);
                assert!(!other_orders_differ(&t, differs), "{t:?}");
            }
        }
        assert!(
            mads > 300_000,
            "the shortcut took {mads} mad lanes ({taken} in all)"
        );
    }

    fn f(x: f32) -> u32 {
        x.to_bits()
    }

    #[test]
    fn a_sum_of_products_that_factoring_changes_is_fusion_sensitive() {
        // 65520 * 2147483520 + 65520 * 65504: exactly rounded and unfused agree, but
        // 65520 * (2147483520 + 65504) rounds the sum first and lands one ULP away.
        let a = 0x477f_f000;
        let mut ev = 0;
        dp2([a, a], [0x4eff_ffff, 0x477f_e000], &mut ev);
        assert_eq!(ev & D::FusionSensitive.bit(), D::FusionSensitive.bit());
        // The factored sum overflows: MAX + MAX is infinite, the products are not.
        let mut ev = 0;
        dp2(
            [0x23e6_c20a, 0x23e6_c20a],
            [0x7f7f_ffff, 0x7f7f_ffff],
            &mut ev,
        );
        assert_eq!(ev & D::FusionSensitive.bit(), D::FusionSensitive.bit());
        // A fused chain one ULP away where the exact and unfused sums agree (the H200).
        let mut ev = 0;
        dp2(
            [0x4361_d2f8, 0x4430_aa64],
            [0xc42e_1977, 0x4320_ffa8],
            &mut ev,
        );
        assert_eq!(ev & D::FusionSensitive.bit(), D::FusionSensitive.bit());
        // Three equal products, factored as l*(x + x + x) (the H200).
        let mut ev = 0;
        let l = 0x7557_b792;
        dp3([l, l, l], [0x4049_0fdb; 3], &mut ev);
        assert_eq!(ev & D::FusionSensitive.bit(), D::FusionSensitive.bit());
        // Squares summed as a pairwise tree or fused, one ULP from the serial sum (the H200).
        let mut ev = 0;
        let v = [0x4394_6cac, 0xc3e1_e87a, 0xc431_6e0b, 0];
        dp4(v, v, &mut ev);
        assert_eq!(ev & D::FusionSensitive.bit(), D::FusionSensitive.bit());
        // A mad whose exact sum overflows where the unfused one stops at MAX: a fused GPU
        // answers inf (found in review of the two-product shortcut).
        let mut ev = 0;
        super::super::float::fmad(0x5f35_04f2, 0x5fb5_04f4, 0x7280_0000, &mut ev);
        assert_eq!(ev & D::FusionSensitive.bit(), D::FusionSensitive.bit());
        // No shared operand and nothing to round differently: no event.
        let mut ev = 0;
        dp2([f(2.0), f(3.0)], [f(5.0), f(7.0)], &mut ev);
        assert_eq!(ev & D::FusionSensitive.bit(), 0);
    }
}
