// adaptations: adapted/precise, adapted/typeless-registers, dxdiff/denormals, dxdiff/nan, dxdiff/non-finite, dxdiff/signed-zero
// dxdiff built-in translator, vs_5_0

struct VsOut {
    @builtin(position) @invariant o0_: vec4<f32>,
}

var<private> v: array<vec4<u32>, 1>;
var<private> o: array<vec4<u32>, 1>;

fn run() {
    let _e3 = v[0].x;
    let _e13 = v[0].y;
    let _e21 = v[0].z;
    let _e30 = v[0].w;
    o[0].x = bitcast<u32>(((bitcast<f32>(_e3) * bitcast<f32>(1073741824u)) + bitcast<f32>(3212836864u)));
    o[0].y = bitcast<u32>(((bitcast<f32>(_e13) * bitcast<f32>(1073741824u)) + bitcast<f32>(3212836864u)));
    o[0].z = bitcast<u32>(((bitcast<f32>(_e21) * bitcast<f32>(1073741824u)) + bitcast<f32>(0u)));
    o[0].w = bitcast<u32>(((bitcast<f32>(_e30) * bitcast<f32>(1065353216u)) + bitcast<f32>(0u)));
    return;
}

@vertex 
fn main(@location(0) in0_: vec4<f32>) -> VsOut {
    v[0] = bitcast<vec4<u32>>(in0_);
    run();
    let _e6 = o[0];
    return VsOut(bitcast<vec4<f32>>(_e6));
}

/* manifest
{
  "stage": "vertex",
  "entry_point": "main",
  "bindings": [],
  "inputs": [
    {
      "register": 0,
      "mask": 15,
      "location": 0,
      "wgsl_type": "vec4<f32>",
      "semantic": "TEXCOORD"
    }
  ],
  "outputs": [
    {
      "register": 0,
      "mask": 15,
      "builtin": "position",
      "wgsl_type": "vec4<f32>",
      "semantic": "SV_Position"
    }
  ]
}
*/
