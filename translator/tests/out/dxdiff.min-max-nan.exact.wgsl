// adaptations: adapted/typeless-registers
// dxdiff built-in translator, ps_5_0

struct Cb0 {
    v: array<vec4<u32>, 2>,
}
@group(0) @binding(0) var<uniform> cb0: Cb0;
fn cb0_at(i: u32) -> vec4<u32> {
    if (i < 2u) {
        return cb0.v[i];
    }
    return vec4<u32>();
}
var<private> v: array<vec4<u32>, 1>;
var<private> o: array<vec4<u32>, 1>;

fn d3d_ftz(x: u32) -> u32 {
    return select(x, x & 0x80000000u, (x & 0x7f800000u) == 0u);
}

fn d3d_isnan(x: u32) -> bool {
    return (x & 0x7fffffffu) > 0x7f800000u;
}

fn d3d_min(a0: u32, b0: u32) -> u32 {
    let a = d3d_ftz(a0);
    let b = d3d_ftz(b0);
    if (d3d_isnan(a)) {
        return select(b, 0x7fc00000u, d3d_isnan(b));
    }
    if (d3d_isnan(b)) {
        return a;
    }
    if (((a | b) & 0x7fffffffu) == 0u) {
        return a | b;
    }
    return bitcast<u32>(min(bitcast<f32>(a), bitcast<f32>(b)));
}

fn d3d_max(a0: u32, b0: u32) -> u32 {
    let a = d3d_ftz(a0);
    let b = d3d_ftz(b0);
    if (d3d_isnan(a)) {
        return select(b, 0x7fc00000u, d3d_isnan(b));
    }
    if (d3d_isnan(b)) {
        return a;
    }
    if (((a | b) & 0x7fffffffu) == 0u) {
        return a & b;
    }
    return bitcast<u32>(max(bitcast<f32>(a), bitcast<f32>(b)));
}

fn run() {
    let tmp1 = d3d_min(cb0.v[0].x, cb0.v[1].x);
    let tmp2 = d3d_min(cb0.v[0].y, cb0.v[1].y);
    o[0].x = tmp1;
    o[0].y = tmp2;
    let tmp3 = d3d_max(cb0.v[0].z, cb0.v[1].z);
    let tmp4 = d3d_max(cb0.v[0].w, cb0.v[1].w);
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
      "size_bytes": 32
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
