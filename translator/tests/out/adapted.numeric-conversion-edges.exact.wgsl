// adaptations: adapted/typeless-registers
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

fn d3d_isnan(x: u32) -> bool {
    return ((x & 2147483647u) > 2139095040u);
}

fn d3d_ftz(x_1: u32) -> u32 {
    return select(x_1, (x_1 & 2147483648u), ((x_1 & 2139095040u) == 0u));
}

fn d3d_fin(x_2: u32) -> f32 {
    let _e1 = d3d_ftz(x_2);
    return bitcast<f32>(_e1);
}

fn d3d_ftoi(x_3: u32) -> u32 {
    let _e1 = d3d_isnan(x_3);
    if _e1 {
        return 0u;
    }
    let _e3 = d3d_fin(x_3);
    if (_e3 >= 2147483600f) {
        return 2147483647u;
    }
    if (_e3 <= -2147483600f) {
        return 2147483648u;
    }
    return bitcast<u32>(i32(_e3));
}

fn d3d_ftou(x_4: u32) -> u32 {
    let _e1 = d3d_isnan(x_4);
    if _e1 {
        return 0u;
    }
    let _e3 = d3d_fin(x_4);
    if (_e3 >= 4294967300f) {
        return 4294967295u;
    }
    if (_e3 <= 0f) {
        return 0u;
    }
    return u32(_e3);
}

fn run() {
    let _e4 = cb0_.v[0].x;
    let _e6 = d3d_ftoi(_e4);
    let _e8 = cb0_.v[0].y;
    let _e9 = d3d_ftoi(_e8);
    o[0].x = _e6;
    o[0].y = _e9;
    let _e15 = cb0_.v[0].z;
    let _e16 = d3d_ftou(_e15);
    let _e18 = cb0_.v[0].w;
    let _e19 = d3d_ftou(_e18);
    o[0].z = _e16;
    o[0].w = _e19;
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
