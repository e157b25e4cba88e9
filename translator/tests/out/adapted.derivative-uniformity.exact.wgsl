// adaptations: adapted/comparison-masks, adapted/hoisted-vars, adapted/typeless-registers
// dxdiff built-in translator, ps_5_0
// Derivatives under non-uniform control flow, as D3D11 allowed them.
diagnostic(off, derivative_uniformity);

struct PsOut {
    @location(0) o0_: vec4<f32>,
}

var<private> v: array<vec4<u32>, 1>;
var<private> o: array<vec4<u32>, 1>;

fn d3d_ftz(x: u32) -> u32 {
    return select(x, (x & 2147483648u), ((x & 2139095040u) == 0u));
}

fn d3d_fin(x_1: u32) -> f32 {
    let _e1 = d3d_ftz(x_1);
    return bitcast<f32>(_e1);
}

fn d3d_isnan(x_2: u32) -> bool {
    return ((x_2 & 2147483647u) > 2139095040u);
}

fn d3d_fout(r: f32) -> u32 {
    let x_3 = bitcast<u32>(r);
    let _e2 = d3d_isnan(x_3);
    if _e2 {
        return 2143289344u;
    }
    let _e4 = d3d_ftz(x_3);
    return _e4;
}

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
    let _e10 = d3d_fin(_e8);
    let _e11 = d3d_fin(1056964608u);
    r0w = select(0u, 4294967295u, (_e10 < _e11));
    let _e15 = r0w;
    if (_e15 != 0u) {
        let _e19 = v[0].y;
        let _e20 = d3d_fin(_e19);
        let _e21 = dpdx(_e20);
        let _e22 = d3d_fout(_e21);
        r0x = _e22;
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
