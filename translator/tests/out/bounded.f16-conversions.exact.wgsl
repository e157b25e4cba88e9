// adaptations: adapted/typeless-registers
// dxdiff built-in translator, ps_5_0

struct Cb0 {
    v: array<vec4<u32>, 1>,
}
@group(0) @binding(0) var<uniform> cb0: Cb0;
fn cb0_at(i: u32) -> vec4<u32> {
    if (i < 1u) {
        return cb0.v[i];
    }
    return vec4<u32>();
}
var<private> v: array<vec4<u32>, 1>;
var<private> o: array<vec4<u32>, 1>;

fn d3d_ftz(x: u32) -> u32 {
    return select(x, x & 0x80000000u, (x & 0x7f800000u) == 0u);
}

fn d3d_f32tof16(x0: u32) -> u32 {
    let x = d3d_ftz(x0);
    let s = (x >> 16u) & 0x8000u;
    let a = x & 0x7fffffffu;
    if (a > 0x7f800000u) {
        return s | 0x7e00u;
    }
    if (a == 0x7f800000u) {
        return s | 0x7c00u;
    }
    if (a >= 0x47800000u) {
        return s | 0x7bffu;
    }
    let e = i32(a >> 23u) - 127;
    if (e >= -14) {
        return s | (u32(e + 15) << 10u) | ((a >> 13u) & 0x3ffu);
    }
    if (e >= -24) {
        return s | (((a & 0x7fffffu) | 0x800000u) >> u32(-1 - e));
    }
    return s;
}

fn d3d_f16tof32(x: u32) -> u32 {
    let s = (x & 0x8000u) << 16u;
    let e = (x >> 10u) & 0x1fu;
    let m = x & 0x3ffu;
    if (e == 0x1fu) {
        return s | 0x7f800000u | (m << 13u);
    }
    if (e == 0u) {
        if (m == 0u) {
            return s;
        }
        var mm = m;
        var ee = 113u;
        loop {
            if ((mm & 0x400u) != 0u) {
                break;
            }
            mm = mm << 1u;
            ee = ee - 1u;
        }
        return s | (ee << 23u) | ((mm & 0x3ffu) << 13u);
    }
    return s | ((e + 112u) << 23u) | (m << 13u);
}

fn run() {
    let tmp1 = d3d_f32tof16(cb0.v[0].x);
    let tmp2 = d3d_f32tof16(cb0.v[0].y);
    o[0].x = tmp1;
    o[0].y = tmp2;
    let tmp3 = d3d_f16tof32(cb0.v[0].z & 0xffffu);
    let tmp4 = d3d_f16tof32(cb0.v[0].w & 0xffffu);
    o[0].z = tmp3;
    o[0].w = tmp4;
    return;
}

struct PsOut {
    @location(0) o0: vec4<f32>,
}

@fragment
fn main() -> PsOut {
    run();
    return PsOut(bitcast<vec4<f32>>(o[0]));
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
