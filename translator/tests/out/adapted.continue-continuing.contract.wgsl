// adaptations: adapted/comparison-masks, adapted/continue-continuing, adapted/hoisted-vars, adapted/typeless-registers
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
    var r1x: u32;
    var r1y: u32;
    var r1z: u32;
    var r1w: u32;
    let tmp1 = 0x00000000u;
    let tmp2 = 0x00000000u;
    r0x = tmp1;
    r0y = tmp2;
    loop {
        let tmp3 = select(0u, 0xffffffffu, r0x >= cb0.v[0].x);
        r1x = tmp3;
        if (r1x != 0u) { break; }
        let tmp4 = (r0x + 0x00000001u);
        r0x = tmp4;
        let tmp5 = (r0x & 0x00000001u);
        r1y = tmp5;
        if (r1y != 0u) { continue; }
        let tmp6 = (r0y + r0x);
        r0y = tmp6;
    }
    let tmp7 = r0x;
    let tmp8 = r0y;
    let tmp9 = r0y;
    let tmp10 = r0y;
    o[0].x = tmp7;
    o[0].y = tmp8;
    o[0].z = tmp9;
    o[0].w = tmp10;
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
