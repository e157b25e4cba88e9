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
var<private> v: array<vec4<u32>, 1>;
var<private> o: array<vec4<u32>, 1>;

fn d3d_ftz(x: u32) -> u32 {
    return select(x, (x & 2147483648u), ((x & 2139095040u) == 0u));
}

fn d3d_f32tof16_(x0_: u32) -> u32 {
    let _e1 = d3d_ftz(x0_);
    let s = ((_e1 >> 16u) & 32768u);
    let a = (_e1 & 2147483647u);
    if (a > 2139095040u) {
        return (s | 32256u);
    }
    if (a == 2139095040u) {
        return (s | 31744u);
    }
    if (a >= 1199570944u) {
        return (s | 31743u);
    }
    let e = (i32((a >> 23u)) - 127i);
    if (e >= -14i) {
        return ((s | (u32((e + 15i)) << 10u)) | ((a >> 13u) & 1023u));
    }
    if (e >= -24i) {
        return (s | (((a & 8388607u) | 8388608u) >> u32((-1i - e))));
    }
    return s;
}

fn d3d_f16tof32_(x_1: u32) -> u32 {
    var mm: u32;
    var ee: u32 = 113u;

    let s_1 = ((x_1 & 32768u) << 16u);
    let e_1 = ((x_1 >> 10u) & 31u);
    let m = (x_1 & 1023u);
    if (e_1 == 31u) {
        return ((s_1 | 2139095040u) | (m << 13u));
    }
    if (e_1 == 0u) {
        if (m == 0u) {
            return s_1;
        }
        mm = m;
        loop {
            let _e25 = mm;
            if ((_e25 & 1024u) != 0u) {
                break;
            }
            let _e30 = mm;
            mm = (_e30 << 1u);
            let _e33 = ee;
            ee = (_e33 - 1u);
        }
        let _e36 = ee;
        let _e40 = mm;
        return ((s_1 | (_e36 << 23u)) | ((_e40 & 1023u) << 13u));
    }
    return ((s_1 | ((e_1 + 112u) << 23u)) | (m << 13u));
}

fn run() {
    let _e4 = cb0_.v[0].x;
    let _e6 = d3d_f32tof16_(_e4);
    let _e8 = cb0_.v[0].y;
    let _e9 = d3d_f32tof16_(_e8);
    o[0].x = _e6;
    o[0].y = _e9;
    let _e15 = cb0_.v[0].z;
    let _e18 = d3d_f16tof32_((_e15 & 65535u));
    let _e20 = cb0_.v[0].w;
    let _e22 = d3d_f16tof32_((_e20 & 65535u));
    o[0].z = _e18;
    o[0].w = _e22;
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
