// adaptations: adapted/source-modifiers, adapted/typeless-registers, dxdiff/denormals, dxdiff/nan, dxdiff/non-finite, dxdiff/signed-zero
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

fn run() {
    let _e4 = cb0_.v[0].x;
    let _e8 = cb0_.v[0].y;
    o[0].x = bitcast<u32>((bitcast<f32>((_e4 ^ 2147483648u)) + bitcast<f32>((_e8 & 2147483647u))));
    let _e20 = cb0_.v[0].z;
    o[0].y = ((0u - _e20) + 1u);
    let _e26 = cb0_.v[0].w;
    o[0].z = (_e26 | 2147483648u);
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
