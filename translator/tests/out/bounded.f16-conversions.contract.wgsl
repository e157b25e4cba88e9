// adaptations: adapted/typeless-registers, bounded/f16-conversions
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
    let _e13 = cb0_.v[0].y;
    o[0].x = (pack2x16float(vec2<f32>(bitcast<f32>(_e4), 0f)) & 65535u);
    o[0].y = (pack2x16float(vec2<f32>(bitcast<f32>(_e13), 0f)) & 65535u);
    let _e23 = cb0_.v[0].z;
    let _e29 = cb0_.v[0].w;
    o[0].z = bitcast<u32>(unpack2x16float((_e23 & 65535u)).x);
    o[0].w = bitcast<u32>(unpack2x16float((_e29 & 65535u)).x);
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
