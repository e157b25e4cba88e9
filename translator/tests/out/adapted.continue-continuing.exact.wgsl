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

fn cb0_at(i: u32) -> vec4<u32> {
    if (i < 1u) {
        let _e6 = cb0_.v[i];
        return _e6;
    }
    return vec4<u32>();
}

fn run() {
    var r0x: u32;
    var r0y: u32;
    var r1x: u32;
    var r1y: u32;

    r0x = 0u;
    r0y = 0u;
    loop {
        let _e4 = r0x;
        let _e9 = cb0_.v[0].x;
        r1x = select(0u, 4294967295u, (_e4 >= _e9));
        let _e16 = r1x;
        if (_e16 != 0u) {
            break;
        }
        let _e19 = r0x;
        r0x = (_e19 + 1u);
        let _e23 = r0x;
        r1y = (_e23 & 1u);
        let _e28 = r1y;
        if (_e28 != 0u) {
            continue;
        }
        let _e31 = r0y;
        let _e32 = r0x;
        r0y = (_e31 + _e32);
    }
    let _e35 = r0x;
    let _e36 = r0y;
    let _e37 = r0y;
    let _e38 = r0y;
    o[0].x = _e35;
    o[0].y = _e36;
    o[0].z = _e37;
    o[0].w = _e38;
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
