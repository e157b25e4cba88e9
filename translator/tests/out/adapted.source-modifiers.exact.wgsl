// adaptations: adapted/typeless-registers, dxdiff/non-finite
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

fn d3d_fin(x_1: u32) -> f32 {
    let _e1 = d3d_ftz(x_1);
    return bitcast<f32>(_e1);
}

fn d3d_isnan(x_2: u32) -> bool {
    return ((x_2 & 2147483647u) > 2139095040u);
}

fn d3d_fout(r: f32) -> u32 {
    let x_3 = bitcast<u32>(r);
    let _e2 = d3d_isnan(x_3);
    if _e2 {
        return 2143289344u;
    }
    let _e4 = d3d_ftz(x_3);
    return _e4;
}

fn run() {
    let _e4 = cb0_.v[0].x;
    let _e8 = cb0_.v[0].y;
    let _e12 = d3d_fin((_e4 ^ 2147483648u));
    let _e13 = d3d_fin((_e8 & 2147483647u));
    let _e15 = d3d_fout((_e12 + _e13));
    o[0].x = _e15;
    let _e20 = cb0_.v[0].z;
    o[0].y = ((0u - _e20) + 1u);
    let _e26 = cb0_.v[0].w;
    let _e28 = d3d_ftz((_e26 | 2147483648u));
    o[0].z = _e28;
    o[0].w = _e4;
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
