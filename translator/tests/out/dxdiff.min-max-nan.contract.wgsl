// adaptations: adapted/typeless-registers, dxdiff/denormals, dxdiff/min-max-nan, dxdiff/nan, dxdiff/signed-zero
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

fn run() {
    let _e4 = cb0_.v[0].x;
    let _e7 = cb0_.v[1].x;
    let _e14 = cb0_.v[0].y;
    let _e16 = cb0_.v[1].y;
    o[0].x = bitcast<u32>(min(bitcast<f32>(_e4), bitcast<f32>(_e7)));
    o[0].y = bitcast<u32>(min(bitcast<f32>(_e14), bitcast<f32>(_e16)));
    let _e26 = cb0_.v[0].z;
    let _e28 = cb0_.v[1].z;
    let _e34 = cb0_.v[0].w;
    let _e36 = cb0_.v[1].w;
    o[0].z = bitcast<u32>(max(bitcast<f32>(_e26), bitcast<f32>(_e28)));
    o[0].w = bitcast<u32>(max(bitcast<f32>(_e34), bitcast<f32>(_e36)));
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
