// adaptations: adapted/typeless-registers, dxdiff/denormals, dxdiff/nan, dxdiff/non-finite, dxdiff/signed-zero
// dxdiff built-in translator, ps_5_0

struct Cb0 {
    v: array<vec4<u32>, 3>,
}
@group(0) @binding(0) var<uniform> cb0: Cb0;
fn cb0_at(i: u32) -> vec4<u32> {
    if (i < 3u) {
        return cb0.v[i];
    }
    return vec4<u32>();
}
var<private> v: array<vec4<u32>, 1>;
var<private> o: array<vec4<u32>, 1>;

fn run() {
    let tmp1 = bitcast<u32>(bitcast<f32>(cb0.v[0].x) * bitcast<f32>(cb0.v[1].x) + bitcast<f32>(cb0.v[2].x));
    o[0].x = tmp1;
    let tmp2 = bitcast<u32>(bitcast<f32>(cb0.v[0].x) * bitcast<f32>(cb0.v[1].x) + bitcast<f32>(cb0.v[0].y) * bitcast<f32>(cb0.v[1].y) + bitcast<f32>(cb0.v[0].z) * bitcast<f32>(cb0.v[1].z));
    let tmp3 = tmp2;
    o[0].y = tmp3;
    let tmp4 = 0x00000000u;
    let tmp5 = 0x00000000u;
    o[0].z = tmp4;
    o[0].w = tmp5;
    return;
}

struct PsOut {
    @location(0) o0: vec4<f32>,
}

@fragment
fn main() -> PsOut {
    run();
    return PsOut(bitcast<vec4<f32>>(o[0]));
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
