// adaptations: adapted/precise, adapted/typeless-registers, dxdiff/non-finite
// dxdiff built-in translator, vs_5_0

struct VsOut {
    @builtin(position) @invariant o0_: vec4<f32>,
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
    let _e3 = v[0].x;
    let _e6 = d3d_fin(_e3);
    let _e7 = d3d_fin(1073741824u);
    let _e9 = d3d_fout((_e6 * _e7));
    let _e10 = d3d_fin(_e9);
    let _e11 = d3d_fin(3212836864u);
    let _e13 = d3d_fout((_e10 + _e11));
    let _e15 = v[0].y;
    let _e16 = d3d_fin(_e15);
    let _e17 = d3d_fin(1073741824u);
    let _e19 = d3d_fout((_e16 * _e17));
    let _e20 = d3d_fin(_e19);
    let _e21 = d3d_fin(3212836864u);
    let _e23 = d3d_fout((_e20 + _e21));
    let _e25 = v[0].z;
    let _e27 = d3d_fin(_e25);
    let _e28 = d3d_fin(1073741824u);
    let _e30 = d3d_fout((_e27 * _e28));
    let _e31 = d3d_fin(_e30);
    let _e32 = d3d_fin(0u);
    let _e34 = d3d_fout((_e31 + _e32));
    let _e36 = v[0].w;
    let _e38 = d3d_fin(_e36);
    let _e39 = d3d_fin(1065353216u);
    let _e41 = d3d_fout((_e38 * _e39));
    let _e42 = d3d_fin(_e41);
    let _e43 = d3d_fin(0u);
    let _e45 = d3d_fout((_e42 + _e43));
    o[0].x = _e13;
    o[0].y = _e23;
    o[0].z = _e34;
    o[0].w = _e45;
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
