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
    let _e16 = v[0].y;
    let _e19 = d3d_fin(_e16);
    let _e20 = d3d_fin(1073741824u);
    let _e22 = d3d_fout((_e19 * _e20));
    let _e23 = d3d_fin(_e22);
    let _e24 = d3d_fin(3212836864u);
    let _e26 = d3d_fout((_e23 + _e24));
    let _e29 = v[0].z;
    let _e32 = d3d_fin(_e29);
    let _e33 = d3d_fin(1073741824u);
    let _e35 = d3d_fout((_e32 * _e33));
    let _e36 = d3d_fin(_e35);
    let _e37 = d3d_fin(0u);
    let _e39 = d3d_fout((_e36 + _e37));
    let _e42 = v[0].w;
    let _e45 = d3d_fin(_e42);
    let _e46 = d3d_fin(1065353216u);
    let _e48 = d3d_fout((_e45 * _e46));
    let _e49 = d3d_fin(_e48);
    let _e50 = d3d_fin(0u);
    let _e52 = d3d_fout((_e49 + _e50));
    o[0].x = _e13;
    o[0].y = _e26;
    o[0].z = _e39;
    o[0].w = _e52;
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
