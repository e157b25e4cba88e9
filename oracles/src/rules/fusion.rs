//! Which evaluations of a sum of products D3D and the GPU compilers may choose, and whether
//! one of them rounds differently from the reference's unfused, serial one (the
//! `fusion-sensitive` domain, adapted by `dxdiff/fusion`).

use super::bits::flush_in;
use crate::domain::{Domain, Events, raise};

/// Raise `FusionSensitive` when another evaluation of a sum of products, which D3D allows
/// (FS §3.1.3.2) and GPU compilers choose, rounds differently from the unfused result `r`:
/// - evaluated once exactly (in f64, inputs flushed) and rounded;
/// - summed in any order and any tree (serial from either end or from the middle, pairwise),
///   each addition of a single product fused (`fma(x, y, acc)`) or not;
/// - with an operand that several products share factored out (`a*b + a*c` as `a*(b + c)`,
///   `l*x + l*x + l*x` as `l*(x + x + x)`), the co-factors summed in any order, which may also
///   overflow where the products do not.
///
/// lavapipe, SwiftShader, the H200 and the H100 each chose one of these (found by `dxdiff
/// fuzz`).
///
/// A normal result whose exact sum lies below 2^-126 also enters `TinyBeforeRounding`: fused,
/// the sum is rounded once, and a device that detects tininess before rounding flushes it (the
/// H100 gave −0 for `mad` of 2^-126, 2^-24 and −2^-126, where D3D gives −2^-126). (A zero
/// result may come out as the other zero: `interp::zero_sign` follows it.)
pub(crate) fn fusion_check(terms: &[(u32, u32)], r: u32, ev: &mut Events) {
    let unfused = f32::from_bits(r);
    if fusion_sensitive(terms, unfused) {
        raise(ev, Domain::FusionSensitive);
    }
    // Only a result at the bottom of the normal range can come from a tiny exact sum.
    if unfused.abs() >= f32::MIN_POSITIVE
        && unfused.abs() < 2.0 * f32::MIN_POSITIVE
        && tiny_exact_sum(terms)
    {
        raise(ev, Domain::TinyBeforeRounding);
    }
}

/// Whether the exact sum of the products lies below 2^-126 (and is not 0). Kept out of line:
/// it runs on almost no lane.
#[cold]
#[inline(never)]
fn tiny_exact_sum(terms: &[(u32, u32)]) -> bool {
    let mut scratch = 0;
    let exact = terms.iter().fold(Wide::default(), |s, (x, y)| {
        let x = f32::from_bits(flush_in(*x, &mut scratch));
        let y = f32::from_bits(flush_in(*y, &mut scratch));
        s.add(f64::from(x) * f64::from(y))
    });
    exact.hi != 0.0 && exact.hi.abs() < f64::from(f32::MIN_POSITIVE)
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
    // The f64 sum rounded again to f32 is the exactly rounded sum unless it landed exactly
    // halfway between two floats (then what the f64 dropped decides): only there is the sum
    // taken again, exactly ([`Wide`]). This runs on every lane of every `mad` and `dp`.
    let mut rounded = exact as f32;
    if halfway(exact, rounded) {
        rounded = t
            .iter()
            .fold(Wide::default(), |s, (x, y)| {
                s.add(f64::from(*x) * f64::from(*y))
            })
            .round();
    }
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

/// The slow half of [`fusion_sensitive`], for the lane near a rounding boundary: kept out of
/// line so that the common case stays small. It searches every evaluation at once, subset by
/// subset of the products: a subset's sum is any two disjoint parts added (rounded), or one
/// part that is a single product fused into the other (`fma(x, y, rest)`), or, where every
/// product of the subset shares an operand `s`, `s` times the sum of the others in any order
/// (itself a product a compiler may fuse). That covers every serial order, left to right or
/// not (NVIDIA starts `dp3` with the middle product: the H100 gave `fma(z, z', fma(x, x',
/// y * y'))`), every pairwise tree, and factorings that sum the co-factors in another order
/// (the H100 evaluated `dp4 l(L, L, L, L), v.zyyz` as `L * (((y + y) + z) + z)`).
#[cold]
#[inline(never)]
fn other_orders_differ(t: &[(f32, f32)], differs: impl Fn(f32) -> bool) -> bool {
    let n = t.len();
    let full = (1usize << n) - 1;
    // Per subset (a bit mask of the products): the values its sum may take, and the products
    // (operand pairs) it may be as a whole, which a compiler may fuse into an addition.
    let mut vals = [Set::default(); 16];
    let mut forms = [Forms::default(); 16];
    for mask in 1..=full {
        let (mut v, mut f) = (Set::default(), Forms::default());
        if mask.count_ones() == 1 {
            let (x, y) = t[mask.trailing_zeros() as usize];
            v.put(x * y);
            f.put((x, y));
        } else {
            // A shared operand factored out of every product of the subset.
            let first = t[mask.trailing_zeros() as usize];
            for s in [first.0, first.1] {
                let mut partners = [0.0f32; 4];
                let mut k = 0;
                for (i, (x, y)) in t.iter().enumerate() {
                    if mask & (1 << i) == 0 {
                        continue;
                    }
                    partners[k] = if x.to_bits() == s.to_bits() {
                        *y
                    } else if y.to_bits() == s.to_bits() {
                        *x
                    } else {
                        break;
                    };
                    k += 1;
                }
                if k as u32 != mask.count_ones() {
                    continue;
                }
                let w = sums(&partners[..k]);
                if w.full {
                    return true;
                }
                for q in w.iter() {
                    v.put(s * q);
                    f.put((s, q));
                }
            }
            // Two disjoint parts: each split once (the part holding the lowest product first).
            let low = mask & mask.wrapping_neg();
            let mut a = (mask - 1) & mask;
            while a != 0 {
                if a & low != 0 {
                    let b = mask & !a;
                    for x in vals[a].iter() {
                        for y in vals[b].iter() {
                            v.put(x + y);
                        }
                    }
                    for (fa, rest) in [(a, b), (b, a)] {
                        for (x, y) in forms[fa].iter() {
                            for acc in vals[rest].iter() {
                                v.put(fma(x, y, acc));
                            }
                        }
                    }
                }
                a = (a - 1) & mask;
            }
        }
        if v.full || f.full {
            // More evaluations than the search keeps: they cannot all round alike.
            return true;
        }
        vals[mask] = v;
        forms[mask] = f;
    }
    vals[full].iter().any(differs)
}

/// `x * y + acc` rounded once, as a GPU's fused multiply-add does.
fn fma(x: f32, y: f32, acc: f32) -> f32 {
    Wide::default()
        .add(f64::from(x) * f64::from(y))
        .add(f64::from(acc))
        .round()
}

/// A sum of f32 products held as `hi + lo` (f64), so that it rounds to f32 once. An f32
/// product is exact in f64, but a sum of them in f64 rounds, and rounding that again to f32
/// can land on the other neighbour: `1.5 * x`, exactly halfway between two floats, plus 26
/// rounds up, yet the f64 sum drops the 26 and the tie goes to even (the H100's fused `dp2`
/// gave the upper one, 2026-12-07).
#[derive(Clone, Copy, Default)]
struct Wide {
    hi: f64,
    lo: f64,
}

/// Whether `v` lies exactly halfway between `f` (its f32 rounding) and a neighbour of `f`.
#[inline]
fn halfway(v: f64, f: f32) -> bool {
    let d = v - f64::from(f);
    if d == 0.0 || !f.is_finite() {
        return false;
    }
    let next = if d > 0.0 { f.next_up() } else { f.next_down() };
    2.0 * d.abs() == (f64::from(next) - f64::from(f)).abs()
}

/// `a + b` as the rounded sum and its exact error (Knuth's two-sum).
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

impl Wide {
    fn add(self, x: f64) -> Wide {
        let (s, e) = two_sum(self.hi, x);
        let (hi, lo) = two_sum(s, e + self.lo);
        Wide { hi, lo }
    }

    /// To nearest f32, ties to even, rounded once: `hi` alone decides unless it lies exactly
    /// halfway between two floats, where the sign of `lo` does.
    fn round(self) -> f32 {
        let f = self.hi as f32;
        if self.lo == 0.0 || !halfway(self.hi, f) {
            return f;
        }
        // Past the halfway point on `lo`'s side: the neighbour there.
        let d = self.hi - f64::from(f);
        if (self.lo > 0.0) == (d > 0.0) {
            if d > 0.0 { f.next_up() } else { f.next_down() }
        } else {
            f
        }
    }
}

/// The rounded sums of `xs` in every order (at most four values).
fn sums(xs: &[f32]) -> Set {
    let n = xs.len();
    let full = (1usize << n) - 1;
    let mut at = [Set::default(); 16];
    for mask in 1..=full {
        let mut v = Set::default();
        if mask.count_ones() == 1 {
            v.put(xs[mask.trailing_zeros() as usize]);
        } else {
            let low = mask & mask.wrapping_neg();
            let mut a = (mask - 1) & mask;
            while a != 0 {
                if a & low != 0 {
                    for x in at[a].iter() {
                        for y in at[mask & !a].iter() {
                            v.put(x + y);
                        }
                    }
                }
                a = (a - 1) & mask;
            }
        }
        at[mask] = v;
    }
    at[full]
}

/// A value the search keeps, compared by its bits (so +0 and −0, or two NaNs, stay apart).
trait Bits: Copy + Default {
    type Key: PartialEq;
    fn key(self) -> Self::Key;
}

impl Bits for f32 {
    type Key = u32;
    fn key(self) -> u32 {
        self.to_bits()
    }
}

impl Bits for (f32, f32) {
    type Key = (u32, u32);
    fn key(self) -> (u32, u32) {
        (self.0.to_bits(), self.1.to_bits())
    }
}

/// A few distinct values, without allocation: the search runs on many lanes.
#[derive(Clone, Copy, Default)]
struct Few<T> {
    v: [T; 8],
    len: u8,
    /// A value did not fit.
    full: bool,
}

impl<T: Bits> Few<T> {
    fn put(&mut self, x: T) {
        if self.iter().any(|y| y.key() == x.key()) {
            return;
        }
        match self.v.get_mut(usize::from(self.len)) {
            Some(slot) => {
                *slot = x;
                self.len += 1;
            }
            None => self.full = true,
        }
    }

    fn iter(&self) -> impl Iterator<Item = T> + '_ {
        self.v[..usize::from(self.len)].iter().copied()
    }
}

/// The values a subset's sum may take.
type Set = Few<f32>;
/// The operand pairs whose unrounded product a compiler may fuse.
type Forms = Few<(f32, f32)>;

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
        // `dp3` begun with the middle product, each later one fused (the H100, 2026-12-07:
        // `fma(z, z', fma(x, x', y * y'))`): one ULP from every serial order from either end.
        let mut ev = 0;
        dp3(
            [0x4049_0fdb; 3],
            [0x42c0_0000, 0x4464_7be0, 0x4470_b98a],
            &mut ev,
        );
        assert_eq!(ev & D::FusionSensitive.bit(), D::FusionSensitive.bit());
        let mut ev = 0;
        dp3(
            [0xc3ae_952e, 0x440e_04da, 0x42b2_0000],
            [0x43c3_2250, 0x43c3_2250, 0x4451_de2e],
            &mut ev,
        );
        assert_eq!(ev & D::FusionSensitive.bit(), D::FusionSensitive.bit());
        // A shared literal factored out of `dp4`, the co-factors summed in another order
        // (the H100: `L * (((y + y) + z) + z)` for `dp4 l(L, L, L, L), v.zyyz`).
        let mut ev = 0;
        dp4(
            [0xe683_3355; 4],
            [0x3eaa_aaab, 0x3f80_0000, 0x3f80_0000, 0x3eaa_aaab],
            &mut ev,
        );
        assert_eq!(ev & D::FusionSensitive.bit(), D::FusionSensitive.bit());
        // A product exactly halfway between two floats plus a small one: fused (or exactly
        // rounded) it rounds up, unfused the tie goes to even (the H100's `dp2`).
        let mut ev = 0;
        dp2(
            [0x3fc0_0000, 0x3f80_0000],
            [0x66d5_845e, 0x41d0_0000],
            &mut ev,
        );
        assert_eq!(ev & D::FusionSensitive.bit(), D::FusionSensitive.bit());
        assert_eq!(
            super::fma(1.5, f32::from_bits(0x66d5_845e), 26.0).to_bits(),
            0x6720_2347
        );
        // A tiny shared operand (the H100's `dp3 r0.x, r0.yyyy, v2` gave one ULP below every
        // serial order).
        let mut ev = 0;
        dp3(
            [0x0b43_a8e7; 3],
            [0x4450_1cb4, 0x4049_0fdb, 0x3f00_0000],
            &mut ev,
        );
        assert_eq!(ev & D::FusionSensitive.bit(), D::FusionSensitive.bit());
        // Fused, an exact sum just below 2^-126 is tiny before its one rounding (the H100's
        // `mad`, flushed to −0).
        let mut ev = 0;
        super::super::float::fmad(0x0080_0000, 0x3380_0000, 0x8080_0000, &mut ev);
        assert_eq!(
            ev & D::TinyBeforeRounding.bit(),
            D::TinyBeforeRounding.bit()
        );
        // No shared operand and nothing to round differently: no event.
        let mut ev = 0;
        dp2([f(2.0), f(3.0)], [f(5.0), f(7.0)], &mut ev);
        assert_eq!(ev & D::FusionSensitive.bit(), 0);
    }
}
