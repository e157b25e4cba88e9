// adaptations: adapted/icb-const-array, adapted/typeless-registers
// dxdiff built-in translator, ps_5_0

struct Cb0_ {
    v: array<vec4<u32>, 1>,
}

struct PsOut {
    @location(0) o0_: vec4<f32>,
}

const icb: array<vec4<u32>, 2> = array<vec4<u32>, 2>(vec4<u32>(1065353216u, 0u, 0u, 0u), vec4<u32>(1073741824u, 0u, 0u, 0u));

@group(0) @binding(0) 
var<uniform> cb0_: Cb0_;
var<private> v: array<vec4<u32>, 1>;
var<private> o: array<vec4<u32>, 1>;

fn icb_at(i: u32) -> vec4<u32> {
    var t: array<vec4<u32>, 2> = icb;

    if (i < 2u) {
        let _e7 = t[i];
        return _e7;
    }
    return vec4<u32>();
}

fn run() {
    let _e4 = cb0_.v[0].x;
    let _e5 = icb_at(_e4);
    o[0].x = _e5.x;
    o[0].y = _e5.x;
    o[0].z = _e5.x;
    o[0].w = _e5.x;
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
