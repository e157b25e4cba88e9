// adaptations: adapted/front-facing, adapted/typeless-registers
// dxdiff built-in translator, ps_5_0

var<private> v: array<vec4<u32>, 1>;
var<private> o: array<vec4<u32>, 1>;

fn run() {
    let tmp1 = select(0x00000000u, 0x3f800000u, v[0].x != 0u);
    let tmp2 = select(0x3f800000u, 0x00000000u, v[0].x != 0u);
    let tmp3 = select(0x00000000u, 0x00000000u, v[0].x != 0u);
    let tmp4 = select(0x3f800000u, 0x3f800000u, v[0].x != 0u);
    o[0].x = tmp1;
    o[0].y = tmp2;
    o[0].z = tmp3;
    o[0].w = tmp4;
    return;
}

struct PsOut {
    @location(0) o0: vec4<f32>,
}

@fragment
fn main(@builtin(front_facing) in0: bool) -> PsOut {
    v[0].x = select(0u, 0xffffffffu, in0);
    run();
    return PsOut(bitcast<vec4<f32>>(o[0]));
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
