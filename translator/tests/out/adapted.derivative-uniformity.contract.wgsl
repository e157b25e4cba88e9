// adaptations: adapted/comparison-masks, adapted/derivative-uniformity, adapted/typeless-registers, dxdiff/denormals, dxdiff/nan, dxdiff/signed-zero
// dxdiff built-in translator, ps_5_0
// Derivatives under non-uniform control flow, as D3D11 allowed them.
diagnostic(off, derivative_uniformity);

var<private> v: array<vec4<u32>, 1>;
var<private> o: array<vec4<u32>, 1>;
var<private> r0: vec4<u32>;

fn run() {
    let tmp1 = 0x00000000u;
    let tmp2 = 0x00000000u;
    let tmp3 = 0x00000000u;
    let tmp4 = 0x00000000u;
    r0.x = tmp1;
    r0.y = tmp2;
    r0.z = tmp3;
    r0.w = tmp4;
    let tmp5 = select(0u, 0xffffffffu, bitcast<f32>(v[0].x) < bitcast<f32>(0x3f000000u));
    r0.w = tmp5;
    if (r0.w != 0u) {
        let tmp6 = bitcast<u32>(dpdx(bitcast<f32>(v[0].y)));
        r0.x = tmp6;
    }
    let tmp7 = r0.x;
    let tmp8 = r0.y;
    let tmp9 = r0.z;
    let tmp10 = r0.w;
    o[0].x = tmp7;
    o[0].y = tmp8;
    o[0].z = tmp9;
    o[0].w = tmp10;
    return;
}

struct PsOut {
    @location(0) o0: vec4<f32>,
}

@fragment
fn main(@location(0) in0: vec4<f32>) -> PsOut {
    v[0] = bitcast<vec4<u32>>(in0);
    run();
    return PsOut(bitcast<vec4<f32>>(o[0]));
}

/* manifest
{
  "stage": "fragment",
  "entry_point": "main",
  "bindings": [],
  "inputs": [
    {
      "register": 0,
      "mask": 3,
      "location": 0,
      "wgsl_type": "vec4<f32>",
      "semantic": "TEXCOORD"
    }
  ],
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
