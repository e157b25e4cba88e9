// adaptations: adapted/comparison-masks, adapted/typeless-registers
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

fn d3d_fin(x_1: u32) -> f32 {
    let _e1 = d3d_ftz(x_1);
    return bitcast<f32>(_e1);
}

fn run() {
    let _e4 = cb0_.v[0].x;
    let _e7 = cb0_.v[1].x;
    let _e9 = d3d_fin(_e4);
    let _e10 = d3d_fin(_e7);
    o[0].x = select(0u, 4294967295u, (_e9 == _e10));
    let _e18 = cb0_.v[0].y;
    let _e20 = cb0_.v[1].y;
    let _e21 = d3d_fin(_e18);
    let _e22 = d3d_fin(_e20);
    o[0].y = select(0u, 4294967295u, !((_e21 == _e22)));
    let _e28 = cb0_.v[0].z;
    let _e30 = cb0_.v[1].z;
    o[0].z = select(0u, 4294967295u, (bitcast<i32>(_e28) < bitcast<i32>(_e30)));
    let _e37 = cb0_.v[0].w;
    let _e39 = cb0_.v[1].w;
    o[0].w = select(0u, 4294967295u, (_e37 >= _e39));
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
