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

fn d3d_isnan(x: u32) -> bool {
    return ((x & 2147483647u) > 2139095040u);
}

fn d3d_ftz(x_1: u32) -> u32 {
    return select(x_1, (x_1 & 2147483648u), ((x_1 & 2139095040u) == 0u));
}

fn d3d_fin(x_2: u32) -> f32 {
    let _e1 = d3d_ftz(x_2);
    return bitcast<f32>(_e1);
}

fn d3d_sat(x_3: u32) -> u32 {
    var local: bool;

    let _e1 = d3d_isnan(x_3);
    if !(_e1) {
        local = ((x_3 & 2147483647u) == 0u);
    } else {
        local = true;
    }
    let _e10 = local;
    if _e10 {
        return 0u;
    }
    let _e12 = d3d_fin(x_3);
    return bitcast<u32>(clamp(_e12, 0f, 1f));
}

fn run() {
    let _e4 = cb0_.v[0].x;
    let _e5 = d3d_sat(_e4);
    let _e7 = cb0_.v[0].y;
    let _e8 = d3d_sat(_e7);
    let _e10 = cb0_.v[0].z;
    let _e11 = d3d_sat(_e10);
    let _e13 = cb0_.v[0].w;
    let _e14 = d3d_sat(_e13);
    o[0].x = _e5;
    o[0].y = _e8;
    o[0].z = _e11;
    o[0].w = _e14;
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
