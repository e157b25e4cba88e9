// adaptations: adapted/front-facing, adapted/typeless-registers
// dxdiff built-in translator, ps_5_0

struct PsOut {
    @location(0) o0_: vec4<f32>,
}

var<private> v: array<vec4<u32>, 1>;
var<private> o: array<vec4<u32>, 1>;

fn run() {
    let _e3 = v[0].x;
    o[0].x = select(0u, 1065353216u, (_e3 != 0u));
    o[0].y = select(1065353216u, 0u, (_e3 != 0u));
    o[0].z = select(0u, 0u, (_e3 != 0u));
    o[0].w = select(1065353216u, 1065353216u, (_e3 != 0u));
    return;
}

@fragment 
fn main(@builtin(front_facing) in0_: bool) -> PsOut {
    v[0].x = select(0u, 4294967295u, in0_);
    run();
    let _e9 = o[0];
    return PsOut(bitcast<vec4<f32>>(_e9));
}

/* manifest
{
  "stage": "fragment",
  "entry_point": "main",
  "bindings": [],
  "inputs": [
    {
      "register": 0,
      "mask": 1,
      "builtin": "front_facing",
      "wgsl_type": "bool",
      "semantic": "SV_IsFrontFace"
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
