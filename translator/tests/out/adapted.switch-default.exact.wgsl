// adaptations: adapted/hoisted-vars, adapted/switch-default, adapted/typeless-registers
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
    var r0x: u32;

    r0x = 7u;
    let _e6 = cb0_.v[0].x;
    switch _e6 {
        case 0u, 1u: {
            r0x = 10u;
            break;
        }
        case 2u: {
            r0x = 20u;
            break;
        }
        default: {
        }
    }
    let _e9 = r0x;
    o[0].x = _e9;
    o[0].y = _e9;
    o[0].z = _e9;
    o[0].w = _e9;
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
