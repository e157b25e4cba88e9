// adaptations: adapted/comparison-masks, adapted/derivative-uniformity, adapted/hoisted-vars, adapted/typeless-registers, dxdiff/denormals, dxdiff/nan, dxdiff/signed-zero
// dxdiff built-in translator, ps_5_0
// Derivatives under non-uniform control flow, as D3D11 allowed them.
diagnostic(off, derivative_uniformity);

struct PsOut {
    @location(0) o0_: vec4<f32>,
}

var<private> v: array<vec4<u32>, 1>;
var<private> o: array<vec4<u32>, 1>;

fn run() {
    var r0x: u32;
    var r0y: u32;
    var r0z: u32;
    var r0w: u32;

    r0x = 0u;
    r0y = 0u;
    r0z = 0u;
    r0w = 0u;
    let _e8 = v[0].x;
    r0w = select(0u, 4294967295u, (bitcast<f32>(_e8) < bitcast<f32>(1056964608u)));
    let _e15 = r0w;
    if (_e15 != 0u) {
        let _e19 = v[0].y;
        let _e21 = dpdx(bitcast<f32>(_e19));
        r0x = bitcast<u32>(_e21);
    }
    let _e23 = r0x;
    let _e24 = r0y;
    let _e25 = r0z;
    let _e26 = r0w;
    o[0].x = _e23;
    o[0].y = _e24;
    o[0].z = _e25;
    o[0].w = _e26;
    return;
}

@fragment 
fn main(@location(0) in0_: vec4<f32>) -> PsOut {
    v[0] = bitcast<vec4<u32>>(in0_);
    run();
    let _e6 = o[0];
    return PsOut(bitcast<vec4<f32>>(_e6));
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
