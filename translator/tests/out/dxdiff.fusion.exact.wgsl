// adaptations: adapted/typeless-registers, dxdiff/non-finite
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
    let _e4 = cb0_.v[0].x;
    let _e7 = cb0_.v[1].x;
    let _e10 = cb0_.v[2].x;
    let _e11 = d3d_fin(_e4);
    let _e12 = d3d_fin(_e7);
    let _e14 = d3d_fout((_e11 * _e12));
    let _e15 = d3d_fin(_e14);
    let _e16 = d3d_fin(_e10);
    let _e18 = d3d_fout((_e15 + _e16));
    o[0].x = _e18;
    let _e23 = cb0_.v[0].y;
    let _e25 = cb0_.v[1].y;
    let _e27 = cb0_.v[0].z;
    let _e29 = cb0_.v[1].z;
    let _e30 = d3d_fin(_e4);
    let _e31 = d3d_fin(_e7);
    let _e33 = d3d_fout((_e30 * _e31));
    let _e34 = d3d_fin(_e23);
    let _e35 = d3d_fin(_e25);
    let _e37 = d3d_fout((_e34 * _e35));
    let _e38 = d3d_fin(_e33);
    let _e39 = d3d_fin(_e37);
    let _e41 = d3d_fout((_e38 + _e39));
    let _e42 = d3d_fin(_e27);
    let _e43 = d3d_fin(_e29);
    let _e45 = d3d_fout((_e42 * _e43));
    let _e46 = d3d_fin(_e41);
    let _e47 = d3d_fin(_e45);
    let _e49 = d3d_fout((_e46 + _e47));
    o[0].y = _e49;
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
