// adaptations: adapted/comparison-masks, adapted/continue-continuing, adapted/hoisted-vars, adapted/typeless-registers
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
    var r0y: u32;
    var r1x: u32;
    var r1y: u32;

    r0x = 0u;
    r0y = 0u;
    loop {
        let _e3 = r0x;
        let _e8 = cb0_.v[0].x;
        r1x = select(0u, 4294967295u, (_e3 >= _e8));
        let _e13 = r1x;
        if (_e13 != 0u) {
            break;
        }
        let _e15 = r0x;
        r0x = (_e15 + 1u);
        let _e18 = r0x;
        r1y = (_e18 & 1u);
        let _e21 = r1y;
        if (_e21 != 0u) {
            continue;
        }
        let _e23 = r0y;
        let _e24 = r0x;
        r0y = (_e23 + _e24);
    }
    let _e26 = r0x;
    let _e27 = r0y;
    o[0].x = _e26;
    o[0].y = _e27;
    o[0].z = _e27;
    o[0].w = _e27;
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
