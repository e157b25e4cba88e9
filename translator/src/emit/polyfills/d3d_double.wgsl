// Software doubles on `vec2<u32>` (x: low word, y: high word), exact to D3D's double rules
// (FS §22.14-22.17): IEEE 754 binary64, round to nearest even, denormals kept, every NaN
// result the canonical 0x7FF8000000000000. Integer operations only: no float latitude of
// WGSL reaches them. 128-bit intermediates are `vec4<u32>`, x the lowest word.

fn d64_qnan() -> vec2<u32> {
    return vec2<u32>(0u, 0x7ff80000u);
}

fn d64_is_nan(a: vec2<u32>) -> bool {
    let hi = a.y & 0x7fffffffu;
    return hi > 0x7ff00000u || (hi == 0x7ff00000u && a.x != 0u);
}

fn d64_is_inf(a: vec2<u32>) -> bool {
    return (a.y & 0x7fffffffu) == 0x7ff00000u && a.x == 0u;
}

fn d64_is_zero(a: vec2<u32>) -> bool {
    return (a.y & 0x7fffffffu) == 0u && a.x == 0u;
}

fn d64_sign(a: vec2<u32>) -> u32 {
    return a.y >> 31u;
}

// The 53-bit significand (hidden bit included for normals) as a 64-bit integer.
fn d64_sig(a: vec2<u32>) -> vec2<u32> {
    let e = (a.y >> 20u) & 0x7ffu;
    let hidden = select(0u, 0x100000u, e != 0u);
    return vec2<u32>(a.x, (a.y & 0xfffffu) | hidden);
}

// The exponent of the significand's least bit: value = sig * 2^exp.
fn d64_lsb_exp(a: vec2<u32>) -> i32 {
    let e = i32((a.y >> 20u) & 0x7ffu);
    return select(e, 1, e == 0) - 1075;
}

fn d64_signed_zero(sign: u32) -> vec2<u32> {
    return vec2<u32>(0u, sign << 31u);
}

fn d64_signed_inf(sign: u32) -> vec2<u32> {
    return vec2<u32>(0u, (sign << 31u) | 0x7ff00000u);
}

// ---- 64-bit integers ----

fn u64_add(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    let lo = a.x + b.x;
    return vec2<u32>(lo, a.y + b.y + select(0u, 1u, lo < a.x));
}

fn u64_sub(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    return vec2<u32>(a.x - b.x, a.y - b.y - select(0u, 1u, a.x < b.x));
}

fn u64_lt(a: vec2<u32>, b: vec2<u32>) -> bool {
    return a.y < b.y || (a.y == b.y && a.x < b.x);
}

fn u64_shl1(a: vec2<u32>) -> vec2<u32> {
    return vec2<u32>(a.x << 1u, (a.y << 1u) | (a.x >> 31u));
}

fn u64_clz(a: vec2<u32>) -> u32 {
    return select(32u + countLeadingZeros(a.x), countLeadingZeros(a.y), a.y != 0u);
}

// The full 64-bit product of two words.
fn u32_mul_wide(a: u32, b: u32) -> vec2<u32> {
    let a0 = a & 0xffffu;
    let a1 = a >> 16u;
    let b0 = b & 0xffffu;
    let b1 = b >> 16u;
    let p00 = a0 * b0;
    let p01 = a0 * b1;
    let p10 = a1 * b0;
    let p11 = a1 * b1;
    let mid = (p00 >> 16u) + (p01 & 0xffffu) + (p10 & 0xffffu);
    let lo = (p00 & 0xffffu) | (mid << 16u);
    let hi = p11 + (p01 >> 16u) + (p10 >> 16u) + (mid >> 16u);
    return vec2<u32>(lo, hi);
}

// ---- 128-bit integers ----

fn u128_add(a: vec4<u32>, b: vec4<u32>) -> vec4<u32> {
    var r = vec4<u32>(0u);
    var carry = 0u;
    for (var i = 0u; i < 4u; i++) {
        let s = a[i] + b[i];
        let c1 = select(0u, 1u, s < a[i]);
        let t = s + carry;
        let c2 = select(0u, 1u, t < s);
        r[i] = t;
        carry = c1 + c2;
    }
    return r;
}

fn u128_sub(a: vec4<u32>, b: vec4<u32>) -> vec4<u32> {
    var r = vec4<u32>(0u);
    var borrow = 0u;
    for (var i = 0u; i < 4u; i++) {
        let d = a[i] - b[i];
        let b1 = select(0u, 1u, a[i] < b[i]);
        let t = d - borrow;
        let b2 = select(0u, 1u, d < borrow);
        r[i] = t;
        borrow = b1 + b2;
    }
    return r;
}

fn u128_lt(a: vec4<u32>, b: vec4<u32>) -> bool {
    for (var k = 0u; k < 4u; k++) {
        let i = 3u - k;
        if (a[i] != b[i]) {
            return a[i] < b[i];
        }
    }
    return false;
}

fn u128_is_zero(a: vec4<u32>) -> bool {
    return (a.x | a.y | a.z | a.w) == 0u;
}

// Leading zeros (128 for 0).
fn u128_clz(a: vec4<u32>) -> u32 {
    for (var k = 0u; k < 4u; k++) {
        let i = 3u - k;
        if (a[i] != 0u) {
            return 32u * k + countLeadingZeros(a[i]);
        }
    }
    return 128u;
}

fn u128_shl(a: vec4<u32>, s: u32) -> vec4<u32> {
    if (s >= 128u) {
        return vec4<u32>(0u);
    }
    let w = s / 32u;
    let b = s % 32u;
    var r = vec4<u32>(0u);
    for (var i = 0u; i < 4u; i++) {
        if (i >= w) {
            let j = i - w;
            var v = a[j] << b;
            if (b != 0u && j > 0u) {
                v = v | (a[j - 1u] >> (32u - b));
            }
            r[i] = v;
        }
    }
    return r;
}

fn u128_shr(a: vec4<u32>, s: u32) -> vec4<u32> {
    if (s >= 128u) {
        return vec4<u32>(0u);
    }
    let w = s / 32u;
    let b = s % 32u;
    var r = vec4<u32>(0u);
    for (var i = 0u; i < 4u; i++) {
        let j = i + w;
        if (j < 4u) {
            var v = a[j] >> b;
            if (b != 0u && j + 1u < 4u) {
                v = v | (a[j + 1u] << (32u - b));
            }
            r[i] = v;
        }
    }
    return r;
}

// Whether any of the low `n` bits is set.
fn u128_low_nonzero(a: vec4<u32>, n: u32) -> bool {
    if (n == 0u) {
        return false;
    }
    if (n >= 128u) {
        return !u128_is_zero(a);
    }
    return !u128_is_zero(u128_shl(a, 128u - n));
}

// `a >> s` with every bit shifted out OR-ed into the least bit (a sticky bit).
fn u128_shr_sticky(a: vec4<u32>, s: u32) -> vec4<u32> {
    let sticky = select(0u, 1u, u128_low_nonzero(a, s));
    let r = u128_shr(a, s);
    return vec4<u32>(r.x | sticky, r.y, r.z, r.w);
}

fn u128_of(a: vec2<u32>) -> vec4<u32> {
    return vec4<u32>(a.x, a.y, 0u, 0u);
}

// ---- rounding ----

// sign, and the nonzero value m * 2^exp, rounded to nearest even as a double: denormals
// kept, overflow to infinity.
fn d64_round(sign: u32, exp: i32, m: vec4<u32>) -> vec2<u32> {
    let msb = 127 - i32(u128_clz(m));
    let e = exp + msb;
    let ulp = max(e - 52, -1074);
    let s = ulp - exp;
    var q: vec2<u32>;
    var up = false;
    if (s <= 0) {
        let t = u128_shl(m, u32(-s));
        q = vec2<u32>(t.x, t.y);
    } else {
        let t = u128_shr(m, u32(s));
        q = vec2<u32>(t.x, t.y);
        let guard = !u128_is_zero(vec4<u32>(u128_shr(m, u32(s - 1)).x & 1u, 0u, 0u, 0u));
        let sticky = u128_low_nonzero(m, u32(s - 1));
        up = guard && (sticky || (q.x & 1u) == 1u);
    }
    if (up) {
        q = u64_add(q, vec2<u32>(1u, 0u));
    }
    var ulp2 = ulp;
    if (q.y >= 0x200000u) {
        // A carry to 2^53: one more bit.
        q = vec2<u32>((q.x >> 1u) | (q.y << 31u), q.y >> 1u);
        ulp2 = ulp2 + 1;
    }
    if (ulp2 > 971) {
        return d64_signed_inf(sign);
    }
    if (q.y >= 0x100000u) {
        let biased = u32(ulp2 + 1075);
        return vec2<u32>(q.x, (sign << 31u) | (biased << 20u) | (q.y & 0xfffffu));
    }
    return vec2<u32>(q.x, (sign << 31u) | q.y);
}

// ---- arithmetic ----

// a + b given both finite and nonzero, as 128-bit windows whose msb sits at bit 126.
fn d64_sum(sa: u32, ea: i32, ma: vec4<u32>, sb: u32, eb: i32, mb: vec4<u32>) -> vec2<u32> {
    var s1 = sa;
    var e1 = ea;
    var m1 = ma;
    var s2 = sb;
    var e2 = eb;
    var m2 = mb;
    if (e2 > e1) {
        s1 = sb;
        e1 = eb;
        m1 = mb;
        s2 = sa;
        e2 = ea;
        m2 = ma;
    }
    m2 = u128_shr_sticky(m2, u32(min(e1 - e2, 200)));
    if (s1 == s2) {
        return d64_round(s1, e1, u128_add(m1, m2));
    }
    if (u128_lt(m1, m2)) {
        return d64_round(s2, e1, u128_sub(m2, m1));
    }
    let m = u128_sub(m1, m2);
    if (u128_is_zero(m)) {
        return vec2<u32>(0u, 0u);
    }
    return d64_round(s1, e1, m);
}

// A nonzero 128-bit value and its lsb exponent, shifted so its msb sits at bit 126.
fn d64_window(m: vec4<u32>) -> vec4<u32> {
    return u128_shl(m, u128_clz(m) - 1u);
}

fn d64_window_exp(m: vec4<u32>, exp: i32) -> i32 {
    return exp - i32(u128_clz(m) - 1u);
}

fn d3d_dadd(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    if (d64_is_nan(a) || d64_is_nan(b)) {
        return d64_qnan();
    }
    if (d64_is_inf(a)) {
        if (d64_is_inf(b) && d64_sign(a) != d64_sign(b)) {
            return d64_qnan();
        }
        return a;
    }
    if (d64_is_inf(b)) {
        return b;
    }
    if (d64_is_zero(a)) {
        if (d64_is_zero(b)) {
            return d64_signed_zero(d64_sign(a) & d64_sign(b));
        }
        return b;
    }
    if (d64_is_zero(b)) {
        return a;
    }
    let ma = u128_of(d64_sig(a));
    let mb = u128_of(d64_sig(b));
    return d64_sum(
        d64_sign(a), d64_window_exp(ma, d64_lsb_exp(a)), d64_window(ma),
        d64_sign(b), d64_window_exp(mb, d64_lsb_exp(b)), d64_window(mb),
    );
}

// The exact 106-bit product of two significands.
fn d64_sig_product(a: vec2<u32>, b: vec2<u32>) -> vec4<u32> {
    let p00 = u32_mul_wide(a.x, b.x);
    let p01 = u32_mul_wide(a.x, b.y);
    let p10 = u32_mul_wide(a.y, b.x);
    let p11 = u32_mul_wide(a.y, b.y);
    var r = vec4<u32>(p00.x, p00.y, p11.x, p11.y);
    r = u128_add(r, vec4<u32>(0u, p01.x, p01.y, 0u));
    r = u128_add(r, vec4<u32>(0u, p10.x, p10.y, 0u));
    return r;
}

fn d3d_dmul(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    if (d64_is_nan(a) || d64_is_nan(b)) {
        return d64_qnan();
    }
    let sign = d64_sign(a) ^ d64_sign(b);
    if (d64_is_inf(a) || d64_is_inf(b)) {
        if (d64_is_zero(a) || d64_is_zero(b)) {
            return d64_qnan();
        }
        return d64_signed_inf(sign);
    }
    if (d64_is_zero(a) || d64_is_zero(b)) {
        return d64_signed_zero(sign);
    }
    let p = d64_sig_product(d64_sig(a), d64_sig(b));
    return d64_round(sign, d64_lsb_exp(a) + d64_lsb_exp(b), p);
}

fn d3d_dfma(a: vec2<u32>, b: vec2<u32>, c: vec2<u32>) -> vec2<u32> {
    if (d64_is_nan(a) || d64_is_nan(b) || d64_is_nan(c)) {
        return d64_qnan();
    }
    let sp = d64_sign(a) ^ d64_sign(b);
    if (d64_is_inf(a) || d64_is_inf(b)) {
        if (d64_is_zero(a) || d64_is_zero(b)) {
            return d64_qnan();
        }
        if (d64_is_inf(c) && d64_sign(c) != sp) {
            return d64_qnan();
        }
        return d64_signed_inf(sp);
    }
    if (d64_is_inf(c)) {
        return c;
    }
    if (d64_is_zero(a) || d64_is_zero(b)) {
        if (d64_is_zero(c)) {
            return d64_signed_zero(sp & d64_sign(c));
        }
        return c;
    }
    let p = d64_sig_product(d64_sig(a), d64_sig(b));
    let ep = d64_lsb_exp(a) + d64_lsb_exp(b);
    if (d64_is_zero(c)) {
        return d64_round(sp, ep, p);
    }
    let mc = u128_of(d64_sig(c));
    return d64_sum(
        sp, d64_window_exp(p, ep), d64_window(p),
        d64_sign(c), d64_window_exp(mc, d64_lsb_exp(c)), d64_window(mc),
    );
}

// A significand normalized so its msb sits at bit 52, and its lsb exponent.
fn d64_norm_sig(a: vec2<u32>) -> vec2<u32> {
    let sig = d64_sig(a);
    let k = u64_clz(sig) - 11u;
    let t = u128_shl(u128_of(sig), k);
    return vec2<u32>(t.x, t.y);
}

fn d64_norm_exp(a: vec2<u32>) -> i32 {
    return d64_lsb_exp(a) - i32(u64_clz(d64_sig(a)) - 11u);
}

fn d3d_ddiv(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    if (d64_is_nan(a) || d64_is_nan(b)) {
        return d64_qnan();
    }
    let sign = d64_sign(a) ^ d64_sign(b);
    if (d64_is_inf(a)) {
        if (d64_is_inf(b)) {
            return d64_qnan();
        }
        return d64_signed_inf(sign);
    }
    if (d64_is_inf(b)) {
        return d64_signed_zero(sign);
    }
    if (d64_is_zero(b)) {
        if (d64_is_zero(a)) {
            return d64_qnan();
        }
        return d64_signed_inf(sign);
    }
    if (d64_is_zero(a)) {
        return d64_signed_zero(sign);
    }
    var na = d64_norm_sig(a);
    let nb = d64_norm_sig(b);
    var ea = d64_norm_exp(a);
    let eb = d64_norm_exp(b);
    if (u64_lt(na, nb)) {
        na = u64_shl1(na);
        ea = ea - 1;
    }
    // 56 quotient bits of na / nb (the first is 1), by restoring division.
    var r = na;
    var q = vec2<u32>(0u, 0u);
    for (var i = 0u; i < 56u; i++) {
        q = u64_shl1(q);
        if (!u64_lt(r, nb)) {
            r = u64_sub(r, nb);
            q.x = q.x | 1u;
        }
        r = u64_shl1(r);
    }
    let sticky = select(0u, 1u, (r.x | r.y) != 0u);
    return d64_round(sign, ea - eb - 55, vec4<u32>(q.x | sticky, q.y, 0u, 0u));
}

fn d3d_drcp(a: vec2<u32>) -> vec2<u32> {
    return d3d_ddiv(vec2<u32>(0u, 0x3ff00000u), a);
}

// ---- comparisons and min/max ----

// A key whose unsigned order is the doubles' order, with -0 and +0 equal.
fn d64_key(a: vec2<u32>) -> vec2<u32> {
    if (d64_is_zero(a)) {
        return vec2<u32>(0u, 0x80000000u);
    }
    if (d64_sign(a) == 1u) {
        return ~a;
    }
    return vec2<u32>(a.x, a.y | 0x80000000u);
}

fn d64_less(a: vec2<u32>, b: vec2<u32>) -> bool {
    return !d64_is_nan(a) && !d64_is_nan(b) && u64_lt(d64_key(a), d64_key(b));
}

fn d64_equal(a: vec2<u32>, b: vec2<u32>) -> bool {
    return !d64_is_nan(a) && !d64_is_nan(b) && all(d64_key(a) == d64_key(b));
}

fn d3d_deq(a: vec2<u32>, b: vec2<u32>) -> u32 {
    return select(0u, 0xffffffffu, d64_equal(a, b));
}

fn d3d_dne(a: vec2<u32>, b: vec2<u32>) -> u32 {
    return select(0xffffffffu, 0u, d64_equal(a, b));
}

fn d3d_dlt(a: vec2<u32>, b: vec2<u32>) -> u32 {
    return select(0u, 0xffffffffu, d64_less(a, b));
}

fn d3d_dge(a: vec2<u32>, b: vec2<u32>) -> u32 {
    let ordered = !d64_is_nan(a) && !d64_is_nan(b);
    return select(0u, 0xffffffffu, ordered && !u64_lt(d64_key(a), d64_key(b)));
}

// The fp32 min/max rules on doubles: one NaN gives the other operand, two a NaN; min(+0, -0)
// is -0 and max +0.
fn d3d_dmin(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    if (d64_is_nan(a)) {
        return select(b, d64_qnan(), d64_is_nan(b));
    }
    if (d64_is_nan(b)) {
        return a;
    }
    if (d64_is_zero(a) && d64_is_zero(b) && any(a != b)) {
        return vec2<u32>(0u, 0x80000000u);
    }
    return select(b, a, d64_less(a, b));
}

fn d3d_dmax(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    if (d64_is_nan(a)) {
        return select(b, d64_qnan(), d64_is_nan(b));
    }
    if (d64_is_nan(b)) {
        return a;
    }
    if (d64_is_zero(a) && d64_is_zero(b) && any(a != b)) {
        return vec2<u32>(0u, 0u);
    }
    return select(b, a, !d64_less(a, b));
}

// `_sat` on a double result: NaN, negatives and -0 give +0, values of 1 or more 1.0.
fn d3d_dsat(a: vec2<u32>) -> vec2<u32> {
    if (d64_is_nan(a) || d64_sign(a) == 1u) {
        return vec2<u32>(0u, 0u);
    }
    if (!u64_lt(a, vec2<u32>(0u, 0x3ff00000u))) {
        return vec2<u32>(0u, 0x3ff00000u);
    }
    return a;
}

// ---- conversions ----

// Double to float, round to nearest even, overflow to infinity; a result below 2^-126 is
// flushed to a zero of its sign (fp32 has no denormals); NaN is 0x7fc00000.
fn d3d_dtof(a: vec2<u32>) -> u32 {
    let sign = d64_sign(a) << 31u;
    if (d64_is_nan(a)) {
        return 0x7fc00000u;
    }
    if (d64_is_inf(a)) {
        return sign | 0x7f800000u;
    }
    if (d64_is_zero(a)) {
        return sign;
    }
    let sig = d64_sig(a);
    let exp = d64_lsb_exp(a);
    let msb = 63 - i32(u64_clz(sig));
    let e = exp + msb;
    if (e < -127) {
        return sign;
    }
    if (e > 127) {
        return sign | 0x7f800000u;
    }
    let ulp = max(e - 23, -149);
    let s = u32(ulp - exp);
    let m = u128_of(sig);
    var q = u128_shr(m, s).x;
    let guard = (u128_shr(m, s - 1u).x & 1u) == 1u;
    let sticky = u128_low_nonzero(m, s - 1u);
    if (guard && (sticky || (q & 1u) == 1u)) {
        q = q + 1u;
    }
    var u = ulp;
    if (q >= 0x1000000u) {
        q = q >> 1u;
        u = u + 1;
    }
    if (q < 0x800000u) {
        return sign;
    }
    if (u > 104) {
        return sign | 0x7f800000u;
    }
    return sign | (u32(u + 150) << 23u) | (q & 0x7fffffu);
}

// Float to double, exactly; an f32 denormal is flushed to a zero of its sign first.
fn d3d_ftod(x: u32) -> vec2<u32> {
    let sign = x >> 31u;
    let e = (x >> 23u) & 0xffu;
    let m = x & 0x7fffffu;
    if (e == 255u) {
        if (m != 0u) {
            return d64_qnan();
        }
        return d64_signed_inf(sign);
    }
    if (e == 0u) {
        return d64_signed_zero(sign);
    }
    return vec2<u32>(m << 29u, (sign << 31u) | ((e + 896u) << 20u) | (m >> 3u));
}

// The magnitude of a double truncated toward zero, saturated to 2^32 (for ordinary values it
// is exact up to 2^32 - 1).
fn d64_trunc_mag(a: vec2<u32>) -> vec2<u32> {
    let exp = d64_lsb_exp(a);
    if (exp >= 0) {
        return vec2<u32>(0u, 1u);
    }
    let s = u32(-exp);
    let t = u128_shr(u128_of(d64_sig(a)), s);
    if (t.y != 0u) {
        return vec2<u32>(0u, 1u);
    }
    return vec2<u32>(t.x, 0u);
}

fn d3d_dtoi(a: vec2<u32>) -> u32 {
    if (d64_is_nan(a)) {
        return 0u;
    }
    let neg = d64_sign(a) == 1u;
    if (d64_is_inf(a)) {
        return select(0x7fffffffu, 0x80000000u, neg);
    }
    let t = d64_trunc_mag(a);
    if (neg) {
        if (t.y != 0u || t.x > 0x80000000u) {
            return 0x80000000u;
        }
        return 0u - t.x;
    }
    if (t.y != 0u || t.x > 0x7fffffffu) {
        return 0x7fffffffu;
    }
    return t.x;
}

fn d3d_dtou(a: vec2<u32>) -> u32 {
    if (d64_is_nan(a)) {
        return 0u;
    }
    let neg = d64_sign(a) == 1u;
    if (d64_is_inf(a)) {
        return select(0xffffffffu, 0u, neg);
    }
    let t = d64_trunc_mag(a);
    if (neg) {
        return 0u;
    }
    if (t.y != 0u) {
        return 0xffffffffu;
    }
    return t.x;
}

fn d3d_utod(x: u32) -> vec2<u32> {
    if (x == 0u) {
        return vec2<u32>(0u, 0u);
    }
    return d64_round(0u, 0, vec4<u32>(x, 0u, 0u, 0u));
}

fn d3d_itod(x: u32) -> vec2<u32> {
    if (x == 0u) {
        return vec2<u32>(0u, 0u);
    }
    let neg = (x >> 31u) == 1u;
    let mag = select(x, 0u - x, neg);
    return d64_round(select(0u, 1u, neg), 0, vec4<u32>(mag, 0u, 0u, 0u));
}
