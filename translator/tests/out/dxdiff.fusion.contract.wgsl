// adaptations: adapted/typeless-registers, dxdiff/denormals, dxdiff/nan, dxdiff/non-finite, dxdiff/signed-zero
// dxdiff built-in translator, ps_5_0

struct Cb0_ {
    v: array<vec4<u32>, 3>,
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
    let _e10 = cb0_.v[2].x;
    o[0].x = bitcast<u32>(((bitcast<f32>(_e4) * bitcast<f32>(_e7)) + bitcast<f32>(_e10)));
    let _e21 = cb0_.v[0].y;
    let _e23 = cb0_.v[1].y;
    let _e25 = cb0_.v[0].z;
    let _e27 = cb0_.v[1].z;
    o[0].y = bitcast<u32>((((bitcast<f32>(_e4) * bitcast<f32>(_e7)) + (bitcast<f32>(_e21) * bitcast<f32>(_e23))) + (bitcast<f32>(_e25) * bitcast<f32>(_e27))));
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
      "size_bytes": 48
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
