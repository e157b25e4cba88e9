// adaptations: adapted/typeless-registers, bounded/udiv
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

fn run() {
    let _e4 = cb0_.v[0].x;
    let _e6 = cb0_.v[0].y;
    let _e8 = (_e6 == 0u);
    let _e10 = select(_e6, 1u, _e8);
    let _e16 = (_e6 == 0u);
    let _e17 = select(_e6, 1u, _e16);
    o[0].x = select((_e4 / _e10), 4294967295u, _e8);
    o[0].y = select((_e4 % _e17), 4294967295u, _e16);
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
