// adaptations: adapted/comparison-masks, adapted/typeless-registers, dxdiff/denormals
// dxdiff built-in translator, ps_5_0

struct Cb0_ {
    v: array<vec4<u32>, 2>,
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
    let _e7 = cb0_.v[1].x;
    o[0].x = select(0u, 4294967295u, (bitcast<f32>(_e4) == bitcast<f32>(_e7)));
    let _e18 = cb0_.v[0].y;
    let _e20 = cb0_.v[1].y;
    o[0].y = select(0u, 4294967295u, !((bitcast<f32>(_e18) == bitcast<f32>(_e20))));
    let _e28 = cb0_.v[0].z;
    let _e30 = cb0_.v[1].z;
    o[0].z = select(0u, 4294967295u, (bitcast<i32>(_e28) < bitcast<i32>(_e30)));
    let _e37 = cb0_.v[0].w;
    let _e39 = cb0_.v[1].w;
    o[0].w = select(0u, 4294967295u, (_e37 >= _e39));
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
      "size_bytes": 32
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
