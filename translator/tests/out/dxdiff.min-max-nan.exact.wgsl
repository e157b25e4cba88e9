// adaptations: adapted/typeless-registers
// dxdiff built-in translator, ps_5_0

struct Cb0_ {
    v: array<vec4<u32>, 2>,
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

fn d3d_isnan(x_1: u32) -> bool {
    return ((x_1 & 2147483647u) > 2139095040u);
}

fn d3d_min(a0_: u32, b0_: u32) -> u32 {
    let _e2 = d3d_ftz(a0_);
    let _e3 = d3d_ftz(b0_);
    let _e4 = d3d_isnan(_e2);
    if _e4 {
        let _e6 = d3d_isnan(_e3);
        return select(_e3, 2143289344u, _e6);
    }
    let _e8 = d3d_isnan(_e3);
    if _e8 {
        return _e2;
    }
    if (((_e2 | _e3) & 2147483647u) == 0u) {
        return (_e2 | _e3);
    }
    return bitcast<u32>(min(bitcast<f32>(_e2), bitcast<f32>(_e3)));
}

fn d3d_max(a0_1: u32, b0_1: u32) -> u32 {
    let _e2 = d3d_ftz(a0_1);
    let _e3 = d3d_ftz(b0_1);
    let _e4 = d3d_isnan(_e2);
    if _e4 {
        let _e6 = d3d_isnan(_e3);
        return select(_e3, 2143289344u, _e6);
    }
    let _e8 = d3d_isnan(_e3);
    if _e8 {
        return _e2;
    }
    if (((_e2 | _e3) & 2147483647u) == 0u) {
        return (_e2 & _e3);
    }
    return bitcast<u32>(max(bitcast<f32>(_e2), bitcast<f32>(_e3)));
}

fn run() {
    let _e4 = cb0_.v[0].x;
    let _e7 = cb0_.v[1].x;
    let _e9 = d3d_min(_e4, _e7);
    let _e11 = cb0_.v[0].y;
    let _e13 = cb0_.v[1].y;
    let _e14 = d3d_min(_e11, _e13);
    o[0].x = _e9;
    o[0].y = _e14;
    let _e20 = cb0_.v[0].z;
    let _e22 = cb0_.v[1].z;
    let _e23 = d3d_max(_e20, _e22);
    let _e25 = cb0_.v[0].w;
    let _e27 = cb0_.v[1].w;
    let _e28 = d3d_max(_e25, _e27);
    o[0].z = _e23;
    o[0].w = _e28;
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
