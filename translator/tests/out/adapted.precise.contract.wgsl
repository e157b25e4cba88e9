// adaptations: adapted/precise, adapted/typeless-registers, dxdiff/denormals, dxdiff/nan, dxdiff/non-finite, dxdiff/signed-zero
// dxdiff built-in translator, vs_5_0

var<private> v: array<vec4<u32>, 1>;
var<private> o: array<vec4<u32>, 1>;

fn run() {
    let tmp1 = bitcast<u32>(bitcast<f32>(v[0].x) * bitcast<f32>(0x40000000u) + bitcast<f32>(0xbf800000u));
    let tmp2 = bitcast<u32>(bitcast<f32>(v[0].y) * bitcast<f32>(0x40000000u) + bitcast<f32>(0xbf800000u));
    let tmp3 = bitcast<u32>(bitcast<f32>(v[0].z) * bitcast<f32>(0x40000000u) + bitcast<f32>(0x00000000u));
    let tmp4 = bitcast<u32>(bitcast<f32>(v[0].w) * bitcast<f32>(0x3f800000u) + bitcast<f32>(0x00000000u));
    o[0].x = tmp1;
    o[0].y = tmp2;
    o[0].z = tmp3;
    o[0].w = tmp4;
    return;
}

struct VsOut {
    @invariant @builtin(position) o0: vec4<f32>,
}

@vertex
fn main(@location(0) in0: vec4<f32>) -> VsOut {
    v[0] = bitcast<vec4<u32>>(in0);
    run();
    return VsOut(bitcast<vec4<f32>>(o[0]));
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
