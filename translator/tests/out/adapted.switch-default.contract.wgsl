// adaptations: adapted/hoisted-vars, adapted/switch-default, adapted/typeless-registers
// dxdiff built-in translator, ps_5_0

struct Cb0 {
    v: array<vec4<u32>, 1>,
}
@group(0) @binding(0) var<uniform> cb0: Cb0;
fn cb0_at(i: u32) -> vec4<u32> {
    if (i < 1u) {
        return cb0.v[i];
    }
    return vec4<u32>();
}
var<private> v: array<vec4<u32>, 1>;
var<private> o: array<vec4<u32>, 1>;

fn run() {
    var r0x: u32;
    var r0y: u32;
    var r0z: u32;
    var r0w: u32;
    let tmp1 = 0x00000007u;
    r0x = tmp1;
    switch (cb0.v[0].x) {
        case 0u, 1u: {
            let tmp2 = 0x0000000au;
            r0x = tmp2;
            break;
        }
        case 2u: {
            let tmp3 = 0x00000014u;
            r0x = tmp3;
            break;
        }
        default: {}
    }
    let tmp4 = r0x;
    let tmp5 = r0x;
    let tmp6 = r0x;
    let tmp7 = r0x;
    o[0].x = tmp4;
    o[0].y = tmp5;
    o[0].z = tmp6;
    o[0].w = tmp7;
    return;
}

struct PsOut {
    @location(0) o0: vec4<f32>,
}

@fragment
fn main() -> PsOut {
    run();
    return PsOut(bitcast<vec4<f32>>(o[0]));
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
