// adaptations: adapted/typeless-registers
// dxdiff built-in translator, ps_5_0

struct Cb0_ {
    v: array<vec4<u32>, 1>,
}

struct PsOut {
    @location(0) o0_: vec4<f32>,
}

@group(0) @binding(0) 
var<uniform> cb0_: Cb0_;
var<private> v_2: array<vec4<u32>, 1>;
var<private> o: array<vec4<u32>, 1>;

fn d64_is_nan(a: vec2<u32>) -> bool {
    var local: bool;
    var local_1: bool;

    let hi = (a.y & 2147483647u);
    if !((hi > 2146435072u)) {
        if (hi == 2146435072u) {
            local_1 = (a.x != 0u);
        } else {
            local_1 = false;
        }
        let _e17 = local_1;
        local = _e17;
    } else {
        local = true;
    }
    let _e19 = local;
    return _e19;
}

fn d64_is_inf(a_1: vec2<u32>) -> bool {
    var local_2: bool;

    if ((a_1.y & 2147483647u) == 2146435072u) {
        local_2 = (a_1.x == 0u);
    } else {
        local_2 = false;
    }
    let _e12 = local_2;
    return _e12;
}

fn d64_is_zero(a_2: vec2<u32>) -> bool {
    var local_3: bool;

    if ((a_2.y & 2147483647u) == 0u) {
        local_3 = (a_2.x == 0u);
    } else {
        local_3 = false;
    }
    let _e12 = local_3;
    return _e12;
}

fn d64_sig(a_3: vec2<u32>) -> vec2<u32> {
    let e = ((a_3.y >> 20u) & 2047u);
    let hidden = select(0u, 1048576u, (e != 0u));
    return vec2<u32>(a_3.x, ((a_3.y & 1048575u) | hidden));
}

fn u128_of(a_4: vec2<u32>) -> vec4<u32> {
    return vec4<u32>(a_4.x, a_4.y, 0u, 0u);
}

fn d64_sign(a_5: vec2<u32>) -> u32 {
    return (a_5.y >> 31u);
}

fn d64_lsb_exp(a_6: vec2<u32>) -> i32 {
    let e_1 = i32(((a_6.y >> 20u) & 2047u));
    return (select(e_1, 1i, (e_1 == 0i)) - 1075i);
}

fn u128_clz(a_7: vec4<u32>) -> u32 {
    var k: u32 = 0u;

    loop {
        let _e3 = k;
        if (_e3 < 4u) {
        } else {
            break;
        }
        {
            let _e7 = k;
            let i_4 = (3u - _e7);
            if (a_7[i_4] != 0u) {
                let _e13 = k;
                return ((32u * _e13) + countLeadingZeros(a_7[i_4]));
            }
        }
        continuing {
            let _e19 = k;
            k = (_e19 + 1u);
        }
    }
    return 128u;
}

fn d64_window_exp(m: vec4<u32>, exp_: i32) -> i32 {
    let _e2 = u128_clz(m);
    return (exp_ - i32((_e2 - 1u)));
}

fn u128_shl(a_8: vec4<u32>, s: u32) -> vec4<u32> {
    var r: vec4<u32> = vec4(0u);
    var i: u32 = 0u;
    var v: u32;
    var local_4: bool;

    if (s >= 128u) {
        return vec4(0u);
    }
    let w = (s / 32u);
    let b_5 = (s % 32u);
    loop {
        let _e15 = i;
        if (_e15 < 4u) {
        } else {
            break;
        }
        {
            let _e18 = i;
            if (_e18 >= w) {
                let _e20 = i;
                let j = (_e20 - w);
                v = (a_8[j] << b_5);
                if (b_5 != 0u) {
                    local_4 = (j > 0u);
                } else {
                    local_4 = false;
                }
                let _e32 = local_4;
                if _e32 {
                    let _e33 = v;
                    v = (_e33 | (a_8[(j - 1u)] >> (32u - b_5)));
                }
                let _e41 = i;
                let _e43 = v;
                r[_e41] = _e43;
            }
        }
        continuing {
            let _e45 = i;
            i = (_e45 + 1u);
        }
    }
    let _e47 = r;
    return _e47;
}

fn d64_window(m_1: vec4<u32>) -> vec4<u32> {
    let _e1 = u128_clz(m_1);
    let _e4 = u128_shl(m_1, (_e1 - 1u));
    return _e4;
}

fn u128_is_zero(a_9: vec4<u32>) -> bool {
    return ((((a_9.x | a_9.y) | a_9.z) | a_9.w) == 0u);
}

fn u128_low_nonzero(a_10: vec4<u32>, n: u32) -> bool {
    if (n == 0u) {
        return false;
    }
    if (n >= 128u) {
        let _e7 = u128_is_zero(a_10);
        return !(_e7);
    }
    let _e11 = u128_shl(a_10, (128u - n));
    let _e12 = u128_is_zero(_e11);
    return !(_e12);
}

fn u128_shr(a_11: vec4<u32>, s_1: u32) -> vec4<u32> {
    var r_1: vec4<u32> = vec4(0u);
    var i_1: u32 = 0u;
    var v_1: u32;
    var local_5: bool;

    if (s_1 >= 128u) {
        return vec4(0u);
    }
    let w_1 = (s_1 / 32u);
    let b_6 = (s_1 % 32u);
    loop {
        let _e15 = i_1;
        if (_e15 < 4u) {
        } else {
            break;
        }
        {
            let _e18 = i_1;
            let j_1 = (_e18 + w_1);
            if (j_1 < 4u) {
                v_1 = (a_11[j_1] >> b_6);
                if (b_6 != 0u) {
                    local_5 = ((j_1 + 1u) < 4u);
                } else {
                    local_5 = false;
                }
                let _e34 = local_5;
                if _e34 {
                    let _e35 = v_1;
                    v_1 = (_e35 | (a_11[(j_1 + 1u)] << (32u - b_6)));
                }
                let _e43 = i_1;
                let _e45 = v_1;
                r_1[_e43] = _e45;
            }
        }
        continuing {
            let _e47 = i_1;
            i_1 = (_e47 + 1u);
        }
    }
    let _e49 = r_1;
    return _e49;
}

fn u128_shr_sticky(a_12: vec4<u32>, s_2: u32) -> vec4<u32> {
    let _e4 = u128_low_nonzero(a_12, s_2);
    let sticky = select(0u, 1u, _e4);
    let _e6 = u128_shr(a_12, s_2);
    return vec4<u32>((_e6.x | sticky), _e6.y, _e6.z, _e6.w);
}

fn u128_lt(a_13: vec4<u32>, b: vec4<u32>) -> bool {
    var k_1: u32 = 0u;

    loop {
        let _e4 = k_1;
        if (_e4 < 4u) {
        } else {
            break;
        }
        {
            let _e8 = k_1;
            let i_5 = (3u - _e8);
            if (a_13[i_5] != b[i_5]) {
                return (a_13[i_5] < b[i_5]);
            }
        }
        continuing {
            let _e17 = k_1;
            k_1 = (_e17 + 1u);
        }
    }
    return false;
}

fn u128_sub(a_14: vec4<u32>, b_1: vec4<u32>) -> vec4<u32> {
    var r_2: vec4<u32> = vec4(0u);
    var borrow: u32 = 0u;
    var i_2: u32 = 0u;

    loop {
        let _e9 = i_2;
        if (_e9 < 4u) {
        } else {
            break;
        }
        {
            let _e12 = i_2;
            let _e14 = i_2;
            let d = (a_14[_e12] - b_1[_e14]);
            let _e19 = i_2;
            let _e21 = i_2;
            let b1_ = select(0u, 1u, (a_14[_e19] < b_1[_e21]));
            let _e25 = borrow;
            let t = (d - _e25);
            let _e29 = borrow;
            let b2_ = select(0u, 1u, (d < _e29));
            let _e32 = i_2;
            r_2[_e32] = t;
            borrow = (b1_ + b2_);
        }
        continuing {
            let _e36 = i_2;
            i_2 = (_e36 + 1u);
        }
    }
    let _e38 = r_2;
    return _e38;
}

fn u64_add(a_15: vec2<u32>, b_2: vec2<u32>) -> vec2<u32> {
    let lo = (a_15.x + b_2.x);
    return vec2<u32>(lo, ((a_15.y + b_2.y) + select(0u, 1u, (lo < a_15.x))));
}

fn d64_signed_inf(sign_: u32) -> vec2<u32> {
    return vec2<u32>(0u, ((sign_ << 31u) | 2146435072u));
}

fn d64_round(sign_1: u32, exp_1: i32, m_2: vec4<u32>) -> vec2<u32> {
    var q: vec2<u32>;
    var up: bool = false;
    var local_6: bool;
    var local_7: bool;
    var ulp2_: i32;

    let _e3 = u128_clz(m_2);
    let msb = (127i - i32(_e3));
    let e_2 = (exp_1 + msb);
    let ulp = max((e_2 - 52i), -1074i);
    let s_3 = (ulp - exp_1);
    if (s_3 <= 0i) {
        let _e20 = u128_shl(m_2, u32(-(s_3)));
        q = vec2<u32>(_e20.x, _e20.y);
    } else {
        let _e25 = u128_shr(m_2, u32(s_3));
        q = vec2<u32>(_e25.x, _e25.y);
        let _e32 = u128_shr(m_2, u32((s_3 - 1i)));
        let _e40 = u128_is_zero(vec4<u32>((_e32.x & 1u), 0u, 0u, 0u));
        let guard = !(_e40);
        let _e45 = u128_low_nonzero(m_2, u32((s_3 - 1i)));
        if guard {
            if !(_e45) {
                let _e52 = q.x;
                local_7 = ((_e52 & 1u) == 1u);
            } else {
                local_7 = true;
            }
            let _e58 = local_7;
            local_6 = _e58;
        } else {
            local_6 = false;
        }
        let _e60 = local_6;
        up = _e60;
    }
    let _e61 = up;
    if _e61 {
        let _e62 = q;
        let _e66 = u64_add(_e62, vec2<u32>(1u, 0u));
        q = _e66;
    }
    ulp2_ = ulp;
    let _e69 = q.y;
    if (_e69 >= 2097152u) {
        let _e73 = q.x;
        let _e77 = q.y;
        let _e82 = q.y;
        q = vec2<u32>(((_e73 >> 1u) | (_e77 << 31u)), (_e82 >> 1u));
        let _e86 = ulp2_;
        ulp2_ = (_e86 + 1i);
    }
    let _e89 = ulp2_;
    if (_e89 > 971i) {
        let _e92 = d64_signed_inf(sign_1);
        return _e92;
    }
    let _e94 = q.y;
    if (_e94 >= 1048576u) {
        let _e97 = ulp2_;
        let biased = u32((_e97 + 1075i));
        let _e102 = q.x;
        let _e109 = q.y;
        return vec2<u32>(_e102, (((sign_1 << 31u) | (biased << 20u)) | (_e109 & 1048575u)));
    }
    let _e115 = q.x;
    let _e119 = q.y;
    return vec2<u32>(_e115, ((sign_1 << 31u) | _e119));
}

fn u128_add(a_16: vec4<u32>, b_3: vec4<u32>) -> vec4<u32> {
    var r_3: vec4<u32> = vec4(0u);
    var carry: u32 = 0u;
    var i_3: u32 = 0u;

    loop {
        let _e9 = i_3;
        if (_e9 < 4u) {
        } else {
            break;
        }
        {
            let _e12 = i_3;
            let _e14 = i_3;
            let s_4 = (a_16[_e12] + b_3[_e14]);
            let _e19 = i_3;
            let c1_ = select(0u, 1u, (s_4 < a_16[_e19]));
            let _e23 = carry;
            let t_1 = (s_4 + _e23);
            let c2_ = select(0u, 1u, (t_1 < s_4));
            let _e29 = i_3;
            r_3[_e29] = t_1;
            carry = (c1_ + c2_);
        }
        continuing {
            let _e33 = i_3;
            i_3 = (_e33 + 1u);
        }
    }
    let _e35 = r_3;
    return _e35;
}

fn d64_sum(sa: u32, ea: i32, ma: vec4<u32>, sb: u32, eb: i32, mb: vec4<u32>) -> vec2<u32> {
    var s1_: u32;
    var e1_: i32;
    var m1_: vec4<u32>;
    var s2_: u32;
    var e2_: i32;
    var m2_: vec4<u32>;

    s1_ = sa;
    e1_ = ea;
    m1_ = ma;
    s2_ = sb;
    e2_ = eb;
    m2_ = mb;
    let _e12 = e2_;
    let _e13 = e1_;
    if (_e12 > _e13) {
        s1_ = sb;
        e1_ = eb;
        m1_ = mb;
        s2_ = sa;
        e2_ = ea;
        m2_ = ma;
    }
    let _e15 = m2_;
    let _e16 = e1_;
    let _e17 = e2_;
    let _e22 = u128_shr_sticky(_e15, u32(min((_e16 - _e17), 200i)));
    m2_ = _e22;
    let _e23 = s1_;
    let _e24 = s2_;
    if (_e23 == _e24) {
        let _e26 = s1_;
        let _e27 = e1_;
        let _e28 = m1_;
        let _e29 = m2_;
        let _e30 = u128_add(_e28, _e29);
        let _e31 = d64_round(_e26, _e27, _e30);
        return _e31;
    }
    let _e32 = m1_;
    let _e33 = m2_;
    let _e34 = u128_lt(_e32, _e33);
    if _e34 {
        let _e35 = s2_;
        let _e36 = e1_;
        let _e37 = m2_;
        let _e38 = m1_;
        let _e39 = u128_sub(_e37, _e38);
        let _e40 = d64_round(_e35, _e36, _e39);
        return _e40;
    }
    let _e41 = m1_;
    let _e42 = m2_;
    let _e43 = u128_sub(_e41, _e42);
    let _e44 = u128_is_zero(_e43);
    if _e44 {
        return vec2<u32>(0u, 0u);
    }
    let _e48 = s1_;
    let _e49 = e1_;
    let _e50 = d64_round(_e48, _e49, _e43);
    return _e50;
}

fn d64_qnan() -> vec2<u32> {
    return vec2<u32>(0u, 2146959360u);
}

fn d64_signed_zero(sign_2: u32) -> vec2<u32> {
    return vec2<u32>(0u, (sign_2 << 31u));
}

fn d3d_dadd(a_17: vec2<u32>, b_4: vec2<u32>) -> vec2<u32> {
    var local_8: bool;
    var local_9: bool;

    let _e2 = d64_is_nan(a_17);
    if !(_e2) {
        let _e6 = d64_is_nan(b_4);
        local_8 = _e6;
    } else {
        local_8 = true;
    }
    let _e8 = local_8;
    if _e8 {
        let _e9 = d64_qnan();
        return _e9;
    }
    let _e10 = d64_is_inf(a_17);
    if _e10 {
        let _e11 = d64_is_inf(b_4);
        if _e11 {
            let _e14 = d64_sign(a_17);
            let _e15 = d64_sign(b_4);
            local_9 = (_e14 != _e15);
        } else {
            local_9 = false;
        }
        let _e18 = local_9;
        if _e18 {
            let _e19 = d64_qnan();
            return _e19;
        }
        return a_17;
    }
    let _e20 = d64_is_inf(b_4);
    if _e20 {
        return b_4;
    }
    let _e21 = d64_is_zero(a_17);
    if _e21 {
        let _e22 = d64_is_zero(b_4);
        if _e22 {
            let _e23 = d64_sign(a_17);
            let _e24 = d64_sign(b_4);
            let _e26 = d64_signed_zero((_e23 & _e24));
            return _e26;
        }
        return b_4;
    }
    let _e27 = d64_is_zero(b_4);
    if _e27 {
        return a_17;
    }
    let _e28 = d64_sig(a_17);
    let _e29 = u128_of(_e28);
    let _e30 = d64_sig(b_4);
    let _e31 = u128_of(_e30);
    let _e32 = d64_sign(a_17);
    let _e33 = d64_lsb_exp(a_17);
    let _e34 = d64_window_exp(_e29, _e33);
    let _e35 = d64_window(_e29);
    let _e36 = d64_sign(b_4);
    let _e37 = d64_lsb_exp(b_4);
    let _e38 = d64_window_exp(_e31, _e37);
    let _e39 = d64_window(_e31);
    let _e40 = d64_sum(_e32, _e34, _e35, _e36, _e38, _e39);
    return _e40;
}

fn run() {
    let _e5 = cb0_.v[0].x;
    let _e7 = cb0_.v[0].y;
    let _e11 = cb0_.v[0].z;
    let _e13 = cb0_.v[0].w;
    let _e15 = d3d_dadd(vec2<u32>(_e5, _e7), vec2<u32>(_e11, _e13));
    o[0].x = _e15.x;
    o[0].y = _e15.y;
    o[0].z = 0u;
    o[0].w = 0u;
    return;
}

@fragment 
fn main() -> PsOut {
    run();
    let _e2 = o[0];
    return PsOut(bitcast<vec4<f32>>(_e2));
}

/* manifest
{
  "stage": "fragment",
  "entry_point": "main",
  "bindings": [
    {
      "kind": "cbuffer",
      "register": 0,
      "group": 0,
      "binding": 0,
      "layout": "uniform-vec4-array",
      "size_bytes": 16
    }
  ],
  "inputs": [],
  "outputs": [
    {
      "register": 0,
      "mask": 15,
      "location": 0,
      "wgsl_type": "vec4<f32>",
      "semantic": "SV_Target"
    }
  ]
}
*/
